"""Cherki cards: the 30 card kinds, their notation, names, ranks and red stamps.

The rules
---------
A Cherki pack has 60 cards, two of each of 30 kinds (sources 000 and 001: "a Cherki deck
contains 60 cards, two of each type, so a ½ deck has 30 cards, one of each type"; source 003:
"each pack is made of 60 cards (30 different patterns, each one repeated twice)"). There are
three suits, Coins, Strings and Myriads, each running from 1 to 9, and three honours: White
Flower, Red Flower and Old Thousand (source 003). Three kinds carry a red stamp: the 9 of
Strings ("Red Nine"), the Red Flower ("Nyonya") and the Old Thousand ("Lau Chian") (sources
000, 003).

Our specifications
------------------
* Notation is the letters of the sources' image names (``CS9.jpg``, ``CRF.jpg``, ``COT.jpg``)
  without the leading ``C``: ``C1``-``C9`` Coins, ``S1``-``S9`` Strings, ``M1``-``M9``
  Myriads, ``WF`` White Flower, ``RF`` Red Flower, ``OT`` Old Thousand. Parsing is
  case-insensitive and ``card_name(parse_card(s)) == s.upper()`` for every valid ``s``.
* A card kind is an ``int`` 0-29 in the order above (Coins, Strings, Myriads, WF, RF, OT);
  a hand is a count vector: a list of 30 ``int`` indexed by kind.
* The honours have no printed index. Source 003 notes that White Flower and Red Flower wear
  the frame of the 1s and Old Thousand has no frame; Pwee's card table (as quoted in our issue
  2; the table itself is not among our sources) puts all three in the rank-1 "yu/yeo" row.
  How honours form sets is a per-game option (see :mod:`cherki.core.sets`); here ``RANK`` gives
  each honour rank 1, as in that table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from cherki.core.errors import NotationError, quote

N_KINDS: Final = 30
#: a hand of no cards, as counts (the public view's hand)
NO_CARDS: Final[tuple[int, ...]] = (0,) * N_KINDS
KINDS: Final = range(N_KINDS)

SUIT_LETTERS: Final = ("C", "S", "M")
SUIT_NAMES: Final = ("Coins", "Strings", "Myriads")

WF: Final = 27
RF: Final = 28
OT: Final = 29
S9: Final = 17

CODES: Final[tuple[str, ...]] = tuple(
    [f"{s}{r}" for s in SUIT_LETTERS for r in range(1, 10)] + ["WF", "RF", "OT"]
)
_CODE_TO_KIND: Final = {c: i for i, c in enumerate(CODES)}

#: English names, as source 003 gives them.
NAMES: Final[tuple[str, ...]] = tuple(
    [f"{r} of {s}" for s in SUIT_NAMES for r in range(1, 10)]
    + ["White Flower", "Red Flower", "Old Thousand"]
)

#: Malay / Hokkien names where the sources give them (000, 001).
LOCAL_NAMES: Final[dict[int, str]] = {
    S9: "Red Nine",
    RF: "Nyonya",
    OT: "Lau Chian",
}

#: The printed rank (index) of each kind; honours are rank 1, as in Pwee's rank-1 row.
RANK: Final[tuple[int, ...]] = tuple([r for _ in SUIT_LETTERS for r in range(1, 10)] + [1, 1, 1])

#: Suit index (0 Coins, 1 Strings, 2 Myriads) or -1 for an honour.
SUIT: Final[tuple[int, ...]] = tuple([s for s in range(3) for _ in range(9)] + [-1, -1, -1])

#: Red-stamped kinds: S9, RF, OT (sources 000, 003).
RED: Final[frozenset[int]] = frozenset({S9, RF, OT})
IS_RED: Final[tuple[bool, ...]] = tuple(k in RED for k in KINDS)

HONOURS: Final[frozenset[int]] = frozenset({WF, RF, OT})


def parse_card(text: str) -> int:
    """Parse one card code (``"M7"``, ``"rf"``) into its kind number."""
    code = text.strip().upper()
    kind = _CODE_TO_KIND.get(code)
    if kind is None:
        raise NotationError("refuse.not_a_card", text=quote(text.strip()))
    return kind


def card_name(kind: int) -> str:
    """The notation of a card kind: ``card_name(16) == "S8"``."""
    return CODES[kind]


def long_name(kind: int) -> str:
    """English name with the local name where the sources give one: ``Red Flower (Nyonya)``."""
    local = LOCAL_NAMES.get(kind)
    return f"{NAMES[kind]} ({local})" if local else NAMES[kind]


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Parse cards separated by spaces or commas into a list of kinds (order kept)."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(p) for p in parts]


def counts_of(cards: Iterable[int]) -> list[int]:
    """Count vector of a sequence of kinds."""
    counts = [0] * N_KINDS
    for k in cards:
        counts[k] += 1
    return counts


def parse_hand(text: str | Iterable[str]) -> list[int]:
    """Parse a hand in card notation into a count vector."""
    return counts_of(parse_cards(text))


def cards_of(counts: Sequence[int]) -> list[int]:
    """The kinds of a count vector as a sorted list, one entry per card."""
    out: list[int] = []
    for k, c in enumerate(counts):
        out.extend([k] * c)
    return out


def format_cards(cards: Iterable[int]) -> str:
    """Card notation for a sequence of kinds, space separated."""
    return " ".join(CODES[k] for k in cards)


def format_hand(counts: Sequence[int]) -> str:
    """Card notation for a count vector, in kind order (round-trips with parse_hand)."""
    return format_cards(cards_of(counts))
