"""Benchmark: ``cherki replay`` of long records, to check its time is linear in the record.

An outside audit timed a valid 2,000-hand record at 65 s. The script builds Balik Satu
records of random play (``--hands``, several sizes), then times, per size, in CPU seconds
(``time.process_time``, so other processes on the machine do not count):

* **load**: reading and checking the file (``load_record``);
* **json**: ``replay_match`` (every hand replayed, results and contexts checked), what
  ``cherki replay --json`` does;
* **text**: ``cherki replay --all`` with its output to a file, every line as a terminal
  shows it.

Linear means the time per hand stays flat as the record grows. Run from the repository
root::

    uv run python benchmarks/bench_replay.py                      # 100, 200 and 400 hands
    uv run python benchmarks/bench_replay.py --hands 500 2000
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import tempfile
import time
from pathlib import Path

from typer.testing import CliRunner

from cherki.games import find_game
from cherki.play.match import Match, replay_match
from cherki.play.records import load_record
from cherki.ui.cli import app


def build(path: Path, hands: int, seed: int) -> None:
    """A record of ``hands`` hands of 4-player Balik Satu, random legal play."""
    game = find_game("balik-satu")
    match = Match(game, game.rules(None), [f"P{i}" for i in range(4)], seed, hands=hands)
    rng = random.Random(seed)
    while not match.is_over():
        state = match.start_hand()
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        match.finish_hand(state)
    match.record.save(path)


def cpu(fn: object) -> float:
    start = time.process_time()
    fn()  # type: ignore[operator]
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, nargs="+", default=[100, 200, 400])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    runner = CliRunner()
    print(
        f"{'hands':>6} {'MiB':>6} {'load s':>7} {'json s':>7} {'text s':>7} {'ms/hand (text)':>15}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.hands:
            path = Path(tmp) / f"r{n}.json"
            build(path, n, args.seed)
            size = path.stat().st_size / 2**20
            load = cpu(lambda p=path: load_record(p))
            rec = load_record(path)
            as_json = cpu(lambda r=rec: replay_match(r))
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                text = cpu(lambda p=path: runner.invoke(app, ["replay", "--all", str(p)]))
            hands = len(rec.hands)
            print(
                f"{hands:>6} {size:>6.1f} {load:>7.2f} {as_json:>7.2f} {text:>7.2f} "
                f"{1000 * text / hands:>15.1f}"
            )


if __name__ == "__main__":
    main()
