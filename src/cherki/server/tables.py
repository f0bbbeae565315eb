"""The tables a server runs: one session each, the server the only authority.

A :class:`Tables` hub creates tables in the store and keeps a live
:class:`~cherki.play.session.Session` for each table in play, loaded from the store's record
when first needed (after a restart too: the record resumes from its last action). Every
action is checked by the engine, written to the store, and only then reported; what a seat
is sent is :meth:`Tables.view`: its own observation (``observation.to_json()``) and the
events as it saw them, never the seed, the stock or another seat's hand.

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
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from cherki.bots import make_bot
from cherki.core.errors import IllegalActionError, RulesError
from cherki.games import find_game
from cherki.play.session import Seat, Session
from cherki.server import present
from cherki.server.store import BOT, FINISHED, HUMAN, PLAYING, Store

#: limits of a table a person may ask for
MAX_HANDS = 100


@dataclass(frozen=True)
class SeatPlan:
    """What the creator asks for one seat: a person, or a bot of ``level``."""

    kind: str
    level: str | None = None


class Tables:
    """Every table of one server (see the module's notes)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.live: dict[str, Session] = {}

    # -- creating and finding -----------------------------------------------------------
    def create(
        self,
        game_name: str,
        preset: str | None,
        options: dict[str, Any],
        seats: list[SeatPlan],
        hands: int = 1,
    ) -> tuple[str, dict[int, str]]:
        """A new table, its first hand dealt; its id and a token for each person's seat."""
        game = find_game(game_name)
        rules = game.rules(preset or None, **options)
        game.check_players(len(seats))
        if type(hands) is not int or not 1 <= hands <= MAX_HANDS:
            raise RulesError(f"a table plays 1 to {MAX_HANDS} hands, not {hands!r}")
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
        table_id, tokens = self.store.create_table(
            session.record(), [(p.kind, p.level) for p in seats], {"hands": hands}
        )
        session.save = self._saver(table_id)
        session.start_hand()
        self.live[table_id] = session
        self.play_bots(table_id)
        return table_id, tokens

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
        return session

    def _saver(self, table_id: str) -> Any:
        def save(record: Any) -> None:
            self.store.save(table_id, record, PLAYING)

        return save

    # -- play -----------------------------------------------------------------------------
    def act(self, table_id: str, seat: int, action: int | str, version: int) -> None:
        """A person's action: checked (turn, version, rules), recorded, then the bots'
        replies until a person is to act again."""
        session = self.session(table_id)
        now = self.version(table_id)
        if type(version) is not int or version != now:
            raise IllegalActionError(
                f"the table has moved on (version {now}, not {version!r}): look again"
            )
        if session.to_act != seat:
            raise IllegalActionError("it is not your turn")
        if session.seats[seat].bot is not None:
            raise IllegalActionError("a bot plays that seat")
        session.act(seat, action)
        self.play_bots(table_id)

    def play_bots(self, table_id: str) -> None:
        """Bots act, and hands are scored and dealt, until a person is to act or the match
        is over."""
        session = self.session(table_id)
        while True:
            seat = session.to_act
            if seat is not None and session.seats[seat].bot is not None:
                session.act(seat, session.bot_action(seat))
                continue
            if session.state is not None and session.state.is_terminal:
                session.finish_hand()
                if session.is_over():
                    self.store.save(table_id, session.record(), FINISHED)
                    return
                session.start_hand()
                continue
            return

    def version(self, table_id: str) -> int:
        record = self.session(table_id).record()
        return sum(len(h.actions) for h in record.hands)

    # -- what a seat sees -----------------------------------------------------------------
    def view(self, table_id: str, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may be sent now: its observation of the hand in
        play and the hand's events as it saw them, the names, the version and the match's
        running totals."""
        session = self.session(table_id)
        state = session.state
        names = session.names
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
        out["events"] = [e.to_json() for e in state.events_for(seat if seat is not None else -1)]
        out["ui"] = present.seat_view(session, seat)
        return out


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
