"""The table's chat: one row per line a person wrote (or emote they sent), append-only.

Each line is numbered across its table from 1 (the key with the table), and says where in
the game it was said: the table's version (actions recorded so far), the match and hand in play and
how many of that hand's log entries had been shown, so a page puts it among the game's
lines. Whether spectators read the chat is a table setting (``chat_spectators`` in
``tables.settings``, off when absent): no column for it.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("match", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("hand", sa.Integer(), nullable=False),
        sa.Column("log_at", sa.Integer(), nullable=False),
        sa.Column("said", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat")
