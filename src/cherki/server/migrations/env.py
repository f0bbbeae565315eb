"""Alembic's environment for cherki's database: run on the connection the store gives."""

from __future__ import annotations

from alembic import context

from cherki.server.schema import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata)
with context.begin_transaction():
    context.run_migrations()
