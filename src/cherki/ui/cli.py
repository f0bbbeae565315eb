"""The ``cherki`` command: play in the terminal, replay records, analyse hands, read rules.

A thin layer on the rules core: it reads input, asks the state for legal actions and applies
them; every rule lives in the games. A user's mistake is a message, never a traceback.
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Concatenate, ParamSpec

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from cherki.bots import SearchBudget, levels_for, make_bot
from cherki.core.cards import CODES, N_KINDS, parse_hand
from cherki.core.contract import Game
from cherki.core.errors import CherkiError, RulesError
from cherki.core.events import JSON
from cherki.games import DEFAULT_GAME, GAMES
from cherki.i18n import chosen, normalise, preset_key, remember, words
from cherki.play.match import MatchOutcome
from cherki.play.records import Record, check_result, load_record, replay_hand, replay_steps
from cherki.play.session import Seat, Session
from cherki.ui.cli_common import MAX_MATCH_HANDS, check_run, docs_dir, progress
from cherki.ui.cli_common import game_named as _game
from cherki.ui.cli_common import parse_options as _parse_options
from cherki.ui.cli_common import plot_format as _plot_format
from cherki.ui.cli_common import writable as _writable
from cherki.ui.cli_common import write_file as _write_file
from cherki.ui.cli_review import review
from cherki.ui.cli_serve import serve
from cherki.ui.cli_sim import compare, simulate
from cherki.ui.cli_train import train
from cherki.ui.command import cherki_command
from cherki.ui.learn import learn
from cherki.ui.table import RecordSaver, TerminalTable
from cherki.ui.terminal import (
    analysis_text,
    card_legend,
    console,
    event_text,
    hand_by_rank,
    result_table,
)
from cherki.ui.text import Voice

if TYPE_CHECKING:
    from typer.core import TyperOption

_P = ParamSpec("_P")


def _flags_take_no_value() -> None:
    """A flag (``--version``, ``--watch``, ``--help``) is shown in the help without a type:
    Typer 0.29's Rich help writes ``--version <bool>``, as if the flag took a value; it
    takes none. Each option with a value keeps its type (``--seed <int>``)."""
    from typer.core import TyperOption

    shown = TyperOption.display_type_rich
    if getattr(shown, "cherki_flags", False):
        return
    display_type_rich = _unless_flag(shown)
    display_type_rich.cherki_flags = True  # type: ignore[attr-defined]
    setattr(TyperOption, "display_type_rich", display_type_rich)  # noqa: B010 (a patch)


def _unless_flag(
    shown: Callable[Concatenate[TyperOption, _P], str | None],
) -> Callable[Concatenate[TyperOption, _P], str | None]:
    """Typer's ``display_type_rich`` (whose context is its own click's), with no type for
    a flag."""

    def display_type_rich(self: TyperOption, /, *args: _P.args, **kwargs: _P.kwargs) -> str | None:
        return None if self.is_flag else shown(self, *args, **kwargs)

    return display_type_rich


_flags_take_no_value()

app = typer.Typer(
    name="cherki",
    help="Cherki card games: Balik Satu and its relatives, in the terminal.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

GameArg = Annotated[str, typer.Argument(help=f"Game: {', '.join(GAMES)}.")]


def _version(value: bool) -> None:
    if value:
        from cherki.play.fingerprint import version_line

        typer.echo(version_line())
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Cherki card games: Balik Satu and its relatives, in the terminal."""


