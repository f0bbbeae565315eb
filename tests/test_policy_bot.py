"""The policy seat: a callable ``(observation vector, mask) -> action`` as a bot level, in a
hand of every game, in the arena (in process and through ``cherki arena --policy``), with
its refusals in words."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient

from cherki.bots import levels_for, make_bot
from cherki.bots.policy import ENV_VAR, POLICIES, PolicyBot, load_policy, register_policy
from cherki.core.contract import Observation, play_out
from cherki.core.errors import RulesError
from cherki.games import GAMES, find_game
from cherki.play.arena import run_arena
from cherki.server.store import Store

AGENT = '''
import numpy as np

rng = np.random.default_rng(0)

def act(obs, mask):
    """A legal action drawn by the policy's own generator (a policy that always took the
    same one could take and throw back a discard for ever)."""
    assert obs.dtype == np.float32 and mask.dtype == bool
    return int(rng.choice(np.flatnonzero(mask)))

class Agent:
    def act(self, obs, mask):
        return np.int64(rng.choice(np.flatnonzero(mask)))

agent = Agent()
'''


@pytest.fixture
def agent_file(tmp_path: Path) -> Path:
    path = tmp_path / "agent.py"
    path.write_text(AGENT)
    return path


@pytest.fixture(autouse=True)
def clean_registry() -> Iterator[None]:
    before = dict(POLICIES)
    env = os.environ.get(ENV_VAR)
    yield
    POLICIES.clear()
    POLICIES.update(before)
    if env is None:
        os.environ.pop(ENV_VAR, None)
    else:
        os.environ[ENV_VAR] = env


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_policy_plays_a_hand_of_every_game(name: str) -> None:
    game = find_game(name)
    layout = game.observation_layout(game.rules(), game.default_players)
    seen: list[int] = []

    draws = np.random.default_rng(7)

    def drawn(obs: np.ndarray, mask: np.ndarray) -> int:
        assert obs.shape == (layout.size,) and mask.shape == (game.num_actions,)
        choice = int(draws.choice(np.flatnonzero(mask)))
        seen.append(choice)
        return choice

    register_policy("drawn", drawn, games=[name])
    assert "policy:drawn" in levels_for(name)
    bot = make_bot(name, "policy:drawn")
    rng = random.Random(1)
    state = game.new_state(seed=3)
    choices: list[int] = []

    def policy(seat: int, obs: Observation) -> int:
        want = state.encode(seat)
        action = bot.act(obs, rng)
        assert np.array_equal(want, obs.encode()) and action in obs.legal
        choices.append(action)
        return action

    play_out(state, policy, limit=20_000)
    assert state.is_terminal and choices == seen


def test_a_policy_from_a_file_in_the_arena(agent_file: Path) -> None:
    register_policy("plain", load_policy(f"{agent_file}:act"))
    register_policy("agent", load_policy(f"{agent_file}:agent.act"))
    res = run_arena(find_game("tantanan"), ["policy:plain", "policy:agent", "heuristic"], 6, 2)
    data = res.to_json()
    assert [b["level"] for b in data["bots"]] == ["policy:plain", "policy:agent", "heuristic"]
    assert all(b["seat_hands"] > 0 for b in data["bots"])


def test_refusals_in_words(agent_file: Path) -> None:
    with pytest.raises(RulesError, match="no policy 'nobody'"):
        make_bot("balik-satu", "policy:nobody")
    with pytest.raises(RulesError, match="module:function"):
        load_policy("agent.py")
    with pytest.raises(RulesError, match="no policy file"):
        load_policy("missing.py:act")
    with pytest.raises(RulesError, match="has no nothing"):
        load_policy(f"{agent_file}:nothing")
    with pytest.raises(RulesError, match="cannot import"):
        load_policy("no_such_module_anywhere:act")
    register_policy("ceki-only", lambda o, m: 0, games=["ceki"])
    with pytest.raises(RulesError, match="plays ceki, not balik-satu"):
        make_bot("balik-satu", "policy:ceki-only")
    assert "policy:ceki-only" not in levels_for("balik-satu")
    register_policy("bad", lambda o, m: 10_000)
    state = find_game("balik-satu").new_state(seed=1)
    with pytest.raises(RulesError, match="not legal here"):
        make_bot("balik-satu", "policy:bad").act(state.observation(state.current), random.Random())
    register_policy("text", lambda o, m: "discard")
    with pytest.raises(RulesError, match="not an action id"):
        make_bot("balik-satu", "policy:text").act(state.observation(state.current), random.Random())
    with pytest.raises(RulesError, match="letters, digits"):
        register_policy("a b", lambda o, m: 0)


def test_the_environment_names_policies(agent_file: Path) -> None:
    os.environ[ENV_VAR] = f"envpol={agent_file}:act"
    assert "policy:envpol" in levels_for("cholek-tiga")
    assert make_bot("cholek-tiga", "policy:envpol").name == "policy:envpol"


def test_cherki_arena_with_a_policy_seat(agent_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    args = ["arena", "tantanan", "--hands", "6", "--jobs", "2", "--json", str(out)]
    args += ["--policy", f"mine={agent_file}:act", "--bots", "policy:mine,heuristic"]
    done = subprocess.run(
        [sys.executable, "-m", "cherki", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "160"},
    )
    assert done.returncode == 0, done.stderr
    assert "policy:mine" in done.stdout
    data = json.loads(out.read_text())
    assert [b["level"] for b in data["bots"]] == ["policy:mine", "heuristic"]
    bad = subprocess.run(
        [sys.executable, "-m", "cherki", "arena", "tantanan", "--bots", "policy:nope"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode != 0 and "no policy 'nope'" in bad.stdout + bad.stderr
    assert "Traceback" not in bad.stdout + bad.stderr


def test_a_policy_seat_at_a_web_table(
    agent_file: Path, store: Store, opened: Callable[..., TestClient]
) -> None:
    """The server offers registered policies as bot levels and seats them at a table; a
    client can name only a registered one, never a module."""
    os.environ[ENV_VAR] = f"webpol={agent_file}:act"
    client = opened(store, rate=1000)
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert "policy:webpol" in games["balik-satu"]["levels"]
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "policy:webpol"}] * 3
    r = client.post("/api/tables", json={"game": "balik-satu", "seats": seats, "bot_pace": 0})
    assert r.status_code == 200, r.text
    session = client.app.state.tables.session(r.json()["table"])  # type: ignore[attr-defined]
    bots = [s.bot for s in session.seats[1:]]
    assert all(isinstance(b, PolicyBot) and b.name == "policy:webpol" for b in bots)
    for level in ("policy:os:system", "policy:x.py:act"):
        bad = [{"kind": "human"}] + [{"kind": "bot", "level": level}] * 3
        r = client.post("/api/tables", json={"game": "balik-satu", "seats": bad})
        assert r.status_code == 400 and "no policy" in r.json()["detail"], r.text
