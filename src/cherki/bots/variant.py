"""The ``variant`` bot of the games of sets: the heuristic that weighs the scoring in force.

It plays exactly as the heuristic (:class:`~cherki.bots.balik.BalikHeuristicBot`) except
when it calls: where several discards leave a waiting hand, it keeps the wait worth most
under the scoring in force, each card it waits on counted by its live copies (copies not
yet seen from its seat) times what a win on it would pay the seat by the game's own scoring
function (:class:`WinWorth`), then the wait with the most live outs, then lots. Once it has
called and may change its call (R-CHANGE), it weighs each change and each discard that keeps
its call the same way (the heuristic always changes). So a ceki wait with fewer outs beats a
wider tan wait where ayam and kandang pay well (Pwee's 10 and 20), and loses to it where
they pay little (Gateway's 1 and 2): presets and options that differ only in their scoring
values lead to other play, not only to other scores.

It is a level of its own (``--bots variant``) because reading the scoring costs time: the
plain ``heuristic`` stays the fast default, and the batched engine (``--engine vector``)
plays only ``random`` and ``heuristic``. What it reads is cached per rules (the table the
scoring function reads), per decision (each hypothetical win, scored once) and per hand (the
best arrangement of a winning hand, which the scoring functions ask for again and again:
``cherki.games.sets.scoring.winning_hand``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache

from cherki.bots.balik import BalikHeuristicBot, _own
from cherki.bots.base import register
from cherki.core.cards import N_KINDS
from cherki.core.contract import Observation
from cherki.core.sets import GROUPINGS, wait_for
from cherki.games.sets.actions import CALL_TAN, DISCARD
from cherki.games.sets.calls import call_wait
from cherki.games.sets.observation import SetsObservation
from cherki.games.sets.rules import SetsRules
from cherki.games.sets.scoring import SCORING, Win
from cherki.games.sets.state import SetsState

#: how many samples of the scoring cards (the turned card, the fifteen drawn...) a win's worth
#: is the mean over: drawn from the unseen cards by a fixed seed, the same for every candidate
#: of a decision, so that only the candidates differ
WORTH_SAMPLES = 2


@lru_cache(maxsize=256)
def _scoring_world(game: str, rules: SetsRules, players: int, pot: int) -> SetsState:
    """A hand of ``game`` under ``rules`` for the scoring function to read its table from
    (the rules, the number of seats, the pot; never its cards: a won hand is passed in)."""
    from cherki.games import find_game

    context = {"pot": pot} if pot > 0 else None
    state = find_game(game).new_state(rules, players, seed=0, context=context)
    assert isinstance(state, SetsState)
    return state


def scoring_samples(live: Sequence[int], reserve: int) -> list[tuple[int, ...]]:
    """:data:`WORTH_SAMPLES` draws of ``reserve`` scoring cards from the unseen cards
    ``live``, by a fixed seed: a function of ``live`` alone."""
    pool = [k for k in range(N_KINDS) for _ in range(live[k])]
    while len(pool) < reserve:  # a spent stock: any cards (a win is then out of reach)
        pool.extend(range(N_KINDS))
    rng = random.Random(0)
    return [tuple(rng.sample(pool, reserve)) for _ in range(WORTH_SAMPLES)]


class WinWorth:
    """What a win is worth to a seat under the scoring in force, by the game's own scoring
    function (:data:`~cherki.games.sets.scoring.SCORING`), for one decision: a win on a
    card is a claim of another seat's draw ``(n - 1) / n`` of the time and a self-draw the
    rest, each valued as the mean over :func:`scoring_samples` of what the seat is paid."""

    def __init__(
        self,
        game: str,
        rules: SetsRules,
        players: int,
        seat: int,
        live: Sequence[int],
        *,
        pot: int = 0,
        melded: Sequence[int] | None = None,
    ) -> None:
        self.world = _scoring_world(game, rules, players, pot)
        self.rules = rules
        self.score = SCORING[rules.scoring].score
        self.seat = seat
        self.n = players
        self.live = live
        self.melded = [int(c) for c in melded] if melded is not None else [0] * N_KINDS
        self.samples = scoring_samples(live, rules.reserve)
        self.grouping = GROUPINGS[rules.honours]
        self.size = rules.set_size
        self.chiqui = rules.goes_out_on_pair
        self.memo: dict[tuple[tuple[int, ...], int, str | None], float] = {}

    def win(self, hand: tuple[int, ...], card: int, call: str | None) -> float:
        """The mean payment to the seat of a win with the full ``hand`` on ``card``."""
        key = (hand, card, call)
        v = self.memo.get(key)
        if v is None:
            world, seat, n = self.world, self.seat, self.n
            world.melded[seat] = self.melded  # Chaqui's exposed olo score (C-SCORING)
            other = (seat + 1) % n
            claim = draw = 0.0
            for turned in self.samples:
                claim += self.score(
                    world, Win(seat, "claim", card, other, hand, call, False, turned)
                ).payments[seat]
                draw += self.score(
                    world, Win(seat, "self-draw", card, seat, hand, call, False, turned)
                ).payments[seat]
            world.melded[seat] = [0] * N_KINDS
            v = ((n - 1) * claim + draw) / (n * len(self.samples))
            self.memo[key] = v
        return v

    def after_discard(
        self, hand: Sequence[int], kind: int, keep: str | None = None
    ) -> tuple[float, int]:
        """The worth of the wait left by discarding ``kind`` from the full ``hand``:
        each card it waits on, its live copies times what a win on it pays (rounded to
        1e-9, so that equal worths compare equal), and the wait's live outs. With ``keep``
        the seat has called so and keeps its call (a ceki caller that made a mata still
        waits as ceki, :func:`~cherki.games.sets.calls.call_wait`)."""
        rest = list(hand)
        rest[kind] -= 1
        if keep is None:
            w = wait_for(rest, self.grouping, self.size, self.chiqui)
        else:
            w = call_wait(keep, rest, self.rules)
        worth = 0.0
        outs = 0
        for c in w.cards:
            if self.live[c]:
                rest[c] += 1
                worth += self.live[c] * self.win(tuple(rest), c, w.call)
                rest[c] -= 1
                outs += self.live[c]
        return round(worth, 9), outs


def call_worth(obs: SetsObservation) -> WinWorth:
    """The :class:`WinWorth` of ``obs``'s seat, from what it has seen."""
    melds = obs.melds[obs.seat] if obs.melds else None
    return WinWorth(
        obs.game, obs.rules, obs.players, obs.seat, obs.unseen(), pot=obs.pot, melded=melds
    )


