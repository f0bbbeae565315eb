"""How many tables one ``cherki serve`` process holds: simulated people over real WebSockets.

Starts ``cherki serve`` as a process on 127.0.0.1 (on a fresh SQLite file, or on a throwaway
PostgreSQL server started as the tests start theirs), then ramps up tables of four people
each. Every person answers its turn after a think time of 0.5–2 s with a legal action (it
goes out when it can, draws rather than takes, else plays one of its legal actions at
random) and times the round trip: from sending its action to receiving its own update (a
state whose version is past the one it acted on). At each step the tables play for a while
and the script prints the 50th/99th percentile round trip, the actions per second, and the
server's CPU (share of one core) and resident memory; it stops at the first step whose p99
is 100 ms or more (or at ``--max``) and reports the most tables held under 100 ms.

    uv run --group dev python benchmarks/bench_server.py                      # SQLite
    uv run --group dev python benchmarks/bench_server.py --database postgresql
    uv run --group dev python benchmarks/bench_server.py --steps 50,100,200 --hold 20
    uv run --group dev python benchmarks/bench_server.py --processes 1,2 --kills 20
    uv run --group dev python benchmarks/bench_server.py --steps 25,50 --reviews 4
    uv run --group dev python benchmarks/bench_server.py --pin --steps 300,400,500

``--reviews N`` keeps N reviews of a hand (``cherki.server.review``) running in the server
through the ramp, each of a finished one-hand table of its own, from an address of its own
(the server started with ``--limit reviews=N``); the rows add the reviews finished.

Each person pings as the table's page does (``--ping``: after 2 s without a word from the
server, and every 20 s at least; ``--ping 0``: never, as the figures before 2026-11-29 were
measured).

``--bots learned --every 10`` makes every tenth table one of a person and three bots of
that level (the person's round trips are timed as the others'; the bots play at the pace
new tables have).

``--processes 1,2`` runs the ramp once per count, each on a fresh throwaway PostgreSQL with
that many ``cherki serve`` processes on it (docs/deploy.md): each table is made through one
process (in turn) and each of its people connects to one in turn too, as a proxy spreads
them, so a person is as often served through another process (forwarded to the owner of
the table, :mod:`cherki.server.cluster`) as directly. The servers' CPU is the sum of the
processes', the database's that of the PostgreSQL server's processes. ``--direct``
connects each person to the process that owns the table instead (nothing forwarded: the
cost of forwarding, side by side). ``--kills N`` then measures failover on two processes:
N times, the owner of a table in play is killed (SIGKILL) and the time until another
process holds the table's lease is taken (then the killed process is started again); it
prints the median and the worst.

The people run in this process (asyncio on uvloop, one connection each, reading messages
with orjson) beside the server on the same machine: the figures are a lower bound on what
the server alone could hold. **The people's own garbage collector is off while a step is
measured** and collects between steps: with 2,000 people it paused their event loop for up
to 120 ms (young generation) and 414 ms (oldest) at a time, and every pause was inside the
round trips they timed (500 tables, 2026-11-30: p99 526 ms with it on, 11.1 ms with it
off, the server's CPU alike). ``--people-gc`` keeps it on, as the figures before
2026-11-30 were measured; the row gives the people's resident memory either way.

``--pin`` gives the server processes one CPU of their own and
the people and the database the others (as a server has its machine to itself): on a
machine of two CPUs, without it the two processes' work lands on each other's CPU and
the round trips' tail grows with it, at the same CPU per action.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
import orjson
import websockets

ROOT = Path(__file__).resolve().parent.parent
SEATS = 4
_T = TypeVar("_T")
#: the server's command (``$BENCH_SERVER`` may name another, e.g. one under a profiler)
SERVE = os.environ.get("BENCH_SERVER", f"{sys.executable} -m cherki serve").split()


@dataclass
class Figures:
    rtts: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    actions: int = 0
    #: per person (its URL): when (``time.perf_counter``) its action now waiting for an
    #: answer was sent
    waiting: dict[str, float] = field(default_factory=dict)
    #: (sent, answered) of each action answered, when asked for (the attacks' target table)
    answers: list[tuple[float, float]] | None = None
    #: how late this process's event loop woke from a 10 ms sleep (seconds): the part of a
    #: round trip that is the people's own delay, not the server's
    lags: list[float] = field(default_factory=list)


async def watch_lag(figures: Figures) -> None:
    """Measure this process's event loop lag, until cancelled."""
    while True:
        t0 = time.perf_counter()
        await asyncio.sleep(0.01)
        figures.lags.append(time.perf_counter() - t0 - 0.01)


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def _database(kind: str) -> Iterator[str]:
    if kind == "sqlite":
        with tempfile.TemporaryDirectory(prefix="cherki-bench-") as tmp:
            yield f"sqlite:///{tmp}/bench.db"
        return
    sys.path.insert(0, str(ROOT / "tests"))
    from pg import postgres_server  # the tests' throwaway server (Debian's PostgreSQL)

    with postgres_server() as url:
        yield url


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cpus(pids: list[int]) -> float:
    total = 0.0
    for p in pids:
        with contextlib.suppress(OSError):  # a database backend may have ended
            total += _cpu_seconds(p)
    return total


