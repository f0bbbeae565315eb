"""A model played on the batched simulator (:mod:`cherki.vector`) for training and measuring
it (:mod:`cherki.train`): duplicate deals against the heuristic, the share of decisions where
a model with the heuristic prior departs from the heuristic's choice, and the policy of the
paired rollouts that departs once. numpy only: no learning library."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from cherki.bots.balik import WEIGHTS
from cherki.bots.learned import Model
from cherki.games import find_game

if TYPE_CHECKING:
    from cherki.vector.policies import HeuristicPolicy, StuckHands
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


def _prior(
    model: Model, own: HeuristicPolicy, e: SetsVector, rows: np.ndarray, plain: np.ndarray
) -> np.ndarray | None:
    """The prior of ``model`` in ``rows``: the hand-set heuristic's choices (``plain``,
    already made) where the model keeps its weights, else its own weights' heuristic's
    (None for a model without a prior)."""
    if not model.has_prior:
        return None
    if model.weights == WEIGHTS:
        return plain
    out: np.ndarray = own(e, rows)
    return out


def _choose(
    model: Model,
    own: HeuristicPolicy,
    stuck: StuckHands,
    e: SetsVector,
    mine: np.ndarray,
    out: np.ndarray,
    at: np.ndarray,
) -> None:
    """The learner's choices in its rows ``mine`` (``out[at]``, the hand-set heuristic's
    choices there, replaced), as the bot plays: where a hand is stuck the hand-set
    heuristic's choice stands (:class:`cherki.vector.policies.StuckHands`)."""
    from cherki.vector.observe import encode_seats

    free = ~stuck(e, mine)
    prior = _prior(model, own, e, mine, out[at])
    if not free.any():
        return
    x = encode_seats(e, np.zeros(int(free.sum()), np.int64), mine[free])
    p = prior[free] if prior is not None else None
    out[at[free]] = model.choose(x, e.mask[mine[free]], p)


def duplicate_payoff(
    model: Model, game: str, players: int, rules: str | None, hands: int, *, seed: int
) -> tuple[float, float, float]:
    """The learner's mean payment minus the heuristic's in seat 0 of the same ``hands``
    deals (the other seats heuristic both times; the starter goes round), with its 95%
    interval: ``(mean, low, high)`` in points a hand."""
    from cherki.vector.policies import HeuristicPolicy, StuckHands
    from cherki.vector.sets import SetsVector

    g = find_game(game)

    def play(learned: bool) -> np.ndarray:
        env = SetsVector(g.name, rules, players=players, batch=min(hands, 1024))
        env.reset(seed=seed, hands=hands)
        heur = HeuristicPolicy(seed + 1)
        # the prior: the model's own weights' heuristic, its lots its own
        own = HeuristicPolicy(seed + 2, weights=model.weights)
        stuck = StuckHands()

        def policy(e: SetsVector, rows: np.ndarray) -> np.ndarray:
            out = heur(e, rows)
            if learned:
                at = np.flatnonzero(e.current[rows] == 0)
                if len(at):
                    _choose(model, own, stuck, e, rows[at], out, at)
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
    from cherki.vector.policies import HeuristicPolicy, StuckHands
    from cherki.vector.sets import SetsVector

    g = find_game(game)
    env = SetsVector(g.name, rules, players=players, batch=min(hands, 1024))
    env.reset(seed=seed, hands=hands)
    heur = HeuristicPolicy(seed + 1)
    own = HeuristicPolicy(seed + 2, weights=model.weights)
    stuck = StuckHands()
    counts = [0, 0]

    def policy(e: SetsVector, rows: np.ndarray) -> np.ndarray:
        out = heur(e, rows)
        at = np.flatnonzero((e.current[rows] == 0) & (e.mask[rows].sum(axis=1) > 1))
        if len(at):
            plain = out[at].copy()
            _choose(model, own, stuck, e, rows[at], out, at)
            counts[0] += len(at)
            counts[1] += int((out[at] != plain).sum())
        return out

    env.play(policy)
    return counts[1] / counts[0] if counts[0] else 0.0


def engine_measure(
    model: Model, game: str, players: int, rules: str | None, hands: int, *, seed: int
) -> tuple[float, float, float, float]:
    """:func:`duplicate_payoff` and :func:`departure_share` in the rules engine, for the
    games the batched simulator does not play: each of ``hands`` deals played twice, the
    learner then the heuristic in seat 0 (the other seats the heuristic both times, every
    seat's generator the same, the starter going round). Returns the payoff's mean and 95%
    interval, and the share of the learner's decisions with a choice where it left the
    heuristic's."""
    import random

    from cherki.bots.base import heuristic_for
    from cherki.bots.learned import LearnedBot
    from cherki.core.contract import Observation

    g = find_game(game)
    table = g.rules(rules)
    heuristic = heuristic_for(g.name)
    counts = [0, 0]
    diffs = []
    for h in range(hands):
        deal = seed + h
        learner = LearnedBot(g.name, model)
        pays = []
        for mine in (True, False):
            state = g.new_state(table, players, seed=deal, first=h % players)
            rngs = [random.Random(deal * 101 + i) for i in range(players)]
            while not state.is_terminal:
                seat = state.current
                obs: Observation = state.observation(seat)
                if mine and seat == 0 and len(obs.legal) > 1:
                    twin = random.Random()  # the learner's prior, as it draws it
                    twin.setstate(rngs[0].getstate())
                    base = heuristic.act(obs, twin)
                    a = learner.act(obs, rngs[0])
                    counts[0] += 1
                    counts[1] += a != base
                else:
                    a = heuristic.act(obs, rngs[seat])
                state.apply(a, seat)
            pays.append(float(state.result.payments[0]))
        diffs.append(pays[0] - pays[1])
    d = np.array(diffs)
    mean = float(d.mean())
    half = 1.96 * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else math.inf
    share = counts[1] / counts[0] if counts[0] else 0.0
    return mean, mean - half, mean + half, share


