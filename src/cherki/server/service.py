"""What one serving process holds beside its tables: the heavy requests' process, the
searching bots' process, the gate that counts connections and new tables, the lobby's list,
and the clocks (turn timers, letting idle tables go, garbage collection). The routes
(:mod:`cherki.server.api`, :mod:`cherki.server.sockets`) find it as ``app.state.server``.
"""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import os
import threading
import time
import weakref
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, TypeVar, TypeVarTuple

from fastapi import HTTPException

from cherki.bots import Bot, SearchBot
from cherki.core.contract import Observation
from cherki.core.events import JSON
from cherki.games import GAMES
from cherki.server import origin as reach
from cherki.server import stored
from cherki.server.cluster import Cluster
from cherki.server.connection import Connection
from cherki.server.limits import Limits, Window
from cherki.server.registry import Tables
from cherki.server.settings import DEFAULT_WAIT, IDLE_SECONDS
from cherki.server.store import Store
from cherki.server.tables import Table, think

if TYPE_CHECKING:
    from starlette.types import ASGIApp

_T = TypeVar("_T")
_Args = TypeVarTuple("_Args")

TICK = 0.25  # seconds between looks at the turn timers
#: heavy answers kept for asking again (records of live tables, replays)
KEPT_ANSWERS = 256
THINKERS = 1  # worker processes for the searching bots
#: seconds between looks for tables to let go from memory
SWEEP_SECONDS = 60.0
#: seconds the lobby's list of tables is kept before it is read again, at the most: any
#: change it shows (a table made, listed, a seat taken, a match over or begun) makes it be
#: read again at the next asking
LISTING_SECONDS = 30.0


# -- heavy work, in a process of its own ----------------------------------------------------
def _die_with_parent(parent: int) -> None:
    """A worker process ends with the server, even one killed outright: a thread of the
    worker looks every second whether its parent (``parent``, named by the server, since
    a server killed while this process was still starting leaves it another parent
    already) is still there."""

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(0)
            time.sleep(1.0)

    threading.Thread(target=watch, name="cherki-parent-watch", daemon=True).start()


def _low_priority(parent: int) -> None:
    _die_with_parent(parent)
    with suppress(OSError):
        os.nice(10)


