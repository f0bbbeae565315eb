"""The games: each a module of rules on the one engine, found by name in a registry.

cherki's own games are listed in :data:`GAMES` below, one line each. A game kept outside
cherki (a package of its own: its rules, its view, its words, its bots) is listed with one
line too, :func:`register`, run when its module is imported, and its module is imported
when cherki lists its games, from either

* the entry-point group ``cherki.games`` of an installed package (``[project.entry-points.
  "cherki.games"] mygame = "mypackage.game"`` in its ``pyproject.toml``), or
* the environment variable ``CHERKI_GAMES``: module names or paths of a module file or a
  package folder, separated by ``os.pathsep`` (``:``), for a game not installed (every
  process started with it set lists the game: the terminal, the server, its workers).

A game listed so gets everything a game of cherki gets: the terminal, the browser, records,
matches, the arena, the research adapters and the conformance suite. See
``docs/architecture.md`` ("A game from outside cherki").
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os
import sys
from pathlib import Path

from cherki.core.contract import Game
from cherki.core.errors import RulesError, quote
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
#: the game a command plays when none is named (``cherki play``): the first listed
DEFAULT_GAME = next(iter(GAMES))

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


#: the environment variable naming the modules of games listed from outside cherki
ENV = "CHERKI_GAMES"
#: the entry-point group of installed packages' games
ENTRY_POINTS = "cherki.games"


def register(game: Game, *aliases: str) -> Game:
    """List ``game`` (and its ``aliases``) with cherki's games, with its own words
    (``Game.words``) added to each language's catalogue: the one line a game from outside
    cherki needs. A name or alias cherki lists already is refused (:class:`RulesError`)."""
    from cherki.i18n import LANGUAGES, add_words

    for key in (game.name, *aliases):
        if key in GAMES or key in ALIASES:
            raise RulesError(
                f"there is a game {key!r} already: {type(game).__name__} needs its own name"
            )
    for lang in LANGUAGES:
        add_words(lang, game.words(lang), source=game.name)
    GAMES[game.name] = game
    for alias in aliases:
        ALIASES[alias] = game.name
    return game


def load_games(spec: str | None = None) -> list[str]:
    """Import the modules of the games listed from outside cherki (the entry points of
    :data:`ENTRY_POINTS`, then ``spec``, else :data:`ENV`); each registers its game. A
    module already imported is not imported again. Returns the modules imported."""
    done: list[str] = []
    for ep in importlib.metadata.entry_points(group=ENTRY_POINTS):
        if ep.module not in sys.modules:
            importlib.import_module(ep.module)
            done.append(ep.module)
    listed = spec if spec is not None else os.environ.get(ENV, "")
    for item in filter(None, (part.strip() for part in listed.split(os.pathsep))):
        done.append(_import(item))
    return done


def _import(item: str) -> str:
    """Import a game's module from a module name or a path (a ``.py`` file or a package
    folder), under the name ``cherki_game_<stem>`` for a path."""
    path = Path(item)
    if not (path.suffix == ".py" or os.sep in item or path.is_dir()):
        importlib.import_module(item)
        return item
    if not path.exists():
        raise RulesError(f"{ENV} names {item!r}, which does not exist")
    name = f"cherki_game_{path.stem}"
    if name in sys.modules:
        return name
    init = path / "__init__.py" if path.is_dir() else path
    where = [str(path)] if path.is_dir() else None
    found = importlib.util.spec_from_file_location(name, init, submodule_search_locations=where)
    if found is None or found.loader is None:
        raise RulesError(f"{ENV} names {item!r}, which is no Python module")
    module = importlib.util.module_from_spec(found)
    sys.modules[name] = module
    try:
        found.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return name


def find_game(name: str) -> Game:
    """The game called ``name`` (case and spaces ignored)."""
    key = name.strip().lower().replace(" ", "-").replace("_", "-")
    key = ALIASES.get(key, key)
    game = GAMES.get(key)
    if game is None:
        raise RulesError("refuse.rules.no_game", name=quote(name), names=", ".join(GAMES))
    return game


load_games()
