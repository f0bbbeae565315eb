"""A record to download and a finished match's replay are read, kept to what the viewer
may see and written out in the heavy requests' process, from what the database holds
(``cherki.server.stored``): the serving process, whose event loop serves every table, does
none of it. Here every way of doing it in the serving process (the record written out or
read as JSON, read from the store, kept to a viewer) fails, and the answers are still
given, byte for byte what the table's own record gives each viewer: a seat's hand in play
hidden from the others and from spectators, a finished match whole. On SQLite and on
PostgreSQL (the heavy process opens the database by its URL). A review, of a seat's hand
by its link or of a finished match, is read, planned and judged there too."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from serverutil import next_settled

from cherki.play.records import Record
from cherki.play.review import plan_review
from cherki.server import registry, stored
from cherki.server.app import create_app
from cherki.server.limits import Limits
from cherki.server.store import Store
from cherki.server.stored import record_json, replay_json

#: two people and no bot: nothing moves but what the test does
SEATS = [{"kind": "human"}, {"kind": "human"}]


def _boom(*_args: object, **_kw: object) -> Any:
    raise AssertionError("a record was worked out in the serving process")


def _forbid_work_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every way of working out a record in this (the serving) process fails."""
    monkeypatch.setattr(Record, "dumps", _boom)
    monkeypatch.setattr(Record, "to_json", _boom)
    monkeypatch.setattr(Store, "record", _boom)
    monkeypatch.setattr(Store, "stored", _boom)
    monkeypatch.setattr(registry, "record_for", _boom)
    monkeypatch.setattr(stored, "record_for", _boom)


def _play_out(client: TestClient, tokens: dict[int, str]) -> None:
    """The two people play the match to its end (each goes out when they can, else
    draws, else plays their last legal action)."""
    with (
        client.websocket_connect(f"/ws/seat/{tokens[0]}") as a,
        client.websocket_connect(f"/ws/seat/{tokens[1]}") as b,
    ):
        socks = (a, b)
        last = {0: next_settled(a.receive_json), 1: next_settled(b.receive_json)}
        while not last[0]["over"]:
            mover = last[0]["observation"]["current"]
            legal = last[mover]["observation"]["legal"]
            texts = {x["text"]: x["id"] for x in legal}
            action = texts.get("sampei", texts.get("draw", legal[-1]["id"]))
            socks[mover].send_json(
                {"type": "act", "action": action, "version": last[mover]["version"]}
            )
            last[mover] = next_settled(socks[mover].receive_json)
            last[1 - mover] = next_settled(socks[1 - mover].receive_json)


def _finished(client: TestClient, key: str) -> dict[str, Any]:
    """The review ``key`` once it has ended (done, cut short or refused)."""
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        out: dict[str, Any] = client.get(f"/api/reviews/{key}").json()
        if out["state"] in ("done", "cut", "refused"):
            return out
        time.sleep(0.2)
    raise AssertionError("the review did not end")


