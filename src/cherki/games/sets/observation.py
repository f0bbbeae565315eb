"""What one seat of a game of sets may know."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from functools import cache, partial
from typing import Any, ClassVar, Protocol

import numpy as np

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
from cherki.games.sets.actions import CALL_WORDS, FROM_DEAL, PHASE_NAMES, action_text
from cherki.games.sets.rules import MAX_PLAYERS, SetsRules


# -- observation ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SetsObservation:
    """What one seat may know. Other seats' hands appear only as sizes and the cards they
    are publicly known to hold (``exposed``: discards they took and draws shown to all).
    The public view (``seat`` -1) has no hand, drawn card or legal actions."""

    #: the fields about the observing seat itself (empty in the public view)
    own_fields: ClassVar[tuple[str, ...]] = ("seat", "hand", "legal", "drawn", "drawn_from")

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
    #: the game's words for the two calls in its action notation (``Game.call_words``)
    call_words: tuple[str, str] = CALL_WORDS
    pot: int = 0
    context: Mapping[str, Any] | None = None
    #: the game's name (for the JSON form and action notation)
    game: str = "balik-satu"

    @classmethod
    def from_values(cls, values: tuple[Any, ...]) -> SetsObservation:
        """An observation from every field's value in declared order, without the keyword
        call and the frozen class's checked setting (the state builds one at every step)."""
        return _make(cls, values)

    @property
    def top(self) -> int | None:
        return self.pile[-1] if self.pile and self.top_available else None

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

    # -- data forms ---------------------------------------------------------------------
    def to_json(self) -> dict[str, JSON]:
        """The observation as JSON data (schema ``cherki-observation/1``,
        docs/observations.md)."""
        out = base_json(self, partial(action_text, call_words=self.call_words))
        claim = None
        if self.claim_card is not None:
            claim = {
                "card": code(self.claim_card),
                "from_discard": self.claim_from_discard,
                "offered_by": self.claim_drawer,
                "deciding": list(self.claimants),
            }
        out.update(
            pile=[code(k) for k in self.pile],
            pile_seats=list(self.pile_seats),
            top=code(self.top),
            calls=list(self.calls),
            call_names=list(self.call_names),
            call_changed=list(self.call_changed),
            call_order=list(self.call_order),
            exposed=[codes(e) for e in self.exposed],
            melds=[codes(m) for m in self.melds] if self.melds else [[]] * self.players,
            claim=claim,
            drawn=code(self.drawn),
            drawn_from=ORIGINS[self.drawn_from],
            pot=self.pot,
            result=self.result.to_json() if self.result is not None else None,
        )
        return out

    def encode(self) -> Vector:
        """The observation as one float32 vector (views: :func:`sets_layout`)."""
        n = self.players
        size, at = _slices(n)
        out = np.zeros(size, dtype=np.float32)
        at_seat = viewpoint(self.seat)
        order = _ORDERS[n][at_seat]
        out[at["own_hand"]] = self.hand
        if self.pile:
            out[at["discards"]] = np.bincount(self.pile, minlength=N_KINDS)
        top = self.top
        if top is not None:
            out[at["top_discard"].start + top] = 1
        out[at["hand_sizes"]] = np.asarray(self.hand_sizes)[order]
        calls = self.calls
        two = np.array([(calls[t] == "tan", calls[t] == "ceki") for t in order], np.float32)
        out[at["calls"]] = two.ravel()
        out[at["call_changed"]] = np.asarray(self.call_changed)[order]
        out[at["exposed"]] = np.asarray(self.exposed)[order].ravel()
        if self.melds:
            out[at["melds"]] = np.asarray(self.melds)[order].ravel()
        if self.claim_card is not None:
            out[at["claim_card"].start + self.claim_card] = 1
        if self.drawn is not None:
            out[at["drawn"].start + self.drawn] = 1
        out[at["stock"].start] = self.stock_left
        out[at["pot"].start] = self.pot
        if self.current >= 0:
            out[at["turn"].start + (self.current - at_seat) % n] = 1
        out[at["phase"].start + PHASE_NAMES.index(self.phase)] = 1
        return out


# -- the fast path: a state's vector without its observation ---------------------------------
class _Table(Protocol):
    """What :class:`StateCode` reads of a :class:`~cherki.games.sets.state.SetsState`."""

    n: int
    current: int
    phase: int
    hands: list[list[int]]
    totals: list[list[int]]
    pile: list[int]
    pile_counts: bytearray
    top_available: bool
    calls: list[str | None]
    call_changed: list[bool]
    exposed: list[list[int]]
    melded: list[list[int]]
    _shown: int
    claim_card: int
    drawn: int
    live_end: int
    pos: int
    pot: int


