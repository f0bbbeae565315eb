"""Chot (Kiong): Balik Lima Belas in partnerships, scored with tokens into bangkong.

The rules ([001], the section "Chot", citing Pwee p.127 and The Babas p.167)
------------------------------------------------------------------------------------------
* Four players in partnerships, partners sitting opposite. Three decks (180 cards). [K-TABLE]
* Two kinds of token (tamarind and saga seeds, Pwee p.127; white and black marbles, *pichi*,
  The Babas p.167): the small (white) count one point, the large (black) ten. [K-TOKENS]
* Played and scored as Balik Lima Belas. Players take one token for each point scored; a
  player who wins by completing a mata (ayam or kandang) takes 10-point tokens instead of
  single-point tokens. Players keep their tokens separate. [K-SCORE]
* Once any player has twenty points, a *bangkong*, the partnerships pool their tokens; the
  side with more points wins the bangkong and records its number, and also the points it has
  in excess of the other side. All tokens go back to the pool. [K-BANGKONG]
* After a fixed number of bangkong, the side with fewer bangkong pays the other for the
  difference (e.g. $20 a bangkong), and the side with fewer excess points pays for the
  difference (e.g. 10¢ a point). [K-SETTLE]

Our specifications (options of :class:`ChotRules`)
--------------------------------------------------
* Seats 0 and 2 are one partnership, 1 and 3 the other (partners opposite, seats numbered
  in playing order). Play is Balik Lima Belas for each player alone (``partnerships`` on
  only pools the score).
* A hand's score is Balik Lima Belas's 1 + 1 a mata (after swapping from the fifteen); the
  winner takes that many tokens from the pool. A ceki win (ayam or kandang) takes
  ``ceki_tokens`` (10) points a point instead, *in place of* Lima Belas's ayam and kandang
  bonuses (which Chot's rules do not have). Kandang tangan doubles, as in Lima Belas.
* The tokens a winner takes come from the pool, not from the other players: they are in
  ``detail["tokens"]``. A hand's ``payments`` give the *sides'* view, which is what the
  partnerships play for: each member of the winner's side gains the tokens' points and each
  member of the other side loses them (zero-sum, and a seat's running total is its side's
  lead in tokens over the other side). No money changes hands during play (``money`` is
  zero): it settles by the bangkong.
* ``bangkong_points`` (20): checked after each hand; when a player's tokens reach it the
  bangkong is complete. A tie between the sides wins the bangkong for neither but counts
  towards the number played.
* ``bangkong_count`` (3): a match of Chot ends after this many bangkong (unless a number
  of hands or a target is given).
* Settlement: ``cents_per_bangkong`` (2000, $20) times the difference in bangkong won, and
  ``cents_per_excess`` (10) times the difference in excess points, from the side behind to
  the side ahead; each side pays or receives as a pair, half each (the first partner takes
  an odd cent).
* The public view of a hand (what anyone watching sees) is Balik Lima Belas's
  (:mod:`cherki.games.sets.balik`): the discards, calls, hand sizes, taken discards and
  draws shown while a call stands. Partners see no more of each other's hands than anyone.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import ClassVar, Final

from cherki.compiled import reduce_fields
from cherki.core.cards import counts_of
from cherki.core.contract import Ledger, MatchNote, Observation, Rules
from cherki.core.errors import RulesError
from cherki.core.events import JSON, Result, ScoreItem, Tokens
from cherki.core.figures import MatchMeasure, MatchMeasures
from cherki.core.lessons import Course
from cherki.core.options import Option, Preset, Value
from cherki.core.sets import improved_mata
from cherki.core.view import GameView, SeatLine, SeatSide, Zone, zone
from cherki.games.sets.game import SetsGame, whole_number
from cherki.games.sets.lessons import CHOT as COURSE
from cherki.games.sets.options import (
    CALLING,
    CORE_OPTIONS,
    DISCARD_WINS,
    HONOURS,
    KANDANG_TANGAN,
    SHOE,
    TABLE,
)
from cherki.games.sets.present import SetsView, _sets
from cherki.games.sets.rules import Paid, ScoredHand, SetsRules, own
from cherki.games.sets.scoring import ScoringMethod, Win, register_scoring, winning_hand
from cherki.i18n.voice import Voice, format_cents

#: Chot's partnerships, tokens and bangkong.
CHOT: Final = (
    Option(
        "partnerships",
        True,
        "partners sit opposite and score together",
        "[001] citing Pwee p.127",
        title="Partners opposite",
    ),
    Option(
        "ceki_tokens",
        10,
        "a ceki win is paid in tokens of this many points",
        "[001] K-SCORE",
        minimum=1,
        title="Tokens a ceki win",
    ),
    Option(
        "bangkong_points",
        20,
        "a bangkong is completed when a player's tokens reach this",
        "[001] K-BANGKONG",
        minimum=1,
        title="Points to a bangkong",
    ),
    Option(
        "bangkong_count",
        3,
        "the match ends after this many bangkong",
        "[001] K-BANGKONG",
        minimum=1,
        title="Bangkong to end the match",
    ),
    Option(
        "cents_per_bangkong",
        2000,
        "money a bangkong won is worth, in cents",
        "[001] K-SETTLE",
        minimum=0,
        title="Money a bangkong (cents)",
        money=True,
    ),
    Option(
        "cents_per_excess",
        10,
        "money an excess point is worth, in cents",
        "[001] K-SETTLE",
        minimum=0,
        title="Money an excess point (cents)",
        money=True,
    ),
)

#: Chot's options: money is settled by the bangkong, not by the point.
CHOT_OPTIONS: Final = SHOE + HONOURS + CALLING + DISCARD_WINS + TABLE[:1] + KANDANG_TANGAN + CHOT


@dataclasses.dataclass(frozen=True, slots=True)
class ChotRules(SetsRules):
    """Chot's rules: the play core, the partnerships, the tokens and the bangkong
    (defaults: Pwee's, [001] citing Pwee p.127)."""

    partnerships: bool = True
    ceki_tokens: int = 10
    bangkong_points: int = 20
    bangkong_count: int = 3
    cents_per_bangkong: int = 2000
    cents_per_excess: int = 10

    def declared(self) -> tuple[Option, ...]:
        return CORE_OPTIONS + CHOT

    def check_table(self, players: int) -> None:
        """Partnerships need an even number of players."""
        if self.partnerships and players % 2:
            raise RulesError("refuse.rules.partners_even")


def side_of(seat: int, players: int = 4) -> int:
    """The partnership of a seat: 0 (seats 0 and 2) or 1 (seats 1 and 3)."""
    return seat % (players // 2)


def score_chot(state: ScoredHand, win: Win) -> Result:
    rules = own(state.rules, ChotRules)
    detail: dict[str, JSON] = {}
    mata, red = improved_mata(win.hand, counts_of(win.scoring), state.grouping, state.size)
    items = [
        ScoreItem("winning", 1),
        ScoreItem("mata-swapped", mata, count=mata, among=len(win.scoring)),
    ]
    multiplier = 1
    tens = False
    if win.how == "kandang-tangan":
        multiplier = rules.kandang_tangan_multiplier
        items.append(ScoreItem("kandang-tangan", 0, multiplier))
    elif win.ceki_win:
        tens = True
        multiplier = rules.ceki_tokens
        word = "kandang" if win.how == "self-draw" else "ayam"
        # item ``ayam-tokens`` / ``kandang-tokens``: ceki won, paid in ten-point tokens
        items.append(ScoreItem(f"{word}-tokens", 0, multiplier))
    base = 1 + mata
    total = base * multiplier
    detail["mata"], detail["red_mata"] = mata, red
    side = side_of(win.seat, state.n)
    payments = tuple(total if side_of(t, state.n) == side else -total for t in range(state.n))
    return Result(
        win.seat,
        win.how,
        tuple(items),
        total,
        payments,
        (0,) * state.n,
        win=winning_hand(state, win),
        tokens=Tokens(win.seat, total, tens),
        detail=detail,
    )


def chot_paid(rules: SetsRules) -> tuple[Paid, ...]:
    """Chot's scoring list [K-SCORE, K-BANGKONG]: a win and its mata in tokens, a ceki
    win's ten-point tokens, the bangkong."""
    r = own(rules, ChotRules)
    return (
        Paid("winning", 1),
        Paid("mata-swapped", 1, (("among", 15),)),
        Paid("ceki-tokens", r.ceki_tokens, unit="x"),
        Paid(
            "bangkong",
            None,
            (
                ("points", r.bangkong_points),
                ("count", r.bangkong_count),
                ("money", format_cents(r.cents_per_bangkong)),
                ("excess", format_cents(r.cents_per_excess)),
            ),
        ),
    )


def _chot_bounds(rules: ChotRules) -> tuple[int, int]:
    most = (1 + rules.sets) * max(rules.ceki_tokens, rules.kandang_tangan_multiplier)
    return -most, most


register_scoring(
    ScoringMethod(
        "chot-tokens",
        score_chot,
        lambda r: 15,
        "Chot: Balik Lima Belas scored in tokens (10-point tokens for a ceki win)",
        rules=ChotRules,
        items=("winning", "mata-swapped", "kandang-tangan", "ayam-tokens", "kandang-tokens"),
        money=False,
        ceki_bonus=True,
        paid=chot_paid,
        # a side gains or loses the tokens of one win: 1 + every set a mata, times ten-point
        # tokens (a ceki win) or kandang tangan's multiplier
        bounds=lambda r, n: _chot_bounds(own(r, ChotRules)),
    )
)

CHOT_RULES: Final = ChotRules(
    scoring="chot-tokens",
    shoe_table="chot",
    partnerships=True,
)

CHOT_PRESETS: Final = (
    Preset(
        "pwee",
        CHOT_RULES,
        "Partners opposite, tokens of 1 and 10, bangkong at 20, 3 bangkong, $20 a bangkong "
        "and 10¢ an excess point",
        "[001] citing Pwee p.127 and The Babas p.167",
        title="Singapore (Pwee, 2003)",
    ),
)


@dataclasses.dataclass(frozen=True)
class Bangkong:
    """One completed bangkong: each seat's tokens, the sides' points, who won it, by how
    much."""

    number: int
    hand: int
    tokens: tuple[int, ...]
    sides: tuple[int, int]
    winner: int | None
    excess: int

    @property
    def kind(self) -> str:
        """What a match announces when a bangkong is completed (a ``MatchNote``)."""
        return "bangkong"

    def to_json(self) -> dict[str, JSON]:
        return {
            "number": self.number,
            "hand": self.hand,
            "tokens": list(self.tokens),
            "sides": list(self.sides),
            "winner": self.winner,
            "excess": self.excess,
        }

    def __reduce__(self) -> tuple[object, ...]:
        return reduce_fields(self)  # pickle and copy, compiled too (cherki.compiled)


class ChotLedger:
    """Chot's match bookkeeping: tokens per player, bangkong, the final settlement."""

    def __init__(self, rules: ChotRules, players: int) -> None:
        self.rules = rules
        self.n = players
        self.tokens = [0] * players
        self.bangkong: list[Bangkong] = []
        self.hands = 0

    def add(self, result: Result) -> list[MatchNote]:
        self.hands += 1
        if result.winner is None or result.redeal or result.tokens is None:
            return []
        self.tokens[result.winner] += result.tokens.points
        if max(self.tokens) < self.rules.bangkong_points:
            return []
        half = self.n // 2
        sides = (
            sum(self.tokens[t] for t in range(self.n) if t % half == 0),
            sum(self.tokens[t] for t in range(self.n) if t % half == 1),
        )
        winner = None if sides[0] == sides[1] else (0 if sides[0] > sides[1] else 1)
        b = Bangkong(
            len(self.bangkong) + 1,
            self.hands,
            tuple(self.tokens),
            sides,
            winner,
            abs(sides[0] - sides[1]),
        )
        self.bangkong.append(b)
        self.tokens = [0] * self.n
        return [b]

    def context(self) -> dict[str, JSON]:
        return {"tokens": list(self.tokens), "bangkong": len(self.bangkong)}

    def is_over(self) -> bool:
        return len(self.bangkong) >= self.rules.bangkong_count

    def won(self) -> tuple[int, int]:
        """Bangkong won by each side."""
        return (
            sum(1 for b in self.bangkong if b.winner == 0),
            sum(1 for b in self.bangkong if b.winner == 1),
        )

    def excess(self) -> tuple[int, int]:
        """Excess points recorded by each side."""
        return (
            sum(b.excess for b in self.bangkong if b.winner == 0),
            sum(b.excess for b in self.bangkong if b.winner == 1),
        )

    def side_money(self) -> tuple[int, int]:
        """Cents each side receives (+) or pays (-) at the settlement of the bangkong so far."""
        won, ex = self.won(), self.excess()
        a = (won[0] - won[1]) * self.rules.cents_per_bangkong + (
            ex[0] - ex[1]
        ) * self.rules.cents_per_excess
        return a, -a

    def money(self) -> list[int]:
        sides = self.side_money()
        half = self.n // 2
        out = [0] * self.n
        for side in (0, 1):
            amount = sides[side]
            second = int(amount / 2)
            out[side] = amount - second
            out[side + half] = second
        return out

    def to_json(self) -> dict[str, JSON]:
        return {
            "tokens": list(self.tokens),
            "bangkong": [b.to_json() for b in self.bangkong],
            "bangkong_won": list(self.won()),
            "excess": list(self.excess()),
            "side_money_cents": list(self.side_money()),
        }


# -- its view --------------------------------------------------------------------------------
class ChotView(SetsView):
    """Chot: the games of sets' view, with the partners marked under each seat, the tokens
    each seat holds and the bangkong in play in the table's middle, its payments headed as
    tokens, and its bangkong announced and settled."""

    def seat_side(self, obs: Observation, seat: int, voice: Voice) -> SeatSide:
        side = super().seat_side(obs, seat, voice)
        o = _sets(obs)
        n = len(o.hand_sizes)
        if not isinstance(o.rules, ChotRules) or not o.rules.partnerships or n % 2:
            return side
        partner = (seat + n // 2) % n
        lines = [SeatLine(label=voice.t("chot.partner", name=voice.obj(partner)), cards=None)]
        tokens = (o.context or {}).get("tokens")
        if isinstance(tokens, list) and seat < len(tokens):
            lines.append(SeatLine(label=voice.t("chot.tokens_held", n=tokens[seat]), cards=None))
        return SeatSide(call=side["call"], lines=lines + side["lines"])

    def zones(self, obs: Observation, voice: Voice) -> list[Zone]:
        out = super().zones(obs, voice)
        o = _sets(obs)
        n = len(o.hand_sizes)
        if not isinstance(o.rules, ChotRules) or not o.rules.partnerships or n % 2:
            return out
        context = o.context or {}
        done = context.get("bangkong", 0)
        title = voice.t(
            "chot.bangkong_in_play", of=o.rules.bangkong_count, points=o.rules.bangkong_points
        )
        out.append(zone("bangkong", "count", title, count=done if isinstance(done, int) else 0))
        tokens = context.get("tokens")
        if isinstance(tokens, list) and len(tokens) == n:
            for s, name in enumerate(_sides(voice)):
                held = sum(int(t) for i, t in enumerate(tokens) if i % (n // 2) == s)
                out.append(zone(f"side-{s}", "count", voice.t("chot.side_tokens", side=name),
                                count=held))  # fmt: skip
        return out

    def payments_heading(self, voice: Voice) -> str:
        return voice.t("chot.payments_heading")

    glossary: ClassVar[tuple[str, ...]] = (
        "tan",
        "ceki",
        "mata",
        "sampei",
        "ayam",
        "kandang",
        "kandang_tangan",
        "bangkong",
        "set",
        "winning_hand",
    )

    def note_line(self, note: MatchNote, voice: Voice) -> str:
        if not isinstance(note, Bangkong):
            return super().note_line(note, voice)
        sides = _sides(voice)
        if note.winner is None:
            return voice.t("note.bangkong_tie", n=note.number, points=note.sides[0])
        w = note.winner
        return voice.t(
            "note.bangkong_won",
            n=note.number,
            side=sides[w],
            points=note.sides[w],
            other=note.sides[1 - w],
            excess=note.excess,
        )

    def ledger_lines(self, ledger: Ledger, voice: Voice) -> list[str]:
        if not isinstance(ledger, ChotLedger):
            return []
        mine = ", ".join(f"{voice.name(t)} {x}" for t, x in enumerate(ledger.tokens))
        return [
            voice.t("sheet.tokens", tokens=mine),
            voice.t("sheet.bangkong_done", n=len(ledger.bangkong)),
        ]

    def settlement_lines(self, ledger: Ledger, voice: Voice) -> list[str]:
        if not isinstance(ledger, ChotLedger):
            return []
        sides = _sides(voice)
        won, ex = ledger.won(), ledger.excess()
        a, _ = ledger.side_money()
        lines = [
            voice.t("note.bangkong_count", a=sides[0], x=won[0], b=sides[1], y=won[1]),
            voice.t("note.excess", a=sides[0], x=ex[0], b=sides[1], y=ex[1]),
        ]
        if a:
            payer, payee = (sides[1], sides[0]) if a > 0 else (sides[0], sides[1])
            lines.append(voice.t("note.pays", payer=payer, payee=payee, money=format_cents(abs(a))))
        else:
            lines.append(voice.t("note.no_one_pays"))
        return lines


def _sides(voice: Voice) -> list[str]:
    half = len(voice.names) // 2
    return [
        voice.both([voice.obj(t) for t in range(len(voice.names)) if t % half == side])
        for side in (0, 1)
    ]


class ChotGame(SetsGame):
    """Chot (Kiong): four players in partnerships, Balik Lima Belas scored in tokens."""

    def lessons(self) -> Course:
        """Chot\'s course: every statement of its section of [001]
        (:mod:`cherki.games.sets.lessons`)."""
        return COURSE

    options: ClassVar[tuple[Option, ...]] = CHOT_OPTIONS
    rules_type: ClassVar[type[SetsRules]] = ChotRules
    legacy_fixed: ClassVar[Mapping[str, Value]] = {
        "ayam_bonus": 0,
        "kandang_bonus": 0,
        "tan_bonus": 0,
    }

    name: ClassVar[str] = "chot"
    title: ClassVar[str] = "Chot"
    players: ClassVar[tuple[int, int]] = (4, 4)
    default_players: ClassVar[int] = 4
    presets: ClassVar[tuple[Preset, ...]] = CHOT_PRESETS
    rules_doc: ClassVar[str] = "chot"

    def view(self) -> GameView:
        """The games of sets' view, with the bangkong (:class:`ChotView`)."""
        return ChotView(self)

    def sides(self, rules: Rules, players: int) -> tuple[tuple[int, ...], ...] | None:
        """Partners sit opposite: seats ``i`` and ``i + players/2`` [001 citing Pwee p.127]."""
        if not own(self.own_rules(rules), ChotRules).partnerships:
            return None
        half = players // 2
        return tuple(tuple(t for t in range(players) if t % half == side) for side in range(half))

    def match_ledger(self, rules: Rules, players: int) -> ChotLedger | None:
        mine = own(self.own_rules(rules), ChotRules)
        return ChotLedger(mine, players) if mine.partnerships else None

    def check_context(self, context: Mapping[str, JSON]) -> None:
        """The ledger's counts carried into a hand: the bangkong completed and each seat's
        tokens (:meth:`ChotLedger.context`), beside the games of sets' pot."""
        super().check_context(context)
        whole_number(context, "bangkong")
        tokens = context.get("tokens", [])
        if not isinstance(tokens, list) or not all(type(t) is int and t >= 0 for t in tokens):
            raise RulesError('context "tokens" must be a list of whole numbers ≥ 0')

    def match_measures(
        self, rules: Rules, players: int, notes: Sequence[tuple[int, MatchNote]]
    ) -> MatchMeasures:
        """A run of Chot matches: the bangkong completed, how many hands each took (from
        the previous bangkong's hand, or from the run's start), its excess, and the share
        won by the side of seats 0 and 2 (a drawn bangkong counts as not won by them)."""
        done = [(hand, note) for hand, note in notes if isinstance(note, Bangkong)]
        lengths: list[float] = []
        last = -1
        for hand, _ in done:
            lengths.append(float(hand - last))
            last = hand
        return MatchMeasures(
            "Matches: bangkong and the settlement (the hands in order, as one run of matches)",
            (
                MatchMeasure("bangkong", "bangkong completed", "count", tuple(1.0 for _ in done)),
                MatchMeasure(
                    "hands_per_bangkong", "hands a bangkong takes", "mean", tuple(lengths)
                ),
                MatchMeasure(
                    "excess_per_bangkong",
                    "excess points a bangkong",
                    "mean",
                    tuple(float(b.excess) for _, b in done),
                ),
                MatchMeasure(
                    "bangkong_won_by_seats_0_and_2",
                    "bangkong won by seats 0 and 2",
                    "share",
                    tuple(float(b.winner == 0) for _, b in done),
                ),
            ),
        )


__all__ = [
    "CHOT_PRESETS",
    "CHOT_RULES",
    "Bangkong",
    "ChotGame",
    "ChotLedger",
    "ChotRules",
    "score_chot",
]
