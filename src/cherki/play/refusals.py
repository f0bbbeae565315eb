"""The rules' refusals in the reader's language (issue 39): an error of the rules core
carries a catalogue key and its values (:class:`~cherki.core.errors.CherkiError`), and every
front end words it here, the same way: the terminal's table (``cherki play --lang ms``), the
web table's refusal of an action, the lessons' answer the rules refuse. An action inside a
refusal is said as the front ends label it (``action.*``: "Buang M9"), not in notation."""

from __future__ import annotations

import re

from cherki.core.contract import Game
from cherki.core.errors import Act, CherkiError, Phrase, worded
from cherki.i18n import Words, words

__all__ = ["action_label", "refusal"]

_CAPTURE = re.compile(r"capture (\S+) (\S+) with (\S+)")


def action_label(game: Game | None, act: Act, w: Words) -> str:
    """An action in notation as the front ends label it in ``w``'s language (the notation
    itself where its words are not known)."""
    text = act.text
    parts = text.split()
    if not parts:
        return text
    if parts[0] == "discard" and len(parts) == 3:
        return w.t("action.discard_call", card=parts[1], call=parts[2])
    if parts[0] == "discard" and len(parts) == 2:
        return w.t("action.discard", card=parts[1])
    if text == "take":
        return w.t("action.take_discard")
    if text == "draw":
        stock = game.stock_word if game is not None else "stock"
        return w.t(f"action.draw_{stock}")
    m = _CAPTURE.fullmatch(text)
    if m is not None:
        return w.t("action.capture", cards=f"{m[1]} {m[2]}", card=m[3])
    if game is not None:
        own = game.view().action_words
        label = own.get(text, own.get(parts[0], ("", None, None)))[0]
        if label:
            return w.t(label)
    return text


def refusal(err: BaseException, lang: str | None, game: Game | None = None) -> str:
    """``err`` in ``lang``'s words: a refusal with a key by that key (its actions labelled
    as ``game``'s buttons are); a plain sentence as it is."""
    phrase = err.phrase() if isinstance(err, CherkiError) else None
    w = words(lang)
    if phrase is None or not w.has(phrase.key):
        return str(err)
    return say(phrase, w, game)


def say(phrase: Phrase, w: Words, game: Game | None = None) -> str:
    """A :class:`Phrase` in ``w``'s words (English: the notation of its actions kept, as
    ``str(err)`` says them)."""
    if w.lang == "en":
        return worded(phrase, w.t)
    return worded(phrase, w.t, lambda a: action_label(game, a, w))