class StateCode:
    """A state's encoded observations without building the observations: what
    ``SetsObservation.encode`` gives, from blocks kept between steps.

    * The per-seat views ``calls``, ``call_changed``, ``exposed`` and ``melds`` (most of the
      vector) are kept as one ``bytearray`` block per viewpoint, the seats in that
      viewpoint's order. They change only with a call, a take or a shown draw: the state
      marks each seat whose ``exposed`` or ``melded`` cards change (``_shown``, bits this
      clears when it reads them), and that seat's rows are written again into every
      viewpoint's block at that seat's place. The calls are compared at every call (a few
      values).
    * The discard pile's counts are the state's own (``pile_counts``, kept with every card
      added or taken).
    * Every value of the vector is a small count (below 256; the stock and the pot are
      written after the conversion when larger), so the whole vector is one ``bytes``
      string joined from the block, the counts and prepared one-hot pieces, converted to
      float32 by one numpy call.

    Every state has its own (a clone starts afresh)."""

    __slots__ = (
        "_blocks",
        "_calls",
        "_changed",
        "_n",
        "_o_stock",
        "_turns",
    )

    def __init__(self, st: _Table) -> None:
        n = self._n = st.n
        #: each viewpoint's block: calls (2 a seat), call_changed (1), exposed, melds (30)
        self._blocks = [bytearray((3 + 2 * N_KINDS) * n) for _ in range(n)]
        #: what the blocks hold, in table order (all zero: no call, nothing shown)
        self._calls: list[str | None] = [None] * n
        self._changed = [False] * n
        self._o_stock = _slices(n)[1]["stock"].start
        #: the one-hot turn of each seat relative to the viewer (the last: nobody's turn)
        self._turns = [bytes(int(i == j) for j in range(n)) for i in range(n + 1)]
        st._shown = (1 << n) - 1  # every seat's rows written at the first call
        self._refresh(st)

    def encode(self, st: _Table, seat: int) -> Vector:
        """The vector of ``seat``'s observation of ``st`` (``NOBODY``: the public view)."""
        at = seat if seat >= 0 else 0
        if st._shown or st.calls != self._calls or st.call_changed != self._changed:
            self._refresh(st)
        pile = st.pile
        sizes = bytes(map(sum, st.totals))
        cur = st.current
        stock = st.live_end - st.pos
        if stock < 0:
            stock = 0
        pot = st.pot
        # every value is a count below 256 (but the stock and the pot, written after when
        # larger): one bytes string, converted to float32 at once
        out = np.frombuffer(
            b"".join(
                (
                    bytes(st.hands[seat]) if seat >= 0 else _NO_CARD_BYTES,
                    st.pile_counts,
                    _ONE_HOT_BYTES[pile[-1]] if pile and st.top_available else _NO_CARD_BYTES,
                    sizes[at:],
                    sizes[:at],
                    self._blocks[at],
                    _ONE_HOT_BYTES[st.claim_card] if st.claim_card >= 0 else _NO_CARD_BYTES,
                    _ONE_HOT_BYTES[st.drawn]
                    if st.drawn >= 0 and seat == cur and seat >= 0
                    else _NO_CARD_BYTES,
                    bytes((stock if stock < 256 else 0, pot if 0 <= pot < 256 else 0)),
                    self._turns[(cur - at) % st.n] if cur >= 0 else self._turns[-1],
                    _PHASE_BYTES[st.phase],
                )
            ),
            np.uint8,
        ).astype(np.float32)
        if stock > 255 or not 0 <= pot < 256:
            out[self._o_stock] = stock
            out[self._o_stock + 1] = pot
        return out

    def _refresh(self, st: _Table) -> None:
        """The blocks brought up to date: each seat whose calls or shown cards changed
        written again at its place in every viewpoint's block."""
        n = self._n
        blocks = self._blocks
        calls, kept = st.calls, self._calls
        if calls != kept:
            for t, c in enumerate(calls):
                if c != kept[t]:
                    two = bytes((c == "tan", c == "ceki"))
                    for v, block in enumerate(blocks):
                        i = 2 * ((t - v) % n)
                        block[i : i + 2] = two
            self._calls = calls[:]
        changed, kept_changed = st.call_changed, self._changed
        if changed != kept_changed:
            for t, flag in enumerate(changed):
                if flag != kept_changed[t]:
                    for v, block in enumerate(blocks):
                        block[2 * n + (t - v) % n] = flag
            self._changed = changed[:]
        shown = st._shown
        if shown:
            st._shown = 0
            o_exposed, o_melds = 3 * n, (3 + N_KINDS) * n
            for t in range(n):
                if shown >> t & 1:
                    self._row(t, st.exposed[t], o_exposed)
                    self._row(t, st.melded[t], o_melds)

    def _row(self, t: int, row: list[int], o: int) -> None:
        """Seat ``t``'s row of a per-seat view written at its place in every viewpoint's
        block (``o``: where the view starts in a block)."""
        n = self._n
        data = bytes(row)
        for v, block in enumerate(self._blocks):
            i = o + N_KINDS * ((t - v) % n)
            block[i : i + N_KINDS] = data