@app.command()
def play(
    game_name: GameArg = DEFAULT_GAME,
    players: Annotated[
        int | None, typer.Option("--players", "-n", help="Number of players.")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Shuffle seed (a random one is shown if not given).")
    ] = None,
    rules: Annotated[
        str | None, typer.Option("--rules", help=f"Rules preset (see `{cherki_command('games')}`).")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help=(
                "Change a rule: NAME=VALUE (repeatable; "
                f"`{cherki_command('rules', 'GAME')}` lists the options)."
            ),
        ),
    ] = None,
    record: Annotated[
        Path | None, typer.Option("--record", help="Save the game record to this JSON file.")
    ] = None,
    watch: Annotated[
        bool, typer.Option("--watch", help="Every seat is a bot; watch the game.")
    ] = False,
    seat: Annotated[
        int | None, typer.Option("--seat", help="Your seat (0 starts; default 0).")
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots", help="Bot level for the other seats, or a comma list, one per bot seat."
        ),
    ] = "heuristic",
    hands: Annotated[
        int | None, typer.Option("--hands", help="Play a match of this many hands.")
    ] = None,
    hand_by_hand: Annotated[
        bool,
        typer.Option("--hand-by-hand", help="Deal hand after hand until you say stop."),
    ] = False,
    target: Annotated[
        int | None,
        typer.Option("--target", help="Play until a seat's total reaches this many points."),
    ] = None,
    delay: Annotated[
        float | None,
        typer.Option(
            "--delay",
            help="Seconds between bot moves (default 0.4 watching on a terminal, else 0).",
        ),
    ] = None,
    name: Annotated[str, typer.Option("--name", help="Your name at the table.")] = "You",
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            help="Continue an unfinished game from its record, from its last action (the "
            "record's game, rules, seats and match).",
        ),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help="The table's language: en (English), ms (Bahasa Melayu) or id (Bahasa "
            "Indonesia); remembered for the next game (also $CHERKI_LANG).",
        ),
    ] = None,
) -> None:
    """Play a game in the terminal against bots (or --watch bots play)."""
    lang = _language(lang)
    if delay is not None and not (math.isfinite(delay) and 0 <= delay <= 60):
        raise RulesError(f"--delay must be from 0 to 60 seconds, not {delay}")
    if resume is not None:
        _resume(resume, delay, lang)
        return
    _check_match(hands, target, hand_by_hand)
    game = _game(game_name)
    rules_obj = game.rules(rules, **_parse_options(option))
    _writable(record, "--record")
    autosaved = record is None
    if record is None:  # nothing is lost: an autosave, where quitting says it is
        record = _autosave_path(game)
    n = players if players is not None else game.default_players
    game.check_players(n)
    if watch and seat is not None:
        raise RulesError("--seat is your seat, and --watch seats no one: give one or the other")
    if seat is None:
        seat = 0
    if not watch and not 0 <= seat < n:
        raise RulesError(f"--seat must be a seat from 0 to {n - 1}")
    # a seed reveals every card: drawn from the operating system's entropy (64 bits) when
    # not given, and shown only once the game is over
    secret = seed is None
    if seed is None:
        seed = random.SystemRandom().getrandbits(64)
    human = None if watch else seat
    seats = _seats(game, n, human, bots, name)
    if hands is None and target is None:
        # games whose rules fix the match (Ceki: an agreed total or a number of hands)
        hands, target = game.match_plan(rules_obj)
    saver = RecordSaver(record, lang)
    session = Session(
        game,
        rules_obj,
        seats,
        seed,
        hands=hands,
        target=target,
        preset=rules,
        until_stopped=hand_by_hand,
        save=saver,
    )
    if delay is None:
        delay = 0.4 if watch and sys.stdout.isatty() else 0.0
    preset = game.find_preset(rules)
    w = words(lang)
    shown = w.t("term.seed_later") if secret else w.t("term.seed_shown", seed=seed)
    about = w.t(preset_key(game.name, preset.name, "about"))
    console.print(
        Text(game.title, style="bold").append(
            w.t("term.intro", n=n, preset=preset.name, about=about, seed=shown)
        )
    )
    TerminalTable(
        game,
        session,
        human,
        delay,
        record,
        reveal_seed=secret,
        autosaved=autosaved,
        saver=saver,
        lang=lang,
    ).run()


def _check_match(hands: int | None, target: int | None, hand_by_hand: bool) -> None:
    """One way for a match to end: a number of hands, a target, or hand by hand until the
    players stop ([003] gives Ceki's first two as different schemes)."""
    given = [w for w, v in (("--hands", hands), ("--target", target)) if v is not None]
    if hand_by_hand and given:
        raise RulesError(
            f"--hand-by-hand deals until you say stop, so it takes no {' or '.join(given)}: "
            "give one way for the match to end"
        )
    if len(given) == 2:
        raise RulesError(
            "give --hands (the highest total after that many hands wins) or --target (the "
            "first to reach that many points wins), not both"
        )
    if hands is not None and not 1 <= hands <= MAX_MATCH_HANDS:
        raise RulesError(f"--hands must be from 1 to {MAX_MATCH_HANDS:,}, not {hands:,}")
    if target is not None and target < 1:
        raise RulesError(f"--target must be at least 1 point, not {target:,}")


