"""A match's result decided in one place (issue 40): a tied lead after the agreed hands
shares the win or plays on (``Match.tie``), and a record without its ``table`` is read as
the match its rules fix (Ceki's settlement), not as the hands it happens to hold."""

from __future__ import annotations

import random

import pytest

from cherki.bots import make_bot
from cherki.core.errors import RecordError, RulesError
from cherki.games import find_game
from cherki.play.match import Match
from cherki.play.records import TableRecord, parse_record


def _play(match: Match, hands: int) -> None:
    bot, rng = make_bot(match.game.name, "random"), random.Random(5)
    for _ in range(hands):
        state = match.start_hand()
        while not state.is_terminal:
            state.apply(bot.act(state.observation(state.current), rng), state.current)
        match.finish_hand(state)


def test_a_ceki_record_without_its_table_is_the_match_its_rules_fix() -> None:
    game = find_game("ceki")
    rules = game.rules(None, settlement="target", target_points=2000)
    match = Match(game, rules, ["A", "B", "C", "D"], seed=3, target=2000)
    _play(match, 3)
    assert not match.is_over() and max(match.scores) < 2000
    record = parse_record(match.record.to_json())
    assert record.table is None
    again = Match.from_record(record)
    assert (again.hands, again.target) == (None, 2000)
    out = again.outcome()
    assert out["rule"] == "target" and not out["over"] and out["winners"] == []
    # with settlement=hands: the match of match_hands hands, over at 3 of 3
    rules = game.rules(None, settlement="hands", match_hands=3)
    match = Match(game, rules, ["A", "B", "C", "D"], seed=3, hands=3)
    _play(match, 3)
    again = Match.from_record(parse_record(match.record.to_json()))
    assert (again.hands, again.target) == (3, None) and again.outcome()["over"]


def _level(tie: str, scores: list[int]) -> Match:
    """A one-hand Ceki match whose hand is played, its scores set to ``scores``."""
    game = find_game("ceki")
    rules = game.rules(None, settlement="hands", match_hands=1)
    match = Match(game, rules, ["A", "B", "C"], seed=1, hands=1, tie=tie)
    _play(match, 1)
    match.scores = list(scores)
    return match


def test_a_tied_lead_shares_the_win_or_plays_on() -> None:
    shared = _level("share", [40, 40, 0])
    out = shared.outcome()
    assert out["over"] and out["winners"] == [0, 1] and out["tie"] == "share"
    on = _level("play-on", [40, 40, 0])
    assert not on.is_over() and on.outcome()["winners"] == []
    assert on.outcome()["leaders"] == [0, 1]
    on.scores = [40, 41, 0]  # one more hand put seat 1 ahead
    assert on.is_over() and on.outcome()["winners"] == [1]
    assert _level("play-on", [9, 40, 0]).outcome()["winners"] == [1]
    with pytest.raises(RulesError, match="a tie is share or play-on, not 'coin'"):
        _level("coin", [0, 0, 0])


def test_the_table_keeps_play_on() -> None:
    table = TableRecord((None, "random", "random"), hands=2, tie="play-on")
    assert table.to_json()["tie"] == "play-on"
    assert "tie" not in TableRecord((None, "random"), hands=2).to_json()
    match = _level("play-on", [0, 0, 0])
    match.record.table = table
    data = dict(match.record.to_json())
    again = parse_record(data)
    assert again.table is not None and again.table.tie == "play-on"
    assert Match.from_record(again).tie == "play-on"
    data["table"] = {**table.to_json(), "tie": "coin"}
    with pytest.raises(RecordError, match='"tie" must be "share" or "play-on"'):
        parse_record(data)
