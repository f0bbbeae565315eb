"""What one seat of a game of sets may know."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cherki.core.cards import (
    N_KINDS,
    card_name,
    format_cards,
    format_hand,
)
from cherki.core.events import Result
from cherki.games.sets.actions import FROM_DEAL
from cherki.games.sets.rules import SetsRules


# -- observation ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SetsObservation:
    """What one seat may know. Other seats' hands appear only as sizes and the cards they
    are publicly known to hold (``exposed``: discards they took and draws shown to all)."""

    seat: int
    players: int
    current: int
    phase: str
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    stock_left: int
    pile: tuple[int, ...]
    top_available: bool
    calls: tuple[str | None, ...]
    call_changed: tuple[bool, ...]
    exposed: tuple[tuple[int, ...], ...]
    claim_card: int | None
    drawn: int | None
    legal: tuple[int, ...]
    half_packs: int
    honours: str = "rank1"
    result: Result | None = None
    rules: SetsRules = field(default_factory=SetsRules)
    first: int = 0
    call_order: tuple[int, ...] = ()
    pile_seats: tuple[int, ...] = ()
    drawn_from: int = FROM_DEAL
    claimants: tuple[int, ...] = ()
    claim_drawer: int = -1
    #: the relatives: cards laid face up in exposed olo (Chaqui), whether the card offered
    #: for a claim is a discard, the game's names for the two calls, the pot, the match context
    melds: tuple[tuple[int, ...], ...] = ()
    claim_from_discard: bool = False
    call_names: tuple[str, str] = ("tan", "ceki")
    pot: int = 0
    context: Mapping[str, Any] | None = None

    @property
    def top(self) -> int | None:
        return self.pile[-1] if self.pile and self.top_available else None

    def table_lines(self) -> list[str]:
        """The public table, in card notation."""
        lines = [f"Stock: {self.stock_left} cards to play"]
        top = self.top
        lines.append(f"Last discard: {card_name(top) if top is not None else '-'}")
        if self.pile:
            lines.append(
                "Discards: "
                + format_cards(self.pile[-12:])
                + (" ..." if len(self.pile) > 12 else "")
            )
        for s in range(self.players):
            bits = [f"{self.hand_sizes[s]} cards"]
            call = self.calls[s]
            if call:
                name = self.call_names[0 if call == "tan" else 1]
                bits.append(f"called {name}" + (" (changed)" if self.call_changed[s] else ""))
            if self.melds and any(self.melds[s]):
                bits.append("exposed olo " + format_hand(self.melds[s]))
            if any(self.exposed[s]):
                bits.append("known to hold " + format_hand(self.exposed[s]))
            lines.append(f"Seat {s}: " + ", ".join(bits))
        if self.claim_card is not None:
            what = "Discard" if self.claim_from_discard else "Shown draw"
            lines.append(f"{what}: {card_name(self.claim_card)} (a winning card for a caller)")
        if self.pot:
            lines.append(f"Pot: {self.pot}")
        return lines

    def unseen(self) -> list[int]:
        """Copies of each kind this seat has not seen (still in the stock or hidden hands)."""
        out = [self.half_packs - self.hand[k] for k in range(N_KINDS)]
        for k in self.pile:
            out[k] -= 1
        for s, ex in enumerate(self.exposed):
            if s != self.seat:
                for k in range(N_KINDS):
                    out[k] -= ex[k]
        if self.claim_card is not None:
            out[self.claim_card] -= 1
        return [max(0, c) for c in out]
