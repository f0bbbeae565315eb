"""Property tests over thousands of random Balik games.

Players pick random legal actions from a seeded ``random.Random``, leaning (by a random
amount) towards winning, calling and discarding lone cards so that calls, claims and wins
happen as well as stock-outs. Players 2-8, every preset, honours rule and scoring.
"""

from __future__ import annotations

import random
from typing import Any

from conftest import LIMA, SATU, whole_shoe
from hypothesis import given, settings
from hypothesis import strategies as st
from relatives import check_state, run  # shared with the relatives' tests

from cherki.core.cards import N_KINDS
from cherki.core.deal import shoe_cards, shuffled
from cherki.core.sets import is_winning
from cherki.games.sets.state import SetsState
from cherki.play.records import Record, hand_record, parse_record, replay_hand

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


# -- cards conserved, payments zero-sum, results consistent ------------------------------------
@settings(max_examples=900, deadline=None)
@given(setups())
def test_random_games_conserve_cards_and_pay_zero_sum(s: dict[str, Any]) -> None:
    state, rng = start(s)
    check_state(state)
    for _ in run(state, rng, s["skill"]):
        check_state(state)
    check_result(state)


# -- record replay -----------------------------------------------------------------------------
@settings(max_examples=500, deadline=None)
@given(setups())
def test_records_replay_exactly(s: dict[str, Any]) -> None:
    state, rng = start(s)
    for _ in run(state, rng, s["skill"]):
        pass
    rec = Record(state.game, state.rules, [f"P{i}" for i in range(state.n)], preset=s["preset"])
    rec.hands.append(hand_record(state))
    again = parse_record(rec.dumps())
    assert again.rules == state.rules and again.game is state.game
    replayed = replay_hand(again)
    assert replayed.result == state.result
    assert replayed.result.to_json() == state.result.to_json()
    assert replayed.history == state.history
    assert replayed.hands == state.hands
    # the record's JSON is stable through a second round trip
    assert parse_record(again.dumps()).hands[0] == again.hands[0]


# -- hidden information ------------------------------------------------------------------------
def _hidden(state: SetsState, seat: int) -> list[int]:
    return [state.hands[seat][k] - state.exposed[seat][k] for k in range(N_KINDS)]


def _scramble(state: SetsState, seat: int, rng: random.Random) -> SetsState | None:
    """A clone where the cards ``seat`` cannot see are shuffled among their places:
    other seats' unexposed cards and the unplayed stock. None if nothing can move."""
    c = state.clone()
    c.stock = list(c.stock)
    places: list[tuple[str, int]] = []
    cards: list[int] = []
    for t in range(c.n):
        if t == seat:
            continue
        for k, cnt in enumerate(_hidden(c, t)):
            for _ in range(cnt):
                places.append(("hand", t))
                cards.append(k)
    for i in range(c.pos, len(c.stock)):
        places.append(("stock", i))
        cards.append(c.stock[i])
    if len(set(cards)) < 2:
        return None
    new = cards[:]
    rng.shuffle(new)
    for t in range(c.n):
        if t != seat:
            for k in range(N_KINDS):
                c.hands[t][k] = c.exposed[t][k]
    for (where, i), k in zip(places, new, strict=True):
        if where == "hand":
            c.hands[i][k] += 1
        else:
            c.stock[i] = k
    return c


@settings(max_examples=300, deadline=None)
@given(setups())
def test_observations_hide_other_seats_cards(s: dict[str, Any]) -> None:
    state, rng = start(s)
    check_rng = random.Random(s["seed"] ^ 0x5EED)
    for _ in run(state, rng, s["skill"]):
        if check_rng.random() > 0.15 and not state.is_terminal:
            continue
        for seat in range(state.n):
            obs = state.observation(seat)
            assert list(obs.hand) == state.hands[seat]
            assert obs.drawn is None or seat == state.current
            assert obs.legal == (tuple(state.legal_actions(seat)) if seat == state.current else ())
            # what the seat has not seen is exactly the others' unexposed cards and the stock
            unseen = [0] * N_KINDS
            for t in range(state.n):
                if t != seat:
                    for k, c in enumerate(_hidden(state, t)):
                        unseen[k] += c
            for k in state.stock[state.pos :]:
                unseen[k] += 1
            assert obs.unseen() == unseen
            # private draws of other seats are hidden in the seat's log
            for e in state.events_for(seat):
                if e.private_to not in (-1, seat):
                    assert e.card is None
                if e.kind == "draw":
                    assert e.private_to == e.seat
            # the observation is the same whatever the hidden cards are
            if not state.is_terminal:
                other = _scramble(state, seat, check_rng)
                if other is not None:
                    assert other.observation(seat) == obs
                    assert whole_shoe(other) == whole_shoe(state)


# -- clone independence ------------------------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(setups(), st.floats(0.0, 1.0))
def test_clone_is_independent_and_deterministic(s: dict[str, Any], where: float) -> None:
    state, rng = start(s)
    stop = int(where * 150)
    for i, _ in enumerate(run(state, rng, s["skill"])):
        if i >= stop:
            break
    copy = state.clone()
    frozen = (
        [state.observation(i) for i in range(state.n)],
        [h[:] for h in state.hands],
        state.log[:],
        state.history[:],
        state.stock[:],
    )
    # play the copy to the end with its own choices
    copy_rng = random.Random(s["seed"] + 1)
    for _ in run(copy, copy_rng, s["skill"]):
        pass
    assert copy.is_terminal
    assert frozen == (
        [state.observation(i) for i in range(state.n)],
        [h[:] for h in state.hands],
        state.log,
        state.history,
        state.stock,
    )
    # the original replays the copy's actions to the same end
    for seat, action in copy.history[len(state.history) :]:
        state.apply(action, seat=seat)
    assert state.result == copy.result
