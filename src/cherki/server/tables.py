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
* **What each viewer sees**, and what a returning client missed: :mod:`cherki.server.views`.
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
  (``actions.stand_in``) and worded as the bot's (:func:`~cherki.server.views.stand_in_voice`),
  live, in what a returning client missed, and after a restart (:meth:`Table.load_marks`).
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
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable
from functools import partial

from cherki.bots import Bot, make_bot
from cherki.core.contract import Observation
from cherki.core.errors import IllegalActionError
from cherki.core.events import JSON, Event
from cherki.i18n import DEFAULT as DEFAULT_LANG
from cherki.play.records import Record, replay_steps
from cherki.play.session import Seat, Session
from cherki.server import present
from cherki.server.cluster import LeaseLost
from cherki.server.connection import Connection
from cherki.server.limits import Limits, Window
from cherki.server.messages import (
    ChatLine,
    HintOut,
    RunningOut,
    StateOut,
    encode,
)
from cherki.server.settings import (
    DEFAULT_WAIT,
    check_setting,
)
from cherki.server.store import FINISHED, PLAYING, Carried, Store, StoreError, carried_after
from cherki.server.views import Views
from cherki.server.words import Refused
from cherki.ui.text import Voice

#: how a bot's decision is worked out away from the event loop: (bot, observation, seed)
Thinker = Callable[[Bot, Observation, int], Awaitable[int]]


def think(bot: Bot, obs: Observation, seed: int) -> int:
    """A bot's decision (run in a worker process or thread)."""
    return bot.act(obs, random.Random(seed))


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
        #: what each viewer sees, and what was worked out of it
        self.views = Views(self)
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
        self.views.forget()  # the log's words name the seats

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
                self.views.seen.clear()
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
        self.views.forget(hands=True)
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

    def marks(self) -> set[int]:
        """The events of the hand in play that a stand-in's action made."""
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

    # -- what a viewer sees (cherki.server.views) ------------------------------------------------
    def view(
        self,
        seat: int | None,
        now: float | None = None,
        *,
        spliced: bool = False,
        lang: str = DEFAULT_LANG,
    ) -> StateOut:
        """What ``seat`` (None: a spectator) may be sent now (:meth:`Views.view`)."""
        return self.views.view(seat, now, spliced=spliced, lang=lang)

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
        texts = self.views.texts(now, {(c.seat, c.lang) for c in self.connections})
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
        texts = self.views.texts(now, {(c.seat, c.lang) for c in self.connections})
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
                    out["missed"] = self.views.missed(conn.seat, since, conn.lang)
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
