"""The Ceki game: dealing, notation and determinization."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, Final

from cherki.core.cards import (
    N_KINDS,
    counts_of,
)
from cherki.core.contract import Game, Observation, Rules
from cherki.core.deal import DealInfo, DealRequest, deal_source, shuffled
from cherki.core.encoding import Layout
from cherki.core.errors import RulesError
from cherki.core.lessons import Course
from cherki.core.options import Option, Preset
from cherki.core.sample import take, waiting_sampler
from cherki.core.sets import GROUPINGS
from cherki.core.view import GameView
from cherki.games.ceki.actions import action_text, parse_action
from cherki.games.ceki.lessons import CEKI
from cherki.games.ceki.observation import CekiObservation, ceki_layout
from cherki.games.ceki.present import CekiView
from cherki.games.ceki.rules import (
    CEKI_OPTIONS,
    CEKI_PRESETS,
    FROM_STOCK,
    HALF_PACKS,
    HAND_SIZE,
    MULTIPLIERS,
    NUM_ACTIONS,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_NAMES,
    VALUE,
    CekiRules,
    couple_group,
)
from cherki.games.ceki.state import CekiState

#: deals started again (the constrained seats in a new order) when the hands dealt first
#: left none for a later caller
ATTEMPTS: Final = 12


def determinize(obs: CekiObservation, rng: random.Random, game: CekiGame) -> CekiState:
    """A full state consistent with what ``obs.seat`` knows, hidden cards sampled (for the
    search bot, which never looks at the real hidden cards), every public commitment kept
    (``CekiState.record_faults`` is empty; see the package's specifications):

    * a caller's eight cards are two sets and a couple whose value group holds exactly the
      number of cards it laid face down (and the laid cards are that group's); a caller to
      discard holds one more card, the one it drew (its draw is private: any unseen card);
    * with the stock spent, the seat to draw holds a hand the last discard completes (the
      hand would have ended otherwise);
    * every seat holds the discards it took.

    Constrained hands are dealt first, each drawn exactly and uniformly among the hands that
    meet their group totals (:class:`~cherki.core.sample.OpenGroupSampler`), without
    rejection; only when the hands dealt first leave none for a later caller is the deal
    begun again, the constrained seats in a new order (at most :data:`ATTEMPTS` times).
    """
    n = obs.players
    grouping = GROUPINGS[obs.rules.honours]
    cur = obs.current
    phase = PHASE_NAMES.index(obs.phase)
    top = obs.pile[-1] if obs.pile and obs.top_available else -1
    # the hand the last discard must complete: the seat to draw with the stock spent
    must_win = cur if phase == PHASE_DRAW and obs.stock_left == 0 and top >= 0 else -1
    others = [t for t in range(n) if t != obs.seat]
    bound = [t for t in others if obs.called[t] or t == must_win]
    free = [t for t in others if t not in bound]
    for attempt in range(ATTEMPTS + 1):
        # the constrained seats first, in a new order at each attempt
        seats = rng.sample(bound, len(bound)) + free
        avail = obs.unseen()
        hands: list[list[int]] = [[] for _ in range(n)]
        laid: list[list[int]] = [[0] * N_KINDS for _ in range(n)]
        hands[obs.seat] = list(obs.hand)
        laid[obs.seat] = list(obs.laid)
        drawn = obs.drawn if obs.drawn is not None else -1
        drawn_from = obs.drawn_from
        ok = True
        for t in seats:
            known = list(obs.exposed[t])
            size = obs.hand_sizes[t]
            extra = 1 if phase == PHASE_DISCARD and t == cur else 0
            h: list[int] | None = None
            if obs.called[t] or t == must_win:
                h = waiting_sampler(
                    tuple(avail),
                    tuple(known),
                    size - extra - sum(known),
                    obs.rules.honours,
                    3,
                    obs.laid_count[t] if obs.called[t] else None,
                    (grouping[top],) if t == must_win else None,
                ).draw(rng)
                if h is None and attempt < ATTEMPTS:
                    ok = False
                    break
                if h is not None and obs.called[t]:
                    g = couple_group(h, grouping)
                    laid[t] = [h[k] if grouping[k] == g else 0 for k in range(N_KINDS)]
                if h is not None and extra:  # and the card it drew (privately) to throw
                    take(avail, h, known)
                    drawn = rng.choice([k for k in range(N_KINDS) for _ in range(avail[k])])
                    drawn_from = FROM_STOCK
                    avail[drawn] -= 1
                    h[drawn] += 1
                    hands[t] = h
                    continue
            if h is None:
                h = list(known)
                rest = [k for k in range(N_KINDS) for _ in range(avail[k])]
                for k in rng.sample(rest, size - sum(known)):
                    h[k] += 1
            take(avail, h, known)
            hands[t] = h
        if ok:
            break
    pool = shuffled([k for k in range(N_KINDS) for _ in range(avail[k])], rng)
    return CekiState(
        game,
        obs.rules,
        hands,
        pool,
        obs.first,
        DealInfo(obs.first, determinized=True),
        pile=list(obs.pile),
        pile_seats=list(obs.pile_seats),
        top_available=obs.top_available,
        top_straight=obs.top_straight,
        taken_straight=obs.taken_straight,
        called=list(obs.called),
        called_at=list(obs.called_at),
        laid=laid,
        exposed=[list(e) for e in obs.exposed],
        current=cur,
        phase=phase,
        drawn=drawn,
        drawn_from=drawn_from,
        log=[],
    )


# -- the game ---------------------------------------------------------------------------------
class CekiGame(Game):
    """Ceki (Kowah) for 2-6 players [003]."""

    options: ClassVar[tuple[Option, ...]] = CEKI_OPTIONS

    name: ClassVar[str] = "ceki"
    title: ClassVar[str] = "Ceki"
    stock_word: ClassVar[str] = "pile"
    family: ClassVar[str] = "ceki"

    def lessons(self) -> Course:
        """Ceki's course: every statement of [003] taught (``lessons.py``)."""
        return CEKI

    def view(self) -> GameView:
        """Ceki's view (:mod:`cherki.games.ceki.present`)."""
        return CekiView(self)

    def endings(self, rules: Rules) -> tuple[str, ...]:
        """A plain, double or triple win, or the pile out [003]."""
        return ("plain", "double", "triple", "pile-out")

    players: ClassVar[tuple[int, int]] = (2, 6)
    default_players: ClassVar[int] = 4
    rules_type: ClassVar[type[Rules]] = CekiRules
    presets: ClassVar[tuple[Preset, ...]] = CEKI_PRESETS
    num_actions: ClassVar[int] = NUM_ACTIONS

    searchable: ClassVar[bool] = True

    def own_rules(self, rules: Rules) -> CekiRules:
        if not isinstance(rules, CekiRules):
            raise RulesError(f"Ceki needs Ceki's rules, not {rules!r}")
        return rules

    # -- declared bounds ------------------------------------------------------------------
    def max_hand_cards(self, rules: Rules, players: int) -> int:
        """Eight cards, nine after drawing or taking (the cards laid face down count)."""
        self.own_rules(rules)
        return HAND_SIZE + 1

    def max_actions(self, rules: Rules, players: int) -> int | None:
        """None: each seat may take the previous seat's discard and throw another, round
        after round, without the pile ever advancing (the sources set no limit), and only the
        pile running out ends a hand nobody wins."""
        self.own_rules(rules)
        return None

    def payment_bounds(self, rules: Rules, players: int) -> tuple[int, int]:
        """A win scores at most three sets of the highest value, tripled; with ``payment``
        ``each`` every other seat pays it, with ``split`` they share it."""
        own = self.own_rules(rules)
        most = 3 * 3 * max(VALUE) * max(MULTIPLIERS.values())
        if own.payment == "each":
            return -most, most * (players - 1)
        return -most, most

    def money_bounds(self, rules: Rules, players: int) -> tuple[int, int]:
        """Payments at ``cents_per_point`` when every hand settles (``settlement``
        ``per-hand``); none in the hand otherwise."""
        own = self.own_rules(rules)
        if own.settlement != "per-hand":
            return 0, 0
        lo, hi = self.payment_bounds(own, players)
        return lo * own.cents_per_point, hi * own.cents_per_point

    def observation_layout(self, rules: Rules, players: int) -> Layout:
        """:func:`ceki_layout` with its bounds: a count of one kind at most the shoe's
        copies of it, a hand (and the cards laid with a call) at most
        :meth:`max_hand_cards`, the stock at most the shoe, one-hot views 0 or 1."""
        self.own_rules(rules)
        most = self.max_hand_cards(rules, players)
        return ceki_layout(players).bounded(
            own_hand=(0, HALF_PACKS),
            laid=(0, HALF_PACKS),
            discards=(0, HALF_PACKS),
            hand_sizes=(0, most),
            laid_count=(0, most),
            exposed=(0, HALF_PACKS),
            stock=(0, HALF_PACKS * N_KINDS),
        )

    def match_plan(self, rules: Rules) -> tuple[int | None, int | None]:
        """``settlement`` ``target``: play to ``target_points``; ``hands``: ``match_hands``."""
        own = self.own_rules(rules)
        if own.settlement == "target":
            return None, own.target_points
        if own.settlement == "hands":
            return own.match_hands, None
        return None, None

    def determinize(self, obs: Observation, rng: random.Random) -> CekiState:
        if not isinstance(obs, CekiObservation):
            raise RulesError(f"Ceki cannot sample a deal from {type(obs).__name__}")
        return determinize(obs, rng, self)

    def start(self, rules: Rules | None, players: int | None, request: DealRequest) -> CekiState:
        table_rules, n = self.table(rules, players, request.first)
        own = self.own_rules(table_rules)
        src = deal_source(request, players=n, half_packs=HALF_PACKS, hand_sizes=[HAND_SIZE] * n)
        if src.order is not None:
            hands, stock = self.deal(src.order, n, request.first)
        else:
            assert src.hands is not None and src.stock is not None
            hands, stock = [counts_of(h) for h in src.hands], src.stock
        return CekiState(self, own, hands, stock, request.first, src.info)

    @staticmethod
    def deal(order: Sequence[int], n: int, first: int) -> tuple[list[list[int]], list[int]]:
        """Two cards at a time to each seat from ``first`` clockwise, four rounds [003]."""
        hands = [[0] * N_KINDS for _ in range(n)]
        i = 0
        for _ in range(HAND_SIZE // 2):
            for j in range(n):
                s = (first + j) % n
                for k in order[i : i + 2]:
                    hands[s][k] += 1
                i += 2
        return hands, list(order[i:])

    def action_text(self, action: int) -> str:
        return action_text(action, title=self.title)

    def parse_action(self, text: str) -> int:
        return parse_action(text, title=self.title)
