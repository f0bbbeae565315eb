"""The HTTP and WebSocket API of the browser app; the pages are :mod:`cherki.server.pages`.

* ``GET /api/games``: the games, their player counts, presets, rule options (each with its
  one-line explanation) and bot levels: what the lobby offers.
* ``POST /api/tables``: create a table (game, preset, options, seats as people or bots of a
  level, hands, a turn timer, whether it is listed in the lobby): its id, a private link for
  each person's seat, a spectator's link, and the host's private link (``/host/{host}``).
* ``GET /api/tables``: the tables in play that their creators listed.
* ``POST /api/seats``: take the seat of a token under a name; ``GET /api/seat/{token}``:
  the table and seat a link holds, and the name it was taken under.
* ``GET /api/host/{host}``: the host's view of the table (every seat with its link and
  name); ``POST /api/host/{host}/seats/{seat}/name`` (``{"name": …}``) names a seat;
  ``POST /api/host/{host}/seats/{seat}/reissue`` gives it a new link (the old one stops
  working, and its connections are closed with the reason).
* ``GET /api/tables/{table}/record[?token=T]``: the table's record to download (an
  unfinished table's only as that seat, or a spectator, may see it).
* ``WS /ws/seat/{token}[?since=V]``: a seat's connection. The server sends
  ``{"type": "state", …}`` (:meth:`cherki.server.tables.Table.view`) at once (with
  ``missed``: what happened since version ``V``, in words) and after every change; the
  client sends ``{"type": "act", "action": ID or notation, "version": N}``,
  ``{"type": "hint"}`` (answered ``{"type": "hint", "lines": […]}``), ``{"type": "back"}``
  (take the seat back from the bot that played it when its time ran out) or
  ``{"type": "ping"}``. Anything else, too big, too fast, binary, stale, out of turn or
  illegal gets ``{"type": "error", "message": …}`` and changes nothing. Before the server
  closes a connection it sends ``{"type": "closing", "message": …, "reconnect": …}``.
* ``WS /ws/watch/{table}[?since=V]``: a spectator's connection: the game's public view.

Messages both ways are in :mod:`cherki.server.messages`; every limit is in
:mod:`cherki.server.limits`.

Our specifications
------------------
* **One owner per table**: the routes find the table (:class:`~cherki.server.tables.Tables`)
  and hand it what a client said; the :class:`~cherki.server.tables.Table` alone changes it.
* **Nothing waits on a client while holding a table**: each connection has its own bounded
  queue and writer (:mod:`cherki.server.connection`); one that falls behind is dropped and
  may come back with ``?since=``.
* Every change is written to the store before any seat is told of it.
* **Bots think off the event loop**: a bot that searches thinks in a separate process (a
  pool of :data:`THINKERS`), the others in a worker thread.
* **Heavy requests** (a record sent for replay, a record to download) are worked out in a
  separate process at a lower priority, at most ``heavy_jobs`` at a time (more are refused
  with 503), each within ``heavy_seconds`` (or refused with 503 and its work stopped).
* **Limits, each refused in words**: request bodies (413), tables created per address a
  minute and tables in play (429), connections per table, per address and in all (the
  socket is told why, then closed with 1013, try again later), message size and rate,
  binary frames; the rules' numbers within their declared ranges.
* The ``Origin`` of a WebSocket upgrade, when sent, must be this server's
  (:mod:`cherki.server.origin`: the public URL's, or else this machine's own addresses).
* The turn timer's clock is checked four times a second.
"""

from __future__ import annotations

import asyncio
import gc
import json
import multiprocessing
import os
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager, suppress
from typing import Any, Literal

from fastapi import FastAPI, HTTPException, Request, Response, WebSocket
from pydantic import BaseModel, Field, ValidationError
from starlette.websockets import WebSocketDisconnect

