"""Store a learned model's weight matrices as float16: half the bytes, the same play.

    uv run python scripts/halve_model.py src/cherki/bots/models/ceki-2p

Only a model that plays its prior (``Model.plays_prior``: the tuned models, whose policy
head is zero) is halved: its choices never read the network, so its play and its card's
arena figures stay exactly as they were; its value estimates move by float16's rounding.
A model whose network chooses is refused in one sentence. The card records the command.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from cherki.bots.learned import halve, load_model
from cherki.core.errors import RulesError


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stem", type=Path, help="the model's path without its suffix")
    args = ap.parse_args(argv)
    try:
        model = load_model(args.stem)
        half = halve(model)
    except RulesError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    stem = args.stem.with_suffix("") if args.stem.suffix == ".npz" else args.stem
    before = stem.with_suffix(".npz").stat().st_size
    training = half.card.setdefault("training", {})
    cmd = f"python scripts/halve_model.py {args.stem}"
    commands = training.setdefault("commands", [])
    if all(c.get("command") != cmd for c in commands):
        commands.append({"command": cmd, "from_cpu": training.get("cpu_seconds", 0.0)})
    half.save(stem)
    after = stem.with_suffix(".npz").stat().st_size
    worst = max(
        float(np.max(np.abs(half.params[k] - model.params[k])))
        for k in model.params
        if np.ndim(model.params[k]) == 2
    )
    print(f"{stem.name}: {before:,} bytes -> {after:,} (largest change of a weight {worst:.2g})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
