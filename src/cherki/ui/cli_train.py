"""``cherki train``: train a learned bot on the batched simulator (:mod:`cherki.train`, the
``train`` extra), with progress lines, a resumable checkpoint and a learning curve."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cherki.core.errors import RulesError
from cherki.ui.terminal import console


def train(
    game: Annotated[
        str,
        typer.Argument(
            help="Game: balik-satu, tantanan, ... (ceki, cholek-tiga: --method search or tune)"
        ),
    ],
    players: Annotated[int, typer.Option("--players", help="Players at the table.")],
    seconds: Annotated[float, typer.Option("--seconds", help="CPU-seconds to train for.")],
    out: Annotated[
        Path, typer.Option("--out", help="Folder for the model, card, curve, checkpoint.")
    ],
    seed: Annotated[int, typer.Option("--seed", help="Seed of the whole run.")] = 0,
    rules: Annotated[
        str | None, typer.Option("--rules", help="Preset (default: the game's).")
    ] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Go on from OUT's checkpoint.")] = False,
    bc_share: Annotated[
        float | None,
        typer.Option(
            "--bc-share",
            help="Share of the budget spent on the heuristic's hands before PPO "
            "(default 0.1 with the prior, 0.4 without).",
        ),
    ] = None,
    prior: Annotated[
        bool,
        typer.Option(
            "--prior/--no-prior",
            help="Read the heuristic's choice and start from it (residual learning).",
        ),
    ] = True,
    beta: Annotated[
        float, typer.Option("--beta", help="How much the heuristic's choice is raised.", min=0.0)
    ] = 3.0,
    method: Annotated[
        str,
        typer.Option(
            "--method",
            help="ppo (PPO against the heuristic), api (paired rollouts), search (expert "
            "iteration: the search bot's choices, distilled) or tune (the heuristic's weights, "
            "by an evolution strategy).",
        ),
    ] = "ppo",
    search_rollouts: Annotated[
        int | None,
        typer.Option(
            "--search-rollouts",
            help="--method search: rollouts a decision (default: the game's).",
            min=2,
        ),
    ] = None,
    search_hands: Annotated[
        int, typer.Option("--search-hands", help="--method search: hands a block.", min=1)
    ] = 64,
    search_z: Annotated[
        float,
        typer.Option(
            "--search-z",
            help="--method search: standard errors a search's departure must clear to be learnt.",
            min=0.0,
        ),
    ] = 2.0,
    workers: Annotated[
        int,
        typer.Option("--workers", help="--method search: processes (0: one a CPU).", min=0),
    ] = 0,
    tune_hands: Annotated[
        int | None,
        typer.Option(
            "--tune-hands",
            help="--method tune: duplicate deals a candidate plays (default: 16,384 on the "
            "batched simulator, 2,048 in the rules engine).",
            min=64,
        ),
    ] = None,
    tune_population: Annotated[
        int,
        typer.Option("--tune-population", help="--method tune: candidates a generation.", min=2),
    ] = 10,
    tune_generations: Annotated[
        int,
        typer.Option(
            "--tune-generations",
            help="--method tune: stop tuning after this many generations (0: as many as the "
            "budget holds; a card's number replays its weights on any machine).",
            min=0,
        ),
    ] = 0,
    tune_ties: Annotated[
        bool,
        typer.Option(
            "--tune-ties",
            help="--method tune: tune the tie-break between discards the hand's value rates "
            "level too (the hand-set heuristic draws lots there).",
        ),
    ] = False,
    tune_tie_keys: Annotated[
        str,
        typer.Option(
            "--tune-tie-keys",
            help="--method tune: the tie-break's further keys to tune, comma-separated: red "
            "(how much longer it keeps S9, RF, OT), low (how much longer the lower ranks).",
        ),
    ] = "",
    play_beta: Annotated[
        float,
        typer.Option(
            "--play-beta",
            help="The raise the learning curve is measured at (the shipped one is chosen at "
            "the end).",
            min=0.0,
        ),
    ] = 1.0,
    eval_hands: Annotated[
        int, typer.Option("--eval-hands", help="Duplicate deals of each measurement.", min=16)
    ] = 4096,
    eval_every: Annotated[
        float, typer.Option("--eval-every", help="CPU-seconds between measurements.")
    ] = 60.0,
) -> None:
    """Train a learned bot: the heuristic's weights tuned (tune), PPO from its choices (ppo),
    or the search bot's choices distilled (search); needs the train extra."""
    from cherki.train import train as run

    if method not in ("ppo", "api", "search", "tune"):
        raise RulesError(f"--method is ppo, api, search or tune, not {method!r}")
    keys = tuple(k.strip() for k in tune_tie_keys.split(",") if k.strip())
    for flag, on in (("--tune-ties", tune_ties), ("--tune-tie-keys", bool(keys))):
        if on and method != "tune":
            raise RulesError(f"{flag} tunes the heuristic's weights: it goes with --method tune")
    if keys:
        from cherki.tune import TIE_KEYS, start

        start(tune_ties, keys)  # a key it does not know is refused in one sentence
        keys = tuple(k for k in TIE_KEYS if k in keys)  # in one order, each once
    if method in ("api", "search", "tune") and not prior:
        raise RulesError(
            f"--method {method} learns departures from the heuristic: it needs --prior"
        )
    if bc_share is None:
        bc_share = 0.1 if prior else 0.4
    if not 0.0 <= bc_share <= 1.0:
        raise RulesError(f"--bc-share is a share from 0 to 1, not {bc_share}")
    if eval_every <= 0:
        raise RulesError(f"--eval-every is CPU-seconds above 0, not {eval_every}")
    run(
        game, players, seconds, seed, out, resume=resume, rules=rules,
        log=lambda line: console.print(line, highlight=False),
        bc_share=bc_share, eval_hands=eval_hands, eval_every=eval_every, prior=prior, beta=beta,
        play_beta=play_beta, method=method, search_rollouts=search_rollouts,
        search_hands=search_hands, search_z=search_z, workers=workers,
        tune_hands=tune_hands or 0, tune_population=tune_population,
        tune_generations=tune_generations, tune_ties=tune_ties, tune_keys=keys,
    )  # fmt: skip
    console.print(f"Learning curve: {out / 'curve.png'}; checkpoint: {out / 'checkpoint.pkl'}")
