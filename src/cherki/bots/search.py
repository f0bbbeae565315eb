"""The search bot: information-set Monte Carlo with heuristic rollouts, for every game.

At each decision with a real choice it repeatedly

1. samples a full deal consistent with what its seat has seen (``game.determinize``: the
   other seats' unknown cards and the stock order drawn from the cards it has not seen — it
   never reads the real hidden cards);
2. plays each candidate action in that same sampled deal and finishes the hand with every
   seat played by the heuristic bot (the same rollout seed for every candidate, so only the
   action differs);
3. scores the candidate by its seat's points at the end.

It stops after ``iterations`` sampled deals or when its ``budget_ms`` runs out (at least
``min_iterations`` deals), and plays the candidate with the best mean. Candidates are the
heuristic's top choices when the game's heuristic can rank them (``rank(obs)``), else every
legal action. Where the heuristic is sure (a winning ``sampei``) the bot does not search.
"""

from __future__ import annotations

import random
import time
from bisect import bisect_left
from typing import Any

from cherki.bots.base import Bot, make_bot
from cherki.games import find_game

DEFAULT_BUDGET_MS = 250.0
#: a stock position no hand reaches
NEVER = 1 << 30


class SearchBot:
    name = "search"

    def __init__(
        self,
        game: str,
        *,
        budget_ms: float | None = DEFAULT_BUDGET_MS,
        iterations: int | None = None,
        min_iterations: int = 4,
        max_candidates: int = 5,
        z: float | None = None,
        race: bool | None = None,
        horizon: int = 5,
    ) -> None:
        self.game = find_game(game)
        self.budget_ms = budget_ms
        self.iterations = iterations
        self.min_iterations = min_iterations
        self.max_candidates = max_candidates
        self.heuristic: Bot = make_bot(self.game.name, "heuristic")
        self._deal = getattr(self.heuristic, "sample_deal", None)
        #: how many standard errors a candidate must beat the heuristic's choice by: the
        #: game's heuristic may ask for more caution (``search_z``) where its sampled deals
        #: are known to flatter some plans
        self.z = z if z is not None else float(getattr(self.heuristic, "search_z", 1.5))
        #: race rollouts for games that are races to go out (the heuristic says how to tell a
        #: going-out action and how to stay in instead)
        self.race = race if race is not None else hasattr(self.heuristic, "goes_out")
        #: race rollouts stop after this many rounds of stock draws (the seat counts as not
        #: going out): by then somebody else has almost always gone out
        self.horizon = horizon

    def act(self, obs: Any, rng: random.Random) -> int:
        legal = [int(a) for a in obs.legal]
        if len(legal) == 1:
            return legal[0]
        sure = getattr(self.heuristic, "sure", None)
        if sure is not None:
            choice = sure(obs)
            if choice is not None:
                return int(choice)
        candidates = self._candidates(obs, legal, rng)
        if len(candidates) == 1:
            return candidates[0]
        base = candidates[0]  # the heuristic's own choice
        if self.race:
            return self._race_search(obs, candidates, rng)
        diffs: dict[int, list[float]] = {a: [] for a in candidates[1:]}
        deadline = (
            time.perf_counter() + self.budget_ms / 1000 if self.budget_ms is not None else None
        )
        done = 0
        seat = obs.seat
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if (
                deadline is not None
                and done >= self.min_iterations
                and time.perf_counter() > deadline
            ):
                break
            world = (
                self._deal(obs, rng, self.game)
                if self._deal is not None
                else self.game.determinize(obs, rng)
            )
            roll_seed = rng.randrange(1 << 30)
            values = {}
            for a in candidates:
                w = world.clone()
                w.apply(a, seat)
                values[a] = self._rollout(w, seat, roll_seed)
            for a in diffs:
                diffs[a].append(values[a] - values[base])
            done += 1
        return self._choose(base, diffs)

    def _deadline(self) -> float | None:
        if self.budget_ms is None:
            return None
        return time.perf_counter() + self.budget_ms / 1000

    def _more(self, done: int, deadline: float | None) -> bool:
        if self.iterations is not None and done >= self.iterations:
            return False
        return deadline is None or done < self.min_iterations or time.perf_counter() <= deadline

    def _race_search(self, obs: Any, candidates: list[int], rng: random.Random) -> int:
        """Search by race rollouts (see :meth:`_race_rollout`).

        Each candidate's rollout in a sampled deal gives where the seat goes out (or the hand
        ends) and what it gets; the other seats' first chances to go out, pooled over every
        rollout, give the chance that nobody beat the seat to it and what the seat pays when
        somebody does. A candidate's value in a deal is then ``S(t) · points + L(t)``, with
        ``S(t)`` the share of rollouts in which no other seat could go out before stock
        position ``t`` and ``L(t)`` the mean of what the seat paid in those that could. The
        race against the others is so averaged over all deals instead of decided by each one,
        which takes most of the noise out of the comparison.
        """
        seat = obs.seat
        base = candidates[0]
        deadline = self._deadline()
        ends: list[list[tuple[int, float]]] = []
        others: list[list[tuple[int, float]]] = [[] for _ in candidates]
        done = 0
        while self._more(done, deadline):
            world = (
                self._deal(obs, rng, self.game)
                if self._deal is not None
                else self.game.determinize(obs, rng)
            )
            roll_seed = rng.randrange(1 << 30)
            row = []
            for i, a in enumerate(candidates):
                w = world.clone()
                w.apply(a, seat)
                end, points, other = self._race_rollout(w, seat, roll_seed)
                row.append((end, points))
                others[i].append(other)
            ends.append(row)
            done += 1
            if done % 8 == 0 and self._settled(self._race_diffs(candidates, ends, others)):
                break
        diffs = self._race_diffs(candidates, ends, others)
        return self._choose(base, diffs)

    @staticmethod
    def _race_diffs(
        candidates: list[int],
        ends: list[list[tuple[int, float]]],
        others: list[list[tuple[int, float]]],
    ) -> dict[int, list[float]]:
        """Per sampled deal, each candidate's race value less the heuristic's choice's."""
        values = [_RaceValue(o) for o in others]
        diffs: dict[int, list[float]] = {a: [] for a in candidates[1:]}
        for row in ends:
            v0 = values[0](*row[0])
            for i, a in enumerate(candidates[1:], 1):
                diffs[a].append(values[i](*row[i]) - v0)
        return diffs

    @staticmethod
    def _settled(diffs: dict[int, list[float]]) -> bool:
        """Whether no candidate can still overtake the heuristic's choice: each is behind by
        two standard errors, or has played out exactly like it in every deal so far."""
        for d in diffs.values():
            n = len(d)
            m = sum(d) / n
            if all(x == 0 for x in d):
                continue
            se = (sum((x - m) ** 2 for x in d) / (n - 1) / n) ** 0.5
            if m + 2 * se >= 0:
                return False
        return True

    def _race_rollout(
        self, state: Any, seat: int, seed: int
    ) -> tuple[int, float, tuple[int, float]]:
        """Finish the hand with the heuristic, except that no other seat ever goes out.

        Returns the stock position at which the hand ended (the seat went out, or the stock
        ran out), the seat's points then, and the other seats' first chance to go out: its
        stock position (a large number if none came) and what the seat would have paid (the
        hand finished from there as usual, on a copy).
        """
        rng = random.Random(seed)
        bot = self.heuristic
        goes_out = bot.goes_out  # type: ignore[attr-defined]
        stay_in = bot.stay_in  # type: ignore[attr-defined]
        other: tuple[int, float] = (NEVER, 0.0)
        pos = state.pos
        horizon = pos + self.horizon * state.n
        while not state.is_terminal:
            if state.pos >= horizon:  # far past the point where somebody else goes out
                return NEVER, 0.0, other
            s = state.current
            obs = state.observation(s)
            a = bot.act(obs, rng)
            pos = state.pos
            if s != seat and goes_out(obs, a):
                if other[0] == NEVER:
                    copy = state.clone()
                    copy.apply(a, s)
                    other = (pos, self._rollout(copy, seat, seed))
                a = stay_in(obs, rng)
            state.apply(a, s)
        return pos, float(state.result.payments[seat]), other

    def _choose(self, base: int, diffs: dict[int, list[float]]) -> int:
        """The candidate that beats the heuristic's choice by a clear margin, if any.

        The search only overrides the heuristic when the paired difference of rollout values
        is positive by more than ``z`` standard errors, so noise alone never makes it play
        worse than the heuristic it rolls out with.
        """
        best, best_mean = base, 0.0
        for a, d in diffs.items():
            n = len(d)
            if n < 2:
                continue
            m = sum(d) / n
            var = sum((x - m) ** 2 for x in d) / (n - 1)
            se = (var / n) ** 0.5
            if m > self.z * se and m > best_mean:
                best, best_mean = a, m
        return best

    def _candidates(self, obs: Any, legal: list[int], rng: random.Random) -> list[int]:
        rank = getattr(self.heuristic, "rank", None)
        if rank is not None:
            ranked = [a for a in rank(obs) if a in legal]
            if ranked:
                return ranked[: self.max_candidates]
        if len(legal) <= self.max_candidates:
            return legal
        first = self.heuristic.act(obs, random.Random(0))
        others = [a for a in legal if a != first]
        return [first, *rng.sample(others, self.max_candidates - 1)]

    def _rollout(self, state: Any, seat: int, seed: int) -> float:
        rng = random.Random(seed)
        bot = self.heuristic
        while not state.is_terminal:
            s = state.current
            state.apply(bot.act(state.observation(s), rng), s)
        return float(state.result.payments[seat])


class _RaceValue:
    """``S(t) · points + L(t)`` from the other seats' first chances to go out (see
    :meth:`SearchBot._race_search`)."""

    def __init__(self, others: list[tuple[int, float]]) -> None:
        others = sorted(others)
        self.positions = [p for p, _ in others]
        self.paid = [0.0]
        for _, x in others:
            self.paid.append(self.paid[-1] + x)
        self.total = len(others)

    def __call__(self, end: int, points: float) -> float:
        before = bisect_left(self.positions, end)  # rollouts where another went out first
        return ((self.total - before) * points + self.paid[before]) / self.total
