"""A hand of Cholek Tiga in progress: the rules of play."""

from __future__ import annotations

import itertools
from functools import cache
from itertools import compress
from typing import Final

import numpy as np

from cherki.core.cards import (
    N_KINDS,
    NO_CARDS,
    card_name,
    format_hand,
)
from cherki.core.contract import Game, State, rebuild
from cherki.core.deal import DealInfo, tally
from cherki.core.encoding import Vector
from cherki.core.errors import Act, Phrase
from cherki.core.events import JSON, NOBODY, Event, EventKind, Result, ScoreItem, event
from cherki.core.sets import GROUP_KINDS, GROUPINGS
from cherki.games.cholek.observation import CholekObservation
from cherki.games.cholek.rules import (
    CAPTURE,
    CAPTURE_ID,
    CAPTURES,
    DISCARD,
    FROM_HAND,
    FROM_STOCK,
    HAND_SIZE,
    PASS,
    PHASE_CAPTURE,
    PHASE_DISCARD,
    PHASE_NAMES,
    PHASE_OVER,
    PHASE_TURN,
    TURN,
    CholekRules,
    score_captured,
)

#: the discard of each kind, as a range for ``itertools.compress``
_DISCARDS: Final = range(DISCARD, DISCARD + N_KINDS)


@cache
def _pairs(honours: str) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """For each card, under the honours rule ``honours``: every pair of its group's kinds it
    might capture (with replacement, in order) and the capture's action id."""
    grouping, group_kinds = GROUPINGS[honours], GROUP_KINDS[honours]
    return tuple(
        tuple(
            (a, b, CAPTURE_ID[(c, a, b)])
            for a, b in itertools.combinations_with_replacement(group_kinds[grouping[c]], 2)
        )
        for c in range(N_KINDS)
    )


# -- the state --------------------------------------------------------------------------------


