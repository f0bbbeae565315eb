"""Gonggong: Balik Satu as played in Java, with its many ways of scoring.

The rules ([001], the section "Gonggong", citing Javaanse Kaartspelen p.94-97 for Surakarta
and Yogyakarta in the 1940s; a game of this name is also reported in South Sulawesi in the
19th century, [001] citing a dictionary published by Frederik Muller p.69)
------------------------------------------------------------------------------------------
* Six sets of cards (180) for four players, or eight sets (240) for six. [G-SHOE]
* Deal 14 cards each and play as Balik Satu. At least one triplet, a *bak*, to win. [G-DEAL,
  G-WIN]
* Waiting for one specific card (to complete a bak) is *ceki nocog*, announced with one coin;
  waiting for any card of a rank is *ceki kowah*, announced with two coins stacked. [G-CALL]
* A self-drawn win is *rabas* ("clear"); a win with an opponent's card is *metu* ("came
  out"). [G-RABAS-METU]
* Scoring, one of [G-SCORING]:

  - *undhuh-undhuhan* ("pickings"): a pot formed with a stake from each player at the start;
    metu wins one stake from it, rabas the whole remaining pot;
  - *toh bayaran* ("stake payments"): (1) 1 for metu, 2 for metu with a red card or rabas,
    3 for rabas with a red card; (2) 1 a bak, 2 a red bak in the hand; (3) turn the top card
    and add its points: Nyonya, Lau Chian and 1 Myriads 10, the rest their rank (White Flower
    1);
  - the alternative toh bayaran: steps 1 and 2, then draw 14 cards, combine them with the 14
    of the hand (the winning card left out) and add 1 for each bak, 2 for each red bak, that
    can be formed from them;
  - in Yogyakarta *bak-bakan*: payment by the number of bak, "the same as toh bayaran";
  - *umbuk* ("piled"): a pot with a stake from each player; metu wins half the pot, rabas
    all of it;
  - *ceken*: ad-hoc bets between players; whoever wins receives the staked amount from the
    others.

* In the 1940s the toh bayaran methods paid 2¢ (Netherlands Indies) a point from each other
  player. [G-PAY]

Our specifications (each is an option of :class:`GonggongRules`)
-----------------------------------------------------------------
* ``starter_extra`` off: "deal 14 cards each", so the starter opens by drawing; on gives
  the Balik Satu deal (15 to the starter, who opens by discarding).
* ``honours`` ``rank1``, ``caller_changes``, ``claim_priority``, ``next_starter``: as in
  Balik Satu (the source says "play as with Balik Satu").
* The winning card comes from the stock as in Balik Satu (``discard_wins`` off): metu is a
  win on a card another player drew and showed; ``discard_wins`` on also lets a caller win on
  another player's discard (a metu too).
* Calls: ceki kowah is Balik's tan (a bak held, any card of the open rank wins), ceki nocog
  is Balik's ceki (the open pair must become the bak). Notation ``discard C3 kowah``,
  ``discard C3 nocog``. The coins only announce the call: they are not a stake.
* No yeo, no kena, no kandang tangan, no ayam or kandang bonus: the source names none for
  Gonggong (options ``yeo_redeal``, ``kena``, ``kandang_tangan``, ``ayam_bonus``...).
* "With a red card" in step 1 means the winning card is red-stamped (S9, RF, OT).
* Step 3's card values are the source's (RF, OT, M1 10; the rest their rank, S9 9, WF 1).
* The alternative toh bayaran counts the hand's bak in step 2 and again among the 28 cards,
  as the source's steps read; the bak of the 28 are the kinds appearing three times or
  more (a kind six times is two bak).
* ``bak_bakan_turn`` (on): bak-bakan is toh bayaran, as the source says; off, it pays
  steps 1 and 2 only (payment "according to the number of bak" read strictly).
* Pots (undhuh-undhuhan and umbuk): each player stakes ``stake`` points (default 10) at the
  start of a hand that finds the pot empty (the first hand of a match, and the hand after a
  rabas emptied it). Metu takes one stake (undhuh-undhuhan) or half the pot, rounded up
  (umbuk); rabas takes it all. The pot carries across the hands of a match (the match
  context); what remains at the end of a match stays on the sheet as the pot.
* Ceken: ``ceken_bets`` lists bets ``"0-1:5, 2-3"`` (seats and amount; no amount: the
  stake); empty (default) means every pair of players has bet ``stake``. When a seat wins,
  each bet it is part of is paid to it by the other seat of the bet.
* Points are paid at ``cents_per_point`` 2 for every method (the source gives 2¢ for toh
  bayaran; the others name no rate).
* The public view (what anyone watching sees) is Balik Satu's (:mod:`cherki.games.sets.balik`):
  the discards, calls, hand sizes, taken discards and draws shown while a call stands, and
  the pot of undhuh-undhuhan and umbuk; the ceken bets are in the rules, public too. Never
  a hand's other cards, the stock's order or a draw while no call stands.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from functools import lru_cache
from typing import ClassVar, Final

from cherki.core.cards import IS_RED, N_KINDS, OT, RANK, RF, counts_of
from cherki.core.errors import RulesError
from cherki.core.events import JSON, PotChange, Result, ScoreItem
from cherki.core.lessons import Course
from cherki.core.options import Option, Preset, Value, restate
from cherki.core.sets import mata_count
from cherki.games.sets.game import NO_BALIK_SCORING, SetsGame
from cherki.games.sets.lessons import GONGGONG
from cherki.games.sets.options import (
    CALLING,
    CORE_OPTIONS,
    DISCARD_WINS,
    HONOURS,
    KANDANG_TANGAN,
    SHOE,
    STARTER_EXTRA,
    TABLE,
)
from cherki.games.sets.present import BakView, SetsView
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

#: The Javanese scoring methods and their stakes (Gonggong, Tantanan, Cekèn).
JAVANESE_METHODS: Final = (
    "toh-bayaran",
    "toh-bayaran-14",
    "bak-bakan",
    "undhuh-undhuhan",
    "umbuk",
    "ceken",
)

JAVANESE: Final = (
    Option(
        "scoring",
        "toh-bayaran",
        "how a win is paid: toh bayaran (and with 14 cards), bak-bakan, the pots "
        "undhuh-undhuhan and umbuk, ceken side bets",
        "[001] citing Javaanse Kaartspelen p.94-98",
        choices=JAVANESE_METHODS,
        title="How a win is paid",
    ),
    Option(
        "stake",
        10,
        "each seat's stake into an empty pot (pot methods), or a side bet (ceken)",
        "[001]",
        minimum=0,
        title="Stake",
    ),
    Option(
        "ceken_bets",
        "",
        "ceken side bets SEAT-SEAT:AMOUNT, comma-separated (empty: every pair at the stake)",
        "[001] citing Javaanse Kaartspelen p.98",
        kind=str,
        title="Ceken side bets",
    ),
    Option(
        "bak_bakan_turn",
        True,
        "bak-bakan also turns a card, as toh bayaran's step 3",
        "ours ([001] says bak-bakan is paid 'as toh bayaran')",
        title="Bak-bakan turns a card too",
    ),
    Option(
        "toh_step4",
        "restates",
        "toh bayaran's step 4, 'These cards are worth 10 points each': a restatement of step "
        "3's values (restates), or 10 more for each RF, OT and M1 in the winning hand (in-hand)",
        "[001] step 4 of toh bayaran; both readings are ours",
        choices=("restates", "in-hand"),
        title="Toh bayaran's step 4",
    ),
)


#: Gonggong's options (honours are a choice there).
GONGGONG_OPTIONS: Final = restate(
    SHOE + HONOURS + CALLING + DISCARD_WINS + TABLE + KANDANG_TANGAN + JAVANESE + STARTER_EXTRA,
    "cents_per_point",
    "[001] G-PAY (cents of the Netherlands-Indies gulden: 2¢ a point in the 1940s, for toh "
    "bayaran; the other methods name no rate)",
)


def parse_bets(text: str) -> list[tuple[int, int, int | None]]:
    """Ceken side bets ``"0-1:5, 2-3:10"`` (seat-seat:amount; amount omitted: the stake)."""
    bets: list[tuple[int, int, int | None]] = []
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        pair, _, amount = part.partition(":")
        a, _, b = pair.partition("-")
        try:
            bet = (int(a), int(b), int(amount) if amount.strip() else None)
        except ValueError:
            raise RulesError("refuse.option.bets", bet=repr(part)) from None
        if bet[0] == bet[1] or bet[0] < 0 or bet[1] < 0 or (bet[2] is not None and bet[2] < 0):
            raise RulesError("refuse.option.bets_seats", bet=repr(part))
        bets.append(bet)
    return bets


@dataclasses.dataclass(frozen=True, slots=True)
class GonggongRules(SetsRules):
    """The Javanese rules of Gonggong, and of Tantanan and Cekèn which are scored as it
    ([001] T-SCORING): the play core, the method's stake, the side bets, bak-bakan's turned
    card and toh bayaran's step 4."""

    stake: int = 10
    ceken_bets: str = ""
    bak_bakan_turn: bool = True
    toh_step4: str = "restates"

    def declared(self) -> tuple[Option, ...]:
        return CORE_OPTIONS + JAVANESE

    def check(self) -> None:
        SetsRules.check(self)
        parse_bets(self.ceken_bets)

    @property
    def pot_stake(self) -> int:
        """Each seat stakes ``stake`` into an empty pot (undhuh-undhuhan and umbuk) [001]."""
        return self.stake

    def check_table(self, players: int) -> None:
        """Every side bet names seats at the table."""
        for a, b, _ in parse_bets(self.ceken_bets):
            if max(a, b) >= players:
                raise RulesError("refuse.option.bets_table", seat=max(a, b), n=players)


