"""Ties stated beside the figures (issue 40): hands without a winner count in the payments
but not in the wins, and the report says so where there are any."""

from __future__ import annotations

from cherki.play.simulate import HandSummary, statistics
from cherki.ui.report import sections


def _hand(i: int, winner: int | None) -> HandSummary:
    how = "tie" if winner is None else "score"
    pay = (0, 0, 0) if winner is None else tuple(6 if p == winner else -3 for p in range(3))
    return HandSummary(index=i, how=how, winner=winner, score=0 if winner is None else 6,
                       items={}, actions=20, turns=7, calls={}, winner_call=None,
                       payments=pay, events={})  # fmt: skip


def test_a_tie_is_named_beside_won_and_the_payments() -> None:
    hands = [_hand(i, None if i % 4 == 0 else i % 3) for i in range(20)]  # 5 ties in 20
    [ends, *rest] = sections(["v"], [statistics(hands, 3)])
    rows = {r[0]: r[1] for r in ends.rows}
    [note] = [k for k in rows if k.startswith("no winner")]
    assert rows[note].startswith("25.0% [") and "in the payments" in note
    assert rows["won by someone"].startswith("75.0% [")
    pay = next(s for s in rest if s.title.startswith("Expected payment"))
    assert "those without a winner too" in pay.title
    every = [_hand(i, i % 3) for i in range(10)]
    [ends, *_] = sections(["v"], [statistics(every, 3)])
    assert not any(r[0].startswith("no winner") for r in ends.rows)
