"""Helpers of the tests of several ``cherki serve`` processes on one PostgreSQL: start
them as a person does (``python -m cherki serve --database-url …``), each on a port of its
own on 127.0.0.1, and stop every one of them afterwards."""

from __future__ import annotations

import json
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
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, "cherki serve stopped at its start"
            try:
                if httpx.get(self.http + "/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise AssertionError("cherki serve did not start")

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
def serving(url: str, count: int) -> Iterator[list[Serving]]:
    """``count`` processes on the database at ``url``, stopped afterwards."""
    procs = [Serving(url, free_port()) for _ in range(count)]
    try:
        for p in procs:
            p.start()
        yield procs
    finally:
        for p in procs:
            p.stop()


def owner_of(url: str, table_id: str) -> tuple[str, int] | None:
    """The lease of a table: (owner, epoch), or None."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            row = conn.execute(
                text("SELECT owner, epoch FROM leases WHERE table_id = :t AND expires > now()"),
                {"t": table_id},
            ).first()
    finally:
        engine.dispose()
    return None if row is None else (str(row[0]), int(row[1]))


def table_body(people: int = 1, **more: Any) -> dict[str, Any]:
    seats = [{"kind": "human"}] * people + [{"kind": "bot", "level": "heuristic"}] * (4 - people)
    return {"game": "balik-satu", "seats": seats, "hands": 20, "bot_pace": 0, "pause": False,
            **more}  # fmt: skip


def loads(text: str | bytes) -> dict[str, Any]:
    out = json.loads(text)
    assert isinstance(out, dict)
    return out
