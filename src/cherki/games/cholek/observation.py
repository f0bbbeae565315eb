"""What one seat of Cholek Tiga may know."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from cherki.core.cards import (
    N_KINDS,
)
from cherki.core.encoding import (
    Encoder,
    Layout,
    Vector,
    base_json,
    code,
    codes,
    relative,
    viewpoint,
)
from cherki.core.events import JSON, Result
from cherki.games.cholek.actions import action_text
from cherki.games.cholek.rules import HALF_PACKS, PHASE_NAMES, CholekRules


# -- observation ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CholekObservation:
    """What one seat may know: its hand; the pool, every seat's captures, the card on the
    table waiting for a capture decision and the bonuses paid so far are public. The public
    view (``seat`` -1) has no hand and no legal actions."""

    #: the fields about the observing seat itself (empty in the public view)
    own_fields: ClassVar[tuple[str, ...]] = ("seat", "hand", "legal")

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
    game: str = "cholek-tiga"

    @property
    def drawn(self) -> int | None:
        """Cholek Tiga has no drawn card to act on (cards drawn are dealt to the hand)."""
        return None

    @property
    def drawn_from(self) -> int:
        return 0

    def unseen(self) -> list[int]:
        """Copies of each kind not in this seat's hand, the pool, any capture or on the table."""
        out = [HALF_PACKS - self.hand[k] - self.pool[k] for k in range(N_KINDS)]
        for cap in self.captured:
            for k in range(N_KINDS):
                out[k] -= cap[k]
        if self.active is not None:
            out[self.active] -= 1
        return [max(0, c) for c in out]

    # -- data forms ---------------------------------------------------------------------
    def to_json(self) -> dict[str, JSON]:
        """The observation as JSON data (schema ``cherki-observation/1``,
        docs/observations.md)."""
        out = base_json(self, action_text)
        out.update(
            pool=codes(self.pool),
            captured=[codes(c) for c in self.captured],
            active=code(self.active),
            active_from=self.active_from,
            bonus_money_cents=list(self.bonus_money),
            last_capturer=self.last_capturer,
            rounds=self.rounds,
            result=self.result.to_json() if self.result is not None else None,
        )
        return out

    def encode(self) -> Vector:
        """The observation as one float32 vector (views: :func:`cholek_layout`)."""
        n = self.players
        order = relative(self.seat, n)
        enc = Encoder(cholek_layout(n))
        enc.put("own_hand", self.hand)
        enc.put("pool", self.pool)
        enc.one_hot("active", self.active)
        enc.put("active_from", [self.active_from == "hand", self.active_from == "stock"])
        enc.put("hand_sizes", [self.hand_sizes[t] for t in order])
        enc.put("captured", [c for t in order for c in self.captured[t]])
        enc.put("bonus_money", [self.bonus_money[t] / 100 for t in order])
        enc.put("stock", [self.stock_left])
        turn = (self.current - viewpoint(self.seat)) % n if self.current >= 0 else None
        enc.one_hot("turn", turn)
        enc.one_hot("phase", PHASE_NAMES.index(self.phase))
        return enc.done()


def cholek_layout(players: int) -> Layout:
    """The encoded observation of Cholek Tiga: ``own_hand`` and ``pool`` (30 counts),
    ``active`` (the card on the table, one-hot) and ``active_from`` (hand, stock), per seat
    from the observer round the table ``hand_sizes``, ``captured`` (30 counts each) and
    ``bonus_money`` (in dollars), ``stock``, ``turn`` (one-hot, relative), ``phase``
    (discard, capture, turn, over)."""
    n = players
    return Layout(
        (
            ("own_hand", N_KINDS),
            ("pool", N_KINDS),
            ("active", N_KINDS),
            ("active_from", 2),
            ("hand_sizes", n),
            ("captured", N_KINDS * n),
            ("bonus_money", n),
            ("stock", 1),
            ("turn", n),
            ("phase", len(PHASE_NAMES)),
        )
    )
