"""CPU time to review one seat's decisions in a whole hand (:mod:`cherki.play.review`).

For each game (a 4-player Balik Satu hand, a 4-player Ceki hand, a 3-player Cholek Tiga
hand, at each game's default preset) it plays ``--hands`` hands with the heuristic bot on
every seat, then reviews seat 0 of each at the review's default budget
(``cherki.bots.review.DEFAULT_BUDGET`` sampled deals a decision, every legal action played
in each), and prints the seat's real decisions, the CPU seconds of each review
(``time.process_time``: this process only; the review starts no other) and the ratio to the
anchor, the CPU time of playing that hand once with the heuristic (the rollout's unit). The
target: under 30 CPU-seconds a hand at the default budget on the reference machine (2
cores, 2026).

    uv run --group dev python benchmarks/bench_review.py
    uv run --group dev python benchmarks/bench_review.py --hands 5 --budget 32
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from cherki.bots.base import heuristic_for
from cherki.bots.review import DEFAULT_BUDGET
from cherki.core.contract import State
from cherki.core.deal import DealRequest
from cherki.games import find_game
from cherki.play.records import Record, hand_record, new_record
from cherki.play.review import review_record

GAMES = (("balik-satu", 4), ("ceki", 4), ("cholek-tiga", 3))
TARGET_S = 30.0


def play_hand(name: str, players: int, seed: int) -> tuple[Record, float]:
    """A hand played by the heuristic on every seat, and its CPU seconds (the anchor)."""
    game = find_game(name)
    rules = game.default_preset().rules
    bot = heuristic_for(name)
    t0 = time.process_time()
    state: State = game.start(rules, players, DealRequest(seed=seed))
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(bot.act(state.observation(state.current), rng))
    anchor = time.process_time() - t0
    record = new_record(game, rules, [f"p{i}" for i in range(players)])
    record.hands.append(hand_record(state))
    return record, anchor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=3, help="hands reviewed a game")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--seed", type=int, default=1, help="the first hand's seed")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    args = parser.parse_args()
    print(f"review of seat 0, budget {args.budget} sampled deals a decision, {args.hands} hands")
    print(
        f"{'game':<12} {'hand':>4} {'decisions':>9} {'CPU s':>7} {'s/decision':>10} "
        f"{'anchor ms':>9} {'× anchor':>9}"
    )
    out: dict[str, list[dict[str, float]]] = {}
    for name, players in GAMES:
        rows = out.setdefault(name, [])
        for h in range(args.hands):
            seed = args.seed + h
            record, anchor = play_hand(name, players, seed)
            t0 = time.process_time()
            review = review_record(record, 0, budget=args.budget)
            cpu = time.process_time() - t0
            n = len(review.decisions)
            rows.append({"seed": seed, "decisions": n, "cpu_s": cpu, "anchor_s": anchor})
            print(
                f"{name:<12} {seed:>4} {n:>9} {cpu:>7.2f} {cpu / max(n, 1):>10.3f} "
                f"{anchor * 1000:>9.1f} {cpu / anchor:>9.0f}"
            )
    print()
    print(f"{'game':<12} {'mean CPU s':>10} {'worst CPU s':>11}  target < {TARGET_S:g} s")
    for name, rows in out.items():
        cpus = [r["cpu_s"] for r in rows]
        worst = max(cpus)
        verdict = "meets" if worst < TARGET_S else "MISSES"
        print(f"{name:<12} {statistics.mean(cpus):>10.2f} {worst:>11.2f}  {verdict}")
    if args.json:
        args.json.write_text(json.dumps({"budget": args.budget, "games": out}, indent=1) + "\n")


if __name__ == "__main__":
    main()
