"""Simulation figures for people: tables (terminal, Markdown, HTML) and plots.

One variant or several side by side (``cherki simulate``, ``cherki compare``): each figure
with its 95% interval, and for several variants the differences from the first, measured
on the same deals.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from cherki.play.arena import IntervalJSON
from cherki.play.figures import (
    DetailFigure,
    Differences,
    ExactJSON,
    ItemFigure,
    MatchFigures,
    Statistics,
)
from cherki.play.simulate import HandSummary, Setup

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

Row = list[str]


@dataclass(frozen=True)
class Section:
    title: str
    header: Row
    rows: list[Row]
    #: shown in the terminal too (the rules and the terms go only to the report files)
    terminal: bool = True


#: the units of the numbers a cell shows (``NAME.figures.csv``'s ``unit`` column)
OF_HANDS = "share (0 to 1) of hands"
OF_WINS = "share (0 to 1) of wins"
POINTS = "points"
CENTS = "cents"


@dataclass(frozen=True)
class Number:
    """One number a report's cell shows, unrounded, with its unit: a figure and, where it
    has them, its 95% bounds (``low``, ``high``)."""

    value: float
    unit: str
    low: float | None = None
    high: float | None = None


class Cell(str):
    """A report's cell: the text shown, and the numbers it shows, unrounded and in the order
    shown (``numbers``), from the figures themselves: ``NAME.figures.csv`` writes them, so a
    spreadsheet never reads a rounded text back."""

    numbers: tuple[Number, ...]

    def __new__(cls, text: str, numbers: Sequence[Number] = ()) -> Cell:
        self = super().__new__(cls, text)
        self.numbers = tuple(numbers)
        return self


def joined(*parts: str) -> Cell:
    """The parts' texts one after the other, with the numbers of those that are cells."""
    return Cell("".join(parts), [x for p in parts if isinstance(p, Cell) for x in p.numbers])


def interval(iv: IntervalJSON, unit: str) -> Number:
    return Number(float(iv["mean"]), unit, float(iv["low"]), float(iv["high"]))


def pct(iv: IntervalJSON, unit: str = OF_HANDS) -> Cell:
    return Cell(f"{iv['mean']:.1%} [{iv['low']:.1%}, {iv['high']:.1%}]", [interval(iv, unit)])


def num(iv: IntervalJSON, digits: int = 2, unit: str = POINTS) -> Cell:
    return Cell(
        f"{iv['mean']:.{digits}f} [{iv['low']:.{digits}f}, {iv['high']:.{digits}f}]",
        [interval(iv, unit)],
    )


def signed(iv: IntervalJSON, percent: bool = False, unit: str = "") -> Cell:
    if percent:
        text = f"{iv['mean']:+.1%} [{iv['low']:+.1%}, {iv['high']:+.1%}]"
    else:
        text = f"{iv['mean']:+.2f} [{iv['low']:+.2f}, {iv['high']:+.2f}]"
    return Cell(text, [interval(iv, unit or (OF_HANDS if percent else POINTS))])


def single(value: float, text: str, unit: str) -> Cell:
    """A number shown without an interval (a median, a count, a rule's value)."""
    return Cell(text, [Number(float(value), unit)])


_MISSING = "—"


def _match_figure(m: MatchFigures, key: str) -> str:
    """One of a game's match figures (a count, a mean, a share) as the report writes it."""
    for f in m["figures"]:
        if f["key"] == key:
            value = f["value"]
            if isinstance(value, int):
                return single(value, str(value), "count")
            if f["kind"] == "share":
                return pct(value, "share (0 to 1)")
            return num(value, 1, "mean (of what the row names)")
    return _MISSING


