"""Shared checks for the Balik relatives (Gonggong, Tantanan, Cekèn, Chaqui, Chot): random
play with a lean towards winning, and the invariants every hand must keep."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from conftest import detail

from cherki.core.cards import N_KINDS
from cherki.core.deal import shoe_cards, shuffled
from cherki.core.events import Result
from cherki.core.sets import group_totals
from cherki.games.sets.actions import CALL_TAN, DISCARD, PHASE_DISCARD, SAMPEI
from cherki.games.sets.balik import BalikGame
from cherki.games.sets.scoring import SCORING
from cherki.games.sets.state import SetsState
from cherki.play.records import Record, hand_record, parse_record, replay_hand


def whole_shoe(state: Any) -> list[int]:
    """Every card in play, from the state's own invariant view."""
    counts: list[int] = state.card_counts()
    return counts


def start(
    game: BalikGame,
    preset: str,
    seed: int,
    how: str = "seed",
    players: int | None = None,
    context: dict[str, Any] | None = None,
    **options: Any,
) -> tuple[SetsState, random.Random]:
    rng = random.Random(seed)
    rules = game.rules(preset, **options)
    n = players if players is not None else game.default_players
    first = rng.randrange(n)
    if how == "seed":
        state = game.new_state(rules, n, seed=seed, first=first, context=context)
    elif how == "shoe":
        state = game.new_state(rules, n, rng=rng, first=first, context=context)
    else:
        order = shuffled(shoe_cards(rules.shoe_half_packs(n)), rng)
        each = rules.hand_size - 1
        hands = []
        for seat in range(n):
            size = each + 1 if (seat == first and rules.starter_extra) else each
            hands.append(order[:size])
            order = order[size:]
        top = order[: rng.randrange(5)]
        state = game.new_state(
            rules, n, stack=(hands, top), seed=seed, first=first, context=context
        )
    return state, rng


def pick(state: SetsState, rng: random.Random, skill: float) -> int:
    legal = state.legal_actions()
    assert legal, "a seat is to act but has no legal action"
    if SAMPEI in legal and rng.random() < skill:
        return SAMPEI
    calls = [a for a in legal if a >= CALL_TAN]
    if calls and rng.random() < skill:
        return rng.choice(calls)
    if state.phase == PHASE_DISCARD and rng.random() < skill:
        size = state.size
        totals = group_totals(state.hands[state.current], state.grouping)
        lone = [
            a
            for a in legal
            if DISCARD <= a < CALL_TAN
            and totals[state.grouping[a - DISCARD]] % size != size - 1
            and state.hands[state.current][a - DISCARD] < size - 1 + (size == 2)
        ]
        if lone:
            return rng.choice(lone)
    return rng.choice(legal)


def run(state: SetsState, rng: random.Random, skill: float) -> Iterator[SetsState]:
    while not state.is_terminal:
        state.apply(pick(state, rng, skill))
        yield state


def check_state(state: SetsState) -> None:
    """Cards conserved, hand sizes right, exposed and melded cards within the hands."""
    assert whole_shoe(state) == [state.half_packs] * N_KINDS
    full = state.rules.hand_size
    for seat, hand in enumerate(state.hands):
        assert min(hand) >= 0
        holding = state.phase == PHASE_DISCARD and seat == state.current
        assert sum(hand) == (full if holding else full - 1) or state.is_terminal
        known = zip(state.melded[seat], state.exposed[seat], hand, strict=True)
        assert all(m <= e <= h for m, e, h in known)
    if not state.is_terminal:
        assert state.legal_actions()
        assert state.pos <= len(state.stock) - state.rules.reserve


def check_result(state: SetsState) -> Result:
    """Payments zero-sum counting the pot; money at the rules' rate."""
    r = state.result
    n = state.n
    assert len(r.payments) == len(r.money) == n
    assert sum(r.payments) + r.pot_change == 0
    if SCORING[state.rules.scoring].money:
        assert r.money == tuple(p * state.rules.cents_per_point for p in r.payments)
    else:
        assert r.money == (0,) * n
    if not SCORING[state.rules.scoring].pot:
        assert "pot_change" not in r.detail
        assert sum(r.payments) == 0
    else:
        pot = detail(r)["pot"]
        assert pot["after"] >= 0 and pot["after"] - pot["before"] == detail(r)["pot_change"]
    if r.winner is not None:
        assert state._wins(state.hands[r.winner])
    return r


