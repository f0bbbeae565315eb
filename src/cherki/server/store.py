"""Tables, seats and records in a database: SQLite by default, PostgreSQL by URL.

Nothing is lost: a table's record (cherki's own record format, ``docs/records.md``: the
rules, the players, every hand's seed and every action, the results) is written in the
same transaction as anything else about the table, after every action, before any player
is told of it. A table survives the server's death: its record resumes with
:meth:`cherki.play.session.Session.resume`.

Our specifications
------------------
* **Seats are bound to tokens**: 128 bits from the operating system's entropy, given to the
  one who takes the seat and never stored: the database keeps only each token's SHA-256,
  so a copy of the database does not let anyone take a seat.
* **The schema is Alembic's** (``cherki/server/migrations``): :class:`Store` brings a
  database to the newest schema when it opens it, so an older database is upgraded in
  place and a new one is created.
* **URLs**: ``sqlite:///PATH`` (the default: ``$XDG_DATA_HOME/cherki/cherki.db``) or
  ``postgresql+psycopg://USER@HOST:PORT/DB``. SQLite runs with foreign keys on and a
  write-ahead log, synchronised at checkpoints (``synchronous=NORMAL``): a committed
  action survives the server's death (kill -9) and costs no flush to the disk; a power
  cut may lose the last actions (PostgreSQL by URL where that matters).
* **The record is an append-only log** that grows with the action, not the match: the
  record's header (game, preset, rules, players, table) is one JSON text on the table's
  row; each hand is a row of ``hands`` (its first seat, seed, shoe or stack, context, and
  its result, set once when the hand ends); each action is a row of ``actions``, keyed by
  the table and its *version*, the running number of the action across all the table's
  hands (1 for the first). :meth:`Store.save` takes the whole record as before but writes
  only what is new since the last save: one INSERT an action, in the same transaction as
  the table's version, time and status. It refuses a record that contradicts the log
  (fewer hands or actions, a different action, deal or result, an action added to a hand
  that is over or that later hands follow). :meth:`Store.record` assembles the record.
* **Fenced writes** (several processes on one PostgreSQL, :mod:`cherki.server.cluster`):
  :attr:`Store.fence`, when set, is called inside each write of a table's log, new match
  and settings, in the same transaction, and refuses the write (nothing committed) when
  this process no longer owns the table's lease at the epoch it took it at.
* **What was written is remembered** per table in the process (the header, each hand's
  deal, actions and result): a save compares the record with it, in memory. A table not
  remembered (a restart) is read back whole once. The table's version is bumped only from
  the version remembered (``WHERE version = …``), so a second writer is noticed: the store
  then reads the table again and works out the change afresh.
* **Host links**: each table has a host token like the seats' (128 bits, only its SHA-256
  stored), returned once by :meth:`Store.create_table`; :meth:`Store.host_of` finds its
  table. Each seat's token is worked out from the host's (HMAC-SHA256 of the table, the
  seat and how many times the seat's link was replaced), so the host's link shows every
  seat's link again (:meth:`Store.seat_links`) while the database still holds only
  hashes. The host may give a person's seat a new link (:meth:`Store.reissue`, the old one
  stops working) and rename it (:meth:`Store.rename_seat`). Tables made before the
  schema's revision 0002 have no host link.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from typing import NamedTuple, TypedDict

from sqlalchemy import (
    Connection,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import InterfaceError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry

from cherki.core.events import JSON
from cherki.play.records import FORMAT, VERSION, Record, parse_record
from cherki.server.driver import for_connection
from cherki.server.messages import MatchTotals
from cherki.server.schema import ActionRow, HandRow, MatchRow, SeatRow, TableRow
from cherki.server.storelog import (
    BUMP,
    Written,
    WrittenHand,
    change_of,
    deal_of,
    hand_json,
    header_text,
    write_log,
)
from cherki.server.storelog import (
    StoreError as StoreError,
)
from cherki.server.storelog import (
    StoreUnavailable as StoreUnavailable,
)

#: seconds between SQLite's checkpoints, done by the store's own thread
CHECKPOINT_SECONDS = 2.0
#: pages of SQLite's write-ahead log past which a writer checkpoints after all (the store's
#: thread keeps the log far shorter; this bounds it should that thread fall behind)
AUTOCHECKPOINT_PAGES = 100_000

#: table states
OPEN, PLAYING, FINISHED = "open", "playing", "finished"
#: what a seat is
HUMAN, BOT = "human", "bot"
#: the most tables whose written log a store remembers (the least recently saved forgotten)
REMEMBERED = 4096


class Carried(TypedDict):
    """What the matches before a table's match left each seat (``matches.carried``): the
    running totals of points and money (cents), and each match's own."""

    totals: list[int]
    money_cents: list[int]
    matches: list[MatchTotals]


