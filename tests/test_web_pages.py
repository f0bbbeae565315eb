"""The browser app's server side through FastAPI's test client: the pages and the cards
served, the replay API (a finished table's frames, an unfinished one refused, records sent
good, malformed and oversized), and the presentation part of each state message
(:mod:`cherki.server.present`) built only from what its seat may see."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from serverutil import next_settled

from cherki.bots import make_bot
from cherki.core.cards import CODES
from cherki.games import GAMES, find_game
from cherki.play.records import replay_hand
from cherki.play.session import Seat, Session
from cherki.server import present
from cherki.server.app import create_app
from cherki.server.pages import MAX_REPLAY_BYTES
from cherki.server.store import Store
from cherki.ui.text import Voice

HEURISTIC = {"kind": "bot", "level": "heuristic"}


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(Store(f"sqlite:///{tmp_path / 'web.db'}"), rate=1000))


def _table(client: TestClient, game: str = "balik-satu", players: int = 4, hands: int = 1) -> Any:
    seats = [{"kind": "human"}] + [HEURISTIC] * (players - 1)
    body = {"game": game, "seats": seats, "hands": hands, "bot_pace": 0, "pause": False}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def _finish(client: TestClient, token: str) -> None:
    """The person plays over their WebSocket (sampei when it can, else draws, else the last
    legal action) until the match is over."""
    with client.websocket_connect(f"/ws/seat/{token}") as ws:
        for _ in range(2000):
            msg = next_settled(ws.receive_json)
            assert msg["type"] == "state", msg
            if msg["over"]:
                return
            legal = {a["text"]: a["id"] for a in msg["observation"]["legal"]}
            action = legal.get("sampei", legal.get("draw", list(legal.values())[-1]))
            ws.send_json({"type": "act", "action": action, "version": msg["version"]})
    raise AssertionError("the match did not end")


def _record(game: str, players: int, hands: int = 2, seed: int = 5) -> dict[str, Any]:
    g = find_game(game)
    seats = [Seat(f"P{i}", make_bot(g.name, "heuristic")) for i in range(players)]
    session = Session(g, g.rules(None), seats, seed=seed, hands=hands)
    for _ in session.run():
        pass
    data: dict[str, Any] = session.record().to_json()
    return data


# -- pages and cards ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "script"),
    [
        ("/", "lobby.js"),
        ("/seat/abcdefghijklmnop", "table.js"),
        ("/watch/0123abcd", "table.js"),
        ("/replay", "replay.js"),
        ("/replay/0123abcd", "replay.js"),
    ],
)
def test_pages_are_served(client: TestClient, path: str, script: str) -> None:
    r = client.get(path)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert f"/static/{script}" in r.text
    assert '<meta name="viewport"' in r.text
    js = client.get(f"/static/{script}")
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]


def test_static_files_are_served(client: TestClient) -> None:
    for name in (
        "app.css",
        "table.css",
        "common.js",
        "lobby.js",
        "table.js",
        "motion.js",
        "chat.js",
        "hostchat.js",
        "replay.js",
    ):
        assert client.get(f"/static/{name}").status_code == 200, name


def test_the_keyboard_keys_are_documented_on_the_table_page(client: TestClient) -> None:
    page = client.get("/seat/abcdefghijklmnop").text
    for key in ("Enter", "←", "→", ">d<", ">t<", ">h<", "Esc"):
        assert key in page, key
    for game in GAMES.values():  # each game's own action keys, listed by the page with it
        view = game.view()
        declared = {key for _, key, _ in view.action_words.values() if key}
        assert {k for k, _ in view.keys(Voice(()))} == declared
        assert not declared & set(re.findall(r"<kbd>(\w)</kbd>", page)), game.name


def test_every_card_and_the_back_served_as_svg(client: TestClient) -> None:
    for code in [*CODES, "back"]:
        r = client.get(f"/cards/{code}.svg")
        assert r.status_code == 200, code
        assert r.headers["content-type"] == "image/svg+xml"
        assert "max-age" in r.headers["cache-control"]
        assert r.text.startswith("<svg")
    labelled = client.get("/cards/C7.svg").text
    plain = client.get("/cards/C7.svg?index=0").text
    assert 'class="index"' in labelled and 'class="index"' not in plain
    for red in ("S9", "RF", "OT"):
        svg = client.get(f"/cards/{red}.svg").text
        assert 'class="red-stamp"' in svg and 'fill="#c8102e">' + red in svg
    assert 'class="red-stamp"' not in client.get("/cards/S8.svg").text
    assert client.get("/cards/XX.svg").status_code == 404
    assert client.get("/cards/c7.svg").status_code == 404


def test_the_site_icon_is_served_and_every_page_links_it(client: TestClient) -> None:
    """``/favicon.ico`` (once a 404), the SVG it is drawn from and a phone's home-screen
    icon: three cards fanned, the Red Flower's red stamp in front (issue 24)."""
    import io

    from PIL import Image

    ico = client.get("/favicon.ico")
    assert ico.status_code == 200 and ico.headers["content-type"] == "image/x-icon"
    assert ico.content[:4] == b"\x00\x00\x01\x00"  # an ICO file's header
    assert Image.open(io.BytesIO(ico.content)).info["sizes"] >= {(16, 16), (32, 32), (48, 48)}
    assert "max-age" in ico.headers["cache-control"]
    svg = client.get("/favicon.svg")
    assert svg.status_code == 200 and svg.headers["content-type"] == "image/svg+xml"
    assert svg.text.startswith("<svg") and 'class="red-stamp"' in svg.text
    touch = client.get("/apple-touch-icon.png")
    assert touch.status_code == 200 and touch.headers["content-type"] == "image/png"
    assert Image.open(io.BytesIO(touch.content)).size == (180, 180)
    for path in ("/", "/seat/abcdefghijklmnop", "/watch/0123abcd", "/replay", "/host/x"):
        page = client.get(path).text
        for link in ('href="/favicon.ico"', 'href="/favicon.svg"', 'href="/apple-touch-icon.png"'):
            assert link in page, (path, link)


