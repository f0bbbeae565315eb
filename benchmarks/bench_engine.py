"""Benchmark: every game played with uniformly random legal actions on one core.

For each game (its default table and preset) four figures from the same seeded hands:

* decisions/s, plain: ``state.legal_actions()`` then ``state.apply(action)`` at every
  decision (dealing not counted);
* decisions/s with the observation: the acting seat's ``state.observation(seat)`` built at
  every decision too;
* decisions/s with the encoding: ``state.observation(seat).encode()`` (the float32 vector a
  learner reads) at every decision;
* decisions/s with the state's encoding: ``state.encode(seat)``, the same vector by the
  path the adapters take (the games of sets keep blocks between steps; the other games
  build the observation and encode it);
* hands/s: dealing plus playing the whole hand, plain.

The anchors, measured in the same run the same way (dealing not counted, random legal
actions, CPU time, best of ``--repeat``): OpenSpiel's C++ ``hearts`` plain, and its C++
``gin_rummy`` with the acting seat's ``observation_tensor`` at every decision (needs the
``rl`` extra; a chance node after the deal, a draw from the stock, counts with the
decision it follows). The ratios printed are cherki's over the anchor's.

A *decision* is one call of ``state.apply``. Times are the process's CPU time, which other
work on the machine disturbs less than the wall clock, and each figure is the best of
``--repeat`` runs (5). With ``--pettingzoo`` it also runs PettingZoo's
``performance_benchmark`` on each game's AEC environment (turns/s), and with rlcard
installed it plays RLCard's Mahjong the same way and prints the ratio. Run from the
repository root::

    uv run python benchmarks/bench_engine.py                 # 200 hands a game, seed 1
    uv run python benchmarks/bench_engine.py --hands 500 --games balik-satu,ceki
    uv run --extra rl python benchmarks/bench_engine.py --pettingzoo
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import sys
import time
from typing import Any

from cherki.games import GAMES, find_game

#: the issue's targets (Balik Satu; no game below TARGET_ANY plain)
TARGET_BALIK_PLAIN = 200_000
TARGET_BALIK_OBS = 100_000
TARGET_ANY = 100_000
#: issue 27: Balik Satu at 4 with the encoding a learner reads at every decision
TARGET_BALIK_ENCODE = 100_000
MODES = ("plain", "obs", "encode", "fast")


def play(game: Any, seed: int, mode: str) -> tuple[int, float, float]:
    """One hand: (decisions, deal seconds, play seconds)."""
    rng = random.Random(seed * 7919 + 1)
    choice = rng.choice
    clock = time.process_time  # CPU time: steadier than the wall clock on a shared machine
    t0 = clock()
    state = game.new_state(seed=seed)
    t1 = clock()
    n = 0
    if mode == "plain":
        while state.current >= 0:
            state.apply(choice(state.legal_actions()))
            n += 1
    elif mode == "obs":
        while state.current >= 0:
            state.observation(state.current)
            state.apply(choice(state.legal_actions()))
            n += 1
    elif mode == "encode":
        while state.current >= 0:
            state.observation(state.current).encode()
            state.apply(choice(state.legal_actions()))
            n += 1
    else:
        while state.current >= 0:
            state.encode(state.current)
            state.apply(choice(state.legal_actions()))
            n += 1
    return n, t1 - t0, clock() - t1


def spiel_rate(name: str, hands: int, seed: int, repeat: int, tensor: bool) -> float | None:
    """OpenSpiel's ``name`` decisions/s with random legal actions (the deal's chance nodes
    not counted; with ``tensor`` the acting seat's observation tensor at every decision),
    best of ``repeat``; None without open_spiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    clock = time.process_time
    best = 0.0
    for _ in range(repeat):
        gc.collect()
        rng = random.Random(seed)
        decisions = 0
        spent = 0.0
        for _h in range(hands):
            state = game.new_initial_state()
            while state.is_chance_node():  # the deal
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            t = clock()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(rng.choice(state.chance_outcomes())[0])
                    continue
                if tensor:
                    state.observation_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
            spent += clock() - t
        best = max(best, decisions / spent)
    return best


def measure(name: str, hands: int, seed: int, repeat: int = 5) -> dict[str, float]:
    """Each figure is the best of ``repeat`` runs over the same hands (the usual way to
    read a benchmark on a machine that other work disturbs)."""
    game = find_game(name)
    out: dict[str, float] = {}
    for mode in MODES:
        for _ in range(repeat):
            gc.collect()
            decisions = 0
            deal = spent = 0.0
            for s in range(seed, seed + hands):
                n, d, p = play(game, s, mode)
                decisions += n
                deal += d
                spent += p
            out[mode] = max(out.get(mode, 0.0), decisions / spent)
            if mode == "plain":
                out["hands"] = max(out.get("hands", 0.0), hands / (deal + spent))
                out["length"] = decisions / hands
    return out


