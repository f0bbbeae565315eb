"""The search bot: information-set Monte Carlo search, for every game.

At each decision with a real choice it compares the heuristic's top candidates in deals
sampled from what its seat has seen (never the real hidden cards), one of two ways:

* **Plain rollouts** (Ceki, Cholek Tiga): it samples a full deal consistent with the
  observation (``game.determinize``), plays each candidate in it and plays on with every seat
  played by the heuristic bot (the same rollout seed for every candidate, so only the action
  differs), and values the candidate by the seat's points at the end of the hand, or, where
  the heuristic can value an unfinished hand (``leaf_value``, Cholek Tiga), after
  ``rollout_depth`` actions.
* **The race search** (the games of sets, whose heuristic marks a going-out action,
  ``goes_out``): a hundred or more fast rollouts of the seat's own hand a candidate,
  against the others' first chance to go out, in :mod:`cherki.bots.race`.

It stops after ``iterations`` sampled deals (futures, in the race search) or when its
``budget_ms`` runs out. The clock (:class:`Clock`, from the start of the decision) starts a
step (a sampled deal, a batch of futures) only when one more, taking as long as the steps so
far did on average, still ends within the budget: on a busy machine, where every step takes
longer, the search does fewer, and the budget holds. ``min_iterations`` bounds only a search
without a clock; with one, it is capped by the budget (one step is always taken). A *rollout
budget* (``iterations`` with no ``budget_ms``, :meth:`SearchBot.by_rollouts`) plays the same
on every machine and at any load: the same seed gives the same play, which is what the arena
uses by default; a time budget adapts to the machine and is what people play against. It
keeps the heuristic's choice unless another candidate beats it by ``z`` standard errors of
the paired differences; between choices the heuristic rates level (where it would draw lots:
its ``scores``, in the games of sets) the better mean is enough. Where the heuristic says
its ties are not worth breaking (``search_keeps_lots``: Chaqui, whose futures seldom tell
them apart) the bot instead plays the heuristic's own choice, lots and all, drawn from the
seat's generator exactly as the heuristic would draw them, and leaves it only by ``z``
standard errors; its futures then come from a generator forked off the seat's, which they
leave untouched. Candidates are the heuristic's top choices when it can rank them
(``rank(obs)``), else its choice and a sample of the other legal actions. Where the
heuristic is sure (a winning ``sampei``) the bot does not search, nor where the heuristic
says the decision is not worth searching (``searches(obs)``)."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Set
from dataclasses import dataclass
from typing import Literal

from cherki.bots.balik import BalikHeuristicBot
from cherki.bots.base import Heuristic, heuristic_for
from cherki.bots.clock import Clock
from cherki.bots.race import RaceSearch
from cherki.core.contract import Observation, State, play_out
from cherki.core.errors import RulesError
from cherki.games import find_game
from cherki.games.sets.observation import SetsObservation


@dataclass(frozen=True)
class Compared:
    """What a searched decision compared (:attr:`SearchBot.compared`): the heuristic's
    choice (``base``), each other candidate's mean paired difference from it in the seat's
    values with its standard error and sample count (``gains``), and the choice made."""

    base: int
    gains: dict[int, tuple[float, float, int]]
    chosen: int


@dataclass(frozen=True)
class SearchBudget:
    """What bounds a search decision: ``ms`` of the clock, else ``rollouts`` sampled deals
    (None: the game's ``search_rollouts``). Rollouts play the same on every machine and at
    any load; the clock adapts to the machine."""

    rollouts: int | None = None
    ms: float | None = None

    def __post_init__(self) -> None:
        if self.rollouts is not None and (type(self.rollouts) is not int or self.rollouts < 2):
            raise RulesError(
                f"a search needs at least 2 rollouts a decision, not {self.rollouts!r}"
            )
        if self.ms is not None and not (
            isinstance(self.ms, int | float) and math.isfinite(self.ms) and self.ms > 0
        ):
            raise RulesError(f"a search needs a positive time a decision, not {self.ms!r}")
        if self.rollouts is not None and self.ms is not None:
            raise RulesError("a search budget is in rollouts or in milliseconds, not both")

    def bot(self, game: str) -> SearchBot:
        if self.ms is not None:
            return SearchBot(game, budget_ms=self.ms)
        return SearchBot.by_rollouts(game, self.rollouts)


def _gains(diffs: dict[int, list[float]]) -> dict[int, tuple[float, float, int]]:
    out = {}
    for a, d in diffs.items():
        n = len(d)
        m = sum(d) / n if n else 0.0
        se = (sum((x - m) ** 2 for x in d) / (n - 1) / n) ** 0.5 if n > 1 else math.inf
        out[a] = (m, se, n)
    return out


class SearchBot:
    name = "search"

    def __init__(
        self,
        game: str,
        *,
        budget_ms: float | Literal["game"] | None = "game",
        iterations: int | None = None,
        min_iterations: int = 4,
        max_candidates: int | None = None,
        z: float | None = None,
        race: bool | None = None,
        depth: int | None = None,
    ) -> None:
        self.game = find_game(game)
        #: the clock a time budget is measured on (see :class:`Clock`)
        self.clock: Callable[[], float] = time.perf_counter
        self.iterations = iterations
        self.min_iterations = min_iterations
        # the policy of the seat's own search: the heuristic's, or the variant it names
        # (in the games of sets, one that plays for the score)
        self.heuristic: Heuristic = heuristic_for(self.game.name).search_policy()
        #: milliseconds a decision may take (None: no limit); by default the heuristic's
        self.budget_ms: float | None = (
            self.heuristic.search_budget_ms if budget_ms == "game" else budget_ms
        )
        #: how many of the heuristic's top choices are compared
        self.max_candidates: int = (
            max_candidates if max_candidates is not None else self.heuristic.search_candidates
        )
        #: how many standard errors a candidate must beat the heuristic's choice by: the
        #: game's heuristic may ask for more caution where its sampled deals are known to
        #: flatter some plans
        self.z = z if z is not None else self.heuristic.search_z
        #: the race search for games that are races to go out
        self.race = race if race is not None else self.heuristic.races
        #: plain rollouts stop after this many actions where the heuristic can value an
        #: unfinished hand, else play to the end
        self.depth: int | None = depth if depth is not None else self.heuristic.rollout_depth
        #: what the last decision compared, where it searched (None where it did not)
        self.compared: Compared | None = None

    @classmethod
    def by_rollouts(cls, game: str, rollouts: int | None = None) -> SearchBot:
        """A search bot with a rollout budget and no clock: ``rollouts`` sampled deals a
        decision (default: the game's ``search_rollouts``), so that the same seed gives the
        same play on any machine."""
        if rollouts is not None:
            SearchBudget(rollouts)  # a clear error for a bad count
        n = rollouts if rollouts is not None else heuristic_for(game).search_rollouts
        return cls(game, budget_ms=None, iterations=n, min_iterations=min(4, n))

    @property
    def budget_text(self) -> str:
        """The budget in words: "256 rollouts" or "100 ms"."""
        if self.budget_ms is None:
            return f"{self.iterations} rollouts" if self.iterations is not None else "no limit"
        return f"{self.budget_ms:g} ms"

    def act(self, obs: Observation, rng: random.Random) -> int:
        self.compared = None
        legal = [int(a) for a in obs.legal]
        if len(legal) == 1:
            return legal[0]
        choice = self.heuristic.sure(obs)
        if choice is not None:
            return int(choice)
        choice = self.heuristic.unstick(obs)  # a loop of takes: a draw ends it
        if choice is not None:
            return int(choice)
        if not self.heuristic.searches(obs):
            return int(self.heuristic.act(obs, rng))
        if self.heuristic.search_keeps_lots(obs):
            # the policy's own choice, its lots drawn from the seat's generator as that
            # policy playing alone would draw them; the futures come from a generator forked
            # off it, which leaves the seat's untouched
            choice = int(self.heuristic.act(obs, rng))
            rng = self._fork(rng, obs)
            ranked = self._candidates(obs, legal, rng)
            candidates = [choice, *(a for a in ranked if a != choice)][: self.max_candidates]
            ties = False
        else:
            candidates = self._candidates(obs, legal, rng)
            ties = True
        if len(candidates) == 1:
            return candidates[0]
        if self.race:
            return self._sets_search(obs, candidates, rng, ties)
        return self._plain_search(obs, candidates, rng)

    @staticmethod
    def _fork(rng: random.Random, obs: Observation) -> random.Random:
        """A generator for the futures of this decision, seeded from the seat's generator
        (and the legal actions, so two decisions between which the seat drew nothing still
        differ) without drawing from it: from the integers of its state only, whose hash,
        unlike that of the whole state, is the same in every process."""
        return random.Random(hash((rng.getstate()[1], tuple(int(a) for a in obs.legal))))

    def _sets_search(
        self, obs: Observation, candidates: list[int], rng: random.Random, ties: bool = True
    ) -> int:
        """The games of sets: the race search of :mod:`cherki.bots.race`. With ``ties``
        the better mean breaks the policy's ties."""
        if not isinstance(self.heuristic, BalikHeuristicBot) or not isinstance(
            obs, SetsObservation
        ):
            raise TypeError("the race search is for the games of sets and their heuristic")
        search = RaceSearch(self.heuristic)
        values = search.values(
            obs, candidates, rng, self.game, self._deadline(), self.iterations, self.min_iterations
        )
        base = candidates[0]
        diffs = {
            a: [x - y for x, y in zip(values[a], values[base], strict=True)]
            for a in candidates[1:]
            if values[a]
        }
        tied: Set[int] = self._tied(obs, base, candidates) if ties else frozenset()
        return self._choose(base, diffs, tied)

    def _tied(self, obs: Observation, base: int, candidates: list[int]) -> set[int]:
        """The candidates the heuristic rates level with its own choice (where it would
        draw lots), by its ``scores`` when it has them."""
        rated = self.heuristic.scores(obs)
        if rated is None:
            return set()
        return {a for a in candidates[1:] if abs(rated[a] - rated[base]) < 1e-9}

    def sample_world(self, obs: Observation, rng: random.Random) -> State:
        """A sampled deal consistent with the observation, as the search samples them (the
        review's evaluator shares it, :mod:`cherki.bots.review`)."""
        return self._world(obs, rng)

    def rollout(self, state: State, seat: int, seed: int, depth: int | None = None) -> float:
        """The seat's value of ``state`` played on by the heuristic (see :meth:`_rollout`)."""
        return self._rollout(state, seat, seed, depth)

    def _world(self, obs: Observation, rng: random.Random) -> State:
        """A sampled deal consistent with the observation (the heuristic's own way of
        sampling, ``sample_deal``)."""
        return self.heuristic.sample_deal(obs, rng, self.game)

    def _plain_search(self, obs: Observation, candidates: list[int], rng: random.Random) -> int:
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

    def _deadline(self) -> Clock | None:
        if self.budget_ms is None:
            return None
        return Clock(self.budget_ms, self.clock)

    def _more(self, done: int, deadline: Clock | None) -> bool:
        if self.iterations is not None and done >= self.iterations:
            return False
        if deadline is None:
            return True
        return deadline.fits_another(done)

    def _choose(
        self, base: int, diffs: dict[int, list[float]], tied: Set[int] = frozenset()
    ) -> int:
        """The candidate that beats the heuristic's choice by a clear margin, if any.

        The search only overrides the heuristic when the paired difference of rollout values
        is positive by more than ``z`` standard errors, so noise alone never makes it play
        worse than the heuristic it rolls out with. Between choices the heuristic rates
        level (``tied``: it would draw lots between them) there is nothing to protect, and
        the better mean wins.
        """
        best, best_mean = base, 0.0
        for a, d in diffs.items():
            n = len(d)
            if n < 2:
                continue
            m = sum(d) / n
            var = sum((x - m) ** 2 for x in d) / (n - 1)
            se = (var / n) ** 0.5
            need = 0.0 if a in tied else self.z * se
            if m > need and m > best_mean:
                best, best_mean = a, m
        self.compared = Compared(base, _gains(diffs), best)
        return best

    def _candidates(self, obs: Observation, legal: list[int], rng: random.Random) -> list[int]:
        ranked = [a for a in self.heuristic.rank(obs) if a in legal]
        if ranked:
            return ranked[: self.max_candidates]
        if len(legal) <= self.max_candidates:
            return legal
        first = self.heuristic.act(obs, random.Random(0))
        others = [a for a in legal if a != first]
        return [first, *rng.sample(others, self.max_candidates - 1)]

    def _rollout(self, state: State, seat: int, seed: int, depth: int | None = None) -> float:
        """Play the hand on with the heuristic (``play_out``, the one play loop): to its
        end, or for ``depth`` actions and value it with the heuristic's ``leaf_value``."""
        rng = random.Random(seed)
        bot = self.heuristic
        play_out(state, lambda s, obs: bot.act(obs, rng), limit=depth)
        if not state.is_terminal:
            return float(bot.leaf_value(state, seat))
        return float(state.result.payments[seat])
