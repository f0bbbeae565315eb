"""Helpers of the tests of several ``cherki serve`` processes on one PostgreSQL: start
them as a person does (``python -m cherki serve --database-url …``), each on a port of its
own on 127.0.0.1, and stop every one of them afterwards."""

from __future__ import annotations

import json
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_serving(base: str, proc: subprocess.Popen[bytes], seconds: float = 60) -> None:
    """Until ``cherki serve`` (``proc``) answers at ``base``; an AssertionError if it stops
    or does not answer within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert proc.poll() is None, "cherki serve stopped at its start"
        try:
            if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise AssertionError("cherki serve did not start")


def workers(url: str, port: int, n: int = 2, **popen: Any) -> subprocess.Popen[bytes]:
    """``cherki serve --workers n`` on the database at ``url``, serving at ``port``."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cherki", "serve", "--port", str(port), "--database-url", url,
         "--workers", str(n)], **popen,
    )  # fmt: skip
    wait_serving(f"http://127.0.0.1:{port}", proc)
    return proc


@dataclass
class Serving:
    """One ``cherki serve`` process."""

    url: str
    port: int
    proc: subprocess.Popen[bytes] | None = None
    extra: list[str] = field(default_factory=list)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cherki", "serve", "--port", str(self.port),
             "--database-url", self.url, *self.extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_serving(self.http, self.proc)

    def kill(self) -> None:
        """``kill -9``."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)


@contextmanager
def serving(url: str, count: int, *extra: str) -> Iterator[list[Serving]]:
    """``count`` processes on the database at ``url`` (``extra``: more options of ``cherki
    serve``), stopped afterwards."""
    procs = [Serving(url, free_port(), extra=list(extra)) for _ in range(count)]
    try:
        for p in procs:
            p.start()
        yield procs
    finally:
        for p in procs:
            p.stop()


def _row(url: str, sql: str, table_id: str) -> tuple[Any, ...] | None:
    """The first row ``sql`` finds for the table (``:t``), read on a connection of its own."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            row = conn.execute(text(sql), {"t": table_id}).first()
    finally:
        engine.dispose()
    return None if row is None else tuple(row)


def owner_of(url: str, table_id: str) -> tuple[str, int] | None:
    """The lease of a table: (owner, epoch), or None."""
    row = _row(
        url, "SELECT owner, epoch FROM leases WHERE table_id = :t AND expires > now()", table_id
    )
    return None if row is None else (str(row[0]), int(row[1]))


def table_body(people: int = 1, **more: Any) -> dict[str, Any]:
    seats = [{"kind": "human"}] * people + [{"kind": "bot", "level": "heuristic"}] * (4 - people)
    return {"game": "balik-satu", "seats": seats, "hands": 20, "bot_pace": 0, "pause": False,
            **more}  # fmt: skip


def loads(text: str | bytes) -> dict[str, Any]:
    out = json.loads(text)
    assert isinstance(out, dict)
    return out


def pid_of(owner: str) -> int:
    """The process id in a cluster member's name (``p<pid>x<random>``)."""
    return int(owner[1:].split("x", 1)[0])


def status_of(url: str, table_id: str) -> str:
    """A table's status in the store (``playing``, ``finished``…)."""
    row = _row(url, "SELECT status FROM tables WHERE id = :t", table_id)
    return str(row[0] if row else None)


def store_version(url: str, table_id: str) -> int:
    """The actions committed at a table (its version in the store)."""
    row = _row(url, "SELECT version FROM tables WHERE id = :t", table_id)
    return int(row[0] or 0) if row else 0


