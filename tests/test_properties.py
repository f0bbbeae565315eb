"""Property tests over thousands of random Balik games.

Players pick random legal actions from a seeded ``random.Random``, leaning (by a random
amount) towards winning, calling and discarding lone cards so that calls, claims and wins
happen as well as stock-outs. Players 2-8, every preset, honours rule and scoring.
"""

from __future__ import annotations

import random
from typing import Any

from conftest import LIMA, SATU
from hypothesis import given, settings
from hypothesis import strategies as st
from test_contract import check_hand

from cherki.core.deal import shoe_cards, shuffled
from cherki.core.sets import is_winning
from cherki.games.sets.state import SetsState

PRESETS = ("pwee", "babas", "gateway")


@st.composite
def setups(draw: Any) -> dict[str, Any]:
    return {
        "seed": draw(st.integers(0, 2**32 - 1)),
        "players": draw(st.integers(2, 8)),
        "game": draw(st.sampled_from((SATU, LIMA))),
        "preset": draw(st.sampled_from(PRESETS)),
        "honours": draw(st.sampled_from(("rank1", "frames", "own"))),
        "deal": draw(st.sampled_from(("rounds", "wash"))),
        "caller_changes": draw(st.sampled_from(("mata-only", "free", "none"))),
        "claim_priority": draw(st.sampled_from(("turn-order", "first-caller"))),
        "must_call_to_win": draw(st.booleans()),
        "small_shoe": draw(st.booleans()),
        "skill": draw(st.sampled_from((0.0, 0.5, 0.9, 1.0))),
        "start": draw(st.sampled_from(("seed", "shoe", "stack"))),
    }


def start(s: dict[str, Any]) -> tuple[SetsState, random.Random]:
    game, n = s["game"], s["players"]
    rng = random.Random(s["seed"])
    options = {
        k: s[k] for k in ("honours", "deal", "caller_changes", "claim_priority", "must_call_to_win")
    }
    if s["small_shoe"]:  # the smallest playable shoe: short games, stock-outs
        options["half_packs"] = -(-(14 * n + 1 + (15 if game is LIMA else 1) + 2) // 30)
    rules = game.rules(s["preset"], **options)
    first = rng.randrange(n)
    if s["start"] == "seed":
        state = game.new_state(rules, n, seed=s["seed"], first=first)
    elif s["start"] == "shoe":
        state = game.new_state(rules, n, rng=rng, first=first)  # recorded as a shoe
    else:
        order = shuffled(shoe_cards(rules.shoe_half_packs(n)), rng)
        hands = []
        for seat in range(n):
            size = 15 if seat == first else 14
            hands.append(order[:size])
            order = order[size:]
        top = order[: rng.randrange(5)]
        state = game.new_state(rules, n, stack=(hands, top), seed=s["seed"], first=first)
    assert isinstance(state, SetsState)
    return state, rng


def check_result(state: SetsState) -> None:
    r = state.result
    n = state.n
    assert len(r.payments) == len(r.money) == n
    assert sum(r.payments) == 0
    assert r.money == tuple(p * state.rules.cents_per_point for p in r.payments)
    if r.winner is None:
        assert r.payments == (0,) * n and r.how in ("stock-out", "yeo")
        assert r.redeal is (r.how == "yeo")
        assert state.next_first() == state.first
        return
    w = r.winner
    assert is_winning(state.hands[w], state.grouping)
    mult = 1
    for item in r.items:
        mult *= item.multiplier
    assert r.total == sum(i.points for i in r.items) * mult
    assert r.total >= 2  # a turned card (or the win) plus at least one mata
    assert r.payments == tuple(r.total * (n - 1) if s == w else -r.total for s in range(n))
    if r.how == "claim":
        assert state.calls[w] is not None
    if state.rules.must_call_to_win and r.how != "kandang-tangan":
        assert state.calls[w] is not None


# -- the contract, and Balik's scoring, over every option --------------------------------------
@settings(max_examples=150, deadline=None)
@given(setups())
def test_random_hands_keep_the_contract_and_score_as_the_rules_say(s: dict[str, Any]) -> None:
    """The conformance suite's checks at every step (cards conserved, zero-sum, hidden cards,
    clones, records) over Balik Satu's and Lima Belas's options, then the result's own
    rules."""
    state, _ = start(s)
    check_hand(state, s["seed"], "random", preset=s["preset"], skill=s["skill"])
    check_result(state)
