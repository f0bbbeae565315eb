"""The figures the games of sets know exactly (``Game.exact_figures``), which a simulation
sets beside what its hands show (``cherki simulate``: the report's "Exact figures").

* **A hand ending as kandang tangan** (every game of sets whose rules have kandang tangan
  and a starter dealt one card more): :func:`kandang_tangan_deal` is the chance that the
  starter's dealt hand wins at once (the *deal*); :func:`kandang_tangan_ending` the chance
  that a hand *ends* so: the deal, and, where a yeo turned card voids a win (Balik Satu),
  a turned card that is no yeo. The turned card is any of the cards the starter was not
  dealt, alike, so a yeo voids a kandang tangan deal in ``Σ (h − c_k) / (30h − m)`` of them
  (``c_k`` the hand's cards of yeo kind ``k``): fewer than the ``|yeo| / 30`` of other wins,
  since a kandang tangan hand holds its kinds in threes. The report sets the *ending's*
  figure beside the share of hands ending so. The two agree when the starter always goes
  out at once (the heuristic and search bots do, the batched engine's heuristic too); the
  random bot may play on, and a Chaqui chiqui may fail, so there the share is lower.
* **Balik Satu's turned card** (:func:`turned_card_figures`). Its scoring turns the
  stock's top card once a win stands. Which card that is cannot depend on the play that
  led to the win: the play sees only cards already taken from the stock, and the share of
  each kind among the cards still in it is a martingale of the shuffle, so stopped at the
  win it keeps its start value, 1/30 a kind (optional stopping). Hence, exactly, whatever
  the bots:

  - **yeo**: a win is voided by a yeo card in ``|yeo_cards| / 30`` of the hands that come
    to a win (won or voided);
  - **the turned card's points** in a win that stands: the mean of its points over the
    26 (or 24, 27) other kinds.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from cherki.core.cards import N_KINDS
from cherki.core.figures import ExactFigure, PlayedHand
from cherki.core.sets import GROUP_KINDS
from cherki.games.sets.rules import SetsRules

__all__ = [
    "kandang_tangan_deal",
    "kandang_tangan_ending",
    "kandang_tangan_figures",
    "turned_card_figures",
]


def _kandang_hands(rules: SetsRules, players: int, weighted: int | None = None) -> int:
    """The starter's dealt hands that win at once, counted as draws of distinct cards; with
    ``weighted`` a kind, each hand counted as many times as it holds cards of that kind."""
    h = rules.shoe_half_packs(players)
    m = rules.hand_size
    size = rules.set_size

    def product(a: list[int], b: list[int]) -> list[int]:
        out = [0] * (m + 1)
        for i, x in enumerate(a):
            for j, y in enumerate(b[: m + 1 - i]):
                out[i + j] += x * y
        return out

    def hands(cap: int) -> int:
        total = [1] + [0] * m
        for kinds in GROUP_KINDS[rules.honours]:
            group = [1] + [0] * m
            for k in kinds:
                weight = (lambda c: c) if k == weighted else (lambda c: 1)
                kind = [comb(h, c) * weight(c) if c <= cap else 0 for c in range(m + 1)]
                group = product(group, kind)
            total = product(total, [x if i % size == 0 else 0 for i, x in enumerate(group)])
        return total[m]

    mata = size - 1 if rules.goes_out_on_pair else size
    return hands(h) - hands(mata - 1)


def kandang_tangan_deal(rules: SetsRules, players: int) -> Fraction:
    """The chance, exactly, that the starter's dealt hand wins at once (kandang tangan).

    The starter's ``hand_size`` cards are a uniform draw, without replacement, from the shoe
    of ``h`` half-packs (each of the 30 kinds ``h`` times), whatever the deal (rounds or
    wash). A hand wins when every group of kinds that form sets together (a rank, with the
    honours as the ``honours`` rule puts them) holds a multiple of ``set_size`` cards, and
    some kind appears ``set_size`` times (a mata; with ``chiqui``, ``set_size − 1``). So::

        P = ([x^m] Π_groups S(Π_kinds Σ_c C(h, c) x^c) − the same with every c < mata)
            / C(30h, m)

    where ``S`` keeps the powers of ``x`` divisible by ``set_size`` and ``m`` is the hand
    size: for Balik Satu with three packs (``h`` = 6), 1 in 25,700.8.
    """
    h = rules.shoe_half_packs(players)
    return Fraction(_kandang_hands(rules, players), comb(N_KINDS * h, rules.hand_size))


def kandang_tangan_ending(
    rules: SetsRules, players: int, yeo: frozenset[int] = frozenset()
) -> Fraction:
    """The chance, exactly, that a hand *ends* as kandang tangan when the starter always
    goes out at once: a kandang tangan deal whose turned card is no ``yeo`` card.

    The turned card is any of the ``R = 30h − m`` cards the starter was not dealt, alike (the
    rest of the shoe is shuffled whatever the starter holds), so a hand ``H`` is voided with
    chance ``Σ_{k ∈ yeo} (h − c_k(H)) / R``. Summed over the winning hands::

        P = (N · (R − |yeo|·h) + Σ_{k ∈ yeo} W_k) / (C(30h, m) · R)

    with ``N`` the winning hands and ``W_k`` their cards of kind ``k`` (the count of
    :func:`kandang_tangan_deal` with kind ``k``'s terms weighted by ``c``). For Balik Satu
    with three packs and the four one-point yeo cards: 1 in 29,579.3 (the deal's 1 in
    25,700.8 less 13.1%: fewer than 4/30, as a winning hand holds its kinds in threes).
    """
    deal = kandang_tangan_deal(rules, players)
    if not yeo or not deal:
        return deal
    h = rules.shoe_half_packs(players)
    rest = N_KINDS * h - rules.hand_size
    n = _kandang_hands(rules, players)
    held = sum(_kandang_hands(rules, players, k) for k in yeo)
    return Fraction(n * (rest - len(yeo) * h) + held, comb(N_KINDS * h, rules.hand_size) * rest)


def kandang_tangan_figures(
    rules: SetsRules, players: int, yeo: frozenset[int] = frozenset()
) -> tuple[ExactFigure, ...]:
    """The chance that a hand ends as kandang tangan (:func:`kandang_tangan_ending`, the
    deal's own chance named beside it) beside the share of hands ending so, where the rules
    have kandang tangan and a starter dealt one card more; else none."""
    if not (rules.kandang_tangan and rules.starter_extra):
        return ()
    deal = kandang_tangan_deal(rules, players)
    p = kandang_tangan_ending(rules, players, yeo)

    def ended_so(hand: PlayedHand) -> float:
        return float(hand.how == "kandang-tangan")

    def one_in(x: Fraction) -> str:
        return f"1 in {float(1 / x):,.1f}" if x else "0 (cannot happen)"

    voided = " and no yeo turned card voids it" if yeo and deal else ""
    return (
        ExactFigure(
            f"a hand ending as kandang tangan (the starter's dealt hand wins{voided}; a deal "
            f"offering it: {one_in(deal)}), exact when the starter always goes out at once, "
            "beside the share of hands ending so",
            p,
            one_in(p),
            share=True,
            measure=ended_so,
        ),
    )


def turned_card_figures(
    yeo: frozenset[int], turn_points: tuple[int, ...]
) -> tuple[ExactFigure, ...]:
    """Balik Satu's turned card: the share of hands coming to a win that a ``yeo`` card
    voids (where yeo voids a win: ``yeo`` not empty), and the turned card's mean points
    (``turn_points``, a kind's) in a win that stands."""
    out: list[ExactFigure] = []
    if yeo:
        p = Fraction(len(yeo), N_KINDS)

        def voided(hand: PlayedHand) -> float | None:
            came = hand.winner is not None or hand.how == "yeo"
            return float(hand.how == "yeo") if came else None

        out.append(
            ExactFigure(
                "yeo: share of the hands that come to a win (won or voided)",
                p,
                f"{len(yeo)}/{N_KINDS} = {float(p):.2%}",
                share=True,
                measure=voided,
            )
        )
    left = [k for k in range(N_KINDS) if k not in yeo]
    mean = Fraction(sum(turn_points[k] for k in left), len(left))

    def turned(hand: PlayedHand) -> float | None:
        if hand.winner is None or "turned" not in hand.items:
            return None
        return float(hand.items["turned"])

    out.append(
        ExactFigure(
            "the turned card's points in a win",
            mean,
            str(mean) if mean.denominator == 1 else f"{mean} = {float(mean):.4f}",
            share=False,
            measure=turned,
        )
    )
    return tuple(out)
