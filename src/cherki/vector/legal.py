"""The legal actions of a batch of hands of a game of sets, as masks.

The batched form of ``SetsState.legal_actions`` (:mod:`cherki.games.sets.state`): for each
hand, the actions its acting seat may take, as a row of ``NUM_ACTIONS`` flags in the
engine's action ids (:mod:`cherki.games.sets.actions`). The rules, with their sources, are
the reference engine's; each function names the method it mirrors.

* **Draw phase**: draw from the stock; take the top discard while it may be taken, except
  where taking it would complete an exposed olo (``lays_taken_mata``) and leave nothing the
  seat may discard (``SetsState._take_ok``).
* **Discard phase**: sampei where the hand won on the card it drew (or was dealt: kandang
  tangan); a free hand discards any card it holds that is not laid down, and calls tan or
  ceki with a discard that leaves it waiting as such; a caller discards the card it drew,
  or changes its call as ``caller_changes`` lets it (``SetsState._caller_discards``).
* **Claim phase**: sampei or pass.

Our specifications
------------------
* **Written as the hands change.** The masks of the rows a step or a deal changes are
  written, whole, at the end of the compiled loop that changes them
  (:func:`cherki.vector.kernels.step` for the rows that go on, ``deal_rows`` for the rows
  dealt; a hand that ends has no legal action), while their lines are still in the cache,
  by :func:`cherki.vector.kernels.fill_mask`: the row-by-row form of the rules above (the
  discards by ``_discards_row``, a take by ``_take_ok``, the calls after a discard by
  ``_calls_row``, which the batched heuristic reads too, for its waits' live outs).
  Reading :attr:`cherki.vector.sets.SetsVector.mask` computes nothing. A hand with more
  than two groups that are not whole sets cannot wait after one discard, so its calls are
  not looked for.
* This module holds no state: :class:`cherki.vector.sets.SetsVector` keeps the hands and
  the mask; here is what of the rules the masks read (:class:`Seats`,
  :func:`rules_of_masks`).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from cherki.games.sets.rules import SetsRules
from cherki.vector import kernels
from cherki.vector.rules import Shape


class Seats(Protocol):
    """What the masks' rules are read from (:class:`cherki.vector.sets.SetsVector` has it
    all; declared here so that this module needs nothing of the simulator's)."""

    size: int
    rules: SetsRules
    shape: Shape


def rules_of_masks(t: Seats) -> tuple[np.ndarray, int, int, bool, int, bool]:
    """The rules the masks read, in the order the kernels take them: each kind's group,
    the set size, the least a ceki wait holds of a kind, chiqui go-outs, the changes a
    caller may make (:data:`cherki.vector.kernels.CHANGES`) and whether a taken card that
    completes an olo is laid (``lays_taken_mata``)."""
    return (
        t.shape.groups.of,
        t.size,
        t.shape.least,
        t.shape.chiqui,
        kernels.CHANGES[t.rules.caller_changes],
        t.rules.lays_taken_mata,
    )
