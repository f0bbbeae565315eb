"""Several ``cherki serve`` processes on one throwaway PostgreSQL (cherki.server.cluster):
a seat connected to a process that does not own its table plays through the owner, an HTTP
request about the table is answered by the owner, and a table whose owner is killed
(``kill -9``) is taken over from its committed log by a survivor: its bots play on and its
person connects again with ``?since=`` and loses nothing they were told. The long run
behind Debian's nginx, killing at random moments many times, is marked slow."""

from __future__ import annotations

import json
import random
import threading
import time

import httpx
import pytest
from cluster import (
    Person,
    cluster_state,
    free_port,
    loads,
    owner_of,
    pid_of,
    serving,
    status_of,
    store_version,
    table_body,
    workers,
)
from nginx import nginx_proxy
from pg import postgres_server
from serverutil import next_settled
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from cherki.play.records import replay_hand
from cherki.server.store import Store


def _drain(ws: object, quiet: float = 0.5) -> list[dict[str, object]]:
    out = []
    try:
        while True:
            out.append(loads(ws.recv(timeout=quiet)))  # type: ignore[attr-defined]
    except TimeoutError:
        return out


def test_a_seat_at_another_process_plays_through_the_owner() -> None:
    limit = ("--limit", "spectators_per_table=1")
    with postgres_server() as url, serving(url, 2, *limit) as (a, b):
        made = httpx.post(a.http + "/api/tables", json=table_body(), timeout=30).json()
        table_id, token, host = made["table"], made["seats"]["0"], made["host"]
        owner = owner_of(url, table_id)
        assert owner is not None and pid_of(owner[0]) == a.proc.pid  # type: ignore[union-attr]
        seen: list[int] = []
        with (
            connect(f"{b.ws}/ws/seat/{token}") as ws,
            connect(f"{a.ws}/ws/watch/{table_id}") as spec,
        ):
            msg = next_settled(lambda: loads(ws.recv(timeout=30)))
            assert msg["type"] == "state" and msg["seat"] == 0
            for _ in range(4):
                if msg["over"]:
                    break
                legal = msg["observation"]["legal"]
                ws.send(
                    json.dumps({"type": "act", "version": msg["version"], "action": legal[0]["id"]})
                )
                before = msg["version"]
                msg = next_settled(lambda: loads(ws.recv(timeout=30)))
                assert msg["type"] == "state" and msg["version"] > before
                seen.append(msg["version"])
                time.sleep(0.12)
            # a mistake is answered in words through the owner, and changes nothing
            ws.send(json.dumps({"type": "act", "version": 0, "action": "nonsense"}))
            refused = loads(ws.recv(timeout=30))
            assert refused["type"] == "error" and "version" in refused["message"]
            # HTTP about the table, asked of the process that does not own it
            said = httpx.post(
                b.http + f"/api/host/{host}/settings", json={"bot_pace": 0.1}, timeout=30
            )
            assert said.status_code == 200 and said.json()["settings"]["bot_pace"] == 0.1
            took = httpx.post(
                b.http + "/api/seats", json={"token": token, "name": "Siti"}, timeout=30
            )
            assert took.status_code == 200 and took.json()["seat"] == 0
            again = httpx.post(
                b.http + "/api/seats", json={"token": "x" * 22, "name": "Ann"}, timeout=30
            )
            assert again.status_code == 400
            # the owner's limits hold for the clients of other processes: a third connection
            # is told why, and closed
            with connect(f"{b.ws}/ws/watch/{table_id}") as third:
                said = loads(third.recv(timeout=30))
                assert said["type"] == "closing" and "spectators already" in said["message"]
                with pytest.raises(ConnectionClosed):
                    third.recv(timeout=30)
            told = [m for m in _drain(spec) if m["type"] == "state"]
            mine = [m for m in _drain(ws) if m["type"] == "state"]
        assert told and told[-1]["names"][0] == "Siti" and told[-1]["settings"]["bot_pace"] == 0.1
        assert mine and mine[-1]["names"][0] == "Siti"
        # commit before tell: every version anyone was told is in the store
        committed = store_version(url, table_id)
        assert max(seen + [m["version"] for m in told]) <= committed  # type: ignore[operator]


