"""Benchmark: every game played with uniformly random legal actions on one core.

For each game (its default table and preset) five figures from the same seeded hands,
each timed over *whole hands*, from a fresh deal (``game.new_state(seed=...)``) to the
hand's end:

* decisions/s, plain: ``state.legal_actions()`` then ``state.apply(action)`` at every
  decision;
* decisions/s with the observation: the acting seat's ``state.observation(seat)`` built at
  every decision too;
* decisions/s with the encoding: ``state.observation(seat).encode()`` (the float32 vector a
  learner reads) at every decision;
* decisions/s with the state's encoding: ``state.encode(seat)``, the same vector by the
  path the adapters take (the games of sets keep blocks between steps; Ceki and Cholek
  Tiga write it from their state, without the observation);
* hands/s: whole hands, plain (the same time as the plain figure).

The anchors are OpenSpiel's C++ games through pyspiel's Python API (the ``rl`` extra),
measured exactly the same way in the same process: whole hands from
``game.new_initial_state()`` to the terminal state, the deal's and the draws' chance nodes
included in the time (each outcome picked by ``random.choice`` among
``state.legal_actions()``, as cherki's deal picks its shuffle: hearts' and gin rummy's
chance outcomes are all equally likely, which the script checks), every player decision a
uniformly random legal action, and only the players' decisions counted (a chance node is
no decision). ``hearts`` is the anchor of plain play; ``gin_rummy`` with the acting seat's
``observation_tensor`` at every decision is the anchor of the encodings. The ratios printed
are cherki's decisions/s over the anchor's.

A *decision* is one call of ``state.apply`` (``apply_action`` at a player's node). Times are
the process's CPU time, which other work on the machine disturbs less than the wall clock.
The figures are measured in ``--rounds`` interleaved rounds (each round runs the anchors,
then every game in every mode, once over the same hands) after one warm-up round; each
printed figure is the median of the rounds, and each ratio the ratio of the medians. With
``--pettingzoo`` it also runs PettingZoo's ``performance_benchmark`` on each game's AEC
environment (turns/s), and with rlcard installed it plays RLCard's Mahjong the same way and
prints the ratio. Run from the repository root::

    uv run --extra rl python benchmarks/bench_engine.py      # 100 hands a game, seed 1
    uv run --extra rl python benchmarks/bench_engine.py --hands 300 --games balik-satu,ceki
    uv run --extra rl python benchmarks/bench_engine.py --modes plain --rounds 9
    uv run --extra rl python benchmarks/bench_engine.py --pettingzoo
    CHERKI_COMPILED=1 uv run --extra rl python benchmarks/bench_engine.py --modes plain

The engine measured is the one ``import cherki`` gives, printed on the second line: pure
Python, or with ``CHERKI_COMPILED=1`` the opt-in mypyc build of ``scripts/compile_engine.py``
(see ``cherki.compiled``).
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import sys
import time
from typing import Any

from cherki.games import GAMES, find_game

try:  # which engine ``import cherki`` gave: pure Python, or the mypyc build (cherki.compiled)
    from cherki.compiled import BUILD as ENGINE_BUILD
except ImportError:  # a cherki from before the compiled engine (an older export)
    ENGINE_BUILD = "python"

#: issue 27: plain play against OpenSpiel's C++ hearts (the big games of sets, every game),
#: and Balik Satu at 4 with the encoding a learner reads at every decision
TARGET_BIG_HEARTS = 1.2
TARGET_ANY_HEARTS = 1.0
TARGET_BALIK_ENCODE = 100_000
#: the big games of sets (a whole stock played out, four seats or more by default)
BIG_SETS = ("balik-satu", "balik-lima-belas", "chaqui", "chot", "gonggong")
MODES = ("plain", "obs", "encode", "fast")


def play(game: Any, seed: int, mode: str) -> tuple[int, float]:
    """One whole hand, deal included: (decisions, CPU seconds)."""
    rng = random.Random(seed * 7919 + 1)
    choice = rng.choice
    clock = time.process_time  # CPU time: steadier than the wall clock on a shared machine
    t0 = clock()
    state = game.new_state(seed=seed)
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
    return n, clock() - t0


def game_round(game: Any, hands: int, seed: int, mode: str) -> tuple[float, float, float]:
    """One game's decisions/s, hands/s and decisions a hand over ``hands`` whole hands."""
    gc.collect()
    decisions = 0
    spent = 0.0
    for s in range(seed, seed + hands):
        n, t = play(game, s, mode)
        decisions += n
        spent += t
    return decisions / spent, hands / spent, decisions / hands


def spiel_game(name: str) -> Any:
    """OpenSpiel's C++ game ``name``, or None without open_spiel; its chance outcomes are
    checked to be equally likely along one hand (the script picks them uniformly)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            probs = [p for _, p in state.chance_outcomes()]
            assert max(probs) - min(probs) < 1e-9, f"{name}: chance outcomes not uniform"
        state.apply_action(rng.choice(state.legal_actions()))
    return game


def spiel_round(game: Any, hands: int, seed: int, tensor: bool) -> float:
    """OpenSpiel decisions/s over ``hands`` whole hands, deal included (chance outcomes
    picked uniformly, not counted as decisions), random legal play; with ``tensor`` the
    acting seat's observation tensor at every decision."""
    clock = time.process_time
    rng = random.Random(seed)
    choice = rng.choice
    decisions = 0
    gc.collect()
    t = clock()
    for _h in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.legal_actions()))
                continue
            if tensor:
                state.observation_tensor(state.current_player())
            state.apply_action(choice(state.legal_actions()))
            decisions += 1
    return decisions / (clock() - t)


