"""The learned models shipped as package data (``cherki/bots/models``): which game and table
sizes have one. Apart from :mod:`cherki.bots.learned` so that the bot registry
(:func:`cherki.bots.base.levels_for`) can list the ``learned`` level without importing the
bot, which plays the heuristic's choice when stuck (no import loop)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from cherki.games import find_game

#: the folder of the shipped models: ``<game>-<players>p.npz`` beside its ``.card.json``
MODELS = Path(__file__).with_name("models")


def shipped() -> dict[tuple[str, int], Path]:
    """The shipped models: ``(game, players)`` -> the model's stem."""
    return dict(_shipped())


@lru_cache(maxsize=1)
def _shipped() -> dict[tuple[str, int], Path]:
    out: dict[tuple[str, int], Path] = {}
    if not MODELS.is_dir():
        return out
    for card in sorted(MODELS.glob("*.card.json")):
        data = json.loads(card.read_text())
        stem = card.with_name(card.name[: -len(".card.json")])
        for p in data.get("players", []):
            out[(str(data["game"]), int(p))] = stem
    return out


def shipped_players(game: str) -> list[int]:
    """The player counts ``game`` has a shipped model for (none: no ``learned`` level)."""
    name = find_game(game).name
    return sorted(p for g, p in _shipped() if g == name)


__all__ = ["MODELS", "shipped", "shipped_players"]
