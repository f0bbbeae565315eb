"""The store's tables as SQLAlchemy rows (the schema Alembic's migrations build, see
:mod:`cherki.server.store` for what each holds and why the log is append-only)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"
    __table_args__ = (Index("ux_tables_host_hash", "host_hash", unique=True),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(16), index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: what the creator chose beyond the rules (turn timer, bots' levels...), as JSON
    settings: Mapped[str] = mapped_column(Text)
    #: the record's header (``Record.header_json``: game, preset, rules, players, table),
    #: as JSON; its hands are rows of ``hands`` and ``actions``
    header: Mapped[str] = mapped_column(Text, server_default="{}")
    #: actions recorded so far (all hands): what a client's event version counts
    version: Mapped[int] = mapped_column(Integer, default=0)
    #: the SHA-256 of the host's token (None: a table made before host links)
    host_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


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
    #: how many times the host has given the seat a new link
    generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class HandRow(Base):
    """One hand of a table's record, as the record has it (JSON where the record nests)."""

    __tablename__ = "hands"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    #: the hand's place in the record, from 0
    hand: Mapped[int] = mapped_column(Integer, primary_key=True)
    first_seat: Mapped[int] = mapped_column(Integer)
    #: decimal text: a record's seeds are any whole number (the server's are 64 bits,
    #: unsigned, more than a signed BIGINT holds)
    seed: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: JSON: the card codes, top first
    shoe: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: JSON: ``{"hands": [...], "stock": [...]}``
    stack: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: JSON object, or None
    context: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: JSON: ``Result.to_json()``, set once when the hand ends
    result: Mapped[str | None] = mapped_column(Text, nullable=True)


class ActionRow(Base):
    """One action, in the record's notation (``"1: discard WF tan"``)."""

    __tablename__ = "actions"
    __table_args__ = (
        ForeignKeyConstraint(
            ["table_id", "hand"], ["hands.table_id", "hands.hand"], ondelete="CASCADE"
        ),
    )

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: the running number of the action across all the table's hands, from 1
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    #: the level of the stand-in bot that made the action for a person who was away (None:
    #: whoever plays the seat made it); schema revision 0003
    stand_in: Mapped[str | None] = mapped_column(String(16), nullable=True)


class MatchRow(Base):
    """A match played again at the same table (schema revision 0003): match 0 has no row;
    each later one starts at its ``first_hand`` (the ``hands`` row of its first hand) and
    after ``first_version`` actions, and ``carried`` holds what the matches before it left
    (JSON: ``{"totals": [...], "money_cents": [...]}``, per seat, summed)."""

    __tablename__ = "matches"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    match: Mapped[int] = mapped_column(Integer, primary_key=True)
    first_hand: Mapped[int] = mapped_column(Integer)
    first_version: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    carried: Mapped[str] = mapped_column(Text)
