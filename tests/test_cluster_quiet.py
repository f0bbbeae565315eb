"""A lost database is one line a while, not a traceback a beat: the cluster's beats that
fail are reported once (in one line, no traceback), and once more when the database
answers again."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from aio import run_fresh

from cherki.server.cluster import Cluster
from cherki.server.store import Store


def test_failing_beats_are_one_line_and_the_return_is_said(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cluster = Cluster(Store(f"sqlite:///{tmp_path / 'x.db'}"), ttl=0.05, beat=0.01)
    calls = 0

    async def beat(*, first: bool = False, sweep: bool = False) -> None:
        nonlocal calls
        calls += 1
        if calls <= 40:
            raise OSError("connection refused\n(a second line of the driver's words)")
        cluster.confirmed = asyncio.get_running_loop().time()

    cluster._beat = beat  # type: ignore[method-assign]

    async def run() -> None:
        task = asyncio.create_task(cluster._beats())
        while calls < 45:
            await asyncio.sleep(0.01)
        task.cancel()

    with caplog.at_level(logging.INFO, logger="cherki.server"):
        run_fresh(run())
    said = [(r.levelname, r.getMessage(), r.exc_info) for r in caplog.records]
    assert said[0] == (
        "ERROR",
        "a beat of the cluster failed: OSError: connection refused",
        None,
    )
    assert said[1:] == [("WARNING", "the database answers again: the cluster's beats go on", None)]
