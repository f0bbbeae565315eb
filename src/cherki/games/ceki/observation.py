"""What one seat of Ceki may know."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from cherki.core.cards import (
    N_KINDS,
    counts_of,
)
from cherki.core.encoding import (
    ORIGINS,
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
from cherki.games.ceki.actions import action_text
from cherki.games.ceki.rules import HALF_PACKS, PHASE_NAMES, CekiRules


# -- observation ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CekiObservation:
    """What one seat may know: its own hand, the discards, who called and how many cards each
    caller laid face down, and the cards others are known to hold (discards they took). The
    public view (``seat`` -1) has no hand, laid cards, drawn card or legal actions."""

    #: the fields about the observing seat itself (empty in the public view)
    own_fields: ClassVar[tuple[str, ...]] = (
        "seat",
        "hand",
        "legal",
        "laid",
        "drawn",
        "drawn_from",
        "taken_straight",
    )

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
    game: str = "ceki"

    @property
    def top(self) -> int | None:
        return self.pile[-1] if self.pile and self.top_available else None

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

    # -- data forms ---------------------------------------------------------------------
    def to_json(self) -> dict[str, JSON]:
        """The observation as JSON data (schema ``cherki-observation/1``,
        docs/observations.md)."""
        out = base_json(self, action_text)
        out.update(
            dealer=(self.first - 1) % self.players,
            pile=[code(k) for k in self.pile],
            pile_seats=list(self.pile_seats),
            top=code(self.top),
            top_straight=self.top_straight,
            called=list(self.called),
            laid_count=list(self.laid_count),
            laid=codes(self.laid),
            exposed=[codes(e) for e in self.exposed],
            drawn=code(self.drawn),
            drawn_from=ORIGINS[self.drawn_from],
            taken_straight=self.taken_straight,
            result=self.result.to_json() if self.result is not None else None,
        )
        return out

    def encode(self) -> Vector:
        """The observation as one float32 vector (views: :func:`ceki_layout`)."""
        n = self.players
        order = relative(self.seat, n)
        enc = Encoder(ceki_layout(n))
        enc.put("own_hand", self.hand)
        enc.put("laid", self.laid)
        enc.put("discards", counts_of(self.pile))
        enc.one_hot("top_discard", self.top)
        enc.put("top_straight", [self.top_straight])
        enc.put("hand_sizes", [self.hand_sizes[t] for t in order])
        enc.put("called", [self.called[t] for t in order])
        enc.put("laid_count", [self.laid_count[t] for t in order])
        enc.put("exposed", [c for t in order for c in self.exposed[t]])
        enc.one_hot("drawn", self.drawn)
        enc.put("stock", [self.stock_left])
        turn = (self.current - viewpoint(self.seat)) % n if self.current >= 0 else None
        enc.one_hot("turn", turn)
        enc.one_hot("phase", PHASE_NAMES.index(self.phase))
        return enc.done()


def ceki_layout(players: int) -> Layout:
    """The encoded observation of Ceki: ``own_hand`` and ``laid`` (the seat's own cards laid
    face down with its call), ``discards`` (30 counts), ``top_discard`` (one-hot) and
    ``top_straight``, per seat from the observer round the table ``hand_sizes``, ``called``,
    ``laid_count`` and ``exposed`` (30 counts each), ``drawn`` (one-hot), ``stock``, ``turn``
    (one-hot, relative), ``phase`` (draw, discard, over)."""
    n = players
    return Layout(
        (
            ("own_hand", N_KINDS),
            ("laid", N_KINDS),
            ("discards", N_KINDS),
            ("top_discard", N_KINDS),
            ("top_straight", 1),
            ("hand_sizes", n),
            ("called", n),
            ("laid_count", n),
            ("exposed", N_KINDS * n),
            ("drawn", N_KINDS),
            ("stock", 1),
            ("turn", n),
            ("phase", len(PHASE_NAMES)),
        )
    )