def check_observations(state: SetsState, rng: random.Random) -> None:
    """No seat's observation depends on a card it cannot see; unseen() is exact."""
    for seat in range(state.n):
        obs = state.observation(seat)
        assert list(obs.hand) == state.hands[seat]
        unseen = [0] * N_KINDS
        for t in range(state.n):
            if t != seat:
                for k in range(N_KINDS):
                    unseen[k] += state.hands[t][k] - state.exposed[t][k]
        for k in state.stock[state.pos :]:
            unseen[k] += 1
        assert obs.unseen() == unseen
        for e in state.events_for(seat):
            if e.private_to not in (-1, seat):
                assert e.card is None
        other = scramble(state, seat, rng)
        if other is not None:
            assert other.observation(seat) == obs


def scramble(state: SetsState, seat: int, rng: random.Random) -> SetsState | None:
    """A clone with the cards ``seat`` cannot see shuffled among their places."""
    if state.is_terminal:
        return None
    c = state.clone()
    c.stock = list(c.stock)
    places: list[tuple[str, int]] = []
    cards: list[int] = []
    for t in range(c.n):
        if t == seat:
            continue
        for k in range(N_KINDS):
            for _ in range(c.hands[t][k] - c.exposed[t][k]):
                places.append(("hand", t))
                cards.append(k)
    for i in range(c.pos, len(c.stock)):
        places.append(("stock", i))
        cards.append(c.stock[i])
    if len(set(cards)) < 2:
        return None
    rng.shuffle(cards)
    for t in range(c.n):
        if t != seat:
            c.hands[t] = list(c.exposed[t])
    for (where, i), k in zip(places, cards, strict=True):
        if where == "hand":
            c.hands[i][k] += 1
        else:
            c.stock[i] = k
    return c


def check_determinize(state: SetsState, rng: random.Random) -> None:
    """The search bots' sampled deal offers exactly the seat's legal actions."""
    seat = state.current
    obs = state.observation(seat)
    world = state.game.determinize(obs, rng)
    assert sorted(world.legal_actions(seat)) == sorted(obs.legal)
    assert world.observation(seat).hand == obs.hand


def check_replay(state: SetsState, preset: str) -> None:
    rec = Record(state.game, state.rules, [f"P{i}" for i in range(state.n)], preset=preset)
    rec.hands.append(hand_record(state))
    again = parse_record(rec.dumps())
    assert again.rules == state.rules and again.game is state.game
    replayed = replay_hand(again)
    assert replayed.result.to_json() == state.result.to_json()
    assert replayed.history == state.history


def play_and_check(
    game: BalikGame, preset: str, seed: int, how: str, skill: float, **options: Any
) -> SetsState:
    """One random hand with every check at every step."""
    state, rng = start(game, preset, seed, how, **options)
    check_rng = random.Random(seed ^ 0x5EED)
    check_state(state)
    while not state.is_terminal:
        check_determinize(state, check_rng)
        if check_rng.random() < 0.1:
            check_observations(state, check_rng)
        state.apply(pick(state, rng, skill))
        check_state(state)
    check_result(state)
    check_replay(state, preset)
    return state


def stacked(
    game: BalikGame,
    hands: list[str],
    stock: str = "",
    rules: str | None = None,
    first: int = 0,
    context: dict[str, Any] | None = None,
    **options: Any,
) -> SetsState:
    """A stacked deal (hands in seat order, the top of the stock in draw order), with an
    optional match context."""
    from cherki.core.cards import parse_cards

    r = game.rules(rules, **options)
    return game.new_state(
        r,
        len(hands),
        stack=([parse_cards(h) for h in hands], parse_cards(stock)),
        first=first,
        context=context,
    )
