"""The rule options of the games of sets (see :mod:`cherki.games.sets`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from cherki.core.errors import RulesError
from cherki.core.options import Rules
from cherki.games.sets.scoring import SCORING

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


def _spans(counts: dict[int, int]) -> str:
    """The player counts of a shoe table in runs: ``"2-14 and 20"``."""
    runs: list[list[int]] = []
    for p in sorted(counts):
        if runs and runs[-1][1] == p - 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    words = [f"{a}-{b}" if a != b else str(a) for a, b in runs]
    return " and ".join(words) if len(words) <= 2 else ", ".join(words)


def parse_bets(text: str) -> list[tuple[int, int, int | None]]:
    """Ceken side bets ``"0-1:5, 2-3:10"`` (seat-seat:amount; amount omitted: the stake)."""
    bets: list[tuple[int, int, int | None]] = []
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        pair, _, amount = part.partition(":")
        a, _, b = pair.partition("-")
        try:
            bet = (int(a), int(b), int(amount) if amount.strip() else None)
        except ValueError:
            raise RulesError(
                f"option ceken_bets: {part!r} is not SEAT-SEAT:AMOUNT (e.g. 0-1:5)"
            ) from None
        if bet[0] == bet[1] or bet[0] < 0 or bet[1] < 0 or (bet[2] is not None and bet[2] < 0):
            raise RulesError(f"option ceken_bets: {part!r} needs two different seats")
        bets.append(bet)
    return bets


@dataclass(frozen=True, slots=True)
class SetsRules(Rules):
    """Every rule option of Balik Satu and Balik Lima Belas (see the module docstring)."""

    scoring: str = "satu"
    shoe_table: str = "pwee"
    half_packs: int | None = None
    deal: str = "rounds"
    honours: str = "rank1"
    kena: bool = True
    yeo_redeal: bool = True
    yeo_cards: str = "one-point"
    ayam_bonus: int = 10
    kandang_bonus: int = 20
    tan_bonus: int = 1
    kandang_tangan: bool = True
    kandang_tangan_multiplier: int = 2
    must_call_to_win: bool = False
    call_timing: str = "any"
    caller_changes: str = "mata-only"
    claim_priority: str = "turn-order"
    next_starter: str = "winner"
    cents_per_point: int = 10
    # -- the relatives (defaults: Balik Satu) --------------------------------------------
    set_size: int = 3
    sets: int = 5
    starter_extra: bool = True
    discard_wins: bool = False
    chiqui: bool = False
    expose_olo: bool = False
    stake: int = 10
    ceken_bets: str = ""
    bak_bakan_turn: bool = True
    toh_step4: str = "restates"
    olo_points: int = 5
    chiqui_fail: str = "void"
    chiqui_turn: str = "any"
    partnerships: bool = False
    ceki_tokens: int = 10
    bangkong_points: int = 20
    bangkong_count: int = 3
    cents_per_bangkong: int = 2000
    cents_per_excess: int = 10

    def check(self) -> None:
        """Every field in its declared range (the family's option declarations, whichever
        game exposes it), the scoring method registered, the shape of a hand sound and the
        Cekèn bets readable. A game checks its own options first (``Game.check_rules``)."""
        from cherki.games.sets.options import ALL_OPTIONS

        if self.scoring not in SCORING:
            raise RulesError(
                f"option scoring cannot be {self.scoring!r}: choose one of {', '.join(SCORING)}"
            )
        for opt in ALL_OPTIONS:
            if opt.name != "scoring":
                opt.check(getattr(self, opt.name))
        if self.set_size not in (2, 3):
            raise RulesError("option set_size must be 2 (pairs) or 3 (sets of three)")
        if not 1 <= self.sets <= 9:
            raise RulesError("option sets must be from 1 to 9")
        parse_bets(self.ceken_bets)

    @property
    def reserve(self) -> int:
        """Stock cards kept back for the winner's scoring draw (the scoring method's)."""
        return SCORING[self.scoring].reserve(self)

    @property
    def hand_size(self) -> int:
        """Cards in a winning hand: ``sets`` × ``set_size`` (15 in Balik Satu)."""
        return self.sets * self.set_size

    def shoe_half_packs(self, players: int) -> int:
        if self.half_packs is not None:
            return self.half_packs
        table = SHOE_TABLES[self.shoe_table]
        if players not in table:
            raise RulesError(
                f"the {self.shoe_table} table gives no shoe for {players} players (it covers "
                f"{_spans(table)}); set half_packs to choose one"
            )
        return table[players]

    def to_json(self) -> dict[str, Any]:
        return {f: getattr(self, f) for f in self.__dataclass_fields__}
