"""The server's limits, each refused in words, and clients that cannot stall it: a slow
reader is dropped (and may come back), binary frames and oversized bodies are refused,
floods of tables and connections are capped, heavy requests have a time limit, and a
client that goes away at any moment leaves no traceback in the log."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import random
import socket
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from typing import Any, TypeVar

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from serverutil import next_settled
from websockets.sync.client import connect

from cherki.server import connection
from cherki.server.app import create_app
from cherki.server.connection import Connection
from cherki.server.limits import Limits, Window
from cherki.server.store import Store

T = TypeVar("T")

BOTS3 = [{"kind": "bot", "level": "random"}] * 3


def _run(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own (the browser tests' Playwright keeps an event
    loop running in this one for the whole session)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result(timeout=120)


def _table(client: Any, **extra: Any) -> dict[str, Any]:
    body = {"game": "balik-satu", "seats": [{"kind": "human"}, *BOTS3], "bot_pace": 0,
            "pause": False, **extra}  # fmt: skip
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


# -- limits in words ------------------------------------------------------------------------------
def test_limits_are_named_and_changed_in_words() -> None:
    limits = Limits().with_text(["connections_per_table=3", "send_seconds=0.5"])
    assert limits.connections_per_table == 3 and limits.send_seconds == 0.5
    for bad, words in [
        (["nonsense=1"], "NAME=VALUE"),
        (["queue_messages"], "NAME=VALUE"),
        (["queue_messages=lots"], "takes a number"),
        (["queue_messages=0"], "more than 0"),
    ]:
        with pytest.raises(Exception, match=words):
            Limits().with_text(bad)


def test_a_window_counts_each_key_for_its_time() -> None:
    w = Window(2, 60.0)
    assert w.take("a", 0.0) and w.take("a", 1.0) and not w.take("a", 2.0)
    assert w.take("b", 2.0)
    assert w.take("a", 60.5)  # the first has left the window


def test_oversized_bodies_are_refused_before_they_are_read(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    seats = [{"kind": "human"}] * 1_000_000  # 20 MB of seats
    started = time.perf_counter()
    r = client.post("/api/tables", content=json.dumps({"game": "ceki", "seats": seats}),
                    headers={"content-type": "application/json"})  # fmt: skip
    assert r.status_code == 413 and "at most 64 KB" in r.json()["detail"]
    assert time.perf_counter() - started < 30  # refused, not parsed

    def chunks() -> Iterator[bytes]:  # no declared length: counted as it streams
        yield b'{"game": "ceki", "seats": ['
        for _ in range(10_000):
            yield b'{"kind": "human"},'
        yield b"]}"

    r = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and "at most 64 KB" in r.json()["detail"]
    r = client.post("/api/replay", content=b"x" * (1024 * 1024 + 1))
    assert r.status_code == 413 and "1 MB" in r.json()["detail"]


def test_numbers_of_the_rules_and_seats_are_bounded(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    body = {"game": "ceki", "seats": [{"kind": "human"}] * 2, "options": {"target_points": 10**12}}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400 and "1,000,000" in r.json()["detail"]
    r = client.post("/api/tables", json={"game": "balik-satu", "seats": [{"kind": "human"}] * 21})
    assert r.status_code == 422 and "20" in r.text
    # [000] "up to 20 people can play with a total of 1 200 cards"
    r = client.post("/api/tables", json={"game": "balik-satu", "seats": [{"kind": "human"}] * 20})
    assert r.status_code < 300, r.text
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 16
    r = client.post("/api/tables", json={"game": "balik-satu", "seats": seats})
    assert r.status_code == 400 and "half_packs" in r.json()["detail"]


def test_a_flood_of_new_tables_is_refused(store: Store, opened: Callable[..., TestClient]) -> None:
    client = opened(store, limits=Limits(tables_per_minute=3))
    for _ in range(3):
        _table(client)
    r = client.post("/api/tables", json={"game": "balik-satu", "seats": [{"kind": "human"}] * 2})
    assert r.status_code == 429 and "3 new tables a minute" in r.json()["detail"]


def test_tables_in_play_are_capped(store: Store, opened: Callable[..., TestClient]) -> None:
    client = opened(store, limits=Limits(live_tables=2))
    _table(client)
    _table(client)
    r = client.post("/api/tables", json={"game": "balik-satu", "seats": [{"kind": "human"}] * 2})
    assert r.status_code == 429 and "as many tables as it can" in r.json()["detail"]


def test_connections_are_capped_per_table_and_per_address(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store, limits=Limits(spectators_per_table=2, connections_per_address=3))
    one, two = _table(client), _table(client)
    with ExitStack() as stack:
        for _ in range(2):
            ws = stack.enter_context(client.websocket_connect(f"/ws/watch/{one['table']}"))
            assert ws.receive_json()["type"] == "state"
        with client.websocket_connect(f"/ws/watch/{one['table']}") as ws:
            refused = ws.receive_json()
        assert refused["type"] == "closing" and refused["reconnect"] is True
        assert "this table has 2 spectators already" in refused["message"]
        ws = stack.enter_context(client.websocket_connect(f"/ws/watch/{two['table']}"))
        assert ws.receive_json()["type"] == "state"
        with client.websocket_connect(f"/ws/watch/{two['table']}") as ws:
            refused = ws.receive_json()
        assert "3 connections from your address" in refused["message"]
    # every connection closed: room again
    with client.websocket_connect(f"/ws/watch/{one['table']}") as ws:
        assert ws.receive_json()["type"] == "state"


def test_binary_frames_and_oversized_messages_are_refused(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    data = _table(client)
    with client.websocket_connect(f"/ws/seat/{data['seats']['0']}") as ws:
        ws.receive_json()
        ws.send_bytes(b"\x00\x01binary")
        assert ws.receive_json() == {
            "type": "error",
            "message": "binary frames are not accepted: send JSON text",
        }
        ws.send_text("x" * 5000)
        assert ws.receive_json()["message"] == "message too large"
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_heavy_requests_have_a_time_limit(store: Store, opened: Callable[..., TestClient]) -> None:
    client = opened(store, limits=Limits(heavy_seconds=0.001))
    r = client.post("/api/replay", content=b'{"format": "cherki-record"}')
    assert r.status_code == 503 and "took longer than 0.001 seconds" in r.json()["detail"]
    client = opened(store, limits=Limits(heavy_jobs=1, heavy_seconds=60))
    r = client.post("/api/replay", content=b"not json")  # the process is fine after a kill
    assert r.status_code == 400


# -- a connection that falls behind ---------------------------------------------------------------
class _StuckSocket:
    """A WebSocket whose client never reads: every send waits for ever."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.application_state = None
        self.closed_with: int | None = None

    async def send_text(self, text: str) -> None:
        self.sent.append(text)
        if len(self.sent) > 1:
            await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed_with = code


