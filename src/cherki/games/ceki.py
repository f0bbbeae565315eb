"""Ceki (Kowah).

The rules (source ``003_d2bfcc59e0e90443.txt`` = [003], "Ceki (or Kowah), a traditional game
for 2 - 6 players"; the Balik texts [000] [001] give context only)
------------------------------------------------------------------------------------------
* Equipment: two Ceki packs of 60 cards, so 120 cards, each of the 30 kinds four times.
  [003 "two packs are required, so each single card will be repeated four times", R-SHOE]
* 2 to 6 players. A dealer, chosen at random, shuffles; the player on his right cuts. He deals
  two cards to each player clockwise, four times, eight cards each; no one looks until the
  deal is complete. The rest is a face-down pile; the first player, on the dealer's left,
  starts. [003 "The opening deal", R-DEAL]
* Goal: three sets of three cards of one value; suits do not matter; honours form sets only
  with their own kind. [003 "The aim of the game", R-SETS]
* A set is worth the sum of its cards; honours are worth 1 (a set of honours scores 3), three
  9s are worth 27. [003, R-VALUE]
* On a turn draw a covered card from the pile or pick the last discard; a drawn card may be
  kept (discarding one from the hand) or discarded straight away; each player always ends a
  turn with eight cards. Only the uppermost discard may be taken. [003, R-TURN]
* With two full sets and a couple a player calls "ceki", placing the couple face down in front
  of him; from then on his only goal is the third card of the couple and he may make no
  further changes to his two full sets. He may find that card by drawing from the pile or by
  picking another player's discard. [003, R-CALL]
* When a set held has the couple's value, all five cards of that value are laid face down.
  [003, R-FIVE]
* Others may call too; the first to complete three sets wins. [003, R-FIRST]
* The winner shows his cards and is the only one to score: the three sets' total, ×1 (plain)
  when the card is the previous player's discard of a card he drew and threw straight away,
  ×2 (double) when it is a card the previous player had held in hand, ×3 (triple) when drawn
  from the pile. [003 "The end of the game", R-MULT]
* Settling: at the end of each hand the winner receives from his opponents an amount
  corresponding to the points; or play to an agreed total; or play a given number of hands,
  the highest total winning. [003, R-SETTLE]

Our specifications (each is an option of :class:`CekiRules` unless marked *fixed*)
------------------------------------------------------------------------------------
* Seats are numbered in playing order, clockwise: seat ``i + 1`` sits on seat ``i``'s left.
  ``first`` is the player on the dealer's left; the dealer is seat ``first - 1``. *fixed*
* The deal (*fixed*): from the top of the shoe (already cut), two cards to each seat starting
  with ``first``, clockwise, four rounds. A stacked deal gives each seat's eight cards.
* ``honours`` (default ``own``, [003]): how honours form sets; ``rank1`` puts them with the
  1s, ``frames`` puts WF and RF with the 1s (see :mod:`cherki.core.sets`). Card values do not
  change: honours are worth 1.
* A turn (*fixed*): ``draw`` or ``take`` (the last discard, always the previous player's, since
  every turn ends with a discard), then ``discard CARD``. After taking a discard a player may
  not discard a card of the same kind (that would undo the turn). When a player discards the
  kind he has just drawn from the pile, it counts as the drawn card thrown straight away.
* Calling (*fixed*): optional, made by ``discard CARD ceki`` when the eight cards left are two
  sets and a couple (exactly one value group holds 2 mod 3 cards, every other a multiple of
  three), or by ``ceki`` at the start of one's turn when the eight cards already are (a dealt
  hand, or a call put off). All cards of the couple's value are laid face down (2, 5 or 8
  cards): others see *that* a seat called and how many cards lie face down, never which.
* After calling (*fixed*, R-CALL "no further changes"): the caller's eight cards are frozen.
  On a turn he either draws, then wins if the card completes the couple or else must discard
  that drawn card, or wins with the last discard (``win`` at the start of the turn). A caller
  never takes a discard that does not win.
* ``must_call_to_win`` (default on): only a player who has called may win, as [003] describes
  the win only for "a player who has called ceki". Off: any player whose nine cards form three
  sets may win.
* Winning (*fixed*): ``win`` at the start of a turn takes the last discard and wins with it;
  ``win`` after drawing wins with the drawn card. A win is optional (a player may discard).
  Only the player to act may take a discard, so a caller cannot claim a discard out of turn:
  the winning discard is always the previous player's [003 R-MULT "the previous player's
  discard"]. Plain when the previous player drew it from the pile and threw it straight away,
  double otherwise (dealt, kept from an earlier turn, or a card he had held while taking a
  discard), triple when drawn from the pile.
* The pile running out (*fixed*): after the last pile card has been drawn and discarded, the
  next player may still win with that discard; otherwise the hand ends with no winner and no
  payments.
* ``payment`` (default ``each``): each opponent pays the winner the total; ``total``: the
  winner receives the total once, shared by the opponents as evenly as possible (any
  remainder paid one point more by the opponents first in turn order after the winner).
* ``cents_per_point`` (default 10): [003] gives no rate; we use the 10¢ a point of the Balik
  and Cholek Tiga texts. ``money`` is ``payments`` × rate when ``settlement`` is
  ``per-hand``, zero otherwise (the match is settled at its end).
* ``settlement`` (default ``per-hand``), ``target_points`` (200), ``match_hands`` (10): the
  three schemes of [003]. Each hand's ``Result.detail["scores"]`` gives the points each seat
  scored (the winner's total, 0 for the others); ``target`` ends a match when a seat's running
  total reaches ``target_points`` (that seat wins), ``hands`` after ``match_hands`` hands,
  highest total winning, playing on one hand at a time while the lead is tied (see
  :func:`match_winner`).
* ``next_dealer`` (default ``rotate``): the deal passes to the left each hand, so the next
  first player is ``first + 1``; ``winner``: the winner deals next (first player on his
  left); after a hand with no winner the same dealer deals again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from cherki.core.cards import (
    CODES,
    N_KINDS,
    RANK,
    card_name,
    counts_of,
    format_cards,
    format_hand,
    parse_card,
)
from cherki.core.contract import Game, State
from cherki.core.deal import deal_source, shuffled, tally
from cherki.core.errors import NotationError, RulesError
from cherki.core.events import Event, Result, ScoreItem
from cherki.core.options import Preset
from cherki.core.sets import GROUPINGS, HONOUR_RULES, arrangement, group_totals, splits_into_sets

# -- action ids -------------------------------------------------------------------------------
DRAW: Final = 0
TAKE: Final = 1
WIN: Final = 2
CALL: Final = 3  # call ceki at the start of a turn, without discarding
DISCARD: Final = 4  # DISCARD + kind
CALL_DISCARD: Final = DISCARD + N_KINDS  # discard and call ceki
NUM_ACTIONS: Final = CALL_DISCARD + N_KINDS

# -- phases -----------------------------------------------------------------------------------
PHASE_DRAW: Final = 0
PHASE_DISCARD: Final = 1
PHASE_OVER: Final = 2
PHASE_NAMES: Final = ("draw", "discard", "over")

FROM_NONE: Final = 0
FROM_STOCK: Final = 1
FROM_DISCARD: Final = 2

HAND_SIZE: Final = 8
HALF_PACKS: Final = 4

#: What each card adds to a set: its value, honours 1 [003].
VALUE: Final[tuple[int, ...]] = RANK

MULTIPLIERS: Final[dict[str, int]] = {"plain": 1, "double": 2, "triple": 3}

_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "honours": HONOUR_RULES,
    "payment": ("each", "total"),
    "settlement": ("per-hand", "target", "hands"),
    "next_dealer": ("rotate", "winner"),
}


@dataclass(frozen=True, slots=True)
class CekiRules:
    """Every rule option of Ceki (see the module docstring)."""

    honours: str = "own"
    must_call_to_win: bool = True
    payment: str = "each"
    cents_per_point: int = 10
    settlement: str = "per-hand"
    target_points: int = 200
    match_hands: int = 10
    next_dealer: str = "rotate"

    def check(self) -> None:
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise RulesError(
                    f"option {name} cannot be {value!r}: choose one of {', '.join(choices)}"
                )
        if self.cents_per_point < 0:
            raise RulesError("option cents_per_point cannot be negative")
        if self.target_points < 1:
            raise RulesError("option target_points must be at least 1")
        if self.match_hands < 1:
            raise RulesError("option match_hands must be at least 1")

    def to_json(self) -> dict[str, Any]:
        return {f: getattr(self, f) for f in self.__dataclass_fields__}


def _preset(name: str, desc: str, **kw: Any) -> Preset[CekiRules]:
    rules = CekiRules(**kw)
    rules.check()
    return Preset(name, rules, desc, "[003] Ceki (or Kowah)")


CEKI_PRESETS: Final = (
    _preset("standard", "Ceki as [003] describes it, settled after each hand at 10¢ a point"),
    _preset(
        "target",
        "Ceki played to an agreed total (200 points) [003]",
        settlement="target",
    ),
    _preset(
        "hands",
        "Ceki played for a given number of hands (10), the highest total winning [003]",
        settlement="hands",
    ),
)


def match_winner(rules: CekiRules, totals: Sequence[int], hands_played: int) -> int | None:
    """The match winner under ``rules.settlement``, or ``None`` while the match goes on.

    ``totals`` are the seats' running sums of ``Result.detail["scores"]``. ``per-hand`` has
    no match: it returns ``None``. ``target``: the seat that reached ``target_points`` (only
    the winner of a hand scores, so at most one seat reaches it first). ``hands``: after
    ``match_hands`` hands the single highest total; a tied lead plays on.
    """
    if rules.settlement == "target":
        best = max(totals)
        if best >= rules.target_points:
            return list(totals).index(best)
        return None
    if rules.settlement == "hands" and hands_played >= rules.match_hands:
        best = max(totals)
        leaders = [s for s, t in enumerate(totals) if t == best]
        return leaders[0] if len(leaders) == 1 else None
    return None


def couple_group(hand: Sequence[int], grouping: Sequence[int]) -> int:
    """The value group of the couple when ``hand`` (8 cards) is two sets and a couple, else -1."""
    if sum(hand) != HAND_SIZE:
        return -1
    open_group = -1
    for g, t in enumerate(group_totals(hand, grouping)):
        r = t % 3
        if r == 0:
            continue
        if r == 1 or open_group >= 0:
            return -1
        open_group = g
    return open_group


def hand_points(hand: Sequence[int]) -> int:
    """The sum of the card values of a hand (every card of a winning hand is in a set)."""
    return sum(VALUE[k] * c for k, c in enumerate(hand))


# -- observation ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CekiObservation:
    """What one seat may know: its own hand, the discards, who called and how many cards each
    caller laid face down, and the cards others are known to hold (discards they took)."""

    seat: int
    players: int
    current: int
    phase: str
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    stock_left: int
    pile: tuple[int, ...]
    pile_seats: tuple[int, ...]
    top_available: bool
    top_straight: bool
    called: tuple[bool, ...]
    called_at: tuple[int, ...]
    laid_count: tuple[int, ...]
    laid: tuple[int, ...]
    exposed: tuple[tuple[int, ...], ...]
    drawn: int | None
    legal: tuple[int, ...]
    first: int
    honours: str = "own"
    result: Result | None = None
    rules: CekiRules = field(default_factory=lambda: CekiRules())
    drawn_from: int = 0
    taken_straight: bool = False

    @property
    def top(self) -> int | None:
        return self.pile[-1] if self.pile and self.top_available else None

    def table_lines(self) -> list[str]:
        """The public table, in card notation."""
        lines = [
            f"Pile: {self.stock_left} cards",
            f"Dealer: seat {(self.first - 1) % self.players}",
        ]
        top = self.top
        if top is not None:
            how = "thrown straight after drawing" if self.top_straight else "from the hand"
            lines.append(f"Last discard: {card_name(top)} ({how})")
        else:
            lines.append("Last discard: -")
        if self.pile:
            tail = self.pile[-12:]
            lines.append(
                "Discards: " + format_cards(tail) + (" ..." if len(self.pile) > 12 else "")
            )
        for s in range(self.players):
            bits = [f"{self.hand_sizes[s]} cards"]
            if self.called[s]:
                bits.append(f"called ceki, {self.laid_count[s]} cards face down")
            if any(self.exposed[s]) and s != self.seat:
                bits.append("known to hold " + format_hand(self.exposed[s]))
            lines.append(f"Seat {s}: " + ", ".join(bits))
        if any(self.laid):
            lines.append("Your cards face down: " + format_hand(self.laid))
        return lines

    def unseen(self) -> list[int]:
        """Copies of each kind this seat has not seen (in the pile or hidden in hands)."""
        out = [HALF_PACKS - self.hand[k] for k in range(N_KINDS)]
        for k in self.pile:
            out[k] -= 1
        for s, ex in enumerate(self.exposed):
            if s != self.seat:
                for k in range(N_KINDS):
                    out[k] -= ex[k]
        return [max(0, c) for c in out]


# -- the state --------------------------------------------------------------------------------
class CekiState(State):
    """A hand of Ceki in progress."""

    def __init__(
        self,
        game: CekiGame,
        rules: CekiRules,
        hands: list[list[int]],
        stock: list[int],
        first: int,
        meta: dict[str, Any],
    ) -> None:
        n = len(hands)
        self.game = game
        self.rules = rules
        self.n = n
        self.meta = meta
        self.grouping = GROUPINGS[rules.honours]
        self.hands = hands
        self.stock = stock
        self.pos = 0
        self.pile: list[int] = []
        self.pile_seats: list[int] = []
        self.top_available = False
        self.top_straight = False
        self.taken_straight = False
        self.called = [False] * n
        self.called_at = [-1] * n
        self.laid = [[0] * N_KINDS for _ in range(n)]
        self.exposed = [[0] * N_KINDS for _ in range(n)]
        self.first = first
        self.current = first
        self.phase = PHASE_DRAW
        self.drawn = -1
        self.drawn_from = FROM_NONE
        self.log = [
            Event(
                "deal",
                (first - 1) % n,
                text=f"seat {(first - 1) % n} deals 8 cards each; {len(stock)} cards in the pile",
            )
        ]
        self.history = []
        self._result = None

    # -- copies -------------------------------------------------------------------------
    def clone(self) -> CekiState:
        c = object.__new__(CekiState)
        c.__dict__.update(self.__dict__)
        c.hands = [h[:] for h in self.hands]
        c.pile = self.pile[:]
        c.pile_seats = self.pile_seats[:]
        c.called = self.called[:]
        c.called_at = self.called_at[:]
        c.laid = [x[:] for x in self.laid]
        c.exposed = [e[:] for e in self.exposed]
        c.log = self.log[:]
        c.history = self.history[:]
        return c

    def card_counts(self) -> list[int]:
        return tally(self.hands, [*self.pile, *self.stock[self.pos :]])

    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.pos

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    # -- rule helpers -------------------------------------------------------------------
    def _may_win(self, s: int) -> bool:
        return self.called[s] or not self.rules.must_call_to_win

    def wins_with(self, s: int, card: int) -> bool:
        """Would ``card`` added to seat ``s``'s eight cards win (rules permitting)?"""
        if not self._may_win(s) or card < 0:
            return False
        hand = self.hands[s]
        hand[card] += 1
        ok = splits_into_sets(hand, self.grouping)
        hand[card] -= 1
        return ok

    def _top_wins(self, s: int) -> bool:
        return self.top_available and bool(self.pile) and self.wins_with(s, self.pile[-1])

    # -- legal actions ------------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> list[int]:
        if self._result is not None or (seat is not None and seat != self.current):
            return []
        s = self.current
        hand = self.hands[s]
        if self.phase == PHASE_DRAW:
            acts: list[int] = []
            if self.stock_left:
                acts.append(DRAW)
                if self.top_available and not self.called[s]:
                    acts.append(TAKE)
            if self._top_wins(s):
                acts.append(WIN)
            if self.stock_left and not self.called[s] and couple_group(hand, self.grouping) >= 0:
                acts.append(CALL)
            return acts
        acts = []
        if self._may_win(s) and splits_into_sets(hand, self.grouping):
            acts.append(WIN)
        if self.called[s]:
            acts.append(DISCARD + self.drawn)
            return acts
        banned = self.drawn if self.drawn_from == FROM_DISCARD else -1
        kinds = [k for k in range(N_KINDS) if hand[k] and k != banned]
        acts.extend(DISCARD + k for k in kinds)
        for k in kinds:
            hand[k] -= 1
            ok = couple_group(hand, self.grouping) >= 0
            hand[k] += 1
            if ok:
                acts.append(CALL_DISCARD + k)
        return acts

    def _why_illegal(self, seat: int, action: int) -> str:
        text = self.game.action_text(action)
        hand = self.hands[seat]
        called = self.called[seat]
        if self.phase == PHASE_DRAW:
            if action == DRAW:
                return "the pile is empty: only a win with the last discard is possible"
            if action == TAKE:
                if not self.top_available:
                    return "there is no discard to take"
                if called:
                    return (
                        "you have called ceki: you may take the last discard only to win with "
                        "it (say win)"
                    )
                return "the pile is empty: only a win with the last discard is possible"
            if action == WIN:
                if not self.top_available:
                    return "there is no discard to win with: draw from the pile"
                if not self._may_win(seat):
                    return "under these rules you must call ceki before you can win"
                return (
                    f"the last discard {card_name(self.pile[-1])} does not complete three sets "
                    "for you"
                )
            if action == CALL:
                if called:
                    return "you have already called ceki"
                return "your eight cards are not two sets of three and a couple"
            return "first draw from the pile or take the last discard, then discard"
        # discard phase
        if action in (DRAW, TAKE):
            return f"you have already drawn this turn: discard a card ({text} not allowed)"
        if action == CALL:
            return "call ceki together with your discard: 'discard CARD ceki'"
        if action == WIN:
            if not self._may_win(seat):
                return "under these rules you must call ceki before you can win"
            return "your nine cards are not three sets of three"
        k = (action - DISCARD) % N_KINDS
        if not hand[k]:
            return f"you have no {card_name(k)} to discard"
        if called:
            if action >= CALL_DISCARD:
                return "you have already called ceki"
            return (
                "you have called ceki and may change nothing: discard the card you drew "
                f"({card_name(self.drawn)})"
            )
        if self.drawn_from == FROM_DISCARD and k == self.drawn:
            return f"you took {card_name(k)} from the discards: keep it and discard another card"
        if action >= CALL_DISCARD:
            return (
                f"after discarding {card_name(k)} your eight cards are not two sets and a "
                "couple, so you cannot call ceki"
            )
        return f"{text} is not allowed now"

    def waiting_for(self) -> str:
        return {PHASE_DRAW: "draw or take the discard", PHASE_DISCARD: "discard"}.get(
            self.phase, "act"
        )

    # -- applying actions ---------------------------------------------------------------
    def _apply(self, action: int) -> list[Event]:
        s = self.current
        if action == DRAW:
            card = self.stock[self.pos]
            self.pos += 1
            self.hands[s][card] += 1
            self.drawn, self.drawn_from = card, FROM_STOCK
            self.phase = PHASE_DISCARD
            return [Event("draw", s, card, private_to=s)]
        if action == TAKE:
            return [self._take(s)]
        if action == CALL:
            return [self._call(s)]
        if action == WIN:
            events: list[Event] = []
            if self.phase == PHASE_DRAW:
                events.append(self._take(s))
            events.extend(self._win(s))
            return events
        return self._discard(s, action)

    def _take(self, s: int) -> Event:
        card = self.pile.pop()
        self.pile_seats.pop()
        self.top_available = False
        self.taken_straight = self.top_straight
        self.hands[s][card] += 1
        self.exposed[s][card] += 1
        self.drawn, self.drawn_from = card, FROM_DISCARD
        self.phase = PHASE_DISCARD
        return Event("take", s, card)

    def _call(self, s: int) -> Event:
        hand = self.hands[s]
        g = couple_group(hand, self.grouping)
        self.called[s] = True
        self.called_at[s] = len(self.pile)
        laid = self.laid[s]
        for k in range(N_KINDS):
            if self.grouping[k] == g:
                laid[k] = hand[k]
        return Event("call", s, text=f"calls ceki! ({sum(laid)} cards face down)")

    def _discard(self, s: int, action: int) -> list[Event]:
        k = (action - DISCARD) % N_KINDS
        hand = self.hands[s]
        hand[k] -= 1
        if self.exposed[s][k]:
            self.exposed[s][k] -= 1
        self.pile.append(k)
        self.pile_seats.append(s)
        self.top_available = True
        self.top_straight = self.drawn_from == FROM_STOCK and k == self.drawn
        events = [Event("discard", s, k, text="thrown straight away" if self.top_straight else "")]
        if action >= CALL_DISCARD:
            events.append(self._call(s))
        self.drawn, self.drawn_from = -1, FROM_NONE
        nxt = (s + 1) % self.n
        self.current = nxt
        self.phase = PHASE_DRAW
        if not self.stock_left and not self._top_wins(nxt):
            self._finish_no_winner()
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
            "pile-out",
            "The pile ran out before anyone completed three sets: no score, no payments.",
            payments=zero,
            money=zero,
            detail={"scores": list(zero)},
        )

    def _win(self, s: int) -> list[Event]:
        rules = self.rules
        hand = self.hands[s]
        card = self.drawn
        prev = (s - 1) % self.n
        if self.drawn_from == FROM_STOCK:
            how = "triple"
            how_text = f"with {card_name(card)} drawn from the pile: a triple win"
        elif self.taken_straight:
            how = "plain"
            how_text = (
                f"with seat {prev}'s discard {card_name(card)}, drawn and thrown straight "
                "away: a plain win"
            )
        else:
            how = "double"
            how_text = (
                f"with seat {prev}'s discard {card_name(card)}, a card seat {prev} had held: "
                "a double win"
            )
        mult = MULTIPLIERS[how]
        sets = arrangement(hand, self.grouping).sets
        items = [ScoreItem(f"set {format_cards(x)}", sum(VALUE[k] for k in x)) for x in sets]
        base = sum(i.points for i in items)
        if mult != 1:
            items.append(ScoreItem(f"{how} win", 0, mult))
        total = base * mult
        payments = [0] * self.n
        others = [(s + i) % self.n for i in range(1, self.n)]
        if rules.payment == "each":
            for t in others:
                payments[t] = -total
            payments[s] = total * len(others)
            pay_text = f"each other seat pays {total}"
        else:
            share, extra = divmod(total, len(others))
            for i, t in enumerate(others):
                payments[t] = -(share + (1 if i < extra else 0))
            payments[s] = total
            pay_text = f"the other seats pay {total} between them"
        per_hand = rules.settlement == "per-hand"
        money = tuple(p * rules.cents_per_point if per_hand else 0 for p in payments)
        scores = [total if t == s else 0 for t in range(self.n)]
        self.phase = PHASE_OVER
        self.current = -1
        self._result = Result(
            s,
            how,
            f"Seat {s} wins {how_text}, scoring {base} × {mult} = {total}; {pay_text}.",
            tuple(items),
            total,
            tuple(payments),
            money,
            detail={
                "hand": format_hand(hand),
                "sets": [format_cards(x) for x in sets],
                "winning_card": card_name(card),
                "from_seat": s if how == "triple" else prev,
                "called": self.called[s],
                "base": base,
                "multiplier": mult,
                "scores": scores,
            },
        )
        return [
            Event("win", s, card, text=f"ceki! wins ({how})"),
            Event("end", -1, text=self._result.summary),
        ]

    # -- observation --------------------------------------------------------------------
    def observation(self, seat: int) -> CekiObservation:
        mine = seat == self.current
        return CekiObservation(
            seat,
            self.n,
            self.current,
            PHASE_NAMES[self.phase],
            tuple(self.hands[seat]),
            tuple(sum(h) for h in self.hands),
            self.stock_left,
            tuple(self.pile),
            tuple(self.pile_seats),
            self.top_available,
            self.top_straight,
            tuple(self.called),
            tuple(self.called_at),
            tuple(sum(x) for x in self.laid),
            tuple(self.laid[seat]),
            tuple(tuple(e) for e in self.exposed),
            self.drawn if (mine and self.drawn >= 0) else None,
            tuple(self.legal_actions(seat)) if mine else (),
            self.first,
            self.rules.honours,
            self._result,
            self.rules,
            self.drawn_from if mine else FROM_NONE,
            self.taken_straight if mine else False,
        )

    def next_first(self) -> int:
        """The first player of the next hand (the seat on the next dealer's left)."""
        res = self.result
        if self.rules.next_dealer == "winner":
            if res.winner is None:
                return self.first
            return (res.winner + 1) % self.n
        return (self.first + 1) % self.n


