"""The batched simulator's hot per-step paths as row loops compiled by numba.

numpy's every call pays a fixed cost, and a step of the simulator is dozens of calls over
every row and over the few rows near a call, a claim or a win; here one compiled loop over
the rows does a row's whole piece of the step (its take, draw, discard, sampei or pass,
then its legal-action mask). The rules, with their sources, are those of the reference engine
(:mod:`cherki.games.sets.state`); each kernel names the method it mirrors. What is rare and
batched well by numpy stays in numpy: a win's scoring, making the deals, the heuristic's
measures.

Our specifications
------------------
* **The same rules, row by row.** Each kernel computes, for one row, what numpy code
  computed for all the rows at once before (that code is gone: one form of each rule); the
  exactness tests (``tests/test_vector_exact.py``) hold the simulator to the reference
  engine through them.
* **No random draws here**: the policies draw their lots from numpy's generator, as before,
  so a seed plays the same hands.
* **Compiled once, cached**: numba compiles each kernel at its first call in a process
  (``cache=True``: the machine code is kept in ``__pycache__``, or in numba's user cache
  directory, ``~/.cache/numba``, where the package's is not writable) and loads it from the
  cache afterwards: 12–18 s to compile them all on a loaded machine, about 1 s to load
  them (``docs/simulation.md``). Where neither directory can be written they are compiled in
  each process.
  The module is imported only by the batched simulator: ``import cherki`` and the web
  server do not load numba. numba is in cherki's extra ``vector`` (it brings LLVM, which
  playing does not need); without it, importing this module raises ``ModuleNotFoundError``
  in words that say how to add it, and ``--engine vector`` is refused in them.
* numba has no type stubs: the kernels take and return numpy arrays, and the typed
  wrappers that call them are in the modules that use them (this module is a library seam
  for ``Any``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import numba
except ImportError as _missing:  # the extra `vector` (pyproject.toml) was not installed
    raise ModuleNotFoundError(
        "the batched simulator (cherki.vector, --engine vector) needs numba, from cherki's "
        "extra 'vector': in a checkout, uv run --extra vector …; otherwise "
        "pip install 'cherki[vector]'",
        name="numba",
    ) from _missing

from cherki.core.cards import N_KINDS
from cherki.games.sets.actions import (
    CALL_CEKI,
    CALL_TAN,
    DISCARD,
    DRAW,
    FROM_DEAL,
    FROM_DISCARD,
    FROM_STOCK,
    PASS,
    PHASE_CLAIM,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_OVER,
    SAMPEI,
    TAKE,
)
from cherki.vector.finished import CLAIM, FROM_A_DISCARD, KANDANG_TANGAN, SELF_DRAW
from cherki.vector.rules import CEKI, TAN

#: ``caller_changes`` as the kernels read it
CHANGES = {"none": 0, "mata-only": 1, "free": 2}

#: the lines of the simulator's whole numbers the kernels read and write, in the
#: order of its ``lines`` argument (:meth:`cherki.vector.sets.SetsVector.apply`)
LINES = (
    "pos", "top", "n_calls", "current", "phase", "drawn", "drawn_from", "n_claim",
    "claim_card", "claim_drawer", "actions", "turns", "last_actor",
)  # fmt: skip
#: then the events it counts, in this order, and the three call counts
EVENT_LINES = ("take", "reveal", "draw", "expose", "discard", "call", "pass", "sampei", "end")
(_POS, _TOP, _NCALLS, _CUR, _PHASE, _DRAWN, _FROM, _NCLAIM, _CCARD, _CDRAWER, _ACTS, _TURNS,
 _LAST, _EV_TAKE, _EV_REVEAL, _EV_DRAW, _EV_EXPOSE, _EV_DISCARD, _EV_CALL, _EV_PASS,
 _EV_SAMPEI, _EV_END, _CALLS0) = range(len(LINES) + len(EVENT_LINES) + 1)  # fmt: skip
#: the flags' lines (:data:`cherki.vector.sets._FLAGS`)
_TOP_OK, _SELF_OK, _CLAIM_DISC, _DONE = 0, 1, 2, 3


def _jit(func: Any) -> Any:
    """``func`` compiled by numba, its machine code cached on disk; where no cache directory
    can be written (the package's ``__pycache__`` nor numba's user cache directory), compiled
    afresh in each process instead."""
    try:
        return numba.njit(cache=True, nogil=True)(func)
    except RuntimeError:  # numba: "cannot cache function …: no locator available"
        return numba.njit(nogil=True)(func)


_K = N_KINDS
_ACTIONS = CALL_CEKI + N_KINDS


# The masks' kernels read a seat's lines in place (``hands[r, s, k]``), not through a view
# made for each row (``hands[r, s]``: a new array, its memory's references counted in and
# out).
@_jit
def _calls_row(  # type: ignore[no-untyped-def]
    hands, totals, r, s, of, size, least, chiqui, kind, keeps, held_g, short_g, wait_g, whole
):  # fmt: skip
    """The calls open after a discard (``SetsState._call_actions``) for seat ``s`` of row
    ``r``, the hand a card over its sets. A hand one discard from waiting has no group that
    is not whole sets (any discard leaves its group open), or two: one a card over whole
    sets (the discard comes from it) and one a card short (where the hand then waits; with
    sets of 3 their remainders 1 and 2, with pairs 1 and 1: the two add up to a set); most
    hands in play are neither. Returns 0 where the hand is not one discard from waiting,
    else 1 (no open group: it would wait in the discard's group) or 2 (two); and fills in,
    for each kind (only the kinds held mean anything): ``kind``, the call it would wait as
    after discarding one (0: none); ``wait_g``, the group it would then wait in;
    ``whole``, whether it would wait on that whole group (a mata left, or a chiqui pair)
    or only on the kinds of it held ``least`` times or more (:func:`cherki.core.sets.wait_for`);
    ``keeps``, whether some kind of that group would then be a card short of a mata (a ceki
    caller may keep ceki)."""
    n_groups = totals.shape[2]
    opens = 0
    rsum = 0
    lo = -1
    hi = -1
    for g in range(n_groups):
        x = totals[r, s, g] % size
        if x != 0:
            opens += 1
            rsum += x
            if lo < 0:
                lo = g
            hi = g
    closed = opens == 0
    if not (closed or (opens == 2 and rsum == size)):
        return 0
    n_mata = 0
    n_pair = 0
    for g in range(n_groups):
        held_g[g] = 0
        short_g[g] = 0
    for k in range(_K):
        x = hands[r, s, k]
        if x >= size:
            n_mata += 1
        if x >= size - 1:
            n_pair += 1
        if x >= least:
            held_g[of[k]] += 1
        if x % size == size - 1:
            short_g[of[k]] += 1
    for k in range(_K):
        x = hands[r, s, k]
        g = of[k]
        if closed:
            valid = True
            okg = g
        else:
            valid = totals[r, s, g] % size == 1
            okg = hi if g == lo else lo
        wait_g[k] = okg
        mata_after = n_mata > (1 if x == size else 0)
        pair_after = chiqui and n_pair > (1 if x == size - 1 else 0)
        whole[k] = mata_after or pair_after
        winners = held_g[okg] > (1 if (closed and x == least) else 0)
        if pair_after:
            winners = True
        if not valid:
            kind[k] = 0
        elif mata_after:
            kind[k] = TAN
        elif winners:
            kind[k] = CEKI
        else:
            kind[k] = 0
        hm = x % size
        pr = short_g[okg]
        if closed:
            pr += (1 if hm == 0 else 0) - (1 if hm == size - 1 else 0)
        keeps[k] = pr > 0
    return 1 if closed else 2


@_jit
def _discards_row(  # type: ignore[no-untyped-def]
    out, i, hands, totals, melded, r, s, call, drawn, self_ok, opens, of, size, least, chiqui,
    mode, scratch,
):  # fmt: skip
    """The discard-phase mask of seat ``s`` of row ``r`` (``SetsState._discard_actions``,
    a caller's by ``_caller_discards``) into ``out[i]`` (a row of ``NUM_ACTIONS`` flags).
    ``opens``: the hand's groups that are not whole sets (more than two: no discard leaves
    it waiting)."""
    kind, keeps, held_g, short_g, wait_g, whole = scratch
    for a in range(_ACTIONS):
        out[i, a] = False
    out[i, SAMPEI] = self_ok
    if call == 0:
        for k in range(_K):
            out[i, DISCARD + k] = hands[r, s, k] > melded[r, s, k]
        if opens <= 2 and _calls_row(
            hands, totals, r, s, of, size, least, chiqui, kind, keeps, held_g, short_g, wait_g,
            whole,
        ):  # fmt: skip
            for k in range(_K):
                if hands[r, s, k] > melded[r, s, k]:
                    if kind[k] == TAN:
                        out[i, CALL_TAN + k] = True
                    elif kind[k] == CEKI:
                        out[i, CALL_CEKI + k] = True
        return
    # a caller (``caller_discards``): the card it drew, or a change of call
    if drawn < 0:
        return
    if hands[r, s, drawn] > melded[r, s, drawn]:
        out[i, DISCARD + drawn] = True
    if mode == 0:
        return
    mata_only = mode == 1
    if mata_only and hands[r, s, drawn] % size != 0:
        return
    some = False
    for k in range(_K):
        x = hands[r, s, k]
        if k != drawn and x > melded[r, s, k] and not (mata_only and x % size == 0):
            some = True
            break
    if not some or not _calls_row(
        hands, totals, r, s, of, size, least, chiqui, kind, keeps, held_g, short_g, wait_g,
        whole,
    ):  # fmt: skip
        return
    for k in range(_K):
        x = hands[r, s, k]
        if k == drawn or x <= melded[r, s, k] or (mata_only and x % size == 0):
            continue
        kd = kind[k]
        if kd == 0:
            continue
        if kd == call or (call == CEKI and kd == TAN and keeps[k]):
            out[i, DISCARD + k] = True
        if kd != call:
            if kd == TAN:
                out[i, CALL_TAN + k] = True
            else:
                out[i, CALL_CEKI + k] = True


@_jit
def _take_ok(hands, totals, melded, r, s, call, k, of, size, least, chiqui, mode, scratch, row):  # type: ignore[no-untyped-def]
    """May seat ``s`` of row ``r`` take the top discard ``k`` (``SetsState._take_ok``)?
    Refused only where taking it would complete an exposed olo and leave no card the seat
    may discard (the hand is changed so, looked at, and put back)."""
    if hands[r, s, k] % size != size - 1:
        return True
    g = of[k]
    hands[r, s, k] += 1
    totals[r, s, g] += 1
    melded[r, s, k] += size
    _discards_row(row, 0, hands, totals, melded, r, s, call, k, False, 0, of, size, least,
                  chiqui, mode, scratch)  # fmt: skip
    hands[r, s, k] -= 1
    totals[r, s, g] -= 1
    melded[r, s, k] -= size
    return row.any()


@_jit
def _scratch(n_groups):  # type: ignore[no-untyped-def]
    """Work space for :func:`fill_mask` (``_calls_row``'s per-kind and per-group figures,
    and a row of flags for ``_take_ok``)."""
    scratch = (
        np.zeros(_K, np.int64),
        np.zeros(_K, np.bool_),
        np.zeros(n_groups, np.int64),
        np.zeros(n_groups, np.int64),
        np.zeros(_K, np.int64),
        np.zeros(_K, np.bool_),
    )
    return scratch, np.zeros((1, _ACTIONS), np.bool_)


@_jit
def fill_mask(  # type: ignore[no-untyped-def]
    mask, rows, ints, L, flags, hands, totals, melded, calls, opens, of, size, least, chiqui,
    mode, lays,
):  # fmt: skip
    """The legal-action masks of ``rows`` (``SetsState.legal_actions``; all false where a
    hand is over), each written whole into its line of ``mask`` (``of`` … ``lays``: what
    the masks read of the rules, :func:`cherki.vector.legal.rules_of_masks`)."""
    scratch, row = _scratch(totals.shape[2])
    for i in range(len(rows)):
        r = rows[i]
        ph = ints[L[_PHASE], r]
        s = ints[L[_CUR], r]
        if ph == PHASE_DISCARD:
            _discards_row(
                mask, r, hands, totals, melded, r, s, calls[r, s], ints[L[_DRAWN], r],
                flags[_SELF_OK, r], opens[r, s], of, size, least, chiqui, mode, scratch,
            )  # fmt: skip
            continue
        for a in range(_ACTIONS):
            mask[r, a] = False
        if ph == PHASE_DRAW:
            mask[r, DRAW] = True
            if flags[_TOP_OK, r]:
                if lays:
                    mask[r, TAKE] = _take_ok(
                        hands, totals, melded, r, s, calls[r, s], ints[L[_TOP], r], of, size,
                        least, chiqui, mode, scratch, row,
                    )  # fmt: skip
                else:
                    mask[r, TAKE] = True
        elif ph == PHASE_CLAIM:
            mask[r, SAMPEI] = True
            mask[r, PASS] = True


# -- a step: takes, draws, discards, sampei and passes ----------------------------------------


@_jit
def _group(totals, opens, r, s, g, step, is_open):  # type: ignore[no-untyped-def]
    """A card of group ``g`` in (``step`` 1) or out (-1) of a hand:
    its group total and its count of open groups."""
    old = totals[r, s, g]
    new = old + step
    totals[r, s, g] = new
    opens[r, s] += is_open[new] - is_open[old]


@_jit
def _self_win(hands, totals, opens, calls, waits, r, s, k, of, size, chiqui, must_call):  # type: ignore[no-untyped-def]
    """Would card ``k`` (not yet in the hand) win for the seat (``_can_self_win``)? The
    cheapest and most selective test first: a hand with more than one group that is not a
    whole number of sets cannot win on one card."""
    o = opens[r, s]
    if o > 1:
        return False
    call = calls[r, s]
    if not (call == 0 or waits[r, s, k]):
        return False
    if must_call and call == 0:
        return False
    tg = totals[r, s, of[k]]
    rest = o - (1 if tg % size != 0 else 0)
    if rest != 0 or (tg + 1) % size != 0:
        return False
    top = 0
    for j in range(_K):
        x = hands[r, s, j] + (1 if j == k else 0)
        if x > top:
            top = x
    return top >= size or (chiqui and top >= size - 1)


@_jit
def _claimers(calls, waits, order, r, s, k, n, first_caller, q, at):  # type: ignore[no-untyped-def]
    """The seats after ``s`` whose call waits on
    ``k`` written into ``q`` from ``at`` in claim order (turn order, or by who called
    first); how many."""
    m = 0
    for j in range(1, n):
        t = (s + j) % n
        if calls[r, t] != 0 and waits[r, t, k]:
            # insertion by key, stable
            key = order[r, t] if first_caller else j
            i = m
            while i > 0:
                u = q[at + i - 1]
                if (order[r, u] if first_caller else (u - s) % n) <= key:
                    break
                q[at + i] = u
                i -= 1
            q[at + i] = t
            m += 1
    return m


@_jit
def _open_claim(ints, L, flags, claimants, r, q, card, drawer, discard):  # type: ignore[no-untyped-def]
    """The card ``card`` (drawn and shown, or ``discard``-ed) by ``drawer`` would win for
    the seats of ``q`` (in order, -1 padded): each in turn may claim it or pass."""
    m = 0
    for j in range(len(q)):
        claimants[r, j] = q[j]
        if q[j] >= 0:
            m += 1
    ints[L[_NCLAIM], r] = m
    ints[L[_CCARD], r] = card
    ints[L[_CDRAWER], r] = drawer
    flags[_CLAIM_DISC, r] = discard
    ints[L[_PHASE], r] = PHASE_CLAIM
    ints[L[_CUR], r] = q[0]


@_jit
def _wait_set(hands, totals, calls, waits, r, s, of, size, least, chiqui):  # type: ignore[no-untyped-def]
    """The cards a seat (one card short of winning) waits on, written into its ``waits``
    (``wait_for``; a ceki caller whose hand now waits as tan still waits only on a card
    that completes a mata, ``cherki.games.sets.calls.as_called``)."""
    n_groups = totals.shape[2]
    n_last = 0
    n_other = 0
    open_g = -1
    for g in range(n_groups):
        x = totals[r, s, g] % size
        if x == size - 1:
            n_last += 1
            if open_g < 0:
                open_g = g
        elif x != 0:
            n_other += 1
    top = 0
    for j in range(_K):
        if hands[r, s, j] > top:
            top = hands[r, s, j]
    ok = n_last == 1 and n_other == 0
    full = top >= size or (chiqui and top >= size - 1)
    keep = calls[r, s] == CEKI and top >= size  # waits as tan: only the short kinds
    for j in range(_K):
        h = hands[r, s, j]
        w = ok and of[j] == open_g and (full or h >= least)
        if w and keep and h % size != size - 1:
            w = False
        waits[r, s, j] = w


@_jit
def _pass(  # type: ignore[no-untyped-def]
    ints, L, flags, hands, totals, opens, exposed, pile, claimants, r, n, of, is_open, live_end
):  # fmt: skip
    """The claimant first in line passes (``SetsState._pass``): the next claimant is asked;
    when none is left a claimed discard goes on the pile and the turn passes
    (``_after_discard``: the hand ends where the stock is spent, returning True), and a
    shown draw goes into the drawer's hand, face up, for them to discard."""
    ints[L[_EV_PASS], r] += 1
    for j in range(n - 1):
        claimants[r, j] = claimants[r, j + 1]
    claimants[r, n - 1] = -1
    m = ints[L[_NCLAIM], r] - 1
    ints[L[_NCLAIM], r] = m
    if m > 0:
        ints[L[_CUR], r] = claimants[r, 0]
        return False
    d = ints[L[_CDRAWER], r]
    k = ints[L[_CCARD], r]
    disc = flags[_CLAIM_DISC, r]
    ints[L[_CCARD], r] = -1
    ints[L[_CDRAWER], r] = -1
    flags[_CLAIM_DISC, r] = False
    if disc:
        pile[r, k] += 1
        ints[L[_TOP], r] = k
        flags[_TOP_OK, r] = True
        if ints[L[_POS], r] >= live_end:
            return True
        ints[L[_CUR], r] = d + 1 if d + 1 < n else 0
        ints[L[_PHASE], r] = PHASE_DRAW
        return False
    hands[r, d, k] += 1
    _group(totals, opens, r, d, of[k], 1, is_open)
    exposed[r, d, k] += 1
    ints[L[_DRAWN], r] = k
    ints[L[_FROM], r] = FROM_STOCK
    flags[_SELF_OK, r] = False
    ints[L[_PHASE], r] = PHASE_DISCARD
    ints[L[_CUR], r] = d
    return False


@_jit
def _sampei(ints, L, flags, hands, totals, opens, claimants, r, s, n, of, is_open):  # type: ignore[no-untyped-def]
    """Seat ``s`` declares its win (``SetsState._sampei``): on a claimed card (taken into
    the hand; a claim on a discard, on another's shown draw, or the drawer's own shown
    draw), on its own draw, or on its hand as dealt (kandang tangan). Returns how it won
    (:data:`cherki.vector.finished.HOWS`) and the winning card (-1: none); the hand is
    scored by the caller."""
    ints[L[_EV_SAMPEI], r] += 1
    if ints[L[_PHASE], r] == PHASE_CLAIM:
        c = ints[L[_CCARD], r]
        hands[r, s, c] += 1
        _group(totals, opens, r, s, of[c], 1, is_open)
        frm = ints[L[_CDRAWER], r]
        how = FROM_A_DISCARD if flags[_CLAIM_DISC, r] else SELF_DRAW if s == frm else CLAIM
        ints[L[_NCLAIM], r] = 0
        for j in range(n):
            claimants[r, j] = -1
        ints[L[_CCARD], r] = -1
        ints[L[_CDRAWER], r] = -1
        flags[_CLAIM_DISC, r] = False
        return how, c
    if ints[L[_FROM], r] == FROM_DEAL:
        return KANDANG_TANGAN, -1
    return SELF_DRAW, ints[L[_DRAWN], r]


#: how a row's action left its hand
_ON, _WON, _PASSED, _SPENT = range(4)


@_jit
def step(  # type: ignore[no-untyped-def]
    rows, act, ints, L, flags, hands, totals, opens, exposed, melded, stock, pile, calls,
    changed, order, waits, wanted, claimants, of, is_open, n, size, least, chiqui, must_call,
    first_caller, lays, discard_wins, live_end, mask, mode,
):  # fmt: skip
    """A step (``SetsState.apply``): every row's take, draw (``_draw``), discard
    (``_discard``), sampei (:func:`_sampei`) or pass (:func:`_pass`), its count of actions
    and turns, and then the legal-action masks of the rows that go on (:func:`fill_mask`,
    while their lines are in the cache). A drawn card is shown once a call stands, and
    where it would win for a caller after the drawer the claim opens (the drawer first
    where it wins for them too); a discard that some caller waits on opens the claim where
    ``discard_wins``; after a discard the hand ends when the stock is spent, else the next
    seat draws. The hands
    that end are marked over (``done``, phase over, no seat to act, the end counted, no
    legal action). Returns the rows whose hand ended, the wins first, then the passes that
    ended a hand, then the stocks spent, each in row order; and each win's seat, how it won
    and its winning card (for scoring, by the caller)."""
    m_rows = len(rows)
    won = np.empty(m_rows, np.int64)
    won_seat = np.empty(m_rows, np.int64)
    won_how = np.empty(m_rows, np.int64)
    won_card = np.empty(m_rows, np.int64)
    n_won = 0
    passed = np.empty(m_rows, np.int64)
    n_passed = 0
    ended = np.empty(m_rows, np.int64)
    n_ended = 0
    on = np.empty(m_rows, np.int64)
    n_on = 0
    q = np.empty(n, np.int64)
    for i in range(m_rows):
        r = rows[i]
        s = ints[L[_CUR], r]
        ints[L[_ACTS], r] += 1
        if ints[L[_LAST], r] != s:
            ints[L[_TURNS], r] += 1
        ints[L[_LAST], r] = s
        a = act[i]
        got = _ON
        how = 0
        card = -1
        # the action (``SetsState.apply``: its take, ``_draw``, ``_discard``, ``_sampei``,
        # ``_pass``), once: ``break`` when it is done
        while True:
            if a <= DRAW:  # take the top discard, or draw
                taking = a == TAKE
                olo = False
                if taking:
                    k = ints[L[_TOP], r]
                    ints[L[_EV_TAKE], r] += 1
                    pile[r, k] -= 1
                    flags[_TOP_OK, r] = False
                    olo = lays and hands[r, s, k] % size == size - 1
                    revealed = False
                else:
                    pos = ints[L[_POS], r]
                    k = stock[r, pos]
                    ints[L[_POS], r] = pos + 1
                    revealed = ints[L[_NCALLS], r] > 0
                    ints[L[_EV_REVEAL if revealed else _EV_DRAW], r] += 1
                    if revealed and wanted[r, k]:
                        m = _claimers(calls, waits, order, r, s, k, n, first_caller, q, 1)
                        if m:
                            if _self_win(hands, totals, opens, calls, waits, r, s, k, of,
                                         size, chiqui, must_call):  # fmt: skip
                                q[0] = s
                                for j in range(m + 1, n):
                                    q[j] = -1
                            else:
                                for j in range(m):
                                    q[j] = q[j + 1]
                                for j in range(m, n):
                                    q[j] = -1
                            _open_claim(ints, L, flags, claimants, r, q, k, s, False)
                            break
                flags[_SELF_OK, r] = (not taking) and _self_win(
                    hands, totals, opens, calls, waits, r, s, k, of, size, chiqui, must_call
                )
                hands[r, s, k] += 1
                _group(totals, opens, r, s, of[k], 1, is_open)
                if taking or revealed:
                    exposed[r, s, k] += 1
                ints[L[_DRAWN], r] = k
                ints[L[_FROM], r] = FROM_DISCARD if taking else FROM_STOCK
                ints[L[_PHASE], r] = PHASE_DISCARD
                if olo:
                    melded[r, s, k] += size
                    if melded[r, s, k] > exposed[r, s, k]:
                        exposed[r, s, k] = melded[r, s, k]
                    ints[L[_EV_EXPOSE], r] += 1
                break
            if a == SAMPEI:
                how, card = _sampei(ints, L, flags, hands, totals, opens, claimants, r, s, n,
                                    of, is_open)  # fmt: skip
                got = _WON
                break
            if a == PASS:
                if _pass(ints, L, flags, hands, totals, opens, exposed, pile, claimants, r, n,
                         of, is_open, live_end):  # fmt: skip
                    got = _PASSED
                break
            k = (a - DISCARD) % _K
            hands[r, s, k] -= 1
            _group(totals, opens, r, s, of[k], -1, is_open)
            if exposed[r, s, k] > melded[r, s, k]:
                exposed[r, s, k] -= 1
            pile[r, k] += 1
            ints[L[_TOP], r] = k
            flags[_TOP_OK, r] = True
            ints[L[_EV_DISCARD], r] += 1
            calling = a >= CALL_TAN
            if calling:
                new = TAN if a < CALL_CEKI else CEKI
                if calls[r, s] == 0:
                    order[r, s] = ints[L[_NCALLS], r]
                    ints[L[_NCALLS], r] += 1
                    ints[L[_CALLS0] + new - 1, r] += 1
                else:
                    changed[r, s] = True
                    ints[L[_CALLS0] + 2, r] += 1
                ints[L[_EV_CALL], r] += 1
                calls[r, s] = new
            # a caller's waits change only with its hand or call
            if calls[r, s] != 0 and (calling or k != ints[L[_DRAWN], r]):
                _wait_set(hands, totals, calls, waits, r, s, of, size, least, chiqui)
                for j in range(_K):
                    w = False
                    for t in range(n):
                        if waits[r, t, j]:
                            w = True
                            break
                    wanted[r, j] = w
            ints[L[_DRAWN], r] = -1
            ints[L[_FROM], r] = FROM_DEAL
            flags[_SELF_OK, r] = False
            if discard_wins:
                m = _claimers(calls, waits, order, r, s, k, n, first_caller, q, 0)
                if m:
                    pile[r, k] -= 1
                    flags[_TOP_OK, r] = False
                    for j in range(m, n):
                        q[j] = -1
                    _open_claim(ints, L, flags, claimants, r, q, k, s, True)
                    break
            if ints[L[_POS], r] >= live_end:
                got = _SPENT
                break
            ints[L[_CUR], r] = s + 1 if s + 1 < n else 0
            ints[L[_PHASE], r] = PHASE_DRAW
            break
        if got == _ON:
            on[n_on] = r
            n_on += 1
        elif got == _WON:
            won[n_won] = r
            won_seat[n_won] = s
            won_how[n_won] = how
            won_card[n_won] = card
            n_won += 1
        elif got == _PASSED:
            passed[n_passed] = r
            n_passed += 1
        else:
            ended[n_ended] = r
            n_ended += 1
    out = np.concatenate((won[:n_won], passed[:n_passed], ended[:n_ended]))
    for r in out:
        flags[_DONE, r] = True
        ints[L[_PHASE], r] = PHASE_OVER
        ints[L[_CUR], r] = -1
        ints[L[_EV_END], r] += 1
        mask[r] = False
    fill_mask(mask, on[:n_on], ints, L, flags, hands, totals, melded, calls, opens, of, size,
              least, chiqui, mode, lays)  # fmt: skip
    return out, won_seat[:n_won], won_how[:n_won], won_card[:n_won]


# -- the random policy's choice -------------------------------------------------------------
@_jit
def random_actions(rows, phase, mask, coin, u):  # type: ignore[no-untyped-def]
    """:class:`cherki.vector.policies.RandomPolicy`'s choice from its lots: a draw phase
    takes the top discard where it may and ``coin`` < 0.5, else draws; a claim is a sampei
    where ``coin`` < 0.5, else a pass; a discard phase takes its ``j``-th legal action,
    ``j = floor(u * count)`` (``u``: one lot for each row in the discard phase, in row
    order)."""
    out = np.empty(len(rows), np.int64)
    x = 0
    for i in range(len(rows)):
        r = rows[i]
        ph = phase[r]
        if ph == PHASE_DRAW:
            out[i] = TAKE if (mask[r, TAKE] and coin[i] < 0.5) else DRAW
        elif ph == PHASE_CLAIM:
            out[i] = SAMPEI if coin[i] < 0.5 else PASS
        else:
            c = 0
            for a in range(_ACTIONS):
                if mask[r, a]:
                    c += 1
            j = int(u[x] * c)
            x += 1
            for a in range(_ACTIONS):
                if mask[r, a]:
                    if j == 0:
                        out[i] = a
                        break
                    j -= 1
    return out


# -- the heuristic's measures (cherki.bots.balik) -------------------------------------------
@_jit
def _value(groups, mata, pairs, extra, first, pair_mata, pair_plain):  # type: ignore[no-untyped-def]
    """``cherki.bots.balik._finish``: group terms (units of 0.02), the mata count and the
    identical pairs (units of 0.05) into a hand's value, summed in the bot's order (equal
    values stay equal, to the last bit); ``first``, ``pair_mata``, ``pair_plain``: the
    weights' ``mata``, ``pair_mata`` and ``pair_plain``."""
    value = 0.02 * groups
    if mata > 0:
        with_mata = value + first
        with_mata += extra * (mata - 1)
        with_mata += pair_mata * pairs
        return with_mata
    return value + pair_plain * pairs


@_jit
def hand_values(hand, live, of, table, size, extra, weights, each, now, after):  # type: ignore[no-untyped-def]
    """The heuristic bot's value of each hand (``hand_value``) into ``now``, and with
    ``each`` of each hand less one card of each kind (``discard_values``; kinds not held:
    -inf) into ``after``. ``hand`` and ``live`` (copies unseen): [m, 30]; ``table``: the
    group terms (``_group_term``) by cards in the group and its live outs (0-10);
    ``weights``: the heuristic's ``pair``, ``pair_out`` (whole numbers), ``mata``,
    ``pair_mata`` and ``pair_plain`` (:class:`cherki.bots.balik.Weights`), as floats."""
    pair0 = np.int64(weights[0])
    pair1 = np.int64(weights[1])
    first = weights[2]
    pm = weights[3]
    pn = weights[4]
    n_groups = 0  # as many as ``of`` names
    for k in range(_K):
        if of[k] + 1 > n_groups:
            n_groups = of[k] + 1
    tot = np.zeros(n_groups, np.int64)
    outs = np.zeros(n_groups, np.int64)
    delta = np.zeros(n_groups, np.int64)
    for i in range(hand.shape[0]):
        tot[:] = 0
        outs[:] = 0
        mata = 0
        pairs = 0
        for k in range(_K):
            x = hand[i, k]
            g = of[k]
            tot[g] += x
            outs[g] += live[i, k]
            mata += x // size
            if x == size - 1:
                pairs += pair0 + pair1 * min(live[i, k], 3)
        groups = 0
        for g in range(n_groups):
            o = min(outs[g], 10)
            term = table[tot[g], o]
            groups += term
            delta[g] = table[max(tot[g] - 1, 0), o] - term
        now[i] = _value(groups, mata, pairs, extra, first, pm, pn)
        if not each:
            continue
        for k in range(_K):
            x = hand[i, k]
            if x <= 0:
                after[i, k] = -np.inf
                continue
            pair = pair0 + pair1 * min(live[i, k], 3)
            mk = mata - (1 if (x >= size and x % size == 0) else 0)
            pk = pairs - (pair if x == size - 1 else 0) + (pair if x == size else 0)
            after[i, k] = _value(groups + delta[of[k]], mk, pk, extra, first, pm, pn)


@_jit
def wait_outs(hand, live, of, size, least, chiqui, outs):  # type: ignore[no-untyped-def]
    """For each hand a card over its sets ([m, 30]) and each kind, the live copies
    (``live``: unseen, [m, 30]) of the cards it would wait on after discarding one of that
    kind, no call standing (``BalikHeuristicBot._outs``: ``wait_for`` of the hand less that
    card; 0 where it would not wait), into ``outs`` ([m, 30]): the whole group it would
    wait in, or the kinds of it held ``least`` times or more (:func:`_calls_row`)."""
    m = hand.shape[0]
    n_groups = 0
    for k in range(_K):
        if of[k] + 1 > n_groups:
            n_groups = of[k] + 1
    hands = np.zeros((m, 1, _K), np.int64)
    totals = np.zeros((m, 1, n_groups), np.int64)
    for i in range(m):
        for k in range(_K):
            hands[i, 0, k] = hand[i, k]
            totals[i, 0, of[k]] += hand[i, k]
    scratch, _row = _scratch(n_groups)
    kind, keeps, held_g, short_g, wait_g, whole = scratch
    live_g = np.zeros(n_groups, np.int64)
    near_g = np.zeros(n_groups, np.int64)
    for i in range(m):
        for k in range(_K):
            outs[i, k] = 0
        how = _calls_row(hands, totals, i, 0, of, size, least, chiqui, kind, keeps, held_g,
                         short_g, wait_g, whole)  # fmt: skip
        if how == 0:
            continue
        live_g[:] = 0
        near_g[:] = 0
        for k in range(_K):
            live_g[of[k]] += live[i, k]
            if hand[i, k] >= least:
                near_g[of[k]] += live[i, k]
        for k in range(_K):
            if kind[k] == 0:
                continue
            g = wait_g[k]
            if whole[k]:
                outs[i, k] = live_g[g]
            else:
                # a discard from the group it waits in: that kind no longer held as before
                same = how == 1 and hand[i, k] == least
                outs[i, k] = near_g[g] - (live[i, k] if same else 0)


@_jit
def unseen(rows, current, claim_card, hands, pile, exposed, half_packs, out):  # type: ignore[no-untyped-def]
    """Copies of each kind the acting seat of each of ``rows`` has not seen
    (``SetsObservation.unseen``: the shoe less its own hand, the discard pile, the other
    seats' cards face up and a card shown for a claim), into ``out`` ([m, 30])."""
    n = hands.shape[1]
    for i in range(len(rows)):
        r = rows[i]
        s = current[r]
        for k in range(_K):
            out[i, k] = half_packs - hands[r, s, k] - pile[r, k]
        for t in range(n):  # seat by seat: each seat's line read in order
            if t != s:
                for k in range(_K):
                    out[i, k] -= exposed[r, t, k]
        c = claim_card[r]
        if c >= 0:
            out[i, c] -= 1
        for k in range(_K):
            if out[i, k] < 0:
                out[i, k] = 0


# -- a deal into rows -----------------------------------------------------------------------
@_jit
def deal_rows(  # type: ignore[no-untyped-def]
    rows, hands, totals, opens, stock, ints, flags, exposed, melded, pile, waits, wanted,
    changed, calls, order, claimants, unscored, d_hands, d_totals, d_opens, d_stock, d_ints,
    d_self_ok, kandang, mask, L, rules,
):  # fmt: skip
    """Hands dealt (``d_…``: :class:`cherki.vector.deal.Deals`, a line each) into ``rows``:
    their hands, totals, open groups, stock and whole numbers copied; everything else of
    the rows cleared (``SetsVector._deal_next``); their legal-action masks written
    (:func:`fill_mask`)."""
    n = hands.shape[1]
    of, size, least, chiqui, mode, lays = rules
    for i in range(len(rows)):
        r = rows[i]
        hands[r] = d_hands[i]
        totals[r] = d_totals[i]
        opens[r] = d_opens[i]
        for j in range(stock.shape[1]):
            stock[r, j] = d_stock[i, j]
        ints[:, r] = d_ints[:, i]
        flags[:, r] = False
        if kandang:
            flags[_SELF_OK, r] = d_self_ok[i]
        exposed[r] = 0
        melded[r] = 0
        pile[r] = 0
        waits[r] = False
        wanted[r] = False
        for s in range(n):
            changed[r, s] = False
            calls[r, s] = 0
            order[r, s] = -1
            claimants[r, s] = -1
        unscored[r] = True
    fill_mask(mask, rows, ints, L, flags, hands, totals, melded, calls, opens, of, size, least,
              chiqui, mode, lays)  # fmt: skip
