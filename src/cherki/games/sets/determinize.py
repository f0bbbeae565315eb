"""Sampling the hidden cards of a game of sets as one seat's observation allows (search)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from cherki.core.cards import (
    N_KINDS,
)
from cherki.core.deal import DealInfo, shuffled
from cherki.core.sets import (
    GROUP_KINDS,
    GROUPINGS,
    N_GROUPS,
    NO_WAIT,
    wait_for,
)
from cherki.games.sets.actions import CALL_TAN, PHASE_CLAIM, PHASE_DISCARD, PHASE_NAMES, SAMPEI
from cherki.games.sets.observation import SetsObservation
from cherki.games.sets.rules import SetsRules
from cherki.games.sets.state import SetsState

if TYPE_CHECKING:
    from cherki.games.sets.game import SetsGame


def determinize(
    obs: SetsObservation,
    rng: random.Random,
    game: SetsGame,
    hand_weight: Callable[[list[int]], float] | None = None,
    tries: int = 8,
) -> SetsState:
    """A full state consistent with what ``obs.seat`` knows, hidden cards sampled at random.

    Other seats keep the cards they are known to hold and get the rest of their hand from the
    cards this seat has not seen; the stock is the remainder, shuffled. Used by search bots,
    which must never look at the real hidden cards.
    """
    rules = obs.rules
    n = obs.players
    avail = obs.unseen()
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[obs.seat] = list(obs.hand)
    others = [t for t in range(n) if t != obs.seat]
    # callers first: their hands must really wait with the call they made
    for t in sorted(others, key=lambda t: obs.calls[t] is None):
        need = obs.hand_sizes[t] - sum(obs.exposed[t])
        call = obs.calls[t]
        h = _sample_waiting(avail, obs.exposed[t], need, rules, call, rng) if call else None
        if h is None:
            pool = [k for k, c in enumerate(avail) for _ in range(c)]
            options = []
            for _ in range(tries if hand_weight is not None else 1):
                cand = list(obs.exposed[t])
                for k in rng.sample(pool, need):
                    cand[k] += 1
                options.append(cand)
            if hand_weight is None:
                h = options[0]
            else:  # hands people keep: the better organised, the likelier
                weights = [math.exp(hand_weight(c)) for c in options]
                h = rng.choices(options, weights=weights)[0]
        for k in range(N_KINDS):
            avail[k] -= h[k] - obs.exposed[t][k]
        hands[t] = h
    stock = shuffled([k for k, c in enumerate(avail) for _ in range(c)], rng)
    grouping = GROUPINGS[rules.honours]
    waits = [
        wait_for(hands[t], grouping, rules.set_size, rules.chiqui) if obs.calls[t] else NO_WAIT
        for t in range(n)
    ]
    phase = PHASE_NAMES.index(obs.phase)
    claimants = list(obs.claimants)
    if phase == PHASE_CLAIM and obs.claim_card is not None:
        # the claimants after the one deciding now, as the sampled hands make them
        later = [
            (obs.current + i) % n
            for i in range(1, n)
            if obs.calls[(obs.current + i) % n]
            and obs.claim_card in waits[(obs.current + i) % n].cards
        ]
        claimants += [t for t in later if t not in obs.claimants and t != obs.claim_drawer]
    st = SetsState(
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
        current=obs.current,
        phase=phase,
        drawn=obs.drawn if obs.drawn is not None else -1,
        drawn_from=obs.drawn_from,
        claimants=claimants,
        claim_card=obs.claim_card if obs.claim_card is not None else -1,
        claim_drawer=obs.claim_drawer,
        claim_from_discard=obs.claim_from_discard,
        log=[],
        self_win_ok=SAMPEI in obs.legal and phase == PHASE_DISCARD,
        lapsed=_lapsed(obs, hands[obs.seat], rules) if rules.call_timing == "next" else None,
    )
    return st


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
        out[me] = wait_for(hand, grouping, rules.set_size, rules.chiqui).call is not None
    return out


def _could_call(hand: list[int], rules: SetsRules) -> bool:
    """Whether some discard from a full ``hand`` leaves it a card from winning."""
    grouping = GROUPINGS[rules.honours]
    for k, c in enumerate(hand):
        if c:
            hand[k] -= 1
            w = wait_for(hand, grouping, rules.set_size, rules.chiqui)
            hand[k] += 1
            if w.call is not None:
                return True
    return False


def _sample_waiting(
    avail: Sequence[int],
    known: Sequence[int],
    need: int,
    rules: SetsRules,
    call: str,
    rng: random.Random,
    tries: int = 24,
) -> list[int] | None:
    """A hand for a seat that has called: its ``known`` cards plus ``need`` cards from
    ``avail``, one card from winning with that very call (None if no try finds one).

    Built, not merely drawn: pick the open group, bring every group to a whole number of sets
    (the open one to a set less one card), then add whole sets, a mata among them for a tan
    call, and keep the first hand whose wait really is ``call``.
    """
    size = rules.set_size
    grouping = GROUPINGS[rules.honours]
    kinds_of = GROUP_KINDS[rules.honours]
    if (sum(known) + need) % size != size - 1:
        return None
    base = sum(known)
    groups = [g for g in range(N_GROUPS) if kinds_of[g]]
    for _ in range(tries):
        left = list(avail)
        h = list(known)
        open_g = rng.choice(groups)
        ok = True
        if call == "ceki":  # the open set is an identical part-set, the hope of a mata
            pair = [k for k in kinds_of[open_g] if h[k] == 0 and left[k] >= size - 1]
            if not pair:
                continue
            k = rng.choice(pair)
            left[k] -= size - 1
            h[k] += size - 1
        for g in groups:
            want = size - 1 if g == open_g else 0
            while ok and sum(h[k] for k in kinds_of[g]) % size != want:
                ok = _take_one(left, h, kinds_of[g], rng)
        if call == "tan" and ok and not any(c >= size for c in h):
            triple = [k for k in range(N_KINDS) if left[k] >= size]
            if not triple:
                continue
            k = rng.choice(triple)
            left[k] -= size
            h[k] += size
        while ok and sum(h) - base < need:
            g = rng.choice(groups)
            for _ in range(size):
                ok = ok and _take_one(left, h, kinds_of[g], rng)
        if not ok or sum(h) - base != need:
            continue
        w = wait_for(h, grouping, size, rules.chiqui)
        if w.call == call and w.cards:
            return h
    return None


def _take_one(left: list[int], hand: list[int], kinds: Sequence[int], rng: random.Random) -> bool:
    """Move one random card (weighted by copies left) of ``kinds`` from ``left`` to ``hand``."""
    pool = [k for k in kinds if left[k] > 0]
    if not pool:
        return False
    k = rng.choices(pool, weights=[left[k] for k in pool])[0]
    left[k] -= 1
    hand[k] += 1
    return True
