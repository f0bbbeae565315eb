"""The model card a training run writes (:meth:`cherki.train.Trainer.card`): what the
model is, how it was made, and what it measured (see :mod:`cherki.bots.learned`)."""

from __future__ import annotations

import os
import platform
from dataclasses import asdict
from typing import Any

import numpy as np

from cherki.bots.learned import CARD_FORMAT, layout_id
from cherki.distil import search_words


def card(t: Any) -> dict[str, Any]:
    """The card of the model of ``t`` (a :class:`cherki.train.Trainer`; not imported here,
    which imports this module) as it is now."""
    import jax
    import optax  # type: ignore[import-untyped]

    import cherki

    cfg, p = t.cfg, t.progress
    return {
        "format": CARD_FORMAT,
        "game": t.game.name,
        "title": t.game.title,
        "players": [cfg.players],
        "presets": {"trained": [t.preset], "measured": [t.preset]},
        "observation": {
            "id": layout_id(t.layout),
            "size": t.size,
            "views": [[n, k] for n, k in t.layout.views],
        },
        "actions": t.actions,
        "network": {
            "inputs": "observation.encode() scaled by each view's declared greatest value"
            + (
                ", and the heuristic's choice (an embedding added to the first layer)"
                if cfg.prior
                else ""
            ),
            "prior": "heuristic" if cfg.prior else None,
            # the tuned heuristic's constants (cherki.tune); absent: the hand-set heuristic
            "prior_weights": t.prior_weights.as_dict() if cfg.method == "tune" else None,
            "beta": cfg.beta if cfg.prior else None,
            "beta_training": cfg.beta if cfg.prior else None,
            "hidden": list(cfg.hidden),
            "activation": "relu",
            "heads": "policy logits over every action id (masked to the legal ones); "
            "value (points)",
            "play": "the legal action of the highest logit"
            + (", the heuristic's choice raised by beta" if cfg.prior else ""),
        },
        "training": {
            "method": (
                tune_words(t)
                if cfg.method == "tune"
                else f"the value head trained on the batched heuristic's hands ({p.bc_samples:,} "
                f"decisions), then paired rollouts: {p.api_samples:,} departures from the "
                f"heuristic's choice, each played out against the same deal without it "
                f"({p.api_blocks} blocks)"
                if cfg.method == "api"
                else search_words(
                    cfg.search_rollouts,
                    cfg.search_z,
                    p.search_samples,
                    p.search_departures,
                    p.bc_samples,
                )
                if cfg.method == "search"
                else f"the value head trained on the batched heuristic's hands "
                f"({p.bc_samples:,} decisions), then PPO against heuristic opponents "
                f"starting from the heuristic's choice, raised by beta {cfg.beta:g} "
                f"({p.ppo_steps:,} steps, {p.ppo_updates} updates)"
                if cfg.prior
                else f"behaviour cloning of the batched heuristic ({p.bc_samples:,} "
                f"decisions), then PPO against heuristic opponents ({p.ppo_steps:,} steps, "
                f"{p.ppo_updates} updates)"
            ),
            "command": cfg.command,
            "commands": p.commands,
            "seed": cfg.seed,
            "cpu_seconds": round(t.cpu(), 1),
            "budget_seconds": cfg.seconds,
            "config": asdict(cfg),
            "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
            "libraries": {
                "python": platform.python_version(),
                "numpy": np.__version__,
                "jax": jax.__version__,
                "optax": optax.__version__,
                "cherki": cherki.__version__,
            },
            "curve": p.curve,
            "betas": p.betas,
            "tuning": p.tune.get("history", []) if cfg.method == "tune" else None,
        },
        "arena": {},
    }


def tune_words(t: Any) -> str:
    """What ``--method tune`` did, for the card."""
    cfg, p = t.cfg, t.progress
    gens = int(p.tune.get("generations", 0))
    return (
        f"the heuristic's weights tuned by an evolution strategy (cherki.tune) on keyed "
        f"duplicate deals against the hand-set heuristic: {gens} generations of "
        f"{cfg.tune_population} candidates, {cfg.tune_hands:,} deals each; then the value "
        f"head trained on the tuned heuristic's hands ({p.bc_samples:,} decisions). The "
        f"policy head is zero (never trained): the bot plays the tuned heuristic without "
        f"running its network, which gives its value"
    )