def rlcard_mahjong(hands: int, seed: int) -> float | None:
    """RLCard's Mahjong decisions/s with random legal actions, or None without rlcard."""
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": seed})
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(hands):
        state, _player = env.reset()
        while not env.is_over():
            action = rng.choice(list(state["legal_actions"]))
            state, _player = env.step(action)
            decisions += 1
    return decisions / (time.perf_counter() - start)


def pettingzoo_turns(name: str) -> float:
    import io
    from contextlib import redirect_stdout

    from pettingzoo.test import performance_benchmark

    from cherki.adapters.pettingzoo import env

    text = io.StringIO()
    with redirect_stdout(text):
        performance_benchmark(env(name))
    for line in text.getvalue().splitlines():
        if "turns per second" in line:
            return float(line.split()[0])
    return float("nan")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--repeat", type=int, default=5, help="runs of each figure (the best)")
    p.add_argument("--games", default=",".join(sorted(GAMES)))
    p.add_argument("--pettingzoo", action="store_true")
    p.add_argument("--no-anchors", action="store_true", help="skip OpenSpiel's hearts/gin")
    args = p.parse_args()
    names = [g.strip() for g in args.games.split(",") if g.strip()]
    print(f"Python {sys.version.split()[0]} on {platform.machine()}, one core, random play, "
          f"{args.hands} hands a game from seed {args.seed}, best of {args.repeat}")  # fmt: skip
    hearts = gin = None
    if not args.no_anchors:
        hearts = spiel_rate("hearts", args.hands, args.seed, args.repeat, tensor=False)
        gin = spiel_rate("gin_rummy", max(10, args.hands // 4), args.seed, args.repeat, True)
    if hearts is not None and gin is not None:
        print(f"OpenSpiel C++ hearts {hearts:,.0f} decisions/s plain; gin_rummy "
              f"{gin:,.0f} with its observation tensor")  # fmt: skip
    head = f"{'game':18} {'plain dec/s':>12} {'+obs dec/s':>11} {'+encode':>9} {'+state.enc':>11} "
    head += f"{'hands/s':>8} {'dec/hand':>9}"
    if hearts is not None:
        head += f" {'×hearts':>8}"
    if args.pettingzoo:
        head += f" {'PZ turns/s':>11}"
    print(head)
    figures = {}
    for name in names:
        f = measure(name, args.hands, args.seed, args.repeat)
        figures[name] = f
        line = f"{name:18} {f['plain']:12,.0f} {f['obs']:11,.0f} {f['encode']:9,.0f} "
        line += f"{f['fast']:11,.0f} {f['hands']:8,.1f} {f['length']:9.0f}"
        if hearts is not None:
            line += f" {f['plain'] / hearts:8.2f}"
        if args.pettingzoo:
            line += f" {pettingzoo_turns(name):11,.0f}"
        print(line, flush=True)
    if "balik-satu" in figures:
        b = figures["balik-satu"]
        print(f"Balik Satu: {b['plain']:,.0f} plain (target {TARGET_BALIK_PLAIN:,}), "
              f"{b['obs']:,.0f} with observations (target {TARGET_BALIK_OBS:,})")  # fmt: skip
        gain = b["fast"] / b["encode"]
        print(f"Balik Satu with the encoding a learner reads: {b['encode']:,.0f} through the "
              f"observation, {b['fast']:,.0f} through state.encode (target "
              f"{TARGET_BALIK_ENCODE:,}; {gain:.1f}× the observation's)")  # fmt: skip
        if gin is not None:
            print(f"  that is {b['fast'] / gin:.2f}× OpenSpiel's gin_rummy with its tensor")
    low = [n for n, f in figures.items() if f["plain"] < TARGET_ANY]
    print("games below 100,000 plain decisions/s:", ", ".join(low) if low else "none")
    rl = rlcard_mahjong(max(10, args.hands // 10), args.seed)
    if rl is None:
        print("RLCard: not installed (pip install rlcard to compare with its Mahjong)")
    elif "balik-satu" in figures:
        print(f"RLCard Mahjong: {rl:,.0f} decisions/s; Balik Satu is "
              f"{figures['balik-satu']['plain'] / rl:.1f}× that")  # fmt: skip


if __name__ == "__main__":
    main()
