"""The weights of Ceki's and Cholek Tiga's heuristics (:class:`cherki.bots.ceki.CekiWeights`,
:class:`cherki.bots.cholek.CholekWeights`) and their tuning in the rules engine (``cherki
train ceki --method tune``, :func:`cherki.tune.engine_payments`)."""

from __future__ import annotations

import importlib.util
import json
import random
from dataclasses import asdict, replace
from pathlib import Path
from types import ModuleType

import pytest

from cherki.bots.balik import Weights
from cherki.bots.ceki import CEKI_WEIGHTS, CekiHeuristicBot, CekiWeights, hand_value
from cherki.bots.cholek import CHOLEK_WEIGHTS, CholekHeuristicBot, CholekWeights, pile_value
from cherki.bots.learned import LearnedBot, Model, load_model
from cherki.core.cards import parse_card, parse_cards
from cherki.core.errors import RulesError
from cherki.games import find_game
from cherki.games.ceki import DRAW, TAKE
from cherki.tune import Tuner, engine_payments, from_log, gain, start, to_log

CEKI = find_game("ceki")
JUNK = "C1 S2 M3 C4 S5 M6 WF RF"


def counts(text: str) -> list[int]:
    hand = [0] * 30
    for k in parse_cards(text):
        hand[k] += 1
    return hand


# -- the weights ----------------------------------------------------------------------------
def test_the_hand_set_weights_are_the_heuristics_constants() -> None:
    """A set is 4 + 0.15 a rank, a couple 0.6 + 0.35 a live out (to 8) + 0.03 a rank, a
    lone card 0.2 + 0.05 a live card of its value: the hand-set heuristic's values."""
    assert CekiWeights() == CEKI_WEIGHTS and CekiHeuristicBot().weights is CEKI_WEIGHTS
    live = [4] * 30
    # a set of 9s (31 / 20 + 4 = 5.35), a couple of 7s (0.6 + 0.35 * 8 + 0.21), a lone WF
    hand = counts("C9 S9 M9 C7 S7 WF")
    assert hand_value(hand, live) == pytest.approx(5.35 + 3.61 + 0.4)
    assert hand_value(hand, live) == hand_value(hand, live, "own", CEKI_WEIGHTS)
    assert hand_value(hand, live, "own", replace(CEKI_WEIGHTS, set=8.0)) > hand_value(hand, live)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"set": -1.0}, "set must be a finite number ≥ 0, not -1.0"),
        ({"couple_cap": 2.5}, "couple_cap must be a whole number ≥ 0, not 2.5"),
        ({"take": float("inf")}, "take must be a finite number ≥ 0, not inf"),
        ({"danger_held": "6"}, "danger_held must be a finite number ≥ 0, not '6'"),
    ],
)
def test_bad_ceki_weights_are_refused_in_one_line(change: dict[str, object], said: str) -> None:
    with pytest.raises(RulesError, match=said):
        CekiWeights.from_dict(asdict(CEKI_WEIGHTS) | change)


def test_a_cards_weights_must_name_every_ceki_weight_and_nothing_else() -> None:
    data = asdict(CEKI_WEIGHTS)
    data.pop("take")
    with pytest.raises(RulesError, match="lack take"):
        CekiWeights.from_dict(data)
    with pytest.raises(RulesError, match="name unknown tie_held"):
        CekiWeights.from_dict(asdict(CEKI_WEIGHTS) | {"tie_held": 1.0})
    with pytest.raises(RulesError, match="plays by CekiWeights, not Weights"):
        CekiHeuristicBot().weighted(Weights())


def _after_discard(hand: str, top: str) -> tuple[object, int]:
    """Seat 1 (``hand``) to draw or take ``top``, which seat 0 drew and threw."""
    state = CEKI.new_state(
        CEKI.rules(None), 2, stack=([parse_cards(JUNK), parse_cards(hand)], parse_cards(top))
    )
    state.apply("draw", seat=0)
    state.apply(f"discard {top}", seat=0)
    return state.observation(1), parse_card(top)


def test_the_take_weight_decides_whether_a_discard_that_makes_a_set_is_taken() -> None:
    """C2 M2 and M2 thrown: the set of 2s (4.3) is worth less than a point more than the
    couple it finishes (0.6 + 0.35 × 8 live outs + 0.06 = 3.46, and the card thrown for
    it), so the hand-set heuristic (take 1.0) draws; with take 0.3 it takes the M2."""
    obs, _ = _after_discard("S1 C2 M1 WF M2 M9 C8 C3", "M2")
    assert TAKE in obs.legal  # type: ignore[attr-defined]
    assert CekiHeuristicBot().act(obs, random.Random(0)) == DRAW  # type: ignore[arg-type]
    eager = CekiHeuristicBot(replace(CEKI_WEIGHTS, take=0.3))
    assert eager.act(obs, random.Random(0)) == TAKE  # type: ignore[arg-type]


