"""The race search of the games of sets (cherki.bots.race): its model plays a hand exactly
as the heuristic does, finds the first chance to go out on a stacked stream of cards, and
weighs a chance by the others' race."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cherki.bots import make_bot
from cherki.bots.balik import BalikHeuristicBot, discard_values
from cherki.bots.base import Bot
from cherki.bots.race import CEKI, NEVER, NO_CALL, TAN, CallJudge, Solitaire, _Points, _Race
from cherki.bots.search import SearchBot
from cherki.core.cards import counts_of, parse_card, parse_cards
from cherki.core.sets import Wait
from cherki.games import find_game
from cherki.games.sets.actions import CALL_TAN, DISCARD, SAMPEI
from cherki.games.sets.observation import SetsObservation


@settings(max_examples=16, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    name=st.sampled_from(["balik-satu", "tantanan", "chaqui", "gonggong", "chot"]),
    for_score=st.booleans(),
)
def test_the_model_plays_as_the_heuristic(seed: int, name: str, for_score: bool) -> None:
    """At every discard of a random heuristic game, the model's throw and call are the
    heuristic's (up to its lots between equal choices), and so are a caller's changes of
    hand and every going out (a Chaqui chiqui go-out the heuristic declines included); and
    so for the search's own policy, which plays for the score (``for_score``)."""
    game = find_game(name)
    bot = BalikHeuristicBot(for_score=for_score)
    assert type(make_bot(name, "heuristic")) is BalikHeuristicBot
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        seat = state.current
        obs = state.observation(seat)
        if obs.phase == "discard" and obs.calls[seat] is None and SAMPEI not in obs.legal:
            model = Solitaire(obs)
            fixed = np.array(obs.melds[seat] if obs.melds else [0] * 30)
            extra = bot.extra(obs.rules)
            throw, calls = model.play(np.array([obs.hand]), fixed, extra)
            k = int(throw[0])
            action = bot.act(obs, random.Random(0))
            hand = list(obs.hand)
            if action >= CALL_TAN:
                assert calls[0]
                outs = bot._outs  # type: ignore[attr-defined]
                live = obs.unseen()
                assert outs(hand, CALL_TAN + k, live, obs.honours, obs) == outs(
                    hand, action, live, obs.honours, obs
                )
            else:
                assert not calls[0]
                after = discard_values(
                    hand, obs.unseen(), obs.honours, obs.rules.set_size, None, extra
                )
                assert after[k] == pytest.approx(after[action - DISCARD])
        elif SAMPEI in obs.legal:
            _check_going_out(obs, bot)
        elif (
            obs.phase == "discard"
            and obs.calls[seat] is not None
            and obs.drawn is not None
            and SAMPEI not in obs.legal
        ):
            _check_change(obs, bot)
        state.apply(bot.act(obs, rng), seat)


def _check_going_out(obs: SetsObservation, bot: Bot) -> None:
    """The model goes out where the heuristic does (a Chaqui chiqui go-out it may decline)."""
    hand = list(obs.hand)
    card = obs.claim_card if obs.phase == "claim" else obs.drawn
    assert card is not None
    if obs.phase != "claim":
        hand[card] -= 1
    goes = Solitaire(obs).completes(np.array([hand]), np.array([card]))[0]
    assert goes == (bot.act(obs, random.Random(0)) == SAMPEI)


def _check_change(obs: SetsObservation, bot: BalikHeuristicBot) -> None:
    """The model's play of a caller's drawn card is the heuristic's."""
    model = Solitaire(obs)
    seat = obs.seat
    drawn = obs.drawn
    assert drawn is not None
    hand = list(obs.hand)
    hand[drawn] -= 1
    fixed = list(obs.melds[seat]) if obs.melds else [0] * 30
    call = CEKI if obs.calls[seat] == "ceki" else TAN
    extra = bot.extra(obs.rules)
    throw, wait = model.change(hand, drawn, fixed, call, None, extra)
    action = bot.act(obs, random.Random(0))
    kind = (action - DISCARD) % 30
    if action >= CALL_TAN:
        assert throw == kind and wait is not None and wait.call == "tan"
    else:
        after = discard_values(obs.hand, obs.unseen(), obs.honours, obs.rules.set_size, None, extra)
        assert after[throw] == pytest.approx(after[kind])
        assert (wait is None) == (throw == drawn)


def _model(players: int = 4) -> Solitaire:
    game = find_game("balik-satu")
    return Solitaire(game.new_state(players=players, seed=1).observation(0))


