"""Policies that act on a whole batch of hands at once.

A policy is called with the simulator and the rows whose hands are in play, and returns one
legal action per row. :class:`RandomPolicy` picks uniformly among the legal actions;
:class:`HeuristicPolicy` is the ``heuristic`` bot of the games of sets
(:class:`cherki.bots.balik.BalikHeuristicBot`) in batched form: the same measures of a
hand, the same choices, its lots drawn from a numpy generator; :class:`LearnedPolicy` is the
``learned`` bot, one forward pass of its network for the whole batch.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Protocol

import numpy as np

from cherki.bots.balik import EXTRA_MATA, WEIGHTS, Weights
from cherki.bots.learned import STUCK, Model, shipped_model
from cherki.core.cards import N_KINDS, RANK, RED
from cherki.games.sets.actions import (
    CALL_CEKI,
    CALL_TAN,
    DISCARD,
    DRAW,
    PASS,
    PHASE_CLAIM,
    PHASE_DISCARD,
    PHASE_DRAW,
    SAMPEI,
    TAKE,
)
from cherki.vector import kernels
from cherki.vector.observe import encode_seats
from cherki.vector.sets import SetsVector
from cherki.vector.tables import F64, I64, where


class Policy(Protocol):
    def __call__(self, env: SetsVector, rows: I64) -> I64: ...


def pick(mask: np.ndarray, rng: np.random.Generator) -> I64:
    """One legal action per row, uniformly (``mask``: [m, actions] bool, a legal action in
    every row): the ``j``-th legal action of each row, ``j`` drawn for the row."""
    width = mask.shape[1]
    flat = mask.ravel().nonzero()[0]
    # where each row's legal actions start among them all (a search of the row starts in
    # the sorted flat indices), and how many each row has
    bounds = np.searchsorted(flat, np.arange(0, (len(mask) + 1) * width, width))
    starts = bounds[:-1]
    counts = bounds[1:] - starts
    j = (rng.random(len(mask)) * counts).astype(np.int64)
    out: I64 = flat[starts + j] % width
    return out


class RandomPolicy:
    """Uniformly random legal actions (the ``random`` bot)."""

    def __init__(self, seed: int | np.random.Generator | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, env: SetsVector, rows: I64) -> I64:
        # the same uniform choice, cheaper where few actions can be legal: a draw (take or
        # draw) and a claim (sampei or pass) are two-way choices, by one lot for every row;
        # then a lot for each row in the discard phase (:func:`pick`'s), in row order
        mask = env.mask
        ph = env.phase[rows]
        coin = self.rng.random(len(rows))
        x = int(np.count_nonzero(ph == PHASE_DISCARD))
        u = self.rng.random(x) if x else coin[:0]
        out: I64 = kernels.random_actions(rows, env.phase, mask, coin, u)
        return out


# -- the heuristic's measures (bots/balik.py), over batches -----------------------------------
@lru_cache(maxsize=64)
def _group_terms(size: int, w: Weights = WEIGHTS, most: int = 64) -> I64:
    """``_group_term(t, o, size, w)`` for every group size ``t`` < ``most`` and live outs
    ``o`` 0-10 (more count as 10): a table looked up for whole batches."""
    t = np.arange(most)[:, None]
    o = np.arange(11)[None, :]
    rest = t % size
    part = np.where(rest == size - 1, w.near + w.near_out * o, w.part + w.part_out * o)
    table = (w.set * (t // size) + np.where(rest != 0, part, 0)).astype(np.int64)
    table.flags.writeable = False
    return table


@lru_cache(maxsize=64)
def _pair_weights(w: Weights) -> F64:
    """The weights :func:`cherki.vector.kernels.hand_values` reads beside the table."""
    out = np.array([w.pair, w.pair_out, w.mata, w.pair_mata, w.pair_plain], np.float64)
    out.flags.writeable = False
    return out


def discard_values(
    hand: I64,
    live: I64,
    env: SetsVector,
    extra: float = EXTRA_MATA,
    *,
    each: bool = True,
    weights: Weights = WEIGHTS,
) -> tuple[F64, F64]:
    """The heuristic's value of each hand, and (``each``) of each hand less one card of
    each kind ([m], [m, 30]; kinds not held: -inf) (``hand_value``, ``discard_values``: one
    compiled loop over the hands, :func:`cherki.vector.kernels.hand_values`), by the
    heuristic's ``weights``."""
    m = len(hand)
    now = np.empty(m)
    after = np.empty((m, N_KINDS)) if each else now[:, None]
    kernels.hand_values(
        np.ascontiguousarray(hand, dtype=np.int64),
        np.ascontiguousarray(live, dtype=np.int64),
        env.shape.groups.of,
        _group_terms(env.size, weights),
        env.size,
        float(extra),
        _pair_weights(weights),
        each,
        now,
        after,
    )
    return now, (after if each else now)


