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
  write-ahead log.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from typing import Any

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from cherki.core.errors import CherkiError
from cherki.play.records import Record, parse_record

#: table states
OPEN, PLAYING, FINISHED = "open", "playing", "finished"
#: what a seat is
HUMAN, BOT = "human", "bot"


class StoreError(CherkiError):
    """The database refused or lost something (one line, for the user)."""


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(16), index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: what the creator chose beyond the rules (turn timer, bots' levels...), as JSON
    settings: Mapped[str] = mapped_column(Text)
    #: the table's cherki record (JSON), rewritten with every action
    record: Mapped[str] = mapped_column(Text)
    #: actions recorded so far (all hands): what a client's event version counts
    version: Mapped[int] = mapped_column(Integer, default=0)


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)


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
    settings: dict[str, Any]
    version: int
    seats: tuple[SeatInfo, ...]


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """128 bits from the operating system's entropy, URL-safe."""
    return secrets.token_urlsafe(16)


def _now() -> datetime:
    return datetime.now(UTC)


class Store:
    """The database of tables (see the module's notes)."""

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            self.engine: Engine = create_engine(url, future=True)
        except (SQLAlchemyError, ValueError, ImportError) as err:
            raise StoreError(f"cannot use the database {url!r}: {err}") from None
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.upgrade()

    def upgrade(self) -> None:
        """Bring the database to the newest schema (Alembic)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(resources.files("cherki.server") / "migrations"))
        try:
            with self.engine.begin() as conn:
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
        except SQLAlchemyError as err:
            raise StoreError(f"cannot prepare the database: {_short(err)}") from None

    @contextmanager
    def _tx(self) -> Iterator[Session]:
        """One transaction: committed at the end, rolled back on any error."""
        session = self._sessions()
        try:
            with session.begin():
                yield session
        except SQLAlchemyError as err:
            raise StoreError(f"the database refused a change: {_short(err)}") from None
        finally:
            session.close()

    # -- tables ---------------------------------------------------------------------------
    def create_table(
        self,
        record: Record,
        seats: list[tuple[str, str | None]],
        settings: dict[str, Any] | None = None,
    ) -> tuple[str, dict[int, str]]:
        """A new table with its (empty) record and its seats (``(kind, bot level)`` each);
        returns its id and a token for each human seat (shown once, never stored)."""
        if len(seats) != len(record.players):
            raise StoreError("one seat description for each player of the record")
        table_id = uuid.uuid4().hex
        tokens: dict[int, str] = {}
        now = _now()
        with self._tx() as s:
            s.add(
                TableRow(
                    id=table_id,
                    game=record.game.name,
                    status=OPEN,
                    created=now,
                    updated=now,
                    settings=json.dumps(settings or {}),
                    record=record.dumps(),
                    version=0,
                )
            )
            s.flush()
            for i, (kind, level) in enumerate(seats):
                if kind not in (HUMAN, BOT):
                    raise StoreError(f"a seat is {HUMAN!r} or {BOT!r}, not {kind!r}")
                digest = None
                if kind == HUMAN:
                    tokens[i] = new_token()
                    digest = token_hash(tokens[i])
                s.add(SeatRow(table_id=table_id, seat=i, kind=kind, level=level,
                              token_hash=digest))  # fmt: skip
        return table_id, tokens

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

    def record(self, table_id: str) -> Record:
        """The table's record as last saved."""
        with self._tx() as s:
            row = s.get(TableRow, table_id)
            if row is None:
                raise StoreError(f"there is no table {table_id!r}")
            text = row.record
        return parse_record(text)

    def save(self, table_id: str, record: Record, status: str | None = None) -> int:
        """Write the table's record (and status) in one transaction; returns the table's new
        version: the number of actions recorded."""
        version = sum(len(h.actions) for h in record.hands)
        values: dict[str, Any] = {"record": record.dumps(), "version": version, "updated": _now()}
        if status is not None:
            values["status"] = status
        try:
            with self.engine.begin() as conn:
                done = conn.execute(
                    update(TableRow).where(TableRow.id == table_id).values(**values)
                )
        except SQLAlchemyError as err:
            raise StoreError(f"the database refused a change: {_short(err)}") from None
        if done.rowcount != 1:
            raise StoreError(f"there is no table {table_id!r}")
        return version

    def tables(self, status: str | None = None) -> list[TableInfo]:
        """Every table (or those of ``status``), newest first."""
        with self._tx() as s:
            q = select(TableRow.id).order_by(TableRow.created.desc())
            if status is not None:
                q = q.where(TableRow.status == status)
            ids = list(s.scalars(q).all())
        return [self.table(i) for i in ids]

    # -- seats ----------------------------------------------------------------------------
    def seat_of(self, token: str) -> tuple[str, int]:
        """The table and seat a token holds (a StoreError for any other token)."""
        if not isinstance(token, str) or not 10 <= len(token) <= 64:
            raise StoreError("this link holds no seat")
        with self._tx() as s:
            row = s.scalars(select(SeatRow).where(SeatRow.token_hash == token_hash(token))).first()
            if row is None:
                raise StoreError("this link holds no seat")
            return row.table_id, row.seat

    def take_seat(self, token: str, name: str) -> tuple[str, int]:
        """The seat of ``token``, under ``name`` (1 to 40 printable characters)."""
        name = name.strip()
        if not 1 <= len(name) <= 40 or not name.isprintable():
            raise StoreError("a name is 1 to 40 printable characters")
        table_id, seat = self.seat_of(token)
        with self._tx() as s:
            row = s.get(SeatRow, (table_id, seat))
            assert row is not None
            row.name = name
        return table_id, seat

    def close(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()


def _short(err: Exception) -> str:
    return str(err).splitlines()[0][:200]
