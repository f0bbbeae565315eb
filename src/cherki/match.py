"""Matches: any game played over many hands, with a running score sheet.

Our specifications
------------------
* A match ends after a fixed number of scored hands (``hands``), or as soon as a seat's
  running total of points reaches ``target``, or, with neither, after one scored hand.
* A hand the rules void and deal again (Balik Satu's yeo) is recorded but does not count
  towards ``hands``; its payments are zero.
* Who starts each next hand is the game's own rule (``state.next_first()``).
* Hand ``i`` (counting from 0, redeals included) is shuffled with seed ``seed + i``, so a
  match is reproducible from its first seed; every hand's seed is kept in the record.
* Money settles at the rate the rules give: the score sheet adds each hand's ``money``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cherki.engine import Game, Result, State
from cherki.errors import RulesError
from cherki.records import Record, hand_record


@dataclass
class Match:
    game: Game[Any]
    rules: Any
    players: list[str]
    seed: int
    hands: int | None = None
    target: int | None = None
    preset: str | None = None
    first: int = 0
    totals: list[int] = field(default_factory=list)
    money: list[int] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    record: Record = field(init=False)

    def __post_init__(self) -> None:
        n = len(self.players)
        self.game.check_players(n)
        if self.hands is not None and self.hands < 1:
            raise RulesError("a match needs at least one hand")
        if self.target is not None and self.target < 1:
            raise RulesError("a match target must be at least 1 point")
        self.totals = [0] * n
        self.money = [0] * n
        self.record = Record(self.game, self.rules, list(self.players), [], self.preset)

    @property
    def scored_hands(self) -> int:
        return sum(1 for r in self.results if not r.redeal)

    def is_over(self) -> bool:
        if self.results and self.results[-1].redeal:
            return False
        if self.target is not None:
            return max(self.totals) >= self.target
        limit = self.hands if self.hands is not None else 1
        return self.scored_hands >= limit

    def start_hand(self) -> State:
        return self.game.new_state(
            self.rules, len(self.players), seed=self.seed + len(self.results), first=self.first
        )

    def finish_hand(self, state: State) -> Result:
        """Add a finished hand to the sheet and the record; set who starts next."""
        result = state.result
        self.results.append(result)
        for s, p in enumerate(result.payments):
            self.totals[s] += p
        for s, m in enumerate(result.money):
            self.money[s] += m
        self.record.hands.append(hand_record(state))
        next_first = getattr(state, "next_first", None)
        self.first = (
            next_first() if next_first is not None else (self.first + 1) % len(self.players)
        )
        return result

    def add_unfinished(self, state: State) -> None:
        """Keep a hand left off part-way in the record (nothing is lost on quit)."""
        self.record.hands.append(hand_record(state, result=False))

    def sheet(self) -> list[list[Any]]:
        """Rows of the score sheet: hand number, each seat's points, then totals."""
        rows: list[list[Any]] = []
        for i, r in enumerate(self.results):
            rows.append([i + 1, *r.payments, r.how])
        return rows
