"""Action ids, phases and where a drawn card came from, for the games of sets."""

from __future__ import annotations

from typing import Final

from cherki.core.cards import (
    N_KINDS,
)

_NUMBER_WORDS: Final[dict[int, str]] = dict(
    enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
        ]
    )
)

# -- action ids -------------------------------------------------------------------------------
TAKE: Final = 0
DRAW: Final = 1
SAMPEI: Final = 2
PASS: Final = 3
DISCARD: Final = 4  # DISCARD + kind
CALL_TAN: Final = DISCARD + N_KINDS  # discard and call (or change to) tan
CALL_CEKI: Final = CALL_TAN + N_KINDS  # discard and call ceki
NUM_ACTIONS: Final = CALL_CEKI + N_KINDS

# -- phases -----------------------------------------------------------------------------------
PHASE_DRAW: Final = 0
PHASE_DISCARD: Final = 1
PHASE_CLAIM: Final = 2
PHASE_OVER: Final = 3
PHASE_NAMES: Final = ("draw", "discard", "claim", "over")

FROM_DEAL: Final = 0
FROM_STOCK: Final = 1
FROM_DISCARD: Final = 2
