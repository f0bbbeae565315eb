"""A heuristic bot for Ceki (Kowah).

It plays from what its seat has seen (the observation only):

* wins whenever it may, and calls ceki whenever it can (with the discard whose couple has the
  most live outs, weighted by the couple's value);
* otherwise keeps the cards with most live outs: complete sets count most, high-value sets a
  little more, pairs and lone cards by how many cards that would complete them are unseen;
* takes the last discard only when that clearly improves its hand;
* when the next player has called, it avoids giving a double win: it prefers throwing a
  freshly drawn card straight away (a plain win at worst) and never discards a held card of
  a value the caller may still want, unless that card lets it call; values the caller has
  thrown since calling are known to be safe.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cherki.bots.base import Heuristic, register
from cherki.bots.weights import TunedWeights
from cherki.core.cards import N_KINDS, RANK
from cherki.core.contract import Observation
from cherki.core.errors import RulesError
from cherki.core.pieces import discard_breaks, take_joins
from cherki.core.sets import GROUP_KINDS, GROUPINGS, N_GROUPS
from cherki.core.view import Reason
from cherki.games.ceki import (
    CALL,
    CALL_DISCARD,
    DISCARD,
    DRAW,
    TAKE,
    WIN,
    CekiGame,
    CekiObservation,
    couple_group,
)


@dataclass(frozen=True)
class CekiWeights(TunedWeights):
    """The Ceki heuristic's constants: how it values a hand (:func:`hand_value`), when it
    takes a discard, how it chooses a couple to call on and how it weighs the danger of a
    discard after the next seat's call. The defaults are the hand-set ``heuristic`` bot's;
    a learned model may carry weights of its own (``cherki train ceki --method tune``,
    :mod:`cherki.tune`) for the heuristic it plays as its prior."""

    #: a complete set, and that much more a rank (three 9s are worth the most)
    set: float = 4.0
    set_rank: float = 0.15
    #: a couple (two cards of a value), each live card that would finish it (to
    #: ``couple_cap``), and that much more a rank
    couple: float = 0.6
    couple_out: float = 0.35
    couple_cap: int = 8
    couple_rank: float = 0.03
    #: a lone card, and each live card of its value (to ``couple_cap``)
    lone: float = 0.2
    lone_out: float = 0.05
    #: how much better a taken discard must make the hand than it is, to take it
    take: float = 1.0
    #: a call's couple: each live card that would finish it weighs ``call_out`` ranks
    call_out: float = 10.0
    #: after the next seat's call, what throwing a card it may want costs the hand's value:
    #: the card just drawn (a plain win at worst), a card held (a double win)
    danger_fresh: float = 1.5
    danger_held: float = 6.0


#: the hand-set heuristic's weights
CEKI_WEIGHTS = CekiWeights()


def hand_value(
    hand: Sequence[int], live: Sequence[int], honours: str = "own", w: CekiWeights = CEKI_WEIGHTS
) -> float:
    """How close eight (or nine) cards are to three sets (higher is better), by the
    weights ``w``."""
    grouping = GROUPINGS[honours]
    kinds_of = GROUP_KINDS[honours]
    cap = w.couple_cap
    totals = [0] * N_GROUPS
    for k in range(N_KINDS):
        totals[grouping[k]] += hand[k]
    value = 0.0
    for g in range(N_GROUPS):
        t = totals[g]
        if not t:
            continue
        kinds = kinds_of[g]
        rank = RANK[kinds[0]]
        value += (t // 3) * (w.set + w.set_rank * rank)
        rest = t % 3
        if rest:
            outs = sum(live[k] for k in kinds)
            if rest == 2:
                value += w.couple + w.couple_out * min(outs, cap) + w.couple_rank * rank
            else:
                value += w.lone + w.lone_out * min(outs, cap)
    return value


class CekiHeuristicBot(Heuristic):
    name = "heuristic"
    #: a seat's stake in a hand, about 150 points (the heuristic's mean |payment| at four
    #: players: 170, median 130)
    review_scale = 150.0
    weights_type = CekiWeights

    def __init__(self, weights: CekiWeights | None = None) -> None:
        #: the constants it plays by: the hand-set ones, or a learned model's for the
        #: prior it plays (:mod:`cherki.bots.learned`)
        self.weights = weights or CEKI_WEIGHTS

    def act(self, obs: Observation, rng: random.Random) -> int:
        if not isinstance(obs, CekiObservation):
            raise RulesError(f"Ceki's heuristic cannot read {type(obs).__name__}")
        legal = obs.legal
        if WIN in legal:
            return WIN
        if len(legal) == 1:
            return legal[0]
        if CALL in legal:
            return CALL
        live = obs.unseen()
        hand = list(obs.hand)
        if obs.phase == "draw":
            if TAKE in legal and obs.top is not None:
                w = self.weights
                now = hand_value(hand, live, obs.honours, w)
                hand[obs.top] += 1
                best = max(
                    self._after(hand, k, live, obs.honours, w)
                    for k in range(N_KINDS)
                    if hand[k] and k != obs.top
                )
                hand[obs.top] -= 1
                if best > now + w.take:
                    return TAKE
            return DRAW if DRAW in legal else legal[0]
        calls = [a for a in legal if a >= CALL_DISCARD]
        if calls:
            return max(calls, key=lambda a: (self._call_value(hand, a, live, obs), rng.random()))
        discards = [a for a in legal if DISCARD <= a < CALL_DISCARD]
        danger = self._danger(obs)
        return max(
            discards,
            key=lambda a: (
                self._after(hand, a - DISCARD, live, obs.honours, self.weights)
                - danger(a - DISCARD),
                rng.random(),
            ),
        )

    def explain(self, obs: Observation) -> list[Reason]:
        """The pick (``act`` with ``random.Random(0)``) and why, from the measures ``act``
        weighs: a win, a call (always; with a discard: the couple with the most live cards),
        a take or a draw (whether the card makes the hand clearly better), the discard that
        hurts the hand least, and whether the next player's call made it play safe."""
        if not isinstance(obs, CekiObservation):
            raise RulesError(f"Ceki's heuristic cannot read {type(obs).__name__}")
        legal = obs.legal
        if not legal:
            return []
        pick = self.act(obs, random.Random(0))
        live = obs.unseen()
        hand = list(obs.hand)
        if pick == WIN:
            return [Reason("wins", pick)]
        if len(legal) == 1:
            return [Reason("only", pick)]
        if pick == CALL:
            return [Reason("ceki_call", pick)]
        if obs.phase == "draw":
            if TAKE not in legal or obs.top is None:
                return [Reason("draw_only", pick)]
            joins = take_joins(hand, obs.top, live, obs.honours, 3)
            kind = "take" if pick == TAKE else "draw"
            other = DRAW if pick == TAKE else TAKE
            return [
                Reason(f"{kind}_{joins.kind}", pick, cards=joins.cards, n=joins.live, other=other)
            ]
        if pick >= CALL_DISCARD:
            calls = [a for a in legal if a >= CALL_DISCARD]
            k = pick - CALL_DISCARD
            hand[k] -= 1
            g = couple_group(hand, GROUPINGS[obs.honours])
            hand[k] += 1
            outs = sum(live[c] for c in GROUP_KINDS[obs.honours][g]) if g >= 0 else 0
            kind = "ceki_couple" if len(calls) > 1 else "ceki_couple_one"
            return [Reason(kind, pick, cards=(k,), n=outs, m=len(calls))]
        k = pick - DISCARD
        broken = discard_breaks(hand, k, live, obs.honours, 3)
        out = [Reason(f"discard_{broken.kind}", pick, cards=broken.cards, n=broken.live)]
        nxt = (obs.seat + 1) % obs.players
        if obs.called[nxt]:
            danger = self._danger(obs)
            out.append(
                Reason(
                    "ceki_fresh" if k == obs.drawn and danger(k) else "ceki_safe", pick, cards=(k,)
                )
            )
        return out

    @staticmethod
    def _after(hand: list[int], k: int, live: Sequence[int], honours: str, w: CekiWeights) -> float:
        hand[k] -= 1
        v = hand_value(hand, live, honours, w)
        hand[k] += 1
        return v

    def _call_value(
        self, hand: list[int], action: int, live: Sequence[int], obs: CekiObservation
    ) -> float:
        k = action - CALL_DISCARD
        grouping = GROUPINGS[obs.honours]
        hand[k] -= 1
        g = couple_group(hand, grouping)
        hand[k] += 1
        kinds = GROUP_KINDS[obs.honours][g]
        outs = sum(live[c] for c in kinds)
        return outs * self.weights.call_out + RANK[kinds[0]]

    def _danger(self, obs: CekiObservation) -> Callable[[int], float]:
        """Penalty for discarding each kind, from the next seat's call."""
        nxt = (obs.seat + 1) % obs.players
        if not obs.called[nxt]:
            return lambda k: 0.0
        grouping = GROUPINGS[obs.honours]
        safe = {
            grouping[c]
            for i, c in enumerate(obs.pile)
            if obs.pile_seats[i] == nxt and i >= obs.called_at[nxt]
        }
        drawn = obs.drawn
        fresh, held = self.weights.danger_fresh, self.weights.danger_held

        def penalty(k: int) -> float:
            if grouping[k] in safe:
                return 0.0
            if k == drawn:
                return fresh  # a plain win at worst
            return held  # a double win: keep held cards back

        return penalty


register(CekiGame.family, "heuristic")(CekiHeuristicBot)
