"""Ceki rules: action ids, phases, option values, presets and scoring helpers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from cherki.core.cards import (
    N_KINDS,
    RANK,
)
from cherki.core.events import JSON
from cherki.core.options import Option, Preset, Rules
from cherki.core.sets import HONOUR_RULES, group_totals

# -- action ids -------------------------------------------------------------------------------
DRAW: Final = 0
TAKE: Final = 1
WIN: Final = 2
CALL: Final = 3  # call ceki at the start of a turn, without discarding
DISCARD: Final = 4  # DISCARD + kind
CALL_DISCARD: Final = DISCARD + N_KINDS  # discard and call ceki
NUM_ACTIONS: Final = CALL_DISCARD + N_KINDS

# -- phases -----------------------------------------------------------------------------------
PHASE_DRAW: Final = 0
PHASE_DISCARD: Final = 1
PHASE_OVER: Final = 2
PHASE_NAMES: Final = ("draw", "discard", "over")

FROM_NONE: Final = 0
FROM_STOCK: Final = 1
FROM_DISCARD: Final = 2

HAND_SIZE: Final = 8
HALF_PACKS: Final = 4

#: What each card adds to a set: its value, honours 1 [003].
VALUE: Final[tuple[int, ...]] = RANK

MULTIPLIERS: Final[dict[str, int]] = {"plain": 1, "double": 2, "triple": 3}

#: Ceki's rule options, each with its source [003].
CEKI_OPTIONS: Final = (
    Option(
        "honours",
        "own",
        "honours in sets: only alike (own), with the 1s (rank1), WF and RF with the 1s (frames)",
        "[003]",
        choices=HONOUR_RULES,
        title="Honours (WF, RF, OT) in sets",
    ),
    Option(
        "must_call_to_win",
        True,
        "a player must have called ceki to win",
        "[003]",
        title="Must call ceki to win",
    ),
    Option(
        "payment",
        "each",
        "each other seat pays the winner's score (each), or they share it (total)",
        "ours ([003] does not say)",
        choices=("each", "total"),
        title="Who pays the winner",
    ),
    Option(
        "cents_per_point",
        10,
        "money a point is worth, in cents",
        "ours: [003] names no rate; the Singapore cents of [000] R-PAY and [002] R-PAY",
        minimum=0,
        title="Money a point (cents)",
        money=True,
    ),
    Option(
        "settlement",
        "per-hand",
        "settle after each hand, play to a total (target), or for a number of hands",
        "[003]",
        choices=("per-hand", "target", "hands"),
        title="When to settle",
    ),
    Option(
        "target_points",
        200,
        "the total a match is played to",
        "[003]",
        minimum=1,
        title="Total to play to",
    ),
    Option(
        "match_hands",
        10,
        "the hands a match of a number of hands lasts",
        "[003]",
        minimum=1,
        title="Hands in a match",
    ),
    Option(
        "next_dealer",
        "rotate",
        "who deals next: the deal passes round (rotate), or the winner deals (winner)",
        "ours",
        choices=("rotate", "winner"),
        title="Who deals next",
    ),
)


@dataclass(frozen=True, slots=True)
class CekiRules(Rules):
    """Every rule option of Ceki (see the module docstring)."""

    honours: str = "own"
    must_call_to_win: bool = True
    payment: str = "each"
    cents_per_point: int = 10
    settlement: str = "per-hand"
    target_points: int = 200
    match_hands: int = 10
    next_dealer: str = "rotate"

    def to_json(self) -> dict[str, JSON]:
        return {f: getattr(self, f) for f in self.__dataclass_fields__}


def _preset(name: str, desc: str, *, title: str, rules: CekiRules | None = None) -> Preset:
    rules = rules or CekiRules()
    rules.check()
    return Preset(name, rules, desc, "[003] Ceki (or Kowah)", title=title)


CEKI_PRESETS: Final = (
    _preset(
        "standard",
        "Ceki as [003] describes it, settled after each hand at 10¢ a point",
        title="Settle after each hand",
    ),
    _preset(
        "target",
        "Ceki played to an agreed total (200 points) [003]",
        title="Play to an agreed total",
        rules=CekiRules(settlement="target"),
    ),
    _preset(
        "hands",
        "Ceki played for a given number of hands (10), the highest total winning [003]",
        title="Play a number of hands",
        rules=CekiRules(settlement="hands"),
    ),
)


def couple_group(
    hand: Sequence[int], grouping: Sequence[int], totals: Sequence[int] | None = None
) -> int:
    """The value group of the couple when ``hand`` (8 cards) is two sets and a couple, else -1
    (``totals``: the hand's cards per group, when the caller has them)."""
    if totals is None:
        totals = group_totals(hand, grouping)
    if sum(totals) != HAND_SIZE:
        return -1
    open_group = -1
    for g, t in enumerate(totals):
        r = t % 3
        if r == 0:
            continue
        if r == 1 or open_group >= 0:
            return -1
        open_group = g
    return open_group


def couple_discards(
    hand: Sequence[int], grouping: Sequence[int], totals: Sequence[int] | None = None
) -> set[int]:
    """The value groups a card may be discarded from so that the 8 cards left are two sets
    and a couple (``couple_group`` of each, found from one count of the 9-card hand;
    ``totals``: its cards per group, when the caller has them)."""
    if totals is None:
        totals = group_totals(hand, grouping)
    if sum(totals) != HAND_SIZE + 1:
        return set()
    # the 8 cards left must have one group one card over a set (residue 2), every other a
    # whole number of sets: a card taken from a group of residue 0 leaves it at 2, so either
    # every group of the 9 is whole (any group with a card will do), or exactly one group is
    # at 1 (the card goes from it) and one at 2 (the couple)
    ones = twos = 0
    one = -1
    for g, t in enumerate(totals):
        r = t % 3
        if r == 1:
            ones += 1
            one = g
        elif r == 2:
            twos += 1
    if ones == twos == 0:
        return {grouping[k] for k, c in enumerate(hand) if c}
    if ones == twos == 1:
        return {one}
    return set()


def hand_points(hand: Sequence[int]) -> int:
    """The sum of the card values of a hand (every card of a winning hand is in a set)."""
    return sum(VALUE[k] * c for k, c in enumerate(hand))
