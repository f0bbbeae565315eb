"""The learn pages' API (issue 37): the courses listed, a course in the reader's language
with each lesson's position as the table's own view for the learner's seat (and nothing of
the other seats' hands), the engine's verdicts, the practice table's settings (hints on,
every money option at 0), and bad requests refused in words."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from cherki.bots import levels_for
from cherki.core.options import plays_for_money
from cherki.games import GAMES
from cherki.i18n import words
from cherki.play.lessons import judge, position
from cherki.play.refusals import refusal
from cherki.server.app import create_app
from cherki.server.store import Store


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Store("sqlite://"))) as c:
        yield c


def test_the_courses_are_listed(client: TestClient) -> None:
    listed = client.get("/api/learn?lang=ms").json()
    assert [g["name"] for g in listed] == [n for n, g in GAMES.items() if g.lessons().lessons]
    for g in listed:
        assert g["count"] == words("ms").count("learn.ui.lessons", g["lessons"])
    assert client.get("/learn").status_code == client.get("/learn/balik-satu").status_code == 200


@pytest.mark.parametrize("name", [n for n, g in GAMES.items() if g.lessons().lessons])
def test_a_course_shows_each_position_to_the_learner_only(client: TestClient, name: str) -> None:
    game = GAMES[name]
    data = client.get(f"/api/learn/{name}?lang=id").json()
    assert data["name"] == name
    w = words("id")
    for lesson, shown in zip(game.lessons().lessons, data["lessons"], strict=True):
        assert shown["id"] == lesson.id and shown["seat"] == lesson.seat
        assert shown["title"] == w.t(lesson.key("title"))
        assert shown["question"] == w.t(lesson.key("question"))
        state = position(game, lesson)
        obs = state.observation(lesson.seat)
        ui = shown["ui"]
        assert sorted(a["id"] for a in ui["actions"]) == sorted(obs.legal)
        assert ui["hand"]["count"] == sum(obs.hand)
        # the other seats: how many cards each holds, never which
        for seat in ui["seats"]:
            assert set(seat) >= {"seat", "cards"} and "hand" not in seat
        assert [t["id"] for t in shown["teaches"]] == list(lesson.teaches)


@pytest.mark.parametrize("name", [n for n, g in GAMES.items() if g.lessons().lessons])
def test_practice_is_a_table_for_nothing_with_hints_and_bots(client: TestClient, name: str) -> None:
    game = GAMES[name]
    practice = client.get(f"/api/learn/{name}").json()["practice"]
    assert practice["game"] == name and practice["hints"] is True
    rules = game.with_options(game.default_preset().rules, practice["options"])
    assert not plays_for_money(game.options, rules)
    seats = practice["seats"]
    assert seats[0] == {"kind": "human"} and len(seats) == game.default_players
    assert all(s["kind"] == "bot" and s["level"] in levels_for(name) for s in seats[1:])


def test_answers_are_judged_by_the_engine(client: TestClient) -> None:
    game = GAMES["balik-satu"]
    url = "/api/learn/balik-satu/balik.ayam/answer"
    right = client.post(url + "?lang=ms", json={"action": game.parse_action("sampei")}).json()
    assert right["right"] is True and right["text"] == words("ms").t("learn.balik.ayam.explain")
    assert right["result"]["total"] == 16 and right["teaches"][0]["id"] == "balik.shown"
    wrong = client.post(url, json={"action": game.parse_action("pass")}).json()
    assert wrong == {"right": False, "text": words("en").t("learn.balik.ayam.why.pass")}
    refused = client.post(url + "?lang=id", json={"action": game.parse_action("draw")}).json()
    # the rules' refusal, in the reader's language (issue 39: the core's errors carry keys)
    lesson = game.lessons().lesson("balik.ayam")
    assert lesson is not None
    verdict = judge(game, lesson, position(game, lesson), game.parse_action("draw"))
    assert verdict.refused is not None
    why = refusal(verdict.refused, "id", game)
    assert refused == {"right": False, "text": words("id").t("learn.ui.refused", reason=why)}
    assert why != str(verdict.refused)
    english = client.post(url, json={"action": game.parse_action("draw")}).json()
    assert not english["right"] and english["text"].startswith("The rules refuse it: ")


def test_bad_requests_are_refused_in_words(client: TestClient) -> None:
    nogame = client.get("/api/learn/chess")
    assert nogame.status_code == 404 and "no game 'chess'" in nogame.json()["detail"]
    nolesson = client.post("/api/learn/balik-satu/nope/answer", json={"action": 1})
    assert nolesson.status_code == 404 and "no lesson 'nope'" in nolesson.json()["detail"]
    big = client.post("/api/learn/balik-satu/balik.ayam/answer", json={"action": 10**6})
    assert big.status_code == 400
    junk = client.post("/api/learn/balik-satu/balik.ayam/answer", json={"action": "x"})
    assert junk.status_code == 422
