"""scripts/search_edge.py, the probe of where the search's edge lies (issue 38): it plays the
arena's own deals and generators, its departures are the ones asked for, and a user's
mistake gets a sentence, not a traceback."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from cherki.bots.base import heuristic_for
from cherki.games import find_game
from cherki.games.sets.actions import CALL_TAN, DISCARD
from cherki.games.sets.observation import SetsObservation
from cherki.play.arena import play_hands

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "search_edge.py"


@pytest.fixture(scope="module")
def edge() -> ModuleType:
    spec = importlib.util.spec_from_file_location("search_edge", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["search_edge"] = module
    spec.loader.exec_module(module)
    return module


def _figures(edge: ModuleType, tmp_path: Path, *args: str) -> dict[str, object]:
    out = tmp_path / "edge.json"
    assert edge.main([*args, "--json", str(out)]) == 0
    figures: dict[str, object] = json.loads(out.read_text())
    return figures


def test_the_heuristic_probe_with_no_departure_is_the_heuristic_exactly(
    edge: ModuleType, tmp_path: Path
) -> None:
    f = _figures(edge, tmp_path, "balik-satu", "-n", "4", "--base", "heuristic", "--deals", "3")
    assert f["minus_heuristic"] == {"mean": 0.0, "low": 0.0, "high": 0.0}
    assert f["searched"] == 0 and f["seat_hands"] == 12


def test_the_learned_probe_plays_the_arenas_deals(edge: ModuleType, tmp_path: Path) -> None:
    """With no departure the learned probe's figure is the arena's learned − heuristic on
    the same deals, hand for hand."""
    game = find_game("balik-satu")
    rules = game.default_preset().rules
    outcomes = play_hands(
        "balik-satu", ["learned", "heuristic"], rules, 4, 1, True, range(16), "heuristic"
    )
    # hand h: deal h // 8, guest (h % 8) // 2, bot h % 2
    per_deal = []
    for d in range(2):
        hands = outcomes[8 * d : 8 * d + 8]
        diffs = [hands[2 * g].points[0] - hands[2 * g + 1].points[1] for g in range(4)]
        per_deal.append(sum(diffs) / 4)
    f = _figures(edge, tmp_path, "balik-satu", "-n", "4", "--base", "learned", "--deals", "2")
    figure = f["minus_heuristic"]
    assert isinstance(figure, dict)
    assert figure["mean"] == pytest.approx(sum(per_deal) / 2)


def test_the_search_decides_only_where_asked(edge: ModuleType, tmp_path: Path) -> None:
    f = _figures(
        edge, tmp_path, "balik-satu", "-n", "4", "--base", "learned",
        "--search-at", "take,call", "--rollouts", "8", "--deals", "2",
    )  # fmt: skip
    assert isinstance(f["searched"], int) and isinstance(f["decisions"], int)
    assert 0 < f["searched"] < f["decisions"] / 2


def test_the_search_at_ties_decides_at_level_discards_only(
    edge: ModuleType, tmp_path: Path
) -> None:
    f = _figures(
        edge, tmp_path, "balik-satu", "-n", "4", "--base", "learned",
        "--search-at", "tie", "--rollouts", "8", "--deals", "2",
    )  # fmt: skip
    assert isinstance(f["tied_discards"], int) and isinstance(f["plain_discards"], int)
    assert 0 < f["searched"] == f["tied_discards"] < f["plain_discards"]


def test_the_tie_break_counts_the_ties_it_breaks(edge: ModuleType, tmp_path: Path) -> None:
    f = _figures(
        edge, tmp_path, "balik-satu", "-n", "4", "--tie-break", "held,live", "--deals", "2"
    )
    assert isinstance(f["tied_discards"], int) and isinstance(f["plain_discards"], int)
    assert 0 < f["tied_discards"] <= f["plain_discards"]
    assert f["searched"] == 0


def test_the_tie_break_throws_by_its_keys(edge: ModuleType) -> None:
    """At plain discards the heuristic rates level, the probe throws from the value group
    the hand holds fewest of (``held``), never a card the heuristic rates lower."""
    game = find_game("balik-satu")
    rules = game.default_preset().rules
    probe = edge.Probe("balik-satu", 4, "heuristic", [], ["held", "live"], 8)
    rater = heuristic_for("balik-satu")
    met = 0
    for d in range(6):
        state = game.new_state(rules, 4, seed=100 + d, first=0)
        rng = random.Random(d)
        while not state.is_terminal and met < 40:
            seat = state.current
            obs = state.observation(seat)
            assert isinstance(obs, SetsObservation)
            plain = obs.phase == "discard" and obs.calls[seat] is None
            if plain and not any(a >= CALL_TAN for a in obs.legal):
                scores = rater.scores(obs)
                assert scores is not None
                best = max(scores.values())
                tied = [a for a, v in scores.items() if abs(v - best) < 1e-9]
                choice = probe.act(obs, random.Random(0))
                assert abs(scores[choice] - best) < 1e-9
                if len(tied) > 1:
                    met += 1
                    group = edge.GROUPINGS[obs.honours]

                    def held(
                        a: int, obs: SetsObservation = obs, group: tuple[int, ...] = group
                    ) -> int:
                        g = group[a - DISCARD]
                        return sum(c for k, c in enumerate(obs.hand) if group[k] == g)

                    assert held(choice) == min(held(a) for a in tied)
            state.apply(rater.act(obs, rng), seat)
    assert met >= 20


def test_the_study_of_ties_counts_the_searchs_picks(edge: ModuleType, tmp_path: Path) -> None:
    args = ["balik-satu", "-n", "4", "--study-ties", "--deals", "2", "--rollouts", "8"]
    f = _figures(edge, tmp_path, *args)
    keys = f["keys"]
    assert isinstance(keys, dict) and set(keys) == {"red", "held", "live", "same", "rank"}
    assert isinstance(f["positions"], int) and f["positions"] > 0
    for v in keys.values():
        assert 0 <= v["positions"] <= f["positions"]
        assert 0.0 <= v["search_least"] <= 1.0 and 0.0 <= v["chance"] <= 1.0


def test_mistakes_are_refused_in_words(
    edge: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert edge.main(["ceki", "--deals", "2"]) == 2
    assert "the probe is for the games of sets, not Ceki" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        edge.main(["balik-satu", "--tie-break", "red,bogus"])
    assert stop.value.code == 2
    assert "give distinct names from red, held, live" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        edge.main(["balik-satu", "--deals", "1"])
    assert "--deals must be at least 2" in capsys.readouterr().err
