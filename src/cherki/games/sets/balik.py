"""Balik Satu and Balik Lima Belas.

The rules (sources ``000_4a123d847e7e4436.txt`` = [000] and ``001_848bc251e0992f3b.txt`` =
[001], both drawn from Pwee (2003) "Chiki Cards" with additions from "The Babas"; [003] is
the Ceki text)
------------------------------------------------------------------------------------------
* Equipment: Cherki packs of 60 cards; how many for how many players follows one of three
  tables: Pwee, The Babas [000, 001], Amaro (1993) [001]. [R-SHOE]
* Deal 7 to each player, one more to the first player, then 7 more each; or wash-shuffle and
  let each draw 14 (15 for the starter). The rest is the face-down stock. [000, R-DEAL]
* The first player discards; play goes anti-clockwise, to the right. On a turn take the last
  discard or the next stock card, then discard. [000, R-TURN]
* Goal: five sets of three, a set being three of one rank (same indices) or three identical
  cards, a *mata*. At least one mata to win; the winning (15th) card must come from the
  stock, never a discard. [000, R-WIN]
* Calling: with four sets formed and one card needed, a player may call on a discard: *tan*
  when a mata is already formed, *ceki* when the last set must become the mata. [000, R-CALL]
* Once anyone has called, stock draws are shown to all; a caller whose winning card is shown
  takes it and wins. Claiming or drawing the winning card: "sampei!". [000, R-CLAIM]
* A caller may still turn a mixed set into a mata; a ceki caller who does may change the call
  to tan. [000, R-CHANGE]
* Scoring: the winner turns one more stock card: 1-9 by rank, Red Nine 10, Nyonya 11, Lau
  Chian 12 [000, R-TURNED]. Commonly, a rank-1 *yeo* card scores nothing and the round is
  replayed [000, R-YEO]. The turned card may replace a same-rank card to make a mata, *kena*
  [001 citing The Babas p.162, R-KENA]. +1 per unmarked mata, +2 per red mata [000, R-MATA].
  A ceki winner adds the *ayam* bonus when another player drew the card, *kandang* when
  self-drawn: 1/2 (Gateway to Old School Games), 5/10 (The Babas), 10/20 (Pwee) [000,
  R-BONUS]. Pwee also adds 1 for winning after tan [000 footnote, R-TAN-BONUS]. Each other
  player pays the winner the total, 10¢ a point in Singapore, 5¢ in the 1970s [000, R-PAY].
* Kandang tangan: a winning hand as dealt wins at once and scores double, with no calling
  bonuses [000, R-KANDANG-TANGAN].
* Balik Lima Belas: the winner draws fifteen and swaps same-rank cards to make the most mata;
  1 point plus 1 per mata, no red extra; ayam and kandang still apply [000, 001, R-LIMA-BELAS].

Our specifications (each is an option of :class:`BalikRules` unless marked *fixed*)
------------------------------------------------------------------------------------
* ``honours``: how honours form sets. Default ``rank1`` (Pwee's card table puts WF, RF and
  OT in the rank-1 row, and Pwee is the main source of Balik Satu); ``frames`` (WF and RF wear
  the 1s' frame, OT none, [003]); ``own`` (honours only with their own kind, [003]).
* ``yeo_redeal`` (default on: the source calls it "a common rule") and ``yeo_cards``: which
  turned cards are *yeo*. Default ``one-point``: C1, S1, M1 and WF, the cards a turn scores 1
  for. Nyonya and Lau Chian are in Pwee's rank-1 row but the source scores them 11 and 12,
  so we do not void a win for turning them; ``rank1`` includes them, ``suited`` is C1 S1 M1.
  A yeo voids the win and the hand is dealt again (the result says ``redeal``).
* ``must_call_to_win`` (default off): calling is something a player "can" do [000], so an
  uncalled player may win on their own stock draw. Calling bonuses need a standing call.
* *fixed*: the call is derived from the hand: ``tan`` when the 14 cards already hold a mata,
  else ``ceki``; a hand may call only if some card would win (a ceki hand needs an identical
  pair in its open set).
* ``call_timing`` (default ``any``): a player may call on any discard while the hand is a
  card from winning, not only the first chance. [000] says "once a player has formed four
  sets in their hand and only needs one card to win, they can 'call' on their next
  discard". We read "next discard" as *when* the call is made (a call is a discard, made
  with a flick), not as a deadline: the sentence gives a permission ("can"), names no loss
  for letting the chance pass, and calling is a choice with a price (once called, the hand
  may only change for a mata, R-CHANGE; every draw is shown), so a player who waits a turn,
  hoping to call tan rather than ceki, only delays the calling bonus. ``next`` is the strict
  reading: the call must be made on the discard that first leaves the hand a card from
  winning (for a hand dealt so, the seat's first discard); a plain discard that keeps the
  hand a card from winning lets the chance pass, and it comes back only after a discard
  that leaves the hand further from winning. The batched simulator plays ``any`` only.
* ``caller_changes`` (default ``mata-only``): after calling, a player may only keep a new card
  when the exchange still waits and holds more mata ("turning an existing mixed set into a
  mata" [000]); ``free`` allows any exchange that still waits; ``none`` freezes the hand.
  A ceki caller whose change forms a mata *can* change to tan [000 R-CHANGE] and then loses
  the ceki bonus [000 fn.], or keep ceki (a plain discard): a kept ceki still waits only on
  a card that completes a mata, its promise, and so still wins the bonus.
* ``claim_priority`` (default ``turn-order``): when a revealed draw wins for several seats,
  the drawer comes first (the card is theirs, a self-draw), then the other callers in turn
  order from the drawer, as the next player in Mahjong has priority; ``first-caller`` ranks
  the others by who called first. Each in turn may claim ("sampei") or pass. At the table
  the callers would answer at once; the engine asks them one at a time, so while a claim is
  open every seat sees whose answer is awaited (and so that the shown card would win for
  that seat). This is public in play too, for a caller who could win rarely passes.
* *fixed*: kandang tangan is the starting player's 15 dealt cards forming a winning hand; it
  is a "sampei" at their first turn, scored double with no tan, ayam or kandang bonus. The
  turned card (and yeo) still apply.
* *fixed*: the bonus for a ceki win is ayam when the winner claimed another seat's draw,
  kandang when they drew it themselves. An uncalled win earns no calling bonus.
* Balik Lima Belas always swaps from the fifteen drawn (that is its scoring), so the ``kena``
  option changes only Balik Satu; its presets add no tan point (the source scores "one point
  for winning plus one point for each mata" and names only ayam and kandang as extras).
* Stock: the last ``1`` card (Balik Satu) or ``15`` cards (Lima Belas) are kept back for the
  winner's scoring draw. When a turn starts and no other stock card is left, the hand ends
  with no winner and no payments (a winning card must come from the stock, so none can
  follow). The rules check that the shoe leaves at least one card to play.
* ``next_starter`` (default ``winner``): the winner starts the next hand; ``next`` passes the
  start to the right. After a hand with no winner or a yeo redeal the same player starts.
* ``deal``: ``rounds`` deals packets of 7 in turn order from the starter, 1 more to the
  starter, then 7 each; ``wash`` lets each seat take 14 (the starter 15) in turn. Both give
  the same distribution [000]; they place the cards of an explicit shoe order differently.
* Seats are numbered in playing order: seat ``i + 1`` sits on seat ``i``'s right.
* *fixed*: the public view (``state.public_observation()``, what anyone watching the table
  sees): the discards and who threw each, every hand's size, the calls, their order and
  changes, the cards each seat is known to hold (``exposed``: discards it took, stock draws
  shown while a call stands), a card shown for a claim and whose answer is awaited, the
  stock's size, the pot, and the result with the winning hand once the hand is over. Never
  a hand's other cards, the stock's order, or a card drawn while no call stands. What the
  seat to act drew and where from (``drawn``, ``drawn_from``) are that seat's own, as in
  every other seat's view; a take still shows, in the pile and in ``exposed``.

The relatives (one engine, rules modules)
-----------------------------------------
Gonggong, Tantanan and Cekèn, Chaqui and Chot are Balik Satu with other options: their game
modules (``gonggong.py``, ``tantanan.py``, ``chaqui.py``, ``chot.py``) hold their rules
classes, presets and scoring functions, and play on :class:`SetsState`. What every game of
sets shares is the play core, :class:`~cherki.games.sets.rules.SetsRules` (defaults: Balik
Satu's); what a game changes in the shared play reaches it through the core's hooks:

* ``set_size`` (3; Tantanan plays pairs, 2) and ``sets`` (5; Tantanan 3): a winning hand is
  ``sets`` sets of ``set_size`` cards, one of them a mata (the relatives call it a *bak* or an
  *olo*); between turns a hand holds one card fewer.
* ``starter_extra`` (on): the starter is dealt one card more and opens by discarding; off,
  every seat is dealt the same and the starter opens by drawing (Gonggong's "deal 14 cards
  each", Tantanan's "five cards").
* ``discard_wins`` (off): whether a caller may also win by claiming another seat's discard.
* the hooks ``goes_out_on_pair`` and ``lays_taken_mata`` (off): Chaqui's go-out with an
  identical pair and its exposed olo (its options ``chiqui`` and ``expose_olo``, see
  :mod:`cherki.games.sets.chaqui`); ``pot_stake`` (0): Gonggong's pots; ``check_table``:
  Chot's partnerships, Gonggong's side bets.
* ``scoring`` names a function in the :data:`~cherki.games.sets.rules.SCORING` registry with
  the rules class it scores (``satu`` and ``lima-belas`` here; each relative registers its
  own) and the stock reserve it needs. Pots carry across the hands of a match in the
  ``context`` given to :meth:`BalikGame.new_state`.
* The call words are the game's (``call_words`` of the :class:`BalikGame` subclass): the
  *tan*-like call (a mata already held, any card of the open rank wins) and the *ceki*-like
  call (the open set must itself become the mata).

The invariant every result keeps: ``sum(payments) + result.pot_change == 0``.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar, Final

from cherki.core.cards import CODES, N_KINDS, OT, RANK, RF, S9, WF, counts_of
from cherki.core.contract import Rules
from cherki.core.events import JSON, Result, ScoreItem
from cherki.core.figures import ExactFigure
from cherki.core.lessons import Course
from cherki.core.options import Option, Preset, Value
from cherki.core.sets import (
    improved_mata,
    mata_count,
)
from cherki.games.sets.figures import kandang_tangan_figures, turned_card_figures
from cherki.games.sets.game import SetsGame
from cherki.games.sets.lessons import BALIK_LIMA_BELAS, BALIK_SATU
from cherki.games.sets.options import (
    CALLING,
    CORE_OPTIONS,
    HONOURS,
    KANDANG_TANGAN,
    SHOE,
    TABLE,
)
from cherki.games.sets.present import BalikView, SetsView
from cherki.games.sets.rules import Paid, ScoredHand, SetsRules, own
from cherki.games.sets.scoring import (
    ScoringMethod,
    Win,
    each_pays_bounds,
    mata_points,
    register_scoring,
    win_result,
    winning_hand,
)

#: The points of the turned card [000 R-TURNED]: 1-9 by rank, Red Nine 10, Nyonya 11, Lau
#: Chian 12.
TURN_POINTS: Final[tuple[int, ...]] = tuple(
    {S9: 10, RF: 11, OT: 12}.get(k, RANK[k]) for k in range(N_KINDS)
)

#: Which turned cards are *yeo* (option ``yeo_cards``, after [000] R-YEO).
YEO_CARDS: Final[dict[str, frozenset[int]]] = {
    "one-point": frozenset({0, 9, 18, WF}),
    "suited": frozenset({0, 9, 18}),
    "rank1": frozenset({0, 9, 18, WF, RF, OT}),
}

#: Balik Satu's and Lima Belas's scoring: the turned card, yeo, kena and the bonuses.
BALIK_SCORING: Final = (
    Option(
        "kena",
        True,
        "the turned card may replace a same-rank card to make a mata (kena)",
        "[001] citing The Babas p.162, R-KENA",
        title="Kena: the turned card makes a mata",
    ),
    Option(
        "yeo_redeal",
        True,
        "a yeo turned card voids the win and the hand is dealt again",
        "[000] R-YEO ('a common rule')",
        title="Yeo voids the win, deal again",
    ),
    Option(
        "yeo_cards",
        "one-point",
        "which turned cards are yeo",
        "ours, after [000] R-YEO",
        choices=tuple(YEO_CARDS),
        title="Which turned cards are yeo",
    ),
    Option(
        "ayam_bonus",
        10,
        "bonus for a ceki win on another's draw (ayam)",
        "[000] R-BONUS",
        minimum=0,
        title="Ayam bonus: ceki on another's draw",
    ),
    Option(
        "kandang_bonus",
        20,
        "bonus for a ceki win on one's own draw (kandang)",
        "[000] R-BONUS",
        minimum=0,
        title="Kandang bonus: ceki on one's own draw",
    ),
    Option(
        "tan_bonus",
        1,
        "points for winning after calling tan",
        "[000] footnote, R-TAN-BONUS",
        minimum=0,
        title="Points for a win after tan",
    ),
)


#: Balik Satu and Balik Lima Belas.
BALIK_OPTIONS: Final = SHOE + HONOURS + CALLING + TABLE + KANDANG_TANGAN + BALIK_SCORING


@dataclasses.dataclass(frozen=True, slots=True)
class BalikRules(SetsRules):
    """Balik Satu's and Lima Belas's rules: the play core and the turned card, yeo, kena and
    the calling bonuses (defaults: Pwee's, [000])."""

    kena: bool = True
    yeo_redeal: bool = True
    yeo_cards: str = "one-point"
    ayam_bonus: int = 10
    kandang_bonus: int = 20
    tan_bonus: int = 1

    def declared(self) -> tuple[Option, ...]:
        return CORE_OPTIONS + BALIK_SCORING


def with_bonuses(rules: BalikRules, base: int) -> int:
    """The most a win scores: ``base`` plus the largest calling bonus, or ``base`` times the
    kandang tangan multiplier (which takes no calling bonus)."""
    bonus = max(rules.tan_bonus, rules.ayam_bonus, rules.kandang_bonus)
    return max(base + bonus, base * rules.kandang_tangan_multiplier)


def yeo_result(state: ScoredHand, win: Win, turned: int, detail: dict[str, JSON]) -> Result:
    """A win voided by a yeo turned card: no score, the hand is dealt again."""
    zero = (0,) * state.n
    return Result(
        None,
        "yeo",
        payments=zero,
        money=zero,
        redeal=True,
        win=winning_hand(state, win),
        would_be_winner=win.seat,
        detail=detail,
    )


def _calling_bonus(rules: BalikRules, win: Win, items: list[ScoreItem]) -> int:
    """Tan point, ayam or kandang (Balik Satu and Lima Belas); returns the multiplier."""
    if win.how == "kandang-tangan":
        return rules.kandang_tangan_multiplier
    if win.call == "tan" and rules.tan_bonus:
        items.append(ScoreItem("tan-bonus", rules.tan_bonus))
    elif win.ceki_win:
        if win.how in ("claim", "discard") and rules.ayam_bonus:
            items.append(ScoreItem("ayam", rules.ayam_bonus))
        elif win.how == "self-draw" and rules.kandang_bonus:
            items.append(ScoreItem("kandang", rules.kandang_bonus))
    return 1


def score_satu(state: ScoredHand, win: Win) -> Result:
    """Balik Satu [000]: the turned card, yeo, kena, mata, tan / ayam / kandang."""
    rules = own(state.rules, BalikRules)
    hand = list(win.hand)
    detail: dict[str, JSON] = {}
    base_mata, base_red = mata_count(hand, state.size)
    turned = win.scoring[0]
    if rules.yeo_redeal and turned in YEO_CARDS[rules.yeo_cards]:
        return yeo_result(state, win, turned, detail)
    items = [ScoreItem("turned", TURN_POINTS[turned], cards=(turned,))]
    if rules.kena:
        mata, red = improved_mata(hand, counts_of([turned]), state.grouping, state.size)
    else:
        mata, red = base_mata, base_red
    if mata > base_mata or red > base_red:
        detail["kena"] = True
    plain = mata - red
    if plain:
        # mark the line the turned card improved (an unmarked or a red mata)
        kena = plain > base_mata - base_red
        items.append(ScoreItem("mata", plain, count=plain, kena=kena))
    if red:
        items.append(ScoreItem("red-mata", 2 * red, count=red, kena=red > base_red))
    detail["mata"], detail["red_mata"] = mata, red
    multiplier = _calling_bonus(rules, win, items)
    return win_result(state, win, items, detail, multiplier=multiplier)


def score_lima_belas(state: ScoredHand, win: Win) -> Result:
    """Balik Lima Belas [000]: 1 for winning, 1 a mata after swapping from the fifteen."""
    hand = list(win.hand)
    detail: dict[str, JSON] = {}
    mata, red = improved_mata(hand, counts_of(win.scoring), state.grouping, state.size)
    items = [
        ScoreItem("winning", 1),
        ScoreItem("mata-swapped", mata, count=mata, among=len(win.scoring)),
    ]
    detail["mata"], detail["red_mata"] = mata, red
    multiplier = _calling_bonus(own(state.rules, BalikRules), win, items)
    return win_result(state, win, items, detail, multiplier=multiplier)


def calling_paid(rules: BalikRules) -> tuple[Paid, ...]:
    """The calling bonuses' lines of the scoring list [000 R-BONUS, R-TAN-BONUS]."""
    out = []
    if rules.tan_bonus:
        out.append(Paid("tan-bonus", rules.tan_bonus))
    if rules.ayam_bonus:
        out.append(Paid("ayam", rules.ayam_bonus))
    if rules.kandang_bonus:
        out.append(Paid("kandang", rules.kandang_bonus))
    return tuple(out)


def satu_paid(rules: SetsRules) -> tuple[Paid, ...]:
    """Balik Satu's scoring list under ``rules``: the turned card's points (from
    :data:`TURN_POINTS`), yeo, kena, the mata, the calling bonuses."""
    r = own(rules, BalikRules)
    out = [
        Paid(
            "turned",
            None,
            (
                ("low", min(TURN_POINTS)),
                ("nine", TURN_POINTS[S9]),
                ("rf", TURN_POINTS[RF]),
                ("ot", TURN_POINTS[OT]),
            ),
        )
    ]
    if r.yeo_redeal:
        yeo = " ".join(CODES[k] for k in sorted(YEO_CARDS[r.yeo_cards]))
        out.append(Paid("yeo", None, (("cards", yeo),)))
    if r.kena:
        out.append(Paid("kena"))
    out += [Paid("mata", 1), Paid("red-mata", 2)]
    return (*out, *calling_paid(r))


def lima_belas_paid(rules: SetsRules) -> tuple[Paid, ...]:
    """Balik Lima Belas's scoring list: 1 for winning, 1 a mata among the fifteen drawn,
    the calling bonuses."""
    r = own(rules, BalikRules)
    return (Paid("winning", 1), Paid("mata-swapped", 1, (("among", 15),)), *calling_paid(r))


register_scoring(
    ScoringMethod(
        "satu",
        score_satu,
        lambda r: 1,
        "Balik Satu: turn one card, mata, calling bonuses",
        rules=BalikRules,
        items=("turned", "mata", "red-mata", "tan-bonus", "ayam", "kandang", "kandang-tangan"),
        ceki_bonus=True,
        paid=satu_paid,
        # the turned card scores at most 12 (Lau Chian)
        bounds=lambda r, n: each_pays_bounds(
            with_bonuses(own(r, BalikRules), 12 + mata_points(r)), n
        ),
    )
)
register_scoring(
    ScoringMethod(
        "lima-belas",
        score_lima_belas,
        lambda r: 15,
        "Balik Lima Belas: draw fifteen, 1 for winning and 1 a mata, calling bonuses",
        rules=BalikRules,
        items=("winning", "mata-swapped", "tan-bonus", "ayam", "kandang", "kandang-tangan"),
        ceki_bonus=True,
        paid=lima_belas_paid,
        bounds=lambda r, n: each_pays_bounds(with_bonuses(own(r, BalikRules), 1 + r.sets), n),
    )
)


def _preset(name: str, desc: str, sources: str, *, title: str, **kw: Value) -> Preset:
    rules = BalikRules().with_fields(**kw)
    return Preset(name, rules, desc, sources, title=title)


BALIK_SATU_PRESETS: Final = (
    _preset(
        "pwee",
        "Singapore rules of Pwee (2003): ayam 10, kandang 20, +1 after tan, 10¢ a point",
        "[000] [001] Pwee 2003 p.122",
        title="Singapore (Pwee, 2003)",
    ),
    _preset(
        "babas",
        "The Babas (p.155, 162): ayam 5, kandang 10, no tan point, 5¢ a point, Babas shoe table",
        "[000] [001] The Babas p.154-162",
        title="The Babas",
        shoe_table="babas",
        ayam_bonus=5,
        kandang_bonus=10,
        tan_bonus=0,
        cents_per_point=5,
    ),
    _preset(
        "gateway",
        "Gateway to Old School Games (p.71): ayam 1, kandang 2, no tan point",
        "[000] [001] Gateway to Old School Games p.71",
        title="Gateway to Old School Games",
        ayam_bonus=1,
        kandang_bonus=2,
        tan_bonus=0,
    ),
)


def _lima_belas(p: Preset) -> Preset:
    """The same source's bonuses and stakes with the fifteen-card scoring draw [000]."""
    assert isinstance(p.rules, BalikRules)
    rules = dataclasses.replace(p.rules, scoring="lima-belas", tan_bonus=0)
    desc = p.description.replace("+1 after tan, ", "").replace(", no tan point", "")
    return Preset(p.name, rules, desc + "; the winner draws fifteen", p.sources, title=p.title)


BALIK_LIMA_BELAS_PRESETS: Final = tuple(_lima_belas(p) for p in BALIK_SATU_PRESETS)


class BalikGame(SetsGame):
    """Balik Satu."""

    view_type: ClassVar[type[SetsView]] = BalikView
    options: ClassVar[tuple[Option, ...]] = BALIK_OPTIONS
    rules_type: ClassVar[type[SetsRules]] = BalikRules

    name: ClassVar[str] = "balik-satu"
    title: ClassVar[str] = "Balik Satu"
    presets: ClassVar[tuple[Preset, ...]] = BALIK_SATU_PRESETS
    rules_doc: ClassVar[str] = "balik-satu"

    def lessons(self) -> Course:
        """Balik Satu's course: every statement of [001] (and the cards of [003]), each
        taught by a lesson (:mod:`cherki.games.sets.lessons`)."""
        return BALIK_SATU

    def endings(self, rules: Rules) -> tuple[str, ...]:
        """The family's endings, and a win voided by a yeo card where the rules redeal [000]."""
        r = own(self.own_rules(rules), BalikRules)
        yeo = ("yeo",) if r.scoring == "satu" and r.yeo_redeal else ()
        return super().endings(rules) + yeo

    def exact_figures(self, rules: Rules, players: int) -> tuple[ExactFigure, ...]:
        """The family's, and with Balik Satu's scoring the turned card's: how often yeo
        voids a win, and the turned card's mean points in a win that stands
        (:func:`~cherki.games.sets.figures.turned_card_figures`)."""
        r = own(self.own_rules(rules), BalikRules)
        if r.scoring != "satu":
            return super().exact_figures(rules, players)
        yeo = YEO_CARDS[r.yeo_cards] if r.yeo_redeal else frozenset()
        # a kandang tangan deal whose turned card is yeo ends as yeo: the ending's own figure
        out = kandang_tangan_figures(self.own_rules(rules), players, yeo)
        return out + turned_card_figures(yeo, TURN_POINTS)


class BalikLimaBelasGame(BalikGame):
    """Balik Lima Belas: Balik Satu with the fifteen-card scoring draw."""

    name: ClassVar[str] = "balik-lima-belas"
    title: ClassVar[str] = "Balik Lima Belas"
    presets: ClassVar[tuple[Preset, ...]] = BALIK_LIMA_BELAS_PRESETS

    def lessons(self) -> Course:
        """Balik Lima Belas' course: Balik Satu's play and its own scoring [001]."""
        return BALIK_LIMA_BELAS