def _database_cpu(url: str) -> float:
    """CPU seconds the throwaway PostgreSQL has used so far: its postmaster (found by its
    port), with the time of its children that have ended (``cutime``/``cstime``, the
    kernel adds a child's time to its parent when the parent reaps it), plus its children
    alive now. Read afresh each time, so a backend that ends between two readings moves
    its time from the children to the postmaster's count and the difference of two
    readings never goes negative; 0 for SQLite (it runs inside the server)."""
    if not url.startswith("postgresql"):
        return 0.0
    port = url.rsplit(":", 1)[1].split("/", 1)[0]
    tick = os.sysconf("SC_CLK_TCK")
    procs: dict[int, tuple[int, str, list[str]]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            procs[int(entry.name)] = (int(stat[1]), cmd, stat)
    main = [p for p, (_, cmd, _) in procs.items() if "postgres" in cmd and f"-p {port}" in cmd]
    total = 0
    for p, (parent, _, stat) in procs.items():
        if p in main:
            total += sum(int(stat[i]) for i in (11, 12, 13, 14))
        elif parent in main:
            total += int(stat[11]) + int(stat[12])
    return total / tick


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _choose(msg: dict[str, Any], rng: random.Random) -> int:
    legal = msg["observation"]["legal"]
    texts = {a["text"]: a["id"] for a in legal}
    for word in ("sampei", "draw"):
        if word in texts:
            return int(texts[word])
    choices = [a["id"] for a in legal if a["text"] != "take"] or [a["id"] for a in legal]
    return int(rng.choice(choices))


def family_address(index: int) -> str:
    """The loopback address the ``index``-th table's people come from (127.0.X.Y: Linux
    routes all of 127.0.0.0/8 to this machine): each table is a family of its own, as on a
    real server, so the server's limits per address apply to them as to anyone."""
    return f"127.0.{1 + index // 250}.{1 + index % 250}"


_tables_opened = itertools.count()


@dataclass
class Pinging:
    """How the people ping (``--ping``), as the table's page does (static/table.js): a
    socket that has said nothing for ``every`` seconds is pinged (every ``every`` seconds
    while it stays quiet), and every socket at least every ``keep`` seconds; each ping is
    answered by a pong."""

    every: float = 2.0
    keep: float = 20.0


PINGING = Pinging()
PING = json.dumps({"type": "ping"})


async def _pinger(ws: Any, heard: list[float], rng: random.Random) -> None:
    """Ping as the page does (:class:`Pinging`); ``heard[0]``: when the server last said
    anything (``time.monotonic``). The first ping waits a random part of ``keep``, so that
    the people's pings are spread."""
    every, keep = PINGING.every, PINGING.keep
    pinged = time.monotonic() - rng.uniform(0, keep)
    with contextlib.suppress(Exception):
        while True:
            now = time.monotonic()
            due = max(pinged + every, min(heard[0] + every, pinged + keep))
            if now < due:
                await asyncio.sleep(due - now)
                continue
            await ws.send(PING)
            pinged = now


async def person(
    url: str, seat: int, figures: Figures, rng: random.Random, address: str = "127.0.0.1"
) -> None:
    """One person at a table: plays every turn after thinking, until the match ends or the
    benchmark stops it; pings as the page does meanwhile."""
    acted: int | None = None
    sent = 0.0
    pinger: asyncio.Task[None] | None = None
    heard = [time.monotonic()]
    try:
        async with websockets.connect(url, max_size=2**23, local_addr=(address, 0)) as ws:
            if PINGING.every > 0:
                rand = random.Random(rng.getrandbits(32))
                pinger = asyncio.create_task(_pinger(ws, heard, rand))
            async for raw in ws:
                heard[0] = time.monotonic()
                msg = orjson.loads(raw)  # less of the machine than json: more for the server
                if msg["type"] == "error":
                    figures.errors.append(msg["message"])
                    acted = None
                    continue
                if msg["type"] != "state":
                    continue
                if acted is not None and msg["version"] > acted:
                    now = time.perf_counter()
                    figures.rtts.append(now - sent)
                    figures.actions += 1
                    figures.waiting.pop(url, None)
                    if figures.answers is not None:
                        figures.answers.append((sent, now))
                    acted = None
                if msg["over"]:
                    return
                obs = msg["observation"]
                if acted is None and obs is not None and obs["current"] == seat and obs["legal"]:
                    await asyncio.sleep(rng.uniform(0.5, 2.0))
                    action = _choose(msg, rng)
                    acted = msg["version"]
                    sent = time.perf_counter()
                    figures.waiting[url] = sent
                    await ws.send(json.dumps({"type": "act", "action": action, "version": acted}))
    finally:
        figures.waiting.pop(url, None)
        if pinger is not None:
            pinger.cancel()


async def open_table(
    client: httpx.AsyncClient,
    port: int,
    figures: Figures,
    rng: random.Random,
    game: str,
    ports: list[int] | None = None,
    direct: bool = False,
    tokens: list[str] | None = None,
    bots: str | None = None,
) -> tuple[str, list[asyncio.Task[None]]]:
    """A table of four people, each playing in a task of its own: its id and the tasks. The
    family creates the table and connects from an address of its own
    (:func:`family_address`); ``client`` is not used (kept for callers). ``tokens``, if
    given, gets the seats' tokens. ``bots``: a bot level (``learned``) that plays seats
    1–3, the person seat 0 (the bots at the pace new tables have)."""
    index = next(_tables_opened)
    address = family_address(index)
    ports = ports or [port]
    port = ports[index % len(ports)]
    transport = httpx.AsyncHTTPTransport(local_address=address)
    # hands one after another, as before the pause after a hand (a simulated person
    # never presses "next hand")
    seats: list[dict[str, str]] = [{"kind": "human"}] * SEATS
    if bots is not None:
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": bots}] * (SEATS - 1)
    body = {"game": game, "seats": seats, "hands": 100, "pause": False}
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", transport=transport, timeout=60
    ) as own:
        made = (await own.post("/api/tables", json=body)).raise_for_status().json()
        for seat, token in made["seats"].items():
            await own.post("/api/seats", json={"token": token, "name": f"P{seat}"})
    if tokens is not None:
        tokens += made["seats"].values()
    tasks = []
    for seat, token in made["seats"].items():
        at = port if direct else ports[(index + int(seat)) % len(ports)]
        url = f"ws://127.0.0.1:{at}/ws/seat/{token}"
        r = random.Random(rng.getrandbits(32))
        tasks.append(asyncio.create_task(person(url, int(seat), figures, r, address)))
    return made["table"], tasks


