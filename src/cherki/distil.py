"""Expert iteration for ``cherki train --method search``: the search bot's choices, distilled
into the learned bot's network.

**The samples** (:func:`search_samples`, numpy and the rules engine only; run in worker
processes): whole hands played by the rules engine with the search bot (its rollout budget,
:meth:`cherki.bots.search.SearchBot.by_rollouts`) at every seat. At each decision with more
than one legal action a sample keeps the acting seat's encoded observation, its legal actions,
the heuristic's choice (the network's prior, drawn as :class:`~cherki.bots.learned.LearnedBot`
draws it), the search's choice, what the search compared (each candidate's mean paired gain
over the search's own first choice, and its standard error: :class:`~cherki.bots.search.
Compared`) and the hand's payment to that seat (the value head's target). Each block's
deals are numbered from the run's seed, so a block is the same in every run and in any
number of worker processes.

**The labels** (:func:`labels`): the search's choice where its gain over the heuristic's
choice is clear (more than ``z`` standard errors, and the heuristic's choice among what it
compared), else the heuristic's. What we measured in Balik Satu 4p (60,660 decisions, 4,800
CPU-seconds; ``docs/research.md``): the search leaves the heuristic's choice in about a
quarter of its decisions, most of them ties the heuristic would draw lots for, or choices of
the search's own policy (the heuristic playing for the score); their median gain is 0.31
points at 1.2 standard errors. One in five clears two standard errors (5.2% of decisions),
and a network trained on them recalls under 1% of those held out: the labels keep only the
clear ones, so that noise is not learnt as a departure.

**Our specifications.** A block's hands are split among ``workers`` processes (0: one a CPU),
started with ``spawn`` (the trainer holds JAX, which must not be forked); their CPU time is
counted in the run's budget. The samples are kept (``samples.npz`` beside the checkpoint, the
most recent ``search_buffer``), so a resumed run does not pay for them twice. Each block the
network takes ``search_batches`` steps of cross-entropy on the labels (and the value head on
the payments) over minibatches drawn from all the samples so far.
"""

from __future__ import annotations

import math
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import numpy as np

#: the sample arrays, in order (see the module)
FIELDS = ("x", "mask", "prior", "choice", "gain", "se", "ret")


def search_samples(
    game: str, players: int, rules: str | None, seeds: list[int], rollouts: int | None
) -> tuple[dict[str, np.ndarray], float]:
    """The samples of the hands dealt with ``seeds`` (see the module), and the CPU-seconds
    they took in this process."""
    from cherki.bots.base import heuristic_for
    from cherki.bots.search import SearchBot
    from cherki.games import find_game

    t0 = time.process_time()
    g = find_game(game)
    table_rules = g.rules(rules)
    search = SearchBot.by_rollouts(g.name, rollouts)
    heuristic = heuristic_for(g.name)
    acts = g.num_actions
    rows: dict[str, list[np.ndarray]] = {k: [] for k in ("x", "mask", "gain", "se")}
    ints: dict[str, list[int]] = {"prior": [], "choice": []}
    ret: list[float] = []
    for deal in seeds:
        state = g.new_state(table_rules, players, seed=deal, first=deal % players)
        rngs = [random.Random(deal * 101 + i) for i in range(players)]
        seats = []
        while not state.is_terminal:
            seat = state.current
            obs = state.observation(seat)
            legal = [int(a) for a in obs.legal]
            if len(legal) == 1:
                state.apply(legal[0], seat)
                continue
            prior = int(heuristic.act(obs, random.Random(rngs[seat].random())))
            choice = int(search.act(obs, rngs[seat]))
            mask = np.zeros(acts, bool)
            mask[legal] = True
            gain = np.full(acts, np.nan, np.float32)
            se = np.full(acts, np.nan, np.float32)
            compared = search.compared
            if compared is not None:
                gain[compared.base] = 0.0
                se[compared.base] = 0.0
                for a, (m, s, _) in compared.gains.items():
                    gain[a] = m
                    se[a] = s if math.isfinite(s) else np.nan
            rows["x"].append(np.asarray(obs.encode(), np.int16))
            rows["mask"].append(mask)
            ints["prior"].append(prior)
            ints["choice"].append(choice)
            rows["gain"].append(gain)
            rows["se"].append(se)
            seats.append(seat)
            state.apply(choice, seat)
        pay = state.result.payments
        ret.extend(float(pay[s]) for s in seats)
    size = g.observation_layout(table_rules, players).size
    widths = {"x": size, "mask": acts, "gain": acts, "se": acts}
    kinds = {"x": np.int16, "mask": np.bool_, "gain": np.float32, "se": np.float32}
    out = {k: np.stack(v) if v else np.zeros((0, widths[k]), kinds[k]) for k, v in rows.items()}
    out |= {k: np.array(v, np.int64) for k, v in ints.items()}
    out["ret"] = np.array(ret, np.float32)
    return out, time.process_time() - t0