M1: Final = 18

#: Step 3 of toh bayaran [001]: Nyonya, Lau Chian and 1 Myriads 10, everything else its rank.
TOH_TENS: Final = (M1, RF, OT)
TOH_POINTS: Final[tuple[int, ...]] = tuple(10 if k in TOH_TENS else RANK[k] for k in range(N_KINDS))


#: toh bayaran's lines, made once and then shared (immutable values: every win of Tantanan,
#: Cekèn and Gonggong's toh bayaran makes three or four of a few dozen)
_line: Final = lru_cache(maxsize=1024)(ScoreItem)


def _word(win: Win) -> str:
    return "rabas" if win.self_drawn else "metu"


def toh_steps_1_2(state: ScoredHand, win: Win) -> tuple[list[ScoreItem], dict[str, JSON]]:
    """Steps 1 and 2 of toh bayaran: how the hand was won (item ``rabas`` or ``metu``, the
    winning card in ``cards`` when it is red), and its bak (``bak``, ``red-bak``)."""
    detail: dict[str, JSON] = {}
    red_card = win.card >= 0 and IS_RED[win.card]
    word = _word(win)
    points = (2 if win.self_drawn else 1) + (1 if red_card else 0)
    items = [_line(word, points, cards=(win.card,) if red_card else ())]
    bak, red = mata_count(win.hand, state.size)
    if bak - red:
        items.append(_line("bak", bak - red, count=bak - red))
    if red:
        items.append(_line("red-bak", 2 * red, count=red))
    detail["win"] = word
    detail["bak"], detail["red_bak"] = bak, red
    return items, detail


