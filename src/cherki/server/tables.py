"""The tables a server runs: one :class:`Table` owns everything about one live table.

A :class:`Table` holds the table's :class:`~cherki.play.session.Session`, its settings, who
plays each seat, who is away and the turn timer's deadline, its connections, its bots'
task, its lock and the views it last worked out. It is the only writer of its table: the
app's routes find the table (:class:`Tables`) and hand it what a client said. Every action
— a person's, a bot's, a stand-in's — goes through the session: checked by the engine,
written to the store, and only then sent, as one message per viewer worked out once and
queued on every connection of that viewer (:mod:`cherki.server.connection`): nothing here
waits on a client.

Our specifications
------------------
* A table's hands are dealt from a seed drawn from the operating system's entropy (64
  bits); the seed stays in the store and is never sent.
* The first hand is dealt when the table is created; bots play until a person is to act.
* A table's *version* is the number of actions recorded in all its hands. A client's action
  names the version it saw; a stale one is refused (it may have missed a move).
* **Spectators see the game's public view** (``State.public_observation``: what anyone at
  the table may see) and the events as seat -1 saw them, which hides every private card.
* **Where a change is made**: with SQLite (a local file, committed without a flush to the
  disk: about 0.1 ms) on the event loop, where it costs least; with PostgreSQL (a
  round trip to another process or machine) in a worker thread, so that the event loop never
  waits on the database. Measured on 500 tables (``benchmarks/bench_server.py``): the
  server's own time from an action's arrival to its messages queued, p50 0.9 ms and p99 3 ms
  on the loop against 13.5 ms and 199 ms through threads (their turns at Python's lock).
* **Bots think off the event loop and without the table's lock**: the table works out what
  the bot sees under its lock, lets it think (a searching bot in a separate process, the
  others in a worker thread), then plays its action under the lock if the table has not
  moved meanwhile. One way for every bot: a bot's seat, or an away person's stand-in.
* **Turn timer** (off by default; 5 to 3,600 seconds): when a person's time to act runs out,
  the seat is *away*: the heuristic bot plays it, at once at each of its turns, until the
  person returns (says so, acts, or opens a connection again). Who is away and the running
  deadlines live in the server's memory: after a restart every seat is back and each
  person's time starts afresh.
* **Missed events**: a client that reconnects names the version it last saw; it is sent what
  happened since, in words, as its seat saw it: the events of the hand in play after that
  version (the hand is replayed from the record to find where that was) and the result of
  every hand that ended meanwhile, at most :data:`MAX_MISSED` lines (the latest).
* **A record for a seat**: a finished table's record is the whole record (every seed,
  every action). An unfinished table's gives only what the seat (or a spectator) may know:
  no seed or shoe of any hand (hand ``i`` is shuffled with ``seed + i``, so one hand's seed
  would give away the next), each hand's public actions, the seat's own dealt cards, the
  events as it saw them and the results of the hands that ended. It says whose view it is
  (``"seen_by"``) and cannot be replayed. It is worked out from the record alone
  (:func:`record_for`), away from the event loop.
* **Between hands** (setting ``pause``, on for new tables): a finished hand's result stays
  until every person at the table (not away) said "next hand" (:attr:`Table.waiting`); with a
  turn timer the wait lasts one turn's time (the deadline's seat is -1); the host may deal at
  once. All-bot tables (every person away) never wait. The wait lives in memory only.
* **Another match** at the same table (:meth:`Table._again`): once the match is over, when
  every person asked (or the host decides) a new session starts with the same seats, names
  and bots and a new seed; the store writes a ``matches`` row with what the earlier matches
  left each seat (:attr:`Table.carried`) before anyone is told; the version runs on.
* **The bots' pace** (setting ``bot_pace``, 0.8 s for new tables): while a person is connected
  and not away, a bot's action waits until that long after the last action told: the bots'
  task sleeps outside the lock (:meth:`Table._pace_left`), then plays as before.
* **Hints** (setting ``hints``): off by default where the rules put money on the points
  (:func:`plays_for_money`); a hint at a table whose hints are off is refused in words.
* **A stand-in's actions are its own**: saved with the stand-in's level
  (``actions.stand_in``) and worded as the bot's (:func:`stand_in_voice`), live, in what a
  returning client missed, and after a restart (:meth:`Table.load_marks`).
* **A table waits for its people** (setting ``wait``, :data:`DEFAULT_WAIT` seconds): while
  some person is at the table (a seat's page connected), bots and stand-ins play as above.
  Once none is, a hand that ends is not scored (no hand or match is settled for people who
  were all away: it waits, ended, for the first person back), and after ``wait`` seconds the
  table *pauses*: no bot or stand-in acts until a person opens their page again, which
  resumes it at once. A table with no person's seat never pauses. Who is here lives in
  memory: a table loaded after a restart counts its absence from then.
* A finished table with no connection left is let go from memory (it is in the store), and
  so is any table nobody has been connected to, and nothing has happened at, for
  :data:`IDLE_SECONDS`: it comes back from the store when someone opens its link (its turn
  timer starting afresh, as after a restart).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial

from cherki.bots import Bot, make_bot
from cherki.core.contract import Observation
from cherki.core.errors import IllegalActionError
from cherki.core.events import JSON, Event
from cherki.i18n import DEFAULT as DEFAULT_LANG
from cherki.i18n import words
from cherki.play.records import Record, events_after, events_made_by, replay_hand, replay_steps
from cherki.play.session import Seat, Session
from cherki.server import present
from cherki.server.cluster import LeaseLost
from cherki.server.connection import Connection
from cherki.server.limits import Limits, Window
from cherki.server.messages import (
    ChatLine,
    HandOut,
    HintOut,
    RunningOut,
    StateOut,
    TimerOut,
    encode,
)
from cherki.server.settings import (
    DEFAULT_WAIT,
    MAX_MISSED,
    check_setting,
)
from cherki.server.store import FINISHED, PLAYING, Carried, Store, StoreError, carried_after
from cherki.server.words import Refused
from cherki.ui.text import Voice, event_line, result_summary

#: how a bot's decision is worked out away from the event loop: (bot, observation, seed)
Thinker = Callable[[Bot, Observation, int], Awaitable[int]]


def think(bot: Bot, obs: Observation, seed: int) -> int:
    """A bot's decision (run in a worker process or thread)."""
    return bot.act(obs, random.Random(seed))


