"""The live tables of a server (:class:`Tables`): one :class:`~cherki.server.tables.Table`
owner per table, loaded from the store on first use, swept when idle; and what a
finished table's record says to whoever asks for it (:func:`record_for`).

With several processes on one PostgreSQL (:mod:`cherki.server.cluster`), a table is loaded
only by the process that takes its lease, after taking it (so it reads everything the last
owner committed); asked for a table another process owns, :meth:`Tables.table` raises
:class:`~cherki.server.cluster.Elsewhere` and the routes forward."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Mapping

from cherki.bots import make_bot
from cherki.core.errors import RulesError
from cherki.core.events import JSON
from cherki.games import find_game
from cherki.play.records import Record, parse_record, replay_hand
from cherki.play.session import Seat, Session
from cherki.server.cluster import Cluster
from cherki.server.settings import (
    DEFAULT_PACE,
    MAX_HANDS,
    MAX_TIMER,
    MIN_TIMER,
    SeatPlan,
    check_setting,
    plays_for_money,
    seat_name,
)
from cherki.server.store import BOT, HUMAN, Store
from cherki.server.tables import Table


class Tables:
    """Every live table of one server: created here, or loaded from the store when first
    asked for (after a restart too: the record resumes from its last action)."""

    def __init__(
        self, store: Store, *, stand_in: str = "heuristic", cluster: Cluster | None = None
    ) -> None:
        self.store = store
        #: the leases of several processes on one PostgreSQL (None: one process)
        self.cluster = cluster
        self.stand_in = stand_in
        self.live: dict[str, Table] = {}
        self._loading = threading.Lock()
        #: counts the changes of a table's status (the lobby's list is read again after one)
        self.changes = 0
        #: given to every table made or loaded (:attr:`Table.on_broken`)
        self.on_broken: Callable[[Table], None] | None = None

    def changed(self) -> None:
        self.changes += 1

    def create(
        self,
        game_name: str,
        preset: str | None,
        options: Mapping[str, JSON],
        seats: list[SeatPlan],
        hands: int = 1,
        timer: int | None = None,
        listed: bool = False,
        *,
        hints: bool | None = None,
        bot_pace: float | None = None,
        pause: bool | None = None,
    ) -> tuple[str, dict[int, str], str]:
        """A new table, its first hand dealt; its id, a token for each person's seat and the
        host's token.
        Its bots have not played yet (:meth:`Table.wake`)."""
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
                bot = make_bot(game.name, p.level or "", players=len(seats))
                players.append(Seat(seat_name(i, p.level), bot))
            elif p.kind == HUMAN:
                players.append(Seat(seat_name(i)))
            else:
                raise RulesError(f"a seat is {HUMAN!r} or {BOT!r}, not {p.kind!r}")
        seed = random.SystemRandom().getrandbits(64)
        session = Session(game, rules, players, seed, hands=hands, preset=preset or None)
        settings: dict[str, JSON] = {
            "hands": hands,
            "timer": timer,
            "listed": bool(listed),
            "hints": check_setting(
                "hints", not plays_for_money(game, rules) if hints is None else hints
            ),
            "bot_pace": check_setting("bot_pace", DEFAULT_PACE if bot_pace is None else bot_pace),
            "pause": check_setting("pause", True if pause is None else pause),
        }
        table_id, tokens, host = self.store.create_table(
            session.record(), [(p.kind, p.level) for p in seats], settings
        )
        if self.cluster is not None:
            self.cluster.claim(table_id)  # a new table: nobody else holds it
        table = Table(table_id, session, settings, self.store, stand_in=self.stand_in)
        table.on_status = self.changed
        table.on_broken = self.on_broken
        session.start_hand()
        self.live[table_id] = table
        return table_id, tokens, host

    def table(self, table_id: str) -> Table:
        """The live table, resumed from the store if this server has not loaded it yet (a
        CherkiError for no such table)."""
        live = self.live.get(table_id)
        if live is not None:
            return live
        with self._loading:  # one Table for a table, however many ask at once
            live = self.live.get(table_id)
            if live is not None:
                return live
            table = self._load(table_id, claim=True)
            self.live[table_id] = table
            return table

    def adopt(self, table_id: str) -> Table:
        """A table whose lease this process has just taken over (its owner stopped):
        loaded from the store."""
        with self._loading:
            live = self.live.get(table_id)
            if live is not None:
                return live
            table = self._load(table_id, claim=False)
            self.live[table_id] = table
            return table

    def drop(self, table_id: str) -> Table | None:
        """Let a table go at once (another process took it over): nothing more is written."""
        return self.live.pop(table_id, None)

    def _load(self, table_id: str, *, claim: bool) -> Table:
        info = self.store.table(table_id)
        if claim and self.cluster is not None:
            self.cluster.claim(table_id)  # Elsewhere: another process owns it
        record = self.store.record(table_id)
        game = record.game
        seats = [
            Seat(s.name or seat_name(s.seat, s.level), make_bot(game.name, s.level or ""))
            if s.kind == BOT
            else Seat(s.name or seat_name(s.seat))
            for s in info.seats
        ]
        session = Session.resume(record, seats)
        table = Table(table_id, session, info.settings, self.store, stand_in=self.stand_in)
        table.status = info.status
        table.on_status = self.changed
        table.on_broken = self.on_broken
        played = self.store.matches(table_id)
        if played:
            table.number, table.base, table.carried = played[-1]
        table.load_marks()
        if session.state is None and not session.is_over():
            session.start_hand()
        return table

    def session(self, table_id: str) -> Session:
        """The live session of a table (tests and tools)."""
        return self.table(table_id).session

    def forget(self, table_id: str) -> None:
        """Let a finished table with no connection go from memory (it is in the store)."""
        table = self.live.get(table_id)
        if table is not None and table.over and not table.connections:
            del self.live[table_id]
            if self.cluster is not None:
                self.cluster.release(table_id)

    def sweep(self, now: float, idle: float) -> int:
        """Let go from memory every table nobody has been connected to, and nothing has
        happened at, for ``idle`` seconds (it is in the store, and comes back when asked
        for); how many were let go."""
        gone = [
            t.id
            for t in list(self.live.values())
            if not t.connections
            and not t.held
            and (t.bots is None or t.bots.done())
            and not t.lock.locked()
            and now - t.touched > idle
        ]
        for table_id in gone:
            self.live.pop(table_id, None)
            if self.cluster is not None:
                self.cluster.release(table_id)
        return len(gone)

    @property
    def playing(self) -> int:
        """Tables in play held in memory."""
        return sum(1 for t in self.live.values() if not t.over)


# -- records for a viewer (from the record alone: runs in a worker) ------------------------------
def record_for(text: str | Record, seat: int | None, over: bool) -> dict[str, JSON]:
    """The table's record (or its JSON ``text``) as ``seat`` (None: a spectator) may have
    it (module notes); ``over``: whether the match is over."""
    record = parse_record(text) if isinstance(text, str) else text
    data = record.to_json()
    if over:
        return data
    viewer = seat if seat is not None else -1
    hands = []
    for index, hand in enumerate(record.hands):
        state = replay_hand(record, index, check=False)
        entry: dict[str, JSON] = {"first": hand.first, "actions": list(hand.actions)}
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
