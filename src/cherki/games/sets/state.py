"""A hand of a game of sets in progress: the rules of play."""

from __future__ import annotations

import dataclasses
from bisect import insort
from collections.abc import Mapping
from itertools import compress
from typing import Final

from cherki.core.cards import (
    N_KINDS,
    NO_CARDS,
)
from cherki.core.contract import Game, State, rebuild
from cherki.core.deal import DealInfo, tally
from cherki.core.encoding import Vector
from cherki.core.errors import Phrase
from cherki.core.events import JSON, NOBODY, Event, EventKind, PotChange, Result, event
from cherki.core.sets import (
    GROUPINGS,
    N_GROUPS,
    NO_WAIT,
    Wait,
    is_winning,
    wait_for,
    wait_in,
)
from cherki.games.sets import faults
from cherki.games.sets.actions import (
    CALL_CEKI,
    CALL_TAN,
    DISCARD,
    DRAW,
    FROM_DEAL,
    FROM_DISCARD,
    FROM_STOCK,
    PASS,
    PHASE_CLAIM,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_NAMES,
    PHASE_OVER,
    SAMPEI,
    TAKE,
)
from cherki.games.sets.calls import as_called, kept_ceki_waits
from cherki.games.sets.observation import SetsObservation, StateCode
from cherki.games.sets.rules import SetsRules, Win

#: every kind, as a range for ``itertools.compress``
_KINDS: Final = range(N_KINDS)
#: the draw and the claim phases' legal lists, shared (the base class never changes them)
_TAKE_OR_DRAW: Final = [TAKE, DRAW]
_DRAW_ONLY: Final = [DRAW]
_SAMPEI_OR_PASS: Final = [SAMPEI, PASS]
#: no card awaited (immutable, shared)
_NONE: Final[frozenset[int]] = frozenset()


