"""Heavy work never slows the tables: a live table's record for a viewer is worked out
once per version of the table and then sent as it is (a flood of downloads costs no work),
off the event loop, in the heavy requests' low-priority process; each address has at most
``heavy_per_address`` big requests in hand (429 in words past it)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

from aio import run_fresh
from fastapi import HTTPException
from fastapi.testclient import TestClient

from cherki.server.limits import Limits
from cherki.server.service import Heavy
from cherki.server.store import Store


def test_a_live_tables_record_is_worked_out_once_per_version(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store, limits=Limits(heavy_seconds=300.0))
    body = {"game": "balik-satu", "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]}
    made = client.post("/api/tables", json=body).json()
    url = f"/api/tables/{made['table']}/record"
    first = client.get(url)
    assert first.status_code == 200
    srv: Any = client.app.state.server  # type: ignore[attr-defined]

    async def no_work(*args: object) -> object:
        raise AssertionError("worked out again")

    srv.heavy.run = srv.heavy.work = no_work
    for _ in range(5):
        again = client.get(url)
        assert again.status_code == 200 and again.content == first.content
    # kept per viewer: the seat's record is its own (its dealt cards), not the spectator's
    assert [k[-1] for k in srv.heavy.kept if k[0] == "record"] == [None]


def _slow(seconds: float) -> int:
    time.sleep(seconds)
    return 1


def test_big_requests_are_bounded_per_address() -> None:
    async def run() -> list[Any]:
        heavy = Heavy(Limits(heavy_per_address=1, heavy_seconds=120.0))
        try:
            one = asyncio.ensure_future(heavy.run_for("10.0.0.1", _slow, 0.5))
            await asyncio.sleep(0)
            two = heavy.run_for("10.0.0.1", _slow, 0.01)
            other = heavy.run_for("10.0.0.2", _slow, 0.01)
            return list(await asyncio.gather(one, two, other, return_exceptions=True))
        finally:
            heavy.close()

    one, two, other = run_fresh(run())
    assert one == 1 and other == 1
    assert isinstance(two, HTTPException) and two.status_code == 429
    assert "one address" in two.detail


def test_a_job_whose_request_left_is_still_stopped_at_its_time() -> None:
    """A request that leaves frees its place at once; its job, which cannot be taken back
    from the process, keeps the process only until its time is up (the process is then
    stopped), and the next job runs in a fresh one."""

    async def run() -> tuple[int, int, bool]:
        heavy = Heavy(Limits(heavy_seconds=300.0))  # a loaded machine starts slowly
        try:
            assert await heavy.run(_slow, 0.0) == 1  # the process is up
            first = heavy.pool
            heavy.limits = Limits(heavy_seconds=1.0)
            left = asyncio.ensure_future(heavy.run(_slow, 60.0))
            await asyncio.sleep(0.3)
            left.cancel()  # the client went away
            with contextlib.suppress(asyncio.CancelledError):
                await left
            held = heavy.jobs
            heavy.limits = Limits(heavy_seconds=300.0)
            after = await heavy.run(_slow, 0.0)  # its turn comes when the other is stopped
            return held, after, heavy.pool is not first
        finally:
            heavy.close()

    held, after, replaced = run_fresh(run())
    assert held == 0 and after == 1 and replaced