class VariantBot(BalikHeuristicBot):
    """The heuristic that weighs the scoring in force (see the module docstring)."""

    name = "variant"

    def _call(
        self,
        obs: SetsObservation,
        hand: list[int],
        live: Sequence[int],
        calls: list[int],
        rng: random.Random,
    ) -> int:
        if len(calls) == 1:  # nothing to weigh (the lot drawn all the same)
            rng.random()
            return calls[0]
        worth = call_worth(obs)
        return max(
            calls,
            key=lambda a: (*worth.after_discard(hand, (a - DISCARD) % N_KINDS), rng.random()),
        )

    def _change(
        self, obs: SetsObservation, hand: list[int], calls: list[int], rng: random.Random
    ) -> int:
        """A caller that may change its call weighs it too: each change and each discard
        that keeps its call by the worth of the wait it leaves (a kept ceki still takes ayam
        or kandang, a changed one no longer does: R-CHANGE, R-BONUS), then the most live
        outs, a change before a kept call, then lots."""
        return max(self._change_keys(obs, hand), key=lambda kv: (kv[1], rng.random()))[0]

    def _discard(
        self,
        obs: SetsObservation,
        hand: list[int],
        discards: list[int],
        after: dict[int, float],
        rng: random.Random,
    ) -> int:
        """A caller with several discards, each of which leaves it waiting on its call
        (a card that makes another mata, R-CHANGE), keeps the wait worth most, then the
        most live outs, then the heuristic's measure, then lots; otherwise the heuristic's
        discard."""
        if not obs.calls[obs.seat] or len(discards) < 2:
            return super()._discard(obs, hand, discards, after, rng)
        keys = dict(self._change_keys(obs, hand))
        return max(discards, key=lambda a: (keys[a][:2], after[a - DISCARD], rng.random()))

    @staticmethod
    def _change_keys(
        obs: SetsObservation, hand: list[int]
    ) -> list[tuple[int, tuple[float, int, bool]]]:
        """Each legal discard and change of a caller, with its worth, outs and whether it
        changes the call."""
        worth = call_worth(obs)
        keep = obs.calls[obs.seat]
        out = []
        for a in obs.legal:
            if a < DISCARD:
                continue
            change = a >= CALL_TAN
            value, outs = worth.after_discard(
                hand, (a - DISCARD) % N_KINDS, None if change else keep
            )
            out.append((a, (value, outs, change)))
        return out

    def scores(self, obs: Observation) -> dict[int, float] | None:
        """The heuristic's scores, but where a caller may change its call or choose among
        discards: then the worth of each discard's and change's wait (as it plays,
        :meth:`_change` and :meth:`_discard`)."""
        base = super().scores(obs)
        obs = _own(obs)
        if base is None or not obs.calls[obs.seat] or sum(a >= DISCARD for a in obs.legal) < 2:
            return base
        hand = list(obs.hand)
        for a, (value, outs, change) in self._change_keys(obs, hand):
            # then a change, then the heuristic's measure of a discard (under 20: < 1e-9)
            tie = 1e-9 if change else 1e-11 * base[a]
            base[a] = 1000.0 + value + 1e-6 * outs + tie
        return base

    def _call_scorer(
        self, obs: SetsObservation, hand: list[int], live: Sequence[int]
    ) -> Callable[[int], float]:
        worth = call_worth(obs)

        def score(a: int) -> float:
            value, outs = worth.after_discard(hand, (a - DISCARD) % N_KINDS)
            return value + 1e-6 * outs

        return score


# every game of sets (``Game.family == "sets"``), those to come included
register("sets", "variant")(VariantBot)