def test_the_hand_set_cholek_weights_are_the_heuristics_constants() -> None:
    """Piles are their points, 10 an ang pow, 20 an ang pow besar and 0.4 a normal card
    toward an identical set: the hand-set heuristic's values."""
    assert CholekWeights() == CHOLEK_WEIGHTS and CholekHeuristicBot().weights is CHOLEK_WEIGHTS
    piles = counts("C7 C7 S2")  # two C7 and an S2: 0.8 + 0.4 toward sets, no points
    assert pile_value(piles) == pytest.approx(1.2)
    assert pile_value(piles, replace(CHOLEK_WEIGHTS, progress=1.0)) == pytest.approx(3.0)
    with pytest.raises(RulesError, match="risk_red must be a finite number ≥ 0, not -1"):
        replace(CHOLEK_WEIGHTS, risk_red=-1)
    with pytest.raises(RulesError, match="plays by CholekWeights, not CekiWeights"):
        CholekHeuristicBot().weighted(CEKI_WEIGHTS)


def test_cholek_weights_change_its_play_in_the_engine() -> None:
    plain = engine_payments("cholek-tiga", 3, None, None, 40, seed=3)
    assert (engine_payments("cholek-tiga", 3, None, CHOLEK_WEIGHTS, 40, seed=3) == plain).all()
    other = replace(CHOLEK_WEIGHTS, risk_red=0.0, capture_now=0.5, progress=3.0)
    assert (engine_payments("cholek-tiga", 3, None, other, 40, seed=3) != plain).any()


# -- the tuning in the rules engine -------------------------------------------------------
def test_engine_payments_are_paired_and_the_hand_set_weights_gain_nothing() -> None:
    """The same weights as the field's play every deal exactly as the field does; other
    weights leave the same deals' payments once they choose otherwise, and the seat's
    payments are the rules engine's."""
    plain = engine_payments("ceki", 4, None, None, 24, seed=11)
    assert (engine_payments("ceki", 4, None, CekiWeights(), 24, seed=11) == plain).all()
    assert gain("ceki", 4, None, CEKI_WEIGHTS, 24, seed=11) == (0.0, 0.0, 0.0)
    eager = engine_payments("ceki", 4, None, replace(CEKI_WEIGHTS, take=0.0), 24, seed=11)
    assert (eager != plain).any() and len(eager) == 24


def test_a_tuning_searches_every_ceki_weight_and_refuses_a_tie_break() -> None:
    names, mean = start(kind="ceki")
    assert names == list(asdict(CEKI_WEIGHTS)) and mean == to_log(CEKI_WEIGHTS, names).tolist()
    assert from_log(to_log(CEKI_WEIGHTS, names), names, CekiWeights) == CEKI_WEIGHTS
    with pytest.raises(RulesError, match="this game's heuristic has none"):
        start(ties=True, kind="ceki")
    tuner = Tuner(2, population=3, mean=mean, names=names, kind="ceki")
    line = tuner.generation("ceki", 3, None, 16)
    assert "generation 1" in line and isinstance(tuner.weights, CekiWeights)
    again = Tuner(**json.loads(json.dumps(asdict(tuner))))
    assert again.weights == tuner.weights and again.kind == "ceki"


@pytest.mark.parametrize(
    ("game", "kind", "bot"),
    [("ceki", CekiWeights, CekiHeuristicBot), ("cholek-tiga", CholekWeights, CholekHeuristicBot)],
)
def test_training_by_tuning_in_the_engine_runs_end_to_end_and_resumes(
    tmp_path: Path, game: str, kind: type[CekiWeights | CholekWeights], bot: type[object]
) -> None:
    from cherki import train

    small = {
        "bc_hands": 48, "eval_hands": 16, "eval_every": 2.0, "hidden": (16, 16),
        "tune_hands": 64, "tune_population": 3, "method": "tune", "bc_share": 0.3,
    }  # fmt: skip
    lines: list[str] = []
    out = tmp_path / "run"
    first = train.train(game, 3, 4.0, 2, out, log=lines.append, **small)
    gens = first.card["training"]["tuning"]
    assert gens and any("tuning the heuristic's weights: generation" in x for x in lines)
    w = kind.from_dict(first.card["network"]["prior_weights"])
    assert w != kind() and first.prior_weights == w
    assert "(0 decisions" not in first.card["training"]["method"]  # the value head learnt
    assert first.plays_prior and not first.params["wp"].any()
    # it plays its prior at every raise: no raise is measured after the budget
    assert first.card["training"]["betas"] == []
    assert any("plays its prior at every raise" in x for x in lines)
    second = train.train(game, 3, 7.0, 2, out, resume=True, log=lines.append, **small)
    assert len(second.card["training"]["tuning"]) >= len(gens)
    assert second.card["training"]["cpu_seconds"] >= 7.0
    model = load_model(out / f"{game}-3p")
    prior = model.heuristic()
    assert isinstance(prior, bot) and prior.weights == second.prior_weights  # type: ignore[attr-defined]
    learned = LearnedBot(game, model)
    state = find_game(game).new_state(None, 3, seed=1)
    values = []
    while not state.is_terminal:
        obs = state.observation(state.current)
        if len(obs.legal) > 1:
            values.append(learned.value(obs))
        state.apply(learned.act(obs, random.Random(0)), state.current)
    assert values and all(v == v for v in values)  # its value head answers, no nan


