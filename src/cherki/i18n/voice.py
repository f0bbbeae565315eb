"""Who is who at a table, in the reader's language: the seats' names and pronouns ("You
draw", "Ann draws", "your own draw") and money for people. Every front end and every
game's own words (its view, :mod:`cherki.core.view`) speak through a :class:`Voice`; the
sentences themselves are the catalogues' (:mod:`cherki.i18n`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from cherki.i18n import Words, words


@lru_cache(maxsize=4096)
def _clean_names(names: tuple[str, ...], players: int, w: Words) -> tuple[str, ...]:
    """:meth:`Voice.of`'s names, kept: a server works them out for every message it sends
    (issue 41)."""
    given = [*names] if names else [w.t("voice.seat", n=i) for i in range(players)]
    return tuple(_local_name("".join(c if c.isprintable() else "?" for c in n), w) for n in given)


def format_cents(cents: int) -> str:
    """An amount of money for people: ``$21.00`` from 100 cents up, else ``50¢``."""
    sign = "-" if cents < 0 else ""
    c = abs(cents)
    return f"{sign}${c // 100}.{c % 100:02d}" if c >= 100 else f"{sign}{c}¢"


def money_text(cents: int) -> str:
    """Money with its sign, for payment tables: ``+$1.20``, ``-50¢``."""
    return ("+" if cents >= 0 else "") + format_cents(cents)


@dataclass(frozen=True)
class Voice:
    """Who is who at a table: the seats' names, the reader's own seat and the language
    the reader reads (:class:`cherki.i18n.Words`; English unless told)."""

    names: tuple[str, ...]
    you: int | None = None
    words: Words = field(default_factory=words, compare=False)

    @classmethod
    def of(
        cls,
        names: Sequence[str] | None,
        players: int,
        you: int | None = None,
        lang: str | None = None,
    ) -> Voice:
        """Names as people gave them (a record's, ``--name``), with any character that is
        not printable (a terminal escape, a newline) shown as ``?``, so a name can never
        move the cursor or clear the screen."""
        w = words(lang)
        return cls(_clean_names(tuple(names) if names else (), players, w), you, w)

    def t(self, key: str, /, **params: object) -> str:
        """The reader's language's text for ``key``."""
        return self.words.t(key, **params)

    def is_you(self, seat: int) -> bool:
        return seat >= 0 and (seat == self.you or (self.names[seat] == "You" and self.you is None))

    def name(self, seat: int) -> str:
        """The subject: ``You`` or the seat's name."""
        if self.is_you(seat):
            return self.t("voice.you")
        return self.names[seat] if 0 <= seat < len(self.names) else self.t("voice.seat", n=seat)

    def obj(self, seat: int) -> str:
        """The object: ``you`` or the seat's name."""
        return self.t("voice.you.obj") if self.is_you(seat) else self.name(seat)

    def owner(self, seat: int) -> str:
        """``your`` or ``Ann's``."""
        return (
            self.t("voice.your")
            if self.is_you(seat)
            else self.t("voice.owner", name=self.name(seat))
        )

    def say(self, key: str, seat: int, /, **params: object) -> str:
        """A sentence whose verb agrees with ``seat``: ``<key>.you`` for the reader ("You
        draw S7"), else ``key`` with the seat's ``{name}`` ("Ann draws S7")."""
        if self.is_you(seat):
            return self.t(key + ".you", **params)
        return self.t(key, name=self.name(seat), **params)

    def both(self, names: Sequence[str]) -> str:
        """``Ann and Bob``."""
        return self.t("list.and").join(names)


_SEAT_NAME = re.compile(r"Seat (\d+)")
_BOT_NAME = re.compile(r"Bot (\d+) \(((?:policy:)?[\w-]+)\)")


def _local_name(name: str, w: Words) -> str:
    """The names cherki gives (``Seat 2``, ``Bot 1 (heuristic)``) in the reader's language;
    any other name as it is."""
    if w.lang == "en":
        return name
    if m := _SEAT_NAME.fullmatch(name):
        return w.t("voice.seat", n=int(m[1]))
    if m := _BOT_NAME.fullmatch(name):
        if m[2].startswith("policy:"):
            level = w.t("level.policy", name=m[2].removeprefix("policy:"))
        else:
            level = w.t(f"level.{m[2]}") if w.has(f"level.{m[2]}") else m[2]
        return w.t("voice.bot", n=int(m[1]), level=level)
    return name
