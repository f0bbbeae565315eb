"""Action ids, their text notation, phases and where a drawn card came from, for the games
of sets. The notation is the family's: a game names its two calls its own way
(``Game.call_words``, e.g. Tantanan's ``kowah`` and ``nokang``) and its title in the
errors, both passed in."""

from __future__ import annotations

from typing import Final

from cherki.core.cards import CODES, N_KINDS, parse_card
from cherki.core.errors import NotationError, quote

# -- action ids -------------------------------------------------------------------------------
TAKE: Final = 0
DRAW: Final = 1
SAMPEI: Final = 2
PASS: Final = 3
DISCARD: Final = 4  # DISCARD + kind
CALL_TAN: Final = DISCARD + N_KINDS  # discard and call (or change to) tan
CALL_CEKI: Final = CALL_TAN + N_KINDS  # discard and call ceki
NUM_ACTIONS: Final = CALL_CEKI + N_KINDS

#: the words of the two calls (tan, ceki) in a game that names them so
CALL_WORDS: Final = ("tan", "ceki")


# -- notation ---------------------------------------------------------------------------------
def action_text(
    action: int, *, call_words: tuple[str, str] = CALL_WORDS, title: str = "game of sets"
) -> str:
    """``action`` in the text notation: take, draw, sampei, pass, ``discard CARD`` and
    ``discard CARD CALL`` (the call in ``call_words``)."""
    if action == TAKE:
        return "take"
    if action == DRAW:
        return "draw"
    if action == SAMPEI:
        return "sampei"
    if action == PASS:
        return "pass"
    if not DISCARD <= action < NUM_ACTIONS:
        raise NotationError("refuse.action_id", action=action, title=title, last=NUM_ACTIONS - 1)
    k = (action - DISCARD) % N_KINDS
    if action < CALL_TAN:
        return f"discard {CODES[k]}"
    return f"discard {CODES[k]} {call_words[0 if action < CALL_CEKI else 1]}"


def parse_action(
    text: str, *, call_words: tuple[str, str] = CALL_WORDS, title: str = "game of sets"
) -> int:
    """The action id of ``text`` in the notation of :func:`action_text` (a call in
    ``call_words`` or as ``tan``/``ceki``); a :class:`NotationError` naming ``title``
    for anything else."""
    original = text.strip().split()
    words = [w.lower() for w in original]
    simple = {"take": TAKE, "draw": DRAW, "sampei": SAMPEI, "sampei!": SAMPEI, "pass": PASS}
    if len(words) == 1 and words[0] in simple:
        return simple[words[0]]
    tan, ceki = call_words
    if words and words[0] == "discard" and len(words) in (2, 3):
        k = parse_card(original[1])
        if len(words) == 2:
            return DISCARD + k
        if words[2] in (tan, "tan"):
            return CALL_TAN + k
        if words[2] in (ceki, "ceki"):
            return CALL_CEKI + k
        raise NotationError(
            "refuse.sets.bad_call", tan=repr(tan), ceki=repr(ceki), word=quote(words[2])
        )
    raise NotationError(
        "refuse.sets.not_an_action", text=quote(text.strip()), title=title, tan=tan, ceki=ceki
    )


# -- phases -----------------------------------------------------------------------------------
PHASE_DRAW: Final = 0
PHASE_DISCARD: Final = 1
PHASE_CLAIM: Final = 2
PHASE_OVER: Final = 3
PHASE_NAMES: Final = ("draw", "discard", "claim", "over")

FROM_DEAL: Final = 0
FROM_STOCK: Final = 1
FROM_DISCARD: Final = 2
