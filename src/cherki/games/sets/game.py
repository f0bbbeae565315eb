"""The game class every game of sets shares: dealing, notation, determinization."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import ClassVar, Final

from cherki.core.cards import (
    N_KINDS,
    counts_of,
)
from cherki.core.contract import Game, Observation, Rules
from cherki.core.deal import DealRequest, deal_source
from cherki.core.encoding import Layout
from cherki.core.errors import RulesError
from cherki.core.events import JSON
from cherki.core.figures import ExactFigure
from cherki.core.options import Value, find_option
from cherki.core.view import GameView, HandAnalysis
from cherki.games.sets.actions import NUM_ACTIONS, action_text, parse_action
from cherki.games.sets.determinize import determinize
from cherki.games.sets.figures import kandang_tangan_figures
from cherki.games.sets.hand import analyse_for_people
from cherki.games.sets.observation import SetsObservation, sets_layout
from cherki.games.sets.options import SHOE_TABLES
from cherki.games.sets.present import SetsView
from cherki.games.sets.rules import MAX_PLAYERS, SetsRules
from cherki.games.sets.state import SetsState

#: The rules every game of sets shared before each had its own rules class: a record
#: written then lists every field. A field that is no longer this game's is read at the
#: value the game fixed (these defaults, or the game's ``legacy_fixed``) and refused at any
#: other (docs/records.md).
LEGACY_FIELDS: Final[Mapping[str, Value]] = {
    "kena": True,
    "yeo_redeal": True,
    "yeo_cards": "one-point",
    "ayam_bonus": 10,
    "kandang_bonus": 20,
    "tan_bonus": 1,
    "chiqui": False,
    "expose_olo": False,
    "stake": 10,
    "ceken_bets": "",
    "bak_bakan_turn": True,
    "toh_step4": "restates",
    "olo_points": 5,
    "chiqui_fail": "void",
    "chiqui_turn": "any",
    "partnerships": False,
    "ceki_tokens": 10,
    "bangkong_points": 20,
    "bangkong_count": 3,
    "cents_per_bangkong": 2000,
    "cents_per_excess": 10,
}

#: Balik's scoring fields as the relatives without a turned card fixed them.
NO_BALIK_SCORING: Final[Mapping[str, Value]] = {
    "kena": False,
    "yeo_redeal": False,
    "ayam_bonus": 0,
    "kandang_bonus": 0,
    "tan_bonus": 0,
}


# -- the games --------------------------------------------------------------------------------
def whole_number(context: Mapping[str, JSON], key: str) -> None:
    """Refuse a context's ``key`` that is there and not a whole number ≥ 0."""
    value = context.get(key, 0)
    if type(value) is not int or value < 0:
        raise RulesError(f'context "{key}" must be a whole number ≥ 0, not {value!r}')


def _seats(first: int, n: int) -> list[int]:
    """The seats in the order of the deal, from ``first``."""
    return [(first + i) % n for i in range(n)]