def test_a_killed_owner_s_table_is_taken_over_and_nobody_loses_what_they_were_told() -> None:
    with postgres_server() as url, serving(url, 2) as (a, b):
        made = httpx.post(a.http + "/api/tables", json=table_body(), timeout=30).json()
        table_id, token = made["table"], made["seats"]["0"]
        person = Person(b.ws, token, time.monotonic() + 120)
        worker = threading.Thread(target=person.run, daemon=True)
        worker.start()
        deadline = time.monotonic() + 60
        while person.acted < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert person.acted >= 3
        told = person.seen
        a.kill()
        killed = time.monotonic()
        # the host, through b, meanwhile: answered by the new owner, or told to try again
        said = httpx.post(
            b.http + f"/api/host/{made['host']}/settings", json={"bot_pace": 0}, timeout=30
        )
        assert said.status_code in (200, 503), said.text
        assert said.status_code == 200 or "try again" in said.json()["detail"]
        while True:
            lease = owner_of(url, table_id)
            if lease is not None and pid_of(lease[0]) == b.proc.pid:  # type: ignore[union-attr]
                break
            assert time.monotonic() - killed < 30, "nobody took the table over"
            time.sleep(0.05)
        assert lease[1] >= 2  # a new epoch
        # the table moves on: the person (reconnected through b) and the bots play
        while person.seen <= told + 8 and not person.over:
            assert time.monotonic() - killed < 60, "the table did not move on"
            time.sleep(0.1)
        person.stop = True
        worker.join(timeout=30)
        assert person.going_back == []
        assert person.connects >= 2
        assert person.seen <= store_version(url, table_id)
        # the log both owners wrote replays: every action legal, in order
        store = Store(url)
        record = store.record(table_id)
        for index in range(len(record.hands)):
            replay_hand(record, index)
        store.close()


