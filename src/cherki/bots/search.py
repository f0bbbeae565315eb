"""The search bot: information-set Monte Carlo with heuristic rollouts, for every game.

At each decision with a real choice it repeatedly

1. samples a full deal consistent with what its seat has seen (``game.determinize``, or the
   heuristic's ``sample_deal``: the other seats' unknown cards and the stock order drawn
   from the cards it has not seen — it never reads the real hidden cards);
2. plays each candidate action in that same sampled deal and plays on with every seat played
   by the heuristic bot (the same rollout seed for every candidate, so only the action
   differs);
3. values the candidate from that rollout, one of two ways:

   * *plain*: the seat's points at the end of the hand, or, where the heuristic can value an
     unfinished hand (``leaf_value``, Cholek Tiga), after ``rollout_depth`` actions;
   * *race* (the games of sets, whose heuristic tells a going-out action, ``goes_out``, and
     how to stay in instead, ``stay_in``): nobody goes out in the rollout; the seat's first
     chance to go out and the others' first chance are recorded with what each would have
     meant for the seat, and the race between them is averaged over all the sampled deals
     (:meth:`SearchBot._race_search`).

It stops after ``iterations`` sampled deals or when its ``budget_ms`` runs out (at least
``min_iterations`` deals), or early in a race search once no candidate can overtake, and
keeps the heuristic's choice unless another candidate beats it by ``z`` standard errors of
the paired differences. Candidates are the heuristic's top choices when it can rank them
(``rank(obs)``), else its choice and a sample of the other legal actions. Where the
heuristic is sure (a winning ``sampei``) the bot does not search, nor where the heuristic
says the decision is not worth searching (``searches(obs)``).
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
        max_candidates: int | None = None,
        z: float | None = None,
        race: bool | None = None,
        horizon: int = 10,
        depth: int | None = None,
    ) -> None:
        self.game = find_game(game)
        self.budget_ms = budget_ms
        self.iterations = iterations
        self.min_iterations = min_iterations
        self.heuristic: Bot = make_bot(self.game.name, "heuristic")
        #: how many of the heuristic's top choices are compared (the game's heuristic may
        #: say, ``search_candidates``)
        self.max_candidates: int = (
            max_candidates
            if max_candidates is not None
            else int(getattr(self.heuristic, "search_candidates", 5))
        )
        self._deal = getattr(self.heuristic, "sample_deal", None)
        #: how many standard errors a candidate must beat the heuristic's choice by: the
        #: game's heuristic may ask for more caution (``search_z``) where its sampled deals
        #: are known to flatter some plans
        self.z = z if z is not None else float(getattr(self.heuristic, "search_z", 1.5))
        #: race rollouts for games that are races to go out (the heuristic says how to tell a
        #: going-out action and how to stay in instead)
        self.race = race if race is not None else hasattr(self.heuristic, "goes_out")
        #: race rollouts stop after this many rounds of stock draws (a chance to go out not
        #: yet found counts as never)
        self.horizon = horizon
        #: plain rollouts stop after this many actions where the heuristic can value an
        #: unfinished hand (its ``rollout_depth``), else play to the end
        self.depth: int | None = (
            depth
            if depth is not None
            else getattr(self.heuristic, "rollout_depth", None)
            if hasattr(self.heuristic, "leaf_value")
            else None
        )

    def act(self, obs: Any, rng: random.Random) -> int:
        legal = [int(a) for a in obs.legal]
        if len(legal) == 1:
            return legal[0]
        sure = getattr(self.heuristic, "sure", None)
        if sure is not None:
            choice = sure(obs)
            if choice is not None:
                return int(choice)
        searches = getattr(self.heuristic, "searches", None)
        if searches is not None and not searches(obs):
            return int(self.heuristic.act(obs, rng))
        candidates = self._candidates(obs, legal, rng)
        if len(candidates) == 1:
            return candidates[0]
        if self.race:
            return self._race_search(obs, candidates, rng)
        return self._plain_search(obs, candidates, rng)

    def _world(self, obs: Any, rng: random.Random) -> Any:
        """A sampled deal consistent with the observation (the heuristic's own way of
        sampling when it has one, ``sample_deal``)."""
        if self._deal is not None:
            return self._deal(obs, rng, self.game)
        return self.game.determinize(obs, rng)

    def _plain_search(self, obs: Any, candidates: list[int], rng: random.Random) -> int:
        """Search by plain rollouts: each candidate's value in a sampled deal is the seat's
        points at the end of the rollout."""
        seat = obs.seat
        base = candidates[0]  # the heuristic's own choice
        diffs: dict[int, list[float]] = {a: [] for a in candidates[1:]}
        deadline = self._deadline()
        done = 0
        while self._more(done, deadline):
            world = self._world(obs, rng)
            roll_seed = rng.randrange(1 << 30)
            values = {}
            for a in candidates:
                w = world.clone()
                w.apply(a, seat)
                values[a] = self._rollout(w, seat, roll_seed, self.depth)
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

        Each candidate's rollout in a sampled deal gives the stock position ``t`` of the
        seat's first chance to go out (or of the hand's end) and its points then, and the
        other seats' first chance with what the seat would have paid. A candidate's value in
        a deal is ``S(t) · points + L(t)``: ``S(t)`` is the share of that candidate's
        rollouts, over all deals, in which no other seat could go out before ``t``, and
        ``L(t)`` the sum of what the seat paid in those where one could, divided by the
        number of rollouts. The race against the others is so averaged over all deals
        instead of decided by each one, which takes most of the noise out of the comparison.
        ``S`` and ``L`` are counted per candidate because a discard or a take can speed the
        others up.
        """
        seat = obs.seat
        base = candidates[0]
        deadline = self._deadline()
        ends: list[list[tuple[int, float]]] = []
        others: list[list[tuple[int, float]]] = [[] for _ in candidates]
        done = 0
        while self._more(done, deadline):
            world = self._world(obs, rng)
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
        """Play the hand on with the heuristic, except that nobody ever goes out.

        Records the seat's first chance to go out (its stock position, and the seat's points
        then, found by going out on a copy) and the other seats' first chance (position, and
        what the seat would have paid). Both are watched until both are found, so that going
        out early never hides how soon the others would have: the rollout stops then, when
        the stock runs out (the seat's points at that end count as its chance), or
        ``horizon`` rounds of draws later (a chance not yet found counts as never).
        """
        rng = random.Random(seed)
        bot = self.heuristic
        goes_out = bot.goes_out  # type: ignore[attr-defined]
        stay_in = bot.stay_in  # type: ignore[attr-defined]
        mine: tuple[int, float] | None = None
        other: tuple[int, float] = (NEVER, 0.0)
        horizon = state.pos + self.horizon * state.n
        while not state.is_terminal and state.pos < horizon:
            s = state.current
            obs = state.observation(s)
            a = bot.act(obs, rng)
            if goes_out(obs, a):
                if s == seat and mine is None:
                    mine = (state.pos, self._rollout(_after(state, a, s), seat, seed))
                elif s != seat and other[0] == NEVER:
                    other = (state.pos, self._rollout(_after(state, a, s), seat, seed))
                if mine is not None and other[0] != NEVER:
                    break
                a = stay_in(obs, rng)
            state.apply(a, s)
        if mine is None:
            mine = (
                (state.pos, float(state.result.payments[seat]))
                if state.is_terminal
                else (NEVER, 0.0)
            )
        return mine[0], mine[1], other

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

    def _rollout(self, state: Any, seat: int, seed: int, depth: int | None = None) -> float:
        """Play the hand on with the heuristic: to its end, or for ``depth`` actions when the
        heuristic can value an unfinished hand (``leaf_value``)."""
        rng = random.Random(seed)
        bot = self.heuristic
        steps = 0
        while not state.is_terminal:
            if depth is not None and steps >= depth:
                return float(bot.leaf_value(state, seat))  # type: ignore[attr-defined]
            s = state.current
            state.apply(bot.act(state.observation(s), rng), s)
            steps += 1
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


def _after(state: Any, action: int, seat: int) -> Any:
    """A copy of ``state`` with ``action`` played."""
    copy = state.clone()
    copy.apply(action, seat)
    return copy