class SetsGame(Game):
    """What every game of sets shares; each game module subclasses it with its name,
    presets and call words (Balik Satu's seat counts and calls are the defaults)."""

    #: [000] "up to 20 people can play with a total of 1 200 cards" (MAX_PLAYERS)
    players: ClassVar[tuple[int, int]] = (2, MAX_PLAYERS)
    default_players: ClassVar[int] = 4
    direction: ClassVar[str] = "(anti-clockwise: the next player sits on the right)"
    rules_type: ClassVar[type[SetsRules]] = SetsRules
    #: the fields of :data:`LEGACY_FIELDS` this game fixed at another value
    legacy_fixed: ClassVar[Mapping[str, Value]] = {}
    searchable: ClassVar[bool] = True
    num_actions: ClassVar[int] = NUM_ACTIONS
    #: notation words of the two calls: the tan-like call (a mata held, any card of the open
    #: rank wins) and the ceki-like call (the open set must become the mata)
    call_words: ClassVar[tuple[str, str]] = ("tan", "ceki")
    #: the calls' names for people ("ceki kowah", "tan nokang"...)
    call_names: ClassVar[tuple[str, str]] = ("tan", "ceki")
    #: the rules document (docs/rules/NAME.md)
    #: new_state takes a match ``context`` (the pot and other things kept across hands)
    accepts_context: ClassVar[bool] = True
    #: every game of sets plays with the family's bots (the Balik heuristic, the variant)
    family: ClassVar[str] = "sets"

    #: the game's view: the family's, with the game's own words (its glossary)
    view_type: ClassVar[type[SetsView]] = SetsView

    def view(self) -> GameView:
        """The games of sets' view (:mod:`cherki.games.sets.present`), the game's own."""
        return self.view_type(self)

    def endings(self, rules: Rules) -> tuple[str, ...]:
        """A self-draw, a claim, the stock out; a discard and kandang tangan where the rules
        have them (a game adds its own: Balik's yeo, Chaqui's failed chiqui)."""
        r = self.own_rules(rules)
        out = ["self-draw", "claim", "stock-out"]
        if r.discard_wins:
            out.append("discard")
        if r.kandang_tangan:
            out.append("kandang-tangan")
        return tuple(out)

    def analyse_hand(
        self, counts: Sequence[int], rules: Rules, honours: str | None = None
    ) -> HandAnalysis:
        """A hand's sets, mata, waits and calls in the game's words
        (:mod:`cherki.games.sets.hand`)."""
        return analyse_for_people(counts, self.own_rules(rules), title=self.title,
                                  call_words=self.call_words, honours=honours)  # fmt: skip

    def exact_figures(self, rules: Rules, players: int) -> tuple[ExactFigure, ...]:
        """A kandang tangan deal's chance, where the rules have it
        (:mod:`cherki.games.sets.figures`; a game adds its own: Balik Satu's turned card)."""
        return kandang_tangan_figures(self.own_rules(rules), players)

    def check_context(self, context: Mapping[str, JSON]) -> None:
        """The pot carried from the last hand (umbuk, undhuh-undhuhan: stakes not taken)."""
        whole_number(context, "pot")

    def own_rules(self, rules: Rules) -> SetsRules:
        """``rules`` as this game's rules (:class:`RulesError` for another game's)."""
        if not isinstance(rules, self.rules_type):
            raise RulesError(
                f"{self.title} needs {self.rules_type.__name__}, not {type(rules).__name__}"
            )
        return rules

    def rules_from_json(self, preset: str | None, data: Mapping[str, object]) -> Rules:
        """As every game's, and a record written when the games of sets shared one rules
        object (every field of it listed) still reads: a field that is no longer this
        game's is accepted at the value the game fixed then, and refused at another."""
        base = self.find_preset(preset).rules
        kept: dict[str, object] = {}
        for key, value in data.items():
            if (
                key in LEGACY_FIELDS
                and find_option(self.options, key) is None
                and not hasattr(base, key)
            ):
                fixed = self.legacy_fixed.get(key, LEGACY_FIELDS[key])
                if value == fixed and type(value) is type(fixed):
                    continue
            kept[key] = value
        return super().rules_from_json(preset, kept)

    def start(self, rules: Rules | None, players: int | None, request: DealRequest) -> SetsState:
        table_rules, n = self.table(rules, players, request.first)
        rules = self.own_rules(table_rules)
        first = request.first
        self.check_table(rules, n)
        half_packs = rules.shoe_half_packs(n)
        size = half_packs * N_KINDS
        each = rules.hand_size - 1
        dealt = each * n + (1 if rules.starter_extra else 0)
        if size < dealt + rules.reserve + 1:
            raise RulesError(
                f"{half_packs} half-packs ({size} cards) are too few for {n} players: the deal "
                f"takes {dealt} and the stock needs {rules.reserve} for scoring plus one to play"
            )
        sizes = [each + 1 if (i == first and rules.starter_extra) else each for i in range(n)]
        src = deal_source(request, players=n, half_packs=half_packs, hand_sizes=sizes)
        if src.order is not None:
            hands, stock = self.deal(src.order, n, first, rules.deal, each, rules.starter_extra)
        else:
            assert src.hands is not None and src.stock is not None
            hands, stock = [counts_of(h) for h in src.hands], src.stock
        return SetsState(self, rules, hands, stock, first, half_packs, src.info, request.context)

    # -- declared bounds ------------------------------------------------------------------
    def max_hand_cards(self, rules: Rules, players: int) -> int:
        """A hand holds ``sets × set_size`` cards after drawing (15 in Balik Satu), one fewer
        between turns; exposed olo stay in the hand."""
        return self.own_rules(rules).hand_size

    def max_actions(self, rules: Rules, players: int) -> int | None:
        """None: a hand of a game of sets has no upper bound on its length. A discard may be
        taken and thrown again without end (the sources set no limit on taking), so only
        the stock running out, which a take does not advance, ends a hand that nobody wins."""
        self.own_rules(rules)
        return None

    def payment_bounds(self, rules: Rules, players: int) -> tuple[int, int]:
        """From the scoring method: see each method's ``bounds``."""
        own = self.own_rules(rules)
        return own.method.bounds(own, players)

    def money_bounds(self, rules: Rules, players: int) -> tuple[int, int]:
        """A hand's money is its payments at ``cents_per_point``; a method that plays for no
        money in the hand (Chot's tokens, settled by the bangkong) pays none."""
        own = self.own_rules(rules)
        if not own.method.money:
            return 0, 0
        lo, hi = own.method.bounds(own, players)
        return lo * own.cents_per_point, hi * own.cents_per_point

    def observation_layout(self, rules: Rules, players: int) -> Layout:
        """:func:`sets_layout` with its bounds at this table: a count of one kind at most
        the shoe's copies of it, a hand at most :meth:`max_hand_cards`, the stock at most
        the shoe, the pot at most every seat's stake (pot methods: the pot is staked only
        when a hand finds it empty, and a hand only takes from it), one-hot views 0 or 1. A
        table size the shoe table does not cover (no hand can be dealt there until
        ``half_packs`` is set) is bounded by the largest shoe of the table."""
        own = self.own_rules(rules)
        try:
            copies = float(own.shoe_half_packs(players))
        except RulesError:
            copies = float(max(SHOE_TABLES[own.shoe_table].values()))
        pot = players * own.pot_stake if own.method.pot else 0
        return sets_layout(players).bounded(
            own_hand=(0, copies),
            discards=(0, copies),
            hand_sizes=(0, self.max_hand_cards(own, players)),
            exposed=(0, copies),
            melds=(0, copies),
            stock=(0, copies * N_KINDS),
            pot=(0, max(0, pot)),
        )

    def check_table(self, rules: SetsRules, players: int) -> None:
        """The checks the game's rules make on a table (partnerships, side bets...: the
        rules' ``check_table`` hook)."""
        rules.check_table(players)

    @staticmethod
    def deal(
        order: Sequence[int],
        n: int,
        first: int,
        method: str,
        each: int = 14,
        extra: bool = True,
    ) -> tuple[list[list[int]], list[int]]:
        """Deal a shoe order: returns count-vector hands and the stock (top first).

        ``each`` cards to every seat and, with ``extra``, one more to the starter: in two
        packets (7 and 7 in Balik Satu; the first packet the larger half) with the starter's
        extra card between them, or (``wash``) each seat's whole hand in turn.
        """
        hands = [[0] * N_KINDS for _ in range(n)]
        plus = 1 if extra else 0
        # the packets in the order they are dealt: (seat, count)
        if method == "wash":
            packets = [(s, each + plus if s == first else each) for s in _seats(first, n)]
        else:
            half = (each + 1) // 2
            packets = [(s, half) for s in _seats(first, n)] + [(first, plus)]
            packets += [(s, each - half) for s in _seats(first, n)]
        i = 0
        for seat, count in packets:
            hand = hands[seat]
            for k in order[i : i + count]:
                hand[k] += 1
            i += count
        return hands, list(order[i:])

    def determinize(self, obs: Observation, rng: random.Random) -> SetsState:
        if not isinstance(obs, SetsObservation):
            raise RulesError(f"{self.title} cannot sample a deal from {type(obs).__name__}")
        return determinize(obs, rng, self)

    def action_text(self, action: int) -> str:
        return action_text(action, call_words=self.call_words, title=self.title)

    def parse_action(self, text: str) -> int:
        return parse_action(text, call_words=self.call_words, title=self.title)
