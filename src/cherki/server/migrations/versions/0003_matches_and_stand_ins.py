"""Matches played again at the same table, and the actions a stand-in bot made.

``matches`` gets a row for each match a table plays after its first (the first has none):
where it starts (the ``hands`` row of its first hand, the actions before it) and what the
matches before it leave the seats (``carried``: their totals and money, summed), so the
score sheet runs on across matches and survives a restart. ``actions.stand_in`` names the
level of the bot that made an action for a person who was away (empty: whoever plays the
seat made it), so the log says whose the action was after a reload too.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("match", sa.Integer, primary_key=True),
        sa.Column("first_hand", sa.Integer, nullable=False),
        sa.Column("first_version", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("carried", sa.Text, nullable=False),
    )
    # a column added without rewriting the table (SQLite too): the log may be long
    op.add_column("actions", sa.Column("stand_in", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("stand_in")
    op.drop_table("matches")
