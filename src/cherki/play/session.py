"""The session: one table loop for every front end.

A :class:`Session` seats people and bots at a game, deals hand after hand of a
:class:`~cherki.play.match.Match`, asks whoever is to act, applies the action, keeps the
record as play goes, and reports what happened as typed session events. The terminal, the
arena, the tests and the browser app all drive this one loop:

* step by step — :meth:`Session.start_hand`, :attr:`Session.to_act`, :meth:`Session.bot_action`
  (pure: a bot's choice from its seat's observation, safe to compute off an event loop),
  :meth:`Session.act` and :meth:`Session.finish_hand`;
* or all at once — :meth:`Session.run`, a generator that asks a ``person`` callback for the
  seats without a bot and yields :class:`HandStarted`, :class:`Acted`, :class:`HandEnded`,
  :class:`Stopped` and :class:`MatchEnded`.

Nothing is lost: with a ``save`` callback the record (finished hands and the hand in
progress) is handed over after every action and every hand, before anything is reported.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from cherki.bots.base import Bot
from cherki.core.contract import Game, MatchNote, Rules, State
from cherki.core.errors import IllegalActionError, RecordError
from cherki.core.events import Event, Result
from cherki.play.match import Match
from cherki.play.records import Record, TableRecord, hand_record, replay_hand


@dataclass(frozen=True)
class Seat:
    """A seat at the table: a name, and a bot (None: a person plays it)."""

    name: str
    bot: Bot | None = None


@dataclass(frozen=True)
class HandStarted:
    index: int
    state: State
    #: a hand taken up again from a record, part-way through
    resumed: bool = False


@dataclass(frozen=True)
class Acted:
    """``seat`` played ``action``; ``events`` as they happened (filter with
    :meth:`Event.seen_by` for a viewer)."""

    seat: int
    action: int
    events: tuple[Event, ...]


@dataclass(frozen=True)
class HandEnded:
    index: int
    result: Result
    notes: tuple[MatchNote, ...]
    #: the hand was left unfinished (a person quit)
    unfinished: bool = False


@dataclass(frozen=True)
class Stopped:
    """A person stopped the session; the hand in progress is kept in the record."""

    index: int


@dataclass(frozen=True)
class MatchEnded:
    match: Match


SessionEvent = HandStarted | Acted | HandEnded | Stopped | MatchEnded


class StopSession(Exception):
    """Raised by a person's callback to leave the table (the record so far is kept)."""


#: Asked for a person's action: the state (read it through ``state.observation(seat)``
#: only) and the seat. Returns an action id; may raise :class:`StopSession`.
Person = Callable[[State, int], int]