def _language(option: str | None) -> str:
    """The terminal's language (``--lang``, ``$CHERKI_LANG``, the one remembered, the
    system's, English); one given with ``--lang`` is remembered for the next game."""
    if option is not None:
        code = normalise(option)
        if code is None:
            raise RulesError(f"--lang must be en, ms or id, not {option!r}")
        remember(code)
        return code
    return chosen(None)


def _autosave_path(game: Game) -> Path:
    """Where a game without ``--record`` is kept: ``$XDG_DATA_HOME/cherki/autosave`` (by
    default ``~/.local/share/cherki/autosave``), one file a game."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    folder = Path(base) / "cherki" / "autosave"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise RulesError(f"cannot keep an autosave in {folder}: {err.strerror}") from None
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return folder / f"{game.name}-{stamp}-{os.getpid()}.json"


def _resume(path: Path, delay: float | None, lang: str | None = None) -> None:
    """Continue the unfinished game a record holds, writing on to the same record."""
    rec = load_record(path)
    _writable(path, "--resume")
    table = rec.table
    if table is None:
        raise RulesError(f"{path} does not say who played each seat: it cannot be resumed")
    people = [i for i, level in enumerate(table.seats) if level is None]
    if len(people) > 1:
        raise RulesError(f"{path} has {len(people)} people at the table; a terminal seats one")
    human = people[0] if people else None
    seats = [
        Seat(who, None if level is None else make_bot(rec.game.name, level))
        for who, level in zip(rec.players, table.seats, strict=True)
    ]
    saver = RecordSaver(path, lang)
    session = Session.resume(rec, seats, save=saver)
    if session.state is None and session.is_over():
        raise RulesError(f"the game in {path} is over: nothing to resume")
    if delay is None:
        delay = 0.4 if human is None and sys.stdout.isatty() else 0.0
    console.print(
        Text(words(lang).t("term.resuming", title=rec.game.title, path=path, n=len(rec.hands)))
    )
    TerminalTable(rec.game, session, human, delay, path, saver=saver, lang=lang).run()


def _seats(game: Game, n: int, human: int | None, bots: str, name: str) -> list[Seat]:
    """The person's seat (None: watching) and a bot of the levels listed in every other."""
    levels = [lv.strip() for lv in bots.split(",") if lv.strip()]
    bot_seats = [i for i in range(n) if i != human]
    if len(levels) == 1:
        levels = levels * len(bot_seats)
    if len(levels) != len(bot_seats):
        raise RulesError(f"--bots lists {len(levels)} levels for {len(bot_seats)} bot seats")
    seats: list[Seat] = []
    it = iter(levels)
    for i in range(n):
        if i == human:
            seats.append(Seat(name, None))
        else:
            lv = next(it)
            seats.append(Seat(f"Bot {i} ({lv})", make_bot(game.name, lv, players=n)))
    return seats


