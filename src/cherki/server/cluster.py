"""Several serving processes on one PostgreSQL: who owns each live table, and how a
connection that reached another process is served by the owner.

Any ``cherki serve --database-url postgresql+psycopg://…`` process serves any table. Each
live table has exactly one owning process at a time, the only one that holds its
:class:`~cherki.server.tables.Table` (its session, timer, bots and connections); every
other process forwards to it what its clients say and hands them what it answers. The
database is the only thing the processes share: no other service, and no address of one
process known to another.

Our specifications
------------------
* **A lease row per live table** (``leases``: owner, epoch, expiry on the database's
  clock), not an advisory lock. A lease is taken when a process loads or creates a table
  and nobody else holds an unexpired one; every process renews its leases every
  :data:`BEAT` seconds for :data:`TTL` seconds. Chosen over PostgreSQL's advisory locks
  because the lease is *fenced*: each write of the table's log (an action, a new match, a
  setting) renews the lease in the same transaction, naming the owner and the epoch it
  took the table at, and fails when either changed — so a process that was paused, cut off
  or slow and lost its table can never commit, hence never tell anyone, an action. An
  advisory lock lives on one session of the database; the writes go through other
  connections and could not check it, and a half-open connection keeps it until TCP
  notices. Leases are also rows an operator can read (``SELECT * FROM leases``).
* **Commit before tell, across processes**: the owner tells its clients (its own and the
  other processes') only after the write committed, exactly as one process does; a
  forwarded client is handed the owner's messages as they are.
* **Forwarding is the owner's own app**: a WebSocket or an HTTP request about a table that
  another process owns is carried to the owner as it came (its path, query, headers and the
  client's address) and run there by the same routes; the owner's frames and answer are
  carried back. The carrier is PostgreSQL's ``LISTEN``/``NOTIFY``: each process listens on
  a channel of its own, and a message to it is sent with ``pg_notify`` (a message longer
  than a notification's 8,000 bytes goes in pieces, all in one transaction, put together
  again by the listener). Notifications from one sender arrive in the order sent; they are
  not written to the database's log (nothing to vacuum); and one transaction may not send
  one payload twice (PostgreSQL would fold them into one), so each carries the sender's
  name and a number. A request
  forwarded once is never forwarded again (the header ``x-cherki-hop``): a table that moved
  meanwhile is answered "try again" (503, or the WebSocket closed with 1013).
* **Failover**: a process that dies stops renewing; :data:`TTL` seconds later its leases
  have expired and every survivor, at its next beat, takes over up to
  :data:`ADOPT_PER_BEAT` of them (``FOR UPDATE SKIP LOCKED``: each table to one process,
  spread among them), loads them from their committed log and lets their bots play on. A
  client connected through a survivor to the dead owner is told "this table moved" and
  closed with ``reconnect: true``; its page connects again with ``?since=`` and is told
  what it missed. A process whose lease was taken (it was paused past :data:`TTL`) lets
  the table go at once: its bots stop, its clients are told to reconnect.
* A table this process lets go (idle, or finished with nobody connected) gives its lease
  back; a process that stops gives all of them back as expired, so that the survivors take
  them over at their next beat.
* **Bounds**: at most :data:`OUTBOX_MESSAGES` messages waiting to be sent to the other
  processes (past it a forwarded client is dropped and reconnects), :data:`TUNNEL_QUEUE`
  messages waiting for a forwarded client's table, :data:`ANSWER_SECONDS` for the owner to
  answer (else "try again"); the forwarded client's own queue and rate are the server's
  limits (:class:`~cherki.server.limits.Limits`), as for a client of the owner.
* With SQLite there is no cluster: one process, exactly as before.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import logging
import os
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypedDict

from sqlalchemy import text
from sqlalchemy.engine import Connection as SAConnection
from sqlalchemy.engine import make_url

from cherki.server.connection import TOO_SLOW, Connection
from cherki.server.driver import for_connection
from cherki.server.limits import Bucket, Limits
from cherki.server.messages import error
from cherki.server.words import refusal

if TYPE_CHECKING:
    from psycopg import AsyncConnection
    from psycopg.rows import TupleRow
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.types import ASGIApp, Message, Scope
    from starlette.websockets import WebSocket

    from cherki.server.store import Store

log = logging.getLogger("cherki.server")

#: seconds a lease lasts without being renewed (a dead owner's tables are taken over after it)
TTL = 3.0
#: seconds between a process's beats: it renews its leases, says it is alive, looks for
#: expired leases to take over and for forwarded clients whose table moved
BEAT = 1.0
#: seconds within which a table whose process died or stalled moves again (the documented
#: failover time): the lease's :data:`TTL`, a survivor's next beat and its load for the
#: bots and the people connected through a live process (about 4 s); for a person whose
#: socket sat on a stalled process, their page's silence (5.5 s at most) and the new
#: connections the proxy may hand to the stalled process again (each given up after 2.5 s)
#: until one reaches a live process or the stalled one wakes (docs/server.md)
FAILOVER_SECONDS = 15.0
#: seconds the owner has to answer a forwarded connection or request
ANSWER_SECONDS = 5.0
#: expired leases one process takes over at one beat
ADOPT_PER_BEAT = 50
#: messages waiting to be sent to the other processes, at most
OUTBOX_MESSAGES = 20_000
#: messages of one forwarded client waiting for the owner's table, at most
TUNNEL_QUEUE = 64
#: messages sent in one transaction
BATCH = 500
#: characters of a message in one notification (at most 4 bytes each: under 8,000 bytes)
PIECE = 1900
#: the header a forwarded request carries (it is never forwarded again)
HOP = b"x-cherki-hop"
#: what a client of a table that moved to another process is told
MOVED = "this table moved to another server: connecting again"


class Portable(TypedDict):
    """What of a request's ASGI scope the owner needs to serve it as it came, as JSON."""

    type: str
    http_version: str
    scheme: str
    method: str | None
    path: str
    query_string: str
    headers: list[list[str]]
    client: list[str | int] | None
    server: list[str | int] | None
    subprotocols: list[str]