def _stop(pool: ProcessPoolExecutor, wait: bool = False) -> None:
    """Stop a pool's processes now (a running job cannot be cancelled; the executor has no
    public way to name its processes). The pool is shut down first, dropping the jobs not
    yet begun, so that its own thread has let go of every cancelled one before it sees the
    processes gone and fails the others with BrokenProcessPool (a cancelled future left
    there makes that thread fail with InvalidStateError, Python 3.11). ``wait``: until
    that thread has closed the pool's queues (the server stops: nothing is left for the
    interpreter's exit, and no semaphore is left behind)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager: threading.Thread | None = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        with suppress(Exception):
            proc.kill()
    if wait and manager is not None:
        manager.join(timeout=10.0)


def _warm_up(url: str | None) -> None:
    """In the heavy process: import what its jobs use (the games, the replay's pages) and
    open the store it reads records from (``url``)."""
    import cherki.games
    import cherki.server.present

    for game in cherki.games.GAMES.values():
        game.view()
    stored.open_reader(url)


BUSY = "the server is busy with other big requests: try again soon"


class Heavy:
    """A pool of one low-priority process for heavy requests, with a limit on the jobs in
    hand and on each job's time (a job past its time stops the process; the next job gets
    a new one).

    The pool is given one job at a time: the others wait their turn here, on the event
    loop, where a request that leaves (or waits past ``heavy_seconds``: 503, "busy") is
    simply forgotten. A job given to the pool is never cancelled (it could not be stopped
    anyway); its time is kept by a timer of its own, so a job whose request left still
    holds the pool only until it ends or is stopped. Stopping the process is thus never
    a failure for jobs behind it: they run in the next one."""

    def __init__(self, limits: Limits, reader: str | None = None) -> None:
        self.limits = limits
        #: the database the jobs read records from (opened as the process starts)
        self.reader = reader
        self.pool: ProcessPoolExecutor | None = None
        self.jobs = 0
        #: jobs in hand per address
        self.by_address: Counter[str] = Counter()
        #: answers kept (a live table's record as a seat may have it, a finished match's
        #: replay), by what they are of: asked again before the table moves, they are sent
        #: as they are, with no work at all (the latest :data:`KEPT_ANSWERS`)
        self.kept: OrderedDict[tuple[object, ...], object] = OrderedDict()
        #: the turn to give the pool a job (one for each event loop that used it)
        self._turn: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None
        #: the jobs stopped for their time (forgotten with them)
        self._cut: weakref.WeakSet[object] = weakref.WeakSet()

    def answer(self, key: tuple[object, ...]) -> object | None:
        """A kept answer (None: none)."""
        found = self.kept.get(key)
        if found is not None:
            self.kept.move_to_end(key)
        return found

    def keep(self, key: tuple[object, ...], value: object) -> None:
        self.kept[key] = value
        self.kept.move_to_end(key)
        while len(self.kept) > KEPT_ANSWERS:
            self.kept.popitem(last=False)

    async def run_for(self, address: str, fn: Callable[[*_Args], _T], *args: *_Args) -> _T:
        """:meth:`run` for a client at ``address``: at most ``heavy_per_address`` of its
        jobs in hand at once (429 in words past it)."""
        with self.slot(address):
            return await self.work(fn, *args)

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_low_priority,
                initargs=(os.getpid(),),
            )
        return self.pool

    def warm(self) -> None:
        """Start the process now, with the modules a replay needs imported and the store
        opened, so that the first heavy request after the server starts does not wait for
        it (issue 39)."""
        self._pool().submit(_warm_up, self.reader)

    @contextmanager
    def slot(self, address: str | None = None) -> Iterator[None]:
        """A place for one heavy request (from ``address``), taken before any of its work
        is done, even the part on the event loop: 503 when ``heavy_jobs`` are in hand, 429
        when ``heavy_per_address`` of them are the address's (each in words)."""
        if self.jobs >= self.limits.heavy_jobs:
            raise HTTPException(503, BUSY)
        if address is not None and self.by_address[address] >= self.limits.heavy_per_address:
            raise HTTPException(
                429,
                f"at most {self.limits.heavy_per_address} big request(s) at a time from one "
                "address: wait for the answer",
            )
        self.jobs += 1
        if address is not None:
            self.by_address[address] += 1
        try:
            yield
        finally:
            self.jobs -= 1
            if address is not None:
                self.by_address[address] -= 1
                if self.by_address[address] <= 0:
                    del self.by_address[address]

    async def run(self, fn: Callable[[*_Args], _T], *args: *_Args) -> _T:
        with self.slot():
            return await self.work(fn, *args)

    def _line(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._turn is None or self._turn[0] is not loop:
            self._turn = (loop, asyncio.Semaphore(1))
        return self._turn[1]

    async def work(self, fn: Callable[[*_Args], _T], *args: *_Args) -> _T:
        """``fn(*args)`` in the heavy process, its turn awaited and its work each within
        its time (the caller holds a :meth:`slot`)."""
        line = self._line()
        try:
            async with asyncio.timeout(self.limits.heavy_seconds):
                await line.acquire()
        except TimeoutError:
            raise HTTPException(503, BUSY) from None
        try:
            pool = self._pool()
            done: asyncio.Future[_T] = asyncio.wrap_future(pool.submit(fn, *args))
        except BaseException:  # a pool whose process died on its own: the next gets a new one
            line.release()
            self._kill()
            raise HTTPException(503, "the server's helper process stopped: try again") from None
        timer = asyncio.get_running_loop().call_later(
            self.limits.heavy_seconds, self._time_up, pool, done
        )

        def ended(_: object) -> None:
            timer.cancel()
            line.release()

        done.add_done_callback(ended)
        try:
            return await asyncio.shield(done)  # the job is not cancelled with its request
        except BrokenProcessPool:
            if done in self._cut:
                raise HTTPException(
                    503,
                    f"this request took longer than {self.limits.heavy_seconds:g} seconds "
                    "and was stopped",
                ) from None
            self._kill(pool)  # its process died: the next job gets a new one
            raise HTTPException(
                503, "the server's helper process stopped on this request: try again"
            ) from None
        except asyncio.CancelledError:
            if not done.cancelled():
                raise  # this request itself is being cancelled (the client left)
            # dropped with its pool before it began (stopped for another job's time)
            raise HTTPException(
                503, "the server stopped a request before this one: try again"
            ) from None

    def _time_up(self, pool: ProcessPoolExecutor, done: asyncio.Future[_T]) -> None:
        """A job past its time: its process is stopped (its future fails, with
        BrokenProcessPool)."""
        if not done.done():
            self._cut.add(done)
            self._kill(pool)

    def _kill(self, pool: ProcessPoolExecutor | None = None, wait: bool = False) -> None:
        """Stop the pool (``pool``: only if it is still the one in use)."""
        if pool is not None and pool is not self.pool:
            return
        pool, self.pool = self.pool, None
        if pool is not None:
            _stop(pool, wait)

    def close(self) -> None:
        """Stop the process and close the pool's queues (the server stops)."""
        self._kill(wait=True)


class Gate:
    """Who may come in: the people's connections counted per table, spectators per table
    and per address, connections per address and in all, and new tables per address a
    minute (each refused in words). A seated person is never refused for spectators: when
    the address or the server is full, the spectator silent longest gives way."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.created = Window(limits.tables_per_minute, 60.0)
        self.by_address: Counter[str] = Counter()
        self.watching_from: Counter[str] = Counter()
        self.open = 0
        #: the spectators' connections let in, and their tables (oldest first)
        self.spectators: dict[Connection, Table] = {}

    def refuse_table(self, address: str) -> str | None:
        """Why ``address`` may not create a table now (None: it may, and is counted)."""
        if not self.created.take(address):
            return (
                f"at most {self.limits.tables_per_minute} new tables a minute from one "
                "address: wait a minute"
            )
        return None

    def _give_way(self, address: str | None) -> bool:
        """The spectator (from ``address``; None: any) silent longest leaves; whether one
        did."""
        found = [c for c in self.spectators if address is None or c.address == address]
        if not found:
            return False
        victim = min(found, key=lambda c: c.heard)
        victim.drop("a seated person needed the room: open the table again later",
                    reconnect=False)  # fmt: skip
        self.leave(victim)
        return True

    def admit(self, table: Table, conn: Connection) -> str | None:
        """Why ``conn`` (not yet started) is refused at ``table`` (None: it is let in, and
        counted at once, before anything is awaited, so that a burst cannot pass the
        limits together; it is let out when it closes)."""
        limits = self.limits
        address = conn.address
        seated = conn.seat is not None
        if seated:
            if table.held - table.watchers >= limits.connections_per_table:
                return (
                    f"this table has {limits.connections_per_table} connections already: "
                    "try again later"
                )
            while self.by_address[address] >= limits.connections_per_address:
                if not self._give_way(address):
                    break
            while self.open >= limits.connections:
                if not self._give_way(None):
                    break
        else:
            if table.watchers >= limits.spectators_per_table:
                return (
                    f"this table has {limits.spectators_per_table} spectators already: "
                    "try again later"
                )
            if self.watching_from[address] >= limits.spectators_per_address:
                return (
                    f"{limits.spectators_per_address} spectators from your address already: "
                    "close some"
                )
        if self.by_address[address] >= limits.connections_per_address:
            return (
                f"{limits.connections_per_address} connections from your address already: "
                "close some"
            )
        if self.open >= limits.connections:
            return "this server is full: try again later"
        table.held += 1
        self.by_address[address] += 1
        self.open += 1
        if not seated:
            table.watchers += 1
            self.watching_from[address] += 1
            self.spectators[conn] = table
        conn.counted = table
        return None

    def leave(self, conn: Connection) -> None:
        """A connection let in by :meth:`admit` has ended (counted out once)."""
        table = conn.counted
        if table is None:
            return
        conn.counted = None
        address = conn.address
        table.held -= 1
        self.open -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]
        if self.spectators.pop(conn, None) is not None:
            table.watchers -= 1
            self.watching_from[address] -= 1
            if self.watching_from[address] <= 0:
                del self.watching_from[address]

    def silent(self, now: float) -> None:
        """Let go the spectators silent for longer than the limit."""
        most = self.limits.spectator_silent_seconds
        for conn in [c for c in self.spectators if now - c.heard > most]:
            conn.drop("you were silent too long: open the table again", reconnect=False)
            self.leave(conn)


class Server:
    """One serving process's tables and everything beside them (module notes)."""

    def __init__(
        self,
        store: Store,
        *,
        public_url: str | None = None,
        limits: Limits | None = None,
        tick: float = TICK,
        collect_every: float | None = None,
    ) -> None:
        self.store = store
        self.public = reach.public_url(public_url) if public_url else None
        self.limits = limits or Limits()
        #: several processes on one PostgreSQL (cherki.server.cluster); SQLite: one process
        self.cluster = None if store.local else Cluster(store)
        self.tables = Tables(store, cluster=self.cluster)
        if self.cluster is not None:
            store.fence = self.cluster.fence
            self.cluster.on_lost = self.lose
            self.cluster.on_adopt = self.adopt
        self.tables.on_broken = self.broken
        self.heavy = Heavy(self.limits, store.url)
        self.gate = Gate(self.limits)
        self.tick = tick
        self.collect_every = collect_every
        self._thinkers: ProcessPoolExecutor | None = None
        self._listing: tuple[float, list[dict[str, JSON]]] | None = None
        #: the tables' count of changes the kept list was read at
        self._listing_at = -1
        self._tasks: list[asyncio.Task[None]] = []

    # -- bots ---------------------------------------------------------------------------------
    async def thinker(self, bot: Bot, obs: Observation, seed: int) -> int:
        """A bot's decision away from the event loop: a searching bot's in a process of its
        own, the others' in a worker thread."""
        if isinstance(bot, SearchBot):
            if self._thinkers is None:
                self._thinkers = ProcessPoolExecutor(
                    THINKERS,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_die_with_parent,
                    initargs=(os.getpid(),),
                )
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self._thinkers, think, bot, obs, seed)
            except BrokenProcessPool:  # its process died: a new one next time, this in a thread
                _stop(self._thinkers)
                self._thinkers = None
        return await asyncio.to_thread(think, bot, obs, seed)

    # -- tables -------------------------------------------------------------------------------
    async def current(self) -> None:
        """Before anything is done with a table: with several processes, this process's
        leases were confirmed within their time (a process woken from a stop looks again
        first, and lets go of the tables it lost before serving anyone); a LeaseLost when
        the database cannot say."""
        if self.cluster is not None and not self.cluster.current():
            await self.cluster.recheck()

    async def find(self, table_id: str) -> Table:
        """The live table (loaded from the store in a worker thread if need be)."""
        await self.current()
        table = self.tables.live.get(table_id)
        if table is not None:
            return table
        return await asyncio.to_thread(self.tables.table, table_id)

    def abandon(self, table_id: str, why: str = "") -> Table | None:
        """Another process took the table over: stop its bots and tell its connections to
        connect again (they reach the new owner)."""
        table = self.tables.drop(table_id)
        if table is None:
            return None
        table.on_broken = None
        table.gone = True
        if table.bots is not None and table.bots is not asyncio.current_task():
            table.bots.cancel()
        table.deadline = None
        for conn in list(table.connections):
            conn.drop(why or "this table moved to another server: connecting again",
                      reconnect=True)  # fmt: skip
        return table

    def lose(self, table_id: str) -> None:
        """Another process took the table over (the cluster's ``on_lost``)."""
        self.abandon(table_id)

    def broken(self, table: Table) -> None:
        """A change at ``table`` could not be stored: the copy in memory is let go (its
        connections connect again) and the table is loaded afresh from the store, at once
        when it can be (its bots play on)."""
        if self.tables.live.get(table.id) is not table:
            return
        self.abandon(table.id, "the table is being loaded again: connecting again")
        if self.cluster is not None and table.id not in self.cluster.held:
            return  # another process took it: it plays on there
        self._tasks.append(asyncio.get_running_loop().create_task(self._revive(table.id)))

    async def _revive(self, table_id: str) -> None:
        delay = 0.5
        while table_id not in self.tables.live:
            await asyncio.sleep(delay)
            try:
                table = await self.find(table_id)
            except Exception:  # the database is away, or the table moved: later, or never
                if self.cluster is not None and table_id not in self.cluster.held:
                    return
                delay = min(delay * 2, 30.0)
                continue
            table.wake(self.thinker)
            return

    async def adopt(self, table_id: str) -> None:
        """This process took over a table whose owner stopped: load it afresh from the
        store (a copy still in memory from an earlier lease is let go first: it may be
        behind what the other process stored since), let its bots play."""
        self.abandon(table_id)
        table = await asyncio.to_thread(self.tables.adopt, table_id)
        table.wake(self.thinker)

    async def listing(self) -> list[dict[str, JSON]]:
        """The tables in play that their hosts listed: read once for everyone who asks
        until something it shows changes (or :data:`LISTING_SECONDS` pass)."""
        now = time.monotonic()
        changes = self.tables.changes
        if (
            self._listing is None
            or changes != self._listing_at
            or now - self._listing[0] > LISTING_SECONDS
        ):
            self._listing_at = changes
            self._listing = (now, await asyncio.to_thread(self._read_listing))
        rows = [r | {"paused": self._paused(r["table"], now)} for r in self._listing[1]]
        public = self.public
        return [r | reach.absolute_links(public, r) for r in rows] if public else rows

    def _paused(self, table_id: JSON, now: float) -> bool:
        """Whether a live table waits for its people (one not in memory plays nothing)."""
        live = self.tables.live.get(str(table_id))
        return live is not None and live.paused(now)

    def listing_changed(self) -> None:
        self._listing = None

    def _read_listing(self) -> list[dict[str, JSON]]:
        out = []
        for t in self.store.tables(status="playing") + self.store.tables(status="open"):
            if not t.settings.get("listed"):
                continue
            out.append(
                {
                    "table": t.id,
                    "game": t.game,
                    "title": GAMES[t.game].title if t.game in GAMES else t.game,
                    "status": t.status,
                    "hands": t.settings.get("hands"),
                    "timer": t.settings.get("timer"),
                    "hints": t.settings.get("hints", True),
                    "bot_pace": t.settings.get("bot_pace", 0.0),
                    "watch_page": f"/watch/{t.id}",
                    "seats": [
                        {
                            "seat": s.seat,
                            "kind": s.kind,
                            "level": s.level,
                            "taken": s.name is not None,
                        }
                        for s in t.seats
                    ],
                }
            )
        return out

    def host_view(self, token: str) -> dict[str, JSON]:
        """The host's view of a table: every seat with its link and name (a CherkiError
        for a link that is not a host's)."""
        table_id, links = self.store.seat_links(token)
        info = self.store.table(table_id)
        base = self.public or ""
        seats: list[JSON] = []
        for s in info.seats:
            link = f"/seat/{links[s.seat]}" if s.seat in links else None
            seats.append(
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "level": s.level,
                    "name": s.name,
                    "link": link,
                    "url": base + link if link else None,
                }
            )
        return {
            "table": table_id,
            "game": info.game,
            "title": GAMES[info.game].title if info.game in GAMES else info.game,
            "status": info.status,
            "seats": seats,
            "watch_page": f"/watch/{table_id}",
            "watch_url": base + f"/watch/{table_id}",
            "paused": self._paused(table_id, time.monotonic()),
            "settings": {
                "hints": info.settings.get("hints", True),
                "bot_pace": info.settings.get("bot_pace", 0.0),
                "pause": info.settings.get("pause", False),
                "timer": info.settings.get("timer"),
                "wait": info.settings.get("wait", DEFAULT_WAIT),
            },
        }

    # -- clocks -------------------------------------------------------------------------------
    async def _clock(self) -> None:
        swept = time.monotonic()
        while True:
            await asyncio.sleep(self.tick)
            if self.cluster is not None and not self.cluster.current():
                continue  # woken from a stop: the beat looks at the leases first
            now = time.monotonic()
            self.gate.silent(now)
            if now - swept > SWEEP_SECONDS:
                swept = now
                self.tables.sweep(now, IDLE_SECONDS)
            for table in [t for t in list(self.tables.live.values()) if t.deadline is not None]:
                if table.deadline is not None and table.deadline[2] <= now:
                    await table.expire_now(time.monotonic(), self.thinker)

    async def _collector(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            gc.collect()

    async def start_cluster(self, app: ASGIApp) -> None:
        """Join the other processes on the database (PostgreSQL only)."""
        if self.cluster is not None:
            await self.cluster.start(app, self.limits)

    def start(self) -> None:
        """Start the clocks (on the app's event loop)."""
        self._tasks.append(asyncio.create_task(self._clock()))
        if self.collect_every:
            self._tasks.append(asyncio.create_task(self._collector(self.collect_every)))

    async def stop(self) -> None:
        """Stop the clocks, the bots and the worker processes."""
        for task in self._tasks:
            task.cancel()
        for table in list(self.tables.live.values()):
            await table.stop()
        if self.cluster is not None:
            await self.cluster.stop()
        if self._thinkers is not None:
            _stop(self._thinkers, wait=True)
            self._thinkers = None
        self.heavy.close()
