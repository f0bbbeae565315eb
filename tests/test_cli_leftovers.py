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
