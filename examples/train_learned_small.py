"""Train a small learned bot from scratch in a few CPU-minutes, then seat it in the arena.

The same method as ``cherki train`` (:mod:`cherki.train`: behaviour cloning of the batched
heuristic, then PPO against heuristic opponents on ``CherkiVectorEnv``), at a smaller
network and budget. The model it writes is a :class:`cherki.bots.learned.Model` (numpy
weights and a model card); it plays in the arena as a policy seat, and its batched form
(:class:`cherki.vector.policies.LearnedPolicy`) plays whole batches of hands at once.

JAX and optax are the ``train`` extra::

    uv run --extra train python examples/train_learned_small.py --game tantanan --players 3 \\
        --seconds 120 --hands 96

Figures depend on the budget and the machine (a CPU budget is wall-clock dependent on how
busy the machine is, not on what is learned per CPU-second); expect the cloned policy a few
points a hand below the heuristic after a minute, close to it after a few.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np

from cherki.bots.learned import load_model
from cherki.bots.policy import register_policy
from cherki.games import find_game
from cherki.play.arena import run_arena
from cherki.train import train


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="tantanan")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=120.0, help="CPU-seconds of training")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hands", type=int, default=96, help="arena hands (bots × players × deals)")
    ap.add_argument(
        "--out", type=Path, default=None, help="folder for the run (default: temporary)"
    )
    args = ap.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="cherki-learned-"))
    train(
        args.game, args.players, args.seconds, args.seed, out,
        hidden=(128, 64), eval_hands=1024, eval_every=30.0, bc_share=0.6,
    )  # fmt: skip
    game = find_game(args.game)
    model = load_model(out / f"{game.name}-{args.players}p")

    def act(obs: np.ndarray, mask: np.ndarray) -> int:
        return int(model.choose(obs[None, :], mask[None, :])[0])

    register_policy("small", act, games=[game.name])
    res = run_arena(
        game, ["policy:small", "heuristic"], args.hands, 1, players=args.players,
        field="heuristic",
    )  # fmt: skip
    for a, b, iv in res.pairs():
        print(f"{a} − {b}: {iv.mean:+.2f} [{iv.low:+.2f}, {iv.high:+.2f}] points a hand")
    print(f"learning curve: {out / 'curve.png'}")


if __name__ == "__main__":
    main()
