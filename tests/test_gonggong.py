"""Gonggong (games/gonggong.py): per-rule tables, a stacked-shoe scenario for every scoring
item of every scoring method, and random-game properties.

Seats are numbered in playing order. Gonggong deals 14 each and the starter (seat 0 here)
opens by drawing, so the first stock card is seat 0's draw.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import JUNK, JUNK2, detail, label, play, snapshot
from conftest import table as table_text
from hypothesis import given, settings
from hypothesis import strategies as st
from relatives import play_and_check, stacked, whole_shoe

from cherki.core.cards import CODES, N_KINDS, parse_card
from cherki.core.errors import IllegalActionError, NotationError, RulesError
from cherki.core.events import Result
from cherki.games import find_game
from cherki.games.sets.actions import CALL_CEKI, CALL_TAN, DISCARD, DRAW, NUM_ACTIONS, SAMPEI
from cherki.games.sets.gonggong import TOH_POINTS
from cherki.ui.text import Voice, event_line

G = find_game("gonggong")
JUNK3 = "C1 M1 C2 M2 C3 M3 C4 M4 C5 M5 S6 S7 S8 S9"
#: no bak; waits on M8 only: ceki nocog
NOCOG14 = "S2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 M8 M8"
#: a bak (M2); waits on any 8: ceki kowah
KOWAH14 = "M2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 C8 M8"
#: a bak; waits on any 9 (S9 is red)
KOWAH9 = "M2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 C9 M9"
RABAS = ("rabas (self-drawn)", 2)
METU = ("metu (with another player's card)", 1)
BAK1 = ("1 bak × 1", 1)


def k(code: str) -> int:
    return parse_card(code)


def items(r: Result) -> list[tuple[str, int]]:
    return [(label(i, r), i.points) for i in r.items]


def table(hand: str, **options: Any) -> Any:
    return stacked(G, [hand, JUNK, JUNK2, JUNK3], **options)


def rabas(hand: str = KOWAH14, draw: str = "S8", after: str = "C5", **options: Any) -> Result:
    """Seat 0 draws its winning card at once (a self-drawn win, uncalled)."""
    st = table(hand, stock=f"{draw} {after}", **options)
    play(st, "0: draw", "0: sampei")
    return st.result


def metu(hand: str = NOCOG14, call: str = "nocog", win: str = "M8", after: str = "C5",
         **options: Any) -> Result:  # fmt: skip
    """Seat 0 calls, seat 1 draws and shows seat 0's winning card, seat 0 claims it."""
    st = table(hand, stock=f"C9 {win} {after}", **options)
    play(st, "0: draw", f"0: discard C9 {call}", "1: draw", "0: sampei")
    return st.result


def check_each_pays(r: Result, winner: int, total: int, cents: int = 2) -> None:
    assert r.winner == winner and r.total == total
    want = tuple(3 * total if s == winner else -total for s in range(4))
    assert r.payments == want
    assert r.money == tuple(p * cents for p in want)
    assert "pot_change" not in r.detail


