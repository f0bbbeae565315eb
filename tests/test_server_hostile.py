"""No 5xx for anything a client sends: the hostile bodies of ``benchmarks/hostile.py``
(NaN, Infinity, 1e400, the wrong kinds, deep nesting, lone surrogates) are each answered
in words (4xx) and leave nothing in the server's log; a heavy request cut because one ahead
of it took too long is a 503 ("try again"), never a 500."""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from aio import run_fresh
from fastapi import HTTPException
from fastapi.testclient import TestClient

from cherki.server.limits import Limits
from cherki.server.service import Heavy
from cherki.server.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from hostile import BODIES


def test_hostile_bodies_are_answered_in_words_and_log_nothing(
    store: Store, opened: Callable[..., TestClient], caplog: pytest.LogCaptureFixture
) -> None:
    client = opened(store, limits=Limits(heavy_seconds=300.0))  # a loaded machine starts slowly
    made = client.post(
        "/api/tables",
        json={
            "game": "balik-satu",
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
        },
    ).json()
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        for method, path, body in BODIES:
            url = path.format(host=made["host"], table=made["table"])
            r = client.request(
                method, url, content=body, headers={"content-type": "application/json"}
            )
            assert 400 <= r.status_code < 500, (path, body[:80], r.status_code, r.text[:300])
            detail = r.json()["detail"]
            assert detail and "Traceback" not in r.text, (path, body[:80])
            assert r.headers.get("connection") != "close", (path, body[:80])
    assert [rec.getMessage() for rec in caplog.records if rec.levelno >= logging.WARNING] == []


def _slow(seconds: float) -> int:
    time.sleep(seconds)
    return 1


def test_jobs_queued_behind_a_stopped_one_are_told_to_try_again(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def run() -> tuple[list[Any], int]:
        heavy = Heavy(Limits(heavy_seconds=1.0, heavy_jobs=4))
        try:
            jobs = [heavy.run(_slow, 5.0)] + [heavy.run(_slow, 0.01) for _ in range(3)]
            out = list(await asyncio.gather(*jobs, return_exceptions=True))
            heavy.limits = Limits(heavy_seconds=300.0)  # a loaded machine starts slowly
            return out, await heavy.run(_slow, 0.01)  # and then a fresh process serves
        finally:
            heavy.close()

    # what the pool's own thread raises (it once failed a cancelled job's future with
    # InvalidStateError as the stopped process was noticed)
    raised: list[str] = []
    monkeypatch.setattr(threading, "excepthook", lambda a: raised.append(repr(a.exc_value)))
    with caplog.at_level(logging.WARNING):
        out, after = run_fresh(run())
    assert raised == []
    assert [rec.getMessage() for rec in caplog.records if rec.levelno >= logging.WARNING] == []
    assert after == 1
    assert all(isinstance(x, HTTPException | int) for x in out), out
    cut = [x for x in out if isinstance(x, HTTPException)]
    assert cut and all(x.status_code == 503 for x in cut)
    # the one past its time is told so; those queued behind it, if their turn did not come
    # within the time, to try again: no CancelledError, no 500
    assert all("try again" in x.detail or "was stopped" in x.detail for x in cut)
