"""Liveness, the server's side: ``cherki serve`` pings every WebSocket every half of
``liveness_seconds`` and closes one whose answer does not come (a client whose machine
stopped, a pulled cable), so that nothing is held for it; a client that answers stays. The
page's side (``static/table.js``: a ping every 2 s, a new connection after 5 s without a
word) is described in docs/server.md and tried in tests/test_web_liveness.py."""

from __future__ import annotations

import base64
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from cluster import free_port, wait_serving
from websockets.sync.client import connect


def test_a_socket_that_stops_answering_is_closed(tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cherki", "serve", "--port", str(port), "--database-url",
         f"sqlite:///{tmp_path / 'live.db'}", "--limit", "liveness_seconds=2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        wait_serving(base, proc)
        body = {"game": "balik-satu", "seats": [{"kind": "human"}] * 2, "pause": False}
        made = httpx.post(base + "/api/tables", json=body, timeout=30).json()
        # a client that answers the pings (the websockets library does) stays open
        with connect(f"ws://127.0.0.1:{port}/ws/seat/{made['seats']['0']}") as alive:
            alive.recv(timeout=30)
            # a raw client that does the handshake and then never answers anything
            sock = socket.create_connection(("127.0.0.1", port), timeout=30)
            key = base64.b64encode(os.urandom(16)).decode()
            sock.sendall(
                (
                    f"GET /ws/watch/{made['table']} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                    f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                ).encode()
            )
            began = time.monotonic()
            seen = b""
            while chunk := sock.recv(65536):  # pings and states, never answered
                seen += chunk
                assert time.monotonic() - began < 15, "the silent socket was not closed in time"
            took = time.monotonic() - began
            sock.close()
            assert b"101 Switching Protocols" in seen
            time.sleep(0.5)
            alive.send('{"type": "ping"}')
            assert '"pong"' in str(alive.recv(timeout=30))
        assert took < 15  # liveness_seconds=2 (uvicorn alone: 40 s)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