def test_a_connection_that_cannot_take_a_message_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(connection, "CLOSE_SECONDS", 0.01)  # the closing handshake's wait

    async def scenario() -> tuple[Connection, list[Connection], _StuckSocket]:
        ws = _StuckSocket()
        gone: list[Connection] = []
        conn = Connection(ws, None, "10.0.0.1", Limits(send_seconds=0.05))  # type: ignore[arg-type]

        async def reader() -> None:  # the connection's reading task, cancelled on a drop
            conn.start(gone.append)
            await asyncio.Event().wait()

        reading = asyncio.create_task(reader())
        await asyncio.sleep(0)
        assert conn.send("one") and conn.send("two") and conn.send("three")
        for _ in range(300):
            await asyncio.sleep(0.01)
            if reading.done():
                break
        assert reading.cancelled()
        return conn, gone, ws

    conn, gone, _ = _run(scenario())
    assert conn.closed and gone == [conn]
    assert conn.reason == "a message took too long to reach you"
    assert not conn.send("four")  # nothing more is queued for it


def test_a_connection_too_far_behind_is_dropped_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connection, "CLOSE_SECONDS", 0.01)  # the closing handshake's wait

    async def scenario() -> Connection:
        ws = _StuckSocket()
        conn = Connection(ws, 0, "10.0.0.1", Limits(queue_messages=5))  # type: ignore[arg-type]
        reading = asyncio.create_task(asyncio.Event().wait())
        conn._reader = reading
        conn.start()
        conn._reader = reading
        results = [conn.send(f"m{i}") for i in range(10)]
        assert results[:5] == [True] * 5 and not any(results[6:])
        await asyncio.sleep(0.05)
        assert reading.cancelled()
        return conn

    conn = _run(scenario())
    assert conn.closed and "too far behind" in (conn.reason or "")