def tie_scores(hand: I64, live: I64, env: SetsVector, w: Weights) -> F64:
    """Each kind's tie-break score under ``w`` ([m, 30]; :func:`cherki.bots.balik.tie_scores`,
    the same sums in the same order): ``tie_held`` × the cards of its value group in the
    hand + ``tie_live`` × that group's live cards + ``tie_red`` where the card is red +
    ``tie_low`` × (9 − its rank)."""
    of = env.shape.groups.of
    onehot = (of[:, None] == np.arange(int(of.max()) + 1)[None, :]).astype(np.int64)
    held = (hand @ onehot)[:, of].astype(np.float64)
    unseen = (live @ onehot)[:, of].astype(np.float64)
    out: F64 = w.tie_held * held + w.tie_live * unseen + w.tie_red * _RED + w.tie_low * _LOW
    return out


#: 1 for the red kinds (``S9``, ``RF``, ``OT``), 0 elsewhere ([30])
_RED = np.isin(np.arange(N_KINDS), sorted(RED)).astype(np.float64)
#: 9 − each kind's rank ([30])
_LOW = 9.0 - np.asarray(RANK, np.float64)


def _chiqui_miss(outs: I64, unseen: I64, turned: int = 15) -> F64:
    miss = np.ones(len(outs))
    for i in range(turned):
        step = np.where(
            i < unseen, np.maximum(0.0, (unseen - outs - i) / np.maximum(unseen - i, 1)), 1.0
        )
        miss *= step
    return miss


#: lots for a batch's discards, keyed by what is played (:func:`cherki.tune.keyed_lots`): a
#: uniform number for every row and kind ([m, 30])
Lots = Callable[[SetsVector, I64], F64]


