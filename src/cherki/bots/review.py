"""The review's evaluator: what each legal action of one decision is worth to the seat that
made it, from what that seat saw, in the game's points.

An evaluator reads one :class:`~cherki.core.contract.Observation` (never a state) and gives,
for each legal action, a sample of the seat's payoff at the end of the hand. The one
evaluator today, ``search``, is the search bot's plain rollouts (:mod:`cherki.bots.search`):
deals sampled from the observation as the search samples them (``sample_deal``, by default
``game.determinize``: every public commitment kept, the rest of the hidden cards drawn from
the cards this seat has not seen), each action played in the same deal, and the hand played
on to its end by the game's heuristic with the same rollout seed for every action (so only
the action differs; the values are paired). The value is the seat's payment at the end of
the hand (points, in the game's scoring). The other, ``learned``
(:class:`LearnedRolloutEvaluator`), is the same but for the rollouts: every seat is played by
the table's shipped ``learned`` bot instead of the heuristic. A review uses it at the tables
where that bot is measured at least as strong as ``search`` (:func:`evaluator_for`), and
the search's elsewhere; the review names the one it used. Others register with
:func:`register_evaluator`.

Our specifications: *measured at least as strong* is read from the model's card, its arena
figures (issue 38): learned − search not below 0 (its mean, in the field-mode duplicate
arena against 256 rollouts of the search) and learned − heuristic above 0 with its whole
95% interval (a rollout by the learned bot replaces a rollout by the heuristic: it must
have been measured better than the heuristic it replaces). Today that is Balik Satu 2p
(+0.13 against the search, +0.44 [+0.36, +0.51] against the heuristic), Balik Satu 6p
(+0.58; +0.11 [+0.06, +0.17]), Chaqui 3p (+0.02; +0.24 [+0.18, +0.30]) and Chaqui 4p
(+0.02; +0.13 [+0.07, +0.19]). The learned bots' own values (their networks' value heads)
are not used: they value a position, not each action, and a review compares actions.

The generator of every decision is seeded from a seed given by the caller and the
observation itself (:func:`decision_seed`): the same decision seen the same way gives the
same values on any machine, and nothing hidden from the seat (the real deal's shuffle seed,
another seat's cards) goes into it.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

from cherki.bots.base import heuristic_for
from cherki.bots.search import SearchBot
from cherki.core.contract import Observation, State, play_out
from cherki.core.errors import RulesError
from cherki.games import find_game

if TYPE_CHECKING:
    from cherki.bots.learned import Model

#: the default rollouts (sampled deals) a decision: every legal action is played in each.
#: Chosen so that one seat's review of a whole hand stays under 30 CPU-seconds on the
#: reference machine in Balik Satu, Ceki and Cholek Tiga (``benchmarks/bench_review.py``).
DEFAULT_BUDGET = 24
#: the most rollouts a decision a review may ask for
MAX_BUDGET = 4096
#: 95% two-sided normal quantile
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A mean and its 95% interval (normal approximation over the rollouts)."""

    mean: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Estimate:
        n = len(values)
        if n == 0:
            return cls(0.0, 0.0, 0.0)
        m = math.fsum(values) / n
        if n < 2:
            return cls(m, m, m)
        var = math.fsum((x - m) ** 2 for x in values) / (n - 1)
        half = Z95 * math.sqrt(var / n)
        return cls(m, m - half, m + half)

    def to_json(self) -> dict[str, float]:
        return {"mean": round(self.mean, 4), "low": round(self.low, 4), "high": round(self.high, 4)}


class Evaluator(Protocol):
    """Values of every legal action of a decision, from one seat's observation."""

    #: the evaluator's name, as reviews report it
    name: str

    def samples(
        self, obs: Observation, actions: Sequence[int], rng: random.Random, budget: int
    ) -> dict[int, list[float]]:
        """For each of ``actions``, ``budget`` paired samples of the seat's payoff (sample
        ``i`` of every action from the same sampled deal and rollout seed)."""
        ...


