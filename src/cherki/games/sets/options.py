"""The play options every game of sets shares, declared once, in named groups.

The games of sets play on one core of rules (:class:`~cherki.games.sets.rules.SetsRules`:
the shoe, the deal, the shape of a hand, calling and claims); each game module adds its
own rules class with its own options (Balik's turned card and bonuses in ``balik.py``,
Gonggong's methods and stakes in ``gonggong.py``, Chaqui's olo and chiqui in
``chaqui.py``, Chot's tokens and bangkong in ``chot.py``) and composes, from the groups
below and its own, the tuple of options a player may change (``Game.options``). A field of
a game's rules that the game does not list is fixed by its presets (Tantanan's pairs...),
and asking to change it, or an option of another game, is an error naming the options the
game has. Each option cites its source; ``ours`` marks a reading the project chose where
the sources are silent (see each rules document).

This module depends on the core only: the rules, the game modules and the documents read
it, and it reads none of them.
"""

from __future__ import annotations

from typing import Final

from cherki.core.options import Option
from cherki.core.sets import HONOUR_RULES

#: The most half-packs a shoe may hold: [000] "up to 20 people can play with a total of
#: 1 200 cards", 40 half-packs.
MAX_HALF_PACKS: Final = 40

#: The most players at a table of Balik Satu: [000] "up to 20 people can play with a total
#: of 1 200 cards".
MAX_PLAYERS: Final = 20

#: Half-packs (30 cards) per player count. [000], [001]
SHOE_TABLES: Final[dict[str, dict[int, int]]] = {
    # Pwee: 2½ decks for 2, 3 for 3-4, 3½ for 5-6 ... 5½ for 13-14; and "the book suggests
    # that up to 20 people can play with a total of 1 200 cards" [000, 001]: 40 half-packs
    # for 20 (15-19 are in no table: set half_packs)
    "pwee": {
        **{2: 5, 3: 6, 4: 6, 5: 7, 6: 7, 7: 8, 8: 8, 9: 9, 10: 9, 11: 10, 12: 10, 13: 11, 14: 11},
        MAX_PLAYERS: MAX_HALF_PACKS,
    },
    # The Babas p.154: 2 decks for 2, then half a deck more per player (the source's table
    # stops at 14; ours: the same rule up to 20 players, 22 half-packs)
    "babas": {p: p + 2 for p in range(2, MAX_PLAYERS + 1)},
    # Amaro (1993): 2 decks for 3-4 players, 3 for 5-6 ... 7 for 13-14 (2 players not given)
    "amaro": {3: 4, 4: 4, 5: 6, 6: 6, 7: 8, 8: 8, 9: 10, 10: 10, 11: 12, 12: 12, 13: 14, 14: 14},
    # Gonggong [001 citing Javaanse Kaartspelen p.94]: 180 cards for 4, 240 for 6 (5: ours)
    "gonggong": {4: 6, 5: 7, 6: 8},
    # Tantanan [001 citing Javaanse Kaartspelen p.97-8]: one full set of 60 cards
    "tantanan": {3: 2, 4: 2},
    # Chot [001 citing Pwee p.127]: four players, three decks (180 cards)
    "chot": {4: 6},
}


def spans(counts: dict[int, int]) -> str:
    """The player counts of a shoe table in runs: ``"2-14 and 20"``."""
    runs: list[list[int]] = []
    for p in sorted(counts):
        if runs and runs[-1][1] == p - 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    words = [f"{a}-{b}" if a != b else str(a) for a, b in runs]
    return " and ".join(words) if len(words) <= 2 else ", ".join(words)


#: The shoe and the deal.
SHOE: Final = (
    Option(
        "shoe_table",
        "pwee",
        "which table sizes the shoe for the number of players",
        "[000] [001] R-SHOE (Pwee, The Babas, Amaro)",
        choices=tuple(SHOE_TABLES),
        title="Shoe size table",
    ),
    Option(
        "half_packs",
        None,
        "the shoe's size in half-packs of 30 cards (auto: from the shoe table)",
        "ours",
        minimum=1,
        maximum=MAX_HALF_PACKS,
        optional=True,
        kind=int,
        title="Half-packs in the shoe",
    ),
    Option(
        "deal",
        "rounds",
        "deal in packets in turn (rounds), or let each seat take its whole hand (wash)",
        "[000] R-DEAL",
        choices=("rounds", "wash"),
        title="How the cards are dealt",
    ),
)