def test_preset_rules_for_the_lobby(client: TestClient) -> None:
    r = client.get("/api/rules/balik-satu?preset=babas")
    assert r.status_code == 200
    assert r.json()["rules"]["ayam_bonus"] == 5
    assert client.get("/api/rules/balik-satu").json()["rules"]["ayam_bonus"] == 10
    assert client.get("/api/rules/no-such-game").status_code == 404
    assert client.get("/api/rules/balik-satu?preset=nope").status_code == 404


def test_the_lobby_gets_names_for_people_beside_the_identifiers(client: TestClient) -> None:
    """Every preset and option has a name a person reads ("Singapore (Pwee, 2003)",
    "Kandang tangan multiplies the score by"), sent beside its identifier (issue 24)."""
    games = {g["name"]: g for g in client.get("/api/games").json()}
    satu = games["balik-satu"]
    pwee = next(p for p in satu["presets"] if p["name"] == "pwee")
    assert pwee["title"] == "Singapore (Pwee, 2003)"
    option = next(o for o in satu["options"] if o["name"] == "kandang_tangan_multiplier")
    assert option["title"] == "Kandang tangan multiplies the score by"
    for g in games.values():
        for named in g["presets"] + g["options"]:
            title = named["title"]
            assert title and title[0].isupper() and "_" not in title, (g["name"], named["name"])
            assert title != named["name"], (g["name"], named["name"])
    lobby = client.get("/static/lobby.js").text
    assert "p.title" in lobby and "o.title" in lobby and 'class: "ident"' in lobby


def test_seats_are_numbered_from_1_for_people(client: TestClient, tmp_path: Path) -> None:
    """A seat's name until its person gives one counts from 1, as the pages label the
    seats, and a bot's stays the same when another server loads the table (issue 24)."""
    made = _table(client, "ceki", players=3)
    expected = ["Seat 1", "Bot 2 (heuristic)", "Bot 3 (heuristic)"]
    with client.websocket_connect(f"/ws/watch/{made['table']}") as ws:
        assert ws.receive_json()["names"] == expected
    again = TestClient(create_app(Store(f"sqlite:///{tmp_path / 'web.db'}"), rate=1000))
    with again.websocket_connect(f"/ws/watch/{made['table']}") as ws:
        assert ws.receive_json()["names"] == expected
    for page in ("lobby.js", "host.js"):
        js = client.get(f"/static/{page}").text
        for zero_based in ("`Seat ${s.seat}`", "`Seat ${seat}`", "`Seat ${i}`"):
            assert zero_based not in js, (page, zero_based)


def test_watch_info(client: TestClient) -> None:
    made = _table(client)
    r = client.get(f"/api/watch/{made['table']}")
    assert r.status_code == 200
    assert r.json() == {"table": made["table"], "game": "balik-satu", "status": "playing"}
    assert client.get("/api/watch/nosuchtable").status_code == 404


