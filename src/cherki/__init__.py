"""cherki: the Cherki (Ceki) card games of the Peranakan, Kristang and Javanese traditions.

>>> from cherki import find_game
>>> game = find_game("balik-satu")
>>> state = game.new_state(players=4, seed=7)
>>> state.current, len(state.legal_actions()) > 0
(0, True)
"""

from cherki.core.cards import card_name, format_hand, parse_card, parse_hand
from cherki.core.contract import Game, State
from cherki.core.errors import (
    CherkiError,
    IllegalActionError,
    NotationError,
    RecordError,
    RulesError,
)
from cherki.core.events import Event, Result, ScoreItem
from cherki.games import GAMES, find_game

__version__ = "0.1.0"

__all__ = [
    "GAMES",
    "CherkiError",
    "Event",
    "Game",
    "IllegalActionError",
    "NotationError",
    "RecordError",
    "Result",
    "RulesError",
    "ScoreItem",
    "State",
    "card_name",
    "find_game",
    "format_hand",
    "parse_card",
    "parse_hand",
]
