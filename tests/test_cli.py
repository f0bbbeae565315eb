"""End-to-end tests of the ``cherki`` command, run as a user runs it (a subprocess)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

SOURCE_EXAMPLE = "S2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 M8 M8"
#: games without --record autosave under $XDG_DATA_HOME: a folder of the tests' own
DATA_HOME = tempfile.mkdtemp(prefix="cherki-data-")
ENV = {
    "COLUMNS": "120",
    "PATH": "/usr/bin:/bin",
    "PYTHONIOENCODING": "utf-8",
    "XDG_DATA_HOME": DATA_HOME,
}


def default_signals() -> None:
    """In a child, the default dispositions of the signals a person sends a game (Ctrl-C, a
    closed terminal): a test run under ``nohup`` or as a background job without job control
    would otherwise hand its children SIGHUP and SIGINT ignored, and they would play on."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def cherki(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cherki", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=ENV,
    )


def test_watch_game_records_and_replays(tmp_path: Path) -> None:
    rec = tmp_path / "game.json"
    run = cherki(
        "play", "balik-satu", "--watch", "--seed", "7", "--delay", "0", "--record", str(rec)
    )
    assert run.returncode == 0, run.stderr
    assert "Balik Satu" in run.stdout
    assert "Payments" in run.stdout
    data = json.loads(rec.read_text())
    assert data["format"] == "cherki-record" and data["game"] == "balik-satu"
    assert data["hands"][0]["seed"] == 7
    out = cherki("replay", str(rec), "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    last = data["hands"][-1]["result"]
    assert result["winner"] == last["winner"]
    assert result["payments"] == last["payments"]
    assert sum(result["payments"]) == 0
    assert {"winner", "how", "items", "payments", "money_cents"} <= set(result)
    shown = cherki("replay", str(rec), "--all")
    assert shown.returncode == 0, shown.stderr
    assert "discards" in shown.stdout


def test_same_seed_same_game(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path in (a, b):
        run = cherki(
            "play",
            "balik-lima-belas",
            "--watch",
            "--seed",
            "11",
            "--delay",
            "0",
            "--record",
            str(path),
        )
        assert run.returncode == 0, run.stderr
    ja, jb = json.loads(a.read_text()), json.loads(b.read_text())
    assert ja["hands"] == jb["hands"]


def test_person_plays_mistakes_reprompt_and_quit_saves(tmp_path: Path) -> None:
    rec = tmp_path / "partial.json"
    script = "\n".join(["help", "hint", "Q9", "draw", "discard XX", "hand", "table", "quit"]) + "\n"
    run = cherki("play", "balik-satu", "--seed", "7", "--record", str(rec), stdin=script)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "Your hand:" in out
    assert "'Q9' is not a card" in out
    assert "start with fifteen cards" in out  # draw on the first turn
    assert "Traceback" not in out + run.stderr
    data = json.loads(rec.read_text())
    assert data["hands"][0]["actions"] == []
    assert "result" not in data["hands"][0]


def test_person_discards_and_the_bots_answer(tmp_path: Path) -> None:
    # seat 0 starts with 15 cards; the hint names a discard the heuristic would make
    run = cherki("play", "balik-satu", "--seed", "7", stdin="M4\ntake\nquit\n")
    assert run.returncode == 0, run.stderr
    assert "You discard M4" in run.stdout
    assert "Bot 1 (heuristic)" in run.stdout
    assert "You may: take · draw" in run.stdout
    # a taken discard is shown as taken, not drawn
    assert "You take the discard C5" in run.stdout
    assert "You took: C5" in run.stdout and "You drew:" not in run.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "mahjong"], "there is no game 'mahjong'"),
        (["play", "balik-satu", "--players", "1"], "2 to 20 players"),
        (["play", "balik-satu", "--rules", "nope"], "no preset 'nope'"),
        (["play", "balik-satu", "-o", "honours=silly"], "honours cannot be 'silly'"),
        (["play", "balik-satu", "-o", "nonsense"], "NAME=VALUE"),
        (["play", "balik-satu", "--bots", "genius"], "no 'genius' bot"),
        (["play", "balik-satu", "--players", "2", "-o", "shoe_table=amaro"], "amaro table"),
        (["replay", "/nonexistent/record.json"], "no record file"),
        (["hand", "balik-satu", "C1 C2 XX"], "'XX' is not a card"),
        (["hand", "balik-satu", "C1 C2"], "14 cards"),
        (["hand", "balik-satu", "C1 " * 14, "--honours", "silly"], "honours cannot be 'silly'"),
    ],
)
def test_bad_input_is_a_clear_error(args: list[str], message: str) -> None:
    run = cherki(*args)
    assert run.returncode == 2
    assert message in run.stderr
    assert "Traceback" not in run.stderr


