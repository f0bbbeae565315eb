"""Balik Satu and Balik Lima Belas.

The rules (sources ``000_4a123d847e7e4436.txt`` = [000] and ``001_848bc251e0992f3b.txt`` =
[001], both drawn from Pwee (2003) "Chiki Cards" with additions from "The Babas"; [003] is
the Ceki text)
------------------------------------------------------------------------------------------
* Equipment: Cherki packs of 60 cards; how many for how many players follows one of three
  tables: Pwee, The Babas [000, 001], Amaro (1993) [001]. [R-SHOE]
* Deal 7 to each player, one more to the first player, then 7 more each; or wash-shuffle and
  let each draw 14 (15 for the starter). The rest is the face-down stock. [000, R-DEAL]
* The first player discards; play goes anti-clockwise, to the right. On a turn take the last
  discard or the next stock card, then discard. [000, R-TURN]
* Goal: five sets of three, a set being three of one rank (same indices) or three identical
  cards, a *mata*. At least one mata to win; the winning (15th) card must come from the
  stock, never a discard. [000, R-WIN]
* Calling: with four sets formed and one card needed, a player may call on a discard: *tan*
  when a mata is already formed, *ceki* when the last set must become the mata. [000, R-CALL]
* Once anyone has called, stock draws are shown to all; a caller whose winning card is shown
  takes it and wins. Claiming or drawing the winning card: "sampei!". [000, R-CLAIM]
* A caller may still turn a mixed set into a mata; a ceki caller who does may change the call
  to tan. [000, R-CHANGE]
* Scoring: the winner turns one more stock card: 1-9 by rank, Red Nine 10, Nyonya 11, Lau
  Chian 12 [000, R-TURNED]. Commonly, a rank-1 *yeo* card scores nothing and the round is
  replayed [000, R-YEO]. The turned card may replace a same-rank card to make a mata, *kena*
  [001 citing The Babas p.162, R-KENA]. +1 per unmarked mata, +2 per red mata [000, R-MATA].
  A ceki winner adds the *ayam* bonus when another player drew the card, *kandang* when
  self-drawn: 1/2 (Gateway to Old School Games), 5/10 (The Babas), 10/20 (Pwee) [000,
  R-BONUS]. Pwee also adds 1 for winning after tan [000 footnote, R-TAN-BONUS]. Each other
  player pays the winner the total, 10¢ a point in Singapore, 5¢ in the 1970s [000, R-PAY].
* Kandang tangan: a winning hand as dealt wins at once and scores double, with no calling
  bonuses [000, R-KANDANG-TANGAN].
* Balik Lima Belas: the winner draws fifteen and swaps same-rank cards to make the most mata;
  1 point plus 1 per mata, no red extra; ayam and kandang still apply [000, 001, R-LIMA-BELAS].

Our specifications (each is an option of :class:`BalikRules` unless marked *fixed*)
------------------------------------------------------------------------------------
* ``honours``: how honours form sets. Default ``rank1`` (Pwee's card table puts WF, RF and
  OT in the rank-1 row, and Pwee is the main source of Balik Satu); ``frames`` (WF and RF wear
  the 1s' frame, OT none, [003]); ``own`` (honours only with their own kind, [003]).
* ``yeo_redeal`` (default on: the source calls it "a common rule") and ``yeo_cards``: which
  turned cards are *yeo*. Default ``one-point``: C1, S1, M1 and WF, the cards a turn scores 1
  for. Nyonya and Lau Chian are in Pwee's rank-1 row but the source scores them 11 and 12,
  so we do not void a win for turning them; ``rank1`` includes them, ``suited`` is C1 S1 M1.
  A yeo voids the win and the hand is dealt again (the result says ``redeal``).
* ``must_call_to_win`` (default off): calling is something a player "can" do [000], so an
  uncalled player may win on their own stock draw. Calling bonuses need a standing call.
* *fixed*: the call is derived from the hand: ``tan`` when the 14 cards already hold a mata,
  else ``ceki``; a hand may call only if some card would win (a ceki hand needs an identical
  pair in its open set). A player may call on any discard, not only the first chance.
* ``caller_changes`` (default ``mata-only``): after calling, a player may only keep a new card
  when the exchange still waits and holds more mata ("turning an existing mixed set into a
  mata" [000]); ``free`` allows any exchange that still waits; ``none`` freezes the hand.
  A ceki caller whose change forms a mata now calls tan and loses the ceki bonus [000 fn.].
* ``claim_priority`` (default ``turn-order``): when a revealed draw wins for several seats,
  the drawer comes first (the card is theirs, a self-draw), then the other callers in turn
  order from the drawer, as the next player in Mahjong has priority; ``first-caller`` ranks
  the others by who called first. Each in turn may claim ("sampei") or pass. At the table
  the callers would answer at once; the engine asks them one at a time, so while a claim is
  open every seat sees whose answer is awaited (and so that the shown card would win for
  that seat). This is public in play too, for a caller who could win rarely passes.
* *fixed*: kandang tangan is the starting player's 15 dealt cards forming a winning hand; it
  is a "sampei" at their first turn, scored double with no tan, ayam or kandang bonus. The
  turned card (and yeo) still apply.
* *fixed*: the bonus for a ceki win is ayam when the winner claimed another seat's draw,
  kandang when they drew it themselves. An uncalled win earns no calling bonus.
* Balik Lima Belas always swaps from the fifteen drawn (that is its scoring), so the ``kena``
  option changes only Balik Satu; its presets add no tan point (the source scores "one point
  for winning plus one point for each mata" and names only ayam and kandang as extras).
* Stock: the last ``1`` card (Balik Satu) or ``15`` cards (Lima Belas) are kept back for the
  winner's scoring draw. When a turn starts and no other stock card is left, the hand ends
  with no winner and no payments (a winning card must come from the stock, so none can
  follow). The rules check that the shoe leaves at least one card to play.
* ``next_starter`` (default ``winner``): the winner starts the next hand; ``next`` passes the
  start to the right. After a hand with no winner or a yeo redeal the same player starts.
* ``deal``: ``rounds`` deals packets of 7 in turn order from the starter, 1 more to the
  starter, then 7 each; ``wash`` lets each seat take 14 (the starter 15) in turn. Both give
  the same distribution [000]; they place the cards of an explicit shoe order differently.
* Seats are numbered in playing order: seat ``i + 1`` sits on seat ``i``'s right.

The relatives (one engine, rules modules)
-----------------------------------------
Gonggong, Tantanan and Cekèn, Chaqui and Chot are Balik Satu with other options: their game
modules (``gonggong.py``, ``tantanan.py``, ``chaqui.py``, ``chot.py``) hold their rules,
presets and scoring functions, and play on :class:`BalikState`. What varies is an option of
:class:`BalikRules`, each defaulting to Balik Satu:

* ``set_size`` (3; Tantanan plays pairs, 2) and ``sets`` (5; Tantanan 3): a winning hand is
  ``sets`` sets of ``set_size`` cards, one of them a mata (the relatives call it a *bak* or an
  *olo*); between turns a hand holds one card fewer.
* ``starter_extra`` (on): the starter is dealt one card more and opens by discarding; off,
  every seat is dealt the same and the starter opens by drawing (Gonggong's "deal 14 cards
  each", Tantanan's "five cards").
* ``discard_wins`` (off): whether a caller may also win by claiming another seat's discard.
* ``chiqui`` (off) and ``expose_olo`` (off): Chaqui's go-out with an identical pair and its
  exposed olo (see :mod:`cherki.games.chaqui`).
* ``scoring`` names a function in the :data:`SCORING` registry (``satu`` and ``lima-belas``
  here; the relatives register theirs) with the stock reserve it needs. Pots carry across the
  hands of a match in the ``context`` given to :meth:`BalikGame.new_state`.
* The call words are the game's (``call_words`` of the :class:`BalikGame` subclass): the
  *tan*-like call (a mata already held, any card of the open rank wins) and the *ceki*-like
  call (the open set must itself become the mata).

The invariant every result keeps: ``sum(payments) + detail.get("pot_change", 0) == 0``.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from cherki.cards import (
    CODES,
    IS_RED,
    N_KINDS,
    OT,
    RANK,
    RF,
    S9,
    WF,
    card_name,
    counts_of,
    format_cards,
    format_hand,
    parse_card,
)
from cherki.engine import (
    Event,
    Game,
    Preset,
    Result,
    ScoreItem,
    State,
    deal_source,
    shuffled,
    tally,
)
from cherki.errors import NotationError, RulesError
from cherki.sets import (
    GROUP_KINDS,
    GROUPINGS,
    HONOUR_RULES,
    N_GROUPS,
    NO_WAIT,
    Wait,
    arrangement,
    group_totals,
    improved_mata,
    is_winning,
    mata_count,
    wait_for,
)

_NUMBER_WORDS: Final[dict[int, str]] = dict(
    enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
        ]
    )
)

# -- action ids -------------------------------------------------------------------------------
TAKE: Final = 0
DRAW: Final = 1
SAMPEI: Final = 2
PASS: Final = 3
DISCARD: Final = 4  # DISCARD + kind
CALL_TAN: Final = DISCARD + N_KINDS  # discard and call (or change to) tan
CALL_CEKI: Final = CALL_TAN + N_KINDS  # discard and call ceki
NUM_ACTIONS: Final = CALL_CEKI + N_KINDS

# -- phases -----------------------------------------------------------------------------------
PHASE_DRAW: Final = 0
PHASE_DISCARD: Final = 1
PHASE_CLAIM: Final = 2
PHASE_OVER: Final = 3
PHASE_NAMES: Final = ("draw", "discard", "claim", "over")

FROM_DEAL: Final = 0
FROM_STOCK: Final = 1
FROM_DISCARD: Final = 2

#: The most half-packs a shoe may hold: [000] "up to 20 people can play with a total of
#: 1 200 cards", 40 half-packs.
MAX_HALF_PACKS: Final = 40

#: Half-packs (30 cards) per player count. [000], [001]
SHOE_TABLES: Final[dict[str, dict[int, int]]] = {
    # Pwee: 2½ decks for 2, 3 for 3-4, 3½ for 5-6 ... 5½ for 13-14
    "pwee": {2: 5, 3: 6, 4: 6, 5: 7, 6: 7, 7: 8, 8: 8, 9: 9, 10: 9, 11: 10, 12: 10, 13: 11, 14: 11},
    # The Babas p.154: 2 decks for 2, then half a deck more per player
    "babas": {p: p + 2 for p in range(2, 15)},
    # Amaro (1993): 2 decks for 3-4 players, 3 for 5-6 ... 7 for 13-14 (2 players not given)
    "amaro": {3: 4, 4: 4, 5: 6, 6: 6, 7: 8, 8: 8, 9: 10, 10: 10, 11: 12, 12: 12, 13: 14, 14: 14},
    # Gonggong [001 citing Javaanse Kaartspelen p.94]: 180 cards for 4, 240 for 6 (5: ours)
    "gonggong": {4: 6, 5: 7, 6: 8},
    # Tantanan [001 citing Javaanse Kaartspelen p.97-8]: one full set of 60 cards
    "tantanan": {3: 2, 4: 2},
    # Chot [001 citing Pwee p.127]: four players, three decks (180 cards)
    "chot": {4: 6},
}

#: Points of the turned card in Balik Satu [000]: rank, Red Nine 10, Nyonya 11, Lau Chian 12.
TURN_POINTS: Final[tuple[int, ...]] = tuple(
    {S9: 10, RF: 11, OT: 12}.get(k, RANK[k]) for k in range(N_KINDS)
)

YEO_CARDS: Final[dict[str, frozenset[int]]] = {
    "one-point": frozenset({0, 9, 18, WF}),
    "suited": frozenset({0, 9, 18}),
    "rank1": frozenset({0, 9, 18, WF, RF, OT}),
}


# -- scoring methods: a registry of functions, each with the stock reserve it needs -----------
@dataclass(frozen=True, slots=True)
class Win:
    """A won hand, as a scoring function sees it.

    ``how`` is ``self-draw`` (own stock draw), ``claim`` (another seat's shown draw),
    ``discard`` (another seat's discard, option ``discard_wins``) or ``kandang-tangan``
    (a winning hand as dealt). ``scoring`` are the stock cards kept back for scoring, in
    order (the turned card, or the fifteen drawn...).
    """

    seat: int
    how: str
    card: int
    from_seat: int
    hand: tuple[int, ...]
    call: str | None
    call_changed: bool
    scoring: tuple[int, ...]

    @property
    def self_drawn(self) -> bool:
        return self.how in ("self-draw", "kandang-tangan")

    @property
    def ceki_win(self) -> bool:
        """Won by completing the mata after calling ceki (not changed to tan): the ayam /
        kandang condition."""
        return (
            self.call == "ceki"
            and not self.call_changed
            and self.how in ("self-draw", "claim", "discard")
        )


@dataclass(frozen=True)
class ScoringMethod:
    """A way of scoring a won hand.

    ``score(state, win)`` returns the hand's :class:`Result`; ``reserve(rules)`` is how many
    stock cards are kept back for it. A ``pot`` method keeps a pot across the hands of a
    match: each seat stakes ``stake`` at the start of a hand that finds the pot empty, and
    the result's ``detail["pot_take"]`` is what the winner takes from it. ``money`` is false
    when a hand's points settle at match level only (Chot's tokens). ``ceki_bonus`` is true
    when a ceki win can score more than a tan win (ayam and kandang, R-BONUS; Chot's
    ten-point tokens, K-SCORE): the search bot then weighs a caller's change of call instead
    of always taking it. ``by_mata`` is true when a win scores a fixed amount per mata (Chaqui's
    olo, C-SCORING), so that a second mata is worth as much as the first. Neither changes a
    score: they tell the bots what the scoring function does.
    """

    name: str
    score: Callable[[BalikState, Win], Result]
    reserve: Callable[[BalikRules], int]
    description: str
    pot: bool = False
    money: bool = True
    ceki_bonus: bool = False
    by_mata: bool = False


#: Scoring methods by name. Balik Satu's are here; the relatives register theirs.
SCORING: dict[str, ScoringMethod] = {}


def register_scoring(method: ScoringMethod) -> ScoringMethod:
    SCORING[method.name] = method
    return method


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


def win_detail(state: BalikState, win: Win) -> dict[str, Any]:
    """The detail every win reports (see docs/records.md)."""
    return {
        "hand": format_hand(win.hand),
        "sets": [format_cards(x) for x in arrangement(win.hand, state.grouping, state.size).sets],
        "call": win.call,
        "call_changed": win.call_changed,
        "winning_card": card_name(win.card) if win.card >= 0 else None,
        "from_seat": win.from_seat,
        "turned": format_cards(win.scoring),
    }


def how_text(win: Win) -> str:
    return {
        "self-draw": "on their own draw",
        "claim": f"on seat {win.from_seat}'s draw",
        "discard": f"on seat {win.from_seat}'s discard",
        "kandang-tangan": "with the hand as dealt (kandang tangan)",
    }[win.how]


def each_pays(n: int, winner: int, total: int) -> tuple[int, ...]:
    """Every other seat pays the winner ``total``."""
    return tuple(total * (n - 1) if t == winner else -total for t in range(n))


def win_result(
    state: BalikState,
    win: Win,
    items: list[ScoreItem],
    detail: dict[str, Any],
    *,
    multiplier: int = 1,
) -> Result:
    """The usual result: the items summed (times ``multiplier``), each other seat paying it."""
    subtotal = sum(i.points for i in items)
    if multiplier != 1:
        items.append(ScoreItem("kandang tangan: dealt a winning hand", 0, multiplier))
    total = subtotal * multiplier
    payments = each_pays(state.n, win.seat, total)
    money = tuple(p * state.rules.cents_per_point for p in payments)
    return Result(
        win.seat,
        win.how,
        f"Seat {win.seat} wins {how_text(win)}, scoring {total}; each other seat pays {total}.",
        tuple(items),
        total,
        payments,
        money,
        detail=detail,
    )


def yeo_result(state: BalikState, win: Win, turned: int, detail: dict[str, Any]) -> Result:
    zero = (0,) * state.n
    return Result(
        None,
        "yeo",
        f"Seat {win.seat} won ({win.how}) but turned {card_name(turned)}, a yeo card: "
        "no score, the hand is played again.",
        payments=zero,
        money=zero,
        redeal=True,
        detail={**detail, "would_be_winner": win.seat},
    )


def _calling_bonus(rules: BalikRules, win: Win, items: list[ScoreItem]) -> int:
    """Tan point, ayam or kandang (Balik Satu and Lima Belas); returns the multiplier."""
    if win.how == "kandang-tangan":
        return rules.kandang_tangan_multiplier
    if win.call == "tan" and rules.tan_bonus:
        items.append(ScoreItem("won after calling tan", rules.tan_bonus))
    elif win.ceki_win:
        if win.how in ("claim", "discard") and rules.ayam_bonus:
            items.append(ScoreItem("ayam: ceki won on another's draw", rules.ayam_bonus))
        elif win.how == "self-draw" and rules.kandang_bonus:
            items.append(ScoreItem("kandang: ceki won on own draw", rules.kandang_bonus))
    return 1


def score_satu(state: BalikState, win: Win) -> Result:
    """Balik Satu [000]: the turned card, yeo, kena, mata, tan / ayam / kandang."""
    rules = state.rules
    hand = list(win.hand)
    detail = win_detail(state, win)
    base_mata, base_red = mata_count(hand, state.size)
    turned = win.scoring[0]
    if rules.yeo_redeal and turned in YEO_CARDS[rules.yeo_cards]:
        return yeo_result(state, win, turned, detail)
    items = [ScoreItem(f"turned card {card_name(turned)}", TURN_POINTS[turned])]
    if rules.kena:
        mata, red = improved_mata(hand, counts_of([turned]), state.grouping, state.size)
    else:
        mata, red = base_mata, base_red
    if mata > base_mata or red > base_red:
        detail["kena"] = True
    plain = mata - red
    if plain:
        # mark the line the turned card improved (an unmarked or a red mata)
        kena = " (kena)" if plain > base_mata - base_red else ""
        items.append(ScoreItem(f"{plain} unmarked mata × 1{kena}", plain))
    if red:
        kena = " (kena)" if red > base_red else ""
        items.append(ScoreItem(f"{red} red mata × 2{kena}", 2 * red))
    detail["mata"], detail["red_mata"] = mata, red
    multiplier = _calling_bonus(rules, win, items)
    return win_result(state, win, items, detail, multiplier=multiplier)


def score_lima_belas(state: BalikState, win: Win) -> Result:
    """Balik Lima Belas [000]: 1 for winning, 1 a mata after swapping from the fifteen."""
    hand = list(win.hand)
    detail = win_detail(state, win)
    mata, red = improved_mata(hand, counts_of(win.scoring), state.grouping, state.size)
    items = [
        ScoreItem("winning", 1),
        ScoreItem(f"{mata} mata × 1 (after swapping from the fifteen drawn)", mata),
    ]
    detail["mata"], detail["red_mata"] = mata, red
    multiplier = _calling_bonus(state.rules, win, items)
    return win_result(state, win, items, detail, multiplier=multiplier)


register_scoring(
    ScoringMethod(
        "satu",
        score_satu,
        lambda r: 1,
        "Balik Satu: turn one card, mata, calling bonuses",
        ceki_bonus=True,
    )
)
register_scoring(
    ScoringMethod(
        "lima-belas",
        score_lima_belas,
        lambda r: 15,
        "Balik Lima Belas: draw fifteen, 1 for winning and 1 a mata, calling bonuses",
        ceki_bonus=True,
    )
)

_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "shoe_table": tuple(SHOE_TABLES),
    "deal": ("rounds", "wash"),
    "honours": HONOUR_RULES,
    "yeo_cards": tuple(YEO_CARDS),
    "caller_changes": ("mata-only", "free", "none"),
    "claim_priority": ("turn-order", "first-caller"),
    "next_starter": ("winner", "next"),
    "chiqui_fail": ("pays", "void"),
}


@dataclass(frozen=True, slots=True)
class BalikRules:
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
    olo_points: int = 5
    chiqui_fail: str = "pays"
    partnerships: bool = False
    ceki_tokens: int = 10
    bangkong_points: int = 20
    bangkong_count: int = 3
    cents_per_bangkong: int = 2000
    cents_per_excess: int = 10

    def check(self) -> None:
        if self.scoring not in SCORING:
            raise RulesError(
                f"option scoring cannot be {self.scoring!r}: choose one of {', '.join(SCORING)}"
            )
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise RulesError(
                    f"option {name} cannot be {value!r}: choose one of {', '.join(choices)}"
                )
        for name in (
            "ayam_bonus",
            "kandang_bonus",
            "tan_bonus",
            "cents_per_point",
            "stake",
            "olo_points",
            "cents_per_bangkong",
            "cents_per_excess",
        ):
            if getattr(self, name) < 0:
                raise RulesError(f"option {name} cannot be negative")
        if self.set_size not in (2, 3):
            raise RulesError("option set_size must be 2 (pairs) or 3 (sets of three)")
        if not 1 <= self.sets <= 9:
            raise RulesError("option sets must be from 1 to 9")
        for name in ("ceki_tokens", "bangkong_points", "bangkong_count"):
            if getattr(self, name) < 1:
                raise RulesError(f"option {name} must be at least 1")
        parse_bets(self.ceken_bets)
        if self.kandang_tangan_multiplier < 1:
            raise RulesError("option kandang_tangan_multiplier must be at least 1")
        if self.half_packs is not None and not 1 <= self.half_packs <= MAX_HALF_PACKS:
            raise RulesError(
                f"option half_packs must be from 1 to {MAX_HALF_PACKS} (the largest table the "
                "sources mention is 1,200 cards for 20 players)"
            )

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
                f"{min(table)}-{max(table)}); set half_packs to choose one"
            )
        return table[players]

    def to_json(self) -> dict[str, Any]:
        return {f: getattr(self, f) for f in self.__dataclass_fields__}


def _preset(name: str, desc: str, sources: str, **kw: Any) -> Preset[BalikRules]:
    rules = BalikRules(**kw)
    rules.check()
    return Preset(name, rules, desc, sources)


BALIK_SATU_PRESETS: Final = (
    _preset(
        "pwee",
        "Singapore rules of Pwee (2003): ayam 10, kandang 20, +1 after tan, 10¢ a point",
        "[000] [001] Pwee 2003 p.122",
    ),
    _preset(
        "babas",
        "The Babas (p.155, 162): ayam 5, kandang 10, no tan point, 5¢ a point, Babas shoe table",
        "[000] [001] The Babas p.154-162",
        shoe_table="babas",
        ayam_bonus=5,
        kandang_bonus=10,
        tan_bonus=0,
        cents_per_point=5,
    ),
    _preset(
        "gateway",
        "Gateway to Old School Games (p.71): ayam 1, kandang 2, no tan point",
        "[000] [001] Gateway to Old School Games p.71",
        ayam_bonus=1,
        kandang_bonus=2,
        tan_bonus=0,
    ),
)


def _lima_belas(p: Preset[BalikRules]) -> Preset[BalikRules]:
    """The same source's bonuses and stakes with the fifteen-card scoring draw [000]."""
    rules = dataclasses.replace(p.rules, scoring="lima-belas", tan_bonus=0)
    desc = p.description.replace("+1 after tan, ", "").replace(", no tan point", "")
    return Preset(p.name, rules, desc + "; the winner draws fifteen", p.sources)


BALIK_LIMA_BELAS_PRESETS: Final = tuple(_lima_belas(p) for p in BALIK_SATU_PRESETS)


# -- observation ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class BalikObservation:
    """What one seat may know. Other seats' hands appear only as sizes and the cards they
    are publicly known to hold (``exposed``: discards they took and draws shown to all)."""

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
    rules: BalikRules = field(default_factory=BalikRules)
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
    pot: int = 0
    context: Mapping[str, Any] | None = None

    @property
    def top(self) -> int | None:
        return self.pile[-1] if self.pile and self.top_available else None

    def table_lines(self) -> list[str]:
        """The public table, in card notation."""
        lines = [f"Stock: {self.stock_left} cards to play"]
        top = self.top
        lines.append(f"Last discard: {card_name(top) if top is not None else '-'}")
        if self.pile:
            lines.append(
                "Discards: "
                + format_cards(self.pile[-12:])
                + (" ..." if len(self.pile) > 12 else "")
            )
        for s in range(self.players):
            bits = [f"{self.hand_sizes[s]} cards"]
            call = self.calls[s]
            if call:
                name = self.call_names[0 if call == "tan" else 1]
                bits.append(f"called {name}" + (" (changed)" if self.call_changed[s] else ""))
            if self.melds and any(self.melds[s]):
                bits.append("exposed olo " + format_hand(self.melds[s]))
            if any(self.exposed[s]):
                bits.append("known to hold " + format_hand(self.exposed[s]))
            lines.append(f"Seat {s}: " + ", ".join(bits))
        if self.claim_card is not None:
            what = "Discard" if self.claim_from_discard else "Shown draw"
            lines.append(f"{what}: {card_name(self.claim_card)} (a winning card for a caller)")
        if self.pot:
            lines.append(f"Pot: {self.pot}")
        return lines

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


# -- the state --------------------------------------------------------------------------------
class BalikState(State):
    """A hand of Balik Satu, Balik Lima Belas or a relative in progress."""

    game: BalikGame

    def __init__(
        self,
        game: BalikGame,
        rules: BalikRules,
        hands: list[list[int]],
        stock: list[int],
        first: int,
        half_packs: int,
        meta: dict[str, Any],
        context: Mapping[str, Any] | None = None,
    ) -> None:
        n = len(hands)
        self.game = game
        self.rules = rules
        self.n = n
        self.meta = meta
        self.half_packs = half_packs
        self.grouping = GROUPINGS[rules.honours]
        self.size = rules.set_size
        self.hand_size = rules.hand_size
        self.hands = hands
        self.stock = stock
        self.pos = 0
        self.live_end = len(stock) - rules.reserve
        self.pile: list[int] = []
        self.pile_seats: list[int] = []
        self.top_available = False
        self.calls: list[str | None] = [None] * n
        self.call_changed = [False] * n
        self.call_order = [-1] * n
        self.waits: list[Wait] = [NO_WAIT] * n
        self.wait_sets: list[frozenset[int]] = [frozenset()] * n
        self.exposed = [[0] * N_KINDS for _ in range(n)]
        self.melded = [[0] * N_KINDS for _ in range(n)]
        self.first = first
        self.current = first
        self.phase = PHASE_DISCARD if rules.starter_extra else PHASE_DRAW
        self.drawn = -1
        self.drawn_from = FROM_DEAL
        self.claimants: list[int] = []
        self.claim_card = -1
        self.claim_drawer = -1
        self.claim_from_discard = False
        self.context: dict[str, Any] = dict(context or {})
        self._init_pot()
        self.log = [Event("deal", first, text=f"{n} players, {len(stock)} cards in the stock")]
        self.history = []
        self._result = None
        self.self_win_ok = rules.starter_extra and rules.kandang_tangan and self._wins(hands[first])

    def _init_pot(self) -> None:
        """Pot methods: each seat stakes when the hand finds the pot empty [001]."""
        self.pot_start = 0
        self.stakes: tuple[int, ...] = (0,) * self.n
        if SCORING[self.rules.scoring].pot:
            self.pot_start = int(self.context.get("pot", 0))
            if self.pot_start <= 0:
                self.stakes = (self.rules.stake,) * self.n
        self.pot = self.pot_start + sum(self.stakes)

    def _wins(self, hand: list[int]) -> bool:
        return is_winning(hand, self.grouping, True, self.size, self.rules.chiqui)

    def _wait(self, hand: list[int]) -> Wait:
        return wait_for(hand, self.grouping, self.size, self.rules.chiqui)

    def _may_discard(self, s: int, k: int) -> bool:
        return self.hands[s][k] > self.melded[s][k]

    # -- copies -------------------------------------------------------------------------
    def clone(self) -> BalikState:
        c = object.__new__(BalikState)
        c.__dict__.update(self.__dict__)
        c.hands = [h[:] for h in self.hands]
        c.pile = self.pile[:]
        c.pile_seats = self.pile_seats[:]
        c.calls = self.calls[:]
        c.call_changed = self.call_changed[:]
        c.call_order = self.call_order[:]
        c.waits = self.waits[:]
        c.wait_sets = self.wait_sets[:]
        c.exposed = [e[:] for e in self.exposed]
        c.melded = [m[:] for m in self.melded]
        c.claimants = self.claimants[:]
        c.log = self.log[:]
        c.history = self.history[:]
        return c

    def card_counts(self) -> list[int]:
        shown = [self.claim_card] if self.claim_card >= 0 else []
        return tally(self.hands, [*self.pile, *self.stock[self.pos :], *shown])

    # -- legal actions ------------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> list[int]:
        if self._result is not None or (seat is not None and seat != self.current):
            return []
        phase = self.phase
        if phase == PHASE_DRAW:
            return [TAKE, DRAW] if self.top_available and self._take_ok(self.current) else [DRAW]
        if phase == PHASE_CLAIM:
            return [SAMPEI, PASS]
        return self._discard_actions(self.current)

    def _take_ok(self, s: int) -> bool:
        """A discard that would complete an exposed olo may be taken only if the seat still
        has a card it may discard afterwards (the olo stays on the table)."""
        k = self.pile[-1]
        hand = self.hands[s]
        if not (self.rules.expose_olo and hand[k] % self.size == self.size - 1):
            return True
        drawn, ok_win = self.drawn, self.self_win_ok
        hand[k] += 1
        self.melded[s][k] += self.size
        self.drawn, self.self_win_ok = k, False
        ok = bool(self._discard_actions(s))
        hand[k] -= 1
        self.melded[s][k] -= self.size
        self.drawn, self.self_win_ok = drawn, ok_win
        return ok

    def _discard_actions(self, s: int) -> list[int]:
        hand = self.hands[s]
        acts = [SAMPEI] if self.self_win_ok else []
        call = self.calls[s]
        if call is None:
            kinds = [k for k in range(N_KINDS) if hand[k] > self.melded[s][k]]
            acts.extend(DISCARD + k for k in kinds)
            acts.extend(self._call_actions(hand, kinds))
            return acts
        return acts + self._caller_discards(s, hand, call)

    def _call_actions(self, hand: list[int], kinds: list[int]) -> list[int]:
        """Discard-and-call actions for a full hand of a seat that has not called."""
        grouping = self.grouping
        size = self.size
        totals = group_totals(hand, grouping)
        open_groups = [g for g, t in enumerate(totals) if t % size]
        cand: set[int] | None = None
        if open_groups:
            # one group one card over a multiple, one group one card short of it
            if len(open_groups) != 2:
                return []
            a, b = open_groups
            ra, rb = totals[a] % size, totals[b] % size
            cand = set()
            if ra == 1 and rb == size - 1:
                cand.add(a)
            if rb == 1 and ra == size - 1:
                cand.add(b)
            if not cand:
                return []
        out: list[int] = []
        for k in kinds:
            if cand is not None and grouping[k] not in cand:
                continue
            hand[k] -= 1
            w = self._wait(hand)
            hand[k] += 1
            if w.call == "tan":
                out.append(CALL_TAN + k)
            elif w.call == "ceki":
                out.append(CALL_CEKI + k)
        return out

    def _caller_discards(self, s: int, hand: list[int], call: str) -> list[int]:
        """Discards open to a seat that has called (R-CHANGE, option caller_changes)."""
        drawn = self.drawn
        acts = [DISCARD + drawn] if drawn >= 0 and self._may_discard(s, drawn) else []
        mode = self.rules.caller_changes
        if mode == "none" or drawn < 0:
            return acts
        size = self.size
        hand[drawn] -= 1
        old_mata = mata_count(hand, size)[0]
        hand[drawn] += 1
        for k in range(N_KINDS):
            if not hand[k] or k == drawn or not self._may_discard(s, k):
                continue
            hand[k] -= 1
            w = self._wait(hand)
            better = mata_count(hand, size)[0] > old_mata
            hand[k] += 1
            if w.call is None or (mode == "mata-only" and not better):
                continue
            if w.call == call:
                acts.append(DISCARD + k)
            else:
                acts.append((CALL_TAN if w.call == "tan" else CALL_CEKI) + k)
        return acts

    def _describe_win(self) -> str:
        r = self.rules
        need = "mata" if r.set_size == 3 else "identical pair (bak)"
        text = (
            f"your hand is not {_NUMBER_WORDS.get(r.sets, str(r.sets))} sets of "
            f"{_NUMBER_WORDS.get(r.set_size, str(r.set_size))} with at least one {need}"
        )
        if r.chiqui:
            text += " (or a set holding an identical pair, a chiqui)"
        return text

    def _why_illegal(self, seat: int, action: int) -> str:
        text = self.game.action_text(action)
        hand = self.hands[seat]
        phase = self.phase
        if phase == PHASE_CLAIM:
            return (
                f"{card_name(self.claim_card)} was just shown and would win for you: "
                "say sampei to claim it or pass"
            )
        if action in (TAKE, DRAW):
            if phase != PHASE_DRAW and self.drawn_from == FROM_DEAL:
                size = _NUMBER_WORDS.get(self.hand_size, str(self.hand_size))
                return f"you start with {size} cards: discard one (no draw on the first turn)"
            if phase != PHASE_DRAW:
                return f"you have already drawn this turn: discard a card ({text} not allowed)"
            if action == TAKE and self.top_available:
                return (
                    f"taking {card_name(self.pile[-1])} would expose an olo and leave you no "
                    "card you may discard"
                )
            return "there is no discard to take" if action == TAKE else "the stock is empty"
        if action == PASS:
            return "there is nothing to pass on: pass only answers a shown winning card"
        if phase == PHASE_DRAW:
            return "first take the last discard or draw from the stock"
        if action == SAMPEI:
            if self.drawn_from == FROM_DISCARD:
                return "the winning card must come from the stock, never from a discard"
            if not self._wins(hand):
                return self._describe_win()
            if self.rules.must_call_to_win and self.calls[seat] is None:
                return "under these rules you must call tan or ceki before you can win"
            return "you cannot win now"
        k = (action - DISCARD) % N_KINDS
        if not hand[k]:
            return f"you have no {card_name(k)} to discard"
        if not self._may_discard(seat, k):
            return f"your {card_name(k)} are an exposed olo: they stay on the table"
        call = self.calls[seat]
        if call is not None:
            mode = self.rules.caller_changes
            if mode == "none":
                return (
                    f"you have called {call}: you may only discard the card you just drew "
                    f"({card_name(self.drawn)})"
                )
            return (
                f"you have called {call}: keep {card_name(self.drawn)} only if your hand "
                + ("still waits" if mode == "free" else "still waits and gains a mata")
                + f"; otherwise discard {card_name(self.drawn)}"
            )
        if action >= CALL_TAN:
            hand[k] -= 1
            w = self._wait(hand)
            hand[k] += 1
            if w.call is None:
                if self.size == 3 and self.rules.sets == 5:
                    shape = "four sets and a card"
                else:
                    shape = "one card"
                return (
                    f"after discarding {card_name(k)} your hand is not {shape} from winning, "
                    "so you cannot call"
                )
            word = self.game.call_words[0 if w.call == "tan" else 1]
            return f"after discarding {card_name(k)} your call is {word}, not {text.split()[-1]}"
        return f"{text} is not allowed now"

    def waiting_for(self) -> str:
        return {
            PHASE_DRAW: "take the discard or draw",
            PHASE_DISCARD: "discard",
            PHASE_CLAIM: "claim or pass",
        }.get(self.phase, "act")

    # -- applying actions ---------------------------------------------------------------
    def _apply(self, action: int) -> list[Event]:
        s = self.current
        if action == DRAW:
            return self._draw(s)
        if action == TAKE:
            card = self.pile.pop()
            self.pile_seats.pop()
            self.top_available = False
            hand = self.hands[s]
            completes_olo = self.rules.expose_olo and hand[card] % self.size == self.size - 1
            hand[card] += 1
            self.exposed[s][card] += 1
            self.drawn, self.drawn_from = card, FROM_DISCARD
            self.self_win_ok = False
            self.phase = PHASE_DISCARD
            events = [Event("take", s, card)]
            if completes_olo:
                # Chaqui: an olo completed from another's discard is exposed [001]
                self.melded[s][card] += self.size
                self.exposed[s][card] = max(self.exposed[s][card], self.melded[s][card])
                olo = format_cards([card] * self.size)
                events.append(Event("expose", s, card, text=f"exposes the olo {olo}"))
            return events
        if action == SAMPEI:
            return self._sampei(s)
        if action == PASS:
            return self._pass(s)
        return self._discard(s, action)

    def _draw(self, s: int) -> list[Event]:
        card = self.stock[self.pos]
        self.pos += 1
        revealed = any(c is not None for c in self.calls)
        event = Event("reveal", s, card) if revealed else Event("draw", s, card, private_to=s)
        if revealed:
            others = [t for t in self._seats_after(s) if card in self.wait_sets[t]]
            if others:
                if self.rules.claim_priority == "first-caller":
                    others.sort(key=lambda t: self.call_order[t])
                mine = self._can_self_win(s, card)
                self.claimants = ([s] if mine else []) + others
                self.claim_card, self.claim_drawer = card, s
                self.claim_from_discard = False
                self.phase = PHASE_CLAIM
                self.current = self.claimants[0]
                return [event]
            self.exposed[s][card] += 1
        self.self_win_ok = self._can_self_win(s, card)
        self.hands[s][card] += 1
        self.drawn, self.drawn_from = card, FROM_STOCK
        self.phase = PHASE_DISCARD
        return [event]

    def _can_self_win(self, s: int, card: int) -> bool:
        """Would ``card`` (not yet in ``s``'s hand) complete a win the rules allow?"""
        if self.rules.must_call_to_win and self.calls[s] is None:
            return False
        hand = self.hands[s]
        hand[card] += 1
        ok = self._wins(hand)
        hand[card] -= 1
        return ok

    def _seats_after(self, s: int) -> list[int]:
        return [(s + i) % self.n for i in range(1, self.n) if self.calls[(s + i) % self.n]]

    def _pass(self, s: int) -> list[Event]:
        events = [Event("pass", s, self.claim_card, text=f"passes on {card_name(self.claim_card)}")]
        self.claimants.pop(0)
        if self.claimants:
            self.current = self.claimants[0]
            return events
        drawer, card = self.claim_drawer, self.claim_card
        self.claim_card = self.claim_drawer = -1
        if self.claim_from_discard:
            # nobody claims the discard: it lies on the pile and play goes on
            self.claim_from_discard = False
            self.pile.append(card)
            self.pile_seats.append(drawer)
            self.top_available = True
            events.extend(self._after_discard(drawer))
            return events
        self.hands[drawer][card] += 1
        self.exposed[drawer][card] += 1
        self.drawn, self.drawn_from = card, FROM_STOCK
        self.self_win_ok = False
        self.phase = PHASE_DISCARD
        self.current = drawer
        return events

    def _discard(self, s: int, action: int) -> list[Event]:
        k = (action - DISCARD) % N_KINDS
        hand = self.hands[s]
        hand[k] -= 1
        if self.exposed[s][k] > self.melded[s][k]:
            self.exposed[s][k] -= 1
        self.pile.append(k)
        self.pile_seats.append(s)
        self.top_available = True
        events = [Event("discard", s, k)]
        if action >= CALL_TAN:
            call = "tan" if action < CALL_CEKI else "ceki"
            name = self.game.call_names[0 if call == "tan" else 1]
            if self.calls[s] is None:
                self.call_order[s] = sum(1 for c in self.calls if c is not None)
                events.append(Event("call", s, text=f"calls {name}!"))
            else:
                self.call_changed[s] = True
                events.append(Event("call", s, text=f"changes the call to {name}"))
            self.calls[s] = call
        if self.calls[s] is not None:
            self.waits[s] = w = self._wait(hand)
            self.wait_sets[s] = frozenset(w.cards)
        self.drawn = -1
        self.drawn_from = FROM_DEAL
        self.self_win_ok = False
        if self.rules.discard_wins:
            others = [t for t in self._seats_after(s) if k in self.wait_sets[t]]
            if others:
                if self.rules.claim_priority == "first-caller":
                    others.sort(key=lambda t: self.call_order[t])
                self.pile.pop()
                self.pile_seats.pop()
                self.top_available = False
                self.claimants = others
                self.claim_card, self.claim_drawer = k, s
                self.claim_from_discard = True
                self.phase = PHASE_CLAIM
                self.current = others[0]
                return events
        events.extend(self._after_discard(s))
        return events

    def _after_discard(self, s: int) -> list[Event]:
        """The turn passes to the right, or the hand ends when the stock is spent."""
        if self.pos >= self.live_end:
            self._finish_no_winner()
            return [Event("end", -1, text=self._result.summary if self._result else "")]
        self.current = (s + 1) % self.n
        self.phase = PHASE_DRAW
        return []

    def _sampei(self, s: int) -> list[Event]:
        if self.phase == PHASE_CLAIM:
            card = self.claim_card
            self.hands[s][card] += 1
            from_seat = self.claim_drawer
            if self.claim_from_discard:
                how = "discard"
            else:
                how = "self-draw" if s == self.claim_drawer else "claim"
            self.claimants = []
            self.claim_card = self.claim_drawer = -1
            self.claim_from_discard = False
        elif self.drawn_from == FROM_DEAL:
            card, how, from_seat = -1, "kandang-tangan", s
        else:
            card, how, from_seat = self.drawn, "self-draw", s
        events = [Event("sampei", s, card if card >= 0 else None, text="sampei!")]
        self._finish_win(s, how, card, from_seat)
        assert self._result is not None
        events.append(Event("end", -1, text=self._result.summary))
        return events

    # -- scoring ------------------------------------------------------------------------
    def _finish_no_winner(self) -> None:
        self.phase = PHASE_OVER
        self.current = -1
        zero = (0,) * self.n
        self._close(
            Result(
                None,
                "stock-out",
                "The stock ran out before anyone won: no score, no payments.",
                payments=zero,
                money=zero,
            )
        )

    def _finish_win(self, s: int, how: str, card: int, from_seat: int) -> None:
        self.phase = PHASE_OVER
        self.current = -1
        win = Win(
            seat=s,
            how=how,
            card=card,
            from_seat=from_seat,
            hand=tuple(self.hands[s]),
            call=self.calls[s],
            call_changed=self.call_changed[s],
            scoring=tuple(self.stock[self.pos : self.pos + self.rules.reserve]),
        )
        self._close(SCORING[self.rules.scoring].score(self, win))

    def _close(self, result: Result) -> None:
        """Settle the pot (pot methods) and keep the result: payments plus the pot's change
        always sum to zero."""
        if SCORING[self.rules.scoring].pot:
            take = int(result.detail.get("pot_take", 0))
            base = result.payments or (0,) * self.n
            payments = tuple(p - st for p, st in zip(base, self.stakes, strict=True))
            after = self.pot - take
            detail = {
                **result.detail,
                "pot": {"before": self.pot_start, "staked": sum(self.stakes), "after": after},
                "pot_change": after - self.pot_start,
            }
            money = tuple(p * self.rules.cents_per_point for p in payments)
            result = dataclasses.replace(result, payments=payments, money=money, detail=detail)
        self._result = result

    def next_context(self) -> dict[str, Any]:
        """The match context the next hand starts from (the pot carried over)."""
        if SCORING[self.rules.scoring].pot:
            pot = self.result.detail.get("pot", {})
            return {"pot": int(pot.get("after", 0))}
        return {}

    # -- observation --------------------------------------------------------------------
    def observation(self, seat: int) -> BalikObservation:
        mine = seat == self.current
        return BalikObservation(
            seat=seat,
            players=self.n,
            current=self.current,
            phase=PHASE_NAMES[self.phase],
            hand=tuple(self.hands[seat]),
            hand_sizes=tuple(sum(h) for h in self.hands),
            stock_left=max(0, self.live_end - self.pos),
            pile=tuple(self.pile),
            top_available=self.top_available,
            calls=tuple(self.calls),
            call_changed=tuple(self.call_changed),
            exposed=tuple(tuple(e) for e in self.exposed),
            claim_card=self.claim_card if self.claim_card >= 0 else None,
            drawn=self.drawn if (self.drawn >= 0 and mine) else None,
            legal=tuple(self.legal_actions(seat)) if mine else (),
            half_packs=self.half_packs,
            honours=self.rules.honours,
            result=self._result,
            rules=self.rules,
            first=self.first,
            call_order=tuple(self.call_order),
            pile_seats=tuple(self.pile_seats),
            drawn_from=self.drawn_from if mine else FROM_DEAL,
            claimants=tuple(self.claimants[:1]),
            claim_drawer=self.claim_drawer,
            melds=tuple(tuple(m) for m in self.melded),
            claim_from_discard=self.claim_from_discard,
            call_names=self.game.call_names,
            pot=self.pot,
            context=self.context or None,
        )

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def next_first(self) -> int:
        """Who starts the next hand (option next_starter)."""
        res = self.result
        if res.winner is None:
            return self.first
        if self.rules.next_starter == "winner":
            return res.winner
        return (self.first + 1) % self.n


# -- the games --------------------------------------------------------------------------------
class BalikGame(Game[BalikRules]):
    """Balik Satu (and, with ``scoring="lima-belas"``, Balik Lima Belas)."""

    name: ClassVar[str] = "balik-satu"
    title: ClassVar[str] = "Balik Satu"
    players: ClassVar[tuple[int, int]] = (2, 14)
    default_players: ClassVar[int] = 4
    direction: ClassVar[str] = "(anti-clockwise: the next player sits on the right)"
    rules_type: ClassVar[type] = BalikRules
    presets: ClassVar[tuple[Preset[Any], ...]] = BALIK_SATU_PRESETS
    num_actions: ClassVar[int] = NUM_ACTIONS
    #: notation words of the two calls: the tan-like call (a mata held, any card of the open
    #: rank wins) and the ceki-like call (the open set must become the mata)
    call_words: ClassVar[tuple[str, str]] = ("tan", "ceki")
    #: the calls' names for people ("ceki kowah", "tan nokang"...)
    call_names: ClassVar[tuple[str, str]] = ("tan", "ceki")
    #: the rules document (docs/rules/NAME.md)
    rules_doc: ClassVar[str] = "balik-satu"
    #: new_state takes a match ``context`` (the pot and other things kept across hands)
    accepts_context: ClassVar[bool] = True

    def new_state(
        self,
        rules: BalikRules | None = None,
        players: int | None = None,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        shoe: Sequence[int] | None = None,
        stack: tuple[Sequence[Sequence[int]], Sequence[int]] | None = None,
        first: int = 0,
        context: Mapping[str, Any] | None = None,
    ) -> BalikState:
        rules, n = self.table(rules, players, first)
        self.check_table(rules, n)
        half_packs = rules.shoe_half_packs(n)
        size = half_packs * N_KINDS
        each = rules.hand_size - 1
        dealt = each * n + (1 if rules.starter_extra else 0)
        if size < dealt + rules.reserve + 1:
            raise RulesError(
                f"{half_packs} half-packs ({size} cards) are too few for {n} players: the deal "
                f"takes {dealt} and the stock needs {rules.reserve} for scoring plus one to play"
            )
        sizes = [each + 1 if (i == first and rules.starter_extra) else each for i in range(n)]
        src = deal_source(
            players=n,
            first=first,
            half_packs=half_packs,
            hand_sizes=sizes,
            seed=seed,
            rng=rng,
            shoe=shoe,
            stack=stack,
        )
        meta = src.meta
        if src.order is not None:
            hands, stock = self.deal(src.order, n, first, rules.deal, each, rules.starter_extra)
        else:
            assert src.hands is not None and src.stock is not None
            hands, stock = [counts_of(h) for h in src.hands], src.stock
        if context:
            meta["context"] = dict(context)
        return BalikState(self, rules, hands, stock, first, half_packs, meta, context)

    def check_table(self, rules: BalikRules, players: int) -> None:
        """Checks a relative adds on its rules and table (partnerships, side bets...)."""
        for a, b, _ in parse_bets(rules.ceken_bets):
            if max(a, b) >= players:
                raise RulesError(
                    f"option ceken_bets names seat {max(a, b)} at a table of {players}"
                )
        if rules.partnerships and players % 2:
            raise RulesError("partnerships need an even number of players")

    @staticmethod
    def deal(
        order: Sequence[int],
        n: int,
        first: int,
        method: str,
        each: int = 14,
        extra: bool = True,
    ) -> tuple[list[list[int]], list[int]]:
        """Deal a shoe order: returns count-vector hands and the stock (top first).

        ``each`` cards to every seat and, with ``extra``, one more to the starter: in two
        packets (7 and 7 in Balik Satu; the first packet the larger half) with the starter's
        extra card between them, or (``wash``) each seat's whole hand in turn.
        """
        hands = [[0] * N_KINDS for _ in range(n)]
        seats = [(first + i) % n for i in range(n)]
        i = 0

        def give(seat: int, count: int) -> None:
            nonlocal i
            for k in order[i : i + count]:
                hands[seat][k] += 1
            i += count

        plus = 1 if extra else 0
        if method == "wash":
            for s in seats:
                give(s, each + plus if s == first else each)
        else:
            half = (each + 1) // 2
            for s in seats:
                give(s, half)
            give(first, plus)
            for s in seats:
                give(s, each - half)
        return hands, list(order[i:])

    def determinize(self, obs: Any, rng: random.Random) -> BalikState:
        return determinize(obs, rng, self)

    def action_text(self, action: int) -> str:
        if action == TAKE:
            return "take"
        if action == DRAW:
            return "draw"
        if action == SAMPEI:
            return "sampei"
        if action == PASS:
            return "pass"
        if not DISCARD <= action < NUM_ACTIONS:
            raise NotationError(f"{action} is not a {self.title} action id (0-{NUM_ACTIONS - 1})")
        k = (action - DISCARD) % N_KINDS
        if action < CALL_TAN:
            return f"discard {CODES[k]}"
        return f"discard {CODES[k]} {self.call_words[0 if action < CALL_CEKI else 1]}"

    def parse_action(self, text: str) -> int:
        original = text.strip().split()
        words = [w.lower() for w in original]
        simple = {"take": TAKE, "draw": DRAW, "sampei": SAMPEI, "sampei!": SAMPEI, "pass": PASS}
        if len(words) == 1 and words[0] in simple:
            return simple[words[0]]
        if words and words[0] == "discard" and len(words) in (2, 3):
            k = parse_card(original[1])
            if len(words) == 2:
                return DISCARD + k
            tan, ceki = self.call_words
            if words[2] in (tan, "tan"):
                return CALL_TAN + k
            if words[2] in (ceki, "ceki"):
                return CALL_CEKI + k
            raise NotationError(f"a discard can call {tan!r} or {ceki!r}, not {words[2]!r}")
        tan, ceki = self.call_words
        raise NotationError(
            f"{text.strip()!r} is not a {self.title} action: use take, draw, sampei, pass, "
            f"'discard CARD', 'discard CARD {tan}' or 'discard CARD {ceki}'"
        )


def determinize(
    obs: BalikObservation,
    rng: random.Random,
    game: BalikGame | None = None,
    hand_weight: Callable[[list[int]], float] | None = None,
    tries: int = 8,
) -> BalikState:
    """A full state consistent with what ``obs.seat`` knows, hidden cards sampled at random.

    Other seats keep the cards they are known to hold and get the rest of their hand from the
    cards this seat has not seen; the stock is the remainder, shuffled. Used by search bots,
    which must never look at the real hidden cards.
    """
    rules = obs.rules
    n = obs.players
    avail = obs.unseen()
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[obs.seat] = list(obs.hand)
    others = [t for t in range(n) if t != obs.seat]
    # callers first: their hands must really wait with the call they made
    for t in sorted(others, key=lambda t: obs.calls[t] is None):
        need = obs.hand_sizes[t] - sum(obs.exposed[t])
        call = obs.calls[t]
        h = _sample_waiting(avail, obs.exposed[t], need, rules, call, rng) if call else None
        if h is None:
            pool = [k for k, c in enumerate(avail) for _ in range(c)]
            options = []
            for _ in range(tries if hand_weight is not None else 1):
                cand = list(obs.exposed[t])
                for k in rng.sample(pool, need):
                    cand[k] += 1
                options.append(cand)
            if hand_weight is None:
                h = options[0]
            else:  # hands people keep: the better organised, the likelier
                weights = [math.exp(hand_weight(c)) for c in options]
                h = rng.choices(options, weights=weights)[0]
        for k in range(N_KINDS):
            avail[k] -= h[k] - obs.exposed[t][k]
        hands[t] = h
    stock = shuffled([k for k, c in enumerate(avail) for _ in range(c)], rng)
    st = object.__new__(BalikState)
    st.game = (
        game
        if game is not None
        else (BalikGame() if rules.scoring == "satu" else BalikLimaBelasGame())
    )
    st.rules = rules
    st.n = n
    st.meta = {"first": obs.first, "determinized": True}
    st.half_packs = obs.half_packs
    st.grouping = GROUPINGS[rules.honours]
    st.size = rules.set_size
    st.hand_size = rules.hand_size
    st.hands = hands
    st.stock = stock
    st.pos = 0
    st.live_end = len(stock) - rules.reserve
    st.pile = list(obs.pile)
    st.pile_seats = list(obs.pile_seats)
    st.top_available = obs.top_available
    st.calls = list(obs.calls)
    st.call_changed = list(obs.call_changed)
    st.call_order = list(obs.call_order) if obs.call_order else [-1] * n
    st.waits = [st._wait(hands[t]) if obs.calls[t] else NO_WAIT for t in range(n)]
    st.wait_sets = [frozenset(w.cards) for w in st.waits]
    st.exposed = [list(e) for e in obs.exposed]
    st.melded = [list(m) for m in obs.melds] if obs.melds else [[0] * N_KINDS for _ in range(n)]
    st.claim_from_discard = obs.claim_from_discard
    st.context = dict(obs.context or {})
    st._init_pot()
    st.first = obs.first
    st.current = obs.current
    st.phase = PHASE_NAMES.index(obs.phase)
    st.drawn = obs.drawn if obs.drawn is not None else -1
    st.drawn_from = obs.drawn_from
    st.claimants = list(obs.claimants)
    st.claim_card = obs.claim_card if obs.claim_card is not None else -1
    st.claim_drawer = obs.claim_drawer
    if st.phase == PHASE_CLAIM and obs.claim_card is not None:
        # the claimants after the one deciding now, as the sampled hands make them
        later = [t for t in st._seats_after(obs.current) if obs.claim_card in st.wait_sets[t]]
        st.claimants = list(obs.claimants) + [
            t for t in later if t not in obs.claimants and t != obs.claim_drawer
        ]
    st.log = []
    st.history = []
    st._result = None
    st.self_win_ok = SAMPEI in obs.legal and st.phase == PHASE_DISCARD
    return st


def _sample_waiting(
    avail: Sequence[int],
    known: Sequence[int],
    need: int,
    rules: BalikRules,
    call: str,
    rng: random.Random,
    tries: int = 24,
) -> list[int] | None:
    """A hand for a seat that has called: its ``known`` cards plus ``need`` cards from
    ``avail``, one card from winning with that very call (None if no try finds one).

    Built, not merely drawn: pick the open group, bring every group to a whole number of sets
    (the open one to a set less one card), then add whole sets, a mata among them for a tan
    call, and keep the first hand whose wait really is ``call``.
    """
    size = rules.set_size
    grouping = GROUPINGS[rules.honours]
    kinds_of = GROUP_KINDS[rules.honours]
    if (sum(known) + need) % size != size - 1:
        return None
    base = sum(known)
    groups = [g for g in range(N_GROUPS) if kinds_of[g]]
    for _ in range(tries):
        left = list(avail)
        h = list(known)
        open_g = rng.choice(groups)
        ok = True
        if call == "ceki":  # the open set is an identical part-set, the hope of a mata
            pair = [k for k in kinds_of[open_g] if h[k] == 0 and left[k] >= size - 1]
            if not pair:
                continue
            k = rng.choice(pair)
            left[k] -= size - 1
            h[k] += size - 1
        for g in groups:
            want = size - 1 if g == open_g else 0
            while ok and sum(h[k] for k in kinds_of[g]) % size != want:
                ok = _take_one(left, h, kinds_of[g], rng)
        if call == "tan" and ok and not any(c >= size for c in h):
            triple = [k for k in range(N_KINDS) if left[k] >= size]
            if not triple:
                continue
            k = rng.choice(triple)
            left[k] -= size
            h[k] += size
        while ok and sum(h) - base < need:
            g = rng.choice(groups)
            for _ in range(size):
                ok = ok and _take_one(left, h, kinds_of[g], rng)
        if not ok or sum(h) - base != need:
            continue
        w = wait_for(h, grouping, size, rules.chiqui)
        if w.call == call and w.cards:
            return h
    return None


def _take_one(left: list[int], hand: list[int], kinds: Sequence[int], rng: random.Random) -> bool:
    """Move one random card (weighted by copies left) of ``kinds`` from ``left`` to ``hand``."""
    pool = [k for k in kinds if left[k] > 0]
    if not pool:
        return False
    k = rng.choices(pool, weights=[left[k] for k in pool])[0]
    left[k] -= 1
    hand[k] += 1
    return True


class BalikLimaBelasGame(BalikGame):
    """Balik Lima Belas: Balik Satu with the fifteen-card scoring draw."""

    name: ClassVar[str] = "balik-lima-belas"
    title: ClassVar[str] = "Balik Lima Belas"
    presets: ClassVar[tuple[Preset[Any], ...]] = BALIK_LIMA_BELAS_PRESETS


@dataclass(frozen=True, slots=True)
class HandReport:
    """Analysis of a hand for players and bots (``cherki hand``)."""

    cards: int
    winning: bool
    sets: tuple[tuple[int, ...], ...]
    leftover: tuple[int, ...]
    mata: int
    red_mata: int
    call: str | None
    waits: tuple[int, ...]
    discards_to_call: dict[int, tuple[str, tuple[int, ...]]] = field(default_factory=dict)


def analyse_hand(
    counts: Sequence[int],
    honours: str = "rank1",
    *,
    size: int = 3,
    sets: int = 5,
    chiqui: bool = False,
) -> HandReport:
    """Whether a hand wins, its best arrangement, what it waits on, and what it may call.

    A full hand is ``sets`` sets of ``size`` cards (15 in Balik Satu, 6 in Tantanan); a hand
    one card short may wait; a full hand that does not win may discard to wait.
    """
    grouping = GROUPINGS[honours]
    full = size * sets
    n = sum(counts)
    arr = arrangement(counts, grouping, size)
    hand = list(counts)
    winning = n == full and is_winning(hand, grouping, size=size, chiqui=chiqui)
    wait = wait_for(hand, grouping, size, chiqui) if n == full - 1 else NO_WAIT
    calls: dict[int, tuple[str, tuple[int, ...]]] = {}
    if n == full:
        for k in range(N_KINDS):
            if hand[k]:
                hand[k] -= 1
                w = wait_for(hand, grouping, size, chiqui)
                hand[k] += 1
                if w.call:
                    calls[k] = (w.call, w.cards)
    return HandReport(
        n, winning, arr.sets, arr.leftover, arr.mata, arr.red_mata, wait.call, wait.cards, calls
    )


__all__ = [
    "BALIK_LIMA_BELAS_PRESETS",
    "BALIK_SATU_PRESETS",
    "CALL_CEKI",
    "CALL_TAN",
    "DISCARD",
    "DRAW",
    "IS_RED",
    "NUM_ACTIONS",
    "PASS",
    "SAMPEI",
    "SHOE_TABLES",
    "TAKE",
    "TURN_POINTS",
    "BalikGame",
    "BalikLimaBelasGame",
    "BalikObservation",
    "BalikRules",
    "BalikState",
    "HandReport",
    "analyse_hand",
]
