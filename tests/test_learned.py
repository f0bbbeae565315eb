"""The learned bot (issue 38): every shipped model loads, reads its table's observation
layout (and refuses another in one sentence), plays whole hands of every table its card
claims through the engine, the arena, the Gymnasium opponents and the batched simulator;
the training command runs end to end and resumes from its checkpoint."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from cherki.bots import levels_for, make_bot
from cherki.bots.learned import (
    CARD_FORMAT,
    STUCK,
    LearnedBot,
    Model,
    layout_id,
    layout_of,
    load_model,
    shipped,
    shipped_model,
    shipped_players,
)
from cherki.core.errors import RulesError
from cherki.games import GAMES, find_game
from cherki.vector.sets import GAMES as VECTOR_GAMES

SHIPPED = sorted(shipped())
STEMS = sorted({str(stem) for stem in shipped().values()})
#: the tables the batched simulator plays (not Ceki, not Cholek Tiga: the rules engine's)
BATCHED = [(g, n) for g, n in SHIPPED if g in VECTOR_GAMES]


def one_sentence(text: str) -> bool:
    """One sentence: no line break, and no full stop before its end."""
    return "\n" not in text and ". " not in text.rstrip(".")


def test_models_ship_for_the_first_two_tables() -> None:
    assert ("balik-satu", 4) in shipped()
    assert "learned" in levels_for("balik-satu")


def test_the_models_are_small_and_package_data() -> None:
    total = 0
    for stem in STEMS:
        for suffix in (".npz", ".card.json"):
            total += Path(stem).with_suffix(suffix).stat().st_size
    assert 0 < total < 10_000_000
    # hatch packages src/cherki whole: nothing ignores the models
    ignore = Path(__file__).parents[1].joinpath(".gitignore").read_text()
    assert "*.npz" not in ignore and "models" not in ignore


@pytest.mark.parametrize("stem", STEMS)
def test_every_card_matches_its_tables_layout(stem: str) -> None:
    model = load_model(stem)
    card = model.card
    assert card["format"] == CARD_FORMAT
    game = find_game(card["game"])
    for key in ("presets", "training", "arena", "observation", "network"):
        assert card[key], key
    training = card["training"]
    for key in ("command", "seed", "cpu_seconds", "libraries"):
        assert training[key] not in (None, ""), key
    assert training["command"].startswith("cherki train ")
    # every command a card names runs from a checkout: no path of the machine that made it
    commands = [training["command"], *(c["command"] for c in training.get("commands", []))]
    commands += [a["command"] for a in card["arena"].values() if isinstance(a, dict)]
    assert all(not word.startswith("/") for c in commands for word in c.split()), commands
    assert {"numpy", "jax", "optax", "python"} <= set(training["libraries"])
    # a tuned heuristic's policy head is zero: it plays its prior without its network
    assert model.plays_prior == (training["config"].get("method") == "tune")
    assert card["actions"] == game.num_actions == model.params["wp"].shape[1]
    for n in card["players"]:
        layout = layout_of(game.name, n)
        assert card["observation"]["id"] == layout_id(layout)
        assert card["observation"]["views"] == [[v, k] for v, k in layout.views]
        assert card["observation"]["size"] == layout.size == model.params["w0"].shape[0]
        model.check_table(game.name, n)
        for preset in card["presets"]["trained"] + card["presets"]["measured"]:
            game.rules(preset)
    # the arena's figures, with the commands that made them
    heuristic = card["arena"]["heuristic"]
    assert heuristic["command"].startswith(f"cherki arena {game.name} ")
    assert "--bots learned," in heuristic["command"]
    assert "--field heuristic" in heuristic["command"] and heuristic["seat_hands"] >= 1
    iv = heuristic["learned_minus_heuristic"]
    assert iv["low"] <= iv["mean"] <= iv["high"]


@pytest.mark.parametrize("stem", STEMS)
def test_a_wrong_table_or_layout_is_refused_in_one_sentence(stem: str, tmp_path: Path) -> None:
    model = load_model(stem)
    game = find_game(model.game)
    lo, hi = game.players
    # another player count of the game, or (a game of one table size: Chot) one beyond it
    other = next((n for n in range(lo, hi + 1) if n not in model.players), hi + 1)
    with pytest.raises(RulesError) as err:
        model.check_table(game.name, other)
    assert f"not {other}" in str(err.value) and one_sentence(str(err.value))
    # a player count no model of the game ships for
    none = next(n for n in range(lo, hi + 2) if n not in shipped_players(game.name))
    with pytest.raises(RulesError) as err:
        shipped_model(game.name, none)
    assert one_sentence(str(err.value))
    wrong_game = next(g for g in GAMES if g != game.name)
    with pytest.raises(RulesError) as err:
        model.check_table(wrong_game, model.players[0])
    assert one_sentence(str(err.value))
    # a card made for another layout (a changed encoding) is refused
    card = json.loads(json.dumps(model.card))
    card["observation"]["id"] = "views-sha256:0000000000000000"
    bad = Model(model.params, card)
    with pytest.raises(RulesError) as err:
        bad.check_table(game.name, model.players[0])
    assert "retrain it" in str(err.value) and one_sentence(str(err.value))
    with pytest.raises(RulesError) as err:
        LearnedBot(game.name, bad)
    # a saved copy loads back the same
    bad.save(tmp_path / "copy")
    again = load_model(tmp_path / "copy")
    assert again.card == card
    assert all(np.array_equal(again.params[k], model.params[k]) for k in model.params)


def test_halving_stores_float16_and_keeps_the_play(tmp_path: Path) -> None:
    """scripts/halve_model.py: a model that plays its prior is stored in half the bytes,
    chooses exactly as before and values within float16's rounding; a model whose network
    chooses is refused in one sentence, and so is a path with no model."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "halve_model", Path(__file__).parents[1] / "scripts" / "halve_model.py"
    )
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    tuned = load_model(next(stem for stem in STEMS if load_model(stem).plays_prior))
    # a float32 copy whose weights float16 cannot hold exactly (the shipped ones are
    # halved); its policy head stays zero
    noise = np.random.default_rng(0)
    card = json.loads(json.dumps(tuned.card))
    card["network"]["stored"] = "float32"
    full = Model(
        {
            k: (v + noise.normal(0, 1e-4, v.shape).astype(np.float32) if v.any() else v)
            for k, v in tuned.params.items()
        },
        card,
    )
    full.save(tmp_path / "m")
    size = (tmp_path / "m.npz").stat().st_size
    assert script.main([str(tmp_path / "m")]) == 0
    half = load_model(tmp_path / "m")
    assert half.stored == "float16" and half.plays_prior
    assert (tmp_path / "m.npz").stat().st_size < 0.6 * size
    assert half.card["training"]["commands"][-1]["command"].startswith(
        "python scripts/halve_model.py "
    )
    game = find_game(full.game)
    n = full.players[0]
    a, b = LearnedBot(game.name, full), LearnedBot(game.name, half)
    for h in range(3):
        state = game.new_state(None, n, seed=h)
        while not state.is_terminal:
            seat = state.current
            obs = state.observation(seat)
            choice = a.act(obs, random.Random(h))
            assert b.act(obs, random.Random(h)) == choice
            va, vb = a.value(obs), b.value(obs)
            assert abs(va - vb) <= 0.01 * max(1.0, abs(va))
            state.apply(choice, seat)
    # a model whose network chooses: the same with a policy head of its own
    head = noise.normal(0, 0.1, full.params["wp"].shape).astype(np.float32)
    network = Model({**full.params, "wp": head}, card)
    assert not network.plays_prior
    network.save(tmp_path / "n")
    before = (tmp_path / "n.npz").read_bytes()
    assert script.main([str(tmp_path / "n")]) == 2
    assert (tmp_path / "n.npz").read_bytes() == before
    assert script.main([str(tmp_path / "none")]) == 2