@dataclass
class Session:
    """A table: a game with its rules, the seats, and the match they play."""

    game: Game
    rules: Rules
    seats: Sequence[Seat]
    seed: int
    hands: int | None = None
    target: int | None = None
    until_stopped: bool = False
    preset: str | None = None
    first: int = 0
    #: each seat's random generator for its bot (the same object may serve several seats)
    rngs: Sequence[random.Random] | None = None
    #: called with the record after every action and every hand (write it down)
    save: Callable[[Record], None] | None = None
    match: Match = field(init=False)
    state: State | None = field(init=False, default=None)
    #: the hand in play and its actions in record notation so far, kept as its history
    #: grows (:meth:`record` is asked after every action: a server saves each one)
    _notation: tuple[State | None, list[str]] = field(
        init=False, repr=False, compare=False, default_factory=lambda: (None, [])
    )

    def __post_init__(self) -> None:
        self.match = Match(
            self.game,
            self.rules,
            [s.name for s in self.seats],
            self.seed,
            hands=self.hands,
            target=self.target,
            preset=self.preset,
            first=self.first,
            until_stopped=self.until_stopped,
        )
        if self.rngs is None:
            shared = random.Random(self.seed)
            self.rngs = [shared] * len(self.seats)
        if len(self.rngs) != len(self.seats):
            raise ValueError("one generator per seat")
        self.match.record.table = TableRecord(
            tuple(s.bot.name if s.bot is not None else None for s in self.seats),
            self.hands,
            self.target,
            self.until_stopped,
        )

    @classmethod
    def resume(
        cls,
        record: Record,
        seats: Sequence[Seat],
        *,
        save: Callable[[Record], None] | None = None,
        rngs: Sequence[random.Random] | None = None,
    ) -> Session:
        """The session a record left off: its finished hands scored into the match again
        (each replayed and checked), and its unfinished last hand, if any, in progress from
        its last action. The match and who plays each seat come from ``record.table``."""
        table = record.table
        if table is None:
            raise RecordError("this record does not say who played each seat: it cannot resume")
        first_seed = record.hands[0].seed if record.hands else None
        session = cls(
            record.game,
            record.rules,
            seats,
            seed=first_seed if first_seed is not None else random.SystemRandom().getrandbits(64),
            hands=table.hands,
            target=table.target,
            until_stopped=table.until_stopped,
            preset=record.preset,
            first=record.hands[0].first if record.hands else 0,
            rngs=rngs,
            save=save,
        )
        match = session.match
        last = len(record.hands) - 1
        for i, hand in enumerate(record.hands):
            if hand.context is not None:
                match.context = dict(hand.context)
            state = replay_hand(record, i)
            if state.is_terminal:
                match.record.hands.append(hand)
                match.add_result(state)
            elif i == last:
                session.state = state
            else:
                raise RecordError(f"hand {i + 1} is unfinished, but hands follow it")
        return session

    # -- step by step ---------------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def to_act(self) -> int | None:
        """The seat to act in the hand in progress, or None."""
        if self.state is None or self.state.is_terminal:
            return None
        return self.state.current

    def is_over(self) -> bool:
        return self.match.is_over()

    def start_hand(self) -> HandStarted:
        """Deal the match's next hand."""
        self.state = self.match.start_hand()
        self._save()
        return HandStarted(len(self.match.results), self.state)

    def bot_action(self, seat: int | None = None) -> int:
        """What the bot at ``seat`` (default: the seat to act) plays now. Reads only that
        seat's observation; changes nothing but the bot's generator."""
        state = self._live()
        seat = state.current if seat is None else state.check_seat(seat)
        bot = self.seats[seat].bot
        if bot is None:
            raise IllegalActionError(f"seat {seat} is a person, not a bot")
        if seat != state.current:
            raise IllegalActionError(
                f"it is not seat {seat}'s turn: seat {state.current} is to act"
            )
        assert self.rngs is not None
        return bot.act(state.observation(seat), self.rngs[seat])

    def act(self, seat: int, action: int | str) -> Acted:
        """Play ``action`` for ``seat`` (checked by the rules; the state is untouched if it is
        refused), write the record, and report it."""
        state = self._live()
        events = state.apply(action, seat)
        self._save()
        return Acted(seat, state.history[-1][1], tuple(events))

    def finish_hand(self) -> HandEnded:
        """Score the finished hand into the match and the record."""
        state = self._live()
        index = len(self.match.results)
        result = self.match.finish_hand(state)
        self.state = None
        self._save()
        return HandEnded(index, result, tuple(self.match.notes.get(index, [])))

    def stop(self) -> Stopped:
        """Leave the table: the hand in progress is kept, unfinished, in the record."""
        index = len(self.match.results)
        if self.state is not None and not self.state.is_terminal:
            self.match.add_unfinished(self.state)
            self.state = None
        self._save()
        return Stopped(index)

    def record(self) -> Record:
        """The record so far: every finished hand, and the hand in progress if any."""
        rec = self.match.record
        if self.state is None:
            return rec
        hands = [*rec.hands, hand_record(self.state, actions=self._actions(self.state))]
        return Record(rec.game, rec.rules, rec.players, hands, rec.preset, rec.table)

    def _actions(self, state: State) -> list[str]:
        """``state``'s history in record notation (a copy), only its new actions worded."""
        kept, texts = self._notation
        if kept is not state or len(texts) > len(state.history):
            texts = []
            self._notation = (state, texts)
        if len(texts) < len(state.history):
            texts += state.action_texts(len(texts))
        return list(texts)

    # -- all at once ------------------------------------------------------------------------
    def run(
        self,
        person: Person | None = None,
        *,
        another_hand: Callable[[], bool] | None = None,
    ) -> Iterator[SessionEvent]:
        """Play the match through: bots act by themselves, ``person`` is asked for the seats
        without a bot. ``another_hand`` is asked after each hand of a match played hand by
        hand (None: stop after one)."""
        while self.state is not None or not self.match.is_over():
            if self.state is None:
                yield self.start_hand()
            else:  # a hand resumed part-way
                yield HandStarted(len(self.match.results), self.state, resumed=True)
            state = self._live()
            try:
                while not state.is_terminal:
                    seat = state.current
                    if self.seats[seat].bot is not None:
                        action = self.bot_action(seat)
                    elif person is None:
                        raise IllegalActionError(f"seat {seat} needs a person to play it")
                    else:
                        action = person(state, seat)
                    yield self.act(seat, action)
            except StopSession:
                yield self.stop()
                return
            ended = self.finish_hand()
            yield ended
            if (
                self.match.until_stopped
                and not ended.result.redeal
                and (another_hand is None or not another_hand())
            ):
                break
        yield MatchEnded(self.match)

    # -- inside -----------------------------------------------------------------------------
    def _live(self) -> State:
        if self.state is None:
            raise IllegalActionError("no hand is in progress: start one first")
        return self.state

    def _save(self) -> None:
        if self.save is not None:
            self.save(self.record())