def _json(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


#: placeholders of the hand's log in a state message, filled in by :meth:`Table._text` (no
#: name or text of a message holds a NUL)
_EVENTS, _LOG = "\x00events\x00", "\x00log\x00"
_EVENTS_TEXT, _LOG_TEXT = f"[{_json(_EVENTS)}]", f"[{_json(_LOG)}]"


#: who reads a state message: a seat (None: a spectator) and a language
Reader = tuple[int | None, str]


@dataclass
class Seen:
    """A hand's log as one viewer saw it: the events' data and words, and their JSON."""

    log: list[Event]
    count: int = 0
    data: list[JSON] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    data_text: list[str] = field(default_factory=list)
    lines_text: list[str] = field(default_factory=list)


class ChatRoom:
    """A live table's chat (:mod:`cherki.server.chat` reads and writes it): how many lines
    it holds, the latest ones (sent to pages that open) and how often each seat has
    written."""

    def __init__(self, count: int, lines: list[ChatLine], limits: Limits) -> None:
        self.count = count
        self.lines: deque[ChatLine] = deque(lines, maxlen=limits.chat_history)
        self.window = Window(limits.chat_messages, limits.chat_seconds)


class Table:
    """One live table (see the module's notes). The methods whose names start with ``_``
    are synchronous and run in a worker thread under :attr:`lock`; the others are the
    table's doors, called on the event loop."""

    def __init__(
        self,
        table_id: str,
        session: Session,
        settings: dict[str, JSON],
        store: Store,
        *,
        stand_in: str = "heuristic",
    ) -> None:
        self.id = table_id
        #: whether a change is made on the event loop (below)
        self.inline = store.local
        self.session = session
        self.settings = settings
        self.store = store
        #: the level of the bot that plays an away person's seat
        self.stand_in = stand_in
        #: the people's seats a bot is playing for (their time ran out)
        self.away: set[int] = set()
        #: (version, seat, monotonic deadline) of the person to act, with a timer
        self.deadline: tuple[int, int, float] | None = None
        self.connections: set[Connection] = set()
        #: connections let in (some still being sent their first message): what the limit
        #: of connections a table counts
        self.held = 0
        #: of them, the spectators' (counted apart: they never keep a seated person out)
        self.watchers = 0
        #: let go (another process took it, or a change could not be stored): it is never
        #: joined or told again
        self.gone = False
        #: when (monotonic) something last happened at the table
        self.touched = time.monotonic()
        #: when (monotonic) the last person left the table (None: one is here)
        self.left_at: float | None = self.touched
        self.lock = asyncio.Lock()
        self.bots: asyncio.Task[None] | None = None
        #: per viewer (-1: spectators) and language: the hand's log as events, their data
        #: and words
        self._seen: dict[tuple[int, str], Seen] = {}
        #: per viewer and language: the last result and score sheet, and the hand count
        #: they are of
        self._finished: dict[tuple[int, str], tuple[int, present.Finished]] = {}
        #: per viewer and language: the hand's log and how much of it its last state
        #: message held
        self._sent: dict[tuple[int, str], tuple[list[Event], int]] = {}
        #: per seat: its hand as the page shows it, and the cards it is of
        self._hands: dict[int, tuple[str, HandOut]] = {}
        #: the match in play (0: the first), the actions of the matches before it, and what
        #: those matches left each seat (the store's ``matches.carried``)
        self.number = 0
        self.base = 0
        n = len(session.seats)
        self.carried: Carried = {"totals": [0] * n, "money_cents": [0] * n, "matches": []}
        #: the people's seats that asked for another match (once this one is over)
        self.again: set[int] = set()
        #: after a hand, the people's seats the next hand waits for ("next hand"); None:
        #: no pause
        self.waiting: set[int] | None = None
        #: the versions of the actions a stand-in bot made for an away person (this match)
        self.stand_ins: set[int] = set()
        #: the level of the stand-in making the action being saved (None: the seat's own)
        self._standing: str | None = None
        #: the hand in play's log and which of its events a stand-in's actions made
        self._marked: tuple[list[Event], set[int]] | None = None
        #: when (monotonic) the last action was told: the bots' pace counts from it
        self.moved = 0.0
        #: how the bots' task waits for their pace (tests replace it)
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        #: the status last saved, and who is told when it changes (the lobby's list)
        self.status = PLAYING
        self.on_status: Callable[[], None] | None = None
        #: the table's chat (cherki.server.chat), read from the store when first used
        self.chat: ChatRoom | None = None
        #: told when a change could not be stored (the database failed, or another process
        #: took the table): what is in memory may be ahead of the store, so the server lets
        #: this table go and loads it again from what was stored
        self.on_broken: Callable[[Table], None] | None = None
        session.save = self._save

    # -- the record -------------------------------------------------------------------------
    def _save(self, record: Record) -> None:
        status = FINISHED if self.session.is_over() else PLAYING
        self.store.save(self.id, record, status, stand_in=self._standing)
        if status != self.status:
            self.status = status
            if self.on_status is not None:
                self.on_status()

    @property
    def version(self) -> int:
        """Actions recorded at the table: every match's."""
        session = self.session
        done = sum(len(h.actions) for h in session.match.record.hands)
        return self.base + done + (len(session.state.history) if session.state else 0)

    # -- settings -------------------------------------------------------------------------
    @property
    def hints(self) -> bool:
        """Whether a person may ask for a hint (tables made before the setting: yes)."""
        return bool(self.settings.get("hints", True))

    @property
    def pace(self) -> float:
        """Seconds between the bots' actions while a person is at the table (tables made
        before the setting: none)."""
        pace = self.settings.get("bot_pace")
        return float(pace) if isinstance(pace, int | float) else 0.0

    @property
    def timer(self) -> int | None:
        """Seconds a person has for a turn (None: no timer)."""
        seconds = self.settings.get("timer")
        return seconds if type(seconds) is int and seconds > 0 else None

    @property
    def pauses(self) -> bool:
        """Whether the next hand waits for the people's "next hand"."""
        return bool(self.settings.get("pause", False))

    def _people_here(self) -> set[int]:
        """The people's seats that hold the table up: every person's not played by a
        stand-in."""
        return {i for i, s in enumerate(self.session.seats) if s.bot is None} - self.away

    @property
    def wait(self) -> float:
        """Seconds the table plays on once no person is at it, before it pauses."""
        seconds = self.settings.get("wait", DEFAULT_WAIT)
        return float(seconds) if type(seconds) is int else float(DEFAULT_WAIT)

    def _has_people(self) -> bool:
        return any(s.bot is None for s in self.session.seats)

    def nobody_here(self) -> bool:
        """Whether the table has people's seats and none of them is here: no page of theirs
        connected since the last one closed (a person who acts is here)."""
        if self.left_at is None or not self._has_people():
            return False
        people = {i for i, s in enumerate(self.session.seats) if s.bot is None}
        return not any(c.seat in people for c in self.connections)

    def paused(self, now: float | None = None) -> bool:
        """Whether the table waits for its people: none has been at it for ``wait`` s."""
        if not self.nobody_here() or self.over:
            return False
        now = time.monotonic() if now is None else now
        return self.left_at is not None and now - self.left_at >= self.wait

    def _set(self, changes: dict[str, JSON]) -> None:
        """The host changes settings (each checked first: a bad one changes nothing)."""
        fresh = dict(self.settings)
        for name, value in changes.items():
            fresh[name] = check_setting(name, value)
        self.store.set_settings(self.id, fresh)
        self.settings = fresh
        if not fresh.get("timer"):
            self.deadline = None
        if self.waiting is not None and not self.pauses:
            self._deal_next()

    @property
    def over(self) -> bool:
        return self.session.is_over()

    def rename(self, seat: int, name: str) -> None:
        """A person took ``seat`` under ``name`` (already stored): the table says so."""
        clean = Voice.of([name], 1).names[0]
        session = self.session
        seats = list(session.seats)
        seats[seat] = Seat(clean, seats[seat].bot)
        session.seats = seats
        session.match.players[seat] = clean
        session.match.record.players[seat] = clean
        self._finished.clear()
        self._seen.clear()  # the log's words name the seats
        self._sent.clear()

    # -- play (in a worker thread, under the lock) ---------------------------------------------
    def _act(self, seat: int, action: int | str, version: int) -> None:
        """A person's action: checked (turn, version, rules) and recorded. A person who was
        away is back."""
        session = self.session
        if session.seats[seat].bot is not None:
            raise IllegalActionError("a bot plays that seat")
        self.away.discard(seat)
        self.left_at = None  # a person who acts is at the table
        now = self.version
        if type(version) is not int or version != now:
            raise IllegalActionError(
                f"the table has moved on (version {now}, not {version!r}): look again"
            )
        if session.to_act != seat:
            raise IllegalActionError("it is not your turn")
        session.act(seat, action)
        self._advance()

    def _advance(self) -> None:
        """Score a finished hand and deal the next (or close the match). With the pause on
        and people at the table, the next hand waits for their "next hand"."""
        session = self.session
        if self.nobody_here():  # nothing is settled for people who are all away
            return
        while session.state is not None and session.state.is_terminal:
            session.finish_hand()
            self._marked = None
            if session.is_over():
                self.deadline = None
                self._seen.clear()
                return
            people = self._people_here()
            if self.pauses and people:
                self.waiting = people
                self.deadline = None
                return
            session.start_hand()

    def _next(self, seat: int) -> bool:
        """``seat`` pressed "next hand": the hand is dealt when nobody is left to press it
        (whether anything changed)."""
        if self.waiting is None or seat not in self.waiting:
            return False
        self.waiting.discard(seat)
        if not self.waiting - self.away:
            self._deal_next()
        return True

    def _deal_next(self) -> None:
        """The pause after a hand is over: the next hand is dealt."""
        self.waiting = None
        self.deadline = None
        if self.session.state is None and not self.session.is_over():
            self.session.start_hand()

    # -- another match ----------------------------------------------------------------------
    def _again(self, seat: int | None) -> bool:
        """``seat`` asks for another match (None: the host decides it); it starts when
        every person at the table asked. Whether anything changed."""
        if not self.session.is_over():
            raise Refused("error.not_over")
        if seat is not None:
            if seat in self.again:
                return False
            self.again.add(seat)
            if not self._people_here() <= self.again:
                return True
        self._new_match()
        return True

    def _new_match(self) -> None:
        """Another match at the table: the same seats, names, bots and links; a new seed;
        what this match left carried on to the score sheet's running totals."""
        old = self.session
        match = old.match
        n = len(old.seats)
        carried = carried_after(self.carried, list(match.totals), list(match.money))
        base = self.version
        self.number = self.store.new_match(self.id, carried)
        self.status = PLAYING
        if self.on_status is not None:
            self.on_status()
        seed = random.SystemRandom().getrandbits(64)
        session = Session(old.game, old.rules, list(old.seats), seed, hands=old.hands,
                          preset=old.preset)  # fmt: skip
        assert len(session.seats) == n
        session.save = self._save
        self.session = session
        self.base = base
        self.carried = carried
        self.again = set()
        self.waiting = None
        self.stand_ins = set()
        self._marked = None
        self._seen.clear()
        self._finished.clear()
        self._sent.clear()
        self._hands.clear()
        session.start_hand()

    def running(self) -> RunningOut:
        """The score sheet across the table's matches: which match this is, each earlier
        match's totals, and the running totals with this one's."""
        match = self.session.match
        return {
            "number": self.number,
            "earlier": self.carried["matches"],
            "totals": [a + b for a, b in zip(self.carried["totals"], match.totals, strict=True)],
            "money_cents": [
                a + b for a, b in zip(self.carried["money_cents"], match.money, strict=True)
            ],
        }

    def _bot_to_play(self) -> bool:
        """Whether a bot (or an away person's stand-in) is to act, or a finished hand is
        waiting to be scored."""
        session = self.session
        state = session.state
        if self.nobody_here() and (self.paused() or state is None or state.is_terminal):
            return False
        if state is None:
            return not session.is_over() and self.waiting is None
        if state.is_terminal:
            return True
        seat = state.current
        return session.seats[seat].bot is not None or seat in self.away

    def _bot_job(self) -> tuple[int, Bot, Observation, int, int] | None:
        """The seat a bot is to play now (a bot's seat, or an away person's stand-in): the
        seat, its bot, what it sees, a seed for its thinking and the table's version; None
        when a person is to act or the match is over."""
        self._advance()
        session = self.session
        seat = session.to_act
        if seat is None or self.paused():
            return None
        bot = session.seats[seat].bot
        if bot is None and seat in self.away:
            bot = make_bot(session.game.name, self.stand_in)
        if bot is None:
            return None
        assert session.state is not None and session.rngs is not None
        seed = session.rngs[seat].getrandbits(64)
        return seat, bot, session.state.observation(seat), seed, self.version

    def _bot_act(self, seat: int, action: int, version: int) -> bool:
        """A bot's action for ``seat``, if the table is where the bot saw it (a stand-in's
        for an away person is written down as the stand-in's)."""
        session = self.session
        if self.version != version or session.to_act != seat:
            return False
        standing = session.seats[seat].bot is None
        state = session.state
        assert state is not None
        before = len(state.log)
        self._standing = self.stand_in if standing else None
        try:
            session.act(seat, action)
        finally:
            self._standing = None
        if standing:
            self.stand_ins.add(self.version)
            self._mark(state.log, range(before, len(state.log)))
        self._advance()
        return True

    def _mark(self, log: list[Event], events: range | set[int]) -> None:
        """Events of the hand in play that a stand-in's action made."""
        if self._marked is None or self._marked[0] is not log:
            self._marked = (log, set())
        # marked as they are made, before any viewer's words for them are worked out
        self._marked[1].update(events)

    def _marks(self) -> set[int]:
        state = self.session.state
        if state is None or self._marked is None or self._marked[0] is not state.log:
            return set()
        return self._marked[1]

    def load_marks(self) -> None:
        """After a restart: which actions of this match stand-ins made (the store says), and
        the events they made in the hand in play."""
        first = self.base
        self.stand_ins = set(self.store.stand_ins(self.id, first))
        state = self.session.state
        if not self.stand_ins or state is None:
            return
        record = self.session.record()
        index = len(record.hands) - 1
        start = first + sum(len(h.actions) for h in record.hands[:index])
        marked: set[int] = set()
        count = len(record.start(index).log)
        for n, (step, _, _) in enumerate(replay_steps(record, index), start=1):
            if start + n in self.stand_ins:
                marked.update(range(count, len(step.log)))
            count = len(step.log)
        self._marked = (state.log, marked)

    # -- the turn timer -----------------------------------------------------------------------
    def arm(self, now: float) -> None:
        """Start the clock of the person to act, if the table has a timer and it is not
        already running for this turn."""
        seconds = self.timer
        session = self.session
        seat = session.to_act
        if seconds and self.waiting is not None:  # the pause after a hand lasts a turn
            if self.deadline is None or self.deadline[1] != -1:
                self.deadline = (self.version, -1, now + seconds)
            return
        if not seconds or seat is None or session.seats[seat].bot is not None:
            self.deadline = None
            return
        version = self.version
        held = self.deadline
        if held is None or held[:2] != (version, seat):
            self.deadline = (version, seat, now + seconds)

    def expire(self, now: float) -> bool:
        """If the person to act has run out of time, their seat is away (a bot plays it)."""
        held = self.deadline
        if held is None or now < held[2]:
            return False
        version, seat, _ = held
        self.deadline = None
        if seat == -1:  # the pause after a hand: the time to press "next hand" ran out
            return self.waiting is not None and self.version == version
        if self.version != version or self.session.to_act != seat:
            return False
        if self.paused(now):  # nobody is here to be made away: the clock starts again
            return False  # when a person comes back (join arms it)
        self.away.add(seat)
        return True

    def back(self, seat: int) -> bool:
        """The person at ``seat`` is back: no bot plays for them any more."""
        if seat not in self.away:
            return False
        self.away.discard(seat)
        return True

    # -- what a viewer sees ---------------------------------------------------------------------
    def view(
        self,
        seat: int | None,
        now: float | None = None,
        *,
        spliced: bool = False,
        lang: str = DEFAULT_LANG,
    ) -> StateOut:
        """What ``seat`` (None: a spectator) may be sent now: its observation of the hand in
        play (a spectator: the public view) and the hand's events as it saw them, the names,
        the version, the match's running totals, the turn timer and who is away. ``spliced``:
        the events and the log in words are placeholders that :meth:`_text` fills with
        their JSON, kept as the hand's log grows. ``lang``: the language of its words."""
        session = self.session
        state = session.state
        seconds = self.timer
        held = self.deadline
        timer: TimerOut | None = None
        if seconds:
            left = None
            if held is not None and now is not None:
                left = round(max(0.0, held[2] - now), 1)
            timer = TimerOut(
                seconds=seconds, remaining=left, seat=held[1] if held and held[1] >= 0 else None
            )
        viewer = seat if seat is not None else -1
        out = StateOut(
            type="state",
            table=self.id,
            game=session.game.name,
            seat=seat,
            # the names cherki gave ("Seat 2", "Bot 1 (heuristic)") in the viewer's language
            names=list(Voice.of(session.names, len(session.seats), None, lang).names),
            version=self.version,
            hand_number=len(session.match.results),
            match=session.match.to_json(),
            last_result=(session.match.results[-1].to_json() if session.match.results else None),
            over=session.is_over(),
            timer=timer,
            people=[s.bot is None for s in session.seats],
            away=sorted(self.away),
            matches=self.running(),
            again=sorted(self.again),
            waiting=None if self.waiting is None else sorted(self.waiting),
            settings={
                "hints": self.hints,
                "bot_pace": self.pace,
                "pause": self.pauses,
                "timer": seconds or None,
            },
        )
        finished = self._finished_views(viewer, seat, lang)
        if state is None:
            out["observation"] = None
            out["events"] = []
            out["ui"] = present.seat_view(session, seat, finished=finished, lang=lang)
            if self.waiting is not None:
                out["ui"]["status"] = words(lang).t(
                    "status.next_hand_wait", n=len(session.match.results)
                )
            return out
        obs = state.observation(seat) if seat is not None else state.public_observation()
        data = obs.to_json()
        seen = self._seen_by(viewer, lang)
        out["observation"] = data
        out["events"] = [_EVENTS] if spliced else list(seen.data)
        lines = [_LOG] if spliced else list(seen.lines)
        hand = None
        if seat is not None:
            shown = self._hands.get(seat)
            # the hand's view depends on the seat's own fields alone (its hand, cards laid)
            cards = repr([data.get(f) for f in obs.own_fields if f != "legal"])
            if shown is None or shown[0] != cards:
                shown = (cards, present.hand_view(obs, session.game))
                self._hands[seat] = shown
            hand = shown[1]
        out["ui"] = present.seat_view(
            session, seat, obs=obs, log=lines, finished=finished, hand=hand, lang=lang
        )
        return out

    def _finished_views(
        self, viewer: int, seat: int | None, lang: str = DEFAULT_LANG
    ) -> present.Finished:
        """The last result and score sheet as ``viewer`` reads them (kept until a hand
        ends or a name changes)."""
        session = self.session
        hands = len(session.match.results)
        held = self._finished.get((viewer, lang))
        if held is not None and held[0] == hands:
            return held[1]
        voice = Voice.of(session.names, len(session.seats), seat, lang)
        made = (present.last_result(session, voice), present.score_sheet(session.match, voice))
        self._finished[(viewer, lang)] = (hands, made)
        return made

    def _seen_by(self, viewer: int, lang: str = DEFAULT_LANG) -> Seen:
        """The hand in play's events as ``viewer`` saw them (-1: a spectator), as data and
        in words, each with its JSON; worked out once per event, since a hand's log only
        grows."""
        session = self.session
        state = session.state
        assert state is not None
        seen = self._seen.get((viewer, lang))
        if seen is None or seen.log is not state.log:
            seen = Seen(state.log)
            self._seen[(viewer, lang)] = seen
        if seen.count < len(state.log):
            you = None if viewer < 0 else viewer
            voice = Voice.of(session.names, len(session.seats), you, lang)
            marks = self._marks()
            for i, e in enumerate(state.log[seen.count :], start=seen.count):
                mine = e.seen_by(viewer)
                data = mine.to_json()
                said = stand_in_voice(voice, e.seat) if i in marks else voice
                line = event_line(mine, session.game, said)
                seen.data.append(data)
                seen.lines.append(line)
                seen.data_text.append(_json(data))
                seen.lines_text.append(_json(line))
            seen.count = len(state.log)
        return seen

    def _text(self, seat: int | None, now: float, start: int = 0, lang: str = DEFAULT_LANG) -> str:
        """The text of ``seat``'s state message: encoded without the hand's log, which is
        spliced in from the JSON kept of each event (the message's cost does not grow
        with the hand): the log from entry ``start`` on (``log_from``; the client keeps
        the entries before it)."""
        out = self.view(seat, now, spliced=True, lang=lang)
        if self.session.state is None:
            out["log_from"] = 0
            return encode(out)
        seen = self._seen_by(seat if seat is not None else -1, lang)
        start = min(start, seen.count)
        out["log_from"] = start
        text = encode(out)
        events = "[" + ",".join(seen.data_text[start:]) + "]"
        lines = "[" + ",".join(seen.lines_text[start:]) + "]"
        return text.replace(_EVENTS_TEXT, events, 1).replace(_LOG_TEXT, lines, 1)

    def _views(self, now: float, seats: set[Reader]) -> dict[Reader, str]:
        """The text of the state message of each reader in ``seats`` (a seat and a
        language), each worked out once,
        holding the hand's log from where the viewer's last such message left it: every
        connection of the viewer has had that message, or joined since with the whole log
        (:meth:`join`)."""
        state = self.session.state
        out: dict[Reader, str] = {}
        for seat, lang in seats:
            viewer = seat if seat is not None else -1
            held = self._sent.get((viewer, lang))
            start = (
                held[1] if state is not None and held is not None and held[0] is state.log else 0
            )
            out[(seat, lang)] = self._text(seat, now, start, lang)
            if state is not None:
                self._sent[(viewer, lang)] = (state.log, self._seen_by(viewer, lang).count)
            else:
                self._sent.pop((viewer, lang), None)
        return out

    def _missed(self, seat: int | None, since: int, lang: str = DEFAULT_LANG) -> list[str]:
        """What happened after version ``since``, in words, as ``seat`` saw it."""
        session = self.session
        if type(since) is not int or since >= self.version:
            return []
        since = max(0, since - self.base)  # from this match's first action
        record = session.record()
        voice = Voice.of(session.names, len(session.seats), seat, lang)
        viewer = seat if seat is not None else -1
        lines: list[str] = []
        start = 0
        for index, hand in enumerate(record.hands):
            end = start + len(hand.actions)
            if end <= since:  # seen to its end (a hand that ended was shown with its result)
                start = end
                continue
            skip = max(0, since - start)
            live = index == len(record.hands) - 1 and session.state is not None
            state = session.state if live else replay_hand(record, index, check=False)
            assert state is not None
            lines.append(voice.t("missed.hand", n=index + 1))
            first_event = events_after(record, index, skip)
            marks = events_made_by(record, index, start + self.base, self.stand_ins)
            for i, e in enumerate(state.events_for(viewer, first_event), start=first_event):
                said = stand_in_voice(voice, e.seat) if i in marks else voice
                lines.append(event_line(e, session.game, said))
            if not live and index < len(session.match.results):
                lines.append(result_summary(session.match.results[index], session.game, voice))
            start = end
        return lines[-MAX_MISSED:]

    def _hint(self, seat: int, lang: str = DEFAULT_LANG) -> list[str]:
        if not self.hints:
            raise Refused("error.hints_off")
        return present.hint(self.session, seat, lang)

    # -- the table's doors (on the event loop) ---------------------------------------------------
    def tell(self, now: float | None = None) -> None:
        """Send every connection the table as its viewer sees it now (never waits)."""
        now = time.monotonic() if now is None else now
        self.arm(now)
        if not self.connections or self.gone:
            return
        texts = self._views(now, {(c.seat, c.lang) for c in self.connections})
        for c in list(self.connections):
            c.send(texts[(c.seat, c.lang)])

    async def _told(self, work: Callable[[], object]) -> None:
        """Run ``work`` (a change), then work out every viewer's message on the event loop
        and queue them: the change is stored before anyone is told. The change is made on
        the loop too when the store is a local SQLite file (:attr:`inline`), else in a
        worker thread (it waits on the database)."""
        try:
            if self.inline:
                work()
            else:
                await asyncio.to_thread(work)
        except (StoreError, LeaseLost):
            # the change may be in memory and not stored: nobody is told it, and the
            # table is let go, to be loaded again from the store
            if self.on_broken is not None:
                self.on_broken(self)
            raise
        now = time.monotonic()
        self.arm(now)
        self.touched = now
        self.moved = now
        texts = self._views(now, {(c.seat, c.lang) for c in self.connections})
        for c in list(self.connections):
            c.send(texts[(c.seat, c.lang)])

    async def act(self, seat: int, action: int | str, version: int, thinker: Thinker) -> None:
        """A person's action (a CherkiError if refused: nothing changed)."""
        async with self.lock:
            await self._told(lambda: self._act(seat, action, version))
        self.wake(thinker)

    async def hint(self, seat: int, lang: str = DEFAULT_LANG) -> HintOut:
        """A hint for ``seat`` (a CherkiError at a table whose hints are off)."""
        async with self.lock:
            lines = await asyncio.to_thread(self._hint, seat, lang)
        return HintOut(type="hint", lines=lines)

    async def next_hand(self, seat: int, thinker: Thinker) -> None:
        """A person pressed "next hand" (nothing changes unless the table waits for them)."""
        async with self.lock:
            if self.waiting is not None and seat in self.waiting:
                await self._told(lambda: self._next(seat))
        self.wake(thinker)

    async def another(self, seat: int | None, thinker: Thinker) -> None:
        """A person (None: the host) asks for another match (a CherkiError while the match
        is not over)."""
        async with self.lock:
            await self._told(lambda: self._again(seat))
        self.wake(thinker)

    async def change(self, changes: dict[str, JSON], thinker: Thinker) -> None:
        """The host changes the table's settings (a CherkiError for a bad one)."""
        async with self.lock:
            await self._told(lambda: self._set(changes))
        self.wake(thinker)

    async def deal_now(self, thinker: Thinker) -> None:
        """The host deals the next hand without waiting for everyone's "next hand"."""
        async with self.lock:
            if self.waiting is not None:
                await self._told(self._deal_next)
        self.wake(thinker)

    async def come_back(self, seat: int, thinker: Thinker) -> None:
        async with self.lock:
            if self.back(seat):
                self.tell()
        self.wake(thinker)

    async def join(self, conn: Connection, since: int | None, thinker: Thinker) -> None:
        """A connection opens: a person's seat is theirs again; it is sent the table (with
        what it missed since ``since``) and then every change."""
        async with self.lock:
            if self.gone:
                raise LeaseLost(f"table {self.id} was let go")
            if conn.seat is not None and self.back(conn.seat):
                self.tell()

            def first() -> str:
                now = time.monotonic()
                self.arm(now)
                out = self.view(conn.seat, now, lang=conn.lang)
                out["log_from"] = 0  # the whole log: later messages hold what is new
                if since is not None:
                    out["missed"] = self._missed(conn.seat, since, conn.lang)
                return encode(out)

            text = await asyncio.to_thread(first)
            self.connections.add(conn)
            conn.send(text)
            people = {i for i, s in enumerate(self.session.seats) if s.bot is None}
            if self.left_at is not None and conn.seat in people:  # the table resumes
                self.left_at = None
                held = self.session.state
                if held is not None and held.is_terminal:  # a hand that ended meanwhile
                    await self._told(self._advance)
        self.wake(thinker)

    def leave(self, conn: Connection) -> None:
        self.connections.discard(conn)
        self.touched = time.monotonic()
        people = {i for i, s in enumerate(self.session.seats) if s.bot is None}
        if self.left_at is None and not any(c.seat in people for c in self.connections):
            self.left_at = self.touched

    async def expire_now(self, now: float, thinker: Thinker) -> None:
        """The turn timer's look: an away seat is told and its stand-in starts."""
        async with self.lock:
            pause = self.deadline is not None and self.deadline[1] == -1
            if self.expire(now):
                if pause:
                    await self._told(self._deal_next)
                else:
                    self.tell()
        self.wake(thinker)

    def wake(self, thinker: Thinker) -> None:
        """Start the table's bots if one is to play and they are not already playing."""
        if not self._bot_to_play():
            return
        if self.bots is None or self.bots.done():
            self.bots = asyncio.get_running_loop().create_task(self._play_bots(thinker))

    async def _play_bots(self, thinker: Thinker) -> None:
        """The table's bots (and stand-ins for away people) play until a person is to act:
        each decision away from the event loop and outside the lock, each action stored,
        then told."""
        while True:
            async with self.lock:
                job = await asyncio.to_thread(self._bot_job)
            if job is None:
                return
            seat, bot, obs, seed, version = job
            action = await thinker(bot, obs, seed)
            wait = self._pace_left(time.monotonic())
            if wait > 0:  # outside the lock: the table answers everyone meanwhile
                await self.sleep(wait)
            async with self.lock:
                try:
                    await self._told(partial(self._bot_act, seat, action, version))
                except (StoreError, LeaseLost):
                    return  # the table was let go (on_broken): its new copy plays on

    def _pace_left(self, now: float) -> float:
        """How long the next bot's action waits so that people can follow: the pace from
        the last action told, when a person is connected and not away (a table of bots,
        or one nobody watches, never waits)."""
        pace = self.pace
        if pace <= 0:
            return 0.0
        here = self._people_here()
        if not any(c.seat in here for c in self.connections):
            return 0.0
        return max(0.0, self.moved + pace - now)

    async def stop(self) -> None:
        if self.bots is not None:
            self.bots.cancel()


def stand_in_voice(voice: Voice, seat: int) -> Voice:
    """The words of an event a stand-in bot made for the person at ``seat``: the bot's,
    not the person's ("Your stand-in bot discards …", "Siti's stand-in bot discards …")."""
    if not 0 <= seat < len(voice.names):
        return voice
    names = list(voice.names)
    if voice.is_you(seat):
        names[seat] = voice.say("voice.stand_in", seat)
        return Voice(tuple(names), None if voice.you == seat else voice.you, voice.words)
    names[seat] = voice.say("voice.stand_in", seat)
    return Voice(tuple(names), voice.you, voice.words)
