"""The record as an append-only log (hands and actions), and host links.

Every table's record (the JSON text of ``tables.record``, rewritten with every action until
now) is moved into rows: its header (everything but ``format``, ``version``, ``cherki`` and
``hands``) into ``tables.header``, each hand into ``hands`` and each action into
``actions``, numbered across the table's hands from 1; ``tables.version`` is set to the
number of actions. The ``record`` column is then dropped: the log is the only copy, so the
two can never disagree (:meth:`cherki.server.store.Store.record` assembles the record; the
downgrade writes the column back from the log). ``tables.host_hash`` is added empty:
tables made before have no host link.

The move reads the records as plain JSON, not through cherki's record reader, so that this
revision runs the same whatever later versions of the games say.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

#: the record's top-level fields that are not its header
NOT_HEADER = ("format", "version", "cherki", "hands")

tables = sa.table(
    "tables",
    sa.column("id", sa.String),
    sa.column("record", sa.Text),
    sa.column("header", sa.Text),
    sa.column("version", sa.Integer),
)
hands = sa.table(
    "hands",
    sa.column("table_id", sa.String),
    sa.column("hand", sa.Integer),
    sa.column("first_seat", sa.Integer),
    sa.column("seed", sa.Text),
    sa.column("shoe", sa.Text),
    sa.column("stack", sa.Text),
    sa.column("context", sa.Text),
    sa.column("result", sa.Text),
)
actions = sa.table(
    "actions",
    sa.column("table_id", sa.String),
    sa.column("version", sa.Integer),
    sa.column("hand", sa.Integer),
    sa.column("action", sa.Text),
)


def upgrade() -> None:
    op.add_column("tables", sa.Column("header", sa.Text(), nullable=False, server_default="{}"))
    op.add_column("tables", sa.Column("host_hash", sa.String(64), nullable=True))
    op.create_index("ux_tables_host_hash", "tables", ["host_hash"], unique=True)
    op.add_column(
        "seats", sa.Column("generation", sa.Integer(), nullable=False, server_default="0")
    )
    op.create_table(
        "hands",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("hand", sa.Integer(), primary_key=True),
        sa.Column("first_seat", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Text(), nullable=True),
        sa.Column("shoe", sa.Text(), nullable=True),
        sa.Column("stack", sa.Text(), nullable=True),
        sa.Column("context", sa.Text(), nullable=True),
        sa.Column("result", sa.Text(), nullable=True),
    )
    op.create_table(
        "actions",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("version", sa.Integer(), primary_key=True),
        sa.Column("hand", sa.Integer(), nullable=False),
        sa.Column("action", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id", "hand"], ["hands.table_id", "hands.hand"], ondelete="CASCADE"
        ),
    )
    conn = op.get_bind()
    for table_id, text in conn.execute(sa.select(tables.c.id, tables.c.record)).all():
        _move(conn, table_id, text)
    op.drop_column("tables", "record")


def _move(conn: sa.Connection, table_id: str, text: str) -> None:
    """One table's record into its header, hands and actions."""
    data = json.loads(text)
    header = {k: v for k, v in data.items() if k not in NOT_HEADER}
    hand_rows: list[dict[str, Any]] = []
    action_rows: list[dict[str, Any]] = []
    for index, hand in enumerate(data.get("hands") or []):
        seed = hand.get("seed")
        hand_rows.append(
            {
                "table_id": table_id,
                "hand": index,
                "first_seat": hand.get("first", 0),
                "seed": str(seed) if seed is not None else None,
                **{k: _json(hand.get(k)) for k in ("shoe", "stack", "context", "result")},
            }
        )
        for action in hand.get("actions") or []:
            action_rows.append(
                {
                    "table_id": table_id,
                    "version": len(action_rows) + 1,
                    "hand": index,
                    "action": action,
                }
            )
    if hand_rows:
        conn.execute(hands.insert(), hand_rows)
    if action_rows:
        conn.execute(actions.insert(), action_rows)
    conn.execute(
        tables.update()
        .where(tables.c.id == table_id)
        .values(header=json.dumps(header, ensure_ascii=False), version=len(action_rows))
    )


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


def downgrade() -> None:
    """Each table's record written back whole from its log (host links are lost)."""
    op.add_column("tables", sa.Column("record", sa.Text(), nullable=False, server_default=""))
    conn = op.get_bind()
    for table_id, header in conn.execute(sa.select(tables.c.id, tables.c.header)).all():
        data: dict[str, Any] = {"format": "cherki-record", "version": 1, **json.loads(header)}
        data["hands"] = []
        rows = conn.execute(
            sa.select(hands).where(hands.c.table_id == table_id).order_by(hands.c.hand)
        ).all()
        for row in rows:
            hand: dict[str, Any] = {"first": row.first_seat}
            if row.seed is not None:
                hand["seed"] = int(row.seed)
            for key in ("shoe", "stack", "context"):
                if getattr(row, key) is not None:
                    hand[key] = json.loads(getattr(row, key))
            hand["actions"] = []
            if row.result is not None:
                hand["result"] = json.loads(row.result)
            data["hands"].append(hand)
        for index, action in conn.execute(
            sa.select(actions.c.hand, actions.c.action)
            .where(actions.c.table_id == table_id)
            .order_by(actions.c.version)
        ).all():
            data["hands"][index]["actions"].append(action)
        conn.execute(
            tables.update()
            .where(tables.c.id == table_id)
            .values(record=json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        )
    op.drop_table("actions")
    op.drop_table("hands")
    op.drop_column("seats", "generation")
    op.drop_index("ux_tables_host_hash", "tables")
    op.drop_column("tables", "host_hash")
    op.drop_column("tables", "header")
