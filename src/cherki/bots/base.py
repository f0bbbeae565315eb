"""The bot interface: a policy from one seat's observation to a legal action.

A bot sees only what its seat may know (the observation) and draws any randomness from the
generator it is given, so a game with bots is reproducible from its seeds. Bots never read
the state itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from cherki.core.errors import RulesError


class Bot(Protocol):
    """Anything with ``act(observation, rng) -> action id`` (one of ``observation.legal``)."""

    name: str

    def act(self, obs: Any, rng: random.Random) -> int: ...


class RandomBot:
    """Uniform over the legal actions. Works for every game."""

    name = "random"

    def act(self, obs: Any, rng: random.Random) -> int:
        return int(rng.choice(obs.legal))


BotFactory = Callable[[], Bot]

#: (game name, level) -> factory. Game modules' bot files register here.
REGISTRY: dict[tuple[str, str], BotFactory] = {}
LEVELS = ("random", "heuristic", "search")


def register(game: str, level: str) -> Callable[[BotFactory], BotFactory]:
    def deco(factory: BotFactory) -> BotFactory:
        REGISTRY[(game, level)] = factory
        return factory

    return deco


def levels_for(game: str) -> list[str]:
    """The levels a game has: random always; search wherever there is a heuristic to roll
    out with and the game can sample hidden cards."""
    out = ["random"]
    if (game, "heuristic") in REGISTRY:
        out.append("heuristic")
        from cherki.games import find_game

        if type(find_game(game)).determinize is not _base_determinize():
            out.append("search")
    return out


def _base_determinize() -> object:
    from cherki.core.contract import Game

    return Game.determinize


def make_bot(game: str, level: str) -> Bot:
    """A bot of ``level`` for ``game`` (``random`` exists for every game)."""
    key = level.strip().lower()
    if key == "random":
        return RandomBot()
    if key == "search" and "search" in levels_for(game):
        from cherki.bots.search import SearchBot

        return SearchBot(game)
    factory = REGISTRY.get((game, key))
    if factory is None:
        raise RulesError(
            f"there is no {level!r} bot for {game}: choose one of {', '.join(levels_for(game))}"
        )
    return factory()
