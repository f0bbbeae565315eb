"""The browser app's pages, cards, static files and the replay API (issue 15).

* ``GET /``: the lobby (create a table, the open tables).
* ``GET /seat/{token}``: a person's seat at a table; ``GET /watch/{table}``: a spectator's;
  ``GET /host/{host}``: the host's page (every seat's link again, names, new links).
* ``GET /replay/{table}``: a finished table's replay; ``GET /replay``: open a record file.
* ``GET /cards/{CODE}.svg`` (``?index=0``: without the index label; ``back``: the back):
  the project's SVG cards (:func:`cherki.ui.cards_svg.card_svg`), cached for a day.
* ``GET /favicon.svg``, ``/favicon.ico``, ``/apple-touch-icon.png``: the site's icon, three
  cards fanned (:func:`cherki.ui.cards_svg.icon_svg`; the bitmaps drawn from it by
  ``scripts/make_icons.py``), linked from every page, cached for a day.
* ``GET /api/watch/{table}``: a table's game and status (404: no such table).
* ``GET /api/rules/{game}?preset=P``: every option's value under a preset (the lobby).

The replay API (``GET /api/tables/{table}/replay``, ``POST /api/replay``) is the app's
(:mod:`cherki.server.api`): its frames (:func:`frames`) are worked out away from the event
loop.

The pages are plain HTML, CSS and JavaScript modules under ``static/`` (no build step): the
JavaScript draws what the server sends, the English and the game logic stay in Python
(:mod:`cherki.server.present`).

Our specifications
------------------
* A replay frame is one step of a hand: the action's text, every seat's hand face up, the
  discards (or Cholek Tiga's pool and captured piles), each seat's call and exposed cards,
  the step's log lines and, at the hand's end, its result item by item. A replay holds at
  most :data:`MAX_FRAMES` frames.
* Only a finished table is replayed by id: before the end a replay would show hands still
  in play.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

from cherki.core.cards import CODES
from cherki.core.contract import State
from cherki.core.errors import CherkiError
from cherki.core.options import Value
from cherki.games import find_game
from cherki.play.records import Record, replay_steps
from cherki.server import present
from cherki.server.messages import FrameOut, HandSpan, ReplayOut
from cherki.ui.cards_svg import card_svg, icon_svg
from cherki.ui.text import Voice, event_line

STATIC = Path(__file__).parent / "static"
#: the largest record ``POST /api/replay`` reads
MAX_REPLAY_BYTES = 1024 * 1024
#: the most frames one replay holds
MAX_FRAMES = 20_000

router = APIRouter()


def _page(name: str) -> FileResponse:
    headers = {"Cache-Control": "no-cache"}
    return FileResponse(STATIC / name, media_type="text/html", headers=headers)


@router.get("/", include_in_schema=False)
async def lobby() -> FileResponse:
    return _page("lobby.html")


@router.get("/seat/{token}", include_in_schema=False)
async def seat_page(token: str) -> FileResponse:
    return _page("table.html")


@router.get("/watch/{table_id}", include_in_schema=False)
async def watch_page(table_id: str) -> FileResponse:
    return _page("table.html")


@router.get("/host/{token}", include_in_schema=False)
async def host_page(token: str) -> FileResponse:
    return _page("host.html")


@router.get("/replay", include_in_schema=False)
async def replay_open() -> FileResponse:
    return _page("replay.html")


@router.get("/replay/{table_id}", include_in_schema=False)
async def replay_page(table_id: str) -> FileResponse:
    return _page("replay.html")


@lru_cache(maxsize=64)
def _svg(kind: int | None, index: bool) -> str:
    return card_svg(kind, index=index)


@router.get("/cards/{name}.svg", include_in_schema=False)
async def card(name: str, index: int = 1) -> Response:
    """One card (``C7``, ``RF``…, or ``back``) as SVG; ``index=0`` leaves out the label."""
    if name == "back":
        kind: int | None = None
    elif name in CODES:
        kind = CODES.index(name)
    else:
        raise HTTPException(404, f"no card {name!r}: C1-C9, S1-S9, M1-M9, WF, RF, OT or back")
    return Response(
        _svg(kind, bool(index)),
        media_type="image/svg+xml",
        headers={"Cache-Control": "public, max-age=86400"},
    )


ICON_HEADERS = {"Cache-Control": "public, max-age=86400"}


@router.get("/favicon.svg", include_in_schema=False)
async def favicon_svg() -> Response:
    return Response(icon_svg(), media_type="image/svg+xml", headers=ICON_HEADERS)


@router.get("/favicon.ico", include_in_schema=False)
async def favicon_ico() -> FileResponse:
    return FileResponse(STATIC / "favicon.ico", media_type="image/x-icon", headers=ICON_HEADERS)


@router.get("/apple-touch-icon.png", include_in_schema=False)
async def touch_icon() -> FileResponse:
    return FileResponse(
        STATIC / "apple-touch-icon.png", media_type="image/png", headers=ICON_HEADERS
    )


@router.get("/api/rules/{game_name}")
async def preset_rules(
    game_name: str, preset: str | None = None
) -> dict[str, str | dict[str, Value] | None]:
    """Every option's value under a preset (the lobby shows what each option starts as)."""
    try:
        game = find_game(game_name)
        rules = game.rules(preset or None)
    except CherkiError as err:
        raise HTTPException(404, str(err)) from None
    return {"game": game.name, "preset": preset, "rules": game.rules_json(rules)}