def _row(text: str) -> np.ndarray:
    return np.array([counts_of(parse_cards(text))])


CEKI_HAND = "S2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 M8 M8"  # the source's ceki hand, on M8


def test_a_caller_claims_the_first_winning_card_anybody_draws() -> None:
    model = _model()
    m8 = parse_card("M8")
    waits = np.zeros((1, 30), dtype=bool)
    waits[0, m8] = True
    stream = np.array([parse_cards("C1 S4 M8 C5 C9 M8 S1 S1")])
    # the seat draws at turns 3, 7...: M8 at turn 2 is another seat's draw, claimed (ayam)
    when, hand, card, own, call = model.chances(
        _row(CEKI_HAND), waits, np.array([True]), np.zeros(30, int), stream, 3, 4
    )
    assert when[0] == 2.25 and card[0] == m8 and not own[0] and call[0] == CEKI
    assert hand[0, m8] == 3
    # the seat drawing at turns 1, 5...: the M8 at turn 5 is its own (kandang), and comes
    # just before anybody's claim on the same turn
    stream = np.array([parse_cards("C1 S4 C4 C5 C9 M8 S1 S1")])
    when, _hand, _card, own, _call = model.chances(
        _row(CEKI_HAND), waits, np.array([True]), np.zeros(30, int), stream, 1, 4
    )
    assert when[0] == 4.75 and own[0]


def test_an_uncalled_hand_draws_calls_and_then_claims() -> None:
    """Not yet called, the seat sees only its own draws; once a draw lets it call, every
    later draw can be claimed."""
    model = _model()
    waits = np.zeros((1, 30), dtype=bool)
    # the seat draws at turns 0, 4, 8...: C1 is thrown; M8 at turn 4 makes four sets and an
    # M8 pair, so it throws C9 and calls ceki; the M8 another seat draws at turn 6 is its
    hand = "S2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 M8 C9"
    stream = np.array([parse_cards("C1 S4 C4 C5 M8 M9 M8 S1 C2 C2 C2 C2")])
    when, final, _card, own, call = model.chances(
        _row(hand), waits, np.array([False]), np.zeros(30, int), stream, 0, 4
    )
    assert call[0] == CEKI and when[0] == 6.25 and not own[0]
    assert final[0].tolist() == counts_of(parse_cards(CEKI_HAND + " M8"))
    # a hand that never meets a useful card has no chance
    stream = np.array([parse_cards("C4 C4 C4 C4 C4 C4 C4 C4")])
    when, _f, _c, _o, call = model.chances(
        _row(hand), waits, np.array([False]), np.zeros(30, int), stream, 0, 4
    )
    assert when[0] == NEVER and call[0] == NO_CALL


def test_an_uncalled_hand_goes_out_on_its_own_draw() -> None:
    model = _model()
    hand = "S2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 M8 M8"
    waits = np.zeros((1, 30), dtype=bool)
    stream = np.array([parse_cards("M8 C1 C1 C1")])
    when, _f, card, own, call = model.chances(
        _row(hand), waits, np.array([False]), np.zeros(30, int), stream, 0, 4
    )
    assert when[0] == -0.25 and own[0] and card[0] == parse_card("M8") and call[0] == NO_CALL


def test_a_nokang_caller_keeps_a_drawn_card_that_makes_its_bak() -> None:
    """Tantanan: a tan nokang caller on C7 (pairs C3 S3 and C5 M5, no bak) draws M5 at its
    own turn. It keeps it (a bak M5 M5, a mata-only change, R-CHANGE) for C5, the lowest of
    the two changes (C7 would leave C5 M5 M5 waiting on the 5s), and now waits tan kowah on
    every 7, so the S7 another seat draws next is its (metu)."""
    game = find_game("tantanan")
    model = Solitaire(game.new_state(seed=1).observation(0))
    hand = counts_of(parse_cards("C3 S3 C5 M5 C7"))
    throw, wait = model.change(hand, parse_card("M5"), [0] * 30, CEKI)
    assert throw == parse_card("C5") and wait is not None and wait.call == "tan"
    assert parse_card("S7") in wait.cards and parse_card("M7") in wait.cards
    # a card that makes no bak is thrown
    assert model.change(hand, parse_card("C9"), [0] * 30, CEKI) == (parse_card("C9"), None)
    waits = np.zeros((1, 30), dtype=bool)
    waits[0, parse_card("C7")] = True
    stream = np.array([parse_cards("C9 M5 S7 C1 C1 C1 C1 C1")])
    # the seat draws at turns 1, 5...: M5 at turn 1, S7 at turn 2 by the next seat
    when, final, card, own, call = model.chances(
        _row("C3 S3 C5 M5 C7"), waits, np.array([True]), np.zeros(30, int), stream, 1, 4
    )
    assert when[0] == 2.25 and card[0] == parse_card("S7") and not own[0]
    assert call[0] == TAN
    assert final[0].tolist() == counts_of(parse_cards("C3 S3 M5 M5 C7 S7"))
    # with the hand frozen (caller_changes none) the S7 passes, and nothing else comes
    model.changes = False
    when, *_ = model.chances(
        _row("C3 S3 C5 M5 C7"), waits, np.array([True]), np.zeros(30, int), stream, 1, 4
    )
    assert when[0] == NEVER