def determinize(obs: CekiObservation, rng: random.Random, game: CekiGame) -> CekiState:
    """A full state consistent with what ``obs.seat`` knows, hidden cards sampled (for the
    search bot, which never looks at the real hidden cards)."""
    n = obs.players
    pool = shuffled([k for k, c in enumerate(obs.unseen()) for _ in range(c)], rng)
    grouping = GROUPINGS[obs.rules.honours]
    hands: list[list[int]] = []
    laid: list[list[int]] = []
    i = 0
    for t in range(n):
        if t == obs.seat:
            hands.append(list(obs.hand))
            laid.append(list(obs.laid))
            continue
        h = list(obs.exposed[t])
        need = obs.hand_sizes[t] - sum(h)
        for k in pool[i : i + need]:
            h[k] += 1
        i += need
        hands.append(h)
        g = couple_group(h, grouping) if obs.called[t] else -1
        laid.append([h[k] if g >= 0 and grouping[k] == g else 0 for k in range(N_KINDS)])
    st = object.__new__(CekiState)
    st.game = game
    st.rules = obs.rules
    st.n = n
    st.meta = {"first": obs.first, "determinized": True}
    st.grouping = grouping
    st.hands = hands
    st.stock = pool[i:]
    st.pos = 0
    st.pile = list(obs.pile)
    st.pile_seats = list(obs.pile_seats)
    st.top_available = obs.top_available
    st.top_straight = obs.top_straight
    st.taken_straight = obs.taken_straight
    st.called = list(obs.called)
    st.called_at = list(obs.called_at)
    st.laid = laid
    st.exposed = [list(e) for e in obs.exposed]
    st.first = obs.first
    st.current = obs.current
    st.phase = PHASE_NAMES.index(obs.phase)
    st.drawn = obs.drawn if obs.drawn is not None else -1
    st.drawn_from = obs.drawn_from
    st.log = []
    st.history = []
    st._result = None
    return st


