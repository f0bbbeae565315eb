"""Constant tables the batched simulator works from: groupings as matrices, card values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from cherki.core.cards import IS_RED, N_KINDS
from cherki.core.sets import GROUPINGS, N_GROUPS
from cherki.games.sets.balik import TURN_POINTS, YEO_CARDS, BalikRules
from cherki.games.sets.gonggong import TOH_POINTS, TOH_TENS
from cherki.games.sets.rules import SetsRules

I8 = npt.NDArray[np.int8]
#: count vectors and other whole numbers, of whichever width
Ints = npt.NDArray[np.integer[Any]]
I16 = npt.NDArray[np.int16]
I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
Bool = npt.NDArray[np.bool_]

KINDS: Final = np.arange(N_KINDS)
RED: Final[Bool] = np.array(IS_RED, dtype=bool)
TURN: Final[I32] = np.array(TURN_POINTS, dtype=np.int32)
TOH: Final[I32] = np.array(TOH_POINTS, dtype=np.int32)
TOH_TEN: Final[Bool] = np.isin(KINDS, TOH_TENS)


def where(flags: Bool | np.bool_) -> I64:
    """The indices of a 1-D boolean array's true entries (``np.flatnonzero`` without its
    ravel and wrappers: the hot paths call it dozens of times a step)."""
    out: I64 = np.asarray(flags).nonzero()[0]
    return out


@dataclass(frozen=True)
class Grouping:
    """A grouping (``honours`` option) as arrays: each kind's group, and the kinds × groups
    one-hot matrix that sums count vectors into group totals."""

    of: I64  # [30] the group of each kind
    matrix: I32  # [30, 12]
    members: Bool  # [12, 30]
    fmatrix: npt.NDArray[np.float32]  # [30, 12]

    @classmethod
    def named(cls, honours: str) -> Grouping:
        of = np.array(GROUPINGS[honours], dtype=np.int64)
        matrix = np.zeros((N_KINDS, N_GROUPS), dtype=np.int32)
        matrix[KINDS, of] = 1
        return cls(of, matrix, matrix.T.astype(bool), matrix.astype(np.float32))

    def sum(self, counts: np.ndarray) -> I64:
        """Group totals of rows of counts ([m, 30] -> [m, 12]); through a float32 product,
        which BLAS does many times faster than an integer one (the counts are small whole
        numbers, exact in float32)."""
        return (counts.astype(np.float32) @ self.fmatrix).astype(np.int64)


def yeo_mask(rules: SetsRules) -> Bool:
    """The turned cards that void a win (all false without ``yeo_redeal``)."""
    out = np.zeros(N_KINDS, dtype=bool)
    if isinstance(rules, BalikRules) and rules.yeo_redeal:
        out[list(YEO_CARDS[rules.yeo_cards])] = True
    return out