def test_a_game_without_a_model_has_no_learned_level() -> None:
    bare = [g for g in GAMES if not shipped_players(g)]
    for g in bare:
        assert "learned" not in levels_for(g)
        with pytest.raises(RulesError) as err:
            make_bot(g, "learned")
        assert one_sentence(str(err.value))
        with pytest.raises(RulesError):
            LearnedBot(g)


@pytest.mark.parametrize(("game", "players"), SHIPPED)
def test_learned_plays_whole_hands_of_every_claimed_table(game: str, players: int) -> None:
    g = find_game(game)
    rng = random.Random(0)
    bot = make_bot(game, "learned", players=players)
    assert isinstance(bot, LearnedBot)
    for seed in range(2):
        state = g.new_state(None, players, seed=seed)
        steps = 0
        while not state.is_terminal:
            obs = state.observation(state.current)
            lots = random.Random()
            lots.setstate(rng.getstate())
            action = bot.act(obs, rng)
            assert action in obs.legal
            if bot._same < STUCK and len(obs.legal) > 1:  # the network's own choice
                model = bot.model_for(players)
                # its prior: its own weights' heuristic, drawing the lots the bot drew
                prior = np.array([model.heuristic().act(obs, lots)]) if model.has_prior else None
                logits, _ = model.forward(obs.encode()[None, :], prior)
                legal = np.array(obs.legal)
                assert action == legal[np.argmax(logits[0, legal])]
            state.apply(action, state.current)
            steps += 1
            assert steps < 5000
            if len(obs.legal) > 1:
                last = obs
        assert sum(state.result.payments) == 0
        # the value (a model with the prior values its seat's own decisions)
        assert np.isfinite(bot.value(last))


