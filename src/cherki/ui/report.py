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
from typing import Any

from cherki.play.simulate import HandSummary

Row = list[str]


@dataclass(frozen=True)
class Section:
    title: str
    header: Row
    rows: list[Row]


def pct(iv: dict[str, float]) -> str:
    return f"{iv['mean']:.1%} [{iv['low']:.1%}, {iv['high']:.1%}]"


def num(iv: dict[str, float], digits: int = 2) -> str:
    return f"{iv['mean']:.{digits}f} [{iv['low']:.{digits}f}, {iv['high']:.{digits}f}]"


def signed(iv: dict[str, float], percent: bool = False) -> str:
    if percent:
        return f"{iv['mean']:+.1%} [{iv['low']:+.1%}, {iv['high']:+.1%}]"
    return f"{iv['mean']:+.2f} [{iv['low']:+.2f}, {iv['high']:+.2f}]"


_MISSING = "—"


def _keys(stats: Sequence[dict[str, Any]], name: str) -> list[str]:
    return sorted({k for s in stats for k in s[name]})


def sections(
    labels: Sequence[str],
    stats: Sequence[dict[str, Any]],
    diffs: Sequence[dict[str, Any]] = (),
    matches: Sequence[dict[str, Any] | None] = (),
) -> list[Section]:
    """The figures of one or more variants as titled tables (one column a variant)."""
    head = ["", *labels]

    def row(name: str, cells: Sequence[str]) -> Row:
        return [name, *cells]

    def keyed(
        name: str, fmt: Callable[[dict[str, float]], str], missing: str, prefix: str = ""
    ) -> list[Row]:
        """One row for each key of the figure ``name`` in any variant."""
        return [
            row(prefix + k, [fmt(s[name][k]) if k in s[name] else missing for s in stats])
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
            + [row("won by someone", [pct(s["won"]) for s in stats])],
        ),
        Section(
            "A winning score (points)",
            head,
            [
                row("mean", [num(s["winning_score"]) for s in stats]),
                row("median", [f"{s['winning_score']['median']:g}" for s in stats]),
                row("90th percentile", [f"{s['winning_score']['p90']:g}" for s in stats]),
                row("highest", [f"{s['winning_score']['max']:g}" for s in stats]),
            ],
        ),
        Section(
            "What a win scores (share of wins with the item; mean points of the item a win)",
            head,
            [
                row(
                    k,
                    [
                        f"{pct(s['items'][k]['in_wins'])}; {num(s['items'][k]['mean_points'])}"
                        if k in s["items"]
                        else _MISSING
                        for s in stats
                    ],
                )
                for k in _keys(stats, "items")
            ],
        ),
        Section(
            "How long a hand lasts",
            head,
            [
                row("actions", [num(s["actions"], 1) for s in stats]),
                row("turns", [num(s["turns"], 1) for s in stats]),
            ],
        ),
        Section(
            "Who wins, by seat position (0: the starter; share of wins)",
            head,
            [
                row(str(p), [pct(s["winner_position"][p]) for s in stats])
                for p in range(min(len(s["winner_position"]) for s in stats))
            ],
        ),
        Section(
            "Calls made per hand, and the call the winner stood on (share of wins)",
            head,
            keyed("calls_per_hand", num, "0", "calls: ")
            + keyed("wins_by_call", pct, _MISSING, "won on: "),
        ),
        Section(
            "Expected payment per hand, by seat position (points)",
            head,
            [
                row(str(p), [signed(s["payment_by_position"][p]) for s in stats])
                for p in range(min(len(s["payment_by_position"]) for s in stats))
            ],
        ),
        Section(
            "Events per hand",
            head,
            keyed("events_per_hand", num, "0"),
        ),
        Section(
            "The result's details, in winning hands (mean)",
            head,
            keyed("detail_in_wins", num, _MISSING),
        ),
    ]
    if matches and all(m is not None for m in matches):
        ms = [m for m in matches if m is not None]
        players = min(len(m["money_per_match_by_seat"]) for m in ms)
        out.append(
            Section(
                "Matches: bangkong and the settlement (the hands in order, as one run of matches)",
                head,
                [
                    row("bangkong completed", [str(m["bangkong"]) for m in ms]),
                    row("hands a bangkong takes", [num(m["hands_per_bangkong"], 1) for m in ms]),
                    row("excess points a bangkong", [num(m["excess_per_bangkong"], 1) for m in ms]),
                    row(
                        "bangkong won by seats 0 and 2",
                        [pct(m["bangkong_won_by_seats_0_and_2"]) for m in ms],
                    ),
                    row("matches completed", [str(m["matches"]) for m in ms]),
                ]
                + [
                    row(
                        f"seat {s}: money a match (cents)",
                        [signed(m["money_per_match_by_seat"][s]) for m in ms],
                    )
                    for s in range(players)
                ],
            )
        )
    if diffs:
        names = {
            "won": ("won by someone", True),
            "winning_score": ("winning score (0 if none)", False),
            "actions": ("actions", False),
            "starter_payment": ("the starter's payment", False),
        }
        dhead = ["difference from " + labels[0], *labels[1:]]
        drows = [
            [label, *[signed(d[key], percent) for d in diffs]]
            for key, (label, percent) in names.items()
        ]
        hows = sorted({h for d in diffs for h in d["ends"]})
        drows += [
            [
                f"ends: {h}",
                *[signed(d["ends"][h], True) if h in d["ends"] else _MISSING for d in diffs],
            ]
            for h in hows
        ]
        out.insert(0, Section("Differences on the same deals (95% intervals)", dhead, drows))
    return out


