"""The browser app's server beyond plain play: the lobby's list of games, seats' names,
the turn timer (a bot plays an away seat and hands it back), what a returning player
missed, records to download (whole when finished, one seat's view when not), and bots
that think without stalling other tables."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from serverutil import next_settled
from starlette.websockets import WebSocketDisconnect

from cherki.bots import make_bot
from cherki.bots.shipped import shipped_players
from cherki.core.cards import N_KINDS
from cherki.core.errors import RecordError
from cherki.games import GAMES
from cherki.play.records import parse_record, replay_hand
from cherki.server.app import create_app
from cherki.server.store import Store

BOTS3 = [{"kind": "human"}] + [{"kind": "bot", "level": "heuristic"}] * 3


@pytest.fixture
def opened() -> Iterator[Callable[..., TestClient]]:
    with ExitStack() as stack:

        def open_client(store: Store, **kw: Any) -> TestClient:
            kw.setdefault("rate", 1000)
            return stack.enter_context(TestClient(create_app(store, **kw)))

        yield open_client


def _table(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("game", "balik-satu")
    body.setdefault("seats", BOTS3)
    body.setdefault("bot_pace", 0)  # bots at once, hands one after another
    body.setdefault("pause", False)
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _play(ws: Any, msg: dict[str, Any]) -> dict[str, Any]:
    """One move of a person who goes out when they can, else draws, else plays the last
    legal action; the next settled message."""
    legal = msg["observation"]["legal"]
    texts = {a["text"]: a["id"] for a in legal}
    action = texts.get("sampei", texts.get("draw", legal[-1]["id"]))
    ws.send_json({"type": "act", "action": action, "version": msg["version"]})
    return next_settled(ws.receive_json)


def test_the_lobby_lists_every_game_with_presets_options_and_levels(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    games = client.get("/api/games").json()
    assert [g["name"] for g in games] == list(GAMES)
    balik = next(g for g in games if g["name"] == "balik-satu")
    assert balik["default_preset"] == balik["presets"][0]["name"]
    assert all(p["summary"] for p in balik["presets"])
    assert {"random", "heuristic", "variant", "search"} <= set(balik["levels"])
    by_name = {o["name"]: o for o in balik["options"]}
    assert by_name["yeo_redeal"]["kind"] == "bool" and by_name["yeo_redeal"]["summary"]
    assert all(o["kind"] in ("bool", "choice", "int", "text") for o in balik["options"])
    # every default offered is one the server accepts
    for g in games:
        options = {o["name"]: o["default"] for o in g["options"] if o["default"] is not None}
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (
            g["default_players"] - 1
        )
        r = client.post("/api/tables", json={"game": g["name"], "seats": seats,
                                             "options": options})  # fmt: skip
        assert r.status_code == 200, (g["name"], r.text)


def test_a_learned_bot_is_offered_and_seated_only_where_a_model_ships(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    games = {g["name"]: g for g in client.get("/api/games").json()}
    for name, g in games.items():
        assert g["learned_players"] == shipped_players(name)
        assert ("learned" in g["levels"]) == bool(g["learned_players"])
    balik = games["balik-satu"]
    n = balik["learned_players"][0]
    learned = [{"kind": "human"}] + [{"kind": "bot", "level": "learned"}] * (n - 1)
    r = client.post("/api/tables", json={"game": "balik-satu", "seats": learned})
    assert r.status_code == 200, r.text
    # a table size without a model: refused in words, not a broken table
    other = next(k for k in range(2, 8) if k not in balik["learned_players"])
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "learned"}] * (other - 1)
    r = client.post("/api/tables", json={"game": "balik-satu", "seats": seats})
    assert 400 <= r.status_code < 500, r.text
    assert "learned" in r.text and "Balik Satu" in r.text


def test_links_names_and_seat_information(store: Store, opened: Callable[..., TestClient]) -> None:
    client = opened(store)
    data = _table(client, seats=[{"kind": "human"}, {"kind": "human"}], game="ceki", listed=True)
    table = data["table"]
    assert data["links"] == {s: f"/seat/{t}" for s, t in data["seats"].items()}
    assert data["watch_page"] == f"/watch/{table}"
    info = client.get(f"/api/seat/{data['seats']['1']}").json()
    assert info == {"table": table, "seat": 1, "game": "ceki", "name": None, "status": "playing"}
    assert client.get("/api/seat/" + "x" * 22).status_code == 404
    with client.websocket_connect(f"/ws/seat/{data['seats']['0']}") as ws:
        first = ws.receive_json()
        assert first["names"][1] == "Seat 2"  # numbered from 1, as people count
        r = client.post("/api/seats", json={"token": data["seats"]["1"], "name": " Mei Ling "})
        assert r.status_code == 200
        renamed = ws.receive_json()  # everyone at the table is told the new name
        assert renamed["names"][1] == "Mei Ling"
    assert client.get(f"/api/seat/{data['seats']['1']}").json()["name"] == "Mei Ling"
    listed = client.get("/api/tables").json()[0]
    assert listed["title"] == "Ceki" and listed["watch_page"] == f"/watch/{table}"
    assert [s["taken"] for s in listed["seats"]] == [False, True]
    for bad in (2, 0, 3601, "soon"):
        r = client.post("/api/tables", json={"game": "ceki", "seats": BOTS3[:2], "timer": bad})
        assert r.status_code == 422, bad


def test_a_seat_whose_time_runs_out_is_played_by_a_bot_until_its_person_returns(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store, tick=0.02)
    data = _table(client, timer=60, hands=3)
    table, token = data["table"], data["seats"]["0"]
    tables = client.app.state.tables  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/seat/{token}") as ws:
        msg = next_settled(ws.receive_json)
        assert msg["timer"]["seconds"] == 60 and msg["timer"]["seat"] == 0
        assert 0 < msg["timer"]["remaining"] <= 60
        live = tables.table(table)
        assert live.deadline is not None
        version, seat, _ = live.deadline
        assert (version, seat) == (msg["version"], 0)
        live.deadline = (version, seat, time.monotonic())  # the time is up now
        while True:  # the stand-in plays seat 0 along with the bots
            msg = ws.receive_json()
            if msg["version"] > version + 1 and 0 in msg["away"]:
                break
        assert msg["away"] == [0]
        ws.send_json({"type": "back"})
        msg = next_settled(ws.receive_json)
        while msg["away"]:  # the bots' last moves, told before the seat was handed back
            msg = next_settled(ws.receive_json)
        assert msg["over"] or msg["observation"]["current"] == 0
    record = store.record(table)
    assert sum(len(h.actions) for h in record.hands) == msg["version"]
    for i in range(len(record.hands) - 1):
        replay_hand(record, i)


def test_a_returning_player_is_told_what_they_missed(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]
    data = _table(client, game="balik-satu", seats=seats, hands=2)
    a_token, b_token = data["seats"]["0"], data["seats"]["1"]
    with client.websocket_connect(f"/ws/seat/{a_token}") as a:
        seen = next_settled(a.receive_json)
    gone_at = seen["version"]
    # the table plays on (seat 0's own moves made from another of its devices)
    with (
        client.websocket_connect(f"/ws/seat/{a_token}") as a2,
        client.websocket_connect(f"/ws/seat/{b_token}") as b,
    ):
        last = {0: next_settled(a2.receive_json), 1: next_settled(b.receive_json)}
        for _ in range(5):
            if last[0]["over"]:
                break
            mover = last[0]["observation"]["current"]
            last[mover] = _play((a2, b)[mover], last[mover])
            last[1 - mover] = next_settled((b, a2)[mover].receive_json)
    with client.websocket_connect(f"/ws/seat/{a_token}?since={gone_at}") as a:
        back = a.receive_json()
    now = back["version"]
    assert now > gone_at
    assert back["missed"] and back["missed"][0].startswith("Hand ")
    assert any(line.startswith("Seat 2 ") for line in back["missed"])  # the other person
    assert any(line.startswith("You ") for line in back["missed"])  # seat 0's own moves
    if not back["over"] and back["hand_number"] == 0:
        # the same hand: the missed lines are the end of seat 0's log
        log = back["ui"]["log"]
        assert log[-(len(back["missed"]) - 1) :] == back["missed"][1:]
    with client.websocket_connect(f"/ws/seat/{a_token}?since={now}") as a:
        assert a.receive_json()["missed"] == []
    for bad in ("-1", "x", "9" * 12):  # refused in words, after the handshake (not a 403)
        with client.websocket_connect(f"/ws/seat/{a_token}?since={bad}") as a:
            said = a.receive_json()
            assert said["type"] == "closing" and said["reconnect"] is False
            assert "since is a version number" in said["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                a.receive_json()
            assert closed.value.code == 1008
    with client.websocket_connect(f"/ws/seat/{a_token}?chat=x") as a:
        assert "chat is a chat line's number" in a.receive_json()["message"]


def test_records_to_download(store: Store, opened: Callable[..., TestClient]) -> None:
    client = opened(store)
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "heuristic"}]
    data = _table(client, seats=seats, hands=1)
    table, a_token, b_token = data["table"], data["seats"]["0"], data["seats"]["1"]
    r = client.get(f"/api/tables/{table}/record", params={"token": a_token})
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    mine = r.json()
    assert mine["seen_by"] == 0
    text = json.dumps(mine)
    assert '"seed"' not in text and '"shoe"' not in text and '"stack"' not in text
    session = client.app.state.tables.session(table)  # type: ignore[attr-defined]
    assert session.state is not None
    hand = mine["hands"][0]
    assert hand["dealt"] == session.state.observation(0).to_json()["hand"][: len(hand["dealt"])]
    assert len(hand["dealt"]) == sum(session.record().start(0).observation(0).hand)
    # every event as seat 0 saw it: no card of seat 1's own draws
    assert hand["events"] == [e.to_json() for e in session.state.events_for(0)]
    with pytest.raises(RecordError, match="what seat 0 saw"):
        parse_record(mine)
    watch = client.get(f"/api/tables/{table}/record").json()
    assert watch["seen_by"] == "spectator" and "dealt" not in watch["hands"][0]
    assert client.get(f"/api/tables/{table}/record", params={"token": "y" * 22}).status_code == 404
    other = _table(client)["seats"]["0"]
    assert client.get(f"/api/tables/{table}/record", params={"token": other}).status_code == 404
    assert client.get("/api/tables/nope/record").status_code == 404
    # played to the end, the record is the whole record, and it replays to the stored result
    socks = {s: client.websocket_connect(f"/ws/seat/{t}") for s, t in ((0, a_token), (1, b_token))}
    with socks[0] as a, socks[1] as b:
        last = {0: next_settled(a.receive_json), 1: next_settled(b.receive_json)}
        while not last[0]["over"]:
            mover = last[0]["observation"]["current"]
            ws = (a, b)[mover]
            last[mover] = _play(ws, last[mover])
            last[1 - mover] = next_settled((b, a)[mover].receive_json)
    full = client.get(f"/api/tables/{table}/record", params={"token": a_token}).json()
    assert "seen_by" not in full and "seed" in full["hands"][0]
    record = parse_record(full)
    replayed = replay_hand(record, 0)
    assert list(replayed.result.payments) == full["hands"][0]["result"]["payments"]


class _SlowBot:
    """A bot that waits for the test's word before each decision."""

    name = "slow"

    def __init__(self, go: threading.Event) -> None:
        self.go = go
        self.inner = make_bot("balik-satu", "heuristic")

    def act(self, obs: Any, rng: Any) -> int:
        assert self.go.wait(30)
        return self.inner.act(obs, rng)


