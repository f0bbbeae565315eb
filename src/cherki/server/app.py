"""The HTTP and WebSocket API of the browser app; the pages are :mod:`cherki.server.pages`.

* ``GET /api/games``: the games, their player counts, presets, rule options (each with its
  one-line explanation) and bot levels: what the lobby offers.
* ``POST /api/tables``: create a table (game, preset, options, seats as people or bots of a
  level, hands, a turn timer): its id, a private link for each person's seat, and a
  spectator's link.
* ``GET /api/tables``: the tables in play.
* ``POST /api/seats``: take the seat of a token under a name; ``GET /api/seat/{token}``:
  the table and seat a link holds, and the name it was taken under.
* ``GET /api/tables/{table}/record[?token=T]``: the table's record to download (an
  unfinished table's only as that seat, or a spectator, may see it).
* ``WS /ws/seat/{token}[?since=V]``: a seat's connection. The server sends
  ``{"type": "state", …}`` (:meth:`cherki.server.tables.Tables.view`) at once (with
  ``missed``: what happened since version ``V``, in words) and after every change; the
  client sends ``{"type": "act", "action": ID or notation, "version": N}``,
  ``{"type": "hint"}`` (answered ``{"type": "hint", "lines": […]}``), ``{"type": "back"}``
  (take the seat back from the bot that played it when its time ran out) or
  ``{"type": "ping"}``. Anything else, too big, too fast, stale, out of turn or illegal gets
  ``{"type": "error", "message": …}`` and changes nothing.
* ``WS /ws/watch/{table}[?since=V]``: a spectator's connection, every hand hidden.

Our specifications
------------------
* Messages are typed and tagged (pydantic models with ``type``); at most
  :data:`MAX_MESSAGE` bytes; at most :data:`RATE` messages a second per connection (a
  token bucket); the ``Origin`` of a WebSocket upgrade, when sent, must be this server.
* Every change is written to the store before any seat is told of it; every seat and
  spectator is sent the table after each action, a bot's too.
* **Bots think off the event loop**: each table's bots play in a task of their own, under
  that table's lock only; a bot that searches thinks in a separate process (a pool of
  :data:`THINKERS`), the others in a worker thread, so a searching bot never stalls other
  tables or this server's connections.
* The turn timer's clock is checked four times a second.
"""

from __future__ import annotations

import asyncio
import gc
import json
import multiprocessing
import os
import random
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal
from urllib.parse import urlparse

from fastapi import FastAPI, HTTPException, Response, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from cherki.bots import Bot, SearchBot, levels_for
from cherki.core.contract import Observation
from cherki.core.errors import CherkiError
from cherki.core.options import Option
from cherki.games import GAMES
from cherki.server import pages, present
from cherki.server.store import FINISHED, Store
from cherki.server.tables import MAX_HANDS, MAX_TIMER, MIN_TIMER, SeatPlan, Tables

MAX_MESSAGE = 4096
RATE = 10.0  # messages a second, a burst of as many
TICK = 0.25  # seconds between looks at the turn timers
THINKERS = 1  # worker processes for the searching bots


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


class TakeSeat(BaseModel):
    token: str = Field(max_length=64)
    name: str = Field(max_length=40)


class Act(BaseModel):
    type: Literal["act"]
    action: int | str
    version: int


class Ping(BaseModel):
    type: Literal["ping"]


class Hint(BaseModel):
    type: Literal["hint"]


class Back(BaseModel):
    type: Literal["back"]


Message = TypeAdapter(Annotated[Act | Ping | Hint | Back, Field(discriminator="type")])


class Bucket:
    """A token bucket: ``rate`` a second, bursts of ``rate``."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.level = rate
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.rate, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


def _think(bot: Bot, obs: Observation, seed: int) -> int:
    """A bot's decision (run in a worker process or thread)."""
    return bot.act(obs, random.Random(seed))


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


