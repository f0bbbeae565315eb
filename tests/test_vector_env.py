"""cherki.vector.env: the batched simulator as a Gymnasium vector environment, checked with
Gymnasium's own tools (its spaces, its passive checker, its vector wrappers) and against
the reference engine and the Gymnasium adapter at every step of hundreds of hands."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.passive_env_checker import check_obs
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space
from gymnasium.wrappers.vector import RecordEpisodeStatistics

from cherki.adapters.gymnasium import CherkiEnv
from cherki.core.cards import N_KINDS
from cherki.core.contract import State
from cherki.core.errors import RulesError
from cherki.games import find_game
from cherki.vector.env import CherkiVectorEnv
from cherki.vector.policies import HeuristicPolicy
from cherki.vector.sets import SetsVector
from cherki.vector.tables import I64


def legal_choice(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])


def test_spaces_are_the_adapters_and_gymnasiums_checks_pass() -> None:
    env = CherkiVectorEnv("balik-satu", num_envs=12, opponents="random")
    single = CherkiEnv("balik-satu", opponents="random")
    assert env.single_observation_space == single.observation_space
    assert env.single_action_space == single.action_space
    assert env.observation_space == batch_space(env.single_observation_space, 12)
    assert env.action_space == batch_space(env.single_action_space, 12)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=1)
    check_obs(obs, env.observation_space, "reset")
    assert info["action_mask"].shape == (12, env.single_action_space.n)
    assert info["action_mask"].any(axis=1).all() and info["_action_mask"].all()
    rng = np.random.default_rng(1)
    previous = obs
    for _ in range(60):
        obs, rewards, terminated, truncated, info = env.step(legal_choice(info["action_mask"], rng))
        check_obs(obs, env.observation_space, "step")
        assert obs is not previous and not np.shares_memory(obs, previous)
        assert rewards.shape == terminated.shape == truncated.shape == (12,)
        assert np.array_equal(info["action_mask"], env.action_masks())
        assert not info["action_mask"][terminated | truncated].any()
        previous = obs


def test_autoreset_is_next_step() -> None:
    """The step after a hand ends deals a new one: reward 0, not terminated, the learner to
    act; the action given for it is ignored."""
    env = CherkiVectorEnv("tantanan", num_envs=8, opponents="heuristic")
    _obs, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    ended_seen = 0
    was_over = np.zeros(8, bool)
    for _ in range(200):
        acts = legal_choice(info["action_mask"], rng)
        acts[was_over] = 10**6  # ignored: those sub-environments are dealt again
        obs, rewards, terminated, truncated, info = env.step(acts)
        assert (rewards[was_over] == 0).all()
        assert not (terminated | truncated)[was_over].any()
        assert info["action_mask"][was_over].any(axis=1).all()
        assert obs[was_over].any(axis=1).all()
        over = terminated | truncated
        assert not obs[over].any()  # the final observation of a hand: nothing shown
        ended_seen += int(over.sum())
        was_over = over
    assert ended_seen > 50


def test_same_seed_same_episodes_and_episode_statistics() -> None:
    def run(seed: int) -> tuple[list[float], np.ndarray]:
        env = RecordEpisodeStatistics(CherkiVectorEnv("balik-satu", num_envs=6))
        _obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        returns: list[float] = []
        total = np.zeros(6)
        for _ in range(150):
            obs, rewards, _term, _trunc, info = env.step(legal_choice(info["action_mask"], rng))
            total += rewards
            if "episode" in info:
                done = info["_episode"]
                assert np.allclose(info["episode"]["r"][done], total[done])
                returns += info["episode"]["r"][done].tolist()
                total[done] = 0
        return returns, obs

    a, obs_a = run(5)
    b, obs_b = run(5)
    c, _ = run(6)
    assert a == b and np.array_equal(obs_a, obs_b) and len(a) > 10
    assert a != c


def test_illegal_actions_and_bad_input() -> None:
    env = CherkiVectorEnv("balik-satu", num_envs=4)
    _obs, info = env.reset(seed=2)
    acts = legal_choice(info["action_mask"], np.random.default_rng(2))
    illegal = np.flatnonzero(~info["action_mask"][0])[0]
    acts[0] = illegal
    _obs, rewards, terminated, _trunc, info = env.step(acts)
    assert terminated[0] and info["illegal"][0] and not info["illegal"][1:].any()
    assert rewards[0] == env.illegal_penalty < 0
    with pytest.raises(RulesError, match="4 whole numbers"):
        env.step(np.zeros(3, np.int64))
    with pytest.raises(RulesError, match="opponents"):
        CherkiVectorEnv("balik-satu", opponents="search")
    with pytest.raises(RulesError, match="games of sets"):
        CherkiVectorEnv("ceki")


class Recorder:
    """The batched heuristic, its choices played on the reference engine's states too."""

    def __init__(self, refs: dict[int, State], make: Any) -> None:
        self.policy = HeuristicPolicy(11)
        self.refs = refs
        self.make = make

    def __call__(self, core: SetsVector, rows: I64) -> I64:
        acts = self.policy(core, rows)
        for r, a in zip(rows.tolist(), acts.tolist(), strict=True):
            st = self.make(int(core.index[r]))
            assert st.current == core.current[r]
            st.apply(a)
        return acts


