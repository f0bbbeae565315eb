"""Cholek Tiga's action notation: an action id (:mod:`cherki.games.cholek.rules` numbers
them) in text and back, for the game (``Game.action_text``/``parse_action``) and for its
observations' JSON form alike."""

from __future__ import annotations

from cherki.core.cards import CODES, card_name, parse_cards
from cherki.core.errors import NotationError, quote
from cherki.games.cholek.rules import (
    CAPTURE,
    CAPTURE_ID,
    CAPTURES,
    DISCARD,
    NUM_ACTIONS,
    PASS,
    TURN,
)

__all__ = ["action_text", "parse_action"]


def action_text(action: int, *, title: str = "Cholek Tiga") -> str:
    """``action`` in the text notation: ``discard CARD``, turn, ``capture CARD CARD with
    CARD`` and ``no capture``."""
    if DISCARD <= action < TURN:
        return f"discard {CODES[action - DISCARD]}"
    if action == TURN:
        return "turn"
    if action == PASS:
        return "no capture"
    if CAPTURE <= action < NUM_ACTIONS:
        c, a, b = CAPTURES[action - CAPTURE]
        return f"capture {CODES[a]} {CODES[b]} with {CODES[c]}"
    raise NotationError("refuse.action_id", action=action, title=title, last=NUM_ACTIONS - 1)


def parse_action(text: str, *, title: str = "Cholek Tiga") -> int:
    """The action id of ``text`` in the notation of :func:`action_text` (``pass`` and
    ``no-capture`` too); a :class:`NotationError` naming ``title`` for anything else."""
    raw = text.strip().split()
    words = [w.lower() for w in raw]
    if words == ["turn"]:
        return TURN
    if words in (["no", "capture"], ["pass"], ["no-capture"]):
        return PASS
    if len(words) == 2 and words[0] == "discard":
        return DISCARD + parse_cards(raw[1:])[0]
    if len(words) == 5 and words[0] == "capture" and words[3] == "with":
        a, b, c = parse_cards([raw[1], raw[2], raw[4]])
        a, b = min(a, b), max(a, b)
        action = CAPTURE_ID.get((c, a, b))
        if action is None:
            raise NotationError(
                "refuse.cholek.cannot_capture", card=card_name(c), a=card_name(a), b=card_name(b)
            )
        return action
    raise NotationError("refuse.cholek.not_an_action", text=quote(text.strip()), title=title)