def rlcard_mahjong(hands: int, seed: int) -> float | None:
    """RLCard's Mahjong decisions/s with random legal actions, or None without rlcard."""
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": seed})
    rng = random.Random(seed)
    decisions = 0
    start = time.process_time()  # CPU time, as every other figure here
    for _ in range(hands):
        state, _player = env.reset()
        while not env.is_over():
            action = rng.choice(list(state["legal_actions"]))
            state, _player = env.step(action)
            decisions += 1
    return decisions / (time.process_time() - start)


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
    p.add_argument("--hands", type=int, default=100, help="hands a game and a round")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rounds", type=int, default=5, help="interleaved rounds (the median)")
    p.add_argument("--games", default=",".join(sorted(GAMES)))
    p.add_argument("--modes", default=",".join(MODES), help=f"of {','.join(MODES)}")
    p.add_argument("--pettingzoo", action="store_true")
    p.add_argument("--no-anchors", action="store_true", help="skip OpenSpiel's hearts/gin")
    args = p.parse_args()
    names = [g.strip() for g in args.games.split(",") if g.strip()]
    modes = [m for m in MODES if m == "plain" or m in args.modes.split(",")]
    games = {name: find_game(name) for name in names}
    print(f"Python {sys.version.split()[0]} on {platform.machine()}, one core, random play, "
          f"{args.hands} whole hands a game and a round from seed {args.seed}, CPU time, "
          f"median of {args.rounds} interleaved rounds")  # fmt: skip
    # pure Python by default; CHERKI_COMPILED=1 measures the mypyc build (cherki.compiled)
    print(f"cherki's engine: {ENGINE_BUILD}")
    hearts = gin = None
    if not args.no_anchors:
        hearts, gin = spiel_game("hearts"), spiel_game("gin_rummy")
        if hearts is None:
            print("OpenSpiel: not installed (uv run --extra rl ... to compare with it)")
    gin_hands = max(10, args.hands // 4)
    runs: dict[str, list[float]] = {}
    for r in range(args.rounds + 1):  # the first round warms up and is not counted
        row: dict[str, float] = {}
        if hearts is not None:
            row["hearts"] = spiel_round(hearts, args.hands, args.seed, tensor=False)
        if gin is not None and {"encode", "fast"} & set(modes):
            row["gin"] = spiel_round(gin, gin_hands, args.seed, tensor=True)
        for name, game in games.items():
            for mode in modes:
                rate, hands_s, length = game_round(game, args.hands, args.seed, mode)
                row[f"{name}/{mode}"] = rate
                if mode == "plain":
                    row[f"{name}/hands"] = hands_s
                    row[f"{name}/length"] = length
        if r:
            for key, value in row.items():
                runs.setdefault(key, []).append(value)
    med = {key: statistics.median(values) for key, values in runs.items()}
    if "hearts" in med:
        line = f"OpenSpiel C++ hearts {med['hearts']:,.0f} decisions/s plain"
        if "gin" in med:
            line += f"; gin_rummy {med['gin']:,.0f} with its observation tensor"
        print(line + " (whole hands, deal included)")
    widths = {"obs": ("+obs dec/s", 11), "encode": ("+encode", 9), "fast": ("+state.enc", 11)}
    head = f"{'game':18} {'plain dec/s':>12}"
    for mode in modes[1:]:
        head += f" {widths[mode][0]:>{widths[mode][1]}}"
    head += f" {'hands/s':>8} {'dec/hand':>9}"
    if "hearts" in med:
        head += f" {'×hearts':>8}"
    if "gin" in med and "fast" in modes:
        head += f" {'enc ×gin':>8}"
    if args.pettingzoo:
        head += f" {'PZ turns/s':>11}"
    print(head)
    for name in names:
        line = f"{name:18} {med[name + '/plain']:12,.0f}"
        for mode in modes[1:]:
            line += f" {med[f'{name}/{mode}']:{widths[mode][1]},.0f}"
        line += f" {med[name + '/hands']:8,.1f} {med[name + '/length']:9.0f}"
        if "hearts" in med:
            line += f" {med[name + '/plain'] / med['hearts']:8.2f}"
        if "gin" in med and "fast" in modes:
            line += f" {med[name + '/fast'] / med['gin']:8.2f}"
        if args.pettingzoo:
            line += f" {pettingzoo_turns(name):11,.0f}"
        print(line, flush=True)
    if "hearts" in med:
        anchor = med["hearts"]
        big = [n for n in names if n in BIG_SETS]
        short = [n for n in big if med[n + "/plain"] < TARGET_BIG_HEARTS * anchor]
        low = [n for n in names if med[n + "/plain"] < TARGET_ANY_HEARTS * anchor]
        print(f"below {TARGET_BIG_HEARTS}× hearts (big games of sets): "
              f"{', '.join(short) if short else 'none'}; below {TARGET_ANY_HEARTS}× hearts: "
              f"{', '.join(low) if low else 'none'}")  # fmt: skip
    if "balik-satu/fast" in med:
        fast = med["balik-satu/fast"]
        line = f"Balik Satu with state.encode at every decision: {fast:,.0f} decisions/s "
        line += f"(target {TARGET_BALIK_ENCODE:,})"
        if "balik-satu/encode" in med:
            line += f", {fast / med['balik-satu/encode']:.1f}× through the observation's"
        print(line)
    rl = rlcard_mahjong(max(10, args.hands // 10), args.seed)
    if rl is None:
        print("RLCard: not installed (pip install rlcard to compare with its Mahjong)")
    elif "balik-satu/plain" in med:
        print(f"RLCard Mahjong: {rl:,.0f} decisions/s; Balik Satu is "
              f"{med['balik-satu/plain'] / rl:.1f}× that")  # fmt: skip


if __name__ == "__main__":
    main()
