"""Train sb3-contrib's MaskablePPO on the batched simulator, then seat it in the arena.

The learner plays one seat of every hand of ``CherkiVectorEnv`` (``cherki.vector.env``: the
batched simulator as a Gymnasium vector environment, the other seats the batched heuristic),
through a small Stable-Baselines3 ``VecEnv`` adapter below (SB3 has its own vector API:
same-step resets, ``terminal_observation`` in each info, masks through
``env_method("action_masks")``). The trained model then plays as a policy seat
(``cherki.bots.policy``: a function ``(observation vector, mask) -> action``) in the arena,
duplicate deals against the heuristic and the random bot, with 95% intervals. The vector it
reads is the same in both places (``docs/observations.md``, "One encoding everywhere").

sb3-contrib (and PyTorch) is not a dependency of cherki; run it with::

    uv run --extra rl --with sb3-contrib python examples/maskable_ppo_vector.py \\
        --game balik-satu --steps 30000 --envs 64 --hands 400

The figures depend on the steps, the seeds and the machine's PyTorch; a few hundred hands
give intervals of a few points.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from cherki.bots.policy import register_policy
from cherki.games import find_game
from cherki.play.arena import mean_interval, run_arena
from cherki.vector.env import CherkiVectorEnv


class SB3Adapter(VecEnv):  # type: ignore[misc]
    """``CherkiVectorEnv`` (same-step resets) as a Stable-Baselines3 ``VecEnv``."""

    def __init__(self, env: CherkiVectorEnv) -> None:
        self.env = env
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)
        self._actions: np.ndarray | None = None
        self._seed: int | None = None

    def reset(self) -> np.ndarray:
        obs, _info = self.env.reset(seed=self._seed)
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, np.int64)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        assert self._actions is not None
        obs, rewards, terminated, truncated, info = self.env.step(self._actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = info["final_obs"][i]
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return obs, rewards.astype(np.float32), dones, infos

    def close(self) -> None:
        self.env.close()

    def seed(self, seed: int | None = None) -> list[int | None]:
        self._seed = seed
        return [seed] * self.num_envs

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self.env, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.env, attr_name, value)

    def env_method(
        self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any
    ) -> list[Any]:
        if method_name == "action_masks":  # MaskablePPO's call: one mask per sub-environment
            masks = self.env.action_masks()
            return [masks[i] for i in self._indices(indices)]
        result = getattr(self.env, method_name)(*args, **kwargs)
        return [result] * len(self._indices(indices))

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="balik-satu")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--steps", type=int, default=30_000, help="learner decisions to train on")
    ap.add_argument("--envs", type=int, default=64, help="hands played at once")
    ap.add_argument("--opponents", default="heuristic", choices=["heuristic", "random"])
    ap.add_argument("--hands", type=int, default=400, help="arena hands to evaluate")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    env = CherkiVectorEnv(
        args.game,
        args.envs,
        args.players,
        opponents=args.opponents,
        autoreset_mode="SameStep",
    )
    venv = SB3Adapter(env)
    venv.seed(args.seed)
    model = MaskablePPO("MlpPolicy", venv, n_steps=max(16, 2048 // args.envs), seed=args.seed)
    model.learn(total_timesteps=args.steps)

    def act(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    register_policy("ppo", act, games=[args.game])
    game = find_game(args.game)
    for rival in ("heuristic", "random"):
        res = run_arena(game, ["policy:ppo", rival], args.hands, args.seed, players=args.players)
        print(f"{game.title}, MaskablePPO ({args.steps:,} steps) against {rival}:")
        for b in res.bots:
            iv = mean_interval(b.samples)
            wins = b.win_interval()
            print(f"  {b.label:12} {iv.mean:+7.2f} points a hand [{iv.low:+.2f}, {iv.high:+.2f}]"
                  f", win rate {wins.mean:.1%} [{wins.low:.1%}, {wins.high:.1%}]")  # fmt: skip
        for a, b, iv in res.pairs():
            print(f"  {a} − {b}: {iv.mean:+.2f} [{iv.low:+.2f}, {iv.high:+.2f}] a hand")


if __name__ == "__main__":
    main()
