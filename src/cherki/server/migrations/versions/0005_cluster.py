"""Several serving processes on one PostgreSQL (:mod:`cherki.server.cluster`).

* ``leases``: which process owns each live table, the lease's epoch (one more at every
  take-over: a stale owner's writes name an old epoch and fail) and when it expires (the
  database's clock).
* ``cluster_processes``: each serving process and when it last said it was alive.

What one process sends another travels by ``LISTEN``/``NOTIFY``, in no table.

``leases.expires`` has no index, so that renewing a lease (every write of its table) is a
heap-only update; the table holds one row per live table and is read whole.

Made on SQLite too (one process never uses them), so that one schema serves both.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("owner", sa.String(40), nullable=False),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("leases_owner", "leases", ["owner"])
    op.create_table(
        "cluster_processes",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("started", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("cluster_processes")
    op.drop_table("leases")
