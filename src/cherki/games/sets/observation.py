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
    top_available: bool
    calls: list[str | None]
    call_changed: list[bool]
    claim_card: int
    drawn: int
    _exposed_view: tuple[tuple[int, ...], ...] | None
    _melds_view: tuple[tuple[int, ...], ...] | None
    live_end: int
    pos: int
    pot: int

    def _exposed_now(self) -> tuple[tuple[int, ...], ...]: ...
    def _melds_now(self) -> tuple[tuple[int, ...], ...]: ...


class StateCode:
    """A state's encoded observations without building the observations: what
    ``SetsObservation.encode`` gives, from blocks kept between steps.

    * The per-seat views ``calls``, ``call_changed``, ``exposed`` and ``melds`` (most of the
      vector; they change only with a call, a take or a shown draw) are kept in one vector
      in table order, seat 0 first, and only the seats whose values changed since the last
      call are written again; each viewpoint's block is one ``take`` of it through that
      viewpoint's order of the seats, kept as bytes until one of those views changes.
    * The discard pile's counts are brought up to date from the cards added or taken at its
      end since the last call.
    * Every value of the vector is a small count (below 256; the stock and the pot are
      written after the conversion when larger), so the whole vector is one ``bytes``
      string joined from the block, the counts and prepared one-hot pieces, converted to
      float32 by one numpy call.

    Every state has its own (a clone starts afresh)."""

    __slots__ = (
        "_blocks",
        "_calls",
        "_changed",
        "_counts",
        "_exposed",
        "_kept",
        "_melds",
        "_offsets",
        "_order",
        "_pile",
        "_turns",
        "_width",
    )

    def __init__(self, players: int) -> None:
        self._offsets, self._order = _offsets(players)
        self._kept = np.zeros(len(self._order[0]), np.float32)
        self._pile: list[int] = []
        self._counts = bytearray(N_KINDS)
        self._calls: list[str | None] = []
        self._changed: list[bool] = []
        self._exposed: tuple[tuple[int, ...], ...] = ()
        self._melds: tuple[tuple[int, ...], ...] = ()
        #: each viewpoint's per-seat views as bytes (None: to be made again)
        self._blocks: list[bytes | None] = [None] * players
        #: the block's width, and the one-hot turn of each seat relative to the viewer
        #: (the last: nobody's turn)
        self._width = self._offsets[4] - self._offsets[0]
        self._turns = [bytes(int(i == j) for j in range(players)) for i in range(players + 1)]

    def encode(self, st: _Table, seat: int) -> Vector:
        """The vector of ``seat``'s observation of ``st`` (``NOBODY``: the public view)."""
        at = seat if seat >= 0 else 0
        if (
            st._exposed_view is not self._exposed
            or st._melds_view is not self._melds
            or st.calls != self._calls
            or st.call_changed != self._changed
        ):
            self._refresh(st)
        block = self._blocks[at]
        if block is None:  # the per-seat views from this viewpoint, as bytes till they change
            block = self._blocks[at] = self._block_bytes(at)
        pile = st.pile
        if pile != self._pile:
            self._pile_counts(pile)
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
                    self._counts,
                    _ONE_HOT_BYTES[pile[-1]] if pile and st.top_available else _NO_CARD_BYTES,
                    sizes[at:],
                    sizes[:at],
                    block,
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
            o_stock, o_pot = self._offsets[6:8]
            out[o_stock] = stock
            out[o_pot] = pot
        return out

    def _block_bytes(self, at: int) -> bytes:
        """The kept per-seat views seen from seat ``at``, as bytes."""
        o = self._offsets[0]
        view = self._kept.take(self._order[at][o : o + self._width])
        return view.astype(np.uint8).tobytes()

    def _refresh(self, st: _Table) -> None:
        """The kept per-seat views brought up to date (only the seats that changed); the
        viewpoints' bytes made again after a change."""
        kept = self._kept
        n = st.n
        o_calls, o_changed, o_exposed, o_melds = self._offsets[:4]
        fresh = False
        calls = st.calls
        if calls != self._calls:
            for t, c in enumerate(calls):
                kept[o_calls + 2 * t] = c == "tan"
                kept[o_calls + 2 * t + 1] = c == "ceki"
            self._calls = calls[:]
            fresh = True
        changed = st.call_changed
        if changed != self._changed:
            kept[o_changed : o_changed + n] = changed
            self._changed = changed[:]
            fresh = True
        now = st._exposed_now()
        if now is not self._exposed:
            self._exposed = self._write(now, self._exposed, o_exposed)
            fresh = True
        now = st._melds_now()
        if now is not self._melds:
            self._melds = self._write(now, self._melds, o_melds)
            fresh = True
        if fresh:
            self._blocks = [None] * n

    def _write(
        self, now: tuple[tuple[int, ...], ...], old: tuple[tuple[int, ...], ...], o: int
    ) -> tuple[tuple[int, ...], ...]:
        """A per-seat view's seats that changed written into the kept vector."""
        kept = self._kept
        for t, row in enumerate(now):
            if not old or row != old[t]:
                kept[o + N_KINDS * t : o + N_KINDS * (t + 1)] = row
        return now

    def _pile_counts(self, pile: list[int]) -> None:
        """The discard pile's counts (a ``bytearray``) brought up to date with ``pile``."""
        seen, counts = self._pile, self._counts
        ls, lp = len(seen), len(pile)
        # the pile changes only at its end, most often by one card added or taken
        if lp == ls + 1 and pile[:ls] == seen:
            counts[pile[-1]] += 1
            seen.append(pile[-1])
            return
        if lp == ls - 1 and seen[:lp] == pile:
            counts[seen.pop()] -= 1
            return
        # else the longest common start, found from the end
        m = min(ls, lp)
        for _ in range(4):
            if seen[:m] == pile[:m]:
                break
            m -= 1
        else:
            m = 0
            counts = self._counts = bytearray(N_KINDS)
            seen = []
        for k in seen[m:]:
            counts[k] -= 1
        for k in pile[m:]:
            counts[k] += 1
        self._pile = pile[:]


@cache
def _offsets(players: int) -> tuple[tuple[int, ...], tuple[np.ndarray, ...]]:
    """Where :class:`StateCode` writes: the starts of the ``calls``, ``call_changed``,
    ``exposed`` and ``melds`` views (one block, right after ``own_hand``, ``discards``,
    ``top_discard`` and ``hand_sizes``), then of ``claim_card``, ``drawn``, ``stock``,
    ``pot``, ``turn`` and ``phase``; and for each viewpoint the index of every entry of its
    vector in the kept one (the block's per-seat views in table order)."""
    n = players
    layout = sets_layout(n)
    at = {name: cut.start for name, cut in layout.slices().items()}
    names = [name for name, _ in layout.views]
    head = ["own_hand", "discards", "top_discard", "hand_sizes"]
    assert names[:8] == [*head, "calls", "call_changed", "exposed", "melds"], names
    keys = ["calls", "call_changed", "exposed", "melds", "claim_card", "drawn", "stock"]
    keys += ["pot", "turn", "phase"]
    orders = []
    for v in range(n):
        index = np.arange(layout.size)
        for name, width in (("calls", 2), ("call_changed", 1), ("exposed", N_KINDS)):
            for name_ in (name, "melds") if name == "exposed" else (name,):
                o = at[name_]
                for i in range(n):
                    t = (v + i) % n
                    index[o + width * i : o + width * (i + 1)] = np.arange(
                        o + width * t, o + width * (t + 1)
                    )
        orders.append(index)
    return tuple(at[k] for k in keys), tuple(orders)


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
