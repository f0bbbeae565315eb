"""What a hand built from sets is made of, and what a card taken or discarded does to it:
the data the hints word (the games' views) and the heuristic bots' reasons read
(``bots/balik.py``, ``bots/ceki.py``). No words here.

The rules: a set is ``size`` cards of one group (one rank, the honours as the game's
``honours`` option groups them), a mata ``size`` identical cards, and a winning hand
``sets`` sets with at least one mata (``core/sets.py`` cites the sources).

Our specification (how the hints describe a hand): the hand is laid out as its best
arrangement (most mata, then most red mata: :func:`cherki.core.sets.arrangement`); the
cards left over in a group form a *part-set* when one card short of a set, else *lone*
cards. A part-set's *live* cards are the cards of its group the seat has not seen (any
one finishes it). A discard of a card of a group whose cards form only sets breaks a set
(a mata if the card's own kind stops making one); of a group with a part-set, that
part-set; else it breaks nothing (a lone card goes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from cherki.core.sets import GROUP_KINDS, GROUPINGS, arrangement

#: what a piece of a hand is: a ``mata`` (identical cards), a ``set``, a ``part`` (one card
#: short of a set) or ``lone`` cards
PieceKind = Literal["mata", "set", "part", "lone"]
#: how much a piece is worth keeping, least first (what a discard breaks)
ORDER: dict[str, int] = {"lone": 0, "part": 1, "set": 2, "mata": 3}


@dataclass(frozen=True)
class Piece:
    """One piece of a hand: its kind, its cards and, for a part-set or lone cards, how many
    live (unseen) cards of its group could join it."""

    kind: PieceKind
    cards: tuple[int, ...]
    live: int = 0


def _live(k: int, live: Sequence[int], honours: str) -> int:
    group = GROUPINGS[honours][k]
    return sum(live[c] for c in GROUP_KINDS[honours][group])


def pieces(hand: Sequence[int], live: Sequence[int], honours: str, size: int) -> list[Piece]:
    """The hand as pieces: its sets (mata first), then each group's leftover as a part-set
    or lone cards, with the live cards that join it."""
    arr = arrangement(hand, GROUPINGS[honours], size)
    out = [Piece("mata" if arr.is_mata(s) else "set", tuple(s)) for s in arr.sets]
    by_group: dict[int, list[int]] = {}
    for k in arr.leftover:
        by_group.setdefault(GROUPINGS[honours][k], []).append(k)
    for cards in by_group.values():
        kind: PieceKind = "part" if len(cards) == size - 1 else "lone"
        if kind == "part":
            out.append(Piece("part", tuple(cards), _live(cards[0], live, honours)))
        else:
            out.extend(Piece("lone", (c,), _live(c, live, honours)) for c in cards)
    return out


def discard_breaks(
    hand: Sequence[int], k: int, live: Sequence[int], honours: str, size: int
) -> Piece:
    """The piece a discard of ``k`` breaks (see the module's specification): a ``lone``
    piece (the card alone) when it breaks nothing."""
    grouping = GROUPINGS[honours]
    g = grouping[k]
    kinds = GROUP_KINDS[honours][g]
    total = sum(hand[c] for c in kinds)
    rest = total % size
    group_pieces = [
        p for p in pieces(hand, live, honours, size) if p.cards and grouping[p.cards[0]] == g
    ]
    if hand[k] >= size and hand[k] % size == 0:
        return Piece("mata", (k,) * size)  # its own kind stops making a mata
    if rest == 0:
        own = [p for p in group_pieces if p.kind == "set" and k in p.cards]
        any_set = [p for p in group_pieces if p.kind in ("set", "mata")]
        chosen = own[0] if own else any_set[0]
        return Piece(chosen.kind, chosen.cards)
    if rest == size - 1:
        part = next((p for p in group_pieces if p.kind == "part"), None)
        if part is not None:
            return Piece("part", part.cards, part.live)
    return Piece("lone", (k,), _live(k, live, honours))


def take_joins(hand: Sequence[int], k: int, live: Sequence[int], honours: str, size: int) -> Piece:
    """What taking (or drawing) ``k`` does to the hand: the piece it completes (``set`` or
    ``mata``), the part-set it makes (``part``), or ``lone``."""
    after = list(hand)
    after[k] += 1
    before = pieces(hand, live, honours, size)
    now = pieces(after, live, honours, size)
    new_sets = [p for p in now if p.kind in ("mata", "set") and k in p.cards]
    if sum(p.kind in ("mata", "set") for p in now) > sum(
        p.kind in ("mata", "set") for p in before
    ) or sum(p.kind == "mata" for p in now) > sum(p.kind == "mata" for p in before):
        best = max(new_sets, key=lambda p: ORDER[p.kind]) if new_sets else now[0]
        return best
    part = next((p for p in now if p.kind == "part" and k in p.cards), None)
    if part is not None:
        return part
    return Piece("lone", (k,), _live(k, live, honours))


def count_sets(hand: Sequence[int], honours: str, size: int) -> tuple[int, int]:
    """(sets, of which mata) of the hand's best arrangement."""
    arr = arrangement(hand, GROUPINGS[honours], size)
    return len(arr.sets), arr.mata


__all__ = ["ORDER", "Piece", "PieceKind", "count_sets", "discard_breaks", "pieces", "take_joins"]
