"""A stalled process (SIGSTOP, then SIGCONT: a stalled VM, a long swap) among two
``cherki serve`` processes on one PostgreSQL behind Debian's nginx: after every pause,
short (under the lease's time) and long (past it), of the owner of a table and then of the
process that took it over, every table moves again within the documented failover time;
no person is ever sent a state older than one they were sent before; nothing anyone was
told is missing from the store; every table's log replays. Marked slow (about two
minutes)."""

from __future__ import annotations

import os
import signal
import threading
import time

import httpx
import pytest
from cluster import (
    Person,
    cluster_state,
    owner_of,
    pid_of,
    serving,
    status_of,
    store_version,
    table_body,
)
from nginx import nginx_proxy
from pg import postgres_server

from cherki.play.records import replay_hand
from cherki.server.cluster import FAILOVER_SECONDS
from cherki.server.store import Store

#: (seconds paused) in turn: short pauses stay within the lease, long ones pass it
PAUSES = (1.0, 5.0, 6.5, 1.5, 5.0, 7.0)
TABLES = 3


def _moves(url: str, tables: list[str], people: list[Person], since: float) -> None:
    """Every table's committed version goes up within FAILOVER_SECONDS of ``since``."""
    at = {t: store_version(url, t) for t in tables}
    waiting = set(tables)
    while waiting:
        for t, p in zip(tables, people, strict=True):
            if t in waiting and (
                store_version(url, t) > at[t] or p.over or status_of(url, t) == "finished"
            ):
                waiting.discard(t)
        if waiting and time.monotonic() - since > FAILOVER_SECONDS:
            raise AssertionError(
                f"tables {sorted(waiting)} did not move within {FAILOVER_SECONDS} s of the "
                f"pause's end:\n{cluster_state(url)}"
            )
        time.sleep(0.1)


@pytest.mark.slow
def test_a_paused_owner_and_then_a_paused_survivor_leave_no_table_dead() -> None:
    with (
        postgres_server() as url,
        serving(url, 2) as procs,
        nginx_proxy(*(p.port for p in procs)) as proxy,
    ):
        base = f"ws://127.0.0.1:{proxy.port}"
        tables = []
        for _ in range(TABLES):
            body = table_body(hands=100, bot_pace=0.2)
            made = httpx.post(proxy.url + "/api/tables", json=body, timeout=30)
            assert made.status_code == 200, made.text
            tables.append(made.json())
        ids = [t["table"] for t in tables]
        people = [Person(base, t["seats"]["0"], time.monotonic() + 600) for t in tables]
        threads = [threading.Thread(target=p.run, daemon=True) for p in people]
        for t in threads:
            t.start()
        try:
            _moves(url, ids, people, time.monotonic())
            for n, seconds in enumerate(PAUSES):
                lease = owner_of(url, ids[n % TABLES])
                pid = (
                    pid_of(lease[0]) if lease is not None else procs[n % 2].proc.pid  # type: ignore[union-attr]
                )
                os.kill(pid, signal.SIGSTOP)
                try:
                    time.sleep(seconds)
                finally:
                    os.kill(pid, signal.SIGCONT)
                _moves(url, ids, people, time.monotonic())
                time.sleep(1.0)  # the woken process settles; the tables go on meanwhile
            _moves(url, ids, people, time.monotonic())
        finally:
            for p in people:
                p.stop = True
            for t in threads:
                t.join(timeout=30)
        for p in people:
            assert p.going_back == [], p.going_back
            assert p.acted >= 1
        store = Store(url)
        for t, p in zip(ids, people, strict=True):
            assert p.seen <= store_version(url, t)  # told only what was committed
            record = store.record(t)  # the log both owners wrote replays
            for index in range(len(record.hands)):
                replay_hand(record, index)
        store.close()
