"""The legal actions of a batch of hands of a game of sets, as masks (numpy).

The batched form of ``SetsState.legal_actions`` (:mod:`cherki.games.sets.state`): for each
hand, the actions its acting seat may take, as a row of ``NUM_ACTIONS`` flags in the
engine's action ids (:mod:`cherki.games.sets.actions`). The rules, with their sources, are
the reference engine's; each function names the method it mirrors.

* **Draw phase**: draw from the stock; take the top discard while it may be taken, except
  where taking it would complete an exposed olo (``lays_taken_mata``) and leave nothing the
  seat may discard (``SetsState._take_ok``).
* **Discard phase**: sampei where the hand won on the card it drew (or was dealt: kandang
  tangan); a free hand discards any card it holds that is not laid down, and calls tan or
  ceki with a discard that leaves it waiting as such; a caller discards the card it drew,
  or changes its call as ``caller_changes`` lets it (``SetsState._caller_discards``).
* **Claim phase**: sampei or pass.

Our specifications
------------------
* **Whole columns, one pass.** The discard masks of all the rows that need them are built
  together: whole columns written at once, the calls after a discard of free hands near
  waiting and of callers who may change their call by one pass of
  :func:`cherki.vector.rules.calls_after_discard`. A hand with more than two groups that
  are not whole sets cannot wait after one discard, so it is not looked at.
* This module holds no state: :class:`cherki.vector.sets.SetsVector` keeps the hands and
  the mask, and declares what is read here (:class:`Seats`).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from cherki.core.cards import N_KINDS
from cherki.games.sets.actions import (
    CALL_CEKI,
    CALL_TAN,
    DISCARD,
    DRAW,
    NUM_ACTIONS,
    PASS,
    PHASE_CLAIM,
    PHASE_DISCARD,
    PHASE_DRAW,
    SAMPEI,
    TAKE,
)
from cherki.games.sets.rules import SetsRules
from cherki.vector.rules import CEKI, TAN, Shape, calls_after_discard
from cherki.vector.tables import I64, Bool, where


class Seats(Protocol):
    """What the masks read of a batch of hands (:class:`cherki.vector.sets.SetsVector`
    has it all; declared here so that this module needs nothing of the simulator's)."""

    n: int
    size: int
    rules: SetsRules
    shape: Shape
    hands: np.ndarray
    totals: np.ndarray
    melded: np.ndarray
    opens: np.ndarray
    calls: np.ndarray
    current: np.ndarray
    phase: np.ndarray
    drawn: np.ndarray
    self_ok: np.ndarray
    top: np.ndarray
    top_ok: np.ndarray


def fill(t: Seats, mask: Bool, rows: I64) -> None:
    """Write the legal-action mask of ``rows`` into ``mask`` (all false where a hand is
    over)."""
    ph = t.phase[rows]
    xs = ph == PHASE_DISCARD
    x = rows[xs]
    if len(x):  # whole rows written: the others are cleared first
        mask[x] = discard_mask(t, x, t.current[x])
    if len(x) == len(rows):
        return
    rows, ph = rows[~xs], ph[~xs]
    mask[rows] = False
    d = rows[ph == PHASE_DRAW]
    if len(d):
        mask[d, DRAW] = True
        k = d[t.top_ok[d]]
        if len(k):
            mask[k[take_ok(t, k)] if t.rules.lays_taken_mata else k, TAKE] = True
    c = rows[ph == PHASE_CLAIM]
    if len(c):
        mask[c, SAMPEI] = True
        mask[c, PASS] = True


def take_ok(t: Seats, rows: I64) -> Bool:
    """Taking the top discard is refused only where it would complete an exposed olo
    and leave no card the seat may discard (``SetsState._take_ok``)."""
    ok = np.ones(len(rows), bool)
    if not t.rules.lays_taken_mata:
        return ok
    s = t.current[rows]
    k = t.top[rows]
    size = t.size
    risky = t.hands[rows, s, k] % size == size - 1
    if not risky.any():
        return ok
    r, s, k = rows[risky], s[risky], k[risky]
    hand = t.hands[r, s].copy()
    i = np.arange(len(r))
    hand[i, k] += 1
    tot = t.totals[r, s].copy()
    tot[i, t.shape.groups.of[k]] += 1
    melded = t.melded[r, s].copy()
    melded[i, k] += size
    m = discards(t, hand, tot, melded, t.calls[r, s], k, np.zeros(len(r), bool))
    ok[risky] = m.any(axis=1)
    return ok


def _seat(t: Seats, a: np.ndarray, seat: I64) -> np.ndarray:
    """``a[rows, s]`` of a [batch, n, width] array by flat seat index (a copy)."""
    return a.reshape(-1, a.shape[-1]).take(seat, axis=0)


def discard_mask(t: Seats, rows: I64, s: I64) -> Bool:
    """The discard-phase masks of seats ``s`` of ``rows``."""
    seat = rows * t.n + s
    return discards(
        t,
        _seat(t, t.hands, seat),
        _seat(t, t.totals, seat),
        _seat(t, t.melded, seat),
        t.calls.reshape(-1).take(seat),
        t.drawn[rows],
        t.self_ok[rows],
        t.opens.reshape(-1).take(seat),
    )


def discards(
    t: Seats,
    hand: np.ndarray,
    tot: np.ndarray,
    melded: np.ndarray,
    call: I64,
    drawn: I64,
    self_ok: Bool,
    opens: I64 | None = None,
) -> Bool:
    """The discard-phase mask (``SetsState._discard_actions``) of ``m`` seats' hands
    (``opens``: their groups that are not whole sets, where known)."""
    m = len(hand)
    out = np.zeros((m, NUM_ACTIONS), bool)
    out[:, SAMPEI] = self_ok
    may = hand > melded
    free = call == 0
    # the rows whose discards may make a call: free hands near waiting, callers who may
    # change their call; the discards' calls of all of them by one pass
    # (whole columns written at once: a slice of every row is many times cheaper than
    # the same cells of chosen rows)
    every = bool(free.all())
    out[:, DISCARD : DISCARD + N_KINDS] = may if every else may & free[:, None]
    near_free = free if opens is None else free & (opens <= 2)  # only these can wait
    g = where(near_free)
    if not every:
        c, cand = caller_discards(t, out, where(~free), hand, may, drawn)
    else:
        c, cand = np.zeros(0, np.int64), np.zeros((0, N_KINDS), bool)
    near = np.concatenate([g, c]) if len(c) else g
    some, kind, _, keeps_pair = calls_after_discard(
        hand.take(near, axis=0), tot.take(near, axis=0), t.shape
    )
    if not len(some):
        return out
    mine = some < len(g)  # a free hand's row, else a caller's
    if mine.any():
        fs = g[some[mine]]
        ms, kf = may.take(fs, axis=0), kind[mine]
        out[fs, CALL_TAN : CALL_TAN + N_KINDS] = ms & (kf == TAN)
        out[fs, CALL_CEKI : CALL_CEKI + N_KINDS] = ms & (kf == CEKI)
    if mine.all():
        return out
    j = some[~mine] - len(g)
    rows, cand, kind, keeps_pair = c[j], cand[j], kind[~mine], keeps_pair[~mine]
    call = call[rows][:, None]
    waits = cand & (kind != 0)
    keeps = (call == CEKI) & (kind == TAN) & keeps_pair
    plain = waits & ((kind == call) | keeps)
    change = waits & (kind != call)
    out[rows, DISCARD : DISCARD + N_KINDS] |= plain
    out[rows, CALL_TAN : CALL_TAN + N_KINDS] |= change & (kind == TAN)
    out[rows, CALL_CEKI : CALL_CEKI + N_KINDS] |= change & (kind == CEKI)
    return out


#: no caller who may change their call
_NONE: tuple[I64, Bool] = (np.zeros(0, np.int64), np.zeros((0, N_KINDS), bool))


def caller_discards(
    t: Seats, out: Bool, c: I64, hand: np.ndarray, may: Bool, drawn: I64
) -> tuple[I64, Bool]:
    """A caller's discards (``SetsState._caller_discards``): the drawn card into ``out``;
    returned, the callers (rows ``c`` of ``hand``) who may change their call and the
    kinds each may discard to do so (the change itself: :func:`discards`)."""
    c = c[drawn[c] >= 0]
    if not len(c):
        return _NONE
    hand, may, drawn = hand.take(c, axis=0), may.take(c, axis=0), drawn[c]
    i = np.arange(len(c))
    ok = may[i, drawn]
    out[c[ok], DISCARD + drawn[ok]] = True
    mode = t.rules.caller_changes
    if mode == "none":
        return _NONE
    size = t.size
    cand = may.copy()  # held and not laid down (a seat holds what it may discard)
    cand[i, drawn] = False
    if mode == "mata-only":
        # a discard that makes more mata than the hand had before the drawn card: only
        # where the drawn card made a mata, a discard that breaks none
        made = hand[i, drawn] % size == 0
        if not made.any():
            return _NONE
        cand &= made[:, None] & (hand % size != 0)
    keep = where(cand.any(axis=1))
    return c[keep], cand[keep]
