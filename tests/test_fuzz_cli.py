"""Fuzzed command lines: whatever the arguments, ``cherki`` answers with its result or a
clear one-line error (exit status 2), never a traceback, a hang or a wrong exit status.

The command runs in this process (as ``python -m cherki`` runs it: :func:`cherki.ui.cli.main`)
with its standard input at end of file, its data folder a temporary one, and an alarm that
turns a hang into a failure.
"""

from __future__ import annotations

import io
import json
import os
import signal
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cherki.games import GAMES

HOME = Path(tempfile.mkdtemp(prefix="cherki-fuzz-"))
RECORD = HOME / "record.json"
DAMAGED = HOME / "damaged.json"
EMPTY = HOME / "empty.json"
DIRECTORY = HOME / "folder"
HOSTILE_TEXT = ["", " ", "[/]", "[bold]x", "\x1b[2J", "é", "x" * 300, "-", "--", "\x00"]
GAMES_OR_NOT = [*sorted(GAMES), "chiqui", "BALIK-SATU", "balik satu", "mahjong", *HOSTILE_TEXT]
INTS = ["0", "1", "2", "3", "4", "5", "14", "15", "-1", "-7", "99999999999999999999999",
        "1.5", "nan", "inf", "abc", *HOSTILE_TEXT[:4]]  # fmt: skip
FLOATS = ["0", "0.5", "-1", "nan", "inf", "-inf", "1e309", "x", ""]
PATHS = [str(RECORD), str(DAMAGED), str(EMPTY), str(DIRECTORY), "/", "/dev/null",
         "/nonexistent/folder/f.json", str(HOME / "new.json"), str(HOME / "new.png"), "",
         "\x00", "/proc/version"]  # fmt: skip
OPTIONS = ["ayam_bonus=5", "ayam_bonus=1e400", "ayam_bonus=-1", "half_packs=0", "half_packs=6",
           "honours=own", "honours=[/]", "scoring=olo", "chiqui=yes", "players=3", "=", "x",
           "nonsense=1", "stake=99999999999999999999999", *HOSTILE_TEXT[:5]]  # fmt: skip
#: (no search bots: whole games of them take minutes; their budgets are tested in test_arena)
LEVELS = ["random", "heuristic", "heuristic,random", "random,random,random", "wizard", ",", "",
          "[/]", "random,,random", "RANDOM"]  # fmt: skip
CARDS = ["S2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 M8 M8", "C1 S1 M1", "C10", "WF RF OT",
         "M2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 C8 M8 S8", *HOSTILE_TEXT[:6]]  # fmt: skip

#: each command's options and the values it is tried with (None: a flag)
COMMANDS: dict[str, dict[str, list[str] | None]] = {
    "play": {
        "--players": INTS, "-n": INTS, "--seed": INTS, "--rules": ["pwee", "babas", "x", ""],
        "-o": OPTIONS, "--record": PATHS, "--watch": None, "--seat": INTS,
        "--bots": LEVELS, "--hands": ["0", "1", "2", "-1", "x"], "--hand-by-hand": None,
        "--target": ["0", "1", "-5", "x"], "--delay": ["0", "-1", "nan", "x"],
        "--name": HOSTILE_TEXT, "--resume": PATHS,
    },
    "replay": {"--json": None, "--all": None, "--step": None, "--seat": INTS},
    "hand": {},
    "rules": {},
    "glossary": {},
    "games": {},
    "arena": {
        "--bots": LEVELS, "--hands": ["1", "2", "3", "0", "-1", "x"], "--seed": INTS,
        "--players": INTS, "--rules": ["pwee", "x"], "-o": OPTIONS, "--json": PATHS,
        "--plot": PATHS, "--duplicate": None, "--no-duplicate": None, "--jobs": ["1", "0", "-2"],
        "--field": ["random", "heuristic", "wizard", ""], "--search-rollouts": INTS,
        "--search-ms": FLOATS, "--policy": ["x", "a=b", "=", "m=nope.py:act", "a b=os:getcwd"],
    },
    "simulate": {
        "--rules": ["pwee", "x", ""], "-o": OPTIONS, "--players": INTS, "--bots": LEVELS,
        "--hands": ["1", "2", "0", "-1", "x"], "--seed": INTS, "--jobs": ["1", "0", "-2"],
        "--json": PATHS, "--plot": PATHS, "--report": [*PATHS, str(HOME / "r.md"), "r.pdf"],
    },
    "compare": {
        "--rules": ["pwee", "babas", "x"], "--vary": ["ayam_bonus=0", "x", "a=1+b=2", "="],
        "-o": OPTIONS, "--players": INTS, "--bots": LEVELS, "--hands": ["1", "2", "0", "x"],
        "--seed": INTS, "--json": PATHS, "--plot": PATHS,
    },
    "cards": {"--svg": PATHS, "--no-index": None, "--index": None},
}  # fmt: skip
#: positional arguments of each command
POSITIONAL: dict[str, list[list[str]]] = {
    "play": [GAMES_OR_NOT],
    "replay": [PATHS],
    "hand": [GAMES_OR_NOT, CARDS],
    "rules": [GAMES_OR_NOT],
    "glossary": [],
    "games": [],
    "arena": [GAMES_OR_NOT],
    "simulate": [GAMES_OR_NOT],
    "compare": [GAMES_OR_NOT],
    "cards": [],
}