@pytest.mark.parametrize(("game", "players"), SHIPPED)
def test_learned_in_the_arena_and_as_gymnasium_opponents(game: str, players: int) -> None:
    from cherki.adapters.gymnasium import CherkiEnv
    from cherki.play.arena import run_arena

    g = find_game(game)
    k = 2
    res = run_arena(g, ["learned", "heuristic"], k * players, 3, players=players, field="heuristic")
    labels = [b["bot"] for b in res.to_json()["bots"]]
    assert labels[0].startswith("learned")
    env = CherkiEnv(g.name, players=players, opponents="learned")
    env.reset(seed=1)
    done = False
    while not done:
        mask = env.action_masks()
        _, _, term, trunc, info = env.step(int(np.flatnonzero(mask)[0]))
        done = term or trunc
        assert not info.get("illegal")
    lo, hi = g.players
    # another table size of the game without a model (Chot has one size only)
    for other in [n for n in range(lo, hi + 1) if n not in shipped_players(game)][:1]:
        with pytest.raises(RulesError, match="learned"):
            CherkiEnv(g.name, players=other, opponents="learned")


@pytest.mark.parametrize(("game", "players"), BATCHED)
def test_the_batched_policy_plays_as_the_bot(game: str, players: int) -> None:
    from cherki.vector.observe import encode_seats
    from cherki.vector.policies import BySeat, LearnedPolicy
    from cherki.vector.sets import SetsVector

    model = shipped_model(game, players)
    env = SetsVector(game, None, players=players, batch=16, autoreset=False)
    env.reset(seed=3, hands=16)
    policy = LearnedPolicy()
    # the heuristic's choices the policy asked for (a model with the prior reads them)
    policy.model_for(env)
    inner = policy.prior
    asked: dict[int, int] = {}

    def recording(e: SetsVector, r: np.ndarray) -> np.ndarray:
        out = inner(e, r)
        asked.update(zip(r.tolist(), out.tolist(), strict=True))
        return out

    policy.prior = recording  # type: ignore[assignment]
    steps = 0
    while not env.done.all():
        rows = np.flatnonzero(~env.done)
        asked.clear()
        act = policy(env, rows)
        assert env.mask[rows, act].all()
        # the same choice as the model row by row (the bot's rule), where no hand is stuck
        x = encode_seats(env, env.current[rows], rows)
        free = policy.stuck.same[rows] < STUCK * players
        for i in np.flatnonzero(free & (env.mask[rows].sum(axis=1) > 1))[::7]:
            prior = np.array([asked[int(rows[i])]]) if model.has_prior else None
            logits, _ = model.forward(x[i : i + 1], prior)
            legal = np.flatnonzero(env.mask[rows[i]])
            assert act[i] == legal[np.argmax(logits[0, legal])]
        env.apply(rows, act)
        steps += 1
        assert steps < 5000
    fin = env.take_finished()
    assert len(fin.index) == 16 and (fin.payments.sum(axis=1) == 0).all()
    mixed = BySeat(["learned"] + ["heuristic"] * (players - 1), np.random.default_rng(1))
    env = SetsVector(game, None, players=players, batch=8)
    env.reset(seed=4, hands=8)
    assert len(env.play(mixed).index) == 8


