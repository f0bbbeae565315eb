"""Training the learned bots (``cherki train``) on the batched simulator (:mod:`cherki.vector`).

**The heuristic as a prior** (``--prior``, the default; :mod:`cherki.bots.learned`): the
network reads the heuristic's choice as well as the observation, and that choice's logit is
raised by ``beta`` (3 while training). A fresh network plays exactly as the heuristic does,
and training learns where to depart from it (residual policy learning). Without the prior
(``--no-prior``) the network reads the observation alone and starts by cloning the heuristic.

The method, in two phases within one CPU budget (``--seconds``):

1. **The heuristic's hands** (the first ``bc_share`` of the budget): the batched heuristic
   plays every seat of whole hands; every decision with more than one legal action is a
   sample (the acting seat's encoded observation, its mask, the heuristic's action), and the
   hand's payment to that seat is the value head's target. Without the prior the policy head
   learns the heuristic's choices too (behaviour cloning). Each block of hands is fresh
   (never replayed).
2. **PPO with a value head** (``--method ppo``) on
   :class:`cherki.vector.env.CherkiVectorEnv`: the learner in seat 0 of every hand (the
   starter goes round, so it plays every position), the other seats the batched heuristic;
   rewards are the hand's payment in points (scaled), GAE with no discount within a hand.
   Or **paired rollouts** (``--method api``, approximate policy iteration: one step of policy
   improvement over the heuristic, what ``search`` does at every decision, learnt once): a
   block of deals is played by the heuristic at every seat, then again with the seat to act
   at one step departing to another legal action; the difference of its payments is that
   departure's gain, which the policy head's logits learn (relative to the heuristic's).

Or **the heuristic's weights tuned** (``--method tune``, :mod:`cherki.tune`): an evolution
strategy over the constants the prior heuristic plays by, on keyed duplicate deals against
the hand-set heuristic, for all but the last ``bc_share`` of the budget; then the value head
learns the tuned heuristic's hands (one block at least, where a slow machine's generation ran
past the budget, so that no model ships an untrained value head). The model plays the tuned
heuristic (its card keeps the weights). In Ceki and Cholek Tiga, which the batched simulator
does not play, the deals are the rules engine's (:func:`cherki.tune.engine_payments`, 2,048
a candidate by default) and the value head learns from the tuned heuristic's hands there
(:func:`cherki.trainplay.engine_samples`).

Or **expert iteration** (``--method search``, :mod:`cherki.distil`; with ``tune`` the
methods for the games the batched simulator does not play, Ceki and Cholek Tiga, whose runs
are measured in the rules engine, :func:`cherki.trainplay.engine_measure`): the search
bot's choices in its own hands, learnt where they clear the heuristic's by ``search_z``
standard errors.

Every ``eval_every`` CPU-seconds the policy is measured on duplicate deals against the
heuristic (:func:`duplicate_payoff`: the same hands played with the learner in seat 0 and
with the heuristic there, the other seats heuristic both times), playing with the prior
raised by ``play_beta``: the learning curve, drawn to ``curve.png`` and kept in
``curve.json``. ``checkpoint.pkl`` is written after every measurement; ``--resume`` goes on
from it, to the same total budget. When the run ends, the prior's raise the model ships with
is the best of :data:`PLAY_BETAS` on duplicate deals of their own (a validation set: neither
the curve's nor the arena's), every one measured and kept on the card.

What we measured (this 2-core machine; ``docs/research.md``): no method has yet found
departures from the heuristic worth keeping on a CPU budget of an hour or less.

JAX is imported only here, inside the ``train`` extra; without it the command refuses in
one line, saying how to install it. The network and its file are
:class:`cherki.bots.learned.Model`'s, played with numpy alone.
"""

from __future__ import annotations

import math
import os
import pickle
import shlex
import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from cherki.bots.balik import WEIGHTS, Weights
from cherki.bots.base import heuristic_for
from cherki.bots.learned import Model
from cherki.bots.weights import TunedWeights
from cherki.core.errors import RulesError
from cherki.distil import SearchPool, keep, labels, load_samples
from cherki.games import find_game
from cherki.trainconfig import Config, Progress
from cherki.trainplay import (
    Departures,
    departure_share,
    duplicate_payoff,
    engine_measure,
    engine_samples,
    init_params,
    plot_curve,
)
from cherki.tune import KINDS, Tuner, kind_of, start

INSTALL = (
    "training needs the train extra (JAX and optax): uv sync --extra train, "
    "or pip install 'cherki[train]'"
)


def require_jax() -> tuple[Any, Any]:
    """``(jax, optax)``, or a one-line refusal saying how to install them."""
    try:
        import jax
        import optax  # type: ignore[import-untyped]
    except ImportError as err:
        raise RulesError(INSTALL) from err
    return jax, optax