class RolloutEvaluator:
    """The ``search`` bot's plain rollouts, played to the end of the hand (its heuristic
    on every seat), valued by the seat's points."""

    name = "search"

    def __init__(self, game: str) -> None:
        self.bot = SearchBot.by_rollouts(game)

    def samples(
        self, obs: Observation, actions: Sequence[int], rng: random.Random, budget: int
    ) -> dict[int, list[float]]:
        seat = obs.seat
        play_on = self.player(obs)
        out: dict[int, list[float]] = {a: [] for a in actions}
        for _ in range(budget):
            world = self.bot.sample_world(obs, rng)
            roll_seed = rng.randrange(1 << 30)
            for a in actions:
                w = world.clone()
                w.apply(a, seat)
                out[a].append(play_on(w, seat, roll_seed))
        return out

    def player(self, obs: Observation) -> Callable[[State, int, int], float]:
        """How a sampled deal is played on after the action, at ``obs``'s table:
        ``(state, seat, seed) -> the seat's points``. Here the search's rollout, played to
        the end (points, never an unfinished hand's leaf value)."""
        return lambda state, seat, seed: self.bot.rollout(state, seat, seed, None)


class LearnedRolloutEvaluator(RolloutEvaluator):
    """The search's sampled deals, played on to the end by the table's shipped ``learned``
    bot at every seat (one bot a seat, as at a table), valued by the seat's points; the
    model is the one shipped for the observation's player count (refused in one sentence
    where none ships)."""

    name = "learned"

    def __init__(self, game: str) -> None:
        super().__init__(game)
        self.game = game

    def player(self, obs: Observation) -> Callable[[State, int, int], float]:
        from cherki.bots.learned import shipped_model

        model = shipped_model(self.game, obs.players)  # refused where none ships
        return lambda state, seat, seed: self._rollout(state, seat, seed, model, obs.players)

    def _rollout(self, state: State, seat: int, seed: int, model: Model, n: int) -> float:
        """The seat's points once ``state`` is played to its end by the learned bot, one
        bot a seat (each keeps its own count of a stuck hand), lots from ``seed``."""
        from cherki.bots.learned import LearnedBot

        rng = random.Random(seed)
        bots = [LearnedBot(self.game, model) for _ in range(n)]
        play_out(state, lambda s, obs: bots[s].act(obs, rng))
        return float(state.result.payments[seat])


@lru_cache(maxsize=64)
def learned_is_as_strong(game: str, players: int) -> bool:
    """Whether the ``learned`` bot of ``game`` at ``players`` is measured at least as strong
    as ``search`` (see the module): a model ships for the table and its card's arena has
    learned − search not below 0 and learned − heuristic above 0 with its whole interval."""
    from cherki.bots.learned import load_model
    from cherki.bots.shipped import shipped

    stem = shipped().get((find_game(game).name, players))
    if stem is None:
        return False
    arena = load_model(stem).card.get("arena") or {}
    against = (arena.get("search") or {}).get("learned_minus_search")
    above = (arena.get("heuristic") or {}).get("learned_minus_heuristic")
    if not against or not above:
        return False
    return bool(against["mean"] >= 0 and above["low"] > 0)


def evaluator_for(game: str, players: int) -> str:
    """The evaluator a review of ``game`` at ``players`` uses: ``learned`` where that bot is
    measured at least as strong as ``search`` (:func:`learned_is_as_strong`), else
    ``search``."""
    return "learned" if learned_is_as_strong(game, players) else "search"


EvaluatorFactory = Callable[[str], Evaluator]
#: evaluator name -> factory taking the game's name
EVALUATORS: dict[str, EvaluatorFactory] = {
    "search": RolloutEvaluator,
    "learned": LearnedRolloutEvaluator,
}


