"""Chaqui (Chiqui, Chekki): Balik Satu among the Kristang.

The rules ([001], the section "Chaqui", citing the article translated by A. G. Smith in the
Journal of the International Playing-Card Society 22 (2) p.34)
------------------------------------------------------------------------------------------
* Amongst the Kristang the game was known as Chaqui, Chiqui or Chekki. [C-NAME]
* Three identical cards are an *olo* ("eye": the mata). An olo completed by drawing another
  player's discard must be exposed. [C-OLO, C-EXPOSE]
* Played as Balik Satu, except that scoring is a fixed amount per olo, for example five
  points. [C-SCORING]
* A player who completes their hand via *chiqui*, an identical pair, may turn over the next
  15 cards of the stock to try to turn the chiqui into an olo. [C-CHIQUI]

Our specifications (options of :class:`ChaquiRules`)
----------------------------------------------------
* Play, calls (tan / ceki), shown draws and claims, the winning card from the stock,
  kandang tangan: Balik Satu's. A winning hand is five sets of three with an olo.
* ``expose_olo`` (on): a player who takes the last discard and so completes an olo lays the
  three cards face up. They are public and stay on the table (they cannot be discarded) and
  count as an olo when scoring.
* ``chiqui`` (on): a hand of five sets with no olo but a set holding an identical pair (a
  chiqui, e.g. ``M8 M8 C8``) may also go out ("sampei") on a card from the stock. The player
  then turns the next 15 stock cards (the stock keeps 15 back for it): each chiqui whose
  third identical card is among them becomes an olo (at most one olo per set). A hand
  waiting for such a go-out may call *ceki*, and then waits on every card of its open rank
  (holding the pair), or on the kinds its open rank holds (a card that makes the pair).
* ``chiqui_turn`` (``any``): the source puts no condition on the turn, so any go-out whose
  hand holds a chiqui turns the fifteen, an olo already held included; a turn that finds
  nothing then costs such a hand nothing (it still scores its olo). ``no-olo`` is the other
  reading: only a hand with no olo turns.
* ``chiqui_fail`` (``void``): a chiqui that turns into no olo wins nothing and the hand ends
  with no winner and no payments, the literal reading: [001] states no penalty. ``pays`` is
  a house rule, labelled so: the player pays each other player one olo's worth ("with great
  dishonour, with great loss of blood", as the song the source quotes warns).
* ``olo_points`` (5, the source's example): each other player pays the winner that much for
  each olo in the winning hand (after the chiqui turn). No turned card, no yeo, no kena, no
  red extra and no calling bonus: "scoring is a fixed amount per olo".
* ``kandang_tangan`` (on) doubles the olo score, as in Balik Satu.
* ``cents_per_point`` (10): the source gives no rate; Pwee's Singapore rate for Balik Satu.
* The public view (what anyone watching sees): Balik Satu's (:mod:`cherki.games.sets.balik`)
  and the exposed olo, face up on the table (``melds``). Never a hand's other cards, the
  stock's order or a draw while no call stands.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import ClassVar, Final

from cherki.core.cards import counts_of, format_cards
from cherki.core.contract import Rules
from cherki.core.events import JSON, Result, ScoreItem
from cherki.core.lessons import Course
from cherki.core.options import Option, Preset, Value, restate
from cherki.core.sets import N_GROUPS, group_totals, mata_count
from cherki.games.sets.game import NO_BALIK_SCORING, SetsGame
from cherki.games.sets.lessons import CHAQUI as COURSE
from cherki.games.sets.options import (
    CALLING,
    CORE_OPTIONS,
    DISCARD_WINS,
    HONOURS,
    KANDANG_TANGAN,
    SHOE,
    TABLE,
)
from cherki.games.sets.present import ChaquiView, SetsView
from cherki.games.sets.rules import Paid, ScoredHand, SetsRules, own
from cherki.games.sets.scoring import ScoringMethod, Win, register_scoring, win_result, winning_hand

#: Chaqui's olo and chiqui.
CHAQUI: Final = (
    Option(
        "olo_points", 5, "points an olo scores", "[001] C-SCORING", minimum=0, title="Points an olo"
    ),
    Option(
        "chiqui",
        True,
        "a hand may go out on a chiqui (an identical pair in a set) and turn fifteen",
        "[001] C-CHIQUI",
        title="Chiqui go-out",
    ),
    Option(
        "chiqui_fail",
        "void",
        "a chiqui go-out that turns up no olo: the hand ends with no winner (void, as the "
        "source reads), or the player pays one olo to each other player (pays: a house rule)",
        "[001] C-CHIQUI states no penalty; pays is a house rule after the song it quotes",
        choices=("void", "pays"),
        house=True,
        title="A chiqui go-out without an olo",
    ),
    Option(
        "chiqui_turn",
        "any",
        "which go-outs holding a chiqui turn fifteen: any (an olo already held included, "
        "as the source reads) or no-olo (only a hand without an olo)",
        "[001] C-CHIQUI puts no condition on the turn; no-olo is the narrower reading",
        choices=("any", "no-olo"),
        title="Which chiqui go-outs turn fifteen",
    ),
    Option(
        "expose_olo",
        True,
        "an olo completed from another's discard is laid face up",
        "[001] C-EXPOSE",
        title="Olo from a discard laid face up",
    ),
)

#: Chaqui's options.
CHAQUI_OPTIONS: Final = restate(
    SHOE + HONOURS + CALLING + DISCARD_WINS + TABLE + KANDANG_TANGAN + CHAQUI,
    "cents_per_point",
    "ours: [001] gives Chaqui no rate; [000] R-PAY's Singapore cents",
)


@dataclasses.dataclass(frozen=True, slots=True)
class ChaquiRules(SetsRules):
    """Chaqui's rules: the play core, the olo's points, the chiqui go-out and the exposed
    olo (defaults: the source's, [001])."""

    olo_points: int = 5
    chiqui: bool = True
    chiqui_fail: str = "void"
    chiqui_turn: str = "any"
    expose_olo: bool = True

    def declared(self) -> tuple[Option, ...]:
        return CORE_OPTIONS + CHAQUI

    @property
    def goes_out_on_pair(self) -> bool:
        """A hand may go out on a chiqui [001] C-CHIQUI (option ``chiqui``)."""
        return self.chiqui

    @property
    def lays_taken_mata(self) -> bool:
        """An olo completed from another's discard is laid face up [001] C-EXPOSE (option
        ``expose_olo``)."""
        return self.expose_olo

    @property
    def pair_go_out_costs(self) -> bool:
        """A chiqui go-out that turns up no olo costs one olo to each other player under the
        house rule ``chiqui_fail=pays``."""
        return self.chiqui_fail == "pays"


def chiqui_olo(state: ScoredHand, hand: Sequence[int], turned: Sequence[int]) -> list[int]:
    """The chiqui (identical pairs) whose third card is among ``turned``, at most one per
    set of their group that is not already an olo: the kinds that become olo."""
    size = state.size
    shown = counts_of(turned)
    totals = group_totals(hand, state.grouping)
    room = [totals[g] // size for g in range(N_GROUPS)]
    for k, c in enumerate(hand):
        room[state.grouping[k]] -= c // size
    out: list[int] = []
    for k, c in enumerate(hand):
        g = state.grouping[k]
        if c % size == size - 1 and shown[k] and room[g] > 0:
            room[g] -= 1
            out.append(k)
    return out


def holds_chiqui(state: ScoredHand, hand: Sequence[int]) -> bool:
    """Whether ``hand`` holds an identical pair beyond its olo (a chiqui)."""
    return any(c % state.size == state.size - 1 for c in hand)


def score_olo(state: ScoredHand, win: Win) -> Result:
    rules = own(state.rules, ChaquiRules)
    detail: dict[str, JSON] = {}
    olo, _ = mata_count(win.hand, state.size)
    items: list[ScoreItem] = []
    turn = olo == 0 or rules.chiqui_turn == "any"
    if rules.chiqui and turn and holds_chiqui(state, win.hand):
        # a hand complete with a chiqui: turn the next fifteen [C-CHIQUI]
        found = chiqui_olo(state, win.hand, win.scoring)
        detail["chiqui"] = True
        detail["chiqui_olo"] = format_cards(found)
        if not found and olo == 0:
            return chiqui_failed(state, win, detail)
        items.append(ScoreItem("chiqui", 0, cards=tuple(found), among=len(win.scoring)))
        olo += len(found)
    exposed = sum(state.melded[win.seat]) // state.size
    # item ``olo``: ``count`` olo at ``olo_points`` each; how many were exposed: the detail
    items.append(ScoreItem("olo", olo * rules.olo_points, count=olo))
    detail["exposed_olo"] = exposed
    detail["olo"] = olo
    mult = rules.kandang_tangan_multiplier if win.how == "kandang-tangan" else 1
    return win_result(state, win, items, detail, multiplier=mult)


def olo_paid(rules: SetsRules) -> tuple[Paid, ...]:
    """Chaqui's scoring list [C-SCORING, C-CHIQUI]: each olo, the chiqui go-out, a failed
    chiqui."""
    r = own(rules, ChaquiRules)
    out = [Paid("olo", r.olo_points)]
    if r.chiqui:
        out.append(Paid("chiqui", None, (("among", 15),)))
        if r.chiqui_fail == "pays":
            out.append(Paid("chiqui-failed", -r.olo_points))
        else:
            out.append(Paid("chiqui-void"))
    return tuple(out)


def _olo_bounds(rules: ChaquiRules, n: int) -> tuple[int, int]:
    """A win pays at most every set an olo (times kandang tangan's multiplier) from each
    other seat; a failed chiqui (``pays``) costs one olo's worth to each other seat."""
    most = rules.olo_points * rules.sets * rules.kandang_tangan_multiplier
    return -max(most, rules.olo_points * (n - 1)), max(most * (n - 1), rules.olo_points)


def chiqui_failed(state: ScoredHand, win: Win, detail: dict[str, JSON]) -> Result:
    """A chiqui go-out whose fifteen turned cards hold no olo: void, or (``chiqui_fail``
    ``pays``) the player pays each other seat one olo's worth (item ``chiqui-failed``)."""
    rules = own(state.rules, ChaquiRules)
    n = state.n
    s = win.seat
    hand = winning_hand(state, win)
    if rules.chiqui_fail == "void":
        zero = (0,) * n
        return Result(
            None,
            "chiqui-failed",
            payments=zero,
            money=zero,
            win=hand,
            would_be_winner=s,
            detail=detail,
        )
    pay = rules.olo_points
    payments = tuple(-pay * (n - 1) if t == s else pay for t in range(n))
    return Result(
        None,
        "chiqui-failed",
        (ScoreItem("chiqui-failed", pay),),
        pay,
        payments,
        tuple(p * rules.cents_per_point for p in payments),
        win=hand,
        would_be_winner=s,
        detail=detail,
    )


register_scoring(
    ScoringMethod(
        "olo",
        score_olo,
        lambda r: 15 if own(r, ChaquiRules).chiqui else 0,
        "Chaqui: a fixed amount per olo; a chiqui go-out turns fifteen",
        rules=ChaquiRules,
        items=("chiqui", "olo", "chiqui-failed", "kandang-tangan"),
        by_mata=True,
        paid=olo_paid,
        bounds=lambda r, n: _olo_bounds(own(r, ChaquiRules), n),
    )
)

CHAQUI_RULES: Final = ChaquiRules(
    scoring="olo",
    chiqui=True,
    # [001] states no penalty for a chiqui that turns up no olo: the hand simply ends
    # (the song's "great loss of blood" is the house rule chiqui_fail=pays)
    chiqui_fail="void",
    expose_olo=True,
)


def _preset(
    name: str, desc: str, aliases: tuple[str, ...] = (), *, title: str, **kw: Value
) -> Preset:
    rules = CHAQUI_RULES.with_fields(**kw)
    return Preset(name, rules, desc, "[001] citing JIPCS 22 (2) p.34", aliases, title=title)


CHAQUI_PRESETS: Final = (
    _preset(
        "kristang",
        "5 points an olo; olo from a discard exposed; chiqui go-out turns fifteen; 10¢ a point",
        title="Kristang",
    ),
    _preset(
        "no-chiqui",
        "As kristang without the chiqui go-out: every win needs an olo",
        chiqui=False,
        title="Kristang without the chiqui go-out",
    ),
)


class ChaquiGame(SetsGame):
    """Chaqui: Balik Satu scored by the olo, with exposed olo and the chiqui go-out."""

    view_type: ClassVar[type[SetsView]] = ChaquiView

    def lessons(self) -> Course:
        """Chaqui\'s course: every statement of its section of [001]
        (:mod:`cherki.games.sets.lessons`)."""
        return COURSE

    options: ClassVar[tuple[Option, ...]] = CHAQUI_OPTIONS
    rules_type: ClassVar[type[SetsRules]] = ChaquiRules
    legacy_fixed: ClassVar[Mapping[str, Value]] = NO_BALIK_SCORING

    name: ClassVar[str] = "chaqui"
    title: ClassVar[str] = "Chaqui"
    presets: ClassVar[tuple[Preset, ...]] = CHAQUI_PRESETS
    rules_doc: ClassVar[str] = "chaqui"

    def endings(self, rules: Rules) -> tuple[str, ...]:
        """The family's endings, and a failed chiqui where the rules have the chiqui [001]."""
        r = own(self.own_rules(rules), ChaquiRules)
        return super().endings(rules) + (("chiqui-failed",) if r.chiqui else ())


__all__ = [
    "CHAQUI_PRESETS",
    "CHAQUI_RULES",
    "ChaquiGame",
    "ChaquiRules",
    "chiqui_olo",
    "holds_chiqui",
    "score_olo",
]
