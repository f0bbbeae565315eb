"""``NAME.figures.csv`` (issue 40): every number a report's cell shows is in the CSV
unrounded, from the figures themselves, with its unit; a round trip recomputes every cell's
numbers from the CSV's and finds the text the report shows, and finds no number in a cell
that the CSV does not give."""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from cherki.play.arena import IntervalJSON
from cherki.ui.report import Cell, Number, figures_rows, joined, pct, signed, single

ENV = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
#: a number as the report writes it: a sign, thousands commas, decimals, a percent sign
TOKEN = re.compile(r"[+-]?\d[\d,]*(?:\.\d+)?%?")
RULES = "The rules in force"
HEAD = ["section", "figure", "variant", "text", "part", "value", "low", "high", "unit"]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cherki", *args],
        capture_output=True, text=True, timeout=300, env=ENV, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def shown(value: float, token: str) -> str:
    """``value`` written as ``token`` is: its sign, commas, decimals and percent sign."""
    body = token.rstrip("%")
    digits = len(body.split(".")[1]) if "." in body else 0
    sign = "+" if token.startswith("+") else ""
    comma = "," if "," in body else ""
    kind = "%" if token.endswith("%") else "f"
    return f"{value:{sign}{comma}.{digits}{kind}}"


def read(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as f:
        lines = [line for line in f if not line.startswith("#")]
    assert next(csv.reader(lines[:1])) == HEAD
    return list(csv.DictReader(lines))


def check_round_trip(rows: list[dict[str, str]]) -> int:
    """Every cell's numbers, recomputed from the CSV's unrounded values, are the text the
    cell shows, in order, and the text shows no other number. Returns the cells checked."""
    cells: dict[tuple[str, str, str, str], list[dict[str, str]]] = defaultdict(list)
    for r in rows:
        cells[(r["section"], r["figure"], r["variant"], r["text"])].append(r)
    for (section, figure, _, text), parts in cells.items():
        tokens = TOKEN.findall(text)
        if not parts[0]["part"]:  # no number: a word, "—", a rule's value given as text
            assert len(parts) == 1 and not parts[0]["value"] and not parts[0]["unit"]
            assert section.startswith(RULES) or not tokens, (figure, text)
            continue
        assert [r["part"] for r in parts] == [str(i) for i in range(1, len(parts) + 1)]
        assert all(r["unit"] for r in parts), (figure, text)
        if figure.endswith(": exact"):  # "1 in 25,700.8", "4/30 = 13.33%", "7/2 = 3.5000"
            (r,) = parts
            value, last = float(r["value"]), tokens[-1]
            assert shown(1 / value if text.startswith("1 in ") else value, last) == last, text
            continue
        expected: list[float] = []
        for r in parts:
            expected.append(float(r["value"]))
            if r["low"] or r["high"]:
                expected += [float(r["low"]), float(r["high"])]
                assert float(r["low"]) <= float(r["value"]) <= float(r["high"]), r
        assert len(tokens) == len(expected), (figure, text, expected)
        for value, token in zip(expected, tokens, strict=True):
            assert shown(value, token) == token, (figure, text, value)
    return len(cells)


def test_a_cells_numbers_come_from_the_figures_not_the_text() -> None:
    """Units travel with each number; a joined cell keeps its parts' numbers in order; a
    plain string has none."""
    iv: IntervalJSON = {"mean": 0.9209999999999999, "low": 0.5, "high": 1.0}
    a = pct(iv)
    assert a == "92.1% [50.0%, 100.0%]"
    assert a.numbers == (Number(0.9209999999999999, "share (0 to 1) of hands", 0.5, 1.0),)
    b = signed({"mean": -0.125, "low": -1.0, "high": 2.0}, unit="cents a hand")
    both = joined(a, " points; ", b, " cents")
    assert both == "92.1% [50.0%, 100.0%] points; -0.12 [-1.00, +2.00] cents"
    assert [x.value for x in both.numbers] == [0.9209999999999999, -0.125]
    assert both.numbers[1].unit == "cents a hand"
    from cherki.ui.report import Section

    sec = Section("S", ["", "v"], [["f", both], ["g", "—"], ["h", single(3, "3", "players")]])
    rows = figures_rows([sec])
    assert [r[4:] for r in rows] == [
        ["1", "0.9209999999999999", "0.5", "1.0", "share (0 to 1) of hands"],
        ["2", "-0.125", "-1.0", "2.0", "cents a hand"],
        ["", "", "", "", ""],
        ["1", "3.0", "", "", "players"],
    ]
    assert not isinstance("x", Cell)


@pytest.mark.parametrize(
    "args",
    [
        # exact figures (kandang tangan, yeo, the turned card), items, money in cents
        ("simulate", "balik-satu", "--hands", "30", "--bots", "random"),
        # two variants: the differences, the rules given, several columns
        ("compare", "ceki", "--players", "3,4", "--hands", "12", "--bots", "random"),
    ],
    ids=["simulate-balik-satu", "compare-ceki"],
)
def test_every_figure_of_the_csv_recomputes_its_cell(tmp_path: Path, args: tuple[str]) -> None:
    table, js = tmp_path / "t.csv", tmp_path / "r.json"
    run = cli(*args, "--csv", str(table), "--json", str(js))
    assert run.returncode == 0, run.stderr
    rows = read(tmp_path / "t.figures.csv")
    assert check_round_trip(rows) > 30
    # the unrounded values are the run's own figures (the JSON's), not the text read back
    data = json.loads(js.read_text())
    stats = data["stats"] if "stats" in data else data["variants"][0]["stats"]
    won = [
        r
        for r in rows
        if r["figure"] == "won by someone" and r["section"].startswith("How hands end")
    ]
    assert won and [float(won[0][k]) for k in ("value", "low", "high")] == [
        stats["won"][k] for k in ("mean", "low", "high")
    ]
    actions = [r for r in rows if r["figure"] == "actions" and r["section"].startswith("How long")]
    assert actions[0]["unit"] == "actions a hand"
    assert float(actions[0]["value"]) == stats["actions"]["mean"]
