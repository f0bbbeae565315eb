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
from typing import Any

from cherki.bots.base import Bot, make_bot
from cherki.games import find_game

DEFAULT_BUDGET_MS = 250.0


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
