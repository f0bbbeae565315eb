"""The tables a server runs: one session each, the server the only authority.

A :class:`Tables` hub creates tables in the store and keeps a live
:class:`~cherki.play.session.Session` for each table in play, loaded from the store's record
when first needed (after a restart too: the record resumes from its last action). Every
action is checked by the engine, written to the store, and only then reported; what a seat
is sent is :meth:`Tables.view`: its own observation (``observation.to_json()``) and the
events as it saw them, never the seed, the stock or another seat's hand.

This hub is synchronous and does no thinking of its own: the app asks it which bot is to
play (:meth:`Tables.to_think`), lets the bot think away from the event loop, and hands the
action back (:meth:`Tables.bot_act`).

Our specifications
------------------
* A table's hands are dealt from a seed drawn from the operating system's entropy (64
  bits); the seed stays in the store.
* The first hand is dealt when the table is created; bots play until a person is to act.
* A table's *version* is the number of actions recorded in all its hands. A client's action
  names the version it saw; a stale one is refused (it may have missed a move).
* Spectators see the table as a seat that holds no cards would: every hand hidden (their
  view is seat 0's with the hand and the legal actions removed, and events as seat -1 saw
  them, which hides every private card).
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
  (``"seen_by"``) and cannot be replayed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from cherki.bots import Bot, make_bot
from cherki.core.errors import IllegalActionError, RulesError
from cherki.core.events import JSON, Event
from cherki.games import find_game
from cherki.play.records import Record, replay_hand, replay_steps
from cherki.play.session import Seat, Session
from cherki.server import present
from cherki.server.store import BOT, FINISHED, HUMAN, PLAYING, Store
from cherki.ui.text import Voice, event_line, result_summary

#: limits of a table a person may ask for
MAX_HANDS = 100
MIN_TIMER, MAX_TIMER = 5, 3600
#: the most lines of missed events sent to a client that comes back
MAX_MISSED = 300


@dataclass(frozen=True)
class SeatPlan:
    """What the creator asks for one seat: a person, or a bot of ``level``."""

    kind: str
    level: str | None = None


class Tables:
    """Every table of one server (see the module's notes)."""

    def __init__(self, store: Store, *, stand_in: str = "heuristic") -> None:
        self.store = store
        self.live: dict[str, Session] = {}
        self.settings: dict[str, dict[str, Any]] = {}
        #: the level of the bot that plays an away person's seat
        self.stand_in = stand_in
        #: per table: the people's seats a bot is playing for (their time ran out)
        self.away: dict[str, set[int]] = {}
        #: per table: (version, seat, monotonic deadline) of the person to act, with a timer
        self.deadline: dict[str, tuple[int, int, float]] = {}
        #: per (table, viewer): the hand's log as the viewer saw it, kept up as it grows
        self._seen: dict[tuple[str, int], tuple[list[Event], list[Event], list[JSON]]] = {}

    # -- creating and finding -----------------------------------------------------------
    def create(
        self,
        game_name: str,
        preset: str | None,
        options: dict[str, Any],
        seats: list[SeatPlan],
        hands: int = 1,
        timer: int | None = None,
    ) -> tuple[str, dict[int, str], str]:
        """A new table, its first hand dealt; its id, a token for each person's seat and the
        host's token.
        Its bots have not played yet (:meth:`play_bots`, or the app's thinking loop)."""
        game = find_game(game_name)
        rules = game.rules(preset or None, **options)
        game.check_players(len(seats))
        if type(hands) is not int or not 1 <= hands <= MAX_HANDS:
            raise RulesError(f"a table plays 1 to {MAX_HANDS} hands, not {hands!r}")
        if timer is not None and (type(timer) is not int or not MIN_TIMER <= timer <= MAX_TIMER):
            raise RulesError(
                f"a turn timer is {MIN_TIMER} to {MAX_TIMER} seconds (or off), not {timer!r}"
            )
        if not any(p.kind == HUMAN for p in seats):
            raise RulesError("a table needs at least one person")
        players = []
        for i, p in enumerate(seats):
            if p.kind == BOT:
                players.append(Seat(f"Bot {i} ({p.level})", make_bot(game.name, p.level or "")))
            elif p.kind == HUMAN:
                players.append(Seat(f"Seat {i}"))
            else:
                raise RulesError(f"a seat is {HUMAN!r} or {BOT!r}, not {p.kind!r}")
        seed = random.SystemRandom().getrandbits(64)
        session = Session(game, rules, players, seed, hands=hands, preset=preset or None)
        settings = {"hands": hands, "timer": timer}
        table_id, tokens, host = self.store.create_table(
            session.record(), [(p.kind, p.level) for p in seats], settings
        )
        session.save = self._saver(table_id)
        session.start_hand()
        self.live[table_id] = session
        self.settings[table_id] = settings
        return table_id, tokens, host

    def session(self, table_id: str) -> Session:
        """The live session of a table, resumed from the store if this server has not
        loaded it yet (after a restart)."""
        live = self.live.get(table_id)
        if live is not None:
            return live
        info = self.store.table(table_id)
        record = self.store.record(table_id)
        game = record.game
        seats = [
            Seat(s.name or f"Seat {s.seat}", make_bot(game.name, s.level or ""))
            if s.kind == BOT
            else Seat(s.name or f"Seat {s.seat}")
            for s in info.seats
        ]
        session = Session.resume(record, seats, save=self._saver(table_id))
        if session.state is None and not session.is_over():
            session.start_hand()
        self.live[table_id] = session
        self.settings[table_id] = info.settings
        return session

    def _saver(self, table_id: str) -> Any:
        def save(record: Any) -> None:
            self.store.save(table_id, record, PLAYING)

        return save

    def rename(self, table_id: str, seat: int, name: str) -> None:
        """A person took ``seat`` under ``name`` (already stored): the live table says so."""
        live = self.live.get(table_id)
        if live is not None:
            clean = Voice.of([name], 1).names[0]
            seats = list(live.seats)
            seats[seat] = Seat(clean, seats[seat].bot)
            live.seats = seats
            live.match.players[seat] = clean
            live.match.record.players[seat] = clean

    # -- play -----------------------------------------------------------------------------
    def act(self, table_id: str, seat: int, action: int | str, version: int) -> None:
        """A person's action: checked (turn, version, rules) and recorded. A person who was
        away is back."""
        session = self.session(table_id)
        if session.seats[seat].bot is not None:
            raise IllegalActionError("a bot plays that seat")
        self.back(table_id, seat)
        now = self.version(table_id)
        if type(version) is not int or version != now:
            raise IllegalActionError(
                f"the table has moved on (version {now}, not {version!r}): look again"
            )
        if session.to_act != seat:
            raise IllegalActionError("it is not your turn")
        session.act(seat, action)
        self.advance(table_id)

    def advance(self, table_id: str) -> None:
        """Score a finished hand and deal the next (or close the match)."""
        session = self.session(table_id)
        while session.state is not None and session.state.is_terminal:
            session.finish_hand()
            if session.is_over():
                self.store.save(table_id, session.record(), FINISHED)
                self.deadline.pop(table_id, None)
                for key in [k for k in self._seen if k[0] == table_id]:
                    del self._seen[key]
                return
            session.start_hand()

    def to_think(self, table_id: str) -> tuple[int, Bot] | None:
        """The seat a bot is to play now (a bot's seat, or an away person's) and its bot;
        None when a person is to act or the match is over."""
        self.advance(table_id)
        session = self.session(table_id)
        seat = session.to_act
        if seat is None:
            return None
        bot = session.seats[seat].bot
        if bot is None and seat in self.away.get(table_id, ()):
            bot = make_bot(session.game.name, self.stand_in)
        return None if bot is None else (seat, bot)

    def bot_act(self, table_id: str, seat: int, action: int) -> None:
        """A bot's action for ``seat`` (checked by the rules like any other)."""
        session = self.session(table_id)
        if session.to_act != seat:
            raise IllegalActionError(f"seat {seat} is not to act")
        session.act(seat, action)
        self.advance(table_id)

    def play_bots(self, table_id: str) -> None:
        """Bots act, and hands are scored and dealt, until a person is to act or the match
        is over (all at once, in this thread)."""
        session = self.session(table_id)
        while (job := self.to_think(table_id)) is not None:
            seat, bot = job
            assert session.state is not None and session.rngs is not None
            self.bot_act(table_id, seat, bot.act(session.state.observation(seat),
                                                 session.rngs[seat]))  # fmt: skip

    def version(self, table_id: str) -> int:
        session = self.session(table_id)
        done = sum(len(h.actions) for h in session.match.record.hands)
        return done + (len(session.state.history) if session.state is not None else 0)

    # -- the turn timer -------------------------------------------------------------------
    def arm(self, table_id: str, now: float) -> None:
        """Start the clock of the person to act, if the table has a timer and it is not
        already running for this turn."""
        seconds = self.settings.get(table_id, {}).get("timer")
        session = self.session(table_id)
        seat = session.to_act
        if not seconds or seat is None or session.seats[seat].bot is not None:
            self.deadline.pop(table_id, None)
            return
        version = self.version(table_id)
        held = self.deadline.get(table_id)
        if held is None or held[:2] != (version, seat):
            self.deadline[table_id] = (version, seat, now + seconds)

    def expire(self, table_id: str, now: float) -> bool:
        """If the person to act has run out of time, their seat is away (a bot plays it)."""
        held = self.deadline.get(table_id)
        if held is None or now < held[2]:
            return False
        version, seat, _ = held
        del self.deadline[table_id]
        session = self.session(table_id)
        if self.version(table_id) != version or session.to_act != seat:
            return False
        self.away.setdefault(table_id, set()).add(seat)
        return True

    def back(self, table_id: str, seat: int) -> bool:
        """The person at ``seat`` is back: no bot plays for them any more."""
        away = self.away.get(table_id)
        if away is None or seat not in away:
            return False
        away.discard(seat)
        return True

    # -- what a seat sees -----------------------------------------------------------------
    def view(self, table_id: str, seat: int | None, now: float | None = None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may be sent now: its observation of the hand in
        play and the hand's events as it saw them, the names, the version, the match's
        running totals, the turn timer and who is away."""
        session = self.session(table_id)
        state = session.state
        names = session.names
        seconds = self.settings.get(table_id, {}).get("timer")
        held = self.deadline.get(table_id)
        timer = None
        if seconds:
            left = None
            if held is not None and now is not None:
                left = round(max(0.0, held[2] - now), 1)
            timer = {"seconds": seconds, "remaining": left, "seat": held[1] if held else None}
        out: dict[str, Any] = {
            "type": "state",
            "table": table_id,
            "game": session.game.name,
            "seat": seat,
            "names": names,
            "version": self.version(table_id),
            "hand_number": len(session.match.results),
            "match": session.match.to_json(),
            "last_result": (session.match.results[-1].to_json() if session.match.results else None),
            "over": session.is_over(),
            "timer": timer,
            "people": [s.bot is None for s in session.seats],
            "away": sorted(self.away.get(table_id, ())),
        }
        if state is None:
            out["observation"] = None
            out["events"] = []
            out["ui"] = present.seat_view(session, seat)
            return out
        viewer = seat if seat is not None else 0
        obs = state.observation(viewer).to_json()
        if seat is None:
            obs = _spectator(obs)
        out["observation"] = obs
        out["events"] = list(self.seen(table_id, seat if seat is not None else -1)[1])
        out["ui"] = present.seat_view(session, seat)
        return out

    def seen(self, table_id: str, viewer: int) -> tuple[list[Event], list[JSON]]:
        """The hand in play's events as ``viewer`` saw them (-1: a spectator), as events
        and as data; worked out once per event, since a hand's log only grows."""
        state = self.session(table_id).state
        if state is None:
            return [], []
        key = (table_id, viewer)
        held = self._seen.get(key)
        if held is None or held[0] is not state.log:
            held = (state.log, [], [])
            self._seen[key] = held
        log, events, data = held
        for e in log[len(events) :]:
            mine = e.seen_by(viewer)
            events.append(mine)
            data.append(mine.to_json())
        return events, data

    def missed(self, table_id: str, seat: int | None, since: int) -> list[str]:
        """What happened after version ``since``, in words, as ``seat`` saw it."""
        session = self.session(table_id)
        if type(since) is not int or since >= self.version(table_id):
            return []
        since = max(0, since)
        record = session.record()
        voice = Voice.of(session.names, len(session.seats), seat)
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
            lines.append(f"Hand {index + 1}:")
            first_event = _events_after(record, index, skip)
            lines += [
                event_line(e, session.game, voice) for e in state.events_for(viewer, first_event)
            ]
            if not live and index < len(session.match.results):
                lines.append(result_summary(session.match.results[index], session.game, voice))
            start = end
        return lines[-MAX_MISSED:]

    def record_for(self, table_id: str, seat: int | None) -> dict[str, Any]:
        """The table's record as ``seat`` (None: a spectator) may have it (module notes)."""
        session = self.session(table_id)
        record = session.record()
        data = record.to_json()
        if session.is_over():
            return data
        viewer = seat if seat is not None else -1
        hands = []
        for index, hand in enumerate(record.hands):
            live = index == len(record.hands) - 1 and session.state is not None
            state = session.state if live else replay_hand(record, index, check=False)
            assert state is not None
            entry: dict[str, Any] = {"first": hand.first, "actions": list(hand.actions)}
            if hand.context is not None:
                entry["context"] = dict(hand.context)
            if seat is not None:
                entry["dealt"] = record.start(index).observation(seat).to_json()["hand"]
            entry["events"] = [e.to_json() for e in state.events_for(viewer)]
            if hand.result is not None:
                entry["result"] = hand.result
            hands.append(entry)
        data["hands"] = hands
        data["seen_by"] = seat if seat is not None else "spectator"
        return data


def _events_after(record: Record, index: int, actions: int) -> int:
    """How many events hand ``index`` had after its first ``actions`` actions."""
    state = record.start(index)
    if actions:
        for n, (state, _, _) in enumerate(replay_steps(record, index), start=1):  # noqa: B007
            if n == actions:
                break
    return len(state.log)


def _spectator(obs: dict[str, Any]) -> dict[str, Any]:
    """Seat 0's observation with everything only seat 0 may know removed."""
    hidden = {**obs}
    hidden["seat"] = None
    hidden["hand"] = []
    hidden["legal"] = []
    for key in ("drawn", "hints"):
        if key in hidden:
            hidden[key] = None
    return hidden
