"""The Cholek Tiga game: dealing, notation and determinization."""

from __future__ import annotations

import random
from typing import ClassVar

from cherki.core.cards import N_KINDS, RED
from cherki.core.contract import Game, Observation, Rules
from cherki.core.deal import DealInfo, DealRequest, deal_source, shuffled
from cherki.core.encoding import Layout
from cherki.core.errors import RulesError
from cherki.core.lessons import Course
from cherki.core.options import Option, Preset
from cherki.core.view import GameView
from cherki.games.cholek.actions import action_text, parse_action
from cherki.games.cholek.lessons import CHOLEK
from cherki.games.cholek.observation import CholekObservation, cholek_layout
from cherki.games.cholek.present import CholekView
from cherki.games.cholek.rules import (
    CHOLEK_OPTIONS,
    CHOLEK_PRESETS,
    FROM_HAND,
    FROM_STOCK,
    HALF_PACKS,
    HAND_SIZE,
    NORMAL_POINTS,
    NUM_ACTIONS,
    PHASE_NAMES,
    RED_POINTS,
    CholekRules,
)
from cherki.games.cholek.state import CholekState


def determinize(obs: CholekObservation, rng: random.Random, game: CholekGame) -> CholekState:
    """A full state consistent with what ``obs.seat`` knows, hidden cards sampled (for the
    search bot, which never looks at the real hidden cards)."""
    n = obs.players
    pool = shuffled([k for k, c in enumerate(obs.unseen()) for _ in range(c)], rng)
    hands: list[list[int]] = []
    i = 0
    for t in range(n):
        if t == obs.seat:
            hands.append(list(obs.hand))
            continue
        h = [0] * N_KINDS
        for k in pool[i : i + obs.hand_sizes[t]]:
            h[k] += 1
        i += obs.hand_sizes[t]
        hands.append(h)
    st = CholekState(
        game,
        obs.rules,
        pool[i:],
        obs.first,
        n,
        DealInfo(obs.first, determinized=True),
        hands=hands,
        pool=list(obs.pool),
        captured=[list(c) for c in obs.captured],
        bonus_money=list(obs.bonus_money),
        last_capturer=obs.last_capturer,
        current=obs.current,
        phase=PHASE_NAMES.index(obs.phase),
        active=obs.active if obs.active is not None else -1,
        active_from=FROM_HAND if obs.active_from in (None, "hand") else FROM_STOCK,
        rounds=obs.rounds,
    )
    return st


