"""What one bad client does to everyone else: ``cherki serve`` under attack while people play.

Starts ``cherki serve`` on 127.0.0.1 as ``bench_server.py`` does (a fresh SQLite file, or a
throwaway PostgreSQL server with ``--database postgresql``), opens ``--tables`` tables of four
simulated people (the same people: think 0.5–2 s, then a legal action, each round trip timed),
and then runs each attack in turn. For each it measures a quiet window, then the attack for
a window of the same length, and prints the *other* tables' 50th/99th percentile round trip
in both (an action still unanswered at the window's end counts as its wait so far), the
actions a second, the server's CPU (share of one core) and largest resident memory, and this
process's own CPU (the people's; the attacker runs in a process of its own, as another
machine would be, unless ``--same-process``). An attack aimed at one table (one
of the people's tables, a fresh one each attack) also reports that table's longest wait for
an answer during the attack and how long after the attacker stopped (or the server dropped
it) the table moved again: from the later of the attack's end and a person's action to
that person's update.

Attacks (``--attack``, in the order given; each stops by itself after its window):

* ``slow-reader``: one spectator WebSocket (``/ws/watch/{table}``) on a playing table that
  does the handshake by hand on a raw socket with a small receive buffer (``SO_RCVBUF``
  4 KiB) and then never reads; at the window's end it resets the connection.
* ``idle-sockets``: ``--sockets`` (1,000) spectator WebSockets on one table, opened 50 at a
  time, that read what they are sent and send nothing; counts those accepted, refused at
  the handshake and dropped later; at the end they are reset.
* ``replay-upload``: a valid record of about 1 MB (heuristic bots' Balik Satu, as many hands
  as stay under the replay's frame limit, indented up to 1 MB) posted to ``/api/replay``
  once a second (at most three unanswered at once); the answers are read and thrown away.
* ``record-download``: ``GET /api/tables/{table}/record`` of the people's live tables,
  anonymous, 16 at a time from one address, one table after another, as fast as the answers
  come (issue 41: this took the other tables to p99 1.2 s); counts the answers by status.
* ``live-replay``: ``GET /api/tables/{table}/replay`` of the people's live tables (refused
  with 403 while a match is in play, after the store is read), anonymous, 16 at a time
  from one address, as ``record-download``.
* ``live-review``: ``POST /api/tables/{table}/review?token=…&hand=1`` with the people's own
  seat tokens (a real review of the first hand, in the heavy process, where it is over;
  a hand still in play is refused), 16 at a time from one address, one table after
  another; counts the answers by status (429: the review limits).
* ``hostile-bodies``: the bodies of ``hostile.py`` (NaN, Infinity, 1e400, the wrong kinds)
  sent one after another as fast as the answers come; counts the answers by status (a 5xx
  is a failure of the server).
* ``table-flood``: ``POST /api/tables`` (one person, three heuristic bots) one after another
  on one connection as fast as the answers come; counts those created and refused (429).

Everything is on 127.0.0.1, bounded in count and time (``--window``, ``--recover``).

    uv run --group dev python benchmarks/bench_attack.py                 # every attack, 200 tables
    uv run --group dev python benchmarks/bench_attack.py --attack slow-reader --tables 100
    uv run --group dev python benchmarks/bench_attack.py --database postgresql --window 20

The people and the attacker run in this one process beside the server, on the same machine.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import fcntl
import json
import multiprocessing
import os
import random
import socket
import struct
import sys
import termios
import time
from collections.abc import Awaitable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import (
    SEATS,
    Figures,
    _cpu_seconds,
    _own_cpu,
    _quantile,
    _rss_mib,
    open_table,
    raise_file_limit,
    serving,
)

#: the largest body ``POST /api/replay`` takes, and the most frames one replay holds
#: (``cherki.server.pages``: a record over either is refused, not replayed)
REPLAY_BYTES = 1024 * 1024
REPLAY_FRAMES = 20_000
ATTACKS = (
    "slow-reader",
    "idle-sockets",
    "replay-upload",
    "table-flood",
    "record-download",
    "live-replay",
    "live-review",
    "hostile-bodies",
)
#: attacks aimed at one table
AIMED = ("slow-reader", "idle-sockets")
TCP_ESTABLISHED = 1
#: the others are back to normal when no action has waited over SLOW seconds for CALM seconds
SLOW, CALM = 0.5, 2.0


@dataclass
class Table:
    id: str
    figures: Figures
    tasks: list[asyncio.Task[None]]


@dataclass
class Window:
    """One window's figures over the tables not attacked."""

    seconds: float
    rtts: list[float] = field(default_factory=list)
    unanswered: int = 0
    server_cpu_pct: float = 0.0
    server_rss_mib: float = 0.0
    people_cpu_pct: float = 0.0
    #: the others' people whose connection had ended (closed by the server, or failed)
    people_gone: int = 0

    def row(self) -> dict[str, Any]:
        answered = len(self.rtts) - self.unanswered
        return {
            "actions_per_s": round(answered / self.seconds, 1),
            "p50_ms": round(1000 * _quantile(self.rtts, 0.50), 1),
            "p99_ms": round(1000 * _quantile(self.rtts, 0.99), 1),
            "max_ms": round(1000 * max(self.rtts, default=float("nan")), 1),
            "unanswered": self.unanswered,
            "server_cpu_pct": round(self.server_cpu_pct, 1),
            "server_rss_mib": round(self.server_rss_mib, 1),
            "people_cpu_pct": round(self.people_cpu_pct, 1),
            "people_gone": self.people_gone,
        }


