"""A heuristic bot for Cholek Tiga.

It plays from what its seat has seen (the observation only):

* captures whenever a capture adds value, choosing the two pool cards that do most for its
  piles: identical sets (with the ayam / kandang bonus when all three are identical), red
  cards (which score singly and in pairs), and cards of kinds it already holds;
* declines a capture only when every choice is worth nothing to it;
* discards the card that captures now if one does; otherwise the card least likely to give
  the next player a capture: one whose rank has fewest cards in the pool and fewest unseen,
  keeping red cards and cards that pair with the pool for later.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from cherki.bots.base import Heuristic, register
from cherki.bots.weights import TunedWeights
from cherki.core.cards import IS_RED, N_KINDS
from cherki.core.contract import Observation, State
from cherki.core.errors import RulesError
from cherki.core.sets import GROUP_KINDS, GROUPINGS
from cherki.core.view import Reason
from cherki.games.cholek import (
    CAPTURE,
    CAPTURES,
    DISCARD,
    PASS,
    TURN,
    CholekGame,
    CholekObservation,
    score_captured,
)
from cherki.games.cholek.state import CholekState


@dataclass(frozen=True)
class CholekWeights(TunedWeights):
    """The Cholek Tiga heuristic's constants: how it values its piles (:func:`pile_value`),
    a capture, and the risk of a discard. The defaults are the hand-set ``heuristic``
    bot's; a learned model may carry weights of its own (``cherki train cholek-tiga
    --method tune``, :mod:`cherki.tune`) for the heuristic it plays as its prior."""

    #: each normal card captured toward an identical set (a pile of one or two of a kind)
    progress: float = 0.4
    #: an ang pow and an ang pow besar in the piles (money at 10¢ a point)
    ang: float = 10.0
    besar: float = 20.0
    #: three identical cards captured: an ayam (the active card from the hand), a kandang
    ayam: float = 5.0
    kandang: float = 10.0
    #: what a capture is worth besides its cards (they are denied to the others)
    deny: float = 0.3
    #: a discard that captures at once, before what the capture adds
    capture_now: float = 10.0
    #: a discard's risk of giving the next player a capture: a live card of its rank
    #: weighs ``risk_one`` (a quarter of it a card) where one card of the rank is in the
    #: pool, ``risk_none`` where none is; a red card adds ``risk_red``, a card of a rank in
    #: the pool that it holds another of ``risk_pair``
    risk_one: float = 2.0
    risk_none: float = 0.5
    risk_red: float = 1.5
    risk_pair: float = 0.2


#: the hand-set heuristic's weights
CHOLEK_WEIGHTS = CholekWeights()


def pile_value(counts: Sequence[int], w: CholekWeights = CHOLEK_WEIGHTS) -> float:
    """Points of captured cards plus a little for progress toward identical sets; ang pow
    money counted at 10¢ a point (by the weights ``w``)."""
    points, _, ang, besar = score_captured(counts)
    value = float(points) + w.ang * len(ang) + w.besar * len(besar)
    for k in range(N_KINDS):
        c = counts[k]
        if not IS_RED[k] and 0 < c < 3:
            value += w.progress * c
    return value


def progress_value(counts: Sequence[int]) -> float:
    """Points of captured cards plus a little for each normal card toward an identical set."""
    value = float(score_captured(counts)[0])
    for k in range(N_KINDS):
        c = counts[k]
        if not IS_RED[k] and 0 < c < 3:
            value += 0.4 * c
    return value


class CholekHeuristicBot(Heuristic):
    name = "heuristic"
    #: the search's rollouts stop after this many actions (about four turns of play) and
    #: value the game from the piles (:meth:`leaf_value`)
    rollout_depth = 16
    #: short rollouts (16 actions): 256 deals take about 0.2 s a decision
    search_rollouts = 256
    #: a seat's stake in a hand, about 20 points (the heuristic's mean |payment|: 20.2)
    review_scale = 20.0
    weights_type = CholekWeights

    def __init__(self, weights: CholekWeights | None = None) -> None:
        #: the constants it plays by: the hand-set ones, or a learned model's for the
        #: prior it plays (:mod:`cherki.bots.learned`)
        self.weights = weights or CHOLEK_WEIGHTS

    def leaf_value(self, state: State, seat: int) -> float:
        """A game in progress valued for ``seat``: each seat's points so far plus a little
        for sets under way, and the seat's lead over the others' mean, times the number of
        others (what the top scorer is paid when the game ends so)."""
        if state.is_terminal:
            return float(state.result.payments[seat])
        if not isinstance(state, CholekState):
            raise RulesError(f"Cholek Tiga's heuristic cannot value {type(state).__name__}")
        est = [progress_value(c) for c in state.captured]
        others = [v for i, v in enumerate(est) if i != seat]
        return (est[seat] - sum(others) / len(others)) * len(others)

    def act(self, obs: Observation, rng: random.Random) -> int:
        if not isinstance(obs, CholekObservation):
            raise RulesError(f"Cholek Tiga's heuristic cannot read {type(obs).__name__}")
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        if obs.phase == "capture":
            return self._capture(obs, rng)
        if TURN in legal:
            return TURN
        return self._discard(obs, rng)

    def explain(self, obs: Observation) -> list[Reason]:
        """The pick (``act`` with ``random.Random(0)``) and why: the capture that adds most
        to its piles (``n``: its points gained, ``m``: the captures open), a bonus of three
        identical cards, a capture declined as worth nothing, the card that captures at
        once, or the card least likely to give the next player a capture (``n``: the cards
        of its rank in the pool)."""
        if not isinstance(obs, CholekObservation):
            raise RulesError(f"Cholek Tiga's heuristic cannot read {type(obs).__name__}")
        if not obs.legal:
            return []
        pick = self.act(obs, random.Random(0))
        if len(obs.legal) == 1:
            return [Reason("only", pick)]
        if obs.phase == "capture":
            caps = [a for a in obs.legal if a >= CAPTURE]
            if pick == PASS:
                return [Reason("cholek_pass", pick)]
            c, a, b = CAPTURES[pick - CAPTURE]
            mine = list(obs.captured[obs.seat])
            before = score_captured(mine)[0]
            for k in (a, b, c):
                mine[k] += 1
            gained = score_captured(mine)[0] - before
            out = [Reason("cholek_capture", pick, cards=(c, a, b), n=gained, m=len(caps))]
            if a == b == c:
                word = "cholek_ayam" if obs.active_from == "hand" else "cholek_kandang"
                out.append(Reason(word, pick, cards=(c,)))
            return out
        if pick == TURN:
            return [Reason("cholek_turn", pick)]
        k = pick - DISCARD
        kinds = GROUP_KINDS[obs.honours][GROUPINGS[obs.honours][k]]
        in_pool = sum(obs.pool[x] for x in kinds)
        if in_pool >= 2:
            return [Reason("cholek_discard_captures", pick, cards=(k,), n=in_pool)]
        return [Reason("cholek_discard_safe", pick, cards=(k,), n=in_pool)]

    def _capture_gain(self, obs: CholekObservation, action: int) -> float:
        w = self.weights
        c, a, b = CAPTURES[action - CAPTURE]
        mine = list(obs.captured[obs.seat])
        before = pile_value(mine, w)
        for k in (a, b, c):
            mine[k] += 1
        gain = pile_value(mine, w) - before
        if a == b == c:
            gain += w.ayam if obs.active_from == "hand" else w.kandang  # at 10¢
        return gain + w.deny  # taking cards also denies them to the others

    def _capture(self, obs: CholekObservation, rng: random.Random) -> int:
        caps = [a for a in obs.legal if a >= CAPTURE]
        if not caps:
            return PASS
        best = max(caps, key=lambda a: (self._capture_gain(obs, a), rng.random()))
        return best if self._capture_gain(obs, best) > 0 else PASS

    def _discard(self, obs: CholekObservation, rng: random.Random) -> int:
        grouping = GROUPINGS[obs.honours]
        kinds_of = GROUP_KINDS[obs.honours]
        live = obs.unseen()
        pool = obs.pool
        w = self.weights

        def score(action: int) -> tuple[float, float]:
            k = action - DISCARD
            kinds = kinds_of[grouping[k]]
            in_pool = sum(pool[x] for x in kinds)
            if in_pool >= 2:  # captures at once
                best = 0.0
                for a in kinds:
                    for b in kinds:
                        if a <= b and ((pool[a] >= 2) if a == b else (pool[a] and pool[b])):
                            mine = list(obs.captured[obs.seat])
                            before = pile_value(mine, w)
                            for x in (a, b, k):
                                mine[x] += 1
                            g = pile_value(mine, w) - before + (w.ayam if a == b == k else 0.0)
                            best = max(best, g)
                return (w.capture_now + best, rng.random())
            outs = sum(live[x] for x in kinds) - (obs.hand[k] - 1)
            risk = (w.risk_one if in_pool == 1 else w.risk_none) * max(outs, 0) / 4.0
            if IS_RED[k]:
                risk += w.risk_red
            if in_pool == 1 and obs.hand[k] >= 1:
                risk += w.risk_pair
            return (-risk, rng.random())

        discards = [a for a in obs.legal if DISCARD <= a < TURN]
        return max(discards, key=score)


register(CholekGame.family, "heuristic")(CholekHeuristicBot)
