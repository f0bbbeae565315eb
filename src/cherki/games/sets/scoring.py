"""Scoring methods of the games of sets: a registry of functions over a won hand."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from cherki.core.cards import (
    N_KINDS,
    OT,
    RANK,
    RF,
    S9,
    WF,
)
from cherki.core.events import JSON, Result, ScoreItem, WinningHand
from cherki.core.sets import (
    GROUPINGS,
    arrangement,
)

if TYPE_CHECKING:
    from cherki.games.sets.rules import SetsRules
    from cherki.games.sets.state import SetsState


TURN_POINTS: Final[tuple[int, ...]] = tuple(
    {S9: 10, RF: 11, OT: 12}.get(k, RANK[k]) for k in range(N_KINDS)
)

YEO_CARDS: Final[dict[str, frozenset[int]]] = {
    "one-point": frozenset({0, 9, 18, WF}),
    "suited": frozenset({0, 9, 18}),
    "rank1": frozenset({0, 9, 18, WF, RF, OT}),
}


# -- scoring methods: a registry of functions, each with the stock reserve it needs -----------
@dataclass(frozen=True, slots=True)
class Win:
    """A won hand, as a scoring function sees it.

    ``how`` is ``self-draw`` (own stock draw), ``claim`` (another seat's shown draw),
    ``discard`` (another seat's discard, option ``discard_wins``) or ``kandang-tangan``
    (a winning hand as dealt). ``scoring`` are the stock cards kept back for scoring, in
    order (the turned card, or the fifteen drawn...).
    """

    seat: int
    how: str
    card: int
    from_seat: int
    hand: tuple[int, ...]
    call: str | None
    call_changed: bool
    scoring: tuple[int, ...]

    @property
    def self_drawn(self) -> bool:
        return self.how in ("self-draw", "kandang-tangan")

    @property
    def ceki_win(self) -> bool:
        """Won by completing the mata after calling ceki (not changed to tan): the ayam /
        kandang condition."""
        return (
            self.call == "ceki"
            and not self.call_changed
            and self.how in ("self-draw", "claim", "discard")
        )


@dataclass(frozen=True)
class ScoringMethod:
    """A way of scoring a won hand.

    ``score(state, win)`` returns the hand's :class:`Result`; ``reserve(rules)`` is how many
    stock cards are kept back for it. A ``pot`` method keeps a pot across the hands of a
    match: each seat stakes ``stake`` at the start of a hand that finds the pot empty, and
    the result's ``detail["pot_take"]`` is what the winner takes from it. ``money`` is false
    when a hand's points settle at match level only (Chot's tokens). ``ceki_bonus`` is true
    when a ceki win can score more than a tan win (ayam and kandang, R-BONUS; Chot's
    ten-point tokens, K-SCORE): the search bot then weighs a caller's change of call instead
    of always taking it. ``by_mata`` is true when a win scores a fixed amount per mata (Chaqui's
    olo, C-SCORING), so that a second mata is worth as much as the first. Neither changes a
    score: they tell the bots what the scoring function does.
    """

    name: str
    score: Callable[[SetsState, Win], Result]
    reserve: Callable[[SetsRules], int]
    description: str
    pot: bool = False
    money: bool = True
    ceki_bonus: bool = False
    by_mata: bool = False
    #: the least and most one seat's payment may be in a hand, from the rules and the number
    #: of players (the contract's ``payment_bounds``)
    bounds: Callable[[SetsRules, int], tuple[int, int]] = lambda r, n: each_pays_bounds(0, n)


#: Scoring methods by name. Balik Satu's are here; the relatives register theirs.
SCORING: dict[str, ScoringMethod] = {}


def register_scoring(method: ScoringMethod) -> ScoringMethod:
    SCORING[method.name] = method
    return method


@lru_cache(maxsize=4096)
def _sets(hand: tuple[int, ...], honours: str, size: int) -> tuple[tuple[int, ...], ...]:
    """The sets of a winning hand's best arrangement, kept per hand: the variant bot scores
    the same hypothetical wins many times a decision (and the engine once a hand)."""
    return tuple(tuple(x) for x in arrangement(hand, GROUPINGS[honours], size).sets)


def winning_hand(state: SetsState, win: Win) -> WinningHand:
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


def with_bonuses(rules: SetsRules, base: int) -> int:
    """The most a win scores: ``base`` plus the largest calling bonus, or ``base`` times the
    kandang tangan multiplier (which takes no calling bonus)."""
    bonus = max(rules.tan_bonus, rules.ayam_bonus, rules.kandang_bonus)
    return max(base + bonus, base * rules.kandang_tangan_multiplier)


def each_pays(n: int, winner: int, total: int) -> tuple[int, ...]:
    """Every other seat pays the winner ``total``."""
    return tuple(total * (n - 1) if t == winner else -total for t in range(n))


def win_result(
    state: SetsState,
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


def yeo_result(state: SetsState, win: Win, turned: int, detail: dict[str, JSON]) -> Result:
    """A win voided by a yeo turned card: no score, the hand is dealt again."""
    zero = (0,) * state.n
    return Result(
        None,
        "yeo",
        payments=zero,
        money=zero,
        redeal=True,
        win=winning_hand(state, win),
        would_be_winner=win.seat,
        detail=detail,
    )
