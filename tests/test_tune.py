"""The heuristic's weights (:class:`cherki.bots.balik.Weights`) and their tuning
(``cherki train --method tune``, :mod:`cherki.tune`)."""

from __future__ import annotations

import json
import random
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cherki.bots.balik import (
    LATER,
    WEIGHTS,
    BalikHeuristicBot,
    Weights,
    discard_values,
    hand_value,
)
from cherki.bots.learned import STUCK, LearnedBot, load_model
from cherki.core.errors import RulesError
from cherki.games import find_game
from cherki.tune import Tuner, from_log, gain, keyed_lots, payments, to_log
from cherki.vector.policies import HeuristicPolicy
from cherki.vector.sets import SetsVector

TUNED = Weights(
    set=812, near=140, near_out=9, part=12, part_out=1, mata=2.9, extra_mata=0.4,
    pair=7, pair_out=2, pair_mata=0.007, pair_plain=0.025, take=0.55, ceki=1.6,
)  # fmt: skip


# -- the weights ----------------------------------------------------------------------------
def test_the_hand_set_weights_are_the_heuristics_constants() -> None:
    """The defaults value hands as the heuristic always has: a set 6, a part-set one short
    1.6 plus 0.12 a live out, the first mata 3, an identical pair 0.05 a unit."""
    assert Weights() == WEIGHTS
    assert BalikHeuristicBot().weights is WEIGHTS
    live = [2] * 30
    hand = [0] * 30
    hand[0] = 3  # three identical cards: a set and a mata
    hand[5], hand[6] = 2, 1  # an identical pair and a card
    v = hand_value(hand, live)
    assert v == hand_value(hand, live, weights=WEIGHTS)
    assert v != hand_value(hand, live, weights=TUNED)
    assert discard_values(hand, live) == discard_values(hand, live, weights=WEIGHTS)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"set": -1}, "set must be a whole number ≥ 0, not -1"),
        ({"near": 1.5}, "near must be a whole number ≥ 0, not 1.5"),
        ({"take": float("nan")}, "take must be a finite number ≥ 0, not nan"),
        ({"ceki": "2"}, "ceki must be a finite number ≥ 0, not '2'"),
        ({"mata": True}, "mata must be a finite number ≥ 0, not True"),
    ],
)
def test_bad_weights_are_refused_in_one_sentence(change: dict[str, object], said: str) -> None:
    with pytest.raises(RulesError) as err:
        Weights.from_dict(asdict(WEIGHTS) | change)
    assert said in str(err.value) and "\n" not in str(err.value)


def test_weights_name_every_constant_and_nothing_else() -> None:
    data = asdict(WEIGHTS)
    assert Weights.from_dict(data) == WEIGHTS
    with pytest.raises(RulesError, match="lack take"):
        Weights.from_dict({k: v for k, v in data.items() if k != "take"})
    with pytest.raises(RulesError, match="name unknown bluff"):
        Weights.from_dict(data | {"bluff": 1.0})
    with pytest.raises(RulesError, match="must be a mapping"):
        Weights.from_dict([1, 2])  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-3.0, 3.0), min_size=13, max_size=13))
def test_the_search_space_round_trips(shift: list[float]) -> None:
    """A point of the tuning's search space gives valid weights, whole numbers whole, and
    the hand-set weights are its starting point exactly."""
    assert from_log(to_log(WEIGHTS)) == WEIGHTS
    w = from_log(to_log(WEIGHTS) + np.array(shift))
    assert isinstance(w.set, int) and isinstance(w.pair, int)
    assert all(v >= 0 for v in asdict(w).values())
    assert from_log(to_log(w)) == w or any(v == 0 for v in asdict(w).values())


# -- keyed lots and the tuning's measure ----------------------------------------------------
def test_keyed_lots_are_the_same_for_the_same_state_and_uniform() -> None:
    env = SetsVector("balik-satu", None, players=4, batch=64, autoreset=False)
    env.reset(seed=2, hands=64)
    rows = np.arange(64)
    a, b = keyed_lots(env, rows), keyed_lots(env, rows[::-1])
    assert a.shape == (64, 30) and ((a >= 0) & (a < 1)).all()
    assert (a == b[::-1]).all()  # a row's lots are its own, whatever the others
    assert len(np.unique(a)) > 0.99 * a.size
    assert abs(a.mean() - 0.5) < 0.02