@router.get("/api/watch/{table_id}")
async def watch_info(table_id: str, request: Request) -> dict[str, str]:
    """What the spectator page needs before it connects: whether the table exists, its
    game and whether it is finished."""
    store = request.app.state.tables.store
    try:
        info = store.table(table_id)
    except CherkiError as err:
        raise HTTPException(404, str(err)) from None
    return {"table": table_id, "game": info.game, "status": info.status}


# -- replays ----------------------------------------------------------------------------------
def frames(record: Record, lang: str | None = None) -> ReplayOut:
    """Every step of every hand of ``record`` as frames (see the module's notes), worded in
    ``lang`` (English unless told)."""
    game = record.game
    voice = Voice.of(record.players, len(record.players), None, lang)
    out: list[FrameOut] = []
    hands: list[HandSpan] = []
    for index in range(len(record.hands)):
        start = len(out)
        state = record.start(index)
        out.append(_frame(state, index, voice.t("replay.dealt", n=index + 1), [], voice))
        out[-1]["log"] = [event_line(e, game, voice) for e in state.log]
        for state, text, events in replay_steps(record, index):
            if len(out) >= MAX_FRAMES:
                raise CherkiError(f"this record is too long to replay here ({MAX_FRAMES} steps)")
            lines = [event_line(e, game, voice) for e in events]
            out.append(_frame(state, index, text, lines, voice))
        hands.append(HandSpan(hand=index + 1, start=start, end=len(out) - 1))
    return ReplayOut(
        game=game.name, title=game.title, players=list(record.players), hands=hands, frames=out
    )


def _frame(state: State, index: int, text: str, lines: list[str], voice: Voice) -> FrameOut:
    game = state.game
    obs = state.observation(0)
    hands = [present.held_cards(state.observation(s).hand) for s in range(state.n)]
    return FrameOut(
        hand=index + 1,
        step=len(state.history),
        action=_who(text, voice),
        notation=text,
        log=lines,
        hands=hands,
        seats=present.seats_view(obs, game, voice),
        table=present.table_view(obs, game, voice),
        status=present.status_line(obs, game, voice, None),
        result=(
            present.result_view(state.result, game, voice, index + 1) if state.is_terminal else None
        ),
    )


def _who(text: str, voice: Voice) -> str:
    """A record's action (``"2: discard C7"``) with the seat's name (``"Ann: discard C7"``)."""
    head, colon, rest = text.partition(":")
    if colon and head.strip().isdigit():
        return f"{voice.name(int(head))}: {rest.strip()}"
    return text


def mount(app: FastAPI) -> None:
    """Serve the pages, the cards, the replay API and the static files on ``app``."""
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