#: How the honours (WF, RF, OT) form sets.
HONOURS: Final = (
    Option(
        "honours",
        "rank1",
        "honours in sets: with the 1s (rank1), WF and RF with the 1s (frames), only alike (own)",
        "ours: [001] Tantanan's rule extended, after Pwee's card table (not in the sources)",
        choices=HONOUR_RULES,
        title="Honours (WF, RF, OT) in sets",
    ),
)

#: Calling, claims and what a caller may still change.
CALLING: Final = (
    Option(
        "must_call_to_win",
        False,
        "a player must have called to win",
        "ours: calling is something a player 'can' do [000] R-CALL",
        title="Must call to win",
    ),
    Option(
        "call_timing",
        "any",
        "when a call may be made: on any discard while the hand is a card from winning (any), "
        "or only on the next discard after the hand gets there (next)",
        '[000] R-CALL: "once a player has formed four sets in their hand and only needs one '
        "card to win, they can 'call' on their next discard\" (any: ours, see the rules)",
        choices=("any", "next"),
        title="When a call may be made",
    ),
    Option(
        "caller_changes",
        "mata-only",
        "what a caller may still exchange: only for a mata (mata-only), anything that still "
        "waits (free), nothing (none)",
        "[000] R-CHANGE",
        choices=("mata-only", "free", "none"),
        title="What a caller may still change",
    ),
    Option(
        "claim_priority",
        "turn-order",
        "when a shown card wins for several callers, who comes first after the drawer",
        "ours (as the next player in Mahjong)",
        choices=("turn-order", "first-caller"),
        title="Several callers win: who comes first",
    ),
)

#: A caller may win on another seat's discard (the relatives' metu).
DISCARD_WINS: Final = (
    Option(
        "discard_wins",
        False,
        "a caller may also win by claiming another seat's discard",
        "ours (Balik Satu forbids it [000] R-WIN)",
        title="Win on another's discard",
    ),
)

#: Who starts the next hand, and money.
TABLE: Final = (
    Option(
        "next_starter",
        "winner",
        "who starts the next hand: the winner, or the next seat",
        "ours",
        choices=("winner", "next"),
        title="Who starts the next hand",
    ),
    Option(
        "cents_per_point",
        10,
        "money a point is worth, in cents",
        "[000] R-PAY (Singapore cents: 10¢ a point, 5¢ in the 1970s)",
        minimum=0,
        title="Money a point (cents)",
        money=True,
    ),
)

#: A winning hand as dealt (kandang tangan).
KANDANG_TANGAN: Final = (
    Option(
        "kandang_tangan",
        True,
        "a winning hand as dealt wins at once (kandang tangan)",
        "[000] R-KANDANG-TANGAN",
        title="Kandang tangan: a dealt hand wins",
    ),
    Option(
        "kandang_tangan_multiplier",
        2,
        "what kandang tangan multiplies the score by",
        "[000] R-KANDANG-TANGAN",
        minimum=1,
        title="Kandang tangan multiplies the score by",
    ),
)

#: Whether the starter is dealt one card more (Balik's deal) or every seat alike.
STARTER_EXTRA: Final = (
    Option(
        "starter_extra",
        False,
        "the starter is dealt one card more and opens by discarding",
        "ours ([001] deals every seat alike)",
        title="The starter gets one card more",
    ),
)

#: The shape of a winning hand and the scoring method: fixed by each game's presets (no
#: game lists them among the options a player may change), declared for the checks.
SHAPE: Final = (
    Option(
        "set_size",
        3,
        "cards in a set: three (Balik Satu and most relatives) or two (Tantanan's pairs)",
        "[000] R-WIN (sets of three); [001] T-WIN (pairs)",
        minimum=2,
        maximum=3,
        title="Cards in a set",
    ),
    Option(
        "sets",
        5,
        "sets in a winning hand",
        "[000] R-WIN (five sets); [001] T-WIN (three pairs)",
        minimum=1,
        maximum=9,
        title="Sets in a winning hand",
    ),
    Option(
        "scoring",
        "satu",
        "the scoring method, one the game registers (its rules document lists them)",
        "[000] R-TURNED, R-LIMA-BELAS; [001] G-SCORING, C-SCORING, K-SCORE",
        kind=str,
        title="How a win is paid",
    ),
)

#: Every option of the play core (for checking a core rules object made by hand).
CORE_OPTIONS: Final = (
    SHAPE + SHOE + HONOURS + CALLING + DISCARD_WINS + TABLE + KANDANG_TANGAN + STARTER_EXTRA
)