#: A message between processes, as JSON: ``k`` its kind (``open``, ``in``, ``out``, ``end``,
#: ``accept``, ``close``, ``http``, ``reply``), ``t`` the forwarded client, ``from`` the sender,
#: ``scope`` the request, ``x`` a WebSocket text, ``c``/``r`` a close's code and reason (``r``:
#: a forwarded request's name in ``http`` and ``reply``), ``b`` a body (base64), ``s``/``h`` a
#: reply's status and headers.
Note = TypedDict(
    "Note",
    {
        "k": str,
        "t": str,
        "from": str,
        "scope": Portable,
        "x": str,
        "c": int,
        "r": str,
        "b": str,
        "s": int,
        "h": list[list[str]],
    },
    total=False,
)

_CLAIM = text(
    "INSERT INTO leases (table_id, owner, epoch, expires) "
    "VALUES (:table, :me, 1, now() + make_interval(secs => :ttl)) "
    "ON CONFLICT (table_id) DO UPDATE SET owner = :me, epoch = leases.epoch + 1, "
    "expires = EXCLUDED.expires WHERE leases.expires < now() OR leases.owner = :me "
    "RETURNING epoch"
)
_OWNER = text("SELECT owner FROM leases WHERE table_id = :table")
_FENCE_SQL = (
    "UPDATE leases SET expires = now() + make_interval(secs => :ttl) "
    "WHERE table_id = :table AND owner = :me AND epoch = :epoch"
)
_FENCE = text(_FENCE_SQL)


class Elsewhere(Exception):
    """The table is live in another process (``owner``): forward to it."""

    def __init__(self, table_id: str, owner: str) -> None:
        super().__init__(f"table {table_id} is played by process {owner}")
        self.table_id = table_id
        self.owner = owner


class LeaseLost(RuntimeError):
    """This process no longer owns the table: the write was not made."""


def _said(err: BaseException) -> str:
    """An error in one line (a lost database is reported once, not as a traceback a beat)."""
    first = str(err).strip().splitlines()
    return f"{type(err).__name__}: {first[0] if first else ''}"[:300]


