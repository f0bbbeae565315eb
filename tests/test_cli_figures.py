"""The command line's loose ends of issue 40, each answered in one line with exit 2 (or
done): ``--csv`` refuses a file cherki did not write, ``compare --players`` refuses
duplicates and counts the game is not played by, ``play --watch --seat`` is refused; the
outputs carry their provenance (version, commit, rules fingerprint, command, rule values)."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

from cherki.version import RULES_FINGERPRINT, __version__

ENV = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cherki", *args],
        capture_output=True, text=True, timeout=300, env=ENV, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def refused(run: subprocess.CompletedProcess[str], words: str) -> None:
    assert run.returncode == 2, (run.stdout, run.stderr)
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], run.stderr
    assert "Traceback" not in run.stderr


def test_csv_refuses_a_file_cherki_did_not_write(tmp_path: Path) -> None:
    record = tmp_path / "game.csv"
    record.write_text('{"format": "cherki-record"}\n')
    refused(
        cli("simulate", "balik-satu", "--hands", "5", "--bots", "random", "--csv", str(record)),
        "is not a CSV file cherki wrote: refusing to overwrite it",
    )
    assert record.read_text() == '{"format": "cherki-record"}\n'
    # nor its figures file beside it
    table = tmp_path / "t.csv"
    (tmp_path / "t.figures.csv").write_text("my,own,sheet\n")
    refused(
        cli("simulate", "balik-satu", "--hands", "5", "--bots", "random", "--csv", str(table)),
        "t.figures.csv exists and is not a CSV file cherki wrote",
    )
    assert not table.exists()


def test_csv_overwrites_its_own_and_carries_the_provenance(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    args = ["simulate", "gonggong", "--hands", "6", "--bots", "random", "--csv", str(table)]
    for _ in range(2):  # the second run overwrites the first's files
        run = cli(*args, "--option", "cents_per_point=3")
        assert run.returncode == 0, run.stderr
    for path in (table, tmp_path / "t.figures.csv"):
        lines = path.read_text().splitlines()
        about = [line for line in lines if line.startswith("#")]
        assert about[0].startswith(f"# cherki-csv cherki {__version__}, commit ")
        assert about[0].endswith(f"rules fingerprint {RULES_FINGERPRINT}")
        assert about[1] == "# command: cherki " + " ".join(args[:]) + " --option cents_per_point=3"
        assert '# rules: game="gonggong", preset=' in about[2] and "cents_per_point=3" in about[2]
        assert lines[: len(about)] == about  # the provenance first, then the table
    with table.open() as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    assert len(rows) == 6


def test_json_carries_the_provenance(tmp_path: Path) -> None:
    js = tmp_path / "r.json"
    run = cli("simulate", "ceki", "--hands", "4", "--bots", "random", "--json", str(js))
    assert run.returncode == 0, run.stderr
    made = json.loads(js.read_text())["provenance"]
    assert made["cherki"] == __version__ and made["rules_fingerprint"] == RULES_FINGERPRINT
    assert made["command"] == f"cherki simulate ceki --hands 4 --bots random --json {js}"
    [rules] = made["rules"]
    assert rules["game"] == "ceki" and rules["players"] == 4 and len(rules) > 5
    # and the run still resumes from its own file
    again = cli("simulate", "ceki", "--hands", "6", "--bots", "random", "--json", str(js))
    assert again.returncode == 0 and "Going on from 4 hands" in again.stdout
    cmp = tmp_path / "c.json"
    run = cli("compare", "ceki", "--players", "3,4", "--hands", "3", "--bots", "random",
              "--json", str(cmp))  # fmt: skip
    assert run.returncode == 0, run.stderr
    made = json.loads(cmp.read_text())["provenance"]
    assert [r["players"] for r in made["rules"]] == [3, 4]


def test_compare_players_refuses_duplicates_and_counts_out_of_range() -> None:
    base = ["compare", "balik-satu", "--hands", "3", "--bots", "random", "--players"]
    refused(cli(*base, "4,4"), "--players names 4 twice")
    refused(cli(*base, "10" + "0" * 30), "Balik Satu is played by 2 to")
    refused(cli(*base, "4,1"), "is played by 2 to")
    refused(cli(*base, "4"), "compare needs two variants or more")


def test_watch_with_a_seat_is_refused() -> None:
    refused(cli("play", "--watch", "--seat", "5"), "--watch seats no one")
    refused(cli("play", "ceki", "--watch", "--seat", "0"), "--watch seats no one")


def test_the_stats_csv_holds_every_figure_unrounded_with_its_unit(tmp_path: Path) -> None:
    """A CSV round trip: every number of the run's figures, unrounded, equals the JSON's, and
    the mean actions recomputed from the hands' rows is the CSV's to the last bit."""
    js, table = tmp_path / "r.json", tmp_path / "t.csv"
    run = cli("simulate", "cholek-tiga", "--hands", "25", "--bots", "random",
              "--json", str(js), "--csv", str(table))  # fmt: skip
    assert run.returncode == 0, run.stderr
    stats = json.loads(js.read_text())["stats"]
    with (tmp_path / "t.stats.csv").open() as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    by = {r["figure"]: r for r in rows}

    def at(path: str) -> object:
        value: object = stats
        for key in path.split("."):
            value = value[int(key)] if isinstance(value, list) else value[key]  # type: ignore[index]
        return value

    for r in rows:
        value = at(r["figure"])
        if isinstance(value, dict):
            assert [float(r[k]) for k in ("mean", "low", "high")] == [
                value["mean"],
                value["low"],
                value["high"],
            ]
        elif isinstance(value, bool):
            assert r["mean"] == str(value).lower()
        else:
            assert float(r["mean"]) == value
    assert by["actions"]["unit"] == "actions a hand"
    assert by["won"]["unit"] == "share (0 to 1) of hands"
    assert by["payment_by_position.0"]["unit"] == "points"
    with table.open() as f:
        hands = list(csv.DictReader(line for line in f if not line.startswith("#")))
    mean = sum(float(h["actions"]) for h in hands) / len(hands)
    assert float(by["actions"]["mean"]) == mean