def carried_after(carried: Carried, totals: list[int], money_cents: list[int]) -> Carried:
    """The score sheet carried on once a match with these ``totals`` and ``money_cents``
    (each seat's) has ended: the running totals with its own added, and it kept as a match."""
    return {
        "totals": [a + b for a, b in zip(carried["totals"], totals, strict=True)],
        "money_cents": [a + b for a, b in zip(carried["money_cents"], money_cents, strict=True)],
        "matches": [*carried["matches"], {"totals": totals, "money_cents": money_cents}],
    }


def carried_from_json(data: object) -> Carried:
    """A stored ``matches.carried``, checked (a :class:`StoreError` where it is damaged)."""

    def numbers(value: object) -> list[int]:
        if not isinstance(value, list) or not all(type(x) is int for x in value):
            raise StoreError("a table's carried score sheet is damaged: refused")
        return list(value)

    def totals(value: object) -> MatchTotals:
        if not isinstance(value, dict):
            raise StoreError("a table's carried score sheet is damaged: refused")
        return {
            "totals": numbers(value.get("totals")),
            "money_cents": numbers(value.get("money_cents")),
        }

    if not isinstance(data, dict) or not isinstance(data.get("matches"), list):
        raise StoreError("a table's carried score sheet is damaged: refused")
    mine = totals(data)
    earlier = [totals(m) for m in data["matches"]]
    return {"totals": mine["totals"], "money_cents": mine["money_cents"], "matches": earlier}


def _refused(err: SQLAlchemyError) -> StoreError:
    """A database error in one line: unreachable (try again), or a refused change."""
    if isinstance(err, OperationalError | InterfaceError):
        return StoreUnavailable(f"the database cannot be reached just now: {_short(err)}")
    return StoreError(f"the database refused a change: {_short(err)}")


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    kind: str
    level: str | None
    name: str | None


@dataclass(frozen=True)
class TableInfo:
    id: str
    game: str
    status: str
    settings: dict[str, JSON]
    version: int
    seats: tuple[SeatInfo, ...]


class Created(NamedTuple):
    """A new table: its id, a token for each person's seat and the host's token (each
    shown once, never stored). Unpacks as ``table_id, tokens, host``."""

    table_id: str
    tokens: dict[int, str]
    host: str


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def seat_token(host: str, table_id: str, seat: int, generation: int) -> str:
    """A seat's token worked out from its table's host token (HMAC-SHA256, 128 bits): only
    the host's link can give it again, and the database holds neither."""
    mac = hmac.new(
        host.encode("utf-8"), f"cherki-seat:{table_id}:{seat}:{generation}".encode(), "sha256"
    )
    return base64.urlsafe_b64encode(mac.digest()[:16]).rstrip(b"=").decode("ascii")


def new_token() -> str:
    """128 bits from the operating system's entropy, URL-safe."""
    return secrets.token_urlsafe(16)


def _now() -> datetime:
    return datetime.now(UTC)