class HeuristicPolicy:
    """The ``heuristic`` bot over a batch (see the module): wins whenever it may, passes
    on a claim it will not take, calls as soon as it can on the discard whose wait has the
    most live outs, otherwise throws the card whose loss hurts the hand least, and takes the
    last discard only when that makes the hand clearly better. Lots between equals are drawn
    at random, or, given ``lots``, from them (common random numbers for comparing two
    policies on the same deals). ``weights``: the constants it plays by (the hand-set
    heuristic's, or a learned model's prior's)."""

    def __init__(
        self,
        seed: int | np.random.Generator | None = None,
        weights: Weights = WEIGHTS,
        lots: Lots | None = None,
    ) -> None:
        self.rng = np.random.default_rng(seed)
        self.weights = weights
        self.lots = lots

    def __call__(self, env: SetsVector, rows: I64) -> I64:
        mask = env.mask.take(rows, axis=0)
        out = np.full(len(rows), -1, np.int64)
        win = mask[:, SAMPEI] & self._worth_going_out(env, rows)
        out[win] = SAMPEI
        todo = ~win & mask[:, PASS]
        out[todo] = PASS
        rest = out < 0
        if not rest.any():
            return out
        r = rows[rest]
        ph = env.phase[r]
        live = env.unseen(r)
        s = env.current[r]
        hand = env.hands[r, s].astype(np.int64)
        res = np.full(len(r), -1, np.int64)
        d = ph == PHASE_DRAW
        if d.any():
            res[d] = DRAW
            t = d & mask[rest][:, TAKE]
            if t.any():
                h = hand[t].copy()
                k = env.top[r[t]]
                w = self.weights
                now, _ = discard_values(h, live[t], env, w.extra_mata, each=False, weights=w)
                h[np.arange(len(k)), k] += 1
                _, after = discard_values(h, live[t], env, w.extra_mata, weights=w)
                better = after.max(axis=1) > now + w.take
                res[where(t)[better]] = TAKE
        x = ph == PHASE_DISCARD
        if x.any():
            res[x] = self._discard(env, r[x], s[x], hand[x], live[x], mask[rest][x])
        out[rest] = res
        return out

    def _discard(
        self, env: SetsVector, rows: I64, s: I64, hand: I64, live: I64, mask: np.ndarray
    ) -> I64:
        m = len(rows)
        out = np.full(m, -1, np.int64)
        calls = mask[:, CALL_TAN:]
        has_call = calls.any(axis=1)
        caller = env.calls[rows, s] != 0
        w = self.weights
        noise = self.rng.random((m, N_KINDS)) if self.lots is None else self.lots(env, rows)
        fresh = has_call & ~caller
        if fresh.any():
            f = where(fresh)
            outs = _wait_outs(env, hand[f], live[f])
            tan, ceki = calls[f, :N_KINDS], calls[f, N_KINDS:]
            ok = tan | ceki
            if w.ceki != 1.0:  # a ceki call's outs weighed against a tan call's
                outs = outs * np.where(ceki & ~tan, w.ceki, 1.0)
            score = np.where(ok, outs + noise[f], -np.inf)
            k = score.argmax(axis=1)
            out[f] = np.where(calls[f, k], CALL_TAN + k, CALL_CEKI + k)
        change = has_call & caller
        if change.any():
            c = where(change)
            out[c] = CALL_TAN + calls[c].argmax(axis=1)
        plain = ~has_call
        if plain.any():
            p = where(plain)
            disc = mask[p, DISCARD:CALL_TAN]
            some = disc.any(axis=1)
            _, after = discard_values(hand[p], live[p], env, w.extra_mata, weights=w)
            key = np.where(disc, after, -np.inf)
            best = key.max(axis=1, keepdims=True)
            tie = disc & (key == best)
            if w.tie_held or w.tie_live or w.tie_red or w.tie_low:  # the tie-break, then lots
                ts = np.where(tie, tie_scores(hand[p], live[p], env, w), np.inf)
                tie &= ts == ts.min(axis=1, keepdims=True)
            k = np.where(tie, noise[p], -1.0).argmax(axis=1)
            out[p] = np.where(some, DISCARD + k, -1)
            none = p[~some]
            if len(none):
                out[none] = pick(mask[none], self.rng)
        return out

    def _worth_going_out(self, env: SetsVector, rows: I64) -> np.ndarray:
        """Always win, except a chiqui go-out whose fifteen cards are more likely than not
        to find no olo (where a failed chiqui costs)."""
        rules = env.rules
        ok = np.ones(len(rows), bool)
        if not rules.goes_out_on_pair or not rules.pair_go_out_costs:
            return ok
        s = env.current[rows]
        hand = env.hands[rows, s].astype(np.int64)
        cl = where(env.phase[rows] == PHASE_CLAIM)
        hand[cl, env.claim_card[rows[cl]]] += 1
        size = env.size
        has = hand.max(axis=1) >= size
        live = env.unseen(rows)
        outs = (live * (hand == size - 1)).sum(axis=1)
        worth: np.ndarray = has | (_chiqui_miss(outs, live.sum(axis=1)) < 0.5)
        return worth


