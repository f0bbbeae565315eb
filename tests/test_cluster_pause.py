"""Stalled processes (SIGSTOP, then SIGCONT: a stalled VM, a long swap) among two
``cherki serve`` processes on one PostgreSQL behind Debian's nginx, as issue 41 found them:
eight tables of eight games, a person seated at each (two at some) beside bots, every
person connected through the proxy as a page is (a ping every 3 s, a new connection after
10 s without a word). The owner is paused, then the survivor that took its tables over,
in turn: short pauses (about the lease's time) and long ones (past it), some back to back
(the survivor stopped the moment the first process wakes, so that the woken process must
take back tables it held before its stop, which the other moved on meanwhile). After every
pause, every table moves again within the documented failover time; no person is ever sent
a state older than one they were sent before, on any of their connections; nothing anyone
was told is missing from the store; every table's log replays. Marked slow (about three
minutes and a half)."""

from __future__ import annotations

import os
import signal
import threading
import time
from dataclasses import dataclass

import httpx
import pytest
from cluster import Page, cluster_state, owner_of, serving, status_of, store_version
from nginx import nginx_proxy
from pg import postgres_server

from cherki.play.records import replay_hand
from cherki.server.cluster import FAILOVER_SECONDS
from cherki.server.store import Store

#: the games of the tables, and how many people sit at each (the rest are bots)
TABLES = (
    ("balik-satu", 4, 2),
    ("balik-lima-belas", 4, 1),
    ("ceki", 4, 1),
    ("cholek-tiga", 3, 2),
    ("gonggong", 4, 1),
    ("tantanan", 4, 1),
    ("ceken", 3, 1),
    ("chot", 4, 1),
)
#: the pauses in turn, each of the other process than the one before (the first: of the
#: owner of most tables): (seconds, whether it starts the moment the one before ends)
PAUSES = (
    (3.0, False),
    (7.5, False),
    (7.5, True),
    (3.0, False),
    (8.0, False),
    (3.0, True),
    (7.0, False),
    (7.5, True),
    (7.5, True),
    (3.0, False),
    (8.0, False),
    (7.5, True),
    (3.5, True),
    (7.5, False),
)


@dataclass
class Stop:
    """One pause of a process: SIGSTOP, ``seconds``, SIGCONT (in a thread of its own)."""

    pid: int
    seconds: float
    woke: float = 0.0

    def __post_init__(self) -> None:
        self.thread = threading.Thread(target=self._run, daemon=True)
        os.kill(self.pid, signal.SIGSTOP)
        self.thread.start()

    def _run(self) -> None:
        try:
            time.sleep(self.seconds)
        finally:
            os.kill(self.pid, signal.SIGCONT)
            self.woke = time.monotonic()

    def join(self) -> float:
        self.thread.join()
        return self.woke


#: the longest any table took to move again after a pause, in each run (printed)
SLOWEST: list[float] = [0.0]


def _moves(url: str, tables: list[str], pages: list[list[Page]], since: float, why: str) -> None:
    """Every table's committed version goes up within FAILOVER_SECONDS of ``since``."""
    games = dict(zip(tables, (game for game, _, _ in TABLES), strict=True))
    at = {t: store_version(url, t) for t in tables}
    waiting = set(tables)
    while waiting:
        for t, people in zip(tables, pages, strict=True):
            if t in waiting and (
                store_version(url, t) > at[t]
                or any(p.over for p in people)
                or status_of(url, t) == "finished"
            ):
                waiting.discard(t)
        if waiting and time.monotonic() - since > FAILOVER_SECONDS:
            raise AssertionError(
                f"{why}: tables {sorted((games[t], t, at[t]) for t in waiting)} (game, id, "
                f"version) did not move within {FAILOVER_SECONDS} s "
                f"of the pause's end:\n{cluster_state(url)}"
            )
        time.sleep(0.1)
    SLOWEST[0] = max(SLOWEST[0], time.monotonic() - since)


def _owns_most(url: str, tables: list[str], pids: list[int]) -> int:
    """The process (of ``pids``) that owns most of the tables."""
    owners = [owner_of(url, t) for t in tables]
    counts = {pid: sum(1 for o in owners if o and o[0].startswith(f"p{pid}x")) for pid in pids}
    return max(pids, key=lambda pid: counts[pid])


@pytest.mark.slow
def test_paused_owners_and_survivors_in_turn_leave_no_table_dead() -> None:
    with (
        postgres_server() as url,
        serving(url, 2) as procs,
        nginx_proxy(*(p.port for p in procs)) as proxy,
    ):
        base = f"ws://127.0.0.1:{proxy.port}"
        ids: list[str] = []
        pages: list[list[Page]] = []
        deadline = time.monotonic() + 900
        for game, count, people in TABLES:
            seats = [{"kind": "human"}] * people + [{"kind": "bot", "level": "heuristic"}] * (
                count - people
            )
            body = {"game": game, "seats": seats, "hands": 100, "bot_pace": 0.2, "pause": False}
            made = httpx.post(proxy.url + "/api/tables", json=body, timeout=30)
            assert made.status_code == 200, made.text
            ids.append(made.json()["table"])
            pages.append(
                [Page(base, made.json()["seats"][str(s)], deadline) for s in range(people)]
            )
        everyone = [p for people in pages for p in people]
        threads = [threading.Thread(target=p.run, daemon=True) for p in everyone]
        for t in threads:
            t.start()
        pids = [p.proc.pid for p in procs if p.proc is not None]
        try:
            _moves(url, ids, pages, time.monotonic(), "at the start")
            victim = _owns_most(url, ids, pids)
            stop: Stop | None = None
            for n, (seconds, at_once) in enumerate(PAUSES):
                if stop is not None and not at_once:
                    _moves(url, ids, pages, stop.join(), f"after pause {n - 1}")
                    time.sleep(1.0)  # the woken process settles; the tables go on
                    stop = None
                if stop is not None:  # back to back: the other stops as this one wakes
                    woke = stop.join()
                    stop = Stop(victim, seconds)
                    _moves(url, ids, pages, woke, f"after pause {n - 1}, during pause {n}")
                else:
                    stop = Stop(victim, seconds)
                victim = pids[1 - pids.index(victim)]
            assert stop is not None
            _moves(url, ids, pages, stop.join(), f"after pause {len(PAUSES) - 1}")
            time.sleep(2.0)
            _moves(url, ids, pages, time.monotonic(), "at the end")
        finally:
            for pid in pids:  # never leave a process stopped
                os.kill(pid, signal.SIGCONT)
            for p in everyone:
                p.stop = True
            for t in threads:
                t.join(timeout=30)
        refused = proxy.log().count('" 502 ')
        print(
            f"nginx 502s: {refused}; connections: {sum(p.connects for p in everyone)}; the "
            f"slowest table moved again {SLOWEST[0]:.1f} s after its pause's end"
        )
        for p in everyone:
            assert p.going_back == [], p.going_back
            assert p.acted >= 1
        store = Store(url)
        for table_id, seated in zip(ids, pages, strict=True):
            for p in seated:
                assert p.seen <= store_version(url, table_id)  # told only what was committed
            record = store.record(table_id)  # the log both owners wrote replays
            for index in range(len(record.hands)):
                replay_hand(record, index)
        store.close()
