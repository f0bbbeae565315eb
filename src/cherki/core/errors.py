"""Error classes. Each says what went wrong in words a player understands.

* :class:`NotationError`: text that is not valid card or action notation.
* :class:`IllegalActionError`: a well-formed action that is against the rules now.
* :class:`RecordError`: a game record that cannot be read or does not replay.
* :class:`RulesError`: rule options or a player count that do not make a playable game.

All are :class:`ValueError` subclasses, so callers that only care about "bad input" can catch
``ValueError`` (or :class:`CherkiError`). A message quotes what a user gave through
:func:`quote`, cut short: an error never repeats ten thousand characters back.
"""

from __future__ import annotations

#: The most characters of a user's text an error message quotes.
QUOTE_LIMIT = 60


def quote(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(text)`` for a message, cut to ``limit`` characters with the full length said:
    ``'discard xxxxx…' (10,008 characters)``."""
    if not isinstance(text, str) or len(text) <= limit:
        out = repr(text)
        return out if len(out) <= limit + 20 else out[:limit] + "…"
    return f"{text[:limit]!r}… ({len(text):,} characters)"


class CherkiError(ValueError):
    """Base class of every error cherki raises for bad input."""


class NotationError(CherkiError):
    """The text is not valid notation (a card, a hand, an action)."""


class IllegalActionError(CherkiError):
    """The action is well formed but not allowed by the rules in this state."""


class RecordError(CherkiError):
    """A game record is malformed or does not replay."""


class RulesError(CherkiError):
    """Unknown preset, bad option value, or rules that cannot be played."""
