"""The learned bot's heuristic prior (issue 38): a network that reads the heuristic's choice
and raises its logit starts as the heuristic plays, in the engine, the batched simulator and
the trainer's measurement; a model without it refuses no prior-less call; the paired-rollout
method and the end-of-run choice of the prior's raise run end to end."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from cherki.bots.base import heuristic_for
from cherki.bots.learned import LearnedBot, Model, layout_of, load_model
from cherki.core.errors import RulesError
from cherki.games import find_game


def fresh(game: str, players: int, beta: float, *, hidden: tuple[int, int] = (16, 16)) -> Model:
    """An untrained network with the prior (its own logits near 0), raised by ``beta``."""
    from cherki import train

    g = find_game(game)
    layout = layout_of(game, players)
    params = train.init_params(
        np.random.default_rng(0), layout.size, g.num_actions, hidden, prior=True
    )
    params["scale"] = (1.0 / np.maximum(layout.high(), 1.0)).astype(np.float32)
    params["value_scale"] = np.array([10.0], np.float32)
    params["prior_beta"] = np.array([beta], np.float32)
    from cherki.bots.learned import layout_id

    card = {
        "game": g.name,
        "players": [players],
        "observation": {"id": layout_id(layout)},
    }
    return Model(params, card)


@pytest.mark.parametrize(("game", "players"), [("balik-satu", 4), ("tantanan", 3)])
def test_a_fresh_network_with_the_prior_plays_the_heuristics_choice(
    game: str, players: int
) -> None:
    model = fresh(game, players, beta=3.0)
    assert model.has_prior
    bot = LearnedBot(game, model)
    heuristic = heuristic_for(game)
    decisions = 0
    for seed in range(6):
        state = find_game(game).new_state(None, players, seed=seed)
        while not state.is_terminal:
            seat = state.current
            obs = state.observation(seat)
            # the same lots for both: the bot draws only the heuristic's
            mine = bot.act(obs, random.Random(decisions))
            theirs = heuristic.act(obs, random.Random(decisions))
            assert mine == theirs, (seed, decisions)
            state.apply(mine, seat)
            decisions += 1
    assert decisions > 60
    # its value is read at the seat's own decisions, and refused elsewhere in one sentence
    state = find_game(game).new_state(None, players, seed=0)
    assert np.isfinite(bot.value(state.observation(state.current)))
    other = (state.current + 1) % players
    with pytest.raises(RulesError, match="own decisions only"):
        bot.value(state.observation(other))


def test_with_a_small_raise_the_network_departs() -> None:
    """The raise is what holds the network to the heuristic: at 0 the untrained network's
    own logits choose, and they do not always choose the heuristic's action."""
    game, players = "balik-satu", 4
    model = fresh(game, players, beta=0.0, hidden=(64, 64))
    model.params["wp"] = model.params["wp"] * 300.0  # loud logits of its own
    bot = LearnedBot(game, model)
    heuristic = heuristic_for(game)
    state = find_game(game).new_state(None, players, seed=1)
    differ = 0
    while not state.is_terminal:
        obs = state.observation(state.current)
        a = bot.act(obs, random.Random(0))
        differ += len(obs.legal) > 1 and a != heuristic.act(obs, random.Random(0))
        state.apply(a, state.current)
    assert differ > 0


def test_a_prior_model_needs_the_heuristics_choice() -> None:
    model = fresh("balik-satu", 4, beta=3.0)
    x = np.zeros((1, model.params["w0"].shape[0]), np.float32)
    with pytest.raises(RulesError, match="heuristic's choice"):
        model.forward(x)
    logits, value = model.forward(x, np.array([1]))
    assert logits.shape == (1, find_game("balik-satu").num_actions) and value.shape == (1,)
    # the raise lands on the prior's action
    plain = model._logits(model._hidden(x, np.array([1])), None)
    assert logits[0, 1] - plain[0, 1] == pytest.approx(3.0)


