"""Terminal rendering: cards, hands, the table, events and results as Rich renderables.

Plain functions with keyword-only options, so the same model renders anywhere. Nothing here
changes game state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from cherki.core.cards import CODES, IS_RED, N_KINDS, RANK, SUIT, long_name
from cherki.core.events import Event, Result
from cherki.ui.text import format_cents

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


def event_text(event: Event, names: Sequence[str]) -> Text:
    """One line for an event as the viewer saw it (hidden cards already removed)."""
    line = event.describe(names)
    if line.startswith("You "):  # second person: "You draw", not "You draws"
        head, _, rest = line[4:].partition(" ")
        verb = {"passes": "pass", "changes": "change"}.get(head, head.removesuffix("s"))
        line = f"You {verb} {rest}".rstrip().replace(" and shows it", " and show it")
    style = {
        "call": "bold yellow",
        "sampei": "bold green",
        "end": "bold",
        "reveal": "cyan",
        "pass": "dim",
        "deal": "dim",
    }.get(event.kind, "")
    text = Text(line, style=style)
    if event.card is not None:
        code = CODES[event.card]
        text.highlight_words([code], "bold red" if IS_RED[event.card] else "bold")
    return text


def result_table(result: Result, names: Sequence[str], *, cents: bool = True) -> Group:
    """The score broken down item by item and what each seat pays or receives."""
    parts: list[Any] = [Text(with_names(result.summary, names), style="bold")]
    if result.items:
        items = Table(title="Score", show_header=True, header_style="bold")
        items.add_column("item")
        items.add_column("points", justify="right")
        for it in result.items:
            pts = f"× {it.multiplier}" if it.multiplier != 1 else f"{it.points:+d}"
            items.add_row(it.label, pts)
        items.add_row(Text("total", style="bold"), Text(str(result.total), style="bold"))
        parts.append(items)
    if result.payments:
        pay = Table(title="Payments", show_header=True, header_style="bold")
        pay.add_column("seat")
        pay.add_column("points", justify="right")
        if cents:
            pay.add_column("money", justify="right")
        for s, p in enumerate(result.payments):
            row = [names[s], f"{p:+d}"]
            if cents:
                row.append(money_text(result.money[s] if result.money else 0))
            pay.add_row(*row)
        parts.append(pay)
    detail = result.detail
    if detail.get("sets"):
        parts.append(Text("Winning hand: " + "  ".join(f"[{s}]" for s in detail["sets"])))
    if detail.get("turned"):
        parts.append(Text(f"Turned for scoring: {detail['turned']}"))
    return Group(*parts)


def with_names(text: str, names: Sequence[str]) -> str:
    """Put the players' names in place of "seat N" in a sentence from the rules core."""
    for i in sorted(range(len(names)), reverse=True):
        owner = "your" if names[i] == "You" else f"{names[i]}'s"
        text = text.replace(f"Seat {i}'s", owner).replace(f"seat {i}'s", owner)
        text = text.replace(f"Seat {i} ", f"{names[i]} ").replace(f"seat {i} ", f"{names[i]} ")
    return text.replace("You wins", "You win").replace("You won", "You won")


def money_text(cents: int) -> str:
    """Money with its sign, for payment tables: ``+$1.20``, ``-50¢``."""
    return ("+" if cents >= 0 else "") + format_cents(cents)


def card_legend() -> Table:
    """All 30 cards with their names, for help screens."""
    t = Table(title="Cards", show_header=True, header_style="bold")
    t.add_column("code")
    t.add_column("card")
    for k in range(N_KINDS):
        t.add_row(card_text(k), long_name(k) + (" — red stamp" if IS_RED[k] else ""))
    return t
