"""The courses in the browser (issue 37, *Learn*).

* ``GET /learn``: the games with a course; ``GET /learn/{game}``: that game's course
  (``static/learn.html``, ``learn.js``, ``learn.css``).
* ``GET /api/learn?lang=``: the games with a course, their lesson counts.
* ``GET /api/learn/{game}?lang=``: the course: each lesson's words, its position as the
  table's ordinary view for the learner's seat (the same parts as a ``state`` message's
  ``ui``: seats, the table's zones, the status line, the legal actions, the hand), the
  statements it teaches, and the table a *Practice* click creates (``POST /api/tables``:
  the game's default preset with every money option at 0, the learner and the game's
  heuristic bots, hints on).
* ``POST /api/learn/{game}/{lesson}/answer?lang=`` ``{"action": ID}``: the engine judges
  the answer (:func:`cherki.play.lessons.judge`): right or wrong, the explanation, and after
  a right answer that ends the hand, its result as the table's result dialog shows it.

Nothing here is secret: a lesson's position is the learner's view of a stacked deal, and the
other seats' cards are never sent (the learner's observation only).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse
from pydantic import BaseModel

from cherki.bots import levels_for
from cherki.core.cards import CODES
from cherki.core.contract import Game
from cherki.core.errors import CherkiError
from cherki.core.events import JSON
from cherki.core.lessons import Course, Lesson, statement_key
from cherki.games import GAMES, find_game
from cherki.i18n import DEFAULT, normalise
from cherki.i18n.voice import Voice
from cherki.play.lessons import judge, position
from cherki.play.refusals import refusal
from cherki.server import present

router = APIRouter()


class AnswerIn(BaseModel):
    action: int


STATIC = Path(__file__).parent / "static"


def _page() -> FileResponse:
    headers = {"Cache-Control": "no-cache"}
    return FileResponse(STATIC / "learn.html", media_type="text/html", headers=headers)


@router.get("/learn", include_in_schema=False)
async def learn_index() -> FileResponse:
    return _page()


@router.get("/learn/{game_name}", include_in_schema=False)
async def learn_page(game_name: str) -> FileResponse:
    return _page()


def _game(name: str, lang: str) -> tuple[Game, Course]:
    try:
        game = find_game(name)
    except CherkiError as err:
        raise HTTPException(404, str(err)) from None
    course = game.lessons()
    if not course.lessons:
        raise HTTPException(
            404, Voice.of(None, 2, None, lang).t("learn.ui.no_course", game=game.title)
        )
    return game, course


@router.get("/api/learn", response_model=None)
async def courses(lang: str | None = None) -> list[dict[str, JSON]]:
    """The games with a course, in the lobby's order."""
    code = normalise(lang) or DEFAULT
    voice = Voice.of(None, 2, None, code)
    out: list[dict[str, JSON]] = []
    for game in GAMES.values():
        n = len(game.lessons().lessons)
        if n:
            out.append(
                {
                    "name": game.name,
                    "title": game.title,
                    "lessons": n,
                    "count": voice.words.count("learn.ui.lessons", n),
                }
            )
    return out


@router.get("/api/learn/{game_name}", response_model=None)
async def course(game_name: str, lang: str | None = None) -> dict[str, JSON]:
    code = normalise(lang) or DEFAULT
    game, _ = _game(game_name, code)
    return _course(game.name, code)


@lru_cache(maxsize=64)
def _course(name: str, lang: str) -> dict[str, JSON]:
    """A course as the page draws it (the same for every reader of a language: cached)."""
    game = GAMES[name]
    course = game.lessons()
    return {
        "name": game.name,
        "title": game.title,
        "lessons": [_lesson(game, course, lesson, lang) for lesson in course.lessons],
        "practice": _practice(game),
    }