def register_evaluator(name: str, factory: EvaluatorFactory) -> None:
    """Offer another evaluator to reviews (the learned bot, where measured at least as
    strong as ``search``)."""
    EVALUATORS[name] = factory


def make_evaluator(game: str, name: str = "search") -> Evaluator:
    factory = EVALUATORS.get(name)
    if factory is None:
        names = ", ".join(sorted(EVALUATORS))
        raise RulesError(f"there is no review evaluator {name!r}: choose one of {names}")
    return factory(game)


def decision_seed(seed: int, game: str, obs: Observation) -> int:
    """The generator's seed for one decision: from the caller's ``seed``, the game and the
    seat's own observation (its JSON), and nothing else."""
    text = json.dumps([seed, game, obs.to_json()], sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


@dataclass(frozen=True)
class Thresholds:
    """The losses, in points, from which a decision is marked."""

    inaccuracy: float
    mistake: float
    blunder: float

    def mark(self, loss: float) -> str | None:
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return None

    def to_json(self) -> dict[str, float]:
        return {"inaccuracy": self.inaccuracy, "mistake": self.mistake, "blunder": self.blunder}


#: the thresholds as shares of the game's point scale (its heuristic's ``review_scale``)
SHARES = (0.1, 0.25, 0.5)


def thresholds_for(game: str) -> Thresholds:
    """The game's thresholds: 10%, 25% and 50% of its point scale, a typical hand's stake
    for one seat (declared by its heuristic, ``review_scale``)."""
    scale = heuristic_for(game).review_scale
    a, b, c = (round(scale * s, 2) for s in SHARES)
    return Thresholds(a, b, c)


@dataclass(frozen=True)
class Judged:
    """One decision judged: each action's value, the best found and the loss."""

    values: dict[int, Estimate]
    best: int
    taken: int
    #: mean loss of the action taken against the best (0 when it is the best)
    loss: Estimate
    mark: str | None


def judge(
    evaluator: Evaluator,
    obs: Observation,
    taken: int,
    *,
    seed: int,
    budget: int,
    thresholds: Thresholds,
    game: str,
) -> Judged:
    """Judge ``taken`` at the decision ``obs``: every legal action valued, the best by the
    mean; the loss is the paired difference best − taken. A decision is marked only where
    the loss reaches a threshold and its 95% interval lies above zero (noise alone marks
    nothing)."""
    actions = [int(a) for a in obs.legal]
    if taken not in actions:
        raise RulesError(f"action {taken} is not legal at this decision")
    rng = random.Random(decision_seed(seed, game, obs))
    samples = evaluator.samples(obs, actions, rng, budget)
    values = {a: Estimate.of(samples[a]) for a in actions}
    best = max(actions, key=lambda a: (values[a].mean, a == taken, -a))
    diffs = [x - y for x, y in zip(samples[best], samples[taken], strict=True)]
    loss = Estimate.of(diffs) if best != taken else Estimate(0.0, 0.0, 0.0)
    mark = thresholds.mark(loss.mean) if loss.low > 0 else None
    return Judged(values, best, taken, loss, mark)


class EvaluatorBot:
    """A bot that plays the evaluator's best action at every decision (with the review's
    seed): a hand it plays has no loss in its own review."""

    name = "review"

    def __init__(self, game: str, *, budget: int = DEFAULT_BUDGET, seed: int = 0) -> None:
        self.game = game
        self.evaluator = make_evaluator(game)
        self.budget = budget
        self.seed = seed
        self.thresholds = thresholds_for(game)

    def act(self, obs: Observation, rng: random.Random) -> int:
        legal = [int(a) for a in obs.legal]
        if len(legal) == 1:
            return legal[0]
        judged = judge(
            self.evaluator,
            obs,
            legal[0],
            seed=self.seed,
            budget=self.budget,
            thresholds=self.thresholds,
            game=self.game,
        )
        return judged.best