def _line(label: str, row: dict[str, Any]) -> str:
    return (
        f"  {label:7s} others: {row['actions_per_s']:6.1f} actions/s  "
        f"p50 {row['p50_ms']:7.1f} ms  p99 {row['p99_ms']:8.1f} ms  "
        f"max {row['max_ms']:8.1f} ms  unanswered {row['unanswered']:3d}  "
        f"server CPU {row['server_cpu_pct']:5.1f}%  RSS {row['server_rss_mib']:6.1f} MiB  "
        f"people's CPU {row['people_cpu_pct']:5.1f}%"
        + (f"  people gone {row['people_gone']}" if row["people_gone"] else "")
    )


async def measure(
    tables: list[Table], skip: Table | None, seconds: float, pid: int, also: Awaitable[Any]
) -> Window:
    """Run ``also`` (an attack, or a sleep) for ``seconds`` and measure the tables other than
    ``skip`` meanwhile."""
    others = [t for t in tables if t is not skip]
    for t in others:
        t.figures.rtts.clear()
    window = Window(seconds)
    cpu0, own0, t0 = _cpu_seconds(pid), _own_cpu(), time.monotonic()
    task = asyncio.ensure_future(also)
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        window.server_rss_mib = max(window.server_rss_mib, _rss_mib(pid))
        await asyncio.sleep(min(0.5, left))
    cpu1, own1, t1 = _cpu_seconds(pid), _own_cpu(), time.monotonic()
    now = time.perf_counter()
    window.server_rss_mib = max(window.server_rss_mib, _rss_mib(pid))
    window.server_cpu_pct = 100 * (cpu1 - cpu0) / (t1 - t0)
    window.people_cpu_pct = 100 * (own1 - own0) / (t1 - t0)
    for t in others:
        window.rtts += t.figures.rtts
        waits = [now - sent for sent in t.figures.waiting.values()]
        window.rtts += waits
        window.unanswered += len(waits)
        window.people_gone += sum(task.done() for task in t.tasks)
    window.seconds = t1 - t0
    await task
    return window


