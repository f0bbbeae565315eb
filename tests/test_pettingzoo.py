"""PettingZoo (AEC) environments for every game, checked by PettingZoo's own tests
(``api_test``, ``seed_test``, ``render_test``, ``parallel_api_test`` through the turn-based
conversion) at each game's smallest, default and largest table, and by our own."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from cherki.adapters.pettingzoo import env, env_id, raw_env
from cherki.core.errors import IllegalActionError, RulesError
from cherki.games import GAMES, find_game
from cherki.play.records import hand_record, new_record, parse_record, replay_hand


def _tables() -> list[tuple[str, int]]:
    out = []
    for name in sorted(GAMES):
        g = find_game(name)
        lo, hi = g.players
        out += [(name, n) for n in sorted({lo, g.default_players, hi})]
    return out


TABLES = _tables()


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_pettingzoos_own_checks(name: str, players: int) -> None:
    make = partial(env, name, players=players)
    api_test(make(), num_cycles=300)
    seed_test(make, num_cycles=200)
    render_test(partial(raw_env, name, players=players))
    parallel_api_test(turn_based_aec_to_parallel(make()), num_cycles=300)


def _play(e: Any, seed: int, rng: np.random.Generator) -> list[int]:
    e.reset(seed=seed)
    actions = []
    for _agent in e.agent_iter():
        obs, _reward, term, trunc, _info = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        a = int(rng.choice(legal))
        actions.append(a)
        e.step(a)
    return actions


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_hand_is_the_engines_hand_and_rewards_are_its_payments(name: str) -> None:
    e = raw_env(name)
    rng = np.random.default_rng(3)
    e.reset(seed=11)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _info = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        seat = e.possible_agents.index(agent)
        assert e.hand.current == seat
        legal = e.hand.legal_actions(seat)
        assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        assert np.array_equal(obs["observation"], e.hand.observation(seat).encode())
        e.step(int(rng.choice(legal)))
    state = e.hand
    assert state.is_terminal
    assert [total[a] for a in e.possible_agents] == [float(p) for p in state.result.payments]
    # the hand is the engine's: its record replays to the same result
    rec = new_record(state.game, state.rules, [f"p{i}" for i in range(state.n)])
    rec.hands.append(hand_record(state))
    again = replay_hand(parse_record(rec.to_json()), 0)
    assert again.result.payments == state.result.payments
    assert state.info.seed == 11


def test_registry_make_options_rewards_and_errors() -> None:
    e = pettingzoo.make("aec", env_id("balik-satu"), players=5, rules="babas", ayam_bonus=3)
    e.reset(seed=2)
    raw = e.unwrapped
    assert raw.table.players == 5 and raw.table.rules.ayam_bonus == 3
    assert raw.metadata["name"] == "cherki_balik_satu_v0"
    assert e.action_space("player_0") is e.action_space("player_3")
    assert e.observation_space("player_0") is e.observation_space("player_1")
    for bad, message in [
        ({"players": 1}, "played by 2 to 20"),
        ({"reward": "glory"}, "reward is one of"),
        ({"max_steps": 0}, "max_steps"),
        ({"render_mode": "rgb_array"}, "render_mode"),
        ({"nonsense": 1}, "nonsense"),
    ]:
        with pytest.raises(RulesError, match=message):
            raw_env("balik-satu", **bad)
    # an illegal action is refused with the reason, the hand unchanged
    r = raw_env("balik-satu")
    r.reset(seed=1)
    before = r.hand.history[:]
    illegal = next(a for a in range(r.table.num_actions) if a not in r.hand.legal_actions())
    with pytest.raises(IllegalActionError):
        r.step(illegal)
    assert r.hand.history == before
    r.step(np.int64(r.hand.legal_actions()[0]))  # numpy ids are taken as ids
    assert len(r.hand.history) == 1


@pytest.mark.parametrize("reward", ["money", "win"])
def test_reward_options(reward: str) -> None:
    e = raw_env("gonggong", reward=reward)
    rng = np.random.default_rng(0)
    got = dict.fromkeys(e.possible_agents, 0.0)
    e.reset(seed=4)
    for agent in e.agent_iter():
        obs, r, term, trunc, _ = e.last()
        got[agent] += r
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    result = e.hand.result
    want = result.money if reward == "money" else tuple(np.sign(result.payments))
    assert [got[a] for a in e.possible_agents] == [float(x) for x in want]


def test_a_hand_past_max_steps_is_truncated() -> None:
    e = raw_env("balik-satu", max_steps=10)
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    steps = 0
    truncated = set()
    for agent in e.agent_iter():
        obs, r, term, trunc, _ = e.last()
        if term or trunc:
            truncated.add(agent) if trunc else None
            assert r == 0
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps == 10 and truncated == set(e.possible_agents)
    assert not e.hand.is_terminal


def test_same_seed_same_hand_and_hidden_cards_stay_hidden() -> None:
    a = _play(raw_env("ceki"), 5, np.random.default_rng(9))
    b = _play(raw_env("ceki"), 5, np.random.default_rng(9))
    assert a == b
    # a seat's observation does not change when another seat's hidden hand does
    e = raw_env("balik-satu")
    e.reset(seed=3)
    mine = e.observe("player_1")["observation"]
    other = e.hand.clone()
    h0, h2 = other.hands[0], other.hands[2]
    swap = next(k for k in range(30) if h0[k] and not h2[k])
    back = next(k for k in range(30) if h2[k] and not h0[k])
    h0[swap] -= 1
    h2[swap] += 1
    h2[back] -= 1
    h0[back] += 1
    assert np.array_equal(other.observation(1).encode(), mine)
    assert not np.array_equal(other.observation(0).encode(), e.observe("player_0")["observation"])