def test_the_hand_set_weights_gain_exactly_nothing_and_others_something() -> None:
    """With keyed lots two runs of a deal stay the same until the weights choose
    differently: the hand-set heuristic measured against itself gains exactly 0."""
    same = payments("balik-satu", 4, None, WEIGHTS, 256, 7)
    assert (same == payments("balik-satu", 4, None, None, 256, 7)).all()
    assert gain("balik-satu", 4, None, WEIGHTS, 256, 7) == (0.0, 0.0, 0.0)
    mean, low, high = gain("balik-satu", 4, None, TUNED, 256, 7)
    assert low < mean < high and mean != 0.0
    # and the same deals give the same figure again
    assert gain("balik-satu", 4, None, TUNED, 256, 7) == (mean, low, high)


def test_a_generation_is_reproducible_and_resumes_from_its_state() -> None:
    one, two = Tuner(3, population=3), Tuner(3, population=3)
    line = one.generation("tantanan", 3, None, 128)
    assert "generation 1" in line and "points a hand" in line
    two.generation("tantanan", 3, None, 128)
    assert one.mean == two.mean and one.sigma == two.sigma < 0.25
    assert one.mean != to_log(WEIGHTS).tolist()
    # a tuner rebuilt from its state (a checkpoint's) goes on exactly as the first
    again = Tuner(**json.loads(json.dumps(asdict(one))))
    one.generation("tantanan", 3, None, 128)
    again.generation("tantanan", 3, None, 128)
    assert again.mean == one.mean and again.history == one.history
    assert len(one.history) == 2 and set(one.history[0]) == {"mean", "best", "average"}


# -- a model that carries weights -----------------------------------------------------------
def _with_weights(tmp_path: Path, weights: object) -> Path:
    """An untrained Balik Satu 4p network with the prior (its own logits near 0, the
    prior's raised by 3), its card carrying ``weights``, written to ``tmp_path``."""
    from cherki import trainplay
    from cherki.bots.learned import CARD_FORMAT, Model, layout_id, layout_of

    layout = layout_of("balik-satu", 4)
    params = trainplay.init_params(
        np.random.default_rng(0), layout.size, find_game("balik-satu").num_actions, (16, 16),
        prior=True,
    )  # fmt: skip
    params["scale"] = (1.0 / np.maximum(layout.high(), 1.0)).astype(np.float32)
    params["value_scale"] = np.array([10.0], np.float32)
    params["prior_beta"] = np.array([3.0], np.float32)
    card = {
        "format": CARD_FORMAT, "game": "balik-satu", "players": [4],
        "observation": {"id": layout_id(layout)},
        "network": {"prior": "heuristic", "prior_weights": weights},
    }  # fmt: skip
    out = tmp_path / "balik-satu-4p"
    Model(params, {"format": CARD_FORMAT}).save(out)
    out.with_suffix(".card.json").write_text(json.dumps(card))
    return out


def test_a_models_prior_plays_its_weights(tmp_path: Path) -> None:
    model = load_model(_with_weights(tmp_path, asdict(TUNED)))
    assert model.weights == TUNED
    h = model.heuristic()
    assert isinstance(h, BalikHeuristicBot) and h.weights == TUNED
    # the bot plays the tuned heuristic's choice at every decision of whole hands (its
    # network is untrained), but where a hand is stuck: there the hand-set heuristic plays
    bot = LearnedBot("balik-satu", model)
    tuned, plain = BalikHeuristicBot(weights=TUNED), BalikHeuristicBot()
    game = find_game("balik-satu")
    differ = 0
    for seed in range(3):
        state = game.new_state(None, 4, seed=seed)
        while not state.is_terminal:
            obs = state.observation(state.current)
            a = bot.act(obs, random.Random(1))
            want = (plain if bot._same >= STUCK else tuned).act(obs, random.Random(1))
            assert a == want
            differ += want != plain.act(obs, random.Random(1))
            state.apply(a, state.current)
    assert differ  # and the tuned weights are not the hand-set ones at these tables