# -- the attacks: each runs until ``stop`` is set, then ends its connections ------------------
async def _server_end(port: int, peer: int) -> tuple[str, int] | None:
    """The state and send queue (bytes) of the server's end of our connection from
    127.0.0.1:``peer``, as ``ss`` shows them (None without ``ss``)."""
    try:
        proc = await asyncio.create_subprocess_exec(
            "ss", "-tnH", "state", "all", f"( sport = :{port} and dport = :{peer} )",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
    except OSError:
        return None
    text, _ = await proc.communicate()
    fields = text.decode().split()
    if len(fields) < 3 or not fields[2].isdigit():
        return None
    return fields[0], int(fields[2])


async def slow_reader(port: int, table: str, stop: asyncio.Event, out: dict[str, Any]) -> None:
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    try:
        await loop.sock_connect(sock, ("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET /ws/watch/{table} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        await loop.sock_sendall(sock, request.encode())
        head = b""
        while b"\r\n\r\n" not in head and len(head) < 4096:  # the answer's head, byte by byte
            byte = await loop.sock_recv(sock, 1)
            if not byte:
                break
            head += byte
        out["answer"] = head.split(b"\r\n", 1)[0].decode(errors="replace")
        started = time.perf_counter()
        mine = sock.getsockname()[1]
        out["server_queue_kib"] = 0.0
        while not stop.is_set():  # never read: only look at the connection, both ends
            state = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0]
            theirs = await _server_end(port, mine)
            if theirs is not None:
                out["server_state"] = theirs[0]
                out["server_queue_kib"] = max(out["server_queue_kib"], theirs[1] / 1024)
            closed = theirs is not None and theirs[0] != "ESTAB"
            if (state != TCP_ESTABLISHED or closed) and "dropped_after_s" not in out:
                out["dropped_after_s"] = round(time.perf_counter() - started, 1)
                out["dropped_at"] = time.perf_counter()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.5)
        unread = bytearray(4)
        fcntl.ioctl(sock.fileno(), termios.FIONREAD, unread)
        out["unread_bytes"] = struct.unpack("i", unread)[0]
    finally:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()  # a reset: the server's sends fail at once


async def idle_sockets(
    port: int, table: str, stop: asyncio.Event, out: dict[str, Any], count: int
) -> None:
    url = f"ws://127.0.0.1:{port}/ws/watch/{table}"
    opened: list[Any] = []
    readers: list[asyncio.Task[None]] = []
    gate = asyncio.Semaphore(50)
    out.update(accepted=0, refused=0, failed=0, dropped=0)
    refusals: dict[str, int] = {}

    async def drain(ws: Any) -> None:
        try:
            async for _ in ws:
                pass
        except websockets.ConnectionClosed:
            pass
        if not stop.is_set():
            out["dropped"] += 1

    async def one() -> None:
        if stop.is_set():
            return
        async with gate:
            if stop.is_set():
                return
            try:
                ws = await websockets.connect(
                    url, open_timeout=10, ping_interval=None, max_size=2**23
                )
            except websockets.InvalidStatus as err:
                out["refused"] += 1
                why = f"HTTP {err.response.status_code}"
                refusals[why] = refusals.get(why, 0) + 1
                return
            except (OSError, TimeoutError, websockets.WebSocketException) as err:
                out["failed"] += 1
                why = type(err).__name__
                refusals[why] = refusals.get(why, 0) + 1
                return
            out["accepted"] += 1
            opened.append(ws)
            readers.append(asyncio.create_task(drain(ws)))

    started = time.perf_counter()
    openers = [asyncio.create_task(one()) for _ in range(count)]
    opening = asyncio.ensure_future(asyncio.gather(*openers, return_exceptions=True))
    stopping = asyncio.ensure_future(stop.wait())
    waited: list[asyncio.Future[Any]] = [opening, stopping]
    await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
    out["opening_s"] = round(time.perf_counter() - started, 1)
    await stopping
    for task in openers:
        task.cancel()
    await opening
    out["open_at_end"] = out["accepted"] - out["dropped"]
    out["refusals"] = refusals
    for ws in opened:
        ws.transport.abort()
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)