def test_a_thinking_bot_never_stalls_other_tables(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    go = threading.Event()
    data = _table(client)  # a table whose bots think as bots do
    hub = client.app.state.tables  # type: ignore[attr-defined]
    # seat 1 of another table: a bot that cannot decide until the test says so
    busy = _table(client, seats=[{"kind": "human"}, {"kind": "bot", "level": "heuristic"}])
    session = hub.session(busy["table"])
    seats_now = list(session.seats)
    seats_now[1] = type(seats_now[1])(seats_now[1].name, _SlowBot(go))
    session.seats = seats_now
    with client.websocket_connect(f"/ws/seat/{busy['seats']['0']}") as slow_ws:
        msg = next_settled(slow_ws.receive_json)
        if msg["observation"]["current"] == 0:
            slow_ws.send_json({"type": "act", "action": msg["observation"]["legal"][-1]["id"],
                               "version": msg["version"]})  # fmt: skip
            slow_ws.receive_json()  # the move told; now the slow bot thinks
        with client.websocket_connect(f"/ws/seat/{data['seats']['0']}") as ws:
            other = next_settled(ws.receive_json)
            after = _play(ws, other)  # the other table plays on while the bot thinks
            assert after["version"] > other["version"]
            ws.send_json({"type": "ping"})
            assert ws.receive_json()["type"] == "pong"
        assert not go.is_set()
        go.set()
        assert next_settled(slow_ws.receive_json)["type"] == "state"


def test_a_searching_bot_thinks_in_another_process(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    seats = [{"kind": "human"}, {"kind": "bot", "level": "search"}]
    data = _table(client, game="cholek-tiga", seats=seats)
    with client.websocket_connect(f"/ws/seat/{data['seats']['0']}") as ws:
        msg = next_settled(ws.receive_json)
        for _ in range(4):
            if msg["over"]:
                break
            msg = _play(ws, msg)
            assert msg["type"] == "state", msg
        assert msg["version"] >= 4
    assert N_KINDS == 30


def test_a_serving_process_collects_its_oldest_garbage_by_the_clock(
    store: Store, opened: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    calls: list[int] = []
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append(1) or 0)
    client = opened(store, collect_every=0.02)
    deadline = time.monotonic() + 10
    while len(calls) < 2 and time.monotonic() < deadline:
        assert client.get("/api/tables").status_code == 200
        time.sleep(0.02)
    assert len(calls) >= 2
