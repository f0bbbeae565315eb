"""Bots for every game: ``make_bot(game, level)``; levels ``random``, ``heuristic``, ``search``."""

from cherki.bots import balik as _balik  # noqa: F401  (registers the Balik bots)
from cherki.bots import ceki as _ceki  # noqa: F401  (registers the Ceki bot)
from cherki.bots import cholek as _cholek  # noqa: F401  (registers the Cholek Tiga bot)
from cherki.bots.base import LEVELS, REGISTRY, Bot, RandomBot, levels_for, make_bot, register

__all__ = ["LEVELS", "REGISTRY", "Bot", "RandomBot", "levels_for", "make_bot", "register"]
