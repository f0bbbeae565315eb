"""A model played on the batched simulator (:mod:`cherki.vector`) for training and measuring
it (:mod:`cherki.train`): duplicate deals against the heuristic, the share of decisions where
a model with the heuristic prior departs from the heuristic's choice, and the policy of the
paired rollouts that departs once. numpy only: no learning library."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from cherki.bots.learned import Model
from cherki.games import find_game

if TYPE_CHECKING:
    from cherki.vector.sets import SetsVector


class Departures:
    """The heuristic at every seat, but at step ``when`` (the same in every deal) the seat to
    act departs to another legal action drawn at random: a policy of
    :meth:`cherki.vector.sets.SetsVector.play` that keeps what it did in :attr:`took`
    (rows, seats, observations, the heuristic's choices, the departures)."""

    def __init__(self, when: int, rng: np.random.Generator) -> None:
        self.when = when
        self.rng = rng
        self.step = 0
        self.policy: Callable[[SetsVector, np.ndarray], np.ndarray] | None = None
        self.took: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []

    def __call__(self, e: SetsVector, rows: np.ndarray) -> np.ndarray:
        from cherki.vector.observe import encode_seats
        from cherki.vector.policies import pick

        assert self.policy is not None, "set the heuristic to play before the run"
        a = self.policy(e, rows)
        if self.step == self.when:
            mask = e.mask[rows]
            hit = mask.sum(axis=1) > 1
            if hit.any():
                r = rows[hit]
                s = e.current[r]
                others = mask[hit].copy()
                others[np.arange(len(r)), a[hit]] = False
                alt = pick(others, self.rng)
                self.took.append((r, s, encode_seats(e, s, r), a[hit].copy(), alt))
                a[hit] = alt
        self.step += 1
        return a


def duplicate_payoff(
    model: Model, game: str, players: int, rules: str | None, hands: int, *, seed: int
) -> tuple[float, float, float]:
    """The learner's mean payment minus the heuristic's in seat 0 of the same ``hands``
    deals (the other seats heuristic both times; the starter goes round), with its 95%
    interval: ``(mean, low, high)`` in points a hand."""
    from cherki.vector.observe import encode_seats
    from cherki.vector.policies import HeuristicPolicy
    from cherki.vector.sets import SetsVector

    g = find_game(game)

    def play(learned: bool) -> np.ndarray:
        env = SetsVector(g.name, rules, players=players, batch=min(hands, 1024))
        env.reset(seed=seed, hands=hands)
        heur = HeuristicPolicy(seed + 1)

        def policy(e: SetsVector, rows: np.ndarray) -> np.ndarray:
            out = heur(e, rows)
            if learned:
                mine = rows[e.current[rows] == 0]
                if len(mine):
                    x = encode_seats(e, np.zeros(len(mine), np.int64), mine)
                    at = e.current[rows] == 0
                    prior = out[at] if model.has_prior else None
                    out[at] = model.choose(x, e.mask[mine], prior)
            return out

        fin = env.play(policy)
        pay: np.ndarray = fin.payments[:, 0].astype(np.float64)
        return pay

    d = play(True) - play(False)
    mean = float(d.mean())
    half = 1.96 * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else math.inf
    return mean, mean - half, mean + half


def departure_share(
    model: Model, game: str, players: int, rules: str | None, hands: int, *, seed: int
) -> float:
    """The share of the learner's decisions with a choice, in seat 0 of ``hands`` deals
    among heuristic players, where it plays other than the heuristic's choice (a model with
    the prior; 1.0 counts every decision of a model without it as its own)."""
    from cherki.vector.observe import encode_seats
    from cherki.vector.policies import HeuristicPolicy
    from cherki.vector.sets import SetsVector

    g = find_game(game)
    env = SetsVector(g.name, rules, players=players, batch=min(hands, 1024))
    env.reset(seed=seed, hands=hands)
    heur = HeuristicPolicy(seed + 1)
    counts = [0, 0]

    def policy(e: SetsVector, rows: np.ndarray) -> np.ndarray:
        out = heur(e, rows)
        at = (e.current[rows] == 0) & (e.mask[rows].sum(axis=1) > 1)
        mine = rows[at]
        if len(mine):
            x = encode_seats(e, np.zeros(len(mine), np.int64), mine)
            prior = out[at] if model.has_prior else None
            chosen = model.choose(x, e.mask[mine], prior)
            counts[0] += len(mine)
            counts[1] += int((chosen != out[at]).sum())
            out[at] = chosen
        return out

    env.play(policy)
    return counts[1] / counts[0] if counts[0] else 0.0


__all__ = ["Departures", "departure_share", "duplicate_payoff"]