@pytest.mark.parametrize(
    ("weights", "said"),
    [
        ({"set": 300}, "lack"),
        (asdict(replace(WEIGHTS, take=1.0)) | {"take": -1}, "take must be"),
        ("heavy", "must be a mapping"),
    ],
)
def test_a_card_with_bad_weights_is_refused_on_loading(
    tmp_path: Path, weights: object, said: str
) -> None:
    with pytest.raises(RulesError) as err:
        load_model(_with_weights(tmp_path, weights))
    assert said in str(err.value) and "balik-satu-4p.card.json" in str(err.value)
    assert "\n" not in str(err.value)


def test_the_batched_learned_policy_reads_the_models_weights(tmp_path: Path) -> None:
    from cherki.vector.policies import LearnedPolicy

    model = load_model(_with_weights(tmp_path, asdict(TUNED)))
    policy = LearnedPolicy(model)
    env = SetsVector("balik-satu", None, players=4, batch=16, autoreset=False)
    env.reset(seed=5, hands=16)
    policy(env, np.flatnonzero(~env.done))
    assert isinstance(policy.prior, HeuristicPolicy) and policy.prior.weights == TUNED
    assert policy.fallback.weights == WEIGHTS  # a stuck hand: the hand-set heuristic
    assert len(env.play(policy).index) == 16


# -- the training method --------------------------------------------------------------------
def test_training_by_tuning_runs_end_to_end_and_resumes(tmp_path: Path) -> None:
    from cherki import train

    small = {
        "bc_hands": 32, "eval_hands": 32, "eval_every": 1.0, "hidden": (16, 16),
        "tune_hands": 128, "tune_population": 3, "method": "tune", "bc_share": 0.2,
    }  # fmt: skip
    lines: list[str] = []
    out = tmp_path / "run"
    first = train.train("tantanan", 3, 4.0, 2, out, log=lines.append, **small)
    gens = first.card["training"]["tuning"]
    assert gens and any("tuning the heuristic's weights: generation" in x for x in lines)
    w = Weights.from_dict(first.card["network"]["prior_weights"])
    assert w != WEIGHTS and first.weights == w
    assert "evolution strategy" in first.card["training"]["method"]
    assert "(0 decisions" not in first.card["training"]["method"]  # the value head learnt
    assert first.plays_prior and not first.params["wp"].any()  # its policy is its prior
    second = train.train("tantanan", 3, 8.0, 2, out, resume=True, log=lines.append, **small)
    assert len(second.card["training"]["tuning"]) > len(gens)
    assert second.card["training"]["cpu_seconds"] >= 8.0
    model = load_model(out / "tantanan-3p")
    assert model.weights == second.weights
    bot = LearnedBot("tantanan", model)
    state = find_game("tantanan").new_state(None, 3, seed=1)
    while not state.is_terminal:
        state.apply(bot.act(state.observation(state.current), random.Random(0)), state.current)


def test_a_runs_generations_replay_its_weights_whatever_the_budget(tmp_path: Path) -> None:
    """``--tune-generations``: the tuning stops at that many generations, the value head
    learns for the rest of the budget, and a run on another budget (a machine of another
    speed) replays the same weights."""
    from cherki import train

    small = {
        "bc_hands": 32, "eval_hands": 32, "eval_every": 100.0, "hidden": (16, 16),
        "tune_hands": 128, "tune_population": 3, "method": "tune", "bc_share": 0.05,
        "tune_generations": 2,
    }  # fmt: skip
    lines: list[str] = []
    short = train.train("tantanan", 3, 4.0, 5, tmp_path / "a", log=lines.append, **small)
    long = train.train("tantanan", 3, 8.0, 5, tmp_path / "b", log=lines.append, **small)
    assert len(short.card["training"]["tuning"]) == len(long.card["training"]["tuning"]) == 2
    assert short.weights == long.weights != WEIGHTS
    assert sum("tuning done: the 2 generations asked for" in x for x in lines) == 2
    assert long.card["training"]["cpu_seconds"] >= 8.0  # the rest went to the value head
    assert long.card["training"]["config"]["tune_generations"] == 2


