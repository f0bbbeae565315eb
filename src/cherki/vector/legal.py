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
* **One compiled loop over the rows** (:func:`cherki.vector.kernels.fill_mask`): each row's
  mask is written whole, by the row-by-row form of the rules above
  (``_discards_row``, ``_take_ok``; the calls after a discard by ``_calls_row``, the one-hand
  form of :func:`cherki.vector.rules.calls_after_discard`). A hand with more than two groups
  that are not whole sets cannot wait after one discard, so its calls are not looked for.
* This module holds no state: :class:`cherki.vector.sets.SetsVector` keeps the hands and
  the mask, and declares what is read here (:class:`Seats`).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from cherki.games.sets.rules import SetsRules
from cherki.vector import kernels
from cherki.vector.rules import Shape
from cherki.vector.tables import I64, Bool


class Seats(Protocol):
    """What the masks read of a batch of hands (:class:`cherki.vector.sets.SetsVector`
    has it all; declared here so that this module needs nothing of the simulator's)."""

    n: int
    size: int
    rules: SetsRules
    shape: Shape
    hands: np.ndarray
    totals: np.ndarray
    melded: np.ndarray
    opens: np.ndarray
    calls: np.ndarray
    current: np.ndarray
    phase: np.ndarray
    drawn: np.ndarray
    self_ok: np.ndarray
    top: np.ndarray
    top_ok: np.ndarray


def fill(t: Seats, mask: Bool, rows: I64) -> None:
    """Write the legal-action mask of ``rows`` into ``mask`` (all false where a hand is
    over): one compiled loop over the rows (:func:`cherki.vector.kernels.fill_mask`)."""
    kernels.fill_mask(
        mask,
        rows,
        t.phase,
        t.current,
        t.drawn,
        t.top,
        t.top_ok,
        t.self_ok,
        t.hands,
        t.totals,
        t.melded,
        t.calls,
        t.opens,
        t.shape.groups.of,
        t.size,
        t.shape.least,
        t.shape.chiqui,
        kernels.CHANGES[t.rules.caller_changes],
        t.rules.lays_taken_mata,
    )
