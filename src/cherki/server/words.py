"""The pages' words: each language's catalogue (:mod:`cherki.i18n`) as JSON, for
``static/common.js``'s ``t(key, params)``. The same catalogues word the server's own
sentences (the log, the status line, results), so a page and its table speak one
language."""

from __future__ import annotations

import re

from fastapi import APIRouter, HTTPException, Response

from cherki.core.contract import Game
from cherki.core.errors import CherkiError
from cherki.i18n import DEFAULT, LANGUAGES, catalogue_text, words
from cherki.play.refusals import refusal as keyed

router = APIRouter()


@router.get("/api/words")
async def languages() -> dict[str, str]:
    """The languages cherki speaks: code → the language's own name."""
    return dict(LANGUAGES)


@router.get("/api/words/{lang}")
async def catalogue(lang: str) -> Response:
    """One language's catalogue (cached by the browser for an hour)."""
    if lang not in LANGUAGES:
        raise HTTPException(404, f"no such language: {lang[:20]!r} (cherki speaks en, ms, id)")
    return Response(
        catalogue_text(lang),
        media_type="application/json",
        headers={"Cache-Control": "public, max-age=3600"},
    )


#: the refusals people meet at a table, in English as the server words them, and the key of
#: each one's translation (its groups are the placeholders, in order)
_REFUSALS: list[tuple[re.Pattern[str], str, tuple[str, ...]]] = [
    (re.compile(r"it is not your turn"), "error.not_your_turn", ()),
    (
        re.compile(r"the table has moved on \(version (\d+), not (.*)\): look again"),
        "error.moved_on",
        ("now", "sent"),
    ),
    (re.compile(r"a bot plays that seat"), "error.bot_seat", ()),
    (re.compile(r"a spectator cannot play"), "error.spectator", ()),
    (re.compile(r"too many messages: slow down"), "error.too_many", ()),
    (re.compile(r"message too large"), "error.too_large", ()),
    # why the server closes a connection (:meth:`Connection.drop`, :meth:`Gate.refuse`)
    (re.compile(r"you fell too far behind the table: connect again"), "error.close.behind", ()),
    (re.compile(r"a message took too long to reach you"), "error.close.slow", ()),
    (
        re.compile(r"the host gave this seat a new link: ask them for it"),
        "error.close.new_link",
        (),
    ),
    (
        re.compile(r"this table has (\d+) connections already: try again later"),
        "error.close.table_full",
        ("n",),
    ),
    (
        re.compile(r"(\d+) connections from your address already: close some"),
        "error.close.address_full",
        ("n",),
    ),
    (re.compile(r"this server is full: try again later"), "error.close.server_full", ()),
    # issue 41: spectators, moving tables, a lost database, malformed addresses
    (
        re.compile(r"this table has (\d+) spectators already: try again later"),
        "server41.spectators_full",
        ("n",),
    ),
    (
        re.compile(r"(\d+) spectators from your address already: close some"),
        "server41.spectators_address",
        ("n",),
    ),
    *(
        (re.compile(re.escape(words(DEFAULT).t(key))), key, ())
        for key in (
            "server41.gave_way",
            "server41.silent",
            "server41.moving",
            "server41.moved",
            "server41.away",
            "server41.reloading",
            "server41.bad_since",
            "server41.bad_chat",
        )
    ),
]


def refusal(text: str, lang: str) -> str:
    """A refusal without a key shown to a person, in their language where it is one of the
    common ones (the rules' own refusals carry their keys: :func:`said`)."""
    if lang == DEFAULT:
        return text
    for pattern, key, names in _REFUSALS:
        m = pattern.fullmatch(text)
        if m is not None:
            return words(lang).t(key, **dict(zip(names, m.groups(), strict=True)))
    return text


class Refused(CherkiError):
    """A refusal that carries its catalogue key and placeholders: ``str()`` is its English
    (for logs and English readers), :meth:`said` its words in a reader's language (every
    :class:`CherkiError` raised with a key does the same: :func:`said`)."""

    def __init__(self, key: str, /, **params: object) -> None:
        super().__init__(key, **params)

    @property
    def params(self) -> dict[str, object]:
        return self.values

    def said(self, lang: str) -> str:
        return keyed(self, lang)


def said(err: CherkiError, lang: str, game: Game | None = None) -> str:
    """An error shown to a person in their language: one with a catalogue key (the rules'
    refusals, :class:`Refused`) by its key, its actions labelled as ``game``'s buttons are;
    any other through :func:`refusal`'s patterns (else in English)."""
    if err.key:
        return keyed(err, lang, game)
    return refusal(str(err), lang)