@pytest.mark.parametrize(("name", "players", "seat"), [("balik-satu", 4, 1), ("chaqui", 3, 0)])
def test_every_step_is_the_reference_engines(name: str, players: int, seat: int) -> None:
    """The same shoes, the learner's and the opponents' choices played on the reference
    engine too: at every step of hundreds of hands the observation is the engine's
    ``state.encode(seat)`` (the adapters' vector), the mask its legal actions, and a
    hand's reward its payment to the seat."""
    game = find_game(name)
    rules = game.rules()
    envs = 16
    total = 420
    half = rules.shoe_half_packs(players)
    base = np.repeat(np.arange(N_KINDS), half)
    shoes = np.random.default_rng(9).permuted(np.tile(base, (total, 1)), axis=1)
    firsts = np.arange(total) % players
    refs: dict[int, State] = {}

    def make(i: int) -> State:
        if i not in refs:
            refs[i] = game.new_state(rules, players, shoe=shoes[i].tolist(), first=int(firsts[i]))
        return refs[i]

    env = CherkiVectorEnv(name, envs, players, opponents=Recorder(refs, make), seat=seat)
    obs, info = env.reset(seed=0, options={"shoes": shoes, "first": firsts})
    rng = random.Random(4)
    was_over = np.zeros(envs, bool)
    hands = steps = 0
    while env.core._next_index < total - 2 * envs:
        acts = np.zeros(envs, np.int64)
        for r in range(envs):
            st = make(int(env.core.index[r]))
            if was_over[r]:
                continue
            assert st.current == seat
            want = st.encode(seat)
            assert np.array_equal(want, st.observation(seat).encode())
            np.testing.assert_array_equal(obs[r], want, err_msg=f"row {r}")
            legal = st.legal_actions(seat)
            assert np.flatnonzero(info["action_mask"][r]).tolist() == legal
            acts[r] = rng.choice(legal)
            st.apply(int(acts[r]), seat)  # the learner's action, before the opponents'
            steps += 1
        before = env.core.index.copy()
        obs, rewards, terminated, truncated, info = env.step(acts)
        assert not truncated.any()
        for r in np.flatnonzero(terminated).tolist():
            st = refs[int(before[r])]
            assert st.is_terminal
            assert rewards[r] == st.result.payments[seat]
            hands += 1
        was_over = terminated
    assert hands >= 300 and steps > 10 * hands // 2


def test_same_step_autoreset() -> None:
    """``SAME_STEP``: the step that ends a hand returns the next hand's first observation,
    the ended one's in ``final_obs``; every step the learner has a legal action."""
    env = CherkiVectorEnv("tantanan", num_envs=8, autoreset_mode=AutoresetMode.SAME_STEP)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    _obs, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    ended = 0
    for _ in range(120):
        obs, _rewards, terminated, truncated, info = env.step(
            legal_choice(info["action_mask"], rng)
        )
        over = terminated | truncated
        assert np.array_equal(info["_final_obs"], over)
        assert not info["final_obs"][over].any()
        assert obs.any(axis=1).all() and info["action_mask"].any(axis=1).all()
        ended += int(over.sum())
    assert ended > 30
    with pytest.raises(RulesError, match="autoreset_mode"):
        CherkiVectorEnv("tantanan", autoreset_mode="Disabled")
