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

import re

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse

from cherki.core.contract import Game
from cherki.core.errors import CherkiError
from cherki.core.events import JSON
from cherki.core.options import Option, Rules, Value
from cherki.core.sources import SOURCES, cited
from cherki.games import find_game
from cherki.i18n import Words, choice_key, normalise, option_key, preset_key, words
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


def _numbered(w: Words, prefix: str) -> list[str]:
    """The keys ``prefix1``, ``prefix2``… the catalogues hold, in order."""
    out: list[str] = []
    while w.has(f"{prefix}{len(out) + 1}"):
        out.append(f"{prefix}{len(out) + 1}")
    return out


def value_text(option: Option, value: Value, w: Words) -> str:
    """An option's value for people: a choice's words, yes or no, a number, or none."""
    if value is None:
        return w.t("rulebook.none")
    if isinstance(value, bool):
        return w.t("rulebook.yes" if value else "rulebook.no")
    if option.choices and isinstance(value, str) and w.has(choice_key(option.name, value)):
        return w.t(choice_key(option.name, value))
    return str(value)


_REFS = re.compile(r"\[\d{3}\]|\b[A-Z]+-[A-Z0-9-]+\b|\bp\.\s?\d+(?:[-–]\d+)?|\bpp?\.\d+")


def source_text(source: str, w: Words) -> str:
    """An option's source for people: the sources and rule ids it names, and "our
    specification" (in the reader's words) where cherki chose."""
    refs = " ".join(_REFS.findall(source))
    if source.strip().lower().startswith("ours"):
        return w.t("rulebook.ours") + (f" ({refs})" if refs else "")
    return refs or source


def rulebook(game: Game, lang: str) -> dict[str, JSON]:
    """A game's rules page in ``lang``: the summary we write (``rulebook.<game>.p<N>``),
    the source sentences it rests on, quoted with the reader's words beside
    (``rulebook.<game>.q<N>``, ``.src``, ``.says``), the scoring list of its first preset,
    its presets side by side (the options on which they differ, each with its source), its
    words (the view's glossary) and the sources its presets and options cite."""
    w = words(lang)
    name = game.name
    paragraphs: list[JSON] = [w.t(k) for k in _numbered(w, f"rulebook.{name}.p")]
    quotes: list[JSON] = [
        {
            "text": w.t(k),
            "source": w.t(f"{k}.src"),
            "says": w.t(f"{k}.says") if lang != DEFAULT else None,
        }
        for k in _numbered(w, f"rulebook.{name}.q")
    ]
    presets = game.presets
    columns: list[JSON] = [
        {"name": p.name, "title": w.t(preset_key(name, p.name, "title")), "sources": p.sources}
        for p in presets
    ]
    differ: list[JSON] = []
    same: list[JSON] = []
    for o in game.options:
        values = [game.rules_json(p.rules).get(o.name, o.default) for p in presets]
        row: JSON = {
            "name": o.name,
            "title": w.t(option_key(name, o.name, "title")),
            "values": [value_text(o, v, w) for v in values],
            "source": source_text(o.source, w),
        }
        (differ if len({repr(v) for v in values}) > 1 else same).append(row)
    ids = cited(" ".join([*(p.sources for p in presets), *(o.source for o in game.options)]))
    sources: list[JSON] = [
        {"id": i, "title": SOURCES[i].title, "cites": list(SOURCES[i].cites)}
        for i in ids
        if i in SOURCES
    ]
    glossary: list[JSON] = [
        {"term": term.replace("_", " "), "text": w.t(f"glossary.{term}")}
        for term in game.view().glossary
    ]
    return {
        "game": name,
        "title": game.title,
        "heading": w.t("rulebook.title", game=game.title),
        "paragraphs": paragraphs,
        "quotes": quotes,
        "scoring": scoring_json(game, game.default_preset().rules, lang)["lines"],
        "presets": columns,
        "differ": differ,
        "same": same,
        "glossary": glossary,
        "sources": sources,
        "command": f"uv run cherki rules {name}",
    }


@router.get("/api/rulebook/{game_name}", response_model=None)
async def rulebook_json(game_name: str, lang: str | None = None) -> dict[str, JSON]:
    """A game's rules page's content in the reader's language (:func:`rulebook`)."""
    try:
        game = find_game(game_name)
    except CherkiError as err:
        raise HTTPException(404, str(err)) from None
    return rulebook(game, normalise(lang) or DEFAULT)


@router.get("/rules/{game_name}", include_in_schema=False)
async def rules_page(game_name: str) -> FileResponse:
    """A game's rules page (404 for no such game)."""
    try:
        find_game(game_name)
    except CherkiError as err:
        raise HTTPException(404, str(err)) from None
    headers = {"Cache-Control": "no-cache"}
    return FileResponse(STATIC / "rules.html", media_type="text/html", headers=headers)


__all__ = ["router", "rulebook", "scoring_json", "source_text", "value_text"]