# -- the game ---------------------------------------------------------------------------------
class CekiGame(Game[CekiRules]):
    """Ceki (Kowah) for 2-6 players [003]."""

    name: ClassVar[str] = "ceki"
    title: ClassVar[str] = "Ceki"
    players: ClassVar[tuple[int, int]] = (2, 6)
    default_players: ClassVar[int] = 4
    rules_type: ClassVar[type] = CekiRules
    presets: ClassVar[tuple[Preset[Any], ...]] = CEKI_PRESETS
    num_actions: ClassVar[int] = NUM_ACTIONS

    def determinize(self, obs: Any, rng: random.Random) -> CekiState:
        return determinize(obs, rng, self)

    def new_state(
        self,
        rules: CekiRules | None = None,
        players: int | None = None,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        shoe: Sequence[int] | None = None,
        stack: tuple[Sequence[Sequence[int]], Sequence[int]] | None = None,
        first: int = 0,
    ) -> CekiState:
        rules, n = self.table(rules, players, first)
        src = deal_source(
            players=n,
            first=first,
            half_packs=HALF_PACKS,
            hand_sizes=[HAND_SIZE] * n,
            seed=seed,
            rng=rng,
            shoe=shoe,
            stack=stack,
        )
        meta = src.meta
        if src.order is not None:
            hands, stock = self.deal(src.order, n, first)
        else:
            assert src.hands is not None and src.stock is not None
            hands, stock = [counts_of(h) for h in src.hands], src.stock
        return CekiState(self, rules, hands, stock, first, meta)

    @staticmethod
    def deal(order: Sequence[int], n: int, first: int) -> tuple[list[list[int]], list[int]]:
        """Two cards at a time to each seat from ``first`` clockwise, four rounds [003]."""
        hands = [[0] * N_KINDS for _ in range(n)]
        i = 0
        for _ in range(HAND_SIZE // 2):
            for j in range(n):
                s = (first + j) % n
                for k in order[i : i + 2]:
                    hands[s][k] += 1
                i += 2
        return hands, list(order[i:])

    def action_text(self, action: int) -> str:
        simple = {DRAW: "draw", TAKE: "take", WIN: "win", CALL: "ceki"}
        if action in simple:
            return simple[action]
        if not DISCARD <= action < NUM_ACTIONS:
            raise NotationError(f"{action} is not a {self.title} action id (0-{NUM_ACTIONS - 1})")
        k = (action - DISCARD) % N_KINDS
        if action < CALL_DISCARD:
            return f"discard {CODES[k]}"
        return f"discard {CODES[k]} ceki"

    def parse_action(self, text: str) -> int:
        raw = text.strip().split()
        words = [w.lower() for w in raw]
        simple = {"draw": DRAW, "take": TAKE, "win": WIN, "ceki": CALL, "ceki!": CALL}
        if len(words) == 1 and words[0] in simple:
            return simple[words[0]]
        if words and words[0] == "discard" and len(words) in (2, 3):
            k = parse_card(raw[1])
            if len(words) == 2:
                return DISCARD + k
            if words[2] in ("ceki", "ceki!"):
                return CALL_DISCARD + k
            raise NotationError(f"a discard can only call 'ceki', not {words[2]!r}")
        raise NotationError(
            f"{text.strip()!r} is not a {self.title} action: use draw, take, win, ceki, "
            "'discard CARD' or 'discard CARD ceki'"
        )


__all__ = [
    "CALL",
    "CALL_DISCARD",
    "CEKI_PRESETS",
    "DISCARD",
    "DRAW",
    "NUM_ACTIONS",
    "TAKE",
    "VALUE",
    "WIN",
    "CekiGame",
    "CekiObservation",
    "CekiRules",
    "CekiState",
    "couple_group",
    "hand_points",
    "match_winner",
]
