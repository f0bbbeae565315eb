"""Expert iteration (``cherki train --method search``, :mod:`cherki.distil`): the search's
decisions are recorded as it made them, labelled by its measured gains, and a short run
trains from them end to end, in worker processes, and resumes without sampling again."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from cherki.bots.learned import LearnedBot, layout_of, load_model
from cherki.bots.search import SearchBot
from cherki.core.errors import RulesError
from cherki.games import find_game


def test_the_search_says_what_it_compared() -> None:
    game = find_game("balik-satu")
    bot = SearchBot.by_rollouts(game.name, 16)
    state = game.new_state(None, 4, seed=3)
    seen = 0
    while not state.is_terminal and seen < 6:
        obs = state.observation(state.current)
        a = bot.act(obs, random.Random(1))
        c = bot.compared
        if len(obs.legal) == 1:
            assert c is None
        if c is not None:
            seen += 1
            assert c.chosen == a and c.base in obs.legal and c.base not in c.gains
            for b, (mean, se, n) in c.gains.items():
                assert b in obs.legal and n >= 16 and se >= 0 and np.isfinite(mean)
            # the search departs only by a clear margin (or between the heuristic's ties)
            if a != c.base:
                assert c.gains[a][0] > 0
        state.apply(a, state.current)
    assert seen


def test_samples_are_the_same_in_any_number_of_processes_and_labels_need_a_clear_gain() -> None:
    from cherki.distil import FIELDS, SearchPool, labels, search_samples

    one, cpu = search_samples("balik-satu", 3, None, [11, 12], 8)
    assert cpu > 0 and len(one["choice"]) > 10
    assert one["x"].shape == (len(one["choice"]), layout_of("balik-satu", 3).size)
    for k in FIELDS:
        assert len(one[k]) == len(one["choice"]), k
    assert one["mask"][np.arange(len(one["choice"])), one["choice"]].all()
    assert one["mask"][np.arange(len(one["choice"])), one["prior"]].all()
    pool = SearchPool(2)
    try:
        two, cpu2 = pool.samples("balik-satu", 3, None, [11, 12], 8)
    finally:
        pool.close()
    assert cpu2 > 0
    # the pool's two processes played deal 11 and deal 12: the same samples, in order
    for k in FIELDS:
        assert np.array_equal(one[k], two[k], equal_nan=k in ("gain", "se")), k
    # labels: the search's choice only where it beats the heuristic's by z standard errors
    s = {
        "choice": np.array([5, 5, 5, 7]),
        "prior": np.array([6, 6, 6, 7]),
        "gain": np.full((4, 10), np.nan, np.float32),
        "se": np.full((4, 10), np.nan, np.float32),
    }
    s["gain"][:, 5] = s["se"][:, 5] = 0.0  # the search's first choice
    s["gain"][:, 6] = [
        -3.0,
        -0.1,
        np.nan,
        np.nan,
    ]  # the heuristic's: clearly worse, barely, unknown
    s["se"][:, 6] = [0.5, 0.5, np.nan, np.nan]
    assert labels(s, 2.0).tolist() == [5, 6, 6, 7]
    assert labels(s, 0.1).tolist() == [5, 5, 6, 7]


def test_training_by_the_search_runs_end_to_end_and_resumes(tmp_path: Path) -> None:
    from cherki import train

    game, out = "balik-satu", tmp_path / "run"
    small = {
        "bc_hands": 32, "eval_hands": 32, "eval_every": 1.0, "hidden": (16, 16),
        "method": "search", "search_rollouts": 4, "search_hands": 2, "search_batches": 4,
        "workers": 1, "bc_share": 0.05,
    }  # fmt: skip
    lines: list[str] = []
    first = train.train(game, 3, 4.0, 2, out, log=lines.append, **small)
    card = first.card["training"]
    assert "expert iteration" in card["method"] and card["cpu_seconds"] >= 4.0
    assert any("the search's choices" in line for line in lines)
    for name in ("checkpoint.pkl", "curve.png", "samples.npz", f"{game}-3p.npz"):
        assert (out / name).is_file(), name
    with np.load(out / "samples.npz") as kept:
        n1 = len(kept["choice"])
    assert n1 > 0 and f"at {n1:,} decisions" in card["method"]
    more = card["cpu_seconds"] + 3.0  # a budget beyond the first run's
    second = train.train(game, 3, more, 2, out, resume=True, log=lines.append, **small)
    with np.load(out / "samples.npz") as kept:
        n2 = len(kept["choice"])
    # the first run's samples kept (not played again), new ones added
    assert n2 > n1 and f"at {n2:,} decisions" in second.card["training"]["method"]
    model = load_model(out / f"{game}-3p")
    model.check_table(game, 3)
    bot = LearnedBot(game, model)
    state = find_game(game).new_state(None, 3, seed=1)
    while not state.is_terminal:
        state.apply(bot.act(state.observation(state.current), random.Random(0)), state.current)
    assert second.card["training"]["cpu_seconds"] >= more


def test_a_game_the_batched_simulator_does_not_play_trains_in_the_rules_engine(
    tmp_path: Path,
) -> None:
    from cherki import train
    from cherki.trainplay import engine_measure

    game, out = "ceki", tmp_path / "ceki"
    small = {
        "eval_hands": 16, "eval_every": 100.0, "hidden": (16, 16), "method": "search",
        "search_rollouts": 4, "search_hands": 2, "search_batches": 4, "workers": 1,
    }  # fmt: skip
    lines: list[str] = []
    model = train.train(game, 4, 3.0, 1, out, log=lines.append, **small)
    card = model.card["training"]
    assert "rules engine" in card["method"] and "batched" not in card["method"]
    assert any(line.startswith("playing with beta") for line in lines)
    loaded = load_model(out / f"{game}-4p")
    loaded.check_table(game, 4)
    # the engine's duplicate measure: a model that never leaves the heuristic's choice
    # (its prior raised far above anything learnt) plays every deal as the heuristic does
    loaded.params["prior_beta"] = np.array([1e6], np.float32)
    mean, low, high, share = engine_measure(loaded, game, 4, None, 6, seed=5)
    assert (mean, low, high, share) == (0.0, 0.0, 0.0, 0.0)
    with pytest.raises(RulesError, match="Ceki trains with --method search"):
        train.train(game, 4, 3.0, 1, tmp_path / "ppo", log=lines.append, method="ppo")