def _clean_name(name: str) -> str:
    name = name.strip()
    if not 1 <= len(name) <= 40 or not name.isprintable():
        raise StoreError("a name is 1 to 40 printable characters")
    return name


def _token_shape(token: object) -> bool:
    return isinstance(token, str) and 10 <= len(token) <= 64


class Store:
    """The database of tables (see the module's notes)."""

    def __init__(self, url: str, *, prepare: bool = True) -> None:
        """The store of the database at ``url``; ``prepare``: bring it to the newest schema
        and (SQLite) do its checkpoints; False: a reader of a database that another process
        serves (the heavy requests' process, :mod:`cherki.server.stored`)."""
        self.url = url
        try:
            self.engine: Engine = create_engine(url, future=True, **_engine_options(url))
        except (SQLAlchemyError, ValueError, ImportError) as err:
            raise StoreError(f"cannot use the database {url!r}: {err}") from None
        #: whether the database is a file of this machine (SQLite), written without waiting
        #: for the disk: a commit costs about as much as a view, so the server makes changes
        #: on its event loop (cherki.server.tables); its writers take turns in this process
        #: and its own thread does the checkpoints (below)
        self.local = self.engine.dialect.name == "sqlite"
        #: SQLite lets one writer in at a time and makes the others sleep and try again (up
        #: to 100 ms a try): this process's transactions take turns here instead
        self._writing: AbstractContextManager[object] = nullcontext()
        #: SQLite: the connection the transactions of :meth:`_conn` share (under
        #: :attr:`_writing`)
        self._writer: Connection | None = None
        self._checkpoints: threading.Thread | None = None
        self._closing = threading.Event()
        if self.local:
            event.listen(self.engine, "connect", _sqlite_pragmas)
            self._writing = threading.RLock()
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        #: per table: what this store knows the database holds of its record
        self._written: OrderedDict[str, Written] = OrderedDict()
        self._written_lock = threading.Lock()
        #: checks, in a write's transaction, that this process still owns the table (the
        #: cluster's lease, :mod:`cherki.server.cluster`); None: one process, no check
        self.fence: Callable[[Connection, str], None] | None = None
        if prepare:
            self.upgrade()
        if self.local and prepare:
            self._checkpoints = threading.Thread(
                target=self._checkpoint, name="cherki-checkpoints", daemon=True
            )
            self._checkpoints.start()

    def _checkpoint(self) -> None:
        """Copy SQLite's write-ahead log into the database every :data:`CHECKPOINT_SECONDS`,
        beside the writers (a passive checkpoint waits for no one): a writer never does it
        itself, which would make every other table wait for the disk."""
        while not self._closing.wait(CHECKPOINT_SECONDS):
            with suppress(Exception), self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def upgrade(self) -> None:
        """Bring the database to the newest schema (Alembic)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(resources.files("cherki.server") / "migrations"))
        try:
            with self.engine.begin() as conn:
                if conn.dialect.name == "postgresql":
                    # processes started together on a new database: one creates the schema,
                    # the others wait here (the lock ends with this transaction), then find
                    # it made
                    conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK})")
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
        except SQLAlchemyError as err:
            raise StoreError(f"cannot prepare the database: {_short(err)}") from None

    @contextmanager
    def _tx(self) -> Iterator[Session]:
        """One transaction: committed at the end, rolled back on any error."""
        session = self._sessions()
        try:
            with self._writing, session.begin():
                yield session
        except SQLAlchemyError as err:
            raise _refused(err) from None
        finally:
            session.close()

    @contextmanager
    def _conn(self) -> Iterator[Connection]:
        """One transaction on a bare connection (the log's writes and reads). On a local
        SQLite file, whose writers take turns anyway, the transactions share one
        connection kept open (:attr:`_writer`): taking one from the pool and giving it back
        cost a third of an action's save; a connection that failed is closed and opened
        afresh for the next."""
        try:
            with self._writing:
                conn = self._writer
                if not self.local or (conn is not None and conn.in_transaction()):
                    with self.engine.begin() as fresh:  # PostgreSQL, or a transaction within
                        yield fresh
                    return
                if conn is None or conn.closed or conn.invalidated:
                    conn = self._writer = self.engine.connect()
                try:
                    with conn.begin():
                        yield conn
                except SQLAlchemyError:
                    self._writer = None
                    with suppress(Exception):
                        conn.close()
                    raise
        except SQLAlchemyError as err:
            raise _refused(err) from None

    # -- tables ---------------------------------------------------------------------------
    def create_table(
        self,
        record: Record,
        seats: list[tuple[str, str | None]],
        settings: Mapping[str, JSON] | None = None,
    ) -> Created:
        """A new table with its record (usually no hand yet) and its seats (``(kind, bot
        level)`` each); returns its id, a token for each human seat and the host's token
        (each shown once, never stored)."""
        if len(seats) != len(record.players):
            raise StoreError("one seat description for each player of the record")
        table_id = uuid.uuid4().hex
        tokens: dict[int, str] = {}
        host = new_token()
        now = _now()
        empty = Written(header_text(record), OPEN, 0)
        change, after = change_of(table_id, empty, record, None)
        with self._tx() as s:
            s.add(
                TableRow(
                    id=table_id,
                    game=record.game.name,
                    status=OPEN,
                    created=now,
                    updated=now,
                    settings=json.dumps(settings or {}),
                    header=empty.header,
                    version=after.version,
                    host_hash=token_hash(host),
                )
            )
            s.flush()
            for i, (kind, level) in enumerate(seats):
                if kind not in (HUMAN, BOT):
                    raise StoreError(f"a seat is {HUMAN!r} or {BOT!r}, not {kind!r}")
                digest = None
                if kind == HUMAN:
                    tokens[i] = seat_token(host, table_id, i, 0)
                    digest = token_hash(tokens[i])
                s.add(SeatRow(table_id=table_id, seat=i, kind=kind, level=level,
                              token_hash=digest))  # fmt: skip
            s.flush()
            write_log(s.connection(), change)
        self._remember(table_id, after)
        return Created(table_id, tokens, host)

    def table(self, table_id: str) -> TableInfo:
        with self._tx() as s:
            row = s.get(TableRow, table_id)
            if row is None:
                raise StoreError(f"there is no table {table_id!r}")
            seats = s.scalars(
                select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
            ).all()
            return TableInfo(
                row.id,
                row.game,
                row.status,
                json.loads(row.settings),
                row.version,
                tuple(SeatInfo(x.seat, x.kind, x.level, x.name) for x in seats),
            )

    def record(self, table_id: str, match: int | None = None) -> Record:
        """The table's record as last saved, assembled from its log: the match in play's
        (or match ``match``'s, from 0; a StoreError for a match the table has not played)."""
        record, written = self._read(table_id, match)
        if match is None or match == written.match:
            self._remember(table_id, written)
        if record is None:
            return parse_record({"format": FORMAT, "version": VERSION,
                                 **json.loads(written.header), "hands": []})  # fmt: skip
        return record

    def stored(self, table_id: str, match: int) -> tuple[Record, bool, int]:
        """Match ``match``'s record (from 0) as stored, whether that match is over, and the
        table's version it was read at (a StoreError for a match the table has not
        played). Nothing is remembered: for a reader in another process."""
        record, written = self._read(table_id, match)
        if record is None:
            record = parse_record({"format": FORMAT, "version": VERSION,
                                   **json.loads(written.header), "hands": []})  # fmt: skip
        # a match that another follows is over (a new one starts only after it)
        over = written.status == FINISHED or match < len(self.matches(table_id))
        return record, over, written.version

    def save(
        self,
        table_id: str,
        record: Record,
        status: str | None = None,
        *,
        stand_in: str | None = None,
    ) -> int:
        """Write what is new in the table's record (the match in play's) and its status in
        one transaction; returns the table's version: the number of actions recorded (all
        matches). A record that contradicts what the table holds is refused (StoreError)
        and nothing is written. ``stand_in``: the level of the stand-in bot that made the
        new actions for an away person (written beside them)."""
        for attempt in (0, 1):
            old = self._written.get(table_id)
            if old is None:
                old = self._read(table_id)[1]
            change, after = change_of(table_id, old, record, status, stand_in)
            if not change:
                self._remember(table_id, after)
                return after.version
            values: dict[str, str | int | datetime] = {
                "table": table_id,
                "was": old.version,
                "version": after.version,
                "updated": _now(),
            }
            if change.header is not None:
                values["header"] = change.header
            if change.status is not None:
                values["status"] = change.status
            try:
                with self._conn() as conn:
                    if self.fence is not None:
                        self.fence(conn, table_id)
                    driver = for_connection(conn)
                    if driver is not None:  # the driver's own SQL: a save is on every action
                        bumped = driver.bump(conn, values)
                    else:
                        bumped = conn.execute(BUMP, values).rowcount
                    if bumped == 1:
                        write_log(conn, change)
            except StoreError:
                self._forget(table_id)  # what was written is not known now
                raise
            if bumped == 1:
                self._remember(table_id, after)
                return after.version
            self._forget(table_id)  # another writer moved it on: read it again
            if attempt:
                break
        raise StoreError(f"table {table_id!r} was changed meanwhile: save again")

    def tables(self, status: str | None = None) -> list[TableInfo]:
        """Every table (or those of ``status``), newest first."""
        with self._tx() as s:
            q = select(TableRow.id).order_by(TableRow.created.desc())
            if status is not None:
                q = q.where(TableRow.status == status)
            ids = list(s.scalars(q).all())
        return [self.table(i) for i in ids]

    def _read(self, table_id: str, match: int | None = None) -> tuple[Record | None, Written]:
        """The table's record (None while it has no hand) and what it holds, read whole:
        the match in play's, or match ``match``'s."""
        with self._conn() as conn:
            row = conn.execute(
                select(TableRow.header, TableRow.status, TableRow.version).where(
                    TableRow.id == table_id
                )
            ).first()
            if row is None:
                raise StoreError(f"there is no table {table_id!r}")
            starts = [(0, 0)] + [
                (m.first_hand, m.first_version)
                for m in conn.execute(
                    select(MatchRow.first_hand, MatchRow.first_version)
                    .where(MatchRow.table_id == table_id)
                    .order_by(MatchRow.match)
                ).all()
            ]
            latest = len(starts) - 1
            which = latest if match is None else match
            if type(which) is not int or not 0 <= which <= latest:
                raise StoreError(
                    f"this table has played {latest + 1} match(es): there is no match {match!r}"
                )
            first, _ = starts[which]
            end = starts[which + 1][0] if which < latest else None
            hand_q = select(HandRow.__table__).where(
                HandRow.table_id == table_id, HandRow.hand >= first
            )
            action_q = select(ActionRow.hand, ActionRow.action).where(
                ActionRow.table_id == table_id, ActionRow.hand >= first
            )
            if end is not None:
                hand_q = hand_q.where(HandRow.hand < end)
                action_q = action_q.where(ActionRow.hand < end)
            hand_rows = conn.execute(hand_q.order_by(HandRow.hand)).all()
            actions = conn.execute(action_q.order_by(ActionRow.version)).all()
        written = Written(row.header, row.status, row.version, match=which, first_hand=first)
        if not hand_rows:
            return None, written
        moves: list[list[str]] = [[] for _ in hand_rows]
        for hand, text in actions:
            moves[hand - first].append(text)
        hands = [{**hand_json(h), "actions": m} for h, m in zip(hand_rows, moves, strict=True)]
        data = {"format": FORMAT, "version": VERSION, **json.loads(row.header), "hands": hands}
        record = parse_record(data)
        written.hands = [WrittenHand(deal_of(h), list(h.actions), h.result) for h in record.hands]
        return record, written

    # -- matches played again at the table ------------------------------------------------
    def new_match(self, table_id: str, carried: Carried) -> int:
        """Start another match at the table (its record's hands are saved next, from its
        first): a ``matches`` row (what the matches before leave, ``carried``), and the
        table in play again; returns the new match's number (from 0)."""
        old = self._written.get(table_id)
        if old is None:
            old = self._read(table_id)[1]
        number = old.match + 1
        first = old.first_hand + len(old.hands)
        with self._conn() as conn:
            if self.fence is not None:
                self.fence(conn, table_id)
            done = conn.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.version == old.version)
                .values(status=PLAYING, updated=_now())
            )
            if done.rowcount != 1:
                self._forget(table_id)
                raise StoreError(f"table {table_id!r} was changed meanwhile: try again")
            conn.execute(
                insert(MatchRow).values(
                    table_id=table_id,
                    match=number,
                    first_hand=first,
                    first_version=old.version,
                    created=_now(),
                    carried=json.dumps(carried),
                )
            )
        self._remember(
            table_id,
            Written(old.header, PLAYING, old.version, [], old.header_key, number, first),
        )
        return number

    def matches(self, table_id: str) -> list[tuple[int, int, Carried]]:
        """The table's matches after its first: ``(match, first_version, carried)`` each."""
        with self._conn() as conn:
            rows = conn.execute(
                select(MatchRow.match, MatchRow.first_version, MatchRow.carried)
                .where(MatchRow.table_id == table_id)
                .order_by(MatchRow.match)
            ).all()
        return [(m, v, carried_from_json(json.loads(c))) for m, v, c in rows]

    def stand_ins(self, table_id: str, since: int = 0) -> dict[int, str]:
        """The actions after version ``since`` that a stand-in bot made for an away person:
        their version and the bot's level."""
        with self._conn() as conn:
            rows = conn.execute(
                select(ActionRow.version, ActionRow.stand_in).where(
                    ActionRow.table_id == table_id,
                    ActionRow.version > since,
                    ActionRow.stand_in.is_not(None),
                )
            ).all()
        return {v: str(level) for v, level in rows}

    def set_settings(self, table_id: str, settings: Mapping[str, JSON]) -> None:
        """The table's settings as the host changed them."""
        with self._conn() as conn:
            if self.fence is not None:
                self.fence(conn, table_id)
            done = conn.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(settings=json.dumps(settings), updated=_now())
            )
            if done.rowcount != 1:
                raise StoreError(f"there is no table {table_id!r}")

    def _remember(self, table_id: str, written: Written) -> None:
        with self._written_lock:
            self._written[table_id] = written
            self._written.move_to_end(table_id)
            while len(self._written) > REMEMBERED:
                self._written.popitem(last=False)

    def _forget(self, table_id: str) -> None:
        with self._written_lock:
            self._written.pop(table_id, None)

    # -- seats ----------------------------------------------------------------------------
    def seat_of(self, token: str) -> tuple[str, int]:
        """The table and seat a token holds (a StoreError for any other token)."""
        if not _token_shape(token):
            raise StoreError("this link holds no seat")
        with self._tx() as s:
            row = s.scalars(select(SeatRow).where(SeatRow.token_hash == token_hash(token))).first()
            if row is None:
                raise StoreError("this link holds no seat")
            return row.table_id, row.seat

    def take_seat(self, token: str, name: str) -> tuple[str, int]:
        """The seat of ``token``, under ``name`` (1 to 40 printable characters)."""
        name = _clean_name(name)
        table_id, seat = self.seat_of(token)
        with self._tx() as s:
            row = s.get(SeatRow, (table_id, seat))
            assert row is not None
            row.name = name
        return table_id, seat

    # -- the host -------------------------------------------------------------------------
    def host_of(self, token: str) -> str:
        """The table whose host link ``token`` is (a StoreError for any other token)."""
        if not _token_shape(token):
            raise StoreError("this link is not a host link")
        with self._tx() as s:
            found = s.scalars(
                select(TableRow.id).where(TableRow.host_hash == token_hash(token))
            ).first()
        if found is None:
            raise StoreError("this link is not a host link")
        return found

    def reissue(self, table_id: str, seat: int, host: str | None = None) -> str:
        """A new token for a person's seat (returned once, never stored); the old one holds
        the seat no more. The seat keeps its name. With the table's ``host`` token the new
        one is worked out from it (:meth:`seat_links` gives it again); without, it is
        random."""
        with self._tx() as s:
            row = self._person(s, table_id, seat)
            row.generation += 1
            token = (
                seat_token(host, table_id, seat, row.generation)
                if host is not None
                else new_token()
            )
            row.token_hash = token_hash(token)
        return token

    def seat_links(self, host: str) -> tuple[str, dict[int, str]]:
        """The table of a host token and the token of each person's seat, worked out again
        from the host's (a seat whose token was not, e.g. a table made before host links,
        has none)."""
        table_id = self.host_of(host)
        out: dict[int, str] = {}
        with self._tx() as s:
            rows = s.scalars(select(SeatRow).where(SeatRow.table_id == table_id)).all()
            for row in rows:
                if row.kind != HUMAN or row.token_hash is None:
                    continue
                token = seat_token(host, table_id, row.seat, row.generation)
                if token_hash(token) == row.token_hash:
                    out[row.seat] = token
        return table_id, out

    def rename_seat(self, table_id: str, seat: int, name: str) -> None:
        """The host names a person's seat (1 to 40 printable characters, as taking it)."""
        name = _clean_name(name)
        with self._tx() as s:
            self._person(s, table_id, seat).name = name

    def _person(self, s: Session, table_id: str, seat: int) -> SeatRow:
        row = s.get(SeatRow, (table_id, seat)) if type(seat) is int else None
        if row is None:
            if s.get(TableRow, table_id) is None:
                raise StoreError(f"there is no table {table_id!r}")
            raise StoreError(f"the table has no seat {seat!r}")
        if row.kind != HUMAN:
            raise StoreError(f"a bot plays seat {seat}: it has no link and no name to change")
        return row

    def close(self) -> None:
        self._closing.set()
        if self._checkpoints is not None:
            self._checkpoints.join(timeout=5)
        with self._writing:
            if self._writer is not None:
                with suppress(Exception):
                    self._writer.close()
                self._writer = None
        self.engine.dispose()


#: the PostgreSQL advisory lock held while the schema is brought up to date (any number
#: the other users of the database do not take: "cherki" in ASCII)
SCHEMA_LOCK = 0x636865726B69
#: milliseconds PostgreSQL lets a transaction wait on a process that stopped answering in
#: the middle of it (a stalled process: its locks are freed, its transaction is rolled
#: back and its commit fails), so that another process can take its tables over
IDLE_IN_TRANSACTION_MS = 5000


def _engine_options(url: str) -> dict[str, object]:
    """The engine's options for the database at ``url``."""
    if url.startswith("postgresql"):
        options = f"-c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_MS}"
        return {"connect_args": {"options": options}}
    return {}


def _sqlite_pragmas(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    # a commit is in the write-ahead log (the operating system's) when it returns: it
    # survives the server's death (kill -9); only a power cut may lose the last ones
    cursor.execute("PRAGMA synchronous=NORMAL")
    # the store's own thread copies the log into the database (Store._checkpoint)
    cursor.execute(f"PRAGMA wal_autocheckpoint={AUTOCHECKPOINT_PAGES}")
    cursor.close()


def _short(err: Exception) -> str:
    return str(err).splitlines()[0][:200]
