"""``cherki review``, run as a user runs it: the table in three languages, JSON, the refusals
(one line, exit status 2, no traceback), and under tmux."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import JUNK, JUNK2, SATU, play, stacked
from test_cli import ENV
from test_review import CEKI15, finish

from cherki.core.deal import DealRequest
from cherki.play.records import Record


def planted(tmp_path: Path) -> Path:
    """A record whose seat 0 lets a kandang pass (discards the M8 it drew)."""
    st = stacked(SATU, [CEKI15, JUNK, JUNK2], stock="C4 C4 M8 C5")
    play(st, "0: discard C9 ceki", "1: draw", "1: discard C4", "2: draw", "2: discard C4")
    play(st, "0: draw", "0: discard M8")
    record: Record = finish(st)
    record.players = ["Ah Ma", "Bot 1", "Bot 2"]
    path = tmp_path / "planted.json"
    record.save(path)
    return path


def cherki(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cherki", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=ENV,
    )


def test_review_prints_the_table_and_marks_the_blunder(tmp_path: Path) -> None:
    path = planted(tmp_path)
    out = cherki("review", str(path), "--seat", "0", "--budget", "16", "--lang", "en")
    assert out.returncode == 0, out.stderr
    assert "review of Ah Ma (seat 0), hand 1" in out.stdout
    row = next(line for line in out.stdout.splitlines() if "discard M8" in line)
    assert "sampei" in row and "blunder" in row
    said = " ".join(out.stdout.split())  # the console wraps long lines
    assert (
        "Evaluator: the search's rollouts (the heuristic plays every seat on), 16 sampled "
        "deals a decision" in said
    )
    ms = cherki("review", str(path), "--seat", "0", "--budget", "16", "--lang", "ms")
    assert ms.returncode == 0 and "silap besar" in ms.stdout and "Penilai" in ms.stdout
    assert "blunder" not in ms.stdout and "Expected" not in ms.stdout
    id_ = cherki("review", str(path), "--seat", "0", "--budget", "4", "--lang", "id")
    assert id_.returncode == 0 and "Perkiraan kerugian" in id_.stdout


def test_review_json_says_its_evaluator_and_is_reproducible(tmp_path: Path) -> None:
    path = planted(tmp_path)
    one = cherki("review", str(path), "--seat", "0", "--budget", "4", "--json")
    two = cherki("review", str(path), "--seat", "0", "--budget", "4", "--json")
    assert one.returncode == 0, one.stderr
    assert one.stdout == two.stdout
    data = json.loads(one.stdout)
    assert data["evaluator"] == "search" and data["budget"] == 4 and data["seat"] == 0
    assert data["decisions"] and all(d["choices"] > 1 for d in data["decisions"])


def test_review_says_the_learned_bots_rollouts_judged_at_its_tables(tmp_path: Path) -> None:
    """At Balik Satu's table of two the learned bot is measured at least as strong as the
    search: its rollouts judge by default, and the review says so; ``--evaluator search``
    asks for the search's; a table without a model refuses ``learned`` in one line."""
    game = SATU
    rules = game.default_preset().rules
    for n in (2, 7):
        record = finish(game.start(rules, n, DealRequest(seed=3)))
        record.save(tmp_path / f"t{n}.json")
    out = cherki("review", str(tmp_path / "t2.json"), "--seat", "0", "--budget", "2")
    assert out.returncode == 0, out.stderr
    said = " ".join(out.stdout.split())
    assert "Evaluator: the learned bot's rollouts (it plays every seat on; at this table" in said
    data = json.loads(
        cherki("review", str(tmp_path / "t2.json"), "--seat", "0", "--budget", "2", "--json").stdout
    )
    assert data["evaluator"] == "learned"
    plain = cherki(
        "review", str(tmp_path / "t2.json"), "--seat", "0", "--budget", "2", "--json",
        "--evaluator", "search",
    )  # fmt: skip
    assert json.loads(plain.stdout)["evaluator"] == "search"
    no = cherki("review", str(tmp_path / "t7.json"), "--seat", "0", "--evaluator", "learned")
    assert no.returncode == 2 and not no.stdout
    assert re.fullmatch(
        "error: the learned evaluator cannot judge this table: the learned models of "
        r"Balik Satu are for [\d, ]+ players, not 7",
        no.stderr.strip(),
    ), no.stderr
    bad = cherki("review", str(tmp_path / "t2.json"), "--seat", "0", "--evaluator", "best")
    assert bad.returncode == 2 and "no review evaluator 'best': choose one of" in bad.stderr


def test_review_refusals_are_one_line_and_exit_2(tmp_path: Path) -> None:
    path = planted(tmp_path)
    damaged = tmp_path / "damaged.json"
    damaged.write_text(path.read_text()[:200])
    data = json.loads(path.read_text())
    data["hands"][0]["actions"] = data["hands"][0]["actions"][:5]
    data["hands"][0].pop("result", None)
    live = tmp_path / "live.json"
    live.write_text(json.dumps(data))
    cases = {
        ("review", str(damaged), "--seat", "0"): "not JSON",
        ("review", str(tmp_path / "none.json"), "--seat", "0"): "no record file",
        ("review", str(path), "--seat", "3"): "seat 3 did not play",
        ("review", str(path), "--seat", "0", "--hand", "2"): "there is no hand 2",
        ("review", str(path), "--seat", "0", "--hand", "0"): "--hand counts from 1",
        ("review", str(path), "--seat", "0", "--budget", "1"): "budget",
        ("review", str(live), "--seat", "0"): "not finished",
        ("review", str(path), "--seat", "0", "--lang", "xx"): "--lang must be",
    }
    for args, words in cases.items():
        out = cherki(*args)
        assert out.returncode == 2, (args, out.stdout, out.stderr)
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and words in lines[0], (args, out.stderr)
        assert "Traceback" not in out.stderr


@pytest.mark.slow
def test_review_under_tmux(tmp_path: Path) -> None:
    """``cherki review`` in a terminal: the progress bar while it works, then the table; a
    damaged record is one line."""
    assert shutil.which("tmux"), "tmux is needed for the terminal test"
    path = planted(tmp_path)
    damaged = tmp_path / "damaged.json"
    damaged.write_text("{")
    name = f"cherki-review-{os.getpid()}"
    cherki_bin = Path(sys.executable).parent / "cherki"
    command = (
        f"env COLUMNS=110 {cherki_bin} review {path} --seat 0 --budget 24 --lang en; "
        f"{cherki_bin} review {damaged} --seat 0; echo status=$?; sleep 30"
    )
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", name, "-x", "110", "-y", "50", command], check=True
    )
    try:
        deadline = time.monotonic() + 120
        text = ""
        while time.monotonic() < deadline:
            text = subprocess.run(
                ["tmux", "capture-pane", "-p", "-J", "-S", "-200", "-t", name],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            if "status=" in text:
                break
            time.sleep(0.3)
        assert "status=2" in text, text
        assert re.search(r"discard M8 .*sampei.*blunder", text), text
        assert "error: not JSON" in text and "Traceback" not in text
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], check=False)
