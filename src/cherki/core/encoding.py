"""The flat numeric form of an observation, for learning agents.

An observation's :meth:`encode` gives one ``float32`` vector; its game's
:class:`Layout` (from the rules and the number of players, so every observation of a table
has the same length) names the *views* that make it up, in order: ``own_hand`` (30 counts),
``discards``, ``calls``, ``exposed``, ``stock``, ``turn``... Each game documents its views in
``docs/observations.md``; :meth:`Layout.view` cuts one out of a vector. Views about seats
are laid out from the observing seat round the table (itself first), so a learner sees the
same layout wherever it sits; the public view (seat ``-1``, nobody) lays them out from seat
0, its own card views (``own_hand``...) all zeros.

A game's layout (``Game.observation_layout(rules, players)``) also declares each view's
*bounds*, the least and the greatest value any of its entries may take at that table (a
count of one kind: at most the copies of it in the shoe; a one-hot: 0 or 1; the stock: at
most the shoe...). The research interfaces declare them as their ``Box`` spaces' ``low`` and
``high``, and the conformance suite checks every encoded observation against them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from cherki.core.cards import CODES
from cherki.core.events import JSON

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Layout:
    """The named views of an encoded observation: ``(name, length)`` in order, and (where
    the table is known) each view's ``(least, greatest)`` value, one pair a view."""

    views: tuple[tuple[str, int], ...]
    bounds: tuple[tuple[float, float], ...] = ()

    def __post_init__(self) -> None:
        if self.bounds and len(self.bounds) != len(self.views):
            raise ValueError(f"{len(self.bounds)} bounds for {len(self.views)} views")
        for (name, _), (lo, hi) in zip(self.views, self.bounds, strict=False):
            if not lo <= hi:
                raise ValueError(f"view {name!r}: least value {lo} above greatest {hi}")

    def bounded(self, **bounds: tuple[float, float]) -> Layout:
        """This layout with every view's bounds: ``bounds[name]`` for each view named, and
        (0, 1) for the others (one-hot and yes/no views). A view that holds one value at
        this table (the pot where the scoring has none) is bounded by that value and one
        more: Gymnasium takes a ``Box`` whose least and greatest values are equal for a
        mistake."""
        names = {name for name, _ in self.views}
        unknown = sorted(set(bounds) - names)
        if unknown:
            raise ValueError(f"no view named {', '.join(unknown)}")
        pairs = [bounds.get(name, (0.0, 1.0)) for name, _ in self.views]
        return Layout(
            self.views, tuple((float(lo), float(hi if hi > lo else lo + 1)) for lo, hi in pairs)
        )

    def low(self) -> Vector:
        """The least value of every entry (the bounds repeated over each view)."""
        return self._repeat(0)

    def high(self) -> Vector:
        """The greatest value of every entry."""
        return self._repeat(1)

    def _repeat(self, side: int) -> Vector:
        if not self.bounds:
            raise ValueError("this layout declares no bounds (Game.observation_layout does)")
        values = [b[side] for b in self.bounds]
        return np.repeat(np.array(values, np.float32), [n for _, n in self.views])

    @property
    def size(self) -> int:
        return sum(n for _, n in self.views)

    def slices(self) -> dict[str, slice]:
        out: dict[str, slice] = {}
        at = 0
        for name, n in self.views:
            out[name] = slice(at, at + n)
            at += n
        return out

    def view(self, vector: Vector, name: str) -> Vector:
        """The part of ``vector`` that is view ``name``."""
        return vector[self.slices()[name]]


class Encoder:
    """Builds one vector view by view, checking each against its layout."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.out = np.zeros(layout.size, dtype=np.float32)
        self._at = 0
        self._index = 0

    def put(self, name: str, values: Iterable[float] | Sequence[float]) -> None:
        want, n = self.layout.views[self._index]
        if want != name:
            raise ValueError(f"view {name!r} given where the layout has {want!r}")
        arr = np.asarray(list(values), dtype=np.float32)
        if arr.size != n:
            raise ValueError(f"view {name!r} has {arr.size} values, the layout {n}")
        self.out[self._at : self._at + n] = arr
        self._at += n
        self._index += 1

    def one_hot(self, name: str, index: int | None) -> None:
        """A one-hot view (all zeros when ``index`` is None or negative)."""
        _, n = self.layout.views[self._index]
        vals = [0.0] * n
        if index is not None and 0 <= index < n:
            vals[index] = 1.0
        self.put(name, vals)

    def done(self) -> Vector:
        if self._index != len(self.layout.views):
            missing = [name for name, _ in self.layout.views[self._index :]]
            raise ValueError(f"views not given: {', '.join(missing)}")
        return self.out


# -- helpers every observation's JSON and encoding share ------------------------------------
#: The schema every observation's ``to_json`` writes (``docs/observations.md``).
SCHEMA = "cherki-observation/1"

ORIGINS = ("none", "stock", "discard")


#: count vectors (as tuples) already written as codes: a hand is written for each of its
#: readers at every change of the table while it stays the same (issue 41's capacity)
_WRITTEN: dict[tuple[int, ...], tuple[str, ...]] = {}
#: at most this many kept (then they are forgotten at once)
_MAX_WRITTEN = 8192


def codes(counts: Sequence[int]) -> list[str]:
    """A count vector as card codes, in card order with repeats (``["C1", "C1", "S3"]``)."""
    if not any(counts):
        return []
    if type(counts) is not tuple:
        return [CODES[k] for k, c in enumerate(counts) if c for _ in range(c)]
    made = _WRITTEN.get(counts)
    if made is None:
        if len(_WRITTEN) >= _MAX_WRITTEN:
            _WRITTEN.clear()
        made = tuple(CODES[k] for k, c in enumerate(counts) if c for _ in range(c))
        _WRITTEN[counts] = made
    return list(made)


def code(card: int | None) -> str | None:
    return CODES[card] if card is not None else None


def viewpoint(seat: int) -> int:
    """The seat the views about seats are laid out from: the observing seat, or seat 0 for
    the public view (seat ``-1``, nobody)."""
    return seat if seat >= 0 else 0


def relative(seat: int, players: int) -> list[int]:
    """The seats in order from ``seat`` round the table: views are laid out from the
    observing seat, so a learner sees itself first wherever it sits (the public view, seat
    ``-1``: from seat 0)."""
    start = viewpoint(seat)
    return [(start + i) % players for i in range(players)]


class _Shown(Protocol):
    """What every observation's JSON starts from (the contract's Observation, plus the
    fields every game's observation has)."""

    @property
    def game(self) -> str: ...
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
    def legal(self) -> tuple[int, ...]: ...
    @property
    def first(self) -> int: ...
    @property
    def hand_sizes(self) -> tuple[int, ...]: ...
    @property
    def stock_left(self) -> int: ...


def base_json(obs: _Shown, action_text: Callable[[int], str]) -> dict[str, JSON]:
    """The fields every observation's JSON has (docs/observations.md); each game adds its
    own and ``result``. The public view's ``seat`` (-1, nobody) is written ``null``."""
    return {
        "schema": SCHEMA,
        "game": obs.game,
        "seat": obs.seat if obs.seat >= 0 else None,
        "players": obs.players,
        "current": obs.current,
        "phase": obs.phase,
        "hand": codes(obs.hand),
        "legal": [{"id": a, "text": action_text(a)} for a in obs.legal],
        "first": obs.first,
        "hand_sizes": list(obs.hand_sizes),
        "stock_left": obs.stock_left,
    }
