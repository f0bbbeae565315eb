"""The terminal table: a person at one seat (or nobody, watching) and bots, on the session
loop — what they see, what they may type, and how their words become actions."""

from __future__ import annotations

import time
from pathlib import Path

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from cherki.core.cards import parse_card
from cherki.core.contract import Game, Observation, Rules, State
from cherki.core.errors import CherkiError, NotationError
from cherki.core.events import Event, EventKind, Origin
from cherki.core.view import Hint
from cherki.i18n import Words
from cherki.i18n import words as i18n_words
from cherki.play.records import Record
from cherki.play.refusals import refusal
from cherki.play.session import Acted, HandEnded, HandStarted, Session, Stopped, StopSession
from cherki.ui.command import cherki_command
from cherki.ui.terminal import (
    card_legend,
    cards_text,
    console,
    event_text,
    hand_by_rank,
    result_table,
)
from cherki.ui.text import (
    Voice,
    hints,
    money_text,
    note_line,
    settlement_lines,
    table_lines,
)


# -- play ------------------------------------------------------------------------------------
class RecordSaver:
    """Writes a game's record after every move (``Record.save``: a temporary file renamed
    over the record, so the file always holds the last record written whole). A write that
    fails (a full disk: ``OSError`` errno 28) is said in one line and the game goes on in
    memory; each later move tries again, and a write that works again says so."""

    def __init__(self, path: Path, lang: str | None = None) -> None:
        self.path = path
        #: the person's language (:mod:`cherki.i18n`)
        self.words = i18n_words(lang)
        #: why the last write failed, or None
        self.error: str | None = None

    def __call__(self, record: Record) -> None:
        try:
            record.save(self.path)
        except OSError as err:
            first = self.error is None
            self.error = err.strerror or str(err)
            if first:
                console.print(
                    Text(
                        self.words.t("term.record.cannot_write", path=self.path, error=self.error),
                        style="bold yellow",
                    )
                )
            return
        if self.error is not None:
            self.error = None
            again = self.words.t("term.record.written_again", path=self.path)
            console.print(Text(again, style="yellow"))