# -- replay ------------------------------------------------------------------------------------
@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the final result as JSON.")
    ] = False,
    step: Annotated[
        bool,
        typer.Option(
            "--step/--all", help="Wait for Enter after each action (default on a terminal)."
        ),
    ] = True,
    seat: Annotated[
        int | None, typer.Option("--seat", help="Show only what this seat saw.")
    ] = None,
    reveal: Annotated[
        bool,
        typer.Option(
            "--reveal",
            help="Show every hand of an unfinished last hand too (it shows only what the "
            "recording seat saw until the hand is over).",
        ),
    ] = False,
) -> None:
    """Step through a game record, or print its result as JSON."""
    rec = load_record(file)
    n = len(rec.players)
    if seat is not None and not 0 <= seat < n:
        raise RulesError(f"--seat must be a seat of this record, from 0 to {n - 1}, not {seat}")
    from cherki.play.match import replay_match

    if as_json:
        match = replay_match(rec)
        hands = [r.to_json() for r in match.results]
        # unfinished: the record's last hand stops before its end (a saved game in progress)
        unfinished = len(match.results) < len(rec.hands)
        last = hands[-1] if hands and not unfinished else {}
        out = {
            "game": rec.game.name,
            "players": rec.players,
            **last,
            "unfinished": unfinished,
            "hands": hands,
            "totals": match.totals,
            "match": match.to_json(),
            "match_result": match.outcome(),
        }
        typer.echo(json.dumps(out, indent=2, ensure_ascii=False))
        return
    interactive = step and sys.stdin.isatty()
    names = rec.players
    last_index = len(rec.hands) - 1
    for i in range(len(rec.hands)):
        console.rule(f"[bold]{rec.game.title} — hand {i + 1} of {len(rec.hands)}")
        # a hand left unfinished (a saved game in progress) shows what the recording seat
        # saw, as a spectator would without one, until it is over: its deal is in the record
        # (--seat shows another seat of it only with --reveal: the record holds every deal)
        view = seat
        if i == last_index and not reveal and not _finishes(rec, i):
            recording = _recording_seat(rec)
            if view != recording:
                view = recording
                who = f"{names[view]} (seat {view})" if view >= 0 else "a spectator"
                console.print(
                    Text(
                        f"This hand is unfinished: shown as {who} saw it "
                        "(--reveal shows every hand)."
                    )
                )
        voice = Voice.of(names, n, view if view is not None and view >= 0 else None)
        start = rec.start(i)
        lines: list[Text] = []
        for s in range(start.n):
            if view is None or s == view:
                lines.append(
                    Text(f"{voice.name(s)}: ").append_text(hand_by_rank(start.observation(s).hand))
                )
        state = start
        for state, _text, events in replay_steps(rec, i):  # noqa: B007 (state used after)
            for e in events:
                if e.kind != "end":
                    lines.append(
                        event_text(e if view is None else e.seen_by(view), rec.game, voice)
                    )
            if interactive:
                _print_lines(lines)
                lines = []
                try:
                    key = console.input("[dim](Enter: next, q: quit)[/] ")
                except (EOFError, KeyboardInterrupt):
                    return
                if key.strip().lower() == "q":
                    return
        _print_lines(lines)  # one print a hand: a long record prints in time linear in it
        if state.is_terminal:
            console.print(result_table(state.result, rec.game, voice))
        else:
            console.print("[yellow]The record stops here: the hand was left unfinished.[/]")
        check_result(rec, i, state)  # the stored result, checked without a second replay
    match = replay_match(rec)
    if len(rec.hands) > 1 or match.hands or match.target:
        console.print(Text(match_line(match.outcome(), rec.game, Voice.of(names, n))))


def _finishes(rec: Record, index: int) -> bool:
    """Whether hand ``index`` of the record is played to its end."""
    return replay_hand(rec, index, check=False).is_terminal


def _recording_seat(rec: Record) -> int:
    """The seat whose view an unfinished record shows: the one person at the table (the
    terminal seats one), or -1 (a spectator's view) when bots played every seat or the
    record does not say."""
    people = [i for i, lv in enumerate(rec.table.seats) if lv is None] if rec.table else []
    return people[0] if len(people) == 1 else -1


def _print_lines(lines: list[Text]) -> None:
    if lines:
        console.print(Text("\n").join(lines))


def match_line(outcome: MatchOutcome, game: Game, voice: Voice) -> str:
    """The match's result in words: who won (or leads), on what rule, with the totals."""
    scores = outcome["scores"]
    seats = outcome["winners"] or outcome["leaders"]
    who = " and ".join(voice.name(s) for s in seats)
    best = scores[seats[0]] if seats else 0
    rule = {
        "hands": f"over {outcome['hands']} hands, the highest total wins",
        "target": f"to {outcome['target']} points",
        "stopped": "hand by hand until the players stop",
        "ledger": "to the game's own end",
        "one-hand": "one hand",
    }[outcome["rule"]]
    totals = ", ".join(f"{voice.name(s)} {v}" for s, v in enumerate(scores))
    hands = outcome["scored_hands"]
    if outcome["over"]:
        verb = "win" if len(seats) > 1 else "wins"
        head = f"Match ({rule}) over after {hands} hand(s): {who} {verb} with {best} points."
    elif seats:
        verb = "lead" if len(seats) > 1 else "leads"
        head = f"Match ({rule}) after {hands} hand(s), not over: {who} {verb} with {best} points."
    else:
        head = f"Match ({rule}): no hand finished yet."
    return f"{head} Totals: {totals}."