from cherki.bots import Bot, SearchBot, levels_for
from cherki.core.contract import Observation
from cherki.core.errors import CherkiError
from cherki.core.options import Option
from cherki.games import GAMES
from cherki.server import messages, pages
from cherki.server import origin as reach
from cherki.server.connection import TOO_SLOW, Connection
from cherki.server.limits import Bucket, Limits, Window
from cherki.server.messages import PONG, Act, Back, Hint, Incoming, Ping, encode, error
from cherki.server.store import FINISHED, Store
from cherki.server.tables import (
    IDLE_SECONDS,
    MAX_HANDS,
    MAX_TIMER,
    MIN_TIMER,
    SeatPlan,
    Table,
    Tables,
    record_for,
    think,
)

TICK = 0.25  # seconds between looks at the turn timers
THINKERS = 1  # worker processes for the searching bots
#: kept for callers of the first API
MAX_MESSAGE = Limits().message_bytes
RATE = Limits().messages_per_second
#: seconds between looks for tables to let go from memory
SWEEP_SECONDS = 60.0
#: seconds the lobby's list of tables is kept before it is read again
LISTING_SECONDS = 2.0


class SeatIn(BaseModel):
    kind: Literal["human", "bot"]
    level: str | None = Field(default=None, max_length=16)


class TableIn(BaseModel):
    game: str = Field(max_length=40)
    preset: str | None = Field(default=None, max_length=40)
    options: dict[str, str | int | bool] = Field(default_factory=dict, max_length=40)
    seats: list[SeatIn] = Field(min_length=2, max_length=14)
    hands: int = Field(default=1, ge=1, le=MAX_HANDS)
    timer: int | None = Field(default=None, ge=MIN_TIMER, le=MAX_TIMER)
    #: whether the lobby lists the table for anyone to watch (off: only its links reach it)
    listed: bool = False


class NameIn(BaseModel):
    name: str = Field(max_length=40)


class TakeSeat(BaseModel):
    token: str = Field(max_length=64)
    name: str = Field(max_length=40)


def _kind(option: Option) -> str:
    """``bool``, ``choice``, ``int`` or ``text``: which input a form gives the option."""
    if option.kind is bool:
        return "bool"
    if option.choices:
        return "choice"
    return "int" if option.kind is int else "text"


def games_json() -> list[dict[str, Any]]:
    """What the lobby offers for each game."""
    out = []
    for g in GAMES.values():
        out.append(
            {
                "name": g.name,
                "title": g.title,
                "players": list(g.players),
                "default_players": g.default_players,
                "presets": [
                    {"name": p.name, "summary": p.description, "sources": p.sources}
                    for p in g.presets
                ],
                "default_preset": g.default_preset().name,
                "options": [
                    {
                        "name": o.name,
                        "summary": o.help,
                        "kind": _kind(o),
                        "type": o.type_name,
                        "choices": list(o.choices),
                        "minimum": o.minimum,
                        "maximum": o.maximum,
                        "optional": o.optional,
                        "default": getattr(g.default_preset().rules, o.name, o.default),
                    }
                    for o in g.options
                ],
                "levels": list(levels_for(g.name)),
            }
        )
    return out


# -- heavy work, in a process of its own ---------------------------------------------------------
def _die_with_parent() -> None:
    """A worker process ends with the server, even one killed outright: a thread of the
    worker looks every second whether its parent is still there."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="cherki-parent-watch", daemon=True).start()


def _low_priority() -> None:
    _die_with_parent()
    with suppress(OSError):
        os.nice(10)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop a pool's processes now (a running job cannot be cancelled; the executor has no
    public way to name its processes)."""
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        with suppress(Exception):
            proc.kill()
    pool.shutdown(wait=False, cancel_futures=True)


def _replay_json(text: str, table_id: str | None = None) -> tuple[int, str]:
    """The replay frames of a record's text (status 200), or the reader's message (400)."""
    from cherki.play.records import parse_record

    try:
        out = pages.frames(parse_record(text))
    except CherkiError as err:
        return 400, str(err)
    if table_id is not None:
        out["table"] = table_id
    return 200, json.dumps(out, ensure_ascii=False)


def _record_json(text: str, seat: int | None, over: bool) -> str:
    return json.dumps(record_for(text, seat, over), indent=1, ensure_ascii=False) + "\n"


