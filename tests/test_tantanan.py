"""Tantanan and Cekèn (games/tantanan.py): three pairs with a bak, honours as rank 1, tan
kowah and tan nokang, toh bayaran scoring; stacked scenarios and random-game properties.

One 60-card pack: each card twice. Everyone is dealt five and the starter (seat 0) opens
by drawing.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import detail, label, play, snapshot
from hypothesis import given, settings
from hypothesis import strategies as st
from relatives import play_and_check, stacked, whole_shoe

from cherki.core.cards import CODES, N_KINDS, parse_hand
from cherki.core.errors import IllegalActionError, RulesError
from cherki.core.events import Result
from cherki.core.sets import GROUPINGS, is_winning, wait_for
from cherki.games import find_game
from cherki.games.sets.actions import CALL_CEKI, CALL_TAN, DRAW, NUM_ACTIONS, SAMPEI
from cherki.games.sets.analysis import analyse_hand
from cherki.ui.text import Voice, event_line

T = find_game("tantanan")
C = find_game("ceken")
IDLE = ["C1 C2 C4 C6 C8", "S1 S2 S4 S6 S8", "M1 M2 M4 M6 M8"]
KOWAH5 = "C3 C3 S5 M5 C7"  # a bak (C3 C3), a pair of 5s, waits on any 7
NOKANG5 = "C3 S3 C5 S5 M7"  # no bak: waits on the other M7
RABAS = ("rabas (self-drawn)", 2)
METU = ("metu (with another player's card)", 1)
BAK1 = ("1 bak × 1", 1)


def items(r: Result) -> list[tuple[str, int]]:
    return [(label(i, r), i.points) for i in r.items]


def table(hand: str, stock: str = "", game: Any = T, **options: Any) -> Any:
    idle = IDLE[: game.default_players - 1]
    return stacked(game, [hand, *idle], stock=stock, **options)


def rabas(hand: str = KOWAH5, draw: str = "S7", after: str = "C5", **kw: Any) -> Result:
    st = table(hand, f"{draw} {after}", **kw)
    play(st, "0: draw", "0: sampei")
    return st.result


def metu(hand: str = NOKANG5, call: str = "nokang", win: str = "M7", after: str = "S3",
         **kw: Any) -> Result:  # fmt: skip
    st = table(hand, f"C9 {win} {after}", **kw)
    play(st, "0: draw", f"0: discard C9 {call}", "1: draw", "0: sampei")
    return st.result


def check_each_pays(r: Result, total: int, players: int = 4) -> None:
    assert r.winner == 0 and r.total == total
    want = tuple(total * (players - 1) if s == 0 else -total for s in range(players))
    assert r.payments == want and r.money == tuple(2 * p for p in want)


# -- equipment and deal [T-SHOE, T-DEAL, T-CEKEN] -----------------------------------------------
@pytest.mark.parametrize(("game", "players"), [(T, 4), (T, 3), (C, 3)])
def test_one_pack_five_cards_each(game: Any, players: int) -> None:
    state = game.new_state(game.rules(), players, seed=2)
    assert whole_shoe(state) == [2] * N_KINDS
    assert [sum(h) for h in state.hands] == [5] * players
    assert state.observation(0).stock_left == 60 - 5 * players - 1
    assert state.phase_name == "draw" and state.legal_actions() == [DRAW]


def test_player_counts() -> None:
    assert T.players == (3, 4) and T.default_players == 4
    assert C.players == (3, 3) and C.title == "Cekèn"
    for name in ("sampen", "Sampèn", "cekèn"):
        assert find_game(name) is C
    with pytest.raises(RulesError, match="played by exactly 3 players, not 4"):
        C.new_state(C.rules(), 4, seed=1)


def test_rules_are_pairs_with_honours_as_ones() -> None:
    r = T.rules()
    assert (r.set_size, r.sets, r.hand_size, r.honours) == (2, 3, 6, "rank1")
    assert r.scoring == "toh-bayaran" and r.cents_per_point == 2
    assert not r.starter_extra and not any(hasattr(r, f) for f in ("yeo_redeal", "kena"))


# -- winning [T-WIN] ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hand", "wins"),
    [
        ("C3 C3 S5 M5 C7 S7", True),  # bak + two pairs
        ("C3 C3 S5 S5 C7 C7", True),  # three bak
        ("C3 S3 C5 S5 C7 S7", False),  # three pairs, no bak
        ("WF C1 C3 C3 C7 S7", True),  # an honour pairs with a 1
        ("RF OT C3 C3 C7 S7", True),  # two honours pair
        ("C3 C3 S5 M5 C7 S8", False),  # not three pairs
    ],
)
def test_three_pairs_one_of_them_a_bak(hand: str, wins: bool) -> None:
    assert is_winning(parse_hand(hand), GROUPINGS["rank1"], size=2) is wins
    assert analyse_hand(parse_hand(hand)).winning is False  # not a Balik Satu hand


def test_a_win_needs_a_bak() -> None:
    st = table("C3 S3 C5 S5 C7", "S7")
    play(st, "0: draw")
    assert SAMPEI not in st.legal_actions()
    before = snapshot(st)
    with pytest.raises(IllegalActionError, match="not three sets of two with at least one "
                                                 r"identical pair \(bak\)"):  # fmt: skip
        st.apply("sampei")
    assert snapshot(st) == before


# -- calls [T-CALL] -----------------------------------------------------------------------------
def test_call_notation() -> None:
    for a in range(NUM_ACTIONS):
        assert T.parse_action(T.action_text(a)) == a
    assert T.action_text(CALL_TAN) == "discard C1 kowah"
    assert T.action_text(CALL_CEKI) == "discard C1 nokang"
    assert T.call_names == ("tan kowah", "tan nokang")


@pytest.mark.parametrize(
    ("hand", "word", "name", "waits"),
    [(KOWAH5, "kowah", "tan kowah", {"C7", "S7", "M7"}), (NOKANG5, "nokang", "tan nokang",
      {"M7"}), ("C3 C3 S5 M5 WF", "kowah", "tan kowah", {"C1", "S1", "M1", "WF", "RF", "OT"})],
)  # fmt: skip
def test_calls(hand: str, word: str, name: str, waits: set[str]) -> None:
    assert {CODES[k] for k in wait_for(parse_hand(hand), GROUPINGS["rank1"], 2).cards} == waits
    st = table(hand, "C9")
    play(st, "0: draw")
    assert f"discard C9 {word}" in [T.action_text(a) for a in st.legal_actions()]
    ev = play(st, f"0: discard C9 {word}")
    assert event_line(ev[-1], st.game, Voice.of(None, st.n)) == f"Seat 0 calls {name}!"
    assert {CODES[k] for k in st.wait_sets[0]} == waits


# -- toh bayaran scoring [T-SCORING] ------------------------------------------------------------
def test_rabas() -> None:
    r = rabas()
    assert items(r) == [RABAS, BAK1, ("turned card C5", 5)]
    check_each_pays(r, 8)
    assert detail(r)["sets"] == ["C3 C3", "S5 M5", "C7 S7"]


def test_metu_on_a_nokang_call() -> None:
    r = metu()
    assert items(r) == [METU, BAK1, ("turned card S3", 3)]
    check_each_pays(r, 5)
    assert r.how == "claim" and detail(r)["call"] == "ceki"


def test_metu_and_rabas_with_a_red_card() -> None:
    r = metu(hand="C3 C3 S5 M5 C9", call="kowah", win="S9", after="C5")
    assert items(r)[0] == ("metu (with another player's card) with a red card (S9)", 2)
    r = rabas(hand="C3 C3 S5 M5 C9", draw="S9")
    assert items(r)[0] == ("rabas (self-drawn) with a red card (S9)", 3)
    check_each_pays(r, 3 + 1 + 5)


def test_red_bak_and_honours() -> None:
    r = rabas(hand="RF RF S5 M5 C7")
    assert items(r) == [RABAS, ("1 red bak × 2", 2), ("turned card C5", 5)]
    r = rabas(hand="C3 C3 S5 S5 C7", draw="C7")
    assert items(r) == [RABAS, ("3 bak × 1", 3), ("turned card C5", 5)]
    r = rabas(hand="WF OT C3 C3 C7")
    assert detail(r)["sets"] == ["C3 C3", "WF OT", "C7 S7"]


@pytest.mark.parametrize(("card", "value"), [("RF", 10), ("OT", 10), ("M1", 10), ("S9", 9),
                                             ("WF", 1), ("C1", 1), ("M9", 9)])  # fmt: skip
def test_turned_card_values(card: str, value: int) -> None:
    r = rabas(after=card)
    assert items(r)[-1] == (f"turned card {card}", value)
    assert not r.redeal


def test_ceken_scores_the_same_for_three() -> None:
    st = table(KOWAH5, "S7 C5", game=C)
    play(st, "0: draw", "0: sampei")
    r = st.result
    assert items(r) == [RABAS, BAK1, ("turned card C5", 5)]
    check_each_pays(r, 8, players=3)


def test_the_winner_starts_the_next_hand() -> None:
    st = stacked(T, [IDLE[0], KOWAH5, IDLE[1], IDLE[2]], stock="C9 S7 C5")
    play(st, "0: draw", "0: discard C9", "1: draw", "1: sampei")
    assert st.result.winner == 1 and st.next_first() == 1


# -- properties ---------------------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    game=st.sampled_from([T, C]),
    how=st.sampled_from(["seed", "shoe", "stack"]),
    skill=st.sampled_from([0.3, 0.8, 1.0]),
    options=st.sampled_from(
        [{}, {"discard_wins": True}, {"caller_changes": "free"}, {"starter_extra": True},
         {"scoring": "toh-bayaran-14"}, {"scoring": "undhuh-undhuhan"}, {"must_call_to_win": True}]
    ),
)  # fmt: skip
def test_random_games_keep_the_invariants(
    seed: int, game: Any, how: str, skill: float, options: dict[str, Any]
) -> None:
    play_and_check(game, game.default_preset().name, seed, how, skill, **options)
