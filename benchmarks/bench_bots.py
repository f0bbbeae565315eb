"""Decision time of each bot level in every game: median and p99, on one core.

The measured bot sits in seat 0 (rotating the start so it meets every position); the other
seats are heuristic bots. Only seat 0's decisions are timed, from observation in to action
out. Search bots run at their game's default budget (100 ms in the games of sets, 250 ms in
Ceki and Cholek Tiga) unless ``--budget-ms`` says otherwise.

    uv run python benchmarks/bench_bots.py                       # every game, every level
    uv run python benchmarks/bench_bots.py --games ceki --levels search --hands 5
    uv run python benchmarks/bench_bots.py --games balik-satu,tantanan --levels learned,search

The ``learned`` bot (issue 38) plays at each table size a model ships for (the web table's
own where one ships for it); the search is measured at the same tables in the same run, and
the last lines give the ratio of the two medians in CPU time over the decisions with a choice
(two legal actions or more; a forced move is no decision), the aim at most a tenth.
``--search-rollouts N`` runs the search by rollouts (the arena's budget: the same work on
any machine) instead of by the clock.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from cherki.bots import levels_for, make_bot
from cherki.bots.base import DEFAULT_BUDGET_MS
from cherki.bots.learned import shipped_players
from cherki.bots.search import SearchBot
from cherki.games import GAMES, find_game


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q / 100 * len(s) + 0.5) - 1))]


def measure(
    game_name: str,
    level: str,
    hands: int,
    seed: int,
    budget: float | None,
    players: int | None = None,
    rollouts: int | None = None,
    cpu: list[float] | None = None,
) -> list[float]:
    """Seat 0's decision times (wall, ms); the CPU times (ms) of its decisions with a choice
    (two legal actions or more: a forced move takes no thinking) appended to ``cpu``."""
    game = find_game(game_name)
    n = players or game.default_players
    times: list[float] = []
    for h in range(hands):
        state = game.new_state(None, n, seed=seed + h, first=h % n)
        if level == "search" and rollouts is not None:
            bot = SearchBot.by_rollouts(game_name, rollouts)
        elif level == "search":
            bot = SearchBot(game_name, budget_ms=budget if budget is not None else "game")
        else:
            bot = make_bot(game_name, level, players=n)
        others = make_bot(game_name, "heuristic")
        rng = random.Random(seed * 7919 + h)
        while not state.is_terminal:
            seat = state.current
            obs = state.observation(seat)
            if seat == 0:
                c0 = time.process_time()
                t0 = time.perf_counter()
                action = bot.act(obs, rng)
                times.append((time.perf_counter() - t0) * 1000)
                if cpu is not None and len(obs.legal) > 1:
                    cpu.append((time.process_time() - c0) * 1000)
            else:
                action = others.act(obs, rng)
            state.apply(action, seat)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", default=",".join(GAMES), help="comma list of games")
    ap.add_argument(
        "--levels", default="random,heuristic,variant,search,learned", help="comma list of levels"
    )
    ap.add_argument(
        "--hands", type=int, default=20, help="hands per game and level (search: a fifth)"
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--budget-ms",
        type=float,
        default=None,
        help=f"search budget a decision (default: each game's own; {DEFAULT_BUDGET_MS:g} ms "
        "unless the game's heuristic says)",
    )
    ap.add_argument(
        "--search-rollouts", type=int, default=None, help="search by rollouts, not the clock"
    )
    args = ap.parse_args()
    levels = args.levels.split(",")
    cpu: dict[tuple[str, int, str], list[float]] = {}
    print(
        f"{'game':18} {'n':>2} {'level':10} {'decisions':>9} {'median ms':>10} {'p99 ms':>9} "
        f"{'max ms':>9} {'per s':>8} {'searched':>9} {'its median':>10}"
    )
    for name in args.games.split(","):
        default = find_game(name).default_players
        learned = shipped_players(name) if "learned" in levels else []
        for n in sorted({default, *learned}):
            for level in levels:
                if level not in levels_for(name) or (level == "learned" and n not in learned):
                    continue
                if n != default and level not in ("learned", "search"):
                    continue  # another table size: only where the learned bot plays
                hands = max(1, args.hands // 5) if level == "search" else args.hands
                times = cpu.setdefault((name, n, level), [])
                t = measure(
                    name, level, hands, args.seed, args.budget_ms, n, args.search_rollouts, times
                )
                row(name, n, level, t)
    print(
        "targets: heuristic median under 5 ms; search median under 1000 ms "
        "(per s: decisions a second, the mean throughput; searched: search decisions over "
        "20 ms, with their median)"
    )
    for (name, n, level), times in cpu.items():
        if level != "learned" or not times or not cpu.get((name, n, "search")):
            continue
        mine = statistics.median(times)
        search = statistics.median(cpu[(name, n, "search")])
        print(
            f"{name} {n}p: learned median {mine:.3f} ms CPU, search median {search:.3f} ms CPU "
            f"over the decisions with a choice ({len(times)} and "
            f"{len(cpu[(name, n, 'search')])}; same run): ratio {mine / search:.4f} "
            "(aim: at most 0.1)"
        )


def row(name: str, n: int, level: str, t: list[float]) -> None:
    # decisions the search really searched (the others take heuristic time)
    long = [x for x in t if x > 20.0] if level == "search" else []
    print(
        f"{name:18} {n:2d} {level:10} {len(t):9d} {statistics.median(t):10.3f} "
        f"{percentile(t, 99):9.3f} {max(t):9.3f} {1000 * len(t) / sum(t):8.0f} "
        f"{len(long):9d} "
        f"{statistics.median(long) if long else 0.0:10.3f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