# -- hand analysis ---------------------------------------------------------------------------
@app.command()
def hand(
    game_name: GameArg,
    cards: Annotated[str, typer.Argument(help='Cards in notation, e.g. "S2 M2 M2 C3 ..."')],
    honours: Annotated[
        str | None,
        typer.Option(help="How honours form sets: rank1, frames or own (default: the game's)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis as JSON.")] = False,
    preset: Annotated[str | None, typer.Option("--rules", help="Rules preset.")] = None,
) -> None:
    """Analyse a hand: does it win, its best sets, what it waits on, what it may call."""
    game = _game(game_name)
    counts = parse_hand(cards)
    analysis = game.analyse_hand(counts, game.rules(preset), honours)
    if as_json:
        typer.echo(json.dumps(analysis.data, indent=2))
        return
    for line in analysis.lines:
        console.print(analysis_text(line))


# -- rules, glossary, games ------------------------------------------------------------------
@app.command()
def rules(
    game_name: GameArg,
    plain: Annotated[bool, typer.Option("--plain", help="Print the Markdown source.")] = False,
) -> None:
    """The rules of a game, with sources, choices and options (and the glossary)."""
    game = _game(game_name)
    slug = game.rules_doc or game.name
    path = Path(game.rules_path) if game.rules_path else docs_dir() / "rules" / f"{slug}.md"
    if not path.exists():
        raise RulesError(f"no rules document for {game.title} yet")
    text = path.read_text(encoding="utf-8") + scoring_markdown(game)
    glossary = docs_dir() / "glossary.md"
    if glossary.exists():
        text += "\n\n" + glossary.read_text(encoding="utf-8")
    if plain:
        typer.echo(text)
    else:
        console.print(Markdown(text))


def scoring_markdown(game: Game) -> str:
    """The scoring list of each of ``game``'s presets, computed from its rules
    (``GameView.scoring_lines``), as a Markdown section for ``cherki rules``."""
    voice = Voice((), words=words("en"))
    out = ["", "", "## " + voice.t("rules.scoring.title")]
    for p in game.presets:
        out += ["", f"### {voice.t(preset_key(game.name, p.name, 'title'))}", ""]
        out += [f"- {line.plain()}" for line in game.view().scoring_lines(p.rules, voice)]
    return "\n".join(out) + "\n"


@app.command()
def cards(
    svg: Annotated[
        Path | None,
        typer.Option(
            "--svg", help="Write every card (C1.svg … OT.svg) and back.svg into this folder."
        ),
    ] = None,
    index: Annotated[
        bool,
        typer.Option(
            "--index/--no-index", help="Print the small index label (C7, RF…) on each card."
        ),
    ] = True,
) -> None:
    """The 30 kinds of card: codes, names and red stamps; or drawn as SVG files."""
    from cherki.core.cards import IS_RED
    from cherki.ui.cards_svg import card_title, write_svgs

    if svg is None:
        t = Table(title="The cards", header_style="bold")
        for col in ("code", "name", "red stamp"):
            t.add_column(col)
        for k in range(N_KINDS):
            t.add_row(CODES[k], card_title(k), "red" if IS_RED[k] else "")
        console.print(t)
        return
    if svg.exists() and not svg.is_dir():
        raise RulesError(f"--svg {svg} is a file, not a folder")
    try:
        written = write_svgs(svg, index=index)
    except OSError as err:
        raise RulesError(f"--svg {svg}: cannot write there ({err.strerror})") from None
    console.print(f"{len(written)} drawings written to {svg}")


