"""Hand analysis for players and bots: does a hand win, its sets, what it waits on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from cherki.core.cards import (
    N_KINDS,
)
from cherki.core.sets import (
    GROUPINGS,
    NO_WAIT,
    arrangement,
    is_winning,
    wait_for,
)
from cherki.games.sets.rules import SetsRules


@dataclass(frozen=True, slots=True)
class HandReport:
    """Analysis of a hand for players and bots (``cherki hand``)."""

    cards: int
    winning: bool
    sets: tuple[tuple[int, ...], ...]
    leftover: tuple[int, ...]
    mata: int
    red_mata: int
    call: str | None
    waits: tuple[int, ...]
    discards_to_call: dict[int, tuple[str, tuple[int, ...]]] = field(default_factory=dict)


def analyse_under(
    counts: Sequence[int], rules: SetsRules, honours: str | None = None
) -> HandReport:
    """:func:`analyse_hand` under a game's ``rules`` (its honours unless ``honours`` is
    given, its sets, and whether a pair goes out): the analysis the hints, the web page and
    ``cherki hand`` show, from the game's own rules rather than options re-read."""
    return analyse_hand(
        counts,
        honours or rules.honours,
        size=rules.set_size,
        sets=rules.sets,
        chiqui=rules.goes_out_on_pair,
    )


def arranged_under(
    counts: Sequence[int], rules: SetsRules
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], bool]:
    """The part of :func:`analyse_under` a seat's hand on the page shows (its best
    arrangement's sets and leftover, and whether it wins), without what it waits on or
    may call: the server words it at every change of a seat's hand (issue 41)."""
    grouping = GROUPINGS[rules.honours]
    size = rules.set_size
    arr = arrangement(counts, grouping, size)
    winning = sum(counts) == size * rules.sets and is_winning(
        list(counts), grouping, size=size, chiqui=rules.goes_out_on_pair
    )
    return arr.sets, arr.leftover, winning


def analyse_hand(
    counts: Sequence[int],
    honours: str = "rank1",
    *,
    size: int = 3,
    sets: int = 5,
    chiqui: bool = False,
) -> HandReport:
    """Whether a hand wins, its best arrangement, what it waits on, and what it may call.

    A full hand is ``sets`` sets of ``size`` cards (15 in Balik Satu, 6 in Tantanan); a hand
    one card short may wait; a full hand that does not win may discard to wait.
    """
    grouping = GROUPINGS[honours]
    full = size * sets
    n = sum(counts)
    arr = arrangement(counts, grouping, size)
    hand = list(counts)
    winning = n == full and is_winning(hand, grouping, size=size, chiqui=chiqui)
    wait = wait_for(hand, grouping, size, chiqui) if n == full - 1 else NO_WAIT
    calls: dict[int, tuple[str, tuple[int, ...]]] = {}
    if n == full:
        for k in range(N_KINDS):
            if hand[k]:
                hand[k] -= 1
                w = wait_for(hand, grouping, size, chiqui)
                hand[k] += 1
                if w.call:
                    calls[k] = (w.call, w.cards)
    return HandReport(
        n, winning, arr.sets, arr.leftover, arr.mata, arr.red_mata, wait.call, wait.cards, calls
    )
