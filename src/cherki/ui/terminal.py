"""Terminal rendering: cards, hands, the table, events and results as Rich renderables.

Plain functions with keyword-only options, so the same model renders anywhere. Nothing here
changes game state.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from cherki.core.cards import CODES, IS_RED, N_KINDS, RANK, SUIT, long_name
from cherki.core.contract import Game
from cherki.core.events import Event, Result
from cherki.core.view import AnalysisLine, Emphasis
from cherki.i18n import words
from cherki.ui.text import (
    Voice,
    event_line,
    item_label,
    item_points,
    money_text,
    result_summary,
)

#: The terminal every command writes to.
console = Console(highlight=False)

SUIT_STYLE = ("yellow", "green", "cyan")


def card_text(kind: int, *, mark_red: bool = True) -> Text:
    """A card code, red-stamped cards in red with a ``*`` mark."""
    code = CODES[kind]
    if IS_RED[kind] and mark_red:
        return Text(code + "*", style="bold red")
    style = "magenta" if SUIT[kind] < 0 else SUIT_STYLE[SUIT[kind]]
    return Text(code, style=style)


def cards_text(cards: Sequence[int]) -> Text:
    out = Text()
    for i, k in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(k))
    return out


def hand_by_rank(counts: Sequence[int]) -> Text:
    """The hand grouped by printed rank (1-9), honours with the 1s, e.g. ``1: C1 WF | 2: …``."""
    groups: dict[int, list[int]] = {}
    for k in range(N_KINDS):
        for _ in range(counts[k]):
            groups.setdefault(RANK[k], []).append(k)
    out = Text()
    for i, rank in enumerate(sorted(groups)):
        if i:
            out.append("  │ ", style="dim")
        out.append(f"{rank}: ", style="bold")
        out.append_text(cards_text(groups[rank]))
    return out


#: the terminal's styles for a line's emphasis (:data:`cherki.core.view.Emphasis`)
EMPHASIS: dict[Emphasis, str] = {"": "", "strong": "bold", "good": "bold green"}


def analysis_text(line: AnalysisLine) -> Text:
    """A line of a hand's analysis: its words with their emphasis, then its cards (a whole
    hand grouped by rank)."""
    out = Text()
    for words_, emphasis in line.parts:
        out.append(words_, style=EMPHASIS[emphasis])
    if line.by_rank:
        out.append_text(hand_by_rank([line.cards.count(k) for k in range(N_KINDS)]))
    elif line.cards:
        out.append_text(cards_text(line.cards))
    return out


def event_text(event: Event, game: Game, voice: Voice) -> Text:
    """One line for an event as the viewer saw it (hidden cards already removed)."""
    style = {
        "call": "bold yellow",
        "sampei": "bold green",
        "win": "bold green",
        "bonus": "bold yellow",
        "end": "bold",
        "reveal": "cyan",
        "pass": "dim",
        "deal": "dim",
    }.get(event.kind, "")
    text = Text(event_line(event, game, voice), style=style)
    _mark_cards(text, [*([] if event.card is None else [event.card]), *event.cards])
    return text


def _mark_cards(text: Text, cards: Sequence[int]) -> None:
    """Card codes in a line: red-stamped ones in red (the hand marks them alike)."""
    for k in set(cards):
        text.highlight_words([CODES[k]], "bold red" if IS_RED[k] else "bold")


def result_table(result: Result, game: Game, voice: Voice, *, cents: bool = True) -> Group:
    """The score broken down item by item and what each seat pays or receives."""
    parts: list[RenderableType] = [Text(result_summary(result, game, voice), style="bold")]
    if result.items:
        w = voice.words
        items = Table(title=w.t("page.result.score"), show_header=True, header_style="bold")
        items.add_column(w.t("page.result.item"))
        items.add_column(w.t("page.result.points"), justify="right")
        for it in result.items:
            label = Text(item_label(it, result, game, voice))
            _mark_cards(label, it.cards)
            items.add_row(label, item_points(it))
        items.add_row(
            Text(w.t("page.result.total"), style="bold"), Text(str(result.total), style="bold")
        )
        parts.append(items)
    if result.payments:
        w = voice.words
        pay = Table(title=w.t("page.result.payments"), show_header=True, header_style="bold")
        pay.add_column(w.t("page.result.seat"))
        pay.add_column(w.t("page.result.points"), justify="right")
        if cents:
            pay.add_column(w.t("page.result.money"), justify="right")
        for s, p in enumerate(result.payments):
            row = [voice.name(s), f"{p:+d}"]
            if cents:
                row.append(money_text(result.money[s] if result.money else 0))
            pay.add_row(*row)
        parts.append(pay)
    win = result.win
    if win is not None and win.sets:
        line = Text(voice.t("term.winning_hand") + " ")
        for i, group in enumerate(win.sets):
            line.append("  " if i else "")
            line.append("[")
            line.append_text(cards_text(group))
            line.append("]")
        parts.append(line)
    if win is not None and win.turned:
        parts.append(Text(voice.t("page.result.turned") + " ").append_text(cards_text(win.turned)))
    return Group(*parts)


def card_legend(lang: str | None = None) -> Table:
    """All 30 cards with their names (the cards' own names in every language), for help
    screens, the headings in ``lang``."""
    w = words(lang)
    t = Table(title=w.t("term.cards.title"), show_header=True, header_style="bold")
    t.add_column(w.t("term.cards.code"))
    t.add_column(w.t("term.cards.card"))
    red = " — " + w.t("term.cards.red")
    for k in range(N_KINDS):
        t.add_row(card_text(k), long_name(k) + (red if IS_RED[k] else ""))
    return t