def _item(fig: ItemFigure | None) -> str:
    """An item's cell: the share of wins with it, its mean points, its mean cents."""
    if fig is None:
        return _MISSING
    parts: list[str] = [pct(fig["in_wins"], OF_WINS), " of wins"]
    if "mean_cents" not in fig or fig["mean_points"]["high"] or fig["mean_points"]["low"]:
        parts += ["; ", num(fig["mean_points"], unit="points a win"), " points"]
    if "mean_cents" in fig:
        parts += ["; ", num(fig["mean_cents"], unit="cents a win"), " cents"]
    return joined(*parts)


def _payment(stats: Statistics, p: int) -> str:
    text = signed(stats["payment_by_position"][p], unit="points a hand")
    money = stats.get("money_by_position")
    if money and any(m["mean"] or m["low"] or m["high"] for m in money):
        return joined(text, " points; ", signed(money[p], unit="cents a hand"), " cents")
    return text


def _pot(stats: Statistics) -> str:
    if "left_in_pot" not in stats:
        return single(0, "0", "points a hand")
    text = signed(stats["left_in_pot"], unit="points a hand")
    if "left_in_pot_cents" in stats:
        cents = signed(stats["left_in_pot_cents"], unit="cents a hand")
        return joined(text, " points; ", cents, " cents")
    return text


def _detail(fig: DetailFigure | None) -> str:
    if fig is None:
        return _MISSING
    if fig["flag"]:
        return joined(pct(fig["in_wins"], OF_WINS), " of wins")
    mean = num(fig["mean_where_present"], unit="the detail's mean in the wins with it")
    return joined("in ", pct(fig["in_wins"], OF_WINS), " of wins; mean there ", mean)


def _no_winner_rows(stats: Sequence[Statistics]) -> list[Row]:
    """Where some hands have no winner (a tie, a stock-out, a void): their share, and
    where they count, beside the figures."""
    from cherki.play.arena import wilson

    if all(s["won"]["mean"] >= 1.0 for s in stats):
        return []
    cells = []
    for s in stats:
        n = s["hands"]
        none = n - round(s["won"]["mean"] * n)
        cells.append(pct(wilson(none, n).to_json()))
    return [
        [
            "no winner (ties and the like): in the payments and the money, not in the wins, "
            "the winning score or the seats' share of wins",
            *cells,
        ]
    ]


#: the figures given by the game's own names (endings, items, calls, events, details)
Named = Literal[
    "ends", "items", "calls_per_hand", "wins_by_call", "events_per_hand", "detail_in_wins"
]
#: those of them that are intervals
NamedIntervals = Literal["calls_per_hand", "wins_by_call", "events_per_hand"]


def _score(s: Statistics, key: Literal["median", "p90", "max"]) -> Cell:
    value = s["winning_score"][key]
    return single(value, f"{value:g}", POINTS)


def _equal(seats: int) -> Cell:
    return single(1 / seats, f"{1 / seats:.1%}", OF_WINS)


def _keys(stats: Sequence[Statistics], name: Named) -> list[str]:
    return sorted({k for s in stats for k in s[name]})


