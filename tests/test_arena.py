"""The arena: fair seating, honest intervals, reproducible figures, JSON and plot."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cherki.bots import SearchBot
from cherki.core.errors import RulesError
from cherki.games import find_game
from cherki.play.arena import mean_interval, run_arena


def _figures(r: dict[str, Any]) -> dict[str, Any]:
    """An arena's JSON without its timings (which differ run to run)."""
    r.pop("seconds")
    for b in r["bots"]:
        b.pop("median_decision_ms")
        b.pop("p99_decision_ms")
    return r


def test_mean_interval_matches_the_normal_approximation() -> None:
    iv = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert iv.mean == 2.5
    # sd = 1.2910, se = 0.6455, half-width 1.2652
    assert iv.low == pytest.approx(2.5 - 1.2652, abs=1e-3)
    assert iv.high == pytest.approx(2.5 + 1.2652, abs=1e-3)
    assert mean_interval([]).mean == 0.0
    assert mean_interval([3.0]).low == 3.0


def test_seats_rotate_so_every_bot_sits_everywhere() -> None:
    res = run_arena(find_game("balik-satu"), ["heuristic", "random"], 8, 3)
    assert [b.seat_hands for b in res.bots] == [16, 16]
    assert len(res.bots[0].per_hand) == 8
    # zero-sum: the two bots' per-hand figures are opposite when each holds two seats
    for a, b in zip(res.bots[0].per_hand, res.bots[1].per_hand, strict=True):
        assert a == pytest.approx(-b)


def test_arena_is_reproducible() -> None:
    game = find_game("ceki")
    one = run_arena(game, ["heuristic", "random"], 6, 11).to_json()
    two = run_arena(game, ["heuristic", "random"], 6, 11).to_json()
    assert _figures(one) == _figures(two)


def test_arena_rejects_nonsense() -> None:
    with pytest.raises(RulesError):
        run_arena(find_game("balik-satu"), [], 5, 1)
    with pytest.raises(RulesError):
        run_arena(find_game("balik-satu"), ["random"], 0, 1)


def test_arena_command_writes_json_and_plot(tmp_path: Path) -> None:
    out, png = tmp_path / "a.json", tmp_path / "a.png"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "cherki",
            "arena",
            "cholek-tiga",
            "--bots",
            "heuristic,random",
            "--hands",
            "6",
            "--seed",
            "2",
            "--json",
            str(out),
            "--plot",
            str(png),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "heuristic − random" in run.stdout
    data = json.loads(out.read_text())
    assert data["hands"] == 6 and data["game"] == "cholek-tiga"
    assert {b["bot"] for b in data["bots"]} == {"heuristic", "random"}
    assert data["differences"][0]["bot"] == "heuristic"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_arena_command_bad_bot_is_a_clear_error() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "cherki", "arena", "balik-satu", "--bots", "heuristic,wizard"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and "no 'wizard' bot" in run.stderr


def test_sharing_hands_between_processes_gives_the_same_figures() -> None:
    game = find_game("tantanan")
    one = run_arena(game, ["heuristic", "random"], 12, 5).to_json()
    two = run_arena(game, ["heuristic", "random"], 12, 5, jobs=2).to_json()
    assert _figures(one) == _figures(two)


def test_field_seats_each_bot_once_per_seat_among_the_field() -> None:
    game = find_game("balik-satu")
    res = run_arena(game, ["heuristic", "random"], 16, 4, field="heuristic")
    heuristic, random_bot = res.bots
    # two deals, each played by both bots in each of the four seats
    assert [b.seat_hands for b in res.bots] == [8, 8]
    assert len(heuristic.samples) == len(random_bot.samples) == 2
    # the heuristic in a field of heuristics is the table itself: zero-sum, so its mean over
    # the four seats of a deal is exactly 0
    assert heuristic.samples == [pytest.approx(0.0), pytest.approx(0.0)]
    assert res.to_json()["field"] == "heuristic"


def test_field_hands_of_two_bots_in_one_seat_match_until_they_differ() -> None:
    """The field players draw the same numbers whichever bot sits among them: a bot that
    plays exactly like the field scores exactly what the field player in its seat scores."""
    game = find_game("tantanan")
    res = run_arena(game, ["heuristic", "heuristic"], 16, 2, field="heuristic")
    a, b = res.bots
    assert a.per_hand == b.per_hand


def test_field_needs_whole_deals_and_a_known_level() -> None:
    game = find_game("balik-satu")
    with pytest.raises(RulesError, match="multiple of 8"):
        run_arena(game, ["heuristic", "random"], 10, 1, field="heuristic")
    with pytest.raises(RulesError, match="wizard"):
        run_arena(game, ["heuristic", "random"], 8, 1, field="wizard")


