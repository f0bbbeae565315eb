"""Benchmark: what the server's store costs per action, before and after the action log.

Before (schema revision 0001), ``Store.save`` rewrote the table's whole record (its JSON,
``Record.dumps()``) in ``tables.record`` after every action: the cost grew with the match.
Since revision 0002 it writes only what is new: one row of ``actions`` beside the table's
version (``cherki.server.store``). This script times both on SQLite (a file, write-ahead
log, as the server runs it) for a table with about 0, 100 and 1,000 actions already
recorded:

* **old**: ``record.dumps()`` and the UPDATE of ``tables.record``, ``version``, ``updated``
  and ``status`` in one transaction, exactly as the old ``Store.save`` did;
* **new**: ``Store.save(table, record, "playing")`` (the record compared with what the
  store remembers, then the UPDATE of the table's row and the INSERT of the action).

The records are those of a real match of Balik Satu between random bots, cut after each
action; each figure is the median of ``--saves`` consecutive saves (one action each)
starting from that many prior actions, the old and the new save taken in turns (so
that both meet the same disk). Run from the repository root::

    uv run python benchmarks/bench_store.py
    uv run python benchmarks/bench_store.py --saves 200 --prior 0 100 1000 10000
    uv run python benchmarks/bench_store.py --dir /dev/shm    # without the disk's flushes
"""

from __future__ import annotations

import argparse
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import create_engine, event, text

from cherki.bots import make_bot
from cherki.games import find_game
from cherki.play.records import HandRecord, Record
from cherki.play.session import Seat, Session
from cherki.server.store import BOT, PLAYING, Store


def played(actions: int, seed: int) -> Record:
    """The record of a match of random bots holding at least ``actions`` actions."""
    game = find_game("balik-satu")
    seats = [Seat(f"Bot {i}", make_bot(game.name, "random")) for i in range(4)]
    session = Session(game, game.rules(), seats, seed=seed, hands=100, until_stopped=False)
    rng = random.Random(seed)
    session.rngs = [rng] * 4
    for _ in session.run():
        if sum(len(h.actions) for h in session.record().hands) >= actions:
            break
    record = session.record()
    if sum(len(h.actions) for h in record.hands) < actions:
        sys.exit(f"a match of 100 hands holds fewer than {actions} actions")
    return record


def cut(record: Record, version: int) -> Record:
    """The record as it stood after its first ``version`` actions (hands after it not yet
    dealt; the hand it falls in unfinished unless it is that hand's last action)."""
    hands: list[HandRecord] = []
    left = version
    for hand in record.hands:
        if left == 0 and hands:
            break
        take = min(left, len(hand.actions))
        done = take == len(hand.actions)
        hands.append(
            HandRecord(
                hand.first,
                hand.seed,
                hand.shoe,
                hand.stack,
                hand.actions[:take],
                hand.result if done else None,
                hand.context,
            )
        )
        left -= take
        if not done:
            break
    return Record(record.game, record.rules, record.players, hands, record.preset, record.table)


def _pragmas(dbapi_connection: object, _record: object) -> None:
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()


class Old:
    """The old store's save: the whole record's JSON written over ``tables.record``."""

    def __init__(self, folder: Path, first: Record) -> None:
        self.engine = create_engine(f"sqlite:///{folder / 'old.db'}")
        event.listen(self.engine, "connect", _pragmas)
        with self.engine.begin() as conn:
            conn.execute(
                text(
                    "CREATE TABLE tables (id VARCHAR(32) PRIMARY KEY, status VARCHAR(16) NOT "
                    "NULL, updated DATETIME NOT NULL, record TEXT NOT NULL, version INTEGER "
                    "NOT NULL)"
                )
            )
            conn.execute(
                text("INSERT INTO tables VALUES ('t', 'playing', :now, :record, 0)"),
                {"now": datetime.now(UTC), "record": first.dumps()},
            )
        self.query = text(
            "UPDATE tables SET record = :record, version = :version, updated = :now, "
            "status = :status WHERE id = 't'"
        )
        self.size = 0

    def save(self, record: Record) -> None:
        dumped = record.dumps()
        version = sum(len(h.actions) for h in record.hands)
        with self.engine.begin() as conn:
            conn.execute(self.query, {"record": dumped, "version": version,
                                      "now": datetime.now(UTC), "status": PLAYING})  # fmt: skip
        self.size = len(dumped.encode())


class New:
    """Today's store: ``Store.save``."""

    def __init__(self, folder: Path, first: Record) -> None:
        self.store = Store(f"sqlite:///{folder / 'new.db'}")
        seats = [(BOT, "random")] * len(first.players)
        self.table = self.store.create_table(cut(first, 0), seats).table_id
        self.store.save(self.table, first, PLAYING)

    def save(self, record: Record) -> None:
        self.store.save(self.table, record, PLAYING)


def measure(folder: Path, records: list[Record]) -> tuple[float, float, int]:
    """Median seconds of the old and the new save over ``records[1:]`` (each store given
    ``records[0]`` first), taken in turns so that both meet the same disk; and the bytes of
    the last record's JSON."""
    old, new = Old(folder, records[0]), New(folder, records[0])
    times: tuple[list[float], list[float]] = ([], [])
    for record in records[1:]:
        for way, spent in zip((old, new), times, strict=True):
            t0 = time.perf_counter()
            way.save(record)
            spent.append(time.perf_counter() - t0)
    old.engine.dispose()
    new.store.close()
    return statistics.median(times[0]), statistics.median(times[1]), old.size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prior", type=int, nargs="+", default=[0, 100, 1000])
    parser.add_argument("--saves", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default=None, help="where the databases go (default: a "
                        "temporary folder; /dev/shm leaves out the disk's flushes)")  # fmt: skip
    args = parser.parse_args()
    full = played(max(args.prior) + args.saves + 1, args.seed)
    where = args.dir or tempfile.gettempdir()
    print(f"cherki store: per-action save on SQLite {sqlite3.sqlite_version}; "
          f"Python {platform.python_version()}; databases in {where}")  # fmt: skip
    print(f"median of {args.saves} saves (one action each) from each starting point\n")
    print(f"{'prior actions':>13} {'hands':>6} {'old: rewrite':>13} {'record bytes':>13} "
          f"{'new: append':>12} {'old / new':>10}")  # fmt: skip
    for prior in args.prior:
        records = [cut(full, v) for v in range(max(prior, 1), max(prior, 1) + args.saves + 1)]
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            old, new, size = measure(Path(tmp), records)
        print(f"{prior:>13} {len(records[0].hands):>6} {old * 1e3:>10.2f} ms {size:>13,} "
              f"{new * 1e3:>9.2f} ms {old / new:>9.1f}×")  # fmt: skip


if __name__ == "__main__":
    main()
