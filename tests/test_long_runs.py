"""Long commands say how long and keep what they did (issue 39): progress lines outside a
terminal, an arena stopped and resumed with the figures of an unbroken run, and small
samples that say they cannot tell."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cherki.games import find_game
from cherki.play.arena import HandOutcome, Interval, run_arena, verdict
from cherki.ui.arena_log import ArenaLog, log_path
from cherki.ui.cli_common import ProgressLines


def _figures(r: dict[str, Any]) -> dict[str, Any]:
    r.pop("seconds")
    for b in r["bots"]:
        b.pop("median_decision_ms")
        b.pop("p99_decision_ms")
    return r


def test_progress_lines_say_done_and_time_left() -> None:
    now = [0.0]
    out = io.StringIO()
    update = ProgressLines("Ceki arena", 300, stream=out, clock=lambda: now[0], every=30)
    now[0] = 10.0
    update(10)  # too soon for a line
    assert out.getvalue() == ""
    now[0] = 60.0
    update(60)
    assert out.getvalue() == "Ceki arena: 60/300 hands, 1 min 00 s, about 4 min 00 s left\n"
    now[0] = 70.0
    update(70)  # within the interval: no line
    now[0] = 300.0
    update(300)
    assert out.getvalue().splitlines()[-1] == "Ceki arena: 300/300 hands, 5 min 00 s"


def test_a_resumed_run_counts_only_the_hands_it_plays() -> None:
    now = [0.0]
    out = io.StringIO()
    update = ProgressLines("x", 100, 50, stream=out, clock=lambda: now[0], every=1)
    now[0] = 10.0
    update(60)  # 10 hands in 10 s: 40 left
    assert out.getvalue().endswith("about 40 s left\n")


def test_small_samples_cannot_tell() -> None:
    assert verdict(Interval(10.0, 10.0, 10.0), 4) == "too few"
    assert verdict(Interval(1.0, 0.5, 1.5), 30) == "significant"
    assert verdict(Interval(1.0, -0.5, 1.5), 30) == "not significant"


def test_a_stopped_arena_resumes_with_the_same_figures(tmp_path: Path) -> None:
    game = find_game("tantanan")
    whole = run_arena(game, ["heuristic", "random"], 12, 5).to_json()
    kept: dict[int, HandOutcome] = {}

    class Stop(Exception):
        pass

    def save(hand: int, outcome: HandOutcome) -> None:
        kept[hand] = outcome
        if len(kept) == 5:
            raise Stop

    with pytest.raises(Stop):
        run_arena(game, ["heuristic", "random"], 12, 5, save=save)
    assert len(kept) == 5
    played: list[int] = []
    resumed = run_arena(
        game, ["heuristic", "random"], 12, 5, done=kept, save=lambda h, _: played.append(h)
    )
    assert sorted(played) == list(range(5, 12))
    assert _figures(resumed.to_json()) == _figures(whole)


def test_the_log_reads_back_and_refuses_other_settings(tmp_path: Path) -> None:
    path = log_path(tmp_path / "a.json")
    log = ArenaLog(path, {"hands": 4})
    log.open()
    log.save(0, HandOutcome([1.0, -1.0], [1, 1], [1, 0], [[0.1], [0.2]]))
    log.close(finished=False)
    with path.open("a") as f:
        f.write('{"hand": 1, "poi')  # cut short when stopped
    again = ArenaLog(path, {"hands": 4})
    assert list(again.done) == [0] and again.done[0].points == [1.0, -1.0]
    try:
        ArenaLog(path, {"hands": 8})
    except Exception as err:
        assert "other settings" in str(err)
    else:
        raise AssertionError("a log of other settings was read")


def test_arena_command_resumes_and_says_too_few(tmp_path: Path) -> None:
    out = tmp_path / "a.json"
    log = log_path(out)
    argv = [sys.executable, "-m", "cherki", "arena", "cholek-tiga", "--bots",
            "heuristic,random", "--hands", "8", "--seed", "2", "--json", str(out)]  # fmt: skip
    first = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    said = " ".join(first.stdout.split())
    assert "too few deals to tell: 4, at least 30 needed" in said
    assert "(significant)" not in said
    assert not log.exists()  # finished: the hands' file is gone
    whole = json.loads(out.read_text())
    assert whole["differences"][0]["verdict"] == "too few"
    # a run stopped (interrupted) after three hands: its file holds them, the command goes on
    stopped = subprocess.run(
        [argv[0], "-c",
         "import sys, cherki.ui.arena_log as m\n"
         "o = m.ArenaLog.save\n"
         "def save(self, h, x):\n"
         "    o(self, h, x)\n"
         "    if len(self.path.read_text().splitlines()) == 4: raise KeyboardInterrupt\n"
         "m.ArenaLog.save = save\n"
         "from cherki.ui.cli import main\n"
         f"sys.argv = ['cherki', *{argv[3:]!r}]\n"
         "main()\n"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert stopped.returncode != 0
    assert len(log.read_text().splitlines()) == 4  # settings and three hands
    again = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert f"Going on from 3 hands already in {log}" in again.stdout.replace("\n", "")
    assert not log.exists()
    assert _figures(json.loads(out.read_text())) == _figures(whole)
