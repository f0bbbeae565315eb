"""The courses (issue 37, *Learn*): every game's lessons as the conformance suite runs them.

Each lesson's position is dealt from its stacked shoe and reached through ``State.apply``;
its right answers are legal and judged right; every wrong answer it offers is judged wrong
with its own explanation (a legal action, or one the rules refuse, explained); every lesson
names the statements it teaches, each a statement of its game's sources quoted as the source
words it; a course that leaves a statement of its game untaught fails, listing them; and
every word of a course is in English, Malay and Indonesian (Malay and Indonesian written,
not copied)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cherki.core.contract import Game
from cherki.core.errors import CherkiError
from cherki.core.lessons import Course, Lesson, missing_statements, statement_key, words_keys
from cherki.games import GAMES
from cherki.i18n import LANGUAGES, words
from cherki.play.lessons import OTHER, judge, position

#: the sources cherki's games cite ([000]-[003]); a game from outside names its own file
SOURCES = {"000", "001", "002", "003"}

ALL = list(GAMES.values())
COURSES = [(g, lesson) for g in ALL for lesson in g.lessons().lessons]


def _id(item: tuple[Game, Lesson]) -> str:
    return f"{item[0].name}:{item[1].id}"


@pytest.mark.parametrize("item", COURSES, ids=[_id(c) for c in COURSES])
def test_each_lesson_is_a_real_position_judged_by_the_engine(item: tuple[Game, Lesson]) -> None:
    game, lesson = item
    state = position(game, lesson)
    assert not state.is_terminal and state.current == lesson.seat
    legal = state.legal_actions(lesson.seat)
    assert lesson.right, "a lesson has a right answer"
    for answer in lesson.right:
        action = game.parse_action(answer)
        assert action in legal, (answer, [game.action_text(a) for a in legal])
        verdict = judge(game, lesson, state, answer)
        assert verdict.right and verdict.key == lesson.key("explain")
        after = state.clone()
        after.apply(action, seat=lesson.seat)  # the right answer plays on through the engine
    assert lesson.wrong, "a lesson offers a wrong answer, explained"
    for wrong in lesson.wrong:
        action = game.parse_action(wrong.action)
        assert action not in {game.parse_action(a) for a in lesson.right}
        verdict = judge(game, lesson, state, wrong.action)
        assert not verdict.right and verdict.key == wrong.why and verdict.key != OTHER
        if action not in legal:  # refused by the rules, and explained by the lesson
            with pytest.raises(CherkiError):
                state.clone().apply(action, seat=lesson.seat)
    # any other legal action is judged wrong too, with the common explanation
    listed = {game.parse_action(a) for a in lesson.right + tuple(w.action for w in lesson.wrong)}
    for action in legal:
        if action not in listed:
            verdict = judge(game, lesson, state, action)
            assert not verdict.right and verdict.key == OTHER
    # an answer that is no action of the game is refused in words, not judged
    nothing = judge(game, lesson, state, "no such move")
    assert not nothing.right and nothing.action is None and nothing.reason


@pytest.mark.parametrize("game", ALL, ids=[g.name for g in ALL])
def test_every_lesson_names_statements_of_its_game(game: Game) -> None:
    course = game.lessons()
    ids = [s.id for s in course.statements]
    assert len(ids) == len(set(ids))
    assert len({x.id for x in course.lessons}) == len(course.lessons)
    for lesson in course.lessons:
        assert lesson.teaches, lesson.id
        unknown = [s for s in lesson.teaches if course.statement(s) is None]
        assert unknown == [], (lesson.id, unknown)


@pytest.mark.parametrize("game", ALL, ids=[g.name for g in ALL])
def test_each_statement_quotes_its_source(game: Game) -> None:
    """cherki's games quote [000]-[003]; a game from outside cherki quotes its own rules
    file, and there the quote is checked word for word."""
    course = game.lessons()
    own = Path(game.rules_path).read_text(encoding="utf-8") if game.rules_path else ""
    for s in course.statements:
        assert s.quote.strip(), s.id
        if game.rules_path:
            assert s.source == Path(game.rules_path).name, s.id
            assert " ".join(s.quote.split()) in " ".join(own.split()), s.id
        else:
            assert s.source in SOURCES, s.id


@pytest.mark.parametrize("game", ALL, ids=[g.name for g in ALL])
def test_the_course_teaches_every_statement_of_its_game(game: Game) -> None:
    course = game.lessons()
    assert course.statements, f"{game.name} lists no rule statements"
    assert missing_statements(course) == [], f"{game.name}: statements no lesson teaches"


def test_a_course_missing_a_statement_is_listed() -> None:
    course = GAMES["balik-satu"].lessons()
    fewer = Course(course.statements, tuple(x for x in course.lessons if x.id != "balik.yeo"))
    assert missing_statements(fewer) == ["balik.yeo"]


@pytest.mark.parametrize("game", ALL, ids=[g.name for g in ALL])
def test_every_word_of_a_course_is_in_every_language(game: Game) -> None:
    course = game.lessons()
    keys = words_keys(course)
    assert all(statement_key(s.id) in keys for s in course.statements)
    en = words("en")
    for lang in LANGUAGES:
        w = words(lang)
        missing = [k for k in keys if not w.has(k)]
        assert missing == [], (lang, missing)
    for lang in ("ms", "id"):
        w = words(lang)
        prose = [k for k in keys if re.search(r"[a-z]{4,} [a-z]{4,}", en.t(k))]
        copied = [k for k in prose if w.t(k) == en.t(k)]
        assert copied == [], (lang, copied)
