"""Sets of three: how cards group, and the analysis of a hand built from sets.

The rules
---------
* Balik Satu (sources 000, 001): "a set can be three of the same rank (i.e. with the same
  indices) or three of the exact same card, which is called a mata". A winning hand is five
  sets of three with at least one mata.
* Ceki (source 003): "three sets of three cards of the same value ... suits are given no
  consideration ... Honour cards only form sets of the same kind".
* Tantanan (source 001): "All honour cards are considered to be rank 1".

Our specifications
------------------
* Which cards may share a set is a *grouping*: a map from card kind to a group number. Sets
  never cross groups, so a hand is analysed group by group. Three groupings exist, chosen by
  a game's ``honours`` option:

  - ``rank1``: every honour joins the rank-1 group (Pwee's card table, Tantanan);
  - ``frames``: White and Red Flower join rank 1 (they wear the frame of the 1s, source 003),
    the Old Thousand (no frame) sets only with its own kind;
  - ``own``: each honour sets only with its own kind (source 003, Ceki).

* A hand of ``3n`` cards splits into ``n`` sets exactly when every group holds a multiple of
  three cards. Within a group any three cards form a set, so the most mata a group can hold is
  the sum over its kinds of ``count // 3``, and taking those triples never stops the rest of
  the group forming sets. The most mata and the most red mata are therefore reached by the
  same arrangement, which :func:`arrangement` returns.
* A hand of ``3n + 2`` cards *waits* when one more card would complete it as a winning hand;
  the cards it waits on are found the same way, group by group (see :func:`wait_for`).
* Every function takes the set size ``size`` (default 3). Tantanan plays with pairs
  (``size=2``: a hand of three pairs, one identical pair being its *bak*) [001 citing
  Javaanse Kaartspelen p.97-8]; everything above holds with ``size`` in place of three.
* ``chiqui`` (Chaqui, [001] citing JIPCS 22 (2) p.34): a hand may also go out with no
  mata when one of its sets holds an identical pair (a *chiqui*). Within a group any
  ``size`` cards form a set, so a hand that splits into sets holds a chiqui exactly when
  some kind appears at least ``size - 1`` times.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress
from typing import Final, Literal

from cherki.compiled import reduce_fields
from cherki.core.cards import IS_RED, N_KINDS, OT, RANK, RF, WF
from cherki.core.errors import RulesError

HonourRule = Literal["rank1", "frames", "own"]
HONOUR_RULES: Final[tuple[str, ...]] = ("rank1", "frames", "own")


def _grouping(rule: str) -> tuple[int, ...]:
    group = [RANK[k] - 1 for k in range(N_KINDS)]  # ranks 1-9 -> groups 0-8
    if rule == "rank1":
        group[WF] = group[RF] = group[OT] = 0
    elif rule == "frames":
        group[WF] = group[RF] = 0
        group[OT] = 11
    elif rule == "own":
        group[WF], group[RF], group[OT] = 9, 10, 11
    else:
        raise RulesError(f"unknown honours rule {rule!r}: choose one of {', '.join(HONOUR_RULES)}")
    return tuple(group)


GROUPINGS: Final[dict[str, tuple[int, ...]]] = {r: _grouping(r) for r in HONOUR_RULES}
N_GROUPS: Final = 12

#: For each grouping, the kinds in each group.
GROUP_KINDS: Final[dict[str, tuple[tuple[int, ...], ...]]] = {
    r: tuple(tuple(k for k in range(N_KINDS) if g[k] == gi) for gi in range(N_GROUPS))
    for r, g in GROUPINGS.items()
}


#: for each set size, a table for ``bytes.translate`` from a count (below 256: a group's
#: cards in one hand) to its remainder modulo the size
REMAINDERS: Final = {size: bytes(t % size for t in range(256)) for size in range(1, 16)}

#: every kind, as a range for ``itertools.compress``
_KINDS: Final = range(N_KINDS)

CallType = Literal["tan", "ceki"]


def group_totals(counts: Sequence[int], grouping: Sequence[int]) -> list[int]:
    totals = [0] * N_GROUPS
    for k in compress(_KINDS, counts):  # the kinds held, picked in C
        totals[grouping[k]] += counts[k]
    return totals


def splits_into_sets(counts: Sequence[int], grouping: Sequence[int], size: int = 3) -> bool:
    """True when the cards split into sets of ``size`` (every group a multiple of it)."""
    return all(t % size == 0 for t in group_totals(counts, grouping))


def mata_count(counts: Sequence[int], size: int = 3) -> tuple[int, int]:
    """(mata, red mata) in the best arrangement of a hand that splits into sets."""
    mata = red = 0
    if max(counts) < size:
        return mata, red
    for k, c in enumerate(counts):
        if c >= size:
            m = c // size
            mata += m
            if IS_RED[k]:
                red += m
    return mata, red


def has_mata(counts: Sequence[int], size: int = 3) -> bool:
    return max(counts) >= size


def has_chiqui(counts: Sequence[int], size: int = 3) -> bool:
    """Some kind appears ``size - 1`` times or more (an identical pair for sets of three)."""
    return max(counts) >= size - 1


def is_winning(
    counts: Sequence[int],
    grouping: Sequence[int],
    need_mata: bool = True,
    size: int = 3,
    chiqui: bool = False,
) -> bool:
    """All cards in sets of ``size`` and, when ``need_mata``, at least one mata (or, with
    ``chiqui``, at least a set holding an identical pair)."""
    if need_mata and not has_mata(counts, size) and not (chiqui and has_chiqui(counts, size)):
        return False
    return splits_into_sets(counts, grouping, size)


@dataclass(frozen=True, slots=True)
class Wait:
    """What a hand of ``3n + 2`` cards waits on.

    ``call`` is ``"tan"`` when the complete sets already hold a mata (any card of the
    incomplete set's group wins), ``"ceki"`` when the last set must itself become the mata.
    ``cards`` are the kinds that complete a winning hand (empty: the hand does not wait).
    """

    call: CallType | None
    cards: tuple[int, ...]

    def __reduce__(self) -> tuple[object, ...]:
        return reduce_fields(self)  # pickle and copy, compiled too (cherki.compiled)


NO_WAIT: Final = Wait(None, ())

#: each grouping of GROUPINGS with the tan and the ceki wait on every card of each group
#: (immutable, so :func:`wait_for` hands out the same ones), found by the grouping's
#: identity (three to compare: quicker than a look-up by its ``id``, a number to make)
_KNOWN_WAITS: Final = tuple(
    (
        g,
        tuple(Wait("tan", kinds) for kinds in GROUP_KINDS[r]),
        tuple(Wait("ceki", kinds) for kinds in GROUP_KINDS[r]),
    )
    for r, g in GROUPINGS.items()
)

#: the ceki waits on some cards of a group :func:`wait_for` has made, by their cards (a
#: few kinds of one group each: a small table)
_CEKI_WAITS: Final[dict[tuple[int, ...], Wait]] = {}


def wait_for(
    counts: Sequence[int],
    grouping: Sequence[int],
    size: int = 3,
    chiqui: bool = False,
    totals: Sequence[int] | None = None,
    mata: bool | None = None,
) -> Wait:
    """The call a ``size·n + size - 1``-card hand may make and the cards it waits on.

    With ``chiqui`` a hand without a mata that holds an identical pair waits (as ``ceki``) on
    every card of its open group: any of them completes a chiqui go-out; one without a pair
    waits on the kinds its open group already holds (each makes the pair). ``totals``: the
    hand's cards per group (:func:`group_totals`), when the caller keeps them; ``mata``:
    whether the hand holds a mata, when the caller knows.
    """
    if totals is None:
        totals = group_totals(counts, grouping)
    # one group open, one card short of a set, every other a whole number of sets: the
    # groups' remainders counted in C (a hot path)
    remainders = bytes(totals).translate(REMAINDERS[size])
    if remainders.count(0) != len(remainders) - 1:
        return NO_WAIT
    open_group = remainders.find(size - 1)
    if open_group < 0:
        return NO_WAIT
    return wait_in(counts, grouping, size, chiqui, open_group, mata)


def wait_in(
    counts: Sequence[int],
    grouping: Sequence[int],
    size: int,
    chiqui: bool,
    open_group: int,
    mata: bool | None = None,
) -> Wait:
    """:func:`wait_for` of a hand whose one open group, one card short of a set, is
    ``open_group``, every other group a whole number of sets (the caller knows it: the
    discard-and-call check, which finds it without counting). ``mata``: whether the hand
    holds a mata, when the caller knows (None: counted here)."""
    for known in _KNOWN_WAITS:  # one of GROUPINGS (by identity): its waits made once
        if known[0] is grouping:
            tan, ceki = known[1][open_group], known[2][open_group]
            break
    else:
        kinds = tuple(k for k in range(N_KINDS) if grouping[k] == open_group)
        tan, ceki = Wait("tan", kinds), Wait("ceki", kinds)
    kinds = tan.cards
    if has_mata(counts, size) if mata is None else mata:
        return tan
    if chiqui and has_chiqui(counts, size):
        return ceki
    # Without a pair, a chiqui hand still waits on a card that makes one in the open set:
    # C8 M8 waits on C8 and M8 (C8 C8 M8 goes out on a chiqui), not on S8.
    least = max(1, size - 2) if chiqui else size - 1
    winners = tuple(k for k in kinds if counts[k] >= least)
    return ceki_wait(winners) if winners else NO_WAIT


def ceki_wait(cards: tuple[int, ...]) -> Wait:
    """``Wait("ceki", cards)``, made once and then shared (immutable; a hot path)."""
    wait = _CEKI_WAITS.get(cards)
    if wait is None:
        wait = _CEKI_WAITS[cards] = Wait("ceki", cards)
    return wait


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A hand laid out as sets: mata first, then mixed sets, then any leftover cards."""

    sets: tuple[tuple[int, ...], ...]
    leftover: tuple[int, ...]
    mata: int
    red_mata: int

    def is_mata(self, s: Sequence[int]) -> bool:
        return len(s) >= 2 and all(c == s[0] for c in s)

    def __reduce__(self) -> tuple[object, ...]:
        return reduce_fields(self)  # pickle and copy, compiled too (cherki.compiled)


def arrangement(counts: Sequence[int], grouping: Sequence[int], size: int = 3) -> Arrangement:
    """Best arrangement (most mata, then most red mata) of as many cards as form sets.

    Groups whose card count is not a multiple of ``size`` keep their last ``count % size`` cards
    (taken from kinds that are not part of a mata) as ``leftover``.
    """
    c = list(counts)
    sets: list[tuple[int, ...]] = []
    mixed: list[tuple[int, ...]] = []
    leftover: list[int] = []
    mata = red = 0
    # the kinds held, by group (groups ascending, kinds ascending within each): one pass
    # over the kinds, not one a group (the win's scoring lays out every winning hand)
    by_group: list[list[int]] = [[] for _ in range(N_GROUPS)]
    for k in compress(_KINDS, c):
        by_group[grouping[k]].append(k)
    for kinds in by_group:
        if not kinds:
            continue
        rest: list[int] = []
        for k in kinds:
            m = c[k] // size
            for _ in range(m):
                sets.append((k,) * size)
            mata += m
            if IS_RED[k]:
                red += m
            rest.extend([k] * (c[k] - size * m))
        spare = len(rest) % size
        if spare:
            # keep pairs together as the leftover when possible (they are the ceki hope)
            pair = next((k for k in kinds if rest.count(k) >= spare), None)
            chosen = [pair] * spare if pair is not None else rest[-spare:]
            for k in chosen:
                rest.remove(k)
            leftover.extend(chosen)
        for i in range(0, len(rest), size):
            mixed.append(tuple(rest[i : i + size]))
    return Arrangement(tuple(sets + mixed), tuple(sorted(leftover)), mata, red)


def improved_mata(
    hand: Sequence[int], extra: Sequence[int], grouping: Sequence[int], size: int = 3
) -> tuple[int, int]:
    """(mata, red mata) after swapping in same-group cards from ``extra`` (kena).

    ``hand`` splits into sets; each set keeps its group, and may exchange cards for cards of
    the same group from ``extra`` (sources 001: kena; Balik Lima Belas: "swapping cards of
    equivalent rank"). A group with ``n`` sets can then hold ``min(n, sum of
    (hand + extra) // 3 over its kinds)`` mata, red mata preferred.
    """
    totals = group_totals(hand, grouping)
    mata = red = 0
    for g in range(N_GROUPS):
        n = totals[g] // size
        if not n:
            continue
        plain = reds = 0
        for k in range(N_KINDS):
            if grouping[k] == g:
                t = (hand[k] + extra[k]) // size
                if IS_RED[k]:
                    reds += t
                else:
                    plain += t
        m = min(n, plain + reds)
        mata += m
        red += min(m, reds)
    return mata, red
