"""The batched simulator as a Gymnasium vector environment: one learning seat in every
hand, the other seats played by a batched policy.

``CherkiVectorEnv("balik-satu", num_envs=1024, opponents="heuristic")`` is a
:class:`gymnasium.vector.VectorEnv` over :class:`~cherki.vector.sets.SetsVector`: each
sub-environment is one hand after another of a game of sets, with the learning seat
(``seat``, default 0) acting and every other seat played by the batched ``heuristic`` (the
heuristic bot's choices) or ``random`` policy, or any callable ``policy(sets_vector, rows)
-> actions``.

* **Observations** are the reference engine's encoding of the learning seat's observation
  (``Game.observation_layout``; the PettingZoo, Gymnasium and OpenSpiel adapters give the
  same vector), ``float32 [num_envs, size]``, in a ``Box`` bounded by the layout's declared
  bounds. ``single_observation_space`` and ``single_action_space`` (``Discrete``) are one
  sub-environment's.
* **Action masks**: ``info["action_mask"]`` (bool ``[num_envs, num_actions]``, with
  ``info["_action_mask"]`` all true, Gymnasium's convention for a key every
  sub-environment has) after every reset and step, and :meth:`action_masks` (the name
  sb3-contrib's ``MaskablePPO`` calls).
* **Rewards**: 0 until the hand ends, then the learning seat's payment in points, as
  :class:`cherki.adapters.gymnasium.CherkiEnv` gives it (``reward="win"``: its sign).
* **Autoreset** is Gymnasium's default, ``AutoresetMode.NEXT_STEP``: the step that ends a
  hand returns ``terminated`` (or ``truncated``); the next step deals the sub-environment a
  new hand and returns its first observation with reward 0, and the action given for it
  is ignored. With ``autoreset_mode=AutoresetMode.SAME_STEP`` (what Stable-Baselines3's
  vector environments do) the step that ends a hand deals the next at once and returns its
  first observation, the ended hand's in ``info["final_obs"]`` (with ``"_final_obs"``).

Our specifications
------------------
* **One episode is one hand**, as in the Gymnasium adapter. A hand that ends before the
  learning seat's first decision (a kandang tangan dealt to another seat) is dealt again.
* **Illegal actions** end the episode as in the Gymnasium adapter: ``terminated``, the
  reward ``illegal_penalty`` (default: the least payment a hand can bring, minus one) and
  ``info["illegal"]`` true for that sub-environment; the hand is not played further.
* **Length cap** (``max_steps``, default :data:`cherki.adapters.common.DEFAULT_MAX_STEPS`):
  a hand still going after that many actions (all seats') is truncated with reward 0.
* **The final observation** of a hand (on the step that ends it) is all zeros: the hand is
  over and nothing of it is shown; the learner's value of it is the reward.
* **Seeding**: ``reset(seed=s)`` seeds the deals and the opponents' lots; the same seed and
  the same actions give the same episodes. ``reset(options={"shoes": ..., "first": ...})``
  deals the given shoe orders (top card first) in turn, with the given starters (for
  tests against the reference engine); when they are all played a sub-environment that
  needs a new hand is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from cherki.adapters.common import DEFAULT_MAX_STEPS, Table, check_reward
from cherki.core.errors import RulesError
from cherki.vector.observe import encode_seats
from cherki.vector.policies import HeuristicPolicy, RandomPolicy
from cherki.vector.sets import SetsVector
from cherki.vector.tables import I64

#: a batched policy: ``policy(sets_vector, rows) -> one legal action per row``
BatchPolicy = Callable[[SetsVector, I64], I64]

OPPONENTS = ("heuristic", "random")


class CherkiVectorEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` hands of a game of sets, one learning seat each (see the module)."""

    metadata: dict[str, Any] = {  # noqa: RUF012
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        game: str = "balik-satu",
        num_envs: int = 256,
        players: int | None = None,
        rules: str | None = None,
        *,
        opponents: str | BatchPolicy = "heuristic",
        seat: int = 0,
        reward: str = "points",
        max_steps: int | None = None,
        illegal_penalty: float | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        **options: Any,
    ) -> None:
        self.table = Table.of(game, players, rules, **options)
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            mode = None
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise RulesError(f"autoreset_mode is NextStep or SameStep, not {autoreset_mode!r}")
        self.autoreset_mode = mode
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        n = self.table.players
        if type(seat) is not int or not 0 <= seat < n:
            raise RulesError(f"seat is a seat from 0 to {n - 1}, not {seat!r}")
        if not (isinstance(opponents, str) and opponents in OPPONENTS) and not callable(opponents):
            raise RulesError(
                f"opponents is {' or '.join(OPPONENTS)}, or a batched policy, not {opponents!r}"
            )
        self.reward_kind = check_reward(reward)
        if self.reward_kind == "money":
            raise RulesError("the vector environment pays in points or wins, not money")
        self.core = SetsVector(
            self.table.game,  # type: ignore[arg-type]
            self.table.rules,  # type: ignore[arg-type]
            players=n,
            batch=num_envs,
            autoreset=False,
        )
        self.num_envs = num_envs
        self.seat = seat
        self.opponents = opponents
        self.step_cap = max_steps if max_steps is not None else DEFAULT_MAX_STEPS
        if type(self.step_cap) is not int or self.step_cap < 1:
            raise RulesError(f"max_steps is a whole number of actions ≥ 1, not {max_steps!r}")
        low, _high = self.table.reward_bounds(self.reward_kind)
        self.illegal_penalty = low - 1.0 if illegal_penalty is None else float(illegal_penalty)
        self.single_observation_space = self.table.observation_box()
        self.single_action_space = spaces.Discrete(self.table.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._policy: BatchPolicy = RandomPolicy(0)
        self._needs_reset = np.zeros(num_envs, bool)
        self._over = np.zeros(num_envs, bool)  # a hand ended: its final observation shown
        self._started = False

    # -- the vector API -------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        deal_seed = int(self.np_random.integers(0, 2**63 - 1))
        lots = int(self.np_random.integers(0, 2**63 - 1))
        if callable(self.opponents):
            self._policy = self.opponents
        elif self.opponents == "heuristic":
            self._policy = HeuristicPolicy(lots)
        else:
            self._policy = RandomPolicy(lots)
        opts = options or {}
        unknown = sorted(set(opts) - {"shoes", "first"})
        if unknown:
            raise RulesError(f"reset options are shoes and first, not {', '.join(unknown)}")
        core = self.core
        if "shoes" in opts:
            core.reset(shoes=opts["shoes"], first=opts.get("first"), hands=len(opts["shoes"]))
        else:
            core.reset(seed=deal_seed, first=opts.get("first"))
        core.take_finished()
        self._over[:] = False
        self._needs_reset[:] = False
        self._settle(np.arange(self.num_envs))
        self._started = True
        return self._observe(), self._info(np.zeros(self.num_envs, bool))

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise RulesError("call reset() before step()")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":
            raise RulesError(f"actions must be {self.num_envs} whole numbers, one per hand")
        a = a.astype(np.int64)
        core = self.core
        b = self.num_envs
        rewards = np.zeros(b, np.float64)
        terminated = np.zeros(b, bool)
        truncated = np.zeros(b, bool)
        illegal = np.zeros(b, bool)
        fresh = np.flatnonzero(self._needs_reset)
        self._needs_reset[:] = False
        self._over[fresh] = False
        play = np.flatnonzero(~self._over)
        play = play[~np.isin(play, fresh)]
        act = a[play]
        ok = (act >= 0) & (act < self.table.num_actions)
        ok[ok] = core.mask[play[ok], act[ok]]
        bad = play[~ok]
        if len(bad):  # an illegal action ends the episode (the Gymnasium adapter's rule)
            illegal[bad] = terminated[bad] = True
            rewards[bad] = self.illegal_penalty
            core.done[bad] = True
            core.current[bad] = -1
            core.mask[bad] = False
        play, act = play[ok], act[ok]
        if len(play):
            ended = core.apply(play, act)
            self._finish(ended, rewards, terminated)
            live = play[~core.done[play]]
            self._bots(live, rewards, terminated)
            long = play[~core.done[play] & (core.actions[play] >= self.step_cap)]
            if len(long):
                truncated[long] = True
                core.done[long] = True
                core.current[long] = -1
                core.mask[long] = False
        core.take_finished()  # the figures are not kept: the rewards carry the results
        over = np.flatnonzero(terminated | truncated)
        if self.autoreset_mode == AutoresetMode.SAME_STEP:
            info = self._info(illegal)
            ended = np.zeros(b, bool)
            ended[over] = True
            info["final_obs"] = self._observe()  # the ended hands': nothing shown
            info["_final_obs"] = ended
            if len(over):
                self._start(over)
                info["action_mask"] = self.action_masks()
            return self._observe(), rewards, terminated, truncated, info
        self._over[over] = True
        self._needs_reset[over] = True
        if len(fresh):
            self._start(fresh)
        return self._observe(), rewards, terminated, truncated, self._info(illegal)

    def action_masks(self) -> np.ndarray:
        """The learning seat's legal actions in every sub-environment, bool ``[num_envs,
        num_actions]`` (none where a hand is over)."""
        mask = self.core.mask.copy()
        mask[self.core.current != self.seat] = False
        return mask

    # -- the hands ------------------------------------------------------------------------
    def _start(self, rows: I64) -> None:
        """Deal new hands into ``rows`` and play them to the learner's turn."""
        self.core._deal_next(rows)
        self._settle(rows)

    def _settle(self, rows: I64) -> None:
        """The other seats of the hands just dealt into ``rows`` act until the learner's
        turn; a hand that ends first is dealt again."""
        core = self.core
        for _ in range(1000):
            if core.done[rows].any():
                raise RulesError("the shoes given to reset() are all played")
            self._bots(rows, None, None)
            core.take_finished()
            rows = rows[core.done[rows]]
            if not len(rows):
                return
            core._deal_next(rows)
        raise RulesError("no hand reached the learning seat in 1,000 deals")

    def _bots(self, rows: I64, rewards: np.ndarray | None, terminated: np.ndarray | None) -> None:
        """The other seats of ``rows`` act until the learner is to act or the hand ends."""
        core = self.core
        rows = rows[~core.done[rows]]
        rows = rows[core.current[rows] != self.seat]
        while len(rows):
            ended = core.apply(rows, self._policy(core, rows))
            if rewards is not None and terminated is not None:
                self._finish(ended, rewards, terminated)
            rows = rows[~core.done[rows]]
            rows = rows[core.current[rows] != self.seat]

    def _finish(self, ended: I64, rewards: np.ndarray, terminated: np.ndarray) -> None:
        if not len(ended):
            return
        paid = self.core.res.payments[ended, self.seat].astype(np.float64)
        rewards[ended] = np.sign(paid) if self.reward_kind == "win" else paid
        terminated[ended] = True

    def _observe(self) -> np.ndarray:
        return encode_seats(self.core, np.full(self.num_envs, self.seat, np.int64))

    def _info(self, illegal: np.ndarray) -> dict[str, Any]:
        b = self.num_envs
        every = np.ones(b, bool)
        return {
            "action_mask": self.action_masks(),
            "_action_mask": every,
            "illegal": illegal,
            "_illegal": every,
        }


__all__ = ["OPPONENTS", "BatchPolicy", "CherkiVectorEnv"]
