"""What one seat of Ceki may know."""

from __future__ import annotations

from dataclasses import dataclass, field

from cherki.core.cards import (
    N_KINDS,
    card_name,
    format_cards,
    format_hand,
)
from cherki.core.events import Result
from cherki.games.ceki.rules import HALF_PACKS, CekiRules


# -- observation ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CekiObservation:
    """What one seat may know: its own hand, the discards, who called and how many cards each
    caller laid face down, and the cards others are known to hold (discards they took)."""

    seat: int
    players: int
    current: int
    phase: str
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    stock_left: int
    pile: tuple[int, ...]
    pile_seats: tuple[int, ...]
    top_available: bool
    top_straight: bool
    called: tuple[bool, ...]
    called_at: tuple[int, ...]
    laid_count: tuple[int, ...]
    laid: tuple[int, ...]
    exposed: tuple[tuple[int, ...], ...]
    drawn: int | None
    legal: tuple[int, ...]
    first: int
    honours: str = "own"
    result: Result | None = None
    rules: CekiRules = field(default_factory=lambda: CekiRules())
    drawn_from: int = 0
    taken_straight: bool = False

    @property
    def top(self) -> int | None:
        return self.pile[-1] if self.pile and self.top_available else None

    def table_lines(self) -> list[str]:
        """The public table, in card notation."""
        lines = [
            f"Pile: {self.stock_left} cards",
            f"Dealer: seat {(self.first - 1) % self.players}",
        ]
        top = self.top
        if top is not None:
            how = "thrown straight after drawing" if self.top_straight else "from the hand"
            lines.append(f"Last discard: {card_name(top)} ({how})")
        else:
            lines.append("Last discard: -")
        if self.pile:
            tail = self.pile[-12:]
            lines.append(
                "Discards: " + format_cards(tail) + (" ..." if len(self.pile) > 12 else "")
            )
        for s in range(self.players):
            bits = [f"{self.hand_sizes[s]} cards"]
            if self.called[s]:
                bits.append(f"called ceki, {self.laid_count[s]} cards face down")
            if any(self.exposed[s]) and s != self.seat:
                bits.append("known to hold " + format_hand(self.exposed[s]))
            lines.append(f"Seat {s}: " + ", ".join(bits))
        if any(self.laid):
            lines.append("Your cards face down: " + format_hand(self.laid))
        return lines

    def unseen(self) -> list[int]:
        """Copies of each kind this seat has not seen (in the pile or hidden in hands)."""
        out = [HALF_PACKS - self.hand[k] for k in range(N_KINDS)]
        for k in self.pile:
            out[k] -= 1
        for s, ex in enumerate(self.exposed):
            if s != self.seat:
                for k in range(N_KINDS):
                    out[k] -= ex[k]
        return [max(0, c) for c in out]
