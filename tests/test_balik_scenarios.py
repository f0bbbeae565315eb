"""Stacked-shoe scenarios, one for every scoring item of Balik Satu and Balik Lima Belas.

Each checks the score lines (``result.items``), the total, who pays whom and the money.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import JUNK, JUNK2, LIMA, SATU, detail, label, play, stacked, summary

from cherki.core.cards import CODES
from cherki.core.events import Result

CEKI14 = "S2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 M8 M8"  # the source's ceki hand, waits on M8
CEKI15 = CEKI14 + " C9"
TAN14 = "M2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 C8 M8"  # mata M2, waits on any 8
TAN15 = TAN14 + " C9"
WIN15 = TAN14 + " S8"

PRESETS = {  # preset: (ayam, kandang, tan point, cents a point)
    "pwee": (10, 20, 1, 10),
    "babas": (5, 10, 0, 5),
    "gateway": (1, 2, 0, 10),
}

MATA1 = ("1 unmarked mata × 1", 1)


def items(result: Result) -> list[tuple[str, int]]:
    return [(label(i, result), i.points) for i in result.items]


def check_pay(result: Result, winner: int, total: int, players: int, cents: int) -> None:
    assert result.winner == winner
    assert result.total == total
    want = tuple(total * (players - 1) if s == winner else -total for s in range(players))
    assert result.payments == want
    assert sum(result.payments) == 0
    assert result.money == tuple(p * cents for p in want)
    assert not result.redeal


def self_draw_win(turned: str, hand: str = TAN14, draw: str = "S8", **options: Any) -> Result:
    """Seat 1 (no call) draws its winning card from the stock; ``turned`` is turned."""
    st = stacked(SATU, [JUNK + " M9", hand], stock=f"{draw} {turned}", **options)
    play(st, "0: discard M9", "1: draw", "1: sampei")
    return st.result


# -- the turned card [R-TURNED] ----------------------------------------------------------------
TURN_VALUES = {c: int(c[1]) for c in CODES if c[1].isdigit()}
TURN_VALUES |= {"WF": 1, "S9": 10, "RF": 11, "OT": 12}


@pytest.mark.parametrize(("card", "value"), sorted(TURN_VALUES.items()))
def test_turned_card_values(card: str, value: int) -> None:
    r = self_draw_win(card, kena=False, yeo_redeal=False)
    assert items(r) == [(f"turned card {card}", value), MATA1]
    check_pay(r, 1, value + 1, 2, 10)
    assert r.how == "self-draw"
    assert detail(r)["turned"] == card
    assert detail(r)["winning_card"] == "S8"


def test_red_nine_nyonya_lau_chian() -> None:
    assert TURN_VALUES["S9"] == 10 and TURN_VALUES["RF"] == 11 and TURN_VALUES["OT"] == 12
    assert self_draw_win("OT").total == 13


# -- mata [R-MATA] -----------------------------------------------------------------------------
def test_unmarked_mata_one_point_red_mata_two() -> None:
    hand = "M2 M2 M2 S9 S9 S9 OT OT OT C6 C6 C6 C8 M8"
    r = self_draw_win("C5", hand=hand)
    assert items(r) == [("turned card C5", 5), ("2 unmarked mata × 1", 2), ("2 red mata × 2", 4)]
    check_pay(r, 1, 11, 2, 10)
    assert (detail(r)["mata"], detail(r)["red_mata"]) == (4, 2)


def test_only_red_mata() -> None:
    r = self_draw_win("C5", hand="RF RF RF C3 S3 M3 C6 S6 M6 S7 S7 M7 C8 M8")
    assert items(r) == [("turned card C5", 5), ("1 red mata × 2", 2)]
    assert r.total == 7


# -- kena [R-KENA] -----------------------------------------------------------------------------
def test_kena_turned_card_makes_a_mata() -> None:
    r = self_draw_win("S7")  # S7 S7 M7 becomes S7 S7 S7
    assert items(r) == [("turned card S7", 7), ("2 unmarked mata × 1 (kena)", 2)]
    assert detail(r)["kena"] is True
    check_pay(r, 1, 9, 2, 10)


def test_kena_off() -> None:
    r = self_draw_win("S7", kena=False)
    assert items(r) == [("turned card S7", 7), MATA1]
    assert "kena" not in r.detail


def test_red_kena() -> None:
    r = self_draw_win("S9", hand="M2 M2 M2 C3 S3 M3 S9 S9 C9 S7 S7 M7 C8 M8")
    assert items(r) == [
        ("turned card S9", 10),
        ("1 unmarked mata × 1", 1),
        ("1 red mata × 2 (kena)", 2),
    ]
    assert r.total == 13


def test_no_kena_from_a_card_of_another_rank() -> None:
    r = self_draw_win("M3")  # one M3 does not make C3 S3 M3 a mata
    assert items(r) == [("turned card M3", 3), MATA1]


# -- tan [R-TAN-BONUS] -------------------------------------------------------------------------
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_tan_win(preset: str) -> None:
    st = stacked(SATU, [TAN15, JUNK], stock="S8 C5", rules=preset)
    play(st, "0: discard C9 tan", "1: draw", "0: sampei")
    r = st.result
    tan = PRESETS[preset][2]
    want = [("turned card C5", 5), MATA1] + ([("won after calling tan", 1)] if tan else [])
    assert items(r) == want
    assert r.how == "claim"
    check_pay(r, 0, 6 + tan, 2, PRESETS[preset][3])


def test_uncalled_win_earns_no_calling_bonus() -> None:
    # a ceki-shaped hand that never called wins on its own draw: no kandang
    r = self_draw_win("C5", hand=CEKI14, draw="M8")
    assert items(r) == [("turned card C5", 5), MATA1]


# -- ayam and kandang [R-BONUS] ----------------------------------------------------------------
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_ayam(preset: str) -> None:
    ayam, _, _, cents = PRESETS[preset]
    st = stacked(SATU, [CEKI15, JUNK, JUNK2], stock="M8 C5", rules=preset)
    play(st, "0: discard C9 ceki", "1: draw")
    assert st.phase_name == "claim"
    play(st, "0: sampei")
    r = st.result
    assert items(r) == [("turned card C5", 5), MATA1, ("ayam: ceki won on another's draw", ayam)]
    assert r.how == "claim" and detail(r)["from_seat"] == 1
    check_pay(r, 0, 6 + ayam, 3, cents)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_kandang(preset: str) -> None:
    _, kandang, _, cents = PRESETS[preset]
    st = stacked(SATU, [CEKI15, JUNK, JUNK2], stock="C4 C4 M8 C5", rules=preset)
    play(st, "0: discard C9 ceki", "1: draw", "1: discard C4", "2: draw", "2: discard C4")
    play(st, "0: draw", "0: sampei")
    r = st.result
    assert items(r) == [("turned card C5", 5), MATA1, ("kandang: ceki won on own draw", kandang)]
    assert r.how == "self-draw"
    check_pay(r, 0, 6 + kandang, 3, cents)


def test_kandang_when_a_ceki_caller_draws_with_other_claimants() -> None:
    # seat 1 called ceki on M8 too; seat 0 (ceki caller) draws M8 and is asked first
    other = "C2 S2 S2 C4 S4 M4 C5 S5 M5 C7 C7 M7 M8 M8"
    # seat 1 starts (15 cards) and calls; seat 0 draws C9 and calls; seat 1 draws M8
    st = stacked(SATU, [CEKI14, other + " C9"], stock="C9 M8 C5", first=1)
    play(st, "1: discard C9 ceki", "0: draw", "0: discard C9 ceki", "1: draw")
    assert st.claimants == [1, 0] and st.current == 1
    play(st, "1: sampei")
    assert st.result.how == "self-draw"
    assert ("kandang: ceki won on own draw", 20) in items(st.result)


# -- the footnote: ceki changed to tan is not a ceki win [R-CHANGE] ----------------------------
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_ceki_changed_to_tan_claims_without_ayam(preset: str) -> None:
    tan = PRESETS[preset][2]
    st = stacked(SATU, [CEKI15, JUNK], stock="C4 M2 C8 C5", rules=preset)
    play(st, "0: discard C9 ceki", "1: draw", "1: discard C4", "0: draw", "0: discard S2 tan")
    play(st, "1: draw", "0: sampei")
    r = st.result
    assert detail(r)["call"] == "tan" and detail(r)["call_changed"] is True
    want = [("turned card C5", 5), MATA1] + ([("won after calling tan", 1)] if tan else [])
    assert items(r) == want
    check_pay(r, 0, 6 + tan, 2, PRESETS[preset][3])


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_ceki_changed_to_tan_self_draws_the_pair_without_kandang(preset: str) -> None:
    tan = PRESETS[preset][2]
    st = stacked(SATU, [CEKI15, JUNK], stock="C4 M2 C4 M8 C5", rules=preset)
    play(st, "0: discard C9 ceki", "1: draw", "1: discard C4", "0: draw", "0: discard S2 tan")
    play(st, "1: draw", "1: discard C4", "0: draw", "0: sampei")
    r = st.result
    assert r.how == "self-draw"
    want = [("turned card C5", 5), ("2 unmarked mata × 1", 2)]
    assert items(r) == want + ([("won after calling tan", 1)] if tan else [])
    assert r.total == 7 + tan


# -- kandang tangan [R-KANDANG-TANGAN] ---------------------------------------------------------
def test_kandang_tangan_doubles_without_bonuses() -> None:
    st = stacked(SATU, [WIN15, JUNK, JUNK2], stock="C5")
    assert "sampei" in [st.game.action_text(a) for a in st.legal_actions()]
    play(st, "0: sampei")
    r = st.result
    assert r.how == "kandang-tangan"
    assert items(r) == [("turned card C5", 5), MATA1, ("kandang tangan: dealt a winning hand", 0)]
    assert r.items[-1].multiplier == 2
    check_pay(r, 0, 12, 3, 10)
    assert detail(r)["winning_card"] is None


def test_kandang_tangan_multiplier_option_and_kena() -> None:
    st = stacked(SATU, [WIN15, JUNK], stock="S7", kandang_tangan_multiplier=3)
    play(st, "0: sampei")
    r = st.result
    assert items(r)[:2] == [("turned card S7", 7), ("2 unmarked mata × 1 (kena)", 2)]
    assert r.items[-1].multiplier == 3
    check_pay(r, 0, 27, 2, 10)


def test_kandang_tangan_yeo_still_redeals() -> None:
    st = stacked(SATU, [WIN15, JUNK], stock="C1")
    play(st, "0: sampei")
    assert st.result.redeal and st.result.winner is None


# -- yeo [R-YEO] -------------------------------------------------------------------------------
def test_yeo_voids_a_ceki_win() -> None:
    st = stacked(SATU, [CEKI15, JUNK, JUNK2], stock="M8 S1", first=0)
    play(st, "0: discard C9 ceki", "1: draw", "0: sampei")
    r = st.result
    assert r.redeal and r.how == "yeo" and r.winner is None
    assert r.items == () and r.total == 0
    assert r.payments == (0, 0, 0) and r.money == (0, 0, 0)
    assert "S1" in summary(r, SATU) and "played again" in summary(r, SATU)
    assert st.next_first() == 0


# -- Balik Lima Belas [R-LIMA-BELAS] -----------------------------------------------------------
FIFTEEN = "C3 C3 S6 S6 S7 C4 C5 C9 S1 S4 S5 M4 M5 WF RF"  # makes C3, S6, S7 mata
JUNK15 = "C4 C5 C9 S1 S4 S5 M4 M5 M9 WF RF OT C4 C5 C9"  # swaps nothing


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_lima_belas_tan_scores_one_plus_mata_after_swapping(preset: str) -> None:
    st = stacked(LIMA, [TAN15, JUNK], stock="S8 " + FIFTEEN, rules=preset)
    play(st, "0: discard C9 tan", "1: draw", "0: sampei")
    r = st.result
    assert items(r) == [("winning", 1), ("4 mata × 1 (after swapping from the fifteen drawn)", 4)]
    check_pay(r, 0, 5, 2, PRESETS[preset][3])
    assert detail(r)["turned"] == FIFTEEN


def test_lima_belas_without_swaps_is_at_least_two() -> None:
    st = stacked(LIMA, [TAN15, JUNK], stock="S8 " + JUNK15)
    play(st, "0: discard C9 tan", "1: draw", "0: sampei")
    assert items(st.result) == [
        ("winning", 1),
        ("1 mata × 1 (after swapping from the fifteen drawn)", 1),
    ]
    assert st.result.total == 2


def test_lima_belas_red_mata_score_no_extra() -> None:
    hand = "S9 S9 S9 OT OT OT RF RF RF C6 S6 M6 C8 M8"
    st = stacked(LIMA, [JUNK + " M9", hand], stock="S8 " + JUNK15)
    play(st, "0: discard M9", "1: draw", "1: sampei")
    r = st.result
    assert items(r) == [("winning", 1), ("3 mata × 1 (after swapping from the fifteen drawn)", 3)]
    assert r.total == 4


def test_lima_belas_has_no_yeo_and_swaps_even_with_kena_off() -> None:
    st = stacked(LIMA, [TAN15, JUNK], stock="S8 C1 " + FIFTEEN[:-3], kena=False)
    play(st, "0: discard C9 tan", "1: draw", "0: sampei")
    assert st.result.winner == 0 and not st.result.redeal
    assert st.result.total == 1 + 4


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("how", ["ayam", "kandang"])
def test_lima_belas_ayam_and_kandang_still_apply(preset: str, how: str) -> None:
    ayam, kandang, _, cents = PRESETS[preset]
    if how == "ayam":
        st = stacked(LIMA, [CEKI15, JUNK], stock="M8 " + JUNK15, rules=preset)
        play(st, "0: discard C9 ceki", "1: draw", "0: sampei")
        bonus = ("ayam: ceki won on another's draw", ayam)
    else:
        st = stacked(LIMA, [CEKI15, JUNK], stock="C4 M8 " + JUNK15, rules=preset)
        play(st, "0: discard C9 ceki", "1: draw", "1: discard C4", "0: draw", "0: sampei")
        bonus = ("kandang: ceki won on own draw", kandang)
    r = st.result
    assert items(r) == [
        ("winning", 1),
        ("1 mata × 1 (after swapping from the fifteen drawn)", 1),
        bonus,
    ]
    check_pay(r, 0, 2 + bonus[1], 2, cents)


def test_lima_belas_kandang_tangan_doubles() -> None:
    st = stacked(LIMA, [WIN15, JUNK], stock=FIFTEEN)
    play(st, "0: sampei")
    r = st.result
    assert r.how == "kandang-tangan"
    assert r.items[-1].multiplier == 2
    check_pay(r, 0, 2 * (1 + 4), 2, 10)


# -- payments ----------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 5, 8])
@pytest.mark.parametrize("cents", [0, 5, 10])
def test_each_other_player_pays_the_total(players: int, cents: int) -> None:
    hands = [WIN15] + [JUNK if i % 2 else JUNK2 for i in range(1, players)]
    st = stacked(SATU, hands, stock="C5", cents_per_point=cents)
    play(st, "0: sampei")
    check_pay(st.result, 0, 12, players, cents)
    assert f"each other seat pays {12}" in summary(st.result, st.game)
    assert st.result.to_json()["money_cents"] == list(st.result.money)