def sections(
    labels: Sequence[str],
    stats: Sequence[Statistics],
    diffs: Sequence[Differences] = (),
    matches: Sequence[MatchFigures | None] = (),
    *,
    same: bool = True,
) -> list[Section]:
    """The figures of one or more variants as titled tables (one column a variant).
    ``same``: the variants were dealt the same cards (else the differences say they were
    measured on the same seeds, not the same deals)."""
    head = ["", *labels]

    def row(name: str, cells: Sequence[str]) -> Row:
        return [name, *cells]

    def keyed(
        name: NamedIntervals, fmt: Callable[[IntervalJSON], Cell], missing: str, prefix: str = ""
    ) -> list[Row]:
        """One row for each key of the figure ``name`` in any variant."""
        return [
            row(
                prefix + k,
                [fmt(s[name][k]) if k in s[name] else missing for s in stats],
            )
            for k in _keys(stats, name)
        ]

    out = [
        Section(
            "How hands end (share of hands)",
            head,
            [
                row(how, [pct(s["ends"][how]) if how in s["ends"] else _MISSING for s in stats])
                for how in _keys(stats, "ends")
            ]
            + [row("won by someone", [pct(s["won"]) for s in stats])]
            + _no_winner_rows(stats),
        ),
        Section(
            "A winning score (points)",
            head,
            [
                row("mean", [num(s["winning_score"]) for s in stats]),
                row("median", [_score(s, "median") for s in stats]),
                row("90th percentile", [_score(s, "p90") for s in stats]),
                row("highest", [_score(s, "max") for s in stats]),
            ],
        ),
        Section(
            "What a win scores: the winner's own items (share of wins with the item; mean "
            "points it adds a win, a factor counted as what it adds; money items in cents)",
            head,
            [row(k, [_item(s["items"].get(k)) for s in stats]) for k in _keys(stats, "items")],
        ),
        Section(
            "How long a hand lasts",
            head,
            [
                row("actions", [num(s["actions"], 1, "actions a hand") for s in stats]),
                row("turns", [num(s["turns"], 1, "turns a hand") for s in stats]),
            ],
        ),
        Section(
            "Who wins, by seat position (0: the starter; share of wins)",
            head,
            [
                row(
                    str(p),
                    [
                        pct(s["winner_position"][p], OF_WINS)
                        if p < len(s["winner_position"])
                        else _MISSING
                        for s in stats
                    ],
                )
                for p in range(max(len(s["winner_position"]) for s in stats))
            ]
            + [row("an equal share", [_equal(len(s["winner_position"])) for s in stats])],
        ),
        Section(
            "Calls made per hand, and the call the winner stood on (share of wins)",
            head,
            keyed(
                "calls_per_hand",
                lambda iv: num(iv, unit="calls a hand"),
                single(0, "0", "calls a hand"),
                "calls: ",
            )
            + keyed("wins_by_call", lambda iv: pct(iv, OF_WINS), _MISSING, "won on: "),
        ),
        Section(
            "Expected payment per hand, by seat position (points; money in cents; every hand, "
            "those without a winner too)",
            head,
            [
                row(
                    str(p),
                    [
                        _payment(s, p) if p < len(s["payment_by_position"]) else _MISSING
                        for s in stats
                    ],
                )
                for p in range(max(len(s["payment_by_position"]) for s in stats))
            ]
            + (
                [
                    row(
                        "left in the pot (stakes not taken; carried to the next hand in a match)",
                        [_pot(s) for s in stats],
                    )
                ]
                if any("left_in_pot" in s for s in stats)
                else []
            ),
        ),
        Section(
            "Events per hand",
            head,
            keyed(
                "events_per_hand",
                lambda iv: num(iv, unit="events a hand"),
                single(0, "0", "events a hand"),
            ),
        ),
        Section(
            "The result's details in winning hands (a yes/no detail: the share of wins with "
            "it; a count: the share of wins with it, and its mean in those wins)",
            head,
            [
                row(k, [_detail(s["detail_in_wins"].get(k)) for s in stats])
                for k in _keys(stats, "detail_in_wins")
            ],
        ),
    ]
    if matches and all(m is not None for m in matches):
        ms = [m for m in matches if m is not None]
        players = min(len(m["money_per_match_by_seat"]) for m in ms)
        keys = list(dict.fromkeys(f["key"] for m in ms for f in m["figures"]))
        out.append(
            Section(
                ms[0]["title"],
                head,
                [
                    row(
                        next(f["label"] for m in ms for f in m["figures"] if f["key"] == key),
                        [_match_figure(m, key) for m in ms],
                    )
                    for key in keys
                ]
                + [
                    row(
                        "matches completed",
                        [single(m["matches"], str(m["matches"]), "matches") for m in ms],
                    ),
                ]
                + [
                    row(
                        f"seat {s}: money a match (cents)",
                        [signed(m["money_per_match_by_seat"][s], unit="cents a match") for m in ms],
                    )
                    for s in range(players)
                ],
            )
        )
    if diffs:
        names: dict[Measure, tuple[str, bool, str]] = {
            "won": ("won by someone", True, "difference in share (0 to 1) of hands"),
            "winning_score": ("winning score (0 if none)", False, "difference in points"),
            "actions": ("actions", False, "difference in actions a hand"),
            "starter_payment": ("the starter's payment", False, "difference in points a hand"),
        }
        dhead = ["difference from " + labels[0], *labels[1:]]
        drows = [
            [label, *[signed(d[key], percent, unit) for d in diffs]]
            for key, (label, percent, unit) in names.items()
        ]
        hows = sorted({h for d in diffs for h in d["ends"]})
        drows += [
            [
                f"ends: {h}",
                *[
                    signed(d["ends"][h], True, "difference in share (0 to 1) of hands")
                    if h in d["ends"]
                    else _MISSING
                    for d in diffs
                ],
            ]
            for h in hows
        ]
        where = "on the same deals" if same else "on the same seeds; the deals differ"
        out.insert(0, Section(f"Differences, hand by hand {where} (95% intervals)", dhead, drows))
    return out


