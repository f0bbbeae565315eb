"""A search decision's clock: the time budget a bot thinks within, shared by the search
bot (:mod:`cherki.bots.search`) and the race search of the games of sets
(:mod:`cherki.bots.race`)."""

from __future__ import annotations

import time
from collections.abc import Callable


class Clock:
    """A decision's time budget, on the wall clock a person waits by (``now``: replaceable,
    for tests). :meth:`fits_another` says whether one more step, as long as the steps so
    far took on average, ends before the budget does; a step that began in time but ran
    long counts in that average, so the next decision's steps are judged by it too."""

    def __init__(self, budget_ms: float, now: Callable[[], float] = time.perf_counter) -> None:
        self.now = now
        self.start = now()
        self.end = self.start + budget_ms / 1000

    def fits_another(self, steps: int) -> bool:
        """Whether a step may start after ``steps`` steps: the first always may."""
        t = self.now()
        if steps <= 0:
            return True
        return t + (t - self.start) / steps <= self.end
