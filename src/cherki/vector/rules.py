"""The rules of the games of sets over batches of count vectors (numpy).

Each function here is the batched form of one rule of :mod:`cherki.games.sets.state` or
:mod:`cherki.core.sets`, over ``m`` hands at once: a hand is a row of 30 counts, its group
totals a row of 12. They hold no state; :mod:`cherki.vector.sets` keeps it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cherki.games.sets.rules import SetsRules
from cherki.vector.tables import I64, RED, Bool, Grouping, Ints

TAN = 1
CEKI = 2


@dataclass(frozen=True)
class Shape:
    """What the rules say of a hand's shape: set size, chiqui go-outs, the grouping."""

    size: int
    chiqui: bool
    groups: Grouping

    @classmethod
    def of(cls, rules: SetsRules) -> Shape:
        return cls(rules.set_size, rules.goes_out_on_pair, Grouping.named(rules.honours))

    @property
    def least(self) -> int:
        """A ceki hand without a mata (or a pair, with chiqui) waits on the kinds of its open
        group it holds this many of (:func:`cherki.core.sets.wait_for`)."""
        return max(1, self.size - 2) if self.chiqui else self.size - 1


def winning(hand: Ints, tot: Ints, shape: Shape) -> Bool:
    """:func:`cherki.core.sets.is_winning` with a mata needed: every group a whole number
    of sets, and a mata (or, with chiqui, an identical pair)."""
    size = shape.size
    top = hand.max(axis=1)
    ok = top >= size
    if shape.chiqui:
        ok |= top >= size - 1
    out: Bool = ok & ~(tot % size).any(axis=1)
    return out


def mata(hand: Ints, size: int) -> tuple[I64, I64]:
    """(mata, red mata) of each hand (:func:`cherki.core.sets.mata_count`)."""
    m = hand // size
    return m.sum(axis=1), (m * RED).sum(axis=1)


def improved(hand: Ints, extra: Ints, shape: Shape) -> tuple[I64, I64]:
    """:func:`cherki.core.sets.improved_mata`: mata after swapping in same-group cards."""
    gs = shape.groups.sum
    size = shape.size
    sets = gs(hand) // size
    t = (hand + extra) // size
    reds = gs(t * RED)
    plain = gs(t * ~RED)
    m = np.minimum(sets, plain + reds)
    return m.sum(axis=1), np.minimum(m, reds).sum(axis=1)