def conninfo(url: str) -> str:
    """libpq's form of a ``postgresql+psycopg://`` URL (for the LISTEN connection)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def hopped(scope: Scope) -> bool:
    """Whether a request was forwarded here by another process."""
    return any(k == HOP for k, _ in scope.get("headers", ()))


def _portable(scope: Scope) -> Portable:
    """What of a request's scope the owner needs to serve it as it came, as JSON."""
    return {
        "type": scope["type"],
        "http_version": scope.get("http_version", "1.1"),
        "scheme": scope.get("scheme", "http"),
        "method": scope.get("method"),
        "path": scope["path"],
        "query_string": scope.get("query_string", b"").decode("latin-1"),
        "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]],
        "client": list(scope["client"]) if scope.get("client") else None,
        "server": list(scope["server"]) if scope.get("server") else None,
        "subprotocols": list(scope.get("subprotocols") or ()),
    }


def _restore(data: Portable) -> Scope:
    headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in data["headers"]]
    scope: Scope = {
        "type": data["type"],
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": data["http_version"],
        "scheme": data["scheme"],
        "path": data["path"],
        "raw_path": data["path"].encode("utf-8"),
        "root_path": "",
        "query_string": data["query_string"].encode("latin-1"),
        "headers": [*headers, (HOP, b"1")],
        "client": tuple(data["client"]) if data["client"] else None,
        "server": tuple(data["server"]) if data["server"] else None,
    }
    if data["type"] == "http":
        scope["method"] = data["method"]
    else:
        scope["subprotocols"] = data["subprotocols"]
    return scope


class _Inbound:
    """A client of another process, served here (the owner) by the app's own route."""

    def __init__(self, cluster: Cluster, tid: str, origin: str) -> None:
        self.cluster = cluster
        self.tid = tid
        self.origin = origin
        self.queue: asyncio.Queue[Message] = asyncio.Queue(TUNNEL_QUEUE + 2)
        self.ended = False
        self.closed = False

    def push(self, event: Message) -> None:
        if self.ended:
            return
        if event["type"] == "websocket.disconnect":
            self.ended = True
        elif self.queue.qsize() >= TUNNEL_QUEUE:  # the table cannot keep up: let it go
            self.ended = True
            event = {"type": "websocket.disconnect", "code": TOO_SLOW}
            self.closed = True
            self.cluster.post(self.origin, {"k": "close", "t": self.tid, "c": TOO_SLOW, "r": ""})
        self.queue.put_nowait(event)

    async def run(self, app: ASGIApp, scope: Scope) -> None:
        post = self.cluster.post

        async def receive() -> Message:
            return await self.queue.get()

        async def send(message: Message) -> None:
            kind = message["type"]
            if self.closed:
                return
            if kind == "websocket.accept":
                post(self.origin, {"k": "accept", "t": self.tid})
            elif kind == "websocket.send" and message.get("text") is not None:
                if not post(self.origin, {"k": "out", "t": self.tid, "x": message["text"]}):
                    self.push({"type": "websocket.disconnect", "code": TOO_SLOW})
            elif kind == "websocket.close":
                self.closed = True
                code = message.get("code", 1000)
                reason = message.get("reason") or ""
                post(self.origin, {"k": "close", "t": self.tid, "c": code, "r": reason})

        self.queue.put_nowait({"type": "websocket.connect"})
        try:
            await app(scope, receive, send)
        except Exception:
            log.exception("a forwarded connection failed")
        finally:
            if not self.closed:
                self.closed = True
                post(self.origin, {"k": "close", "t": self.tid, "c": 1011, "r": ""})
            self.cluster.inbound.pop(self.tid, None)


class _Outbound:
    """A client of this process whose table another process owns: its messages go there,
    the owner's come back."""

    def __init__(self, table_id: str, owner: str) -> None:
        self.table_id = table_id
        self.owner = owner
        self.answer: asyncio.Future[Note] = asyncio.get_running_loop().create_future()
        self.conn: Connection | None = None
        self.early: list[str] = []
        self.ending: asyncio.Task[None] | None = None
        self.owner_closed = False
        #: the close code and reason the owner sent
        self.closed_with = (1000, "")

    def handle(self, message: Note) -> None:
        kind = message["k"]
        if kind == "accept" and not self.answer.done():
            self.answer.set_result(message)
        elif kind == "out":
            if self.conn is None:
                self.early.append(message["x"])
            else:
                self.conn.send(message["x"])
        elif kind == "close":
            self.owner_closed = True
            self.closed_with = (int(message.get("c") or 1000), str(message.get("r") or ""))
            if not self.answer.done():
                self.answer.set_result(message)
            elif self.conn is not None:
                self.end()

    def end(self) -> None:
        """The owner closed (after accepting): close the client's socket once what the
        owner sent before has gone out."""
        if self.ending is None:
            self.ending = asyncio.get_running_loop().create_task(self._end(*self.closed_with))

    async def _end(self, code: int, reason: str) -> None:
        """The owner closed: what it sent goes out first, then the close."""
        conn = self.conn
        assert conn is not None
        deadline = time.monotonic() + 2.0
        while conn.waiting and not conn.closed and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        with contextlib.suppress(Exception):
            await conn.ws.close(code=code, reason=reason[:120])

    def moved(self) -> None:
        """The owner is gone or the table moved: the client connects again."""
        if self.conn is not None:
            self.conn.drop(MOVED, reconnect=True)
        elif not self.answer.done():
            self.answer.set_result({"k": "close", "c": TOO_SLOW, "r": MOVED})