def _downloads(client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    made = client.post(
        "/api/tables",
        json={"game": "balik-satu", "seats": SEATS, "hands": 1, "bot_pace": 0, "pause": False},
    ).json()
    table_id = made["table"]
    tokens = {0: made["seats"]["0"], 1: made["seats"]["1"]}
    # a seat taken since the last action: its name is in the record, not yet in the stored
    # header
    assert client.post("/api/seats", json={"token": tokens[0], "name": "Aminah"}).is_success
    srv: Any = client.app.state.server  # type: ignore[attr-defined]
    assert srv.heavy.reader == store.url
    url = f"/api/tables/{table_id}/record"
    viewers: dict[int | None, dict[str, str]] = {
        None: {},
        0: {"token": tokens[0]},
        1: {"token": tokens[1]},
    }

    def fetch(path: str, **params: Any) -> bytes:
        with monkeypatch.context() as m:
            _forbid_work_here(m)
            r = client.get(path, params=params)
        assert r.status_code == 200, r.text
        return bytes(r.content)

    live = {seat: fetch(url, **params) for seat, params in viewers.items()}
    table = srv.tables.live[table_id]
    assert not table.over
    for seat, got in live.items():
        assert got == record_json(table.session.record().dumps(), seat, False).encode()
    assert b"Aminah" in live[None]
    assert live[0] != live[1]  # each seat its own hand; the others' are not in it
    # the replay of the match in play is refused from what the table holds: not a read
    with monkeypatch.context() as m:
        _forbid_work_here(m)
        m.setattr(Store, "table", _boom)
        m.setattr(Store, "matches", _boom)
        refused = client.get(f"/api/tables/{table_id}/replay")
        assert refused.status_code == 403, refused.text
        assert "still being played" in refused.json()["detail"]
    _play_out(client, tokens)
    assert table.over
    # a seat reviews its hand with its link: the hand pinned here, the record read, planned
    # and judged in the heavy process, decision by decision
    with monkeypatch.context() as m:
        _forbid_work_here(m)
        started = client.post(f"/api/tables/{table_id}/review", params={"token": tokens[1]})
        assert started.status_code == 200, started.text
        review = _finished(client, started.json()["id"])
    # the last hand (a hand that ends with no one out may be dealt again: there may be two)
    played = store.record(table_id, 0)
    plan = plan_review(played, 1)
    assert review["state"] == "done", review
    assert (review["seat"], review["hand"], review["total"]) == (
        1, len(played.hands), len(plan.points),
    )  # fmt: skip
    assert [d["number"] for d in review["decisions"]] == [n for n, _, _ in plan.points]
    # another match (match 0 is now an earlier one); a finished table no one is at is let
    # go from memory, so the table is the one in memory now
    again = client.post(f"/api/host/{made['host']}/again")
    assert again.status_code == 200 and again.json()["match"] == 1, again.text
    table = srv.tables.live[table_id]
    for seat, params in viewers.items():
        earlier = fetch(url, match=0, **params)
        assert earlier == record_json(store.record(table_id, 0).dumps(), seat, True).encode()
        now = fetch(url, **params)
        assert now == record_json(table.session.record().dumps(), seat, table.over).encode()
    replay = fetch(f"/api/tables/{table_id}/replay", match=0)
    expected = replay_json(store.record(table_id, 0).dumps(), table_id, None)
    assert expected[0] == 200 and replay == expected[1].encode()
    # a review of the finished match (public, as its replay) starts from its record, read
    # and written out there too
    with monkeypatch.context() as m:
        _forbid_work_here(m)
        started = client.post(f"/api/tables/{table_id}/review", params={"seat": 0, "match": 0})
        assert started.status_code == 200, started.text
        review = _finished(client, started.json()["id"])
    assert review["state"] == "done", review
    assert review["hand"] == len(played.hands)
    assert review["total"] == len(plan_review(played, 0).points)
    # asked again before the table moves: the answer kept (under the version read), sent
    # with no work at all
    kept = dict(srv.heavy.kept)
    assert ("record", table_id, table.version, 1, 0) in kept
    again = fetch(url, **viewers[0])
    assert again == record_json(table.session.record().dumps(), 0, table.over).encode()
    assert dict(srv.heavy.kept) == kept


def test_records_are_worked_out_in_the_heavy_process_on_sqlite(
    store: Store, opened: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    client = opened(store, rate=1000, limits=Limits(heavy_seconds=300.0, review_budget=1))
    _downloads(client, store, monkeypatch)


@pytest.mark.slow
def test_records_are_worked_out_in_the_heavy_process_on_postgresql(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pg import postgres_server

    with postgres_server() as url:
        store = Store(url)
        app = create_app(store, rate=1000, limits=Limits(heavy_seconds=300.0, review_budget=1))
        with TestClient(app) as client:
            _downloads(client, store, monkeypatch)
        store.close()
