"""The race search of the games of sets: many fast rollouts of the seat's own hand, timed
against the others' first chance to go out.

Balik Satu and its relatives are races: the first seat to complete its sets wins, and the
winner's score depends on how it wins (the turned card, its mata, a ceki or a tan call,
ayam or kandang, a red bak...). A decision is worth what it does to the seat's *chance*
(how soon it can go out, and for how much) against the other seats' chance. The race search
values each candidate so, from what the seat has seen:

1. **The seat's own futures.** The cards still to come from the stock are, from this seat's
   view, a random sample of the cards it has not seen. For each of many sampled futures
   (a random order of the unseen cards), each candidate is played on *solitaire*: at each of
   the seat's turns it draws the next card of its turn, goes out if that card completes the
   hand, and otherwise keeps, discards and calls exactly as the heuristic does (the same
   valuation, computed with numpy for a whole batch of futures at once, so a decision looks
   at a hundred futures or more in about a tenth of a second). Once it has called, every
   later stock draw is shown and a winning card drawn by anyone is claimed (ayam), its own
   is kandang; at its own turns a caller keeps a drawn card that makes a new mata when the
   heuristic would (R-CHANGE, ``caller_changes`` ``mata-only``: a nokang caller in Tantanan
   whose mixed pair becomes a bak now waits tan kowah). A Chaqui chiqui go-out counts only
   where the heuristic would take it. What it would score is found by the game's own
   scoring function, with scoring cards drawn from the unseen cards (a chiqui go-out's
   worth is the mean over sixteen samples of the fifteen turned cards, since its olo hang
   on them). Every candidate meets the same futures, so only the decision differs.
   The seat's own futures are played as the search bot plays, where that differs from the
   heuristic: with its own policy (:meth:`~cherki.bots.balik.BalikHeuristicBot.search_policy`,
   which in Chaqui values every olo alike, as the score does), and, where a ceki win scores
   a bonus, weighing a change of call instead of always taking it (:class:`CallJudge`).
2. **The others' chance.** From deals sampled as the search bot samples them (others' hands
   kept-looking, a caller's hand really waiting with its call, see
   :meth:`cherki.bots.balik.BalikHeuristicBot.sample_deal`), each other seat is played on in
   the same solitaire way. The first turn at which any of them could go out, and what this
   seat would then pay (or gain, when the winner is its partner in Chot), make the race's
   other side.
3. **The value** of a candidate is the mean over its futures of ``S(t) · points + L(t)``:
   ``t`` the turn of the seat's chance and ``points`` what it wins then, ``S(t)`` the share
   of the others' futures in which nobody went out before ``t``, ``L(t)`` what the seat paid
   in those where somebody did, over all of them. A chance at a turn on which the seat draws
   comes before a claim on the same card by another seat (the drawer has the card first).

Our specifications (the model's simplifications, each chosen to keep a rollout cheap
enough that a decision can look at a hundred futures or more):

* nobody takes a discard in a rollout (takes are rare and never win: a winning card must be
  drawn), so every turn draws the next stock card;
* a caller changes its hand only to make a new mata with the card it drew, and only under
  ``caller_changes`` ``mata-only`` (the default); under ``free`` and ``none`` the model
  keeps a caller's hand as it called;
* the others' futures are sampled apart from the seat's own (a few sampled deals, each with
  several orders of its stock): the race is between the distributions of the two chances,
  not within one deal, which takes the luck of who happens to be first out of the
  comparison;
* the heuristic's lots between equal choices are the lowest card kind in the model;
* the seat's and the others' rollouts stop ``horizon`` rounds on (a chance not found by then
  counts as never) or when the stock is spent (no winner, nobody pays).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from cherki.bots.balik import (
    EXTRA_MATA,
    BalikHeuristicBot,
    _group_term,
    chiqui_miss,
    discard_values,
    group_outs,
)
from cherki.core.cards import N_KINDS
from cherki.core.contract import Game
from cherki.core.sets import GROUPINGS, N_GROUPS, Wait, wait_for
from cherki.games.sets.actions import CALL_CEKI, CALL_TAN, DISCARD, DRAW, TAKE
from cherki.games.sets.calls import call_wait
from cherki.games.sets.observation import SetsObservation
from cherki.games.sets.scoring import SCORING, Win
from cherki.games.sets.state import SetsState

if TYPE_CHECKING:
    from cherki.bots.clock import Clock

#: a turn no rollout reaches
NEVER = float(1 << 30)
NEVER_TURN = 1 << 30
#: call codes in the arrays
NO_CALL, TAN, CEKI = 0, 1, 2
CALL_NAMES: dict[int, str | None] = {NO_CALL: None, TAN: "tan", CEKI: "ceki"}


class Solitaire:
    """One decision's model: the seat's view of the cards, and the heuristic's play of many
    hands at once (arrays of hands, one row a future).

    The play is exactly the heuristic's (:class:`~cherki.bots.balik.BalikHeuristicBot`) for
    a seat that may not take: go out when the drawn card completes the hand; else call with
    the discard whose wait has the most live outs when any discard leaves a waiting hand;
    else throw the card whose loss hurts the hand least by :func:`discard_values` (ties go
    to the lowest card kind, where the heuristic draws lots). The unseen counts are those of
    the decision.
    """

    def __init__(self, obs: SetsObservation) -> None:
        self.rules = rules = obs.rules
        self.size = size = rules.set_size
        self.grouping = GROUPINGS[obs.honours]
        self.group = np.array(self.grouping)
        self.chiqui = rules.goes_out_on_pair
        self.need_call = rules.must_call_to_win
        self.honours = obs.honours
        #: whether a caller may keep a drawn card that forms a mata (R-CHANGE)
        self.changes = rules.caller_changes == "mata-only"
        self.live = live = obs.unseen()
        self.live_arr = np.array(live)
        self.outs = outs = group_outs(live, obs.honours)
        self.group_live = np.array(outs)
        # the group term of discard_values for every group and card count (units of 0.02)
        top = size * rules.sets + 2
        self.term = np.array(
            [[_group_term(t, o, size) if t else 0 for t in range(top + 1)] for o in outs]
        )
        # an identical pair's weight in discard_values (units of 0.05)
        self.pair = np.array([6 + 3 * min(c, 3) for c in live])
        self.onehot_group = np.zeros((N_KINDS, N_GROUPS), dtype=np.int64)
        self.onehot_group[np.arange(N_KINDS), self.group] = 1
        #: a chiqui go-out the heuristic takes, by the live cards that could make an olo of
        #: its pairs (all of them where a failed chiqui costs nothing)
        unseen = sum(live)
        self.chiqui_ok = np.array(
            [not rules.pair_go_out_costs or chiqui_miss(o, unseen) < 0.5 for o in range(unseen + 1)]
        )

    # -- one hand, scalar ------------------------------------------------------------------
    def wait(self, hand: Sequence[int] | np.ndarray) -> Wait:
        # Python's ints: the compiled engine (cherki.compiled) takes no numpy ints
        counts: Sequence[int] = hand.tolist() if isinstance(hand, np.ndarray) else hand
        return wait_for(counts, self.grouping, self.size, self.chiqui)

    def call_wait(self, call: str | None, hand: Sequence[int]) -> Wait:
        """What a seat that called ``call`` waits on: the game's rule (``call_wait``: a ceki
        kept after making a mata waits only on a card that completes a mata, R-CHANGE)."""
        return call_wait(call, hand, self.rules)

    # -- many hands ------------------------------------------------------------------------
    def totals(self, hands: np.ndarray) -> np.ndarray:
        """Cards per group of each hand."""
        result: np.ndarray = hands @ self.onehot_group
        return result

    def completes(self, hands: np.ndarray, cards: np.ndarray) -> np.ndarray:
        """Whether each between-turns hand wins with its card."""
        size = self.size
        rows = np.arange(len(cards))
        full = hands.copy()
        full[rows, cards] += 1
        sets = (self.totals(full) % size == 0).all(axis=1)
        need = (full >= size).any(axis=1)
        if self.chiqui:
            outs = ((full == size - 1) * self.live_arr).sum(axis=1)
            need |= (full >= size - 1).any(axis=1) & self.chiqui_ok[outs]
        ok: np.ndarray = sets & need
        return ok

    def winners(self, hand: np.ndarray, waits: np.ndarray) -> np.ndarray:
        """The cards a caller's hand waits on that it would go out on: all of them, but for
        a chiqui go-out the heuristic declines."""
        if not self.chiqui:
            return waits
        cards = np.flatnonzero(waits)
        ok = self.completes(np.tile(hand, (len(cards), 1)), cards)
        out = np.zeros_like(waits)
        out[cards[ok]] = True
        return out

    def change(
        self,
        hand: Sequence[int] | np.ndarray,
        drawn: int,
        fixed: Sequence[int] | np.ndarray,
        call: int,
        judge: CallJudge | None = None,
        extra: float = EXTRA_MATA,
    ) -> tuple[int, Wait | None]:
        """A caller's play of a drawn card that does not win, as the heuristic plays it:
        the kind it throws, and its new wait when it keeps the card.

        Under ``caller_changes`` ``mata-only`` a caller may keep the drawn card in exchange
        for another when the hand still waits and holds more mata (R-CHANGE). The heuristic
        takes a change of call (a ceki caller whose new mata makes it tan) on the lowest
        kind; otherwise it throws whichever of the drawn card and the exchanges
        :func:`discard_values` likes least to lose (ties to the lowest kind). With a
        ``judge`` (the search's own seat) a change of call is taken only where the judge
        finds it worth it; the other exchanges are played as before.
        """
        size = self.size
        full = [int(c) for c in hand]
        full[drawn] += 1
        old = sum(c // size for c in hand)
        options: list[tuple[int, Wait]] = []
        for k in range(N_KINDS):
            if k == drawn or full[k] <= fixed[k]:
                continue
            full[k] -= 1
            w = self.wait(full)
            if w.call is not None and sum(c // size for c in full) > old:
                options.append((k, w))
            full[k] += 1
        if not options:
            return drawn, None
        name = CALL_NAMES[call]
        for k, w in options:
            if w.call != name:
                if judge is None:
                    return k, w
                full[k] -= 1
                # a ceki caller may also make the mata and keep ceki (R-CHANGE): the judge
                # takes whichever of the two calls rates best, if it beats the old wait
                choices = [w]
                if name == "ceki" and w.call == "tan":
                    kept = self.call_wait("ceki", full)
                    if kept.cards:
                        choices.append(kept)
                best_choice = judge.best(hand, call, full, choices)
                full[k] += 1
                if best_choice is not None:
                    return k, best_choice
        options = [(k, w) for k, w in options if w.call == name]
        after = discard_values(full, self.live, self.honours, size, self.outs, extra)
        best, wait = drawn, None
        for k, w in options:
            if after[k] > after[best] or (after[k] == after[best] and k < best):
                best, wait = k, w
        return best, wait

    def play(
        self, hands: np.ndarray, fixed: np.ndarray, extra: float = EXTRA_MATA
    ) -> tuple[np.ndarray, np.ndarray]:
        """For full hands that do not win: the kind each throws, and whether it calls
        (``extra``: the worth of each mata after the first, as in :func:`discard_values`)."""
        size = self.size
        f = len(hands)
        g = self.group
        totals = self.totals(hands)
        terms = np.take_along_axis(self.term, totals.T, axis=1).T  # F x groups
        groups = terms.sum(axis=1)
        mata = (hands // size).sum(axis=1)
        pair_mask = hands == size - 1
        pairs = (pair_mask * self.pair).sum(axis=1)
        tk = totals[:, g]  # each kind's group total, F x kinds
        after_term = self.term[g, np.maximum(tk - 1, 0)] * (tk > 1)
        groups_k = groups[:, None] - terms[:, g] + after_term
        mata_k = mata[:, None] - ((hands >= size) & (hands % size == 0))
        pairs_k = pairs[:, None] - pair_mask * self.pair + (hands == size) * self.pair
        value = 0.02 * groups_k + np.where(
            mata_k > 0, 3.0 + extra * (mata_k - 1) + 0.015 * pairs_k, 0.05 * pairs_k
        )
        allowed = hands > fixed
        value = np.where(allowed, value, -np.inf)
        throw = value.argmax(axis=1)
        # discards that leave a waiting hand: one group a card short, the rest complete
        res = totals % size
        nonzero = (res != 0).sum(axis=1)
        total_res = res.sum(axis=1)
        r_old = res[:, g]
        r_new = (r_old - 1) % size
        nz_k = nonzero[:, None] - (r_old != 0) + (r_new != 0)
        shape = np.where(r_new != 0, r_new == size - 1, total_res[:, None] - r_old == size - 1)
        may = allowed & (nz_k == 1) & shape
        calls = np.zeros(f, dtype=bool)
        rows = np.flatnonzero(may.any(axis=1))
        if not len(rows):
            return throw, calls
        may = may[rows]
        h = hands[rows]
        res = res[rows]
        r_new = r_new[rows]
        # the open group after each discard: the kind's own, or the other one left open
        first_open = (res != 0).argmax(axis=1)
        last_open = N_GROUPS - 1 - (res[:, ::-1] != 0).argmax(axis=1)
        other = np.where(first_open[:, None] == g, last_open[:, None], first_open[:, None])
        open_group = np.where(r_new != 0, g, other)
        own_group = open_group == g
        tan = mata_k[rows] > 0
        live = self.live_arr
        # ceki: the open group's identical pairs (after the discard) are what it waits on
        pair = h == size - 1
        pair_live = (pair * live) @ self.onehot_group
        pair_count = pair.astype(np.int64) @ self.onehot_group
        lost = own_group & pair
        made = own_group & (h == size)
        ceki_outs = np.take_along_axis(pair_live, open_group, axis=1) - lost * live + made * live
        ceki_ok = np.take_along_axis(pair_count, open_group, axis=1) - lost + made > 0
        group_outs_k = self.group_live[open_group]
        if self.chiqui:
            # a chiqui hand holding a pair waits on its whole open group; one without a
            # pair on the kinds its open group still holds (each would make the pair)
            near = (h >= size - 1).sum(axis=1)[:, None] - (h == size - 1)
            chiqui = near > 0
            present = h >= 1
            gone = own_group & (h == 1)
            one_live = np.take_along_axis((present * live) @ self.onehot_group, open_group, axis=1)
            one_count = np.take_along_axis(
                present.astype(np.int64) @ self.onehot_group, open_group, axis=1
            )
            ceki_outs = np.where(chiqui, group_outs_k, one_live - gone * live)
            ceki_ok = chiqui | (one_count - gone > 0)
        outs = np.where(tan, group_outs_k, ceki_outs)
        ok = may & (tan | ceki_ok)
        outs = np.where(ok, outs, -1)
        best = outs.argmax(axis=1)
        calling = ok.any(axis=1)
        throw[rows[calling]] = best[calling]
        calls[rows[calling]] = True
        return throw, calls

    def chances(
        self,
        hands: np.ndarray,
        waits: np.ndarray,
        called: np.ndarray,
        fixed: np.ndarray,
        streams: np.ndarray,
        first: int,
        n: int,
        judge: CallJudge | None = None,
        extra: float = EXTRA_MATA,
        call_codes: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Play between-turns hands on along their streams (row ``f``'s card at turn ``t``
        is ``streams[f, t]``), the seat drawing at turns ``first``, ``first + n``...

        ``waits`` marks the cards each hand's standing call waits on (``called``). Returns
        the first chance to go out of each: its time (``NEVER`` if none), the hand then,
        the winning card, whether self-drawn, and the call it stood on. A chance at the
        seat's own turn is timed just before the turn, a claim just after (the drawer has
        the card first). ``judge`` decides a caller's changes of call (see :meth:`change`);
        ``extra`` is the policy's worth of each mata after the first (see :meth:`play`);
        ``call_codes`` the standing calls (by default tan for a hand holding a mata).
        """
        f, limit = streams.shape
        hands = hands.copy()
        waits = waits.copy()
        called = called.copy()
        if call_codes is None:
            call_code = np.zeros(f, dtype=np.int64)
            for i in np.flatnonzero(called):
                call_code[i] = TAN if (hands[i] >= self.size).any() else CEKI
        else:
            call_code = call_codes.copy()
        claim_from = np.where(called, 0, NEVER_TURN)
        when = np.full(f, NEVER)
        card = np.full(f, -1)
        own = np.zeros(f, dtype=bool)
        active = ~called
        for t in range(first, limit, n):
            idx = np.flatnonzero(active)
            if not len(idx):
                break
            x = streams[idx, t]
            h = hands[idx]
            win = self.completes(h, x) if not self.need_call else np.zeros(len(idx), bool)
            wi = idx[win]
            when[wi] = t - 0.25
            card[wi] = x[win]
            own[wi] = True
            hands[wi, x[win]] += 1
            active[wi] = False
            go = idx[~win]
            if not len(go):
                continue
            hands[go, streams[go, t]] += 1
            throw, calls = self.play(hands[go], fixed[go] if fixed.ndim == 2 else fixed, extra)
            hands[go, throw] -= 1
            for i in go[calls]:
                w = self.wait(hands[i])
                waits[i] = False
                waits[i, list(w.cards)] = True
                call_code[i] = TAN if w.call == "tan" else CEKI
                claim_from[i] = t + 1
                called[i] = True
                active[i] = False
        # callers claim the first winning card anybody draws from their call on; at their
        # own turns they may first keep a drawn card that forms a mata (a change of hand)
        turns = np.arange(limit)
        mine = (turns >= first) & ((turns - first) % n == 0)
        size = self.size
        for i in np.flatnonzero(called):
            u = int(claim_from[i])
            wins = self.winners(hands[i], waits[i])
            while u < limit:
                seg = streams[i, u:]
                hits = np.flatnonzero(wins[seg])
                end = int(hits[0]) if len(hits) else limit - u
                if self.changes:
                    forms = mine[u : u + end] & ((hands[i, seg[:end]] + 1) % size == 0)
                    spots = np.flatnonzero(forms)
                    if len(spots):
                        p = u + int(spots[0])
                        x = int(streams[i, p])
                        out_kind, new_wait = self.change(
                            hands[i],
                            x,
                            fixed[i] if fixed.ndim == 2 else fixed,
                            int(call_code[i]),
                            judge,
                            extra,
                        )
                        if new_wait is not None:
                            hands[i, x] += 1
                            hands[i, out_kind] -= 1
                            waits[i] = False
                            waits[i, list(new_wait.cards)] = True
                            call_code[i] = TAN if new_wait.call == "tan" else CEKI
                            wins = self.winners(hands[i], waits[i])
                        u = p + 1
                        continue
                if len(hits):
                    v = u + end
                    card[i] = streams[i, v]
                    own[i] = bool(mine[v])
                    when[i] = v - 0.25 if own[i] else v + 0.25
                    hands[i, card[i]] += 1
                break
        return when, hands, card, own, call_code


class RaceSearch:
    """Values the candidates of one decision by the race (see the module docstring)."""

    def __init__(
        self,
        heuristic: BalikHeuristicBot,
        *,
        horizon: int = 8,
        others: int = 24,
        streams: int = 6,
        batch: int = 128,
        scoring_samples: int = 4,
    ) -> None:
        self.heuristic = heuristic
        self.horizon = horizon
        self.others_samples = others
        self.streams = streams
        self.batch = batch
        self.scoring_samples = scoring_samples

    def values(
        self,
        obs: SetsObservation,
        candidates: Sequence[int],
        rng: random.Random,
        game: Game,
        deadline: Clock | None,
        iterations: int | None,
        min_iterations: int,
    ) -> dict[int, list[float]]:
        """Per candidate, its race value in each of the seat's sampled futures."""
        model = Solitaire(obs)
        n = obs.players
        seat = obs.seat
        rules = obs.rules
        drawing = obs.phase == "draw"
        limit = max(0, min(obs.stock_left, n * self.horizon))
        fixed = np.array(obs.melds[seat] if obs.melds else (0,) * N_KINDS)
        pool = np.array([k for k, c in enumerate(model.live) for _ in range(c)])
        gen = np.random.default_rng(rng.randrange(1 << 62))
        reserve = min(rules.reserve, len(pool))
        # more samples of the turned cards where a chiqui go-out's olo hang on them
        samples = self.scoring_samples * (4 if rules.goes_out_on_pair else 1)
        scoring_sets = [
            tuple(int(c) for c in gen.choice(pool, reserve, replace=False)) for _ in range(samples)
        ]
        world = self.heuristic.sample_deal(obs, rng, game)
        race = self._others(obs, model, rng, gen, game, limit, scoring_sets, world)
        points = _Points(world, seat, scoring_sets)
        # the seat's own changes of call are weighed where a ceki win may pay more
        judge = CallJudge(model, points, n) if SCORING[rules.scoring].ceki_bonus else None
        # the seat's own policy: the heuristic's, for the score where it says so
        extra = self.heuristic.extra(rules)
        starts = [self._start(obs, a, model, fixed, extra) for a in candidates]
        # the seat's first turn: now when it is to draw, after the others' turns otherwise
        firsts = [0 if drawing and a == DRAW else n if drawing else n - 1 for a in candidates]
        out: dict[int, list[float]] = {a: [] for a in candidates}
        done = 0
        f = self.batch
        while limit:
            streams = _streams(gen, pool, f, limit)
            for a, (hand, wait), first in zip(candidates, starts, firsts, strict=True):
                if hand is None:
                    continue
                hands = np.tile(hand, (f, 1))
                waits = np.zeros((f, N_KINDS), dtype=bool)
                if wait is not None:
                    waits[:, list(wait.cards)] = True
                called = np.full(f, wait is not None)
                code = TAN if wait is not None and wait.call == "tan" else CEKI
                when, final, card, own, call = model.chances(
                    hands, waits, called, fixed, streams, first, n, judge, extra,
                    np.where(called, code, NO_CALL),
                )  # fmt: skip
                pts = np.zeros(f)
                for i in np.flatnonzero(when < NEVER):
                    pts[i] = points(
                        final[i], int(card[i]), bool(own[i]), int(call[i]), done + int(i)
                    )
                out[a].extend(race(when, pts).tolist())
            done += f
            if iterations is not None:
                if done >= iterations:
                    break
            elif deadline is None:
                if done >= min_iterations:
                    break
            elif not deadline.fits_another(done // f):
                break
        return out

    @staticmethod
    def _start(
        obs: SetsObservation,
        action: int,
        model: Solitaire,
        fixed: np.ndarray,
        extra: float = EXTRA_MATA,
    ) -> tuple[list[int] | None, Wait | None]:
        """The between-turns hand a candidate leaves, and the call it stands on."""
        hand = list(obs.hand)
        standing = obs.calls[obs.seat]
        called = standing is not None
        if action == DRAW:
            return hand, (model.call_wait(standing, hand) if called else None)
        if action == TAKE:
            if obs.top is None:
                return None, None
            hand[obs.top] += 1
            throw, calls = model.play(np.array([hand]), fixed, extra)
            hand[int(throw[0])] -= 1
            if called:
                return hand, model.call_wait(standing, hand)
            return hand, (model.wait(hand) if calls[0] else None)
        if DISCARD <= action < CALL_CEKI + N_KINDS:
            k = (action - DISCARD) % N_KINDS
        else:
            return None, None
        hand[k] -= 1
        if action >= CALL_TAN:
            w = model.wait(hand)
            return hand, (w if w.cards else None)
        if called:  # a plain discard keeps the standing call
            w = model.call_wait(standing, hand)
            return hand, (w if w.cards else None)
        return hand, None

    def _others(
        self,
        obs: SetsObservation,
        model: Solitaire,
        rng: random.Random,
        gen: np.random.Generator,
        game: Game,
        limit: int,
        scoring_sets: list[tuple[int, ...]],
        world0: SetsState,
    ) -> _Race:
        """The others' first chances in sampled deals, and what the seat pays at each."""
        n = obs.players
        seat = obs.seat
        drawing = obs.phase == "draw"
        deals = max(1, self.others_samples // self.streams)
        f = self.streams
        worlds = [world0] + [self.heuristic.sample_deal(obs, rng, game) for _ in range(deals - 1)]
        length = min([limit] + [len(w.stock) - w.pos for w in worlds])
        streams = np.concatenate(
            [_streams(gen, np.array(w.stock[w.pos :]), f, length) for w in worlds]
        )
        rows = deals * f
        best = np.full(rows, NEVER)
        pay = np.zeros(rows)
        scorers = [_Points(w, seat, scoring_sets) for w in worlds]
        for o in range(n):
            if o == seat:
                continue
            # turns from now: seat o draws at turn (o - seat) mod n when this seat is to
            # draw, one turn earlier when it has drawn already
            first = (o - seat) % n - (0 if drawing else 1)
            hands = np.repeat(np.array([w.hands[o] for w in worlds]), f, axis=0)
            fixed = np.repeat(np.array([w.melded[o] for w in worlds]), f, axis=0)
            waits = np.zeros((rows, N_KINDS), dtype=bool)
            if obs.calls[o] is not None:
                for d, w in enumerate(worlds):
                    waits[d * f : (d + 1) * f, list(w.waits[o].cards)] = True
            called = np.asarray(waits.any(axis=1))
            when, final, card, own, call = model.chances(
                hands, waits, called, fixed, streams, first, n
            )
            changed = bool(obs.call_changed[o])
            for i in np.flatnonzero(when < best):
                best[i] = when[i]
                pay[i] = scorers[i // f](
                    final[i], int(card[i]), bool(own[i]), int(call[i]), int(i), o, changed
                )
        return _Race(best, pay)


def _streams(gen: np.random.Generator, pool: np.ndarray, rows: int, limit: int) -> np.ndarray:
    """``rows`` random orders of the cards of ``pool``, cut to ``limit`` turns."""
    order: np.ndarray = gen.permuted(np.tile(pool, (rows, 1)), axis=1)[:, :limit]
    return order


class _Points:
    """What a win means for the seat, by the game's own scoring function (memoised)."""

    def __init__(self, world: SetsState, seat: int, scoring_sets: list[tuple[int, ...]]):
        self.world = world
        self.seat = seat
        self.sets = scoring_sets
        self.score = SCORING[world.rules.scoring].score
        self.chiqui = world.rules.goes_out_on_pair
        self.size = world.rules.set_size
        self.memo: dict[tuple[bytes, bool, int, int, int, bool], float] = {}

    def __call__(
        self,
        hand: np.ndarray,
        card: int,
        own: bool,
        call: int,
        i: int,
        winner: int | None = None,
        changed: bool = False,
    ) -> float:
        # a chiqui go-out's worth hangs on its own pairs meeting their third card among
        # the turned ones: the mean over every sample, not one sample's luck
        chiqui = self.chiqui and not (hand >= self.size).any()
        j = -1 if chiqui else i % len(self.sets)
        who = self.seat if winner is None else winner
        key = (hand.astype(np.int8).tobytes(), own, call, j, who, changed)
        v = self.memo.get(key)
        if v is None:
            how = "self-draw" if own else "claim"
            held = tuple(int(c) for c in hand)
            sets = self.sets if chiqui else [self.sets[j]]
            total = 0.0
            for turned in sets:
                win = Win(who, how, card, who, held, CALL_NAMES[call], changed, turned)
                total += self.score(self.world, win).payments[self.seat]
            v = total / len(sets)
            self.memo[key] = v
        return v


class CallJudge:
    """The search's own seat's change of call in the model (a ceki caller whose drawn card
    makes a mata, and so would call tan): taken only when the new wait is worth at least the
    old, by the rate at which each pays, its live outs times what a win on each would score.

    The heuristic always changes (a better wait), and so do the others in the model. The
    search itself weighs the change when it meets it, and where a ceki win pays a bonus
    (ayam and kandang in Balik Satu and Lima Belas, R-BONUS; ten-point tokens in Chot,
    K-SCORE) it keeps the ceki call. The seat's own futures should be played the way it
    plays, or they undervalue a ceki call.
    A win is a claim on another seat's draw ``(n - 1) / n`` of the time, a self-draw the rest,
    and its score is the mean over the decision's samples of the scoring cards.
    """

    def __init__(self, model: Solitaire, points: _Points, players: int) -> None:
        self.model = model
        self.points = points
        self.players = players

    def __call__(
        self,
        hand: Sequence[int] | np.ndarray,
        call: int,
        new_hand: Sequence[int],
        new_wait: Wait,
    ) -> bool:
        return self.best(hand, call, new_hand, [new_wait]) is not None

    def best(
        self,
        hand: Sequence[int] | np.ndarray,
        call: int,
        new_hand: Sequence[int],
        new_waits: Sequence[Wait],
    ) -> Wait | None:
        """The best rated of ``new_waits`` (the first among equals) if it rates at least as
        well as the standing wait of ``hand``; else None (keep the hand)."""
        old = self.model.call_wait(CALL_NAMES[call], [int(c) for c in hand])
        bar = self.rate(hand, old.cards, call)
        best: Wait | None = None
        for w in new_waits:
            r = self.rate(new_hand, w.cards, TAN if w.call == "tan" else CEKI)
            if r >= bar:
                best, bar = w, r + 1e-12
        return best

    def rate(self, hand: Sequence[int] | np.ndarray, cards: Sequence[int], call: int) -> float:
        n = self.players
        live = self.model.live
        samples = len(self.points.sets)
        total = 0.0
        for c in cards:
            if not live[c]:
                continue
            full = np.array(hand, dtype=np.int64)
            full[c] += 1
            for i in range(samples):
                claim = self.points(full, c, False, call, i)
                draw = self.points(full, c, True, call, i)
                total += live[c] * ((n - 1) * claim + draw) / n
        return total / samples


class _Race:
    """``S(t) · points + L(t)`` from the others' first chances (see the module docstring)."""

    def __init__(self, times: np.ndarray, paid: np.ndarray) -> None:
        order = np.argsort(times, kind="stable")
        self.times = times[order]
        self.paid = np.concatenate(
            [[0.0], np.cumsum(np.where(self.times < NEVER, paid[order], 0.0))]
        )
        self.total = len(times)

    def __call__(self, t: np.ndarray, points: np.ndarray) -> np.ndarray:
        before = np.searchsorted(self.times, t, side="left")  # another seat went out first
        value: np.ndarray = ((self.total - before) * points + self.paid[before]) / self.total
        return value