#: the measures two variants are compared on, hand by hand
Measure = Literal["won", "winning_score", "actions", "starter_payment"]


def exact_section(labels: Sequence[str], exact: Sequence[Sequence[ExactJSON]]) -> Section:
    """Figures known exactly (:func:`cherki.play.simulate.exact_figures`), each beside the
    simulated one, and whether the exact value lies in the simulated 95% interval."""
    rows: list[Row] = []
    names = sorted({f["figure"] for ex in exact for f in ex})
    for name in names:
        for label, ex in zip(labels, exact, strict=True):
            for f in ex:
                if f["figure"] != name:
                    continue
                sim = f["simulated"]
                unit = OF_HANDS if f["share"] else "mean (of what the row names)"
                shown: Cell
                if f["share"] and f["exact"] < 0.01:  # a rare event: more digits
                    shown = Cell(
                        f"{sim['mean']:.4%} [{sim['low']:.4%}, {sim['high']:.4%}]",
                        [interval(sim, unit)],
                    )
                else:
                    shown = pct(sim) if f["share"] else num(sim, 3, unit)
                inside = "yes" if sim["low"] <= f["exact"] <= sim["high"] else "no"
                known = single(f["exact"], f["exact_text"], unit)
                rows.append([name, label, known, shown, inside])
    return Section(
        EXACT_TITLE,
        ["figure", "variant", "exact", "simulated (95% interval)", "exact in the interval"],
        rows,
    )


def rules_section(labels: Sequence[str], setups: Sequence[Setup]) -> Section:
    """Every rule value each variant played, what it means and its source: the preset's
    value, or one given on the command line (marked)."""
    game, _ = setups[0].table()
    tables = [s.table()[1] for s in setups]
    rows: list[Row] = []
    for opt in game.options:
        values = []
        for s, rules in zip(setups, tables, strict=True):
            value = _value(getattr(rules, opt.name))
            values.append(joined(value, " (given)" if opt.name in s.options else ""))
        what = opt.help + (" (a house rule, not in the sources)" if opt.house else "")
        rows.append([opt.name, *values, f"{what}; source {opt.source}"])
    presets = [game.find_preset(s.preset) for s in setups]
    rows.insert(0, ["preset", *[p.name for p in presets], "; ".join(
        f"{p.name}: {p.description} ({p.sources})" for p in dict.fromkeys(presets)
    )])  # fmt: skip
    seats = [single(s.players, str(s.players), "players") for s in setups]
    rows.insert(1, ["players", *seats, "seats at the table"])
    return Section(
        RULES_TITLE,
        ["rule", *labels, "what it is; source"],
        rows,
        terminal=False,
    )


