"""The games of sets in words where play is refused or a record does not hold: why an action
is not legal now (``State.apply``'s refusal), and where the hands contradict the public
record (``State.record_faults``: empty for every state play reaches, and for every state
``game.determinize`` samples, as the conformance suite checks).

The rules these words explain are the state's (:mod:`cherki.games.sets.state`), with their
sources there; nothing here decides what is legal.
"""

from __future__ import annotations

from typing import Protocol

from cherki.core.cards import N_KINDS, card_name
from cherki.core.contract import Game
from cherki.core.errors import Act, Phrase
from cherki.core.events import Result
from cherki.core.sets import Wait
from cherki.games.sets.actions import (
    CALL_TAN,
    DISCARD,
    DRAW,
    FROM_DEAL,
    FROM_DISCARD,
    PASS,
    PHASE_CLAIM,
    PHASE_DISCARD,
    PHASE_DRAW,
    SAMPEI,
    TAKE,
)
from cherki.games.sets.calls import call_wait, keeps_call
from cherki.games.sets.rules import SetsRules


class SetsTable(Protocol):
    """What these words read of a game of sets' position (a
    :class:`~cherki.games.sets.state.SetsState`, named here by its fields so that the state
    may call these functions without an import loop)."""

    @property
    def game(self) -> Game: ...

    rules: SetsRules
    n: int
    size: int
    hand_size: int
    hands: list[list[int]]
    pile: list[int]
    top_available: bool
    calls: list[str | None]
    lapsed: list[bool]
    wait_sets: list[frozenset[int]]
    exposed: list[list[int]]
    melded: list[list[int]]
    current: int
    phase: int
    drawn: int
    drawn_from: int
    claimants: list[int]
    claim_card: int
    claim_drawer: int
    _result: Result | None

    def _wins(self, hand: list[int]) -> bool: ...

    def _wait(
        self, hand: list[int], totals: list[int] | None = None, mata: bool | None = None
    ) -> Wait: ...

    def _may_discard(self, s: int, k: int) -> bool: ...

    def _can_self_win(self, s: int, card: int) -> bool: ...


def _number(n: int) -> Phrase | int:
    """A small number in words ("three"), a larger one in figures."""
    return Phrase.of(f"refuse.number.{n}") if 0 <= n <= 15 else n


def describe_win(rules: SetsRules) -> Phrase:
    """What a winning hand is under ``rules``, in words (a refused sampei says it)."""
    r = rules
    return Phrase.of(
        "refuse.sets.not_win.chiqui" if r.goes_out_on_pair else "refuse.sets.not_win",
        sets=_number(r.sets),
        size=_number(r.set_size),
        need=Phrase.of("refuse.sets.need_mata" if r.set_size == 3 else "refuse.sets.need_bak"),
    )


def why_illegal(state: SetsTable, seat: int, action: int) -> Phrase:
    """Why ``action`` is not legal for ``seat`` now, in words of the catalogues
    (``State.apply`` raises them)."""
    text = state.game.action_text(action)
    hand = state.hands[seat]
    phase = state.phase
    if phase == PHASE_CLAIM:
        return Phrase.of("refuse.sets.claim", card=card_name(state.claim_card))
    if action in (TAKE, DRAW):
        if phase != PHASE_DRAW and state.drawn_from == FROM_DEAL:
            return Phrase.of("refuse.sets.first_turn", size=_number(state.hand_size))
        if phase != PHASE_DRAW:
            return Phrase.of("refuse.drawn_already", action=Act(text))
        if action == TAKE and state.top_available:
            return Phrase.of("refuse.sets.take_olo", card=card_name(state.pile[-1]))
        return Phrase.of("refuse.no_discard" if action == TAKE else "refuse.sets.stock_empty")
    if action == PASS:
        return Phrase.of("refuse.sets.nothing_to_pass")
    if phase == PHASE_DRAW:
        return Phrase.of("refuse.sets.draw_first")
    if action == SAMPEI:
        if state.drawn_from == FROM_DISCARD:
            return Phrase.of("refuse.sets.win_from_stock")
        if not state._wins(hand):
            return describe_win(state.rules)
        if state.rules.must_call_to_win and state.calls[seat] is None:
            return Phrase.of("refuse.sets.must_call")
        return Phrase.of("refuse.sets.cannot_win")
    k = (action - DISCARD) % N_KINDS
    if not hand[k]:
        return Phrase.of("refuse.no_card", card=card_name(k))
    if not state._may_discard(seat, k):
        return Phrase.of("refuse.sets.olo_stays", card=card_name(k))
    call = state.calls[seat]
    if call is not None:
        mode = state.rules.caller_changes
        if mode == "none":
            return Phrase.of("refuse.sets.called_drawn", call=call, card=card_name(state.drawn))
        return Phrase.of(
            "refuse.sets.called_free" if mode == "free" else "refuse.sets.called_mata",
            call=call,
            card=card_name(state.drawn),
        )
    if action >= CALL_TAN:
        if state.lapsed[seat]:
            return Phrase.of("refuse.sets.lapsed")
        hand[k] -= 1
        w = state._wait(hand)
        hand[k] += 1
        if w.call is None:
            return Phrase.of(
                "refuse.sets.no_call.five"
                if state.size == 3 and state.rules.sets == 5
                else "refuse.sets.no_call",
                card=card_name(k),
            )
        word = state.game.call_words[0 if w.call == "tan" else 1]
        return Phrase.of(
            "refuse.sets.wrong_call", card=card_name(k), call=word, said=text.split()[-1]
        )
    return Phrase.of("refuse.not_now", action=Act(text))


def record_faults(state: SetsTable) -> list[str]:
    """Where the hands contradict the public record: a seat without the cards it showed
    (draws revealed, discards taken, olo laid), a caller whose hand (less the card drawn
    this turn) does not wait under its call, a claimant that cannot win the card it is
    offered, a caller to act with no drawn card to throw."""
    faults: list[str] = []
    if state._result is not None:  # over: the winner holds the winning hand
        return faults
    rules = state.rules
    for t in range(state.n):
        hand = state.hands[t]
        if any(
            hand[k] < state.exposed[t][k] or hand[k] < state.melded[t][k] for k in range(N_KINDS)
        ):
            faults.append(f"seat {t} does not hold the cards it showed")
        call = state.calls[t]
        if call is None:
            continue
        core = list(hand)
        if t == state.current and state.phase == PHASE_DISCARD:
            if state.drawn < 0 or not hand[state.drawn]:
                faults.append(f"seat {t} called {call} and is to discard with no card drawn")
                continue
            core[state.drawn] -= 1
        if not keeps_call(call, core, rules):
            faults.append(f"seat {t} called {call} but its hand does not wait under it")
        elif state.wait_sets[t] != frozenset(call_wait(call, core, rules).cards):
            faults.append(f"seat {t}'s wait is not what its hand waits on")
    if state.phase == PHASE_CLAIM:
        card = state.claim_card
        for t in state.claimants:
            can = (
                state._can_self_win(t, card)
                if t == state.claim_drawer
                else card in state.wait_sets[t]
            )
            if not can:
                faults.append(f"seat {t} is offered {card_name(card)} but cannot win on it")
    return faults