def test_the_default_tune_hands_follow_the_simulator(tmp_path: Path) -> None:
    from cherki.train import Config, Trainer

    engine = Trainer(Config("ceki", 4, 1.0, method="tune"), tmp_path / "a", log=lambda _: None)
    batched = Trainer(Config("chaqui", 4, 1.0, method="tune"), tmp_path / "b", log=lambda _: None)
    assert (engine.cfg.tune_hands, batched.cfg.tune_hands) == (2048, 16384)


@pytest.mark.parametrize(
    ("game", "extra", "said"),
    [
        ("cholek-tiga", {"method": "api"}, "Cholek Tiga trains with --method search or tune"),
        ("ceki", {"method": "ppo"}, "Ceki trains with --method search or tune"),
        ("cholek-tiga", {"tune_keys": ("red",)}, "this game's heuristic has none"),
        ("ceki", {"tune_ties": True}, "this game's heuristic has none"),
    ],
)
def test_what_the_engine_games_cannot_train_is_refused_in_one_line(
    tmp_path: Path, game: str, extra: dict[str, object], said: str
) -> None:
    from cherki import train

    with pytest.raises(RulesError, match=said):
        train.train(game, 3, 1.0, 1, tmp_path / "c", **({"method": "tune"} | extra))


# -- scripts/weights_ablation.py ----------------------------------------------------------
def _ablation() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "scripts" / "weights_ablation.py"
    spec = importlib.util.spec_from_file_location("weights_ablation", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_ablation_script_measures_each_tuned_weight_both_ways(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each weight the card tunes, put back alone and tuned alone, on the same deals as the
    whole; a model of the hand-set weights is refused in a sentence."""
    from cherki import train

    small = {
        "bc_hands": 16, "eval_hands": 8, "eval_every": 100.0, "hidden": (16, 16),
        "tune_hands": 16, "tune_population": 2, "method": "tune", "bc_share": 0.3,
        "tune_generations": 1,
    }  # fmt: skip
    train.train("ceki", 3, 2.0, 4, tmp_path / "m", log=lambda _: None, **small)
    script = _ablation()
    script.main(["ceki", "-n", "3", "--model", str(tmp_path / "m" / "ceki-3p"), "--deals", "8"])
    out = capsys.readouterr().out.splitlines()
    tuned = CekiWeights.from_dict(
        load_model(tmp_path / "m" / "ceki-3p").card["network"]["prior_weights"]
    )
    changed = [f for f, v in asdict(tuned).items() if v != asdict(CEKI_WEIGHTS)[f]]
    assert out[1].startswith("the tuned weights: ") and len(out) == 2 + 2 * len(changed)
    assert all(any(line.startswith(f"{f} ") for line in out) for f in changed)
    # the same model with the hand-set weights as its prior: nothing to measure
    made = load_model(tmp_path / "m" / "ceki-3p")
    card = json.loads(json.dumps(made.card))
    card["network"]["prior_weights"] = asdict(CEKI_WEIGHTS)
    Model(made.params, card).save(tmp_path / "plain" / "ceki-3p")
    with pytest.raises(SystemExit):
        script.main(["ceki", "-n", "3", "--model", str(tmp_path / "plain" / "ceki-3p")])
    assert "nothing was tuned" in capsys.readouterr().err


def test_a_tuning_whose_budget_its_first_measurement_takes_still_tunes(tmp_path: Path) -> None:
    """On a slow or busy machine the first measurement may take the whole budget: the run
    still makes one generation and trains the value head one block, so it never ships the
    hand-set weights as a tuning, nor an untrained value head."""
    from cherki import train

    small = {
        "bc_hands": 16, "eval_hands": 8, "eval_every": 100.0, "hidden": (16, 16),
        "tune_hands": 16, "tune_population": 2, "method": "tune", "bc_share": 0.3,
    }  # fmt: skip
    model = train.train("ceki", 3, 0.001, 4, tmp_path / "m", log=lambda _: None, **small)
    assert len(model.card["training"]["tuning"]) == 1
    assert "(0 decisions" not in model.card["training"]["method"]