def markdown(title: str, intro: Sequence[str], parts: Sequence[Section], image: str | None) -> str:
    lines = [f"# {title}", "", *intro, ""]
    if image:
        lines += [f"![The figures as plots]({image})", ""]
    for sec in parts:
        if not sec.rows:
            continue
        lines += [f"## {sec.title}", ""]
        lines.append("| " + " | ".join(sec.header) + " |")
        lines.append("|" + "|".join(["---"] + ["---:"] * (len(sec.header) - 1)) + "|")
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
        body.append(f"<h2>{esc(sec.title)}</h2><table>")
        body.append("<tr>" + "".join(f"<th>{esc(h)}</th>" for h in sec.header) + "</tr>")
        for r in sec.rows:
            body.append("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>")
        body.append("</table>")
    style = (
        "body{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem}"
        "table{border-collapse:collapse;margin-bottom:1.5rem}"
        "td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:right}"
        "td:first-child,th:first-child{text-align:left}img{max-width:100%}"
    )
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{esc(title)}'
        f"</title><style>{style}</style></head><body>{''.join(body)}</body></html>\n"
    )


def plot(
    path: str | Path,
    labels: Sequence[str],
    stats: Sequence[dict[str, Any]],
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
        ax.bar(x + i * width - 0.4 + width / 2, means, width, yerr=err, capsize=3, label=label)
    ax.set_xticks(x, hows, rotation=20, ha="right")
    ax.set_ylabel("share of hands")
    ax.set_title("How hands end")
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    ax = axes[0][1]
    top = max([h.score for run in runs for h in run if h.winner is not None] or [1])
    bins = np.arange(0, top + 2) - 0.5 if top <= 60 else 30
    dashes = ["-", "--", ":", "-."]  # equal variants' lines stay apart to the eye
    for i, (label, run) in enumerate(zip(labels, runs, strict=True)):
        scores = [h.score for h in run if h.winner is not None]
        if scores:
            ax.hist(scores, bins=bins, histtype="step", linewidth=1.6, density=True, label=label,
                    linestyle=dashes[i % 4])  # fmt: skip
    ax.set_xlabel("points")
    ax.set_ylabel("share of wins")
    ax.set_title("A winning score")
    ax = axes[1][0]
    for i, (label, run) in enumerate(zip(labels, runs, strict=True)):
        ax.hist([h.actions for h in run], bins=30, histtype="step", linewidth=1.6, density=True,
                label=label, linestyle=dashes[i % 4])  # fmt: skip
    ax.set_xlabel("actions in the hand")
    ax.set_ylabel("share of hands")
    ax.set_title("How long a hand lasts")
    ax = axes[1][1]
    seats = min(len(s["winner_position"]) for s in stats)
    x = np.arange(seats)
    for i, (label, s) in enumerate(zip(labels, stats, strict=True)):
        ivs = s["winner_position"][:seats]
        means = np.array([v["mean"] for v in ivs])
        err = np.array([[m - v["low"] for m, v in zip(means, ivs, strict=True)],
                        [v["high"] - m for m, v in zip(means, ivs, strict=True)]])  # fmt: skip
        ax.bar(x + i * width - 0.4 + width / 2, means, width, yerr=err, capsize=3, label=label)
    ax.axhline(1 / seats, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xticks(x, [str(p) if p else "0 (starter)" for p in range(seats)])
    ax.set_xlabel("seat position")
    ax.set_ylabel("share of wins")
    ax.set_title("Who wins (dashed: an equal share)")
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    for ax in (axes[0][0], axes[1][1]):
        ax.set_ylim(0, ax.get_ylim()[1] * 1.18)  # room for the legend above the bars
    for ax in axes.flat:
        if k > 1:
            ax.legend(fontsize=8, loc="upper right", ncols=min(k, 3))
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(str(path), dpi=110)
    plt.close(fig)