# -- the replay API -----------------------------------------------------------------------------
def _check_frames(data: dict[str, Any], record: dict[str, Any]) -> None:
    frames = data["frames"]
    assert len(data["hands"]) == len(record["hands"])
    for h, hand in zip(data["hands"], record["hands"], strict=True):
        steps = frames[h["start"] : h["end"] + 1]
        assert len(steps) == len(hand["actions"]) + 1  # the deal, then each action
        assert [f["notation"] for f in steps[1:]] == hand["actions"]
        for f in steps[1:]:
            seat, _, what = f["notation"].partition(":")
            assert f["action"] == f"{record['players'][int(seat)]}: {what.strip()}"
        assert steps[0]["log"], "the deal in words"
        for f in steps:
            sizes = [s["cards"] for s in f["seats"]]
            assert [len(cards) for cards in f["hands"]] == sizes  # every hand face up
        for f in steps[1:]:
            assert f["log"], f["action"]
        assert all(f["result"] is None for f in steps[:-1])
        last = steps[-1]["result"]
        assert last is not None and last["summary"]
        assert [int(p["points"]) for p in last["payments"]] == hand["result"]["payments"]


def test_a_finished_tables_replay(client: TestClient) -> None:
    made = _table(client, hands=2)
    table = made["table"]
    r = client.get(f"/api/tables/{table}/replay")
    assert r.status_code == 403
    assert "still being played" in r.json()["detail"]
    _finish(client, made["seats"]["0"])
    r = client.get(f"/api/tables/{table}/replay")
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["table"] == table and data["game"] == "balik-satu"
    record = client.app.state.tables.store.record(table).to_json()  # type: ignore[attr-defined]
    _check_frames(data, record)
    assert client.get("/api/tables/nosuchtable/replay").status_code == 404


@pytest.mark.parametrize(("game", "players"), [("balik-satu", 4), ("cholek-tiga", 3), ("ceki", 4)])
def test_a_record_sent_is_replayed(client: TestClient, game: str, players: int) -> None:
    record = _record(game, players)
    r = client.post("/api/replay", content=json.dumps(record))
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["players"] == record["players"]
    _check_frames(data, record)
    if game == "cholek-tiga":
        zones = {z["id"]: z for z in data["frames"][-1]["table"]["zones"]}
        assert zones["pool"]["kind"] == "cards"


def test_malformed_records_get_the_readers_one_line(client: TestClient) -> None:
    cases = {
        b"not json": "not JSON",
        b"[1, 2]": "a record must be a JSON object",
        b'{"format": "x"}': '"format" must be "cherki-record"',
        b"\xff\xfe": "UTF-8",
    }
    for body, message in cases.items():
        r = client.post("/api/replay", content=body)
        assert r.status_code == 400, body
        detail = r.json()["detail"]
        assert message in detail and "\n" not in detail
    record = _record("balik-satu", 4, hands=1)
    record["hands"][0]["actions"][1] = "3: sampei"
    r = client.post("/api/replay", content=json.dumps(record))
    assert r.status_code == 400
    assert "hand 1, action 2" in r.json()["detail"]


def test_an_oversized_record_is_refused(client: TestClient) -> None:
    body = b'{"pad": "' + b"x" * MAX_REPLAY_BYTES + b'"}'
    r = client.post("/api/replay", content=body)
    assert r.status_code == 413
    assert "1 MB" in r.json()["detail"]


# -- what each seat is shown ------------------------------------------------------------------
class _Guard:
    """A state that answers only ``observation`` and ``events_for`` (and says whether the
    hand is over), recording which seats were asked for."""

    def __init__(self, state: Any) -> None:
        self._state = state
        self.asked: list[tuple[str, int]] = []

    def observation(self, seat: int) -> Any:
        self.asked.append(("observation", seat))
        return self._state.observation(seat)

    def public_observation(self) -> Any:
        self.asked.append(("observation", -1))
        return self._state.public_observation()

    def events_for(self, seat: int, since: int = 0) -> Any:
        self.asked.append(("events_for", seat))
        return self._state.events_for(seat, since)

    @property
    def is_terminal(self) -> bool:
        return bool(self._state.is_terminal)


def _codes(data: Any) -> list[str]:
    """Every card code in a JSON value's strings."""
    text = json.dumps(data)
    return re.findall(r"\b([CSM][1-9]|WF|RF|OT)\b", text)


