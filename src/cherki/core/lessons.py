"""A game's course (issue 37, *Learn*): the rule statements of its sources and the lessons
that teach them, declared by the game (``Game.lessons()``) as it declares its view and
words, so that every front end (``cherki learn``, the ``/learn`` pages) renders what the
game declares and never a game's name.

* A :class:`Statement` is one rule of the sources: an id, the source (``000``–``003``, or a
  game's own rules file) and the sentence quoted as the source gives it.
* A :class:`Lesson` is a real position: a stacked deal (each seat's cards and the stock's
  top) and the actions that reach it, replayed through ``State.apply`` (never a picture);
  the seat the learner plays; the actions judged right; and wrong answers, each with the
  key of its explanation. Its words are catalogue keys, ``learn.<id>.<field>``
  (:func:`lesson_key`): ``title``, ``text``, ``question``, ``explain`` and each wrong
  answer's ``why`` key.
* ``cherki.play.lessons`` deals and replays a lesson (``position``) and judges an answer
  through the engine (``judge``).

No English here: every sentence is a key of the catalogues (:mod:`cherki.i18n`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from cherki.core.options import Value

__all__ = [
    "Course",
    "Lesson",
    "Statement",
    "WrongAnswer",
    "lesson_key",
    "missing_statements",
    "statement_key",
    "words_keys",
]


@dataclass(frozen=True)
class Statement:
    """One rule statement of a source: ``id`` (``balik.deal``), ``source`` (``000``–``003``
    or the game's own rules file) and ``quote``, the sentence as the source words it."""

    id: str
    source: str
    quote: str


@dataclass(frozen=True)
class WrongAnswer:
    """A wrong answer a lesson offers or expects: the action in the game's notation and the
    catalogue key of why it is wrong (it may be an action the rules refuse: the key says
    why)."""

    action: str
    why: str


@dataclass(frozen=True)
class Lesson:
    """One lesson: a real position and a question answered by an action."""

    id: str
    #: the statements it teaches (ids of the course's :class:`Statement` s)
    teaches: tuple[str, ...]
    #: each seat's dealt cards (card codes, space-separated) and the stock's top
    hands: tuple[str, ...]
    stock: str = ""
    #: the actions that reach the position, ``"SEAT: ACTION"`` in the game's notation
    moves: tuple[str, ...] = ()
    #: the seat the learner plays (the one to act at the position)
    seat: int = 0
    #: the right answers (any one of them), in the game's notation
    right: tuple[str, ...] = ()
    wrong: tuple[WrongAnswer, ...] = ()
    preset: str | None = None
    options: Mapping[str, Value] = field(default_factory=dict)
    first: int = 0

    def key(self, name: str) -> str:
        return lesson_key(self.id, name)


@dataclass(frozen=True)
class Course:
    """A game's course: every rule statement of its sources, and its lessons in order."""

    statements: tuple[Statement, ...] = ()
    lessons: tuple[Lesson, ...] = ()

    def lesson(self, lesson_id: str) -> Lesson | None:
        return next((x for x in self.lessons if x.id == lesson_id), None)

    def statement(self, statement_id: str) -> Statement | None:
        return next((s for s in self.statements if s.id == statement_id), None)


def lesson_key(lesson_id: str, name: str) -> str:
    """The catalogue key of a lesson's words: ``learn.<lesson>.<name>``."""
    return f"learn.{lesson_id}.{name}"


def statement_key(statement_id: str) -> str:
    """The catalogue key of a statement's words in the reader's language (the quote
    translated; English: as the source words it)."""
    return f"learn.statement.{statement_id}"


def missing_statements(course: Course) -> list[str]:
    """The ids of the course's statements that no lesson teaches, in the course's order."""
    taught = {s for lesson in course.lessons for s in lesson.teaches}
    return [s.id for s in course.statements if s.id not in taught]


def words_keys(course: Course) -> list[str]:
    """Every catalogue key a course's words need, for the tests and the front ends."""
    keys: list[str] = [statement_key(s.id) for s in course.statements]
    for lesson in course.lessons:
        keys += [lesson.key(n) for n in ("title", "text", "question", "explain")]
        keys += [w.why for w in lesson.wrong]
    return [*dict.fromkeys(keys)]
