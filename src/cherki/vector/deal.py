"""The deals of a run of the batched simulator, made ahead in blocks (numpy).

``SetsGame.deal`` (:mod:`cherki.games.sets.game`) for many hands at once: each hand's shoe
(given, top card first, or shuffled by numpy from the run's seed), its starter, the seats'
count vectors dealt from the shoe by the game's plan (packets, or the wash, with the
starter's extra card), their group totals and the stock left. The simulator deals into the
rows whose hands end, a few rows at a time, most steps; so the hands are dealt ahead, a
block at once, and a deal into rows copies its hands' lines from the block.

Our specifications
------------------
* **The same hands however they are dealt**: hand ``i`` of a run gets the ``i``-th shuffle
  of the seed's generator whether hands are dealt one at a time or in blocks (numpy's
  ``permuted`` shuffles the rows of a block one after another, drawing for each what it
  would draw for that row alone); with ``shoes`` given, hand ``start + j`` gets shoe ``j``.
* A block holds no hand past the run's last (``end``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np

from cherki.core.cards import N_KINDS
from cherki.vector.rules import Shape, winning
from cherki.vector.tables import I64, Bool


@dataclass(frozen=True)
class Deals:
    """Hands dealt (``m`` of them, a line each): the seats' hands by seat, not by position
    from the starter."""

    index: I64  # [m] the hands' numbers in the run
    ints: I64  # [lines, m] the simulator's whole numbers of a fresh hand (starter, index)
    hands: np.ndarray  # [m, n, 30] int16
    totals: np.ndarray  # [m, n, groups] int16
    opens: I64  # [m, n] groups that are not a whole number of sets
    stock: I64  # [m, stock] the shoe after the deal, top card first
    self_ok: Bool  # [m] the starter's hand wins as dealt (kandang tangan, where played)

    @staticmethod
    def join(a: Deals, b: Deals) -> Deals:
        """``a``'s hands then ``b``'s."""
        return Deals(
            **{f.name: np.concatenate([getattr(a, f.name), getattr(b, f.name)],
                                      axis=1 if f.name == "ints" else 0) for f in fields(a)}
        )  # fmt: skip

    def part(self, at: int, m: int) -> Deals:
        """Hands ``at`` … ``at + m - 1`` of these (views; most steps take a few, so the
        fields are named here rather than looked up)."""
        cut = slice(at, at + m)
        return Deals(
            self.index[cut],
            self.ints[:, cut],
            self.hands[cut],
            self.totals[cut],
            self.opens[cut],
            self.stock[cut],
            self.self_ok[cut],
        )


class Dealer:
    """The hands of a run, dealt ahead in blocks of ``block`` (see the module)."""

    def __init__(
        self,
        plan: list[np.ndarray],
        *,
        players: int,
        half_packs: int,
        shape: Shape,
        kandang_tangan: bool,
        fresh: I64,
        seated: I64,
        index_line: int,
        block: int,
    ) -> None:
        self.n = players
        self.half_packs = half_packs
        self.cards = half_packs * N_KINDS
        self.shape = shape
        self.kandang_tangan = kandang_tangan
        #: the shoe positions dealt, and the seat position (from the starter) each goes
        #: to: the whole deal as one bincount
        self.spots = np.concatenate(plan)
        self.spot_seat = np.repeat(np.arange(players), [len(p) for p in plan])
        self.dealt = len(self.spots)
        #: a shoe in order (shuffled for each hand dealt from a seed)
        self.pack = np.repeat(np.arange(N_KINDS, dtype=np.int64), half_packs)
        #: a fresh hand's whole numbers, and the lines its starter (first, current) and
        #: its number go in
        self.fresh, self.seated, self.index_line = fresh, seated, index_line
        self.block = block
        self.start(None, None, None, 0, None)

    def start(
        self,
        seed: int | Sequence[int] | None,
        shoes: I64 | None,
        first: I64 | None,
        start: int,
        end: int | None,
    ) -> None:
        """A new run: hands ``start`` … ``end - 1`` (no end: as many as asked for)."""
        self.rng = np.random.default_rng(seed)
        self.shoes, self.first, self.begin, self.end = shoes, first, start, end
        #: the next hand to deal; the block made ahead and how far into it
        self.next_index = start
        self.ahead: Deals | None = None
        self.at = 0

    def left(self) -> int | None:
        """How many hands of the run are left to deal (None: no end)."""
        return None if self.end is None else max(0, self.end - self.next_index)

    def take(self, m: int) -> Deals:
        """The next ``m`` hands of the run (no more than are left)."""
        ahead = self.ahead
        have = 0 if ahead is None else len(ahead.index) - self.at
        if ahead is None or have < m:  # the next block, after the hands still ahead
            first = self.next_index + have
            k = max(m - have, self.block)
            if self.end is not None:
                k = min(k, self.end - first)
            new = self._make(np.arange(first, first + k, dtype=np.int64))
            if ahead is not None and have:
                new = Deals.join(ahead.part(self.at, have), new)
            ahead = self.ahead = new
            self.at = 0
        out = ahead.part(self.at, m)
        self.at += m
        self.next_index += m
        return out

    def _make(self, idx: I64) -> Deals:
        """Deal hands ``idx`` (``SetsGame.deal``)."""
        n, m = self.n, len(idx)
        if self.shoes is not None:
            order = self.shoes[idx - self.begin]
        else:
            order = self.rng.permuted(np.broadcast_to(self.pack, (m, self.cards)), axis=1)
        if self.first is None:
            firsts = idx % n
        elif self.first.ndim == 0:
            firsts = np.full(m, int(self.first), np.int64)
        else:
            firsts = self.first[idx - self.begin]
        cells = (np.arange(m)[:, None] * n + self.spot_seat[None, :]) * N_KINDS
        cells += order[:, self.spots]
        counts = np.bincount(cells.ravel(), minlength=m * n * N_KINDS).reshape(m, n, N_KINDS)
        seats = (firsts[:, None] + np.arange(n)[None, :]) % n  # [m, seat position]
        hands = np.empty((m, n, N_KINDS), np.int16)
        hands[np.arange(m)[:, None], seats] = counts
        tot = self.shape.groups.sum(hands.reshape(m * n, N_KINDS))
        opens = ((tot % self.shape.size) != 0).sum(axis=1).reshape(m, n)
        totals = tot.reshape(m, n, -1).astype(np.int16)
        ints = np.repeat(self.fresh[:, None], m, axis=1)
        ints[self.seated] = firsts
        ints[self.index_line] = idx
        if self.kandang_tangan:
            i = np.arange(m)
            self_ok = winning(hands[i, firsts], totals[i, firsts], self.shape)
        else:
            self_ok = np.zeros(m, bool)
        return Deals(idx, ints, hands, totals, opens, order[:, self.dealt :], self_ok)


__all__ = ["Dealer", "Deals"]
