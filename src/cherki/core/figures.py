"""Figures a game knows exactly, declared by the game (``Game.exact_figures``), which a
simulation (``cherki simulate``) sets beside what its hands show, so a run checks itself.

A figure says what it is, its exact value (a fraction) and how it is written, and how a
simulated hand is measured for it: its value in that hand (1 or 0 for a share), or None
where the hand does not count (a share among the hands that came to a win, a mean over the
wins with an item). The simulation gives the measured share (Wilson's 95% interval) or mean
(``mean ± 1.96·sd/√n``) of the hands that count.

A game with a match ledger of its own (Chot's bangkong) also says what a run of matches
shows of it (``Game.match_measures``): from what its ledger announced and after which hand,
figures each with its samples, which the simulation turns into a count, a mean or a share
with its interval, and the report prints under the game's own title.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, Protocol

__all__ = ["ExactFigure", "MatchMeasure", "MatchMeasures", "PlayedHand"]


class PlayedHand(Protocol):
    """What a figure may read of a simulated hand (``cherki.play.summary.HandSummary``)."""

    @property
    def how(self) -> str:
        """How the hand ended (``Result.how``)."""
        ...

    @property
    def winner(self) -> int | None:
        """The winner's position (from the starter), or None."""
        ...

    @property
    def items(self) -> Mapping[str, int]:
        """The winner's score items: points by kind."""
        ...


@dataclass(frozen=True)
class ExactFigure:
    """A figure known exactly, and how a simulated hand measures it."""

    #: what it is, in words (the report's row)
    figure: str
    exact: Fraction
    #: the exact value as people read it ("1 in 25,700.8", "4/30 = 13.33%")
    exact_text: str
    #: a share of hands (each hand's value 1 or 0); else a mean
    share: bool
    #: a hand's value for the figure, or None where the hand does not count
    measure: Callable[[PlayedHand], float | None]


@dataclass(frozen=True)
class MatchMeasure:
    """One figure of a game's match bookkeeping over a run of simulated matches
    (``Game.match_measures``): its samples, one per thing counted."""

    #: its name in the run's JSON
    key: str
    #: what it is, in words (the report's row)
    label: str
    #: ``count``: the number of samples; ``mean``: their mean; ``share``: the share of
    #: samples that are 1 (each 1 or 0)
    kind: Literal["count", "mean", "share"]
    values: tuple[float, ...]


@dataclass(frozen=True)
class MatchMeasures:
    """What a run of matches shows of a game's own bookkeeping: the report's section title
    and its figures."""

    title: str
    measures: tuple[MatchMeasure, ...] = ()
