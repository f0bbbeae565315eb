"""Cholek Tiga rules: action ids, phases, option values, presets and scoring."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from cherki.core.cards import (
    IS_RED,
    N_KINDS,
)
from cherki.core.events import JSON
from cherki.core.options import Option, Preset, Rules
from cherki.core.sets import GROUP_KINDS, HONOUR_RULES

HALF_PACKS: Final = 4
HAND_SIZE: Final = 3

# -- action ids -------------------------------------------------------------------------------
DISCARD: Final = 0  # DISCARD + kind
TURN: Final = N_KINDS
PASS: Final = TURN + 1  # "no capture"
CAPTURE: Final = PASS + 1  # CAPTURE + index into CAPTURES


def _capture_table() -> tuple[tuple[int, int, int], ...]:
    """Every (capturing card, pool card, pool card) of one rank under the widest grouping
    (``rank1``: every other grouping's groups are subsets of its groups); pool cards in kind
    order."""
    out: list[tuple[int, int, int]] = []
    for kinds in GROUP_KINDS["rank1"]:
        for c in kinds:
            for a, b in itertools.combinations_with_replacement(kinds, 2):
                out.append((c, a, b))
    return tuple(out)


CAPTURES: Final = _capture_table()
CAPTURE_ID: Final[dict[tuple[int, int, int], int]] = {
    t: CAPTURE + i for i, t in enumerate(CAPTURES)
}
NUM_ACTIONS: Final = CAPTURE + len(CAPTURES)

# -- phases -----------------------------------------------------------------------------------
PHASE_DISCARD: Final = 0
PHASE_CAPTURE: Final = 1
PHASE_TURN: Final = 2
PHASE_OVER: Final = 3
PHASE_NAMES: Final = ("discard", "capture", "turn", "over")

FROM_HAND: Final = 0
FROM_STOCK: Final = 1

#: Points for n identical captured cards, normal and red-stamped [002].
NORMAL_POINTS: Final = (0, 0, 0, 3, 8)
RED_POINTS: Final = (0, 1, 4, 3, 8)

#: Cholek Tiga's rule options, each with its source [002].
CHOLEK_OPTIONS: Final = (
    Option(
        "honours",
        "rank1",
        "honours in captures: with the 1s (rank1), WF and RF with the 1s (frames), alike (own)",
        "[002] Pwee's card table",
        choices=HONOUR_RULES,
        title="Honours (WF, RF, OT) in captures",
    ),
    Option(
        "initial_pool",
        0,
        "cards turned up into the pool at the deal",
        "ours ([002] starts with an empty pool)",
        minimum=0,
        maximum=60,
        title="Cards turned up at the deal",
    ),
    Option(
        "leftover_pool",
        "none",
        "the pool left at the end: nobody's (none), or the last capturer's",
        "ours",
        choices=("none", "last-capturer"),
        title="The pool left at the end",
    ),
    Option(
        "tie_rule",
        "each",
        "tied top scorers each collect from the others (each), or nobody is paid (none)",
        "ours",
        choices=("each", "none"),
        title="Tied top scorers",
    ),
    Option(
        "cents_per_point",
        10,
        "money a point is worth, in cents",
        "[002] R-PAY (Singapore cents)",
        minimum=0,
        title="Money a point (cents)",
        money=True,
    ),
    Option(
        "ayam_cents",
        50,
        "the ayam bonus (three alike from the hand), in cents",
        "[002]",
        minimum=0,
        title="Ayam bonus (cents)",
        money=True,
    ),
    Option(
        "kandang_cents",
        100,
        "the kandang bonus (three alike turned up), in cents",
        "[002]",
        minimum=0,
        title="Kandang bonus (cents)",
        money=True,
    ),
    Option(
        "ang_pow_cents",
        100,
        "the ang pow (three red alike), in cents",
        "[002]",
        minimum=0,
        title="Ang pow (cents)",
        money=True,
    ),
    Option(
        "ang_pow_besar_cents",
        200,
        "the ang pow besar (four red alike), in cents",
        "[002]",
        minimum=0,
        title="Ang pow besar (cents)",
        money=True,
    ),
)


@dataclass(frozen=True, slots=True)
class CholekRules(Rules):
    """Every rule option of Cholek Tiga (see the module docstring)."""

    honours: str = "rank1"
    initial_pool: int = 0
    leftover_pool: str = "none"
    tie_rule: str = "each"
    cents_per_point: int = 10
    ayam_cents: int = 50
    kandang_cents: int = 100
    ang_pow_cents: int = 100
    ang_pow_besar_cents: int = 200

    def to_json(self) -> dict[str, JSON]:
        return {f: getattr(self, f) for f in self.__dataclass_fields__}


CHOLEK_PRESETS: Final = (
    Preset(
        "pwee",
        CholekRules(),
        "Cholek Tiga after Pwee (2003): 10¢ a point, ayam 50¢, kandang $1, ang pow $1, "
        "ang pow besar $2",
        "[002] Pwee 2003 p.125-7",
        title="Singapore (Pwee, 2003)",
    ),
)


def score_captured(
    counts: Sequence[int],
) -> tuple[int, list[tuple[int, int, int]], list[int], list[int]]:
    """(points, scoring lines, ang pow kinds, ang pow besar kinds) of a seat's captured cards;
    a line is ``(card kind, copies counted (at most 4), points)``."""
    points = 0
    lines: list[tuple[int, int, int]] = []
    ang_pow: list[int] = []
    besar: list[int] = []
    for k in range(N_KINDS):
        c = counts[k]
        if not c:
            continue
        if IS_RED[k]:
            p = RED_POINTS[min(c, 4)]
            if c == 3:
                ang_pow.append(k)
            elif c >= 4:
                besar.append(k)
        else:
            p = NORMAL_POINTS[min(c, 4)]
        if p:
            points += p
            lines.append((k, min(c, 4), p))
    return points, lines, ang_pow, besar