# -- a real server, real sockets ------------------------------------------------------------------
def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _serving(store: Store, limits: Limits) -> Iterator[tuple[str, Any]]:
    """The app served by uvicorn on a loopback port, in a thread of this process."""
    app = create_app(store, limits=limits)
    port = _port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="info"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:
        yield f"127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(30)


def _never_reading(host: str, path: str) -> socket.socket:
    """A WebSocket client that does the handshake and then never reads."""
    addr, port = host.split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((addr, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def _play(ws: Any, msg: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    legal = msg["observation"]["legal"]
    draws = [a["id"] for a in legal if a["text"] == "draw"]
    choice = draws[0] if draws else rng.choice(legal)["id"]
    ws.send(json.dumps({"type": "act", "action": choice, "version": msg["version"]}))
    out = next_settled(lambda: json.loads(ws.recv(timeout=30)))
    assert out["type"] == "state", out
    return out


def _servers(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """What the server logged. The test's own client (``websockets.client``) logs an error
    of its own, with its traceback, when the test drops its socket without a closing
    handshake while the client's thread reads it: not the server's."""
    return [r for r in caplog.records if not r.name.startswith("websockets.client")]


def _server_errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """Errors the server logged."""
    return [r for r in _servers(caplog) if r.levelno >= logging.ERROR]


def _server_tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The server's log records that hold a traceback, as logged."""
    formatter = logging.Formatter()
    texts = [formatter.format(r) for r in _servers(caplog)]
    return [t for t in texts if "Traceback" in t]


def test_a_spectator_who_never_reads_is_dropped_and_the_table_plays_on(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    limits = Limits(queue_messages=8, send_seconds=2.0, messages_per_second=1000)
    caplog.set_level(logging.INFO)
    with _serving(store, limits) as (host, app):
        made = httpx.post(f"http://{host}/api/tables", json={"game": "balik-satu", "hands": 20,
                          "bot_pace": 0, "pause": False,
                          "seats": [{"kind": "human"}, *BOTS3]}, timeout=30).json()  # fmt: skip
        table = app.state.tables.table(made["table"])
        stuck = _never_reading(host, f"/ws/watch/{made['table']}")
        rng = random.Random(1)
        with connect(f"ws://{host}/ws/seat/{made['seats']['0']}") as ws:
            msg = next_settled(lambda: json.loads(ws.recv(timeout=30)))
            assert msg["type"] == "state", msg
            moves = 0
            while not msg["over"] and moves < 200:
                msg = _play(ws, msg, rng)  # each move answered: the table is never held
                moves += 1
                if not any(c.seat is None for c in table.connections):
                    break
            assert not any(c.seat is None for c in table.connections), "still connected"
            if not msg["over"]:
                msg = _play(ws, msg, rng)  # and plays on after the drop
        stuck.close()
        # coming back with ?since= works as for anyone
        with connect(f"ws://{host}/ws/watch/{made['table']}?since=0") as watcher:
            again = json.loads(watcher.recv(timeout=30))
            assert again["type"] == "state" and again["missed"]
    assert "dropped a connection" in caplog.text
    assert not _server_errors(caplog), caplog.text


def test_clients_that_leave_at_any_moment_leave_no_traceback(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    rng = random.Random(7)
    with _serving(store, Limits(messages_per_second=1000)) as (host, _):
        made = httpx.post(f"http://{host}/api/tables", json={"game": "ceki", "hands": 50,
                          "bot_pace": 0, "pause": False,
                          "seats": [{"kind": "human"}, *BOTS3[:2]]}, timeout=30).json()  # fmt: skip
        token = made["seats"]["0"]
        for i in range(30):
            path = f"/ws/seat/{token}" if i % 2 else f"/ws/watch/{made['table']}"
            with connect(f"ws://{host}{path}") as ws:
                if rng.random() < 0.5:
                    msg = next_settled(lambda ws=ws: json.loads(ws.recv(timeout=30)))
                    if i % 2 and not msg["over"] and msg["observation"]["current"] == 0:
                        legal = msg["observation"]["legal"]
                        ws.send(json.dumps({"type": "act", "action": legal[0]["id"],
                                            "version": msg["version"]}))  # fmt: skip
                if rng.random() < 0.5:
                    ws.socket.close()  # gone without a closing handshake
        time.sleep(0.5)
    assert not _server_errors(caplog), caplog.text
    assert not _server_tracebacks(caplog), caplog.text


def test_a_table_nobody_is_at_is_let_go_and_comes_back(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    data = _table(client)
    tables = client.app.state.tables  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/seat/{data['seats']['0']}") as ws:
        before = next_settled(ws.receive_json)
        assert tables.sweep(time.monotonic() + 10_000, 600) == 0  # someone is there
    held = tables.table(data["table"])
    assert tables.sweep(time.monotonic(), 600) == 0  # not idle long enough
    assert tables.sweep(time.monotonic() + 10_000, 600) == 1
    assert data["table"] not in tables.live
    with client.websocket_connect(f"/ws/seat/{data['seats']['0']}") as ws:
        again = next_settled(ws.receive_json)
    assert tables.table(data["table"]) is not held  # loaded from the store again
    assert again["version"] == before["version"] and again["observation"] == before["observation"]


def test_a_burst_of_connections_cannot_pass_the_cap_together(store: Store) -> None:
    """Twenty spectators opened at once on a table that takes three: three are let in."""
    from websockets.asyncio.client import connect as connect_async

    with _serving(store, Limits(spectators_per_table=3)) as (host, _):
        made = httpx.post(f"http://{host}/api/tables", json={"game": "ceki",
                          "seats": [{"kind": "human"}, *BOTS3[:2]]}, timeout=30).json()  # fmt: skip

        async def one() -> str:
            async with connect_async(f"ws://{host}/ws/watch/{made['table']}") as ws:
                first = json.loads(await ws.recv())
                await asyncio.sleep(1.0)  # everyone is connected at once
                return str(first["type"])

        async def burst() -> list[str]:
            return list(await asyncio.gather(*(one() for _ in range(20))))

        kinds = _run(burst())
    assert kinds.count("state") == 3 and kinds.count("closing") == 17


def test_a_helper_process_that_dies_is_replaced(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    server = client.app.state.server  # type: ignore[attr-defined]
    r = client.post("/api/replay", content=b"not json")  # the heavy requests' process starts
    assert r.status_code == 400
    pool = server.heavy.pool
    for proc in list(pool._processes.values()):  # it dies, as a process may
        proc.kill()
        proc.join()
    answers = [client.post("/api/replay", content=b"not json") for _ in range(2)]
    assert [a.status_code for a in answers] in ([503, 400], [400, 400])
    if answers[0].status_code == 503:
        assert "helper process stopped" in answers[0].json()["detail"]
