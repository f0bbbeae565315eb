"""Matches: any game played over many hands, with a running score sheet.

Our specifications (see ``docs/matches.md``)
--------------------------------------------
* A match ends after a fixed number of scored hands (``hands``), or as soon as a seat's
  running total of points reaches ``target`` (points *scored* where the game reports them
  apart from payments, as Ceki does: "the winner will be the player who reaches this
  total" [003]; otherwise the running payments), or never by itself (``until_stopped``: hand by
  hand, until the players stop). With none of these it ends when the game's own match rule
  says so (Chot: a fixed number of bangkong), or else after one scored hand.
* A hand the rules void and deal again (Balik Satu's yeo) is recorded but does not count
  towards ``hands``; its payments are zero.
* Who starts each next hand is the game's own rule (``state.next_first()``).
* Hand ``i`` (counting from 0, redeals included) is shuffled with seed ``seed + i``, so a
  match is reproducible from its first seed; every hand's seed is kept in the record.
* What a hand carries to the next (a pot: Gonggong's undhuh-undhuhan and umbuk) is the
  match *context*: the next hand starts from ``state.next_context()`` (plus the game's ledger
  context), and the record keeps each hand's context so that it replays exactly. The pot is
  part of the sheet: ``sum(totals) + pot == 0`` at every point of a match.
* Money settles at the rate the rules give: the score sheet adds each hand's ``money``.
  A game with a match *ledger* (Chot: tokens pooled into bangkong, settled at the end in
  dollars a bangkong and cents an excess point) settles money through it instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypedDict

from cherki.core.contract import Game, Ledger, MatchNote, Rules, State
from cherki.core.deal import DealRequest
from cherki.core.errors import RecordError, RulesError
from cherki.core.events import JSON, Result
from cherki.play.records import Record, hand_record, replay_hand

#: how a match ends (:meth:`Match.outcome`)
MatchRule = Literal["hands", "target", "stopped", "ledger", "one-hand"]


class MatchOutcome(TypedDict):
    """A match's result as JSON (:meth:`Match.outcome`)."""

    rule: MatchRule
    hands: int | None
    target: int | None
    tie: str
    scored_hands: int
    over: bool
    winners: list[int]
    leaders: list[int]
    scores: list[int]
    totals: list[int]
    money_cents: list[int]


#: what a lead tied after the agreed hands does (:attr:`Match.tie`)
TIE_RULES = ("share", "play-on")


