"""``cherki simulate`` and ``cherki compare``: many hands of one variant, or of several on
the same deals, and their figures (:mod:`cherki.play.simulate`, :mod:`cherki.ui.report`)."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Annotated, Any

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


def _runner(jobs: int, ray: str | None) -> Any:
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


def _outputs(
    title: str,
    intro: list[str],
    labels: list[str],
    stats: list[dict[str, Any]],
    runs: list[list[Any]],
    diffs: list[dict[str, Any]],
    plot: Path | None,
    report: Path | None,
    matches: list[dict[str, Any] | None] | None = None,
) -> None:
    """The terminal tables, and the plot and report files asked for."""
    from cherki.ui.report import html_page, markdown, sections
    from cherki.ui.report import plot as draw

    parts = sections(labels, stats, diffs, matches or [])
    for sec in parts:
        if not sec.rows:
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
) -> None:
    """Play many hands of one variant and report how they go, with 95% intervals."""
    from cherki.play.simulate import load_run, make_setup, match_statistics, run_json, statistics
    from cherki.play.simulate import simulate as run_simulation

    game = _game(game_name)
    setup = make_setup(game, rules, _parse_options(option), players, bots, seed, engine)
    for path, what in ((json_file, "--json"), (plot, "--plot"), (report, "--report")):
        _writable(path, what)
    _plot_format(plot)
    _report_kind(report)
    check_run(hands, jobs)
    runner = _runner(jobs, ray)
    done = []
    if json_file is not None and json_file.exists() and json_file.stat().st_size:
        done = load_run(json_file.read_text(encoding="utf-8"), setup)
        if done:
            console.print(f"Going on from {len(done)} hands already in {json_file}.")

    def save(got: list[Any]) -> None:
        if json_file is not None:
            text = json.dumps(run_json(setup, hands, got)) + "\n"
            _write_file(json_file, "--json", lambda p: p.write_text(text, encoding="utf-8"))

    with progress(game.title, hands, len(done)) as update:

        def step(got: list[Any]) -> None:
            update(len(got))
            save(got)

        summaries = run_simulation(setup, hands, done=done, runner=runner, progress=step)
    save(summaries)
    stats = statistics(summaries, setup.players)
    preset = game.find_preset(rules)
    label = preset.name + "".join(f", {k}={v}" for k, v in setup.options.items())
    title = f"{game.title}: {hands} hands, {setup.players} players, {label}"
    dealt = (
        f"hand i dealt from seed {seed} + i"
        if engine == "reference"
        else f"the batched engine, deals shuffled from seed {seed} in blocks"
    )
    intro = [
        f"Bots: {', '.join(setup.bots)}. {dealt[0].upper() + dealt[1:]}; the starting seat "
        "rotates. Figures with 95% intervals."
    ]
    console.print(f"[bold]{Text(title).markup}[/]")
    match = match_statistics(*setup.table(), setup.players, summaries)
    _outputs(title, intro, [label], [stats], [summaries], [], plot, report, [match])
    if json_file:
        console.print(f"Run and figures written to {json_file}")


def compare(
    game_name: GameArg,
    rules: Annotated[
        list[str] | None,
        typer.Option("--rules", help="A preset to compare (repeat for each variant)."),
    ] = None,
    vary: Annotated[
        list[str] | None,
        typer.Option(
            "--vary",
            help="A variant: the base rules with NAME=VALUE changed (repeat for each; several "
            "changes in one variant: NAME=VALUE+NAME=VALUE).",
        ),
    ] = None,
    option: OptionOpt = None,
    players: PlayersOpt = None,
    bots: BotsOpt = "heuristic",
    hands: HandsOpt = 1000,
    seed: SeedOpt = 1,
    jobs: JobsOpt = 1,
    ray: RayOpt = None,
    engine: EngineOpt = "reference",
    json_file: Annotated[
        Path | None, typer.Option("--json", help="Write every variant's figures here.")
    ] = None,
    plot: PlotOpt = None,
    report: ReportOpt = None,
) -> None:
    """The same figures for several variants side by side, played on the same deals, with
    the differences from the first and their 95% intervals."""
    from cherki.play.simulate import compare as run_compare
    from cherki.play.simulate import differences, make_setup, match_statistics, statistics

    game = _game(game_name)
    common = _parse_options(option)
    variants: list[tuple[str, str | None, dict[str, str]]] = []
    for preset in rules or []:
        variants.append((game.find_preset(preset).name, preset, dict(common)))
    for change in vary or []:
        extra = _parse_options(change.split("+"))
        variants.append((change, None, {**common, **extra}))
    if not rules and vary:
        variants.insert(0, (game.default_preset().name, None, dict(common)))
    if len(variants) < 2:
        raise RulesError("compare needs two variants or more: --rules A --rules B, or --vary")
    setups = [make_setup(game, p, o, players, bots, seed, engine) for _, p, o in variants]
    labels = [v[0] for v in variants]
    for path, what in ((json_file, "--json"), (plot, "--plot"), (report, "--report")):
        _writable(path, what)
    _plot_format(plot)
    _report_kind(report)
    check_run(hands, jobs)
    runner = _runner(jobs, ray)
    with progress(f"{game.title}, {len(setups)} variants", hands * len(setups)) as update:
        runs = run_compare(setups, hands, runner=runner, progress=update)
    n = setups[0].players
    stats = [statistics(r, n) for r in runs]
    diffs = [differences(runs[0], r) for r in runs[1:]]
    title = (
        f"{game.title}: {len(labels)} variants, {hands} hands each on the same deals, {n} players"
    )
    intro = [
        f"Variants: {'; '.join(labels)}. Bots: {', '.join(setups[0].bots)}. Hand i of every "
        f"variant is dealt from seed {seed} + i. Figures with 95% intervals."
    ]
    console.print(f"[bold]{Text(title).markup}[/]")
    matches = [match_statistics(*s.table(), n, r) for s, r in zip(setups, runs, strict=True)]
    _outputs(title, intro, labels, stats, [list(r) for r in runs], diffs, plot, report, matches)
    if json_file:
        data = {
            "format": "cherki-comparison",
            "variants": [
                {"label": lab, "setup": s.to_json(), "stats": st, "match": m}
                for lab, s, st, m in zip(labels, setups, stats, matches, strict=True)
            ],
            "differences_from_first": diffs,
        }
        text = json.dumps(data, indent=2) + "\n"
        _write_file(json_file, "--json", lambda p: p.write_text(text, encoding="utf-8"))
        console.print(f"Figures written to {json_file}")