def labels(samples: dict[str, np.ndarray], z: float) -> np.ndarray:
    """The action each sample teaches: the search's choice where its gain over the
    heuristic's choice is more than ``z`` standard errors (at least 0.05 points), else the
    heuristic's."""
    r = np.arange(len(samples["choice"]))
    choice = samples["choice"].astype(np.int64)
    prior = samples["prior"].astype(np.int64)
    gain = samples["gain"][r, choice] - samples["gain"][r, prior]
    se = np.fmax(samples["se"][r, choice], samples["se"][r, prior])
    with np.errstate(invalid="ignore"):
        clear = (choice != prior) & (gain > z * np.fmax(np.nan_to_num(se, nan=np.inf), 0.05))
    out: np.ndarray = np.where(clear, choice, prior)
    return out


def search_words(rollouts: int | None, z: float, samples: int, departures: int, cloned: int) -> str:
    """The card's words for a run of expert iteration: the search's ``rollouts``, the
    labels' ``z``, the decisions sampled, the departures learnt, the heuristic's decisions
    the value head was first trained on (``cloned``)."""
    budget = f"{rollouts} rollouts" if rollouts else "its own budget"
    words = (
        f"expert iteration: the search's choices ({budget}) at {samples:,} "
        f"decisions of its own hands in the rules engine, learnt where their gain over the "
        f"heuristic's choice cleared {z:g} standard errors "
        f"({departures:,} departures kept)"
    )
    if cloned:
        words += f", after the value head on the batched heuristic's hands ({cloned:,} decisions)"
    return words


class SearchPool:
    """The worker processes of a run (started once, on first use)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers or os.cpu_count() or 1
        self._pool: ProcessPoolExecutor | None = None

    def samples(
        self, game: str, players: int, rules: str | None, seeds: list[int], rollouts: int | None
    ) -> tuple[dict[str, np.ndarray], float]:
        """The samples of ``seeds``' hands and the CPU-seconds spent on them in other
        processes (0 where one worker's share is played in this one)."""
        k = min(self.workers, len(seeds))
        parts = [seeds[i::k] for i in range(k)]
        if k == 1:
            data, _ = search_samples(game, players, rules, parts[0], rollouts)
            return data, 0.0
        else:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(self.workers, mp_context=get_context("spawn"))
            futures = [
                self._pool.submit(search_samples, game, players, rules, p, rollouts) for p in parts
            ]
            results = [f.result() for f in futures]
        joined = {k_: np.concatenate([r[0][k_] for r in results]) for k_ in FIELDS}
        return joined, sum(r[1] for r in results)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None


def keep(
    old: dict[str, np.ndarray] | None, new: dict[str, np.ndarray], most: int
) -> dict[str, np.ndarray]:
    """``old`` and ``new`` samples joined, the most recent ``most`` kept."""
    if old is None or not len(old["choice"]):
        return {k: v[-most:] for k, v in new.items()}
    return {k: np.concatenate([old[k], new[k]])[-most:] for k in FIELDS}


def save_samples(path: Path, samples: dict[str, np.ndarray]) -> None:
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, **samples)  # type: ignore[arg-type]
    os.replace(tmp, path)


def load_samples(path: Path) -> dict[str, np.ndarray] | None:
    if not path.is_file():
        return None
    with np.load(path) as data:
        return {k: np.asarray(data[k]) for k in FIELDS}


__all__ = [
    "FIELDS",
    "SearchPool",
    "keep",
    "labels",
    "load_samples",
    "save_samples",
    "search_samples",
]
