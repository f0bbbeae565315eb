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

The anchor (issue 27): a *draw/discard prototype with win checks* written here, in the
simulator's shape at the same batch: count-vector hands ``[batch, n, 30]`` (the game's
seats, 14 cards each, a shoe of 6 copies of the 30 kinds, dealt by one ``bincount``), one shuffled
stock per hand. Every step, like the simulator's, every hand makes one decision: the
legal-action mask of every hand is built (31 actions: draw, or discard one of the 30
kinds; in the draw phase only the draw, in the discard phase every kind the seat holds),
one legal action is drawn uniformly from it (the simulator's random policy's way: the
``j``-th set bit of each row), and applied. A draw takes the stock's next card into the
hand and checks the hand for a win (every group of the grouping a whole number of sets,
by one float32 matrix product, and a mata held): a win ends the hand. A discard takes the
card out and passes the turn; an empty stock ends the hand. Hands that end are dealt again
at once. Each step counts one decision per hand, as the simulator counts its draws and
discards. What it leaves out is what the rules add on top of that loop, so the ratio
printed (simulator ÷ prototype, random play, same batch, same run: the two measured in
turns, ``--rounds`` rounds of ``--seconds / --rounds`` each, the median of the rounds'
ratios; the decisions/s printed for both are the rounds' medians) measures their cost:
taking the discard, calls and waits (the mask of calls after each discard), revealed
draws and claims, the kinds a caller may discard, winning on a show, the figures each
hand keeps, and scoring.

Run from the repository root::

    uv run --extra vector python benchmarks/bench_vector.py        # Balik Satu, every batch
    uv run --extra vector python benchmarks/bench_vector.py --game gonggong --seconds 5
    uv run --extra vector python benchmarks/bench_vector.py --batches 256,1024 --policies heuristic
    uv run --extra rl python benchmarks/bench_vector.py --batches 1024,4096 --env
    uv run --extra vector python benchmarks/bench_vector.py --batches 1024 --policies learned
    uv run --extra vector python benchmarks/bench_vector.py --game tantanan --players 3 \
        --batches 1024 --policies learned

``learned`` (issue 38) is the shipped model's batched policy (every seat; the game's
default table size, or ``--players``); its aim is 100,000 decisions/s at B=1,024. A tuned
model (``--method tune``) chooses without its network (``Model.plays_prior``), at the
batched heuristic's speed; a network's model runs one forward pass a step.
"""

from __future__ import annotations

import os

# one core: numpy's BLAS would otherwise use every core for the group sums
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from cherki import find_game  # noqa: E402
from cherki.bots import make_bot  # noqa: E402
from cherki.vector import SetsVector  # noqa: E402
from cherki.vector.policies import HeuristicPolicy, LearnedPolicy, RandomPolicy  # noqa: E402

BATCHES = (1, 16, 64, 256, 1024, 4096, 16384)
# decisions/s with the whole rules, by policy: random play's aim (issues 17 and 27, at
# B=4,096) and the batched heuristic's (issue 27)
TARGETS = {"random": 1_000_000, "heuristic": 200_000, "learned": 100_000}


def batch_policy(policy: str, seed: int) -> HeuristicPolicy | RandomPolicy | LearnedPolicy:
    """The batched policy of a level: ``learned`` is the shipped model of the game at its
    table size (issue 38: every row of a step in one numpy forward pass), played in every
    seat."""
    if policy == "learned":
        return LearnedPolicy()
    return HeuristicPolicy(seed) if policy == "heuristic" else RandomPolicy(seed)


def vector_rate(
    game: str,
    preset: str | None,
    batch: int,
    policy: str,
    seconds: float,
    seed: int,
    players: int | None = None,
) -> tuple[float, float]:
    """(decisions/s, hands/s) of the batched simulator, steady state, CPU time. Hands/s is
    decisions/s over the mean length of the hands finished (a short window at a large
    batch finishes few hands, and only the shortest)."""
    env = SetsVector(game, preset, batch=batch, players=players)
    env.reset(seed=seed)
    act = batch_policy(policy, seed)
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
    game: str,
    preset: str | None,
    batch: int,
    policy: str,
    seconds: float,
    seed: int,
    players: int | None = None,
) -> float:
    """Learner steps/s of ``CherkiVectorEnv`` (the other seats' decisions inside), CPU
    time."""
    from cherki.vector.env import CherkiVectorEnv
    from cherki.vector.policies import pick

    env = CherkiVectorEnv(
        game, batch, rules=preset, players=players,
        opponents=LearnedPolicy() if policy == "learned" else policy,
    )  # fmt: skip
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
    k, each, half, size = N_KINDS, 14, 6, 3
    members = np.zeros((k, N_GROUPS), np.float32)  # kinds x groups, for the group sums
    members[np.arange(k), list(GROUPINGS["rank1"])] = 1
    cards = half * k
    base = np.repeat(np.arange(k), half)
    width = 1 + k  # action 0: draw; 1 + kind: discard a card of that kind
    hands = np.zeros((batch, players, k), np.int16)
    flat = hands.reshape(-1, k)  # one seat's hand by one index
    stock = np.zeros((batch, cards), np.int64)
    pos = np.zeros(batch, np.int64)
    cur = np.zeros(batch, np.int64)
    drawing = np.ones(batch, bool)  # the phase: draw, or discard
    rows_all = np.arange(batch)
    seat_of = np.repeat(np.arange(players), each)

    def deal(rows: np.ndarray) -> None:
        order = rng.permuted(np.broadcast_to(base, (len(rows), cards)), axis=1)
        cells = ((np.arange(len(rows)) * players)[:, None] + seat_of[None, :]) * k
        cells += order[:, : players * each]
        got = np.bincount(cells.ravel(), minlength=len(rows) * players * k)
        hands[rows] = got.reshape(len(rows), players, k)
        stock[rows] = order
        pos[rows] = players * each
        cur[rows] = 0
        drawing[rows] = True

    deal(rows_all)
    clock = time.process_time
    decisions = 0
    start = clock()
    end = start + seconds
    while clock() < end:
        seat = rows_all * players + cur
        hand = flat[seat]
        # the legal-action mask of every row, and one legal action drawn uniformly from it
        mask = np.zeros((batch, width), bool)
        mask[:, 0] = drawing
        mask[:, 1:] = (hand > 0) & ~drawing[:, None]
        legal = np.flatnonzero(mask)
        counts = np.bincount(legal // width, minlength=batch)
        j = (rng.random(batch) * counts).astype(np.int64)
        act = legal[np.cumsum(counts) - counts + j] % width
        decisions += batch
        d = np.flatnonzero(act == 0)  # draw the stock's next card, check for a win
        card = stock[d, pos[d]]
        pos[d] += 1
        flat[seat[d], card] += 1
        got = flat[seat[d]]
        tot = got.astype(np.float32) @ members
        won = ~(tot % size).any(axis=1) & (got.max(axis=1) >= size)
        drawing[d] = False
        x = np.flatnonzero(act > 0)  # discard; the next seat draws
        flat[seat[x], act[x] - 1] -= 1
        cur[x] = (cur[x] + 1) % players
        drawing[x] = True
        over = np.concatenate([d[won], x[pos[x] >= cards]])
        if len(over):
            deal(over)
    return decisions / (clock() - start)


def reference_rate(
    game: str,
    preset: str | None,
    policy: str,
    seconds: float,
    seed: int,
    players: int | None = None,
) -> tuple[float, float]:
    """(decisions/s, hands/s) of the reference engine, one hand at a time."""
    g = find_game(game)
    rules = g.rules(preset)
    rng = random.Random(seed)
    bot = make_bot(game, policy) if policy in ("heuristic", "learned") else None
    clock = time.process_time
    decisions = hands = 0
    start = clock()
    end = start + seconds
    i = 0
    while clock() < end:
        n = players or g.default_players
        state = g.new_state(rules, n, seed=seed + i, first=i % n)
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
    ap.add_argument("--players", type=int, default=None, help="the table (default: the game's)")
    ap.add_argument("--batches", default=",".join(map(str, BATCHES)))
    ap.add_argument("--policies", default="random,heuristic")
    ap.add_argument("--seconds", type=float, default=3.0, help="measured CPU seconds a row")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--env", action="store_true", help="also the Gymnasium vector env")
    ap.add_argument("--no-prototype", action="store_true", help="skip the prototype anchor")
    ap.add_argument(
        "--rounds", type=int, default=3, help="interleaved rounds of simulator and prototype"
    )
    args = ap.parse_args()
    batches = [int(b) for b in args.batches.split(",")]
    policies = [p.strip() for p in args.policies.split(",")]
    players = args.players or find_game(args.game).default_players
    print(
        f"cherki.vector: {args.game} ({args.preset or 'default rules'}), {players} players, "
        "one core"
    )
    print(f"python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}")
    print(f"{'engine':<10}{'policy':<11}{'batch':>7}{'decisions/s':>14}{'hands/s':>11}")
    for policy in policies:
        d, h = reference_rate(args.game, args.preset, policy, args.seconds, args.seed, players)
        print(f"{'reference':<10}{policy:<11}{'-':>7}{d:>14,.0f}{h:>11,.0f}")
        best = 0.0
        for b in batches:
            anchor = policy == "random" and not args.no_prototype
            if not anchor:
                d, h = vector_rate(
                    args.game, args.preset, b, policy, args.seconds, args.seed, players
                )
            else:
                # interleaved: the simulator and the prototype in turns, medians of the rounds
                # and of the rounds' ratios (a busy machine's load changes between rounds)
                part = args.seconds / args.rounds
                rounds = []
                for _ in range(args.rounds):
                    vd, vh = vector_rate(
                        args.game, args.preset, b, policy, part, args.seed, players
                    )
                    rounds.append((vd, vh, prototype_rate(b, players, part, args.seed)))
                d = statistics.median(r[0] for r in rounds)
                h = statistics.median(r[1] for r in rounds)
                proto = statistics.median(r[2] for r in rounds)
                ratio = statistics.median(r[0] / r[2] for r in rounds)
            best = max(best, d)
            print(f"{'vector':<10}{policy:<11}{b:>7}{d:>14,.0f}{h:>11,.0f}")
            if anchor:
                print(f"{'prototype':<10}{'random':<11}{b:>7}{proto:>14,.0f}{'':>11}"
                      f"  draw/discard + win check (simulator {ratio:.2f}×)")  # fmt: skip
            if args.env:
                steps = env_rate(
                    args.game, args.preset, b, policy, args.seconds, args.seed, players
                )
                print(f"{'vec env':<10}{policy:<11}{b:>7}{steps:>14,.0f}{'':>11}"
                      f"  learner steps/s ({steps / d:.2f}× the bare decisions/s)")  # fmt: skip
        if aim := TARGETS.get(policy):
            print(
                f"  best {best:,.0f} decisions/s: {best / aim:.0%} of the {policy} aim of {aim:,}"
            )


if __name__ == "__main__":
    main()