def test_a_tuning_of_the_further_tie_keys_ships_them_in_its_card(tmp_path: Path) -> None:
    """``--tune-tie-keys red,low`` with ``--tune-ties``: the card's weights carry all four
    of the tie-break's, its config the keys, and the model plays them; the checkpoint
    exports the same model."""
    from cherki import train

    small = {
        "bc_hands": 32, "eval_hands": 32, "eval_every": 100.0, "hidden": (16, 16),
        "tune_hands": 128, "tune_population": 3, "method": "tune", "bc_share": 0.05,
        "tune_generations": 2, "tune_ties": True, "tune_keys": ("red", "low"),
    }  # fmt: skip
    model = train.train("gonggong", 4, 4.0, 3, tmp_path / "r", log=lambda _: None, **small)
    w = Weights.from_dict(model.card["network"]["prior_weights"])
    assert min(w.tie_held, w.tie_live, w.tie_red, w.tie_low) > 0
    written = load_model(tmp_path / "r" / "gonggong-4p").card["training"]["config"]
    assert written["tune_keys"] == ["red", "low"] and written["tune_ties"] is True
    prior = model.heuristic()
    assert isinstance(prior, BalikHeuristicBot) and prior.weights == w
    again = train.export(tmp_path / "r" / "checkpoint.pkl", tmp_path / "again")
    assert again.weights == w


# -- the tie-break between level discards (``--tune-ties``) ---------------------------------
#: four sets of ranks 2-5 and three lone cards (C6, C7, WF) the hand's value rates level
LONE3 = "C2 S2 M2 C3 S3 M3 C4 S4 M4 C5 S5 M5 C6 C7 WF"


def test_the_tie_break_throws_from_the_group_with_fewest_cards_to_come() -> None:
    """C6, C7 and WF are worth the same to the hand: the hand-set heuristic draws lots
    between all three; with the tie-break's weights it never throws WF, whose value group
    (the ones and the honours) has far more cards still live, and draws lots between C6 and
    C7, and says so."""
    from conftest import JUNK2, SATU, stacked

    from cherki.bots.balik import tie_scores
    from cherki.core.cards import parse_card
    from cherki.games.sets.actions import DISCARD

    obs = stacked(SATU, [LONE3, JUNK2], stock="C9").observation(0)
    c6, c7, wf = (DISCARD + parse_card(c) for c in ("C6", "C7", "WF"))
    plain = BalikHeuristicBot()
    assert tie_scores(obs.hand, obs.unseen(), obs.honours, WEIGHTS) is None
    scores = plain.scores(obs)
    assert scores is not None and scores[c6] == scores[c7] == scores[wf] == max(scores.values())
    assert {plain.act(obs, random.Random(i)) for i in range(60)} == {c6, c7, wf}
    ties = BalikHeuristicBot(weights=replace(WEIGHTS, tie_held=1.0, tie_live=0.25))
    assert {ties.act(obs, random.Random(i)) for i in range(60)} == {c6, c7}
    reasons = ties.explain(obs)
    assert [r.kind for r in reasons][1:] == ["tie_break", "lots"]
    assert reasons[1].cards == (c6 - DISCARD, c7 - DISCARD, wf - DISCARD)
    assert reasons[2].cards == (c6 - DISCARD, c7 - DISCARD)
    # the tie-break never overturns the hand's value: C9 drawn, held with nothing, is level too
    assert all(scores[ties.act(obs, random.Random(i))] == max(scores.values()) for i in range(20))


