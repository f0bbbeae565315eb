"""Sampled deals respect the public record (issue 25): the exact group-count sampler of
``cherki.core.sample``, the waiting hands of ``cherki.games.sets.determinize`` and the
``record_faults`` checks that the conformance suite relies on (they must catch a broken
state, or the suite's check of every sampled deal would mean nothing)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from itertools import combinations

import pytest

from cherki import GAMES, State, make_bot
from cherki.core.cards import N_KINDS
from cherki.core.sample import OpenGroupSampler, group_ways
from cherki.core.sets import GROUP_KINDS, GROUPINGS, group_totals
from cherki.games.ceki.state import CekiState
from cherki.games.sets.calls import call_wait, keeps_call
from cherki.games.sets.determinize import sample_waiting
from cherki.games.sets.rules import SetsRules
from cherki.games.sets.state import SetsState


def test_group_ways_counts_every_hand_of_the_unseen_cards() -> None:
    """The dynamic programme's count equals a brute-force count over physical cards."""
    kinds_of = GROUP_KINDS["rank1"]
    grouping = GROUPINGS["rank1"]
    avail = [0] * N_KINDS
    for k in (0, 1, 3, 4, 12, 13, 21, 27):  # a few kinds of a few groups
        avail[k] = 2
    known = [0] * N_KINDS
    known[3] = 1
    cards = [k for k in range(N_KINDS) for _ in range(avail[k])]
    for need in (4, 5, 7):

        def allowed(g: int, t: int) -> bool:
            return t % 3 == (2 if g == 3 else 0)

        brute = 0
        for pick in combinations(range(len(cards)), need):
            hand = list(known)
            for i in pick:
                hand[cards[i]] += 1
            brute += all(allowed(g, t) for g, t in enumerate(group_totals(hand, grouping)))
        assert group_ways(avail, known, need, kinds_of, allowed)[0][need] == brute


def test_the_open_group_sampler_is_uniform_over_the_hands_it_allows() -> None:
    """Every allowed hand of a tiny pack comes out, in proportion to its physical ways."""
    kinds_of = GROUP_KINDS["own"]
    avail = [0] * N_KINDS
    for k in (0, 9, 18, 1):  # three kinds of rank 1, one of rank 2
        avail[k] = 2
    sampler = OpenGroupSampler(
        avail, [0] * N_KINDS, 2, kinds_of, lambda t: t % 3 == 2, lambda t: t % 3 == 0
    )
    rng = random.Random(1)
    seen = Counter(tuple(h) for h in (sampler.draw(rng) for _ in range(6000)) if h)
    # two cards of one group: C(6, 2) = 15 of rank 1, C(2, 2) = 1 of rank 2
    assert sampler.count == 16
    pairs = {h: c for h, c in seen.items() if max(h) == 2}
    assert len(seen) == 4 + 3  # 4 identical pairs (3 of rank 1), 3 mixed pairs of rank 1
    # an identical pair has one way in 16, a mixed pair four
    for h, c in seen.items():
        expect = 6000 * (1 if h in pairs else 4) / 16
        assert abs(c - expect) < 5 * expect**0.5, (h, c, expect)


@pytest.mark.parametrize(
    ("name", "call"),
    [(g, c) for g, game in GAMES.items() if game.family == "sets" for c in ("tan", "ceki")],
)
def test_waiting_hands_wait_under_their_call(name: str, call: str) -> None:
    game = GAMES[name]
    rules = game.rules()
    assert isinstance(rules, SetsRules)
    rng = random.Random(2)
    size = rules.set_size
    n_cards = rules.sets * size - 1
    found = 0
    for _ in range(40):
        avail = [rng.randint(0, 4) for _ in range(N_KINDS)]
        known = [0] * N_KINDS
        on = rng.choice([None, rng.randrange(N_KINDS)])
        hand, how = sample_waiting(avail, known, n_cards, rules, call, on, rng)
        if hand is None:
            assert how == "none"
            continue
        found += 1
        assert sum(hand) == n_cards and all(hand[k] <= avail[k] for k in range(N_KINDS))
        assert keeps_call(call, hand, rules)
        assert on is None or on in call_wait(call, hand, rules).cards
    assert found > 20


