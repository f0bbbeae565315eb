"""Error classes. Each says what went wrong in words a player understands.

* :class:`NotationError`: text that is not valid card or action notation.
* :class:`IllegalActionError`: a well-formed action that is against the rules now.
* :class:`RecordError`: a game record that cannot be read or does not replay.
* :class:`RulesError`: rule options or a player count that do not make a playable game.

All are :class:`ValueError` subclasses, so callers that only care about "bad input" can catch
``ValueError`` (or :class:`CherkiError`). A message quotes what a user gave through
:func:`quote`, cut short: an error never repeats ten thousand characters back.

**Words, not English** (issue 39): the rules' refusals carry a catalogue key and its values,
not a sentence: ``IllegalActionError("refuse.no_card", card="M9")``. ``err.key`` and
``err.values`` are what a front end words in its reader's language
(:func:`cherki.play.refusals.refusal`); ``str(err)`` is the English of that key
(``src/cherki/i18n/en.json``, read when it is first asked for), for Python users and logs.
A value may itself be a :class:`Phrase` (words of another key) or an :class:`Act` (an action
in notation, which a front end shows as its own button label). An error raised with a plain
sentence (a text with a space in it) has no key (``err.key == ""``) and says that sentence.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

#: what a catalogue key looks like (a sentence has spaces, a key has none)
_KEY = re.compile(r"[a-z][a-z0-9_]*(\.[a-z0-9_]+)+")

#: The most characters of a user's text an error message quotes.
QUOTE_LIMIT = 60


def quote(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(text)`` for a message, cut to ``limit`` characters with the full length said:
    ``'discard xxxxx…' (10,008 characters)``."""
    if not isinstance(text, str) or len(text) <= limit:
        out = repr(text)
        return out if len(out) <= limit + 20 else out[:limit] + "…"
    return f"{text[:limit]!r}… ({len(text):,} characters)"


@dataclass(frozen=True)
class Phrase:
    """Words of the catalogues inside a refusal: ``key`` with its ``values``."""

    key: str
    values: dict[str, object] = field(default_factory=dict)

    @classmethod
    def of(cls, key: str, /, **values: object) -> Phrase:
        return cls(key, values)


@dataclass(frozen=True)
class Act:
    """An action inside a refusal, in its notation (``discard M9``): English says the
    notation, a front end its own label for it."""

    text: str

    def __str__(self) -> str:
        return self.text


def worded(item: object, t: Callable[..., str], act: Callable[[Act], str] = str) -> str:
    """``item`` (a :class:`Phrase`, an :class:`Act` or a plain value) in the words of
    ``t(key, **values)``, its :class:`Phrase` values worded first and each :class:`Act` by
    ``act`` (by default its notation)."""
    if isinstance(item, Phrase):
        return str(t(item.key, **{k: worded(v, t, act) for k, v in item.values.items()}))
    if isinstance(item, Act):
        return str(act(item))
    return str(item)


def is_key(text: str) -> bool:
    """Whether ``text`` is a catalogue key (a sentence has spaces; a key has none)."""
    return _KEY.fullmatch(text) is not None


def english(key: str, /, **values: object) -> str:
    """A key's English (cherki's English catalogue, with the words of games listed from
    outside it)."""
    from cherki.i18n import words

    return worded(Phrase(key, values), words("en").t)


def _rebuild(kind: type[CherkiError], key: str, values: dict[str, object]) -> CherkiError:
    return kind(key, **values)


class CherkiError(ValueError):
    """Base class of every error cherki raises for bad input: a catalogue key and its
    values (``str()``: the key's English), or a plain sentence (no key)."""

    def __init__(self, message: str = "", /, **values: object) -> None:
        super().__init__(message)
        self.key = message if _KEY.fullmatch(message) else ""
        self.values = values

    def __str__(self) -> str:
        if self.key:
            try:
                return english(self.key, **self.values)
            except (KeyError, IndexError):  # a key no catalogue holds: say the key
                return self.key
        return super().__str__()

    def __reduce__(
        self,
    ) -> tuple[Callable[..., CherkiError], tuple[type[CherkiError], str, dict[str, object]]]:
        return (_rebuild, (type(self), self.args[0] if self.args else "", self.values))

    def phrase(self) -> Phrase | None:
        """The refusal as words of the catalogues, or None for a plain sentence."""
        return Phrase(self.key, self.values) if self.key else None


class NotationError(CherkiError):
    """The text is not valid notation (a card, a hand, an action)."""


class IllegalActionError(CherkiError):
    """The action is well formed but not allowed by the rules in this state."""


class RecordError(CherkiError):
    """A game record is malformed or does not replay."""


class RulesError(CherkiError):
    """Unknown preset, bad option value, or rules that cannot be played."""
