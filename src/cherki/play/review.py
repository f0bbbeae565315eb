"""A review of one seat's decisions in a finished hand of a record.

:func:`review_record` replays a hand of a record, and at each decision of the seat with a
real choice (more than one legal action) asks the evaluator (:mod:`cherki.bots.review`)
what every legal action was worth to that seat, from that seat's observation only: the
action taken, the best found, both values with their 95% intervals, the loss and its mark.
The review sums the hand's expected loss.

Hidden stays hidden: a hand not finished is refused (nobody reviews a live hand); the
evaluator is handed the seat's observation, never the state, so what it sampled and what it
found depend on nothing the seat did not see (``tests/test_review.py`` scrambles the other
seats' hidden cards and finds the same review).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from cherki.bots.review import (
    DEFAULT_BUDGET,
    MAX_BUDGET,
    Estimate,
    Thresholds,
    evaluator_for,
    judge,
    make_evaluator,
    thresholds_for,
)
from cherki.core.cards import format_hand
from cherki.core.contract import Observation
from cherki.core.errors import CherkiError, RecordError
from cherki.core.events import JSON
from cherki.play.records import Record, split_action

#: ``progress(done, total)`` after each decision judged
Progress = Callable[[int, int], None]


class ReviewError(RecordError):
    """A review that cannot be made (a seat that did not play, a hand out of range or not
    finished, a bad budget), in words."""


@dataclass(frozen=True)
class ActionValue:
    """One action's value to the seat: its id, notation and estimate."""

    action: int
    text: str
    value: Estimate

    def to_json(self) -> dict[str, JSON]:
        return {"action": self.text, **self.value.to_json()}


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat."""

    #: the action's place in the hand (counted from 1, as the record's actions)
    number: int
    #: how many legal actions the seat had
    choices: int
    taken: ActionValue
    best: ActionValue
    loss: Estimate
    mark: str | None
    #: every legal action's value, best first
    values: tuple[ActionValue, ...]
    #: the seat's own cards at the decision (what it saw, in notation)
    cards: str = ""

    def to_json(self) -> dict[str, JSON]:
        return {
            "number": self.number,
            "choices": self.choices,
            "taken": self.taken.to_json(),
            "best": self.best.to_json(),
            "loss": self.loss.to_json(),
            "mark": self.mark,
            "values": [v.to_json() for v in self.values],
            "cards": self.cards,
        }


@dataclass(frozen=True)
class Review:
    """A seat's review of one hand."""

    game: str
    seat: int
    #: the hand, counted from 0
    hand: int
    evaluator: str
    budget: int
    seed: int
    thresholds: Thresholds
    decisions: tuple[Decision, ...] = field(default_factory=tuple)
    #: the seat's payment at the end of the hand
    payment: int = 0

    @property
    def total_loss(self) -> float:
        """The hand's expected loss: the sum of the decisions' mean losses."""
        return sum(d.loss.mean for d in self.decisions)

    def marked(self, mark: str) -> int:
        return sum(1 for d in self.decisions if d.mark == mark)

    def to_json(self) -> dict[str, JSON]:
        return {
            "format": "cherki-review",
            "game": self.game,
            "seat": self.seat,
            "hand": self.hand + 1,
            "evaluator": self.evaluator,
            "budget": self.budget,
            "seed": self.seed,
            "thresholds": self.thresholds.to_json(),
            "payment": self.payment,
            "total_loss": round(self.total_loss, 4),
            "marks": {m: self.marked(m) for m in ("inaccuracy", "mistake", "blunder")},
            "decisions": [d.to_json() for d in self.decisions],
        }


def check_request(record: Record, seat: int, hand: int | None) -> int:
    """The hand to review (the last when ``hand`` is None), or a :class:`ReviewError`."""
    players = len(record.players)
    if type(seat) is not int or not 0 <= seat < players:
        raise ReviewError(f"seat {seat} did not play: this game's seats are 0 to {players - 1}")
    if not record.hands:
        raise ReviewError("the record holds no hand to review")
    index = len(record.hands) - 1 if hand is None else hand
    if not 0 <= index < len(record.hands):
        raise ReviewError(f"there is no hand {index + 1}: the record holds {len(record.hands)}")
    return index


@dataclass(frozen=True)
class Plan:
    """What a review will judge: the seat's real decisions in a finished hand (each its
    number in the hand, the seat's observation then and the action it took) and the seat's
    payment at the end."""

    record: Record
    seat: int
    hand: int
    points: tuple[tuple[int, Observation, int], ...]
    payment: int


