"""The batched simulator's hands as a simulation's: a block of hands played by
:mod:`cherki.vector` (``cherki simulate --engine vector``), each finished hand as the
:class:`~cherki.play.summary.HandSummary` the reference engine's ``summarise`` makes.

The batched simulator knows nothing of the simulation: it plays and leaves arrays
(:class:`~cherki.vector.finished.Finished`); this module, on the play side, reads them."""

from __future__ import annotations

from collections.abc import Sequence

from cherki.core.contract import Game
from cherki.core.options import Rules
from cherki.play.summary import HandSummary
from cherki.vector.finished import CALLS, DETAIL, EVENTS, HOWS, ITEMS, Finished
from cherki.vector.run import money_rate, run_block, vector_rules


def play_block(
    game: Game,
    rules: Rules,
    players: int,
    seed: int,
    levels: Sequence[str],
    indices: Sequence[int],
) -> list[HandSummary]:
    """The hands of one block (``indices``: the block's range, as
    :func:`cherki.vector.run.blocks` gives)."""
    own = vector_rules(game, rules)
    block = range(indices[0], indices[-1] + 1) if not isinstance(indices, range) else indices
    done = run_block(game, own, players, seed, levels, block)
    return summaries(done, players, rules)


_CALL_NAMES = (None, "tan", "ceki")
#: items that multiply the score: each is given what it adds (``win_items``)
_FACTORS = frozenset({"kandang-tangan", "ayam-tokens", "kandang-tokens"})


def summaries(done: Finished, players: int, rules: Rules) -> list[HandSummary]:
    """One summary per finished hand, exactly as ``summarise`` makes it from the reference
    engine's state (positions counted from the starter; money at the rules' rate, none
    where the scoring settles at match level only)."""
    n = players
    rate = money_rate(rules)
    out: list[HandSummary] = []
    for i in range(len(done)):
        first = int(done.first[i])
        w = int(done.winner[i])
        items = {ITEMS[j]: int(done.items[i, j]) for j in done.items_on[i].nonzero()[0]}
        factors = [k for k in items if k in _FACTORS]
        if factors and w >= 0:
            (factor,) = factors  # one factor at most in the games of sets
            items[factor] = int(done.total[i]) - sum(v for k, v in items.items() if k != factor)
        detail = {DETAIL[j]: float(done.detail[i, j]) for j in done.detail_on[i].nonzero()[0]}
        events = {EVENTS[j]: int(c) for j, c in enumerate(done.events[i]) if c}
        calls = {CALLS[j]: int(c) for j, c in enumerate(done.calls[i]) if c}
        pay = done.payments[i]
        tokens = int(done.tokens[i])
        out.append(
            HandSummary(
                index=int(done.index[i]),
                how=HOWS[int(done.how[i])],
                winner=None if w < 0 else (w - first) % n,
                score=int(done.total[i]) if w >= 0 else 0,
                items=items,
                actions=int(done.actions[i]),
                turns=int(done.turns[i]),
                calls=calls,
                winner_call=_CALL_NAMES[int(done.winner_call[i])] if w >= 0 else None,
                payments=tuple(int(pay[(first + p) % n]) for p in range(n)),
                events=events,
                detail=detail,
                winner_seat=None if w < 0 else w,
                tokens=None if tokens < 0 else tokens,
                redeal=bool(done.redeal[i]),
                money=tuple(int(pay[(first + p) % n]) * rate for p in range(n)),
            )
        )
    return out
