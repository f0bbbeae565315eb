"""The figures the games of sets know exactly (``Game.exact_figures``), which a simulation
sets beside what its hands show (``cherki simulate``: the report's "Exact figures").

* **A kandang tangan deal** (every game of sets whose rules have kandang tangan and a
  starter dealt one card more): the chance that the starter's dealt hand wins at once,
  :func:`kandang_tangan_deal`, beside the share of hands that end so. The two agree when
  the starter always goes out at once, as the heuristic and search bots do (not the random
  bot, nor a Chaqui chiqui that may fail).
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

__all__ = ["kandang_tangan_deal", "kandang_tangan_figures", "turned_card_figures"]


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
            for _ in kinds:
                group = product(group, [comb(h, c) if c <= cap else 0 for c in range(m + 1)])
            total = product(total, [x if i % size == 0 else 0 for i, x in enumerate(group)])
        return total[m]

    mata = size - 1 if rules.goes_out_on_pair else size
    return Fraction(hands(h) - hands(mata - 1), comb(N_KINDS * h, m))


def kandang_tangan_figures(rules: SetsRules, players: int) -> tuple[ExactFigure, ...]:
    """The kandang tangan deal's chance beside the share of hands ending so, where the
    rules have kandang tangan and a starter dealt one card more; else none."""
    if not (rules.kandang_tangan and rules.starter_extra):
        return ()
    p = kandang_tangan_deal(rules, players)

    def ended_so(hand: PlayedHand) -> float:
        return float(hand.how == "kandang-tangan")

    return (
        ExactFigure(
            "a kandang tangan deal (the starter's dealt hand wins), beside the share of "
            "hands ending so",
            p,
            f"1 in {float(1 / p):,.1f}" if p else "0 (cannot happen)",
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