class TerminalTable:
    """One terminal session: a person at one seat (or nobody, watching) and bots, on the
    session loop."""

    def __init__(
        self,
        game: Game,
        session: Session,
        human: int | None,
        delay: float,
        record_path: Path | None,
        *,
        reveal_seed: bool = False,
        autosaved: bool = False,
        saver: RecordSaver | None = None,
        lang: str | None = None,
    ) -> None:
        #: writes the record (None: nothing written); knows whether the last write failed
        self.saver = saver
        self.reveal_seed = reveal_seed
        self.autosaved = autosaved
        #: Ctrl-C stopped the game (exit status 130, as for any interrupted command)
        self.interrupted = False
        self.game = game
        self.session = session
        self.human = human
        self.delay = delay
        self.record_path = record_path
        self.voice = Voice.of(session.names, len(session.names), human, lang)
        #: the person's language (:mod:`cherki.i18n`)
        self.words = self.voice.words
        self.state: State | None = None

    # the viewer: the human's seat, or everything when watching
    def _view(self, event: Event) -> Event:
        return event if self.human is None else event.seen_by(self.human)

    def run(self) -> None:
        try:
            self._run()
        except KeyboardInterrupt:  # Ctrl-C while the bots move: keep everything, then stop
            console.print()
            self.interrupted = True
            self._stopped(self.session.stop())

    def _stopped(self, ev: Stopped) -> None:
        w = self.words
        console.print(Text(w.t("term.unfinished"), style="yellow"))
        if self.record_path and not self._unsaved():
            kept = w.t("term.autosaved" if self.autosaved else "term.saved")
            resume = cherki_command("play", "--resume", str(self.record_path))
            console.print(
                Text(w.t("term.record_so_far", kept=kept, path=self.record_path) + " ").append(
                    resume, style="bold"
                ),
                soft_wrap=True,  # the command: one line with nothing after it, to copy as it is
            )
        raise typer.Exit(130 if self.interrupted else 0)

    def _unsaved(self) -> bool:
        """Say so when the last write of the record failed (a full disk): the file holds
        the last record written whole."""
        if self.saver is None or self.saver.error is None:
            return False
        console.print(
            Text(self.words.t("term.record.unsaved", error=self.saver.error, path=self.saver.path))
        )
        return True

    def _run(self) -> None:
        session = self.session
        match = session.match
        for ev in session.run(self.human_turn, another_hand=self.another_hand):
            if isinstance(ev, HandStarted):
                self.state = state = ev.state
                w = self.words
                again = w.t("term.resumed", n=len(state.history)) if ev.resumed else ""
                hand = w.t("term.hand", n=ev.index + 1)
                console.rule(f"[bold]{escape(self.game.title)} — {escape(hand)}{escape(again)}")
                starter = self.voice.say("term.starts", state.current)
                way = self.game.direction
                way = w.t(f"term.way.{way}") if w.has(f"term.way.{way}") else way
                console.print(Text(w.t("term.turns", who=starter, way=way)))
                if match.pot:
                    console.print(Text(w.t("term.pot", n=match.pot)))
                if self.human is None:
                    self.show_all_hands(state)
                for e in state.log:  # what the deal turned face up (Cholek Tiga's pool)
                    if e.kind == EventKind.TURN:
                        console.print(event_text(e, self.game, self.voice))
            elif isinstance(ev, Acted):
                for e in ev.events:
                    if e.kind != EventKind.END:
                        console.print(event_text(self._view(e), self.game, self.voice))
                if session.seats[ev.seat].bot is not None and self.delay:
                    time.sleep(self.delay)
            elif isinstance(ev, HandEnded):
                if self.state is not None:
                    console.print(Text(self.words.t("term.hands_at_end"), style="dim"))
                    self.show_all_hands(self.state)
                console.print(result_table(ev.result, self.game, self.voice))
                if ev.result.redeal:
                    console.print(Text(self.words.t("term.dealt_again"), style="yellow"))
                for note in ev.notes:
                    console.print(Text(note_line(note, self.game, self.voice), style="bold yellow"))
            elif isinstance(ev, Stopped):
                self._stopped(ev)
        if len(match.results) > 1:
            self.print_sheet()
        lines = (
            settlement_lines(match.ledger, self.game, self.voice)
            if match.ledger is not None
            else []
        )
        if lines:
            console.rule(f"[bold]{escape(self.words.t('term.settlement'))}")
            for line in lines:
                console.print(Text(line))
        if self.reveal_seed:
            console.print(Text(self.words.t("term.seed", seed=session.seed)))
        if self.record_path and not self._unsaved():
            console.print(
                Text(self.words.t("term.record_saved", path=self.record_path) + " ").append(
                    cherki_command("replay", str(self.record_path)), style="bold"
                ),
                soft_wrap=True,
            )

    def another_hand(self) -> bool:
        """Hand by hand: ask whether to deal again until the answer is yes or no (the end
        of input ends the match)."""
        while True:
            try:
                ask = escape(self.words.t("term.another"))
                answer = console.input(f"{ask} [bold](y/n)[/] ").strip().lower()
            except (EOFError, KeyboardInterrupt):
                console.print()
                return False
            if answer in ("", "y", "yes", "ya"):
                return True
            if answer in ("n", "no", "t", "tidak", "tak"):
                return False
            console.print(Text(self.words.t("term.y_or_n", answer=answer), style="yellow"))

    def print_sheet(self) -> None:
        match = self.session.match
        rows = match.sheet_rows()
        has_pot = any(r["pot"] is not None for r in rows)
        w = self.words
        t = Table(title=w.t("term.sheet_title"), header_style="bold")
        t.add_column(w.t("page.sheet.hand"))
        for name in self.voice.names:  # as the reader's language names them
            t.add_column(Text(name), justify="right")
        t.add_column(w.t("page.sheet.how"))
        if has_pot:
            t.add_column(w.t("page.sheet.pot"), justify="right")
        for r in rows:
            totals = r["totals"]
            assert isinstance(totals, list)
            cells = [
                str(r["hand"]),
                *[f"{p:+d}" for p in totals],
                self.game.view().ending(str(r["how"]), self.voice),
            ]
            if has_pot:
                cells.append("" if r["pot"] is None else str(r["pot"]))
            t.add_row(*cells)
        if match.scores != match.totals:
            scored = w.t("page.sheet.scored")
            t.add_row(scored, *[str(x) for x in match.scores], "", *([""] if has_pot else []))
        money = [w.t("page.result.money"), *[money_text(m) for m in match.money], ""]
        t.add_row(*money, *([""] if has_pot else []))
        console.print(t)
        if match.target is not None or match.hands is not None:
            best = max(match.scores)
            leaders = [self.voice.name(i) for i, x in enumerate(match.scores) if x == best]
            verb = "won" if match.is_over() else "lead"
            console.print(
                Text(
                    w.t(f"sheet.match_{verb}", names=self.voice.both(leaders), best=best),
                    style="bold",
                )
            )
        teams = match.team_totals()
        sides = self.game.sides(match.rules, len(match.players))
        if teams is not None and sides is not None:
            for side, total in zip(sides, teams, strict=True):
                who = " & ".join(self.voice.name(t) for t in side)
                console.print(Text(w.t("sheet.side", names=who, total=f"{total:+d}")))

    def show_all_hands(self, state: State) -> None:
        for s in range(state.n):
            line = Text(f"{self.voice.name(s)}: ", style="bold")
            console.print(line.append_text(hand_by_rank(state.observation(s).hand)))

    def show_pile(self, obs: Observation) -> None:
        """Every face-up card the table shows whole, pile by pile (the discards newest
        first; Cholek Tiga's pool), as the game's view declares them."""
        for title, shown in self.game.view().piles(obs, self.voice):
            console.print(Text(f"{title}: ").append_text(cards_text(shown) if shown else Text("-")))

    def show_score(self) -> None:
        """The match so far: the score sheet, and Chot's sides, tokens and bangkong."""
        match = self.session.match
        if match.results:
            self.print_sheet()
        else:
            console.print(Text(self.words.t("term.no_score_yet")))
        sides = self.game.sides(match.rules, len(match.players))
        if sides is not None:
            for side in sides:
                who = " & ".join(self.voice.name(t) for t in side)
                console.print(Text(self.words.t("term.side", names=who)))
        if match.ledger is not None:
            for line in self.game.view().ledger_lines(match.ledger, self.voice):
                console.print(Text(line))

    def show_table(self, state: State) -> None:
        seat = self.human if self.human is not None else 0
        for line in table_lines(state.observation(seat), self.game, self.voice):
            text = Text(line)
            text.highlight_regex(r"\b(S9|RF|OT)\b", "bold red")  # red stamps, as in the hand
            console.print(text)

    def _action_words(self, action: int, obs: Observation) -> str:
        """A legal action as the reader reads it: its notation (what to type), and in a
        language other than English its label in that language before it
        ("Buang C1 [discard C1]")."""
        text = self.game.action_text(action)
        if self.words.lang == "en":
            return text
        label = self.game.view().action(action, obs, self.voice)["label"]
        return text if label.casefold() == text.casefold() else f"{label} [{text}]"

    def human_turn(self, state: State, seat: int) -> int:
        obs = state.observation(seat)
        console.print()
        self.show_table(state)
        w = self.words
        mine = Text(w.t("page.table.your_hand") + ": ", style="bold")
        console.print(mine.append_text(hand_by_rank(obs.hand)))
        if obs.drawn is not None:
            # the card came from the stock, or was the discard the player just took
            verb = w.t(
                "status.you_took" if obs.drawn_from == Origin.DISCARD else "status.you_drew",
                card="",
            )
            console.print(Text(verb.rstrip() + ": ").append_text(cards_text([obs.drawn])))
        legal_texts = [self._action_words(a, obs) for a in obs.legal]
        console.print(Text(w.t("term.you_may") + " ", style="dim") + Text(" · ".join(legal_texts)))
        while True:
            try:
                raw = console.input("[bold]> [/]")
            except EOFError:
                console.print()
                raise StopSession from None
            except KeyboardInterrupt:
                console.print()
                self.interrupted = True
                raise StopSession from None
            text = raw.strip()
            if not text:
                continue
            word = text.lower()
            if word in ("quit", "exit", "q"):
                raise StopSession
            if word in ("help", "?"):
                self.print_help(legal_texts)
                continue
            if word == "hint":
                for line in hint_lines(self.game, obs, self.words):
                    console.print(line)
                continue
            if word in ("hand", "h"):
                console.print(hand_by_rank(obs.hand))
                continue
            if word in ("table", "t?"):
                self.show_table(state)
                continue
            if word == "pile":
                self.show_pile(obs)
                continue
            if word == "score":
                self.show_score()
                continue
            if word == "scoring":
                self.show_scoring()
                continue
            if word == "cards":
                console.print(card_legend(self.words.lang))
                continue
            try:
                action = resolve_input(self.game, text, list(obs.legal))
                return state.check(action, seat)[1]
            except CherkiError as err:
                console.print(
                    Text(refusal(err, self.words.lang, self.game), style="red").append(
                        "  " + self.words.t("term.type_help"), style=""
                    )
                )

    def print_help(self, legal_texts: list[str]) -> None:
        w = self.words
        short = self.game.view().help(self.voice)
        console.print(
            Text(w.t("term.help.type", actions=", ".join(legal_texts)) + "\n")
            + Text.from_markup(short + "\n" + w.t("term.help.also"))
            + Text.from_markup(" " + w.t("rules.scoring.help"))
        )

    def show_scoring(self) -> None:
        """What each score item pays under the rules in force (the game's view declares it:
        ``GameView.scoring_lines``)."""
        console.print(Text(self.words.t("rules.scoring.term"), style="bold"))
        for line in scoring_text(self.game, self.session.rules, self.voice):
            console.print(line)


