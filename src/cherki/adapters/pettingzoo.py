"""PettingZoo (AEC) environments for every cherki game.

``env(game, players=…, rules=…, reward=…, max_steps=…, render_mode=…, **options)`` is the
usual wrapped environment (PettingZoo's order enforcing and out-of-bounds checks);
``raw_env(...)`` the bare one. Importing this module registers one id per game with
PettingZoo's registry: ``pettingzoo.make("aec", "cherki/balik_satu-v0", players=4,
rules="pwee", **options)`` (ids ``cherki/<game>-v0``, ``-`` in a game's name written ``_``).

* Agents ``player_0 … player_{n-1}``, the seats in playing order.
* Observations ``{"observation": float32 vector, "action_mask": int8 vector}``: the vector is
  the contract's encoding of the seat's observation (``docs/observations.md``, the same
  layout for every seat of a table), the mask marks the seat's legal action ids (all zeros
  when it is not to act). A ``Discrete(num_actions)`` action space; the space objects are
  made once and returned on every call.
* Turns: the agent selected is the seat to act, as the engine has it. Claims and calls are
  turns of the seat that may make them (a shown winning card gives a caller a turn to say
  ``sampei`` or ``pass``), so seats do not simply take turns round the table.
* Rewards come at the end of a hand: its payments in points (``reward="points"``), in cents
  (``"money"``) or ±1 by the sign of the payment (``"win"``); see
  :mod:`cherki.adapters.common`. A hand cut short by ``max_steps`` is truncated with no
  reward.
* An illegal action raises :class:`~cherki.core.errors.IllegalActionError` with the reason,
  and the hand is unchanged.
* ``render_mode="ansi"``: ``render()`` returns the acting seat's view as the terminal words
  it (the last seat's view once the hand is over); ``"human"`` prints it.
* Seeding: ``reset(seed=s)`` deals the hand with seed ``s`` (the engine's seed, so the deal
  is the one ``cherki play --seed s`` deals); ``reset()`` draws the next hand's seed from
  the environment's generator, seeded by the first ``reset(seed=…)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env import AgentID

from cherki.adapters.common import (
    Table,
    agent_name,
    check_reward,
    env_names,
    legal_mask,
    rewards,
    seat_text,
)
from cherki.core.contract import State
from cherki.core.errors import IllegalActionError, RulesError

ObsDict = dict[str, np.ndarray]


class CherkiAECEnv(AECEnv[AgentID, ObsDict, int]):  # type: ignore[misc]
    """One hand of a cherki game as a PettingZoo AEC environment (see the module)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's own attribute, per instance)
        "render_modes": ["ansi", "human"],
        "name": "cherki_v0",
        "is_parallelizable": True,
    }

    def __init__(
        self,
        game: str = "balik-satu",
        players: int | None = None,
        rules: str | None = None,
        *,
        reward: str = "points",
        max_steps: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.table = Table.of(game, players, rules, **options)
        self.reward_kind = check_reward(reward)
        self.step_cap = self.table.max_steps(max_steps)
        if render_mode not in (None, "ansi", "human"):
            raise RulesError(f"render_mode is 'ansi', 'human' or None, not {render_mode!r}")
        self.render_mode = render_mode
        n = self.table.players
        self.metadata = {**self.metadata, "name": f"cherki_{env_names()[self.table.game.name]}_v0"}
        self.possible_agents: list[str] = [agent_name(i) for i in range(n)]
        self.agents: list[str] = []
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": self.table.observation_box(),
                "action_mask": spaces.Box(0, 1, (self.table.num_actions,), np.int8),
            }
        )
        act_space = spaces.Discrete(self.table.num_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self.state_: State | None = None
        self._rng = np.random.default_rng()
        self._steps = 0

    # -- spaces ---------------------------------------------------------------------------
    def observation_space(self, agent: AgentID) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: AgentID) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the hand -------------------------------------------------------------------------
    @property
    def hand(self) -> State:
        """The engine's state of the hand (call :meth:`reset` first)."""
        if self.state_ is None:
            raise RulesError("call reset() before playing")
        return self.state_

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            deal = int(seed)
        else:
            deal = int(self._rng.integers(0, 2**63 - 1))
        self.state_ = self.table.new_state(deal)
        self._steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {"seat": self._seat[a]} for a in self.agents}
        self.agent_selection = agent_name(self.state_.current)

    def observe(self, agent: AgentID) -> ObsDict:
        state = self.hand
        seat = self._seat[agent]
        return {
            "observation": state.encode(seat),
            "action_mask": legal_mask(state, seat, self.table.num_actions),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.hand
        seat = self._seat[agent]
        if action is None:
            raise IllegalActionError(f"{agent} is to act: None is no action")
        state.apply(int(action) if isinstance(action, np.integer) else action, seat)
        self._steps += 1
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if state.is_terminal:
            paid = rewards(state.result, state.n, self.reward_kind)
            for a in self.agents:
                self.rewards[a] = paid[self._seat[a]]
                self.terminations[a] = True
            outcome = state.result.to_json()
            self.infos = {a: {"seat": self._seat[a], "result": outcome} for a in self.agents}
        elif self._steps >= self.step_cap:
            for a in self.agents:
                self.truncations[a] = True
        if not state.is_terminal and not self.truncations[agent]:
            self.agent_selection = agent_name(state.current)
        else:
            # every agent then takes its dead step, the one that was to act first
            self.agent_selection = agent_name(state.current if state.current >= 0 else seat)
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        state = self.hand
        seat = state.current if state.current >= 0 else self._seat.get(self.agent_selection, 0)
        text = seat_text(state, seat)
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(game: str = "balik-satu", **kwargs: Any) -> CherkiAECEnv:
    """The bare environment (see :class:`CherkiAECEnv` for the keyword arguments)."""
    return CherkiAECEnv(game, **kwargs)


def env(game: str = "balik-satu", **kwargs: Any) -> AECEnv[AgentID, ObsDict, int]:
    """The environment with PettingZoo's usual wrappers (order enforcing, bounds checks)."""
    wrapped: Any = raw_env(game, **kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped


def env_id(game: str) -> str:
    """The registry id of ``game``: ``cherki/balik_satu-v0``."""
    return f"cherki/{env_names()[game]}-v0"


def _register() -> None:
    from functools import partial

    from pettingzoo.env_registry.registration import aec_registry, register

    for name in env_names():
        if env_id(name) not in aec_registry:
            register("aec", env_id(name), partial(env, name))


_register()

__all__ = ["CherkiAECEnv", "env", "env_id", "raw_env"]
