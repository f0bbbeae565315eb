"""A heuristic bot for Balik Satu and Balik Lima Belas.

It plays for the hand from what its seat has seen:

* wins whenever it may (sampei), and claims every winning card shown to it;
* calls as soon as a discard leaves a waiting hand, choosing the discard whose wait has the
  most live outs (copies not yet seen from its seat);
* otherwise discards the card whose loss hurts its hand least, valuing complete sets, mata,
  identical pairs (future mata) and part-sets by how many cards that could finish them are
  still live;
* takes the last discard only when that makes its hand clearly better than it is.

It plays every relative on the Balik engine from the rules in its observation: sets of the
game's size (pairs in Tantanan and Cekèn), Chaqui's exposed olo (the legal actions keep them)
and chiqui go-out (taken only when the fifteen cards it turns are more likely than not to
hold a third card for a chiqui, or when a failed chiqui costs nothing), Chot's partnerships
(it plays for the hand: a win is what brings the side its tokens).

Its constants (what a set, a part-set, a mata and an identical pair are worth, how much
better a taken discard must make the hand, how a ceki wait weighs against a tan one) are
:class:`Weights`, the hand-set ones by default: a learned model may carry tuned weights for
the heuristic it plays as its prior (:mod:`cherki.tune`, :mod:`cherki.bots.learned`).

No endless hands: the games of sets set no bound on a hand's length (a discard may be taken
and thrown again without end), and players who each take the last discard because it betters
their hand can pass the same cards round the table for ever. After :data:`STUCK_TURNS`
decisions of one seat in a row with the stock unchanged, that seat draws from the stock
instead of taking (:meth:`BalikHeuristicBot.unstick`; the search bot too), which no loop
survives. A hand that moves on before then plays exactly as without it.

Between discards its hand's value rates level (most plain discards: the isolated cards are
worth nothing to it) the hand-set heuristic draws lots. Tuned weights may break those ties
first (``tie_held``, ``tie_live``, ``tie_red``, ``tie_low``: :func:`tie_scores`): it throws
from the value group of which it holds fewest and of which fewest cards are live, and keeps
the red cards (``S9``, ``RF``, ``OT``) and the low ranks the longer, as the race search was
seen to (``scripts/search_edge.py``, ``docs/research.md``), lots among what is still level.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from cherki.bots.base import Heuristic, register
from cherki.bots.weights import TunedWeights
from cherki.core.cards import N_KINDS, RANK, RED
from cherki.core.contract import Game, Observation
from cherki.core.errors import RulesError
from cherki.core.pieces import discard_breaks, take_joins
from cherki.core.sets import GROUP_KINDS, GROUPINGS, N_GROUPS, has_mata, wait_for
from cherki.core.view import Reason
from cherki.games.sets.actions import CALL_CEKI, CALL_TAN, DISCARD, DRAW, PASS, SAMPEI, TAKE
from cherki.games.sets.determinize import determinize
from cherki.games.sets.game import SetsGame
from cherki.games.sets.observation import SetsObservation
from cherki.games.sets.rules import SetsRules
from cherki.games.sets.scoring import SCORING
from cherki.games.sets.state import SetsState


def group_outs(live: Sequence[int], honours: str = "rank1") -> list[int]:
    """Live cards per group: how many unseen cards could still join each group's sets."""
    return [sum(live[k] for k in kinds) for kinds in GROUP_KINDS[honours]]


def chiqui_miss(outs: int, unseen: int, turned: int = 15) -> float:
    """The chance that none of ``outs`` cards is among ``turned`` cards turned from
    ``unseen`` (drawn without replacement): a chiqui go-out that finds no olo."""
    miss = 1.0
    for i in range(min(turned, unseen)):
        miss *= max(0.0, (unseen - outs - i) / (unseen - i))
    return miss