def long_record(game_name: str = "balik-satu") -> str:
    """A valid record of about 1 MB that the replay takes: heuristic bots' hands, as many as
    stay under the frame limit, written with the widest indent that stays under 1 MB."""
    from cherki.bots import make_bot
    from cherki.games import find_game
    from cherki.play.session import Seat, Session

    game = find_game(game_name)
    hands = 300
    while True:
        seats = [Seat(f"Bot {i}", make_bot(game.name, "heuristic")) for i in range(4)]
        session = Session(game, game.rules(None), seats, seed=7, hands=hands)
        for _ in session.run():
            pass
        record = session.record()
        frames = sum(len(h.actions) + 1 for h in record.hands)
        if frames <= REPLAY_FRAMES - 500:
            break
        hands = int(hands * (REPLAY_FRAMES - 1000) / frames)
    data = record.to_json()
    best = str(record.dumps())
    for indent in range(1, 40):
        text = json.dumps(data, indent=indent, ensure_ascii=False)
        if len(text.encode()) > REPLAY_BYTES - 1024:
            break
        best = text
    return best


async def replay_upload(port: int, stop: asyncio.Event, out: dict[str, Any], body: bytes) -> None:
    out.update(sent=0, skipped=0, statuses={}, seconds=[], answer_mib=0.0)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=120) as client:

        async def one() -> None:
            t0 = time.perf_counter()
            size = 0
            headers = {"content-type": "application/json"}
            try:
                async with client.stream("POST", "/api/replay", content=body, headers=headers) as r:
                    async for chunk in r.aiter_raw():
                        size += len(chunk)
                    why = str(r.status_code)
            except httpx.HTTPError as err:
                why = type(err).__name__
            out["statuses"][why] = out["statuses"].get(why, 0) + 1
            out["seconds"].append(time.perf_counter() - t0)
            out["answer_mib"] += size / 2**20

        flying: set[asyncio.Task[None]] = set()
        while not stop.is_set():
            flying = {t for t in flying if not t.done()}
            if len(flying) < 3:
                flying.add(asyncio.create_task(one()))
                out["sent"] += 1
            else:
                out["skipped"] += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 1.0)
        out["unanswered_at_end"] = sum(not t.done() for t in flying)
        for task in flying:
            task.cancel()
        await asyncio.gather(*flying, return_exceptions=True)


async def table_flood(port: int, stop: asyncio.Event, out: dict[str, Any], game: str) -> None:
    body = {
        "game": game,
        "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "heuristic"}] * (SEATS - 1),
        "hands": 100,
    }
    out.update(created=0, refused_429=0, other={}, seconds=[])
    limits = httpx.Limits(max_connections=1)
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", timeout=30, limits=limits
    ) as client:
        while not stop.is_set():
            t0 = time.perf_counter()
            why: int | str
            try:
                why = (await client.post("/api/tables", json=body)).status_code
            except httpx.HTTPError as err:
                why = type(err).__name__
            out["seconds"].append(time.perf_counter() - t0)
            if why == 200:
                out["created"] += 1
            elif why == 429:
                out["refused_429"] += 1
            else:
                out["other"][str(why)] = out["other"].get(str(why), 0) + 1


async def sixteen(
    port: int, stop: asyncio.Event, out: dict[str, Any], method: str, paths: list[str]
) -> None:
    """``method`` on ``paths`` in turn, 16 at a time from one address, each sent as soon
    as the one before it is answered, until ``stop``; the answers counted by status."""
    out.update(statuses={}, seconds=[])
    limits = httpx.Limits(max_connections=16)
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", timeout=60, limits=limits
    ) as client:

        async def one(n: int) -> None:
            while not stop.is_set():
                t0 = time.perf_counter()
                why: int | str
                try:
                    why = (await client.request(method, paths[n % len(paths)])).status_code
                except httpx.HTTPError as err:
                    why = type(err).__name__
                out["statuses"][str(why)] = out["statuses"].get(str(why), 0) + 1
                out["seconds"].append(time.perf_counter() - t0)
                n += 16

        await asyncio.gather(*(one(n) for n in range(16)))


