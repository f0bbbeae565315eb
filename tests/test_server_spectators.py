"""Seats before spectators: a flood of anonymous spectators' sockets (the watch link needs
no token) fills what spectators may hold, and the people seated at the table still get in,
every time, however full it is; the spectator silent longest gives way when the address or
the server is full; spectators who never say anything are let go."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from fastapi.testclient import TestClient

from cherki.server.limits import Limits
from cherki.server.store import Store

BOTS2 = [{"kind": "bot", "level": "random"}] * 2


def _table(client: TestClient) -> dict[str, Any]:
    body = {"game": "balik-satu", "seats": [{"kind": "human"}] * 2 + BOTS2, "bot_pace": 0,
            "pause": False}  # fmt: skip
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _first(ws: Any) -> dict[str, Any]:
    msg: dict[str, Any] = ws.receive_json()
    return msg


def test_a_spectator_flood_never_keeps_the_seated_people_out(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    limits = Limits(spectators_per_table=6, spectators_per_address=8, connections_per_address=8)
    client = opened(store, limits=limits)
    made = _table(client)
    watch = f"/ws/watch/{made['table']}"
    with ExitStack() as stack:
        flood = []
        for _ in range(6):
            ws = stack.enter_context(client.websocket_connect(watch))
            assert _first(ws)["type"] == "state"
            flood.append(ws)
        with client.websocket_connect(watch) as ws:  # the seventh spectator: refused
            refused = _first(ws)
        assert refused["type"] == "closing" and "6 spectators already" in refused["message"]
        # the seated people come in past the flood, each seat, reconnecting too
        for _ in range(2):
            for seat in ("0", "1"):
                with client.websocket_connect(f"/ws/seat/{made['seats'][seat]}") as ws:
                    msg = _first(ws)
                    assert msg["type"] == "state" and msg["seat"] == int(seat)
        # the address full (8 connections: 6 spectators and 2 seats held open): one more
        # seat's connection makes the spectator silent longest give way
        seats = [
            stack.enter_context(client.websocket_connect(f"/ws/seat/{made['seats'][s]}"))
            for s in ("0", "1")
        ]
        for ws in seats:
            assert _first(ws)["type"] == "state"
        flood[0].send_json({"type": "ping"})  # the first spectator speaks: not the oldest
        assert _first(flood[0]) == {"type": "pong"}
        with client.websocket_connect(f"/ws/seat/{made['seats']['0']}") as ws:
            assert _first(ws)["type"] == "state"
        told = _first(flood[1])  # the one silent longest was let go, told why
        while told["type"] != "closing":
            told = _first(flood[1])
        assert told["reconnect"] is False and "seated person" in told["message"]


def test_silent_spectators_are_let_go(store: Store, opened: Callable[..., TestClient]) -> None:
    client = opened(store, limits=Limits(spectator_silent_seconds=0.5))
    made = _table(client)
    with client.websocket_connect(f"/ws/watch/{made['table']}") as ws:
        assert _first(ws)["type"] == "state"
        time.sleep(1.0)
        msg = _first(ws)
        while msg["type"] != "closing":
            msg = _first(ws)
        assert "silent" in msg["message"] and msg["reconnect"] is False
