"""Benchmark: the batched simulator (cherki.vector) on one core, batch sizes 1 to 16,384.

For each game, policy (random, heuristic) and batch size it plays hands in lockstep for a
fixed time after a warm-up, dealing a new hand into every row whose hand ends, and prints
decisions/s (one action applied in one hand, as the engine counts them) and hands/s (hands
finished). The reference engine (``state.legal_actions()`` then ``state.apply``, one hand at
a time) is measured the same way for comparison, with the random policy and with the
heuristic bot reading the acting seat's observation.

With ``--env`` it also measures ``cherki.vector.env.CherkiVectorEnv`` (the Gymnasium vector
environment: one learning seat a hand, the batched heuristic or random policy in the other
seats, the learner's observations encoded in the adapters' layout at every step) at each
batch size: the learner's steps/s (choosing uniformly among its legal actions; the other
seats' decisions happen inside each step), and its ratio to the bare simulator's
decisions/s of the same run.

The anchor (issue 27): a *draw/discard prototype* written here, the same shape as the
simulator's core at the same batch: count-vector hands ``[batch, n, 30]``, a shuffled stock
per hand, every turn the seat to act draws the stock's next card, its hand is checked for a
win (every value group a whole number of sets, one matrix product), and it discards a
uniformly drawn card it holds; a hand ends on a win or an empty stock and is dealt again.
Its decisions are the draws and discards, as the simulator counts them. No calls, claims,
takes, scoring or legal masks: what the rules add on top of that loop is what the ratio
printed (simulator ÷ prototype, random play, same batch, same run) measures.

Run from the repository root::

    uv run python benchmarks/bench_vector.py                       # Balik Satu, every batch
    uv run python benchmarks/bench_vector.py --game gonggong --seconds 5
    uv run python benchmarks/bench_vector.py --batches 256,1024 --policies heuristic
    uv run --extra rl python benchmarks/bench_vector.py --batches 1024,4096 --env
"""

from __future__ import annotations

import os

# one core: numpy's BLAS would otherwise use every core for the group sums
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from cherki import find_game  # noqa: E402
from cherki.bots import make_bot  # noqa: E402
from cherki.vector import SetsVector  # noqa: E402
from cherki.vector.policies import HeuristicPolicy, RandomPolicy  # noqa: E402

BATCHES = (1, 16, 64, 256, 1024, 4096, 16384)
TARGET = 1_000_000  # decisions/s with the whole rules (issue 17's aim)


def vector_rate(
    game: str, preset: str | None, batch: int, policy: str, seconds: float, seed: int
) -> tuple[float, float]:
    """(decisions/s, hands/s) of the batched simulator, steady state, CPU time. Hands/s is
    decisions/s over the mean length of the hands finished (a short window at a large
    batch finishes few hands, and only the shortest)."""
    env = SetsVector(game, preset, batch=batch)
    env.reset(seed=seed)
    act = HeuristicPolicy(seed) if policy == "heuristic" else RandomPolicy(seed)
    clock = time.process_time
    warm = clock() + min(1.0, seconds / 4)
    while clock() < warm:
        rows = np.flatnonzero(~env.done)
        env._deal_next(env.apply(rows, act(env, rows)))
    lengths = [env.take_finished().actions]
    decisions = 0
    start = clock()
    end = start + seconds
    while clock() < end:
        rows = np.flatnonzero(~env.done)
        decisions += len(rows)
        env._deal_next(env.apply(rows, act(env, rows)))
    spent = clock() - start
    lengths.append(env.take_finished().actions)
    rows = np.flatnonzero(~env.done)
    env.stop_dealing()
    while len(rows):  # the hands in play, to their end, for their lengths
        env.apply(rows, act(env, rows))
        rows = np.flatnonzero(~env.done)
    lengths.append(env.take_finished().actions)
    mean = float(np.concatenate(lengths).mean())
    return decisions / spent, decisions / spent / mean


def env_rate(
    game: str, preset: str | None, batch: int, policy: str, seconds: float, seed: int
) -> float:
    """Learner steps/s of ``CherkiVectorEnv`` (the other seats' decisions inside), CPU
    time."""
    from cherki.vector.env import CherkiVectorEnv
    from cherki.vector.policies import pick

    env = CherkiVectorEnv(game, batch, rules=preset, opponents=policy)
    _obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def choose(mask: np.ndarray) -> np.ndarray:
        acts = np.zeros(batch, np.int64)
        some = np.flatnonzero(mask.any(axis=1))
        acts[some] = pick(mask[some], rng)
        return acts

    clock = time.process_time
    warm = clock() + min(1.0, seconds / 4)
    while clock() < warm:
        _obs, _r, _t, _tr, info = env.step(choose(info["action_mask"]))
    steps = 0
    start = clock()
    end = start + seconds
    while clock() < end:
        steps += int(info["action_mask"].any(axis=1).sum())
        _obs, _r, _t, _tr, info = env.step(choose(info["action_mask"]))
    return steps / (clock() - start)