def _teaches(course: Course, lesson: Lesson, voice: Voice) -> list[JSON]:
    out: list[JSON] = []
    for sid in lesson.teaches:
        statement = course.statement(sid)
        assert statement is not None
        out.append(
            {
                "id": sid,
                "source": voice.t("learn.ui.source", source=statement.source),
                "quote": voice.t(statement_key(sid)),
            }
        )
    return out


def _voice(players: int, seat: int, lang: str) -> Voice:
    """The seats named as a table names them until people give names (from 1: "Seat 1"),
    the learner's seat "you"."""
    w = Voice.of(None, players, None, lang).words
    return Voice.of([w.t("voice.seat", n=s + 1) for s in range(players)], players, seat, lang)


def _lesson(game: Game, course: Course, lesson: Lesson, lang: str) -> dict[str, JSON]:
    state = position(game, lesson)
    seat = lesson.seat
    voice = _voice(state.n, seat, lang)
    obs = state.observation(seat)
    drawn = None
    if obs.drawn is not None:
        card = CODES[obs.drawn]
        drawn = {"card": card, "text": voice.t("status.you_drew", card=card)}
    ui = {
        "title": game.title,
        "seats": present.seats_view(obs, game, voice),
        "table": present.table_view(obs, game, voice),
        "status": present.status_line(obs, game, voice, seat),
        "actions": present.actions_view(game, obs, voice),
        "hand": present.hand_view(obs, game),
        "drawn": drawn,
        "call_names": list(game.call_names),
    }
    return {
        "id": lesson.id,
        "title": voice.t(lesson.key("title")),
        "text": voice.t(lesson.key("text")),
        "question": voice.t(lesson.key("question")),
        "seat": seat,
        "names": [voice.name(s) for s in range(state.n)],
        "ui": ui,  # type: ignore[dict-item]
        "teaches": _teaches(course, lesson, voice),
    }


def _practice(game: Game) -> dict[str, JSON]:
    """The table a Practice click asks for: the default preset playing for nothing, the
    learner and the game's heuristic bots (random where it has none), hints on."""
    rules = game.default_preset().rules
    levels = levels_for(game.name)
    level = "heuristic" if "heuristic" in levels else levels[0]
    options: dict[str, JSON] = {
        o.name: 0 for o in game.options if o.money and getattr(rules, o.name, None)
    }
    seats: list[JSON] = [{"kind": "human"}]
    seats += [{"kind": "bot", "level": level} for _ in range(game.default_players - 1)]
    return {"game": game.name, "options": options, "seats": seats, "hints": True, "hands": 1}


@router.post("/api/learn/{game_name}/{lesson_id}/answer", response_model=None)
async def answer(
    game_name: str, lesson_id: str, body: AnswerIn, lang: str | None = None
) -> dict[str, JSON]:
    code = normalise(lang) or DEFAULT
    game, found = _game(game_name, code)
    lesson = found.lesson(lesson_id)
    if lesson is None:
        ids = ", ".join(x.id for x in found.lessons)
        voice = Voice.of(None, 2, None, code)
        raise HTTPException(
            404, voice.t("learn.ui.no_lesson", lesson=repr(lesson_id), game=game.title, ids=ids)
        )
    state = position(game, lesson)
    voice = _voice(state.n, lesson.seat, code)
    if not 0 <= body.action < game.num_actions:
        raise HTTPException(400, voice.t("learn.ui.not_allowed"))
    verdict = judge(game, lesson, state, body.action)
    out: dict[str, JSON] = {"right": verdict.right}
    if verdict.key:
        out["text"] = voice.t(verdict.key)
    elif verdict.refused is not None:  # the rules' refusal, in the reader's words
        out["text"] = voice.t("learn.ui.refused", reason=refusal(verdict.refused, code, game))
    else:
        out["text"] = voice.t("learn.ui.not_allowed")
    if verdict.right:
        out["teaches"] = _teaches(found, lesson, voice)
        after = state.clone()
        after.apply(body.action, seat=lesson.seat)
        if after.is_terminal:
            out["result"] = present.result_view(after.result, game, voice, 0)  # type: ignore[assignment]
    return out
