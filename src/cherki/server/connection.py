"""One WebSocket connection: a bounded queue of messages to send and a writer task of its
own, so that nothing that holds a table ever waits on a client.

A table hands each connection the text to send with :meth:`Connection.send`, which never
blocks: the message waits in the connection's queue and its writer sends it. A client that
falls behind — more than ``queue_messages`` messages or ``queue_bytes`` bytes waiting, or
one message not taken within ``send_seconds`` — is dropped: it is told why (when it can
still be told), the socket is closed, and the client may connect again with ``?since=`` to
be told what it missed. A connection's end, however it comes, is never an error in the
server's log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Protocol

from starlette.websockets import WebSocket, WebSocketState

from cherki.server.limits import Limits
from cherki.server.messages import closing
from cherki.server.words import refusal


class Counted(Protocol):
    """What the gate counts on a table for a connection it let in (a live ``Table``)."""

    held: int
    watchers: int


log = logging.getLogger("cherki.server")

#: the close code of a connection dropped for being too slow (try again later)
TOO_SLOW = 1013
#: seconds the closing handshake may take before the socket is abandoned
CLOSE_SECONDS = 2.0


class Connection:
    """A seat's (``seat``) or a spectator's (``seat`` None) socket from ``address``."""

    def __init__(
        self,
        ws: WebSocket,
        seat: int | None,
        address: str,
        limits: Limits,
        lang: str = "en",
    ) -> None:
        self.ws = ws
        self.seat = seat
        #: the language its page reads (:mod:`cherki.i18n`)
        self.lang = lang
        self.address = address
        self.limits = limits
        self.closed = False
        self.reason: str | None = None
        self._queue: deque[str] = deque()
        self._bytes = 0
        self._ready = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self._reader: asyncio.Task[object] | None = None
        self._on_close: list[Callable[[Connection], None]] = []
        #: when (monotonic) the client last said anything (a spectator silent too long is
        #: let go; the one silent longest gives way to a seated person)
        self.heard = time.monotonic()
        #: the table whose gate counted it in (cherki.server.service.Gate), until let out
        self.counted: Counted | None = None

    # -- sending ------------------------------------------------------------------------------
    def start(self, on_close: Callable[[Connection], None] | None = None) -> None:
        """Start the writer; the calling task is the reader, cancelled on a drop."""
        self._reader = asyncio.current_task()
        if on_close is not None:
            self._on_close.append(on_close)
        self._writer = asyncio.create_task(self._write())

    def send(self, text: str) -> bool:
        """Queue ``text`` for the client (never waits). False when the connection is gone
        or has just been dropped for falling behind."""
        if self.closed:
            return False
        size = len(text)
        if (
            len(self._queue) >= self.limits.queue_messages
            or self._bytes + size > self.limits.queue_bytes
        ):
            self.drop("you fell too far behind the table: connect again", reconnect=True)
            return False
        self._queue.append(text)
        self._bytes += size
        self._ready.set()
        return True

    def on_close(self, hook: Callable[[Connection], None]) -> None:
        """Call ``hook`` once when the connection ends (at once if it has)."""
        if self.closed:
            hook(self)
        else:
            self._on_close.append(hook)

    @property
    def waiting(self) -> int:
        """Messages queued and not yet sent."""
        return len(self._queue)

    async def _write(self) -> None:
        try:
            while True:
                await self._ready.wait()
                while self._queue:
                    text = self._queue[0]
                    try:
                        async with asyncio.timeout(self.limits.send_seconds):
                            await self.ws.send_text(text)
                    except TimeoutError:
                        self.drop("a message took too long to reach you", reconnect=True)
                        return
                    self._queue.popleft()
                    self._bytes -= len(text)
                self._ready.clear()
        except asyncio.CancelledError:
            raise
        except Exception:  # the client went away while being written to
            self._finish(None)

    # -- ending ---------------------------------------------------------------------------------
    def drop(self, reason: str, *, reconnect: bool) -> None:
        """Close the connection from the server's side, telling the client why when the
        socket can still take it; never waits."""
        if self.closed:
            return
        self._finish(reason)
        log.info("dropped a connection from %s: %s", self.address, reason)
        asyncio.get_running_loop().create_task(self._close(reason, reconnect))

    async def _close(self, reason: str, reconnect: bool) -> None:
        if self._writer is not None:
            self._writer.cancel()
        with contextlib.suppress(Exception):
            async with asyncio.timeout(CLOSE_SECONDS):
                if self.ws.application_state == WebSocketState.CONNECTED:
                    told = refusal(reason, self.lang)  # in the reader's language
                    await self.ws.send_text(closing(told, reconnect=reconnect))
                    await self.ws.close(code=TOO_SLOW if reconnect else 1008, reason=reason[:120])
        # the reader ends when the client's side of the close arrives; one that cannot be
        # reached is not waited for any longer
        reader = self._reader
        if reader is not None and not reader.done() and reader is not asyncio.current_task():
            await asyncio.wait({reader}, timeout=CLOSE_SECONDS)
            if not reader.done():
                reader.cancel()

    def _finish(self, reason: str | None) -> None:
        """Mark the connection gone (once) and let its table forget it."""
        if self.closed:
            return
        self.closed = True
        self.reason = reason
        self._queue.clear()
        self._bytes = 0
        for hook in self._on_close:
            hook(self)

    async def stop(self) -> None:
        """The reader has ended (the client left, or was dropped): stop writing."""
        self._finish(self.reason)
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(BaseException):
                await self._writer