@app.command()
def glossary() -> None:
    """The terms of the games (mata, tan, ceki, kena, ayam, kandang…)."""
    path = docs_dir() / "glossary.md"
    if not path.exists():
        raise RulesError("the glossary is missing from this installation")
    console.print(Markdown(path.read_text(encoding="utf-8")))
    console.print(card_legend())


def _level_text(game: str, level: str) -> str:
    """A bot level as ``games`` lists it: ``learned`` with the table sizes a model ships for."""
    if level != "learned":
        return level
    from cherki.bots.shipped import shipped_players

    return f"learned ({', '.join(f'{n}p' for n in shipped_players(game))})"


@app.command()
def games() -> None:
    """List the games, their player counts, presets and bot levels."""
    t = Table(header_style="bold")
    t.add_column("game")
    t.add_column("players")
    t.add_column("presets (first is the default)")
    t.add_column("bots")
    for g in GAMES.values():
        lo, hi = g.players
        t.add_row(
            f"{g.name}\n[dim]{g.title}[/]",
            f"{lo}-{hi}" if lo != hi else str(lo),
            ", ".join(p.name for p in g.presets),
            ", ".join(_level_text(g.name, level) for level in levels_for(g.name)),
        )
    console.print(t)
    console.print(
        Text("Presets are described in ").append(cherki_command("rules", "GAME"), style="bold"),
        soft_wrap=True,
    )


def main() -> None:
    """Entry point: user mistakes become a one-line message and exit status 2."""
    try:
        app()
    except CherkiError as err:
        # the message may quote what a user typed: printed as text, never as markup
        # one line, however long: never wrapped to the terminal's width
        Console(stderr=True, highlight=False, soft_wrap=True).print(
            Text("error: ", style="red").append(str(err))
        )
        sys.exit(2)