def require_vector() -> None:
    try:
        import numba  # noqa: F401
    except ImportError as err:
        raise RulesError(INSTALL) from err


#: the prior's raises tried when a run ends (:meth:`Trainer.choose_beta`)
PLAY_BETAS = (0.5, 0.75, 1.0, 1.5, 2.0)
TRAINED = ("w0", "b0", "w1", "b1", "wp", "bp", "wv", "bv")
PRIOR = ("wprior",)


class Trainer:
    """One training run (see the module)."""

    def __init__(self, cfg: Config, out: Path, *, log: Callable[[str], None] = print) -> None:
        self.jax, self.optax = require_jax()
        require_vector()
        from cherki.vector.sets import GAMES

        g = find_game(cfg.game)
        #: whether the batched simulator plays the game (else the rules engine alone)
        self.batched = g.name in GAMES
        #: the heuristic's weights a tuning tunes (cherki.tune.KINDS), where it has some
        self.kind = kind_of(g.name) if heuristic_for(g.name).weights_type else None
        engine_ok = cfg.method == "search" or (cfg.method == "tune" and self.kind is not None)
        if not self.batched and not engine_ok:
            raise RulesError(
                f"--method {cfg.method} plays the games of the batched simulator "
                f"({', '.join(GAMES)}): {g.title} trains with --method search"
                + (" or tune" if self.kind else "")
            )
        if not cfg.tune_hands:
            cfg.tune_hands = 16384 if self.batched else 2048
        if cfg.method == "tune":
            start(cfg.tune_ties, cfg.tune_keys, self.kind or "sets")  # refused in one line
        g.check_players(cfg.players)
        self.cfg = cfg
        self.game = g
        self.rules = g.rules(cfg.rules)
        self.preset = cfg.rules or g.default_preset().name
        self.layout = g.observation_layout(self.rules, cfg.players)
        self.size = self.layout.size
        self.actions = g.num_actions
        self.out = out
        self.log = log
        high = self.layout.high()
        self.scale = (1.0 / np.maximum(high, 1.0)).astype(np.float32)
        self.value_scale = 10.0
        self.rng = np.random.default_rng(cfg.seed)
        self.params = init_params(self.rng, self.size, self.actions, cfg.hidden, prior=cfg.prior)
        if cfg.method == "tune" and cfg.prior:
            # its policy is the tuned prior's: the head no block trains is zero, and the bot
            # then chooses without its network (Model.plays_prior)
            self.params["wp"][:] = 0
        self.trained = TRAINED + PRIOR if cfg.prior else TRAINED
        self.progress = Progress()
        #: what the last block did, for the progress lines
        self.last = "start"
        #: CPU-seconds of worker processes in this session; expert iteration's workers and
        #: samples (:mod:`cherki.distil`)
        self.workers_cpu = 0.0
        self.pool: SearchPool | None = None
        self.samples: dict[str, np.ndarray] | None = None
        self._build()

    # -- jax ------------------------------------------------------------------------------
    def _build(self) -> None:
        jax, optax = self.jax, self.optax
        jnp = jax.numpy
        scale = jnp.asarray(self.scale)

        cfg = self.cfg
        actions = self.actions

        def heads(p: Any, x: Any, prior: Any) -> tuple[Any, Any]:
            pre = (x * scale) @ p["w0"] + p["b0"]
            if cfg.prior:
                pre = pre + p["wprior"][prior]
            h = jax.nn.relu(pre)
            h = jax.nn.relu(h @ p["w1"] + p["b1"])
            return h @ p["wp"] + p["bp"], (h @ p["wv"] + p["bv"])[:, 0]

        def forward(p: Any, x: Any, prior: Any) -> tuple[Any, Any]:
            logits, v = heads(p, x, prior)
            if cfg.prior:
                logits = logits + cfg.beta * jax.nn.one_hot(prior, actions)
            return logits, v

        def api_loss(p: Any, x: Any, prior: Any, alt: Any, target: Any, ret: Any) -> Any:
            # the logit of a departure less the heuristic's: the departure's gain, in points
            # over value_scale, learnt from the paired rollouts' differences
            logits, v = heads(p, x, prior)
            pick = jnp.take_along_axis
            gap = (
                pick(logits, alt[:, None], axis=1)[:, 0]
                - pick(logits, prior[:, None], axis=1)[:, 0]
            )
            err = jnp.mean((gap - target) ** 2)
            return err + 0.25 * jnp.mean((v - ret) ** 2), err

        def logp_all(p: Any, x: Any, mask: Any, prior: Any) -> tuple[Any, Any]:
            logits, v = forward(p, x, prior)
            logits = jnp.where(mask, logits, -1e9)
            return jax.nn.log_softmax(logits, axis=1), v

        # with the prior the policy starts as the heuristic's: cloning trains the value alone
        policy_weight = 0.0 if cfg.prior else 1.0

        def bc_loss(p: Any, x: Any, mask: Any, a: Any, ret: Any) -> Any:
            lp, v = logp_all(p, x, mask, a)
            ce = -jnp.take_along_axis(lp, a[:, None], axis=1).mean()
            return policy_weight * ce + 0.25 * jnp.mean((v - ret) ** 2), ce

        def search_loss(p: Any, x: Any, mask: Any, prior: Any, a: Any, ret: Any) -> Any:
            lp, v = logp_all(p, x, mask, prior)
            ce = -jnp.take_along_axis(lp, a[:, None], axis=1).mean()
            return ce + 0.25 * jnp.mean((v - ret) ** 2), ce

        def ppo_loss(
            p: Any, x: Any, mask: Any, prior: Any, a: Any, old: Any, adv: Any, ret: Any
        ) -> Any:
            lp, v = logp_all(p, x, mask, prior)
            new = jnp.take_along_axis(lp, a[:, None], axis=1)[:, 0]
            ratio = jnp.exp(new - old)
            clipped = jnp.clip(ratio, 1 - cfg.clip, 1 + cfg.clip)
            pg = -jnp.minimum(ratio * adv, clipped * adv).mean()
            probs = jnp.exp(lp)
            ent = -jnp.sum(jnp.where(mask, probs * lp, 0.0), axis=1).mean()
            vl = jnp.mean((v - ret) ** 2)
            return pg + 0.5 * vl - cfg.entropy * ent, ent

        self.bc_opt = optax.adam(cfg.bc_lr)
        self.ppo_opt = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(cfg.ppo_lr))

        def make_step(loss: Any, opt: Any) -> Any:
            def step(p: Any, s: Any, *batch: Any) -> Any:
                (val, aux), grads = jax.value_and_grad(loss, has_aux=True)(p, *batch)
                upd, s = opt.update(grads, s, p)
                return optax.apply_updates(p, upd), s, val, aux

            return jax.jit(step)

        self.api_opt = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(cfg.api_lr))
        self._api_step = make_step(api_loss, self.api_opt)
        self._bc_step = make_step(bc_loss, self.bc_opt)
        self.search_opt = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(cfg.search_lr))
        self.search_step = make_step(search_loss, self.search_opt)
        self._ppo_step = make_step(ppo_loss, self.ppo_opt)
        self.jparams = {k: jnp.asarray(self.params[k]) for k in self.trained}
        self.bc_state = self.bc_opt.init(self.jparams)
        self.ppo_state = self.ppo_opt.init(self.jparams)
        self.api_state = self.api_opt.init(self.jparams)
        self.search_state = self.search_opt.init(self.jparams)

    def model(self, beta: float | None = None) -> Model:
        """The network as it is, its prior raised by ``beta`` (default: training's)."""
        p = {k: np.asarray(self.jparams[k]) for k in self.trained}
        p["scale"] = self.scale
        p["value_scale"] = np.array([self.value_scale], np.float32)
        if self.cfg.prior:
            p["prior_beta"] = np.array([self.cfg.beta if beta is None else beta], np.float32)
        card = self.card()
        if self.cfg.prior:
            card["network"]["beta"] = float(p["prior_beta"][0])
        return Model(p, card)

    @property
    def weights(self) -> Weights:
        """The games of sets' weights the prior heuristic plays (the batched simulator's)."""
        w = self.prior_weights
        return w if isinstance(w, Weights) else WEIGHTS

    @property
    def prior_weights(self) -> TunedWeights:
        """The weights the prior heuristic plays: the tuning's mean, or the hand-set ones."""
        if self.cfg.method != "tune" or not self.progress.tune:
            return KINDS[self.kind or "sets"]()
        return Tuner(**self.progress.tune).weights

    def _tuned(self) -> bool:
        """Whether the tuning has made the generations ``--tune-generations`` asks for."""
        done = int((self.progress.tune or {}).get("generations", 0))
        return 0 < self.cfg.tune_generations <= done

    def _tune_block(self) -> None:
        """One generation of the evolution strategy (:mod:`cherki.tune`)."""
        cfg = self.cfg
        if self.progress.tune:
            tuner = Tuner(**self.progress.tune)
        else:
            kind = self.kind or "sets"
            names, mean = start(cfg.tune_ties, cfg.tune_keys, kind)
            tuner = Tuner(cfg.seed, mean=mean, names=names, kind=kind)
        tuner.population = cfg.tune_population
        self.last = tuner.generation(cfg.game, cfg.players, cfg.rules, cfg.tune_hands)
        self.progress.tune = asdict(tuner)
        if self._tuned():
            self.log(
                f"tuning done: the {tuner.generations} generations asked for; the value head "
                "learns for the rest of the budget"
            )

    def choose_beta(self) -> float:
        """The prior's raise to play with: the best of :data:`PLAY_BETAS` (and training's)
        on ``eval_hands`` duplicate deals of their own (not the learning curve's, not the
        arena's), each measured; kept in :attr:`Progress.betas`. A model that plays its
        prior (a tuning's, its policy head zero) chooses alike at every raise above 0, so
        none is measured: it keeps training's."""
        cfg = self.cfg
        if not cfg.prior:
            return cfg.beta
        if self.model().plays_prior:
            self.progress.betas = []
            self.log(f"playing with beta {cfg.beta:g}: it plays its prior at every raise")
            return cfg.beta
        tried = []
        for beta in sorted({*PLAY_BETAS, cfg.beta}):
            mean, lo, hi, share = self.measure(self.model(beta), 30_000 + cfg.seed, True)
            tried.append({"beta": beta, "payoff": mean, "low": lo, "high": hi, "share": share})
            self.log(f"beta {beta:g}: {mean:+.2f} [{lo:+.2f}, {hi:+.2f}] points a hand")
        best = max(tried, key=lambda t: (t["payoff"], t["beta"]))
        best["departures"] = best.pop("share")
        for t in tried:
            t.pop("share", None)
        self.progress.betas = tried
        self.log(
            f"playing with beta {best['beta']:g}: it departs from the heuristic's choice in "
            f"{best['departures']:.1%} of its decisions"
        )
        return float(best["beta"])

    # -- the run --------------------------------------------------------------------------
    def cpu(self) -> float:
        """CPU-seconds so far, this process's and its workers'."""
        return self.progress.cpu + time.process_time() - self._t0 + self.workers_cpu

    def run(self) -> Model:
        cfg = self.cfg
        self._t0 = time.process_time()
        self.workers_cpu = 0.0
        self.progress.commands.append({"command": cfg.command, "from_cpu": round(self.cpu(), 1)})
        bc_until = cfg.seconds * cfg.bc_share if self.batched else 0.0
        tune_until = cfg.seconds * (1 - cfg.bc_share) if cfg.method == "tune" else 0.0
        if not self.progress.curve:
            self._evaluate()
        while self.cpu() < cfg.seconds:
            if cfg.method == "tune":
                # the weights first, then the value head on the tuned heuristic's hands
                if self.cpu() < tune_until and not self._tuned():
                    self._tune_block()
                else:
                    self._value_block()
            elif self.cpu() < bc_until:
                self._bc_block()
            elif cfg.method == "api":
                self._api_block()
            elif cfg.method == "search":
                self._search_block()
            else:
                self._ppo_update()
            if self.cpu() >= self.progress.next_eval:
                self._evaluate()
        if cfg.method == "tune" and not (self.progress.tune or {}).get("generations"):
            # the first measurement took the whole budget (a slow or busy machine): one
            # generation still runs, so that a tuning never ships the hand-set weights
            self._tune_block()
        if cfg.method == "tune" and not self.progress.bc_samples:
            # a generation ran past the budget (a slow machine): the value head still
            # learns from one block, so the model never ships an untrained value
            self._value_block()
        if self.progress.curve[-1]["cpu"] < self.cpu() - 1:
            self._evaluate()
        if self.pool is not None:
            self.pool.close()
        model = self.model(self.choose_beta())
        stem = self.out / f"{self.game.name}-{cfg.players}p"
        model.save(stem)
        self.log(f"model written to {stem}.npz and {stem}.card.json")
        return model

    # -- phase 1: behaviour cloning -------------------------------------------------------
    def _bc_block(self) -> None:
        from cherki.vector.observe import encode_seats
        from cherki.vector.policies import HeuristicPolicy, Policy, Progress, Unstuck
        from cherki.vector.sets import SetsVector

        cfg = self.cfg
        b = cfg.bc_hands
        env = SetsVector(self.game.name, cfg.rules, players=cfg.players, batch=b, autoreset=False)
        seed = cfg.seed * 1_000_003 + self.progress.bc_blocks
        env.reset(seed=seed, hands=b)
        plain = HeuristicPolicy(seed)
        pol: Policy = plain
        if self.weights != WEIGHTS:
            # the tuned heuristic at every seat, a stuck hand played by the hand-set one
            pol = Unstuck(HeuristicPolicy(seed, weights=self.weights), plain)
        pol = Progress(pol)  # no hand taken and thrown round and round for ever
        xs, ms, acts, rows_, seats_ = [], [], [], [], []
        while True:
            rows = np.flatnonzero(~env.done)
            if not len(rows):
                break
            a = pol(env, rows)
            mask = env.mask[rows]
            multi = mask.sum(axis=1) > 1
            if multi.any():
                r, s = rows[multi], env.current[rows[multi]]
                xs.append(encode_seats(env, s, r))
                ms.append(mask[multi])
                acts.append(a[multi])
                rows_.append(r)
                seats_.append(s)
            env.apply(rows, a)
        fin = env.take_finished()
        pay = np.zeros((b, cfg.players))
        pay[fin.index] = fin.payments
        x = np.concatenate(xs)
        ret = pay[np.concatenate(rows_), np.concatenate(seats_)]
        self._fit(x, np.concatenate(ms), np.concatenate(acts), ret)

    def _value_block(self) -> None:
        """One block of the value head on the (tuned) heuristic's hands: batched where the
        simulator plays the game, in the rules engine elsewhere."""
        self._bc_block() if self.batched else self._engine_block()

    def _engine_block(self) -> None:
        """The value head on the tuned heuristic's hands, ``bc_hands`` of them played in the
        rules engine (the games the batched simulator does not play)."""
        cfg = self.cfg
        seed = cfg.seed * 1_000_003 + 800_000 + self.progress.bc_blocks * cfg.bc_hands
        x, m, a, ret = engine_samples(self.model(), cfg.players, cfg.rules, cfg.bc_hands, seed)
        self._fit(x, m, a, ret)

    def _fit(self, x: np.ndarray, m: np.ndarray, a: np.ndarray, ret: np.ndarray) -> None:
        """One pass of cloning (the value head alone, with the prior) over samples: encoded
        observations, legal masks, the heuristic's actions and the hands' payments."""
        jnp = self.jax.numpy
        ret = ret / self.value_scale
        order = self.rng.permutation(len(x))
        mb = 1024
        ce = 0.0
        for i in range(0, len(order) - mb + 1, mb):
            j = order[i : i + mb]
            self.jparams, self.bc_state, _, ce = self._bc_step(
                self.jparams, self.bc_state, jnp.asarray(x[j]), jnp.asarray(m[j]),
                jnp.asarray(a[j]), jnp.asarray(ret[j], dtype=jnp.float32),
            )  # fmt: skip
        self.progress.bc_blocks += 1
        self.progress.bc_samples += len(x)
        self.last = (
            f"behaviour cloning: {self.progress.bc_samples:,} decisions, "
            f"cross-entropy {float(ce):.3f}"
        )

    # -- expert iteration: the search's choices (cherki.distil) --------------------------
    def _search_block(self) -> None:
        """One block of expert iteration (:mod:`cherki.distil`): ``search_hands`` hands of
        the search's own play, their samples kept, then ``search_batches`` steps."""
        cfg, jnp, p = self.cfg, self.jax.numpy, self.progress
        if self.pool is None:
            self.pool = SearchPool(cfg.workers)
            self.samples = load_samples(self.out / "samples.npz")
        # the last block only as long as the budget still allows
        n = cfg.search_hands
        if p.search_hand_cpu > 0:
            n = max(1, min(n, int((cfg.seconds - self.cpu()) / p.search_hand_cpu)))
        first = cfg.seed * 1_000_003 + 700_000 + p.search_hands
        t0 = self.cpu()
        new, cpu = self.pool.samples(
            self.game.name, cfg.players, cfg.rules, list(range(first, first + n)),
            cfg.search_rollouts,
        )  # fmt: skip
        self.workers_cpu += cpu
        p.search_hands += n
        p.search_hand_cpu = (self.cpu() - t0) / n
        self.samples = buf = keep(self.samples, new, cfg.search_buffer)
        size = len(buf["choice"])
        label = labels(buf, cfg.search_z)
        ret = (buf["ret"] / self.value_scale).astype(np.float32)
        mb, ce = min(512, size), 0.0
        for _ in range(cfg.search_batches if size else 0):
            j = self.rng.integers(0, size, mb)
            self.jparams, self.search_state, _, ce = self.search_step(
                self.jparams, self.search_state, jnp.asarray(buf["x"][j]),
                jnp.asarray(buf["mask"][j]), jnp.asarray(buf["prior"][j]),
                jnp.asarray(label[j]), jnp.asarray(ret[j]),
            )  # fmt: skip
        p.search_blocks += 1
        p.search_samples += len(new["choice"])
        p.search_departures = int((label != buf["prior"]).sum())
        self.last = (
            f"the search's choices: {p.search_samples:,} decisions, {p.search_departures:,} "
            f"clear departures kept, cross-entropy {float(ce):.3f}"
        )

    # -- approximate policy iteration: paired rollouts -----------------------------------
    def _api_block(self) -> None:
        """One block of paired rollouts (see the module): ``api_hands`` deals played by the
        batched heuristic at every seat, then ``api_runs`` times again with the seat to act
        at one step drawn at random (the same step of every deal, so that each run is the
        same as the first, lots and all, until then) departing to a legal action drawn at
        random; the difference of that seat's payments is the departure's gain. The samples
        join a buffer of the most recent ``api_buffer``, on which the network takes
        ``api_batches`` steps."""
        from cherki.vector.policies import HeuristicPolicy
        from cherki.vector.sets import SetsVector

        cfg, b = self.cfg, self.cfg.api_hands
        rng = self.rng
        seed = cfg.seed * 1_000_003 + 500_000 + self.progress.api_blocks
        env = SetsVector(self.game.name, cfg.rules, players=cfg.players, batch=b, autoreset=False)
        env.reset(seed=seed, hands=b)
        pol = HeuristicPolicy(seed)
        steps = [0]

        def counted(e: SetsVector, rows: np.ndarray) -> np.ndarray:
            steps[0] += 1
            return pol(e, rows)

        first = env.play(counted)
        base = first.payments.astype(np.float64)
        # a step at which most deals are still being played
        longest = min(steps[0], int(np.quantile(first.actions, 0.8)) + 1)
        xs, priors, alts, targets, rets = [], [], [], [], []
        for _ in range(cfg.api_runs):
            run = Departures(int(rng.integers(0, max(1, longest - 1))), rng)
            env.reset(seed=seed, hands=b)
            run.policy = HeuristicPolicy(seed)
            pay = env.play(run).payments.astype(np.float64)
            for r, sr, x, prior, alt in run.took:
                xs.append(x.astype(np.int16))
                priors.append(prior)
                alts.append(alt)
                targets.append((pay[r, sr] - base[r, sr]) / self.value_scale)
                rets.append(base[r, sr] / self.value_scale)
        if not xs:
            self.progress.api_blocks += 1
            return
        self._remember(
            np.concatenate(xs), np.concatenate(priors), np.concatenate(alts),
            np.concatenate(targets).astype(np.float32), np.concatenate(rets).astype(np.float32),
        )  # fmt: skip
        jnp = self.jax.numpy
        buf = self._buffer
        size = len(buf[0])
        mb = min(1024, size)
        err = 0.0
        for _ in range(cfg.api_batches):
            j = rng.integers(0, size, mb)
            self.jparams, self.api_state, _, err = self._api_step(
                self.jparams, self.api_state, *(jnp.asarray(part[j]) for part in buf)
            )
        self.progress.api_blocks += 1
        self.progress.api_samples += sum(len(x) for x in xs)
        self.last = (
            f"paired rollouts: {self.progress.api_samples:,} departures, "
            f"error {float(err) * self.value_scale**2:.1f} points²"
        )

    def _remember(self, *parts: np.ndarray) -> None:
        """Add samples to the buffer of the most recent ``api_buffer`` (observations kept
        as 16-bit counts; not in the checkpoint: a resumed run fills it afresh)."""
        old = getattr(self, "_buffer", None)
        if old is None:
            joined = list(parts)
        else:
            joined = [
                np.concatenate([o, p])[-self.cfg.api_buffer :]
                for o, p in zip(old, parts, strict=True)
            ]
        self._buffer = tuple(joined)

    # -- phase 2: PPO ---------------------------------------------------------------------
    def _ppo_update(self) -> None:
        from cherki.vector.env import CherkiVectorEnv

        cfg = self.cfg
        jnp = self.jax.numpy
        if not hasattr(self, "_env"):
            self._env = CherkiVectorEnv(
                self.game.name, num_envs=cfg.ppo_envs, players=cfg.players, rules=cfg.rules,
                opponents="heuristic", seat=0,
            )  # fmt: skip
            self._obs, info = self._env.reset(
                seed=cfg.seed + 7919 * (1 + self.progress.ppo_updates)
            )
            self._mask = info["action_mask"]
        env = self._env
        model = self.model()
        t_, e = cfg.ppo_steps, cfg.ppo_envs
        obs = np.zeros((t_, e, self.size), np.float32)
        masks = np.zeros((t_, e, self.actions), bool)
        priors = np.zeros((t_, e), np.int64)
        acts = np.zeros((t_, e), np.int64)
        logp = np.zeros((t_, e), np.float32)
        vals = np.zeros((t_ + 1, e), np.float32)
        rew = np.zeros((t_, e), np.float32)
        done = np.zeros((t_, e), bool)
        for t in range(t_):
            x, mask = self._obs, self._mask
            valid = mask.any(axis=1)
            prior = self._priors(valid)
            logits, v = model.forward(x, prior)
            logits = np.where(mask, logits, -np.inf)
            logits[~valid] = 0.0
            z = logits - logits.max(axis=1, keepdims=True)
            lp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
            g = self.rng.gumbel(size=lp.shape)
            a = np.where(mask | ~valid[:, None], lp + g, -np.inf).argmax(axis=1)
            obs[t], masks[t], acts[t], priors[t] = x, mask, a, prior
            logp[t] = lp[np.arange(e), a]
            vals[t] = np.where(valid, v / self.value_scale, 0.0)
            self._obs, r, term, trunc, info = env.step(a)
            self._mask = info["action_mask"]
            rew[t] = r / self.value_scale
            done[t] = term | trunc
        last_valid = self._mask.any(axis=1)
        _, v = model.forward(self._obs, self._priors(last_valid))
        vals[t_] = np.where(last_valid, v / self.value_scale, 0.0)
        adv = np.zeros((t_, e), np.float32)
        last = np.zeros(e, np.float32)
        for t in reversed(range(t_)):
            nonterm = 1.0 - done[t]
            delta = rew[t] + vals[t + 1] * nonterm - vals[t]
            last = delta + cfg.gae_lambda * nonterm * last
            adv[t] = last
        ret = adv + vals[:t_]
        valid = masks.any(axis=2) & (masks.sum(axis=2) > 1)
        flat = valid.ravel()
        x = obs.reshape(-1, self.size)[flat]
        m = masks.reshape(-1, self.actions)[flat]
        pr = priors.ravel()[flat]
        a = acts.ravel()[flat]
        old = logp.ravel()[flat]
        ad = adv.ravel()[flat]
        ad = (ad - ad.mean()) / (ad.std() + 1e-8)
        rt = ret.ravel()[flat]
        ent = 0.0
        for _ in range(cfg.ppo_epochs):
            order = self.rng.permutation(len(x))
            mb = min(cfg.ppo_minibatch, len(x))
            for i in range(0, len(order) - mb + 1, mb):
                j = order[i : i + mb]
                self.jparams, self.ppo_state, _, ent = self._ppo_step(
                    self.jparams, self.ppo_state, jnp.asarray(x[j]), jnp.asarray(m[j]),
                    jnp.asarray(pr[j]), jnp.asarray(a[j]), jnp.asarray(old[j]), jnp.asarray(ad[j]),
                    jnp.asarray(rt[j]),
                )  # fmt: skip
        self.progress.ppo_updates += 1
        self.progress.ppo_steps += t_ * e
        hands = int(done.sum())
        mean = float(rew[done].mean() * self.value_scale) if hands else 0.0
        self.last = (
            f"PPO: {self.progress.ppo_steps:,} steps, {hands} hands in the last rollout "
            f"(mean {mean:+.2f} points), entropy {float(ent):.3f}"
        )

    def _priors(self, valid: np.ndarray) -> np.ndarray:
        """The heuristic's choice for the learner in every row where it is to act (0
        elsewhere; nothing without the prior)."""
        from cherki.vector.policies import HeuristicPolicy

        out = np.zeros(len(valid), np.int64)
        if not self.cfg.prior:
            return out
        if not hasattr(self, "_prior_policy"):
            self._prior_policy = HeuristicPolicy(self.cfg.seed + 104_729, weights=self.weights)
        rows = np.flatnonzero(valid)
        if len(rows):
            out[rows] = self._prior_policy(self._env.core, rows)
        return out

    # -- measuring ------------------------------------------------------------------------
    def measure(
        self, model: Model, seed: int, departures: bool = False
    ) -> tuple[float, float, float, float]:
        """``model`` against the heuristic on ``eval_hands`` duplicate deals from ``seed``
        (the batched simulator's, else the rules engine's), and, with ``departures``, the
        share of its decisions where it leaves the heuristic's choice (else nan)."""
        cfg = self.cfg
        args = (model, self.game.name, cfg.players, cfg.rules, cfg.eval_hands)
        if not self.batched:
            return engine_measure(*args, seed=seed)
        mean, lo, hi = duplicate_payoff(*args, seed=seed)
        share = departure_share(*args, seed=seed) if departures else math.nan
        return mean, lo, hi, share

    def _evaluate(self) -> None:
        cfg = self.cfg
        mean, lo, hi, _ = self.measure(self.model(cfg.play_beta), 10_000 + cfg.seed)
        cpu = self.cpu()
        self.progress.curve.append({"cpu": round(cpu, 1), "payoff": mean, "low": lo, "high": hi})
        self.progress.next_eval = cpu + cfg.eval_every
        last = self.last
        self.log(
            f"[{cpu:7.1f} CPU-s] {last}; against the heuristic on {cfg.eval_hands:,} duplicate "
            f"deals: {mean:+.2f} [{lo:+.2f}, {hi:+.2f}] points a hand"
        )
        self.save_checkpoint()
        self.plot()

    def plot(self) -> None:
        cfg = self.cfg
        then = {"api": "paired rollouts", "search": "the search's choices"}.get(cfg.method, "PPO")
        split = cfg.seconds * cfg.bc_share if self.batched and cfg.bc_share else None
        if cfg.method == "tune":
            split, then = cfg.seconds * (1 - cfg.bc_share), "the value head"
            first = "tuning the weights"
        else:
            first = "cloning"
        title = f"{self.game.title} {cfg.players}p: the learned bot against the heuristic"
        history = (self.progress.tune or {}).get("history") if cfg.method == "tune" else None
        plot_curve(self.progress.curve, self.out, title, split, f"{first} → {then}", history)

    # -- checkpoints ----------------------------------------------------------------------
    def save_checkpoint(self) -> None:
        jax = self.jax

        def to_np(tree: Any) -> Any:
            return jax.tree_util.tree_map(np.asarray, tree)

        state = {
            "config": asdict(self.cfg),
            "params": to_np(self.jparams),
            "bc_state": to_np(self.bc_state),
            "ppo_state": to_np(self.ppo_state),
            "api_state": to_np(self.api_state),
            "search_state": to_np(self.search_state),
            "progress": asdict(self.progress) | {"cpu": self.cpu()},
            "rng": self.rng.bit_generator.state,
        }
        self.out.mkdir(parents=True, exist_ok=True)
        if self.samples is not None:
            from cherki.distil import save_samples

            save_samples(self.out / "samples.npz", self.samples)
        tmp = self.out / "checkpoint.pkl.tmp"
        with open(tmp, "wb") as fh:
            pickle.dump(state, fh)
        os.replace(tmp, self.out / "checkpoint.pkl")

    def load_checkpoint(self, path: Path | None = None) -> None:
        path = path or self.out / "checkpoint.pkl"
        if not path.is_file():
            raise RulesError(f"no checkpoint to resume from in {self.out}")
        with open(path, "rb") as fh:
            state = pickle.load(fh)
        old = state["config"]
        old.setdefault("prior", False)
        for key in ("game", "players", "rules", "seed", "hidden", "prior"):
            have, want = old[key], getattr(self.cfg, key)
            if key == "hidden":
                have = tuple(have)
            if have != want:
                raise RulesError(
                    f"the checkpoint in {self.out} was made with {key} {have!r}, not {want!r}"
                )
        jnp = self.jax.numpy
        tree = self.jax.tree_util
        self.jparams = tree.tree_map(jnp.asarray, state["params"])
        self.bc_state = tree.tree_map(jnp.asarray, state["bc_state"])
        self.ppo_state = tree.tree_map(jnp.asarray, state["ppo_state"])
        if "api_state" in state:
            self.api_state = tree.tree_map(jnp.asarray, state["api_state"])
        if "search_state" in state:
            self.search_state = tree.tree_map(jnp.asarray, state["search_state"])
        self.progress = Progress(**state["progress"])
        self.rng.bit_generator.state = state["rng"]
        self.log(f"resumed from {path} at {self.progress.cpu:.1f} CPU-s")
        self._t0 = time.process_time()

    # -- the card -------------------------------------------------------------------------
    def card(self) -> dict[str, Any]:
        from cherki.traincard import card

        return card(self)