def toh_step_4(state: ScoredHand, win: Win, items: list[ScoreItem]) -> None:
    """Step 4 of toh bayaran [001], "These cards are worth 10 points each": with
    ``toh_step4`` ``in-hand``, 10 points for each Nyonya, Lau Chian and 1 of Myriads in the
    winning hand (item ``toh-cards``); by default a restatement of step 3, adding nothing."""
    if own(state.rules, GonggongRules).toh_step4 != "in-hand":
        return
    cards = tuple(k for k in TOH_TENS for _ in range(win.hand[k]))
    if cards:
        items.append(ScoreItem("toh-cards", 10 * len(cards), count=len(cards), cards=cards))


def _multiplier(state: ScoredHand, win: Win) -> int:
    return state.rules.kandang_tangan_multiplier if win.how == "kandang-tangan" else 1


def score_toh_bayaran(state: ScoredHand, win: Win) -> Result:
    items, detail = toh_steps_1_2(state, win)
    turned = win.scoring[0]
    items.append(_line("turned", TOH_POINTS[turned], cards=(turned,)))
    toh_step_4(state, win, items)
    return win_result(state, win, items, detail, multiplier=_multiplier(state, win))


def score_toh_bayaran_14(state: ScoredHand, win: Win) -> Result:
    items, detail = toh_steps_1_2(state, win)
    cards = list(win.hand)
    if win.card >= 0:
        cards[win.card] -= 1
    drawn = counts_of(win.scoring)
    size = state.size
    bak = red = 0
    for k in range(N_KINDS):
        b = (cards[k] + drawn[k]) // size
        bak += b
        if IS_RED[k]:
            red += b
    n = len(win.scoring)
    both = sum(cards) + n
    if bak - red:
        items.append(ScoreItem("bak-of-all", bak - red, count=bak - red, among=both))
    if red:
        items.append(ScoreItem("red-bak-of-all", 2 * red, count=red, among=both))
    detail["bak_of_all"], detail["red_bak_of_all"] = bak, red
    toh_step_4(state, win, items)
    return win_result(state, win, items, detail, multiplier=_multiplier(state, win))