def prototype_rate(batch: int, players: int, seconds: float, seed: int) -> float:
    """Decisions/s of the draw/discard prototype (see the module), CPU time."""
    from cherki.core.cards import N_KINDS
    from cherki.core.sets import GROUPINGS, N_GROUPS

    rng = np.random.default_rng(seed)
    k, each, half = N_KINDS, 14, 6
    members = np.zeros((k, N_GROUPS), np.int16)
    members[np.arange(k), list(GROUPINGS["rank1"])] = 1
    cards = half * k
    base = np.repeat(np.arange(k), half)
    hands = np.zeros((batch, players, k), np.int16)
    stock = np.zeros((batch, cards), np.int64)
    pos = np.zeros(batch, np.int64)
    cur = np.zeros(batch, np.int64)
    rows_all = np.arange(batch)

    def deal(rows: np.ndarray) -> None:
        order = rng.permuted(np.broadcast_to(base, (len(rows), cards)), axis=1)
        hands[rows] = 0
        for s in range(players):
            got = order[:, s * each : (s + 1) * each]
            np.add.at(hands, (np.repeat(rows, each), s, got.ravel()), 1)
        stock[rows] = order
        pos[rows] = players * each
        cur[rows] = 0

    deal(rows_all)
    clock = time.process_time
    decisions = 0
    start = clock()
    end = start + seconds
    while clock() < end:
        card = stock[rows_all, pos]  # draw
        pos += 1
        hands[rows_all, cur, card] += 1
        tot = hands[rows_all, cur] @ members  # the win check: whole sets in every group
        won = ~(tot % 3).any(axis=1)
        held = hands[rows_all, cur] > 0  # discard a held card, uniformly
        counts = held.sum(axis=1)
        j = (rng.random(batch) * counts).astype(np.int64)
        kind = np.argmax(np.cumsum(held, axis=1) > j[:, None], axis=1)
        hands[rows_all, cur, kind] -= 1
        cur = (cur + 1) % players
        decisions += 2 * batch
        over = np.flatnonzero(won | (pos >= cards))
        if len(over):
            deal(over)
    return decisions / (clock() - start)


def reference_rate(
    game: str, preset: str | None, policy: str, seconds: float, seed: int
) -> tuple[float, float]:
    """(decisions/s, hands/s) of the reference engine, one hand at a time."""
    g = find_game(game)
    rules = g.rules(preset)
    rng = random.Random(seed)
    bot = make_bot(game, "heuristic") if policy == "heuristic" else None
    clock = time.process_time
    decisions = hands = 0
    start = clock()
    end = start + seconds
    i = 0
    while clock() < end:
        state = g.new_state(rules, seed=seed + i, first=i % g.default_players)
        i += 1
        while not state.is_terminal:
            if bot is None:
                a = rng.choice(state.legal_actions())
            else:
                a = bot.act(state.observation(state.current), rng)
            state.apply(a)
            decisions += 1
        hands += 1
    spent = clock() - start
    return decisions / spent, hands / spent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="balik-satu")
    ap.add_argument("--preset", default=None)
    ap.add_argument("--batches", default=",".join(map(str, BATCHES)))
    ap.add_argument("--policies", default="random,heuristic")
    ap.add_argument("--seconds", type=float, default=3.0, help="measured CPU seconds a row")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--env", action="store_true", help="also the Gymnasium vector env")
    ap.add_argument("--no-prototype", action="store_true", help="skip the prototype anchor")
    args = ap.parse_args()
    batches = [int(b) for b in args.batches.split(",")]
    policies = [p.strip() for p in args.policies.split(",")]
    print(f"cherki.vector: {args.game} ({args.preset or 'default rules'}), one core")
    print(f"python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}")
    print(f"{'engine':<10}{'policy':<11}{'batch':>7}{'decisions/s':>14}{'hands/s':>11}")
    for policy in policies:
        d, h = reference_rate(args.game, args.preset, policy, args.seconds, args.seed)
        print(f"{'reference':<10}{policy:<11}{'-':>7}{d:>14,.0f}{h:>11,.0f}")
        best = 0.0
        for b in batches:
            d, h = vector_rate(args.game, args.preset, b, policy, args.seconds, args.seed)
            best = max(best, d)
            print(f"{'vector':<10}{policy:<11}{b:>7}{d:>14,.0f}{h:>11,.0f}")
            if policy == "random" and not args.no_prototype:
                players = find_game(args.game).default_players
                proto = prototype_rate(b, players, args.seconds, args.seed)
                print(f"{'prototype':<10}{'random':<11}{b:>7}{proto:>14,.0f}{'':>11}"
                      f"  draw/discard + win check (simulator {d / proto:.2f}×)")  # fmt: skip
            if args.env:
                steps = env_rate(args.game, args.preset, b, policy, args.seconds, args.seed)
                print(f"{'vec env':<10}{policy:<11}{b:>7}{steps:>14,.0f}{'':>11}"
                      f"  learner steps/s ({steps / d:.2f}× the bare decisions/s)")  # fmt: skip
        print(f"  best {best:,.0f} decisions/s: {best / TARGET:.0%} of the aim of {TARGET:,}")


if __name__ == "__main__":
    main()
