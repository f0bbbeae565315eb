"""Durability: the server as a real process, part of a hand played over WebSockets, the
process killed with SIGKILL, started again, the hand finished; the stored record replays to
the stored result and holds every action played before the kill."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from serverutil import next_settled
from websockets.sync.client import connect

from cherki.play.records import replay_hand
from cherki.server.store import Store


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(url: str, port: int) -> subprocess.Popen[bytes]:
    """``cherki serve`` as a person starts it, on ``url``'s database."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cherki", "serve", "--port", str(port), "--database-url", url],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1).status_code == 200:
                assert proc.stdout is not None
                said = proc.stdout.readline().decode()
                assert f"http://localhost:{port}/" in said, said  # the address to open
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("the server did not start")


def _move(msg: dict[str, Any]) -> str:
    """A person's move: go out when possible, else draw rather than take, else the last
    legal action (a hand of takes never ends)."""
    legal = msg["observation"]["legal"]
    texts = {a["text"]: a["id"] for a in legal}
    action = texts.get("sampei", texts.get("draw", legal[-1]["id"]))
    time.sleep(0.11)  # at a person's pace: the server allows 10 messages a second
    return json.dumps({"type": "act", "version": msg["version"], "action": action})


def test_a_killed_server_goes_on_from_its_last_action(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'server.db'}"
    port = _port()
    server = _start(url, port)
    try:
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": "heuristic"}] * 3
        body = {"game": "balik-satu", "seats": seats, "hands": 5, "bot_pace": 0, "pause": False}
        made = httpx.post(f"http://127.0.0.1:{port}/api/tables", json=body, timeout=30).json()
        token = made["seats"]["0"]
        with connect(f"ws://127.0.0.1:{port}/ws/seat/{token}") as ws:
            msg = next_settled(lambda: json.loads(ws.recv(timeout=30)))
            for _ in range(
                8
            ):  # part of the match: a hand may end on the way (the deal is the OS's)
                ws.send(_move(msg))
                msg = next_settled(lambda: json.loads(ws.recv(timeout=30)))
                assert msg["type"] == "state", msg
        before = msg
        assert not before["over"]
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=30)
    stored = Store(url).record(made["table"])
    played = [a for h in stored.hands for a in h.actions]
    assert len(played) == before["version"]  # every action was written before it was told

    server = _start(url, port)
    try:
        with connect(f"ws://127.0.0.1:{port}/ws/seat/{token}") as ws:
            msg = next_settled(lambda: json.loads(ws.recv(timeout=30)))
            assert msg["version"] == before["version"]
            assert msg["observation"] == before["observation"]
            for _ in range(5000):
                if msg["over"]:
                    break
                ws.send(_move(msg))
                msg = next_settled(lambda: json.loads(ws.recv(timeout=30)))
                assert msg["type"] == "state", msg
            assert msg["over"]
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    record = Store(url).record(made["table"])
    assert [a for h in record.hands for a in h.actions][: len(played)] == played
    assert len(record.hands) >= 5  # five scored hands, and any dealt again (a yeo)
    for i, hand in enumerate(record.hands):
        assert hand.result is not None
        replayed = replay_hand(record, i)  # checks the stored result against the engine's
        assert list(replayed.result.payments) == hand.result["payments"]
