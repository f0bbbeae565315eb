"""The server's own CPU for one action, in process: no sockets, no event loop.

Drives :class:`cherki.server.registry.Tables` on a fresh SQLite file directly, as the app does:
``--tables`` tables of one person (seat 0) and three heuristic bots; the person plays a legal
action (as the benchmark's people choose: goes out when it can, draws rather than takes,
else at random) with :meth:`Tables.act`, then the bots play with :meth:`Tables.to_think` and
:meth:`Tables.bot_act` until the person is to act again. After every action, the person's
and the bots' alike, the views the server sends are built: :meth:`Tables.view` for the four
seats and one spectator. The CPU time (``time.process_time``) of each part is summed:

* **engine act**: ``Tables.act`` / ``Tables.bot_act`` less the store's save inside it (the
  rules' checks, the state's change, scoring and dealing when a hand ends, and building
  the record that is saved);
* **store save**: the session's ``save`` (``Store.save``: the record written out as JSON
  and one UPDATE), timed by wrapping the live session's ``save``;
* **views**: the text of the state message of seats 0–3 and the spectator, as the server
  sends it (the view and its JSON);
* **to_think**: whose turn it is, what the bot sees, and the version the person acts on.

The bots' own thinking is timed apart (the app runs it in a worker thread) and is not in
the total. The script speaks both servers' APIs (:class:`Ops`): the one before the
table-server rewrite (issue 23: ``Tables.act``, ``to_think``, ``bot_act``, ``view``,
``version``) and the one after (one ``Table`` per table: ``_act``, ``_bot_job``,
``_bot_act``, ``_text``, ``version``), so that one run of each, on the same machine, gives
the before/after ratio.

    uv run --group dev python benchmarks/bench_action_cost.py          # 20 tables, 2,000 actions
    uv run --group dev python benchmarks/bench_action_cost.py --actions 5000 --warmup 500

Before the rewrite the record was written whole at each action, so the store's share grew
as a match went on: the script says how large the records were on average.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cherki.server.registry import Tables
from cherki.server.settings import SeatPlan
from cherki.server.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import _choose

PARTS = ("engine act", "store save", "views (4 seats + 1 spectator)", "to_think + version")


class Ops:
    """The server's operations, whichever API it has."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.new = hasattr(tables, "table")

    def create(self, game: str, seats: list[SeatPlan]) -> str:
        if self.new:  # hands one after another, no pace (the bots' thinking is timed apart)
            made = self.tables.create(game, None, {}, seats, 100, pause=False, bot_pace=0)
        else:
            made = self.tables.create(game, None, {}, seats, 100)
        if self.new:  # the person is at the table (a table nobody is at waits for them)
            table = self.tables.table(str(made[0]))  # type: ignore[attr-defined]
            if hasattr(table, "left_at"):
                table.left_at = None
        return str(made[0])

    def texts(self, table_id: str, now: float) -> None:
        """The state messages of :data:`VIEWERS` after a change, as the server works them
        out: all at once where it can (each held from where the viewer's last one left
        the hand's log), else one by one."""
        if not self.new:
            for v in VIEWERS:
                json.dumps(self.tables.view(table_id, v, now))  # type: ignore[attr-defined]
            return
        table = self.tables.table(table_id)  # type: ignore[attr-defined]
        readers = {(v, "en") for v in VIEWERS}
        if hasattr(table, "views"):  # issue 41: cherki.server.views
            table.views.texts(now, readers)
        elif hasattr(table, "_views"):
            table._views(now, readers)
        else:
            for v in VIEWERS:
                table._text(v, now)

    def view(self, table_id: str, viewer: int | None, now: float) -> dict[str, Any]:
        if self.new:
            return dict(self.tables.table(table_id).view(viewer, now))  # type: ignore[attr-defined]
        return dict(self.tables.view(table_id, viewer, now))  # type: ignore[attr-defined]

    def bot_job(self, table_id: str) -> tuple[int, Any, Any, Any] | None:
        """(seat, bot, what it sees, its generator or seed), or None."""
        if self.new:
            job = self.tables.table(table_id)._bot_job()  # type: ignore[attr-defined]
            return None if job is None else (job[0], job[1], job[2], (job[3], job[4]))
        found = self.tables.to_think(table_id)  # type: ignore[attr-defined]
        if found is None:
            return None
        seat, bot = found
        session = self.tables.session(table_id)
        assert session.state is not None and session.rngs is not None
        return seat, bot, session.state.observation(seat), session.rngs[seat]

    def think(self, bot: Any, obs: Any, how: Any) -> int:
        if self.new:
            return int(bot.act(obs, random.Random(how[0])))
        return int(bot.act(obs, how))

    def bot_act(self, table_id: str, seat: int, action: int, how: Any) -> None:
        if self.new:
            self.tables.table(table_id)._bot_act(seat, action, how[1])  # type: ignore[attr-defined]
        else:
            self.tables.bot_act(table_id, seat, action)  # type: ignore[attr-defined]

    def version(self, table_id: str) -> int:
        if self.new:
            return int(self.tables.table(table_id).version)  # type: ignore[attr-defined]
        return int(self.tables.version(table_id))  # type: ignore[attr-defined]

    def act(self, table_id: str, seat: int, action: int, version: int) -> None:
        if self.new:
            self.tables.table(table_id)._act(seat, action, version)  # type: ignore[attr-defined]
        else:
            self.tables.act(table_id, seat, action, version)  # type: ignore[attr-defined]


