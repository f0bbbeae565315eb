"""A lesson played (issue 37): its position dealt and replayed through the engine, and an
answer judged by the engine (:mod:`cherki.core.lessons` holds what a game declares)."""

from __future__ import annotations

from dataclasses import dataclass

from cherki.core.cards import parse_card
from cherki.core.contract import Game, State
from cherki.core.errors import CherkiError
from cherki.core.lessons import Lesson

__all__ = ["OTHER", "Verdict", "judge", "position", "right_actions", "wrong_actions"]

#: the explanation of a legal action a lesson does not list (the common words)
OTHER = "learn.common.other"


def _cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def position(game: Game, lesson: Lesson) -> State:
    """The lesson's position: its stacked deal dealt by the engine and its moves replayed
    through ``State.apply`` (each checked to be the named seat's)."""
    rules = game.rules(lesson.preset, **lesson.options)
    stack = ([_cards(h) for h in lesson.hands], _cards(lesson.stock))
    state = game.new_state(rules, len(lesson.hands), stack=stack, first=lesson.first)
    for move in lesson.moves:
        seat, _, action = move.partition(":")
        state.apply(action.strip(), seat=int(seat))
    return state


@dataclass(frozen=True)
class Verdict:
    """What the engine made of an answer: ``right``; the action's id (None: no action
    of the game); the catalogue key of the explanation (a wrong answer's, or the lesson's
    ``explain`` for a right one), or ``reason``, the engine's own words for an action the
    rules refuse that the lesson does not explain (in English; ``refused``, the error itself,
    is what a front end words in its reader's language: :func:`cherki.play.refusals.refusal`)."""

    right: bool
    action: int | None
    key: str
    reason: str = ""
    refused: CherkiError | None = None


def judge(game: Game, lesson: Lesson, state: State, answer: int | str) -> Verdict:
    """Judge ``answer`` (an action id or its notation) at the lesson's position ``state``
    through the engine: the rules check it, then the lesson's answers place it."""
    try:
        action = game.parse_action(answer) if isinstance(answer, str) else answer
    except CherkiError as err:
        return Verdict(False, None, "", str(err), err)
    for wrong in lesson.wrong:
        if game.parse_action(wrong.action) == action:
            return Verdict(False, action, wrong.why)
    try:
        state.check(action, lesson.seat)
    except CherkiError as err:
        return Verdict(False, action, "", str(err), err)
    if action in {game.parse_action(a) for a in lesson.right}:
        return Verdict(True, action, lesson.key("explain"))
    return Verdict(False, action, OTHER)


def right_actions(game: Game, lesson: Lesson) -> list[int]:
    """The lesson's right answers as action ids."""
    return [game.parse_action(a) for a in lesson.right]


def wrong_actions(game: Game, lesson: Lesson) -> list[int]:
    """The lesson's declared wrong answers as action ids."""
    return [game.parse_action(w.action) for w in lesson.wrong]