def _value(value: object) -> str:
    if value is None:
        return "auto"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):  # a number, shown exactly as the rules hold it
        return single(value, str(value), "rule value")
    return str(value) if value != "" else "(none)"


def glossary(game_title: str = "") -> dict[str, str]:
    """The glossary's entries (docs/glossary.md), by each lower-case name of the term. A
    term with several entries (ayam in Balik Satu and in Cholek Tiga) takes the entry under
    ``game_title``'s heading where there is one, else all of them, one after the other."""
    import re

    from cherki.ui.cli_common import docs_dir

    path = docs_dir() / "glossary.md"
    if not path.exists():
        return {}
    entries: dict[str, list[str]] = {}
    mine: dict[str, str] = {}
    current: list[str] = []
    heading = ""
    word = game_title.split(":")[0].lower() if game_title else "\x00"
    entry = re.compile(r"- \*\*(.+?)\*\*\s*(\([^)]*\))?\s*:\s*(.*)")

    def close() -> None:
        if not current:
            return
        m = entry.match(" ".join(current))
        current.clear()
        if not m:
            return
        names, qualifier, rest = m.group(1), m.group(2) or "", m.group(3)
        meaning = f"{names}{' ' + qualifier if qualifier else ''}: {rest}".replace("*", "")
        for part in re.split(r"[,/]", names.lower()):
            key = part.strip().strip("`*")
            if key:
                entries.setdefault(key, []).append(meaning)
                if word in heading:
                    mine.setdefault(key, meaning)
        return

    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            close()
            heading = line.lower()
        elif line.startswith("- **"):
            close()
            current.append(line.strip())
        elif current and line.startswith("  ") and line.strip():
            current.append(line.strip())
        else:
            close()
    close()
    return {**{k: " — ".join(v) for k, v in entries.items()}, **mine}


#: the titles of the sections of exact figures and of the rules (their columns differ)
EXACT_TITLE = "Exact figures beside the simulated ones"
RULES_TITLE = "The rules in force (value for each variant; what it is; its source)"

#: the title of the report's bibliography (its rows are not figures: left out of the CSV)
SOURCES_TITLE = "Sources: what [000]-[003] are, and the passages the rules cite"


def sources_section(parts: Sequence[Section]) -> Section:
    """The report's bibliography: every source its rows cite ([000]…: title, author,
    year, where to find it), then every identifier they cite (``[000] R-PAY``) with the
    section of the source it refers to and what it says there."""
    from cherki.ui.bibliography import SOURCES, cited, explain

    texts = [cell for sec in parts for r in sec.rows for cell in r]
    keys, ids = cited(texts)
    rows: list[Row] = []
    for s in SOURCES:
        if s.key in keys:
            rows.append([f"[{s.key}]", f"{s.title}. Author: {s.author}. Date: {s.year}. "
                         f"Where: {s.where}."])  # fmt: skip
    for key, ident in ids:
        rows.append([f"[{key}] {ident}", explain(key, ident)])
    rows.append(["ours", "our specification: a choice of cherki's where the sources are silent "
                 "or differ, documented in docs/rules/ (not a source's rule)"])  # fmt: skip
    return Section(SOURCES_TITLE, ["source", "what it is"], rows, terminal=False)


def glossary_section(parts: Sequence[Section], game_title: str = "") -> Section:
    """The game's words used in the report's rows, explained from the glossary."""
    entries = glossary(game_title)
    seen: dict[str, str] = {}
    names = [[h] for sec in parts[:1] for h in sec.header[1:]]
    for sec in parts:
        for r in [*sec.rows, *names]:
            names = []
            words = r[0].replace("ends: ", "").replace("won on: ", "").replace("calls: ", "")
            words = words.removeprefix("in-play-")
            for w in {words, *words.replace("-", " ").replace("_", " ").split()}:
                key = w.replace("-", " ").replace("_", " ").strip().lower()
                if key in entries and key not in seen:
                    seen[key] = entries[key]
    return Section(
        "The game's terms (from the glossary)",
        ["term", "meaning"],
        [[k, v] for k, v in sorted(seen.items())],
        terminal=False,
    )