@dataclass
class Match:
    game: Game
    rules: Rules
    players: list[str]
    seed: int
    hands: int | None = None
    target: int | None = None
    preset: str | None = None
    first: int = 0
    until_stopped: bool = False
    #: a lead tied when the agreed hands are played (``hands=``): ``share`` the win (the
    #: default) or ``play-on``, one more hand at a time until one seat leads. Our
    #: specification: the sources are silent on ties ([003] gives only "the winner is he who
    #: in the end has totalized the highest score"); see docs/matches.md
    tie: str = "share"
    totals: list[int] = field(default_factory=list)
    #: points scored (not paid): a game that reports ``Result.scores`` (Ceki: only the
    #: winner scores) is played to a target on these; otherwise they are the payments
    scores: list[int] = field(default_factory=list)
    money: list[int] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    record: Record = field(init=False)
    #: the context the next hand starts from (the pot...)
    context: dict[str, JSON] = field(default_factory=dict)
    #: the game's ledger (Chot's bangkong), or None
    ledger: Ledger | None = field(init=False, default=None)
    #: what the ledger announced after each hand (a bangkong completed), by hand index
    notes: dict[int, list[MatchNote]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.players)
        self.game.check_players(n)
        if self.hands is not None and self.hands < 1:
            raise RulesError("a match needs at least one hand")
        if self.target is not None and self.target < 1:
            raise RulesError("a match target must be at least 1 point")
        if self.tie not in TIE_RULES:
            raise RulesError(f"a tie is {' or '.join(TIE_RULES)}, not {self.tie!r}")
        self.totals = [0] * n
        self.scores = [0] * n
        self.money = [0] * n
        self.record = Record(self.game, self.rules, list(self.players), [], self.preset)
        self.ledger = self.game.match_ledger(self.rules, n)
        if self.ledger is not None:
            self.context = {**self.ledger.context(), **self.context}

    # -- progress -----------------------------------------------------------------------
    @property
    def scored_hands(self) -> int:
        return sum(1 for r in self.results if not r.redeal)

    @property
    def pot(self) -> int:
        """What lies in the pot now (pot methods; 0 otherwise)."""
        pot = self.context.get("pot", 0)
        return pot if isinstance(pot, int) else 0

    def is_over(self) -> bool:
        if self.results and self.results[-1].redeal:
            return False
        if self.until_stopped:
            return False
        if self.hands is not None:
            if self.scored_hands < self.hands:
                return False
            top = max(self.scores)
            return self.tie == "share" or self.scores.count(top) == 1
        if self.target is not None:
            return max(self.scores) >= self.target
        if self.ledger is not None:
            return bool(self.ledger.is_over())
        return self.scored_hands >= 1

    def start_hand(self) -> State:
        context = dict(self.context) if self.context and self.game.accepts_context else None
        request = DealRequest(seed=self.seed + len(self.results), first=self.first, context=context)
        return self.game.start(self.rules, len(self.players), request)

    def finish_hand(self, state: State) -> Result:
        """Add a finished hand to the sheet and the record; set who starts next."""
        result = state.result
        self._add(result, state)
        self.record.hands.append(hand_record(state))
        return result

    def add_result(self, state: State) -> None:
        """Score a finished hand into the sheet (its record kept elsewhere: resuming)."""
        self._add(state.result, state)

    def _add(self, result: Result, state: State) -> None:
        index = len(self.results)
        self.results.append(result)
        for s, p in enumerate(result.payments):
            self.totals[s] += p
        scores = result.scores if result.scores is not None else result.payments
        for s, p in enumerate(scores):
            self.scores[s] += p
        for s, m in enumerate(result.money):
            self.money[s] += m
        context = state.next_context()
        if self.ledger is not None:
            notes = self.ledger.add(result)
            if notes:
                self.notes[index] = notes
            self.money = list(self.ledger.money())
            context = {**self.ledger.context(), **context}
        self.context = context
        self.first = state.next_first()

    def add_unfinished(self, state: State) -> None:
        """Keep a hand left off part-way in the record (nothing is lost on quit)."""
        self.record.hands.append(hand_record(state, result=False))

    # -- the score sheet ----------------------------------------------------------------
    def sheet(self) -> list[list[JSON]]:
        """Rows of the score sheet: hand number, each seat's points, then how it ended."""
        rows: list[list[JSON]] = []
        for i, r in enumerate(self.results):
            rows.append([i + 1, *r.payments, r.how])
        return rows

    def sheet_rows(self) -> list[dict[str, JSON]]:
        """The score sheet with everything a display may show: per hand the points, money,
        running totals, the pot after it, and any notes (a bangkong completed)."""
        running = [0] * len(self.players)
        rows: list[dict[str, JSON]] = []
        for i, r in enumerate(self.results):
            running = [a + b for a, b in zip(running, r.payments, strict=True)]
            rows.append(
                {
                    "hand": i + 1,
                    "winner": r.winner,
                    "how": r.how,
                    "redeal": r.redeal,
                    "points": list(r.payments),
                    "money_cents": list(r.money),
                    "totals": running,
                    "pot": r.pot.after if r.pot is not None else None,
                    "notes": [n.to_json() for n in self.notes.get(i, [])],
                }
            )
        return rows

    def team_totals(self) -> list[int] | None:
        """Partnership totals, one per side (seats ``i`` and ``i + n/2`` together), or None
        without partnerships. Partners score alike hand by hand (Chot: each member of a side
        gets the side's gain), so a side's total is its first member's."""
        sides = self.game.sides(self.rules, len(self.players))
        if sides is None:
            return None
        return [self.totals[side[0]] for side in sides]

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "game": self.game.name,
            "players": list(self.players),
            "hands_played": len(self.results),
            "scored_hands": self.scored_hands,
            "sheet": self.sheet_rows(),
            "totals": list(self.totals),
            "scores": list(self.scores),
            "money_cents": list(self.money),
            "pot": self.pot,
            "over": self.is_over(),
        }
        teams = self.team_totals()
        if teams is not None:
            out["team_totals"] = teams
        if self.ledger is not None:
            out["ledger"] = self.ledger.to_json()
        return out

    def outcome(self) -> MatchOutcome:
        """The match's result: who leads on points scored (``scores``), and, once the match
        is over, who won. [003] Ceki "can also be played by agreeing a total number of
        points: the winner will be the player who reaches this total", or over "a given
        number of hands, and the winner is he who in the end has totalized the highest
        score". Both rules make the winner the highest total (a target is reached by the
        hand's winner, the only seat that scores in it); a lead tied after the agreed hands
        shares the win, or with ``tie="play-on"`` plays on (:attr:`tie`). A match played
        hand by hand ends when the players stop: the leaders at that point win."""
        rule: MatchRule
        if self.hands is not None:
            rule = "hands"
        elif self.target is not None:
            rule = "target"
        elif self.until_stopped:
            rule = "stopped"
        elif self.ledger is not None:
            rule = "ledger"
        else:
            rule = "one-hand"
        best = max(self.scores) if self.results else None
        leaders = [s for s, v in enumerate(self.scores) if v == best] if self.results else []
        over = bool(self.results) and self.is_over()
        return {
            "rule": rule,
            "hands": self.hands,
            "target": self.target,
            "tie": self.tie,
            "scored_hands": self.scored_hands,
            "over": over,
            "winners": leaders if over else [],
            "leaders": leaders,
            "scores": list(self.scores),
            "totals": list(self.totals),
            "money_cents": list(self.money),
        }

    # -- replaying ----------------------------------------------------------------------
    @classmethod
    def from_record(cls, record: Record, seed: int = 0, check: bool = True) -> Match:
        """The match a record holds, replayed hand by hand (results checked).

        With ``check`` each hand's recorded context must be the one the hands before it
        leave (a pot carried over), so a match record cannot be edited piecemeal.
        """
        match = cls(record.game, record.rules, list(record.players), seed, preset=record.preset)
        match.until_stopped = True
        for i, hand in enumerate(record.hands):
            if check and record.game.accepts_context:
                want = match.context or None
                got = hand.context or None
                if i > 0 and want != got:
                    raise RecordError(
                        f"hand {i + 1}: the record's context {got!r} is not what the hands "
                        f"before leave ({want!r})"
                    )
                if i == 0 and got is not None:
                    match.context = dict(got)
            state = replay_hand(record, i, check=check)
            match.record.hands.append(hand)
            if state.is_terminal:
                match._add(state.result, state)
        match.until_stopped = False
        planned = record.game.match_plan(record.rules)
        if record.table is not None:  # the match the players agreed (hands, target)
            match.hands = record.table.hands
            match.target = record.table.target
            match.until_stopped = record.table.until_stopped
            match.tie = record.table.tie
        elif planned != (None, None):
            # no table: the match the rules fix (Ceki's settlement: a target or a number of
            # hands), not the hands the record happens to hold
            match.hands, match.target = planned
        elif match.ledger is None and len(record.hands) > 1:
            # a record that does not say: the match is the hands it holds
            unfinished = len(match.results) < len(record.hands)
            match.hands = match.scored_hands + (1 if unfinished else 0)
        return match


def replay_match(record: Record, check: bool = True) -> Match:
    """Replay every hand of a record as one match (pots carried, ledger rebuilt)."""
    return Match.from_record(record, check=check)
