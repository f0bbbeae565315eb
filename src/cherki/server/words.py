"""The pages' words: each language's catalogue (:mod:`cherki.i18n`) as JSON, for
``static/common.js``'s ``t(key, params)``. The same catalogues word the server's own
sentences (the log, the status line, results), so a page and its table speak one
language."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Response

from cherki.i18n import LANGUAGES, catalogue_text

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
