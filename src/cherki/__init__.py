"""cherki: the Cherki (Ceki) card games of the Peranakan, Kristang and Javanese traditions.

>>> from cherki import find_game
>>> game = find_game("balik-satu")
>>> state = game.new_state(players=4, seed=7)
>>> state.current, len(state.legal_actions()) > 0
(0, True)

Everything a user imports lives here: the games (``find_game``, ``GAMES``), the contract
(``Game``, ``State``, ``Rules``, ``Observation``, ``Event``, ``Result``...), bots
(``make_bot``), records (``load_record``, ``parse_record``, ``replay_hand``,
``replay_match``), matches and the session loop (``Match``, ``Session``, ``Seat``). The
layers above the rules core are imported on first use, so ``import cherki`` stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

# first: the compiled engine, when CHERKI_COMPILED asks for it (pure Python otherwise)
import cherki.compiled  # noqa: F401  (installs it on import)
from cherki.core.cards import card_name, format_hand, parse_card, parse_hand
from cherki.core.contract import Game, Observation, Rules, State, play_out
from cherki.core.deal import DealRequest
from cherki.core.errors import (
    CherkiError,
    IllegalActionError,
    NotationError,
    RecordError,
    RulesError,
)
from cherki.core.events import Event, EventKind, Result, ScoreItem
from cherki.games import GAMES, find_game
from cherki.version import __version__ as __version__

if TYPE_CHECKING:
    from cherki.bots import levels_for, make_bot
    from cherki.play.match import Match, replay_match
    from cherki.play.records import Record, load_record, parse_record, replay_hand
    from cherki.play.session import Seat, Session

#: names imported on first use: name -> module
_LAZY = {
    "make_bot": "cherki.bots",
    "levels_for": "cherki.bots",
    "Match": "cherki.play.match",
    "replay_match": "cherki.play.match",
    "Record": "cherki.play.records",
    "load_record": "cherki.play.records",
    "parse_record": "cherki.play.records",
    "replay_hand": "cherki.play.records",
    "Seat": "cherki.play.session",
    "Session": "cherki.play.session",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'cherki' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "GAMES",
    "CherkiError",
    "DealRequest",
    "Event",
    "EventKind",
    "Game",
    "IllegalActionError",
    "Match",
    "NotationError",
    "Observation",
    "Record",
    "RecordError",
    "Result",
    "Rules",
    "RulesError",
    "ScoreItem",
    "Seat",
    "Session",
    "State",
    "card_name",
    "find_game",
    "format_hand",
    "levels_for",
    "load_record",
    "make_bot",
    "parse_card",
    "parse_hand",
    "parse_record",
    "play_out",
    "replay_hand",
    "replay_match",
]
