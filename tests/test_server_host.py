"""The host's private link: every seat's link again (worked out from the host's token, the
database holding only hashes), seats renamed for everyone at the table, and a seat's link
replaced — the old one stops working and whoever held it is told and disconnected."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from cherki.server.app import create_app
from cherki.server.store import Store


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store)) as c:
        yield c


def _made(client: TestClient) -> dict[str, Any]:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "human"}]
    r = client.post("/api/tables", json={"game": "ceki", "seats": seats, "hands": 3,
                                         "bot_pace": 0, "pause": False})  # fmt: skip
    assert r.status_code == 200, r.text
    made: dict[str, Any] = r.json()
    return made


def test_the_host_link_shows_every_seats_link_again(client: TestClient, store: Store) -> None:
    made = _made(client)
    host = made["host"]
    assert made["host_page"] == f"/host/{host}"
    assert client.get(made["host_page"]).status_code == 200
    view = client.get(f"/api/host/{host}").json()
    assert view["table"] == made["table"] and view["game"] == "ceki"
    assert [s["kind"] for s in view["seats"]] == ["human", "bot", "human"]
    assert {str(s["seat"]): s["link"] for s in view["seats"] if s["link"]} == made["links"]
    assert view["seats"][1]["link"] is None and view["seats"][1]["level"] == "random"
    # the database holds no token, the host's included: only hashes
    with store.engine.connect() as conn:
        dump = " ".join(str(row) for row in conn.execute(text("SELECT * FROM seats")).all())
        dump += " ".join(str(row) for row in conn.execute(text("SELECT * FROM tables")).all())
    for token in [host, *made["seats"].values()]:
        assert token not in dump


def test_links_that_are_not_a_hosts(client: TestClient) -> None:
    made = _made(client)
    for bad in (made["seats"]["0"], "x" * 22, "short"):
        r = client.get(f"/api/host/{bad}")
        assert r.status_code == 404 and "not a host link" in r.json()["detail"]
        r = client.post(f"/api/host/{bad}/seats/0/name", json={"name": "Mak"})
        assert r.status_code == 404


def test_the_host_names_a_seat_and_the_table_is_told(client: TestClient) -> None:
    made = _made(client)
    host = made["host"]
    with client.websocket_connect(f"/ws/seat/{made['seats']['0']}") as ws:
        ws.receive_json()
        r = client.post(f"/api/host/{host}/seats/2/name", json={"name": " Auntie Lim "})
        assert r.status_code == 200 and r.json()["name"] == "Auntie Lim"
        msg = ws.receive_json()
        while msg["names"][2] != "Auntie Lim":
            msg = ws.receive_json()
    assert client.get(f"/api/host/{host}").json()["seats"][2]["name"] == "Auntie Lim"
    for seat, body, words in [
        (1, {"name": "Bot"}, "a bot plays seat 1"),
        (7, {"name": "X"}, "no seat 7"),
        (0, {"name": "   "}, "1 to 40 printable"),
    ]:
        r = client.post(f"/api/host/{host}/seats/{seat}/name", json=body)
        assert r.status_code == 400 and words in r.json()["detail"], r.text


def test_a_new_link_for_a_seat_stops_the_old_one(client: TestClient) -> None:
    made = _made(client)
    host, old = made["host"], made["seats"]["2"]
    with client.websocket_connect(f"/ws/seat/{old}") as ws:
        ws.receive_json()
        r = client.post(f"/api/host/{host}/seats/2/reissue")
        assert r.status_code == 200, r.text
        fresh = r.json()["link"]
        msg = ws.receive_json()
        while msg["type"] == "state":
            msg = ws.receive_json()
        assert msg == {
            "type": "closing",
            "message": "the host gave this seat a new link: ask them for it",
            "reconnect": False,
        }
    assert fresh != f"/seat/{old}"
    assert client.get(f"/api/seat/{old}").status_code == 404
    assert client.get(f"/api/seat/{fresh.split('/')[-1]}").json()["seat"] == 2
    view = client.get(f"/api/host/{host}").json()
    assert view["seats"][2]["link"] == fresh  # shown again, as any seat's
    assert view["seats"][0]["link"] == made["links"]["0"]  # the others are unchanged
    with client.websocket_connect(f"/ws/seat/{fresh.split('/')[-1]}") as ws:
        assert ws.receive_json()["seat"] == 2
    r = client.post(f"/api/host/{host}/seats/1/reissue")
    assert r.status_code == 400 and "a bot plays seat 1" in r.json()["detail"]