@pytest.mark.parametrize(
    ("game", "players"), [("balik-satu", 4), ("chaqui", 3), ("ceki", 3), ("cholek-tiga", 3)]
)
def test_present_reads_only_the_seats_own_view(game: str, players: int) -> None:
    """At every step of random hands: a seat's ``ui`` reads only its own observation and
    events; its hand is its observation's; its actions name only its own cards and public
    ones. A spectator's reads the game's public view and the events as seat -1 saw them,
    and holds no hand, no actions and no card of any hand."""
    g = find_game(game)
    rng = random.Random(game)
    seats = [Seat(f"P{i}") for i in range(players)]
    session = Session(g, g.rules(None), seats, seed=rng.getrandbits(32), hands=1)
    session.start_hand()
    real = session.state
    assert real is not None
    for _ in range(120):
        if real.is_terminal:
            break
        guard = _Guard(real)
        session.state = guard  # type: ignore[assignment]
        for seat in range(players):
            guard.asked.clear()
            ui = present.seat_view(session, seat)
            assert {s for _, s in guard.asked} == {seat}
            obs = real.observation(seat).to_json()
            hand = [c for grp in ui["hand"]["groups"] for c in grp["cards"]]
            assert sorted(hand) == sorted(obs["hand"])
            public = set(_codes({k: v for k, v in obs.items() if k not in ("hand", "legal")}))
            for a in ui["actions"]:
                assert set(_codes(a)) <= set(obs["hand"]) | public, a
            assert {a["id"] for a in ui["actions"]} == {a["id"] for a in obs["legal"]}
        guard.asked.clear()
        watcher = present.seat_view(session, None)
        assert ("events_for", -1) in guard.asked and ("observation", -1) in guard.asked
        assert all(s == -1 for _, s in guard.asked)  # the public view and events only
        assert watcher["hand"] is None and watcher["actions"] == [] and watcher["drawn"] is None
        seen = real.public_observation().to_json()
        public = set(_codes({k: v for k, v in seen.items() if k not in ("hand", "legal", "drawn")}))
        lines = set(_codes(watcher["log"]))
        shown = set(_codes({k: v for k, v in watcher.items() if k != "log"}))
        assert shown <= public | lines
        spectator_lines = {c for e in real.events_for(-1) for c in _codes(e.to_json())}
        assert lines <= spectator_lines
        session.state = real
        seat = real.current
        legal = real.legal_actions()
        draws = [a for a in legal if g.action_text(a) == "draw"]
        real.apply(draws[0] if draws and rng.random() < 0.8 else rng.choice(legal), seat)


def test_the_hint_and_the_result_in_words() -> None:
    g = find_game("balik-satu")
    seats = [Seat("Ann")] + [Seat(f"Bot {i}", make_bot(g.name, "heuristic")) for i in (1, 2, 3)]
    session = Session(g, g.rules(None), seats, seed=11, hands=2)
    session.start_hand()
    lines = present.hint(session, 0)
    assert any("heuristic bot would play" in line for line in lines)
    ui = present.seat_view(session, 0)
    assert ui["status"] == "Your turn: discard a card."
    assert ui["result"] is None and ui["sheet"] is None
    for _ in session.run(lambda state, seat: _any(state)):
        pass
    ui = present.seat_view(session, 0)
    result = ui["result"]
    assert result is not None and result["summary"]
    # every hand face up once the hand is over: the finished hand's end, replayed
    assert [h["name"] for h in result["final_hands"]] == ["You", "Bot 1", "Bot 2", "Bot 3"]
    end = replay_hand(session.match.record, len(session.match.results) - 1)
    for h in result["final_hands"]:
        held = end.observation(h["seat"]).hand
        assert h["cards"] == [CODES[k] for k in range(30) for _ in range(held[k])]
    if result["winner"] is not None and result["hand_cards"]:
        winner = result["final_hands"][result["winner"]]["cards"]
        assert sorted(winner) == sorted(result["hand_cards"])
    assert ui["sheet"]["rows"] and len(ui["sheet"]["names"]) == 4
    assert ui["sheet"]["names"][0] == "You"
    assert ui["status"] == "The match is over."


def _any(state: Any) -> int:
    """A person's move in a test: sampei when it can, else draw, else the first legal."""
    legal = state.legal_actions()
    game = state.game
    texts = {game.action_text(a): a for a in legal}
    return int(texts.get("sampei", texts.get("draw", legal[0])))