def figures_rows(parts: Sequence[Section]) -> list[list[str]]:
    """Every figure of the report as rows for a spreadsheet: ``section, figure, variant,
    text, part, value, low, high, unit``. A cell's numbers come from the figures themselves,
    unrounded (:class:`Cell`), one row each (``part`` 1, 2…: their order in the text, which
    shows them rounded); a cell without a number (a word, "—") is one row with ``part``
    and the numbers empty. The exact figures' rows name the variant in their own column and
    the column in ``figure``; the rules' rows leave out their description column."""
    out: list[list[str]] = []

    def cells(sec: Section, r: Row) -> list[tuple[str, str, str]]:
        """(figure, variant, cell) for each cell of a row that shows something of a variant."""
        if sec.title == EXACT_TITLE:  # figure, variant, exact, simulated, inside
            return [(f"{r[0]}: {h}", r[1], c) for h, c in zip(sec.header[2:], r[2:], strict=True)]
        heads = sec.header[1:-1] if sec.title == RULES_TITLE else sec.header[1:]
        return [(r[0], h, c) for h, c in zip(heads, r[1:], strict=False)]

    for sec in parts:
        if sec.title.startswith("The game's terms") or sec.title == SOURCES_TITLE:
            continue
        for r in sec.rows:
            for figure, variant, cell in cells(sec, r):
                numbers = cell.numbers if isinstance(cell, Cell) else ()
                if not numbers:
                    out.append([sec.title, figure, variant, cell, "", "", "", "", ""])
                for i, x in enumerate(numbers, 1):
                    low = "" if x.low is None else repr(x.low)
                    high = "" if x.high is None else repr(x.high)
                    out.append(
                        [sec.title, figure, variant, str(cell), str(i), repr(x.value), low,
                         high, x.unit]
                    )  # fmt: skip
    return out


def _unit(path: str) -> str:
    """The unit of a figure of the run's JSON, from its path (``items.turned.mean_points``)."""
    parts = path.split(".")
    last = parts[-1]
    if parts[0] in ("ends", "won", "winner_position", "wins_by_call") or last == "in_wins":
        return "share (0 to 1)" + (" of wins" if parts[0] != "ends" and parts[0] != "won"
                                   else " of hands")  # fmt: skip
    if "cents" in last or parts[0] in ("money_by_position", "left_in_pot_cents"):
        return "cents"
    if parts[0] in ("actions", "turns"):
        return f"{parts[0]} a hand"
    if parts[0] in ("calls_per_hand", "events_per_hand"):
        return "a hand"
    if parts[0] == "hands":
        return "hands"
    return "points"


def stats_rows(labels: Sequence[str], stats: Sequence[Statistics]) -> list[list[str]]:
    """Every number of each variant's figures, unrounded (``repr``), with its unit: one row
    a figure, ``variant, figure, unit, mean, low, high`` (a figure with no interval, a
    median or a count, has its value as ``mean`` and no bounds). The report's cells show
    these rounded; this is the table to recompute them from."""
    out: list[list[str]] = []

    def walk(label: str, path: str, value: object) -> None:
        if isinstance(value, dict) and {"mean", "low", "high"} <= set(value):
            out.append([label, path, _unit(path), repr(float(value["mean"])),
                        repr(float(value["low"])), repr(float(value["high"]))])  # fmt: skip
            for key, extra in value.items():
                if key not in ("mean", "low", "high"):
                    walk(label, f"{path}.{key}", extra)
        elif isinstance(value, dict):
            for key, sub in value.items():
                walk(label, f"{path}.{key}" if path else str(key), sub)
        elif isinstance(value, list):
            for i, sub in enumerate(value):
                walk(label, f"{path}.{i}", sub)
        elif isinstance(value, bool):
            out.append([label, path, "yes/no", str(value).lower(), "", ""])
        elif isinstance(value, int | float):
            out.append([label, path, _unit(path), repr(value), "", ""])

    for label, s in zip(labels, stats, strict=True):
        walk(label, "", s)
    return out