@pytest.mark.parametrize(("name", "keeps"), [("chot", True), ("gonggong", False)])
def test_the_search_seat_keeps_a_ceki_call_where_a_ceki_win_pays_more(
    name: str, keeps: bool
) -> None:
    """The source's ceki hand on M8 draws M2, which would make M2 M2 M2 and a tan call on
    every 8. The heuristic always changes. The search's own seat (the judge) changes only
    when the wait's live outs times what a win pays are no less: not in Chot, where a ceki
    win takes ten-point tokens (it makes the mata and keeps ceki, still waiting on M8 alone,
    as [000] R-CHANGE allows), but in Gonggong, which pays no calling bonus."""
    game = find_game(name)
    state = game.new_state(seed=1)
    model = Solitaire(state.observation(0))
    turned = tuple(parse_cards("C2 C4 C4 C4 C5 C5 C5 C9 C9 C9 S1 S1 S1 S4 S4"))
    judge = CallJudge(model, _Points(state, 0, [turned]), 4)
    hand = counts_of(parse_cards(CEKI_HAND))
    m2, s2 = parse_card("M2"), parse_card("S2")
    throw, wait = model.change(hand, m2, [0] * 30, CEKI)
    assert throw == s2 and wait is not None and wait.call == "tan"
    throw, wait = model.change(hand, m2, [0] * 30, CEKI, judge)
    if keeps:
        assert throw == s2 and wait is not None and wait == Wait("ceki", (parse_card("M8"),))
    else:
        assert throw == s2 and wait is not None and wait.call == "tan"
    # in the seat's rollouts: M2 at its own turn, then S8 (a tan win only), then M8
    waits = np.zeros((1, 30), dtype=bool)
    waits[0, parse_card("M8")] = True
    stream = np.array([parse_cards("M2 S8 C1 C1 M8 C1 C1 C1")])
    when, _final, card, _own, call = model.chances(
        _row(CEKI_HAND), waits, np.array([True]), np.zeros(30, int), stream, 0, 4, judge
    )
    if keeps:
        assert when[0] == 4.0 - 0.25 and card[0] == parse_card("M8") and call[0] == CEKI
    else:
        assert when[0] == 1.25 and card[0] == parse_card("S8") and call[0] == TAN


def test_race_value_weighs_points_by_the_chance_nobody_went_out_first() -> None:
    # four futures of the others: out at turns 5 and 9 (costing 6 and 10), never in two
    race = _Race(np.array([5.0, 9.0, NEVER, NEVER]), np.array([-6.0, -10.0, 0.0, 0.0]))
    value = race(np.array([3.0, 7.0, 12.0, NEVER]), np.array([20.0, 20.0, 20.0, 0.0]))
    assert value.tolist() == pytest.approx(
        [20.0, (3 * 20.0 - 6.0) / 4, (2 * 20.0 - 16.0) / 4, -16.0 / 4]
    )


@pytest.mark.parametrize("name", ["balik-satu", "balik-lima-belas", "chaqui", "chot"])
def test_race_search_values_every_candidate_in_every_future(name: str) -> None:
    from cherki.bots.race import RaceSearch

    game = find_game(name)
    bot = SearchBot(name, budget_ms=None, iterations=1)
    state = game.new_state(seed=3)
    obs = state.observation(state.current)
    cands = bot._candidates(obs, list(obs.legal), random.Random(1))
    values = RaceSearch(bot.heuristic, batch=32).values(  # type: ignore[arg-type]
        obs, cands, random.Random(1), game, None, 32, 1
    )
    assert set(values) == set(cands)
    assert all(len(v) == 32 for v in values.values())
    assert all(np.isfinite(v).all() for v in values.values())
