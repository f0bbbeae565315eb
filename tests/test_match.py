"""Matches (match.py): fixed hands, a target, hand by hand; redeals not counted; who starts
next; money at the rules' rate; pots carried across hands in the context and kept in the
record, which replays; the CLI playing and replaying matches end to end."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import detail

from cherki.bots import make_bot
from cherki.core.errors import RecordError, RulesError
from cherki.core.events import Result
from cherki.games import find_game
from cherki.play.match import Match, replay_match
from cherki.play.records import parse_record, replay_hand

SATU = find_game("balik-satu")
GONG = find_game("gonggong")


def play_match(game: Any, rules: Any, seed: int = 1, level: str = "heuristic", **kw: Any) -> Match:
    n = kw.pop("players", game.default_players)
    m = Match(game, rules, [f"P{i}" for i in range(n)], seed, **kw)
    bots = [make_bot(game.name, level) for _ in range(n)]
    rng = random.Random(seed)
    limit = kw.get("hands") or 6
    while not m.is_over() and len(m.results) < 4 * limit + 20:
        state = m.start_hand()
        assert state.current == m.first
        while not state.is_terminal:
            s = state.current
            state.apply(bots[s].act(state.observation(s), rng), s)
        m.finish_hand(state)
        assert m.first == state.next_first()
        check_sheet(m)
    return m


def check_sheet(m: Match) -> None:
    n = len(m.players)
    assert m.totals == [sum(r.payments[s] for r in m.results) for s in range(n)]
    assert sum(m.totals) + m.pot == 0
    if m.ledger is None:
        assert m.money == [sum(r.money[s] for r in m.results) for s in range(n)]
    assert [row[0] for row in m.sheet()] == list(range(1, len(m.results) + 1))
    assert [row[-1] for row in m.sheet()] == [r.how for r in m.results]


# -- how a match ends ----------------------------------------------------------------------------
def test_a_fixed_number_of_hands_not_counting_redeals() -> None:
    m = play_match(SATU, SATU.rules(), seed=4, hands=10)
    assert m.scored_hands == 10 and m.is_over()
    assert len(m.results) == 10 + sum(1 for r in m.results if r.redeal)
    assert [h.seed for h in m.record.hands] == [4 + i for i in range(len(m.results))]


def test_a_redeal_never_ends_a_match() -> None:
    m = Match(SATU, SATU.rules(), ["A", "B"], 1, hands=1)
    m.results.append(Result(None, "yeo", (), payments=(0, 0), money=(0, 0), redeal=True))
    assert not m.is_over()
    m.results.append(Result(0, "self-draw", (), payments=(5, -5), money=(50, -50)))
    assert m.is_over()


def test_a_target_total() -> None:
    m = play_match(SATU, SATU.rules("gateway"), seed=2, target=40)
    assert max(m.totals) >= 40
    running = [0] * 4
    for r in m.results[:-1]:
        running = [a + b for a, b in zip(running, r.payments, strict=True)]
        assert max(running) < 40


def test_hand_by_hand_until_stopped() -> None:
    m = Match(SATU, SATU.rules(), ["A", "B", "C"], 3, until_stopped=True)
    bots = [make_bot("balik-satu", "random") for _ in range(3)]
    rng = random.Random(0)
    for _ in range(4):
        assert not m.is_over()
        state = m.start_hand()
        while not state.is_terminal:
            state.apply(bots[state.current].act(state.observation(state.current), rng))
        m.finish_hand(state)
    assert not m.is_over() and len(m.results) == 4


def test_one_hand_by_default_and_bad_settings() -> None:
    m = Match(SATU, SATU.rules(), ["A", "B"], 1)
    assert not m.is_over()
    with pytest.raises(RulesError, match="at least one hand"):
        Match(SATU, SATU.rules(), ["A", "B"], 1, hands=0)
    with pytest.raises(RulesError, match="target must be at least 1"):
        Match(SATU, SATU.rules(), ["A", "B"], 1, target=0)


@pytest.mark.parametrize("name", ["ceki", "cholek-tiga", "tantanan", "chaqui"])
def test_every_game_plays_a_match(name: str) -> None:
    game = find_game(name)
    m = play_match(game, game.default_preset().rules, seed=5, hands=3)
    assert m.scored_hands == 3
    replayed = replay_match(parse_record(m.record.dumps()))
    assert replayed.totals == m.totals and replayed.money == m.money


def test_money_at_the_rules_rate() -> None:
    m = play_match(GONG, GONG.rules(), seed=3, hands=4)
    assert m.money == [2 * t for t in m.totals]


# -- pots across hands ---------------------------------------------------------------------------
@pytest.mark.parametrize("preset", ["undhuh-undhuhan", "umbuk"])
def test_a_pot_carries_across_hands_and_replays(preset: str) -> None:
    m = play_match(GONG, GONG.rules(preset), seed=11, hands=8)
    pots = [detail(r)["pot"] for r in m.results]
    assert pots[0]["before"] == 0 and pots[0]["staked"] == 40
    for prev, nxt, hand in zip(pots, pots[1:], m.record.hands[1:], strict=False):
        assert nxt["before"] == prev["after"]
        assert hand.context == {"pot": prev["after"]}
        assert nxt["staked"] == (40 if prev["after"] == 0 else 0)
    assert m.pot == pots[-1]["after"] and sum(m.totals) + m.pot == 0
    data = json.loads(m.record.dumps())
    assert data["hands"][1]["context"] == {"pot": pots[0]["after"]}
    rec = parse_record(data)
    for i in range(len(rec.hands)):
        assert replay_hand(rec, i).result.to_json() == m.results[i].to_json()
    again = replay_match(rec)
    assert again.totals == m.totals and again.pot == m.pot and again.money == m.money


def test_a_tampered_pot_does_not_replay() -> None:
    m = play_match(GONG, GONG.rules("undhuh-undhuhan"), seed=11, hands=3)
    data = json.loads(m.record.dumps())
    data["hands"][1]["context"] = {"pot": 999}
    with pytest.raises(RecordError):
        replay_match(parse_record(data))
    data["hands"][1]["context"] = "lots"
    with pytest.raises(RecordError, match='"context" must be an object'):
        parse_record(data)


def test_a_context_for_a_game_without_one_is_refused() -> None:
    rec = {"format": "cherki-record", "version": 1, "game": "ceki", "players": 3,
           "hands": [{"seed": 1, "context": {"pot": 5}}]}  # fmt: skip
    with pytest.raises(RecordError, match="take no"):
        replay_hand(parse_record(rec))


# -- the CLI, end to end -------------------------------------------------------------------------
def cherki(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cherki", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"COLUMNS": "120", "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"},
    )


def test_cli_plays_and_replays_a_pot_match(tmp_path: Path) -> None:
    rec = tmp_path / "pot.json"
    run = cherki("play", "gonggong", "--watch", "--delay", "0", "--seed", "4", "--hands", "3",
                 "--rules", "undhuh-undhuhan", "--record", str(rec))  # fmt: skip
    assert run.returncode == 0, run.stderr
    data = json.loads(rec.read_text())
    assert len([h for h in data["hands"] if not h["result"]["redeal"]]) == 3
    assert "context" in data["hands"][1]
    out = cherki("replay", str(rec), "--json")
    assert out.returncode == 0, out.stderr
    assert len(json.loads(out.stdout)["hands"]) == len(data["hands"])


def test_cli_watches_a_game_of_chot() -> None:
    run = cherki("play", "chot", "--watch", "--delay", "0", "--seed", "3")
    assert run.returncode == 0, run.stderr
    assert "Chot" in run.stdout and "Score sheet" in run.stdout


# -- the search bots' sampled deals, under heuristic play ------------------------------------------
@pytest.mark.parametrize(
    ("name", "preset"),
    [("gonggong", "toh-bayaran"), ("gonggong", "umbuk"), ("tantanan", "surakarta"),
     ("ceken", "yogyakarta"), ("chaqui", "kristang"), ("chot", "pwee"), ("balik-satu", "pwee")],
)  # fmt: skip
def test_determinized_deals_offer_the_same_legal_actions(name: str, preset: str) -> None:
    game = find_game(name)
    rules = game.rules(preset)
    check = random.Random(7)
    for seed in range(6):
        state = game.new_state(rules, seed=seed, first=seed % game.default_players)
        bots = [make_bot(name, "heuristic") for _ in range(state.n)]
        rng = random.Random(seed)
        while not state.is_terminal:
            seat = state.current
            obs = state.observation(seat)
            world = game.determinize(obs, check)
            assert sorted(world.legal_actions(seat)) == sorted(obs.legal)
            state.apply(bots[seat].act(obs, rng), seat)


def test_the_match_result_is_the_highest_total_of_points_scored() -> None:
    """[003] Ceki over "a given number of hands, and the winner is he who in the end has
    totalized the highest score", or to "a total number of points: the winner will be the
    player who reaches this total"."""
    ceki = find_game("ceki")
    m = play_match(ceki, ceki.rules(), seed=5, hands=3)
    want = [sum((r.scores or r.payments)[s] for r in m.results) for s in range(4)]
    out = m.outcome()
    assert out["rule"] == "hands" and out["over"] is True and out["scores"] == want
    assert out["winners"] == [s for s, v in enumerate(want) if v == max(want)]
    assert out["totals"] == m.totals and sum(out["totals"]) + m.pot == 0
    # seats level at the top share the win; before the end there are leaders, no winner
    m.scores = [7, 2, 7, 0]
    assert m.outcome()["winners"] == [0, 2]
    m.hands = 10
    assert m.outcome()["over"] is False
    assert m.outcome()["winners"] == [] and m.outcome()["leaders"] == [0, 2]
    t = play_match(ceki, ceki.rules(), seed=6, target=12)
    out = t.outcome()
    assert out["rule"] == "target" and out["over"] is True
    (winner,) = out["winners"]
    assert out["scores"][winner] >= 12 > sorted(out["scores"])[-2]
    # a record replayed keeps the match it was (hands, target) from its table, if any
    again = replay_match(t.record)
    assert again.outcome()["scores"] == out["scores"]
