"""Running a coroutine from a test whatever the test run holds: Playwright's sync API (the
browser tests' session-wide browser) keeps an event loop running in the main thread, where
``asyncio.run`` then refuses; a thread of its own always has none."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

_T = TypeVar("_T")


def run_fresh(coro: Coroutine[Any, Any, _T]) -> _T:
    """``asyncio.run(coro)`` in a thread of its own (a new event loop), its result or its
    exception here."""
    with ThreadPoolExecutor(1, thread_name_prefix="test-loop") as pool:
        return pool.submit(asyncio.run, coro).result()
