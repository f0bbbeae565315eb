"""Failover as the people see it, for both kinds of fault side by side: a process killed
(``kill -9``) and a process stopped and woken (SIGSTOP, then SIGCONT: a stalled VM, a long
swap), short (about the lease's time) and long (past it).

Two ``cherki serve`` processes on a throwaway PostgreSQL behind Debian's nginx running the
documented proxy part (``docs/deploy/cherki-proxy.conf``, as the tests run it: tests/pg.py,
tests/nginx.py); tables of different games, a person seated at each beside bots, every
person connected through nginx as the table's page is (a ping every 2 s, a new connection
after 5 s without a word, a hung handshake given up after 2.5 s: ``tests/cluster.Page``).
Each fault hits the process that owns most tables (a killed one is started again once its
tables are taken over). For each fault and each person at a table the stricken process
owned, the failover seen is the time from the fault to the first state newer than any that
person had before it.

Printed for each kind of fault: the faults, the failover seen by the people (median,
worst, and how many never saw one before the next fault), the takeovers' time (another
process holds the lease), nginx's 502 answers meanwhile, the states older than one already
sent (must be 0); at the end the actions checked (every table's log replays, and no person
was told of a version the store lacks). The anchor of the comparison is ``kill -9``: each
pause's median is also given as a ratio to the kill's, in the same run.

    uv run --group dev python benchmarks/bench_failover.py
    uv run --group dev python benchmarks/bench_failover.py --faults 10 --pauses 3,7.5
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from cluster import Page, Serving, owner_of, serving, status_of, store_version  # noqa: E402
from nginx import Proxy, nginx_proxy  # noqa: E402
from pg import postgres_server  # noqa: E402

from cherki.play.records import replay_hand  # noqa: E402
from cherki.server.store import Store  # noqa: E402

#: the games of the tables, their seats, and the people seated (the rest are bots)
GAMES = (
    ("balik-satu", 4, 1),
    ("balik-lima-belas", 4, 1),
    ("ceki", 4, 1),
    ("cholek-tiga", 3, 1),
    ("gonggong", 4, 1),
    ("tantanan", 4, 1),
    ("ceken", 3, 1),
    ("chot", 4, 1),
)
#: seconds a fault's tables have to move again before it counts as never seen
WAIT = 30.0
#: ``--before``: the nginx settings documented before they were measured (issue 41): the
#: upstream's server options, and the proxy part's WebSocket location without any retry
#: or timeout of its own
BEFORE_UPSTREAM = """upstream cherki {
    server 127.0.0.1:8001 max_fails=1 fail_timeout=2s;
    keepalive 8;
}
"""
BEFORE_PROXY = """location /ws/ {
    proxy_pass http://cherki;
    proxy_http_version 1.1;
    proxy_set_header Upgrade $http_upgrade;
    proxy_set_header Connection "upgrade";
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_read_timeout 1h;
    proxy_send_timeout 1h;
    proxy_buffering off;
}
location / {
    proxy_pass http://cherki;
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_read_timeout 60s;
    client_max_body_size 2m;
}
"""


@dataclass
class Kind:
    """The figures of one kind of fault."""

    name: str
    seen: list[float] = field(default_factory=list)
    never: int = 0
    takeovers: list[float] = field(default_factory=list)
    refused: int = 0
    faults: int = 0


@dataclass
class Totals:
    """What the whole run checked."""

    tables: int = 0
    actions: int = 0
    acted: int = 0
    missing: int = 0
    older: int = 0


def _502s(proxy: Proxy) -> int:
    return int(proxy.log().count('" 502 '))


def _owners(url: str, tables: list[str]) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for t in tables:
        lease = owner_of(url, t)
        out[t] = None if lease is None else lease[0]
    return out


def _victim(procs: list[Serving], owners: dict[str, str | None]) -> Serving:
    """The process that owns most tables."""

    def count(p: Serving) -> int:
        assert p.proc is not None
        return sum(1 for o in owners.values() if o and o.startswith(f"p{p.proc.pid}x"))

    return max(procs, key=count)


def _fault(
    kind: str, seconds: float, url: str, procs: list[Serving], tables: list[str],
    pages: dict[str, list[Page]], figures: Kind,
) -> None:  # fmt: skip
    owners = _owners(url, tables)
    victim = _victim(procs, owners)
    assert victim.proc is not None
    pid = victim.proc.pid
    struck = [t for t, o in owners.items() if o and o.startswith(f"p{pid}x")]
    before = {id(p): p.seen for t in struck for p in pages[t]}
    at = time.monotonic()
    if kind == "kill":
        victim.kill()
    else:
        os.kill(pid, signal.SIGSTOP)
    taken: dict[str, float] = {}
    woke = None
    while True:
        now = time.monotonic()
        if kind == "pause" and woke is None and now - at >= seconds:
            os.kill(pid, signal.SIGCONT)
            woke = now
        for t in struck:
            if t not in taken:
                lease = owner_of(url, t)
                if lease is not None and not lease[0].startswith(f"p{pid}x"):
                    taken[t] = now - at
        people = [p for t in struck for p in pages[t]]
        moved = all(p.seen > before[id(p)] or p.over for p in people)
        if (moved and (kind == "kill" or woke is not None)) or now - at > WAIT + seconds:
            break
        time.sleep(0.05)
    if kind == "pause" and woke is None:
        os.kill(pid, signal.SIGCONT)
    if kind == "kill":
        victim.start()  # one in its place, as a supervisor does
    figures.faults += 1
    figures.takeovers += list(taken.values())
    for t in struck:
        if status_of(url, t) == "finished":
            continue
        for p in pages[t]:
            later = [when for when, v in p.states if when > at and v > before[id(p)]]
            if later:
                figures.seen.append(later[0] - at)
            elif not p.over:
                figures.never += 1
    time.sleep(2.0)  # the woken (or new) process settles; the tables go on


def _row(k: Kind, anchor: float | None) -> str:
    seen = sorted(k.seen)
    med = statistics.median(seen) if seen else float("nan")
    ratio = f"{med / anchor:5.2f}x" if anchor else "  1.00x" if seen else "      -"
    took = sorted(k.takeovers)
    return (
        f"{k.name:<12} {k.faults:6d} {med:8.2f} s {seen[-1] if seen else float('nan'):7.2f} s"
        f" {ratio:>7} {len(seen):5d} {k.never:6d}  "
        f"{statistics.median(took) if took else float('nan'):6.2f} s {k.refused:6d}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--faults", type=int, default=6, help="faults of each kind")
    parser.add_argument(
        "--pauses", default="3,7.5", help="comma-separated seconds of the pauses' kinds"
    )
    parser.add_argument(
        "--before",
        action="store_true",
        help="nginx with the settings documented before they were measured (the 502s' "
        "anchor), not docs/deploy's",
    )
    args = parser.parse_args()
    pauses = [float(x) for x in args.pauses.split(",")]
    kinds = [("kill", 0.0, Kind("kill -9"))] + [
        ("pause", s, Kind(f"pause {s:g} s")) for s in pauses
    ]
    confs = {}
    with tempfile.TemporaryDirectory(prefix="cherki-bench-nginx-") as tmp:
        if args.before:
            for name, text in (("upstream", BEFORE_UPSTREAM), ("proxy", BEFORE_PROXY)):
                path = Path(tmp) / f"{name}.conf"
                path.write_text(text, encoding="utf-8")
                confs[f"{name}_conf"] = path
        totals = Totals()
        run(args, kinds, confs, totals)
    print_figures(kinds, totals, args)


def run(
    args: argparse.Namespace,
    kinds: list[tuple[str, float, Kind]],
    confs: dict[str, Path],
    totals: Totals,
) -> None:
    with (
        postgres_server() as url,
        serving(url, 2) as procs,
        nginx_proxy(*(p.port for p in procs), **confs) as proxy,
    ):
        base = f"ws://127.0.0.1:{proxy.port}"
        deadline = time.monotonic() + 3600
        tables: list[str] = []
        pages: dict[str, list[Page]] = {}
        for game, count, people in GAMES:
            seats = [{"kind": "human"}] * people
            seats += [{"kind": "bot", "level": "heuristic"}] * (count - people)
            body = {"game": game, "seats": seats, "hands": 100, "bot_pace": 0.2, "pause": False}
            made = httpx.post(proxy.url + "/api/tables", json=body, timeout=30).json()
            tables.append(made["table"])
            pages[made["table"]] = [
                Page(base, made["seats"][str(s)], deadline) for s in range(people)
            ]
        everyone = [p for ps in pages.values() for p in ps]
        threads = [threading.Thread(target=p.run, daemon=True) for p in everyone]
        for t in threads:
            t.start()
        time.sleep(5.0)
        try:
            # the kinds in turn, so that each meets the same load and the same tables' ages
            for _ in range(args.faults):
                for kind, seconds, figures in kinds:
                    refused = _502s(proxy)
                    _fault(kind, seconds, url, procs, tables, pages, figures)
                    figures.refused += _502s(proxy) - refused
                    print(
                        f"{figures.name}: {figures.faults} done "
                        f"(seen {figures.seen[-3:] and [round(s, 2) for s in figures.seen[-3:]]})",
                        flush=True,
                    )
        finally:
            for p in procs:
                if p.proc is not None and p.proc.poll() is None:
                    os.kill(p.proc.pid, signal.SIGCONT)
            for p in everyone:
                p.stop = True
            for t in threads:
                t.join(timeout=30)
        totals.older = sum(len(p.going_back) for p in everyone)
        totals.acted = sum(p.acted for p in everyone)
        totals.tables = len(tables)
        store = Store(url)
        for table in tables:
            version = store_version(url, table)
            totals.actions += version
            totals.missing += sum(1 for p in pages[table] if p.seen > version)
            record = store.record(table)
            for index in range(len(record.hands)):
                replay_hand(record, index)
        store.close()


def print_figures(
    kinds: list[tuple[str, float, Kind]], totals: Totals, args: argparse.Namespace
) -> None:
    load = os.getloadavg()
    settings = "as documented before (--before)" if args.before else "docs/deploy's"
    print(f"\nfailover seen by people: two processes behind nginx ({settings} settings), "
          f"{totals.tables} tables")  # fmt: skip
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    print(
        f"{'fault':<12} {'faults':>6} {'median':>10} {'worst':>9} {'ratio':>7} {'seen':>5} "
        f"{'never':>6}  {'takeover':>8} {'502s':>6}"
    )
    anchor = statistics.median(kinds[0][2].seen) if kinds[0][2].seen else None
    for i, (_, _, figures) in enumerate(kinds):
        print(_row(figures, None if i == 0 else anchor))
    print(
        f"actions checked (every table's log replayed): {totals.actions}; the people's "
        f"actions: {totals.acted}; states told that the store lacks: {totals.missing}; "
        f"older states sent: {totals.older}"
    )


if __name__ == "__main__":
    main()
