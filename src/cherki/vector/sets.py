"""Many hands of a game of sets stepped in lockstep with numpy.

:class:`SetsVector` plays a batch of hands of Balik Satu, Balik Lima Belas, Gonggong,
Chaqui or Chot (and every option of their rules) at once. Each hand is a row; hands are
count vectors over the 30 kinds; every rule of :class:`cherki.games.sets.state.SetsState`
is here as an operation on all the rows it applies to: the deal, taking and drawing,
revealed draws once a call stands, claims in turn order (or by who called first), calls and
changes of call, Chaqui's exposed olo, winning on a discard, kandang tangan, and every
scoring method with its turned card, kena, yeo, bonuses and the Lima Belas swaps.

The rules, with their sources, are those of :mod:`cherki.games.sets` (the docstrings of
``balik``, ``gonggong``, ``chaqui`` and ``chot``); each method here names the reference
function it mirrors.

Our specifications
------------------
* **Exact.** For the same shoe and the same choices a row offers the same legal actions as
  the reference engine and ends in the same result and payments (``tests/test_vector_exact.py``
  plays thousands of hands of every game and preset through both). Action ids are the
  engine's (:mod:`cherki.games.sets.actions`).
* **One seat acts in each hand**: ``current`` (the seat to discard, draw, or answer a shown
  winning card). ``step`` takes one action per hand, for that seat.
* **Hands are independent.** Each starts with an empty pot (pot methods stake it), as a
  simulation's hands do; a match's carried pot is the reference engine's business.
* **Deals**: explicit shoe orders (top card first, the reference engine's order), or numpy
  shuffles from a seed: hand ``i`` of a run is dealt with seat ``i mod n`` starting.
  Finished hands are dealt again at once when ``autoreset`` is on (the finished hand's
  figures are kept, see :meth:`SetsVector.take_finished`).
* **Hidden stays hidden**: :meth:`SetsVector.observe` encodes what the acting seat sees, in
  the reference engine's encoding (``Game.observation_layout``), so a policy trained here
  reads the same vector from the adapters, the arena and a table.
* **Refused**: ``call_timing=next`` (a call only on the next discard after the hand is a
  card from winning, [000]) is not played here; the rules are refused in words, and the
  reference engine plays it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from cherki.core.cards import N_KINDS
from cherki.core.errors import RulesError
from cherki.core.sets import N_GROUPS
from cherki.games import find_game
from cherki.games.sets.actions import (
    FROM_DEAL,
    NUM_ACTIONS,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_OVER,
)
from cherki.games.sets.game import SetsGame
from cherki.games.sets.rules import SetsRules
from cherki.games.sets.scoring import SCORING
from cherki.vector import kernels, legal, scoring
from cherki.vector.deal import Dealer
from cherki.vector.declare import GAMES, check_plays
from cherki.vector.finished import (
    CALLS,
    EV,
    EVENTS,
    HOWS,
    Finished,
)
from cherki.vector.observe import observation_size, observe, observe_all
from cherki.vector.rules import Shape
from cherki.vector.tables import I64, Bool, where

#: the whole numbers each row keeps (then its events and calls, counted)
_SCALARS = (
    "pos",
    "top",
    "n_calls",
    "current",
    "phase",
    "drawn",
    "drawn_from",
    "n_claim",
    "claim_card",
    "claim_drawer",
    "first",
    "index",
    "actions",
    "turns",
    "last_actor",
)
_EVENTS0 = len(_SCALARS)
_INTS = _EVENTS0 + len(EVENTS) + len(CALLS)
_INDEX = _SCALARS.index("index")
#: each event's line in the rows' whole numbers (a row's count: ``_ints[_EV[kind], row]``)
_EV = {name: _EVENTS0 + i for name, i in EV.items()}
#: the flags each row keeps
_FLAGS = ("top_ok", "self_ok", "claim_disc", "done")


_RESULTS = tuple(scoring.Results.__dataclass_fields__)


@dataclass(frozen=True)
class _Owed:
    """Hands over on one step, their results not yet scored: the rows, each row's whole
    numbers then (``_ints``' lines), and the wins' input to ``Scorer.win`` (the wins are the
    first rows)."""

    rows: I64
    ints: I64
    won: tuple[np.ndarray, ...]


class SetsVector:
    """A batch of hands of one game of sets under one set of rules (see the module)."""

    def __init__(
        self,
        game: str | SetsGame,
        rules: SetsRules | str | None = None,
        *,
        players: int | None = None,
        batch: int = 256,
        autoreset: bool = True,
        max_actions: int | None = None,
    ) -> None:
        g = find_game(game) if isinstance(game, str) else game
        if not isinstance(g, SetsGame) or g.name not in GAMES:
            raise RulesError(
                f"the batched simulator plays the games of sets ({', '.join(GAMES)}), not "
                f"{getattr(g, 'title', g)}"
            )
        if isinstance(rules, str) or rules is None:
            rules = g.rules(rules)  # type: ignore[assignment]
        if not isinstance(rules, SetsRules):
            raise RulesError(f"{g.title} needs the rules of a game of sets")
        n = g.default_players if players is None else players
        g.check_players(n)
        g.check_rules(rules)
        check_plays(g.name, rules)
        g.check_table(rules, n)
        if type(batch) is not int or batch < 1:
            raise RulesError(f"batch must be a whole number ≥ 1, not {batch!r}")
        self.game = g
        self.rules = rules
        self.n = n
        self.batch = batch
        self.autoreset = autoreset
        self.max_actions = max_actions
        self.shape = Shape.of(rules)
        self.size = rules.set_size
        self.method = SCORING[rules.scoring]
        self.reserve = rules.reserve
        self.half_packs = rules.shoe_half_packs(n)
        self.cards = self.half_packs * N_KINDS
        self.each = rules.hand_size - 1
        self.extra = 1 if rules.starter_extra else 0
        self.dealt = self.each * n + self.extra
        if self.cards < self.dealt + self.reserve + 1:
            raise RulesError(
                f"{self.half_packs} half-packs are too few for {n} players under these rules"
            )
        self.stock_len = self.cards - self.dealt
        self.live_end = self.stock_len - self.reserve
        self._plan = self._deal_plan()
        self.scorer = scoring.Scorer(rules, n, self.shape, self.half_packs)
        # is a group of ``t`` cards open (not a whole number of sets)? looked up by ``t``, for
        # the step kernel's count of each seat's open groups
        t = np.arange(self.cards + 2)
        self._is_open = (t % self.size != 0).astype(np.int64)
        self.num_actions = NUM_ACTIONS
        self._alloc()
        #: the run's hands, dealt ahead in blocks (a deal into rows copies their lines)
        self._dealer = Dealer(
            self._plan,
            players=n,
            half_packs=self.half_packs,
            shape=self.shape,
            kandang_tangan=bool(self.extra and rules.kandang_tangan),
            fresh=self._fresh,
            seated=self._seated,
            index_line=_INDEX,
            block=max(64, batch // 4),
        )
        self._finished: list[Finished] = []

    # -- storage ---------------------------------------------------------------------------
    def _alloc(self) -> None:
        b, n = self.batch, self.n
        z = np.zeros
        self.hands = z((b, n, N_KINDS), np.int16)
        self.totals = z((b, n, N_GROUPS), np.int16)
        #: groups of each hand that are not a whole number of sets (a hand this far from
        #: its sets can neither call nor win: the hot paths skip it)
        self.opens = z((b, n), np.int64)
        self.exposed = z((b, n, N_KINDS), np.int16)
        self.melded = z((b, n, N_KINDS), np.int16)
        #: each row's stock, top card first: kinds 0-29, a byte each (a step reads one card
        #: a row; the narrower the lines, the fewer the cache lines they fill)
        self.stock = z((b, self.stock_len), np.int8)
        self.pile = z((b, N_KINDS), np.int16)
        self.calls = z((b, n), np.int64)
        self.changed = z((b, n), bool)
        self.order = np.full((b, n), -1, np.int64)
        self.waits = z((b, n, N_KINDS), bool)
        #: the kinds some caller of the hand waits on (any seat's ``waits``): a drawn card
        #: that is none of them opens no claim, and the claim order is not looked at
        self.wanted = z((b, N_KINDS), bool)
        self.claimants = np.full((b, n), -1, np.int64)
        # figures
        # each row's whole numbers and flags, one array of each, a line per field (each
        # field a contiguous view of its line): a deal resets its rows by one write. The
        # lines are padded a cache line past the batch: with a batch of 1,024 or 4,096 they
        # would start at multiples of 8 or 32 KiB, and the dozen a step reads for a row
        # would share one set of the CPU's first-level cache and push each other out
        self._ints = z((_INTS, b + 8), np.int64)[:, :b]
        self._flags = z((len(_FLAGS), b + 64), bool)[:, :b]
        cols = dict(zip(_SCALARS, self._ints, strict=False))
        self.pos, self.top, self.n_calls = cols["pos"], cols["top"], cols["n_calls"]
        self.current, self.phase = cols["current"], cols["phase"]
        self.drawn, self.drawn_from = cols["drawn"], cols["drawn_from"]
        self.n_claim, self.claim_card = cols["n_claim"], cols["claim_card"]
        self.claim_drawer, self.first = cols["claim_drawer"], cols["first"]
        self.index, self.actions, self.turns = cols["index"], cols["actions"], cols["turns"]
        self.last_actor = cols["last_actor"]
        self.events = self._ints[_EVENTS0 : _EVENTS0 + len(EVENTS)].T
        self.call_count = self._ints[_EVENTS0 + len(EVENTS) :].T
        self.top_ok, self.self_ok, self.claim_disc, self.done = self._flags
        #: a freshly dealt row (its seats and hand index written after)
        self._fresh = np.zeros(_INTS, np.int64)
        for name in ("top", "drawn", "claim_card", "claim_drawer", "index", "last_actor"):
            self._fresh[_SCALARS.index(name)] = -1
        self._fresh[_SCALARS.index("drawn_from")] = FROM_DEAL
        self._fresh[_SCALARS.index("phase")] = PHASE_OVER
        self._ints[:] = self._fresh[:, None]
        self._fresh[_SCALARS.index("phase")] = PHASE_DISCARD if self.extra else PHASE_DRAW
        self._fresh[_EVENTS0 + EV["deal"]] = 1
        #: the lines a deal writes the starter into
        self._seated = np.array([_SCALARS.index("first"), _SCALARS.index("current")])
        self.done[:] = True
        self._res = self.scorer.empty(b)
        #: rows dealt since their result was cleared (cleared together when owed results are
        #: next scored, before they are written: a deal does not pay for it)
        self._unscored = z(b, bool)
        #: hands over whose results are owed (scored together, in batches: :meth:`_settle`)
        self._owed: list[_Owed] = []
        self._n_owed = 0
        self._won: tuple[np.ndarray, ...] = ()  # the step's wins: their scoring's input
        self._mask = z((b, NUM_ACTIONS), bool)
        #: the lines of ``_ints`` the step kernel reads and writes (``kernels.LINES``)
        self._lines = np.array(
            [_SCALARS.index(x) for x in kernels.LINES]
            + [_EV[e] for e in kernels.EVENT_LINES]
            + [_EVENTS0 + len(EVENTS)],
            np.int64,
        )
        #: what the rules of the legal actions read, as the kernels take it
        self._rules_of_masks = legal.rules_of_masks(self)
        self.rewards = z((b, n), np.int64)

    # -- dealing ---------------------------------------------------------------------------
    def _deal_plan(self) -> list[np.ndarray]:
        """For each seat position from the starter, the shoe positions its cards come from
        (``SetsGame.deal``: packets, or the wash)."""
        n, each, plus = self.n, self.each, self.extra
        spots: list[list[int]] = [[] for _ in range(n)]
        i = 0
        if self.rules.deal == "wash":
            for r in range(n):
                c = each + plus if r == 0 else each
                spots[r].extend(range(i, i + c))
                i += c
        else:
            half = (each + 1) // 2
            for r in range(n):
                spots[r].extend(range(i, i + half))
                i += half
            spots[0].extend(range(i, i + plus))
            i += plus
            for r in range(n):
                spots[r].extend(range(i, i + each - half))
                i += each - half
        return [np.array(s, dtype=np.int64) for s in spots]

    def reset(
        self,
        seed: int | Sequence[int] | None = None,
        *,
        shoes: np.ndarray | Sequence[Sequence[int]] | None = None,
        first: np.ndarray | Sequence[int] | int | None = None,
        start: int = 0,
        hands: int | None = None,
    ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        """Deal the first hands of a run: hands ``start``, ``start + 1`` … (``hands`` of
        them; default one per row, and with ``autoreset`` the run goes on dealing until
        :meth:`stop_dealing`). Each hand's shoe comes from ``shoes`` (one order per hand,
        top card first: the reference engine's order) or is shuffled by numpy from
        ``seed``; ``first``: the starters (default: hand ``i`` starts at seat ``i mod n``).
        Returns the acting seats' observations and ``info``."""
        self._finished = []
        self._owed, self._n_owed, self._won = [], 0, ()
        b = self.batch
        if shoes is not None:
            order = np.asarray(shoes, dtype=np.int64)
            if order.ndim != 2 or order.shape[1] != self.cards:
                raise RulesError(f"shoes must be orders of {self.cards} cards, one per hand")
            if hands is not None and hands != len(order):
                raise RulesError(f"{len(order)} shoes given for {hands} hands")
            hands = len(order)
            c = np.zeros((hands, N_KINDS), np.int64)
            np.add.at(c, (np.repeat(np.arange(hands), self.cards), order.ravel()), 1)
            if (c != self.half_packs).any():
                raise RulesError(f"each shoe must hold every card {self.half_packs} times")
        else:
            order = None
        if hands is not None and (type(hands) is not int or hands < 1):
            raise RulesError(f"hands must be a whole number ≥ 1, not {hands!r}")
        firsts = None if first is None else np.asarray(first, dtype=np.int64)
        if firsts is not None and ((firsts < 0) | (firsts >= self.n)).any():
            raise RulesError(f"first must be a seat 0-{self.n - 1}")
        self._dealer.start(seed, order, firsts, start, None if hands is None else start + hands)
        self.done[:] = True
        self.phase[:] = PHASE_OVER
        self.current[:] = -1
        self._mask[:] = False
        count = b if hands is None else min(b, hands)
        self._deal_next(np.arange(count))
        return self.observe(), {"seat": self.current.copy()}

    @property
    def _next_index(self) -> int:
        """The run's next hand to deal."""
        return self._dealer.next_index

    def _deal_next(self, rows: I64) -> None:
        """Deal the next hands of the run into ``rows`` (as many as are left to deal)."""
        left = self._dealer.left()
        if left is not None:
            rows = rows[:left]
        if not len(rows):
            return
        d = self._dealer.take(len(rows))
        kernels.deal_rows(
            rows,
            self.hands,
            self.totals,
            self.opens,
            self.stock,
            self._ints,
            self._flags,
            self.exposed,
            self.melded,
            self.pile,
            self.waits,
            self.wanted,
            self.changed,
            self.calls,
            self.order,
            self.claimants,
            self._unscored,
            d.hands,
            d.totals,
            d.opens,
            d.stock,
            d.ints,
            d.self_ok,
            self._dealer.kandang_tangan,
            self._mask,
            self._lines,
            self._rules_of_masks,
        )

    # -- legal actions ---------------------------------------------------------------------
    @property
    def mask(self) -> Bool:
        """The legal actions of each hand's acting seat ([batch, actions]; all false where a
        hand is over): written by each step and deal, for the rows they change
        (:mod:`cherki.vector.legal`)."""
        return self._mask

    # -- stepping --------------------------------------------------------------------------
    def step(
        self, actions: np.ndarray | Sequence[int]
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """One action for every hand in play (ignored where a hand is over): returns the
        observations, each seat's payment in hands that ended (``rewards`` [batch, n]),
        ``terminated``, ``truncated`` and ``info``. Illegal actions are refused (a
        :class:`RulesError` naming the rows) and nothing changes."""
        a = np.asarray(actions)
        if a.shape != (self.batch,) or a.dtype.kind not in "iu":
            raise RulesError(f"actions must be {self.batch} whole numbers, one per hand")
        a = a.astype(np.int64)
        rows = where(~self.done)
        act = a[rows]
        bad = (act < 0) | (act >= NUM_ACTIONS)
        bad[~bad] = ~self.mask[rows[~bad], act[~bad]]
        if bad.any():
            first = rows[bad][:5].tolist()
            raise RulesError(f"illegal actions in hands (rows) {first}: see the action masks")
        self.rewards[:] = 0
        ended = self.apply(rows, act)
        truncated = np.zeros(self.batch, bool)
        if self.max_actions is not None:
            long = rows[(~self.done[rows]) & (self.actions[rows] >= self.max_actions)]
            if len(long):
                truncated[long] = True
                self.done[long] = True
                self.phase[long] = PHASE_OVER
                self.mask[long] = False
        terminated = np.zeros(self.batch, bool)
        terminated[ended] = True
        if len(ended):
            self.rewards[ended] = self.res.payments[ended]
        over = where(terminated | truncated)
        info: dict[str, np.ndarray] = {"index": self.index.copy()}
        if len(over) and self.autoreset:
            self._deal_next(over)
        return self.observe(), self.rewards.copy(), terminated, truncated, info

    def apply(self, rows: I64, act: I64) -> I64:
        """Apply legal ``act`` to hands ``rows`` (no checks: a policy's fast path); the rows
        whose hands ended (their figures are kept for :meth:`take_finished`), and every
        row's mask brought up to date."""
        # the whole step, row by row: one compiled loop over the rows; it marks the hands
        # that end, the wins first
        ended, seat, how, card = self._step(rows, act)
        if len(ended):
            if len(seat):
                self._winning(ended[: len(seat)], seat, how, card)
            self._keep(ended)
        return ended

    def _step(self, rows: I64, act: I64) -> tuple[I64, I64, I64, I64]:
        """The actions ``act`` of ``rows`` (:func:`cherki.vector.kernels.step`): the rows
        whose hands ended (the wins first), and each win's seat, how and card."""
        rules = self.rules
        out: tuple[I64, I64, I64, I64] = kernels.step(
            rows,
            act,
            self._ints,
            self._lines,
            self._flags,
            self.hands,
            self.totals,
            self.opens,
            self.exposed,
            self.melded,
            self.stock,
            self.pile,
            self.calls,
            self.changed,
            self.order,
            self.waits,
            self.wanted,
            self.claimants,
            self.shape.groups.of,
            self._is_open,
            self.n,
            self.size,
            self.shape.least,
            self.shape.chiqui,
            rules.must_call_to_win,
            rules.claim_priority == "first-caller",
            rules.lays_taken_mata,
            rules.discard_wins,
            self.live_end,
            self._mask,
            self._rules_of_masks[4],
        )
        return out

    def _winning(self, rows: I64, s: I64, how: I64, card: I64) -> None:
        """The wins of a step (seat ``s`` of each of ``rows``, won as ``how`` on ``card``,
        the claimed card already in the hand): what their scoring reads, kept for
        :meth:`_keep` (``SetsState._finish_win``)."""
        if self.reserve:
            pos = self.pos[rows]
            turned = self.stock[
                rows[:, None], pos[:, None] + np.arange(self.reserve)[None, :]
            ].astype(np.int64)
        else:
            turned = np.zeros((len(rows), 0), np.int64)
        seat = rows * self.n + s
        hand = self.hands.reshape(-1, N_KINDS)[seat]
        call, changed = self.calls.reshape(-1)[seat], self.changed.reshape(-1)[seat]
        melded = self.melded.reshape(-1, N_KINDS)[seat]
        self._won = (s, how, card, hand, call, changed, turned, melded)

    # -- results ---------------------------------------------------------------------------
    def _keep(self, rows: I64) -> None:
        """The hands of ``rows`` are over (the step's wins first, in ``_wins``): their
        figures are kept now, their results are owed (scored with others later, when
        :attr:`res` or :meth:`take_finished` is read, or once many are owed)."""
        self._owed.append(_Owed(rows, self._ints[:, rows], self._won))
        self._won = ()
        self._n_owed += len(rows)
        if self._n_owed >= max(64, self.batch // 8):
            self._settle()

    def _settle(self) -> None:
        """Score the owed hands together; their figures into :meth:`take_finished`, their
        results into :attr:`res` where the row still holds the hand (the results of the rows
        dealt since the last time cleared first)."""
        if self._unscored.any():  # the rows dealt since: no result until their hand ends
            self.scorer.clear(self._res, where(self._unscored))
            self._unscored[:] = False
        owed, self._owed, self._n_owed = self._owed, [], 0
        if not owed:
            return
        m = sum(len(o.rows) for o in owed)
        got = self.scorer.empty(m)
        at = np.cumsum([0] + [len(o.rows) for o in owed])
        won = [i for i, o in enumerate(owed) if o.won]
        lost = np.ones(m, bool)
        winner_call = np.zeros(m, np.int64)
        if won:  # the wins of each step are its first rows
            spots = np.concatenate([at[i] + np.arange(len(owed[i].won[0])) for i in won])
            s, how, card, hand, call, changed, turned, melded = (
                np.concatenate(parts) for parts in zip(*(owed[i].won for i in won), strict=True)
            )
            self.scorer.win(got, spots, s, how, card, hand, call, changed, turned, melded)
            lost[spots] = False
            winner_call[spots] = call
        self.scorer.no_winner(got, where(lost))
        rows = np.concatenate([o.rows for o in owed])
        ints = np.concatenate([o.ints for o in owed], axis=1)
        col = dict(zip(_SCALARS, ints, strict=False))
        self._finished.append(
            Finished(
                index=col["index"],
                first=col["first"],
                how=got.how,
                winner=got.winner,
                total=got.total,
                payments=got.payments,
                items=got.items,
                items_on=got.items_on,
                detail=got.detail,
                detail_on=got.detail_on,
                actions=col["actions"],
                turns=col["turns"],
                events=ints[_EVENTS0 : _EVENTS0 + len(EVENTS)].T.copy(),
                calls=ints[_EVENTS0 + len(EVENTS) :].T.copy(),
                winner_call=winner_call,
                tokens=got.tokens,
                redeal=got.redeal,
            )
        )
        here = where(self.index[rows] == col["index"])  # rows not dealt again since
        for f in _RESULTS:
            getattr(self._res, f)[rows[here]] = getattr(got, f)[here]

    @property
    def res(self) -> scoring.Results:
        """Each row's result once its hand is over (the owed ones scored first)."""
        self._settle()
        return self._res

    def take_finished(self) -> Finished:
        """The figures of every hand finished since the last call (in finishing order)."""
        self._settle()
        parts, self._finished = self._finished, []
        if not parts:
            return Finished.none(self.n)
        return Finished.concat(parts)

    def stop_dealing(self) -> None:
        """Finish the hands in play without dealing new ones."""
        self.autoreset = False

    # -- observations ----------------------------------------------------------------------
    @property
    def obs_size(self) -> int:
        return observation_size(self.n)

    def observe(self) -> dict[str, np.ndarray]:
        """Each hand's acting seat's view (:func:`cherki.vector.observe.observe`)."""
        return observe(self)

    def observe_all(self) -> dict[str, np.ndarray]:
        """Every seat's view of every hand (:func:`cherki.vector.observe.observe_all`)."""
        return observe_all(self)

    def unseen(self, rows: I64) -> I64:
        """Copies of each kind the acting seat of ``rows`` has not seen (``unseen()``; one
        compiled loop, :func:`cherki.vector.kernels.unseen`)."""
        out = np.empty((len(rows), N_KINDS), np.int64)
        kernels.unseen(
            rows, self.current, self.claim_card, self.hands, self.pile, self.exposed,
            self.half_packs, out,
        )  # fmt: skip
        return out

    def play(self, policy: Callable[[SetsVector, I64], I64]) -> Finished:
        """Play every hand of the run to its end with ``policy(self, rows) -> actions``,
        dealing the next hands into rows that finish (``autoreset``) until the run's hands
        are all dealt; the finished hands' figures, in hand order."""
        got: list[Finished] = []
        while True:
            rows = where(~self.done)
            if not len(rows):
                break
            ended = self.apply(rows, policy(self, rows))
            if len(ended) and self.autoreset:
                self._deal_next(ended)
        got.append(self.take_finished())
        out = Finished.concat(got)
        order = np.argsort(out.index, kind="stable")
        return Finished(**{f: getattr(out, f)[order] for f in Finished.__dataclass_fields__})


__all__ = ["CALLS", "EVENTS", "GAMES", "HOWS", "Finished", "SetsVector"]