# -- arena -------------------------------------------------------------------------------------
@app.command()
def arena(
    game_name: GameArg,
    bots: Annotated[
        str, typer.Option("--bots", help="Comma list of bot levels, e.g. heuristic,search,random.")
    ] = "heuristic,random",
    hands: Annotated[int, typer.Option("--hands", help="Hands to play.")] = 200,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first hand.")] = 1,
    players: Annotated[
        int | None, typer.Option("--players", "-n", help="Number of players.")
    ] = None,
    rules: Annotated[str | None, typer.Option("--rules", help="Rules preset.")] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Change a rule: NAME=VALUE.")
    ] = None,
    json_file: Annotated[
        Path | None,
        typer.Option(
            "--json",
            help="Write the figures as JSON here; the hands are kept in FILE.hands.jsonl as "
            "they finish, so the same command run again goes on from where it stopped.",
        ),
    ] = None,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Write a bar chart (PNG) here.")
    ] = None,
    duplicate: Annotated[
        bool,
        typer.Option(
            "--duplicate/--no-duplicate",
            help="Play each deal once per seat rotation, so the luck of the deal cancels out.",
        ),
    ] = True,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", help="Processes to share the hands between.")
    ] = 1,
    field: Annotated[
        str | None,
        typer.Option(
            "--field",
            help="Seat each bot in turn among players of this level, same deals and seats "
            "(hands: a multiple of bots × players).",
        ),
    ] = None,
    search_rollouts: Annotated[
        int | None,
        typer.Option(
            "--search-rollouts",
            min=2,
            help="Rollouts a search decision takes (default: the game's). The same seed then "
            "gives the same figures on any machine.",
        ),
    ] = None,
    search_ms: Annotated[
        float | None,
        typer.Option(
            "--search-ms",
            min=1,
            help="Let search bots think by the clock instead, this many ms a decision "
            "(figures then depend on the machine and its load).",
        ),
    ] = None,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            "--policy",
            help="A policy seat: NAME=module:function or NAME=file.py:function, a function "
            "(observation vector, mask) -> action; then --bots policy:NAME.",
        ),
    ] = None,
) -> None:
    """Bots play many hands, seats rotated; win rates and mean points with 95% intervals.

    Search bots have a budget in rollouts by default, so a seed reproduces the figures."""
    from cherki.bots.policy import ENV_VAR, register_specs
    from cherki.play.arena import MIN_SAMPLES, mean_interval, plot_arena, run_arena, verdict

    if policy:  # registered here, and for the processes of --jobs through the environment
        text = ";".join(policy)
        register_specs(text)
        os.environ[ENV_VAR] = ";".join(t for t in (os.environ.get(ENV_VAR), text) if t)
    game = _game(game_name)
    rules_obj = game.rules(rules, **_parse_options(option))
    _writable(json_file, "--json")
    _writable(plot, "--plot")
    _plot_format(plot)
    levels = [lv.strip() for lv in bots.split(",") if lv.strip()]
    if search_rollouts is not None and search_ms is not None:
        raise RulesError("give --search-rollouts or --search-ms, not both")
    search = SearchBudget(search_rollouts, search_ms)
    for lv in levels:
        make_bot(game.name, lv, search=search)
    check_run(hands, jobs)
    log = None
    if json_file is not None:
        from cherki.ui.arena_log import ArenaLog, log_path

        settings: dict[str, JSON] = {
            "game": game.name, "bots": levels, "hands": hands, "seed": seed,
            "players": players, "rules": repr(rules_obj), "duplicate": duplicate,
            "field": field, "search": [search_rollouts, search_ms], "policy": policy,
        }  # fmt: skip
        log = ArenaLog(log_path(json_file), settings)
        if log.done:
            console.print(f"Going on from {len(log.done)} hands already in {log.path}.")
        log.open()
    with progress(f"{game.title} arena", hands, len(log.done) if log else 0) as update:
        res = run_arena(
            game,
            levels,
            hands,
            seed,
            players=players,
            rules=rules_obj,
            duplicate=duplicate,
            jobs=jobs,
            progress=update,
            field=field,
            search=search,
            done=log.done if log else None,
            save=log.save if log else None,
        )
    if log is not None:
        log.close(finished=False)
    t = Table(
        title=f"{game.title}: {hands} hands, {res.players} players, seed {seed}"
        + (f", each bot among {field} players" if field else "")
        + (f", search {res.search} a decision" if res.search else ""),
        header_style="bold",
    )
    for col in ("bot", "win rate", "mean points / hand (95% CI)", "median ms", "p99 ms"):
        t.add_column(col, justify="left" if col == "bot" else "right")
    data = res.to_json()
    for b, row in zip(res.bots, data["bots"], strict=True):
        wi = b.win_interval()
        mi = mean_interval(b.samples)
        t.add_row(
            b.label,
            f"{wi.mean:.1%} [{wi.low:.1%}, {wi.high:.1%}]",
            f"{mi.mean:+.2f} [{mi.low:+.2f}, {mi.high:+.2f}]",
            f"{row['median_decision_ms']:.2f}",
            f"{row['p99_decision_ms']:.2f}",
        )
    console.print(t)
    for first, second, iv, samples in res.differences():
        said = verdict(iv, samples)
        if said == "too few":
            unit = "deals" if duplicate or field else "hands"
            said = f"too few {unit} to tell: {samples}, at least {MIN_SAMPLES} needed"
        console.print(
            f"{first} − {second}: {iv.mean:+.2f} points/hand "
            f"[{iv.low:+.2f}, {iv.high:+.2f}] ({said})"
        )
    if json_file:
        text = json.dumps(data, indent=2) + "\n"
        _write_file(json_file, "--json", lambda p: p.write_text(text, encoding="utf-8"))
        console.print(f"Figures written to {json_file}")
        if log is not None:
            log.close(finished=True)
    if plot:
        _write_file(plot, "--plot", lambda p: plot_arena(res, str(p)))
        console.print(f"Plot written to {plot}")


# -- simulate and compare (cherki.ui.cli_sim) --------------------------------------------------
app.command()(simulate)
app.command()(compare)

# -- training the learned bots (cherki.ui.cli_train, the train extra) -----------------------
app.command()(train)

# -- the browser app (cherki.ui.cli_serve) ---------------------------------------------------
app.command()(serve)

# -- the review of a hand (cherki.ui.cli_review) -----------------------------------------------
app.command()(review)
app.command()(learn)  # issue 37: a game's course (cherki/ui/learn.py)