def _play_until(name: str, players: int, found: Callable[[State], bool], seed: int = 0) -> State:
    """A hand of ``name`` played by the heuristic bot up to the first state ``found`` likes."""
    game = GAMES[name]
    bot = make_bot(name, "heuristic")
    for s in range(seed, seed + 50):
        rng = random.Random(s)
        state = game.new_state(game.rules(), players, seed=s)
        while not state.is_terminal:
            if found(state):
                return state
            state.apply(bot.act(state.observation(state.current), rng), state.current)
    raise AssertionError("no such state in 50 hands")


@pytest.mark.parametrize("name", ["balik-satu", "tantanan", "chaqui"])
def test_record_faults_catch_a_caller_that_does_not_wait(name: str) -> None:
    def a_waiting_caller(st: State) -> bool:
        assert isinstance(st, SetsState)
        return any(c and t != st.current for t, c in enumerate(st.calls))

    state = _play_until(name, 3, a_waiting_caller)
    assert isinstance(state, SetsState) and state.record_faults() == []
    t = next(t for t, c in enumerate(state.calls) if c and t != state.current)
    hand = state.hands[t]
    # swap hidden cards until the hand waits no more (the shown cards stay)
    rng = random.Random(1)
    call = state.calls[t]
    assert call is not None
    while keeps_call(call, hand, state.rules):
        k = rng.choice([k for k in range(N_KINDS) if hand[k] > state.exposed[t][k]])
        hand[k] -= 1
        hand[rng.randrange(N_KINDS)] += 1
    assert any(f"seat {t} called" in f for f in state.record_faults())
    # and a seat without a card it showed
    state.exposed[t][0] = state.hands[t][0] + 1
    assert any("showed" in f for f in state.record_faults())


def test_record_faults_catch_a_ceki_caller_without_its_couple() -> None:
    def a_caller(st: State) -> bool:
        assert isinstance(st, CekiState)
        return any(c and t != st.current for t, c in enumerate(st.called))

    state = _play_until("ceki", 4, a_caller)
    assert isinstance(state, CekiState) and state.record_faults() == []
    t = next(t for t, c in enumerate(state.called) if c and t != state.current)
    laid = state.laid[t]
    g = next(state.grouping[k] for k in range(N_KINDS) if laid[k])
    hand = state.hands[t]
    # one laid card becomes a card of another group: no longer two sets and a couple
    k = next(k for k in range(N_KINDS) if laid[k])
    other = next(j for j in range(N_KINDS) if state.grouping[j] != g and not hand[j])
    hand[k] -= 1
    hand[other] += 1
    assert any(f"seat {t}" in f for f in state.record_faults())


@pytest.mark.parametrize(("name", "players"), [("tantanan", 3), ("balik-satu", 4), ("ceki", 4)])
def test_a_caller_to_discard_seen_by_another_seat_holds_its_drawn_card(
    name: str, players: int
) -> None:
    """The case behind most dead states: the seat to act has called and must throw the card
    it drew; another seat's sample must give it that card (and its hand must still wait)."""

    def caller_to_discard(st: State) -> bool:
        assert isinstance(st, SetsState | CekiState)
        calls = st.calls if isinstance(st, SetsState) else st.called
        return st.phase_name == "discard" and bool(calls[st.current])

    state = _play_until(name, players, caller_to_discard)
    game = GAMES[name]
    rng = random.Random(4)
    for seat in range(players):
        if seat == state.current:
            continue
        for _ in range(20):
            world = game.determinize(state.observation(seat), rng)
            assert isinstance(world, SetsState | CekiState)
            assert world.record_faults() == []
            assert world.legal_actions(world.current)
            assert world.drawn >= 0