class CholekState(State):
    """A game of Cholek Tiga in progress."""

    rules: CholekRules
    game: Game

    def __init__(
        self,
        game: Game,
        rules: CholekRules,
        stock: list[int],
        first: int,
        n: int,
        info: DealInfo,
        *,
        hands: list[list[int]] | None = None,
        pos: int = 0,
        pool: list[int] | None = None,
        captured: list[list[int]] | None = None,
        bonus_money: list[int] | None = None,
        bonuses: list[dict[str, JSON]] | None = None,
        last_capturer: int = -1,
        current: int | None = None,
        phase: int = PHASE_DISCARD,
        active: int = -1,
        active_from: int = FROM_HAND,
        rounds: int = 0,
        log: list[Event] | None = None,
        history: list[tuple[int, int]] | None = None,
        result: Result | None = None,
    ) -> None:
        """The one constructor. Without ``hands`` it deals: three cards to each seat from the
        top of ``stock`` in turn from ``first``, then ``initial_pool`` cards turned up into
        the pool. With ``hands`` it sets up any position (``clone`` and ``determinize`` pass
        every field). Lists given are kept, not copied; ``stock`` is never changed."""
        self.game = game
        self.rules = rules
        self.n = n
        self.info = info
        self.grouping = GROUPINGS[rules.honours]
        self.group_kinds = GROUP_KINDS[rules.honours]
        self.stock = stock
        self.pos = pos
        self.pool = pool if pool is not None else [0] * N_KINDS
        self.captured = captured if captured is not None else [[0] * N_KINDS for _ in range(n)]
        self.bonus_money = bonus_money if bonus_money is not None else [0] * n
        self.bonuses: list[dict[str, JSON]] = bonuses if bonuses is not None else []
        self.last_capturer = last_capturer
        self.first = first
        self.current = first if current is None else current
        self.phase = phase
        self.active = active
        self.active_from = active_from
        self.rounds = rounds
        self.history = history if history is not None else []
        self._result = result
        if hands is not None:
            self.hands = hands
            #: each seat's number of cards in hand, kept with its hand (a hot path)
            self.hand_sizes = [sum(h) for h in hands]
            self.log = log if log is not None else []
            return
        self.hands = [[0] * N_KINDS for _ in range(n)]
        self.hand_sizes = [0] * n
        self.log = [event(EventKind.DEAL, first)]
        self.log.extend(self._redraw(first, HAND_SIZE))
        for _ in range(min(rules.initial_pool, self.stock_left)):
            k = self._pop_stock()
            self.pool[k] += 1
            self.log.append(event(EventKind.TURN, -1, k))
        # the stock once the hands and the pool are dealt, as the table shows it
        self.log[0] = event(EventKind.DEAL, first, number=self.stock_left)

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
                self.stock,
                self.first,
                self.n,
                self.info,
            ),
            {
                "hands": [h[:] for h in self.hands],
                "pos": self.pos,
                "pool": self.pool[:],
                "captured": [x[:] for x in self.captured],
                "bonus_money": self.bonus_money[:],
                "bonuses": [dict(b) for b in self.bonuses],
                "last_capturer": self.last_capturer,
                "phase": self.phase,
                "active": self.active,
                "active_from": self.active_from,
                "rounds": self.rounds,
                **self._own_parts(),
            },
        )

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
                self.hand_sizes[s] += 1
                events.append(event(EventKind.DRAW, s, k, s))
        self.rounds += 1
        return events

    # -- legal actions ------------------------------------------------------------------
    def capture_options(self, card: int | None = None) -> list[int]:
        """Capture actions open to ``card`` (default: the card on the table) given the pool."""
        c = self.active if card is None else card
        if c < 0:
            return []
        pool = self.pool
        return [
            i
            for a, b, i in _pairs(self.rules.honours)[c]
            if ((pool[a] >= 2) if a == b else (pool[a] and pool[b]))
        ]

    def _legal(self) -> list[int]:
        """The seat to act's legal actions, ascending (the base class caches them)."""
        if self.phase == PHASE_DISCARD:
            # the discards of the kinds held, picked in C (a hot path)
            return list(compress(_DISCARDS, self.hands[self.current]))
        if self.phase == PHASE_TURN:
            return [TURN]
        return [PASS, *sorted(self.capture_options())]  # PASS (no capture) < CAPTURE ids

    def _why_illegal(self, seat: int, action: int) -> Phrase:
        phase = self.phase
        text = Act(self.game.action_text(action))
        if phase == PHASE_DISCARD:
            if action < TURN:
                return Phrase.of("refuse.cholek.no_card", card=card_name(action - DISCARD))
            return Phrase.of("refuse.cholek.discard_first", action=text)
        if phase == PHASE_TURN:
            return Phrase.of("refuse.cholek.turn_now", action=text)
        active = card_name(self.active)
        if action < CAPTURE:
            return Phrase.of("refuse.cholek.decide", card=active)
        c, a, b = CAPTURES[action - CAPTURE]
        if c != self.active:
            return Phrase.of("refuse.cholek.not_active", card=active, other=card_name(c))
        if self.grouping[a] != self.grouping[c] or self.grouping[b] != self.grouping[c]:
            return Phrase.of(
                "refuse.cholek.own_rank", card=card_name(c), honours=self.rules.honours
            )
        pool = format_hand(self.pool)
        return Phrase.of(
            "refuse.cholek.not_in_pool",
            a=card_name(a),
            b=card_name(b),
            pool=pool if pool else Phrase.of("refuse.cholek.empty"),
        )

    def waiting_for(self) -> str:
        return {
            PHASE_DISCARD: "refuse.doing.discard",
            PHASE_CAPTURE: "refuse.doing.capture",
            PHASE_TURN: "refuse.doing.turn",
        }.get(self.phase, "refuse.doing.act")

    # -- applying actions ---------------------------------------------------------------
    def _apply(self, action: int) -> list[Event]:
        s = self.current
        if self.phase == PHASE_DISCARD:
            k = action - DISCARD
            self.hands[s][k] -= 1
            self.hand_sizes[s] -= 1
            events = [event(EventKind.DISCARD, s, k)]
            self.active, self.active_from = k, FROM_HAND
            return events + self._after_place(s)
        if self.phase == PHASE_TURN:
            k = self._pop_stock()
            self.active, self.active_from = k, FROM_STOCK
            return [event(EventKind.TURN, s, k), *self._after_place(s)]
        if action == PASS:
            k = self.active
            self.pool[k] += 1
            events = [event(EventKind.KEEP, s, k)]
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
        events = [event(EventKind.CAPTURE, s, c, cards=(a, b))]
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
            events.append(event(EventKind.BONUS, s, c, number=cents, how=name))
        return events

    def _next_turn(self, s: int) -> list[Event]:
        self.current = s
        events: list[Event] = []
        if not any(self.hand_sizes):
            per = min(HAND_SIZE, self.stock_left // (2 * self.n))
            if per:
                events.extend(self._redraw(s, per))
        if self.hand_sizes[s]:
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
            swept = tuple(k for k in range(N_KINDS) for _ in range(self.pool[k]))
            events.append(Event(EventKind.SWEEP, t, cards=swept))
            self.pool = [0] * N_KINDS
        items: list[ScoreItem] = []
        scores: list[int] = []
        end_bonus = [0] * n
        ang: list[dict[str, JSON]] = []
        for t in range(n):
            pts, lines, ang_pow, besar = score_captured(self.captured[t])
            scores.append(pts)
            # items: ``captured`` (``count`` copies of ``cards[0]`` scoring ``points`` for
            # ``seat``), then ``ang-pow`` / ``ang-pow-besar`` (``count``: cents from each)
            items.extend(ScoreItem("captured", p, count=c, cards=(k,), seat=t) for k, c, p in lines)
            for kinds, name, cents in (
                (ang_pow, "ang-pow", rules.ang_pow_cents),
                (besar, "ang-pow-besar", rules.ang_pow_besar_cents),
            ):
                for k in kinds:
                    for u in range(n):
                        end_bonus[u] += cents * (n - 1) if u == t else -cents
                    ang.append(
                        {
                            "seat": t,
                            "bonus": name.replace("-", " "),
                            "card": card_name(k),
                            "cents_each": cents,
                        }
                    )
                    items.append(ScoreItem(name, 0, count=cents, cards=(k,), seat=t))
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
        self.phase = PHASE_OVER
        self.current = -1
        self._result = Result(
            winner,
            "score" if winner is not None else "tie",
            tuple(items),
            best,
            tuple(payments),
            money,
            scores=tuple(scores),
            detail={
                "winners": winners,
                "captured": [format_hand(c) for c in self.captured],
                "pool_left": pool_left,
                "in_play_bonuses": [dict(b) for b in self.bonuses],
                "end_bonuses": ang,
                "bonus_cents": [self.bonus_money[t] + end_bonus[t] for t in range(n)],
            },
        )
        events.append(event(EventKind.END))
        return events

    # -- observation --------------------------------------------------------------------
    def observation(self, seat: object) -> CholekObservation:
        """What ``seat`` may know: its own hand and, while it is to act, its legal actions;
        the rest is public (:meth:`public_observation`)."""
        return self._observe(self.check_seat(seat))

    def public_observation(self) -> CholekObservation:
        """What anyone watching may see: every seat's observation less its own hand and
        legal actions (the pool, the captures, the card on the table are face up)."""
        return self._observe(NOBODY)

    def encode(self, seat: object) -> Vector:
        """``observation(seat).encode()`` (``NOBODY``: the public view's) written straight
        from the state, without building the observation or its legal actions: the same
        views at the same places (:func:`~cherki.games.cholek.observation.cholek_layout`;
        the conformance suite holds the two equal at every step)."""
        if seat != NOBODY and (type(seat) is not int or not 0 <= seat < self.n):
            self.check_seat(seat)  # raises, saying why
        s = seat if type(seat) is int else NOBODY
        n, k = self.n, N_KINDS
        v = s if s >= 0 else 0
        order = [(v + i) % n for i in range(n)]
        # the views as one list of small whole numbers (counts, flags, the stock: 0 to 255),
        # turned into float32 at once through bytes; the bonus money (dollars) set after
        vals: list[int] = [*self.hands[s]] if s >= 0 else [0] * k
        vals += self.pool
        active = [0] * (k + 2)
        if self.active >= 0:
            active[self.active] = 1
            active[k if self.active_from == FROM_HAND else k + 1] = 1
        vals += active
        sizes, captured, bonus = self.hand_sizes, self.captured, self.bonus_money
        vals += [sizes[t] for t in order]
        for t in order:
            vals += captured[t]
        at = len(vals)
        vals += [0] * n
        vals.append(len(self.stock) - self.pos)
        turn = [0] * (n + len(PHASE_NAMES))
        if self.current >= 0:
            turn[(self.current - v) % n] = 1
        turn[n + self.phase] = 1
        vals += turn
        out = np.frombuffer(bytes(vals), dtype=np.uint8).astype(np.float32)
        out[at : at + n] = [bonus[t] / 100 for t in order]
        return out

    def _observe(self, seat: int) -> CholekObservation:
        """The observation of ``seat``, or the public view for ``NOBODY``: the one place
        that decides what a viewer sees."""
        mine = seat == self.current and seat >= 0
        return CholekObservation(
            seat,
            self.n,
            self.current,
            PHASE_NAMES[self.phase],
            tuple(self.hands[seat]) if seat >= 0 else NO_CARDS,
            tuple(self.hand_sizes),
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
        scores = self.result.scores or (0,) * self.n
        low = min(scores)
        for j in range(self.n):
            t = (self.first + j) % self.n
            if scores[t] == low:
                return t
        return self.first  # pragma: no cover
