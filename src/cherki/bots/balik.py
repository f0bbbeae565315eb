"""A heuristic bot for Balik Satu and Balik Lima Belas.

It plays for the hand from what its seat has seen:

* wins whenever it may (sampei), and claims every winning card shown to it;
* calls as soon as a discard leaves a waiting hand, choosing the discard whose wait has the
  most live outs (copies not yet seen from its seat);
* otherwise discards the card whose loss hurts its hand least, valuing complete sets, mata,
  identical pairs (future mata) and part-sets by how many cards that could finish them are
  still live;
* takes the last discard only when that makes its hand clearly better than it is.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cherki.bots.base import register
from cherki.cards import N_KINDS
from cherki.games.balik import (
    CALL_TAN,
    DISCARD,
    DRAW,
    PASS,
    SAMPEI,
    TAKE,
    BalikObservation,
)
from cherki.sets import GROUP_KINDS, GROUPINGS, N_GROUPS, wait_for


def hand_value(hand: Sequence[int], live: Sequence[int], honours: str = "rank1") -> float:
    """How close a hand is to five sets with a mata (higher is better).

    A complete set is worth far more than any part-set, so the bot never breaks one to chase
    outs; part-sets are worth more the more cards that finish them are still live; a mata
    (needed to win) and identical pairs (future mata) add to that.
    """
    grouping = GROUPINGS[honours]
    kinds_of = GROUP_KINDS[honours]
    totals = [0] * N_GROUPS
    for k in range(N_KINDS):
        totals[grouping[k]] += hand[k]
    value = 0.0
    mata = 0
    pairs = 0.0
    for g in range(N_GROUPS):
        t = totals[g]
        if not t:
            continue
        value += 6.0 * (t // 3)
        rest = t % 3
        if rest:
            outs = sum(live[k] for k in kinds_of[g])
            value += (1.6 + 0.12 * min(outs, 10)) if rest == 2 else (0.3 + 0.04 * min(outs, 10))
        for k in kinds_of[g]:
            c = hand[k]
            if c >= 3:
                mata += c // 3
            elif c == 2:
                pairs += 0.3 + 0.15 * min(live[k], 3)
    value += (3.0 if mata else 0.0) + 0.6 * max(0, mata - 1) + (pairs if not mata else pairs * 0.3)
    return value


class BalikHeuristicBot:
    name = "heuristic"

    def act(self, obs: BalikObservation, rng: random.Random) -> int:
        legal = obs.legal
        if SAMPEI in legal:
            return SAMPEI
        if PASS in legal:  # only a claim window offers pass; sampei was handled
            return PASS
        live = obs.unseen()
        hand = list(obs.hand)
        if obs.phase == "draw":
            if TAKE in legal and obs.top is not None:
                now = hand_value(hand, live, obs.honours)
                hand[obs.top] += 1
                best = max(
                    self._after(hand, k, live, obs.honours) for k in range(N_KINDS) if hand[k]
                )
                hand[obs.top] -= 1
                if best > now + 1.0:
                    return TAKE
            return DRAW
        calls = [a for a in legal if a >= CALL_TAN]
        if calls and obs.calls[obs.seat] is None:
            return max(calls, key=lambda a: (self._outs(hand, a, live, obs.honours), rng.random()))
        if calls:  # a caller's change of call (ceki -> tan) is always an improvement
            return calls[0]
        discards = [a for a in legal if DISCARD <= a < CALL_TAN]
        if not discards:
            return rng.choice(list(legal))
        return max(
            discards,
            key=lambda a: (self._after(hand, a - DISCARD, live, obs.honours), rng.random()),
        )

    def sure(self, obs: BalikObservation) -> int | None:
        """An action no search could better: winning."""
        return SAMPEI if SAMPEI in obs.legal else None

    def rank(self, obs: BalikObservation) -> list[int]:
        """Legal actions, best first by the heuristic's own measure (for search bots)."""
        legal = list(obs.legal)
        if SAMPEI in legal:
            return [SAMPEI] + [a for a in legal if a != SAMPEI]
        if obs.phase != "discard":
            first = self.act(obs, random.Random(0))
            return [first] + [a for a in legal if a != first]
        live = obs.unseen()
        hand = list(obs.hand)

        def score(a: int) -> float:
            if a >= CALL_TAN:
                return 1000.0 + self._outs(hand, a, live, obs.honours)
            return self._after(hand, a - DISCARD, live, obs.honours)

        return sorted(legal, key=score, reverse=True)

    @staticmethod
    def _after(hand: list[int], k: int, live: Sequence[int], honours: str) -> float:
        hand[k] -= 1
        v = hand_value(hand, live, honours)
        hand[k] += 1
        return v

    @staticmethod
    def _outs(hand: list[int], action: int, live: Sequence[int], honours: str) -> int:
        k = (action - DISCARD) % N_KINDS
        hand[k] -= 1
        w = wait_for(hand, GROUPINGS[honours])
        hand[k] += 1
        return sum(live[c] for c in w.cards)


for _game in ("balik-satu", "balik-lima-belas"):
    register(_game, "heuristic")(BalikHeuristicBot)
