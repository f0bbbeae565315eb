"""Sampling hidden hands under the group counts that a call fixes (for ``determinize``).

A caller's hand is known to be *sets and one incomplete set*: every value group but one holds
a whole number of sets, the open group one card short of a set (or, in Ceki, exactly the
cards laid face down). Those are conditions on the cards per group only, so a hand meeting
them can be drawn exactly, and uniformly over the physical cards left, without rejection:

* the number of ways to take ``j`` cards of a group holding ``A`` unseen cards is ``C(A, j)``;
* a dynamic programme over the twelve groups counts, for each way of splitting the cards
  still to deal among the groups, the ways every group ends on an allowed total, and draws a
  split with probability in proportion to its ways;
* within each group the cards are then a uniform sample of that group's unseen cards.

The result is a uniform draw among all hands (of the unseen physical cards) whose group
totals the predicate allows. What the call adds beyond group totals (a mata for tan, none
for ceki) is left to the caller of these functions (see
:func:`cherki.games.sets.determinize.determinize`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from math import comb

from cherki.core.cards import N_KINDS
from cherki.core.sets import GROUP_KINDS, N_GROUPS

#: ``allowed(group, total)``: may ``group`` end with ``total`` cards in the hand?
Allowed = Callable[[int, int], bool]


def group_ways(
    avail: Sequence[int],
    known: Sequence[int],
    need: int,
    kinds_of: Sequence[Sequence[int]],
    allowed: Allowed,
) -> list[list[int]]:
    """``ways[g][r]``: the ways groups ``g``… can take ``r`` more cards from ``avail`` so that
    each ends (with its ``known`` cards) on a total ``allowed`` admits. ``ways[0][need]`` is
    the number of hands that meet the conditions."""
    ways = [[0] * (need + 1) for _ in range(N_GROUPS + 1)]
    ways[N_GROUPS][0] = 1
    for g in range(N_GROUPS - 1, -1, -1):
        a = sum(avail[k] for k in kinds_of[g])
        base = sum(known[k] for k in kinds_of[g])
        row, nxt = ways[g], ways[g + 1]
        options = [j for j in range(min(a, need) + 1) if allowed(g, base + j)]
        for r in range(need + 1):
            row[r] = sum(comb(a, j) * nxt[r - j] for j in options if j <= r and nxt[r - j])
    return ways


def fill_hand(
    avail: Sequence[int],
    known: Sequence[int],
    need: int,
    kinds_of: Sequence[Sequence[int]],
    allowed: Allowed,
    rng: random.Random,
) -> list[int] | None:
    """``known`` plus ``need`` cards of ``avail``, drawn uniformly among the hands whose
    every group total ``allowed`` admits; None when no such hand exists. ``avail`` is not
    changed."""
    if need < 0:
        return None
    ways = group_ways(avail, known, need, kinds_of, allowed)
    if not ways[0][need]:
        return None
    return _fill(avail, known, need, kinds_of, allowed, ways, rng)


def _fill(
    avail: Sequence[int],
    known: Sequence[int],
    need: int,
    kinds_of: Sequence[Sequence[int]],
    allowed: Allowed,
    ways: list[list[int]],
    rng: random.Random,
) -> list[int]:
    """Draw group by group with the counts of :func:`group_ways` (``ways[0][need] > 0``)."""
    hand = list(known)
    r = need
    for g in range(N_GROUPS):
        a = sum(avail[k] for k in kinds_of[g])
        base = sum(known[k] for k in kinds_of[g])
        nxt = ways[g + 1]
        options = [j for j in range(min(a, r) + 1) if allowed(g, base + j) and nxt[r - j]]
        weights = [comb(a, j) * nxt[r - j] for j in options]
        j = rng.choices(options, weights=weights)[0]
        if j:
            pool = [k for k in kinds_of[g] for _ in range(avail[k])]
            for k in rng.sample(pool, j):
                hand[k] += 1
        r -= j
    return hand


class OpenGroupSampler:
    """Hands with exactly one *open* group (its total meeting ``open_total``), every other
    group's total meeting ``rest_total``: :meth:`draw` gives one uniformly among them (the
    open group among ``groups``, default any), None when there is none.

    One dynamic programme with a flag counts them: ``closed[g][r]``, the ways groups ``g``…
    take ``r`` cards all closed, and ``one[g][r]``, the ways they take ``r`` cards with
    exactly one of them open. The counts are made once and kept for every draw."""

    def __init__(
        self,
        avail: Sequence[int],
        known: Sequence[int],
        need: int,
        kinds_of: Sequence[Sequence[int]],
        open_total: Callable[[int], bool],
        rest_total: Callable[[int], bool],
        groups: Sequence[int] | None = None,
    ) -> None:
        self.avail, self.known, self.need, self.kinds_of = avail, known, need, kinds_of
        may_open = set(range(N_GROUPS) if groups is None else groups)
        self.size = [sum(avail[k] for k in kinds_of[g]) for g in range(N_GROUPS)]
        base = [sum(known[k] for k in kinds_of[g]) for g in range(N_GROUPS)]
        top = max(need, 0)
        #: per group, the cards it may take staying closed, and opening
        self.shut = [
            [(j, comb(a, j)) for j in range(min(a, top) + 1) if rest_total(b + j)]
            for a, b in zip(self.size, base, strict=True)
        ]
        self.opens = [
            [(j, comb(a, j)) for j in range(min(a, top) + 1) if open_total(b + j)]
            if g in may_open
            else []
            for g, (a, b) in enumerate(zip(self.size, base, strict=True))
        ]
        closed = [[0] * (top + 1) for _ in range(N_GROUPS + 1)]
        one = [[0] * (top + 1) for _ in range(N_GROUPS + 1)]
        closed[N_GROUPS][0] = 1
        for g in range(N_GROUPS - 1, -1, -1):
            c_next, o_next, c_row, o_row = closed[g + 1], one[g + 1], closed[g], one[g]
            for r in range(top + 1):
                c = o = 0
                for j, w in self.shut[g]:
                    if j > r:
                        break
                    c += w * c_next[r - j]
                    o += w * o_next[r - j]
                for j, w in self.opens[g]:
                    if j > r:
                        break
                    o += w * c_next[r - j]
                c_row[r], o_row[r] = c, o
        self.closed, self.one = closed, one
        #: how many hands meet the conditions (0: none)
        self.count = one[0][need] if need >= 0 else 0

    @property
    def possible(self) -> bool:
        return self.count > 0

    def draw(self, rng: random.Random) -> list[int] | None:
        if not self.count:
            return None
        hand = list(self.known)
        r = self.need
        is_open = False
        for g in range(N_GROUPS):
            c_next, o_next = self.closed[g + 1], self.one[g + 1]
            moves: list[tuple[int, bool]] = []
            weights: list[int] = []
            for j, w in self.shut[g]:
                if j > r:
                    break
                x = w * (c_next[r - j] if is_open else o_next[r - j])
                if x:
                    moves.append((j, is_open))
                    weights.append(x)
            if not is_open:
                for j, w in self.opens[g]:
                    if j > r:
                        break
                    x = w * c_next[r - j]
                    if x:
                        moves.append((j, True))
                        weights.append(x)
            j, is_open = rng.choices(moves, weights=weights)[0]
            if j:
                pool = [k for k in self.kinds_of[g] for _ in range(self.avail[k])]
                for k in rng.sample(pool, j):
                    hand[k] += 1
            r -= j
        return hand


@lru_cache(maxsize=512)
def waiting_sampler(
    avail: tuple[int, ...],
    known: tuple[int, ...],
    need: int,
    honours: str,
    size: int,
    open_exact: int | None = None,
    groups: tuple[int, ...] | None = None,
) -> OpenGroupSampler:
    """The sampler of hands of sets waiting on one card (every group a whole number of
    ``size``-card sets but one, ``size - 1`` over; with ``open_exact``, the open group
    holding exactly that many cards, Ceki's laid couple), kept for the next call with the
    same cards (a search samples many deals from one observation)."""

    def open_total(t: int) -> bool:
        return t == open_exact if open_exact is not None else t % size == size - 1

    return OpenGroupSampler(
        avail, known, need, GROUP_KINDS[honours], open_total, lambda t: t % size == 0, groups
    )


def take(avail: list[int], hand: Sequence[int], known: Sequence[int]) -> None:
    """Take from ``avail`` the cards ``hand`` holds beyond ``known``."""
    for k in range(N_KINDS):
        avail[k] -= hand[k] - known[k]
        assert avail[k] >= 0