#: the short forms of the common actions; each game's view adds its own (``short_forms``)
SHORT = {"d": "draw", "t": "take"}


def resolve_input(game: Game, text: str, legal: list[int]) -> int:
    """Turn what a person typed into an action id: full notation or a short form."""
    words = text.strip().split()
    low = " ".join(words).lower()
    low = {**SHORT, **game.view().short_forms}.get(low, low)
    texts = {game.action_text(a).lower(): a for a in legal}
    if low in texts:
        return texts[low]
    for candidate in (f"discard {low}",):
        if candidate in texts:
            return texts[candidate]
    if len(words) == 2 and words[1].lower() == "call":
        card = words[0].lower()
        calls = [a for t, a in texts.items() if t.startswith(f"discard {card} ")]
        if len(calls) == 1:
            return calls[0]
        if f"discard {card}" not in texts:  # not a discard open now: the rules say why
            return game.parse_action(f"discard {card}")
        raise NotationError("refuse.no_call_after", card=words[0].upper())
    prefixed = [a for t, a in texts.items() if t.startswith(low)]
    if len(prefixed) == 1:
        return prefixed[0]
    try:
        return game.parse_action(low)
    except NotationError:
        pass
    if len(words) == 1:
        parse_card(words[0])  # a lone word that is no command: say if it is no card either
        return game.parse_action(f"discard {low}")
    return game.parse_action(text)  # raises the game's own notation message


