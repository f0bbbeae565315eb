"""The figures of a simulation as JSON, typed: what :mod:`cherki.play.simulate` makes and
the report (:mod:`cherki.ui.report`), the commands and the run's files read.

Every figure with an interval is an :class:`~cherki.play.arena.IntervalJSON` (the figure
and its 95% bounds). Keys that a run has only sometimes (money, a pot left) are
``NotRequired``; the keys of the dictionaries by name (endings, items, calls, events,
details) are the game's own words.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from cherki.core.events import JSON
from cherki.play.arena import IntervalJSON

__all__ = [
    "ComparisonJSON",
    "DetailFigure",
    "Differences",
    "ExactJSON",
    "IntervalJSON",
    "ItemFigure",
    "MatchFigure",
    "MatchFigures",
    "RunJSON",
    "Statistics",
    "VariantJSON",
    "WinningScore",
]


class WinningScore(IntervalJSON):
    """A winning score: its mean with the interval, and where its distribution lies."""

    median: float
    p90: float
    max: float


class ItemFigure(TypedDict):
    """A score item in wins: the share of wins with it, the points it adds, its cents (an
    item paid in money)."""

    in_wins: IntervalJSON
    mean_points: IntervalJSON
    mean_cents: NotRequired[IntervalJSON]


class DetailFigure(TypedDict):
    """A numeric detail of the result in wins: the share of wins where it is there and not
    0, its mean in those wins, and whether it is a yes/no detail."""

    in_wins: IntervalJSON
    mean_where_present: IntervalJSON
    flag: bool


class Statistics(TypedDict):
    """Every figure of a run (:func:`cherki.play.simulate.statistics`)."""

    hands: int
    ends: dict[str, IntervalJSON]
    won: IntervalJSON
    winning_score: WinningScore
    items: dict[str, ItemFigure]
    actions: IntervalJSON
    turns: IntervalJSON
    winner_position: list[IntervalJSON]
    calls_per_hand: dict[str, IntervalJSON]
    wins_by_call: dict[str, IntervalJSON]
    payment_by_position: list[IntervalJSON]
    events_per_hand: dict[str, IntervalJSON]
    detail_in_wins: dict[str, DetailFigure]
    #: each position's money (cents), where the hands pay money
    money_by_position: NotRequired[list[IntervalJSON]]
    #: what the payments leave in the pot, where they leave some
    left_in_pot: NotRequired[IntervalJSON]
    left_in_pot_cents: NotRequired[IntervalJSON]


class MatchFigure(TypedDict):
    """One figure of a game's match bookkeeping (``cherki.core.figures.MatchMeasure``): a
    count, or a mean or share with its interval."""

    key: str
    label: str
    kind: Literal["count", "mean", "share"]
    value: int | IntervalJSON


class MatchFigures(TypedDict):
    """A game's match bookkeeping over the run's hands
    (:func:`cherki.play.simulate.match_statistics`): the game's own figures under its
    title, then the matches completed and each seat's money a match."""

    title: str
    figures: list[MatchFigure]
    matches: int
    money_per_match_by_seat: list[IntervalJSON]


class Differences(TypedDict):
    """Each measure's mean difference between two variants on the same hands, and each
    ending's difference in share (:func:`cherki.play.simulate.differences`)."""

    won: IntervalJSON
    winning_score: IntervalJSON
    actions: IntervalJSON
    starter_payment: IntervalJSON
    ends: dict[str, IntervalJSON]


class ExactJSON(TypedDict):
    """A figure known exactly beside the simulated one
    (:func:`cherki.play.simulate.exact_figures`)."""

    figure: str
    exact: float
    exact_text: str
    simulated: IntervalJSON
    #: a share of hands (else a mean)
    share: bool


class Provenance(TypedDict):
    """What made an output (``provenance`` of a run's or comparison's file, the first lines
    of its CSV files and report): cherki's version, the git commit (``"none"`` outside a
    checkout), the rules fingerprint (:mod:`cherki.play.fingerprint`), the exact command,
    and every rule value of each variant (the preset's, with those given on the command
    line), with the players."""

    cherki: str
    commit: str
    rules_fingerprint: str
    command: str
    rules: list[dict[str, JSON]]


class RunJSON(TypedDict):
    """A run's file (``cherki simulate --json``)."""

    provenance: NotRequired[Provenance]
    format: str
    version: int
    setup: dict[str, JSON]
    hands_asked: int
    hands: list[dict[str, JSON]]
    stats: Statistics | None
    match: MatchFigures | None


class VariantJSON(TypedDict):
    """One variant of a comparison's file: its hands, and once done its figures."""

    label: str
    setup: dict[str, JSON]
    hands: list[dict[str, JSON]]
    stats: NotRequired[Statistics]
    match: NotRequired[MatchFigures | None]


class ComparisonJSON(TypedDict):
    """A comparison's file (``cherki compare --json``)."""

    provenance: NotRequired[Provenance]
    format: str
    version: int
    hands_asked: int
    same_deals: bool
    variants: list[VariantJSON]
    differences_from_first: NotRequired[list[Differences]]