def record_download(
    port: int, stop: asyncio.Event, out: dict[str, Any], tables: list[str]
) -> Awaitable[None]:
    return sixteen(port, stop, out, "GET", [f"/api/tables/{t}/record" for t in tables])


async def hostile_bodies(port: int, stop: asyncio.Event, out: dict[str, Any]) -> None:
    from hostile import BODIES

    out.update(statuses={}, seconds=[])
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
        body = {"game": "balik-satu", "seats": [{"kind": "human"}, {"kind": "bot"}]}
        made = (await client.post("/api/tables", json=body)).json()
        while not stop.is_set():
            for method, path, text in BODIES:
                url = path.format(host=made.get("host", "x"), table=made.get("table", "x"))
                t0 = time.perf_counter()
                why: int | str
                try:
                    headers = {"content-type": "application/json"}
                    answer = await client.request(method, url, content=text, headers=headers)
                    why = answer.status_code
                except httpx.HTTPError as err:
                    why = type(err).__name__
                out["statuses"][str(why)] = out["statuses"].get(str(why), 0) + 1
                out["seconds"].append(time.perf_counter() - t0)


def _describe(name: str, out: dict[str, Any]) -> str:
    if name == "slow-reader":
        dropped = (
            f"the server closed it after {out['dropped_after_s']} s"
            if "dropped_after_s" in out
            else "the server did not close it"
        )
        unread = out.get("unread_bytes", 0) / 1024
        return (
            f"handshake {out.get('answer')!r}; {dropped} (its end: "
            f"{out.get('server_state', '?')}, up to {out['server_queue_kib']:.0f} KiB queued "
            f"in its kernel); {unread:.0f} KiB unread here at the end"
        )
    if name == "idle-sockets":
        return (
            f"accepted {out['accepted']}, refused {out['refused']}"
            f"{' ' + str(out['refusals']) if out['refusals'] else ''}, "
            f"failed {out['failed']}, dropped later {out['dropped']}, open at the end "
            f"{out['open_at_end']} (opening took {out['opening_s']} s)"
        )
    if name == "replay-upload":
        times = out["seconds"]
        return (
            f"sent {out['sent']} (skipped {out['skipped']}: three unanswered), answers "
            f"{out['statuses']}, unanswered at the end {out['unanswered_at_end']}, answer time "
            f"p50 {_quantile(times, 0.5):.2f} s max {max(times, default=float('nan')):.2f} s, "
            f"{out['answer_mib']:.0f} MiB of answers"
        )
    if name in ("record-download", "live-replay", "live-review", "hostile-bodies"):
        times = out["seconds"]
        return (
            f"{len(times)} requests, answers {out['statuses']}; answer p50 "
            f"{1000 * _quantile(times, 0.5):.0f} ms p99 {1000 * _quantile(times, 0.99):.0f} ms"
        )
    times = out["seconds"]
    n = len(times)
    return (
        f"{n} requests: created {out['created']}, refused (429) {out['refused_429']}, "
        f"other {out['other']}; answer p50 {1000 * _quantile(times, 0.5):.0f} ms "
        f"p99 {1000 * _quantile(times, 0.99):.0f} ms"
    )


def attack(
    name: str,
    port: int,
    table: str | None,
    stop: asyncio.Event,
    out: dict[str, Any],
    args: argparse.Namespace,
    body: bytes,
) -> Awaitable[None]:
    """The attack ``name`` (running until ``stop`` is set; what it saw goes into ``out``)."""
    if name == "slow-reader":
        assert table is not None
        return slow_reader(port, table, stop, out)
    if name == "idle-sockets":
        assert table is not None
        return idle_sockets(port, table, stop, out, args.sockets)
    if name == "replay-upload":
        return replay_upload(port, stop, out, body)
    if name == "record-download":
        return record_download(port, stop, out, args.people_tables)
    if name == "live-replay":
        paths = [f"/api/tables/{t}/replay" for t in args.people_tables]
        return sixteen(port, stop, out, "GET", paths)
    if name == "live-review":
        paths = [
            f"/api/tables/{t}/review?token={token}&hand=1"
            for t, token in zip(args.people_tables, args.first_tokens, strict=True)
        ]
        return sixteen(port, stop, out, "POST", paths)
    if name == "hostile-bodies":
        return hostile_bodies(port, stop, out)
    return table_flood(port, stop, out, args.game)