def test_malformed_record_is_rejected(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        '{"format": "cherki-record", "version": 1, "game": "balik-satu", '
        '"players": 4, "hands": [{"seed": 1, "actions": ["0: discard ZZ"]}]}'
    )
    run = cherki("replay", str(bad), "--json")
    assert run.returncode == 2
    assert "hand 1, action 1" in run.stderr and "'ZZ' is not a card" in run.stderr


def test_hand_analysis_of_the_source_example() -> None:
    run = cherki("hand", "balik-satu", SOURCE_EXAMPLE, "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["call"] == "ceki"
    assert data["waits"] == ["M8"]
    assert data["winning"] is False
    text = cherki("hand", "balik-satu", SOURCE_EXAMPLE)
    assert "ceki" in text.stdout and "M8" in text.stdout


def test_hand_analysis_of_a_winning_hand() -> None:
    run = cherki("hand", "balik-satu", SOURCE_EXAMPLE + " M8", "--json")
    data = json.loads(run.stdout)
    assert data["winning"] is True
    assert data["mata"] == 1
    assert "M8 M8 M8" in data["sets"]


def test_games_and_rules_and_glossary() -> None:
    games = cherki("games")
    assert games.returncode == 0 and "balik-satu" in games.stdout and "pwee" in games.stdout
    # the learned level names the table sizes its models were made for
    assert "learned (4p)" in games.stdout
    assert not re.findall(r"learned(?! \(\d+p)", games.stdout)
    rules = cherki("rules", "balik-satu", "--plain")
    assert rules.returncode == 0, rules.stderr
    for term in ("mata", "tan", "ceki", "sampei", "kena", "ayam", "kandang"):
        assert term in rules.stdout.lower()
    gl = cherki("glossary")
    assert gl.returncode == 0 and "Lau Chian" in gl.stdout


def test_match_of_several_hands_has_a_score_sheet() -> None:
    run = cherki("play", "balik-satu", "--watch", "--seed", "5", "--delay", "0", "--hands", "3")
    assert run.returncode == 0, run.stderr
    assert "Score sheet" in run.stdout
    assert run.stdout.count("— hand ") >= 3


@pytest.mark.parametrize(
    "game",
    ["balik-lima-belas", "gonggong", "tantanan", "ceken", "chaqui", "chot", "ceki", "cholek-tiga"],
)
def test_every_game_plays_records_and_replays(game: str, tmp_path: Path) -> None:
    rec = tmp_path / f"{game}.json"
    run = cherki("play", game, "--watch", "--seed", "3", "--delay", "0", "--record", str(rec))
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    out = cherki("replay", str(rec), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    recorded = json.loads(rec.read_text())
    assert [h["payments"] for h in data["hands"]] == [
        h["result"]["payments"] for h in recorded["hands"]
    ]


def test_hand_by_hand_stops_when_the_player_says_no() -> None:
    run = cherki(
        "play", "ceki", "--watch", "--seed", "2", "--delay", "0", "--hand-by-hand", stdin="y\nn\n"
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("Deal another hand?") == 2
    assert "Score sheet" in run.stdout


def test_hand_analysis_follows_the_game() -> None:
    run = cherki("hand", "tantanan", "S2 M2 C5 C5 OT", "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["call"] == "kowah" and set(data["waits"]) == {"C1", "S1", "M1", "WF", "RF", "OT"}
    bad = cherki("hand", "cholek-tiga", "C1 C2 C3")
    assert bad.returncode == 2 and "hand analysis is not offered for Cholek Tiga" in bad.stderr


def test_an_unseeded_game_keeps_its_seed_until_it_is_over(tmp_path: Path) -> None:
    """A seed reveals every card: one the player did not choose comes from the operating
    system (64 bits) and is shown only once the game is over."""
    rec = tmp_path / "game.json"
    run = cherki("play", "cholek-tiga", "--watch", "--delay", "0", "--record", str(rec))
    assert run.returncode == 0, run.stderr
    seed = json.loads(rec.read_text())["hands"][0]["seed"]
    first, last = run.stdout.split("\n", 2)[:2], run.stdout.rsplit("Record saved", 1)[0]
    assert "the seed is shown when the game is over" in " ".join(first)
    assert str(seed) not in run.stdout.split("Hands at the end")[0]
    assert f"shuffled with seed {seed}." in last
    again = cherki("play", "cholek-tiga", "--watch", "--delay", "0")
    assert again.returncode == 0 and f"seed {seed}." not in again.stdout


def test_a_yes_or_no_question_is_asked_again_until_answered() -> None:
    run = cherki(
        "play", "ceki", "--watch", "--seed", "2", "--delay", "0", "--hand-by-hand",
        stdin="maybe\ny\nn\n",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "Please answer y or n, not 'maybe'." in run.stdout
    assert run.stdout.count("Deal another hand?") == 3


def test_names_and_typed_text_are_never_markup_or_terminal_codes(tmp_path: Path) -> None:
    run = cherki("play", "balik-satu", "--seed", "7", "--name", "[/]", stdin="[/]\n[bold]\nquit\n")
    assert run.returncode == 0, run.stderr
    assert "[/]" in run.stdout and "Traceback" not in run.stderr
    bad = cherki("play", "balik-satu", "--watch", "-o", "x[/]=1")
    assert bad.returncode == 2 and "no rule option 'x[/]'" in bad.stderr
    rec = tmp_path / "named.json"
    rec.write_text(
        json.dumps(
            {"format": "cherki-record", "version": 1, "game": "cholek-tiga",
             "players": ["\x1b[2J", "Bo"], "hands": [{"seed": 3}]}
        )
    )  # fmt: skip
    shown = cherki("replay", str(rec), "--all", "--reveal")  # unfinished: every hand shown
    assert shown.returncode == 0, shown.stderr
    assert "\x1b[2J" not in shown.stdout and "?[2J" in shown.stdout


def test_version() -> None:
    run = cherki("--version")
    assert run.returncode == 0 and run.stdout.startswith("cherki ")


def test_an_unwritable_output_is_refused_before_play(tmp_path: Path) -> None:
    for args in (
        ["play", "balik-satu", "--watch", "--record", str(tmp_path / "no" / "such" / "r.json")],
        ["play", "balik-satu", "--watch", "--record", str(tmp_path)],
        ["arena", "ceki", "--hands", "2", "--json", str(tmp_path / "missing" / "a.json")],
        ["arena", "ceki", "--hands", "2", "--plot", str(tmp_path / "missing" / "a.png")],
    ):
        run = cherki(*args)
        assert run.returncode == 2, args
        assert run.stderr.startswith("error:") and "hand 1" not in run.stdout


def test_ctrl_c_while_bots_move_keeps_the_record_and_exits_130(tmp_path: Path) -> None:
    import signal
    import time

    rec = tmp_path / "game.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cherki", "play", "chot", "--watch", "--delay", "0.05",
         "--seed", "4", "--record", str(rec)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=ENV, preexec_fn=default_signals,
    )  # fmt: skip
    # some moves into the hand
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        time.sleep(0.1)
        if rec.exists() and len(json.loads(rec.read_text())["hands"][0]["actions"]) >= 3:
            break
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Game left unfinished." in out and "Traceback" not in err
    data = json.loads(rec.read_text())
    assert data["hands"][-1]["actions"] and "result" not in data["hands"][-1]


def test_each_game_has_its_own_help_and_short_forms() -> None:
    cholek = cherki("play", "cholek-tiga", "--seed", "7", stdin="help\np\nquit\n")
    assert "capture C7 M7 with S7" in cholek.stdout and "sampei" not in cholek.stdout
    ceki = cherki("play", "ceki", "--seed", "7", stdin="help\nquit\n")
    assert "ceki to call" in ceki.stdout and "M7 call to discard it and call ceki" in ceki.stdout
    balik = cherki("play", "balik-satu", "--seed", "7", stdin="M7 call\nC9 call\nquit\n")
    assert "you have no M7 to discard" in balik.stdout
    assert "discarding C9 does not leave a hand you may call" in balik.stdout


@pytest.mark.parametrize("signame", ["SIGKILL", "SIGTERM", "SIGHUP"])
def test_a_game_killed_mid_hand_resumes_from_its_last_action(tmp_path: Path, signame: str) -> None:
    """kill -9, kill, or the terminal closed lose nothing: the record is written after every
    action, and --resume plays the hand on to a result that replays exactly."""
    import signal
    import time

    from cherki.play.records import load_record, replay_hand

    rec = tmp_path / "game.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cherki", "play", "balik-satu", "--watch", "--delay", "0.05",
         "--seed", "11", "--record", str(rec)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV,
        preexec_fn=default_signals,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        time.sleep(0.2)
        if rec.exists() and len(json.loads(rec.read_text())["hands"][0]["actions"]) >= 12:
            break
    proc.send_signal(getattr(signal, signame))
    proc.wait(timeout=30)
    before = json.loads(rec.read_text())["hands"][0]
    assert "result" not in before and len(before["actions"]) >= 12
    run = cherki("play", "--resume", str(rec), "--delay", "0")
    assert run.returncode == 0, run.stderr
    assert "resumed after" in run.stdout
    after = json.loads(rec.read_text())["hands"]
    assert after[0]["actions"][: len(before["actions"])] == before["actions"]
    assert "result" in after[-1]
    record = load_record(rec)
    for i in range(len(record.hands)):
        assert replay_hand(record, i).result.to_json()["payments"] == after[i]["result"]["payments"]
    again = cherki("play", "--resume", str(rec))
    assert again.returncode == 2 and "nothing to resume" in again.stderr


def test_quitting_without_a_record_keeps_an_autosave_to_resume() -> None:
    run = cherki("play", "cholek-tiga", "--seed", "3", stdin="quit\n")
    assert run.returncode == 0, run.stderr
    line = next(x for x in run.stdout.splitlines() if "autosaved in" in x)
    path = line.split("autosaved in ", 1)[1].split(";")[0]
    assert path.startswith(DATA_HOME) and Path(path).exists()
    resumed = cherki("play", "--resume", path, stdin="quit\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "resumed after 0 actions" in resumed.stdout


def test_replay_json_says_whether_the_record_is_unfinished(tmp_path: Path) -> None:
    rec = tmp_path / "part.json"
    run = cherki("play", "balik-satu", "--seed", "7", "--record", str(rec), stdin="M4\nquit\n")
    assert run.returncode == 0, run.stderr
    part = json.loads(cherki("replay", str(rec), "--json").stdout)
    assert part["unfinished"] is True and "winner" not in part and part["hands"] == []
    whole = tmp_path / "whole.json"
    done = cherki("play", "ceki", "--watch", "--seed", "2", "--delay", "0", "--record", str(whole))
    assert done.returncode == 0, done.stderr
    full = json.loads(cherki("replay", str(whole), "--json").stdout)
    assert full["unfinished"] is False and "winner" in full and len(full["hands"]) == 1


def test_pile_score_and_a_callers_hint() -> None:
    run = cherki(
        "play", "balik-satu", "--seed", "7", stdin="M4\ntake\nM2\ndraw\npile\nscore\nquit\n"
    )
    assert run.returncode == 0, run.stderr
    assert "Discards (newest first):" in run.stdout
    assert "No hand has been scored yet." in run.stdout
    chot = cherki("play", "chot", "--seed", "4", stdin="score\nquit\n")
    assert "Side: You & Bot 2 (heuristic)" in chot.stdout
    assert "Tokens in this bangkong: You 0" in chot.stdout


def test_serve_refuses_a_busy_port_or_a_bad_database_in_one_line(tmp_path: Path) -> None:
    import socket

    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        r = cherki("serve", "--port", str(port), "--database-url", f"sqlite:///{tmp_path}/a.db")
    assert r.returncode == 2 and f"port {port} is in use" in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = cherki("serve", "--port", "1", "--database-url", "nosuch://nowhere")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    r = cherki("serve", "--port", "0")
    assert r.returncode == 2 and "--port" in r.stderr


def printed_command(out: str, after: str) -> list[str]:
    """The command a line of the output ends with, after ``after``, as the shell splits it."""
    import shlex

    line = next(x for x in out.splitlines() if after in x)
    return shlex.split(line.split(after, 1)[1])


def test_the_commands_it_prints_run_as_printed(tmp_path: Path) -> None:
    """The "continue it with …" and "replay it with …" commands run as printed, a path with a
    space included (issue 24): here the interpreter's ``-m cherki``, as it was started."""
    rec = tmp_path / "my game.json"
    run = cherki("play", "ceki", "--seed", "3", "--record", str(rec), stdin="quit\n")
    assert run.returncode == 0, run.stderr
    resume = printed_command(run.stdout, "continue it with ")
    assert resume == [sys.executable, "-m", "cherki", "play", "--resume", str(rec)]
    again = subprocess.run(
        resume, input="quit\n", capture_output=True, text=True, timeout=120, env=ENV
    )
    assert again.returncode == 0, again.stderr
    assert "resumed after 0 actions" in again.stdout
    done = cherki("play", "ceki", "--watch", "--seed", "2", "--delay", "0", "--record", str(rec))
    replay = printed_command(done.stdout, "replay it with ")
    assert replay[-2:] == ["replay", str(rec)]
    shown = subprocess.run(
        [*replay, "--json"], capture_output=True, text=True, timeout=120, env=ENV
    )
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["unfinished"] is False


def test_after_uv_run_the_printed_commands_say_uv_run(tmp_path: Path) -> None:
    """Started by ``uv run`` in the project (the README's setup, where ``cherki`` is not on
    the shell's PATH), it prints ``uv run cherki …``, and that runs as printed."""
    import shutil

    uv = os.environ.get("UV") or shutil.which("uv")
    assert uv, "the tests run with uv (scripts/test.sh)"
    root = Path(__file__).resolve().parents[1]
    env = {**ENV, "UV": uv, "PATH": f"{Path(uv).parent}:/usr/bin:/bin"}
    for name in ("UV_PROJECT_ENVIRONMENT", "UV_CACHE_DIR", "HOME"):
        if name in os.environ:
            env[name] = os.environ[name]
    rec = tmp_path / "game.json"
    run = subprocess.run(
        [sys.executable, "-m", "cherki", "play", "cholek-tiga", "--seed", "3",
         "--record", str(rec)],
        input="quit\n", capture_output=True, text=True, timeout=120, env=env, cwd=root,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    resume = printed_command(run.stdout, "continue it with ")
    assert resume == ["uv", "run", "cherki", "play", "--resume", str(rec)]
    again = subprocess.run(
        resume, input="quit\n", capture_output=True, text=True, timeout=300, env=env, cwd=root
    )
    assert again.returncode == 0, again.stderr
    assert "resumed after 0 actions" in again.stdout


def test_flags_show_no_value_in_the_help() -> None:
    """``--version``, ``--watch`` and ``--help`` take no value, and the help says none."""
    for args in (["--help"], ["play", "--help"], ["serve", "--help"]):
        run = cherki(*args)
        assert run.returncode == 0, run.stderr
        assert "<bool>" not in run.stdout, args
    top = cherki("--help").stdout
    assert "--version" in top and "<int>" in cherki("play", "--help").stdout


def test_ray_without_the_extra_says_how_to_run_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from cherki.core.errors import RulesError
    from cherki.ui import cli_sim

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real(name, *a)
    )
    monkeypatch.setattr(sys, "argv", ["cherki", "simulate", "ceki", "--ray", "local"])
    monkeypatch.setenv("UV", "uv")  # started by `uv run` in this environment
    monkeypatch.setenv("UV_PROJECT_ENVIRONMENT", sys.prefix)
    with pytest.raises(RulesError) as err:
        cli_sim._runner(1, "local")
    assert "uv run --extra ray cherki simulate ceki --ray local" in str(err.value)
    monkeypatch.delenv("UV")
    with pytest.raises(RulesError) as err:
        cli_sim._runner(1, "local")
    assert "pip install 'cherki[ray]'" in str(err.value)


def test_an_installed_cherki_on_the_path_is_printed_as_cherki(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An activated environment or ``pip install cherki``: the script on the PATH is this
    environment's, so ``cherki …`` runs; quoting keeps a path with spaces one argument."""
    import shutil
    import sysconfig

    from cherki.ui.command import cherki_command

    monkeypatch.delenv("UV", raising=False)
    here = str(Path(sysconfig.get_path("scripts")) / "cherki")
    monkeypatch.setattr(shutil, "which", lambda name: here if name == "cherki" else None)
    assert cherki_command("replay", "a b.json") == "cherki replay 'a b.json'"
    monkeypatch.setattr(shutil, "which", lambda name: "/elsewhere/bin/cherki")
    assert cherki_command("games") == f"{sys.executable} -m cherki games"


def test_replay_gives_the_match_result(tmp_path: Path) -> None:
    """[003] Ceki to an agreed total: "the winner will be the player who reaches this
    total"; over a number of hands "the winner is he who in the end has totalized the
    highest score". The replay says who won, in JSON and in words."""
    rec = tmp_path / "ceki.json"
    args = ("play", "ceki", "--watch", "--seed", "4", "--delay", "0", "--record", str(rec))
    run = cherki(*args, "--target", "15")
    assert run.returncode == 0, run.stderr
    out = json.loads(cherki("replay", str(rec), "--json").stdout)
    res = out["match_result"]
    assert res["rule"] == "target" and res["target"] == 15 and res["over"] is True
    scores = res["scores"]
    assert res["winners"] == [s for s, v in enumerate(scores) if v == max(scores)]
    assert max(scores) >= 15 and sorted(scores)[-2] < 15
    assert res["scored_hands"] == out["match"]["scored_hands"] == len(out["hands"])
    shown = cherki("replay", str(rec), "--all").stdout
    name = json.loads(rec.read_text())["players"][res["winners"][0]]
    assert f"Match (to 15 points) over after {res['scored_hands']} hand(s): {name} wins" in (
        " ".join(shown.split())
    )
    three = tmp_path / "three.json"
    assert cherki(*args[:-1], str(three), "--hands", "3").returncode == 0
    res = json.loads(cherki("replay", str(three), "--json").stdout)["match_result"]
    assert res["rule"] == "hands" and res["hands"] == 3 and res["over"] is True
    assert res["winners"] == [s for s, v in enumerate(res["scores"]) if v == max(res["scores"])]


def test_replay_of_an_unfinished_hand_shows_only_the_recording_seat(tmp_path: Path) -> None:
    rec = tmp_path / "part.json"
    run = cherki("play", "balik-satu", "--seed", "7", "--record", str(rec), stdin="M4\nquit\n")
    assert run.returncode == 0, run.stderr
    shown = cherki("replay", str(rec), "--all")
    assert shown.returncode == 0, shown.stderr
    assert "shown as You (seat 0) saw it" in shown.stdout
    assert "You:" in shown.stdout and "Bot 1 (heuristic):" not in shown.stdout
    revealed = cherki("replay", str(rec), "--all", "--reveal").stdout
    assert "You:" in revealed and "Bot 1 (heuristic):" in revealed
    # --seat of another seat does not show that seat's hand either (only with --reveal)
    other = cherki("replay", str(rec), "--all", "--seat", "1")
    assert other.returncode == 0, other.stderr
    assert "shown as You (seat 0) saw it" in other.stdout
    assert "Bot 1 (heuristic):" not in other.stdout
    mine = cherki("replay", str(rec), "--all", "--seat", "0").stdout
    assert "You:" in mine and "This hand is unfinished" not in mine

    def dealt(out: str) -> str:  # the hand shown (the viewer is "You")
        return out[out.index("You:") :].split("You ")[0]

    assert dealt(other.stdout) == dealt(mine)  # seat 0's cards, not seat 1's
    theirs = cherki("replay", str(rec), "--all", "--seat", "1", "--reveal").stdout
    assert dealt(theirs) != dealt(mine)  # with --reveal, seat 1's own


def test_replay_refuses_a_seat_the_record_does_not_have(tmp_path: Path) -> None:
    rec = tmp_path / "game.json"
    assert cherki("play", "ceki", "--watch", "--seed", "2", "--record", str(rec)).returncode == 0
    run = cherki("replay", str(rec), "--seat", "9", "--all")
    assert run.returncode != 0
    assert "--seat must be a seat of this record, from 0 to 3, not 9" in run.stderr
    assert "Traceback" not in run.stderr