def test_the_tie_break_draws_the_same_lots_as_the_hand_set_heuristic() -> None:
    """With its weights at 0 the heuristic plays exactly as before, lot for lot: the
    generator advances the same whatever the tie-break decides."""
    from conftest import JUNK2, SATU, stacked

    obs = stacked(SATU, [LONE3, JUNK2], stock="C9").observation(0)
    zero = BalikHeuristicBot(weights=replace(WEIGHTS, tie_held=0.0, tie_live=0.0))
    ties = BalikHeuristicBot(weights=replace(WEIGHTS, tie_held=1.0))
    for i in range(20):
        a, b, c = random.Random(i), random.Random(i), random.Random(i)
        assert zero.act(obs, a) == BalikHeuristicBot().act(obs, b)
        ties.act(obs, c)
        assert a.random() == b.random() == c.random()


def test_the_tie_break_keeps_a_red_card_and_low_ranks_the_longer() -> None:
    """S9 (red), C6 and C7 alone beside four sets, all worth nothing to the hand: with
    ``tie_red`` the heuristic never throws S9 while the others are level with it, and says
    why; with ``tie_low`` it throws the highest rank (S9) first."""
    from conftest import JUNK2, SATU, stacked

    from cherki.bots.balik import tie_scores
    from cherki.core.cards import parse_card
    from cherki.games.sets.actions import DISCARD

    obs = stacked(SATU, ["C2 S2 M2 C3 S3 M3 C4 S4 M4 C5 S5 M5 C6 C7 S9", JUNK2], stock="C9")
    seen = obs.observation(0)
    c8, s8, s9 = (DISCARD + parse_card(c) for c in ("C6", "C7", "S9"))
    scores = BalikHeuristicBot().scores(seen)
    assert scores is not None and scores[c8] == scores[s8] == scores[s9] == max(scores.values())
    red = BalikHeuristicBot(weights=replace(WEIGHTS, tie_red=1.0))
    assert {red.act(seen, random.Random(i)) for i in range(60)} == {c8, s8}
    assert [r.kind for r in red.explain(seen)][1:] == ["tie_break_more", "lots"]
    tie = tie_scores(seen.hand, seen.unseen(), seen.honours, replace(WEIGHTS, tie_red=1.0))
    assert tie is not None and tie[s9 - DISCARD] - tie[s8 - DISCARD] == 1.0
    assert replace(WEIGHTS, tie_red=0.0) == WEIGHTS  # none in the hand-set weights
    # tie_low keeps the lower ranks the longer: C6 (rank 6) over C7 (7), S9 thrown first
    low = BalikHeuristicBot(weights=replace(WEIGHTS, tie_low=1.0))
    assert {low.act(seen, random.Random(i)) for i in range(20)} == {s9}
    tie = tie_scores(seen.hand, seen.unseen(), seen.honours, replace(WEIGHTS, tie_low=1.0))
    assert tie is not None and (tie[c8 - DISCARD], tie[s8 - DISCARD]) == (3.0, 2.0)


def test_cards_made_before_the_tie_break_load_without_it() -> None:
    old = {k: v for k, v in asdict(WEIGHTS).items() if k not in LATER}
    assert Weights.from_dict(old) == WEIGHTS
    given = Weights.from_dict(old | {"tie_held": 1.5, "tie_live": 0.1})
    assert (given.tie_held, given.tie_live) == (1.5, 0.1)
    with pytest.raises(RulesError, match="tie_live must be a finite number ≥ 0, not -1"):
        Weights.from_dict(old | {"tie_live": -1})


