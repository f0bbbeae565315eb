"""The server's HTTP and WebSocket API (cherki.server.app) through FastAPI's test client:
tables, seats, play over a WebSocket, every kind of bad message, spectators, a restart,
and hidden cards kept hidden over many random games."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from serverutil import Follow, next_settled
from starlette.websockets import WebSocketDisconnect

from cherki.server.app import MAX_MESSAGE
from cherki.server.store import Store


def _table(client: TestClient, game: str = "balik-satu", seats: list[dict[str, Any]] | None = None,
           **extra: Any) -> dict[str, Any]:  # fmt: skip
    seats = seats or [{"kind": "human"}] + [{"kind": "bot", "level": "heuristic"}] * 3
    extra = {"bot_pace": 0, "pause": False, **extra}  # bots at once, hands one after another
    r = client.post("/api/tables", json={"game": game, "seats": seats, **extra})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _keys(data: Any) -> set[str]:
    """Every key anywhere in a message."""
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in _keys(v)}
    if isinstance(data, list):
        return {k for v in data for k in _keys(v)}
    return set()


def _settled(ws: Any) -> dict[str, Any]:
    return next_settled(ws.receive_json)


def _engine_view(client: TestClient, table: str, seat: int) -> dict[str, Any]:
    session = client.app.state.tables.session(table)  # type: ignore[attr-defined]
    view: dict[str, Any] = session.state.observation(seat).to_json()
    return view


def test_create_list_and_take_seats(store: Store, opened: Callable[..., TestClient]) -> None:
    client = opened(store, rate=1000)
    _table(client)  # not listed: only its links reach it
    data = _table(client, listed=True)
    assert list(data["seats"]) == ["0"] and data["watch"] == f"/ws/watch/{data['table']}"
    listing = client.get("/api/tables").json()
    assert [t["table"] for t in listing] == [data["table"]]
    assert [s["kind"] for s in listing[0]["seats"]] == ["human", "bot", "bot", "bot"]
    r = client.post("/api/seats", json={"token": data["seats"]["0"], "name": "Siti"})
    assert r.json() == {"table": data["table"], "seat": 0}
    assert client.post("/api/seats", json={"token": "x" * 30, "name": "Siti"}).status_code == 400
    for bad, message in [
        ({"game": "mahjong", "seats": [{"kind": "human"}] * 4}, "no game"),
        ({"game": "chot", "seats": [{"kind": "human"}] * 3}, "exactly 4"),
        (
            {"game": "ceki", "seats": [{"kind": "bot", "level": "random"}] * 4},
            "at least one person",
        ),
        (
            {"game": "ceki", "seats": [{"kind": "human"}, {"kind": "bot", "level": "wizard"}]},
            "wizard",
        ),
        (
            {"game": "ceki", "seats": [{"kind": "human"}] * 2, "options": {"nonsense": 1}},
            "nonsense",
        ),
    ]:
        r = client.post("/api/tables", json=bad)
        assert r.status_code == 400 and message in r.json()["detail"], (bad, r.text)
    assert client.post("/api/tables", json={"game": "ceki"}).status_code == 422


def test_a_whole_hand_over_a_websocket_shows_only_the_seats_own_view(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store, rate=1000)
    data = _table(client, hands=1)
    table, token = data["table"], data["seats"]["0"]
    rng = random.Random(0)
    with client.websocket_connect(f"/ws/seat/{token}") as ws:
        msg = _settled(ws)
        while not msg["over"]:
            assert msg["type"] == "state" and msg["seat"] == 0
            assert msg["observation"] == _engine_view(client, table, 0)
            assert not _keys(msg) & {"seed", "shoe", "stock", "hands", "token"}
            legal = [a["id"] for a in msg["observation"]["legal"]]
            assert legal, "a person's turn comes with legal actions"
            ws.send_json({"type": "act", "action": rng.choice(legal), "version": msg["version"]})
            msg = _settled(ws)
        assert msg["last_result"] is not None and msg["match"]["over"]
    assert store.table(table).status == "finished"
    record = store.record(table)
    assert record.hands[0].result is not None


def test_bad_messages_are_answered_and_change_nothing(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    data = _table(client)
    table, token = data["table"], data["seats"]["0"]
    with client.websocket_connect(f"/ws/seat/{token}") as ws:
        first = _settled(ws)
        version = first["version"]
        illegal = next(
            a for a in range(94) if a not in {x["id"] for x in first["observation"]["legal"]}
        )
        for payload, message in [
            ("not json", "bad message"),
            (json.dumps({"type": "shout"}), "bad message"),
            (json.dumps({"type": "act", "action": [1], "version": version}), "bad message"),
            (json.dumps({"type": "act", "action": 4}), "version"),
            ("x" * (MAX_MESSAGE + 1), "too large"),
            (json.dumps({"type": "act", "action": illegal, "version": version}), "you"),
            (json.dumps({"type": "act", "action": "fly away", "version": version}), "not a"),
            (
                json.dumps(
                    {
                        "type": "act",
                        "action": first["observation"]["legal"][0]["id"],
                        "version": version - 1,
                    }
                ),
                "moved on",
            ),
        ]:
            ws.send_text(payload)
            reply = ws.receive_json()
            assert reply["type"] == "error" and message in reply["message"], (payload, reply)
        assert store.table(table).version == version
        # too fast: a burst past the rate limit is refused
        for _ in range(25):
            ws.send_text(json.dumps({"type": "ping"}))
        replies = [ws.receive_json() for _ in range(25)]
        assert any(r["type"] == "error" and "slow down" in r["message"] for r in replies)
    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws/seat/" + "x" * 22) as ws:
        ws.receive_json()
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(
            f"/ws/seat/{token}", headers={"origin": "http://evil.example"}
        ) as ws,
    ):
        ws.receive_json()


def test_two_people_out_of_turn_and_a_spectator(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store, rate=1000)
    data = _table(client, game="ceki", seats=[{"kind": "human"}, {"kind": "human"},
                                              {"kind": "bot", "level": "random"}])  # fmt: skip
    table = data["table"]
    with client.websocket_connect(f"/ws/seat/{data['seats']['0']}") as a, \
            client.websocket_connect(f"/ws/seat/{data['seats']['1']}") as b, \
            client.websocket_connect(f"/ws/watch/{table}") as w:  # fmt: skip
        ma, mb, mw = _settled(a), _settled(b), _settled(w)
        assert mw["seat"] is None and mw["observation"]["hand"] == []
        assert ma["observation"]["hand"] and mb["observation"]["hand"]
        session = client.app.state.tables.session(table)  # type: ignore[attr-defined]
        mover, other = (a, b) if session.to_act == 0 else (b, a)
        m_other = mb if mover is a else ma
        other.send_json({"type": "act", "action": 0, "version": m_other["version"]})
        assert "not your turn" in other.receive_json()["message"]
        m_mover = ma if mover is a else mb
        mover.send_json({"type": "act", "action": m_mover["observation"]["legal"][0]["id"],
                         "version": m_mover["version"]})  # fmt: skip
        seen = _settled(mover), _settled(other), _settled(w)
        assert len({m["version"] for m in seen}) == 1
        assert seen[2]["observation"]["hand"] == []
        for e in seen[2]["events"]:
            assert e.get("card") is None or e["kind"] not in ("draw", "deal")


def test_a_restarted_server_goes_on_from_the_last_action(
    tmp_path: Path, opened: Callable[..., TestClient]
) -> None:
    url = f"sqlite:///{tmp_path / 'restart.db'}"
    client = opened(Store(url), rate=1000)
    data = _table(client)
    token = data["seats"]["0"]
    with client.websocket_connect(f"/ws/seat/{token}") as ws:
        msg = _settled(ws)
        ws.send_json({"type": "act", "action": msg["observation"]["legal"][0]["id"],
                      "version": msg["version"]})  # fmt: skip
        before = _settled(ws)
    again = opened(Store(url), rate=1000)  # a new process on the same database
    with again.websocket_connect(f"/ws/seat/{token}") as ws:
        after = _settled(ws)
    assert after["version"] == before["version"]
    assert after["observation"] == before["observation"]


@pytest.mark.parametrize("game", ["balik-satu", "chaqui", "gonggong", "ceki", "cholek-tiga"])
def test_no_message_carries_another_seats_cards(
    store: Store, opened: Callable[..., TestClient], game: str
) -> None:
    """Two people and bots, many random moves: every message to a seat is that seat's own
    observation, as the engine builds it for that seat and no other; every message to a
    spectator is the game's public view (Ceki's cards laid face down included)."""
    client = opened(store, rate=1000)
    people = [{"kind": "human"}, {"kind": "human"}]
    bots = {"cholek-tiga": 0, "gonggong": 2}.get(game, 1)
    seats = people + [{"kind": "bot", "level": "random"}] * bots
    data = _table(client, game=game, seats=seats, hands=2)
    table = data["table"]
    rng = random.Random(game)
    socks = [client.websocket_connect(f"/ws/seat/{data['seats'][str(s)]}") for s in (0, 1)]
    socks.append(client.websocket_connect(f"/ws/watch/{table}"))
    a, b, w = (s.__enter__() for s in socks)
    reads = {id(ws): Follow(ws.receive_json) for ws in (a, b, w)}  # logs stitched, as pages do
    try:
        last = [next_settled(reads[id(a)]), next_settled(reads[id(b)])]
        for _ in range(150):
            if last[0]["over"]:
                break
            session = client.app.state.tables.session(table)  # type: ignore[attr-defined]
            seat = session.to_act
            ws = (a, b)[seat]
            legal = last[seat]["observation"]["legal"]
            # random moves, but draw rather than take: a hand of takes never ends
            draws = [a["id"] for a in legal if a["text"] == "draw"]
            choice = draws[0] if draws else rng.choice(legal)["id"]
            ws.send_json({"type": "act", "version": last[seat]["version"], "action": choice})
            mine = next_settled(reads[id(ws)])
            assert mine["type"] == "state", mine
            theirs = next_settled(reads[id((b, a)[seat])])
            last = [mine, theirs] if seat == 0 else [theirs, mine]
            for s in (0, 1):
                assert last[s]["seat"] == s
                if session.state is not None:
                    assert last[s]["observation"] == session.state.observation(s).to_json()
                    assert last[s]["events"] == [e.to_json() for e in session.state.events_for(s)]
            watched = reads[id(w)]()
            while watched["version"] < mine["version"]:
                watched = reads[id(w)]()
            assert watched["seat"] is None and watched["version"] == mine["version"]
            if session.state is not None:
                assert watched["observation"] == session.state.public_observation().to_json()
                assert watched["events"] == [e.to_json() for e in session.state.events_for(-1)]
        # after its first message, a connection is sent only what is new in the log
        assert all(r.partial > 0 for r in reads.values())
    finally:
        for s in socks:
            s.__exit__(None, None, None)
