"""The batched simulator's observations: what each hand's acting seat may see."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from cherki.core.cards import N_KINDS
from cherki.games.sets.actions import PHASE_OVER
from cherki.vector.rules import CEKI, TAN

if TYPE_CHECKING:
    from cherki.vector.sets import SetsVector


def observation_size(players: int) -> int:
    """The length of one observation vector."""
    return 6 * N_KINDS + 3 * players + N_KINDS * players + 5


def observe(env: SetsVector) -> dict[str, np.ndarray]:
    """Each hand's acting seat's view (seats counted round the table from it):
    ``observation`` (float32: its hand, its exposed olo, every seat's publicly known
    cards, the discard pile, the top discard if it may be taken, the card offered for a
    claim, the card it just drew, each seat's call and whether changed, the phase and the
    stock left), ``action_mask`` and ``seat``."""
    b, n = env.batch, env.n
    rows = np.arange(b)
    s = np.where(env.current >= 0, env.current, 0)
    out = np.zeros((b, env.obs_size), np.float32)
    k = N_KINDS
    out[:, 0:k] = env.hands[rows, s]
    out[:, k : 2 * k] = env.melded[rows, s]
    seats = (s[:, None] + np.arange(n)[None, :]) % n
    out[:, 2 * k : 2 * k + n * k] = env.exposed[rows[:, None], seats].reshape(b, n * k)
    o = 2 * k + n * k
    out[:, o : o + k] = env.pile
    o += k
    t = np.flatnonzero(env.top_ok)
    out[t, o + env.top[t]] = 1
    o += k
    c = np.flatnonzero(env.claim_card >= 0)
    out[c, o + env.claim_card[c]] = 1
    o += k
    d = np.flatnonzero(env.drawn >= 0)
    out[d, o + env.drawn[d]] = 1
    o += k
    calls = env.calls[rows[:, None], seats]
    out[:, o : o + n] = calls == TAN
    out[:, o + n : o + 2 * n] = calls == CEKI
    out[:, o + 2 * n : o + 3 * n] = env.changed[rows[:, None], seats]
    o += 3 * n
    ph = np.flatnonzero(env.phase < PHASE_OVER)
    out[ph, o + env.phase[ph]] = 1
    out[:, o + 3] = np.maximum(0, env.live_end - env.pos)
    out[:, o + 4] = env.done
    over = env.done
    out[over] = 0
    return {
        "observation": out,
        "action_mask": env.mask.astype(np.int8),
        "seat": env.current.copy(),
    }