def test_tuning_the_tie_break_is_asked_for_and_a_plain_tuning_replays_as_before() -> None:
    from cherki.tune import BASE_NAMES, NAMES, TIE_START, start

    names, mean = start()
    assert tuple(names) == BASE_NAMES and "tie_held" not in names
    assert mean == to_log(WEIGHTS).tolist() and Tuner(1).names == names
    names, mean = start(ties=True)
    assert names == [*BASE_NAMES, "tie_held", "tie_live"]  # as the runs before --tune-red
    w = from_log(np.array(mean), names)
    assert (w.tie_held, w.tie_live, w.tie_red) == (TIE_START["tie_held"], TIE_START["tie_live"], 0)
    assert replace(w, tie_held=0.0, tie_live=0.0) == WEIGHTS
    names, red = start(ties=True, keys=("low", "red"))
    assert tuple(names) == NAMES and red[:-2] == mean
    more = from_log(np.array(red), names)
    assert (more.tie_red, more.tie_low) == (TIE_START["tie_red"], TIE_START["tie_low"])
    assert start(keys=["red"])[0] == [*BASE_NAMES, "tie_red"]
    with pytest.raises(RulesError, match="the tie-break's keys to tune are red, low, not blue"):
        start(keys=["blue", "red"])
    # a checkpoint written before the tie-break was named goes on over the first names
    state = asdict(Tuner(4, population=3))
    del state["names"]
    assert Tuner(**state).names == list(BASE_NAMES)
    tuner = Tuner(4, population=3, mean=red, names=names)
    tuner.generation("balik-satu", 4, None, 128)
    assert tuner.weights.tie_held > 0 and tuner.weights.tie_red > 0 < tuner.weights.tie_low
    assert len(tuner.mean) == len(NAMES)


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--method", "ppo", "--tune-ties"], "--tune-ties tunes the heuristic's weights: it goes"),
        (["--method", "ppo", "--tune-tie-keys", "red"], "--tune-tie-keys tunes the heuristic's"),
        (
            ["--method", "tune", "--tune-tie-keys", "red,rank"],
            "keys to tune are red, low, not rank",
        ),
    ],
)
def test_tune_ties_goes_with_the_tuning_only(tmp_path: Path, flags: list[str], said: str) -> None:
    from typer.testing import CliRunner

    from cherki.ui.cli import app

    args = ["train", "balik-satu", "--players", "4", *flags]
    result = CliRunner().invoke(app, [*args, "--seconds", "1", "--out", str(tmp_path / "x")])
    assert result.exit_code != 0  # the command line prints the error in one line
    assert said in str(result.exception)
    assert not (tmp_path / "x").exists()


# -- a hand taken and thrown round and round ------------------------------------------------
def _taker(env: SetsVector, rows: np.ndarray) -> np.ndarray:
    """Takes every discard it may and throws its lowest card: once a card is down nobody
    draws again, and with the winning card from the stock alone the hand never ends."""
    from cherki.games.sets.actions import DISCARD, TAKE

    mask = env.mask[rows]
    plain = mask[:, DISCARD : DISCARD + 30]
    out = np.where(plain.any(axis=1), plain.argmax(axis=1) + DISCARD, mask.argmax(axis=1))
    out = np.where(mask[:, TAKE], TAKE, out)
    return np.asarray(out, np.int64)


def test_a_hand_taken_round_and_round_is_drawn_on_and_ends() -> None:
    """The tuning hung on such a hand (Tantanan 3p, generation 78 of the card's command):
    its players took and threw the same discards with the stock unchanged, lap after lap.
    ``Progress`` has the player draw once the hand has gone ``ENDLESS`` decisions so, and
    plays exactly as the policy it wraps in every hand that keeps moving."""
    from cherki.vector.policies import ENDLESS, Progress

    env = SetsVector("tantanan", None, players=3, batch=8, autoreset=False)
    env.reset(seed=5, hands=8)
    for _ in range(3 * ENDLESS):  # alone, the taker never ends a hand
        rows = np.flatnonzero(~env.done)
        env.apply(rows, _taker(env, rows))
    assert not env.done.any()
    pos = env.pos.copy()
    for _ in range(50):
        rows = np.flatnonzero(~env.done)
        env.apply(rows, _taker(env, rows))
    assert (env.pos == pos).all()

    env = SetsVector("tantanan", None, players=3, batch=8, autoreset=False)
    env.reset(seed=5, hands=8)
    assert len(env.play(Progress(_taker)).payments) == 8

    # where hands keep moving it changes nothing: the keyed heuristic's payments, the same
    def keyed() -> HeuristicPolicy:
        return HeuristicPolicy(3, weights=TUNED, lots=keyed_lots)

    plays = []
    for policy in (keyed(), Progress(keyed())):
        env = SetsVector("balik-satu", None, players=4, batch=64)
        env.reset(seed=9, hands=256)
        plays.append(env.play(policy).payments)
    assert (plays[0] == plays[1]).all()