def scoring_text(game: Game, rules: Rules, voice: Voice) -> list[Text]:
    """The scoring list for the terminal: each line's label, then what it pays in bold."""
    out = []
    for line in game.view().scoring_lines(rules, voice):
        text = Text("  " + line.label)
        if line.points:
            text.append(": ").append(line.points, style="bold")
        out.append(text)
    return out or [Text(voice.t("rules.scoring.none"))]


def hint_lines(game: Game, obs: Observation, lang: Words | None = None) -> list[Text]:
    """The seat's hint (:func:`cherki.ui.text.hints`: what the hand waits on, the heuristic
    bot's suggestion) for the terminal, the cards waited on coloured, in the language of
    ``lang`` (English unless told)."""
    w = lang if lang is not None else i18n_words()
    voice = Voice((), words=w)
    return [_hint_text(h, voice) for h in hints(game, obs, voice)]


_STYLES = {"good": "bold green", "dim": "dim", "why": "italic", "act": ""}


def _hint_text(hint: Hint, voice: Voice) -> Text:
    if not hint.lists_waits:
        return Text(hint.text, style=_STYLES.get(hint.style, ""))
    out = Text(hint.text + " ")
    for i, (k, n) in enumerate(zip(hint.waits, hint.unseen, strict=True)):
        if i:
            out.append(", ")
        out.append_text(cards_text([k]))
        out.append(voice.t("hint.unseen", n=n), style="dim")
    out.append(voice.words.count("hint.live", sum(hint.unseen)))
    return out
