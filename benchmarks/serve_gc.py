"""``cherki serve`` with its garbage collector's pauses timed (issue 41's profile).

A wrapper for ``bench_server.py`` and ``bench_attack.py``: it installs a
:data:`gc.callbacks` hook that times every collection by generation, runs ``cherki serve``
with the arguments given, and when the server stops writes the figures as JSON to
``$CHERKI_GC_OUT`` (count, total and longest pause, and the pauses over 10 ms, per
generation)::

    BENCH_SERVER="env CHERKI_GC_OUT=/tmp/gc.json .venv/bin/python benchmarks/serve_gc.py serve" \\
        uv run --group dev python benchmarks/bench_server.py --steps 300 --hold 20
"""

from __future__ import annotations

import atexit
import gc
import json
import os
import sys
import time
from pathlib import Path

#: per generation: every pause (seconds)
PAUSES: dict[int, list[float]] = {0: [], 1: [], 2: []}
_started: list[float] = []


def _timed(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _started.append(time.perf_counter())
    elif _started:
        PAUSES[info["generation"]].append(time.perf_counter() - _started.pop())


def _write() -> None:
    out = os.environ.get("CHERKI_GC_OUT")
    if not out:
        return
    figures = {
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
    atexit.register(_write)
    from cherki.ui.cli import main as cli

    sys.argv = ["cherki", *sys.argv[1:]]
    cli()


if __name__ == "__main__":
    main()