def test_field_figures_are_the_same_in_several_processes() -> None:
    game = find_game("ceken")
    one = run_arena(game, ["heuristic", "random"], 12, 7, field="heuristic").to_json()
    two = run_arena(game, ["heuristic", "random"], 12, 7, field="heuristic", jobs=2).to_json()
    assert _figures(one) == _figures(two)


def test_arena_command_with_a_field() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "cherki",
            "arena",
            "chaqui",
            "--bots",
            "heuristic,random",
            "--field",
            "heuristic",
            "--hands",
            "8",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "each bot among heuristic players" in run.stdout
    assert "heuristic − random" in run.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "cherki", "arena", "chaqui", "--field", "heuristic", "--hands", "9"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and "multiple of 8" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_more_bots_than_seats_count_only_the_hands_each_sits_in() -> None:
    # four bots at a three-seat table: each deal is played four times, each bot sits three
    res = run_arena(find_game("cholek-tiga"), ["random", "heuristic", "random", "heuristic"], 8, 1)
    assert [b.seat_hands for b in res.bots] == [6, 6, 6, 6]
    assert [len(b.per_hand) for b in res.bots] == [6, 6, 6, 6]
    assert [len(b.samples) for b in res.bots] == [2, 2, 2, 2]


def test_win_rates_have_wilson_intervals_right_near_zero_and_one() -> None:
    from cherki.play.arena import BotStats

    never = BotStats("never", "heuristic")
    never.seat_hands, never.wins = 40, 0
    iv = never.win_interval()
    assert iv.mean == 0.0 and iv.low == 0.0 and 0.08 < iv.high < 0.09  # not [0%, 0%]
    always = BotStats("always", "heuristic")
    always.seat_hands, always.wins = 40, 40
    iv = always.win_interval()
    assert iv.high == 1.0 and 0.91 < iv.low < 0.92
    half = BotStats("half", "heuristic")
    half.seat_hands, half.wins = 100, 50
    iv = half.win_interval()
    assert iv.low < 0.5 < iv.high and abs((iv.low + iv.high) / 2 - 0.5) < 1e-9


class _SlowClock:
    """A clock on which every reading is a second later: a machine far slower than ours."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.mark.parametrize(("name", "hands"), [("ceki", 2), ("tantanan", 4)])
def test_search_figures_are_the_same_on_a_slow_machine(
    name: str, hands: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The arena's search thinks in rollouts, not milliseconds: a clock that races ahead
    (a slow or loaded machine) changes nothing, while a time budget would cut its thinking
    short and so change its play."""
    import cherki.bots.search as search_module
    from cherki.bots import SearchBudget

    game = find_game(name)
    here = run_arena(game, ["search", "heuristic"], hands, 3).to_json()
    assert here["search"] == f"{SearchBot.by_rollouts(name).iterations} rollouts"
    monkeypatch.setattr(search_module.time, "perf_counter", _SlowClock())
    slow = run_arena(game, ["search", "heuristic"], hands, 3).to_json()
    assert _figures(slow) == _figures(here)
    # the same search with a budget in milliseconds on a fast clock and on the slow one
    bot = SearchBudget(ms=50).bot(name)
    assert bot.budget_ms == 50 and bot.iterations is None and bot.budget_text == "50 ms"


def test_a_search_budget_is_checked() -> None:
    from cherki.bots import SearchBudget

    for bad, message in [
        ({"rollouts": 1}, "at least 2 rollouts"),
        ({"rollouts": True}, "at least 2 rollouts"),
        ({"ms": 0}, "positive time"),
        ({"rollouts": 8, "ms": 10.0}, "not both"),
    ]:
        with pytest.raises(RulesError, match=message):
            SearchBudget(**bad)


def test_arena_command_search_budget_options() -> None:
    def arena(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "cherki", "arena", "tantanan", "--bots", "search,heuristic",
             "--hands", "2", *args],
            capture_output=True, text=True, timeout=300, env={**os.environ, "COLUMNS": "200"},
        )  # fmt: skip

    both = arena("--search-rollouts", "8", "--search-ms", "10")
    assert both.returncode == 2 and "not both" in both.stderr
    few = arena("--search-rollouts", "1")
    assert few.returncode == 2 and "--search-rollouts" in few.stderr
    ok = arena("--search-rollouts", "8")
    assert ok.returncode == 0, ok.stderr
    assert "search 8 rollouts a decision" in ok.stdout
    clock = arena("--search-ms", "20")
    assert clock.returncode == 0 and "search 20 ms a decision" in clock.stdout
