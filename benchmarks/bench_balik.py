"""Benchmark: Balik Satu played with uniformly random legal actions on one core.

Three figures, each from the same seeded games so they are comparable:

* full games/s: dealing (``game.new_state``) plus playing every decision to the end;
* decisions/s: ``state.legal_actions()`` listed before every decision, then
  ``state.apply(action)`` (dealing not counted);
* decisions/s with observations: as above, and the acting seat's ``state.observation(seat)``
  is built at every decision too.

A *decision* is one call of ``state.apply``. Run from the repository root::

    uv run python benchmarks/bench_balik.py              # 300 games, seed 1, 4 players
    uv run python benchmarks/bench_balik.py --games 1000 --seed 7
    uv run python benchmarks/bench_balik.py --profile    # also print a cProfile summary
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import sys
import time
from collections import Counter
from typing import Any

from cherki import find_game

TARGET_PLAIN = 50_000  # decisions/s without observations
TARGET_OBS = 20_000  # decisions/s with the acting seat's observation built each decision


def play(
    game: Any, rules: Any, players: int, seed: int, observe: bool
) -> tuple[int, float, float, str]:
    """Deal and play one hand with random actions: (decisions, deal s, play s, outcome)."""
    rng = random.Random(seed * 7919 + 1)
    clock = time.perf_counter
    t0 = clock()
    state = game.new_state(rules, players, seed=seed)
    t1 = clock()
    decisions = 0
    choice = rng.choice
    if observe:
        while state.current >= 0:
            state.observation(state.current)
            state.apply(choice(state.legal_actions()))
            decisions += 1
    else:
        while state.current >= 0:
            state.apply(choice(state.legal_actions()))
            decisions += 1
    t2 = clock()
    return decisions, t1 - t0, t2 - t1, state.result.how


def run(game: Any, rules: Any, players: int, seeds: range, observe: bool) -> dict[str, Any]:
    decisions = 0
    deal = play_time = 0.0
    outcomes: Counter[str] = Counter()
    gc.collect()
    for seed in seeds:
        d, a, b, how = play(game, rules, players, seed, observe)
        decisions += d
        deal += a
        play_time += b
        outcomes[how] += 1
    games = len(seeds)
    return {
        "games": games,
        "decisions": decisions,
        "deal_s": deal,
        "play_s": play_time,
        "games_per_s": games / (deal + play_time),
        "decisions_per_s": decisions / play_time,
        "outcomes": outcomes,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per measurement (300)")
    parser.add_argument("--seed", type=int, default=1, help="first deal seed (1)")
    parser.add_argument("--players", type=int, default=4, help="players at the table (4)")
    parser.add_argument("--game", default="balik-satu", help="game name (balik-satu)")
    parser.add_argument("--preset", default=None, help="rules preset (the game's default)")
    parser.add_argument("--warmup", type=int, default=30, help="warm-up games (30)")
    parser.add_argument(
        "--profile", action="store_true", help="also profile the plain loop with cProfile"
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")

    game = find_game(args.game)
    preset = game.find_preset(args.preset)
    rules = preset.rules
    seeds = range(args.seed, args.seed + args.games)

    # warm up: fill caches, let the interpreter specialise the hot paths
    warm = range(args.seed + 10**6, args.seed + 10**6 + args.warmup)
    run(game, rules, args.players, warm, observe=False)
    run(game, rules, args.players, warm, observe=True)

    plain = run(game, rules, args.players, seeds, observe=False)
    obs = run(game, rules, args.players, seeds, observe=True)

    print(
        f"{game.title}, preset {preset.name}, {args.players} players, {args.games} games "
        f"(seeds {seeds.start}-{seeds.stop - 1}), uniformly random legal actions"
    )
    print(f"Python {platform.python_version()} on {platform.machine()}, one core")
    print(f"mean decisions per game: {plain['decisions'] / plain['games']:.1f}")
    outcomes = ", ".join(f"{how} {n}" for how, n in plain["outcomes"].most_common())
    print(f"how the hands ended: {outcomes}")
    print()
    rows = [
        ("full games/s (deal + play)", plain["games_per_s"], None),
        ("decisions/s (legal_actions + apply)", plain["decisions_per_s"], TARGET_PLAIN),
        ("decisions/s (+ observation)", obs["decisions_per_s"], TARGET_OBS),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'rate':>10}  {'target':>8}  verdict")
    print(f"{'-' * width}  {'-' * 10}  {'-' * 8}  -------")
    for label, rate, target in rows:
        tgt = f"{target:,}" if target else "-"
        verdict = "-" if target is None else ("met" if rate >= target else "MISSED")
        print(f"{label:<{width}}  {rate:>10,.0f}  {tgt:>8}  {verdict}")
    print()
    print(
        f"time: deal {plain['deal_s'] * 1e3 / plain['games']:.2f} ms/game, "
        f"play {plain['play_s'] * 1e3 / plain['games']:.2f} ms/game, "
        f"observation adds {(obs['play_s'] - plain['play_s']) * 1e6 / plain['decisions']:.1f} "
        "µs/decision"
    )

    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.enable()
        run(game, rules, args.players, seeds, observe=True)
        prof.disable()
        print()
        pstats.Stats(prof, stream=sys.stdout).sort_stats("tottime").print_stats(15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
