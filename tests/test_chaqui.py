"""Chaqui (games/chaqui.py): olo, the exposed olo, a fixed amount per olo, the chiqui go-out
and its fifteen-card turn; stacked scenarios and random-game properties.

Three players (Pwee's table: 180 cards, each kind six times); the starter (seat 0) holds 15
and opens by discarding, as in Balik Satu.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import JUNK, JUNK2, detail, label, play, snapshot
from conftest import table as table_text
from hypothesis import given, settings
from hypothesis import strategies as st
from relatives import play_and_check, stacked

from cherki.core.cards import CODES, parse_card, parse_cards, parse_hand
from cherki.core.errors import IllegalActionError
from cherki.core.events import Result
from cherki.games import find_game
from cherki.games.sets.actions import DISCARD, SAMPEI
from cherki.games.sets.chaqui import chiqui_olo
from cherki.ui.text import Voice, event_line

Q = find_game("chaqui")
TAN14 = "M2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 C8 M8"  # an olo and a chiqui, waits on any 8
OLO14 = "M2 M2 M2 C3 S3 M3 C6 S6 M6 C7 S7 M7 C8 M8"  # an olo, no pair: S8 adds none
CHIQUI14 = "C1 S1 M1 C3 S3 M3 C4 S4 M4 C5 S5 M5 M8 M8"  # no olo, a pair of M8
#: fifteen stock cards with no M8 / with one M8
NO_M8 = "C2 C2 S2 S2 C6 C6 C7 C7 C9 C9 S9 S9 M9 M9 WF"
ONE_M8 = "C2 C2 S2 S2 C6 C6 C7 M8 C9 C9 S9 S9 M9 M9 WF"


def k(code: str) -> int:
    return parse_card(code)


def items(r: Result) -> list[tuple[str, int]]:
    return [(label(i, r), i.points) for i in r.items]


def self_draw(hand: str, draw: str, after: str = NO_M8, **options: Any) -> Any:
    """Seat 1 draws ``draw`` from the stock and may go out."""
    st = stacked(Q, [JUNK + " M9", hand, JUNK2], stock=f"{draw} {after}", **options)
    play(st, "0: discard M9", "1: draw")
    return st


def check_pay(r: Result, winner: int, total: int, cents: int = 10) -> None:
    assert r.winner == winner and r.total == total
    want = tuple(2 * total if s == winner else -total for s in range(3))
    assert r.payments == want and r.money == tuple(cents * p for p in want)


# -- rules [C-OLO, C-SCORING] -------------------------------------------------------------------
def test_presets() -> None:
    r = Q.rules()
    assert (r.scoring, r.olo_points, r.chiqui, r.expose_olo, r.chiqui_fail) == (
        "olo", 5, True, True, "void")  # fmt: skip
    assert r.reserve == 15 and Q.rules("no-chiqui").reserve == 0
    # no turned card, so no yeo and no kena: Balik's options are not fields of Chaqui's rules
    assert r.starter_extra and not any(hasattr(r, f) for f in ("yeo_redeal", "kena", "ayam_bonus"))
    assert find_game("chiqui") is Q and find_game("chekki") is Q


def test_a_fixed_amount_per_olo() -> None:
    st = self_draw(OLO14, "S8")
    play(st, "1: sampei")
    r = st.result
    assert items(r) == [("1 olo × 5", 5)]
    check_pay(r, 1, 5)
    assert detail(r)["olo"] == 1 and detail(r)["turned"] == NO_M8


def test_red_olo_score_no_more() -> None:
    st = self_draw("M2 M2 M2 S9 S9 S9 C6 S6 M6 C7 S7 M7 C8 M8", "S8")
    play(st, "1: sampei")
    assert items(st.result) == [("2 olo × 5", 10)]


def test_olo_points_option() -> None:
    st = self_draw(OLO14, "S8", olo_points=3)
    play(st, "1: sampei")
    check_pay(st.result, 1, 3)


def test_a_caller_claims_a_shown_draw() -> None:
    st = stacked(Q, [OLO14 + " C9", JUNK, JUNK2], stock=f"S8 {NO_M8}")
    play(st, "0: discard C9 tan", "1: draw", "0: sampei")
    r = st.result
    assert r.how == "claim" and items(r) == [("1 olo × 5", 5)]  # no tan point
    check_pay(r, 0, 5)


def test_kandang_tangan_doubles() -> None:
    st = stacked(Q, [OLO14 + " S8", JUNK, JUNK2], stock=NO_M8)
    play(st, "0: sampei")
    r = st.result
    assert r.how == "kandang-tangan"
    assert [(label(i, r), i.points, i.multiplier) for i in r.items] == [
        ("1 olo × 5", 5, 1), ("kandang tangan: dealt a winning hand", 0, 2)]  # fmt: skip
    check_pay(r, 0, 10)


# -- the exposed olo [C-EXPOSE] -----------------------------------------------------------------
OPEN14 = "C2 S2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 M8 M8"


def test_an_olo_completed_from_a_discard_is_exposed() -> None:
    st = stacked(Q, [JUNK + " M8", OPEN14, JUNK2], stock=f"C4 C5 C7 {NO_M8}")
    play(st, "0: discard M8")
    ev = play(st, "1: take")
    assert [(e.kind, e.cards) for e in ev] == [("take", ()), ("expose", (k("M8"),) * 3)]
    assert event_line(ev[1], Q, Voice.of(None, 3)) == "Seat 1 exposes the olo M8 M8 M8"
    obs = st.observation(0)
    assert obs.melds[1][k("M8")] == 3 and obs.exposed[1][k("M8")] == 3
    assert "exposed olo M8 M8 M8" in table_text(obs, Q)
    assert DISCARD + k("M8") not in st.legal_actions()
    before = snapshot(st)
    with pytest.raises(IllegalActionError, match="your M8 are an exposed olo"):
        st.apply("discard M8")
    assert snapshot(st) == before
    play(st, "1: discard S7", "2: draw", "2: discard C4", "0: draw", "0: discard C5", "1: draw")
    play(st, "1: sampei")
    r = st.result
    assert items(r) == [("1 olo × 5 (1 exposed)", 5)]
    check_pay(r, 1, 5)


def test_a_taken_card_that_completes_no_olo_is_not_exposed() -> None:
    st = stacked(Q, [JUNK + " M7", OPEN14, JUNK2], stock="C4")
    play(st, "0: discard M7", "1: take")
    assert st.melded[1][k("M7")] == 0
    assert DISCARD + k("M7") in st.legal_actions()


def test_expose_olo_option_off() -> None:
    st = stacked(Q, [JUNK + " M8", OPEN14, JUNK2], stock="C4", expose_olo=False)
    play(st, "0: discard M8", "1: take")
    assert sum(st.melded[1]) == 0 and DISCARD + k("M8") in st.legal_actions()


# -- chiqui [C-CHIQUI] --------------------------------------------------------------------------
def test_chiqui_go_out_turns_fifteen_and_makes_an_olo() -> None:
    st = self_draw(CHIQUI14, "C8", ONE_M8)
    assert SAMPEI in st.legal_actions()
    play(st, "1: sampei")
    r = st.result
    assert items(r) == [("chiqui: M8 turned up among the 15", 0), ("1 olo × 5", 5)]
    check_pay(r, 1, 5)
    assert detail(r)["chiqui"] is True and detail(r)["chiqui_olo"] == "M8"
    assert detail(r)["turned"] == ONE_M8


def test_a_failed_chiqui_pays_each_other_player_under_the_house_rule() -> None:
    st = self_draw(CHIQUI14, "C8", NO_M8, chiqui_fail="pays")
    play(st, "1: sampei")
    r = st.result
    assert r.winner is None and r.how == "chiqui-failed"
    assert items(r) == [("chiqui failed: one olo's worth to each other seat", 5)]
    assert r.payments == (5, -10, 5) and r.money == (50, -100, 50)
    assert detail(r)["would_be_winner"] == 1 and st.next_first() == st.first


def test_a_failed_chiqui_ends_the_hand_with_no_penalty_by_default() -> None:
    """[001] states no penalty for a chiqui that turns up no olo: by default the hand ends
    with no winner and no payments (the penalty is the house rule chiqui_fail=pays)."""
    st = self_draw(CHIQUI14, "C8", NO_M8)
    play(st, "1: sampei")
    r = st.result
    assert r.winner is None and r.how == "chiqui-failed" and r.payments == (0, 0, 0)
    assert detail(r)["would_be_winner"] == 1 and st.next_first() == st.first


def test_no_chiqui_preset_needs_an_olo() -> None:
    st = self_draw(CHIQUI14, "C8", rules="no-chiqui")
    assert SAMPEI not in st.legal_actions()
    with pytest.raises(IllegalActionError, match="with at least one mata"):
        st.apply("sampei")


def test_a_chiqui_hand_may_call_and_waits_on_the_whole_rank() -> None:
    ceki15 = "S2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 M8 M8 C9"
    st = stacked(Q, [ceki15, JUNK, JUNK2], stock="C8 C5")
    play(st, "0: discard C9 ceki")
    assert {CODES[c] for c in st.wait_sets[0]} == {"C8", "S8", "M8"}
    play(st, "1: draw")  # C8 is shown: it completes a chiqui for seat 0
    assert st.phase_name == "claim" and st.current == 0
    no = stacked(Q, [ceki15, JUNK, JUNK2], stock="C8 C5", rules="no-chiqui")
    play(no, "0: discard C9 ceki")
    assert {CODES[c] for c in no.wait_sets[0]} == {"M8"}


def test_chiqui_olo_at_most_one_per_set() -> None:
    st = Q.new_state(Q.rules(), 3, seed=1)
    hand = tuple(parse_hand("C8 C8 S8 S8 M8 M8 C1 S1 M1 C3 S3 M3 C4 S4 M4"))
    found = chiqui_olo(st, hand, tuple(parse_cards("C8 S8 M8")))
    assert len(found) == 2  # three pairs of 8s in two sets: two olo at most
    assert chiqui_olo(st, hand, tuple(parse_cards("C9 S9"))) == []


# -- properties ---------------------------------------------------------------------------------
@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    preset=st.sampled_from(["kristang", "no-chiqui"]),
    how=st.sampled_from(["seed", "shoe", "stack"]),
    skill=st.sampled_from([0.3, 0.8, 1.0]),
    options=st.sampled_from(
        [{}, {"players": 2}, {"players": 5}, {"chiqui_fail": "pays"}, {"discard_wins": True},
         {"caller_changes": "free"}, {"honours": "frames"}]
    ),
)  # fmt: skip
def test_random_games_keep_the_invariants(
    seed: int, preset: str, how: str, skill: float, options: dict[str, Any]
) -> None:
    play_and_check(Q, preset, seed, how, skill, **options)


@pytest.mark.parametrize(("changes", "may_take"), [("none", False), ("mata-only", True)])
def test_a_discard_that_would_leave_nothing_to_discard_cannot_be_taken(
    changes: str, may_take: bool
) -> None:
    st = stacked(Q, [JUNK + " S7", TAN14, JUNK2], stock=f"C9 C4 C5 {NO_M8}",
                 caller_changes=changes)  # fmt: skip
    play(st, "0: discard C9", "1: draw", "1: discard C9 tan", "2: draw", "2: discard C4",
         "0: draw", "0: discard S7")  # fmt: skip
    # seat 1 called tan holding S7 S7 M7: the S7 would be an exposed olo it cannot discard
    assert ("take" in [Q.action_text(a) for a in st.legal_actions()]) is may_take
    if not may_take:
        with pytest.raises(IllegalActionError, match="would expose an olo and leave you no"):
            st.apply("take")
    else:
        play(st, "1: take")
        assert [Q.action_text(a) for a in st.legal_actions()] == ["discard M7"]


# -- issue 14: a wait one card from a chiqui, and the turn with an olo held ----------------------
NO_PAIR14 = "C1 S1 M1 C3 S3 M3 C4 S4 M4 C5 S5 M5 C8 M8"  # no olo, no pair: C8 or M8 makes one


def test_a_hand_one_card_from_a_chiqui_waits_on_the_kinds_that_make_the_pair() -> None:
    from cherki.games.sets.analysis import analyse_hand

    report = analyse_hand(parse_hand(NO_PAIR14), Q.rules().honours, size=3, sets=5, chiqui=True)
    assert report.call == "ceki" and {CODES[c] for c in report.waits} == {"C8", "M8"}
    assert analyse_hand(parse_hand(NO_PAIR14), Q.rules().honours, size=3, sets=5).waits == ()


def test_a_hand_one_card_from_a_chiqui_may_call_and_claim_a_shown_draw() -> None:
    st = stacked(Q, [NO_PAIR14 + " C9", JUNK, JUNK2], stock="S8 C5 M8 C2")
    assert Q.parse_action("discard C9 ceki") in st.legal_actions()
    play(st, "0: discard C9 ceki")
    assert {CODES[c] for c in st.wait_sets[0]} == {"C8", "M8"}
    play(st, "1: draw")  # S8 would make C8 S8 M8: no pair, no claim
    assert st.phase_name != "claim"
    play(st, "1: discard S8", "2: draw", "2: discard C5", "0: draw")  # M8 completes M8 M8 C8
    assert SAMPEI in st.legal_actions()
    no = stacked(Q, [NO_PAIR14 + " C9", JUNK, JUNK2], stock="S8 C5", rules="no-chiqui")
    assert Q.parse_action("discard C9 ceki") not in no.legal_actions()


def test_a_chiqui_go_out_with_an_olo_held_turns_fifteen_too() -> None:
    # M2 M2 M2 is an olo; S7 S7 M7 and C8 C8 M8 are chiqui: S7 among the fifteen, not C8
    with_s7 = "C2 C2 S2 S2 C6 C6 C7 S7 C9 C9 S9 S9 M9 M9 WF"
    st = self_draw(TAN14, "C8", with_s7)
    play(st, "1: sampei")
    r = st.result
    assert items(r) == [("chiqui: S7 turned up among the 15", 0), ("2 olo × 5", 10)]
    check_pay(r, 1, 10)
    nothing = self_draw(TAN14, "C8", NO_M8)
    play(nothing, "1: sampei")
    assert items(nothing.result) == [
        ("chiqui: no third card among the 15", 0), ("1 olo × 5", 5)]  # fmt: skip
    narrow = self_draw(TAN14, "C8", with_s7, chiqui_turn="no-olo")
    play(narrow, "1: sampei")
    assert items(narrow.result) == [("1 olo × 5", 5)] and "chiqui" not in detail(narrow.result)