class Heavy:
    """A pool of one low-priority process for heavy requests, with a limit on the jobs in
    hand and on each job's time (a job past its time stops the process; the next job gets
    a new one)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.pool: ProcessPoolExecutor | None = None
        self.jobs = 0

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), initializer=_low_priority
            )
        return self.pool

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        if self.jobs >= self.limits.heavy_jobs:
            raise HTTPException(503, "the server is busy with other big requests: try again soon")
        self.jobs += 1
        try:
            future = asyncio.get_running_loop().run_in_executor(self._pool(), fn, *args)
            try:
                return await asyncio.wait_for(future, self.limits.heavy_seconds)
            except TimeoutError:
                self._kill()
                raise HTTPException(
                    503,
                    f"this request took longer than {self.limits.heavy_seconds:g} seconds "
                    "and was stopped",
                ) from None
        finally:
            self.jobs -= 1

    def _kill(self) -> None:
        pool, self.pool = self.pool, None
        if pool is not None:
            _stop(pool)

    def close(self) -> None:
        self._kill()


# -- request bodies ------------------------------------------------------------------------------
Scope = MutableMapping[str, Any]
ASGI = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]],
                Awaitable[None]]  # fmt: skip


class BodyLimit:
    """Refuse a request body over the limit (413) before it is read whole: by its declared
    length, or as it streams in (the body is gathered here, up to the limit, and handed to
    the app only when it is within it)."""

    def __init__(self, app: ASGI, limits: Limits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        replay = scope.get("path") == "/api/replay"
        most = self.limits.replay_bytes if replay else self.limits.body_bytes
        what = "a record sent here" if replay else "a request's body"
        words = f"{what} is at most {_size(most)}"
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > most):
                await _plain(send, 413, words)
                return
        parts: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > most:
                await _plain(send, 413, words)
                return
            parts.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(parts)
        done = False

        async def replayed() -> Any:
            nonlocal done
            if not done:
                done = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replayed, send)


async def _plain(send: Any, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 else f"{n // 1024} KB"


def _address(conn: Request | WebSocket) -> str:
    return conn.client.host if conn.client is not None else "unknown"


# -- the app ------------------------------------------------------------------------------------
def create_app(
    store: Store,
    *,
    public_url: str | None = None,
    limits: Limits | None = None,
    rate: float | None = None,
    tick: float = TICK,
    collect_every: float | None = None,
) -> FastAPI:
    """The app on ``store``; ``public_url``: the address people open (``https://…``, in
    front of any proxy): the only origin whose pages may open its WebSockets, and the base
    of the absolute links it returns; ``limits``: every limit (:class:`Limits`); ``rate``:
    messages a second a connection may send (overrides the limits'); ``tick``: how often
    (seconds) the turn timers are checked; ``collect_every``: seconds between full garbage
    collections (for a process that leaves the oldest generation to the app: ``cherki
    serve``)."""
    public = reach.public_url(public_url) if public_url else None
    limits = limits or Limits()
    if rate is not None:
        limits = Limits(**{**limits.__dict__, "messages_per_second": rate})
    tables = Tables(store)
    heavy = Heavy(limits)
    created = Window(limits.tables_per_minute, 60.0)
    by_address: Counter[str] = Counter()
    open_connections = [0]
    thinkers: list[ProcessPoolExecutor] = []
    listing_cache: list[Any] = [0.0, None]

    def thinker_pool() -> ProcessPoolExecutor:
        if not thinkers:
            thinkers.append(
                ProcessPoolExecutor(
                    THINKERS,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_die_with_parent,
                )
            )
        return thinkers[0]

    async def thinker(bot: Bot, obs: Observation, seed: int) -> int:
        if isinstance(bot, SearchBot):
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(thinker_pool(), think, bot, obs, seed)
        return await asyncio.to_thread(think, bot, obs, seed)

    async def collector(every: float) -> None:
        while True:
            await asyncio.sleep(every)
            gc.collect()

    async def clock() -> None:
        swept = time.monotonic()
        while True:
            await asyncio.sleep(tick)
            now = time.monotonic()
            if now - swept > SWEEP_SECONDS:
                swept = now
                tables.sweep(now, IDLE_SECONDS)
            for table in [t for t in list(tables.live.values()) if t.deadline is not None]:
                if table.deadline is not None and table.deadline[2] <= now:
                    await table.expire_now(time.monotonic(), thinker)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        timers = asyncio.create_task(clock())
        sweeper = asyncio.create_task(collector(collect_every)) if collect_every else None
        try:
            yield
        finally:
            timers.cancel()
            if sweeper is not None:
                sweeper.cancel()
            for table in list(tables.live.values()):
                await table.stop()
            if thinkers:
                _stop(thinkers[0])
            heavy.close()

    app = FastAPI(title="cherki", lifespan=lifespan)
    app.state.tables = tables
    app.state.limits = limits
    app.add_middleware(BodyLimit, limits=limits)

    async def find(table_id: str) -> Table:
        """The live table (loaded from the store in a worker thread if need be)."""
        table = tables.live.get(table_id)
        if table is not None:
            return table
        return await asyncio.to_thread(tables.table, table_id)

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return games_json()

    @app.post("/api/tables")
    async def create(body: TableIn, request: Request) -> dict[str, Any]:
        if tables.playing >= limits.live_tables:
            raise HTTPException(429, "this server holds as many tables as it can: try later")
        if not created.take(_address(request)):
            raise HTTPException(
                429,
                f"at most {limits.tables_per_minute} new tables a minute from one address: "
                "wait a minute",
            )
        plans = [SeatPlan(s.kind, s.level) for s in body.seats]
        try:
            table_id, tokens, host = await asyncio.to_thread(
                tables.create,
                body.game,
                body.preset,
                dict(body.options),
                plans,
                body.hands,
                body.timer,
                body.listed,
            )
        except CherkiError as err:
            raise HTTPException(400, str(err)) from None
        tables.live[table_id].wake(thinker)
        listing_cache[1] = None
        made: dict[str, Any] = {
            "table": table_id,
            "seats": {str(s): t for s, t in tokens.items()},
            "links": {str(s): f"/seat/{t}" for s, t in tokens.items()},
            "watch": f"/ws/watch/{table_id}",
            "watch_page": f"/watch/{table_id}",
            "host": host,
            "host_page": f"/host/{host}",
        }
        if public:
            made |= reach.absolute_links(public, made)
            made["host_page_url"] = public + made["host_page"]
        return made

    def _listing() -> list[dict[str, Any]]:
        out = []
        for t in store.tables(status="playing") + store.tables(status="open"):
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

    @app.get("/api/tables")
    async def listing() -> list[dict[str, Any]]:
        now = time.monotonic()
        if listing_cache[1] is None or now - listing_cache[0] > LISTING_SECONDS:
            listing_cache[1] = await asyncio.to_thread(_listing)
            listing_cache[0] = now
        rows: list[dict[str, Any]] = listing_cache[1]
        return [r | reach.absolute_links(public, r) for r in rows] if public else rows

    @app.post("/api/seats")
    async def take(body: TakeSeat) -> dict[str, Any]:
        try:
            table_id, seat = await asyncio.to_thread(store.take_seat, body.token, body.name)
            table = await find(table_id)
        except CherkiError as err:
            raise HTTPException(400, str(err)) from None
        async with table.lock:
            table.rename(seat, body.name.strip())
            table.tell()
        listing_cache[1] = None
        return {"table": table_id, "seat": seat}

    # -- the host's link ----------------------------------------------------------------------
    def host_view(token: str) -> dict[str, Any]:
        table_id, links = store.seat_links(token)
        info = store.table(table_id)
        base = public or ""
        seats = []
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
        }

    @app.get("/api/host/{token}")
    async def host_info(token: str) -> dict[str, Any]:
        """The host's view of a table: every seat with its link and name."""
        try:
            return await asyncio.to_thread(host_view, token)
        except CherkiError as err:
            raise HTTPException(404, str(err)) from None

    async def hosted(token: str) -> Table:
        try:
            table_id = await asyncio.to_thread(store.host_of, token)
            return await find(table_id)
        except CherkiError as err:
            raise HTTPException(404, str(err)) from None

    @app.post("/api/host/{token}/seats/{seat}/name")
    async def host_rename(token: str, seat: int, body: NameIn) -> dict[str, Any]:
        """The host names a person's seat; everyone at the table is told."""
        table = await hosted(token)
        try:
            await asyncio.to_thread(store.rename_seat, table.id, seat, body.name)
        except CherkiError as err:
            raise HTTPException(400, str(err)) from None
        async with table.lock:
            table.rename(seat, body.name.strip())
            table.tell()
        return {"table": table.id, "seat": seat, "name": body.name.strip()}

    @app.post("/api/host/{token}/seats/{seat}/reissue")
    async def host_reissue(token: str, seat: int) -> dict[str, Any]:
        """A new link for a person's seat: the old one stops working, and whoever holds it
        is told so and disconnected."""
        table = await hosted(token)
        try:
            fresh = await asyncio.to_thread(store.reissue, table.id, seat, token)
        except CherkiError as err:
            raise HTTPException(400, str(err)) from None
        for conn in [c for c in table.connections if c.seat == seat]:
            conn.drop("the host gave this seat a new link: ask them for it", reconnect=False)
        link = f"/seat/{fresh}"
        return {"table": table.id, "seat": seat, "link": link, "url": (public or "") + link}

    @app.get("/api/seat/{token}")
    async def seat_info(token: str) -> dict[str, Any]:
        def look() -> dict[str, Any]:
            table_id, seat = store.seat_of(token)
            info = store.table(table_id)
            return {
                "table": table_id,
                "seat": seat,
                "game": info.game,
                "name": info.seats[seat].name,
                "status": info.status,
            }

        try:
            return await asyncio.to_thread(look)
        except CherkiError as err:
            raise HTTPException(404, str(err)) from None

    @app.get("/api/tables/{table_id}/record")
    async def download(table_id: str, token: str | None = None) -> Response:
        try:
            seat = None
            if token is not None:
                owner, seat = await asyncio.to_thread(store.seat_of, token)
                if owner != table_id:
                    raise CherkiError("this link holds no seat at that table")
            table = await find(table_id)
        except CherkiError as err:
            raise HTTPException(404, str(err)) from None
        async with table.lock:
            text = table.session.record().dumps()
            over = table.over
        data = await heavy.run(_record_json, text, seat, over)
        who = "" if seat is None else f"-seat{seat}"
        name = f"cherki-{table.session.game.name}-{table_id[:8]}{who}.json"
        return Response(
            data,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    @app.get("/api/tables/{table_id}/replay")
    async def table_replay(table_id: str) -> Response:
        """A finished table's replay: every hand face up, step by step (an unfinished
        table's: 403)."""
        try:
            info = await asyncio.to_thread(store.table, table_id)
        except CherkiError as err:
            raise HTTPException(404, str(err)) from None
        if info.status != FINISHED:
            raise HTTPException(
                403, "this table is still being played: its replay opens when the match is over"
            )
        text = (await asyncio.to_thread(store.record, table_id)).dumps()
        status, out = await heavy.run(_replay_json, text, table_id)
        if status != 200:
            raise HTTPException(status, out)
        return Response(out, media_type="application/json")

    @app.post("/api/replay")
    async def replay_upload(request: Request) -> Response:
        """The frames of a record sent as the request's body (JSON, at most 1 MB), worked
        out in the heavy requests' process."""
        body = await request.body()
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise HTTPException(400, "a record is UTF-8 JSON text") from None
        status, out = await heavy.run(_replay_json, text)
        if status != 200:
            raise HTTPException(status, out)
        return Response(out, media_type="application/json")

    def origin_ok(ws: WebSocket) -> bool:
        allowed = reach.connection_origins(public, ws.scope.get("server"))
        return reach.origin_ok(ws.headers.get("origin"), allowed)

    async def answer(conn: Connection, table: Table, text: str) -> None:
        """Answer one message of a connection (a bad one: an error, nothing changed)."""
        if len(text) > limits.message_bytes or len(text.encode("utf-8")) > limits.message_bytes:
            conn.send(error("message too large"))
            return
        try:
            msg = Incoming.validate_json(text)
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            conn.send(error(f"bad message: {where}: {first['msg']}"))
            return
        if isinstance(msg, Ping):
            conn.send(PONG)
            return
        seat = conn.seat
        if seat is None:
            conn.send(error("a spectator cannot play"))
            return
        if isinstance(msg, Hint):
            conn.send(encode(await table.hint(seat)))
        elif isinstance(msg, Back):
            await table.come_back(seat, thinker)
        elif isinstance(msg, Act):
            try:
                await table.act(seat, msg.action, msg.version, thinker)
            except CherkiError as err:
                conn.send(error(str(err)))

    def admitted(ws: WebSocket, table: Table, address: str) -> str | None:
        """Why a new connection is refused (None: it is let in)."""
        if table.held >= limits.connections_per_table:
            return (
                f"this table has {limits.connections_per_table} connections already: "
                "try again later"
            )
        if by_address[address] >= limits.connections_per_address:
            return (
                f"{limits.connections_per_address} connections from your address already: "
                "close some"
            )
        if open_connections[0] >= limits.connections:
            return "this server is full: try again later"
        return None

    async def serve(ws: WebSocket, table_id: str | None, token: str | None) -> None:
        """Accept a connection from this server's own pages to the table (and seat) it
        names and serve it; close any other (policy violation)."""
        raw = ws.query_params.get("since")
        try:
            if not origin_ok(ws):
                raise CherkiError("another site's page")
            since = None
            if raw is not None:
                if not raw.isdigit() or len(raw) > 9:
                    raise CherkiError("since is a version number")
                since = int(raw)
            seat = None
            if token is not None:
                table_id, seat = await asyncio.to_thread(store.seat_of, token)
            assert table_id is not None
            table = await find(table_id)
        except CherkiError:
            with suppress(Exception):
                await ws.close(code=1008)
            return
        address = _address(ws)
        try:
            await ws.accept()
        except Exception:  # gone before it was accepted
            return
        refused = admitted(ws, table, address)
        if refused is not None:
            with suppress(Exception):
                await ws.send_text(messages.closing(refused, reconnect=True))
                await ws.close(code=TOO_SLOW, reason=refused[:120])
            return
        conn = Connection(ws, seat, address, limits)
        # counted at once (before anything is awaited): a burst of connections cannot all
        # pass the check before the first is counted
        by_address[address] += 1
        open_connections[0] += 1
        table.held += 1
        conn.start(table.leave)
        bucket = Bucket(limits.messages_per_second)
        try:
            await table.join(conn, since, thinker)
            while not conn.closed:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    conn.send(error("binary frames are not accepted: send JSON text"))
                    continue
                if not bucket.take():
                    conn.send(error("too many messages: slow down"))
                    continue
                await answer(conn, table, text)
        except (WebSocketDisconnect, asyncio.CancelledError, RuntimeError, OSError):
            pass  # the client went away, or was dropped
        finally:
            table.leave(conn)
            table.held -= 1
            open_connections[0] -= 1
            by_address[address] -= 1
            if by_address[address] <= 0:
                del by_address[address]
            await conn.stop()
            if table.over and not table.connections:
                tables.forget(table.id)

    @app.websocket("/ws/seat/{token}")
    async def seat_socket(ws: WebSocket, token: str) -> None:
        await serve(ws, None, token)

    @app.websocket("/ws/watch/{table_id}")
    async def watch_socket(ws: WebSocket, table_id: str) -> None:
        await serve(ws, table_id, None)

    pages.mount(app)
    return app


def default_url() -> str:
    """The embedded default: an SQLite file in the user's data folder."""
    from pathlib import Path

    home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    folder = Path(home) / "cherki"
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'cherki.db'}"


def app_from_env() -> FastAPI:
    """The app on ``$CHERKI_DATABASE_URL`` (default: :func:`default_url`) served at
    ``$CHERKI_PUBLIC_URL`` (if set), for ``uvicorn --factory
    cherki.server.app:app_from_env``."""
    store = Store(os.environ.get("CHERKI_DATABASE_URL") or default_url())
    return create_app(store, public_url=os.environ.get("CHERKI_PUBLIC_URL") or None)