def _quantile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


async def ramp(
    args: argparse.Namespace, ports: list[int], pids: list[int], url: str = ""
) -> list[dict[str, Any]]:
    """The ramp's rows, the people's garbage collector off meanwhile (unless
    ``--people-gc``): :func:`_ramp` collects between steps, outside what is measured."""
    collecting = gc.isenabled()
    if not args.people_gc:
        gc.disable()
    try:
        return await _ramp(args, ports, pids, url)
    finally:
        if collecting:
            gc.enable()


async def _ramp(
    args: argparse.Namespace, ports: list[int], pids: list[int], url: str
) -> list[dict[str, Any]]:
    port = ports[0]
    rng = random.Random(args.seed)
    figures = Figures()
    tasks: list[asyncio.Task[None]] = []
    lag = asyncio.create_task(watch_lag(figures))
    rows: list[dict[str, Any]] = []
    reviewed: list[float] = []
    if args.reviews:  # reviews running beside the tables (bench_review.review_load)
        from bench_review import review_load

        tasks.append(asyncio.create_task(review_load(port, args.reviews, reviewed)))
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", timeout=60, limits=limits
    ) as client:
        opened = 0
        for target in args.steps:
            while opened < target:
                bots = args.bots if opened % args.every == 0 else None
                made = await open_table(
                    client, port, figures, rng, args.game, ports, args.direct, bots=bots
                )
                tasks += made[1]
                opened += 1
            if not args.people_gc:  # the people's garbage, collected outside the measuring
                gc.collect()
            await asyncio.sleep(args.warmup)
            figures.rtts.clear()
            figures.lags.clear()
            figures.actions = 0
            errors_before = len(figures.errors)
            cpu0, t0, own0 = _cpus(pids), time.monotonic(), _own_cpu()
            db0 = _database_cpu(url)
            await asyncio.sleep(args.hold)
            cpu1, t1, own1 = _cpus(pids), time.monotonic(), _own_cpu()
            db1 = _database_cpu(url)
            rtts = list(figures.rtts)
            row = {
                "tables": target,
                "connections": len([t for t in tasks if not t.done()]),
                "actions_per_s": round(len(rtts) / (t1 - t0), 1),
                "p50_ms": round(1000 * _quantile(rtts, 0.50), 1),
                "p99_ms": round(1000 * _quantile(rtts, 0.99), 1),
                "max_ms": round(1000 * max(rtts, default=float("nan")), 1),
                "server_cpu_pct": round(100 * (cpu1 - cpu0) / (t1 - t0), 1),
                "database_cpu_pct": round(100 * (db1 - db0) / (t1 - t0), 1),
                "server_rss_mib": round(sum(_rss_mib(p) for p in pids), 1),
                "people_cpu_pct": round(100 * (own1 - own0) / (t1 - t0), 1),
                "people_lag_p99_ms": round(1000 * _quantile(list(figures.lags), 0.99), 1),
                "people_rss_mib": round(_rss_mib(os.getpid()), 1),
                "errors": len(figures.errors) - errors_before,
                "reviews_done": len(reviewed),
            }
            rows.append(row)
            print(
                f"{row['tables']:5d} tables  {row['actions_per_s']:7.1f} actions/s  "
                f"p50 {row['p50_ms']:6.1f} ms  p99 {row['p99_ms']:7.1f} ms  "
                f"max {row['max_ms']:7.1f} ms  server CPU {row['server_cpu_pct']:5.1f}%  "
                f"database CPU {row['database_cpu_pct']:5.1f}%  "
                f"RSS {row['server_rss_mib']:6.1f} MiB  "
                f"people's CPU {row['people_cpu_pct']:5.1f}% (lag p99 "
                f"{row['people_lag_p99_ms']:.0f} ms, RSS {row['people_rss_mib']:.0f} MiB)  "
                f"errors {row['errors']}"
                + (f"  reviews done {len(reviewed)}" if args.reviews else ""),
                flush=True,
            )
            if not row["p99_ms"] < args.p99:
                break
    lag.cancel()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if figures.errors:
        print(f"errors: {sorted(set(figures.errors))[:5]}")
    return rows


