"""``cherki serve`` with its garbage collector's pauses timed (issue 41's profile).

A wrapper for ``bench_server.py`` and ``bench_attack.py``: it installs a
:data:`gc.callbacks` hook that times every collection by generation, runs ``cherki serve``
with the arguments given, and when the server stops writes the figures as JSON to
``$CHERKI_GC_OUT`` (count, total and longest pause, and the pauses over 10 ms, per
generation, leaving out the first ``$CHERKI_GC_STARTUP`` seconds, 15 by default: start-up's
own collections)::

    BENCH_SERVER="env CHERKI_GC_OUT=/tmp/gc.json .venv/bin/python benchmarks/serve_gc.py serve" \\
        uv run --group dev python benchmarks/bench_server.py --steps 300 --hold 20
"""

from __future__ import annotations

import atexit
import gc
import json
import os
import signal
import sys
import time
from pathlib import Path

#: per generation: every pause (seconds) after start-up
PAUSES: dict[int, list[float]] = {0: [], 1: [], 2: []}
_started: list[float] = []
#: seconds from the start counted as start-up (its collections, gc.freeze's, are apart)
STARTUP = float(os.environ.get("CHERKI_GC_STARTUP", "15"))
_t0 = time.perf_counter()


def _timed(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _started.append(time.perf_counter())
    elif _started:
        now = time.perf_counter()
        took = now - _started.pop()
        if now - _t0 > STARTUP:
            PAUSES[info["generation"]].append(took)


def _write() -> None:
    out = os.environ.get("CHERKI_GC_OUT")
    if not out:
        return
    figures: dict[str, object] = {"seconds": round(time.perf_counter() - _t0 - STARTUP, 1)}
    figures |= {
        str(gen): {
            "count": len(xs),
            "total_ms": round(1000 * sum(xs), 1),
            "max_ms": round(1000 * max(xs, default=0.0), 2),
            "over_10ms": sum(x > 0.010 for x in xs),
        }
        for gen, xs in PAUSES.items()
    }
    Path(out).write_text(json.dumps(figures, indent=1))


def main() -> None:
    gc.callbacks.append(_timed)
    young = os.environ.get("CHERKI_GC_YOUNG")  # "700,10": the young thresholds to try
    if young:
        first, second = (int(x) for x in young.split(","))
        gc.set_threshold(first, second, gc.get_threshold()[2])
    atexit.register(_write)
    # uvicorn raises SIGTERM again once it has stopped: an exit, so that the figures are
    # written
    signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(0))
    from cherki.ui.cli import main as cli

    sys.argv = ["cherki", *sys.argv[1:]]
    cli()


if __name__ == "__main__":
    main()
