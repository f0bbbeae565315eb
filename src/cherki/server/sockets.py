"""The WebSocket routes (a seat's, a spectator's): who may connect, and each message
answered. The table (:class:`~cherki.server.tables.Table`) does the rest; the connection
(:class:`~cherki.server.connection.Connection`) sends."""

from __future__ import annotations

import asyncio
import time
from contextlib import suppress

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect

from cherki.core.errors import CherkiError
from cherki.i18n import DEFAULT as DEFAULT_LANG
from cherki.i18n import normalise
from cherki.server import chat, messages
from cherki.server import origin as reach
from cherki.server.cluster import Elsewhere, LeaseLost, hopped
from cherki.server.connection import TOO_SLOW, Connection
from cherki.server.limits import Bucket
from cherki.server.messages import (
    PONG,
    Act,
    Again,
    Back,
    Emote,
    Hint,
    Incoming,
    Next,
    Ping,
    Say,
    encode,
    error,
)
from cherki.server.service import Server
from cherki.server.store import StoreUnavailable
from cherki.server.tables import Table
from cherki.server.words import refusal, said

router = APIRouter()


def _origin_ok(srv: Server, ws: WebSocket) -> bool:
    allowed = reach.connection_origins(srv.public, ws.scope.get("server"))
    return reach.origin_ok(ws.headers.get("origin"), allowed)


async def answer(srv: Server, conn: Connection, table: Table, text: str) -> None:
    """Answer one message of a connection (a bad one: an error, nothing changed)."""
    most = srv.limits.message_bytes
    if len(text) > most or len(text.encode("utf-8")) > most:
        conn.send(error(refusal("message too large", conn.lang)))
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
    await srv.current()  # a process woken from a stop looks at its leases first
    if table.gone:
        conn.drop(MOVING, reconnect=True)
        return
    if isinstance(msg, Say | Emote):
        await chat.say(table, conn, msg, srv.store, srv.limits)
        return
    seat = conn.seat
    if seat is None:
        conn.send(error(refusal("a spectator cannot play", conn.lang)))
        return
    try:
        if isinstance(msg, Hint):
            conn.send(encode(await table.hint(seat, conn.lang)))
        elif isinstance(msg, Back):
            await table.come_back(seat, srv.thinker)
        elif isinstance(msg, Next):
            await table.next_hand(seat, srv.thinker)
        elif isinstance(msg, Again):
            await table.another(seat, srv.thinker)
            srv.listing_changed()
        elif isinstance(msg, Act):
            await table.act(seat, msg.action, msg.version, srv.thinker)
    except CherkiError as err:
        conn.send(error(said(err, conn.lang, table.session.game)))


async def _refuse(ws: WebSocket, why: str, lang: str, *, again: bool) -> None:
    """Accept, say why in words, and close: "try again" (``again``) with 1013, a request
    that cannot be served as it is with 1008 (a foreign page is refused at the handshake,
    before this: HTTP 403)."""
    with suppress(Exception):
        await ws.accept()
        await ws.send_text(messages.closing(refusal(why, lang), reconnect=again))
        await ws.close(code=TOO_SLOW if again else 1008, reason=why[:120])


#: what a client of a table that is moving, or of a process that cannot reach the database,
#: is told (close 1013: its page connects again)
MOVING = "this table is moving between servers: try again in a few seconds"
AWAY = "the server cannot reach its database just now: try again in a few seconds"


async def serve(ws: WebSocket, table_id: str | None, token: str | None) -> None:
    """Accept a connection from this server's own pages to the table (and seat) it names
    and serve it; close any other (policy violation)."""
    srv: Server = ws.app.state.server
    raw = ws.query_params.get("since")
    heard_raw = ws.query_params.get("chat")
    # the page's language (``?lang=ms``): one cherki speaks, else English
    lang = normalise(ws.query_params.get("lang")) or DEFAULT_LANG
    if not _origin_ok(srv, ws):
        with suppress(Exception):
            await ws.close(code=1008)  # before accept: HTTP 403 at the handshake
        return
    since = None
    if raw is not None:
        if not raw.isdigit() or len(raw) > 9:
            await _refuse(ws, "since is a version number (digits)", lang, again=False)
            return
        since = int(raw)
    heard = None  # the last chat line the page holds (None: it does not show the chat)
    if heard_raw is not None:
        if not heard_raw.isdigit() or len(heard_raw) > 9:
            await _refuse(ws, "chat is a chat line's number (digits)", lang, again=False)
            return
        heard = int(heard_raw)
    try:
        seat = None
        if token is not None:
            table_id, seat = await asyncio.to_thread(srv.store.seat_of, token)
        assert table_id is not None
        table = await srv.find(table_id)
    except Elsewhere as away:  # another process owns the table: it serves this connection
        if srv.cluster is None or hopped(ws.scope):
            await _refuse(ws, MOVING, lang, again=True)  # it is moving: the page connects again
            return
        await srv.cluster.tunnel(ws, away, lang)
        return
    except (LeaseLost, StoreUnavailable):
        await _refuse(ws, AWAY, lang, again=True)
        return
    except CherkiError:
        with suppress(Exception):
            await ws.close(code=1008)  # no such seat or table: forbidden
        return
    address = ws.client.host if ws.client is not None else "unknown"
    try:
        await ws.accept()
    except Exception:  # gone before it was accepted
        return
    conn = Connection(ws, seat, address, srv.limits, lang)
    refused = srv.gate.admit(table, conn)
    if refused is not None:
        with suppress(Exception):
            await ws.send_text(messages.closing(refusal(refused, lang), reconnect=True))
            await ws.close(code=TOO_SLOW, reason=refused[:120])
        return
    conn.start(table.leave)
    conn.on_close(srv.gate.leave)
    bucket = Bucket(srv.limits.messages_per_second)
    try:
        await srv.current()
        if table.gone:  # let go meanwhile (another process took it): connect again
            conn.drop(MOVING, reconnect=True)
        else:
            await table.join(conn, since, srv.thinker)
            if heard is not None:
                await chat.join(table, conn, heard, srv.store, srv.limits)
        while not conn.closed:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            conn.heard = time.monotonic()
            text = message.get("text")
            if text is None:
                conn.send(error("binary frames are not accepted: send JSON text"))
                continue
            if not bucket.take():
                conn.send(error(refusal("too many messages: slow down", conn.lang)))
                continue
            await answer(srv, conn, table, text)
    except (LeaseLost, StoreUnavailable):
        conn.drop(AWAY, reconnect=True)
    except (WebSocketDisconnect, asyncio.CancelledError, RuntimeError, OSError):
        pass  # the client went away, or was dropped
    finally:
        table.leave(conn)
        srv.gate.leave(conn)
        await conn.stop()
        if table.over and not table.connections:
            srv.tables.forget(table.id)


@router.websocket("/ws/seat/{token}")
async def seat_socket(ws: WebSocket, token: str) -> None:
    await serve(ws, None, token)


@router.websocket("/ws/watch/{table_id}")
async def watch_socket(ws: WebSocket, table_id: str) -> None:
    await serve(ws, table_id, None)