VIEWERS: tuple[int | None, ...] = (0, 1, 2, 3, None)


class Meter:
    """CPU (and wall) seconds summed per part, and actions counted per kind."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = defaultdict(float)
        self.wall: dict[str, float] = defaultdict(float)
        self.actions: dict[str, int] = defaultdict(int)
        self.record_bytes = 0
        self.saves = 0
        self.on = False

    def time(self, part: str, fn: Callable[..., Any], *args: Any) -> Any:
        c0, w0 = time.process_time(), time.perf_counter()
        try:
            return fn(*args)
        finally:
            if self.on:
                self.cpu[part] += time.process_time() - c0
                self.wall[part] += time.perf_counter() - w0

    def act(self, fn: Callable[..., Any], *args: Any) -> None:
        """An action: its time less the store's save inside it (and this script's own
        measuring of the record saved) is the engine's."""
        cpu = self.cpu["store save"] + self.cpu["bench"]
        wall = self.wall["store save"] + self.wall["bench"]
        self.time(PARTS[0], fn, *args)
        self.cpu[PARTS[0]] -= self.cpu["store save"] + self.cpu["bench"] - cpu
        self.wall[PARTS[0]] -= self.wall["store save"] + self.wall["bench"] - wall


def timed_save(meter: Meter, inner: Callable[[Any], None]) -> Callable[[Any], None]:
    def save(record: Any) -> None:
        c0, w0 = time.process_time(), time.perf_counter()
        inner(record)
        if meter.on:
            c1, w1 = time.process_time(), time.perf_counter()
            meter.cpu["store save"] += c1 - c0
            meter.wall["store save"] += w1 - w0
            meter.saves += 1
            # the record's size, which the server never works out: not the engine's time
            meter.record_bytes += len(record.dumps())
            meter.cpu["bench"] += time.process_time() - c1
            meter.wall["bench"] += time.perf_counter() - w1

    return save


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="balik-satu")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--actions", type=int, default=2000, help="the person's actions timed")
    parser.add_argument("--warmup", type=int, default=100, help="the person's actions first")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    meter = Meter()
    with tempfile.TemporaryDirectory(prefix="cherki-cost-") as tmp:
        store = Store(f"sqlite:///{tmp}/cost.db")
        tables = Tables(store)
        ops = Ops(tables)
        seats = [SeatPlan("human")] + [SeatPlan("bot", "heuristic")] * 3
        ids = []
        for _ in range(args.tables):
            table_id = ops.create(args.game, seats)
            session = tables.session(table_id)
            session.save = timed_save(meter, session.save)
            ids.append(table_id)
        thinking = [0.0]

        last: dict[str, dict[str, Any]] = {}

        def show(table_id: str) -> None:
            """Build every view, as the server sends them after an action (seat 0's kept)."""
            now = time.monotonic()
            meter.time(PARTS[2], ops.texts, table_id, now)
            last[table_id] = ops.view(table_id, 0, now)

        def bots(table_id: str) -> None:
            while (job := meter.time(PARTS[3], ops.bot_job, table_id)) is not None:
                seat, bot, obs, how = job
                t0 = time.process_time()
                action = ops.think(bot, obs, how)
                if meter.on:
                    thinking[0] += time.process_time() - t0
                meter.act(ops.bot_act, table_id, seat, action, how)
                meter.actions["bot"] += meter.on
                show(table_id)

        for table_id in ids:
            show(table_id)
            bots(table_id)
        done = 0
        total = args.warmup + args.actions
        wall0 = 0.0
        while done < total:
            for table_id in ids:
                if done == args.warmup and not meter.on:
                    meter.on = True
                    wall0 = time.perf_counter()
                if done >= total:
                    break
                view = last[table_id]
                if view["over"]:
                    continue
                action = _choose(view, rng)
                version = meter.time(PARTS[3], ops.version, table_id)
                meter.act(ops.act, table_id, 0, action, version)
                meter.actions["person"] += meter.on
                show(table_id)
                bots(table_id)
                done += 1
        wall = time.perf_counter() - wall0
        store.close()
    n = meter.actions["person"] + meter.actions["bot"]
    api = "one Table per table (after issue 23)" if ops.new else "Tables (before issue 23)"
    print(f"server: {api}")
    print(
        f"{args.game}: {args.tables} tables of one person and three heuristic bots on SQLite; "
        f"{meter.actions['person']} person's and {meter.actions['bot']} bots' actions timed "
        f"(after {args.warmup} of the person's), {wall:.1f} s"
    )
    print(f"{'per action':32s} {'CPU µs':>9s} {'wall µs':>9s}")
    total_cpu = 0.0
    for part in PARTS:
        cpu = 1e6 * meter.cpu[part] / n
        total_cpu += cpu
        print(f"  {part:30s} {cpu:9.0f} {1e6 * meter.wall[part] / n:9.0f}")
    print(f"  {'total':30s} {total_cpu:9.0f}")
    if meter.saves:
        size = meter.record_bytes / meter.saves / 1024
        print(f"records saved: {meter.saves}, {size:.0f} KiB on average")
    think = 1e6 * thinking[0] / max(1, meter.actions["bot"])
    print(f"the bots' thinking (apart, per bot action): {think:.0f} µs CPU")
    print(f"one core's worth: {1e6 / total_cpu:.0f} actions/s at most")


if __name__ == "__main__":
    main()