def score_bak_bakan(state: ScoredHand, win: Win) -> Result:
    if own(state.rules, GonggongRules).bak_bakan_turn:
        return score_toh_bayaran(state, win)
    items, detail = toh_steps_1_2(state, win)
    toh_step_4(state, win, items)
    return win_result(state, win, items, detail, multiplier=_multiplier(state, win))


def _pot_result(state: ScoredHand, win: Win, take: int, kind: str) -> Result:
    """The winner takes ``take`` from the pot (item ``kind``: ``whole-pot``, ``one-stake`` or
    ``half-pot``); the state settles the pot's change (``PotChange``) when it closes."""
    payments = tuple(take if t == win.seat else 0 for t in range(state.n))
    money = tuple(p * state.rules.cents_per_point for p in payments)
    return Result(
        win.seat,
        win.how,
        (ScoreItem(kind, take),),
        take,
        payments,
        money,
        win=winning_hand(state, win),
        pot=PotChange(state.pot_start, sum(state.stakes), take, state.pot - take),
        detail={"win": _word(win)},
    )


def score_undhuh_undhuhan(state: ScoredHand, win: Win) -> Result:
    if win.self_drawn:
        return _pot_result(state, win, state.pot, "whole-pot")
    stake = own(state.rules, GonggongRules).stake
    return _pot_result(state, win, min(stake, state.pot), "one-stake")