def plan_review(record: Record, seat: int, hand: int | None = None) -> Plan:
    """Replay hand ``hand`` (None: the last) and list ``seat``'s decisions with a real
    choice; a :class:`ReviewError` for a seat that did not play, a hand out of range or
    not finished, a :class:`RecordError` for actions that do not replay. Nothing is
    judged yet: a refusal comes before any rollout."""
    index = check_request(record, seat, hand)
    try:
        state = record.start(index)
    except CherkiError as err:
        raise RecordError(f"hand {index + 1}: cannot set up the deal: {err}") from err
    points: list[tuple[int, Observation, int]] = []
    for i, text in enumerate(record.hands[index].actions):
        who, action_text = split_action(text, i, index)
        if state.is_terminal:
            raise RecordError(f"hand {index + 1}, action {i + 1}: the hand is already over")
        if who is not None and who != state.current:
            raise RecordError(
                f"hand {index + 1}, action {i + 1}: the record says seat {who} "
                f"but seat {state.current} is to act"
            )
        try:
            action = state.game.parse_action(action_text)
            if state.current == seat and len(state.legal_actions()) > 1:
                points.append((i + 1, state.observation(seat), action))
            state.apply(action)
        except CherkiError as err:
            raise RecordError(f"hand {index + 1}, action {i + 1}: {err}") from err
    if not state.is_terminal:
        raise ReviewError(
            f"hand {index + 1} is not finished: a hand is reviewed only after it ends"
        )
    return Plan(record, seat, index, tuple(points), int(state.result.payments[seat]))


def plan_evaluator(plan: Plan) -> str:
    """The evaluator a review of the plan's table uses by default: the ``learned`` bot's
    rollouts where it is measured at least as strong as ``search``, else the search's
    (:func:`cherki.bots.review.evaluator_for`)."""
    return evaluator_for(plan.record.game.name, len(plan.record.players))


def check_budget(budget: int, seed: int) -> None:
    if type(budget) is not int or not 2 <= budget <= MAX_BUDGET:
        raise ReviewError(f"a review's budget is 2 to {MAX_BUDGET} rollouts, not {budget!r}")
    if type(seed) is not int:
        raise ReviewError(f"a review's seed is a whole number, not {seed!r}")


def judge_decision(
    plan: Plan,
    i: int,
    *,
    budget: int = DEFAULT_BUDGET,
    seed: int = 0,
    evaluator: str | None = None,
) -> Decision:
    """Judge the plan's decision ``i`` (from 0) from the seat's observation alone, by
    ``evaluator`` (None: the table's, :func:`plan_evaluator`)."""
    game = plan.record.game.name
    evaluator = evaluator or plan_evaluator(plan)
    number, obs, taken = plan.points[i]
    judged = judge(
        make_evaluator(game, evaluator),
        obs,
        taken,
        seed=seed,
        budget=budget,
        thresholds=thresholds_for(game),
        game=game,
    )
    text_of = plan.record.game.action_text
    ranked = sorted(judged.values, key=lambda a: (-judged.values[a].mean, a))
    return Decision(
        number=number,
        choices=len(judged.values),
        taken=ActionValue(taken, text_of(taken), judged.values[taken]),
        best=ActionValue(judged.best, text_of(judged.best), judged.values[judged.best]),
        loss=judged.loss,
        mark=judged.mark,
        values=tuple(ActionValue(a, text_of(a), judged.values[a]) for a in ranked),
        cards=format_hand(obs.hand),
    )


def review_record(
    record: Record,
    seat: int,
    hand: int | None = None,
    *,
    budget: int = DEFAULT_BUDGET,
    seed: int = 0,
    evaluator: str | None = None,
    progress: Progress | None = None,
) -> Review:
    """Review ``seat``'s decisions in hand ``hand`` (from 0; None: the last) of ``record``.

    ``budget`` is the sampled deals a decision (every legal action played in each);
    ``seed`` the review's own seed, mixed with each decision's observation. Raises
    :class:`ReviewError` in words for a seat that did not play, a hand out of range or not
    finished, and :class:`RecordError` for a record whose actions do not replay."""
    check_budget(budget, seed)
    plan = plan_review(record, seat, hand)
    name = make_evaluator(record.game.name, evaluator or plan_evaluator(plan)).name
    if name == "learned":  # refused before any rollout where no model ships for the table
        from cherki.bots.learned import shipped_model

        try:
            shipped_model(record.game.name, len(record.players))
        except CherkiError as err:
            raise ReviewError(f"the learned evaluator cannot judge this table: {err}") from None
    decisions: list[Decision] = []
    for i in range(len(plan.points)):
        decisions.append(judge_decision(plan, i, budget=budget, seed=seed, evaluator=name))
        if progress is not None:
            progress(i + 1, len(plan.points))
    return Review(
        game=record.game.name,
        seat=seat,
        hand=plan.hand,
        evaluator=name,
        budget=budget,
        seed=seed,
        thresholds=thresholds_for(record.game.name),
        decisions=tuple(decisions),
        payment=plan.payment,
    )
