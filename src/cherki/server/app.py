"""The HTTP and WebSocket API of the browser app (issue 15, being built; no pages yet).

* ``POST /api/tables``: create a table (game, preset, options, seats as people or bots of a
  level, hands): its id, a private link token for each person's seat, and a spectator
  address.
* ``GET /api/tables``: the tables in play.
* ``POST /api/seats``: take the seat of a token under a name.
* ``WS /ws/seat/{token}``: a seat's connection. The server sends ``{"type": "state", …}``
  (:meth:`cherki.server.tables.Tables.view`) at once and after every change; the client sends
  ``{"type": "act", "action": ID or notation, "version": N}``. Anything else, too big, too
  fast, stale, out of turn or illegal gets ``{"type": "error", "message": …}`` and changes
  nothing.
* ``WS /ws/watch/{table}``: a spectator's connection, every hand hidden.

Our specifications
------------------
* Messages are typed and tagged (pydantic models with ``type``); at most
  :data:`MAX_MESSAGE` bytes; at most :data:`RATE` messages a second per connection (a
  token bucket); the ``Origin`` of a WebSocket upgrade, when sent, must be this server.
* Every change is written to the store before any seat is told of it. Bots think in a
  worker thread, so a thinking bot never stalls other tables.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Annotated, Any, Literal
from urllib.parse import urlparse

from fastapi import FastAPI, HTTPException, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from cherki.core.errors import CherkiError
from cherki.server import pages
from cherki.server.store import Store
from cherki.server.tables import SeatPlan, Tables

MAX_MESSAGE = 4096
RATE = 10.0  # messages a second, a burst of as many


class SeatIn(BaseModel):
    kind: Literal["human", "bot"]
    level: str | None = Field(default=None, max_length=16)


class TableIn(BaseModel):
    game: str = Field(max_length=40)
    preset: str | None = Field(default=None, max_length=40)
    options: dict[str, str | int | bool] = Field(default_factory=dict, max_length=40)
    seats: list[SeatIn] = Field(min_length=2, max_length=14)
    hands: int = Field(default=1, ge=1, le=100)


class TakeSeat(BaseModel):
    token: str = Field(max_length=64)
    name: str = Field(max_length=40)


class Act(BaseModel):
    type: Literal["act"]
    action: int | str
    version: int


class Ping(BaseModel):
    type: Literal["ping"]


Message = TypeAdapter(Annotated[Act | Ping, Field(discriminator="type")])


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


def create_app(store: Store, *, rate: float = RATE) -> FastAPI:
    """The app on ``store``; ``rate``: messages a second a connection may send."""
    app = FastAPI(title="cherki")
    tables = Tables(store)
    lock = asyncio.Lock()
    watchers: dict[str, set[tuple[WebSocket, int | None]]] = defaultdict(set)
    app.state.tables = tables

    async def broadcast(table_id: str) -> None:
        for ws, seat in list(watchers[table_id]):
            try:
                await ws.send_json(tables.view(table_id, seat))
            except (RuntimeError, WebSocketDisconnect):
                watchers[table_id].discard((ws, seat))

    @app.post("/api/tables")
    async def create(body: TableIn) -> dict[str, Any]:
        plans = [SeatPlan(s.kind, s.level) for s in body.seats]
        try:
            async with lock:
                table_id, tokens = await asyncio.to_thread(
                    tables.create, body.game, body.preset, dict(body.options), plans, body.hands
                )
        except CherkiError as err:
            raise HTTPException(400, str(err)) from None
        return {
            "table": table_id,
            "seats": {str(s): t for s, t in tokens.items()},
            "watch": f"/ws/watch/{table_id}",
        }

    @app.get("/api/tables")
    async def listing() -> list[dict[str, Any]]:
        return [
            {
                "table": t.id,
                "game": t.game,
                "status": t.status,
                "seats": [
                    {"seat": s.seat, "kind": s.kind, "level": s.level, "taken": s.name is not None}
                    for s in t.seats
                ],
            }
            for t in store.tables()
            if t.status != "finished"
        ]

    @app.post("/api/seats")
    async def take(body: TakeSeat) -> dict[str, Any]:
        try:
            table_id, seat = store.take_seat(body.token, body.name)
        except CherkiError as err:
            raise HTTPException(400, str(err)) from None
        return {"table": table_id, "seat": seat}

    def origin_ok(ws: WebSocket) -> bool:
        origin = ws.headers.get("origin")
        if origin is None:
            return True
        host = ws.headers.get("host", "")
        return urlparse(origin).netloc == host

    async def serve(ws: WebSocket, table_id: str, seat: int | None) -> None:
        watchers[table_id].add((ws, seat))
        bucket = Bucket(rate)
        try:
            await ws.send_json(tables.view(table_id, seat))
            while True:
                text = await ws.receive_text()
                if not bucket.take():
                    await ws.send_json({"type": "error", "message": "too many messages: slow down"})
                    continue
                if len(text.encode("utf-8")) > MAX_MESSAGE:
                    await ws.send_json({"type": "error", "message": "message too large"})
                    continue
                try:
                    msg = Message.validate_json(text)
                except ValidationError as err:
                    first = err.errors()[0]
                    where = ".".join(str(p) for p in first["loc"])
                    await ws.send_json(
                        {"type": "error", "message": f"bad message: {where}: {first['msg']}"}
                    )
                    continue
                if isinstance(msg, Ping):
                    await ws.send_json({"type": "pong"})
                    continue
                if seat is None:
                    await ws.send_json({"type": "error", "message": "a spectator cannot act"})
                    continue
                try:
                    async with lock:
                        await asyncio.to_thread(tables.act, table_id, seat, msg.action, msg.version)
                except CherkiError as err:
                    await ws.send_json({"type": "error", "message": str(err)})
                    continue
                await broadcast(table_id)
        except WebSocketDisconnect:
            pass
        finally:
            watchers[table_id].discard((ws, seat))

    async def admit(ws: WebSocket, find: Callable[[], tuple[str, int | None]]) -> None:
        """Accept a connection from this server's own pages whose table (and seat) ``find``
        names, and serve it; close any other (policy violation)."""
        try:
            if not origin_ok(ws):
                raise CherkiError("another site's page")
            table_id, seat = find()
            tables.session(table_id)
        except CherkiError:
            await ws.close(code=1008)
            return
        await ws.accept()
        await serve(ws, table_id, seat)

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
