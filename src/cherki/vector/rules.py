"""The rules of the games of sets over batches of count vectors (numpy).

Each function here is the batched form of one rule of :mod:`cherki.games.sets.state` or
:mod:`cherki.core.sets`, over ``m`` hands at once: a hand is a row of 30 counts, its group
totals a row of 12. They hold no state; :mod:`cherki.vector.sets` keeps it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cherki.games.sets.rules import SetsRules
from cherki.vector.tables import I64, RED, Bool, Grouping, Ints, where

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


def wait_set(hand: Ints, tot: Ints, call: I64, shape: Shape) -> tuple[Bool, I64]:
    """The cards each hand (one card short of winning) waits on, and the call it waits as
    (0: none). ``call`` is the seat's standing call: a ceki caller whose hand now waits as
    tan still waits only on a card that completes a mata (``cherki.games.sets.state.as_called``)."""
    size = shape.size
    r = tot % size
    last = r == size - 1
    ok = (last.sum(axis=1) == 1) & (((r != 0) & ~last).sum(axis=1) == 0)
    open_g = last.argmax(axis=1)
    in_open = shape.groups.members[open_g]  # [m, 30]
    top = hand.max(axis=1)
    has_mata = top >= size
    full = has_mata | (shape.chiqui & (top >= size - 1))
    cards = in_open & (full[:, None] | (hand >= shape.least))
    cards &= ok[:, None]
    kind = np.where(cards.any(axis=1), np.where(has_mata, TAN, CEKI), 0)
    keep = (call == CEKI) & (kind == TAN)
    if keep.any():
        cards[keep] &= hand[keep] % size == size - 1
    return cards, kind


def group_totals(hand: np.ndarray, shape: Shape) -> I64:
    """Cards per group of each hand ([m, 30] -> [m, 12])."""
    return shape.groups.sum(hand)


def calls_after_discard(
    hand: Ints,
    tot: Ints,
    shape: Shape,
    live: I64 | None = None,
    outs: I64 | None = None,
) -> tuple[I64, I64, I64, Bool]:
    """For the hands one discard from waiting (``some``: their rows among those given; the
    others cannot call), for each kind: the call the hand would wait as after discarding
    one of that kind (0: it would not wait), the group it would then wait in, and whether
    some kind of that group would then be one card short of a mata (``keeps``: a ceki
    caller may keep ceki). Only kinds the hand holds are meaningful. Given ``live`` (copies
    unseen, [m, 30]), ``outs`` ([m, 30], filled in for the rows of ``some``) gets the live
    copies of the cards each discard would leave the hand waiting on (no call standing:
    :func:`cherki.core.sets.wait_for`)."""
    size = shape.size
    r = tot % size  # [m, 12]
    # a hand one discard from waiting has no group that is not whole sets (any discard
    # leaves its group open), or two: one a card over whole sets (the discard comes from
    # it) and one a card short (where the hand then waits; with sets of 3 their
    # remainders 1 and 2, with pairs 1 and 1: the two add up to a set); most hands in
    # play are neither
    nonzero = r != 0
    opens = nonzero.sum(axis=1)
    some = where((opens == 0) | ((opens == 2) & (r.sum(axis=1) == size)))
    if not len(some):
        e = np.zeros((0, hand.shape[1]), np.int64)
        return e[:, 0], e, e, e.astype(bool)
    of = shape.groups.of
    n_groups = tot.shape[1]
    hand = hand.take(some, axis=0)
    closed = (opens.take(some) == 0)[:, None]  # the discard's group is left open
    # else the discard is of the group a card over (remainder 1), and the hand waits in the
    # other open group: the first or the last one
    nz = nonzero.take(some, axis=0)
    lo = nz.argmax(axis=1)[:, None]
    hi = (n_groups - 1 - nz[:, ::-1].argmax(axis=1))[:, None]
    valid = closed | (r.take(some, axis=0)[:, of] == 1)  # [s, 30]
    ok = np.where(closed, of[None, :], np.where(of[None, :] == lo, hi, lo))
    same = closed  # the hand waits in the discard's own group (where valid)
    at = ok + (np.arange(len(some)) * n_groups)[:, None]  # flat cells of [s, groups]
    mata_after = (hand >= size).sum(axis=1, keepdims=True) > (hand == size)
    least = shape.least
    held = hand >= least
    hm = hand % size
    short = hm == size - 1
    # cards held ``least`` times or more, and kinds a card short of a mata, by group:
    # one product for both
    both = shape.groups.sum(np.concatenate([held, short]))
    ge, pr = both[: len(some)].ravel().take(at), both[len(some) :].ravel().take(at)
    winners = ge > (same & (hand == least))
    if shape.chiqui:
        n_pair = (hand >= size - 1).sum(axis=1, keepdims=True)
        winners |= n_pair > (hand == size - 1)
    kind = np.where(valid, np.where(mata_after, TAN, np.where(winners, CEKI, 0)), 0)
    # a discard from the open group itself: that kind a card short of a mata after it, no
    # longer as it was
    keeps = np.where(same, pr + (hm == 0) - short, pr) > 0
    if live is not None and outs is not None:
        # the live copies of what the hand would wait on: the whole open group (a mata held,
        # or a chiqui pair), else the kinds of it held ``least`` times or more
        whole = mata_after
        if shape.chiqui:
            whole = whole | (n_pair > (hand == size - 1))
        lv = live.take(some, axis=0)
        in_group = group_totals(lv, shape).ravel().take(at)
        near = group_totals(lv * held, shape).ravel().take(at) - np.where(
            same & (hand == least), lv, 0
        )
        outs[some] = np.where(kind != 0, np.where(whole, in_group, near), 0)
    return some, kind, ok, keeps
