"""Bots for every game: ``make_bot(game, level)``; levels ``random``, ``heuristic``,
``variant`` (the games of sets: the heuristic that weighs the scoring in force), ``search``,
``learned`` (a shipped model, :mod:`cherki.bots.learned`, where one ships for the game) and
``policy:<name>``, a registered callable ``policy(vector, mask) -> action``
(:mod:`cherki.bots.policy`).

The modules depend one way: ``base`` (the Bot protocol, the declared search hints of a
:class:`~cherki.bots.base.Heuristic`, the registry) ← the games' heuristics (``balik``,
``ceki``, ``cholek``, each registering itself; ``variant`` on ``balik``) ← ``race`` (the
race search of the games of sets) ← ``search`` (the search bot) ← this package, which offers
:func:`make_bot`.
"""

from __future__ import annotations

from cherki.bots import balik as _balik  # noqa: F401  (registers the Balik bots)
from cherki.bots import ceki as _ceki  # noqa: F401  (registers the Ceki bot)
from cherki.bots import cholek as _cholek  # noqa: F401  (registers the Cholek Tiga bot)
from cherki.bots import variant as _variant  # noqa: F401  (registers the variant bots)
from cherki.bots.base import (
    LEVELS,
    REGISTRY,
    Bot,
    Heuristic,
    RandomBot,
    factory_for,
    heuristic_for,
    levels_for,
    register,
)
from cherki.bots.learned import LearnedBot, shipped_model
from cherki.bots.policy import PREFIX, PolicyBot, policy_bot, register_policy
from cherki.bots.search import SearchBot, SearchBudget
from cherki.core.errors import RulesError


def make_bot(
    game: str, level: str, *, search: SearchBudget | None = None, players: int | None = None
) -> Bot:
    """A bot of ``level`` for ``game`` (``random`` exists for every game).

    A ``search`` bot thinks by the clock (its game's time a decision) unless ``search``
    bounds it otherwise: a :class:`SearchBudget` in rollouts plays the same on every machine.
    With ``players``, a ``learned`` bot is refused at once (in one sentence) where no model
    ships for that table size; without, at its first decision there.
    """
    if level.strip().startswith(PREFIX):
        return policy_bot(game, level.strip())
    key = level.strip().lower()
    if key == "random":
        return RandomBot()
    if key == "search" and "search" in levels_for(game):
        return SearchBot(game) if search is None else search.bot(game)
    if key == "learned" and "learned" in levels_for(game):
        if players is not None:
            shipped_model(game, players)
        return LearnedBot(game)
    factory = factory_for(game, key)
    if factory is None:
        raise RulesError(
            f"there is no {level!r} bot for {game}: choose one of {', '.join(levels_for(game))}"
        )
    return factory()


__all__ = [
    "LEVELS",
    "REGISTRY",
    "Bot",
    "Heuristic",
    "LearnedBot",
    "PolicyBot",
    "RandomBot",
    "SearchBot",
    "SearchBudget",
    "factory_for",
    "heuristic_for",
    "levels_for",
    "make_bot",
    "register",
    "register_policy",
]