def _attack_args(args: argparse.Namespace) -> argparse.Namespace:
    """What an attack reads of the arguments (sent to the attacker's process)."""
    keep = ("sockets", "game", "window", "people_tables", "first_tokens")
    return argparse.Namespace(**{k: getattr(args, k) for k in keep})


def attack_apart(
    name: str, port: int, table: str | None, args: argparse.Namespace, body: bytes
) -> dict[str, Any]:
    """One attack for ``args.window`` seconds in this (the attacker's) process: what it
    saw."""

    async def go() -> dict[str, Any]:
        stop = asyncio.Event()
        out: dict[str, Any] = {}
        ending = asyncio.ensure_future(stop_after(stop, args.window))
        await attack(name, port, table, stop, out, args, body)
        await ending
        return out

    return asyncio.run(go())


async def stop_after(stop: asyncio.Event, seconds: float) -> None:
    await asyncio.sleep(seconds)
    stop.set()


async def settle(
    tables: list[Table], skip: Table | None, since: float, limit: float
) -> float | None:
    """Seconds from ``since`` until the last time one of the tables other than ``skip`` had
    an action waiting over :data:`SLOW` seconds, once none has for :data:`CALM` seconds in
    a row (the server is back to normal); None if not within ``limit`` seconds."""
    others = [t for t in tables if t is not skip]
    bad = since
    deadline = since + limit
    while (now := time.perf_counter()) < deadline:
        if any(now - sent > SLOW for t in others for sent in t.figures.waiting.values()):
            bad = now
        elif now - bad >= CALM:
            return max(0.0, bad - since)
        await asyncio.sleep(0.05)
    return None


async def recovery(table: Table, since: float, limit: float) -> float | None:
    """Seconds from ``since`` (or the later action) to the table's first answer after it;
    None if none came within ``limit`` seconds."""
    assert table.figures.answers is not None
    deadline = time.perf_counter() + limit
    while time.perf_counter() < deadline:
        for sent, answered in table.figures.answers:
            if answered > since:
                return answered - max(sent, since)
        await asyncio.sleep(0.01)
    return None


async def run(args: argparse.Namespace, port: int, pid: int) -> list[dict[str, Any]]:
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as attackers:
        return await _run(args, port, pid, attackers)