def markdown(title: str, intro: Sequence[str], parts: Sequence[Section], image: str | None) -> str:
    lines = [f"# {title}", ""]
    for line in intro:
        lines += [line, ""]
    if image:
        lines += [f"![The figures as plots]({image})", ""]
    for sec in parts:
        if not sec.rows:
            continue
        lines += [f"## {sec.title}", ""]
        lines.append("| " + " | ".join(sec.header) + " |")
        align = "---:" if sec.terminal else "---"
        lines.append("|" + "|".join(["---"] + [align] * (len(sec.header) - 1)) + "|")
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in sec.rows]
        lines.append("")
    return "\n".join(lines)


def html_page(title: str, intro: Sequence[str], parts: Sequence[Section], png: bytes | None) -> str:
    esc = html.escape
    body = [f"<h1>{esc(title)}</h1>", *[f"<p>{esc(p)}</p>" for p in intro]]
    if png:
        data = base64.b64encode(png).decode("ascii")
        body.append(f'<img alt="The figures as plots" src="data:image/png;base64,{data}">')
    for sec in parts:
        if not sec.rows:
            continue
        kind = "" if sec.terminal else ' class="text"'
        body.append(f"<h2>{esc(sec.title)}</h2><table{kind}>")
        body.append("<tr>" + "".join(f"<th>{esc(h)}</th>" for h in sec.header) + "</tr>")
        for r in sec.rows:
            body.append("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>")
        body.append("</table>")
    style = (
        "body{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem}"
        "table{border-collapse:collapse;margin-bottom:1.5rem}"
        "td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:right}"
        "td:first-child,th:first-child{text-align:left}img{max-width:100%}"
        "table.text td,table.text th{text-align:left}"
    )
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{esc(title)}'
        f"</title><style>{style}</style></head><body>{''.join(body)}</body></html>\n"
    )


