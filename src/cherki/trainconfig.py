"""The configuration and progress of a training run (:mod:`cherki.train`): what
``cherki train`` asked for, and how far the run has come (kept in its checkpoint)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Config:
    game: str
    players: int
    seconds: float
    seed: int = 0
    rules: str | None = None
    hidden: tuple[int, int] = (256, 128)
    #: read the heuristic's choice and raise its logit by ``beta`` (see
    #: :mod:`cherki.bots.learned`); cloning then trains the value head alone
    prior: bool = True
    beta: float = 3.0
    #: the prior's raise when the bot plays (measured on the learning curve); at the end of
    #: a run the best of :data:`PLAY_BETAS` on deals of their own is chosen and shipped
    play_beta: float = 1.0
    #: "api": paired rollouts, one step of policy improvement over the heuristic (see the
    #: module); "ppo": behaviour cloning, then PPO
    method: str = "ppo"
    api_hands: int = 1024
    api_runs: int = 4
    api_buffer: int = 200_000
    api_batches: int = 24
    api_lr: float = 5e-4
    #: expert iteration (``--method search``, :mod:`cherki.distil`): hands a block, the
    #: search's rollouts a decision (None: the game's), the labels' standard errors, the
    #: steps a block, the samples kept, and the worker processes (0: one a CPU)
    search_hands: int = 64
    search_rollouts: int | None = None
    search_z: float = 2.0
    search_batches: int = 64
    search_buffer: int = 400_000
    search_lr: float = 1e-3
    workers: int = 0
    #: ``--method tune`` (:mod:`cherki.tune`): keyed duplicate deals a candidate,
    #: candidates a generation, and the generations to stop after (0: as many as the
    #: budget's share holds; a number replays a card's run to the same weights on any
    #: machine, whatever its speed)
    tune_hands: int = 0  # 0: 16,384 where the batched simulator plays, 2,048 elsewhere
    tune_population: int = 10
    tune_generations: int = 0
    #: ``--tune-ties``: tune the tie-break between level discards too (``Weights.tie_held``,
    #: ``tie_live``; :func:`cherki.tune.start`)
    tune_ties: bool = False
    #: ``--tune-tie-keys``: the tie-break's further keys (``red``, ``low``: ``Weights.tie_red``,
    #: ``tie_low``)
    tune_keys: tuple[str, ...] = ()
    bc_share: float = 0.4
    bc_hands: int = 512
    bc_lr: float = 1e-3
    ppo_envs: int = 256
    ppo_steps: int = 32
    ppo_lr: float = 1e-4
    ppo_epochs: int = 2
    ppo_minibatch: int = 2048
    clip: float = 0.2
    entropy: float = 0.002
    gae_lambda: float = 0.95
    eval_every: float = 60.0
    eval_hands: int = 2048
    command: str = ""


@dataclass
class Progress:
    """What a checkpoint keeps besides the weights."""

    cpu: float = 0.0
    bc_samples: int = 0
    bc_blocks: int = 0
    api_samples: int = 0
    #: the raises tried at the end of the run, with their payoffs (:meth:`Trainer.choose_beta`)
    betas: list[dict[str, float]] = field(default_factory=list)
    api_blocks: int = 0
    search_samples: int = 0
    search_blocks: int = 0
    search_hands: int = 0
    #: CPU-seconds a hand of the search's took, in the latest block
    search_hand_cpu: float = 0.0
    search_departures: int = 0
    #: ``--method tune``: the evolution strategy's state (:class:`cherki.tune.Tuner`)
    tune: dict[str, Any] = field(default_factory=dict)
    ppo_updates: int = 0
    ppo_steps: int = 0
    next_eval: float = 0.0
    curve: list[dict[str, float]] = field(default_factory=list)
    #: the commands of the run, the first and each resumption (with the CPU time it began at)
    commands: list[dict[str, Any]] = field(default_factory=list)


__all__ = ["Config", "Progress"]