def _group_term(t: int, o: int, size: int, w: Weights | None = None) -> int:
    """A group of ``t`` cards with ``o`` live outs, in units of 0.02: 6 a complete set, and
    the part-set left over worth more the more live cards could finish it (the constants:
    :class:`Weights`, the plain heuristic's by default)."""
    w = w or WEIGHTS
    rest = t % size
    v = w.set * (t // size)
    if rest:
        o = min(o, 10)
        v += (w.near + w.near_out * o) if rest == size - 1 else (w.part + w.part_out * o)
    return v


#: the worth of each mata after the first where every mata pays alike (Chaqui's olo), for a
#: bot that plays for the score (elsewhere :attr:`Weights.extra_mata`: a second mata rarely
#: adds to the score as much as the first, which the hand needs to win)
EXTRA_MATA_BY_SCORE = 3.0


@dataclass(frozen=True)
class Weights(TunedWeights):
    """The heuristic's constants: how it values a hand (:func:`hand_value`) and when it
    takes a discard or prefers a call. The defaults are the hand-set ``heuristic`` bot's; a
    learned model may carry weights of its own, tuned on the batched simulator
    (:mod:`cherki.tune`), for the heuristic it plays as its prior. Group terms and pairs
    are integers (units of 0.02 and 0.05), so equal hands stay equal to the last bit."""

    #: a complete set (group terms are in units of 0.02 of a hand's value)
    set: int = 300
    #: a part-set one card short of a set, and each live card that would finish it (to 10)
    near: int = 80
    near_out: int = 6
    #: a smaller part-set, and each live card of its group (to 10)
    part: int = 15
    part_out: int = 2
    #: the first mata (a hand needs one to win); ``extra_mata``: each one after it
    mata: float = 3.0
    extra_mata: float = 0.6
    #: an identical pair (a future mata), and each live copy that would make it one (to 3),
    #: in units weighed by ``pair_mata`` in a hand with a mata, ``pair_plain`` without
    pair: int = 6
    pair_out: int = 3
    pair_mata: float = 0.015
    pair_plain: float = 0.05
    #: how much better a taken discard must make the hand than it is, to take it
    take: float = 1.0
    #: a ceki call's live outs weighed against a tan call's when choosing the call
    ceki: float = 1.0
    #: the tie-break between plain discards the hand's value rates level (where the
    #: hand-set heuristic draws lots): it throws the card of least ``tie_held`` × the cards
    #: of its value group in the hand + ``tie_live`` × that group's live cards +
    #: ``tie_red`` for a red card (``S9``, ``RF``, ``OT``: kept the longer) + ``tie_low``
    #: × (9 − its rank: the lower, the longer kept), lots among the rest. All 0 (the
    #: hand-set weights): lots alone. Named since the first tuned models, so a card may
    #: leave them out (:data:`LATER`)
    tie_held: float = 0.0
    tie_live: float = 0.0
    tie_red: float = 0.0
    tie_low: float = 0.0

    later: ClassVar[tuple[str, ...]] = ("tie_held", "tie_live", "tie_red", "tie_low")


#: the hand-set heuristic's weights
WEIGHTS = Weights()
#: a seat's decisions in a row with the stock unchanged after which it draws instead of
#: taking the last discard (see the module)
STUCK_TURNS = 8
#: the weights named after the first models were made: a card without them plays their
#: hand-set values (the tie-break's: none, lots alone)
LATER = Weights.later
EXTRA_MATA = WEIGHTS.extra_mata


def tie_scores(
    hand: Sequence[int], live: Sequence[int], honours: str, w: Weights
) -> list[float] | None:
    """Each kind's tie-break score under ``w`` (lower: thrown first among discards the hand's
    value rates level): ``tie_held`` × the cards of its value group in ``hand`` +
    ``tie_live`` × that group's ``live`` cards + ``tie_red`` where the card is red +
    ``tie_low`` × (9 − its rank); None where all four weights are 0 (lots alone). The
    batched heuristic computes the same (:func:`cherki.vector.policies.tie_scores`)."""
    if not (w.tie_held or w.tie_live or w.tie_red or w.tie_low):
        return None
    group = GROUPINGS[honours]
    held = [0] * N_GROUPS
    unseen = [0] * N_GROUPS
    for k in range(N_KINDS):
        held[group[k]] += hand[k]
        unseen[group[k]] += live[k]
    return [
        w.tie_held * held[group[k]]
        + w.tie_live * unseen[group[k]]
        + w.tie_red * (k in RED)
        + w.tie_low * (9 - RANK[k])
        for k in range(N_KINDS)
    ]


def _finish(
    groups: int, mata: int, pairs: int, extra: float = EXTRA_MATA, w: Weights | None = None
) -> float:
    """Combine group terms (units of 0.02), the mata count and identical pairs (units of
    0.05) into a hand's value."""
    w = w or WEIGHTS
    value = 0.02 * groups
    if mata:
        return value + w.mata + extra * (mata - 1) + w.pair_mata * pairs
    return value + w.pair_plain * pairs


def _tally(
    hand: Sequence[int],
    live: Sequence[int],
    grouping: Sequence[int],
    size: int,
    w: Weights | None = None,
) -> tuple[list[int], int, int]:
    """Cards per group, mata, and identical pairs (units of 0.05) of a hand."""
    w = w or WEIGHTS
    totals = [0] * N_GROUPS
    mata = 0
    pairs = 0
    for k in range(N_KINDS):
        c = hand[k]
        if c:
            totals[grouping[k]] += c
            if c >= size:
                mata += c // size
            elif c == size - 1:
                pairs += w.pair + w.pair_out * min(live[k], 3)
    return totals, mata, pairs


def hand_value(
    hand: Sequence[int],
    live: Sequence[int],
    honours: str = "rank1",
    size: int = 3,
    outs: Sequence[int] | None = None,
    extra: float = EXTRA_MATA,
    weights: Weights | None = None,
) -> float:
    """How close a hand is to five sets with a mata (higher is better).

    A complete set is worth far more than any part-set, so the bot never breaks one to chase
    outs; part-sets are worth more the more cards that finish them are still live; a mata
    (needed to win) and identical pairs (future mata) add to that. ``outs`` (from
    :func:`group_outs`) may be passed in when many hands are valued against one ``live``;
    ``extra`` is the worth of each mata after the first; ``weights`` the other constants.
    """
    grouping = GROUPINGS[honours]
    if outs is None:
        outs = group_outs(live, honours)
    w = weights or WEIGHTS
    totals, mata, pairs = _tally(hand, live, grouping, size, w)
    groups = sum(_group_term(totals[g], outs[g], size, w) for g in range(N_GROUPS) if totals[g])
    return _finish(groups, mata, pairs, extra, w)


def discard_values(
    hand: Sequence[int],
    live: Sequence[int],
    honours: str = "rank1",
    size: int = 3,
    outs: Sequence[int] | None = None,
    extra: float = EXTRA_MATA,
    weights: Weights | None = None,
) -> dict[int, float]:
    """:func:`hand_value` of the hand less one card, for each kind it holds: the same
    figures, worked out once for the whole hand and adjusted per discard."""
    grouping = GROUPINGS[honours]
    if outs is None:
        outs = group_outs(live, honours)
    w = weights or WEIGHTS
    totals, mata, pairs = _tally(hand, live, grouping, size, w)
    terms = [_group_term(totals[g], outs[g], size, w) if totals[g] else 0 for g in range(N_GROUPS)]
    groups = sum(terms)
    out: dict[int, float] = {}
    for k in range(N_KINDS):
        c = hand[k]
        if not c:
            continue
        g = grouping[k]
        less = _group_term(totals[g] - 1, outs[g], size, w) if totals[g] > 1 else 0
        gk = groups - terms[g] + less
        mk = mata - (1 if c >= size and c % size == 0 else 0)
        pk = pairs
        pair = w.pair + w.pair_out * min(live[k], 3)
        if c == size - 1:
            pk -= pair
        elif c == size:
            pk += pair
        out[k] = _finish(gk, mk, pk, extra, w)
    return out


def _own(obs: Observation) -> SetsObservation:
    """``obs`` as a game of sets' observation (another game's is refused)."""
    if not isinstance(obs, SetsObservation):
        raise RulesError(f"the games of sets' heuristic cannot read {type(obs).__name__}")
    return obs


class BalikHeuristicBot(Heuristic):
    """The heuristic (see the module docstring). With ``for_score`` it plays for the score
    where the plain heuristic plays for the win: where every mata pays alike (a scoring
    method's ``by_mata``: Chaqui's olo) it values each mata as much as the first. The search
    bot's own seat plays so; the ``heuristic`` level does not."""

    name = "heuristic"
    #: the games of sets are races to go out: the search uses the race search
    races = True
    #: How many standard errors a candidate must beat this bot's choice by in the search,
    #: and how many of its top choices the search compares.
    search_z = 1.5
    search_candidates = 3
    #: The race search's time a decision: one batch of 128 futures takes about 0.1 s on one
    #: core, and most decisions end after the first.
    search_budget_ms = 100.0
    #: two batches of futures: about 60 ms a decision (median, Balik Satu)
    search_rollouts = 256
    weights_type = Weights

    def __init__(self, *, for_score: bool = False, weights: Weights | None = None) -> None:
        self.for_score = for_score
        #: the constants it plays by (:class:`Weights`): the hand-set ones, or a learned
        #: model's for the prior it plays (:mod:`cherki.bots.learned`)
        self.weights = weights or WEIGHTS
        #: per seat: the stock it last saw, its decisions in a row with it unchanged, and
        #: the observation last counted (:meth:`unstick`)
        self._watch: dict[int, tuple[int, int, object]] = {}

    def _weighted(self, weights: TunedWeights) -> BalikHeuristicBot:
        assert isinstance(weights, Weights)  # checked by Heuristic.weighted
        return type(self)(for_score=self.for_score, weights=weights)

    def search_policy(self) -> BalikHeuristicBot:
        """The policy the search bot plays its own seat with: this one, for the score."""
        return BalikHeuristicBot(for_score=True)

    def extra(self, rules: SetsRules) -> float:
        """The worth of each mata after the first under ``rules`` (see the class)."""
        if self.for_score and SCORING[rules.scoring].by_mata:
            return EXTRA_MATA_BY_SCORE
        return self.weights.extra_mata

    def unstick(self, obs: Observation) -> int | None:
        """A draw where this seat has made :data:`STUCK_TURNS` decisions in a row with the
        stock unchanged and may draw (a discard taken and thrown round and round), else
        None. Each observation counts once, however often it is asked. A bot follows one
        hand at a time, as every front end seats one for each seat (observations of
        several hands in turn would count as one hand's)."""
        obs = _own(obs)
        stock, same, last = self._watch.get(obs.seat, (-1, 0, None))
        if last is not obs:
            same = same + 1 if obs.stock_left == stock else 0
            self._watch[obs.seat] = (obs.stock_left, same, obs)
        if same >= STUCK_TURNS and DRAW in obs.legal and TAKE in obs.legal:
            return DRAW
        return None

    def act(self, obs: Observation, rng: random.Random) -> int:
        obs = _own(obs)
        legal = obs.legal
        size = obs.rules.set_size
        if SAMPEI in legal and self._worth_going_out(obs):
            return SAMPEI
        if self.unstick(obs) is not None:
            return DRAW
        if PASS in legal:  # only a claim window offers pass
            return PASS
        live = obs.unseen()
        outs = group_outs(live, obs.honours)
        hand = list(obs.hand)
        extra = self.extra(obs.rules)
        w = self.weights
        if obs.phase == "draw":
            if TAKE in legal and obs.top is not None:
                now = hand_value(hand, live, obs.honours, size, outs, extra, w)
                hand[obs.top] += 1
                best = max(discard_values(hand, live, obs.honours, size, outs, extra, w).values())
                hand[obs.top] -= 1
                if best > now + w.take:
                    return TAKE
            return DRAW
        calls = [a for a in legal if a >= CALL_TAN]
        if calls and obs.calls[obs.seat] is None:
            return self._call(obs, hand, live, calls, rng)
        if calls:  # a caller's change of call (ceki -> tan) is always an improvement
            return self._change(obs, hand, calls, rng)
        discards = [a for a in legal if DISCARD <= a < CALL_TAN]
        if not discards:
            return rng.choice(list(legal))
        after = discard_values(hand, live, obs.honours, size, outs, extra, w)
        return self._discard(obs, hand, discards, after, rng)

    def _discard(
        self,
        obs: SetsObservation,
        hand: list[int],
        discards: list[int],
        after: dict[int, float],
        rng: random.Random,
    ) -> int:
        """The discard that hurts the hand least (``after``: :func:`discard_values`), then
        the least by the weights' tie-break (:func:`tie_scores`, where they have one), lots
        between equals (a lot drawn for every discard, as without a tie-break)."""
        tie = tie_scores(hand, obs.unseen(), obs.honours, self.weights)
        if tie is None:
            return max(discards, key=lambda a: (after[a - DISCARD], rng.random()))
        return max(discards, key=lambda a: (after[a - DISCARD], -tie[a - DISCARD], rng.random()))

    def explain(self, obs: Observation) -> list[Reason]:
        """The pick (``act`` with ``random.Random(0)``) and why, from the measures ``act``
        weighs: a win taken, a claim passed, a take or a draw (whether the taken card makes
        the hand clearly better than it is once a card goes for it), a call (the wait with
        the most live cards), a change of call, or the discard that hurts the hand least
        (what it breaks: nothing, a part-set, a set; with how many live cards join it), and
        whether lots were drawn between equal choices."""
        obs = _own(obs)
        if not obs.legal:
            return []
        pick = self.act(obs, random.Random(0))
        legal = obs.legal
        size, honours = obs.rules.set_size, obs.honours
        live = obs.unseen()
        hand = list(obs.hand)
        if pick == SAMPEI:
            return [Reason("wins", pick)]
        if pick == PASS:
            if SAMPEI in legal:  # a chiqui go-out more likely than not to miss
                claim = list(hand)
                if obs.claim_card is not None:
                    claim[obs.claim_card] += 1
                outs = sum(live[k] for k in range(N_KINDS) if claim[k] == size - 1)
                miss = round(100 * chiqui_miss(outs, sum(live)))
                return [Reason("chiqui_risk", pick, n=miss)]
            card = (obs.claim_card,) if obs.claim_card is not None else ()
            return [Reason("pass", pick, cards=card)]
        if obs.phase == "draw":
            if TAKE not in legal or obs.top is None:
                return [Reason("draw_only", pick)]
            joins = take_joins(hand, obs.top, live, honours, size)
            kind = "take" if pick == TAKE else "draw"
            return [
                Reason(
                    f"{kind}_{joins.kind}",
                    pick,
                    cards=joins.cards,
                    n=joins.live,
                    other=DRAW if pick == TAKE else TAKE,
                )
            ]
        if pick >= CALL_TAN:
            calls = [a for a in legal if a >= CALL_TAN]
            if obs.calls[obs.seat] is not None:
                return [Reason("change", pick)]
            outs = self._outs(hand, pick, live, honours, obs)
            kind = "call" if len(calls) > 1 else "call_one"
            card = ((pick - DISCARD) % N_KINDS,)
            return [Reason(kind, pick, cards=card, n=outs, m=len(calls))]
        if DISCARD <= pick < CALL_TAN:
            k = pick - DISCARD
            broken = discard_breaks(hand, k, live, honours, size)
            out = [Reason(f"discard_{broken.kind}", pick, cards=broken.cards, n=broken.live)]
            after = discard_values(
                hand,
                live,
                honours,
                size,
                group_outs(live, honours),
                self.extra(obs.rules),
                self.weights,
            )
            discards = [a for a in legal if DISCARD <= a < CALL_TAN]
            best = after[k]
            equal = [a for a in discards if abs(after[a - DISCARD] - best) < 1e-9]
            tie = tie_scores(hand, live, honours, self.weights)
            if tie is not None and len({tie[a - DISCARD] for a in equal}) > 1:
                cards = tuple(a - DISCARD for a in equal)
                more = self.weights.tie_red or self.weights.tie_low
                kind = "tie_break_more" if more else "tie_break"
                out.append(Reason(kind, pick, cards=cards, m=len(equal)))
                equal = [a for a in equal if tie[a - DISCARD] == tie[k]]
            if len(equal) > 1:
                out.append(
                    Reason("lots", pick, cards=tuple(a - DISCARD for a in equal), m=len(equal))
                )
            return out
        return []

    @staticmethod
    def _worth_going_out(obs: SetsObservation) -> bool:
        """Always win, except a Chaqui chiqui go-out whose fifteen cards are more likely than
        not to miss every third card (when a failed chiqui costs)."""
        rules = obs.rules
        if not rules.goes_out_on_pair or not rules.pair_go_out_costs:
            return True
        hand = list(obs.hand)
        if obs.phase == "claim" and obs.claim_card is not None:
            hand[obs.claim_card] += 1
        size = rules.set_size
        if has_mata(hand, size):
            return True
        live = obs.unseen()
        outs = sum(live[k] for k in range(N_KINDS) if hand[k] == size - 1)
        return chiqui_miss(outs, sum(live)) < 0.5

    def sample_deal(self, obs: Observation, rng: random.Random, game: Game) -> SetsState:
        """A deal for the search bot in which the unknown hands of seats that have not called
        look kept by players (weighted towards organised hands), not merely dealt."""
        obs = _own(obs)
        if not isinstance(game, SetsGame):
            raise RulesError(f"the games of sets' heuristic cannot deal {game.title}")

        size = obs.rules.set_size
        live = obs.unseen()
        outs = group_outs(live, obs.honours)

        def weight(hand: list[int]) -> float:
            return 0.5 * hand_value(hand, live, obs.honours, size, outs)

        return determinize(obs, rng, game, hand_weight=weight)

    def search_keeps_lots(self, obs: Observation) -> bool:
        """Whether the search plays this policy's own choice, lots and all, and leaves it
        only for a candidate better by ``search_z`` standard errors, a tie or not: where
        every mata pays alike (a scoring method's ``by_mata``, Chaqui), whose futures seldom
        tell the discards it rates level apart (see ``docs/bots.md``)."""
        obs = _own(obs)
        return SCORING[obs.rules.scoring].by_mata

    @staticmethod
    def goes_out(obs: SetsObservation, action: int) -> bool:
        """Whether ``action`` goes out (the mark of a race game, for the search)."""
        return action == SAMPEI

    def searches(self, obs: Observation) -> bool:
        """Whether the search should look at this decision: taking or drawing, and every
        discard and call (a claim is a win or a pass, the heuristic's own)."""
        obs = _own(obs)
        return obs.phase in ("draw", "discard")

    def sure(self, obs: Observation) -> int | None:
        """An action no search could better: winning."""
        obs = _own(obs)
        return SAMPEI if SAMPEI in obs.legal and self._worth_going_out(obs) else None

    def rank(self, obs: Observation) -> list[int]:
        """Legal actions, best first by the heuristic's own measure (for search bots)."""
        obs = _own(obs)
        legal = list(obs.legal)
        if SAMPEI in legal and self._worth_going_out(obs):
            return [SAMPEI] + [a for a in legal if a != SAMPEI]
        scores = self.scores(obs)
        if scores is None:
            first = self.act(obs, random.Random(0))
            return [first] + [a for a in legal if a != first]
        return sorted(legal, key=lambda a: scores[a], reverse=True)

    def scores(self, obs: Observation) -> dict[int, float] | None:
        """The heuristic's measure of each legal discard and call (higher is better; equal
        scores are the choices it draws lots between), or None outside a discard."""
        obs = _own(obs)
        if obs.phase != "discard":
            return None
        live = obs.unseen()
        hand = list(obs.hand)
        after = discard_values(
            hand, live, obs.honours, obs.rules.set_size, None, self.extra(obs.rules), self.weights
        )
        # a caller's change of call is taken first, in the order of the legal actions
        changes = [a for a in obs.legal if a >= CALL_TAN] if obs.calls[obs.seat] else []

        call_score = self._call_scorer(obs, hand, live)

        def score(a: int) -> float:
            if a == SAMPEI:
                return -1000.0
            if a in changes:
                return 2000.0 - changes.index(a)
            if a >= CALL_TAN:
                return 1000.0 + call_score(a)
            return after[a - DISCARD]

        return {a: score(a) for a in obs.legal}

    def _call(
        self,
        obs: SetsObservation,
        hand: list[int],
        live: Sequence[int],
        calls: list[int],
        rng: random.Random,
    ) -> int:
        """The call a seat that has not called makes among ``calls``: the wait with the most
        live outs (a ceki call's weighed by :attr:`Weights.ceki`), lots between equals."""
        score = self._call_scorer(obs, hand, live)
        return max(calls, key=lambda a: (score(a), rng.random()))

    def _change(
        self, obs: SetsObservation, hand: list[int], calls: list[int], rng: random.Random
    ) -> int:
        """A caller's play where it may change its call: the first change offered (a tan
        wait is always taken over a ceki one)."""
        return calls[0]

    def _call_scorer(
        self, obs: SetsObservation, hand: list[int], live: Sequence[int]
    ) -> Callable[[int], float]:
        """The measure :meth:`scores` adds to a fresh call's 1000: its wait's live outs, a
        ceki call's weighed by :attr:`Weights.ceki` (1 for the hand-set heuristic)."""
        ceki = self.weights.ceki
        return lambda a: (
            self._outs(hand, a, live, obs.honours, obs) * (ceki if a >= CALL_CEKI else 1.0)
        )

    @staticmethod
    def _outs(
        hand: list[int],
        action: int,
        live: Sequence[int],
        honours: str,
        obs: SetsObservation | None = None,
    ) -> int:
        k = (action - DISCARD) % N_KINDS
        size = obs.rules.set_size if obs is not None else 3
        chiqui = obs.rules.goes_out_on_pair if obs is not None else False
        hand[k] -= 1
        w = wait_for(hand, GROUPINGS[honours], size, chiqui)
        hand[k] += 1
        return sum(live[c] for c in w.cards)


# every game of sets (``Game.family == "sets"``), those to come included
register("sets", "heuristic")(BalikHeuristicBot)