def train(
    game: str,
    players: int,
    seconds: float,
    seed: int,
    out: Path,
    *,
    resume: bool = False,
    rules: str | None = None,
    log: Callable[[str], None] = print,
    **overrides: Any,
) -> Model:
    """Train (or, with ``resume``, go on training) a learned bot; see the module."""
    if seconds <= 0:
        raise RulesError(f"--seconds is a CPU budget above 0, not {seconds}")
    command = "cherki train " + shlex.join(sys.argv[2:]) if sys.argv[1:2] == ["train"] else ""
    cfg = Config(
        game=find_game(game).name,
        players=players,
        seconds=seconds,
        seed=seed,
        rules=rules,
        command=command,
        **overrides,
    )
    t = Trainer(cfg, out, log=log)
    if resume:
        t.load_checkpoint()
    elif (out / "checkpoint.pkl").exists():
        raise RulesError(
            f"{out} holds a checkpoint: give --resume to go on from it, or another --out"
        )
    return t.run()


def export(checkpoint: Path, stem: Path) -> Model:
    """The model of a checkpoint (its weights as they were then, with its card), written
    to ``stem.npz`` and ``stem.card.json``."""
    with open(checkpoint, "rb") as fh:
        state = pickle.load(fh)
    old = {"prior": False} | state["config"]
    cfg = Config(**(old | {"hidden": tuple(old["hidden"])}))
    t = Trainer(cfg, checkpoint.parent, log=lambda _: None)
    t.out = checkpoint.parent
    t.load_checkpoint(checkpoint)
    t._t0 = time.process_time()
    model = t.model()
    model.card["training"]["cpu_seconds"] = round(t.progress.cpu, 1)
    model.save(stem)
    return model


__all__ = [
    "INSTALL",
    "Config",
    "Trainer",
    "departure_share",
    "duplicate_payoff",
    "export",
    "init_params",
    "require_jax",
    "train",
]
