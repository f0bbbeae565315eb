"""``cherki review RECORD --seat N``: every decision of one seat in a finished hand, judged
by the review's evaluator (:mod:`cherki.play.review`), as a table or as JSON.

Our specifications: ``--hand`` counts from 1 (as the replay prints hands) and defaults to
the record's last hand; a hand not finished, a seat that did not play, a hand out of range
or a damaged record is one line and exit status 2 (``cherki.ui.cli.main``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from cherki.bots.review import DEFAULT_BUDGET, Estimate
from cherki.core.errors import RulesError
from cherki.i18n import Words, chosen, normalise, words
from cherki.play.records import load_record
from cherki.play.review import Review, review_record

MARK_STYLE = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


def review(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    seat: Annotated[int, typer.Option("--seat", help="The seat whose decisions to review.")],
    hand: Annotated[
        int | None,
        typer.Option("--hand", help="The hand to review, from 1 (default: the last)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
    budget: Annotated[
        int,
        typer.Option(
            "--budget",
            help=f"Sampled deals a decision, every legal action played in each "
            f"(default {DEFAULT_BUDGET}).",
        ),
    ] = DEFAULT_BUDGET,
    seed: Annotated[int, typer.Option("--seed", help="The review's own seed.")] = 0,
    evaluator: Annotated[
        str | None,
        typer.Option(
            "--evaluator",
            help="search (the heuristic's rollouts) or learned (the learned bot's); default: "
            "learned where that bot is measured at least as strong as the search at the "
            "record's table, else search.",
        ),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option("--lang", help="The language: en, ms or id (also $CHERKI_LANG)."),
    ] = None,
) -> None:
    """Review one seat's decisions in a finished hand: the action taken, the best found,
    their values in points with 95% intervals, the loss and its mark."""
    if lang is not None and normalise(lang) is None:
        raise RulesError(f"--lang must be en, ms or id, not {lang!r}")
    w = words(chosen(lang) if lang is None else normalise(lang))
    record = load_record(file)
    if hand is not None and hand < 1:
        raise RulesError(f"--hand counts from 1, not {hand}")
    with _progress(w.t("review.progress") if not as_json else None) as update:
        result = review_record(
            record,
            seat,
            None if hand is None else hand - 1,
            budget=budget,
            seed=seed,
            evaluator=evaluator,
            progress=update,
        )
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
        return
    out = Console(highlight=False)
    name = record.players[seat]
    out.print(review_table(result, w, f"{record.game.title}", name))
    for line in summary_lines(result, w):
        out.print(line)


@contextmanager
def _progress(description: str | None) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on standard error (none for JSON), its total set by the first call."""
    if description is None:
        yield lambda done, total: None
        return
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task(description, total=None)
        yield lambda done, total: bar.update(task, total=total, completed=done)


def _value(e: Estimate) -> str:
    return f"{e.mean:+.1f} [{e.low:+.0f}, {e.high:+.0f}]"


def review_table(result: Review, w: Words, title: str, name: str) -> Table:
    t = Table(
        title=w.t("review.title", game=title, name=name, seat=result.seat, hand=result.hand + 1),
        header_style="bold",
    )
    for key, right in (
        ("review.col.number", True),
        ("review.col.taken", False),
        ("review.col.value", True),
        ("review.col.best", False),
        ("review.col.value", True),
        ("review.col.loss", True),
        ("review.col.mark", False),
    ):
        wraps = key in ("review.col.taken", "review.col.best")
        t.add_column(w.t(key), justify="right" if right else "left", no_wrap=not wraps)
    for d in result.decisions:
        mark = Text(w.t(f"review.mark.{d.mark}"), style=MARK_STYLE[d.mark]) if d.mark else Text("")
        same = d.best.action == d.taken.action
        t.add_row(
            str(d.number),
            d.taken.text,
            _value(d.taken.value),
            "=" if same else d.best.text,
            "" if same else _value(d.best.value),
            f"{d.loss.mean:.1f}",
            mark,
        )
    return t


def summary_lines(result: Review, w: Words) -> list[str]:
    th = result.thresholds
    return [
        w.t(
            "review.summary",
            loss=f"{result.total_loss:.1f}",
            decisions=len(result.decisions),
            blunders=result.marked("blunder"),
            mistakes=result.marked("mistake"),
            inaccuracies=result.marked("inaccuracy"),
        ),
        w.t(
            "review.thresholds",
            inaccuracy=f"{th.inaccuracy:g}",
            mistake=f"{th.mistake:g}",
            blunder=f"{th.blunder:g}",
        ),
        w.t(
            "review.evaluator",
            evaluator=w.t(f"review.by.{result.evaluator}")
            if w.has(f"review.by.{result.evaluator}")
            else result.evaluator,
            budget=result.budget,
            seed=result.seed,
        ),
    ]