def _setup() -> None:
    """A real record, a damaged one, an empty file and a folder to be given as paths."""
    from cherki.games import find_game
    from cherki.play.records import hand_record, new_record

    game = find_game("balik-satu")
    state = game.new_state(seed=3)
    for _ in range(20):
        state.apply(state.legal_actions()[0])
    rec = new_record(game, game.rules(), ["a", "b"])
    rec.hands.append(hand_record(state))
    RECORD.write_text(json.dumps(rec.to_json()), encoding="utf-8")
    DAMAGED.write_text(RECORD.read_text(encoding="utf-8")[:-40], encoding="utf-8")
    EMPTY.write_text("", encoding="utf-8")
    DIRECTORY.mkdir(exist_ok=True)


_setup()


class Hang(Exception):
    pass


@contextmanager
def _alarm(seconds: int) -> Iterator[None]:
    def ring(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"no answer in {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run_cli(args: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    """``cherki ARGS`` in this process: exit status, standard output, standard error."""
    from cherki.ui import cli

    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "argv", ["cherki", *args])
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    monkeypatch.setenv("XDG_DATA_HOME", str(HOME / "data"))
    monkeypatch.setenv("COLUMNS", "100")
    code: Any = 0
    with redirect_stdout(out), redirect_stderr(err), _alarm(60):
        try:
            cli.main()
        except SystemExit as exit_:
            code = exit_.code
    return (code if isinstance(code, int) else 1), out.getvalue(), err.getvalue()


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    command = draw(st.sampled_from(sorted(COMMANDS)))
    args = [command]
    for pool in POSITIONAL[command]:
        if draw(st.integers(0, 9)):  # now and then a positional argument is missing
            args.append(draw(st.sampled_from(pool)))
    options = COMMANDS[command]
    for name in draw(st.lists(st.sampled_from(sorted(options)), max_size=4)) if options else []:
        args.append(name)
        values = options[name]
        if values is not None:
            args.append(draw(st.sampled_from(values)))
    if command == "play" and "--watch" not in args and draw(st.booleans()):
        args.append("--watch")  # a whole game, played by bots
    if command == "play" and "--delay" not in args:
        args += ["--delay", "0"]
    if command in ("arena", "simulate", "compare") and "--hands" not in args:
        args += ["--hands", "2"]  # not the default 200 or 1000
    return args


#: how many command lines a run tries (CHERKI_FUZZ_EXAMPLES for a longer hunt)
EXAMPLES = int(os.environ.get("CHERKI_FUZZ_EXAMPLES", "250"))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(args=command_lines())
def test_any_command_line_is_answered_or_refused_in_one_line(
    args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(args, monkeypatch)
    assert "Traceback" not in out + err, (args, err)
    assert code in (0, 2), (args, code, err)
    if code == 2:
        assert err.strip(), (args, "refused without a word")
    # whatever was typed, no terminal escape reaches the screen from the arguments
    assert "\x1b[2J" not in out + err, args


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "balik-satu", "--record", "\x00"], "--record"),
        (["play", "balik-satu", "--seed", "99999999999999999999999"], ""),
        (["arena", "balik-satu", "--json", "/proc/version"], "--json"),
        (["replay", "\x00"], ""),
        (["hand", "balik-satu", "\x00"], ""),
        (["play", "balik-satu", "-o", "ayam_bonus=1e400"], "ayam_bonus"),
        (["arena", "balik-satu", "--search-ms", "nan"], "search"),
    ],
)
def test_hostile_arguments_found_by_the_fuzzer(
    args: list[str], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli([*args, "--delay", "0"] if args[0] == "play" else args, monkeypatch)
    assert "Traceback" not in out + err
    assert code in (0, 2), err
    assert message in err or code == 0


@pytest.fixture(autouse=True)
def _in_scratch_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    """Relative paths (an empty one: the current folder) land in the scratch folder, never
    in the checkout."""
    monkeypatch.chdir(HOME)
