"""Benchmark: ``state.clone()`` against ``copy.deepcopy(state)`` in every game, mid-hand.

Search bots and outside frameworks (OpenSpiel's samplers, tree search) copy states all the
time; a framework that knows nothing of the game would deep-copy. For each game at its
default player count, a hand is dealt and played on for ``--moves`` random legal actions;
then the state is cloned and deep-copied many times. Printed: microseconds per copy and the
ratio. Run from the repository root::

    uv run python benchmarks/bench_clone.py
    uv run python benchmarks/bench_clone.py --moves 40 --copies 2000
"""

from __future__ import annotations

import argparse
import copy
import platform
import random
import sys
import time
from typing import Any

from cherki import GAMES


def mid_hand(game: Any, moves: int, seed: int) -> Any:
    state = game.new_state(players=game.default_players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def per_copy_us(make: Any, copies: int) -> float:
    best = float("inf")
    for _ in range(3):  # best of three runs
        t0 = time.perf_counter()
        for _ in range(copies):
            make()
        best = min(best, (time.perf_counter() - t0) / copies * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=20, help="random actions before copying")
    parser.add_argument("--copies", type=int, default=1000, help="copies timed per run")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, one core")
    print(f"{'game':18} {'players':>7} {'clone µs':>10} {'deepcopy µs':>12} {'ratio':>7}")
    for name, game in GAMES.items():
        state = mid_hand(game, args.moves, args.seed)
        clone = per_copy_us(state.clone, args.copies)
        deep = per_copy_us(lambda s=state: copy.deepcopy(s), max(1, args.copies // 10))
        print(f"{name:18} {state.n:>7} {clone:>10.1f} {deep:>12.1f} {deep / clone:>6.0f}×")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
