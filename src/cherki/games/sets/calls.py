"""A caller's wait in the games of sets: what a seat that has called tan or ceki waits on.

The rules: a call is made with a hand one card from winning: *tan* when the hand already
holds a mata, *ceki* when its last set must become the mata [000, R-CALL]; a ceki caller who
turns a mixed set into a mata *can* change to tan [000 R-CHANGE], and one who keeps the
call keeps its promise.

Our specifications
------------------
* A ceki caller who made a mata and kept the call waits only on the cards that complete a
  mata (:func:`kept_ceki_waits`): the one statement of this reading, used by the state, the
  hints and the bots.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cherki.core.sets import GROUPINGS, Wait, ceki_wait, wait_for
from cherki.games.sets.rules import SetsRules


def kept_ceki_waits(cards: Iterable[int], hand: Sequence[int], size: int) -> tuple[int, ...]:
    """Of ``cards`` (what ``hand`` waits on as a tan hand), those a ceki caller who made a
    mata and kept the call still waits on: the cards that complete a mata, its promise
    [000 R-CHANGE]. The one statement of this rule: the state, the hints and the bots call it."""
    return tuple(k for k in cards if hand[k] % size == size - 1)


def call_wait(
    call: str | None,
    hand: Sequence[int],
    rules: SetsRules,
    totals: Sequence[int] | None = None,
    mata: bool | None = None,
) -> Wait:
    """What a seat that has called ``call`` waits on with ``hand`` (its cards less any card
    drawn this turn). A ceki caller who turned a mixed set into a mata and kept the call (the
    source: they *can* change to tan [000 R-CHANGE]) still waits only on a card that
    completes a mata. A caller's hand always waits with its own call: a call is made or kept
    only then (``SetsState._call_actions``, ``_caller_discards``), which is what
    ``determinize`` keeps for the hands it samples. ``totals``: the hand's cards per group,
    when the caller keeps them; ``mata``: whether the hand holds a mata, when it knows."""
    w = wait_for(
        hand, GROUPINGS[rules.honours], rules.set_size, rules.goes_out_on_pair, totals, mata
    )
    return as_called(call, w, hand, rules.set_size)


def as_called(call: str | None, wait: Wait, hand: Sequence[int], size: int) -> Wait:
    """``wait`` (what ``hand`` waits on) as a seat that has called ``call`` waits: a ceki
    caller's tan wait is the kept ceki's (:func:`kept_ceki_waits`), any other as it is."""
    if call == "ceki" and wait.call == "tan":
        return ceki_wait(kept_ceki_waits(wait.cards, hand, size))
    return wait


def keeps_call(call: str, hand: Sequence[int], rules: SetsRules) -> bool:
    """Does ``hand`` (a caller's cards less any card drawn this turn) wait under ``call``?"""
    w = call_wait(call, hand, rules)
    return w.call == call and bool(w.cards)