def raise_file_limit() -> None:
    """As many open files as this process may have (a socket is one)."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


#: with ``--pin``: the CPUs the servers run on (the people and the database keep the rest)
SERVER_CPUS: set[int] | None = None


def pin(share: int = 1) -> None:
    """``--pin``: ``share`` of this machine's CPUs for the ``cherki serve`` processes, the
    others for the simulated people (this process) and the database's processes (started
    from it), so that the people's own work never takes the server's CPU (refused on a
    machine with one CPU)."""
    global SERVER_CPUS
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) <= share:
        raise SystemExit(f"--pin needs more than {share} CPU(s) here; this machine has {len(cpus)}")
    SERVER_CPUS = set(cpus[:share])
    os.sched_setaffinity(0, set(cpus[share:]))


def _pinned() -> None:  # in the server's process, before it runs cherki
    if SERVER_CPUS is not None:
        os.sched_setaffinity(0, SERVER_CPUS)


def _start(url: str) -> tuple[int, subprocess.Popen[bytes]]:
    port = _port()
    server = subprocess.Popen(
        [*SERVE, "--port", str(port), "--database-url", url],
        stdout=subprocess.DEVNULL,
        preexec_fn=_pinned if SERVER_CPUS is not None else None,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"cherki serve ended at once (exit status {server.returncode})")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).is_success:
                break
        except httpx.HTTPError:
            time.sleep(0.2)
    return port, server


def _end(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


@contextlib.contextmanager
def serving(database: str) -> Iterator[tuple[int, int]]:
    """``cherki serve`` on 127.0.0.1 on a fresh database of that kind, until the block
    ends: its port and process id (bench_attack.py's harness)."""
    with serving_many(database, 1) as (ports, pids, _):
        yield ports[0], pids[0]


@contextlib.contextmanager
def serving_many(database: str, processes: int) -> Iterator[tuple[list[int], list[int], str]]:
    """``processes`` ``cherki serve`` processes on 127.0.0.1 on a fresh database of that
    kind, until the block ends: their ports, their process ids and the database's URL."""
    with _database(database) as url:
        started: list[tuple[int, subprocess.Popen[bytes]]] = []
        try:
            for _ in range(processes):
                started.append(_start(url))
            yield [p for p, _ in started], [s.pid for _, s in started], url
        finally:
            for _, server in started:
                _end(server)


def _lease(url: str, table_id: str) -> tuple[str, int] | None:
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            row = conn.execute(
                text("SELECT owner, epoch FROM leases WHERE table_id = :t AND expires > now()"),
                {"t": table_id},
            ).first()
    finally:
        engine.dispose()
    return None if row is None else (str(row[0]), int(row[1]))


async def failover(args: argparse.Namespace) -> list[float]:
    """Kill the owner of a table in play ``args.kills`` times (two processes); the seconds
    until another process holds its lease, each time."""
    rng = random.Random(args.seed)
    figures = Figures()
    took: list[float] = []
    with _database("postgresql") as url:
        procs = [_start(url) for _ in range(2)]
        try:
            ports = [p for p, _ in procs]
            tables: list[str] = []
            tasks: list[asyncio.Task[None]] = []
            async with httpx.AsyncClient(timeout=60) as client:
                for _ in range(args.failover_tables):
                    table_id, more = await open_table(
                        client, ports[0], figures, rng, args.game, ports
                    )
                    tables.append(table_id)
                    tasks += more
            await asyncio.sleep(2.0)
            for _ in range(args.kills):
                await asyncio.sleep(rng.uniform(0.5, 2.0))
                table_id = rng.choice(tables)
                lease = await asyncio.to_thread(_lease, url, table_id)
                if lease is None:
                    continue
                pid = int(lease[0][1:].split("x", 1)[0])
                which = next(i for i, (_, s) in enumerate(procs) if s.pid == pid)
                procs[which][1].kill()
                killed = time.monotonic()
                procs[which][1].wait()
                while True:
                    now = await asyncio.to_thread(_lease, url, table_id)
                    if now is not None and now[0] != lease[0]:
                        break
                    if time.monotonic() - killed > 60:
                        raise SystemExit(f"table {table_id} was not taken over in 60 s")
                    await asyncio.sleep(0.02)
                took.append(time.monotonic() - killed)
                print(f"kill {len(took):3d}: taken over in {took[-1]:.2f} s", flush=True)
                procs[which] = await asyncio.to_thread(_start, url)  # one in its place
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            for _, server in procs:
                _end(server)
    return took


def _run(work: Coroutine[Any, Any, _T]) -> _T:
    """Run the simulated people on uvloop (the event loop ``cherki serve`` runs on, a
    dependency of uvicorn's): they take less of the machine the server shares with them."""
    import uvloop

    return uvloop.run(work)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--game", default="balik-satu")
    parser.add_argument("--steps", default="25,50,100,200,300,400,500,600,800")
    parser.add_argument("--warmup", type=float, default=6.0, help="seconds before measuring")
    parser.add_argument("--hold", type=float, default=20.0, help="seconds measured a step")
    parser.add_argument("--p99", type=float, default=100.0, help="the p99 bound in ms")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--ping",
        type=float,
        default=PINGING.every,
        help="seconds between each person's pings, as the page's (0: none, as before 2026-11-29)",
    )
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument(
        "--processes",
        default=None,
        help="comma-separated counts of cherki serve processes on one PostgreSQL, each "
        "count a ramp of its own (e.g. 1,2)",
    )
    parser.add_argument(
        "--direct",
        action="store_true",
        help="with several processes, each person connects to the process that made (and "
        "owns) the table: nothing forwarded",
    )
    parser.add_argument("--kills", type=int, default=0, help="failovers to time (two processes)")
    parser.add_argument(
        "--failover-tables", type=int, default=20, help="tables in play while killing"
    )
    parser.add_argument(
        "--bots",
        help="a bot level (e.g. learned) that plays three seats of every --every'th table, "
        "beside its one person",
    )
    parser.add_argument("--every", type=int, default=10, help="with --bots: every Nth table")
    parser.add_argument(
        "--pin",
        action="store_true",
        help="run the cherki serve processes on one CPU of their own, the people and the "
        "database on the others (Linux)",
    )
    parser.add_argument(
        "--people-gc",
        action="store_true",
        help="keep the people's garbage collector on while a step is measured (its pauses "
        "then count in their round trips, as before 2026-11-30)",
    )
    parser.add_argument(
        "--reviews",
        type=int,
        default=0,
        help="keep this many hand reviews running in the server meanwhile (each of a "
        "finished one-hand table of its own, benchmarks/bench_review.py)",
    )
    args = parser.parse_args()
    if args.bots and args.every < 1:
        parser.error("--every is a count of tables, 1 or more")
    if not 0 <= args.ping < 3600:
        parser.error("--ping is seconds between pings, 0 (none) to under an hour")
    PINGING.every = args.ping
    if args.reviews:
        SERVE.extend(["--limit", f"reviews={args.reviews}", "--limit", "review_seconds=100000"])
    args.steps = [int(x) for x in args.steps.split(",")]
    counts = [int(x) for x in args.processes.split(",")] if args.processes else [1]
    if args.processes:
        args.database = "postgresql"  # several processes share PostgreSQL; 1 on it too, to compare
    raise_file_limit()
    if args.pin:
        pin()
    results = []
    for count in counts:
        with serving_many(args.database, count) as (ports, pids, url):
            print(
                f"{count} cherki serve process(es) on {args.database}, {SEATS} people a "
                "table, think 0.5–2 s"
                + (
                    f"; servers on CPU {sorted(SERVER_CPUS)}, people and database on CPU "
                    f"{sorted(os.sched_getaffinity(0))}"
                    if SERVER_CPUS is not None
                    else ""
                )
            )
            rows = _run(ramp(args, ports, pids, url))
        held = [r for r in rows if r["p99_ms"] < args.p99]
        best = held[-1] if held else None
        if best:
            print(
                f"{count} process(es): most tables held with p99 < {args.p99:g} ms: "
                f"{best['tables']} (servers' CPU {best['server_cpu_pct']}%, people's CPU "
                f"{best['people_cpu_pct']}%, RSS {best['server_rss_mib']} MiB)"
            )
        else:
            print(f"{count} process(es): no step held p99 < {args.p99:g} ms")
        results.append({"processes": count, "steps": rows})
    took: list[float] = []
    if args.kills:
        took = _run(failover(args))
        if took:
            s = sorted(took)
            print(
                f"failover over {len(s)} kills: median {s[len(s) // 2]:.2f} s, "
                f"worst {s[-1]:.2f} s, best {s[0]:.2f} s"
            )
    if args.json:
        args.json.write_text(
            json.dumps({"database": args.database, "runs": results, "failover_s": took}, indent=1)
        )


if __name__ == "__main__":
    main()
