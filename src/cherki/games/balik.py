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
  the others by who called first. Each in turn may claim ("sampei") or pass.
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
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
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
    check_shoe_order,
    fill_stack,
    shuffled,
)
from cherki.errors import NotationError, RulesError
from cherki.sets import (
    GROUPINGS,
    HONOUR_RULES,
    NO_WAIT,
    Wait,
    arrangement,
    group_totals,
    improved_mata,
    is_winning,
    mata_count,
    wait_for,
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

#: Half-packs (30 cards) per player count. [000], [001]
SHOE_TABLES: Final[dict[str, dict[int, int]]] = {
    # Pwee: 2½ decks for 2, 3 for 3-4, 3½ for 5-6 ... 5½ for 13-14
    "pwee": {2: 5, 3: 6, 4: 6, 5: 7, 6: 7, 7: 8, 8: 8, 9: 9, 10: 9, 11: 10, 12: 10, 13: 11, 14: 11},
    # The Babas p.154: 2 decks for 2, then half a deck more per player
    "babas": {p: p + 2 for p in range(2, 15)},
    # Amaro (1993): 2 decks for 3-4 players, 3 for 5-6 ... 7 for 13-14 (2 players not given)
    "amaro": {3: 4, 4: 4, 5: 6, 6: 6, 7: 8, 8: 8, 9: 10, 10: 10, 11: 12, 12: 12, 13: 14, 14: 14},
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

_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "scoring": ("satu", "lima-belas"),
    "shoe_table": tuple(SHOE_TABLES),
    "deal": ("rounds", "wash"),
    "honours": HONOUR_RULES,
    "yeo_cards": tuple(YEO_CARDS),
    "caller_changes": ("mata-only", "free", "none"),
    "claim_priority": ("turn-order", "first-caller"),
    "next_starter": ("winner", "next"),
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

    def check(self) -> None:
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise RulesError(
                    f"option {name} cannot be {value!r}: choose one of {', '.join(choices)}"
                )
        for name in ("ayam_bonus", "kandang_bonus", "tan_bonus", "cents_per_point"):
            if getattr(self, name) < 0:
                raise RulesError(f"option {name} cannot be negative")
        if self.kandang_tangan_multiplier < 1:
            raise RulesError("option kandang_tangan_multiplier must be at least 1")
        if self.half_packs is not None and self.half_packs < 1:
            raise RulesError("option half_packs must be at least 1")

    @property
    def reserve(self) -> int:
        """Stock cards kept back for the winner's scoring draw."""
        return 15 if self.scoring == "lima-belas" else 1

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
            if self.calls[s]:
                bits.append(
                    f"called {self.calls[s]}" + (" (changed)" if self.call_changed[s] else "")
                )
            if any(self.exposed[s]):
                bits.append("known to hold " + format_hand(self.exposed[s]))
            lines.append(f"Seat {s}: " + ", ".join(bits))
        if self.claim_card is not None:
            lines.append(f"Shown draw: {card_name(self.claim_card)} (a winning card for a caller)")
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
    """A hand of Balik Satu or Balik Lima Belas in progress."""

    def __init__(
        self,
        game: BalikGame,
        rules: BalikRules,
        hands: list[list[int]],
        stock: list[int],
        first: int,
        half_packs: int,
        meta: dict[str, Any],
    ) -> None:
        n = len(hands)
        self.game = game
        self.rules = rules
        self.n = n
        self.meta = meta
        self.half_packs = half_packs
        self.grouping = GROUPINGS[rules.honours]
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
        self.first = first
        self.current = first
        self.phase = PHASE_DISCARD
        self.drawn = -1
        self.drawn_from = FROM_DEAL
        self.claimants: list[int] = []
        self.claim_card = -1
        self.claim_drawer = -1
        self.log = [Event("deal", first, text=f"{n} players, {len(stock)} cards in the stock")]
        self.history = []
        self._result = None
        self.self_win_ok = rules.kandang_tangan and is_winning(hands[first], self.grouping)

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
        c.claimants = self.claimants[:]
        c.log = self.log[:]
        c.history = self.history[:]
        return c

    # -- legal actions ------------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> list[int]:
        if self._result is not None or (seat is not None and seat != self.current):
            return []
        phase = self.phase
        if phase == PHASE_DRAW:
            return [TAKE, DRAW] if self.top_available else [DRAW]
        if phase == PHASE_CLAIM:
            return [SAMPEI, PASS]
        return self._discard_actions(self.current)

    def _discard_actions(self, s: int) -> list[int]:
        hand = self.hands[s]
        acts = [SAMPEI] if self.self_win_ok else []
        call = self.calls[s]
        if call is None:
            kinds = [k for k in range(N_KINDS) if hand[k]]
            acts.extend(DISCARD + k for k in kinds)
            acts.extend(self._call_actions(hand, kinds))
            return acts
        return acts + self._caller_discards(s, hand, call)

    def _call_actions(self, hand: list[int], kinds: list[int]) -> list[int]:
        """Discard-and-call actions for a 15-card hand of a seat that has not called."""
        grouping = self.grouping
        totals = group_totals(hand, grouping)
        ones = [g for g, t in enumerate(totals) if t % 3 == 1]
        twos = sum(1 for t in totals if t % 3 == 2)
        if ones and not (len(ones) == 1 and twos == 1):
            return []
        if twos and not ones:
            return []
        out: list[int] = []
        for k in kinds:
            if ones and grouping[k] != ones[0]:
                continue
            hand[k] -= 1
            w = wait_for(hand, grouping)
            hand[k] += 1
            if w.call == "tan":
                out.append(CALL_TAN + k)
            elif w.call == "ceki":
                out.append(CALL_CEKI + k)
        return out

    def _caller_discards(self, s: int, hand: list[int], call: str) -> list[int]:
        """Discards open to a seat that has called (R-CHANGE, option caller_changes)."""
        drawn = self.drawn
        acts = [DISCARD + drawn] if drawn >= 0 else []
        mode = self.rules.caller_changes
        if mode == "none" or drawn < 0:
            return acts
        hand[drawn] -= 1
        old_mata = mata_count(hand)[0]
        hand[drawn] += 1
        for k in range(N_KINDS):
            if not hand[k] or k == drawn:
                continue
            hand[k] -= 1
            w = wait_for(hand, self.grouping)
            better = mata_count(hand)[0] > old_mata
            hand[k] += 1
            if w.call is None or (mode == "mata-only" and not better):
                continue
            if w.call == call:
                acts.append(DISCARD + k)
            else:
                acts.append((CALL_TAN if w.call == "tan" else CALL_CEKI) + k)
        return acts

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
                return "you start with fifteen cards: discard one (no draw on the first turn)"
            if phase != PHASE_DRAW:
                return f"you have already drawn this turn: discard a card ({text} not allowed)"
            return "there is no discard to take" if action == TAKE else "the stock is empty"
        if action == PASS:
            return "there is nothing to pass on: pass only answers a shown winning card"
        if phase == PHASE_DRAW:
            return "first take the last discard or draw from the stock"
        if action == SAMPEI:
            if self.drawn_from == FROM_DISCARD:
                return "the winning card must come from the stock, never from a discard"
            if not is_winning(hand, self.grouping):
                return "your hand is not five sets of three with at least one mata"
            if self.rules.must_call_to_win and self.calls[seat] is None:
                return "under these rules you must call tan or ceki before you can win"
            return "you cannot win now"
        k = (action - DISCARD) % N_KINDS
        if not hand[k]:
            return f"you have no {card_name(k)} to discard"
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
            w = wait_for(hand, self.grouping)
            hand[k] += 1
            if w.call is None:
                return (
                    f"after discarding {card_name(k)} your hand is not four sets and a card "
                    "from winning, so you cannot call"
                )
            return f"after discarding {card_name(k)} your call is {w.call}, not {text.split()[-1]}"
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
            self.hands[s][card] += 1
            self.exposed[s][card] += 1
            self.drawn, self.drawn_from = card, FROM_DISCARD
            self.self_win_ok = False
            self.phase = PHASE_DISCARD
            return [Event("take", s, card)]
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
        ok = is_winning(hand, self.grouping)
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
        self.hands[drawer][card] += 1
        self.exposed[drawer][card] += 1
        self.drawn, self.drawn_from = card, FROM_STOCK
        self.self_win_ok = False
        self.claim_card = self.claim_drawer = -1
        self.phase = PHASE_DISCARD
        self.current = drawer
        return events

    def _discard(self, s: int, action: int) -> list[Event]:
        k = (action - DISCARD) % N_KINDS
        hand = self.hands[s]
        hand[k] -= 1
        if self.exposed[s][k]:
            self.exposed[s][k] -= 1
        self.pile.append(k)
        self.pile_seats.append(s)
        self.top_available = True
        events = [Event("discard", s, k)]
        if action >= CALL_TAN:
            call = "tan" if action < CALL_CEKI else "ceki"
            if self.calls[s] is None:
                self.call_order[s] = sum(1 for c in self.calls if c is not None)
                events.append(Event("call", s, text=f"calls {call}!"))
            else:
                self.call_changed[s] = True
                events.append(Event("call", s, text=f"changes the call to {call}"))
            self.calls[s] = call
        if self.calls[s] is not None:
            self.waits[s] = w = wait_for(hand, self.grouping)
            self.wait_sets[s] = frozenset(w.cards)
        self.drawn = -1
        self.drawn_from = FROM_DEAL
        self.self_win_ok = False
        nxt = (s + 1) % self.n
        if self.pos >= self.live_end:
            self._finish_no_winner()
            events.append(Event("end", -1, text=self._result.summary if self._result else ""))
            return events
        self.current = nxt
        self.phase = PHASE_DRAW
        return events

    def _sampei(self, s: int) -> list[Event]:
        if self.phase == PHASE_CLAIM:
            card = self.claim_card
            self.hands[s][card] += 1
            how = "self-draw" if s == self.claim_drawer else "claim"
            from_seat = self.claim_drawer
            self.claimants = []
            self.claim_card = self.claim_drawer = -1
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
        self._result = Result(
            None,
            "stock-out",
            "The stock ran out before anyone won: no score, no payments.",
            payments=zero,
            money=zero,
        )

    def _finish_win(self, s: int, how: str, card: int, from_seat: int) -> None:
        rules = self.rules
        hand = self.hands[s]
        self.phase = PHASE_OVER
        self.current = -1
        scoring = self.stock[self.pos : self.pos + rules.reserve]
        zero = (0,) * self.n
        call = self.calls[s]
        base_mata, base_red = mata_count(hand)
        detail: dict[str, Any] = {
            "hand": format_hand(hand),
            "sets": [format_cards(x) for x in arrangement(hand, self.grouping).sets],
            "call": call,
            "call_changed": self.call_changed[s],
            "winning_card": card_name(card) if card >= 0 else None,
            "from_seat": from_seat,
            "turned": format_cards(scoring),
        }
        items: list[ScoreItem] = []
        winner_name = f"Seat {s}"
        if rules.scoring == "satu":
            turned = scoring[0]
            if rules.yeo_redeal and turned in YEO_CARDS[rules.yeo_cards]:
                self._result = Result(
                    None,
                    "yeo",
                    f"{winner_name} won ({how}) but turned {card_name(turned)}, a yeo card: "
                    "no score, the hand is played again.",
                    payments=zero,
                    money=zero,
                    redeal=True,
                    detail={**detail, "would_be_winner": s},
                )
                return
            items.append(ScoreItem(f"turned card {card_name(turned)}", TURN_POINTS[turned]))
            if rules.kena:
                mata, red = improved_mata(hand, counts_of([turned]), self.grouping)
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
        else:
            mata, red = improved_mata(hand, counts_of(scoring), self.grouping)
            items.append(ScoreItem("winning", 1))
            items.append(
                ScoreItem(f"{mata} mata × 1 (after swapping from the fifteen drawn)", mata)
            )
        detail["mata"], detail["red_mata"] = mata, red
        multiplier = 1
        if how == "kandang-tangan":
            multiplier = rules.kandang_tangan_multiplier
        elif call == "tan" and rules.tan_bonus:
            items.append(ScoreItem("won after calling tan", rules.tan_bonus))
        elif call == "ceki" and not self.call_changed[s]:
            if how == "claim" and rules.ayam_bonus:
                items.append(ScoreItem("ayam: ceki won on another's draw", rules.ayam_bonus))
            elif how == "self-draw" and rules.kandang_bonus:
                items.append(ScoreItem("kandang: ceki won on own draw", rules.kandang_bonus))
        subtotal = sum(i.points for i in items)
        if multiplier != 1:
            items.append(ScoreItem("kandang tangan: dealt a winning hand", 0, multiplier))
        total = subtotal * multiplier
        payments = tuple(total * (self.n - 1) if t == s else -total for t in range(self.n))
        money = tuple(p * rules.cents_per_point for p in payments)
        how_text = {
            "self-draw": "on their own draw",
            "claim": f"on seat {from_seat}'s draw",
            "kandang-tangan": "with the hand as dealt (kandang tangan)",
        }[how]
        self._result = Result(
            s,
            how,
            f"{winner_name} wins {how_text}, scoring {total}; each other seat pays {total}.",
            tuple(items),
            total,
            payments,
            money,
            detail=detail,
        )

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
    rules_type: ClassVar[type] = BalikRules
    presets: ClassVar[tuple[Preset[Any], ...]] = BALIK_SATU_PRESETS
    num_actions: ClassVar[int] = NUM_ACTIONS

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
    ) -> BalikState:
        rules = rules if rules is not None else self.default_preset().rules
        rules.check()
        n = self.default_players if players is None else players
        self.check_players(n)
        if not 0 <= first < n:
            raise RulesError(f"the first player must be a seat from 0 to {n - 1}")
        half_packs = rules.shoe_half_packs(n)
        size = half_packs * N_KINDS
        dealt = 14 * n + 1
        if size < dealt + rules.reserve + 1:
            raise RulesError(
                f"{half_packs} half-packs ({size} cards) are too few for {n} players: the deal "
                f"takes {dealt} and the stock needs {rules.reserve} for scoring plus one to play"
            )
        meta: dict[str, Any] = {"first": first, "seed": seed}
        if stack is not None:
            hands_cards, top = stack
            if len(hands_cards) != n:
                raise RulesError(f"the stacked deal gives {len(hands_cards)} hands for {n} players")
            for i, h in enumerate(hands_cards):
                want = 15 if i == first else 14
                if len(h) != want:
                    raise RulesError(f"seat {i}'s stacked hand has {len(h)} cards, not {want}")
            stack_rng = random.Random(seed) if seed is not None else None
            hand_lists, stock = fill_stack(hands_cards, top, half_packs, stack_rng)
            hands = [counts_of(h) for h in hand_lists]
            meta["stack_cards"] = ([list(h) for h in hands_cards], list(top))
        else:
            if shoe is not None:
                check_shoe_order(shoe, half_packs)
                order = list(shoe)
                meta["shoe"] = order
            else:
                if rng is None:
                    rng = random.Random(seed)
                order = shuffled([k for k in range(N_KINDS) for _ in range(half_packs)], rng)
                if seed is None:
                    meta["shoe"] = order  # an outside generator: keep the order to replay
            hands, stock = self.deal(order, n, first, rules.deal)
        return BalikState(self, rules, hands, stock, first, half_packs, meta)

    @staticmethod
    def deal(
        order: Sequence[int], n: int, first: int, method: str
    ) -> tuple[list[list[int]], list[int]]:
        """Deal a shoe order: returns count-vector hands and the stock (top first)."""
        hands = [[0] * N_KINDS for _ in range(n)]
        seats = [(first + i) % n for i in range(n)]
        i = 0

        def give(seat: int, count: int) -> None:
            nonlocal i
            for k in order[i : i + count]:
                hands[seat][k] += 1
            i += count

        if method == "wash":
            for s in seats:
                give(s, 15 if s == first else 14)
        else:
            for s in seats:
                give(s, 7)
            give(first, 1)
            for s in seats:
                give(s, 7)
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
        return f"discard {CODES[k]} {'tan' if action < CALL_CEKI else 'ceki'}"

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
            if words[2] == "tan":
                return CALL_TAN + k
            if words[2] == "ceki":
                return CALL_CEKI + k
            raise NotationError(f"a discard can call 'tan' or 'ceki', not {words[2]!r}")
        raise NotationError(
            f"{text.strip()!r} is not a {self.title} action: use take, draw, sampei, pass, "
            "'discard CARD', 'discard CARD tan' or 'discard CARD ceki'"
        )


def determinize(
    obs: BalikObservation, rng: random.Random, game: BalikGame | None = None
) -> BalikState:
    """A full state consistent with what ``obs.seat`` knows, hidden cards sampled at random.

    Other seats keep the cards they are known to hold and get the rest of their hand from the
    cards this seat has not seen; the stock is the remainder, shuffled. Used by search bots,
    which must never look at the real hidden cards.
    """
    rules = obs.rules
    n = obs.players
    pool = [k for k, c in enumerate(obs.unseen()) for _ in range(c)]
    pool = shuffled(pool, rng)
    hands: list[list[int]] = []
    i = 0
    for t in range(n):
        if t == obs.seat:
            hands.append(list(obs.hand))
            continue
        h = list(obs.exposed[t])
        need = obs.hand_sizes[t] - sum(h)
        for k in pool[i : i + need]:
            h[k] += 1
        i += need
        hands.append(h)
    stock = pool[i:]
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
    st.waits = [wait_for(hands[t], st.grouping) if obs.calls[t] else NO_WAIT for t in range(n)]
    st.wait_sets = [frozenset(w.cards) for w in st.waits]
    st.exposed = [list(e) for e in obs.exposed]
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


def analyse_hand(counts: Sequence[int], honours: str = "rank1") -> HandReport:
    """Whether a hand wins, its best arrangement, what it waits on, and what it may call."""
    grouping = GROUPINGS[honours]
    n = sum(counts)
    arr = arrangement(counts, grouping)
    hand = list(counts)
    winning = n == 15 and is_winning(hand, grouping)
    wait = wait_for(hand, grouping) if n == 14 else NO_WAIT
    calls: dict[int, tuple[str, tuple[int, ...]]] = {}
    if n == 15:
        for k in range(N_KINDS):
            if hand[k]:
                hand[k] -= 1
                w = wait_for(hand, grouping)
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
