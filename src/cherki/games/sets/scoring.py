"""What the scoring methods of the games of sets share: the winning hand as every win
reports it, each-pays results and bounds. The methods themselves are each game's (its
module registers them in :data:`~cherki.games.sets.rules.SCORING`)."""

from __future__ import annotations

from functools import lru_cache

from cherki.core.events import JSON, Result, ScoreItem, WinningHand
from cherki.core.sets import (
    GROUPINGS,
    arrangement,
)
from cherki.games.sets.rules import (
    SCORING,
    ScoredHand,
    ScoringMethod,
    SetsRules,
    Win,
    register_scoring,
)

__all__ = [
    "SCORING",
    "ScoringMethod",
    "Win",
    "each_pays",
    "each_pays_bounds",
    "mata_points",
    "register_scoring",
    "win_result",
    "winning_hand",
]


@lru_cache(maxsize=4096)
def _sets(hand: tuple[int, ...], honours: str, size: int) -> tuple[tuple[int, ...], ...]:
    """The sets of a winning hand's best arrangement, kept per hand: the variant bot scores
    the same hypothetical wins many times a decision (and the engine once a hand)."""
    return tuple(tuple(x) for x in arrangement(hand, GROUPINGS[honours], size).sets)


def winning_hand(state: ScoredHand, win: Win) -> WinningHand:
    """The winner's hand as every win reports it (see docs/records.md)."""
    hand = tuple(win.hand)
    return WinningHand(
        hand=hand,
        sets=_sets(hand, state.rules.honours, state.size),
        call=win.call,
        call_changed=win.call_changed,
        card=win.card if win.card >= 0 else None,
        from_seat=win.from_seat,
        turned=tuple(win.scoring),
    )


def mata_points(rules: SetsRules) -> int:
    """The most the mata (or bak) of a winning hand can score at 1 each, 2 a red one: at most
    three are red (identical S9, RF or OT), the others plain."""
    red = min(3, rules.sets)
    return 2 * red + (rules.sets - red)


def each_pays_bounds(most: int, players: int) -> tuple[int, int]:
    """Payments when each other seat pays the winner a total of at most ``most``."""
    return -most, most * (players - 1)


def each_pays(n: int, winner: int, total: int) -> tuple[int, ...]:
    """Every other seat pays the winner ``total``."""
    return tuple(total * (n - 1) if t == winner else -total for t in range(n))


def win_result(
    state: ScoredHand,
    win: Win,
    items: list[ScoreItem],
    detail: dict[str, JSON] | None = None,
    *,
    multiplier: int = 1,
) -> Result:
    """The usual result: the items summed (times ``multiplier``), each other seat paying it."""
    subtotal = sum(i.points for i in items)
    if multiplier != 1:
        items.append(ScoreItem("kandang-tangan", 0, multiplier))
    total = subtotal * multiplier
    payments = each_pays(state.n, win.seat, total)
    money = tuple(p * state.rules.cents_per_point for p in payments)
    return Result(
        win.seat,
        win.how,
        tuple(items),
        total,
        payments,
        money,
        win=winning_hand(state, win),
        detail=detail or {},
    )
