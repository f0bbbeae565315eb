"""Gymnasium's ``make_vec`` over every game, sync and async (issue 40): ``info`` has the same
keys with values of one type on every step, so the vector environment stacks them across
hands that end with a winner and hands that end without one (a redeal, a stock-out)."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest

import cherki.adapters.gymnasium as cg
from cherki.games import GAMES

STEPS = 2000


def _run(name: str, mode: str) -> tuple[int, int]:
    env = gym.make_vec(cg.env_id(name), num_envs=4, vectorization_mode=mode, opponents="random")
    rng = np.random.default_rng(3)
    won = unwon = 0
    try:
        _obs, info = env.reset(seed=11)
        for _ in range(STEPS):
            masks = info["action_mask"]
            # a finished hand's mask is empty: its next action is ignored (Gymnasium resets it)
            actions = np.array(
                [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks]
            )
            _obs, _r, term, _trunc, info = env.step(actions)
            assert info["winner"].dtype.kind == "i" and info["payments"].ndim == 2
            for i in np.flatnonzero(term):
                result = json.loads(info["result"][i])
                winner = -1 if result["winner"] is None else result["winner"]
                assert info["winner"][i] == winner
                assert info["payments"][i].tolist() == result["payments"]
                won, unwon = won + (winner >= 0), unwon + (winner < 0)
            for i in np.flatnonzero(~term):
                assert info["result"][i] == "" and info["winner"][i] == -1
    finally:
        env.close()  # async: returns (it hung in close() after the crash)
    return won, unwon


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("name", sorted(GAMES))
def test_make_vec_runs_2000_steps_over_hands_with_and_without_a_winner(
    name: str, mode: str
) -> None:
    won, unwon = _run(name, mode)
    assert won > 0
    if unwon == 0:  # a game whose random hands all end with a winner in 2,000 steps: say so
        pytest.fail(f"{name}: no hand without a winner in {STEPS} steps; pick another seed")
