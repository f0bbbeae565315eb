"""A process stopped (SIGSTOP) past its leases and then woken, step by step in one test
process: two servers on one throwaway PostgreSQL, their beats run by hand. A woken process
looks at its leases before it serves anyone (it never hands out the table as it held it
before the stop), and a process that takes a table over again loads it afresh (never the
copy it still held from an earlier lease, behind what the other process stored since)."""

from __future__ import annotations

import time

import pytest
from aio import run_fresh
from cluster import owner_of, store_version
from pg import postgres_server
from sqlalchemy import text

from cherki.server.cluster import Elsewhere
from cherki.server.limits import Limits
from cherki.server.service import Server
from cherki.server.settings import SeatPlan
from cherki.server.store import Store
from cherki.server.tables import Table


async def _nothing(scope: object, receive: object, send: object) -> None:
    return None


def _expire(store: Store) -> None:
    """Every lease runs out (its owner was stopped past it)."""
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE leases SET expires = now() - interval '1 second'"))


def _act(table: Table) -> None:
    s = table.session
    assert s.state is not None and s.to_act is not None
    table._act(s.to_act, s.state.legal_actions()[0], table.version)


def _four_people() -> list[SeatPlan]:
    return [SeatPlan("human")] * 4


def test_a_table_taken_over_again_is_loaded_afresh() -> None:
    async def run(url: str) -> None:
        a, b = Server(Store(url)), Server(Store(url))
        assert a.cluster is not None and b.cluster is not None
        try:
            table_id, _, _ = a.tables.create("balik-satu", None, {}, _four_people())
            stale = a.tables.live[table_id]
            _act(stale)
            _expire(a.store)  # a is stopped; b takes the table and plays on
            taken = b.tables.table(table_id)
            _act(taken)
            _act(taken)
            assert store_version(url, table_id) == 3
            _expire(b.store)  # b is stopped in turn; a takes the table back (its beat)
            with a.store.engine.begin() as conn:
                epoch = conn.execute(
                    text(
                        "UPDATE leases SET owner = :me, epoch = epoch + 1, "
                        "expires = now() + interval '3 seconds' RETURNING epoch"
                    ),
                    {"me": a.cluster.id},
                ).scalar_one()
            a.cluster.held[table_id] = (int(epoch), time.monotonic())
            await a.adopt(table_id)
            fresh = a.tables.live[table_id]
            assert fresh is not stale and stale.gone
            assert fresh.version == 3  # what b stored, not the 1 a held before
            _act(fresh)  # and it plays on from there (its write is not refused)
            assert store_version(url, table_id) == 4
        finally:
            a.store.close()
            b.store.close()

    with postgres_server() as url:
        run_fresh(run(url))


def test_a_woken_process_looks_at_its_leases_before_serving_a_table() -> None:
    async def run(url: str) -> None:
        a, b = Server(Store(url)), Server(Store(url))
        assert a.cluster is not None and b.cluster is not None
        await a.cluster.start(_nothing, Limits())
        try:
            table_id, _, _ = a.tables.create("balik-satu", None, {}, _four_people())
            stale = a.tables.live[table_id]
            _act(stale)
            # a is stopped past its leases: b takes the table and plays on
            for task in a.cluster._tasks:
                task.cancel()
            _expire(a.store)
            taken = b.tables.table(table_id)
            _act(taken)
            a.cluster.confirmed -= 10.0  # a wakes: its clock ran on while it was stopped
            with pytest.raises(Elsewhere) as away:
                await a.find(table_id)  # never the copy it held before the stop
            assert away.value.owner == b.cluster.id
            assert stale.gone and table_id not in a.tables.live
            assert owner_of(url, table_id) == (b.cluster.id, 2)
        finally:
            await a.cluster.stop()
            a.store.close()
            b.store.close()

    with postgres_server() as url:
        run_fresh(run(url))
