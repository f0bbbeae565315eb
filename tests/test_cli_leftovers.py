"""The command line's leftovers (issue 26): a full disk while playing, bounds on --jobs
and --hands, a match given two ends, a bad action quoted short, search's clock."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cherki.play.records as records
from cherki.ui.cli import app


def test_a_full_disk_says_so_in_one_line_and_keeps_the_last_good_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rec = tmp_path / "game.json"
    real_fsync = os.fsync
    writes = {"n": 0}

    def fsync(fd: int) -> None:
        writes["n"] += 1
        if writes["n"] > 2:  # the deal and one move are written, then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(records.os, "fsync", fsync)
    run = CliRunner().invoke(
        app,
        ["play", "balik-satu", "--seed", "7", "--record", str(rec)],
        input="M4\nquit\n",
        env={"COLUMNS": "400"},
    )
    assert run.exit_code == 0, run.output
    assert run.exception is None or isinstance(run.exception, SystemExit)
    assert "Traceback" not in run.output
    said = [ln for ln in run.output.splitlines() if "Cannot write the record" in ln]
    assert len(said) == 1 and "No space left on device" in said[0]
    assert "the game goes on in memory" in said[0]
    # the game went on (the bots played after the failure) and quitting says what is kept
    assert "holds the last record written whole" in run.output
    kept = json.loads(rec.read_text())  # whole JSON: the last good record
    assert kept["hands"][0]["actions"] == ["0: discard M4"]
    assert not [p for p in tmp_path.iterdir() if p.name != "game.json"]  # no temp file left


def test_a_bad_action_is_quoted_short(tmp_path: Path) -> None:
    """A 10,000-character action is quoted once, cut short, with its length said: at the
    table, and in a record that does not replay."""
    from cherki.core.errors import NotationError, quote
    from cherki.games import find_game
    from cherki.ui.table import resolve_input

    long = "discard " + "x" * 10_000
    assert quote(long) == repr(long[:60]) + "… (10,008 characters)"
    game = find_game("balik-satu")
    state = game.new_state(seed=1)
    with pytest.raises(NotationError) as err:
        resolve_input(game, long, state.legal_actions())
    assert len(str(err.value)) < 300 and str(err.value).count(" characters)") == 1
    rec = tmp_path / "bad.json"
    data = {
        "format": "cherki-record",
        "version": 1,
        "game": "balik-satu",
        "players": 4,
        "hands": [{"seed": 1, "actions": ["0: " + "y" * 10_000]}],
    }
    rec.write_text(json.dumps(data))
    run = CliRunner().invoke(app, ["replay", str(rec), "--json"])
    assert run.exit_code != 0
    message = str(run.exception)
    assert len(message) < 400 and message.count("10,003 characters") == 1
    assert message.count("y" * 60) == 1 and "y" * 61 not in message


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["simulate", "balik-satu", "--hands", str(10**30)], "--hands must be from 1 to"),
        (["simulate", "balik-satu", "--jobs", "100000"], "--jobs must be from 1 to"),
        (["compare", "balik-satu", "--vary", "kena=false", "--jobs", "0"], "--jobs must"),
        (["arena", "balik-satu", "--hands", str(10**12)], "--hands must be from 1 to"),
        (["arena", "balik-satu", "--jobs", "100000"], "--jobs must be from 1 to"),
        (["play", "--hand-by-hand", "--hands", "3", "--target", "2"], "--hand-by-hand deals"),
        (["play", "ceki", "--hands", "3", "--target", "2"], "not both"),
        (["play", "--hands", str(10**30)], "--hands must be from 1 to 10,000"),
    ],
)
def test_runs_and_matches_are_bounded_in_words(args: list[str], words: str) -> None:
    from cherki.core.errors import RulesError

    run = CliRunner().invoke(app, args)
    assert isinstance(run.exception, RulesError), run.output
    assert words in str(run.exception)


class FakeClock:
    """A clock that moves only when told (seconds)."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_search_keeps_to_its_budget_when_steps_run_long() -> None:
    """The budget logic, on a clock the test moves (no timing): a step starts only when one
    more, as long as the steps so far on average, still ends within the budget; the
    minimum number of iterations does not outlast the budget."""
    from cherki.bots.clock import Clock
    from cherki.bots.search import SearchBot

    now = FakeClock()
    clock = Clock(100, now)  # 100 ms
    assert clock.fits_another(0)
    now.t += 0.030  # one step took 30 ms (a busy machine)
    assert clock.fits_another(1)  # 30 + 30 <= 100
    now.t += 0.030
    assert clock.fits_another(2)  # 60 + 30 <= 100
    now.t += 0.030
    assert not clock.fits_another(3)  # 90 + 30 > 100: stop at 90 ms, not 120
    bot = SearchBot("ceki", budget_ms=100, min_iterations=4)
    slow = FakeClock()
    bot.clock = slow
    deadline = bot._deadline()
    assert deadline is not None
    assert bot._more(0, deadline)  # the first step is always taken
    slow.t += 0.080  # it took 80 ms: a second would end at 160 ms
    assert not bot._more(1, deadline)  # though min_iterations (4) is not reached
    # a rollout budget has no clock: it counts
    counted = SearchBot.by_rollouts("ceki", 3)
    assert counted._deadline() is None
    assert [counted._more(i, None) for i in range(4)] == [True, True, True, False]


def test_the_race_search_stops_its_batches_by_the_clock() -> None:
    """The games of sets' race search: batches of futures, judged by the same clock."""
    import random

    from cherki.bots.base import heuristic_for
    from cherki.bots.clock import Clock
    from cherki.bots.race import RaceSearch
    from cherki.games import find_game

    game = find_game("balik-satu")
    state = game.new_state(seed=3)
    obs = state.observation(state.current)
    heuristic = heuristic_for("balik-satu").search_policy()
    ticks = FakeClock()

    def now() -> float:
        ticks.t += 0.060  # every look at the clock is 60 ms later: each batch is slow
        return ticks.t

    search = RaceSearch(heuristic)  # type: ignore[arg-type]
    legal = list(obs.legal)[:2]
    values = search.values(obs, legal, random.Random(1), game, Clock(100, now), None, 4)
    assert {len(v) for v in values.values()} == {search.batch}  # one batch, not four


def test_the_vector_docstring_names_what_exists() -> None:
    import importlib
    import re

    import cherki.vector

    doc = cherki.vector.__doc__ or ""
    names = re.findall(r":(?:class|mod):`~?(cherki[\w.]+)`", doc)
    assert names and "cherki.vector.env.VectorEnv" not in names
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError:
            module, _, attr = name.rpartition(".")
            assert hasattr(importlib.import_module(module), attr), name


def test_the_batched_simulator_refuses_the_strict_call_timing_in_words() -> None:
    from cherki.core.errors import RulesError
    from cherki.games import find_game
    from cherki.vector.sets import SetsVector

    game = find_game("balik-satu")
    with pytest.raises(RulesError, match="plays only call_timing=any"):
        SetsVector(game, game.rules(call_timing="next"), batch=2)
    SetsVector(game, game.rules(call_timing="any"), batch=2)