def engine_samples(
    model: Model, players: int, rules: str | None, hands: int, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The value head's samples from ``hands`` deals (from ``seed``) played in the rules
    engine by ``model``'s bot at every seat (its tuned heuristic, a stuck hand played by the
    hand-set one, as :class:`~cherki.bots.learned.LearnedBot` plays): at each decision with
    more than one legal action the seat's encoded observation, its legal mask, the action
    played and the hand's payment to that seat."""
    import random

    from cherki.bots.learned import LearnedBot

    g = find_game(model.game)
    table = g.rules(rules)
    xs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    acts: list[int] = []
    rets: list[float] = []
    for h in range(hands):
        deal = seed + h
        state = g.new_state(table, players, seed=deal, first=h % players)
        bots = [LearnedBot(g.name, model) for _ in range(players)]
        rngs = [random.Random(deal * 101 + i) for i in range(players)]
        seats: list[int] = []
        while not state.is_terminal:
            seat = state.current
            obs = state.observation(seat)
            a = bots[seat].act(obs, rngs[seat])
            if len(obs.legal) > 1:
                xs.append(obs.encode())
                mask = np.zeros(g.num_actions, bool)
                mask[list(obs.legal)] = True
                masks.append(mask)
                acts.append(a)
                seats.append(seat)
            state.apply(a, seat)
        pay = state.result.payments
        rets.extend(float(pay[s]) for s in seats)
    return (
        np.asarray(xs, np.float32).reshape(len(acts), -1),
        np.asarray(masks, bool).reshape(len(acts), g.num_actions),
        np.asarray(acts, np.int64),
        np.asarray(rets, np.float32),
    )


def init_params(
    rng: np.random.Generator,
    size: int,
    actions: int,
    hidden: tuple[int, int],
    *,
    prior: bool = False,
) -> dict[str, np.ndarray]:
    h0, h1 = hidden

    def dense(i: int, o: int, gain: float) -> np.ndarray:
        return (rng.standard_normal((i, o)) * gain * math.sqrt(2.0 / i)).astype(np.float32)

    extra = {"wprior": dense(actions, h0, 0.5)} if prior else {}
    return extra | {
        "w0": dense(size, h0, 1.0),
        "b0": np.zeros(h0, np.float32),
        "w1": dense(h0, h1, 1.0),
        "b1": np.zeros(h1, np.float32),
        "wp": dense(h1, actions, 0.01),
        "bp": np.zeros(actions, np.float32),
        "wv": dense(h1, 1, 0.01),
        "bv": np.zeros(1, np.float32),
    }


def plot_curve(
    curve: list[dict[str, float]],
    out: Path,
    title: str,
    split: float | None,
    then: str,
    tuning: list[dict[str, float]] | None = None,
) -> None:
    """Draw a run's learning curve to ``out/curve.png`` (and keep it in ``curve.json``),
    with a line at ``split`` CPU-seconds, where the run's first phase ends (``then``).
    With ``tuning`` (``--method tune``: each generation's figures on its keyed deals, as
    :class:`cherki.tune.Tuner` keeps them), a second panel draws them by generation: the
    tuned mean's gain over the hand-set heuristic, and the best candidate's."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if tuning:
        fig, (ax, tx) = plt.subplots(2, 1, figsize=(6.4, 6.4))
        gens = list(range(1, len(tuning) + 1))
        tx.plot(gens, [g["mean"] for g in tuning], marker=".", label="the mean's weights")
        best = "the best candidate (chosen on those deals)"
        tx.plot(gens, [g["best"] for g in tuning], ls=":", lw=1, label=best)
        tx.axhline(0, color="grey", lw=0.8)
        tx.set_xlabel("generation (fresh keyed deals each)")
        tx.set_ylabel("points a hand (keyed deals)")
        tx.set_title("tuning the heuristic's weights: gain over the hand-set ones", fontsize=9)
        tx.legend(fontsize=7)
    else:
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
    x = [p["cpu"] for p in curve]
    ax.plot(x, [p["payoff"] for p in curve], marker="o", label="learned − heuristic")
    ax.fill_between(
        x, [p["low"] for p in curve], [p["high"] for p in curve], alpha=0.25,
        label="95% interval",
    )  # fmt: skip
    ax.axhline(0, color="grey", lw=0.8)
    if split is not None:
        ax.axvline(split, color="grey", ls="--", lw=0.8, label=then)
    ax.set_xlabel("training CPU seconds")
    ax.set_ylabel("points a hand (duplicate deals)")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    out.mkdir(parents=True, exist_ok=True)
    fig.savefig(out / "curve.png", dpi=110)
    plt.close(fig)
    (out / "curve.json").write_text(json.dumps(curve, indent=1) + "\n")


__all__ = [
    "Departures",
    "departure_share",
    "duplicate_payoff",
    "engine_measure",
    "engine_samples",
    "init_params",
    "plot_curve",
]
