"""The games: each a module of rules on the one engine, found by name in a registry."""

from __future__ import annotations

from cherki.core.contract import Game
from cherki.core.errors import RulesError
from cherki.games.ceki import CekiGame
from cherki.games.cholek import CholekGame
from cherki.games.sets.balik import BalikGame, BalikLimaBelasGame
from cherki.games.sets.chaqui import ChaquiGame
from cherki.games.sets.chot import ChotGame
from cherki.games.sets.gonggong import GonggongGame
from cherki.games.sets.tantanan import CekenGame, TantananGame

GAMES: dict[str, Game] = {
    g.name: g
    for g in (
        BalikGame(),
        BalikLimaBelasGame(),
        CekiGame(),
        CholekGame(),
        GonggongGame(),
        TantananGame(),
        CekenGame(),
        ChaquiGame(),
        ChotGame(),
    )
}

ALIASES: dict[str, str] = {
    "balik": "balik-satu",
    "baliksatu": "balik-satu",
    "balik-15": "balik-lima-belas",
    "lima-belas": "balik-lima-belas",
    "kowah": "ceki",
    "cholek": "cholek-tiga",
    "cekèn": "ceken",
    "sampen": "ceken",
    "sampèn": "ceken",
    "chiqui": "chaqui",
    "chekki": "chaqui",
    "kiong": "chot",
}


def find_game(name: str) -> Game:
    """The game called ``name`` (case and spaces ignored)."""
    key = name.strip().lower().replace(" ", "-").replace("_", "-")
    key = ALIASES.get(key, key)
    game = GAMES.get(key)
    if game is None:
        raise RulesError(f"there is no game {name!r}: choose one of {', '.join(GAMES)}")
    return game