class Cluster:
    """This process's part in several processes on one PostgreSQL (module notes)."""

    def __init__(self, store: Store, *, ttl: float = TTL, beat: float = BEAT) -> None:
        self.store = store
        self.engine = store.engine
        self.ttl = ttl
        self.beat = beat
        #: this process's name among the others (also its channel's)
        self.id = f"p{os.getpid()}x{secrets.token_hex(6)}"
        self.channel = f"cherki_{self.id}"
        #: the tables this process owns: the epoch it took each at, and when (monotonic)
        self.held: dict[str, tuple[int, float]] = {}
        self._releases: list[tuple[str, int]] = []
        #: told when a table was lost (taken by another) and when one was taken over here
        self.on_lost: Callable[[str], None] | None = None
        self.on_adopt: Callable[[str], Awaitable[None]] | None = None
        self.app: ASGIApp | None = None
        self.limits = Limits()
        self.inbound: dict[str, _Inbound] = {}
        self.outbound: dict[str, _Outbound] = {}
        #: HTTP requests forwarded and not yet answered: their answer to come, and the owner
        self.requests: dict[str, tuple[asyncio.Future[Note], str]] = {}
        self._outbox: deque[tuple[str, str]] = deque()
        self._counter = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._listen: AsyncConnection[TupleRow] | None = None
        self._work: AsyncConnection[TupleRow] | None = None
        self._lock: asyncio.Lock | None = None
        self._send: AsyncConnection[TupleRow] | None = None
        self._seq = itertools.count(1)
        #: the pieces of long messages heard so far, by message
        self._parts: dict[str, list[str]] = {}
        self._ready: asyncio.Event | None = None
        #: when (monotonic) the last beat that renewed this process's leases began: its
        #: leases are its own until ``confirmed + ttl`` at the latest (the clock runs on
        #: while the process is stopped, so a woken process knows it must look again)
        self.confirmed = -1e9
        #: the beat in progress (one at a time; a table's door may wait for it)
        self._beating: asyncio.Task[None] | None = None
        self._listening_failed = False
        self._send_failed = -1e9
        #: figures for the operator and the benchmark
        self.adopted = 0
        self.lost = 0

    # -- owning tables (in worker threads, on the store's engine) --------------------------------
    def claim(self, table_id: str) -> int:
        """Take the table's lease (a new epoch), or raise :class:`Elsewhere` naming the
        process that holds an unexpired one."""
        for _ in range(3):  # a lease given back between the two statements: take it again
            with self.engine.begin() as conn:
                values = {"table": table_id, "me": self.id, "ttl": self.ttl}
                row = conn.execute(_CLAIM, values).first()
                owner = None if row is not None else conn.execute(_OWNER, values).scalar()
            if row is not None:
                self.held[table_id] = (int(row[0]), time.monotonic())
                return int(row[0])
            if owner is not None:
                raise Elsewhere(table_id, str(owner))
        raise Elsewhere(table_id, "")

    def fence(self, conn: SAConnection, table_id: str) -> None:
        """In a write's transaction: this process still owns the table at the epoch it took
        it (the lease renewed), else :class:`LeaseLost` and nothing is written."""
        held = self.held.get(table_id)
        if held is not None:
            values = {"table": table_id, "me": self.id, "epoch": held[0], "ttl": self.ttl}
            driver = for_connection(conn)  # at every action: the driver's own SQL
            if driver is not None:
                renewed = driver.execute(conn, driver.sql(_FENCE_SQL), values)
            else:
                renewed = conn.execute(_FENCE, values).rowcount
            if renewed == 1:
                return
            self._lose_soon(table_id, held[0])
        raise LeaseLost(f"this process no longer owns table {table_id}")

    def release(self, table_id: str) -> None:
        """This process lets the table go (its lease is deleted at the next beat)."""
        held = self.held.pop(table_id, None)
        if held is not None:
            self._releases.append((table_id, held[0]))

    def _lose_soon(self, table_id: str, epoch: int) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._lose, table_id, epoch)
        else:
            self._lose(table_id, epoch)

    def _lose(self, table_id: str, epoch: int | None = None) -> None:
        """The table's lease (at ``epoch``; None: whichever) is no longer this process's:
        let the table go. A lease taken again meanwhile (a new epoch) is kept."""
        held = self.held.get(table_id)
        if held is None or (epoch is not None and held[0] != epoch):
            return
        del self.held[table_id]
        self.lost += 1
        log.warning("table %s was taken over by another process: letting it go", table_id)
        if self.on_lost is not None:
            self.on_lost(table_id)

    # -- the processes' mail -------------------------------------------------------------------
    async def start(self, app: ASGIApp, limits: Limits) -> None:
        """Open the connections to the database (one that LISTENs), say this process is
        alive and start its beats, its reader and its sender."""
        import psycopg

        self.app = app
        self.limits = limits
        self._loop = asyncio.get_running_loop()
        self._lock = asyncio.Lock()
        self._ready = asyncio.Event()
        info = conninfo(self.store.url)
        self._listen = await psycopg.AsyncConnection.connect(info, autocommit=True)
        await self._listen.execute(f"LISTEN {self.channel}")
        self._work = await psycopg.AsyncConnection.connect(info, autocommit=True)
        self._send = await psycopg.AsyncConnection.connect(info, autocommit=True)
        await self._beat(first=True)
        for job in (self._listener(), self._sender(), self._beats()):
            self._tasks.append(asyncio.create_task(job))

    async def stop(self) -> None:
        """Give every lease back as expired (the others take the tables over at once), say
        goodbye, close the connections."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        self._tasks.clear()
        if self._work is not None:
            with contextlib.suppress(Exception):
                await self._work.execute(
                    "UPDATE leases SET expires = now() - interval '1 second' WHERE owner = %s",
                    (self.id,),
                )
                await self._work.execute("DELETE FROM cluster_processes WHERE id = %s", (self.id,))
        for c in (self._listen, self._work, self._send):
            if c is not None:
                with contextlib.suppress(Exception):
                    await c.close()
        self._listen = self._work = self._send = None
        self.held.clear()

    def post(self, recipient: str, body: Note) -> bool:
        """Queue a message for another process (never waits). False when too many wait."""
        if len(self._outbox) >= OUTBOX_MESSAGES or self._ready is None:
            return False
        self._outbox.append((recipient, json.dumps(body, separators=(",", ":"))))
        self._ready.set()
        return True

    async def _connected(
        self, conn: AsyncConnection[TupleRow] | None, *, listen: bool = False
    ) -> AsyncConnection[TupleRow]:
        """``conn``, or a new connection when it broke (the database restarted)."""
        import psycopg

        if conn is not None and not conn.closed:
            return conn
        fresh = await psycopg.AsyncConnection.connect(conninfo(self.store.url), autocommit=True)
        if listen:
            await fresh.execute(f"LISTEN {self.channel}")
        return fresh

    async def _listener(self) -> None:
        while True:
            try:
                self._listen = await self._connected(self._listen, listen=True)
                if self._listening_failed:
                    self._listening_failed = False
                    log.warning("the cluster's listening connection is back")
                async for note in self._listen.notifies():
                    try:
                        self._heard(note.payload)
                    except Exception:
                        log.exception("a message from another process could not be handled")
            except Exception as err:
                if not self._listening_failed:
                    self._listening_failed = True
                    log.error(
                        "the cluster's listening connection failed (%s): connecting again",
                        _said(err),
                    )
                if self._listen is not None:
                    with contextlib.suppress(Exception):
                        await self._listen.close()
                await asyncio.sleep(self.beat)

    def _heard(self, payload: str) -> None:
        """One notification: a message, or a piece of a long one."""
        key, _, count, piece = payload.split(" ", 3)
        if count == "1":
            body = piece
        else:
            parts = self._parts.setdefault(key, [])
            parts.append(piece)
            if len(parts) < int(count):
                return
            body = "".join(self._parts.pop(key))
        self._dispatch(json.loads(body))

    def _pieces(self, body: str) -> list[str]:
        """A message's notifications: its name (this process's and a number), the piece's
        index and count, and the piece."""
        key = f"{self.id}.{next(self._seq)}"
        if len(body) <= PIECE:
            return [f"{key} 0 1 {body}"]
        parts = [body[i : i + PIECE] for i in range(0, len(body), PIECE)]
        return [f"{key} {i} {len(parts)} {p}" for i, p in enumerate(parts)]

    async def _sender(self) -> None:
        assert self._ready is not None
        while True:
            await self._ready.wait()
            self._ready.clear()
            while self._outbox:
                batch = [self._outbox.popleft() for _ in range(min(BATCH, len(self._outbox)))]
                notes = [(f"cherki_{who}", p) for who, body in batch for p in self._pieces(body)]
                try:
                    self._send = await self._connected(self._send)
                    async with self._send.transaction(), self._send.cursor() as cur:
                        await cur.executemany("SELECT pg_notify(%s, %s)", notes)
                except Exception as err:
                    now = time.monotonic()
                    if now - self._send_failed > 60:  # one line a minute at most
                        self._send_failed = now
                        log.error(
                            "cannot send %d messages to the other processes: %s",
                            len(batch),
                            _said(err),
                        )

    def _dispatch(self, m: Note) -> None:
        kind = m["k"]
        if kind == "open":
            inbound = _Inbound(self, m["t"], m["from"])
            self.inbound[m["t"]] = inbound
            assert self.app is not None
            asyncio.get_running_loop().create_task(inbound.run(self.app, _restore(m["scope"])))
        elif kind == "in":
            found = self.inbound.get(m["t"])
            if found is not None:
                found.push({"type": "websocket.receive", "text": m["x"]})
        elif kind == "end":
            found = self.inbound.get(m["t"])
            if found is not None:
                found.push({"type": "websocket.disconnect", "code": 1001})
        elif kind == "http":
            asyncio.get_running_loop().create_task(self._serve_http(m))
        elif kind == "reply":
            waiting = self.requests.pop(m["r"], None)
            if waiting is not None and not waiting[0].done():
                waiting[0].set_result(m)
        else:
            out = self.outbound.get(m.get("t", ""))
            if out is not None:
                out.handle(m)

    # -- beats ---------------------------------------------------------------------------------
    def current(self) -> bool:
        """Whether this process's leases were confirmed recently enough to act on its
        tables without looking again (a process that was stopped, or whose beats fail, is
        not)."""
        return time.monotonic() - self.confirmed < self.ttl - self.beat / 2

    async def recheck(self) -> None:
        """Make sure the process's view of its leases is current: a beat now (or the one
        in progress) when it is not. A table lost meanwhile is let go before this returns;
        a :class:`LeaseLost` when the database cannot say (nothing may be done with the
        tables)."""
        for _ in range(3):
            if self.current():
                return
            beating = self._beating
            if beating is None or beating.done():
                beating = asyncio.get_running_loop().create_task(self._beat())
                self._beating = beating
            with contextlib.suppress(Exception):
                await asyncio.shield(beating)
        if not self.current():
            raise LeaseLost("this process cannot reach the database to renew its tables")

    async def _beats(self) -> None:
        n = 0
        failing = False
        while True:
            # a beat stopped half-way (or one that failed) is followed at once
            await asyncio.sleep(self.beat if self.current() else min(0.05, self.beat))
            n += 1
            try:
                beating = self._beating
                if beating is None or beating.done():
                    beating = asyncio.get_running_loop().create_task(self._beat(sweep=n % 30 == 0))
                    self._beating = beating
                await asyncio.shield(beating)
                if failing:
                    failing = False
                    log.warning("the database answers again: the cluster's beats go on")
            except Exception as err:
                if not failing:  # one line, then one when it is back (not one a beat)
                    failing = True
                    log.error("a beat of the cluster failed: %s", _said(err))
                await asyncio.sleep(self.beat)

    async def _beat(self, *, first: bool = False, sweep: bool = False) -> None:
        """Renew this process's leases (a table whose lease another took is let go), say
        it is alive, end the forwarded clients of processes that stopped, move the clients
        whose table moved, and take over expired leases."""
        assert self._lock is not None
        began = time.monotonic()
        releases, self._releases = self._releases, []
        watched = sorted({o.table_id for o in self.outbound.values()})
        # each statement its own transaction (the connection commits each): a beat never
        # holds the leases' rows while the owners' writes renew them
        async with self._lock:
            self._work = await self._connected(self._work)
            cur = self._work.cursor()
            if releases:
                await cur.executemany(
                    "DELETE FROM leases WHERE owner = %s AND table_id = %s AND epoch = %s",
                    [(self.id, t, e) for t, e in releases],
                )
            await cur.execute(
                "INSERT INTO cluster_processes (id, started, seen) VALUES (%s, now(), now()) "
                "ON CONFLICT (id) DO UPDATE SET seen = now()",
                (self.id,),
            )
            await cur.execute(
                "UPDATE leases SET expires = now() + make_interval(secs => %s) "
                "WHERE owner = %s RETURNING table_id, epoch",
                (self.ttl, self.id),
            )
            mine = {t: int(e) for t, e in await cur.fetchall()}
            await cur.execute(
                "SELECT id FROM cluster_processes WHERE seen > now() - make_interval(secs => %s)",
                (self.ttl,),
            )
            alive = {r[0] for r in await cur.fetchall()}
            leases: dict[str, tuple[str, bool]] = {}
            if watched:
                await cur.execute(
                    "SELECT table_id, owner, expires > now() FROM leases WHERE table_id = ANY(%s)",
                    (watched,),
                )
                leases = {t: (o, bool(v)) for t, o, v in await cur.fetchall()}
            adopted: list[tuple[str, int]] = []
            if not first:
                await cur.execute(
                    "UPDATE leases SET owner = %s, epoch = epoch + 1, "
                    "expires = now() + make_interval(secs => %s) WHERE table_id IN ("
                    "SELECT table_id FROM leases WHERE expires < now() ORDER BY expires "
                    "LIMIT %s FOR UPDATE SKIP LOCKED) RETURNING table_id, epoch",
                    (self.id, self.ttl, ADOPT_PER_BEAT),
                )
                adopted = [(t, int(e)) for t, e in await cur.fetchall()]
            if sweep:
                await cur.execute(
                    "DELETE FROM cluster_processes WHERE seen < now() - interval '1 hour'"
                )
        for table_id, (epoch, since) in list(self.held.items()):
            if since < began and mine.get(table_id) != epoch:
                self._lose(table_id, epoch)
        # the leases renewed stay this process's until ``began + ttl`` at the latest: a
        # beat stopped half-way (its answers read after the stop) leaves them not current,
        # and the next table's door or beat looks again at once
        self.confirmed = began
        for inbound in list(self.inbound.values()):
            if inbound.origin not in alive:
                inbound.push({"type": "websocket.disconnect", "code": 1001})
        for future, owner in list(self.requests.values()):
            if owner not in alive and not future.done():  # it stopped: no answer will come
                future.set_exception(TimeoutError())
        for out in list(self.outbound.values()):
            lease = leases.get(out.table_id)
            if lease is None or lease[0] != out.owner or not lease[1] or out.owner not in alive:
                out.moved()
        if adopted:
            log.warning(
                "taking over %d table(s) whose process stopped renewing its leases", len(adopted)
            )
        now = time.monotonic()
        for table_id, epoch in adopted:
            self.held[table_id] = (epoch, now)
            self.adopted += 1
            if self.on_adopt is not None:
                try:
                    await self.on_adopt(table_id)
                except Exception:
                    log.exception("could not take over table %s", table_id)
                    self.release(table_id)

    # -- forwarding ----------------------------------------------------------------------------
    async def tunnel(self, ws: WebSocket, away: Elsewhere, lang: str) -> None:
        """Serve a WebSocket whose table ``away.owner`` owns: the owner's route answers it,
        this process carries the messages both ways."""
        limits = self.limits
        address = ws.client.host if ws.client is not None else "unknown"
        if len(self.outbound) >= limits.connections:
            with contextlib.suppress(Exception):
                await ws.close(code=TOO_SLOW)
            return
        tid = f"{self.id}.{next(self._counter)}"
        out = _Outbound(away.table_id, away.owner)
        self.outbound[tid] = out
        try:
            if not self.post(
                away.owner, {"k": "open", "t": tid, "from": self.id, "scope": _portable(ws.scope)}
            ):
                raise TimeoutError
            try:
                first = await asyncio.wait_for(asyncio.shield(out.answer), ANSWER_SECONDS)
            except TimeoutError:
                first = {"k": "close", "c": TOO_SLOW, "r": ""}
            if first["k"] == "close":
                with contextlib.suppress(Exception):
                    await ws.close(code=int(first.get("c") or 1008))
                return
            await ws.accept()
            conn = Connection(ws, None, address, limits, lang)
            conn.start()
            out.conn = conn
            for text_ in out.early:
                conn.send(text_)
            out.early.clear()
            if out.owner_closed:  # it closed at once (e.g. too many connections)
                out.end()
            bucket = Bucket(limits.messages_per_second)
            try:
                while not conn.closed:
                    message = await ws.receive()
                    if message["type"] == "websocket.disconnect":
                        break
                    said = message.get("text")
                    if said is None:
                        conn.send(error("binary frames are not accepted: send JSON text"))
                        continue
                    if len(said) > limits.message_bytes:
                        conn.send(error(refusal("message too large", lang)))
                        continue
                    if not bucket.take():
                        conn.send(error(refusal("too many messages: slow down", lang)))
                        continue
                    if not self.post(away.owner, {"k": "in", "t": tid, "x": said}):
                        conn.drop("the servers are too busy: connecting again", reconnect=True)
            except (Exception, asyncio.CancelledError):
                pass  # the client went away, or was dropped
            finally:
                await conn.stop()
        except TimeoutError:
            with contextlib.suppress(Exception):
                await ws.close(code=TOO_SLOW)
        finally:
            self.outbound.pop(tid, None)
            if not out.owner_closed:
                self.post(away.owner, {"k": "end", "t": tid})

    async def forward(self, request: Request, away: Elsewhere) -> Response:
        """Answer an HTTP request about a table ``away.owner`` owns: the owner's route
        answers it."""
        from starlette.responses import JSONResponse, Response

        rid = f"{self.id}.{next(self._counter)}"
        future: asyncio.Future[Note] = asyncio.get_running_loop().create_future()
        self.requests[rid] = (future, away.owner)
        body = await request.body()
        sent = self.post(
            away.owner,
            {
                "k": "http",
                "r": rid,
                "from": self.id,
                "scope": _portable(request.scope),
                "b": base64.b64encode(body).decode("ascii"),
            },
        )
        try:
            if not sent:
                raise TimeoutError
            answer = await asyncio.wait_for(future, ANSWER_SECONDS)
        except TimeoutError:
            return JSONResponse(
                {"detail": "the server that plays this table did not answer: try again soon"},
                status_code=503,
            )
        finally:
            self.requests.pop(rid, None)
        headers = {k: v for k, v in answer["h"] if k.lower() != "content-length"}
        return Response(base64.b64decode(answer["b"]), answer["s"], headers=headers)

    async def _serve_http(self, m: Note) -> None:
        assert self.app is not None
        body = base64.b64decode(m["b"])
        given = False
        status = 500
        headers: list[list[str]] = []
        parts: list[bytes] = []

        async def receive() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            await asyncio.sleep(ANSWER_SECONDS)
            return {"type": "http.disconnect"}

        async def send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                for k, v in message.get("headers", ()):
                    headers.append([k.decode("latin-1"), v.decode("latin-1")])
            elif message["type"] == "http.response.body":
                parts.append(message.get("body", b""))

        try:
            await asyncio.wait_for(self.app(_restore(m["scope"]), receive, send), ANSWER_SECONDS)
        except Exception:
            log.exception("a forwarded request failed")
            status, headers = 503, [["content-type", "application/json"]]
            parts = [b'{"detail": "the server that plays this table failed: try again soon"}']
        self.post(
            m["from"],
            {
                "k": "reply",
                "r": m["r"],
                "s": status,
                "h": headers,
                "b": base64.b64encode(b"".join(parts)).decode("ascii"),
            },
        )
