"""Gymnasium environments: one learning seat against cherki's bots, for every game.

Importing this module registers ``cherki/<Game>-v0`` (``cherki/BalikSatu-v0``,
``cherki/CholekTiga-v0``…): ``gymnasium.make("cherki/BalikSatu-v0", opponents="heuristic",
players=4, rules="pwee", **options)``. Without the import, ``gymnasium.make(
"cherki.adapters.gymnasium:cherki/BalikSatu-v0")`` imports it itself.

* One episode is one hand. The learning seat (``seat``, default 0) acts; every other seat is
  a cherki bot (``opponents``: a level, ``random``, ``heuristic`` or ``search``, or a list
  with one level per other seat), each with its own generator seeded from the episode's.
* Observation: the contract's ``float32`` encoding of the learning seat's observation
  (``docs/observations.md``). Actions: ``Discrete(num_actions)``, the game's action ids.
  :meth:`CherkiEnv.action_masks` gives the legal ones (the convention of sb3-contrib's
  ``MaskablePPO``); ``info["action_mask"]`` holds the same after every reset and step.
* Reward: 0 until the hand ends, then the learning seat's payment in points (``reward=
  "points"``), cents (``"money"``) or ±1 by its sign (``"win"``), see
  :mod:`cherki.adapters.common`. A hand cut short by ``max_steps`` actions (all seats') is
  *truncated* with reward 0.
* **An illegal action ends the episode** rather than raising: ``terminated`` is true, the
  reward is ``illegal_penalty`` (by default the least reward a hand can give the seat, minus
  one, so an illegal action is always worse than any legal play), ``info["illegal"]`` is
  true and ``info["reason"]`` says why. The hand is left as it was.
* ``info`` has the same keys with values of the same type after every reset and step, so
  that Gymnasium's ``make_vec`` (``vectorization_mode="sync"`` or ``"async"``) can stack
  them: ``action_mask`` (bool array), ``seat`` (int), ``illegal`` (bool), ``reason`` (str,
  ``""`` unless illegal), ``winner`` (int: the winning seat, ``-1`` before the end and for a
  hand without a winner: a redeal, a stock-out), ``payments`` (``float64`` array, one per
  seat, zeros before the end) and ``result`` (str: the result's JSON text, ``""`` before the
  end; ``json.loads`` gives the record's ``result`` object, whose fields change type between
  hands and so are kept out of the vectorized arrays).
* Seeding is exact: ``reset(seed=s)`` calls ``super().reset(seed=s)`` and draws the deal's
  seed and the bots' generators from ``self.np_random``; the same seed and the same actions
  give the same episode. A hand that ends before the learning seat's first decision (a
  kandang tangan dealt to a bot) is dealt again from the same generator.
"""

from __future__ import annotations

import json
import random
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from cherki.adapters.common import Table, check_reward, legal_mask, rewards, seat_text
from cherki.bots import Bot, make_bot
from cherki.core.contract import State
from cherki.core.errors import CherkiError, RulesError
from cherki.games import GAMES


class CherkiEnv(gym.Env[np.ndarray, np.int64]):
    """One hand of a cherki game, one learning seat, the others bots (see the module)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str = "balik-satu",
        players: int | None = None,
        rules: str | None = None,
        *,
        opponents: str | list[str] = "heuristic",
        seat: int = 0,
        reward: str = "points",
        max_steps: int | None = None,
        illegal_penalty: float | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.table = Table.of(game, players, rules, **options)
        n = self.table.players
        if type(seat) is not int or not 0 <= seat < n:
            raise RulesError(f"seat is a seat from 0 to {n - 1}, not {seat!r}")
        self.seat = seat
        levels = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(levels) != n - 1:
            raise RulesError(f"opponents: give one level, or {n - 1} (one per other seat)")
        self.levels = levels
        self.bots: list[Bot] = [make_bot(self.table.game.name, lv, players=n) for lv in levels]
        self.reward_kind = check_reward(reward)
        self.step_cap = self.table.max_steps(max_steps)
        low, high = self.table.reward_bounds(self.reward_kind)
        self.illegal_penalty = low - 1.0 if illegal_penalty is None else float(illegal_penalty)
        self.reward_range = (min(low, self.illegal_penalty), high)
        if render_mode not in (None, "ansi", "human"):
            raise RulesError(f"render_mode is 'ansi', 'human' or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.observation_space = self.table.observation_box()
        self.action_space = spaces.Discrete(self.table.num_actions)
        self.state_: State | None = None
        self._rngs: list[random.Random] = []
        self._steps = 0

    @property
    def hand(self) -> State:
        """The engine's state of the hand (after :meth:`reset`)."""
        if self.state_ is None:
            raise RulesError("call reset() before playing")
        return self.state_

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learning seat now, as booleans over every action id."""
        return legal_mask(self.hand, self.seat, self.table.num_actions).astype(bool)

    # -- the episode ----------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        while True:
            deal = int(self.np_random.integers(0, 2**63 - 1))
            self._rngs = [
                random.Random(int(self.np_random.integers(0, 2**63 - 1))) for _ in self.bots
            ]
            self.state_ = self.table.new_state(deal)
            self._steps = 0
            self._bots_play()
            if not self.hand.is_terminal and not self._cut():
                break
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self.hand
        if state.is_terminal or self._cut():
            raise RulesError("the episode is over: call reset()")
        try:
            act = int(action) if isinstance(action, np.integer) else action
            state.apply(act, self.seat)
        except CherkiError as err:
            info = self._info()
            info.update(illegal=True, reason=str(err))  # same keys, same types: make_vec
            return self._observe(), self.illegal_penalty, True, False, info
        self._steps += 1
        self._bots_play()
        if state.is_terminal:
            paid = rewards(state.result, state.n, self.reward_kind)[self.seat]
            info = self._info()
            result = state.result
            info["winner"] = -1 if result.winner is None else int(result.winner)
            info["payments"] = np.asarray(result.payments, dtype=np.float64)
            info["result"] = json.dumps(result.to_json(), sort_keys=True)
            return self._observe(), paid, True, False, info
        return self._observe(), 0.0, False, self._cut(), self._info()

    def _bots_play(self) -> None:
        """The other seats act until the learning seat is to act or the hand ends."""
        state = self.hand
        while not state.is_terminal and state.current != self.seat and not self._cut():
            s = state.current
            i = s if s < self.seat else s - 1
            state.apply(self.bots[i].act(state.observation(s), self._rngs[i]), s)
            self._steps += 1

    def _cut(self) -> bool:
        return self._steps >= self.step_cap

    def _observe(self) -> np.ndarray:
        return self.hand.encode(self.seat)

    def _info(self) -> dict[str, Any]:
        """Every key on every step, each of one type (see the module: ``make_vec`` stacks them)."""
        return {
            "action_mask": self.action_masks(),
            "seat": self.seat,
            "illegal": False,
            "reason": "",
            "winner": -1,
            "payments": np.zeros(self.table.players, dtype=np.float64),
            "result": "",
        }

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = seat_text(self.hand, self.seat)
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text


def env_id(game: str) -> str:
    """The registry id of ``game``: ``cherki/BalikSatu-v0``."""
    camel = "".join(part.capitalize() for part in game.split("-"))
    return f"cherki/{camel}-v0"


def _register() -> None:
    for name in sorted(GAMES):
        if env_id(name) not in gym.registry:
            gym.register(
                id=env_id(name),
                entry_point="cherki.adapters.gymnasium:CherkiEnv",
                kwargs={"game": name},
            )


_register()

__all__ = ["CherkiEnv", "env_id"]