def score_umbuk(state: ScoredHand, win: Win) -> Result:
    if win.self_drawn:
        return _pot_result(state, win, state.pot, "whole-pot")
    return _pot_result(state, win, (state.pot + 1) // 2, "half-pot")


def toh_paid(rules: SetsRules, *, turned: bool = True, of_all: bool = False) -> tuple[Paid, ...]:
    """Toh bayaran's scoring list [001 T-SCORING]: metu 1, rabas 2, a red winning card 1
    more (step 1); each bak 1, a red bak 2 (step 2: from the 14 drawn and the 14 held with
    ``of_all``); the turned card's points (step 3, :data:`TOH_POINTS`); step 4 where the
    rules count it."""
    r = own(rules, GonggongRules)
    out = [Paid("metu", 1), Paid("rabas", 2), Paid("red-card", 1)]
    out += [Paid("bak-of-all" if of_all else "bak", 1), Paid("red-bak", 2)]
    if turned:
        out.append(Paid("toh-turned", None, (("ten", max(TOH_POINTS)),)))
    if r.toh_step4 == "in-hand":
        out.append(Paid("toh-cards", 10))
    return tuple(out)


def pot_paid(rules: SetsRules, *, half: bool) -> tuple[Paid, ...]:
    """A pot method's list [001 T-SCORING]: each stakes into an empty pot; rabas takes it
    all, metu one stake (undhuh-undhuhan) or half (umbuk)."""
    r = own(rules, GonggongRules)
    metu = Paid("half-pot") if half else Paid("one-stake", r.stake)
    return (Paid("stake", r.stake), Paid("whole-pot"), metu)


def _toh_most(rules: GonggongRules, extra: int) -> int:
    """The most a toh bayaran win scores: rabas with a red card (3), every bak red where it
    can be, ``extra`` for step 3; kandang tangan multiplies it."""
    step4 = 10 * rules.sets * rules.set_size if rules.toh_step4 == "in-hand" else 0
    return (3 + mata_points(rules) + extra + step4) * rules.kandang_tangan_multiplier


def _pot_bounds(rules: GonggongRules, n: int) -> tuple[int, int]:
    """A pot is staked only when it is empty and never grows past every seat's stake, so a
    seat loses at most its stake and takes at most the pot (``n`` stakes)."""
    return -rules.stake, n * rules.stake


def _ceken_bounds(rules: GonggongRules, n: int) -> tuple[int, int]:
    """The winner collects every bet it is party to; another seat pays at most its largest."""
    bets = ceken_bets(rules, n)
    most = max((sum(a for x, y, a in bets if s in (x, y)) for s in range(n)), default=0)
    largest = max((a for _, _, a in bets), default=0)
    return -largest, most


def ceken_bets(rules: GonggongRules, n: int) -> list[tuple[int, int, int]]:
    """The side bets in force: ``ceken_bets``, or every pair at the stake."""
    bets = parse_bets(rules.ceken_bets)
    if not bets:
        return [(a, b, rules.stake) for a in range(n) for b in range(a + 1, n)]
    return [(a, b, rules.stake if amt is None else amt) for a, b, amt in bets]


def score_ceken(state: ScoredHand, win: Win) -> Result:
    w = win.seat
    payments = [0] * state.n
    items: list[ScoreItem] = []
    for a, b, amount in ceken_bets(own(state.rules, GonggongRules), state.n):
        if w not in (a, b):
            continue
        other = b if w == a else a
        payments[w] += amount
        payments[other] -= amount
        items.append(ScoreItem("ceken-bet", amount, seat=other))
    total = payments[w]
    money = tuple(p * state.rules.cents_per_point for p in payments)
    return Result(
        w,
        win.how,
        tuple(items),
        total,
        tuple(payments),
        money,
        win=winning_hand(state, win),
        detail={"win": _word(win), "side_bets": True},
    )


#: the items of toh bayaran's results (steps 1-4, kandang tangan's multiplier)
TOH_ITEMS: Final = (
    "rabas",
    "metu",
    "bak",
    "red-bak",
    "turned",
    "toh-cards",
    "kandang-tangan",
)
TOH_14_ITEMS: Final = (*TOH_ITEMS[:4], "bak-of-all", "red-bak-of-all", *TOH_ITEMS[5:])

for _method in (
    ScoringMethod(
        "toh-bayaran",
        score_toh_bayaran,
        lambda r: 1,
        "Gonggong toh bayaran: metu/rabas 1-3, bak 1 (red 2), a turned card",
        rules=GonggongRules,
        items=TOH_ITEMS,
        paid=toh_paid,
        bounds=lambda r, n: each_pays_bounds(_toh_most(own(r, GonggongRules), 10), n),
    ),
    ScoringMethod(
        "toh-bayaran-14",
        score_toh_bayaran_14,
        lambda r: r.hand_size - 1,
        "Gonggong alternative toh bayaran: steps 1-2, then bak formed from 14 drawn + 14 held",
        rules=GonggongRules,
        items=TOH_14_ITEMS,
        paid=lambda r: toh_paid(r, turned=False, of_all=True),
        bounds=lambda r, n: each_pays_bounds(
            _toh_most(own(r, GonggongRules), 2 * ((r.hand_size + r.hand_size - 1) // r.set_size)),
            n,
        ),
    ),
    ScoringMethod(
        "bak-bakan",
        score_bak_bakan,
        lambda r: 1 if own(r, GonggongRules).bak_bakan_turn else 0,
        "Yogyakarta bak-bakan: payment by the bak, as toh bayaran",
        rules=GonggongRules,
        items=TOH_ITEMS,
        paid=lambda r: toh_paid(r, turned=own(r, GonggongRules).bak_bakan_turn),
        bounds=lambda r, n: each_pays_bounds(
            _toh_most(own(r, GonggongRules), 10 if own(r, GonggongRules).bak_bakan_turn else 0),
            n,
        ),
    ),
    ScoringMethod(
        "undhuh-undhuhan",
        score_undhuh_undhuhan,
        lambda r: 0,
        "Gonggong undhuh-undhuhan: a pot; metu one stake, rabas the whole pot",
        rules=GonggongRules,
        items=("whole-pot", "one-stake", "half-pot"),
        pot=True,
        paid=lambda r: pot_paid(r, half=False),
        bounds=lambda r, n: _pot_bounds(own(r, GonggongRules), n),
    ),
    ScoringMethod(
        "umbuk",
        score_umbuk,
        lambda r: 0,
        "Yogyakarta umbuk: a pot; metu half, rabas all",
        rules=GonggongRules,
        items=("whole-pot", "one-stake", "half-pot"),
        pot=True,
        paid=lambda r: pot_paid(r, half=True),
        bounds=lambda r, n: _pot_bounds(own(r, GonggongRules), n),
    ),
    ScoringMethod(
        "ceken",
        score_ceken,
        lambda r: 0,
        "Yogyakarta ceken: side bets between players, paid to the winner",
        rules=GonggongRules,
        items=("ceken-bet",),
        paid=lambda r: (Paid("ceken-bet"),),
        bounds=lambda r, n: _ceken_bounds(own(r, GonggongRules), n),
    ),
):
    register_scoring(_method)

GONGGONG_RULES: Final = GonggongRules(
    scoring="toh-bayaran",
    shoe_table="gonggong",
    starter_extra=False,
    kandang_tangan=False,
    cents_per_point=2,
)


def _preset(
    name: str, desc: str, sources: str, aliases: tuple[str, ...] = (), *, title: str, **kw: Value
) -> Preset:
    rules = GONGGONG_RULES.with_fields(**kw)
    return Preset(name, rules, desc, sources, aliases, title=title)


SOURCE = "[001] citing Javaanse Kaartspelen p.94-97"

GONGGONG_PRESETS: Final = (
    _preset(
        "toh-bayaran",
        "Surakarta, toh bayaran: metu/rabas, bak, a turned card; 2¢ a point",
        SOURCE,
        ("surakarta",),
        title="Toh bayaran (Surakarta)",
    ),
    _preset(
        "toh-bayaran-14",
        "Surakarta, the alternative toh bayaran: draw 14 and form bak from 28; 2¢ a point",
        SOURCE,
        ("alternative",),
        scoring="toh-bayaran-14",
        title="Toh bayaran with 14 cards (Surakarta)",
    ),
    _preset(
        "undhuh-undhuhan",
        "Surakarta, undhuh-undhuhan: a pot of stakes; metu one stake, rabas the rest",
        SOURCE,
        ("pickings",),
        scoring="undhuh-undhuhan",
        title="Undhuh-undhuhan: a pot (Surakarta)",
    ),
    _preset(
        "bak-bakan",
        "Yogyakarta, bak-bakan: paid by the bak, as toh bayaran",
        SOURCE,
        ("yogyakarta",),
        scoring="bak-bakan",
        title="Bak-bakan (Yogyakarta)",
    ),
    _preset(
        "umbuk",
        "Yogyakarta, umbuk: a pot of stakes; metu half, rabas all",
        SOURCE,
        ("piled",),
        scoring="umbuk",
        title="Umbuk: a pot (Yogyakarta)",
    ),
    _preset(
        "ceken",
        "Yogyakarta, ceken: side bets between the players, paid to the winner",
        SOURCE,
        scoring="ceken",
        title="Cekèn side bets (Yogyakarta)",
    ),
)


class GonggongGame(SetsGame):
    """Gonggong: 14 cards each, at least one bak, ceki kowah / ceki nocog, rabas and metu."""

    view_type: ClassVar[type[SetsView]] = BakView

    def lessons(self) -> Course:
        """Gonggong\'s course: every statement of its section of [001]
        (:mod:`cherki.games.sets.lessons`)."""
        return GONGGONG

    options: ClassVar[tuple[Option, ...]] = GONGGONG_OPTIONS
    rules_type: ClassVar[type[SetsRules]] = GonggongRules
    legacy_fixed: ClassVar[Mapping[str, Value]] = NO_BALIK_SCORING

    name: ClassVar[str] = "gonggong"
    title: ClassVar[str] = "Gonggong"
    players: ClassVar[tuple[int, int]] = (4, 6)
    default_players: ClassVar[int] = 4
    presets: ClassVar[tuple[Preset, ...]] = GONGGONG_PRESETS
    call_words: ClassVar[tuple[str, str]] = ("kowah", "nocog")
    call_names: ClassVar[tuple[str, str]] = ("ceki kowah", "ceki nocog")
    rules_doc: ClassVar[str] = "gonggong"


__all__ = [
    "GONGGONG_PRESETS",
    "GONGGONG_RULES",
    "JAVANESE",
    "TOH_POINTS",
    "GonggongGame",
    "GonggongRules",
    "ceken_bets",
    "parse_bets",
    "score_toh_bayaran",
    "toh_steps_1_2",
]
