"""The statements made at every action (a save's, :meth:`cherki.server.store.Store.save`),
run on the database driver's own connection, with no SQLAlchemy between.

A save is made at every action of every table, on the server's event loop. Through
SQLAlchemy's Core, compiling nothing (its statements are cached) but building an execution
context and a result for each, three statements cost about twice what the database itself
spends on them (issue 41's profile: ``benchmarks/bench_action_cost.py``). Here they are
plain SQL for the two drivers cherki runs on (Python's ``sqlite3`` and ``psycopg``), in the
transaction of the SQLAlchemy connection they are given; any other driver, and an engine
whose statements something listens to, goes through SQLAlchemy as before
(:func:`for_connection` gives None).

Our specifications
------------------
* **The same statements as SQLAlchemy's**: the columns and the values that
  :data:`cherki.server.storelog.BUMP` and ``ADD_ACTIONS`` write, the time written as the
  column's own type writes it (SQLite: SQLAlchemy's text form of a ``DateTime``);
  ``tests/test_store.py`` reads them back through SQLAlchemy.
* **The same errors**: a driver's error is raised as SQLAlchemy's
  (:meth:`sqlalchemy.exc.DBAPIError.instance`), so the store refuses it in one line as any
  other; a connection the error shows lost is invalidated (the pool opens another).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError

from cherki.server.schema import TableRow

#: the driver's own names for the SQL dialects and drivers written here
_STYLES = {("sqlite", "pysqlite"): False, ("postgresql", "psycopg"): True}


@dataclass(frozen=True)
class Driver:
    """How the hot statements are written for one driver (``pyformat``: psycopg's
    ``%(name)s``, else sqlite3's ``:name``), and how the table's ``updated`` is bound."""

    pyformat: bool
    updated: Callable[[object], object] | None
    #: the statements written so far, by their text with ``:name`` parameters
    texts: dict[str, str] = field(default_factory=dict)

    def sql(self, text: str) -> str:
        """``text`` (parameters as ``:name``) in the driver's own style."""
        made = self.texts.get(text)
        if made is None:
            made = re.sub(r"(?<!:):(\w+)", r"%(\1)s", text) if self.pyformat else text
            self.texts[text] = made
        return made

    def execute(
        self,
        conn: Connection,
        text: str,
        params: Mapping[str, object] | Sequence[Mapping[str, object]],
        *,
        many: bool = False,
    ) -> int:
        """Run ``text`` (already in the driver's style) in ``conn``'s transaction; its
        row count."""
        raw = conn.connection.driver_connection
        assert raw is not None
        cursor = raw.cursor()
        try:
            if many:
                cursor.executemany(text, params)
            else:
                cursor.execute(text, params)
            return int(cursor.rowcount)
        except conn.dialect.loaded_dbapi.Error as err:
            lost = conn.dialect.is_disconnect(err, raw, cursor)
            if lost:
                conn.invalidate(err)
            raise DBAPIError.instance(
                text,
                params,
                err,
                conn.dialect.loaded_dbapi.Error,
                connection_invalidated=lost,
                dialect=conn.dialect,
            ) from err
        finally:
            cursor.close()

    # -- the save's statements ------------------------------------------------------------
    def bump(self, conn: Connection, values: Mapping[str, object]) -> int:
        """``storelog.BUMP``: the table's version moved on from ``was`` (with ``updated``
        and, where given, ``header`` and ``status``); the rows changed (0: another writer
        moved it on)."""
        sets = ", ".join(f"{k} = :{k}" for k in values if k not in ("table", "was"))
        text = self.sql(f"UPDATE tables SET {sets} WHERE id = :table AND version = :was")
        bound = dict(values)
        if self.updated is not None and "updated" in bound:
            bound["updated"] = self.updated(bound["updated"])
        return self.execute(conn, text, bound)

    def add_actions(self, conn: Connection, rows: Sequence[Mapping[str, object]]) -> None:
        """``storelog.ADD_ACTIONS``: the new actions' rows."""
        text = self.sql(
            "INSERT INTO actions (table_id, version, hand, action, stand_in) "
            "VALUES (:table_id, :version, :hand, :action, :stand_in)"
        )
        if len(rows) == 1:
            self.execute(conn, text, rows[0])
        else:
            self.execute(conn, text, rows, many=True)


#: per dialect (an engine's, for its life): its driver as written for here
_DRIVERS: dict[int, tuple[Dialect, Driver | None]] = {}


def for_connection(conn: Connection) -> Driver | None:
    """The driver of ``conn`` written for here, or None (SQLAlchemy's statements then):
    also where anything listens to the engine's statements (SQLAlchemy's
    ``before_cursor_execute`` or ``after_cursor_execute``: a tracer, a profiler, a test),
    which hears every statement then."""
    events = conn.dispatch
    if events.before_cursor_execute or events.after_cursor_execute:
        return None
    dialect = conn.dialect
    kept = _DRIVERS.get(id(dialect))
    if kept is not None and kept[0] is dialect:
        return kept[1]
    pyformat = _STYLES.get((dialect.name, dialect.driver))
    made = None
    if pyformat is not None:
        column = TableRow.__table__.c.updated
        made = Driver(pyformat, column.type.dialect_impl(dialect).bind_processor(dialect))
    if len(_DRIVERS) > 64:  # engines made and dropped (tests): keep the count bounded
        _DRIVERS.clear()
    _DRIVERS[id(dialect)] = (dialect, made)
    return made
