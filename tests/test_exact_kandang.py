"""The kandang tangan figure set beside what it is exact for (issue 40): the deal's chance
beside the share of deals offering the win at once, the ending's own chance (a yeo turned
card voids a kandang tangan deal) beside the share of hands ending so. Checked against the
batched engine's own deals at 10⁶ hands, where the deal's figure beside the ending's share
would be wrong."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from cherki.core.cards import N_KINDS
from cherki.games import find_game
from cherki.games.sets.balik import YEO_CARDS
from cherki.games.sets.figures import (
    _kandang_hands,
    kandang_tangan_deal,
    kandang_tangan_ending,
)
from cherki.games.sets.rules import SetsRules
from cherki.play.arena import wilson
from cherki.vector import SetsVector

HANDS = 1_000_000


def _rules(game: str, **options: str) -> SetsRules:
    rules = find_game(game).rules(None, **options)
    assert isinstance(rules, SetsRules)
    return rules


def test_the_ending_figure_by_hand() -> None:
    balik = find_game("balik-satu")
    rules = _rules("balik-satu")
    n = _kandang_hands(rules, 4)
    # every winning hand holds 15 cards: the kinds' weighted counts sum to 15 N
    assert sum(_kandang_hands(rules, 4, k) for k in range(N_KINDS)) == rules.hand_size * n
    yeo = YEO_CARDS["one-point"]
    held = sum(_kandang_hands(rules, 4, k) for k in yeo)
    rest = 6 * N_KINDS - 15  # 165 cards the starter was not dealt, 6 of each kind
    want = Fraction(n * (rest - 4 * 6) + held, rest) / n * kandang_tangan_deal(rules, 4)
    assert kandang_tangan_ending(rules, 4, yeo) == want
    # the independent count: 1 in 29,579 at 180 cards; the deal 1 in 25,700.8
    assert float(1 / kandang_tangan_ending(rules, 4, yeo)) == pytest.approx(29_579.3, abs=0.1)
    assert kandang_tangan_ending(rules, 4) == kandang_tangan_deal(rules, 4)
    [fig, *_] = balik.exact_figures(balik.rules(None), 4)
    assert fig.exact == kandang_tangan_ending(rules, 4, yeo) and fig.exact_text == "1 in 29,579.3"
    assert "a deal offering it: 1 in 25,700.8" in fig.figure


def _deals(game: str, options: dict[str, str], yeo: frozenset[int]) -> tuple[int, int]:
    """Of HANDS deals of the batched engine (4 players): how many offer the starter the win
    at once, and how many of those turn no ``yeo`` card (the stock's first, the card the
    scoring turns when the starter goes out at once)."""
    g = find_game(game)
    env = SetsVector(g, g.rules(None, **options), players=4, batch=64)
    dealer = env._dealer
    dealer.start(2026, None, None, 0, HANDS)
    kinds = np.array(sorted(yeo), dtype=np.int64)
    offered = ended = 0
    while left := dealer.left():
        d = dealer.take(min(100_000, left))
        offered += int(d.self_ok.sum())
        ended += int((d.self_ok & ~np.isin(d.stock[:, 0], kinds)).sum())
    return offered, ended


@pytest.mark.slow
def test_balik_satu_at_a_million_deals_of_the_batched_engine() -> None:
    yeo = YEO_CARDS["one-point"]
    rules = _rules("balik-satu")
    offered, ended = _deals("balik-satu", {}, yeo)
    deals, ends = wilson(offered, HANDS), wilson(ended, HANDS)
    assert deals.low <= kandang_tangan_deal(rules, 4) <= deals.high, (offered, deals)
    assert ends.low <= kandang_tangan_ending(rules, 4, yeo) <= ends.high, (ended, ends)


@pytest.mark.slow
def test_where_kandang_tangan_is_common_the_deal_is_not_the_ending() -> None:
    """Tantanan's pairs with kandang tangan on: 1 deal in 155 offers it; with the turned
    card of six kinds voiding it (the rank1 yeo set, as a test of the formula), a million
    deals tell the deal's figure from the ending's, and only the ending's holds."""
    yeo = YEO_CARDS["rank1"]
    options = {"kandang_tangan": "true", "starter_extra": "true"}
    rules = _rules("tantanan", **options)
    offered, ended = _deals("tantanan", options, yeo)
    deal, ending = kandang_tangan_deal(rules, 4), kandang_tangan_ending(rules, 4, yeo)
    deals, ends = wilson(offered, HANDS), wilson(ended, HANDS)
    assert deals.low <= deal <= deals.high, (offered, deals, float(deal))
    assert ends.low <= ending <= ends.high, (ended, ends, float(ending))
    assert not ends.low <= deal <= ends.high  # the old comparison: "no", systematically
