"""``cherki learn`` (issue 37): the course in the terminal, answered with the table's own
action words, judged by the engine, wrong answers explained before the right one; ``--lang``,
``--lesson``, ``--list``; a bad game or lesson is one line and exit status 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cherki.games import GAMES
from cherki.i18n import words
from cherki.ui.cli import app

RUNNER = CliRunner()


def _answers(game: str) -> tuple[str, list[str], list[str]]:
    """Each lesson's first wrong answer, then its first right one; the words expected."""
    course = GAMES[game].lessons()
    lines: list[str] = []
    for lesson in course.lessons:
        lines += [lesson.wrong[0].action, lesson.right[0]]
    wrong = [lesson.wrong[0].why for lesson in course.lessons]
    right = [lesson.key("explain") for lesson in course.lessons]
    return "\n".join(lines) + "\n", wrong, right


@pytest.mark.parametrize("lang", ["en", "ms", "id"])
def test_the_whole_balik_satu_course_wrong_then_right(lang: str, tmp_path: Path) -> None:
    stdin, wrong, right = _answers("balik-satu")
    # --lang is remembered: in a config folder of the test's own
    env = {"CHERKI_LANG": lang, "COLUMNS": "400", "XDG_CONFIG_HOME": str(tmp_path)}
    run = RUNNER.invoke(app, ["learn", "balik-satu", "--lang", lang], input=stdin, env=env)
    assert run.exit_code == 0, run.output
    w = words(lang)
    out = run.output
    for key in wrong + right:
        assert w.t(key) in out, key
    assert out.count(w.t("learn.ui.wrong")) == len(wrong)
    assert w.t("learn.ui.done") in out
    assert w.t("learn.statement.balik.yeo") in out  # the source quoted after the answer
    if lang != "en":
        for english in ("Right!", "Not quite.", "Try again.", "Your hand"):
            assert english not in out, english


def test_a_lesson_by_id_and_the_list() -> None:
    course = GAMES["balik-satu"].lessons()
    listed = RUNNER.invoke(app, ["learn", "balik-satu", "--list", "--lang", "en"])
    assert listed.exit_code == 0
    for lesson in course.lessons:
        assert lesson.id in listed.output
    one = RUNNER.invoke(
        app, ["learn", "balik-satu", "--lesson", "balik.yeo", "--lang", "en"], input="sampei\n"
    )
    assert one.exit_code == 0, one.output
    assert words("en").t("learn.balik.yeo.explain") in " ".join(one.output.split())
    games = RUNNER.invoke(app, ["learn", "--lang", "en"])
    assert "balik-satu" in games.output and "pairs" in games.output  # the ninth game's course


def test_the_fixture_game_brings_its_course() -> None:
    stdin, wrong, right = _answers("pairs")
    run = RUNNER.invoke(app, ["learn", "pairs", "--lang", "en"], input=stdin)
    assert run.exit_code == 0, run.output
    out = " ".join(run.output.split())
    assert all(words("en").t(k) in out for k in wrong + right)


def _cherki(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CHERKI_LANG": "en"}
    return subprocess.run(
        [sys.executable, "-m", "cherki", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_a_bad_game_or_lesson_is_one_line_and_exit_2() -> None:
    bad = _cherki("learn", "chess")
    assert bad.returncode == 2 and "no game 'chess'" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr
    lesson = _cherki("learn", "balik-satu", "--lesson", "nope")
    assert lesson.returncode == 2 and "no lesson 'nope'" in lesson.stderr
    assert len(lesson.stderr.strip().splitlines()) == 1
