"""Finished batched hands as the simulation's :class:`~cherki.play.simulate.HandSummary`."""

from __future__ import annotations

from cherki.play.simulate import HandSummary
from cherki.vector.finished import CALLS, DETAIL, EVENTS, HOWS, ITEMS, Finished

_CALL_NAMES = (None, "tan", "ceki")


def summaries(done: Finished, players: int) -> list[HandSummary]:
    """One summary per finished hand, exactly as ``summarise`` makes it from the reference
    engine's state (positions counted from the starter)."""
    n = players
    out: list[HandSummary] = []
    for i in range(len(done)):
        first = int(done.first[i])
        w = int(done.winner[i])
        items = {ITEMS[j]: int(done.items[i, j]) for j in done.items_on[i].nonzero()[0]}
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
            )
        )
    return out
