"""The pages' words: each language's catalogue (:mod:`cherki.i18n`) as JSON, for
``static/common.js``'s ``t(key, params)``. The same catalogues word the server's own
sentences (the log, the status line, results), so a page and its table speak one
language."""

from __future__ import annotations

import re

from fastapi import APIRouter, HTTPException, Response

from cherki.i18n import DEFAULT, LANGUAGES, catalogue_text, words

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
]


def refusal(text: str, lang: str) -> str:
    """A refusal shown to a person, in their language where it is one of the common ones
    (the rules' own explanations stay in English)."""
    if lang == DEFAULT:
        return text
    for pattern, key, names in _REFUSALS:
        m = pattern.fullmatch(text)
        if m is not None:
            return words(lang).t(key, **dict(zip(names, m.groups(), strict=True)))
    return text
