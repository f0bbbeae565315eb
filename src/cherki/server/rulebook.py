"""What a table's people may read of a game's rules in the app (issue 37): the scoring list
a tap away at every table, and a page of each game's rules.

* ``GET /api/tables/{table}/scoring?lang=``: what each score item pays under the rules in
  force at the table (its preset and options), in the reader's language: the game's view
  declares it (``GameView.scoring_lines``), computed from those rules.
* ``GET /api/scoring/{game}?preset=&lang=``: the same under a preset (the rules page).
* ``GET /rules/{game}``: a game's rules page (``static/rules.html``, ``rules.js``), which
  reads ``GET /api/rulebook/{game}?lang=`` (:func:`rulebook`).

Nothing here names a game: every game declares its own words, presets, options and view.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse

from cherki.core.contract import Game
from cherki.core.errors import CherkiError
from cherki.core.events import JSON
from cherki.core.options import Rules
from cherki.games import find_game
from cherki.i18n import normalise, words
from cherki.i18n.voice import Voice
from cherki.server.pages import STATIC
from cherki.server.service import Server

DEFAULT = "en"

router = APIRouter()


def scoring_json(game: Game, rules: Rules, lang: str) -> dict[str, JSON]:
    """The scoring list of ``game`` under ``rules`` in ``lang``: each line's label and
    what it pays (empty where the label says it)."""
    voice = Voice((), words=words(lang))
    lines: list[JSON] = [
        {"label": line.label, "points": line.points, "text": line.plain()}
        for line in game.view().scoring_lines(rules, voice)
    ]
    return {"game": game.name, "title": game.title, "lines": lines}


@router.get("/api/tables/{table_id}/scoring", response_model=None)
async def table_scoring(
    table_id: str, request: Request, lang: str | None = None
) -> dict[str, JSON]:
    """What each score item pays at the table, under its rules in force."""
    srv: Server = request.app.state.server
    try:
        table = await srv.find(table_id)
    except CherkiError as err:
        raise HTTPException(404, str(err)) from None
    session = table.session
    return scoring_json(session.game, session.rules, normalise(lang) or DEFAULT)


@router.get("/api/scoring/{game_name}", response_model=None)
async def preset_scoring(
    game_name: str, preset: str | None = None, lang: str | None = None
) -> dict[str, JSON]:
    """What each score item pays under a preset (the game's first when none)."""
    try:
        game = find_game(game_name)
        rules = game.rules(preset or None)
    except CherkiError as err:
        raise HTTPException(404, str(err)) from None
    return scoring_json(game, rules, normalise(lang) or DEFAULT)


@router.get("/rules/{game_name}", include_in_schema=False)
async def rules_page(game_name: str) -> FileResponse:
    """A game's rules page (404 for no such game)."""
    try:
        find_game(game_name)
    except CherkiError as err:
        raise HTTPException(404, str(err)) from None
    headers = {"Cache-Control": "no-cache"}
    return FileResponse(STATIC / "rules.html", media_type="text/html", headers=headers)


__all__ = ["router", "scoring_json"]