async def _run(
    args: argparse.Namespace, port: int, pid: int, attackers: ProcessPoolExecutor
) -> list[dict[str, Any]]:
    rng = random.Random(args.seed)
    tables: list[Table] = []
    rows: list[dict[str, Any]] = []
    limits = httpx.Limits(max_connections=20)
    body = long_record(args.game).encode() if "replay-upload" in args.attack else b""
    if body:
        print(f"replay-upload's record: {len(body) / 2**20:.2f} MiB")
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", timeout=60, limits=limits
    ) as client:
        args.first_tokens = []  # each table's first seat's (live-review)
        while len(tables) < args.tables:
            figures = Figures(answers=[])
            tokens: list[str] = []
            made = await open_table(client, port, figures, rng, args.game, tokens=tokens)
            tables.append(Table(made[0], figures, made[1]))
            args.first_tokens.append(tokens[0])
        await asyncio.sleep(args.warmup)
        args.people_tables = [t.id for t in tables]  # what record-download asks for
        for index, name in enumerate(args.attack):
            aimed = name in AIMED
            target = tables[index] if aimed else None
            quiet = await measure(tables, target, args.window, pid, asyncio.sleep(0))
            stop = asyncio.Event()
            out: dict[str, Any] = {}
            if target is not None:
                assert target.figures.answers is not None
                target.figures.answers.clear()
            aim = None if target is None else target.id
            if args.same_process:
                running = asyncio.ensure_future(attack(name, port, aim, stop, out, args, body))
                stopping: Awaitable[Any] = stop_after(stop, args.window)
            else:  # the attacker in a process of its own, as another machine would be
                loop = asyncio.get_running_loop()
                running = loop.run_in_executor(
                    attackers, attack_apart, name, port, aim, _attack_args(args), body
                )
                stopping = asyncio.sleep(args.window)
            hit = await measure(tables, target, args.window, pid, stopping)
            found = await running
            if isinstance(found, dict):
                out.update(found)
            ended = time.perf_counter()
            print(f"{name}{f' on table {target.id[:8]}' if target else ''}: {_describe(name, out)}")
            print(_line("quiet", quiet.row()))
            print(_line("attack", hit.row()))
            row: dict[str, Any] = {
                "attack": name,
                "detail": {k: v for k, v in out.items() if k not in ("seconds", "dropped_at")},
                "quiet": quiet.row(),
                "attack_window": hit.row(),
            }
            settled = asyncio.ensure_future(settle(tables, target, ended, args.recover))
            if target is not None:
                fig = target.figures
                assert fig.answers is not None
                waits = [a - s for s, a in fig.answers if a <= ended]
                waits += [ended - s for s in fig.waiting.values() if s < ended]
                longest = max(waits, default=0.0)
                stopped = min(ended, out.get("dropped_at", ended))
                moved = await recovery(target, stopped, args.recover)
                row["target"] = {
                    "longest_wait_s": round(longest, 2),
                    "moved_again_ms": None if moved is None else round(1000 * moved, 1),
                }
                said = (
                    f"moved again {1000 * moved:.0f} ms after the attacker stopped"
                    if moved is not None
                    else f"did not move again within {args.recover:g} s"
                )
                print(
                    f"  target  table {target.id[:8]}: longest wait for an answer during the "
                    f"attack {longest:.2f} s; {said}"
                )
            calm = await settled
            row["others_settled_s"] = None if calm is None else round(calm, 1)
            print(
                f"  after   others back to normal {calm:.1f} s after the attack ended"
                if calm is not None
                else f"  after   others not back to normal within {args.recover:g} s"
            )
            rows.append(row)
        for t in tables:
            for task in t.tasks:
                task.cancel()
        await asyncio.gather(*(task for t in tables for task in t.tasks), return_exceptions=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attack", default=",".join(ATTACKS), help="attacks, comma-separated")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--game", default="balik-satu")
    parser.add_argument("--tables", type=int, default=200, help="tables of people playing")
    parser.add_argument("--window", type=float, default=30.0, help="seconds: quiet, then attack")
    parser.add_argument("--warmup", type=float, default=6.0, help="seconds before the first")
    parser.add_argument("--recover", type=float, default=30.0, help="most seconds to wait for "
                        "the attacked table to move again")  # fmt: skip
    parser.add_argument("--sockets", type=int, default=1000, help="idle-sockets' count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument(
        "--same-process",
        action="store_true",
        help="run the attacker in the people's process (as before issue 41's figures), "
        "not in a process of its own",
    )
    args = parser.parse_args()
    args.attack = [a.strip() for a in args.attack.split(",") if a.strip()]
    unknown = [a for a in args.attack if a not in ATTACKS]
    if unknown:
        parser.error(f"unknown attack {unknown[0]!r}: one of {', '.join(ATTACKS)}")
    raise_file_limit()
    with serving(args.database) as (port, pid):
        print(
            f"cherki serve on {args.database}: {args.tables} tables of {SEATS} people "
            f"(think 0.5–2 s), windows of {args.window:g} s"
        )
        rows = asyncio.run(run(args, port, pid))
    if args.json:
        args.json.write_text(json.dumps({"database": args.database, "attacks": rows}, indent=1))


if __name__ == "__main__":
    main()
