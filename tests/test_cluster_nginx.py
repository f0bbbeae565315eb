"""nginx in front of two ``cherki serve`` processes, with the documented settings as they
are (``docs/deploy/cherki-upstream.conf``, ``docs/deploy/cherki-proxy.conf``), while one
process is down: killed (``kill -9``) and left down a while, then the other, again and
again. Pages connect and reconnect through nginx all along and the lobby's list is read
(keep-alive connections idle for a few seconds between requests, as a browser's are):
nginx answers no burst of 502 ("no live upstreams") while one process still serves, and
every request and connection reaches a live process. Marked slow (about a minute)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
import time

import httpx
import pytest
from cluster import Page, serving, table_body
from nginx import nginx_proxy
from pg import postgres_server

#: seconds a killed process stays down before it is started again
DOWN = 8.0
#: kills, of each process in turn
KILLS = 4
#: the spectators' sockets held open through nginx
CROWD = 150
#: 502s allowed in all (none is expected: a request that meets the dead process goes on to
#: the live one; a few would be a race, a burst is what this test is for)
MOST_502 = 3


@pytest.mark.slow
def test_no_burst_of_502_while_one_process_is_down() -> None:
    with (
        postgres_server() as url,
        serving(
            url, 2, "--limit", "spectators_per_address=1000", "--limit", "spectators_per_table=1000"
        ) as procs,
        nginx_proxy(*(p.port for p in procs)) as proxy,
    ):
        base = f"ws://127.0.0.1:{proxy.port}"
        deadline = time.monotonic() + 600
        pages = []
        ids: list[str] = []
        for _ in range(4):
            made = httpx.post(
                proxy.url + "/api/tables", json=table_body(hands=100, bot_pace=0.2), timeout=30
            )
            assert made.status_code == 200, made.text
            pages.append(Page(base, made.json()["seats"]["0"], deadline))
            ids.append(made.json()["table"])
        stop = threading.Event()
        answers: list[int] = []

        def lobby() -> None:
            rng = random.Random()
            with httpx.Client(base_url=proxy.url, timeout=30) as client:
                while not stop.is_set():
                    answers.append(client.get("/api/tables").status_code)
                    time.sleep(rng.uniform(0.0, 6.0))  # a keep-alive connection idles

        watched = ids

        async def spectator(table_id: str) -> None:
            from websockets.asyncio.client import connect

            retry = 0
            while not stop.is_set():
                try:
                    async with connect(f"{base}/ws/watch/{table_id}", open_timeout=10) as ws:
                        retry = 0
                        async for _ in ws:
                            if stop.is_set():
                                return
                except Exception:  # refused, dropped: ask about the link, as the page does
                    retry += 1
                    async with httpx.AsyncClient(base_url=proxy.url, timeout=10) as client:
                        with contextlib.suppress(httpx.HTTPError):
                            answers.append((await client.get(f"/api/watch/{table_id}")).status_code)
                await asyncio.sleep(min(10.0, 0.5 * 2 ** min(retry, 5)) if retry else 0.0)

        async def crowd() -> None:
            await asyncio.gather(*(spectator(watched[i % len(watched)]) for i in range(CROWD)))

        threads = [threading.Thread(target=p.run, daemon=True) for p in pages]
        threads += [threading.Thread(target=lobby, daemon=True) for _ in range(6)]
        threads.append(threading.Thread(target=asyncio.run, args=(crowd(),), daemon=True))
        for t in threads:
            t.start()
        try:
            time.sleep(3.0)
            for n in range(KILLS):
                victim = procs[n % 2]
                victim.kill()
                time.sleep(DOWN)
                victim.start()  # on the same port: nginx finds it again
                time.sleep(3.0)
        finally:
            stop.set()
            for p in pages:
                p.stop = True
            for t in threads:
                t.join(timeout=30)
        log = proxy.log()
        errors = (proxy.folder / "error.log").read_text(encoding="utf-8")
        refused = log.count('" 502 ')
        dead = errors.count("no live upstreams")
        print(f"nginx: {refused} 502s of {log.count(chr(10))} requests ({dead} no live upstreams)")
        assert refused <= MOST_502, [line for line in log.splitlines() if '" 502 ' in line][:10]
        assert set(answers) <= {200, 502}, sorted(set(answers))
        for p in pages:
            assert p.going_back == [] and p.acted >= 1
