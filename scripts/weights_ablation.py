"""Which of a tuned model's weights make its gain (issue 38): each weight alone, both ways.

For a shipped (or given) model tuned by ``cherki train --method tune``, on the same paired
deals (:func:`cherki.tune.gain`: the batched simulator's keyed deals where it plays the
game, the rules engine's elsewhere), against the hand-set heuristic in seat 0:

* the tuned weights as a whole;
* for each weight, the tuned weights with that one put back to its hand-set value (what the
  gain loses without it), and the hand-set weights with that one tuned (what it gains
  alone).

    uv run python scripts/weights_ablation.py ceki -n 4 --deals 1024 --seed 777
    uv run python scripts/weights_ablation.py balik-satu -n 4 --deals 16384 --seed 5

Each figure is points a hand with its 95% interval over ``--deals`` deals.
"""

from __future__ import annotations

import argparse
from dataclasses import fields, replace

from cherki.bots.learned import load_model, shipped_model
from cherki.bots.weights import TunedWeights
from cherki.tune import gain


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("game")
    ap.add_argument("-n", "--players", type=int, required=True)
    ap.add_argument("--model", help="a model's stem (default: the shipped one)")
    ap.add_argument("--rules", default=None, help="a preset (default: the game's)")
    ap.add_argument("--deals", type=int, default=1024)
    ap.add_argument("--seed", type=int, default=777)
    args = ap.parse_args(argv)
    model = (
        load_model(args.model) if args.model else shipped_model(args.game, args.players, args.rules)
    )
    tuned = model.prior_weights
    plain = type(tuned)()
    if tuned == plain:
        ap.error("this model plays the hand-set weights: nothing was tuned")

    def line(label: str, w: TunedWeights) -> None:
        mean, low, high = gain(args.game, args.players, args.rules, w, args.deals, args.seed)
        print(f"{label}: {mean:+.2f} [{low:+.2f}, {high:+.2f}]", flush=True)

    print(f"{model.game} {args.players}p, {args.deals:,} deals from seed {args.seed}")
    line("the tuned weights", tuned)
    for f in fields(plain):
        was, now = getattr(plain, f.name), getattr(tuned, f.name)
        if was == now:
            continue
        line(
            f"{f.name} {was:g} → {now:g}: tuned but this hand-set", replace(tuned, **{f.name: was})
        )
        line(
            f"{f.name} {was:g} → {now:g}: hand-set but this tuned", replace(plain, **{f.name: now})
        )


if __name__ == "__main__":
    main()