def test_the_batched_policy_and_the_trainers_measure_start_at_the_heuristic() -> None:
    from cherki import train
    from cherki.vector.policies import LearnedPolicy
    from cherki.vector.sets import SetsVector

    game, players = "balik-satu", 4
    model = fresh(game, players, beta=3.0)
    # the trainer's duplicate deals: every hand the same as the heuristic's, to the point
    mean, low, high = train.duplicate_payoff(model, game, players, None, 64, seed=5)
    assert mean == low == high == 0.0
    assert train.departure_share(model, game, players, None, 64, seed=5) == 0.0
    model.params["prior_beta"] = np.array([-50.0], np.float32)  # the heuristic's choice last
    assert train.departure_share(model, game, players, None, 64, seed=5) == 1.0
    model.params["prior_beta"] = np.array([3.0], np.float32)
    # the batched policy: the heuristic's choice in every row it thinks about
    policy = LearnedPolicy(model, seed=2)
    env = SetsVector(game, None, players=players, batch=16, autoreset=False)
    env.reset(seed=3, hands=16)
    seen: list[np.ndarray] = []
    inner = policy.prior

    class Recording:
        rng = inner.rng

        def __call__(self, e: SetsVector, rows: np.ndarray) -> np.ndarray:
            out = inner(e, rows)
            seen.append(out.copy())
            return out

    policy.prior = Recording()  # type: ignore[assignment]
    thought = 0
    while not env.done.all():
        rows = np.flatnonzero(~env.done)
        before = len(seen)
        act = policy(env, rows)
        multi = env.mask[rows].sum(axis=1) > 1
        if len(seen) > before and multi.any():
            assert (act[multi] == seen[-1]).all()
            thought += int(multi.sum())
        env.apply(rows, act)
    assert thought > 200


def test_paired_rollouts_and_the_choice_of_the_raise_run_end_to_end(tmp_path: Path) -> None:
    from cherki import train

    game = "balik-satu"
    small = {"api_hands": 32, "api_batches": 2, "eval_hands": 32, "eval_every": 1.0,
             "hidden": (16, 16), "bc_hands": 32}  # fmt: skip
    lines: list[str] = []
    out = tmp_path / "api"
    model = train.train(game, 2, 3.0, 4, out, log=lines.append, method="api", bc_share=0.2, **small)
    card = model.card
    assert "paired rollouts" in card["training"]["method"]
    assert "(0 blocks)" not in card["training"]["method"]
    tried = card["training"]["betas"]
    assert sorted(t["beta"] for t in tried) == sorted({*train.PLAY_BETAS, 3.0})
    best = max(tried, key=lambda t: (t["payoff"], t["beta"]))
    assert card["network"]["beta"] == best["beta"] and card["network"]["prior"] == "heuristic"
    assert 0.0 <= best["departures"] <= 1.0
    assert any("departs from the heuristic's choice" in line for line in lines)
    saved = load_model(out / f"{game}-2p")
    assert saved.has_prior and float(saved.params["prior_beta"][0]) == best["beta"]
    assert any(line.startswith("beta ") for line in lines)
    assert card["training"]["config"]["method"] == "api"


@pytest.mark.parametrize("beta", [3.0, 0.5])
def test_a_model_with_a_zero_policy_head_chooses_as_its_network_would(beta: float) -> None:
    """A tuned model's policy head is zero (``--method tune`` never trains it): it plays its
    prior without running its network (``Model.plays_prior``), and that choice is the
    network's own, at real decisions of the batched simulator and where the prior's action
    is not legal (then the lowest legal action, the logits all level)."""
    from cherki.vector.observe import encode_seats
    from cherki.vector.policies import HeuristicPolicy
    from cherki.vector.sets import SetsVector

    model = fresh("balik-satu", 4, beta=beta)
    assert not model.plays_prior  # its head is the random start
    model.params["wp"] = np.zeros_like(model.params["wp"])
    model = Model(model.params, model.card)
    assert model.plays_prior
    env = SetsVector("balik-satu", None, players=4, batch=64, autoreset=False)
    env.reset(seed=3, hands=64)
    heuristic = HeuristicPolicy(3)
    checked = 0
    while not env.done.all():
        rows = np.flatnonzero(~env.done)
        mask = env.mask[rows]
        prior = heuristic(env, rows)
        x = encode_seats(env, env.current[rows], rows)
        wrong = prior.copy()
        wrong[::3] = (mask[::3] == 0).argmax(axis=1)  # an illegal action as the prior's
        for given in (prior, wrong):
            logits = model._logits(model._hidden(x, given), given)
            logits[~mask] = -np.inf
            assert (model.choose(x, mask, given) == logits.argmax(axis=1)).all()
        checked += len(rows)
        env.apply(rows, prior)
    assert checked > 1000


def test_a_zero_policy_head_needs_a_raise_to_play_its_prior() -> None:
    model = fresh("balik-satu", 4, beta=0.0)
    model.params["wp"] = np.zeros_like(model.params["wp"])
    assert not Model(model.params, model.card).plays_prior  # level logits: the lowest id