def _wait_outs(env: SetsVector, hand: I64, live: I64) -> I64:
    """For each kind, the live copies of the cards the hand would wait on after discarding
    it (``BalikHeuristicBot._outs``: ``wait_for`` without a standing call; one compiled
    loop, :func:`cherki.vector.kernels.wait_outs`)."""
    outs = np.empty(hand.shape, np.int64)
    shape = env.shape
    kernels.wait_outs(
        np.ascontiguousarray(hand, dtype=np.int64),
        np.ascontiguousarray(live, dtype=np.int64),
        shape.groups.of,
        shape.size,
        shape.least,
        shape.chiqui,
        outs,
    )
    return outs


#: decisions with the stock unchanged (every seat's, counted together) after which the
#: player of a row draws from the stock wherever it may (:class:`Progress`)
ENDLESS = 400


class StuckHands:
    """Which hands have gone :data:`STUCK` decisions a seat with the stock unchanged (a
    discard taken and thrown again, round and round), per batch row: the rows where the
    ``learned`` bot plays the hand-set heuristic until a card is drawn from the stock.
    With ``limit``, which have gone that many decisions (counted over the calls made)."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limit
        self._pos = np.zeros(0, np.int64)
        self._index = np.zeros(0, np.int64)
        self.same = np.zeros(0, np.int64)

    def __call__(self, env: SetsVector, rows: I64) -> np.ndarray:
        """Count a decision in each of ``rows``; whether its hand is stuck."""
        if len(self._pos) != env.batch:
            self._pos = np.full(env.batch, -1, np.int64)
            self._index = np.full(env.batch, -1, np.int64)
            self.same = np.zeros(env.batch, np.int64)
        pos, index = env.pos[rows], env.index[rows]
        same = (pos == self._pos[rows]) & (index == self._index[rows])
        self.same[rows] = np.where(same, self.same[rows] + 1, 0)
        self._pos[rows], self._index[rows] = pos, index
        limit = self.limit if self.limit is not None else STUCK * env.n
        stuck: np.ndarray = self.same[rows] >= limit
        return stuck


class Progress:
    """``policy`` in every row, except that a hand that has gone :data:`ENDLESS` decisions
    with the stock unchanged is drawn on: its player draws from the stock wherever it may.
    Its players have taken and thrown the same discards round and round, each choosing as
    it did the lap before (a deterministic policy, or lots keyed to the position that come
    out the same), and nothing else would end the hand. The tuning and the value head's
    games (:mod:`cherki.tune`, :mod:`cherki.train`) play through it, so that no batch waits
    forever on one such hand; a hand that breaks free before then plays as without it."""

    def __init__(
        self, policy: Callable[[SetsVector, I64], np.ndarray], limit: int = ENDLESS
    ) -> None:
        self.policy = policy
        self.stuck = StuckHands(limit)

    def __call__(self, env: SetsVector, rows: I64) -> I64:
        stuck = self.stuck(env, rows)
        out: I64 = np.asarray(self.policy(env, rows), np.int64)
        if stuck.any():
            draw = stuck & env.mask[rows, DRAW]
            out[draw] = DRAW
        return out


class LearnedPolicy:
    """The ``learned`` bot over a batch: every row's observation encoded at once
    (:func:`cherki.vector.observe.encode_seats`) and one numpy forward pass of the model
    (:class:`cherki.bots.learned.Model`) for all of them; the legal action of the highest
    logit in each row, as :class:`cherki.bots.learned.LearnedBot` plays. Without a model,
    the shipped one for the batch's game and table size (refused in one sentence where none
    ships). Its prior (:attr:`prior`) is the batched heuristic playing the model's weights;
    a model that plays its prior alone (:attr:`~cherki.bots.learned.Model.plays_prior`, the
    tuned ones) needs neither the encoding nor the forward pass.
    As the bot does, a hand whose stock has not moved for :data:`STUCK` decisions a seat is
    played by the hand-set batched heuristic (:attr:`fallback`) until a card is drawn from
    the stock."""

    def __init__(self, model: Model | None = None, seed: int = 0) -> None:
        self.model = model
        self._checked: tuple[str, int] | None = None
        self.fallback = HeuristicPolicy(seed)
        # one generator for both, as one heuristic drew its lots before the prior's weights
        self.prior = HeuristicPolicy(self.fallback.rng)
        self.stuck = StuckHands()

    def model_for(self, env: SetsVector) -> Model:
        table = (env.game.name, env.n)
        if self.model is None:
            self.model = shipped_model(env.game.name, env.n)
            self._checked = table
        elif self._checked != table:
            self.model.check_table(env.game.name, env.n)
            self._checked = table
        if isinstance(self.prior, HeuristicPolicy):
            self.prior.weights = self.model.weights
        return self.model

    def __call__(self, env: SetsVector, rows: I64) -> I64:
        model = self.model_for(env)
        if not len(rows):
            return np.zeros(0, np.int64)
        stuck = self.stuck(env, rows)
        out = np.empty(len(rows), np.int64)
        if stuck.any():
            out[stuck] = self.fallback(env, rows[stuck])
        mask = env.mask.take(rows, axis=0)
        # a row with one legal action needs no network (a draw where the discard is dead)
        one = mask.sum(axis=1) == 1
        out[one & ~stuck] = mask[one & ~stuck].argmax(axis=1)
        think = ~one & ~stuck
        if think.any():
            free = rows[think]
            prior = self.prior(env, free) if model.has_prior else None
            if prior is not None and model.plays_prior:
                out[think] = model.choose_prior(mask[think], prior)  # no network to run
            else:
                x = encode_seats(env, env.current[free], free)
                out[think] = model.choose(x, mask[think], prior)
        return out


class Unstuck:
    """``policy`` in every row but those whose hand is stuck (:class:`StuckHands`), where
    the hand-set heuristic plays, as the ``learned`` bot does: the tuning
    (:mod:`cherki.tune`) measures a tuned prior as the bot will play it."""

    def __init__(self, policy: Policy, fallback: Policy) -> None:
        self.policy, self.fallback = policy, fallback
        self.stuck = StuckHands()

    def __call__(self, env: SetsVector, rows: I64) -> I64:
        stuck = self.stuck(env, rows)
        if not stuck.any():
            return self.policy(env, rows)
        out = np.empty(len(rows), np.int64)
        out[stuck] = self.fallback(env, rows[stuck])
        if (~stuck).any():
            out[~stuck] = self.policy(env, rows[~stuck])
        return out


class BySeat:
    """Each seat played by its own level's policy (``random``, ``heuristic`` or
    ``learned``)."""

    def __init__(self, levels: Sequence[str], rng: np.random.Generator) -> None:
        self.levels = np.array([lv == "heuristic" for lv in levels])
        self.learned = np.array([lv == "learned" for lv in levels])
        self.random = RandomPolicy(rng)
        self.heuristic = HeuristicPolicy(rng)
        self.learner = LearnedPolicy()

    def __call__(self, env: SetsVector, rows: I64) -> I64:
        if self.learned.any():
            return self._with_learned(env, rows)
        if self.levels.all():
            return self.heuristic(env, rows)
        if not self.levels.any():
            return self.random(env, rows)
        smart = self.levels[env.current[rows]]
        out = np.empty(len(rows), np.int64)
        out[smart] = self.heuristic(env, rows[smart])
        out[~smart] = self.random(env, rows[~smart])
        return out

    def _with_learned(self, env: SetsVector, rows: I64) -> I64:
        seat = env.current[rows]
        out = np.empty(len(rows), np.int64)
        for chosen, policy in (
            (self.learned[seat], self.learner),
            (self.levels[seat] & ~self.learned[seat], self.heuristic),
            (~self.levels[seat] & ~self.learned[seat], self.random),
        ):
            if chosen.any():
                out[chosen] = policy(env, rows[chosen])
        return out


def by_seat(levels: Sequence[str], rng: np.random.Generator) -> BySeat:
    return BySeat(levels, rng)


__all__ = [
    "ENDLESS",
    "BySeat",
    "HeuristicPolicy",
    "LearnedPolicy",
    "Policy",
    "Progress",
    "RandomPolicy",
    "StuckHands",
    "Unstuck",
    "by_seat",
    "discard_values",
    "pick",
    "tie_scores",
]
