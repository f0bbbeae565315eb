"""Ceki's action notation: an action id (:mod:`cherki.games.ceki.rules` numbers them) in
text and back, for the game (``Game.action_text``/``parse_action``) and for its
observations' JSON form alike."""

from __future__ import annotations

from cherki.core.cards import CODES, N_KINDS, parse_card
from cherki.core.errors import NotationError, quote
from cherki.games.ceki.rules import CALL, CALL_DISCARD, DISCARD, DRAW, NUM_ACTIONS, TAKE, WIN

__all__ = ["action_text", "parse_action"]


def action_text(action: int, *, title: str = "Ceki") -> str:
    """``action`` in the text notation: draw, take, win, ceki, ``discard CARD`` and
    ``discard CARD ceki``."""
    simple = {DRAW: "draw", TAKE: "take", WIN: "win", CALL: "ceki"}
    if action in simple:
        return simple[action]
    if not DISCARD <= action < NUM_ACTIONS:
        raise NotationError("refuse.action_id", action=action, title=title, last=NUM_ACTIONS - 1)
    k = (action - DISCARD) % N_KINDS
    if action < CALL_DISCARD:
        return f"discard {CODES[k]}"
    return f"discard {CODES[k]} ceki"


def parse_action(text: str, *, title: str = "Ceki") -> int:
    """The action id of ``text`` in the notation of :func:`action_text`; a
    :class:`NotationError` naming ``title`` for anything else."""
    raw = text.strip().split()
    words = [w.lower() for w in raw]
    simple = {"draw": DRAW, "take": TAKE, "win": WIN, "ceki": CALL, "ceki!": CALL}
    if len(words) == 1 and words[0] in simple:
        return simple[words[0]]
    if words and words[0] == "discard" and len(words) in (2, 3):
        k = parse_card(raw[1])
        if len(words) == 2:
            return DISCARD + k
        if words[2] in ("ceki", "ceki!"):
            return CALL_DISCARD + k
        raise NotationError("refuse.ceki.bad_call", word=quote(words[2]))
    raise NotationError("refuse.ceki.not_an_action", text=quote(text.strip()), title=title)
