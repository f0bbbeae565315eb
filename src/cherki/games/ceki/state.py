"""A hand of Ceki in progress: the rules of play."""

from __future__ import annotations

from itertools import compress
from typing import Final

import numpy as np

from cherki.core.cards import (
    N_KINDS,
    NO_CARDS,
    card_name,
)
from cherki.core.contract import Game, State, rebuild
from cherki.core.deal import DealInfo, tally
from cherki.core.encoding import Vector
from cherki.core.errors import Act, Phrase
from cherki.core.events import NOBODY, Event, EventKind, Result, ScoreItem, WinningHand, event
from cherki.core.sets import GROUPINGS, arrangement, group_totals
from cherki.games.ceki.observation import CekiObservation
from cherki.games.ceki.rules import (
    CALL,
    CALL_DISCARD,
    DISCARD,
    DRAW,
    FROM_DISCARD,
    FROM_NONE,
    FROM_STOCK,
    MULTIPLIERS,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_NAMES,
    PHASE_OVER,
    TAKE,
    VALUE,
    WIN,
    CekiRules,
    couple_discards,
    couple_group,
)

#: every kind, for ``itertools.compress``
_KINDS: Final = range(N_KINDS)
#: ``state.encode``'s one-hot rows over the kinds (a card's, or none)
_NO_KIND: Final = bytes(N_KINDS)
_ONE_KIND: Final = tuple(bytes(k) + b"\x01" + bytes(N_KINDS - 1 - k) for k in range(N_KINDS))


# -- the state --------------------------------------------------------------------------------


