"""What one seat of Cholek Tiga may know."""

from __future__ import annotations

from dataclasses import dataclass, field

from cherki.core.cards import (
    N_KINDS,
    card_name,
    format_hand,
)
from cherki.core.events import Result
from cherki.games.cholek.rules import HALF_PACKS, CholekRules


# -- observation ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CholekObservation:
    """What one seat may know: its hand; the pool, every seat's captures, the card on the
    table waiting for a capture decision and the bonuses paid so far are public."""

    seat: int
    players: int
    current: int
    phase: str
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    stock_left: int
    pool: tuple[int, ...]
    captured: tuple[tuple[int, ...], ...]
    active: int | None
    active_from: str | None
    bonus_money: tuple[int, ...]
    legal: tuple[int, ...]
    first: int
    honours: str = "rank1"
    result: Result | None = None
    rules: CholekRules = field(default_factory=lambda: CholekRules())
    last_capturer: int = -1
    rounds: int = 0

    def table_lines(self) -> list[str]:
        lines = [f"Stock: {self.stock_left} cards"]
        lines.append("Pool: " + (format_hand(self.pool) or "-"))
        if self.active is not None:
            src = "discarded" if self.active_from == "hand" else "turned up"
            lines.append(f"On the table: {card_name(self.active)} ({src}), may capture")
        for s in range(self.players):
            cap = format_hand(self.captured[s]) or "-"
            bits = [f"{self.hand_sizes[s]} in hand", f"captured {cap}"]
            if self.bonus_money[s]:
                bits.append(f"bonuses {self.bonus_money[s]:+d}¢")
            lines.append(f"Seat {s}: " + ", ".join(bits))
        return lines

    def unseen(self) -> list[int]:
        """Copies of each kind not in this seat's hand, the pool, any capture or on the table."""
        out = [HALF_PACKS - self.hand[k] - self.pool[k] for k in range(N_KINDS)]
        for cap in self.captured:
            for k in range(N_KINDS):
                out[k] -= cap[k]
        if self.active is not None:
            out[self.active] -= 1
        return [max(0, c) for c in out]
