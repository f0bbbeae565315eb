"""Every scoring method of the games of sets over a batch of won hands.

The batched forms of :mod:`cherki.games.sets.balik` (``satu``, ``lima-belas``),
:mod:`~cherki.games.sets.chaqui` (``olo``), :mod:`~cherki.games.sets.gonggong`
(``toh-bayaran``, ``toh-bayaran-14``, ``bak-bakan``, ``undhuh-undhuhan``, ``umbuk``,
``ceken``) and :mod:`~cherki.games.sets.chot` (``chot-tokens``): the same items, the same
totals and payments. A hand's items are kept as points per item kind (:data:`ITEMS`) with a
flag for each item present, as a simulation summarises them; the result's numeric details
likewise (:data:`DETAIL`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cherki.core.cards import N_KINDS
from cherki.games.sets.balik import BalikRules
from cherki.games.sets.chaqui import ChaquiRules
from cherki.games.sets.chot import ChotRules
from cherki.games.sets.gonggong import GonggongRules, ceken_bets
from cherki.games.sets.rules import SetsRules, own
from cherki.games.sets.scoring import SCORING
from cherki.vector.finished import (
    CHIQUI_FAILED,
    CLAIM,
    DETAIL,
    FROM_A_DISCARD,
    ITEMS,
    KANDANG_TANGAN,
    SELF_DRAW,
    STOCK_OUT,
    YEO,
)
from cherki.vector.rules import CEKI, TAN, Shape, improved, mata
from cherki.vector.tables import I64, RED, TOH, TOH_TEN, TURN, Bool, Ints, where, yeo_mask

IT = {name: i for i, name in enumerate(ITEMS)}
DT = {name: i for i, name in enumerate(DETAIL)}


@dataclass
class Results:
    """Each row's result once its hand is over."""

    winner: I64
    how: I64
    total: I64
    payments: I64
    items: I64
    items_on: Bool
    detail: np.ndarray
    detail_on: Bool
    tokens: I64
    redeal: Bool


def counts(cards: I64) -> I64:
    """Count vectors of rows of cards ([m, c] -> [m, 30])."""
    m = cards.shape[0]
    out = np.zeros((m, N_KINDS), np.int64)
    if cards.shape[1]:
        np.add.at(out, (np.repeat(np.arange(m), cards.shape[1]), cards.ravel()), 1)
    return out


class Scorer:
    """The scoring method of one set of rules, over batches."""

    def __init__(self, rules: SetsRules, players: int, shape: Shape, half_packs: int) -> None:
        self.rules = rules
        self.n = players
        self.shape = shape
        self.pot = SCORING[rules.scoring].pot
        self.yeo = yeo_mask(rules)
        self.bets = np.zeros((players, players), np.int64)
        self.bet_on = np.zeros(players, bool)
        if rules.scoring == "ceken":
            for a, b, amount in ceken_bets(own(rules, GonggongRules), players):
                for w, other in ((a, b), (b, a)):
                    self.bets[w, w] += amount
                    self.bets[w, other] -= amount
                    self.bet_on[w] = True

    def empty(self, b: int) -> Results:
        n = self.n
        return Results(
            np.full(b, -1, np.int64),
            np.zeros(b, np.int64),
            np.zeros(b, np.int64),
            np.zeros((b, n), np.int64),
            np.zeros((b, len(ITEMS)), np.int64),
            np.zeros((b, len(ITEMS)), bool),
            np.zeros((b, len(DETAIL)), np.float64),
            np.zeros((b, len(DETAIL)), bool),
            np.full(b, -1, np.int64),
            np.zeros(b, bool),
        )

    def clear(self, res: Results, rows: I64) -> None:
        res.winner[rows] = -1
        res.how[rows] = 0
        res.total[rows] = 0
        res.payments[rows] = 0
        res.items[rows] = 0
        res.items_on[rows] = False
        res.detail[rows] = 0
        res.detail_on[rows] = False
        res.tokens[rows] = -1
        res.redeal[rows] = False

    def _stakes(self, res: Results, rows: I64) -> None:
        """Pot methods: every seat staked into the empty pot (``SetsState._close``)."""
        if self.pot:
            res.payments[rows] -= self.rules.pot_stake

    def no_winner(self, res: Results, rows: I64) -> None:
        res.how[rows] = STOCK_OUT
        self._stakes(res, rows)

    # -- a won hand ------------------------------------------------------------------------
    def win(
        self,
        res: Results,
        rows: I64,
        seat: I64,
        how: I64,
        card: I64,
        hand: np.ndarray,
        call: I64,
        changed: Bool,
        turned: I64,
        melded: np.ndarray,
    ) -> None:
        hand = hand.astype(np.int64)
        res.winner[rows] = seat
        res.how[rows] = how
        m = len(rows)
        items = np.zeros((m, len(ITEMS)), np.int64)
        on = np.zeros((m, len(ITEMS)), bool)
        mult = np.ones(m, np.int64)
        method = self.rules.scoring
        w = _Work(self, res, rows, seat, how, card, hand, call, changed, turned, items, on, mult)
        if method == "satu":
            w.satu()
        elif method == "lima-belas":
            w.lima_belas()
        elif method == "olo":
            w.olo(melded)
        elif method in ("toh-bayaran", "toh-bayaran-14", "bak-bakan"):
            w.toh(method)
        elif method in ("undhuh-undhuhan", "umbuk"):
            w.pot(method)
            return
        elif method == "ceken":
            w.ceken()
            return
        elif method == "chot-tokens":
            w.chot()
            return
        else:  # pragma: no cover - every registered method is above
            raise NotImplementedError(method)
        w.each_pays()


