"""``cherki learn GAME``: a game's course in the terminal (issue 37). Each lesson is dealt
and replayed by the engine, shown with the terminal table's own rendering, asked, answered
with the table's own action words, judged by the engine and explained: a wrong answer is
explained and asked again, a right one is explained with the source sentence it teaches."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text

from cherki.core.contract import Game, State
from cherki.core.errors import CherkiError, RulesError
from cherki.core.lessons import Course, Lesson, statement_key
from cherki.games import GAMES, find_game
from cherki.i18n import chosen, normalise, remember
from cherki.play.lessons import judge, position
from cherki.play.refusals import refusal
from cherki.ui.table import resolve_input
from cherki.ui.terminal import cards_text, console, hand_by_rank, result_table
from cherki.ui.text import Voice, table_lines

__all__ = ["learn"]


def learn(
    game_name: Annotated[
        str | None, typer.Argument(help=f"Game: {', '.join(GAMES)} (none: list the courses).")
    ] = None,
    lesson_id: Annotated[
        str | None, typer.Option("--lesson", help="Start at this lesson (its id, see --list).")
    ] = None,
    listing: Annotated[bool, typer.Option("--list", help="List the course's lessons.")] = False,
    lang: Annotated[
        str | None, typer.Option("--lang", help="Language: en, ms or id (remembered).")
    ] = None,
) -> None:
    """Learn a game: one rule a lesson, a real position, your answer judged by the engine."""
    code = _language(lang)
    voice = Voice.of(None, 2, None, code)
    w = voice.words
    if game_name is None:
        for game in GAMES.values():
            course = game.lessons()
            if course.lessons:
                count = w.count("learn.ui.lessons", len(course.lessons))
                console.print(
                    Text(f"{game.name}  ", style="bold").append(f"{game.title} · {count}")
                )
        return
    game = find_game(game_name)
    course = game.lessons()
    if not course.lessons:
        raise RulesError(w.t("learn.ui.no_course", game=game.title))
    start = 0
    if lesson_id is not None:
        ids = [x.id for x in course.lessons]
        if lesson_id not in ids:
            raise RulesError(
                w.t(
                    "learn.ui.no_lesson",
                    lesson=repr(lesson_id),
                    game=game.title,
                    ids=", ".join(ids),
                )
            )
        start = ids.index(lesson_id)
    if listing:
        for i, lesson in enumerate(course.lessons, 1):
            console.print(
                Text(f"{i:2}. ")
                .append(w.t(lesson.key("title")), style="bold")
                .append(f"  {lesson.id}")
            )
        return
    console.print(Text(w.t("learn.ui.course", game=game.title), style="bold underline"))
    total = len(course.lessons)
    for n in range(start, total):
        if not _play(game, course, course.lessons[n], n + 1, total, code):
            return
    console.print(Text(w.t("learn.ui.done"), style="bold green"))


def _language(option: str | None) -> str:
    if option is not None:
        code = normalise(option)
        if code is None:
            raise RulesError(f"--lang must be en, ms or id, not {option!r}")
        remember(code)
        return code
    return chosen(None)


def _show(game: Game, state: State, lesson: Lesson, voice: Voice) -> None:
    """The position as the terminal table shows it to the learner's seat."""
    obs = state.observation(lesson.seat)
    for line in table_lines(obs, game, voice):
        text = Text(line)
        text.highlight_regex(r"\b(S9|RF|OT)\b", "bold red")  # red stamps, as the table does
        console.print(text)
    mine = Text(voice.t("page.table.your_hand") + ": ", style="bold")
    console.print(mine.append_text(hand_by_rank(obs.hand)))
    if obs.drawn is not None:
        console.print(
            Text(voice.t("status.you_drew", card="").rstrip() + ": ").append_text(
                cards_text([obs.drawn])
            )
        )


def _play(game: Game, course: Course, lesson: Lesson, n: int, total: int, lang: str) -> bool:
    """One lesson, asked until answered right; False when the learner stops."""
    state = position(game, lesson)
    voice = Voice.of(None, state.n, lesson.seat, lang)
    w = voice.words
    console.print()
    console.print(Text(w.t("learn.ui.lesson_n", n=n, total=total), style="dim"))
    console.print(Text(w.t(lesson.key("title")), style="bold"))
    console.print(Text(w.t(lesson.key("text"))))
    console.print()
    _show(game, state, lesson, voice)
    legal = state.legal_actions(lesson.seat)
    texts = [game.action_text(a) for a in legal]
    console.print(Text(w.t(lesson.key("question")), style="bold cyan"))
    console.print(Text(w.t("learn.ui.type", actions=" · ".join(texts)), style="dim"))
    while True:
        try:
            raw = console.input("[bold]> [/]")
        except (EOFError, KeyboardInterrupt):
            console.print()
            return False
        word = raw.strip().lower()
        if not word:
            continue
        if word in ("quit", "exit", "q"):
            return False
        if word == "skip":
            return True
        try:
            answer: int | str = resolve_input(game, raw, legal)
        except CherkiError:
            answer = raw.strip()
        verdict = judge(game, lesson, state, answer)
        if not verdict.right:
            console.print(Text(w.t("learn.ui.wrong"), style="bold red"))
            if verdict.key:
                console.print(Text(w.t(verdict.key)))
            elif verdict.refused is not None:  # the rules' refusal, in the reader's words
                reason = refusal(verdict.refused, w.lang, game)
                console.print(Text(w.t("learn.ui.refused", reason=reason)))
            else:
                console.print(Text(w.t("learn.ui.not_allowed")))
            console.print(Text(w.t("learn.ui.try_again"), style="dim"))
            continue
        console.print(Text(w.t("learn.ui.right"), style="bold green"))
        console.print(Text(w.t(verdict.key)))
        assert verdict.action is not None
        after = state.clone()
        after.apply(verdict.action, seat=lesson.seat)
        if after.is_terminal:
            console.print(Text(w.t("learn.ui.the_hand"), style="bold"))
            console.print(result_table(after.result, game, voice, cents=False))
        for sid in lesson.teaches:
            statement = course.statement(sid)
            assert statement is not None
            console.print(Text(w.t("learn.ui.source", source=statement.source), style="dim"))
            console.print(Text(f"  “{w.t(statement_key(sid))}”", style="italic"))
        return True
