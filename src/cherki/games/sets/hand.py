"""A hand of a game of sets analysed for people (``Game.analyse_hand``, ``cherki hand``):
whether it wins, its best sets and what is left over, its mata, and what it waits on and
may call, or, a full hand, which discard leaves a hand that may call. The analysis is
:func:`~cherki.games.sets.analysis.analyse_under`'s, under the game's own rules (its sets,
its honours unless others are asked for, whether a pair goes out); the calls are named
with the game's own words (``tan``/``ceki``, Tantanan's ``kowah``...).

Our specifications: a hand to analyse holds a full hand's cards (after drawing) or one
fewer (waiting); any other count is refused, naming both.
"""

from __future__ import annotations

from collections.abc import Sequence

from cherki.core.cards import CODES, N_KINDS, format_cards
from cherki.core.errors import RulesError
from cherki.core.events import JSON
from cherki.core.sets import HONOUR_RULES
from cherki.core.view import AnalysisLine, HandAnalysis
from cherki.games.sets.analysis import analyse_under
from cherki.games.sets.rules import SetsRules

__all__ = ["analyse_for_people"]


def analyse_for_people(
    counts: Sequence[int],
    rules: SetsRules,
    *,
    title: str,
    call_words: tuple[str, str],
    honours: str | None = None,
) -> HandAnalysis:
    """The analysis of ``counts`` under ``rules`` (``title``: the game's, for a hand it
    cannot hold; ``call_words``: its tan-like and ceki-like calls)."""
    n = sum(counts)
    full = rules.set_size * rules.sets
    if n not in (full - 1, full):
        raise RulesError(
            f"a {title} hand has {full - 1} cards (waiting) or {full} (after drawing), not {n}"
        )
    rule = honours or rules.honours
    if rule not in HONOUR_RULES:
        raise RulesError(f"honours cannot be {rule!r}: one of {', '.join(HONOUR_RULES)}")
    report = analyse_under(counts, rules, rule)
    words = dict(zip(("tan", "ceki"), call_words, strict=True))
    calls: dict[str, JSON] = {
        CODES[k]: {"call": words[c], "waits": [CODES[w] for w in ws]}
        for k, (c, ws) in sorted(report.discards_to_call.items())
    }
    sets = [format_cards(s) for s in report.sets]
    waits = [CODES[k] for k in report.waits]
    kinds = tuple(k for k in range(N_KINDS) for _ in range(counts[k]))
    data: dict[str, JSON] = {
        "cards": n,
        "hand": format_cards(kinds),
        "honours": rule,
        "winning": report.winning,
        "sets": sets,
        "leftover": format_cards(report.leftover),
        "mata": report.mata,
        "red_mata": report.red_mata,
        "call": words[report.call] if report.call else None,
        "waits": waits,
        "discards_to_call": calls,
    }
    lines = [
        AnalysisLine((("Hand: ", ""),), kinds, by_rank=True),
        AnalysisLine.of("Sets: " + ("  ".join(f"[{s}]" for s in sets) or "none")),
    ]
    if report.leftover:
        lines.append(AnalysisLine((("Not in a set: ", ""),), tuple(report.leftover)))
    lines.append(AnalysisLine.of(f"Mata: {report.mata} ({report.red_mata} red)"))
    if n == full:
        if report.winning:
            lines.append(AnalysisLine.of("A winning hand.", "good"))
        else:
            lines.append(AnalysisLine.of("Not a winning hand."))
        for k, (c, ws) in sorted(report.discards_to_call.items()):
            on = ", ".join(CODES[w] for w in ws)
            lines.append(AnalysisLine.of(f"Discard {CODES[k]} → call {words[c]}, waiting on {on}"))
        if not report.discards_to_call and not report.winning:
            lines.append(AnalysisLine.of("No discard leaves a hand that may call."))
    elif report.call:
        on = ", ".join(waits)
        lines.append(AnalysisLine((("May call ", ""), (words[report.call], "strong"),
                                   (f", waiting on {on}.", ""))))  # fmt: skip
    else:
        lines.append(AnalysisLine.of(f"Not waiting: it may not call {' or '.join(call_words)}."))
    return HandAnalysis(data, tuple(lines))