# -- equipment and deal [G-SHOE, G-DEAL] --------------------------------------------------------
@pytest.mark.parametrize(("players", "cards"), [(4, 180), (5, 210), (6, 240)])
def test_shoe_and_deal(players: int, cards: int) -> None:
    state = G.new_state(G.rules(), players, seed=players)
    assert whole_shoe(state) == [cards // 30] * N_KINDS
    assert [sum(h) for h in state.hands] == [14] * players
    assert len(state.stock) == cards - 14 * players


@pytest.mark.parametrize("players", [2, 3, 7])
def test_player_counts(players: int) -> None:
    with pytest.raises(RulesError, match="played by 4 to 6 players"):
        G.new_state(G.rules(), players, seed=1)


def test_the_starter_opens_by_drawing() -> None:
    st = table(KOWAH14, stock="C5")
    assert st.phase_name == "draw" and st.legal_actions() == [DRAW]
    with pytest.raises(IllegalActionError):
        st.apply("discard C3")
    play(st, "0: draw")
    assert sum(st.hands[0]) == 15 and st.phase_name == "discard"


def test_starter_extra_gives_the_balik_satu_deal() -> None:
    st = stacked(G, [KOWAH14 + " C1", JUNK, JUNK2, JUNK3], starter_extra=True)
    assert st.phase_name == "discard"
    with pytest.raises(RulesError, match="seat 0's stacked hand has 14 cards, not 15"):
        stacked(G, [KOWAH14, JUNK, JUNK2, JUNK3], starter_extra=True)


def test_presets() -> None:
    names = [p.name for p in G.presets]
    assert names == ["toh-bayaran", "toh-bayaran-14", "undhuh-undhuhan", "bak-bakan",
                     "umbuk", "ceken"]  # fmt: skip
    for p in G.presets:
        assert p.rules.scoring == p.name
        assert p.rules.cents_per_point == 2
        assert not p.rules.starter_extra
        assert not any(hasattr(p.rules, f) for f in ("yeo_redeal", "kena", "chiqui"))
    assert G.rules("surakarta") == G.rules()
    assert G.rules("yogyakarta").scoring == "bak-bakan"


# -- calls [G-CALL] -----------------------------------------------------------------------------
def test_call_words_round_trip() -> None:
    for a in range(NUM_ACTIONS):
        assert G.parse_action(G.action_text(a)) == a
    assert G.action_text(CALL_TAN + k("C3")) == "discard C3 kowah"
    assert G.action_text(CALL_CEKI + k("C3")) == "discard C3 nocog"
    assert G.parse_action("discard C3 ceki") == CALL_CEKI + k("C3")
    with pytest.raises(NotationError, match="can call 'kowah' or 'nocog', not 'tan!'"):
        G.parse_action("discard C3 tan!")


@pytest.mark.parametrize(
    ("hand", "word", "name", "waits"),
    [(NOCOG14, "nocog", "ceki nocog", {"M8"}), (KOWAH14, "kowah", "ceki kowah",
      {"C8", "S8", "M8"})],
)  # fmt: skip
def test_calls(hand: str, word: str, name: str, waits: set[str]) -> None:
    st = table(hand, stock="C9")
    play(st, "0: draw")
    calls = [G.action_text(a) for a in st.legal_actions() if a >= CALL_TAN]
    assert calls == [f"discard C9 {word}"]
    ev = play(st, f"0: discard C9 {word}")
    assert event_line(ev[-1], st.game, Voice.of(None, st.n)) == f"Seat 0 calls {name}!"
    assert {CODES[c] for c in st.wait_sets[0]} == waits
    assert f"called {name}" in table_text(st.observation(1), G)


def test_wrong_call_word_is_explained() -> None:
    st = table(NOCOG14, stock="C9")
    play(st, "0: draw")
    before = snapshot(st)
    with pytest.raises(IllegalActionError, match="your call is nocog, not kowah"):
        st.apply("discard C9 kowah")
    assert snapshot(st) == before


# -- winning [G-WIN, G-RABAS-METU] --------------------------------------------------------------
def test_a_win_needs_a_bak() -> None:
    st = table("C2 S2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 C8 M8", stock="S8")
    play(st, "0: draw")
    assert SAMPEI not in st.legal_actions()
    with pytest.raises(IllegalActionError, match="at least one mata"):
        st.apply("sampei")


def test_the_winning_card_comes_from_the_stock() -> None:
    st = stacked(G, [JUNK3, KOWAH14, JUNK, JUNK2], stock="S8")
    play(st, "0: draw", "0: discard S8", "1: take")
    assert SAMPEI not in st.legal_actions()


def test_discard_wins_option_lets_a_caller_claim_a_discard() -> None:
    st = stacked(G, [NOCOG14, JUNK, JUNK2, "C1 M1 C2 M2 C3 M3 C4 M4 C5 M5 S6 S7 M8 S9"],
                 stock="C9 C4 C5 C6", discard_wins=True)  # fmt: skip
    play(st, "0: draw", "0: discard C9 nocog", "1: draw", "1: discard C4", "2: draw",
         "2: discard C5", "3: draw", "3: discard M8")  # fmt: skip
    assert st.phase_name == "claim" and st.current == 0
    assert st.observation(1).claim_card == k("M8") and st.observation(1).claim_from_discard
    play(st, "0: sampei")
    r = st.result
    assert r.how == "discard" and detail(r)["from_seat"] == 3 and detail(r)["win"] == "metu"
    assert items(r)[0] == METU


def test_a_passed_discard_claim_goes_back_on_the_pile() -> None:
    st = stacked(G, [NOCOG14, JUNK, JUNK2, "C1 M1 C2 M2 C3 M3 C4 M4 C5 M5 S6 S7 M8 S9"],
                 stock="C9 C4 C5 C6 C7", discard_wins=True)  # fmt: skip
    play(st, "0: draw", "0: discard C9 nocog", "1: draw", "1: discard C4", "2: draw",
         "2: discard C5", "3: draw", "3: discard M8", "0: pass")  # fmt: skip
    assert st.current == 0 and st.phase_name == "draw"
    assert st.observation(0).top == k("M8")
    play(st, "0: take")
    assert SAMPEI not in st.legal_actions()  # taking it is not claiming it


# -- toh bayaran [G-SCORING] -------------------------------------------------------------------
TOH_VALUES = {c: int(c[1]) for c in CODES if c[1].isdigit()} | {"WF": 1, "RF": 10, "OT": 10}
TOH_VALUES["M1"] = 10


@pytest.mark.parametrize(("card", "value"), sorted(TOH_VALUES.items()))
def test_step_3_turned_card_values(card: str, value: int) -> None:
    assert TOH_POINTS[k(card)] == value
    r = rabas(after=card)
    assert items(r) == [RABAS, BAK1, (f"turned card {card}", value)]
    check_each_pays(r, 0, 3 + value)
    assert detail(r)["win"] == "rabas" and detail(r)["turned"] == card


def test_step_1_metu() -> None:
    r = metu()
    assert items(r) == [METU, BAK1, ("turned card C5", 5)]
    check_each_pays(r, 0, 7)
    assert r.how == "claim" and detail(r)["win"] == "metu"


def test_step_1_metu_with_a_red_card() -> None:
    r = metu(hand=KOWAH9, call="kowah", win="S9")
    assert items(r) == [("metu (with another player's card) with a red card (S9)", 2), BAK1,
                        ("turned card C5", 5)]  # fmt: skip
    check_each_pays(r, 0, 8)


def test_step_1_rabas_with_a_red_card() -> None:
    r = rabas(hand=KOWAH9, draw="S9")
    assert items(r)[0] == ("rabas (self-drawn) with a red card (S9)", 3)
    assert r.total == 3 + 1 + 5


def test_step_1_rabas_after_a_call() -> None:
    st = table(NOCOG14, stock="C9 C4 C5 C6 M8 C7")
    play(st, "0: draw", "0: discard C9 nocog", "1: draw", "1: discard C4", "2: draw",
         "2: discard C5", "3: draw", "3: discard C6", "0: draw", "0: sampei")  # fmt: skip
    r = st.result
    assert r.how == "self-draw" and detail(r)["call"] == "ceki"
    assert items(r) == [RABAS, BAK1, ("turned card C7", 7)]


def test_step_2_red_bak_and_several_bak() -> None:
    r = rabas(hand="S9 S9 S9 C3 S3 M3 C6 S6 M6 S7 S7 M7 C8 M8")
    assert items(r) == [RABAS, ("1 red bak × 2", 2), ("turned card C5", 5)]
    r = rabas(hand="M2 M2 M2 OT OT OT C6 C6 C6 S7 S7 M7 C8 M8")
    assert items(r) == [RABAS, ("2 bak × 1", 2), ("1 red bak × 2", 2), ("turned card C5", 5)]
    check_each_pays(r, 0, 11)
    assert (detail(r)["bak"], detail(r)["red_bak"]) == (3, 1)


# -- the alternative toh bayaran, drawing 14 ---------------------------------------------------
DRAWN14 = "C8 C8 OT OT OT C1 C1 C2 C4 C5 C9 S1 S4 S5"


def test_toh_bayaran_14_forms_bak_from_28_cards() -> None:
    r = rabas(after=DRAWN14, rules="toh-bayaran-14")
    assert items(r) == [
        RABAS,
        BAK1,
        ("2 bak from the 28 cards × 1", 2),  # M2 M2 M2 held, C8 + two drawn
        ("1 red bak from the 28 cards × 2", 2),  # OT OT OT drawn
    ]
    check_each_pays(r, 0, 7)
    assert detail(r)["turned"] == DRAWN14
    assert G.rules("toh-bayaran-14").reserve == 14


def test_toh_bayaran_14_leaves_the_winning_card_out() -> None:
    # the winning S8 with two drawn S8 would be a bak; without it, not
    r = rabas(after="S8 S8 C1 C1 C2 C4 C5 C9 S1 S4 S5 M4 M5 M6", rules="toh-bayaran-14")
    assert items(r) == [RABAS, BAK1, ("1 bak from the 28 cards × 1", 1)]


# -- bak-bakan ----------------------------------------------------------------------------------
def test_bak_bakan_is_toh_bayaran() -> None:
    a, b = rabas(after="C7"), rabas(after="C7", rules="bak-bakan")
    assert items(a) == items(b) and a.total == b.total


def test_bak_bakan_without_the_turn() -> None:
    r = rabas(after="C7", rules="bak-bakan", bak_bakan_turn=False)
    assert items(r) == [RABAS, BAK1]
    check_each_pays(r, 0, 3)
    assert G.rules("bak-bakan", bak_bakan_turn=False).reserve == 0


# -- pots: undhuh-undhuhan and umbuk ------------------------------------------------------------
def check_pot(r: Result, before: int, staked: int, after: int, payments: tuple[int, ...]) -> None:
    assert detail(r)["pot"] == {"before": before, "staked": staked, "after": after}
    assert detail(r)["pot_change"] == after - before
    assert r.payments == payments
    assert sum(r.payments) + detail(r)["pot_change"] == 0
    assert r.money == tuple(2 * p for p in payments)


def test_undhuh_undhuhan_rabas_takes_the_whole_pot() -> None:
    r = rabas(rules="undhuh-undhuhan")
    assert items(r) == [("rabas: the whole pot", 40)]
    check_pot(r, 0, 40, 0, (30, -10, -10, -10))
    assert detail(r)["pot_take"] == 40


def test_undhuh_undhuhan_metu_takes_one_stake() -> None:
    r = metu(rules="undhuh-undhuhan")
    assert items(r) == [("metu: one stake from the pot", 10)]
    check_pot(r, 0, 40, 30, (0, -10, -10, -10))


def test_undhuh_undhuhan_a_pot_carried_over_is_not_staked_again() -> None:
    r = rabas(rules="undhuh-undhuhan", context={"pot": 30})
    check_pot(r, 30, 0, 0, (30, 0, 0, 0))
    r = metu(rules="undhuh-undhuhan", context={"pot": 5})
    check_pot(r, 5, 0, 0, (5, 0, 0, 0))  # one stake, or what is left


def test_umbuk_metu_takes_half_rabas_all() -> None:
    r = metu(rules="umbuk")
    assert items(r) == [("metu: half the pot", 20)]
    check_pot(r, 0, 40, 20, (10, -10, -10, -10))
    r = metu(rules="umbuk", context={"pot": 25})
    check_pot(r, 25, 0, 12, (13, 0, 0, 0))  # half, rounded up
    r = rabas(rules="umbuk", context={"pot": 25})
    assert items(r) == [("rabas: the whole pot", 25)]
    check_pot(r, 25, 0, 0, (25, 0, 0, 0))


@pytest.mark.parametrize("preset", ["undhuh-undhuhan", "umbuk"])
def test_a_stock_out_leaves_the_stakes_in_the_pot(preset: str) -> None:
    st = G.new_state(G.rules(preset, half_packs=2), 4, seed=3)
    assert st.observation(0).pot == 40
    while not st.is_terminal:
        if st.phase_name == "draw":
            st.apply("draw")
        else:
            st.apply(DISCARD + st.drawn)
    r = st.result
    assert r.how == "stock-out"
    check_pot(r, 0, 40, 40, (-10, -10, -10, -10))
    assert st.next_context() == {"pot": 40}


@pytest.mark.parametrize("stake", [1, 25])
def test_the_stake_option(stake: int) -> None:
    r = rabas(rules="undhuh-undhuhan", stake=stake)
    assert r.payments == (3 * stake, -stake, -stake, -stake)


# -- ceken --------------------------------------------------------------------------------------
def test_ceken_every_pair_bets_the_stake() -> None:
    r = rabas(rules="ceken")
    assert items(r) == [(f"ceken bet with Seat {s}", 10) for s in (1, 2, 3)]
    assert r.payments == (30, -10, -10, -10) and r.total == 30
    assert r.money == (60, -20, -20, -20)


def test_ceken_with_chosen_bets() -> None:
    r = rabas(rules="ceken", ceken_bets="0-1:5, 2-3:7, 2-0")
    assert items(r) == [("ceken bet with Seat 1", 5), ("ceken bet with Seat 2", 10)]
    assert r.payments == (15, -5, -10, 0)


@pytest.mark.parametrize(
    ("bets", "message"),
    [("0-0:5", "two different seats"), ("a-b", "is not SEAT-SEAT:AMOUNT"),
     ("0-9:5", "names seat 9 at a table of 4")],
)  # fmt: skip
def test_bad_ceken_bets(bets: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        G.new_state(G.rules("ceken", ceken_bets=bets), 4, seed=1)


def test_no_yeo_no_kena_by_default() -> None:
    r = rabas(after="C1")  # a rank-1 turned card is no yeo in Gonggong
    assert not r.redeal and items(r)[-1] == ("turned card C1", 1)
    r = rabas(after="S7")  # no kena
    assert items(r) == [RABAS, BAK1, ("turned card S7", 7)]


# -- properties ---------------------------------------------------------------------------------
@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    preset=st.sampled_from([p.name for p in G.presets]),
    how=st.sampled_from(["seed", "shoe", "stack"]),
    skill=st.sampled_from([0.3, 0.8, 1.0]),
    options=st.sampled_from(
        [{}, {"discard_wins": True}, {"caller_changes": "free"}, {"starter_extra": True},
         {"claim_priority": "first-caller", "players": 6}, {"players": 5, "honours": "own"}]
    ),
)  # fmt: skip
def test_random_games_keep_the_invariants(
    seed: int, preset: str, how: str, skill: float, options: dict[str, Any]
) -> None:
    play_and_check(G, preset, seed, how, skill, **options)


def test_every_action_id_is_named() -> None:
    assert len({G.action_text(a) for a in range(NUM_ACTIONS)}) == NUM_ACTIONS
    assert SAMPEI < DISCARD


# -- step 4, "These cards are worth 10 points each" [001] ---------------------------------------
STEP4 = "C1 M1 OT M2 M2 M2 C6 S6 M6 S7 S7 M7 C8 M8"  # M1 and OT in the hand


def test_step_4_restates_step_3_by_default() -> None:
    assert G.rules().toh_step4 == "restates"
    assert items(rabas(hand=STEP4)) == [RABAS, BAK1, ("turned card C5", 5)]


@pytest.mark.parametrize("method", ["toh-bayaran", "toh-bayaran-14", "bak-bakan"])
def test_step_4_in_hand_adds_ten_for_each_nyonya_lau_chian_and_m1_held(method: str) -> None:
    after = DRAWN14 if method == "toh-bayaran-14" else "C5"
    plain = rabas(hand=STEP4, after=after, rules=method)
    r = rabas(hand=STEP4, after=after, rules=method, toh_step4="in-hand")
    assert items(r) == [*items(plain), ("M1, OT in the hand × 10", 20)]
    assert r.total == plain.total + 20
    lo, hi = G.payment_bounds(G.rules(method, toh_step4="in-hand"), 4)
    assert lo <= min(r.payments) and max(r.payments) <= hi