# -- the game ---------------------------------------------------------------------------------
class CholekGame(Game):
    """Cholek Tiga for 2-3 players [002]."""

    options: ClassVar[tuple[Option, ...]] = CHOLEK_OPTIONS

    name: ClassVar[str] = "cholek-tiga"
    title: ClassVar[str] = "Cholek Tiga"
    players: ClassVar[tuple[int, int]] = (2, 3)
    default_players: ClassVar[int] = 3
    family: ClassVar[str] = "cholek"
    #: an ang pow pays its ``count`` cents from each other seat [002]
    money_items: ClassVar[frozenset[str]] = frozenset({"ang-pow", "ang-pow-besar"})

    def lessons(self) -> Course:
        """Cholek Tiga's course: every statement of [002] taught (``lessons.py``)."""
        return CHOLEK

    def view(self) -> GameView:
        """Cholek Tiga's view (:mod:`cherki.games.cholek.present`)."""
        return CholekView(self)

    def endings(self, rules: Rules) -> tuple[str, ...]:
        """A top scorer, or a tie at the top [002]."""
        return ("score", "tie")

    rules_type: ClassVar[type[Rules]] = CholekRules
    presets: ClassVar[tuple[Preset, ...]] = CHOLEK_PRESETS
    num_actions: ClassVar[int] = NUM_ACTIONS

    searchable: ClassVar[bool] = True

    def own_rules(self, rules: Rules) -> CholekRules:
        if not isinstance(rules, CholekRules):
            raise RulesError(f"Cholek Tiga needs Cholek Tiga's rules, not {rules!r}")
        return rules

    # -- declared bounds ------------------------------------------------------------------
    def max_hand_cards(self, rules: Rules, players: int) -> int:
        """Three cards, dealt again when every hand is empty."""
        self.own_rules(rules)
        return HAND_SIZE

    def max_actions(self, rules: Rules, players: int) -> int:
        """Every action places a card (a discard from the hand, a card turned from the
        stock) or decides on the card just placed, and every card of the shoe is placed at
        most once: twice the shoe."""
        self.own_rules(rules)
        return 2 * HALF_PACKS * N_KINDS

    def payment_bounds(self, rules: Rules, players: int) -> tuple[int, int]:
        """A seat scores at most the whole shoe's points (8 for four of a kind, every kind);
        the top scorer collects the difference from each other seat, and with ``tie_rule``
        ``each`` a seat may pay every one of several top scorers."""
        self.own_rules(rules)
        most = max(NORMAL_POINTS[HALF_PACKS], RED_POINTS[HALF_PACKS]) * N_KINDS
        return -most * (players - 1), most * (players - 1)

    def money_bounds(self, rules: Rules, players: int) -> tuple[int, int]:
        """Payments at ``cents_per_point``, and the bonuses: a three-alike (ayam or kandang)
        at most once a kind and an ang pow (or ang pow besar) at most once a red kind, each
        paid by every other seat to its taker. A seat gains at most all of them and loses at
        most one payment to each."""
        own = self.own_rules(rules)
        lo, hi = self.payment_bounds(own, players)
        alike = N_KINDS * max(own.ayam_cents, own.kandang_cents, 0)
        ang = len(RED) * max(own.ang_pow_cents, own.ang_pow_besar_cents, 0)
        cpp = own.cents_per_point
        return lo * cpp - alike - ang, hi * cpp + (alike + ang) * (players - 1)

    def observation_layout(self, rules: Rules, players: int) -> Layout:
        """:func:`cholek_layout` with its bounds: a count of one kind at most the shoe's
        copies of it, a hand at most :meth:`max_hand_cards`, the stock at most the shoe,
        the bonus money (dollars) at most a three-alike bonus for every kind (each kind has
        four copies, so one three-alike), paid by or to every other seat."""
        own = self.own_rules(rules)
        bonus = N_KINDS * max(own.ayam_cents, own.kandang_cents, 0) / 100
        return cholek_layout(players).bounded(
            own_hand=(0, HALF_PACKS),
            pool=(0, HALF_PACKS),
            hand_sizes=(0, self.max_hand_cards(own, players)),
            captured=(0, HALF_PACKS),
            bonus_money=(-bonus, bonus * (players - 1)),
            stock=(0, HALF_PACKS * N_KINDS),
        )

    def determinize(self, obs: Observation, rng: random.Random) -> CholekState:
        if not isinstance(obs, CholekObservation):
            raise RulesError(f"Cholek Tiga cannot sample a deal from {type(obs).__name__}")
        return determinize(obs, rng, self)

    def start(self, rules: Rules | None, players: int | None, request: DealRequest) -> CholekState:
        table_rules, n = self.table(rules, players, request.first)
        own = self.own_rules(table_rules)
        first = request.first
        src = deal_source(request, players=n, half_packs=HALF_PACKS, hand_sizes=[HAND_SIZE] * n)
        if src.order is not None:
            order = src.order
        else:  # the stacked hands are drawn first, in turn from the first player
            assert src.hands is not None and src.stock is not None
            order = [k for j in range(n) for k in src.hands[(first + j) % n]] + src.stock
        return CholekState(self, own, order, first, n, src.info)

    def action_text(self, action: int) -> str:
        return action_text(action, title=self.title)

    def parse_action(self, text: str) -> int:
        return parse_action(text, title=self.title)
