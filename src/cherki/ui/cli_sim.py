"""``cherki simulate`` and ``cherki compare``: many hands of one variant, or of several on
the same deals, and their figures (:mod:`cherki.play.simulate`, :mod:`cherki.ui.report`)."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from cherki.core.errors import RulesError
from cherki.games import GAMES
from cherki.ui.cli_common import check_run, progress
from cherki.ui.cli_common import game_named as _game
from cherki.ui.cli_common import parse_options as _parse_options
from cherki.ui.cli_common import plot_format as _plot_format
from cherki.ui.cli_common import writable as _writable
from cherki.ui.cli_common import write_file as _write_file
from cherki.ui.command import extra_hint
from cherki.ui.terminal import console

if TYPE_CHECKING:
    from cherki.core.contract import Game
    from cherki.core.events import JSON
    from cherki.play.figures import (
        ComparisonJSON,
        Differences,
        ExactJSON,
        MatchFigures,
        Provenance,
        Statistics,
    )
    from cherki.play.simulate import HandSummary, Runner, Setup
    from cherki.ui.report import Section

GameArg = Annotated[str, typer.Argument(help=f"Game: {', '.join(GAMES)}.")]
HandsOpt = Annotated[int, typer.Option("--hands", help="Hands to play (each variant).", min=1)]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed of hand 0 (hand i: seed + i).")]
PlayersOpt = Annotated[int | None, typer.Option("--players", "-n", help="Number of players.")]
BotsOpt = Annotated[
    str, typer.Option("--bots", help="Bot level for every seat, or a comma list, one per seat.")
]
JobsOpt = Annotated[int, typer.Option("--jobs", "-j", help="Processes to share the hands.")]
RayOpt = Annotated[
    str | None,
    typer.Option(
        "--ray",
        help="Share the hands out over a Ray cluster: auto (the cluster this machine is in), "
        "local (a Ray instance here, node address 127.0.0.1; see docs/simulation.md for "
        "what it exposes), or its address. Same figures as --jobs 1.",
    ),
]


EngineOpt = Annotated[
    str,
    typer.Option(
        "--engine",
        help="reference (the rules engine, every game and bot) or vector (the batched "
        "simulator: the games of sets with random and heuristic bots, many times faster).",
    ),
]


def _runner(jobs: int, ray: str | None) -> Runner:
    from importlib.util import find_spec

    from cherki.play.simulate import local_runner, ray_runner

    if ray is not None:
        if jobs != 1:
            raise RulesError("give --jobs or --ray, not both")
        if find_spec("ray") is None:
            hint = extra_hint("ray", sys.argv[1:])
            raise RulesError(f"--ray needs Ray, the extra `ray`, which is not installed: {hint}")
        return ray_runner(ray)
    return local_runner(jobs)


OptionOpt = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="Change a rule: NAME=VALUE.")
]
PlotOpt = Annotated[Path | None, typer.Option("--plot", help="Write the plots (PNG) here.")]
ReportOpt = Annotated[
    Path | None,
    typer.Option("--report", help="Write a report with the plots: .md (Markdown) or .html."),
]


def _report_kind(path: Path | None) -> None:
    if path is not None and path.suffix.lower() not in (".md", ".html", ".htm"):
        raise RulesError(f"--report {path}: name it .md (Markdown) or .html")


CsvOpt = Annotated[
    Path | None,
    typer.Option(
        "--csv",
        help="Write every hand's figures here as CSV (one row a hand, and a variant column), "
        "and the figures beside it (NAME.figures.csv), for a spreadsheet.",
    ),
]


def _command_line() -> str:
    import shlex
    import sys

    return "cherki " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def _provenance(setups: list[Setup]) -> Provenance:
    """The version, commit, rules fingerprint, exact command and every rule value."""
    from cherki.play.fingerprint import provenance

    made = provenance()
    rules: list[dict[str, JSON]] = []
    for s in setups:
        game, table = s.table()
        values: dict[str, JSON] = {"game": game.name, "preset": game.find_preset(s.preset).name}
        values["players"] = s.players
        values.update({k: v for k, v in game.rules_json(table).items()})
        rules.append(values)
    return {
        "cherki": made["cherki"],
        "commit": made["commit"],
        "rules_fingerprint": made["rules"],
        "command": _command_line(),
        "rules": rules,
    }


def _money_line(setups: list[Setup]) -> str:
    """What the report's money is: points × the rules' rate, in the cents its source gives."""
    from cherki.core.options import find_option

    game, _ = setups[0].table()
    opt = find_option(game.options, "cents_per_point")
    if opt is None:
        return ""
    rates = sorted({getattr(s.table()[1], opt.name) for s in setups})
    rate = " or ".join(f"{r}¢" for r in rates)
    return (
        f"Money (cents) is points × cents_per_point ({rate} a point here), plus what the rules "
        f"pay in money alone; the cents are those of the rate's source: {opt.source}."
    )


def _provenance_lines(made: Provenance) -> list[str]:
    """The provenance as lines of text (a CSV's first lines, after ``# ``)."""
    lines = [
        f"cherki {made['cherki']}, commit {made['commit']}, rules fingerprint "
        f"{made['rules_fingerprint']}",
        f"command: {made['command']}",
    ]
    for r in made["rules"]:
        lines.append("rules: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in r.items()))
    return lines


#: what each bot level reads of the rules, for the report
BOT_NOTES = {
    "random": "The random bot picks among the legal actions alike.",
    "heuristic": "The heuristic bot plays by the cards and the calls; it does not read the "
    "scoring values, so variants that change only the scoring play the same hands with it, "
    "rescored (--bots variant plays them by the scoring in force).",
    "variant": "The variant bot is the heuristic that weighs the scoring in force: where "
    "several discards leave a waiting hand, it calls with the wait whose wins the game's own "
    "scoring values most (live outs times what each win would pay), and a caller changes or "
    "keeps its call by the same measure, so presets and options that change only the scoring "
    "values can change its calls, not only its scores; its other choices are the "
    "heuristic's.",
    "search": "The search bot weighs each choice by the game's own scoring of sampled "
    "futures, so it plays to the scoring in force.",
}


def _intro(
    setups: list[Setup], labels: list[str], dealt: str, deals_same: bool | None = None
) -> list[str]:
    """The lines that make a report stand alone: version, commit, rules fingerprint,
    command, bots and the deals (every rule value is in the report's rules section)."""
    made = _provenance(setups)
    first = setups[0]
    bots = ", ".join(first.bots)
    levels = sorted({lv for s in setups for lv in s.bots})
    lines = [
        f"cherki {made['cherki']} (commit {made['commit']}, rules fingerprint "
        f"{made['rules_fingerprint']}). Command: {made['command']}",
        f"Bots: {bots} (one level for every seat, or one a seat in seat order). "
        + " ".join(BOT_NOTES.get(lv, "") for lv in levels).strip(),
        dealt + " The starting seat rotates hand by hand. Figures with 95% intervals "
        "(Wilson's for shares; mean ± 1.96·sd/√n for means, or the percentile bootstrap's "
        "below 30 samples or where that interval would leave the range of the values seen).",
    ]
    money = _money_line(setups)
    if money:
        lines.append(money)
    if deals_same is False:
        lines.append(
            "The variants deal different cards (another shoe, deal or number of players): "
            "hand i has the same seed in each, but not the same deal, so the differences are "
            "not measured on the same deals."
        )
    return lines


#: the first line of every CSV file cherki writes: what ``--csv`` may overwrite
CSV_MARK = "# cherki-csv"


def csv_ours(path: Path) -> bool:
    """Whether ``path`` is missing, empty, or a CSV file cherki wrote (its first line
    starts with :data:`CSV_MARK`): the files ``--csv`` may overwrite."""
    if not path.exists() or (path.is_file() and path.stat().st_size == 0):
        return True
    try:
        with path.open("rb") as f:
            return f.readline(200).startswith(CSV_MARK.encode())
    except OSError:
        return False


def _check_csv(path: Path | None) -> None:
    """Refuse, before playing, a ``--csv`` file (or its ``.figures.csv``) cherki did not write."""
    if path is None:
        return
    for p in (path, *(path.with_name(path.stem + end) for end in (".figures.csv", ".stats.csv"))):
        _writable(p, "--csv")
        if not csv_ours(p):
            raise RulesError(
                f"--csv {p} exists and is not a CSV file cherki wrote: refusing to overwrite "
                "it (give another name, or remove it first)"
            )


def _csv(
    path: Path,
    labels: list[str],
    runs: list[list[HandSummary]],
    parts: list[Section],
    made: Provenance,
    stats: list[Statistics],
) -> None:
    """Every hand's figures (one row a hand), and the report's figures (NAME.figures.csv),
    each after its provenance: lines starting ``#`` (``pandas.read_csv(f, comment="#")``)."""
    import csv

    about = [f"{CSV_MARK} {lines}" if i == 0 else f"# {lines}"
             for i, lines in enumerate(_provenance_lines(made))]  # fmt: skip

    from cherki.ui.report import figures_rows, stats_rows

    items = sorted({k for r in runs for h in r for k in h.items})
    extra = sorted({k for r in runs for h in r for k in h.item_money})
    events = sorted({k for r in runs for h in r for k in h.events})
    calls = sorted({k for r in runs for h in r for k in h.calls})
    details = sorted({k for r in runs for h in r for k in h.detail})
    seats = max(len(h.payments) for r in runs for h in r)
    head = ["variant", "hand", "how", "winner_position", "winner_seat", "score", "winner_call",
            "actions", "turns"]  # fmt: skip
    head += [f"payment_{p}" for p in range(seats)] + [f"money_{p}" for p in range(seats)]
    head += [f"item_{k}" for k in items] + [f"item_cents_{k}" for k in extra]
    head += [f"calls_{k}" for k in calls] + [f"events_{k}" for k in events]
    head += [f"detail_{k}" for k in details]

    def rows(p: Path) -> None:
        with p.open("w", newline="", encoding="utf-8") as f:
            f.write("".join(line + "\r\n" for line in about))
            w = csv.writer(f)
            w.writerow(head)
            for label, run in zip(labels, runs, strict=True):
                for h in run:
                    pay = [*h.payments, *[""] * (seats - len(h.payments))]
                    money = [*h.money, *[""] * (seats - len(h.money))]
                    w.writerow(
                        [label, h.index, h.how, "" if h.winner is None else h.winner,
                         "" if h.winner_seat is None else h.winner_seat, h.score,
                         h.winner_call or "", h.actions, h.turns, *pay, *money]
                        + [h.items.get(k, "") for k in items]
                        + [h.item_money.get(k, "") for k in extra]
                        + [h.calls.get(k, 0) for k in calls]
                        + [h.events.get(k, 0) for k in events]
                        + [h.detail.get(k, "") for k in details]
                    )  # fmt: skip

    def figures(p: Path) -> None:
        with p.open("w", newline="", encoding="utf-8") as f:
            f.write("".join(line + "\r\n" for line in about))
            w = csv.writer(f)
            w.writerow(["section", "figure", "variant", "text", "part", "value", "low", "high",
                        "unit"])  # fmt: skip
            w.writerows(figures_rows(parts))

    def numbers(p: Path) -> None:
        with p.open("w", newline="", encoding="utf-8") as f:
            f.write("".join(line + "\r\n" for line in about))
            w = csv.writer(f)
            w.writerow(["variant", "figure", "unit", "mean", "low", "high"])
            w.writerows(stats_rows(labels, stats))

    _write_file(path, "--csv", rows)
    fig = path.with_name(path.stem + ".figures.csv")
    _write_file(fig, "--csv", figures)
    unrounded = path.with_name(path.stem + ".stats.csv")
    _write_file(unrounded, "--csv", numbers)
    console.print(f"Hands written to {path}, figures to {fig}, unrounded to {unrounded}")


def _outputs(
    title: str,
    intro: list[str],
    labels: list[str],
    stats: list[Statistics],
    runs: list[list[HandSummary]],
    diffs: list[Differences],
    plot: Path | None,
    report: Path | None,
    matches: list[MatchFigures | None] | None = None,
    *,
    setups: list[Setup] | None = None,
    exact: list[list[ExactJSON]] | None = None,
    csv_file: Path | None = None,
    same: bool = True,
) -> None:
    """The terminal tables, and the plot, report and CSV files asked for."""
    from cherki.ui.report import (
        exact_section,
        glossary_section,
        html_page,
        markdown,
        rules_section,
        sections,
        sources_section,
    )
    from cherki.ui.report import plot as draw

    parts = sections(labels, stats, diffs, matches or [], same=same)
    if exact and any(exact):
        parts.insert(0, exact_section(labels, exact))
    if setups:
        parts.append(rules_section(labels, setups))
        parts.append(glossary_section(parts, title))
        parts.append(sources_section(parts))
    for sec in parts:
        if not sec.rows or not sec.terminal:
            continue
        t = Table(title=sec.title, header_style="bold", title_justify="left")
        for i, h in enumerate(sec.header):
            t.add_column(h, justify="left" if i == 0 else "right")
        for r in sec.rows:
            t.add_row(*(Text(c) for c in r))
        console.print(t)
    if plot:
        _write_file(plot, "--plot", lambda p: draw(p, labels, stats, runs, title))
        console.print(f"Plot written to {plot}")
    if report:
        if report.suffix.lower() == ".md":
            image = report.with_suffix(".png")
            _writable(image, "--report's plot")
            _write_file(image, "--report", lambda p: draw(p, labels, stats, runs, title))
            text = markdown(title, intro, parts, image.name)
        else:
            import io

            buf = io.BytesIO()
            tmp = Path(tempfile.mkdtemp()) / "plot.png"
            draw(tmp, labels, stats, runs, title)
            buf.write(tmp.read_bytes())
            tmp.unlink()
            tmp.parent.rmdir()
            text = html_page(title, intro, parts, buf.getvalue())
        _write_file(report, "--report", lambda p: p.write_text(text, encoding="utf-8"))
        console.print(f"Report written to {report}")
    if csv_file:
        _csv(csv_file, labels, runs, parts, _provenance(setups or []), stats)


def simulate(
    game_name: GameArg,
    rules: Annotated[str | None, typer.Option("--rules", help="Rules preset.")] = None,
    option: OptionOpt = None,
    players: PlayersOpt = None,
    bots: BotsOpt = "heuristic",
    hands: HandsOpt = 1000,
    seed: SeedOpt = 1,
    jobs: JobsOpt = 1,
    ray: RayOpt = None,
    engine: EngineOpt = "reference",
    json_file: Annotated[
        Path | None,
        typer.Option(
            "--json",
            help="Keep the run here (every hand's summary and the figures); run again with the "
            "same arguments and file to go on from where it stopped.",
        ),
    ] = None,
    plot: PlotOpt = None,
    report: ReportOpt = None,
    csv_file: CsvOpt = None,
) -> None:
    """Play many hands of one variant and report how they go, with 95% intervals."""
    from cherki.play.simulate import (
        exact_figures,
        load_run,
        make_setup,
        match_statistics,
        run_json,
        statistics,
    )
    from cherki.play.simulate import simulate as run_simulation

    game = _game(game_name)
    setup = make_setup(game, rules, _parse_options(option), players, bots, seed, engine)
    for path, what in (
        (json_file, "--json"), (plot, "--plot"), (report, "--report"), (csv_file, "--csv")
    ):  # fmt: skip
        _writable(path, what)
    _check_csv(csv_file)
    _plot_format(plot)
    _report_kind(report)
    check_run(hands, jobs)
    runner = _runner(jobs, ray)
    made = _provenance([setup])
    done: list[HandSummary] = []
    if json_file is not None and json_file.exists() and json_file.stat().st_size:
        done = load_run(json_file.read_text(encoding="utf-8"), setup)
        _check_resume(json_file, len(done), hands)
        if done:
            console.print(f"Going on from {len(done)} hands already in {json_file}.")

    def save(got: list[HandSummary]) -> None:
        if json_file is not None:
            out = run_json(setup, hands, got)
            text = json.dumps({"provenance": made, **out}) + "\n"
            _write_file(json_file, "--json", lambda p: p.write_text(text, encoding="utf-8"))

    with progress(game.title, hands, len(done)) as update:

        def step(got: list[HandSummary]) -> None:
            update(len(got))
            save(got)

        summaries = run_simulation(setup, hands, done=done, runner=runner, progress=step)
    save(summaries)
    stats = statistics(summaries, setup.players, setup.endings())
    preset = game.find_preset(rules)
    label = preset.name + "".join(f", {k}={v}" for k, v in setup.options.items())
    title = f"{game.title}: {hands} hands, {setup.players} players, {label}"
    dealt = (
        f"Hand i is dealt from seed {seed} + i."
        if engine == "reference"
        else f"The batched engine; deals shuffled from seed {seed} in blocks."
    )
    intro = _intro([setup], [label], dealt)
    console.print(f"[bold]{Text(title).markup}[/]")
    match = match_statistics(*setup.table(), setup.players, summaries)
    _outputs(title, intro, [label], [stats], [summaries], [], plot, report, [match],
             setups=[setup], exact=[exact_figures(setup, summaries)],
             csv_file=csv_file)  # fmt: skip
    if json_file:
        console.print(f"Run and figures written to {json_file}")


def _check_resume(path: Path, have: int, hands: int) -> None:
    """Refuse to resume a file holding more hands than asked (it would be cut short)."""
    if have > hands:
        raise RulesError(
            f"{path} already holds {have} hands, more than --hands {hands}: give --hands "
            f"{have} or more to go on with it, or another --json file (the file is kept as it is)"
        )


def _player_counts(players: str | None, game: Game) -> list[int | None]:
    """The player counts of ``--players``: each one the game is played by (refused in the
    game's words), none twice."""
    if players is None:
        return [None]
    out: list[int | None] = []
    for part in players.split(","):
        try:
            count = int(part.strip())
        except ValueError:
            raise RulesError(
                f"--players takes a number, or numbers separated by commas, not {players!r}"
            ) from None
        if count in out:
            raise RulesError(f"--players names {count} twice: each count is one variant")
        game.check_players(count)
        out.append(count)
    return out


def compare(
    game_name: GameArg,
    rules: Annotated[
        list[str] | None,
        typer.Option(
            "--rules",
            help="A preset to compare (repeat for each variant). With --vary: the first is "
            "the base the changes apply to.",
        ),
    ] = None,
    vary: Annotated[
        list[str] | None,
        typer.Option(
            "--vary",
            help="A variant: the base rules (the first --rules, else the game's default) with "
            "NAME=VALUE changed (repeat for each; several changes in one variant: "
            "NAME=VALUE+NAME=VALUE).",
        ),
    ] = None,
    option: OptionOpt = None,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-n",
            help="Number of players; several separated by commas (2,4,6) compare the player "
            "counts, one variant each.",
        ),
    ] = None,
    bots: BotsOpt = "heuristic",
    hands: HandsOpt = 1000,
    seed: SeedOpt = 1,
    jobs: JobsOpt = 1,
    ray: RayOpt = None,
    engine: EngineOpt = "reference",
    json_file: Annotated[
        Path | None,
        typer.Option(
            "--json",
            help="Keep the comparison here (every variant's hands and figures); run again with "
            "the same arguments and file to go on from where it stopped.",
        ),
    ] = None,
    plot: PlotOpt = None,
    report: ReportOpt = None,
    csv_file: CsvOpt = None,
) -> None:
    """The same figures for several variants side by side (on the same deals where the
    variants deal alike), with the differences from the first and their 95% intervals."""
    from cherki.play.simulate import compare as run_compare
    from cherki.play.simulate import (
        differences,
        exact_figures,
        make_setup,
        match_statistics,
        same_deals,
        statistics,
    )

    game = _game(game_name)
    common = _parse_options(option)
    counts = _player_counts(players, game)
    base_preset = rules[0] if rules else None
    variants: list[tuple[str, str | None, dict[str, str], int | None]] = []
    for name in rules or []:
        variants.append((game.find_preset(name).name, name, dict(common), counts[0]))
    for change in vary or []:
        extra = _parse_options(change.split("+"))
        label = change if not rules else f"{game.find_preset(base_preset).name}, {change}"
        variants.append((label, base_preset, {**common, **extra}, counts[0]))
    if vary and not rules:
        variants.insert(0, (game.default_preset().name, None, dict(common), counts[0]))
    if len(counts) > 1:
        if len(variants) > 1:
            raise RulesError(
                "compare one thing at a time: several --players, or several --rules/--vary, "
                "not both"
            )
        preset = variants[0][1] if variants else None
        name = game.find_preset(preset).name
        variants = [(f"{name}, {c} players", preset, dict(common), c) for c in counts]
    if len(variants) < 2:
        raise RulesError(
            "compare needs two variants or more: --rules A --rules B, --vary NAME=VALUE, or "
            "--players 2,4"
        )
    setups = [make_setup(game, p, o, c, bots, seed, engine) for _, p, o, c in variants]
    labels = [v[0] for v in variants]
    for path, what in (
        (json_file, "--json"), (plot, "--plot"), (report, "--report"), (csv_file, "--csv")
    ):  # fmt: skip
        _writable(path, what)
    _check_csv(csv_file)
    _plot_format(plot)
    _report_kind(report)
    check_run(hands, jobs)
    runner = _runner(jobs, ray)
    done: list[list[HandSummary]] = []
    if json_file is not None and json_file.exists() and json_file.stat().st_size:
        done = _load_comparison(json_file, setups)
        _check_resume(json_file, max(len(d) for d in done), hands)
        if any(done):
            have = sorted({len(d) for d in done})
            each = (
                f"{have[0]} hands of each variant"
                if len(have) == 1
                else f"{', '.join(str(len(d)) for d in done)} hands of the variants in turn"
            )
            console.print(f"Going on from {each} already in {json_file} (--hands {hands} each).")
    same = same_deals(setups)
    made = _provenance(setups)

    def data(runs: list[list[HandSummary]], figures: bool) -> ComparisonJSON:
        out: ComparisonJSON = {
            "provenance": made,
            "format": "cherki-comparison",
            "version": 2,
            "hands_asked": hands,
            "same_deals": same,
            "variants": [
                {
                    "label": lab,
                    "setup": s.to_json(),
                    "hands": [h.to_json() for h in sorted(r, key=lambda h: h.index)],
                }
                for lab, s, r in zip(labels, setups, runs, strict=True)
            ],
        }
        if figures:
            for v, st, m in zip(out["variants"], stats, matches, strict=True):
                v["stats"], v["match"] = st, m
            out["differences_from_first"] = diffs
        return out

    def save(runs: list[list[HandSummary]], figures: bool = False) -> None:
        if json_file is not None:
            text = json.dumps(data(runs, figures)) + "\n"
            _write_file(json_file, "--json", lambda p: p.write_text(text, encoding="utf-8"))

    total = hands * len(setups)
    with progress(f"{game.title}, {len(setups)} variants", total, sum(map(len, done))) as update:
        runs = run_compare(setups, hands, runner=runner, progress=update, done=done, save=save)
    stats = [statistics(r, s.players, s.endings()) for r, s in zip(runs, setups, strict=True)]
    diffs = [differences(runs[0], r) for r in runs[1:]]
    matches = [
        match_statistics(*s.table(), s.players, r) for s, r in zip(setups, runs, strict=True)
    ]
    save(runs, figures=True)
    n = sorted({s.players for s in setups})
    where = "on the same deals" if same else "on the same seeds (the deals differ)"
    seats = f"{n[0]} players" if len(n) == 1 else f"{', '.join(map(str, n))} players"
    title = f"{game.title}: {len(labels)} variants, {hands} hands each {where}, {seats}"
    dealt = f"Variants: {'; '.join(labels)}. Hand i of every variant is dealt from seed {seed} + i."
    intro = _intro(setups, labels, dealt, same)
    console.print(f"[bold]{Text(title).markup}[/]")
    exact = [exact_figures(s, r) for s, r in zip(setups, runs, strict=True)]
    _outputs(title, intro, labels, stats, [list(r) for r in runs], diffs, plot, report, matches,
             setups=setups, exact=exact, csv_file=csv_file, same=same)  # fmt: skip
    if json_file:
        console.print(f"Comparison, hands and figures written to {json_file}")


def _load_comparison(path: Path, setups: list[Setup]) -> list[list[HandSummary]]:
    """Each variant's hands in a comparison's file, if it compares the same variants."""
    from cherki.play.simulate import HandSummary

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, RecursionError, ValueError, UnicodeDecodeError) as err:
        raise RulesError(f"{path} is not JSON: {err}") from None
    if not isinstance(data, dict) or data.get("format") != "cherki-comparison":
        raise RulesError(f"{path} is not a cherki comparison: refusing to overwrite it")
    variants = data.get("variants")
    if not isinstance(variants, list) or [
        v.get("setup") if isinstance(v, dict) else None for v in variants
    ] != [s.to_json() for s in setups]:
        raise RulesError(
            f"{path} holds a comparison of other variants or arguments: give another --json "
            "file to start afresh"
        )
    out = []
    for v in variants:
        hands = v.get("hands")
        if hands is None:
            raise RulesError(f"{path} keeps no hands (written by an older cherki): start afresh")
        if not isinstance(hands, list) or not all(isinstance(h, dict) for h in hands):
            raise RulesError(f'{path}: a variant\'s "hands" is damaged')
        out.append([HandSummary.from_json(h) for h in hands])
    return out