class _Work:
    """One batch of won hands being scored (the rows that are still wins: ``live``)."""

    def __init__(
        self,
        sc: Scorer,
        res: Results,
        rows: I64,
        seat: I64,
        how: I64,
        card: I64,
        hand: I64,
        call: I64,
        changed: Bool,
        turned: I64,
        items: I64,
        on: Bool,
        mult: I64,
    ) -> None:
        self.sc, self.res, self.rows, self.seat = sc, res, rows, seat
        self.how, self.card, self.hand, self.call = how, card, hand, call
        self.changed, self.turned, self.items, self.on, self.mult = (
            changed,
            turned,
            items,
            on,
            mult,
        )
        self.rules = sc.rules
        self.size = sc.shape.size
        self.live = np.ones(len(rows), bool)

    def item(self, name: str, points: Ints | int, where: Bool | None = None) -> None:
        i = IT[name]
        sel = self.live if where is None else (where & self.live)
        if isinstance(points, int):
            self.items[sel, i] += points
        else:
            pts = np.asarray(points, np.int64)
            if pts.shape != sel.shape:
                pts = np.broadcast_to(pts, sel.shape)
            self.items[sel, i] += pts[sel]
        self.on[sel, i] = True

    def detail(self, name: str, value: np.ndarray | float, where: Bool | None = None) -> None:
        d = DT[name]
        sel = self.live if where is None else (where & self.live)
        r = self.rows[sel]
        if isinstance(value, float):
            self.res.detail[r, d] = value
        else:
            vals = np.asarray(value)
            if vals.shape != sel.shape:
                vals = np.broadcast_to(vals, sel.shape)
            self.res.detail[r, d] = vals[sel]
        self.res.detail_on[r, d] = True

    @property
    def ceki_win(self) -> Bool:
        how = self.how
        out: Bool = (
            (self.call == CEKI)
            & ~self.changed
            & ((how == SELF_DRAW) | (how == CLAIM) | (how == FROM_A_DISCARD))
        )
        return out

    @property
    def self_drawn(self) -> Bool:
        out: Bool = (self.how == SELF_DRAW) | (self.how == KANDANG_TANGAN)
        return out

    def calling_bonus(self) -> None:
        """Tan point, ayam or kandang; kandang tangan's multiplier (``_calling_bonus``)."""
        r = own(self.rules, BalikRules)
        kt = self.how == KANDANG_TANGAN
        self.mult[kt] = r.kandang_tangan_multiplier
        tan = ~kt & (self.call == TAN) & bool(r.tan_bonus)
        if r.tan_bonus:
            self.item("tan-bonus", r.tan_bonus, tan)
        ceki = ~kt & ~tan & self.ceki_win
        if r.ayam_bonus:
            self.item(
                "ayam", r.ayam_bonus, ceki & ((self.how == CLAIM) | (self.how == FROM_A_DISCARD))
            )
        if r.kandang_bonus:
            self.item("kandang", r.kandang_bonus, ceki & (self.how == SELF_DRAW))

    def each_pays(self) -> None:
        """``win_result``: the items summed, times the multiplier (kandang tangan's item
        added where it is not 1), each other seat paying it."""
        self.item("kandang-tangan", 0, self.mult != 1)
        total = self.items.sum(axis=1) * self.mult
        self.settle(total)

    def settle(self, total: I64) -> None:
        res, rows, n = self.res, self.rows, self.sc.n
        live = self.live
        r = rows[live]
        t = total[live]
        res.total[r] = t
        pay = np.repeat(-t[:, None], n, axis=1)
        pay[np.arange(len(r)), self.seat[live]] = t * (n - 1)
        res.payments[r] = pay
        self.commit()

    def void(self, where: Bool, how: int) -> None:
        """Rows whose win is voided (yeo, a failed chiqui): no winner, no payments."""
        r = self.rows[where]
        self.res.winner[r] = -1
        self.res.how[r] = how
        self.res.total[r] = 0
        self.res.payments[r] = 0
        self.live &= ~where

    # -- the methods -----------------------------------------------------------------------
    def satu(self) -> None:
        rules, size, hand = own(self.rules, BalikRules), self.size, self.hand
        base_m, base_r = mata(hand, size)
        t = self.turned[:, 0]
        yeo = self.sc.yeo[t]
        if yeo.any():
            self.void(yeo, YEO)
            self.res.redeal[self.rows[yeo]] = True
        self.item("turned", TURN[t])
        if rules.kena:
            extra = np.zeros_like(hand)
            extra[np.arange(len(t)), t] = 1
            m, red = improved(hand, extra, self.sc.shape)
        else:
            m, red = base_m, base_r
        self.detail("kena", 1.0, (m > base_m) | (red > base_r))
        plain = m - red
        self.item("mata", plain, plain > 0)
        self.item("red-mata", 2 * red, red > 0)
        self.detail("mata", m)
        self.detail("red_mata", red)
        self.calling_bonus()

    def lima_belas(self) -> None:
        m, red = improved(self.hand, counts(self.turned), self.sc.shape)
        self.item("winning", 1)
        self.item("mata-swapped", m)
        self.detail("mata", m)
        self.detail("red_mata", red)
        self.calling_bonus()

    def olo(self, melded: np.ndarray) -> None:
        rules, size, hand = own(self.rules, ChaquiRules), self.size, self.hand
        olo, _ = mata(hand, size)
        short = hand % size == size - 1
        if rules.chiqui:
            turn = (olo == 0) | (rules.chiqui_turn == "any")
            chq = turn & short.any(axis=1)
            gs = self.sc.shape.groups.sum
            room = gs(hand) // size - gs(hand // size)
            shown = counts(self.turned) > 0
            q = gs(short & shown)
            found = np.minimum(room, q).sum(axis=1)
            self.detail("chiqui", 1.0, chq)
            failed = chq & (found == 0) & (olo == 0)
            if failed.any():
                self.fail(failed)
            self.item("chiqui", 0, chq)
            olo = olo + np.where(chq, found, 0)
        exposed = melded.astype(np.int64).sum(axis=1) // size
        self.item("olo", olo * rules.olo_points)
        self.detail("exposed_olo", exposed)
        self.detail("olo", olo)
        self.mult[self.how == KANDANG_TANGAN] = rules.kandang_tangan_multiplier

    def fail(self, failed: Bool) -> None:
        """A chiqui whose fifteen hold no olo: void, or (``pays``) one olo's worth to each
        other seat (``chiqui_failed``)."""
        rules, n = own(self.rules, ChaquiRules), self.sc.n
        r = self.rows[failed]
        self.void(failed, CHIQUI_FAILED)
        if rules.chiqui_fail == "void":
            self.res.items[r] = 0
            self.res.items_on[r] = False
            return
        pay = rules.olo_points
        self.items[failed, IT["chiqui-failed"]] = pay
        self.on[failed, IT["chiqui-failed"]] = True
        pays = np.full((len(r), n), pay, np.int64)
        pays[np.arange(len(r)), self.seat[failed]] = -pay * (n - 1)
        self.res.payments[r] = pays
        self.res.items[r] = self.items[failed]
        self.res.items_on[r] = self.on[failed]

    def commit(self) -> None:
        live = self.live
        r = self.rows[live]
        self.res.items[r] = self.items[live]
        self.res.items_on[r] = self.on[live]

    def steps_1_2(self) -> None:
        size, hand = self.size, self.hand
        card = self.card
        red_card = np.zeros(len(card), bool)
        has = card >= 0
        red_card[has] = RED[card[has]]
        sd = self.self_drawn
        points = np.where(sd, 2, 1) + red_card
        self.item("rabas", points, sd)
        self.item("metu", points, ~sd)
        bak, red = mata(hand, size)
        self.item("bak", bak - red, bak - red > 0)
        self.item("red-bak", 2 * red, red > 0)
        self.detail("bak", bak)
        self.detail("red_bak", red)

    def step_4(self) -> None:
        if own(self.rules, GonggongRules).toh_step4 != "in-hand":
            return
        c = (self.hand * TOH_TEN).sum(axis=1)
        self.item("toh-cards", 10 * c, c > 0)

    def toh(self, method: str) -> None:
        self.steps_1_2()
        if method == "toh-bayaran" or (
            method == "bak-bakan" and own(self.rules, GonggongRules).bak_bakan_turn
        ):
            t = self.turned[:, 0]
            self.item("turned", TOH[t])
        elif method == "toh-bayaran-14":
            cards = self.hand.copy()
            has = self.card >= 0
            cards[where(has), self.card[has]] -= 1
            b = (cards + counts(self.turned)) // self.size
            bak = b.sum(axis=1)
            red = (b * RED).sum(axis=1)
            self.item("bak-of-all", bak - red, bak - red > 0)
            self.item("red-bak-of-all", 2 * red, red > 0)
            self.detail("bak_of_all", bak)
            self.detail("red_bak_of_all", red)
        self.step_4()
        self.mult[self.how == KANDANG_TANGAN] = self.rules.kandang_tangan_multiplier

    def pot(self, method: str) -> None:
        stake, n = self.rules.pot_stake, self.sc.n
        pot = n * stake  # each hand finds the pot empty and every seat stakes
        sd = self.self_drawn
        other = min(stake, pot) if method == "undhuh-undhuhan" else (pot + 1) // 2
        take = np.where(sd, pot, other)
        self.item("whole-pot", take, sd)
        self.item("one-stake" if method == "undhuh-undhuhan" else "half-pot", take, ~sd)
        r = self.rows
        self.res.total[r] = take
        pay = np.zeros((len(r), n), np.int64)
        pay[np.arange(len(r)), self.seat] = take
        self.res.payments[r] = pay - stake
        self.commit()

    def ceken(self) -> None:
        bets = self.sc.bets
        r = self.rows
        pay = bets[self.seat]
        self.res.payments[r] = pay
        self.res.total[r] = pay[np.arange(len(r)), self.seat]
        self.item("ceken-bet", self.res.total[r], self.sc.bet_on[self.seat])
        self.detail("side_bets", 1.0)
        self.commit()

    def chot(self) -> None:
        rules, n = own(self.rules, ChotRules), self.sc.n
        m, red = improved(self.hand, counts(self.turned), self.sc.shape)
        self.item("winning", 1)
        self.item("mata-swapped", m)
        kt = self.how == KANDANG_TANGAN
        self.mult[kt] = rules.kandang_tangan_multiplier
        self.item("kandang-tangan", 0, kt)
        ceki = ~kt & self.ceki_win
        self.mult[ceki] = rules.ceki_tokens
        self.item("kandang-tokens", 0, ceki & (self.how == SELF_DRAW))
        self.item("ayam-tokens", 0, ceki & (self.how != SELF_DRAW))
        total = (1 + m) * self.mult
        self.detail("mata", m)
        self.detail("red_mata", red)
        r = self.rows
        half = n // 2
        side = self.seat % half
        same = (np.arange(n)[None, :] % half) == side[:, None]
        self.res.total[r] = total
        self.res.payments[r] = np.where(same, total[:, None], -total[:, None])
        self.res.tokens[r] = total
        self.commit()