def test_workers_share_one_port_and_a_stopped_one_comes_back() -> None:
    """``cherki serve --workers 2``: every connection is served whichever worker takes it;
    the owner killed, the other takes the table over and the supervisor starts a new one;
    the supervisor killed, the workers stop too."""
    import signal
    import subprocess

    with postgres_server() as url:
        port = free_port()
        proc = workers(url, port, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            base = f"http://127.0.0.1:{port}"
            made = httpx.post(base + "/api/tables", json=table_body(), timeout=30).json()
            for _ in range(6):  # any worker may take each connection: every one is served
                with connect(f"ws://127.0.0.1:{port}/ws/seat/{made['seats']['0']}") as ws:
                    assert loads(ws.recv(timeout=30))["type"] == "state"
            owner = owner_of(url, made["table"])
            assert owner is not None
            import os

            os.kill(pid_of(owner[0]), signal.SIGKILL)
            deadline = time.monotonic() + 60
            while True:
                lease = owner_of(url, made["table"])
                if lease is not None and lease[0] != owner[0]:
                    break
                assert time.monotonic() < deadline, "the table was not taken over"
                time.sleep(0.1)
            with connect(f"ws://127.0.0.1:{port}/ws/seat/{made['seats']['0']}") as ws:
                assert loads(ws.recv(timeout=30))["type"] == "state"
        finally:
            children = _children(proc.pid)
            proc.send_signal(signal.SIGKILL)  # the supervisor itself, outright
            out, _ = proc.communicate(timeout=60)
            left = _wait_gone(children, 30.0)
        said = out.decode()
        assert "2 serving processes on one port" in said
        assert "worker" in said and "starting it again" in said
        assert len(children) == 2 and left == [], "the workers outlived their supervisor"


def _children(pid: int) -> list[int]:
    from pathlib import Path

    text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    return [int(x) for x in text.split()]


def _wait_gone(pids: list[int], seconds: float) -> list[int]:
    """Wait for the processes to end; those still there are killed, and returned."""
    import os
    import signal

    deadline = time.monotonic() + seconds
    alive = list(pids)
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = [p for p in alive if _running(p)]
    for p in alive:
        os.kill(p, signal.SIGKILL)
    return alive


def _running(pid: int) -> bool:
    from pathlib import Path

    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


#: kills in the long run (each waits for the takeover and for the table to move on)
KILLS = 12


@pytest.mark.slow
def test_kills_at_random_moments_behind_nginx() -> None:
    """Three processes behind Debian's nginx (the documented proxy part); two tables, each
    with a person playing through the proxy and three bots; the owner of a table killed at a
    random moment, again and again (a new process started in its place each time). Each
    time a survivor takes the table over, the table moves on, and no person is ever sent a
    state older than one they were sent before; at the end every table's log replays."""
    rng = random.Random()
    with postgres_server() as url, serving(url, 3) as procs:
        with nginx_proxy(*(p.port for p in procs)) as proxy:
            base = f"ws://127.0.0.1:{proxy.port}"
            tables = []
            for _ in range(2):
                # the match lasts the whole test (a finished table nobody is connected to
                # is let go, lease and all): the bots at a person's pace
                body = table_body(hands=100, bot_pace=0.2)
                made = httpx.post(proxy.url + "/api/tables", json=body, timeout=30)
                assert made.status_code == 200, made.text
                tables.append(made.json())
            people = [Person(base, t["seats"]["0"], time.monotonic() + 600) for t in tables]
            threads = [threading.Thread(target=p.run, daemon=True) for p in people]
            for t in threads:
                t.start()
            took: list[float] = []
            try:
                for _ in range(KILLS):
                    time.sleep(rng.uniform(0.2, 2.5))
                    which = rng.randrange(len(tables))
                    table_id = tables[which]["table"]
                    lease = owner_of(url, table_id)
                    if lease is None:
                        continue  # its match is over and nobody is connected: let go
                    victim = next(p for p in procs if p.proc and p.proc.pid == pid_of(lease[0]))
                    at = store_version(url, table_id)
                    victim.kill()
                    killed = time.monotonic()
                    while True:
                        now = owner_of(url, table_id)
                        if now is not None and now[0] != lease[0]:
                            break
                        if now is None and status_of(url, table_id) == "finished":
                            break  # it ended as its owner let it go: nothing to take over
                        if time.monotonic() - killed > 30:
                            alive = [(p.port, p.proc.pid) for p in procs if p.proc]
                            raise AssertionError(
                                f"nobody took table {table_id} over from {lease} "
                                f"(processes {alive}):\n{cluster_state(url)}"
                            )
                        time.sleep(0.05)
                    elapsed = time.monotonic() - killed
                    victim.start()  # a process in its place (a new name)
                    if now is None:
                        continue
                    took.append(elapsed)
                    while store_version(url, table_id) <= at + 2:
                        if people[which].over or status_of(url, table_id) == "finished":
                            break
                        assert time.monotonic() - killed < 60, "the table did not move on"
                        time.sleep(0.1)
            finally:
                for p in people:
                    p.stop = True
                for t in threads:
                    t.join(timeout=30)
            print(f"takeovers: {sorted(round(t, 2) for t in took)}")
            for p in people:
                assert p.going_back == [], p.going_back
                assert p.connects >= 1 and p.acted >= 1
        store = Store(url)
        for t, p in zip(tables, people, strict=True):
            assert p.seen <= store_version(url, t["table"])  # told only what was committed
            record = store.record(t["table"])
            for index in range(len(record.hands)):
                replay_hand(record, index)
        store.close()
        assert len(took) >= KILLS // 2


def test_a_stale_owner_cannot_commit_and_lets_the_table_go() -> None:
    """Fencing: process A owns a table; its lease expires (A was paused) and B takes it over
    (a new epoch); A's next action is refused by the database in the same transaction as its
    write, and nothing of it is written; B goes on from the committed log."""
    from cherki.server.cluster import Cluster, Elsewhere, LeaseLost
    from cherki.server.registry import Tables
    from cherki.server.settings import SeatPlan

    with postgres_server() as url:
        store_a, store_b = Store(url), Store(url)
        a, b = Cluster(store_a), Cluster(store_b)
        store_a.fence, store_b.fence = a.fence, b.fence
        lost: list[str] = []
        a.on_lost = lost.append
        tables_a, tables_b = Tables(store_a, cluster=a), Tables(store_b, cluster=b)
        table_id, _, _ = tables_a.create("balik-satu", None, {}, [SeatPlan("human")] * 4)
        table = tables_a.live[table_id]

        def act(t: object) -> None:
            s = t.session  # type: ignore[attr-defined]
            t._act(s.to_act, s.state.legal_actions()[0], t.version)  # type: ignore[attr-defined]

        act(table)
        with pytest.raises(Elsewhere) as held:
            tables_b.table(table_id)
        assert held.value.owner == a.id
        with store_a.engine.begin() as conn:  # A is paused past its lease
            from sqlalchemy import text

            conn.execute(text("UPDATE leases SET expires = now() - interval '1 second'"))
        taken = tables_b.table(table_id)
        assert owner_of(url, table_id) == (b.id, 2)
        committed = store_version(url, table_id)
        assert taken.version == committed == 1
        with pytest.raises(LeaseLost):
            act(table)
        assert store_version(url, table_id) == committed  # nothing of A's was written
        act(taken)
        assert store_version(url, table_id) == committed + 1
        store_a.close()
        store_b.close()
