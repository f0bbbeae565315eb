"""What happens in a hand (events) and how it ends (results): data, never sentences."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cherki.core.cards import card_name


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``card`` is hidden (``None``) from seats other than
    ``private_to`` when the event is private to one seat."""

    kind: str
    seat: int = -1
    card: int | None = None
    text: str = ""
    private_to: int = -1

    def seen_by(self, seat: int) -> Event:
        """The event as ``seat`` sees it."""
        if self.private_to >= 0 and seat != self.private_to and self.card is not None:
            return dataclasses.replace(self, card=None)
        return self

    def describe(self, names: Sequence[str] | None = None) -> str:
        who = names[self.seat] if names and 0 <= self.seat < len(names) else f"seat {self.seat}"
        card = card_name(self.card) if self.card is not None else "a card"
        base = {
            "draw": f"{who} draws {card} from the stock",
            "reveal": f"{who} draws {card} from the stock and shows it",
            "take": f"{who} takes the discard {card}",
            "discard": f"{who} discards {card}",
        }.get(self.kind)
        if base is None:
            base = f"{who}: {self.text}" if self.seat >= 0 else self.text
        elif self.text:
            base += f" ({self.text})"
        return base


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One line of a score: a label and the points it adds (or the factor it applies)."""

    label: str
    points: int
    multiplier: int = 1


@dataclass(frozen=True)
class Result:
    """How a hand ended and who pays whom.

    ``payments`` are points per seat (zero-sum); ``money`` the same in cents at the rules'
    rate. ``how`` is a short machine word (``self-draw``, ``claim``, ``kandang-tangan``,
    ``stock-out``, ``yeo``...), ``summary`` a sentence for people.
    """

    winner: int | None
    how: str
    summary: str
    items: tuple[ScoreItem, ...] = ()
    total: int = 0
    payments: tuple[int, ...] = ()
    money: tuple[int, ...] = ()
    redeal: bool = False
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "how": self.how,
            "summary": self.summary,
            "items": [
                {"label": i.label, "points": i.points, "multiplier": i.multiplier}
                for i in self.items
            ],
            "total": self.total,
            "payments": list(self.payments),
            "money_cents": list(self.money),
            "redeal": self.redeal,
            "detail": dict(self.detail),
        }
