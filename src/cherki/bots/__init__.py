"""Bots for every game: ``make_bot(game, level)``; levels ``random``, ``heuristic``, ``search``."""

from cherki.bots import balik as _balik  # noqa: F401  (registers the Balik bots)
from cherki.bots.base import LEVELS, REGISTRY, Bot, RandomBot, levels_for, make_bot, register

__all__ = ["LEVELS", "REGISTRY", "Bot", "RandomBot", "levels_for", "make_bot", "register"]
