"""What a finished hand of the batched simulator leaves: its figures, as arrays."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from cherki.vector import declare
from cherki.vector.tables import I64, Bool

#: the kinds of score item (``ScoreItem.kind``) a hand's figures keep: those the scoring
#: methods the simulator plays register (:data:`cherki.vector.declare.ITEMS`); and the
#: result's numeric details
ITEMS: Final = declare.ITEMS
DETAIL: Final = (
    "kena",
    "mata",
    "red_mata",
    "chiqui",
    "exposed_olo",
    "olo",
    "bak",
    "red_bak",
    "bak_of_all",
    "red_bak_of_all",
    "side_bets",
)

#: how a hand ended (``Result.how``), by code
HOWS: Final = (
    "self-draw",
    "claim",
    "discard",
    "kandang-tangan",
    "stock-out",
    "yeo",
    "chiqui-failed",
)
SELF_DRAW, CLAIM, FROM_A_DISCARD, KANDANG_TANGAN, STOCK_OUT, YEO, CHIQUI_FAILED = range(7)

#: event kinds counted per hand (``EventKind`` values)
EVENTS: Final = (
    "deal",
    "draw",
    "reveal",
    "take",
    "discard",
    "call",
    "pass",
    "sampei",
    "expose",
    "end",
)
EV = {name: i for i, name in enumerate(EVENTS)}
#: calls counted per hand, as the simulation counts them
CALLS: Final = ("tan", "ceki", "changed")


@dataclass
class Finished:
    """The figures of finished hands (one row each), as arrays."""

    index: I64
    first: I64
    how: I64
    winner: I64  # -1: none
    total: I64
    payments: I64  # [m, n] by seat
    items: I64  # [m, len(scoring.ITEMS)] points
    items_on: Bool
    detail: np.ndarray  # [m, len(scoring.DETAIL)] float
    detail_on: Bool
    actions: I64
    turns: I64
    events: I64  # [m, len(EVENTS)]
    calls: I64  # [m, 3]
    winner_call: I64  # 0 none, 1 tan, 2 ceki
    tokens: I64  # -1: none
    redeal: Bool

    @staticmethod
    def none(players: int) -> Finished:
        """No hands."""
        e = np.zeros(0, np.int64)
        return Finished(
            e, e, e, e, e, np.zeros((0, players), np.int64),
            np.zeros((0, len(ITEMS)), np.int64), np.zeros((0, len(ITEMS)), bool),
            np.zeros((0, len(DETAIL))), np.zeros((0, len(DETAIL)), bool), e, e,
            np.zeros((0, len(EVENTS)), np.int64), np.zeros((0, len(CALLS)), np.int64), e, e,
            np.zeros(0, bool),
        )  # fmt: skip

    @staticmethod
    def concat(parts: Sequence[Finished]) -> Finished:
        fields = Finished.__dataclass_fields__
        return Finished(**{f: np.concatenate([getattr(p, f) for p in parts]) for f in fields})

    def __len__(self) -> int:
        return len(self.index)


__all__ = ["CALLS", "DETAIL", "EV", "EVENTS", "HOWS", "ITEMS", "Finished"]
