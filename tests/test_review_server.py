"""The review in the server (:mod:`cherki.server.review`): a seated person reviews a hand
once it is over (never during it), anyone reviews a seat of a finished match's public
replay, and the limits refuse in words."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from serverutil import next_settled

from cherki.server.limits import Limits
from cherki.server.store import Store

#: a loaded test machine starts the low-priority heavy process slowly: room for it
LIMITS = Limits(messages_per_second=1000, review_budget=2, heavy_seconds=120)


def _table(client: TestClient, players: int = 4) -> dict[str, Any]:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "heuristic"}] * (players - 1)
    body = {"game": "balik-satu", "seats": seats, "bot_pace": 0, "pause": False, "hands": 1}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _poll(client: TestClient, key: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while True:
        data: dict[str, Any] = client.get(f"/api/reviews/{key}").json()
        if data["state"] in ("done", "cut", "refused"):
            return data
        assert time.monotonic() < deadline, data
        time.sleep(0.2)


def play_hand(client: TestClient, token: str, seed: int) -> None:
    """The seat's hand played to its end, a random legal action at each of its turns."""
    rng = random.Random(seed)
    with client.websocket_connect(f"/ws/seat/{token}") as ws:
        msg = next_settled(ws.receive_json)
        while not msg["over"]:
            legal = [a["id"] for a in msg["observation"]["legal"]]
            ws.send_json({"type": "act", "action": rng.choice(legal), "version": msg["version"]})
            msg = next_settled(ws.receive_json)


def test_a_seat_reviews_its_hand_after_it_ends_and_never_during_it(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store, limits=LIMITS)
    data = _table(client)
    table, token = data["table"], data["seats"]["0"]
    rng = random.Random(0)
    with client.websocket_connect(f"/ws/seat/{token}") as ws:
        msg = next_settled(ws.receive_json)
        # during the hand: refused, in words, before any rollout
        r = client.post(f"/api/tables/{table}/review", params={"token": token})
        assert r.status_code == 403 and "still being played" in r.json()["detail"]
        spectator = client.post(f"/api/tables/{table}/review", params={"seat": 1, "lang": "ms"})
        assert spectator.status_code == 403 and "masih dimainkan" in spectator.json()["detail"]
        while not msg["over"]:
            legal = [a["id"] for a in msg["observation"]["legal"]]
            ws.send_json({"type": "act", "action": rng.choice(legal), "version": msg["version"]})
            msg = next_settled(ws.receive_json)
    r = client.post(f"/api/tables/{table}/review", params={"token": token, "hand": 1})
    assert r.status_code == 200, r.text
    # one review a table at a time, refused in words
    again = client.post(f"/api/tables/{table}/review", params={"token": token})
    assert again.status_code == 429 and "already running" in again.json()["detail"]
    done = _poll(client, r.json()["id"])
    assert done["state"] == "done", done
    assert done["seat"] == 0 and done["evaluator"] == "search" and done["budget"] == 2
    assert done["done"] == done["total"] == len(done["decisions"]) > 0
    for d in done["decisions"]:
        assert d["choices"] > 1 and d["taken"]["action"] and d["best"]["action"]
        assert d["loss"]["mean"] >= 0 and d["cards"]
    # the match is over: its replay is public, and a spectator may review any seat
    r = client.post(f"/api/tables/{table}/review", params={"seat": 2})
    assert r.status_code == 200, r.text
    other = _poll(client, r.json()["id"])
    assert other["state"] == "done" and other["seat"] == 2
    bad = client.post(f"/api/tables/{table}/review", params={"seat": 7})
    assert bad.status_code == 200
    assert "seat 7 did not play" in _poll(client, bad.json()["id"])["why"]
    assert client.get("/api/reviews/nothing").status_code == 404


def test_a_review_past_its_time_is_cut_short_in_words(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    limits = Limits(
        messages_per_second=1000, review_budget=2, heavy_seconds=120, review_seconds=0.01
    )
    client = opened(store, limits=limits)
    data = _table(client)
    table, token = data["table"], data["seats"]["0"]
    play_hand(client, token, 1)
    r = client.post(f"/api/tables/{table}/review", params={"token": token, "lang": "id"})
    cut = _poll(client, r.json()["id"])
    assert cut["state"] == "cut" and "0.01 detik" in cut["why"]
    assert cut["done"] < cut["total"]


def test_at_a_table_of_two_the_learned_bots_rollouts_judge(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    """Balik Satu's table of two, where the learned bot is measured at least as strong as
    the search: its rollouts judge the review, which says so."""
    client = opened(store, limits=LIMITS)
    data = _table(client, players=2)
    table, token = data["table"], data["seats"]["0"]
    play_hand(client, token, 2)
    r = client.post(f"/api/tables/{table}/review", params={"token": token})
    assert r.status_code == 200, r.text
    done = _poll(client, r.json()["id"])
    assert done["state"] == "done", done
    assert done["evaluator"] == "learned" and done["decisions"]