def test_the_vector_engine_of_simulate_plays_learned() -> None:
    from cherki.play.simulate import make_setup

    setup = make_setup(
        find_game("balik-satu"), None, {}, 4, "learned,heuristic,heuristic,heuristic", 1, "vector"
    )
    assert setup.bots[0] == "learned"


# -- training -------------------------------------------------------------------------------
def test_training_refuses_in_one_line_without_jax(monkeypatch: pytest.MonkeyPatch) -> None:
    from cherki import train

    monkeypatch.setitem(sys.modules, "jax", None)
    with pytest.raises(RulesError) as err:
        train.require_jax()
    assert "uv sync --extra train" in str(err.value) and "\n" not in str(err.value)


def test_training_runs_end_to_end_and_resumes(tmp_path: Path) -> None:
    from cherki import train

    game = "balik-satu"
    small = {
        "bc_hands": 32, "ppo_envs": 16, "ppo_steps": 8, "ppo_minibatch": 64,
        "eval_hands": 32, "eval_every": 1.0, "hidden": (16, 16),
    }  # fmt: skip
    # the compiled simulator, the first measurement and the plot warmed up outside the budget
    warm = Model(train.init_params(np.random.default_rng(0), layout_of(game, 2).size,
                                   find_game(game).num_actions, (16, 16)))  # fmt: skip
    warm.params["scale"] = np.ones(warm.params["w0"].shape[0], np.float32)
    warm.params["value_scale"] = np.ones(1, np.float32)
    train.duplicate_payoff(warm, game, 2, None, 8, seed=0)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.close(plt.figure())
    lines: list[str] = []
    out = tmp_path / "run"
    # all cloning first, then a resumed run of PPO alone
    first = train.train(game, 2, 2.0, 5, out, log=lines.append, bc_share=1.0, **small)
    assert first.card["training"]["cpu_seconds"] >= 2.0
    for name in ("checkpoint.pkl", "curve.png", "curve.json", f"{game}-2p.npz"):
        assert (out / name).is_file(), name
    assert any("against the heuristic" in line for line in lines)
    assert "(0 steps" in first.card["training"]["method"]
    assert "(0 decisions" not in first.card["training"]["method"]
    with pytest.raises(RulesError, match="give --resume"):
        train.train(game, 2, 3.0, 5, out, log=lines.append, **small)
    with pytest.raises(RulesError, match="made with seed"):
        train.train(game, 2, 9.0, 6, out, resume=True, log=lines.append, **small)
    second = train.train(game, 2, 5.0, 5, out, resume=True, log=lines.append, bc_share=0.0, **small)
    assert any(line.startswith("resumed from") for line in lines)
    t = second.card["training"]
    assert t["cpu_seconds"] >= 5.0 > first.card["training"]["cpu_seconds"]
    assert len(t["curve"]) > len(first.card["training"]["curve"])
    assert "(0 steps" not in t["method"] and "(0 decisions" not in t["method"]
    # the model it wrote plays: loaded back, checked against the 2-player layout
    model = load_model(out / f"{game}-2p")
    model.check_table(game, 2)
    bot = LearnedBot(game, model)
    state = find_game(game).new_state(None, 2, seed=1)
    while not state.is_terminal:
        obs = state.observation(state.current)
        state.apply(bot.act(obs, random.Random(0)), state.current)


def test_the_train_command_refuses_in_one_line(tmp_path: Path) -> None:
    import subprocess

    env = {"COLUMNS": "200", "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"}
    for args, said in (
        (["ceki", "--players", "4"], "Ceki trains with --method search"),
        (["balik-satu", "--players", "4", "--bc-share", "2"], "--bc-share is a share"),
        (["balik-satu", "--players", "1"], "players"),
        (
            ["balik-satu", "--players", "4", "--method", "sgd"],
            "--method is ppo, api, search or tune",
        ),
        (["balik-satu", "--players", "4", "--method", "api", "--no-prior"], "needs --prior"),
    ):
        run = subprocess.run(
            [sys.executable, "-m", "cherki", "train", *args, "--seconds", "5", "--out",
             str(tmp_path / "x")],
            capture_output=True, text=True, timeout=120, env=env, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        out = (run.stdout + run.stderr).strip()
        assert run.returncode == 2 and "Traceback" not in out, out
        assert said in out and len(out.splitlines()) == 1, out
    assert not (tmp_path / "x").exists()