# -- the state --------------------------------------------------------------------------------
class SetsState(State):
    """A hand of Balik Satu, Balik Lima Belas or a relative in progress."""

    rules: SetsRules

    game: Game

    def __init__(
        self,
        game: Game,
        rules: SetsRules,
        hands: list[list[int]],
        stock: list[int],
        first: int,
        half_packs: int,
        info: DealInfo,
        context: Mapping[str, JSON] | None = None,
        *,
        pos: int = 0,
        pile: list[int] | None = None,
        pile_seats: list[int] | None = None,
        top_available: bool = False,
        calls: list[str | None] | None = None,
        call_changed: list[bool] | None = None,
        call_order: list[int] | None = None,
        waits: list[Wait] | None = None,
        wait_sets: list[frozenset[int]] | None = None,
        exposed: list[list[int]] | None = None,
        melded: list[list[int]] | None = None,
        current: int | None = None,
        phase: int | None = None,
        drawn: int = -1,
        drawn_from: int = FROM_DEAL,
        claimants: list[int] | None = None,
        claim_card: int = -1,
        claim_drawer: int = -1,
        claim_from_discard: bool = False,
        log: list[Event] | None = None,
        history: list[tuple[int, int]] | None = None,
        result: Result | None = None,
        self_win_ok: bool | None = None,
        totals: list[list[int]] | None = None,
        lapsed: list[bool] | None = None,
    ) -> None:
        """The one constructor: a fresh deal from ``hands`` and ``stock`` with the defaults,
        or any position (``clone`` and ``determinize`` pass every field). The lists given are
        kept, not copied: the caller hands them over. ``stock`` is never changed (``pos``
        moves through it), so copies may share it."""
        n = len(hands)
        self.game = game
        self.rules = rules
        self.n = n
        self.info = info
        self.half_packs = half_packs
        self.grouping = GROUPINGS[rules.honours]
        #: the game's hooks, read once (hot paths): a pair goes out, a taken mata is laid
        self.pair_goes_out = rules.goes_out_on_pair
        self.lays_mata = rules.lays_taken_mata
        #: options read at every discard: a caller may claim a discard; calls put off
        self.discard_wins = rules.discard_wins
        self.calls_put_off = rules.call_timing == "next"
        self.size = rules.set_size
        self.hand_size = rules.hand_size
        self.hands = hands
        grouping, size = self.grouping, self.size
        #: each seat's cards per group, kept with every change of its hand (a hot path)
        self.totals = totals if totals is not None else []
        #: each seat's discard actions, ``DISCARD + k`` for every kind ``k`` it holds,
        #: ascending, kept with every change of its hand (:meth:`_gain`, :meth:`_lose`): the
        #: discard phase's list is a copy of it, not a pass over every kind (a hot path)
        self.held: list[list[int]] = []
        #: each seat's number of groups whose cards are not a whole number of sets, kept
        #: with its hand too: most full hands have more than two open, and call nothing
        self.open_groups = [0] * n
        #: and the sum of their groups' numbers: the open group itself where one is open
        self.open_sum = [0] * n
        for t, h in enumerate(hands):  # one pass over the kinds held, picked in C
            kinds = list(compress(_KINDS, h))
            self.held.append([DISCARD + k for k in kinds])
            if totals is None:
                tot = [0] * N_GROUPS
                for k in kinds:
                    tot[grouping[k]] += h[k]
                self.totals.append(tot)
            tot = self.totals[t]
            for g in {grouping[k] for k in kinds}:
                if tot[g] % size:
                    self.open_groups[t] += 1
                    self.open_sum[t] += g
        self.stock = stock
        self.pos = pos
        self.live_end = len(stock) - rules.reserve
        self.pile = pile if pile is not None else []
        self.pile_seats = pile_seats if pile_seats is not None else []
        self.top_available = top_available
        self.calls: list[str | None] = calls if calls is not None else [None] * n
        self.call_changed = call_changed if call_changed is not None else [False] * n
        self.call_order = call_order if call_order is not None else [-1] * n
        #: option call_timing=next: the seats that let the discard on which they could
        #: first call pass (their hand still a card from winning); they may not call until
        #: a discard leaves their hand further from winning
        self.lapsed = lapsed if lapsed is not None else [False] * n
        if waits is None:
            if calls is None:  # a fresh deal: nobody waits (the shared empty set below)
                waits, wait_sets = [NO_WAIT] * n, [_NONE] * n
            else:
                waits = [self._wait(hands[t]) if self.calls[t] else NO_WAIT for t in range(n)]
        self.waits = waits
        self.wait_sets = wait_sets if wait_sets is not None else [frozenset(w.cards) for w in waits]
        self.exposed = exposed if exposed is not None else [[0] * N_KINDS for _ in range(n)]
        self.melded = melded if melded is not None else [[0] * N_KINDS for _ in range(n)]
        #: the observations' copies of ``exposed`` and ``melded``, made again only after a
        #: change (None: changed since)
        self._exposed_view: tuple[tuple[int, ...], ...] | None = None
        self._melds_view: tuple[tuple[int, ...], ...] | None = None
        #: the seats whose ``exposed`` or ``melded`` cards changed since the encoding last
        #: read them, as bits (the encoding's kept blocks follow them and clear it)
        self._shown = 0
        #: the discard pile's count of each kind, kept with every card added or taken (the
        #: encoding's ``discards`` view, as bytes)
        self.pile_counts = bytearray(N_KINDS)
        for k in self.pile:
            self.pile_counts[k] += 1
        #: the encoded observations' kept blocks (made at the first :meth:`encode`)
        self._code: StateCode | None = None
        self.first = first
        self.current = first if current is None else current
        if phase is None:
            phase = PHASE_DISCARD if rules.starter_extra else PHASE_DRAW
        self.phase = phase
        self.drawn = drawn
        self.drawn_from = drawn_from
        self.claimants = claimants if claimants is not None else []
        self.claim_card = claim_card
        self.claim_drawer = claim_drawer
        self.claim_from_discard = claim_from_discard
        self.context: dict[str, JSON] = dict(context or {})
        self._init_pot()
        if log is None:  # the stock as the table shows it: the scoring reserve is not drawn
            log = [event(EventKind.DEAL, first, number=max(0, self.live_end - pos))]
        self.log = log
        self.history = history if history is not None else []
        self._result = result
        if self_win_ok is None:  # kandang tangan: the starter's dealt hand wins at once
            self_win_ok = bool(
                rules.starter_extra and rules.kandang_tangan and self._wins(hands[first])
            )
        self.self_win_ok = self_win_ok

    def _init_pot(self) -> None:
        """Pot methods: each seat stakes when the hand finds the pot empty [001]."""
        self.pot_start = 0
        self.stakes: tuple[int, ...] = (0,) * self.n
        if self.rules.method.pot:
            pot = self.context.get("pot", 0)
            self.pot_start = pot if isinstance(pot, int) else 0
            if self.pot_start <= 0:
                self.stakes = (self.rules.pot_stake,) * self.n
        self.pot = self.pot_start + sum(self.stakes)

    def _wins(self, hand: list[int]) -> bool:
        return is_winning(hand, self.grouping, True, self.size, self.pair_goes_out)

    def _wait(
        self, hand: list[int], totals: list[int] | None = None, mata: bool | None = None
    ) -> Wait:
        """What ``hand`` waits on (``totals``: its cards per group, ``mata``: whether it
        holds a mata, when known)."""
        return wait_for(hand, self.grouping, self.size, self.pair_goes_out, totals, mata)

    def _holds_mata(self, s: int) -> bool:
        """Whether seat ``s``'s hand holds a mata (of the kinds it holds: a hot path)."""
        hand, size = self.hands[s], self.size
        return any(hand[d - DISCARD] >= size for d in self.held[s])

    def _may_discard(self, s: int, k: int) -> bool:
        return self.hands[s][k] > self.melded[s][k]

    def _gain(self, s: int, k: int) -> None:
        """A card ``k`` into seat ``s``'s hand: its counts, held kinds, group totals and open
        groups (:attr:`open_groups`; written out here and in :meth:`_lose`: a hot path)."""
        hand = self.hands[s]
        if not hand[k]:
            insort(self.held[s], DISCARD + k)
        hand[k] += 1
        g, totals, size = self.grouping[k], self.totals[s], self.size
        t = totals[g]
        totals[g] = t + 1
        now_open = (t + 1) % size != 0
        if now_open != (t % size != 0):  # the group opened, or closed (bools: native ints)
            self.open_groups[s] += 1 if now_open else -1
            self.open_sum[s] += g if now_open else -g

    def _lose(self, s: int, k: int) -> None:
        """A card ``k`` out of seat ``s``'s hand (:meth:`_gain` undone)."""
        hand = self.hands[s]
        hand[k] -= 1
        if not hand[k]:
            self.held[s].remove(DISCARD + k)
        g, totals, size = self.grouping[k], self.totals[s], self.size
        t = totals[g]
        totals[g] = t - 1
        now_open = (t - 1) % size != 0
        if now_open != (t % size != 0):
            self.open_groups[s] += 1 if now_open else -1
            self.open_sum[s] += g if now_open else -g

    def _own_wait(self, s: int) -> Wait:
        """What seat ``s``'s hand waits on (:func:`wait_for`), from the groups kept open
        with it: one open, one card short of a set, or no wait."""
        if self.open_groups[s] != 1:
            return NO_WAIT
        g = self.open_sum[s]
        if self.totals[s][g] % self.size != self.size - 1:
            return NO_WAIT
        mata = self._holds_mata(s)
        return wait_in(self.hands[s], self.grouping, self.size, self.pair_goes_out, g, mata)

    # -- copies -------------------------------------------------------------------------
    def __reduce__(self) -> tuple[object, ...]:
        """Pickled and deep-copied through the one constructor, as :meth:`clone` copies."""
        return (rebuild, (type(self), *self._parts()))

    def _parts(self) -> tuple[tuple[object, ...], dict[str, object]]:
        """The constructor's arguments for an independent copy (the stock, never changed, and
        the immutable waits and events are shared)."""
        return (
            (
                self.game,
                self.rules,
                [h[:] for h in self.hands],
                self.stock,
                self.first,
                self.half_packs,
                self.info,
                self.context,
            ),
            {
                "pos": self.pos,
                "pile": self.pile[:],
                "pile_seats": self.pile_seats[:],
                "top_available": self.top_available,
                "calls": self.calls[:],
                "call_changed": self.call_changed[:],
                "call_order": self.call_order[:],
                "waits": self.waits[:],
                "wait_sets": self.wait_sets[:],
                "exposed": [e[:] for e in self.exposed],
                "melded": [m[:] for m in self.melded],
                "phase": self.phase,
                "drawn": self.drawn,
                "drawn_from": self.drawn_from,
                "claimants": self.claimants[:],
                "claim_card": self.claim_card,
                "claim_drawer": self.claim_drawer,
                "claim_from_discard": self.claim_from_discard,
                "self_win_ok": self.self_win_ok,
                "totals": [t[:] for t in self.totals],
                "lapsed": self.lapsed[:],
                **self._own_parts(),
            },
        )

    def card_counts(self) -> list[int]:
        shown = [self.claim_card] if self.claim_card >= 0 else []
        return tally(self.hands, [*self.pile, *self.stock[self.pos :], *shown])

    # -- legal actions ------------------------------------------------------------------
    def _legal(self) -> list[int]:
        """The seat to act's legal actions, ascending (the base class caches them)."""
        phase = self.phase
        if phase == PHASE_DRAW:
            # _take_ok holds at once where a taken mata is not laid (a hot path); the lists
            # are shared constants (the base class keeps them unchanged)
            if self.top_available and (not self.lays_mata or self._take_ok(self.current)):
                return _TAKE_OR_DRAW
            return _DRAW_ONLY
        if phase == PHASE_CLAIM:
            return _SAMPEI_OR_PASS
        return self._discard_actions(self.current)

    def _take_ok(self, s: int) -> bool:
        """A discard that would complete an exposed olo may be taken only if the seat still
        has a card it may discard afterwards (the olo stays on the table)."""
        k = self.pile[-1]
        hand = self.hands[s]
        if not (self.lays_mata and hand[k] % self.size == self.size - 1):
            return True
        drawn, ok_win = self.drawn, self.self_win_ok
        self._gain(s, k)
        self.melded[s][k] += self.size
        view, self._melds_view = self._melds_view, None
        self.drawn, self.self_win_ok = k, False
        ok = bool(self._discard_actions(s))
        self._lose(s, k)
        self.melded[s][k] -= self.size
        self._melds_view = view  # the melds as they were: their view (and encoding) holds
        self.drawn, self.self_win_ok = drawn, ok_win
        return ok

    def _discard_actions(self, s: int) -> list[int]:
        """The discard phase's actions of seat ``s``, ascending: sampei, the discards, the
        discards with a tan call, with a ceki call."""
        hand = self.hands[s]
        call = self.calls[s]
        if call is None:
            melded = self.melded[s]
            # a laid olo's cards stay on the table (of the kinds held; Chaqui alone lays one)
            if self.lays_mata and any(melded):
                discards = [d for d in self.held[s] if hand[d - DISCARD] > melded[d - DISCARD]]
            else:
                discards = self.held[s]
            acts = [SAMPEI, *discards] if self.self_win_ok else discards[:]
            if not self.lapsed[s]:
                acts.extend(self._call_actions(s, hand, discards))
            return acts
        acts = [SAMPEI] if self.self_win_ok else []
        return acts + self._caller_discards(s, hand, call)

    def _call_actions(self, s: int, hand: list[int], discards: list[int]) -> list[int]:
        """Discard-and-call actions for the full hand ``hand`` of seat ``s``, which has not
        called, ascending (``discards``: its discard actions)."""
        grouping = self.grouping
        size = self.size
        # most hands have more than two groups open, and call nothing (a hot path): the
        # count kept with the hand says so at once
        if self.open_groups[s] not in (0, 2):
            return []
        totals = self.totals[s]
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
        # the kinds of which the hand holds a mata: with one card thrown, it keeps one unless
        # that card broke the only one
        mata = [d - DISCARD for d in self.held[s] if hand[d - DISCARD] >= size]
        tan: list[int] = []
        ceki: list[int] = []
        for d in discards:
            k = d - DISCARD
            g = grouping[k]
            if cand is not None and g not in cand:
                continue
            # the group left open: the one that was whole (this card opens it), or the other
            # of the two open ones
            left_open = g if cand is None else (b if g == a else a)
            keeps_mata = len(mata) > 1 or (len(mata) == 1 and (mata[0] != k or hand[k] > size))
            hand[k] -= 1
            w = wait_in(hand, grouping, size, self.pair_goes_out, left_open, keeps_mata)
            hand[k] += 1
            if w.call == "tan":
                tan.append(CALL_TAN + k)
            elif w.call == "ceki":
                ceki.append(CALL_CEKI + k)
        return tan + ceki if ceki else tan

    def _caller_discards(self, s: int, hand: list[int], call: str) -> list[int]:
        """Discards open to a seat that has called (R-CHANGE, option caller_changes),
        ascending: the discards, then the changes of call (all to the other call)."""
        drawn = self.drawn
        keep = drawn >= 0 and self._may_discard(s, drawn)
        mode = self.rules.caller_changes
        if mode == "none" or drawn < 0:
            return [DISCARD + drawn] if keep else []
        acts: list[int] = []
        changes: list[int] = []
        size = self.size
        held = self.held[s]
        # the mata after each exchange: the full hand's (each kind's whole sets, of the kinds
        # held), less one where the card thrown breaks one (a count that is a whole number
        # of sets); the card drawn thrown back, the hand's before the draw
        full_mata = sum(hand[d - DISCARD] // size for d in held)
        old_mata = full_mata - (1 if hand[drawn] % size == 0 else 0)
        mata_only = mode == "mata-only"
        totals, grouping = self.totals[s], self.grouping
        for d in held:  # the kinds held, ascending
            k = d - DISCARD
            c = hand[k]
            if k == drawn:
                if keep:
                    acts.append(DISCARD + k)
                continue
            if not c or not self._may_discard(s, k):
                continue
            mata_left = full_mata - (1 if c % size == 0 else 0)
            if mata_only and mata_left <= old_mata:
                continue
            hand[k] -= 1
            g = grouping[k]
            totals[g] -= 1
            w = self._wait(hand, totals, mata_left > 0)
            totals[g] += 1
            # a ceki caller who makes a mata may keep ceki (a plain discard) while a card
            # still completes a mata, or change to tan [000 R-CHANGE]
            keeps = (
                call == "ceki" and w.call == "tan" and bool(kept_ceki_waits(w.cards, hand, size))
            )
            hand[k] += 1
            if w.call is None:
                continue
            if w.call == call or keeps:
                acts.append(DISCARD + k)
            if w.call != call:
                changes.append((CALL_TAN if w.call == "tan" else CALL_CEKI) + k)
        return acts + changes if changes else acts

    def _why_illegal(self, seat: int, action: int) -> Phrase:
        return faults.why_illegal(self, seat, action)

    def record_faults(self) -> list[str]:
        """Where the hands contradict the public record (:func:`faults.record_faults`)."""
        return faults.record_faults(self)

    def waiting_for(self) -> str:
        return {
            PHASE_DRAW: "refuse.doing.take_or_draw",
            PHASE_DISCARD: "refuse.doing.discard",
            PHASE_CLAIM: "refuse.doing.claim",
        }.get(self.phase, "refuse.doing.act")

    # -- applying actions ---------------------------------------------------------------
    def _apply(self, action: int) -> list[Event]:
        s = self.current
        if action >= DISCARD:  # the most common first: a discard (and call), a draw
            return self._discard(s, action)
        if action == DRAW:
            return self._draw(s)
        if action == TAKE:
            card = self.pile.pop()
            self.pile_counts[card] -= 1
            self.pile_seats.pop()
            self.top_available = False
            hand = self.hands[s]
            completes_olo = self.lays_mata and hand[card] % self.size == self.size - 1
            self._gain(s, card)
            self.exposed[s][card] += 1
            self._exposed_view = None
            self._shown |= 1 << s
            self.drawn, self.drawn_from = card, FROM_DISCARD
            self.self_win_ok = False
            self.phase = PHASE_DISCARD
            events = [event(EventKind.TAKE, s, card)]
            if completes_olo:
                # Chaqui: an olo completed from another's discard is exposed [001]
                self.melded[s][card] += self.size
                self._melds_view = None
                self._shown |= 1 << s
                self.exposed[s][card] = max(self.exposed[s][card], self.melded[s][card])
                olo = (card,) * self.size
                events.append(event(EventKind.EXPOSE, s, card, cards=olo))
            return events
        if action == SAMPEI:
            return self._sampei(s)
        return self._pass(s)  # PASS: the one action left

    def _draw(self, s: int) -> list[Event]:
        card = self.stock[self.pos]
        self.pos += 1
        revealed = self.calls.count(None) < self.n
        drawn = event(EventKind.REVEAL, s, card) if revealed else event(EventKind.DRAW, s, card, s)
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
                return [drawn]
            self.exposed[s][card] += 1
            self._exposed_view = None
            self._shown |= 1 << s
        self.self_win_ok = self._can_self_win(s, card)
        self._gain(s, card)
        self.drawn, self.drawn_from = card, FROM_STOCK
        self.phase = PHASE_DISCARD
        return [drawn]

    def _can_self_win(self, s: int, card: int) -> bool:
        """Would ``card`` (not yet in ``s``'s hand) complete a win the rules allow?"""
        if self.rules.must_call_to_win and self.calls[s] is None:
            return False
        if self.calls[s] is not None and card not in self.wait_sets[s]:
            return False  # a caller wins only on what the call waits on
        # every group a whole number of sets with the card, or no win (the cheap test first)
        size = self.size
        g = self.grouping[card]
        totals = self.totals[s]
        if (totals[g] + 1) % size:
            return False
        for i, t in enumerate(totals):
            if t % size and i != g:
                return False
        hand = self.hands[s]
        hand[card] += 1
        ok = self._wins(hand)
        hand[card] -= 1
        return ok

    def _seats_after(self, s: int) -> list[int]:
        return [(s + i) % self.n for i in range(1, self.n) if self.calls[(s + i) % self.n]]

    def _pass(self, s: int) -> list[Event]:
        events = [event(EventKind.PASS, s, self.claim_card)]
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
            self.pile_counts[card] += 1
            self.pile_seats.append(drawer)
            self.top_available = True
            events.extend(self._after_discard(drawer))
            return events
        self._gain(drawer, card)
        self.exposed[drawer][card] += 1
        self._exposed_view = None
        self._shown |= 1 << drawer
        self.drawn, self.drawn_from = card, FROM_STOCK
        self.self_win_ok = False
        self.phase = PHASE_DISCARD
        self.current = drawer
        return events

    def _discard(self, s: int, action: int) -> list[Event]:
        k = (action - DISCARD) % N_KINDS
        hand = self.hands[s]
        self._lose(s, k)
        if self.exposed[s][k] > self.melded[s][k]:
            self.exposed[s][k] -= 1
            self._exposed_view = None
            self._shown |= 1 << s
        self.pile.append(k)
        self.pile_counts[k] += 1
        self.pile_seats.append(s)
        self.top_available = True
        events = [event(EventKind.DISCARD, s, k)]
        if action >= CALL_TAN:
            call = "tan" if action < CALL_CEKI else "ceki"
            changed = self.calls[s] is not None
            if not changed:
                self.call_order[s] = sum(1 for c in self.calls if c is not None)
            else:
                self.call_changed[s] = True
            events.append(event(EventKind.CALL, s, call=call, changed=changed))
            self.calls[s] = call
        elif self.calls_put_off and self.calls[s] is None:
            # [000] "they can call on their next discard": a plain discard that leaves the
            # hand a card from winning lets the chance pass, one that leaves it further
            # away gives the next chance back
            self.lapsed[s] = self._own_wait(s).call is not None
        if self.calls[s] is not None:
            w = as_called(self.calls[s], self._own_wait(s), hand, self.size)
            if w is not self.waits[s]:  # waits are shared: the same one waits on the same
                self.waits[s] = w
                self.wait_sets[s] = frozenset(w.cards)
        self.drawn = -1
        self.drawn_from = FROM_DEAL
        self.self_win_ok = False
        if self.discard_wins:
            others = [t for t in self._seats_after(s) if k in self.wait_sets[t]]
            if others:
                if self.rules.claim_priority == "first-caller":
                    others.sort(key=lambda t: self.call_order[t])
                self.pile.pop()
                self.pile_counts[k] -= 1
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
            return [event(EventKind.END)]
        self.current = (s + 1) % self.n
        self.phase = PHASE_DRAW
        return []

    def _sampei(self, s: int) -> list[Event]:
        if self.phase == PHASE_CLAIM:
            card = self.claim_card
            self._gain(s, card)
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
        events = [event(EventKind.SAMPEI, s, card if card >= 0 else None)]
        self._finish_win(s, how, card, from_seat)
        assert self._result is not None
        events.append(event(EventKind.END))
        return events

    # -- scoring ------------------------------------------------------------------------
    def _finish_no_winner(self) -> None:
        self.phase = PHASE_OVER
        self.current = -1
        zero = (0,) * self.n
        self._close(Result(None, "stock-out", payments=zero, money=zero))

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
        self._close(self.rules.method.score(self, win))

    def _close(self, result: Result) -> None:
        """Settle the pot (pot methods) and keep the result: payments plus the pot's change
        always sum to zero."""
        if self.rules.method.pot:
            take = result.pot.taken if result.pot is not None else 0
            base = result.payments or (0,) * self.n
            payments = tuple(p - st for p, st in zip(base, self.stakes, strict=True))
            pot = PotChange(self.pot_start, sum(self.stakes), take, self.pot - take)
            money = tuple(p * self.rules.cents_per_point for p in payments)
            result = dataclasses.replace(result, payments=payments, money=money, pot=pot)
        self._result = result

    def next_context(self) -> dict[str, JSON]:
        """The match context the next hand starts from (the pot carried over)."""
        pot = self.result.pot
        return {"pot": pot.after} if pot is not None else {}

    # -- observation --------------------------------------------------------------------
    def observation(self, seat: object) -> SetsObservation:
        """What ``seat`` may know: its own hand, and its drawn card and legal actions while
        it is to act; the rest is public (:meth:`public_observation`)."""
        return self._observe(self.check_seat(seat))

    def public_observation(self) -> SetsObservation:
        """What anyone watching may see: every seat's observation less its own hand, drawn
        card (and where from) and legal actions."""
        return self._observe(NOBODY)

    def encode(self, seat: object) -> Vector:
        """``observation(seat).encode()`` (``NOBODY``: the public view's) without building
        the observation (:class:`~cherki.games.sets.observation.StateCode`)."""
        if seat != NOBODY and (type(seat) is not int or not 0 <= seat < self.n):
            self.check_seat(seat)  # raises, saying why
        code = self._code
        if code is None:
            code = self._code = StateCode(self)
        return code.encode(self, seat if type(seat) is int else NOBODY)  # NOBODY: -1.0 too

    def _observe(self, seat: int) -> SetsObservation:
        """The observation of ``seat``, or the public view for ``NOBODY``: the one place
        that decides what a viewer sees."""
        mine = seat == self.current and seat >= 0
        # the fields in the order SetsObservation declares them (a hot path: built without
        # keywords; tests/test_sets.py checks it against the keyword form)
        return SetsObservation.from_values(
            (
                seat,
                self.n,
                self.current,
                PHASE_NAMES[self.phase],
                tuple(self.hands[seat]) if seat >= 0 else NO_CARDS,
                tuple(map(sum, self.totals)),  # the hands' sizes, from 12 groups, not 30
                max(0, self.live_end - self.pos),
                tuple(self.pile),
                self.top_available,
                tuple(self.calls),
                tuple(self.call_changed),
                self._exposed_now(),
                self.claim_card if self.claim_card >= 0 else None,
                self.drawn if (self.drawn >= 0 and mine) else None,
                tuple(self._legal_now()) if mine and self._result is None else (),
                self.half_packs,
                self.rules.honours,
                self._result,
                self.rules,
                self.first,
                tuple(self.call_order),
                tuple(self.pile_seats),
                self.drawn_from if mine else FROM_DEAL,
                tuple(self.claimants[:1]),
                self.claim_drawer,
                self._melds_now(),
                self.claim_from_discard,
                self.game.call_names,
                self.game.call_words,
                self.pot,
                self.context or None,
                self.game.name,
            )
        )

    def _exposed_now(self) -> tuple[tuple[int, ...], ...]:
        view = self._exposed_view
        if view is None:
            view = self._exposed_view = tuple(map(tuple, self.exposed))
        return view

    def _melds_now(self) -> tuple[tuple[int, ...], ...]:
        view = self._melds_view
        if view is None:
            view = self._melds_view = tuple(map(tuple, self.melded))
        return view

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
