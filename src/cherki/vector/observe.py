"""The batched simulator's observations, in the one encoding every interface uses.

Each row's observation is the float32 vector of the reference engine's
``state.observation(seat).encode()`` for the same hand: the layout of
:func:`cherki.games.sets.observation.sets_layout` (``Game.observation_layout``), views
about seats laid out from the observing seat round the table. A policy trained on the
batched simulator therefore reads exactly what the PettingZoo, Gymnasium and OpenSpiel
adapters, the arena's policy seat and a web table give it (``tests/test_vector.py`` checks
the two equal at every step of hundreds of hands).

Our specifications
------------------
* **What a seat sees** is what the reference engine shows it: its own hand, and the card
  it drew only while it is to act; every other view is public.
* **The pot**: each batched hand starts with an empty pot (``SetsVector``'s notes), so
  under a pot method it holds every seat's stake for the whole hand, as the reference
  engine's pot does in a hand dealt without a match's context.
* **A hand that is over** (a row waiting for the next deal, or not dealt) shows all zeros.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from cherki.core.cards import N_KINDS
from cherki.games.sets.actions import PHASE_OVER
from cherki.games.sets.observation import sets_layout
from cherki.games.sets.rules import SetsRules
from cherki.vector.rules import CEKI, TAN


class Batch(Protocol):
    """What the encoding reads of a batch of hands (:class:`cherki.vector.sets.SetsVector`
    has it all; declared here so that this module needs nothing of the simulator's)."""

    batch: int
    n: int
    rules: SetsRules
    live_end: int
    hands: np.ndarray
    totals: np.ndarray
    exposed: np.ndarray
    melded: np.ndarray
    pile: np.ndarray
    pos: np.ndarray
    top: np.ndarray
    top_ok: np.ndarray
    calls: np.ndarray
    changed: np.ndarray
    current: np.ndarray
    phase: np.ndarray
    drawn: np.ndarray
    claim_card: np.ndarray
    done: np.ndarray

    @property
    def mask(self) -> np.ndarray: ...  # read-only: the simulator brings it up to date on read


def observation_size(players: int) -> int:
    """The length of one observation vector (``sets_layout(players).size``)."""
    return sets_layout(players).size


def encode_seats(env: Batch, seats: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
    """The encoded observation of seat ``seats[i]`` in hand ``rows[i]`` (default: every
    row), float32 ``[len(rows), size]``; a hand that is over gives zeros."""
    rows = np.arange(env.batch) if rows is None else rows
    b, n, k = len(rows), env.n, N_KINDS
    at = sets_layout(n).slices()
    out = np.zeros((b, sets_layout(n).size), np.float32)
    if not b:
        return out
    s = np.asarray(seats, np.int64)
    cur = env.current[rows]
    r1 = rows[:, None]
    order = (s[:, None] + np.arange(n)[None, :]) % n  # [b, n]: the seats from each viewer
    out[:, at["own_hand"]] = env.hands[rows, s]
    out[:, at["discards"]] = env.pile[rows]
    top = env.top[rows]
    t = np.flatnonzero(env.top_ok[rows])
    out[t, at["top_discard"].start + top[t]] = 1
    out[:, at["hand_sizes"]] = env.totals[r1, order].sum(axis=2)
    calls = env.calls[r1, order]
    two = out[:, at["calls"]].reshape(b, n, 2)
    two[:, :, 0] = calls == TAN
    two[:, :, 1] = calls == CEKI
    out[:, at["calls"]] = two.reshape(b, 2 * n)
    out[:, at["call_changed"]] = env.changed[r1, order]
    out[:, at["exposed"]] = env.exposed[r1, order].reshape(b, n * k)
    out[:, at["melds"]] = env.melded[r1, order].reshape(b, n * k)
    claim = env.claim_card[rows]
    c = np.flatnonzero(claim >= 0)
    out[c, at["claim_card"].start + claim[c]] = 1
    drawn = env.drawn[rows]
    d = np.flatnonzero((drawn >= 0) & (cur == s))  # the drawn card: its drawer's, while to act
    out[d, at["drawn"].start + drawn[d]] = 1
    out[:, at["stock"].start] = np.maximum(0, env.live_end - env.pos[rows])
    if env.rules.method.pot:
        out[:, at["pot"].start] = env.n * env.rules.pot_stake
    p = np.flatnonzero(cur >= 0)
    out[p, at["turn"].start + (cur[p] - s[p]) % n] = 1
    phase = env.phase[rows]
    out[np.arange(b), at["phase"].start + phase] = 1
    over = env.done[rows] | (phase == PHASE_OVER)
    out[over] = 0
    return out


def observe(env: Batch) -> dict[str, np.ndarray]:
    """Each hand's acting seat's view: ``observation`` (float32 ``[batch, size]``, the
    reference engine's encoding of ``observation(current)``), ``action_mask`` (int8
    ``[batch, num_actions]``) and ``seat`` (the acting seat, -1 where the hand is over)."""
    seats = np.where(env.current >= 0, env.current, 0)
    return {
        "observation": encode_seats(env, seats),
        "action_mask": env.mask.astype(np.int8),
        "seat": env.current.copy(),
    }


def observe_all(env: Batch) -> dict[str, np.ndarray]:
    """Every seat's view of every hand, for self-play: ``observation`` (float32 ``[batch,
    n, size]``: seat ``j``'s observation in ``[:, j]``), ``action_mask`` (int8 ``[batch, n,
    num_actions]``: the legal actions of the seat to act, zeros for the others) and
    ``current`` (the seat to act, -1 where the hand is over)."""
    b, n = env.batch, env.n
    obs = np.stack([encode_seats(env, np.full(b, j, np.int64)) for j in range(n)], axis=1)
    mask = np.zeros((b, n, env.mask.shape[1]), np.int8)
    live = np.flatnonzero(env.current >= 0)
    mask[live, env.current[live]] = env.mask[live]
    return {"observation": obs, "action_mask": mask, "current": env.current.copy()}