#: a card view with no card, each card's one-hot view, and each phase's, as bytes
_NO_CARD_BYTES = bytes(N_KINDS)
_ONE_HOT_BYTES = [bytes(int(k == j) for j in range(N_KINDS)) for k in range(N_KINDS)]
_PHASE_BYTES = [
    bytes(int(p == j) for j in range(len(PHASE_NAMES))) for p in range(len(PHASE_NAMES))
]


def _maker() -> Callable[[type[SetsObservation], tuple[Any, ...]], SetsObservation]:
    """A function that sets every slot from a tuple in declared order, written out field by
    field (as ``dataclasses`` writes ``__init__``): the frozen class's setting bypassed."""
    names = [f.name for f in fields(SetsObservation)]
    scope: dict[str, Any] = {"new": object.__new__, "count": len(names)}
    lines = ["def make(cls, v):", "    if len(v) != count:", "        raise ValueError(v)"]
    lines.append("    o = new(cls)")
    for i, name in enumerate(names):
        scope[f"set_{i}"] = getattr(SetsObservation, name).__set__
        lines.append(f"    set_{i}(o, v[{i}])")
    lines.append("    return o")
    exec("\n".join(lines), scope)
    make: Callable[[type[SetsObservation], tuple[Any, ...]], SetsObservation] = scope["make"]
    return make


_make = _maker()


def _encode_by_views(obs: SetsObservation) -> Vector:
    """The same vector built view by view with the layout's checks (the reference the fast
    :meth:`SetsObservation.encode` is tested against)."""
    n = obs.players
    order = relative(obs.seat, n)
    enc = Encoder(sets_layout(n))
    enc.put("own_hand", obs.hand)
    enc.put("discards", counts_of(obs.pile))
    enc.one_hot("top_discard", obs.top)
    enc.put("hand_sizes", [obs.hand_sizes[t] for t in order])
    enc.put("calls", [x for t in order for x in (obs.calls[t] == "tan", obs.calls[t] == "ceki")])
    enc.put("call_changed", [obs.call_changed[t] for t in order])
    enc.put("exposed", [c for t in order for c in obs.exposed[t]])
    melds = obs.melds or ((0,) * N_KINDS,) * n
    enc.put("melds", [c for t in order for c in melds[t]])
    enc.one_hot("claim_card", obs.claim_card)
    enc.one_hot("drawn", obs.drawn)
    enc.put("stock", [obs.stock_left])
    enc.put("pot", [obs.pot])
    enc.one_hot("turn", (obs.current - viewpoint(obs.seat)) % n if obs.current >= 0 else None)
    enc.one_hot("phase", PHASE_NAMES.index(obs.phase))
    return enc.done()


#: the seats round the table from each seat, by table size (as numpy index arrays)
_ORDERS: dict[int, list[np.ndarray]] = {
    n: [np.array(relative(s, n)) for s in range(n)] for n in range(2, MAX_PLAYERS + 1)
}


@cache
def _slices(players: int) -> tuple[int, dict[str, slice]]:
    layout = sets_layout(players)
    return layout.size, layout.slices()


@cache
def sets_layout(players: int) -> Layout:
    """The encoded observation of a game of sets at a table of ``players``: card views of 30
    counts (``own_hand``, ``discards``), one-hot cards (``top_discard``, ``claim_card``,
    ``drawn``), per-seat views from the observing seat round the table (``hand_sizes``;
    ``calls``: tan, ceki per seat; ``call_changed``; ``exposed`` and ``melds``: 30 counts per
    seat), ``stock`` (cards left to play), ``pot``, ``turn`` (one-hot, relative) and
    ``phase`` (draw, discard, claim, over)."""
    n = players
    return Layout(
        (
            ("own_hand", N_KINDS),
            ("discards", N_KINDS),
            ("top_discard", N_KINDS),
            ("hand_sizes", n),
            ("calls", 2 * n),
            ("call_changed", n),
            ("exposed", N_KINDS * n),
            ("melds", N_KINDS * n),
            ("claim_card", N_KINDS),
            ("drawn", N_KINDS),
            ("stock", 1),
            ("pot", 1),
            ("turn", n),
            ("phase", len(PHASE_NAMES)),
        )
    )