def create_app(
    store: Store, *, rate: float = RATE, tick: float = TICK, collect_every: float | None = None
) -> FastAPI:
    """The app on ``store``; ``rate``: messages a second a connection may send; ``tick``:
    how often (seconds) the turn timers are checked; ``collect_every``: seconds between
    full garbage collections (for a process that leaves the oldest generation to the app:
    ``cherki serve``)."""
    tables = Tables(store)
    locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
    thinking: dict[str, asyncio.Task[None]] = {}
    watchers: dict[str, set[tuple[WebSocket, int | None]]] = defaultdict(set)
    pool: list[ProcessPoolExecutor] = []

    def thinker() -> ProcessPoolExecutor:
        if not pool:
            pool.append(
                ProcessPoolExecutor(THINKERS, mp_context=multiprocessing.get_context("spawn"))
            )
        return pool[0]

    async def collector(every: float) -> None:
        while True:
            await asyncio.sleep(every)
            gc.collect()

    async def clock() -> None:
        while True:
            await asyncio.sleep(tick)
            now = time.monotonic()
            for table_id in [t for t, (_, _, at) in list(tables.deadline.items()) if at <= now]:
                async with locks[table_id]:
                    if tables.expire(table_id, time.monotonic()):
                        await broadcast(table_id)
                        wake(table_id)

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
            for task in list(thinking.values()):
                task.cancel()
            if pool:
                pool[0].shutdown(wait=False, cancel_futures=True)

    app = FastAPI(title="cherki", lifespan=lifespan)
    app.state.tables = tables

    async def broadcast(table_id: str) -> None:
        now = time.monotonic()
        tables.arm(table_id, now)
        for ws, seat in list(watchers[table_id]):
            try:
                await ws.send_json(tables.view(table_id, seat, now))
            except (RuntimeError, WebSocketDisconnect):
                watchers[table_id].discard((ws, seat))

    async def play_bots(table_id: str) -> None:
        """The table's bots (and stand-ins for away people) play until a person is to act:
        each decision away from the event loop, each action stored, then shown."""
        while True:
            async with locks[table_id]:
                job = await asyncio.to_thread(tables.to_think, table_id)
                if job is None:
                    return
                seat, bot = job
                session = tables.session(table_id)
                assert session.state is not None and session.rngs is not None
                obs = session.state.observation(seat)
                seed = session.rngs[seat].getrandbits(64)
                if isinstance(bot, SearchBot):
                    loop = asyncio.get_running_loop()
                    action = await loop.run_in_executor(thinker(), _think, bot, obs, seed)
                else:
                    action = await asyncio.to_thread(_think, bot, obs, seed)
                await asyncio.to_thread(tables.bot_act, table_id, seat, action)
                await broadcast(table_id)

    def wake(table_id: str) -> None:
        """Start the table's bots if they are not already playing."""
        task = thinking.get(table_id)
        if task is None or task.done():
            thinking[table_id] = asyncio.create_task(play_bots(table_id))

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return games_json()

    @app.post("/api/tables")
    async def create(body: TableIn) -> dict[str, Any]:
        plans = [SeatPlan(s.kind, s.level) for s in body.seats]
        try:
            table_id, tokens, _host = await asyncio.to_thread(
                tables.create,
                body.game,
                body.preset,
                dict(body.options),
                plans,
                body.hands,
                body.timer,
            )
        except CherkiError as err:
            raise HTTPException(400, str(err)) from None
        wake(table_id)
        return {
            "table": table_id,
            "seats": {str(s): t for s, t in tokens.items()},
            "links": {str(s): f"/seat/{t}" for s, t in tokens.items()},
            "watch": f"/ws/watch/{table_id}",
            "watch_page": f"/watch/{table_id}",
        }

    @app.get("/api/tables")
    async def listing() -> list[dict[str, Any]]:
        infos = await asyncio.to_thread(store.tables)
        return [
            {
                "table": t.id,
                "game": t.game,
                "title": GAMES[t.game].title if t.game in GAMES else t.game,
                "status": t.status,
                "hands": t.settings.get("hands"),
                "timer": t.settings.get("timer"),
                "watch_page": f"/watch/{t.id}",
                "seats": [
                    {"seat": s.seat, "kind": s.kind, "level": s.level, "taken": s.name is not None}
                    for s in t.seats
                ],
            }
            for t in infos
            if t.status != FINISHED
        ]

    @app.post("/api/seats")
    async def take(body: TakeSeat) -> dict[str, Any]:
        try:
            table_id, seat = store.take_seat(body.token, body.name)
        except CherkiError as err:
            raise HTTPException(400, str(err)) from None
        async with locks[table_id]:
            tables.rename(table_id, seat, body.name.strip())
        await broadcast(table_id)
        return {"table": table_id, "seat": seat}

    @app.get("/api/seat/{token}")
    async def seat_info(token: str) -> dict[str, Any]:
        try:
            table_id, seat = store.seat_of(token)
            info = store.table(table_id)
        except CherkiError as err:
            raise HTTPException(404, str(err)) from None
        return {
            "table": table_id,
            "seat": seat,
            "game": info.game,
            "name": info.seats[seat].name,
            "status": info.status,
        }

    @app.get("/api/tables/{table_id}/record")
    async def download(table_id: str, token: str | None = None) -> Response:
        try:
            seat = None
            if token is not None:
                owner, seat = store.seat_of(token)
                if owner != table_id:
                    raise CherkiError("this link holds no seat at that table")
            async with locks[table_id]:
                data = await asyncio.to_thread(tables.record_for, table_id, seat)
        except CherkiError as err:
            raise HTTPException(404, str(err)) from None
        who = "" if seat is None else f"-seat{seat}"
        name = f"cherki-{data['game']}-{table_id[:8]}{who}.json"
        return Response(
            json.dumps(data, indent=1, ensure_ascii=False) + "\n",
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    def origin_ok(ws: WebSocket) -> bool:
        origin = ws.headers.get("origin")
        if origin is None:
            return True
        host = ws.headers.get("host", "")
        return urlparse(origin).netloc == host

    async def reply(ws: WebSocket, table_id: str, seat: int | None, text: str) -> None:
        """Answer one message of a connection (a bad one: an error, nothing changed)."""
        if len(text.encode("utf-8")) > MAX_MESSAGE:
            await ws.send_json({"type": "error", "message": "message too large"})
            return
        try:
            msg = Message.validate_json(text)
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            message = f"bad message: {where}: {first['msg']}"
            await ws.send_json({"type": "error", "message": message})
            return
        if isinstance(msg, Ping):
            await ws.send_json({"type": "pong"})
            return
        if seat is None:
            await ws.send_json({"type": "error", "message": "a spectator cannot play"})
            return
        if isinstance(msg, Hint):
            async with locks[table_id]:
                lines = await asyncio.to_thread(present.hint, tables.session(table_id), seat)
            await ws.send_json({"type": "hint", "lines": lines})
            return
        if isinstance(msg, Back):
            async with locks[table_id]:
                changed = tables.back(table_id, seat)
            if changed:
                await broadcast(table_id)
            return
        try:
            async with locks[table_id]:
                await asyncio.to_thread(tables.act, table_id, seat, msg.action, msg.version)
                await broadcast(table_id)
        except CherkiError as err:
            await ws.send_json({"type": "error", "message": str(err)})
            return
        wake(table_id)

    async def serve(ws: WebSocket, table_id: str, seat: int | None, since: int | None) -> None:
        bucket = Bucket(rate)
        try:
            async with locks[table_id]:
                if seat is not None and tables.back(table_id, seat):
                    await broadcast(table_id)
                tables.arm(table_id, time.monotonic())
                first = tables.view(table_id, seat, time.monotonic())
                if since is not None:
                    first["missed"] = await asyncio.to_thread(tables.missed, table_id, seat, since)
                watchers[table_id].add((ws, seat))
            await ws.send_json(first)
            wake(table_id)
            while True:
                text = await ws.receive_text()
                if not bucket.take():
                    await ws.send_json({"type": "error", "message": "too many messages: slow down"})
                    continue
                await reply(ws, table_id, seat, text)
        except WebSocketDisconnect:
            pass
        finally:
            watchers[table_id].discard((ws, seat))

    async def admit(ws: WebSocket, find: Callable[[], tuple[str, int | None]]) -> None:
        """Accept a connection from this server's own pages whose table (and seat) ``find``
        names, and serve it; close any other (policy violation)."""
        raw = ws.query_params.get("since")
        try:
            if not origin_ok(ws):
                raise CherkiError("another site's page")
            since = None
            if raw is not None:
                if not raw.isdigit() or len(raw) > 9:
                    raise CherkiError("since is a version number")
                since = int(raw)
            table_id, seat = find()
            tables.session(table_id)
        except CherkiError:
            await ws.close(code=1008)
            return
        await ws.accept()
        await serve(ws, table_id, seat, since)

    @app.websocket("/ws/seat/{token}")
    async def seat_socket(ws: WebSocket, token: str) -> None:
        def find() -> tuple[str, int | None]:
            return store.seat_of(token)

        await admit(ws, find)

    @app.websocket("/ws/watch/{table_id}")
    async def watch_socket(ws: WebSocket, table_id: str) -> None:
        await admit(ws, lambda: (table_id, None))

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
    """The app on ``$CHERKI_DATABASE_URL`` (default: :func:`default_url`), for
    ``uvicorn --factory cherki.server.app:app_from_env``."""
    return create_app(Store(os.environ.get("CHERKI_DATABASE_URL") or default_url()))
