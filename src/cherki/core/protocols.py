"""What a seat sees and what a match keeps, as protocols every game's classes meet: a
seat's :class:`Observation`, a match's :class:`Ledger` and the :class:`MatchNote` s it
announces. They sit below both the contract (:mod:`cherki.core.contract`, which re-exports
them) and the views (:mod:`cherki.core.view`), which both read them."""

from __future__ import annotations

from typing import ClassVar, Protocol

from cherki.core.encoding import Vector
from cherki.core.events import JSON, Result

__all__ = ["Ledger", "MatchNote", "Observation"]


class Observation(Protocol):
    """What every game's observation offers front ends, bots and adapters.

    Games add their own fields (discard pile, calls, pool...). ``hand`` is the seat's own
    hand as a 30-long count vector; ``legal`` the seat's legal action ids (empty when it is
    not to act); ``drawn`` the card the seat just drew or took (``drawn_from`` says which:
    an :class:`~cherki.core.events.Origin`).

    ``own_fields`` names the fields (and JSON keys) about the observing seat itself; the
    public view (``seat == NOBODY``) gives them a seat's "nothing": ``seat`` null in JSON, an
    empty hand, no legal actions, ``drawn`` None, ``drawn_from`` none. Every other field is
    the same for every seat and the public view.
    """

    own_fields: ClassVar[tuple[str, ...]]

    @property
    def seat(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def current(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def hand(self) -> tuple[int, ...]: ...
    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds (public)."""
        ...

    @property
    def stock_left(self) -> int:
        """How many cards are left to draw (public)."""
        ...

    @property
    def legal(self) -> tuple[int, ...]: ...
    @property
    def result(self) -> Result | None: ...
    @property
    def drawn(self) -> int | None: ...
    @property
    def drawn_from(self) -> int: ...

    def unseen(self) -> list[int]:
        """Copies of each kind this seat has not seen."""
        ...

    def to_json(self) -> dict[str, JSON]:
        """The observation as JSON data (``docs/observations.md``)."""
        ...

    def encode(self) -> Vector:
        """The observation as one float32 vector laid out by ``game.observation_layout``."""
        ...


class MatchNote(Protocol):
    """Something a match ledger announces after a hand (a bangkong completed)."""

    @property
    def kind(self) -> str: ...

    def to_json(self) -> dict[str, JSON]: ...


class Ledger(Protocol):
    """A game's match-level bookkeeping beyond adding up payments (Chot's bangkong)."""

    def add(self, result: Result) -> list[MatchNote]:
        """Take a finished hand's result; return what to announce."""
        ...

    def context(self) -> dict[str, JSON]:
        """What the next hand's context holds from the ledger."""
        ...

    def is_over(self) -> bool:
        """Whether the game's own match rule is met (a fixed number of bangkong)."""
        ...

    def money(self) -> list[int]:
        """Each seat's money in cents as settled so far."""
        ...

    def to_json(self) -> dict[str, JSON]: ...