class CekiState(State):
    """A hand of Ceki in progress."""

    rules: CekiRules
    game: Game

    def __init__(
        self,
        game: Game,
        rules: CekiRules,
        hands: list[list[int]],
        stock: list[int],
        first: int,
        info: DealInfo,
        *,
        pos: int = 0,
        pile: list[int] | None = None,
        pile_seats: list[int] | None = None,
        top_available: bool = False,
        top_straight: bool = False,
        taken_straight: bool = False,
        called: list[bool] | None = None,
        called_at: list[int] | None = None,
        laid: list[list[int]] | None = None,
        exposed: list[list[int]] | None = None,
        current: int | None = None,
        phase: int = PHASE_DRAW,
        drawn: int = -1,
        drawn_from: int = FROM_NONE,
        log: list[Event] | None = None,
        history: list[tuple[int, int]] | None = None,
        result: Result | None = None,
        totals: list[list[int]] | None = None,
        counts: tuple[bytearray, bytearray, bytearray, bytearray] | None = None,
    ) -> None:
        """The one constructor: a fresh deal with the defaults, or any position (``clone``
        and ``determinize`` pass every field). Lists given are kept, not copied; ``stock`` is
        never changed (``pos`` moves through it)."""
        n = len(hands)
        self.game = game
        self.rules = rules
        self.n = n
        self.info = info
        self.grouping = GROUPINGS[rules.honours]
        self.hands = hands
        #: each seat's cards per group, kept with every change of its hand (a hot path)
        self.totals = (
            totals if totals is not None else [group_totals(h, self.grouping) for h in hands]
        )
        self.stock = stock
        self.pos = pos
        self.pile = pile if pile is not None else []
        self.pile_seats = pile_seats if pile_seats is not None else []
        self.top_available = top_available
        self.top_straight = top_straight
        self.taken_straight = taken_straight
        self.called = called if called is not None else [False] * n
        self.called_at = called_at if called_at is not None else [-1] * n
        self.laid = laid if laid is not None else [[0] * N_KINDS for _ in range(n)]
        self.exposed = exposed if exposed is not None else [[0] * N_KINDS for _ in range(n)]
        self.first = first
        self.current = first if current is None else current
        self.phase = phase
        self.drawn = drawn
        self.drawn_from = drawn_from
        # the dealer sits before the first player
        self.log = (
            log if log is not None else [event(EventKind.DEAL, (first - 1) % n, number=len(stock))]
        )
        self.history = history if history is not None else []
        self._result = result
        #: the running counts ``encode`` copies, kept with every change (a hot path): the
        #: discards per kind, each seat's number of cards in hand and laid face down, and
        #: each seat's exposed cards (seat after seat, ``N_KINDS`` a seat); built here from
        #: the fields when not given (a fresh deal, ``determinize``), copied by ``clone``
        if counts is None:
            counts = (
                bytearray(N_KINDS),
                bytearray([sum(h) for h in self.hands]),
                bytearray([sum(x) for x in self.laid]),
                bytearray(b"".join([bytes(e) for e in self.exposed])),
            )
            for c in self.pile:
                counts[0][c] += 1
        self.pile_counts, self.sizes, self.laid_sizes, self.exposed_counts = counts

    # -- copies -------------------------------------------------------------------------
    def __reduce__(self) -> tuple[object, ...]:
        """Pickled and deep-copied through the one constructor, as :meth:`clone` copies."""
        return (rebuild, (type(self), *self._parts()))

    def _parts(self) -> tuple[tuple[object, ...], dict[str, object]]:
        """The constructor's arguments for an independent copy (the stock is shared: it never
        changes)."""
        return (
            (
                self.game,
                self.rules,
                [h[:] for h in self.hands],
                self.stock,
                self.first,
                self.info,
            ),
            {
                "pos": self.pos,
                "pile": self.pile[:],
                "pile_seats": self.pile_seats[:],
                "top_available": self.top_available,
                "top_straight": self.top_straight,
                "taken_straight": self.taken_straight,
                "called": self.called[:],
                "called_at": self.called_at[:],
                "laid": [x[:] for x in self.laid],
                "exposed": [e[:] for e in self.exposed],
                "phase": self.phase,
                "drawn": self.drawn,
                "drawn_from": self.drawn_from,
                "totals": [t[:] for t in self.totals],
                "counts": (
                    self.pile_counts[:],
                    self.sizes[:],
                    self.laid_sizes[:],
                    self.exposed_counts[:],
                ),
                **self._own_parts(),
            },
        )

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
        # every group a whole number of sets with the card added (the totals kept)
        g = self.grouping[card]
        return all((t + (i == g)) % 3 == 0 for i, t in enumerate(self.totals[s]))

    def _top_wins(self, s: int) -> bool:
        return self.top_available and bool(self.pile) and self.wins_with(s, self.pile[-1])

    # -- legal actions ------------------------------------------------------------------
    def _legal(self) -> list[int]:
        """The seat to act's legal actions, ascending (the base class caches them)."""
        s = self.current
        hand = self.hands[s]
        grouping = self.grouping
        totals = self.totals[s]  # the hand's cards per group, kept with the hand
        if self.phase == PHASE_DRAW:
            acts: list[int] = []
            stock_left = self.stock_left
            called = self.called[s]
            if stock_left:
                acts.append(DRAW)
                if self.top_available and not called:
                    acts.append(TAKE)
            if self.top_available and self.pile and self._may_win(s):
                # _top_wins: the discard added, every group a whole number of sets
                g = grouping[self.pile[-1]]
                if (totals[g] + 1) % 3 == 0 and all(
                    t % 3 == 0 for i, t in enumerate(totals) if i != g
                ):
                    acts.append(WIN)
            if stock_left and not called and couple_group(hand, grouping, totals) >= 0:
                acts.append(CALL)
            return acts
        acts = []
        if self._may_win(s) and all(t % 3 == 0 for t in totals):
            acts.append(WIN)
        if self.called[s]:
            acts.append(DISCARD + self.drawn)
            return acts
        banned = self.drawn if self.drawn_from == FROM_DISCARD else -1
        kinds = list(compress(_KINDS, hand))  # the kinds held, picked in C (a hot path)
        if banned >= 0 and hand[banned]:
            kinds.remove(banned)
        acts.extend([DISCARD + k for k in kinds])
        groups = couple_discards(hand, grouping, totals)
        if groups:
            acts.extend([CALL_DISCARD + k for k in kinds if grouping[k] in groups])
        return acts

    def _why_illegal(self, seat: int, action: int) -> Phrase:
        text = Act(self.game.action_text(action))
        hand = self.hands[seat]
        called = self.called[seat]
        if self.phase == PHASE_DRAW:
            if action == DRAW:
                return Phrase.of("refuse.ceki.pile_empty")
            if action == TAKE:
                if not self.top_available:
                    return Phrase.of("refuse.no_discard")
                if called:
                    return Phrase.of("refuse.ceki.take_to_win")
                return Phrase.of("refuse.ceki.pile_empty")
            if action == WIN:
                if not self.top_available:
                    return Phrase.of("refuse.ceki.no_discard_to_win")
                if not self._may_win(seat):
                    return Phrase.of("refuse.ceki.must_call")
                return Phrase.of("refuse.ceki.not_three_sets", card=card_name(self.pile[-1]))
            if action == CALL:
                if called:
                    return Phrase.of("refuse.ceki.called_already")
                return Phrase.of("refuse.ceki.eight_not_ready")
            return Phrase.of("refuse.ceki.draw_first")
        # discard phase
        if action in (DRAW, TAKE):
            return Phrase.of("refuse.drawn_already", action=text)
        if action == CALL:
            return Phrase.of("refuse.ceki.call_with_discard")
        if action == WIN:
            if not self._may_win(seat):
                return Phrase.of("refuse.ceki.must_call")
            return Phrase.of("refuse.ceki.nine_not_won")
        k = (action - DISCARD) % N_KINDS
        if not hand[k]:
            return Phrase.of("refuse.no_card", card=card_name(k))
        if called:
            if action >= CALL_DISCARD:
                return Phrase.of("refuse.ceki.called_already")
            return Phrase.of("refuse.ceki.called_drawn", card=card_name(self.drawn))
        if self.drawn_from == FROM_DISCARD and k == self.drawn:
            return Phrase.of("refuse.ceki.keep_taken", card=card_name(k))
        if action >= CALL_DISCARD:
            return Phrase.of("refuse.ceki.no_call", card=card_name(k))
        return Phrase.of("refuse.not_now", action=text)

    def record_faults(self) -> list[str]:
        """Where the hands contradict the public record: a seat without the discards it
        took, a caller whose eight cards (less the card drawn this turn) are not two sets
        and a couple with the laid cards its couple's group, a caller to discard with no
        drawn card, or a hand going on with the stock spent although the last discard does
        not complete the hand of the seat to act (the hand ends otherwise)."""
        faults: list[str] = []
        if self._result is not None:  # over: the winner holds the winning hand
            return faults
        grouping = self.grouping
        for t in range(self.n):
            hand = self.hands[t]
            if any(hand[k] < self.exposed[t][k] for k in range(N_KINDS)):
                faults.append(f"seat {t} does not hold the discards it took")
            if not self.called[t]:
                continue
            core = list(hand)
            if t == self.current and self.phase == PHASE_DISCARD:
                if self.drawn < 0 or not hand[self.drawn]:
                    faults.append(f"seat {t} called ceki and is to discard with no card drawn")
                    continue
                core[self.drawn] -= 1
            g = couple_group(core, grouping)
            if g < 0:
                faults.append(f"seat {t} called ceki but holds no two sets and a couple")
            elif self.laid[t] != [core[k] if grouping[k] == g else 0 for k in range(N_KINDS)]:
                faults.append(f"seat {t}'s laid cards are not its couple's group")
        if self.phase == PHASE_DRAW and not self.stock_left and not self._top_wins(self.current):
            faults.append(
                "the stock is spent and the last discard does not win for the seat to act"
            )
        return faults

    def waiting_for(self) -> str:
        return {
            PHASE_DRAW: "refuse.doing.draw_or_take",
            PHASE_DISCARD: "refuse.doing.discard",
        }.get(self.phase, "refuse.doing.act")

    # -- applying actions ---------------------------------------------------------------
    def _apply(self, action: int) -> list[Event]:
        s = self.current
        if action == DRAW:
            card = self.stock[self.pos]
            self.pos += 1
            self.hands[s][card] += 1
            self.totals[s][self.grouping[card]] += 1
            self.sizes[s] += 1
            self.drawn, self.drawn_from = card, FROM_STOCK
            self.phase = PHASE_DISCARD
            return [event(EventKind.DRAW, s, card, s)]
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
        self.totals[s][self.grouping[card]] += 1
        self.exposed[s][card] += 1
        self.pile_counts[card] -= 1
        self.sizes[s] += 1
        self.exposed_counts[s * N_KINDS + card] += 1
        self.drawn, self.drawn_from = card, FROM_DISCARD
        self.phase = PHASE_DISCARD
        return event(EventKind.TAKE, s, card)

    def _call(self, s: int) -> Event:
        hand = self.hands[s]
        g = couple_group(hand, self.grouping, self.totals[s])
        self.called[s] = True
        self.called_at[s] = len(self.pile)
        laid = self.laid[s]
        for k in range(N_KINDS):
            if self.grouping[k] == g:
                laid[k] = hand[k]
        self.laid_sizes[s] = sum(laid)
        return event(EventKind.CALL, s, call="ceki", number=sum(laid))

    def _discard(self, s: int, action: int) -> list[Event]:
        k = (action - DISCARD) % N_KINDS
        hand = self.hands[s]
        hand[k] -= 1
        self.totals[s][self.grouping[k]] -= 1
        self.sizes[s] -= 1
        if self.exposed[s][k]:
            self.exposed[s][k] -= 1
            self.exposed_counts[s * N_KINDS + k] -= 1
        self.pile.append(k)
        self.pile_counts[k] += 1
        self.pile_seats.append(s)
        self.top_available = True
        self.top_straight = self.drawn_from == FROM_STOCK and k == self.drawn
        events = [event(EventKind.DISCARD, s, k, straight=self.top_straight)]
        if action >= CALL_DISCARD:
            events.append(self._call(s))
        self.drawn, self.drawn_from = -1, FROM_NONE
        nxt = (s + 1) % self.n
        self.current = nxt
        self.phase = PHASE_DRAW
        if not self.stock_left and not self._top_wins(nxt):
            self._finish_no_winner()
            events.append(event(EventKind.END))
        return events

    # -- scoring ------------------------------------------------------------------------
    def _finish_no_winner(self) -> None:
        self.phase = PHASE_OVER
        self.current = -1
        zero = (0,) * self.n
        self._result = Result(None, "pile-out", payments=zero, money=zero, scores=zero)

    def _win(self, s: int) -> list[Event]:
        rules = self.rules
        hand = self.hands[s]
        card = self.drawn
        prev = (s - 1) % self.n
        if self.drawn_from == FROM_STOCK:
            how = "triple"  # the winning card drawn from the pile
        elif self.taken_straight:
            how = "plain"  # the previous seat's discard, drawn and thrown straight away
        else:
            how = "double"  # the previous seat's discard, a card that seat had held
        mult = MULTIPLIERS[how]
        sets = arrangement(hand, self.grouping).sets
        # items: each ``set`` (its cards, its points), then the ``double`` or ``triple`` factor
        items = [ScoreItem("set", sum(VALUE[k] for k in x), cards=tuple(x)) for x in sets]
        base = sum(i.points for i in items)
        if mult != 1:
            items.append(ScoreItem(how, 0, mult))
        total = base * mult
        payments = [0] * self.n
        others = [(s + i) % self.n for i in range(1, self.n)]
        if rules.payment == "each":
            for t in others:
                payments[t] = -total
            payments[s] = total * len(others)
        else:
            share, extra = divmod(total, len(others))
            for i, t in enumerate(others):
                payments[t] = -(share + (1 if i < extra else 0))
            payments[s] = total
        per_hand = rules.settlement == "per-hand"
        money = tuple(p * rules.cents_per_point if per_hand else 0 for p in payments)
        scores = tuple(total if t == s else 0 for t in range(self.n))
        self.phase = PHASE_OVER
        self.current = -1
        self._result = Result(
            s,
            how,
            tuple(items),
            total,
            tuple(payments),
            money,
            win=WinningHand(
                hand=tuple(hand),
                sets=tuple(tuple(x) for x in sets),
                call="ceki" if self.called[s] else None,
                call_changed=False,
                card=card,
                from_seat=s if how == "triple" else prev,
            ),
            scores=scores,
            detail={
                "called": self.called[s],
                "base": base,
                "multiplier": mult,
                "payment": rules.payment,
            },
        )
        return [event(EventKind.WIN, s, card, how=how), event(EventKind.END)]

    # -- observation --------------------------------------------------------------------
    def observation(self, seat: object) -> CekiObservation:
        """What ``seat`` may know: its own hand and the cards it laid face down, and its
        drawn card (where from, whether taken straight) and legal actions while it is to
        act; the rest is public (:meth:`public_observation`)."""
        return self._observe(self.check_seat(seat))

    def public_observation(self) -> CekiObservation:
        """What anyone watching may see: every seat's observation less its own hand, the
        cards it laid face down (their number is public), its drawn card and legal actions."""
        return self._observe(NOBODY)

    def encode(self, seat: object) -> Vector:
        """``observation(seat).encode()`` (``NOBODY``: the public view's) written straight
        from the state, without building the observation or its legal actions: the same
        views at the same places (:func:`~cherki.games.ceki.observation.ceki_layout`; the
        conformance suite holds the two equal at every step)."""
        if seat != NOBODY and (type(seat) is not int or not 0 <= seat < self.n):
            self.check_seat(seat)  # raises, saying why
        s = seat if type(seat) is int else NOBODY
        n, k = self.n, N_KINDS
        # the views as small whole numbers (counts, flags, the stock: 0 to 255), copied from
        # the running counts the state keeps, joined into one bytes string and turned into
        # float32 at once: no loop over the pile or the seats here
        sizes, laid_sizes, exposed = self.sizes, self.laid_sizes, self.exposed_counts
        called = bytes(self.called)
        v = s if s >= 0 else 0
        if v:  # round the table from the viewer
            cut = v * k
            sizes = sizes[v:] + sizes[:v]
            called = called[v:] + called[:v]
            laid_sizes = laid_sizes[v:] + laid_sizes[:v]
            exposed = exposed[cut:] + exposed[:cut]
        pile = self.pile
        tail = bytearray(1 + n + len(PHASE_NAMES))  # stock, turn, phase
        tail[0] = len(self.stock) - self.pos
        if self.current >= 0:
            tail[1 + (self.current - v) % n] = 1
        tail[1 + n + self.phase] = 1
        buf = b"".join(
            (
                bytes(self.hands[s]) if s >= 0 else _NO_KIND,
                bytes(self.laid[s]) if s >= 0 else _NO_KIND,
                self.pile_counts,
                _ONE_KIND[pile[-1]] if pile and self.top_available else _NO_KIND,
                b"\x01" if self.top_straight else b"\x00",
                sizes,
                called,
                laid_sizes,
                exposed,
                _ONE_KIND[self.drawn]
                if s == self.current and s >= 0 and self.drawn >= 0
                else _NO_KIND,
                tail,
            )
        )
        return np.frombuffer(buf, dtype=np.uint8).astype(np.float32)

    def _observe(self, seat: int) -> CekiObservation:
        """The observation of ``seat``, or the public view for ``NOBODY``: the one place
        that decides what a viewer sees."""
        mine = seat == self.current and seat >= 0
        me = seat >= 0
        return CekiObservation(
            seat,
            self.n,
            self.current,
            PHASE_NAMES[self.phase],
            tuple(self.hands[seat]) if me else NO_CARDS,
            tuple(sum(h) for h in self.hands),
            self.stock_left,
            tuple(self.pile),
            tuple(self.pile_seats),
            self.top_available,
            self.top_straight,
            tuple(self.called),
            tuple(self.called_at),
            tuple(sum(x) for x in self.laid),
            tuple(self.laid[seat]) if me else NO_CARDS,
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
