"""Shared helpers for the games of sets' tests: deals by seed, shoe or stack, and random hands
checked by the conformance suite (``test_contract.check_hand``) over a game's options."""

from __future__ import annotations

import random
from typing import Any

from test_contract import check_hand

from cherki.core.deal import shoe_cards, shuffled
from cherki.games.sets.game import SetsGame
from cherki.games.sets.state import SetsState


def whole_shoe(state: Any) -> list[int]:
    """Every card in play, from the state's own invariant view."""
    counts: list[int] = state.card_counts()
    return counts


def start(
    game: SetsGame,
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


def play_and_check(
    game: SetsGame, preset: str, seed: int, how: str, skill: float, **options: Any
) -> SetsState:
    """One random hand dealt ``how`` (seed, shoe or stack) with the conformance suite's
    checks at every step; ``skill`` is the share of moves the heuristic bot makes."""
    state, _ = start(game, preset, seed, how, **options)
    check_hand(state, seed, "random", preset=preset, skill=skill)
    return state


def stacked(
    game: SetsGame,
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