def shared_edges(
    values: Sequence[Sequence[float]], most: int = 40
) -> tuple[NDArray[np.float64], float]:
    """Bin edges every variant shares (so bars compare), and the bins' width, following the
    values' lattice: where every value is ``low + g·i`` (hand lengths that are always odd:
    g = 2), each bin is centred on lattice points and holds the same number of them, one a
    bin where the range allows, else as few as keep at most ``most`` bins (no bin with
    one possible value beside one with two: no sawtooth)."""
    import math

    import numpy as np

    every = sorted({int(x) for xs in values for x in xs})
    low, high = (every[0], every[-1]) if every else (0, 1)
    step = 0
    for x in every:
        step = math.gcd(step, x - low)
    step = max(1, step)
    points = (high - low) // step + 1
    width = step * max(1, -(-points // most))
    edges = np.arange(low, high + width + 1, width, dtype=np.float64) - step / 2
    return edges, float(width)


def plot(
    path: str | Path,
    labels: Sequence[str],
    stats: Sequence[Statistics],
    runs: Sequence[Sequence[HandSummary]],
    title: str,
) -> None:
    """Four panels: how hands end, the winning score, hand length, and wins by seat
    position; one colour a variant, 95% intervals as error bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    fig, axes = plt.subplots(2, 2, figsize=(12, 8.5))
    k = len(labels)
    width = 0.8 / k
    hows = _keys(stats, "ends")
    ax = axes[0][0]
    x = np.arange(len(hows))
    for i, (label, s) in enumerate(zip(labels, stats, strict=True)):
        ivs = [s["ends"].get(h, {"mean": 0.0, "low": 0.0, "high": 0.0}) for h in hows]
        means = np.array([v["mean"] for v in ivs])
        err = np.array([[m - v["low"] for m, v in zip(means, ivs, strict=True)],
                        [v["high"] - m for m, v in zip(means, ivs, strict=True)]])  # fmt: skip
        err = np.maximum(err, 0.0)  # Wilson's bounds at 0 or 1 may round past the share
        ax.bar(x + i * width - 0.4 + width / 2, means, width, yerr=err, capsize=3, label=label)
    ax.set_xticks(x, hows, rotation=20, ha="right")
    ax.set_ylabel("share of hands")
    ax.set_title("How hands end")
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    dashes = ["-", "--", ":", "-."]  # equal variants' lines stay apart to the eye
    for ax, values, xlabel, what, name in (
        (axes[0][1], [[h.score for h in r if h.winner is not None] for r in runs],
         "points", "wins", "A winning score"),
        (axes[1][0], [[h.actions for h in r] for r in runs],
         "actions in the hand", "hands", "How long a hand lasts"),
    ):  # fmt: skip
        seen = {x for xs in values for x in xs}
        if len(seen) == 1:  # one value only: a sentence, not a panel of one bar
            ax.set_axis_off()
            ax.set_title(name)
            ax.text(0.5, 0.5, f"Every one of the {what}: {seen.pop():g} {xlabel}.",
                    ha="center", va="center", wrap=True, transform=ax.transAxes)  # fmt: skip
            continue
        edges, unit = shared_edges(values)
        for i, (label, xs) in enumerate(zip(labels, values, strict=True)):
            if xs:
                ax.hist(xs, bins=edges, weights=np.full(len(xs), 1 / len(xs)), histtype="step",
                        linewidth=1.6, label=label, linestyle=dashes[i % 4])  # fmt: skip
        ax.set_xlabel(xlabel)
        ax.set_ylabel(f"share of {what} (bins {unit:g} wide)")
        ax.set_title(name)
        ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    ax = axes[1][1]
    seats = max(len(s["winner_position"]) for s in stats)
    x = np.arange(seats)
    for i, (label, s) in enumerate(zip(labels, stats, strict=True)):
        ivs = s["winner_position"]
        here = x[: len(ivs)]
        means = np.array([v["mean"] for v in ivs])
        err = np.array([[m - v["low"] for m, v in zip(means, ivs, strict=True)],
                        [v["high"] - m for m, v in zip(means, ivs, strict=True)]])  # fmt: skip
        err = np.maximum(err, 0.0)  # Wilson's bounds at 0 or 1 may round past the share
        if len({len(t["winner_position"]) for t in stats}) > 1:
            # tables of several sizes: one line a table, each with its equal share
            line = ax.errorbar(here + (i - (k - 1) / 2) * 0.06, means, yerr=err, capsize=2,
                               marker="o", markersize=3, linewidth=1.2, label=label)  # fmt: skip
            colour = line.lines[0].get_color()
        else:
            bars = ax.bar(here + i * width - 0.4 + width / 2, means, width, yerr=err, capsize=3,
                          label=label)  # fmt: skip
            colour = bars.patches[0].get_facecolor()
        ax.hlines(1 / len(ivs), -0.5, len(ivs) - 0.5, colors=colour, linewidth=0.9,
                  linestyles="--")  # fmt: skip
    ax.set_xticks(x, [str(p) if p else "0\nstarter" for p in range(seats)])
    ax.set_xlabel("seat position")
    ax.set_ylabel("share of wins")
    ax.set_title("Who wins (dashed: an equal share)")
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    for ax in axes.flat:
        if ax.axison:
            ax.set_ylim(0, ax.get_ylim()[1] * 1.18)  # room for the legend above the bars
    for ax in axes.flat:
        if k > 1:
            ax.legend(fontsize=8, loc="upper right", ncols=min(k, 3))
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(str(path), dpi=110)
    plt.close(fig)