class Person:
    """A person at a seat, through ``base`` (``ws://…``): plays when it is their turn,
    connects again with ``?since=`` whenever the connection ends, and checks that no state
    it is sent is older than one it was sent before (nothing told is lost)."""

    def __init__(self, base: str, token: str, deadline: float) -> None:
        self.base = base
        self.token = token
        self.deadline = deadline
        self.seen = -1
        self.connects = 0
        self.acted = 0
        self.over = False
        self.going_back: list[tuple[int, int]] = []
        self.stop = False

    def take(self, ws: Any, msg: dict[str, Any], rng: random.Random) -> bool:
        """Take in a state message: check it is not older than one sent before, and act when
        it is this person's turn (sampei if they may, else draw, else any legal action).
        False: the match is over."""
        if msg["version"] < self.seen:
            self.going_back.append((self.seen, msg["version"]))
        self.seen = max(self.seen, msg["version"])
        if msg["over"]:
            self.over = True
            return False
        obs = msg["observation"]
        if obs is None or obs["current"] != msg["seat"] or not obs["legal"]:
            return True
        legal = obs["legal"]
        texts = {a["text"]: a["id"] for a in legal}
        action = texts.get("sampei", texts.get("draw", rng.choice(legal)["id"]))
        time.sleep(0.12)  # a person's pace (10 messages a second at most)
        ws.send(json.dumps({"type": "act", "version": msg["version"], "action": action}))
        self.acted += 1
        return True

    def run(self) -> None:
        from websockets.exceptions import WebSocketException
        from websockets.sync.client import connect

        rng = random.Random()
        while not self.stop and not self.over and time.monotonic() < self.deadline:
            since = f"?since={self.seen}" if self.seen >= 0 else ""
            try:
                with connect(f"{self.base}/ws/seat/{self.token}{since}", open_timeout=5) as ws:
                    self.connects += 1
                    while not self.stop and time.monotonic() < self.deadline:
                        msg = loads(ws.recv(timeout=15))
                        if msg["type"] == "closing":
                            break
                        if msg["type"] != "state":
                            continue
                        if not self.take(ws, msg, rng):
                            break
            except (OSError, TimeoutError, WebSocketException):
                pass
            time.sleep(0.2)


#: a page's liveness (server/static/table.js): a ping every PING s while the socket is
#: quiet (and every KEEP s at least), a new connection after SILENT s without a word from
#: the server (looked at every LOOK s), and a handshake given up after HANDSHAKE s times the
#: tries in a row so far less one (1 to 4)
PING = 2.0
KEEP = 20.0
SILENT = 5.0
LOOK = 0.5
HANDSHAKE = 2.5


class Page(Person):
    """A person whose connection behaves as the table's page: pings after :data:`PING`
    seconds of quiet and connects again after :data:`SILENT` seconds without a word, as well as
    whenever the connection ends or its handshake hangs. Every state of every connection is
    checked against the newest it was sent before, and kept with when it came
    (:attr:`states`)."""

    def __init__(self, base: str, token: str, deadline: float) -> None:
        super().__init__(base, token, deadline)
        #: (monotonic time, version) of every state received, in order
        self.states: list[tuple[float, int]] = []

    def run(self) -> None:
        from websockets.exceptions import WebSocketException
        from websockets.sync.client import connect

        rng = random.Random()
        retry = 0  # tries in a row without a handshake done, as the page counts them
        while not self.stop and not self.over and time.monotonic() < self.deadline:
            since = f"?since={self.seen}" if self.seen >= 0 else ""
            gave_up = False
            try:
                with connect(
                    f"{self.base}/ws/seat/{self.token}{since}",
                    open_timeout=HANDSHAKE * min(max(retry - 1, 1), 4),
                ) as ws:
                    self.connects += 1
                    retry = 0
                    heard = time.monotonic()
                    pinged = 0.0
                    while not self.stop and time.monotonic() < self.deadline:
                        now = time.monotonic()
                        if now - heard > SILENT:
                            # silent too long: a new one at once, as the page makes, without
                            # waiting for this one's closing handshake (the process that
                            # stalled would answer it only when it wakes)
                            gave_up = True
                            ws.close_timeout = 0
                            break
                        if now - pinged >= (PING if now - heard >= PING else KEEP):
                            ws.send('{"type": "ping"}')
                            pinged = now
                        try:
                            msg = loads(ws.recv(timeout=LOOK))
                        except TimeoutError:
                            continue
                        heard = time.monotonic()
                        if msg["type"] == "closing":
                            break
                        if msg["type"] != "state":
                            continue
                        self.states.append((heard, msg["version"]))
                        if not self.take(ws, msg, rng):
                            break
            except TimeoutError:
                gave_up = True  # the handshake hung: a new one at once
            except (OSError, WebSocketException):
                pass
            retry += 1
            if not gave_up:  # the connection ended: the page waits longer after each try
                time.sleep(min(10.0, 0.5 * 2 ** min(retry - 1, 5)))


def cluster_state(url: str) -> str:
    """The leases, the processes and the database's sessions, for a failure's message."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            lines = [
                str(conn.execute(text(q)).all())
                for q in (
                    "SELECT table_id, owner, epoch, expires, now() FROM leases",
                    "SELECT id, seen, now() FROM cluster_processes",
                    "SELECT pid, state, wait_event_type, left(query, 60), xact_start "
                    "FROM pg_stat_activity WHERE datname = 'cherki'",
                    "SELECT id, status, version FROM tables",
                )
            ]
    finally:
        engine.dispose()
    return "\n".join(lines)
