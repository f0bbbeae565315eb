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
:mod:`cherki.server.limits`. The routes are :mod:`cherki.server.api` (HTTP) and
:mod:`cherki.server.sockets` (WebSockets); what the process holds beside its tables is
:class:`cherki.server.service.Server`.

Our specifications
------------------
* **One owner per table**: the routes find the table (:class:`~cherki.server.registry.Tables`)
  and hand it what a client said; the :class:`~cherki.server.tables.Table` alone changes it.
* **Nothing waits on a client while holding a table**: each connection has its own bounded
  queue and writer (:mod:`cherki.server.connection`); one that falls behind is dropped and
  may come back with ``?since=``.
* Every change is written to the store before any seat is told of it.
* **Bots think off the event loop**: a bot that searches thinks in a separate process (a
  pool of :data:`cherki.server.service.THINKERS`), the others in a worker thread.
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

import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cherki.server import api, learn, pages, reach, review, rulebook, sockets, words
from cherki.server.api import games_json
from cherki.server.cluster import Elsewhere, LeaseLost, hopped
from cherki.server.limits import Limits
from cherki.server.service import TICK, Server
from cherki.server.store import Store

#: kept for callers of the first API
MAX_MESSAGE = Limits().message_bytes
RATE = Limits().messages_per_second

__all__ = ["MAX_MESSAGE", "RATE", "app_from_env", "create_app", "default_url", "games_json"]


# -- request bodies ------------------------------------------------------------------------------


class BodyLimit:
    """Refuse a request body over the limit (413) before it is read whole: by its declared
    length, or as it streams in (the body is gathered here, up to the limit, and handed to
    the app only when it is within it)."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
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

        async def replayed() -> Message:
            nonlocal done
            if not done:
                done = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replayed, send)


async def _plain(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 else f"{n // 1024} KB"


# -- the app --------------------------------------------------------------------------------------
def create_app(
    store: Store,
    *,
    public_url: str | None = None,
    limits: Limits | None = None,
    rate: float | None = None,
    tick: float = TICK,
    collect_every: float | None = None,
    listening: str | None = None,
    warm: bool = False,
) -> FastAPI:
    """The app on ``store``; ``public_url``: the address people open (``https://…``, in
    front of any proxy): the only origin whose pages may open its WebSockets, and the base
    of the absolute links it returns; ``limits``: every limit (:class:`Limits`); ``rate``:
    messages a second a connection may send (overrides the limits'); ``tick``: how often
    (seconds) the turn timers are checked; ``collect_every``: seconds between full garbage
    collections (for a process that leaves the oldest generation to the app: ``cherki
    serve``); ``listening``: the address it listens on (for where the links reach,
    :mod:`cherki.server.reach`); ``warm``: start the heavy requests' process with the app
    (``cherki serve``), so that the first replay does not wait for it."""
    limits = limits or Limits()
    if rate is not None:
        limits = Limits(**{**limits.__dict__, "messages_per_second": rate})
    server = Server(
        store, public_url=public_url, limits=limits, tick=tick, collect_every=collect_every
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await server.start_cluster(app)
        server.start()
        if warm:
            server.heavy.warm()
        try:
            yield
        finally:
            await server.stop()

    app = FastAPI(title="cherki", lifespan=lifespan)
    app.state.server = server
    app.state.tables = server.tables
    app.state.limits = limits
    app.state.listening = listening
    app.add_middleware(BodyLimit, limits=limits)
    app.add_exception_handler(Elsewhere, _forward)
    app.add_exception_handler(LeaseLost, _moved)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.include_router(api.router)
    app.include_router(sockets.router)
    app.include_router(words.router)
    app.include_router(review.router)
    app.include_router(rulebook.router)
    app.include_router(learn.router)  # issue 37: the courses (server/learn.py)
    app.include_router(reach.router)
    pages.mount(app)
    return app


async def _forward(request: Request, exc: Exception) -> Response:
    """A request about a table another process owns: that process answers it (once: a
    request forwarded here is not forwarded again)."""
    srv: Server = request.app.state.server
    assert isinstance(exc, Elsewhere)
    if srv.cluster is None or hopped(request.scope):
        return JSONResponse(
            {"detail": "this table is moving between servers: try again in a few seconds"},
            status_code=503,
        )
    return await srv.cluster.forward(request, exc)


async def _invalid(request: Request, exc: Exception) -> Response:
    """A request body that is not what the route takes: 422, each fault in words (where,
    and what is wrong), never the value sent back (a number JSON does not have, such as
    NaN or 1e400, cannot be written in the answer: FastAPI's own answer fails on it)."""
    assert isinstance(exc, RequestValidationError)
    faults = [
        {
            "loc": [str(p) for p in e.get("loc", ())],
            "msg": str(e.get("msg", "")),
            "type": str(e.get("type", "")),
        }
        for e in exc.errors()[:10]
    ]
    return JSONResponse({"detail": faults}, status_code=422)


async def _moved(request: Request, exc: Exception) -> Response:
    """A change refused because another process took the table over meanwhile: nothing was
    written; asked again, the request reaches the new owner."""
    return JSONResponse(
        {"detail": "this table moved to another server meanwhile: try again"}, status_code=503
    )


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
    return create_app(store, public_url=os.environ.get("CHERKI_PUBLIC_URL") or None, warm=True)
