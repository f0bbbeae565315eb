"""Sampling the hidden cards of a game of sets as one seat's observation allows (search).

Our specifications
------------------
* **Every public commitment is kept.** ``determinize(obs)`` gives a full state whose hidden
  cards agree with everything ``obs.seat`` has seen: each seat holds the cards it is known to
  hold (draws shown to all, discards taken, olo laid); each caller's hand, less the card it
  drew this turn, waits under its call (:func:`~cherki.games.sets.calls.keeps_call`: the
  condition the rules check when a call is made or kept); the seat deciding on a claim can
  win the card offered; a caller to act in its discard holds the card it drew (one of the
  cards it showed this turn: once anyone has called, every draw is shown). ``record_faults``
  of the state it gives is empty, and the seat to act has legal actions.
* **How a constrained hand is dealt.** Constrained seats are dealt first, each from the
  cards still unseen. A waiting hand is one whose value groups all hold whole sets but one,
  the open group, one card short; that condition on group totals is met exactly and
  uniformly (over the physical cards unseen) by :class:`~cherki.core.sample.OpenGroupSampler`.
  What the call adds (a mata held for tan, none for ceki, the open group holding the offered
  card for a claim) is then met by rejection, at most :data:`REJECTIONS` draws, which keeps
  the draw uniform among consistent hands; where all of those miss, the hand is *built*: the
  mata (tan) or the identical part-set (ceki) of one kind is placed first and the rest drawn
  exactly as before. Only when the constrained hands dealt first left no consistent hand for
  a later one is the whole deal started again (at most :data:`ATTEMPTS` times), and only
  then would a seat get an unconstrained hand (never seen in the measurements of
  docs/bots.md).
* **What is not used.** Negative information (a caller that did not claim a card shown
  earlier does not wait on it, a seat that passed a claim) is not used: the hands are
  consistent with every positive commitment, not conditioned on every non-event. Unconstrained
  hands are uniform from the unseen cards (or, with ``hand_weight``, the better organised of
  a few draws, for the heuristic bots).
* A non-caller to act in its discard, seen by another seat, gets no drawn card (its draw may
  have been private); it discards from its hand as usual.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Final

from cherki.core.cards import N_KINDS
from cherki.core.contract import Game
from cherki.core.deal import DealInfo, shuffled
from cherki.core.sample import take, waiting_sampler
from cherki.core.sets import GROUPINGS, NO_WAIT, wait_for
from cherki.games.sets.actions import (
    CALL_TAN,
    FROM_DISCARD,
    FROM_STOCK,
    PHASE_CLAIM,
    PHASE_DISCARD,
    PHASE_NAMES,
    SAMPEI,
)
from cherki.games.sets.calls import call_wait
from cherki.games.sets.observation import SetsObservation
from cherki.games.sets.rules import SetsRules
from cherki.games.sets.state import SetsState

#: draws of a waiting hand tried for the call's own condition before one is built
REJECTIONS: Final = 16
#: deals started again when hands dealt first left none for a later caller
ATTEMPTS: Final = 12


def determinize(
    obs: SetsObservation,
    rng: random.Random,
    game: Game,
    hand_weight: Callable[[list[int]], float] | None = None,
    tries: int = 8,
) -> SetsState:
    """A full state consistent with what ``obs.seat`` knows, hidden cards sampled at random
    (see the module's specifications): every call, claim and shown card honoured.

    Used by search bots, which must never look at the real hidden cards. ``hand_weight``
    (optional) picks unconstrained hands among ``tries`` draws, the better organised likelier.
    """
    rules = obs.rules
    n = obs.players
    cur = obs.current
    phase = PHASE_NAMES.index(obs.phase)
    # what the record asks of each other seat: (call or None, the card it must win on, the
    # cards it may have drawn this turn, empty when it holds no drawn card)
    demands: dict[int, tuple[str | None, int | None, list[int]]] = {}
    for t in range(n):
        if t == obs.seat:
            continue
        call = obs.calls[t]
        on = None
        if phase == PHASE_CLAIM and obs.claimants and obs.claimants[0] == t:
            on = obs.claim_card
        draws: list[int] = []
        if call is not None and t == cur and phase == PHASE_DISCARD:
            draws = _shown_draws(obs, t)
        if call is not None or on is not None:
            demands[t] = (call, on, draws)
    hands: list[list[int]] = []
    drawn_now = -1
    for attempt in range(ATTEMPTS + 1):
        got = _deal(obs, demands, rng, hand_weight, tries, strict=attempt < ATTEMPTS)
        if got is not None:
            hands, drawn_now = got
            break
    avail = obs.unseen()
    for t in range(n):
        if t != obs.seat:
            take(avail, hands[t], obs.exposed[t])
    stock = shuffled([k for k, c in enumerate(avail) for _ in range(c)], rng)
    drawn = obs.drawn if obs.drawn is not None else -1
    drawn_from = obs.drawn_from
    self_win_ok = SAMPEI in obs.legal and phase == PHASE_DISCARD
    if drawn_now >= 0:
        drawn = drawn_now
        # a discard taken leaves no top to take; a draw from the stock leaves the last one
        drawn_from = FROM_STOCK if obs.top_available else FROM_DISCARD
    cores = [list(h) for h in hands]
    if phase == PHASE_DISCARD and drawn >= 0 and 0 <= cur < n:
        cores[cur][drawn] -= 1
    waits = [
        call_wait(obs.calls[t], cores[t], rules) if obs.calls[t] else NO_WAIT for t in range(n)
    ]
    if cur != obs.seat and cur in demands and drawn_from == FROM_STOCK:
        # a caller that drew a card it waits on may say sampei
        self_win_ok = drawn in waits[cur].cards
    claimants = list(obs.claimants)
    if phase == PHASE_CLAIM and obs.claim_card is not None:
        # the claimants after the one deciding now, as the sampled hands make them
        later = [
            (cur + i) % n
            for i in range(1, n)
            if obs.calls[(cur + i) % n] and obs.claim_card in waits[(cur + i) % n].cards
        ]
        claimants += [t for t in later if t not in obs.claimants and t != obs.claim_drawer]
    return SetsState(
        game,
        rules,
        hands,
        stock,
        obs.first,
        obs.half_packs,
        DealInfo(obs.first, determinized=True),
        obs.context,
        pile=list(obs.pile),
        pile_seats=list(obs.pile_seats),
        top_available=obs.top_available,
        calls=list(obs.calls),
        call_changed=list(obs.call_changed),
        call_order=list(obs.call_order) if obs.call_order else None,
        waits=waits,
        exposed=[list(e) for e in obs.exposed],
        melded=[list(m) for m in obs.melds] if obs.melds else None,
        current=cur,
        phase=phase,
        drawn=drawn,
        drawn_from=drawn_from,
        claimants=claimants,
        claim_card=obs.claim_card if obs.claim_card is not None else -1,
        claim_drawer=obs.claim_drawer,
        claim_from_discard=obs.claim_from_discard,
        log=[],
        self_win_ok=self_win_ok,
        lapsed=_lapsed(obs, hands[obs.seat], rules) if rules.call_timing == "next" else None,
    )


def _shown_draws(obs: SetsObservation, t: int) -> list[int]:
    """The cards caller ``t``, to discard, may have drawn this turn: those it showed (a draw
    shown to all and a discard taken both count among its ``exposed`` cards), one copy per
    card shown, those it may throw first."""
    shown = obs.exposed[t]
    melds = obs.melds[t] if obs.melds else (0,) * N_KINDS
    free = [k for k in range(N_KINDS) for _ in range(shown[k] - melds[k])]
    return free or [k for k in range(N_KINDS) for _ in range(shown[k])]


def _deal(
    obs: SetsObservation,
    demands: dict[int, tuple[str | None, int | None, list[int]]],
    rng: random.Random,
    hand_weight: Callable[[list[int]], float] | None,
    tries: int,
    *,
    strict: bool,
) -> tuple[list[list[int]], int] | None:
    """Every seat's hand: the demanding seats first (in a random order), then the rest; and
    the card the seat to act drew, where it is a caller seen by another seat (else -1). A
    caller to act tries the cards it may have drawn in a random order (each copy shown
    counts once, so a card shown twice is twice as likely). None if a demanding seat found
    no consistent hand (``strict``); otherwise such a seat gets an unconstrained one."""
    rules = obs.rules
    avail = obs.unseen()
    hands: list[list[int]] = [[] for _ in range(obs.players)]
    hands[obs.seat] = list(obs.hand)
    order = list(demands)
    rng.shuffle(order)
    drawn_now = -1
    for t in order:
        call, on, draws = demands[t]
        known = list(obs.exposed[t])
        need = obs.hand_sizes[t] - sum(known)
        h = None
        drawn = -1
        for drawn in _shuffled_once(draws, rng) if draws else [-1]:
            if drawn >= 0:  # the card drawn stays out of the waiting hand
                known[drawn] -= 1
            h = sample_waiting(avail, known, need, rules, call, on, rng)[0]
            if drawn >= 0:
                known[drawn] += 1
            if h is not None:
                break
        if h is None:
            if strict:
                return None
            h = _random_hand(avail, known, need, rng)
        elif drawn >= 0:
            h[drawn] += 1
            drawn_now = drawn
        take(avail, h, known)
        hands[t] = h
    for t in range(obs.players):
        if t == obs.seat or t in demands:
            continue
        known = list(obs.exposed[t])
        need = obs.hand_sizes[t] - sum(known)
        options = [_random_hand(avail, known, need, rng)]
        if hand_weight is not None:  # hands people keep: the better organised, the likelier
            options += [_random_hand(avail, known, need, rng) for _ in range(tries - 1)]
            weights = [math.exp(hand_weight(c)) for c in options]
            h = rng.choices(options, weights=weights)[0]
        else:
            h = options[0]
        take(avail, h, known)
        hands[t] = h
    return hands, drawn_now


def _shuffled_once(cards: list[int], rng: random.Random) -> list[int]:
    """``cards`` in a random order (each copy weighted), each kind once."""
    out: list[int] = []
    for k in rng.sample(cards, len(cards)):
        if k not in out:
            out.append(k)
    return out


def _random_hand(
    avail: Sequence[int], known: Sequence[int], need: int, rng: random.Random
) -> list[int]:
    pool = [k for k, c in enumerate(avail) for _ in range(c)]
    h = list(known)
    for k in rng.sample(pool, max(0, min(need, len(pool)))):
        h[k] += 1
    return h


def _lapsed(obs: SetsObservation, hand: list[int], rules: SetsRules) -> list[bool]:
    """Option call_timing=next: whether the observing seat has let its chance to call pass
    (the other seats' chances are theirs: they keep them). At its own discard its legal
    actions say so; otherwise its hand between turns is the one its last discard left, so
    a hand a card from winning and uncalled has let it pass (except a hand so dealt, which
    the observation does not tell apart: the sample errs to the strict side)."""
    out = [False] * obs.players
    me = obs.seat
    if obs.calls[me] is not None:
        return out
    if obs.phase == PHASE_NAMES[PHASE_DISCARD] and obs.current == me:
        out[me] = not any(a >= CALL_TAN for a in obs.legal) and bool(_could_call(hand, rules))
    else:
        grouping = GROUPINGS[rules.honours]
        out[me] = wait_for(hand, grouping, rules.set_size, rules.goes_out_on_pair).call is not None
    return out


def _could_call(hand: list[int], rules: SetsRules) -> bool:
    """Whether some discard from a full ``hand`` leaves it a card from winning."""
    grouping = GROUPINGS[rules.honours]
    for k, c in enumerate(hand):
        if c:
            hand[k] -= 1
            w = wait_for(hand, grouping, rules.set_size, rules.goes_out_on_pair)
            hand[k] += 1
            if w.call is not None:
                return True
    return False


def sample_waiting(
    avail: Sequence[int],
    known: Sequence[int],
    need: int,
    rules: SetsRules,
    call: str | None,
    on: int | None,
    rng: random.Random,
) -> tuple[list[int] | None, str]:
    """A hand of ``known`` plus ``need`` cards of ``avail`` that waits under ``call`` (with
    ``on``: waits on that card; ``call`` None: under either call), and how it was found:
    ``"drawn"`` (uniform among the hands with one open group, kept at the call's own test),
    ``"built"`` (its mata or part-set placed first), or ``"none"`` (no such hand found).
    """
    size = rules.set_size
    grouping = GROUPINGS[rules.honours]
    if need < 0 or (sum(known) + need) % size != size - 1:
        return None, "none"

    def keeps(h: list[int]) -> bool:
        if call is None:
            w = wait_for(h, grouping, size, rules.goes_out_on_pair)
        else:
            w = call_wait(call, h, rules)
            if w.call != call:
                return False
        return bool(w.cards) and (on is None or on in w.cards)

    sampler = waiting_sampler(
        tuple(avail),
        tuple(known),
        need,
        rules.honours,
        size,
        None,
        None if on is None else (grouping[on],),
    )
    if not sampler.possible:
        return None, "none"
    for _ in range(REJECTIONS):
        h = sampler.draw(rng)
        if h is not None and keeps(h):
            return h, "drawn"
    # built: a mata (tan) or an identical part-set of the open group (ceki) placed first
    seeds: list[tuple[int, int]] = []
    if call in ("tan", None):
        seeds += [(k, size) for k in range(N_KINDS) if known[k] + avail[k] >= size]
    if call in ("ceki", None):
        seeds += [
            (k, size - 1)
            for k in range(N_KINDS)
            if known[k] <= size - 1 <= known[k] + avail[k]
            and (on is None or grouping[k] == grouping[on])
        ]
    rng.shuffle(seeds)
    if on is not None:  # the offered card's own part-set first: it surely waits on it
        seeds.sort(key=lambda s: s[0] != on)
    for k, count in seeds[:12]:
        left = list(avail)
        base = list(known)
        extra = max(0, count - base[k])
        left[k] -= extra
        base[k] += extra
        if count == size - 1:
            left[k] = 0  # the part-set stays one short of a mata
        part = waiting_sampler(
            tuple(left),
            tuple(base),
            need - extra,
            rules.honours,
            size,
            None,
            (grouping[k],) if count == size - 1 else None if on is None else (grouping[on],),
        )
        h = part.draw(rng)
        if h is not None and keeps(h):
            return h, "built"
    return None, "none"
