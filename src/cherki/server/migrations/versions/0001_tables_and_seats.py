"""Tables and seats.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.Column("settings", sa.Text(), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "seats",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
    )


def downgrade() -> None:
    op.drop_table("seats")
    op.drop_index("ix_tables_status", "tables")
    op.drop_table("tables")
