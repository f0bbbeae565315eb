"""Cholek Tiga ('draw three'), a Peranakan fishing game.

The rules (source ``002_328af3bada55227b.txt`` = [002], after Pwee, "Chiki Cards" p.125-7)
------------------------------------------------------------------------------------------
* Two or three players, two Cherki decks: 120 cards, four copies of each card. [002, R-SHOE]
* Shuffle and place the cards face down in the middle; each player draws three cards.
  [002 "Play", R-DEAL]
* On a turn a player first discards a card face up to a pool in the centre, then turns up a
  card from the stock into the same pool. Each of these cards can capture if it matches two
  other cards of the same rank (the face does not matter); the player takes all three and
  piles them by rank in front of himself. Both cards may capture (six cards in a turn).
  Capturing is not mandatory. [002, R-TURN, R-CAPTURE]
* When everyone has played their three cards, all draw three again; when the stock and the
  hands are played out each player scores his captured cards. [002, R-REDRAW, R-END]
* Scoring [002 "Scoring", R-SCORE]: normal cards: 3 points per three identical cards (won on
  any turns), 8 for all four identical. Red-stamped cards (S9, RF, OT): 1 point a card, 4 for
  an identical pair, 3 for an identical triplet, 8 for all four.
* The player with most points wins the difference between his score and each other player's,
  settled at 10¢ a point. [002, R-PAY]
* Ang pow (a red identical triplet) wins $1, ang pow besar (the four) $2, from each other
  player. [002, R-ANGPOW]
* The player who scored least goes first in the next game. [002, R-NEXT]
* In-play bonuses, paid at once by each other player, for capturing three identical cards:
  ayam 50¢ when the capture was made with a card from the hand, kandang $1 when made with the
  card from the stock. [002 "In-play bonuses", R-BONUS]

Our specifications (each is an option of :class:`CholekRules` unless marked *fixed*)
------------------------------------------------------------------------------------
* Seats are numbered in playing order (seat ``i + 1`` plays after seat ``i``). *fixed*
* The deal (*fixed*): from the top of the shoe each seat from ``first`` on takes three cards
  in turn. A stacked deal gives each seat's three cards and the top of the stock.
* ``initial_pool`` (default 0): the source turns nothing up before play, so the pool starts
  empty; a number turns that many stock cards face up into the pool after the deal.
* ``honours`` (default ``rank1``): which cards share a "rank" for capturing. The honours have
  no index; Pwee's card table (the source of [002]) puts WF, RF and OT in the rank-1 row, so
  by default an honour captures and is captured with the 1s. ``frames``: WF and RF with the
  1s (they wear the 1s' frame [003]), OT only with OTs; ``own``: each honour only with its
  own kind. Scoring always counts *identical* cards (same kind).
* Capturing (*fixed*): a card captures exactly two pool cards of its rank; with more than two
  there, the player names the two (``capture A B with C``); with fewer, it cannot capture.
  The capture decision for the discarded card is taken before the stock card is turned up,
  then the turned card is decided. A capture is "made with" the card that captures: the
  discarded hand card (ayam when all three are identical) or the turned stock card (kandang).
  Pool cards left by an earlier turn's hand card do not change this: what counts is the
  capturing card. ``no capture`` leaves the card in the pool.
* The turn-up (*fixed*): an explicit ``turn`` action, so records show the order of play.
* Redraws (*fixed*): when every hand is empty each player, from the seat to play, draws
  ``min(3, stock // (2 × players))`` cards, so that every card played from the hand has a stock
  card to turn. With 120 cards and no initial pool this is 10 rounds of three for two players
  and 6 rounds of three plus one of two for three players. Any stock cards left over (only
  with an ``initial_pool``) are turned up one per turn by the players in turn, with no
  discard, until the stock is empty.
* ``leftover_pool`` (default ``none``): cards still in the pool at the end score for nobody;
  ``last-capturer`` gives them to the last player who captured (they count toward identical
  sets like any captured card).
* Scoring (*fixed*): per kind captured, normal: 3 → 3 points, 4 → 8, fewer → 0; red: 1 → 1,
  2 → 4, 3 → 3, 4 → 8. Ang pow: a red kind captured exactly three times; ang pow besar: all
  four. The four copies of a kind in play bound counts at 4.
* ``tie_rule`` (default ``each``): every seat with the top score is a winner and is paid the
  difference by each seat below it (tied winners pay each other nothing, their difference
  being 0); ``none``: a tied top score means no point payments. A three-way tie pays nothing.
  ``Result.winner`` is the single top scorer, or ``None`` when the top is shared.
* Payments: ``Result.payments`` are points (zero-sum): the differences. ``Result.money`` is
  cents (zero-sum): ``payments × cents_per_point`` plus ang pow / ang pow besar settled at the
  end plus the ayam / kandang bonuses paid during play. Amounts are options:
  ``cents_per_point`` 10, ``ayam_cents`` 50, ``kandang_cents`` 100, ``ang_pow_cents`` 100,
  ``ang_pow_besar_cents`` 200.
* The next game (*fixed*, R-NEXT): the lowest scorer starts; among tied lowest scorers the
  one first in playing order from this game's first player.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from cherki.core.cards import (
    CODES,
    IS_RED,
    N_KINDS,
    card_name,
    format_hand,
    parse_cards,
)
from cherki.core.contract import Game, State
from cherki.core.deal import deal_source, shuffled, tally
from cherki.core.errors import NotationError, RulesError
from cherki.core.events import Event, Result, ScoreItem
from cherki.core.options import Preset
from cherki.core.sets import GROUP_KINDS, GROUPINGS, HONOUR_RULES

HALF_PACKS: Final = 4
HAND_SIZE: Final = 3

# -- action ids -------------------------------------------------------------------------------
DISCARD: Final = 0  # DISCARD + kind
TURN: Final = N_KINDS
PASS: Final = TURN + 1  # "no capture"
CAPTURE: Final = PASS + 1  # CAPTURE + index into CAPTURES


def _capture_table() -> tuple[tuple[int, int, int], ...]:
    """Every (capturing card, pool card, pool card) of one rank under the widest grouping
    (``rank1``: every other grouping's groups are subsets of its groups); pool cards in kind
    order."""
    out: list[tuple[int, int, int]] = []
    for kinds in GROUP_KINDS["rank1"]:
        for c in kinds:
            for a, b in itertools.combinations_with_replacement(kinds, 2):
                out.append((c, a, b))
    return tuple(out)


CAPTURES: Final = _capture_table()
CAPTURE_ID: Final[dict[tuple[int, int, int], int]] = {
    t: CAPTURE + i for i, t in enumerate(CAPTURES)
}
NUM_ACTIONS: Final = CAPTURE + len(CAPTURES)

# -- phases -----------------------------------------------------------------------------------
PHASE_DISCARD: Final = 0
PHASE_CAPTURE: Final = 1
PHASE_TURN: Final = 2
PHASE_OVER: Final = 3
PHASE_NAMES: Final = ("discard", "capture", "turn", "over")

FROM_HAND: Final = 0
FROM_STOCK: Final = 1

#: Points for n identical captured cards, normal and red-stamped [002].
NORMAL_POINTS: Final = (0, 0, 0, 3, 8)
RED_POINTS: Final = (0, 1, 4, 3, 8)

_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "honours": HONOUR_RULES,
    "leftover_pool": ("none", "last-capturer"),
    "tie_rule": ("each", "none"),
}


@dataclass(frozen=True, slots=True)
class CholekRules:
    """Every rule option of Cholek Tiga (see the module docstring)."""

    honours: str = "rank1"
    initial_pool: int = 0
    leftover_pool: str = "none"
    tie_rule: str = "each"
    cents_per_point: int = 10
    ayam_cents: int = 50
    kandang_cents: int = 100
    ang_pow_cents: int = 100
    ang_pow_besar_cents: int = 200

    def check(self) -> None:
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise RulesError(
                    f"option {name} cannot be {value!r}: choose one of {', '.join(choices)}"
                )
        for name in (
            "cents_per_point",
            "ayam_cents",
            "kandang_cents",
            "ang_pow_cents",
            "ang_pow_besar_cents",
        ):
            if getattr(self, name) < 0:
                raise RulesError(f"option {name} cannot be negative")
        if not 0 <= self.initial_pool <= 60:
            raise RulesError("option initial_pool must be from 0 to 60")

    def to_json(self) -> dict[str, Any]:
        return {f: getattr(self, f) for f in self.__dataclass_fields__}


CHOLEK_PRESETS: Final = (
    Preset(
        "pwee",
        CholekRules(),
        "Cholek Tiga after Pwee (2003): 10¢ a point, ayam 50¢, kandang $1, ang pow $1, "
        "ang pow besar $2",
        "[002] Pwee 2003 p.125-7",
    ),
)


def score_captured(
    counts: Sequence[int],
) -> tuple[int, list[tuple[str, int]], list[int], list[int]]:
    """(points, scoring lines, ang pow kinds, ang pow besar kinds) of a seat's captured cards."""
    points = 0
    lines: list[tuple[str, int]] = []
    ang_pow: list[int] = []
    besar: list[int] = []
    for k in range(N_KINDS):
        c = counts[k]
        if not c:
            continue
        if IS_RED[k]:
            p = RED_POINTS[min(c, 4)]
            what = ("one", "pair of", "three", "four")[min(c, 4) - 1]
            if c == 3:
                ang_pow.append(k)
            elif c >= 4:
                besar.append(k)
        else:
            p = NORMAL_POINTS[min(c, 4)]
            what = "three" if c == 3 else "four"
        if p:
            points += p
            lines.append((f"{what} {card_name(k)}" + (" (red)" if IS_RED[k] else ""), p))
    return points, lines, ang_pow, besar


# -- observation ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CholekObservation:
    """What one seat may know: its hand; the pool, every seat's captures, the card on the
    table waiting for a capture decision and the bonuses paid so far are public."""

    seat: int
    players: int
    current: int
    phase: str
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    stock_left: int
    pool: tuple[int, ...]
    captured: tuple[tuple[int, ...], ...]
    active: int | None
    active_from: str | None
    bonus_money: tuple[int, ...]
    legal: tuple[int, ...]
    first: int
    honours: str = "rank1"
    result: Result | None = None
    rules: CholekRules = field(default_factory=lambda: CholekRules())
    last_capturer: int = -1
    rounds: int = 0

    def table_lines(self) -> list[str]:
        lines = [f"Stock: {self.stock_left} cards"]
        lines.append("Pool: " + (format_hand(self.pool) or "-"))
        if self.active is not None:
            src = "discarded" if self.active_from == "hand" else "turned up"
            lines.append(f"On the table: {card_name(self.active)} ({src}), may capture")
        for s in range(self.players):
            cap = format_hand(self.captured[s]) or "-"
            bits = [f"{self.hand_sizes[s]} in hand", f"captured {cap}"]
            if self.bonus_money[s]:
                bits.append(f"bonuses {self.bonus_money[s]:+d}¢")
            lines.append(f"Seat {s}: " + ", ".join(bits))
        return lines

    def unseen(self) -> list[int]:
        """Copies of each kind not in this seat's hand, the pool, any capture or on the table."""
        out = [HALF_PACKS - self.hand[k] - self.pool[k] for k in range(N_KINDS)]
        for cap in self.captured:
            for k in range(N_KINDS):
                out[k] -= cap[k]
        if self.active is not None:
            out[self.active] -= 1
        return [max(0, c) for c in out]


# -- the state --------------------------------------------------------------------------------
class CholekState(State):
    """A game of Cholek Tiga in progress."""

    def __init__(
        self,
        game: CholekGame,
        rules: CholekRules,
        stock: list[int],
        first: int,
        n: int,
        meta: dict[str, Any],
    ) -> None:
        self.game = game
        self.rules = rules
        self.n = n
        self.meta = meta
        self.grouping = GROUPINGS[rules.honours]
        self.group_kinds = GROUP_KINDS[rules.honours]
        self.hands = [[0] * N_KINDS for _ in range(n)]
        self.stock = stock
        self.pos = 0
        self.pool = [0] * N_KINDS
        self.captured = [[0] * N_KINDS for _ in range(n)]
        self.bonus_money = [0] * n
        self.bonuses: list[dict[str, Any]] = []
        self.last_capturer = -1
        self.first = first
        self.current = first
        self.phase = PHASE_DISCARD
        self.active = -1
        self.active_from = FROM_HAND
        self.rounds = 0
        self.history = []
        self._result = None
        self.log = [Event("deal", first, text=f"{n} players, {len(stock)} cards in the stock")]
        self.log.extend(self._redraw(first, HAND_SIZE))
        for _ in range(min(rules.initial_pool, self.stock_left)):
            k = self._pop_stock()
            self.pool[k] += 1
            self.log.append(Event("turn", -1, k, text="turned up into the pool"))

    # -- copies -------------------------------------------------------------------------
    def clone(self) -> CholekState:
        c = object.__new__(CholekState)
        c.__dict__.update(self.__dict__)
        c.hands = [h[:] for h in self.hands]
        c.pool = self.pool[:]
        c.captured = [x[:] for x in self.captured]
        c.bonus_money = self.bonus_money[:]
        c.bonuses = [dict(b) for b in self.bonuses]
        c.log = self.log[:]
        c.history = self.history[:]
        return c

    def card_counts(self) -> list[int]:
        on_table = [self.active] if self.active >= 0 else []
        return tally([*self.hands, *self.captured, self.pool], [*self.stock[self.pos :], *on_table])

    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.pos

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def _pop_stock(self) -> int:
        k = self.stock[self.pos]
        self.pos += 1
        return k

    def _redraw(self, start: int, count: int) -> list[Event]:
        events: list[Event] = []
        for j in range(self.n):
            s = (start + j) % self.n
            for _ in range(count):
                k = self._pop_stock()
                self.hands[s][k] += 1
                events.append(Event("draw", s, k, private_to=s))
        self.rounds += 1
        return events

    # -- legal actions ------------------------------------------------------------------
    def capture_options(self, card: int | None = None) -> list[int]:
        """Capture actions open to ``card`` (default: the card on the table) given the pool."""
        c = self.active if card is None else card
        if c < 0:
            return []
        pool = self.pool
        kinds = self.group_kinds[self.grouping[c]]
        out: list[int] = []
        for a, b in itertools.combinations_with_replacement(kinds, 2):
            if (pool[a] >= 2) if a == b else (pool[a] and pool[b]):
                out.append(CAPTURE_ID[(c, a, b)])
        return out

    def legal_actions(self, seat: int | None = None) -> list[int]:
        if self._result is not None or (seat is not None and seat != self.current):
            return []
        if self.phase == PHASE_DISCARD:
            hand = self.hands[self.current]
            return [DISCARD + k for k in range(N_KINDS) if hand[k]]
        if self.phase == PHASE_TURN:
            return [TURN]
        return [*self.capture_options(), PASS]

    def _why_illegal(self, seat: int, action: int) -> str:
        phase = self.phase
        text = self.game.action_text(action)
        if phase == PHASE_DISCARD:
            if action < TURN:
                return f"you have no {card_name(action - DISCARD)} in your hand to discard"
            return f"first discard a card from your hand to the pool ({text} not allowed)"
        if phase == PHASE_TURN:
            return f"turn up a card from the stock now (say turn; {text} not allowed)"
        active = card_name(self.active)
        if action < CAPTURE:
            return (
                f"decide first whether {active} captures: 'capture A B with {active}' "
                "or 'no capture'"
            )
        c, a, b = CAPTURES[action - CAPTURE]
        if c != self.active:
            return f"the card that may capture now is {active}, not {card_name(c)}"
        if self.grouping[a] != self.grouping[c] or self.grouping[b] != self.grouping[c]:
            return (
                f"{card_name(c)} captures only cards of its own rank under these rules "
                f"(honours={self.rules.honours})"
            )
        return (
            f"the pool does not hold {card_name(a)} and {card_name(b)} (pool: "
            + (format_hand(self.pool) or "empty")
            + ")"
        )

    def waiting_for(self) -> str:
        return {
            PHASE_DISCARD: "discard",
            PHASE_CAPTURE: "capture or not",
            PHASE_TURN: "turn up a stock card",
        }.get(self.phase, "act")

    # -- applying actions ---------------------------------------------------------------
    def _apply(self, action: int) -> list[Event]:
        s = self.current
        if self.phase == PHASE_DISCARD:
            k = action - DISCARD
            self.hands[s][k] -= 1
            events = [Event("discard", s, k)]
            self.active, self.active_from = k, FROM_HAND
            return events + self._after_place(s)
        if self.phase == PHASE_TURN:
            k = self._pop_stock()
            self.active, self.active_from = k, FROM_STOCK
            return [Event("turn", s, k, text="turned up from the stock"), *self._after_place(s)]
        if action == PASS:
            k = self.active
            self.pool[k] += 1
            events = [Event("keep", s, k, text=f"{card_name(k)} stays in the pool")]
        else:
            events = self._capture(s, action)
        return events + self._after_decision(s)

    def _after_place(self, s: int) -> list[Event]:
        """A card has just been discarded or turned up: capture decision, or on."""
        if self.capture_options():
            self.phase = PHASE_CAPTURE
            return []
        self.pool[self.active] += 1
        return self._after_decision(s)

    def _after_decision(self, s: int) -> list[Event]:
        was = self.active_from
        self.active = -1
        if was == FROM_HAND and self.stock_left:
            self.phase = PHASE_TURN
            return []
        return self._next_turn((s + 1) % self.n)

    def _capture(self, s: int, action: int) -> list[Event]:
        c, a, b = CAPTURES[action - CAPTURE]
        self.pool[a] -= 1
        self.pool[b] -= 1
        cap = self.captured[s]
        cap[a] += 1
        cap[b] += 1
        cap[c] += 1
        self.last_capturer = s
        events = [
            Event(
                "capture", s, c, text=f"captures {card_name(a)} {card_name(b)} with {card_name(c)}"
            )
        ]
        if a == b == c:
            hand = self.active_from == FROM_HAND
            name = "ayam" if hand else "kandang"
            cents = self.rules.ayam_cents if hand else self.rules.kandang_cents
            if cents:
                for t in range(self.n):
                    self.bonus_money[t] += cents * (self.n - 1) if t == s else -cents
            self.bonuses.append(
                {"seat": s, "bonus": name, "card": card_name(c), "cents_each": cents}
            )
            events.append(
                Event("bonus", s, c, text=f"{name}! three {card_name(c)}: {cents}¢ from each")
            )
        return events

    def _next_turn(self, s: int) -> list[Event]:
        self.current = s
        events: list[Event] = []
        if not any(sum(h) for h in self.hands):
            per = min(HAND_SIZE, self.stock_left // (2 * self.n))
            if per:
                events.extend(self._redraw(s, per))
        if sum(self.hands[s]):
            self.phase = PHASE_DISCARD
        elif self.stock_left:
            self.phase = PHASE_TURN  # leftover stock: turn-only turns
        else:
            events.extend(self._finish())
        return events

    # -- scoring ------------------------------------------------------------------------
    def scores(self) -> list[int]:
        return [score_captured(c)[0] for c in self.captured]

    def _finish(self) -> list[Event]:
        rules = self.rules
        n = self.n
        events: list[Event] = []
        pool_left = format_hand(self.pool)
        if rules.leftover_pool == "last-capturer" and self.last_capturer >= 0 and any(self.pool):
            t = self.last_capturer
            for k in range(N_KINDS):
                self.captured[t][k] += self.pool[k]
            events.append(Event("sweep", t, text=f"takes the pool left over: {pool_left}"))
            self.pool = [0] * N_KINDS
        items: list[ScoreItem] = []
        scores: list[int] = []
        end_bonus = [0] * n
        ang: list[dict[str, Any]] = []
        for t in range(n):
            pts, lines, ang_pow, besar = score_captured(self.captured[t])
            scores.append(pts)
            items.extend(ScoreItem(f"seat {t}: {label}", p) for label, p in lines)
            for kinds, name, cents in (
                (ang_pow, "ang pow", rules.ang_pow_cents),
                (besar, "ang pow besar", rules.ang_pow_besar_cents),
            ):
                for k in kinds:
                    for u in range(n):
                        end_bonus[u] += cents * (n - 1) if u == t else -cents
                    ang.append(
                        {"seat": t, "bonus": name, "card": card_name(k), "cents_each": cents}
                    )
                    items.append(ScoreItem(f"seat {t}: {name} {card_name(k)} ({cents}¢ each)", 0))
        best = max(scores)
        winners = [t for t in range(n) if scores[t] == best]
        payments = [0] * n
        if len(winners) == 1 or rules.tie_rule == "each":
            for w in winners:
                for t in range(n):
                    if scores[t] < best:
                        d = best - scores[t]
                        payments[w] += d
                        payments[t] -= d
        money = tuple(
            payments[t] * rules.cents_per_point + end_bonus[t] + self.bonus_money[t]
            for t in range(n)
        )
        winner = winners[0] if len(winners) == 1 else None
        score_text = ", ".join(f"seat {t} {scores[t]}" for t in range(n))
        if winner is not None:
            summary = f"Seat {winner} wins with {best} points ({score_text})."
        else:
            summary = (
                f"Top score {best} shared by seats {', '.join(map(str, winners))} ({score_text})."
            )
        self.phase = PHASE_OVER
        self.current = -1
        self._result = Result(
            winner,
            "score" if winner is not None else "tie",
            summary,
            tuple(items),
            best,
            tuple(payments),
            money,
            detail={
                "scores": scores,
                "winners": winners,
                "captured": [format_hand(c) for c in self.captured],
                "pool_left": pool_left,
                "in_play_bonuses": [dict(b) for b in self.bonuses],
                "end_bonuses": ang,
                "bonus_cents": [self.bonus_money[t] + end_bonus[t] for t in range(n)],
            },
        )
        events.append(Event("end", -1, text=summary))
        return events

    # -- observation --------------------------------------------------------------------
    def observation(self, seat: int) -> CholekObservation:
        mine = seat == self.current
        return CholekObservation(
            seat,
            self.n,
            self.current,
            PHASE_NAMES[self.phase],
            tuple(self.hands[seat]),
            tuple(sum(h) for h in self.hands),
            self.stock_left,
            tuple(self.pool),
            tuple(tuple(c) for c in self.captured),
            self.active if self.active >= 0 else None,
            ("hand" if self.active_from == FROM_HAND else "stock") if self.active >= 0 else None,
            tuple(self.bonus_money),
            tuple(self.legal_actions(seat)) if mine else (),
            self.first,
            self.rules.honours,
            self._result,
            self.rules,
            self.last_capturer,
            self.rounds,
        )

    def next_first(self) -> int:
        """The lowest scorer starts the next game [002]; ties: first in playing order."""
        scores = self.result.detail["scores"]
        low = min(scores)
        for j in range(self.n):
            t = (self.first + j) % self.n
            if scores[t] == low:
                return t
        return self.first  # pragma: no cover


def determinize(obs: CholekObservation, rng: random.Random, game: CholekGame) -> CholekState:
    """A full state consistent with what ``obs.seat`` knows, hidden cards sampled (for the
    search bot, which never looks at the real hidden cards)."""
    n = obs.players
    pool = shuffled([k for k, c in enumerate(obs.unseen()) for _ in range(c)], rng)
    hands: list[list[int]] = []
    i = 0
    for t in range(n):
        if t == obs.seat:
            hands.append(list(obs.hand))
            continue
        h = [0] * N_KINDS
        for k in pool[i : i + obs.hand_sizes[t]]:
            h[k] += 1
        i += obs.hand_sizes[t]
        hands.append(h)
    rules = obs.rules
    st = object.__new__(CholekState)
    st.game = game
    st.rules = rules
    st.n = n
    st.meta = {"first": obs.first, "determinized": True}
    st.grouping = GROUPINGS[rules.honours]
    st.group_kinds = GROUP_KINDS[rules.honours]
    st.hands = hands
    st.stock = pool[i:]
    st.pos = 0
    st.pool = list(obs.pool)
    st.captured = [list(c) for c in obs.captured]
    st.bonus_money = list(obs.bonus_money)
    st.bonuses = []
    st.last_capturer = obs.last_capturer
    st.first = obs.first
    st.current = obs.current
    st.phase = PHASE_NAMES.index(obs.phase)
    st.active = obs.active if obs.active is not None else -1
    st.active_from = FROM_HAND if obs.active_from in (None, "hand") else FROM_STOCK
    st.rounds = obs.rounds
    st.history = []
    st._result = None
    st.log = []
    return st


# -- the game ---------------------------------------------------------------------------------
class CholekGame(Game[CholekRules]):
    """Cholek Tiga for 2-3 players [002]."""

    name: ClassVar[str] = "cholek-tiga"
    title: ClassVar[str] = "Cholek Tiga"
    players: ClassVar[tuple[int, int]] = (2, 3)
    default_players: ClassVar[int] = 3
    rules_type: ClassVar[type] = CholekRules
    presets: ClassVar[tuple[Preset[Any], ...]] = CHOLEK_PRESETS
    num_actions: ClassVar[int] = NUM_ACTIONS

    def determinize(self, obs: Any, rng: random.Random) -> CholekState:
        return determinize(obs, rng, self)

    def new_state(
        self,
        rules: CholekRules | None = None,
        players: int | None = None,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        shoe: Sequence[int] | None = None,
        stack: tuple[Sequence[Sequence[int]], Sequence[int]] | None = None,
        first: int = 0,
    ) -> CholekState:
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
            order = src.order
        else:  # the stacked hands are drawn first, in turn from the first player
            assert src.hands is not None and src.stock is not None
            order = [k for j in range(n) for k in src.hands[(first + j) % n]] + src.stock
        return CholekState(self, rules, order, first, n, meta)

    def action_text(self, action: int) -> str:
        if DISCARD <= action < TURN:
            return f"discard {CODES[action - DISCARD]}"
        if action == TURN:
            return "turn"
        if action == PASS:
            return "no capture"
        if CAPTURE <= action < NUM_ACTIONS:
            c, a, b = CAPTURES[action - CAPTURE]
            return f"capture {CODES[a]} {CODES[b]} with {CODES[c]}"
        raise NotationError(f"{action} is not a {self.title} action id (0-{NUM_ACTIONS - 1})")

    def parse_action(self, text: str) -> int:
        raw = text.strip().split()
        words = [w.lower() for w in raw]
        if words == ["turn"]:
            return TURN
        if words in (["no", "capture"], ["pass"], ["no-capture"]):
            return PASS
        if len(words) == 2 and words[0] == "discard":
            return DISCARD + parse_cards(raw[1:])[0]
        if len(words) == 5 and words[0] == "capture" and words[3] == "with":
            a, b, c = parse_cards([raw[1], raw[2], raw[4]])
            a, b = min(a, b), max(a, b)
            action = CAPTURE_ID.get((c, a, b))
            if action is None:
                raise NotationError(
                    f"{card_name(c)} cannot capture {card_name(a)} and {card_name(b)}: a card "
                    "captures two cards of its own rank"
                )
            return action
        raise NotationError(
            f"{text.strip()!r} is not a {self.title} action: use 'discard CARD', turn, "
            "'capture CARD CARD with CARD' or 'no capture'"
        )


__all__ = [
    "CAPTURE",
    "CAPTURES",
    "CAPTURE_ID",
    "CHOLEK_PRESETS",
    "DISCARD",
    "NORMAL_POINTS",
    "NUM_ACTIONS",
    "PASS",
    "RED_POINTS",
    "TURN",
    "CholekGame",
    "CholekObservation",
    "CholekRules",
    "CholekState",
    "score_captured",
]
