"""Gymnasium environments (one learning seat against bots) for every game, checked by
Gymnasium's own ``check_env`` and by our own."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import cherki.adapters.gymnasium as cg
from cherki.core.errors import RulesError
from cherki.games import GAMES, find_game


@pytest.mark.parametrize("name", sorted(GAMES))
def test_gymnasiums_own_check(name: str) -> None:
    env = gym.make(cg.env_id(name), opponents="random", render_mode="ansi")
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        check_env(env.unwrapped, skip_render_check=False)
        lo, hi = find_game(name).players
        for n in (lo, hi):
            check_env(cg.CherkiEnv(name, players=n, opponents="random"))
    # the bounded observation space: no warning on its bounds, nor any other but the one
    # every unwrapped environment gets (it carries no spec to make the other render modes)
    said = [w for w in said if "alternative render modes" not in str(w.message)]
    assert [str(w.message) for w in said] == []


def _episode(env: cg.CherkiEnv, seed: int, rng: np.random.Generator) -> tuple[float, list[int]]:
    obs, info = env.reset(seed=seed)
    total, actions = 0.0, []
    while True:
        legal = np.flatnonzero(env.action_masks())
        assert np.array_equal(legal, np.flatnonzero(info["action_mask"]))
        assert env.hand.current == env.seat
        a = int(rng.choice(legal))
        actions.append(a)
        obs, r, term, trunc, info = env.step(a)
        assert env.observation_space.contains(obs)
        total += r
        if term or trunc:
            return total, actions


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_episode_is_a_hand_and_the_reward_the_seats_payment(name: str) -> None:
    env = cg.CherkiEnv(name, seat=1, opponents="heuristic")
    total, _ = _episode(env, 7, np.random.default_rng(1))
    assert env.hand.is_terminal
    assert total == float(env.hand.result.payments[1])
    # the same seed and the same actions: the same episode (bots and deal seeded from it)
    again = cg.CherkiEnv(name, seat=1, opponents="heuristic")
    first = _episode(env, 7, np.random.default_rng(1))
    assert _episode(again, 7, np.random.default_rng(1)) == first


def test_make_with_options_and_bad_arguments() -> None:
    env = gym.make("cherki/BalikSatu-v0", opponents="heuristic", players=5, rules="babas")
    raw = env.unwrapped
    assert isinstance(raw, cg.CherkiEnv)
    assert raw.table.players == 5 and len(raw.bots) == 4
    mixed = cg.CherkiEnv("ceki", players=3, opponents=["random", "heuristic"])
    assert [b.name for b in mixed.bots] == ["random", "heuristic"]
    for bad, message in [
        ({"opponents": "wizard"}, "no 'wizard' bot"),
        ({"opponents": ["random"]}, "one per other seat"),
        ({"seat": 4}, "seat is a seat from 0 to 3"),
        ({"reward": "glory"}, "reward is one of"),
        ({"players": 99}, "played by"),
    ]:
        with pytest.raises(RulesError, match=message):
            cg.CherkiEnv("balik-satu", **bad)


def test_an_illegal_action_ends_the_episode_with_the_penalty() -> None:
    env = cg.CherkiEnv("balik-satu", opponents="random")
    env.reset(seed=3)
    before = env.hand.history[:]
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _obs, r, term, trunc, info = env.step(illegal)
    assert term and not trunc and info["illegal"] and "discard one" in info["reason"]
    assert r == env.illegal_penalty == env.table.reward_bounds("points")[0] - 1
    assert env.hand.history == before
    with pytest.raises(RulesError, match="call reset"):
        cg.CherkiEnv("balik-satu").step(0)
    custom = cg.CherkiEnv("balik-satu", illegal_penalty=-5)
    custom.reset(seed=3)
    assert custom.step(illegal)[1] == -5


def test_max_steps_truncates() -> None:
    env = cg.CherkiEnv("balik-satu", opponents="random", max_steps=12)
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    while True:
        _, r, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if term or trunc:
            break
    assert trunc and not term and r == 0.0 and not env.hand.is_terminal
