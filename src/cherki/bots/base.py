"""The bot interface: a policy from one seat's observation to a legal action.

A bot sees only what its seat may know (the observation) and draws any randomness from the
generator it is given, so a game with bots is reproducible from its seeds. Bots never read
the state itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar, Protocol

from cherki.bots.weights import TunedWeights
from cherki.core.contract import Game, Observation, State
from cherki.core.errors import RulesError
from cherki.core.view import Reason
from cherki.games import find_game


class Bot(Protocol):
    """Anything with ``act(observation, rng) -> action id`` (one of ``observation.legal``)."""

    name: str

    def act(self, obs: Observation, rng: random.Random) -> int: ...


class RandomBot:
    """Uniform over the legal actions. Works for every game."""

    name = "random"

    def act(self, obs: Observation, rng: random.Random) -> int:
        return int(rng.choice(obs.legal))


#: The search's default time a decision, where a heuristic does not say.
DEFAULT_BUDGET_MS = 250.0


class Heuristic:
    """A game's heuristic bot, and what it tells the search bot that rolls out with it.

    Every hint the search uses is declared here with the default the search assumes when a
    game's heuristic does not override it; the search calls them directly. A heuristic
    narrows the observation to its game's own type (and refuses another game's) itself.
    """

    name = "heuristic"
    #: milliseconds a searched decision may take
    search_budget_ms: float = DEFAULT_BUDGET_MS
    #: the sampled deals (futures, in the race search) a searched decision takes under a
    #: rollout budget, which plays the same on every machine: about what the time budget
    #: reaches on one core of the project's reference machine (2 cores, 2026)
    search_rollouts: int = 16
    #: how many of the heuristic's top choices the search compares
    search_candidates: int = 5
    #: how many standard errors a candidate must beat the heuristic's choice by
    search_z: float = 1.5
    #: the search is a race to go out (the games of sets): it uses the race search of
    #: :mod:`cherki.bots.race` instead of plain rollouts
    races: bool = False
    #: plain rollouts stop after this many actions and value the hand with
    #: :meth:`leaf_value` (None: play to the end)
    rollout_depth: int | None = None
    #: a typical hand's stake for one seat, in points: the review's thresholds are shares
    #: of it (:func:`cherki.bots.review.thresholds_for`)
    review_scale: float = 10.0
    #: the constants it plays by, where a learned model may tune them
    #: (:mod:`cherki.bots.weights`; ``cherki train --method tune``); None: it has none
    weights_type: ClassVar[type[TunedWeights] | None] = None

    def act(self, obs: Observation, rng: random.Random) -> int:
        raise NotImplementedError

    def weighted(self, weights: TunedWeights) -> Heuristic:
        """This heuristic playing by other constants (a learned model's prior); refused
        where it has none (:attr:`weights_type`) or they are another game's."""
        kind = self.weights_type
        if kind is None:
            raise RulesError(f"the {self.name} bot has no weights to tune")
        if not isinstance(weights, kind):
            raise RulesError(
                f"this heuristic plays by {kind.__name__}, not {type(weights).__name__}"
            )
        return self._weighted(weights)

    def _weighted(self, weights: TunedWeights) -> Heuristic:
        """A copy of this heuristic playing by ``weights`` (of its own kind)."""
        return type(self)(weights=weights)  # type: ignore[call-arg]

    def search_policy(self) -> Heuristic:
        """The policy the search plays its own seat with: by default this one."""
        return self

    def sure(self, obs: Observation) -> int | None:
        """An action no search could better (a winning sampei), or None."""
        return None

    def unstick(self, obs: Observation) -> int | None:
        """The action that ends a loop the seat is in (in the games of sets, a discard taken
        and thrown round and round: a draw), or None; the search plays it too. Called once
        for each of the seat's decisions (again with the same observation, it answers the
        same)."""
        return None

    def searches(self, obs: Observation) -> bool:
        """Whether this decision is worth searching."""
        return True

    def search_keeps_lots(self, obs: Observation) -> bool:
        """Whether the search plays this policy's own choice, lots and all, and leaves it
        only by the margin ``search_z``."""
        return False

    def rank(self, obs: Observation) -> list[int]:
        """Legal actions, best first (empty: the heuristic does not rank)."""
        return []

    def scores(self, obs: Observation) -> dict[int, float] | None:
        """The heuristic's measure of each legal action (equal: it would draw lots), or
        None."""
        return None

    def explain(self, obs: Observation) -> list[Reason]:
        """The action this bot picks at ``obs`` (with the generator ``random.Random(0)``,
        as the hints ask it) first, and why, as :class:`~cherki.core.view.Reason` data the
        game's view words (``GameView.reason_lines``): by default no reason."""
        return []

    def sample_deal(self, obs: Observation, rng: random.Random, game: Game) -> State:
        """A full deal consistent with ``obs`` for the search (by default the game's)."""
        return game.determinize(obs, rng)

    def leaf_value(self, state: State, seat: int) -> float:
        """An unfinished hand's worth to ``seat`` (used with ``rollout_depth``)."""
        raise NotImplementedError


BotFactory = Callable[[], Bot]

#: (game name or family, level) -> factory. The bots' modules register here, each for a
#: family of games (``Game.family``: every game of sets gets the Balik heuristic) or for
#: one game's name.
REGISTRY: dict[tuple[str, str], BotFactory] = {}
LEVELS = ("random", "heuristic", "variant", "search", "learned")


def register(game: str, level: str) -> Callable[[BotFactory], BotFactory]:
    """Register a bot of ``level`` for a game's name or a family of games (``Game.family``)."""

    def deco(factory: BotFactory) -> BotFactory:
        REGISTRY[(game, level)] = factory
        return factory

    return deco


def factory_for(game: str, level: str) -> BotFactory | None:
    """The factory of ``game``'s bot of ``level``: the one registered for the game's own
    name, else for its family (``Game.family``), else None."""
    own = REGISTRY.get((game, level))
    if own is not None:
        return own
    family = find_game(game).family
    return REGISTRY.get((family, level)) if family else None


def levels_for(game: str) -> list[str]:
    """The levels a game has: random always; variant where the game registers one (the
    games of sets: the heuristic that weighs the scoring in force); search wherever there
    is a heuristic to roll out with and the game can sample hidden cards
    (``Game.searchable``); learned where a trained model ships for the game
    (:mod:`cherki.bots.learned`, for the player counts its cards name); ``policy:<name>`` for
    every policy registered for it (:mod:`cherki.bots.policy`)."""
    out = ["random"]
    if factory_for(game, "heuristic") is not None:
        out.append("heuristic")
        if factory_for(game, "variant") is not None:
            out.append("variant")
        if find_game(game).searchable:
            out.append("search")
    from cherki.bots.policy import policy_levels
    from cherki.bots.shipped import shipped_players

    if shipped_players(game):
        out.append("learned")

    return out + policy_levels(game)


def heuristic_for(game: str) -> Heuristic:
    """The heuristic bot of ``game`` (its hints declared by :class:`Heuristic`)."""
    factory = factory_for(game, "heuristic")
    bot = factory() if factory is not None else None
    if not isinstance(bot, Heuristic):
        raise RulesError(f"there is no heuristic bot for {game}")
    return bot
