"""All the English of cherki: events, results, tables and money, for every front end."""

from __future__ import annotations

from collections.abc import Sequence

from cherki.core.cards import format_cards


def format_cents(cents: int) -> str:
    """An amount of money for people: ``$21.00`` from 100 cents up, else ``50¢``."""
    sign = "-" if cents < 0 else ""
    c = abs(cents)
    return f"{sign}${c // 100}.{c % 100:02d}" if c >= 100 else f"{sign}{c}¢"


def describe_cards(cards: Sequence[int]) -> str:
    return format_cards(cards)
