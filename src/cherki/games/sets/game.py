"""The game class every game of sets shares: dealing, notation, determinization."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from cherki.core.cards import (
    CODES,
    N_KINDS,
    counts_of,
    parse_card,
)
from cherki.core.contract import Game, Observation, Rules
from cherki.core.deal import DealRequest, deal_source
from cherki.core.encoding import Layout
from cherki.core.errors import NotationError, RulesError, quote
from cherki.games.sets.actions import (
    CALL_CEKI,
    CALL_TAN,
    DISCARD,
    DRAW,
    NUM_ACTIONS,
    PASS,
    SAMPEI,
    TAKE,
)
from cherki.games.sets.determinize import determinize
from cherki.games.sets.observation import SetsObservation, sets_layout
from cherki.games.sets.rules import MAX_PLAYERS, SHOE_TABLES, SetsRules, parse_bets
from cherki.games.sets.scoring import SCORING
from cherki.games.sets.state import SetsState


# -- the games --------------------------------------------------------------------------------
class SetsGame(Game):
    """What every game of sets shares; each game module subclasses it with its name,
    presets and call words (Balik Satu's seat counts and calls are the defaults)."""

    #: [000] "up to 20 people can play with a total of 1 200 cards" (MAX_PLAYERS)
    players: ClassVar[tuple[int, int]] = (2, MAX_PLAYERS)
    default_players: ClassVar[int] = 4
    direction: ClassVar[str] = "(anti-clockwise: the next player sits on the right)"
    rules_type: ClassVar[type[Rules]] = SetsRules
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

    def own_rules(self, rules: Rules) -> SetsRules:
        """``rules`` as the family's rules (:class:`RulesError` for another game's)."""
        if not isinstance(rules, SetsRules):
            raise RulesError(f"{self.title} needs the rules of a game of sets, not {rules!r}")
        return rules

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
        return SCORING[own.scoring].bounds(own, players)

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
        pot = players * own.stake if SCORING[own.scoring].pot else 0
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
        """Checks a relative adds on its rules and table (partnerships, side bets...)."""
        for a, b, _ in parse_bets(rules.ceken_bets):
            if max(a, b) >= players:
                raise RulesError(
                    f"option ceken_bets names seat {max(a, b)} at a table of {players}"
                )
        if rules.partnerships and players % 2:
            raise RulesError("partnerships need an even number of players")

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
        seats = [(first + i) % n for i in range(n)]
        i = 0

        def give(seat: int, count: int) -> None:
            nonlocal i
            for k in order[i : i + count]:
                hands[seat][k] += 1
            i += count

        plus = 1 if extra else 0
        if method == "wash":
            for s in seats:
                give(s, each + plus if s == first else each)
        else:
            half = (each + 1) // 2
            for s in seats:
                give(s, half)
            give(first, plus)
            for s in seats:
                give(s, each - half)
        return hands, list(order[i:])

    def determinize(self, obs: Observation, rng: random.Random) -> SetsState:
        if not isinstance(obs, SetsObservation):
            raise RulesError(f"{self.title} cannot sample a deal from {type(obs).__name__}")
        return determinize(obs, rng, self)

    def action_text(self, action: int) -> str:
        if action == TAKE:
            return "take"
        if action == DRAW:
            return "draw"
        if action == SAMPEI:
            return "sampei"
        if action == PASS:
            return "pass"
        if not DISCARD <= action < NUM_ACTIONS:
            raise NotationError(f"{action} is not a {self.title} action id (0-{NUM_ACTIONS - 1})")
        k = (action - DISCARD) % N_KINDS
        if action < CALL_TAN:
            return f"discard {CODES[k]}"
        return f"discard {CODES[k]} {self.call_words[0 if action < CALL_CEKI else 1]}"

    def parse_action(self, text: str) -> int:
        original = text.strip().split()
        words = [w.lower() for w in original]
        simple = {"take": TAKE, "draw": DRAW, "sampei": SAMPEI, "sampei!": SAMPEI, "pass": PASS}
        if len(words) == 1 and words[0] in simple:
            return simple[words[0]]
        if words and words[0] == "discard" and len(words) in (2, 3):
            k = parse_card(original[1])
            if len(words) == 2:
                return DISCARD + k
            tan, ceki = self.call_words
            if words[2] in (tan, "tan"):
                return CALL_TAN + k
            if words[2] in (ceki, "ceki"):
                return CALL_CEKI + k
            raise NotationError(f"a discard can call {tan!r} or {ceki!r}, not {quote(words[2])}")
        tan, ceki = self.call_words
        raise NotationError(
            f"{quote(text.strip())} is not a {self.title} action: use take, draw, sampei, pass, "
            f"'discard CARD', 'discard CARD {tan}' or 'discard CARD {ceki}'"
        )
