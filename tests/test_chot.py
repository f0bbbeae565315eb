"""Chot / Kiong (games/chot.py): partnerships, Balik Lima Belas scored in 1- and 10-point
tokens, bangkong, and the final settlement; stacked scenarios, the ledger, whole matches
and random-game properties.

Four players, partners opposite: seats 0 and 2 against seats 1 and 3. The starter (seat 0)
holds 15 and opens by discarding.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import JUNK, JUNK2, detail, label, play
from hypothesis import given, settings
from hypothesis import strategies as st
from relatives import play_and_check, stacked, whole_shoe

from cherki.bots import make_bot
from cherki.core.cards import N_KINDS
from cherki.core.errors import RulesError
from cherki.core.events import Result, Tokens
from cherki.games import find_game
from cherki.games.sets.chot import ChotLedger, side_of
from cherki.play.match import Match
from cherki.play.records import parse_record
from cherki.ui.text import Voice, note_line, settlement_lines

K = find_game("chot")
JUNK3 = "C1 M1 C2 M2 C3 M3 C4 M4 C5 M5 S6 S7 S8 S9"
TAN14 = "M2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 C8 M8"
CEKI14 = "S2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 M8 M8"
#: fifteen cards that add no mata to TAN14 + S8 (or to CEKI14 + M8)
PLAIN15 = "C1 C1 C2 C2 C4 C4 C5 C5 C9 C9 S1 S1 S4 S4 S5"
WIN1 = ("winning", 1)


def mata(n: int) -> tuple[str, int]:
    return (f"{n} mata × 1 (after swapping from the fifteen drawn)", n)


def items(r: Result) -> list[tuple[str, int, int]]:
    return [(label(i, r), i.points, i.multiplier) for i in r.items]


def sides(total: int, winner: int) -> tuple[int, ...]:
    return tuple(total if side_of(t) == side_of(winner) else -total for t in range(4))


def check_tokens(r: Result, winner: int, points: int, tens: bool) -> None:
    assert r.winner == winner and r.total == points
    assert detail(r)["tokens"] == {"seat": winner, "points": points, "ten_point_tokens": tens}
    assert r.payments == sides(points, winner) and sum(r.payments) == 0
    assert r.money == (0, 0, 0, 0)
    assert "pot_change" not in r.detail


# -- the table [K-TABLE] ------------------------------------------------------------------------
def test_four_players_three_decks_partners_opposite() -> None:
    assert K.players == (4, 4) and find_game("kiong") is K
    state = K.new_state(K.rules(), 4, seed=1)
    assert whole_shoe(state) == [6] * N_KINDS
    assert [side_of(t) for t in range(4)] == [0, 1, 0, 1]
    r = K.rules()
    assert r.partnerships and r.scoring == "chot-tokens" and r.reserve == 15
    # ten-point tokens in place of Lima Belas's bonuses, which are not fields of Chot's rules
    assert r.ceki_tokens == 10
    assert not any(hasattr(r, f) for f in ("ayam_bonus", "kandang_bonus", "tan_bonus"))
    assert (r.bangkong_points, r.bangkong_count) == (20, 3)
    assert (r.cents_per_bangkong, r.cents_per_excess) == (2000, 10)
    with pytest.raises(RulesError, match="played by exactly 4 players"):
        K.new_state(K.rules(), 3, seed=1)


# -- scoring [K-SCORE] --------------------------------------------------------------------------
def test_an_uncalled_win_takes_single_tokens() -> None:
    st = stacked(K, [JUNK + " M9", TAN14, JUNK2, JUNK3], stock=f"S8 {PLAIN15}")
    play(st, "0: discard M9", "1: draw", "1: sampei")
    r = st.result
    assert items(r) == [(*WIN1, 1), (*mata(1), 1)]
    check_tokens(r, 1, 2, False)
    assert r.payments == (-2, 2, -2, 2)


def test_the_fifteen_drawn_swap_into_mata() -> None:
    st = stacked(K, [JUNK + " M9", TAN14, JUNK2, JUNK3], stock=f"S8 C3 C3 {PLAIN15[:-6]}")
    play(st, "0: discard M9", "1: draw", "1: sampei")
    assert items(st.result) == [(*WIN1, 1), (*mata(2), 1)]  # C3 S3 M3 -> C3 C3 C3
    check_tokens(st.result, 1, 3, False)


def test_ayam_takes_ten_point_tokens() -> None:
    st = stacked(K, [CEKI14 + " C9", JUNK, JUNK2, JUNK3], stock=f"M8 {PLAIN15}")
    play(st, "0: discard C9 ceki", "1: draw", "0: sampei")
    r = st.result
    assert items(r) == [(*WIN1, 1), (*mata(1), 1), ("ayam: ceki won, 10-point tokens", 0, 10)]
    check_tokens(r, 0, 20, True)
    assert r.payments == (20, -20, 20, -20)


def test_kandang_takes_ten_point_tokens() -> None:
    st = stacked(K, [CEKI14 + " C9", JUNK, JUNK2, JUNK3], stock=f"C4 C5 C6 M8 {PLAIN15}")
    play(st, "0: discard C9 ceki", "1: draw", "1: discard C4", "2: draw", "2: discard C5",
         "3: draw", "3: discard C6", "0: draw", "0: sampei")  # fmt: skip
    r = st.result
    assert r.how == "self-draw"
    assert items(r)[-1] == ("kandang: ceki won, 10-point tokens", 0, 10)
    check_tokens(r, 0, 20, True)


def test_a_tan_win_takes_single_tokens() -> None:
    st = stacked(K, [TAN14 + " C9", JUNK, JUNK2, JUNK3], stock=f"S8 {PLAIN15}")
    play(st, "0: discard C9 tan", "1: draw", "0: sampei")
    check_tokens(st.result, 0, 2, False)


def test_kandang_tangan_doubles() -> None:
    st = stacked(K, [TAN14 + " S8", JUNK, JUNK2, JUNK3], stock=PLAIN15)
    play(st, "0: sampei")
    r = st.result
    assert items(r)[-1] == ("kandang tangan: dealt a winning hand", 0, 2)
    check_tokens(r, 0, 4, False)


def test_ceki_tokens_option() -> None:
    st = stacked(K, [CEKI14 + " C9", JUNK, JUNK2, JUNK3], stock=f"M8 {PLAIN15}", ceki_tokens=5)
    play(st, "0: discard C9 ceki", "1: draw", "0: sampei")
    check_tokens(st.result, 0, 10, True)


# -- the ledger [K-BANGKONG, K-SETTLE] ----------------------------------------------------------
def won(seat: int, points: int, redeal: bool = False) -> Result:
    return Result(
        None if redeal else seat,
        "yeo" if redeal else "claim",
        payments=sides(points, seat),
        redeal=redeal,
        tokens=None if redeal else Tokens(seat, points, False),
    )


FOUR = Voice.of(None, 4)


def test_a_bangkong_pools_the_sides_when_a_player_reaches_twenty() -> None:
    led = ChotLedger(K.rules(), 4)
    assert led.add(won(0, 5)) == [] and led.add(won(1, 4)) == [] and led.add(won(2, 3)) == []
    assert led.context() == {"tokens": [5, 4, 3, 0], "bangkong": 0}
    assert led.add(won(1, 0, redeal=True)) == []
    notes = led.add(won(0, 20))
    assert [note_line(n, K, FOUR) for n in notes] == [
        "Bangkong 1: Seat 0 and Seat 2 win it with 28 points to 4, 24 in excess."
    ]
    b = led.bangkong[0]
    assert (b.tokens, b.sides, b.winner, b.excess, b.hand) == ((25, 4, 3, 0), (28, 4), 0, 24, 5)
    assert led.tokens == [0, 0, 0, 0] and led.context()["bangkong"] == 1


def test_a_tied_bangkong_is_won_by_neither_side() -> None:
    led = ChotLedger(K.rules(), 4)
    led.add(won(1, 10))
    led.add(won(3, 10))
    notes = led.add(won(0, 20))
    assert [note_line(n, K, FOUR) for n in notes] == [
        "Bangkong 1: the sides tie at 20; no one wins it."
    ]
    assert led.won() == (0, 0) and led.money() == [0, 0, 0, 0]


def test_the_settlement() -> None:
    led = ChotLedger(K.rules(), 4)
    for seat, pts in [(0, 20), (3, 7), (1, 20), (2, 4), (2, 20)]:
        led.add(won(seat, pts))
    assert [b.winner for b in led.bangkong] == [0, 1, 0]
    assert [b.excess for b in led.bangkong] == [20, 27, 24]
    assert led.won() == (2, 1) and led.excess() == (44, 27)
    # one bangkong more ($20) and 17 excess points more (10¢ each): 2170¢ from side 1
    assert led.side_money() == (2170, -2170)
    assert led.money() == [1085, -1085, 1085, -1085]
    assert led.is_over()
    assert settlement_lines(led, K, FOUR)[-1] == "Seat 1 and Seat 3 pay Seat 0 and Seat 2 $21.70"
    names = Voice.of(["Ann", "Bo", "Cy", "You"], 4, 3)
    assert settlement_lines(led, K, names)[-1] == "Bo and you pay Ann and Cy $21.70"


def test_settlement_rates_are_options() -> None:
    led = ChotLedger(K.rules(cents_per_bangkong=100, cents_per_excess=1, bangkong_count=1), 4)
    led.add(won(1, 21))
    assert led.is_over() and led.side_money() == (-121, 121)
    assert led.money() == [-61, 61, -60, 60]  # the first partner takes the odd cent


# -- a whole match ------------------------------------------------------------------------------
def play_match(seed: int, **kw: Any) -> Match:
    m = Match(K, K.rules(), [f"P{i}" for i in range(4)], seed, **kw)
    bots = [make_bot("chot", "heuristic") for _ in range(4)]
    rng = random.Random(seed)
    while not m.is_over():
        state = m.start_hand()
        while not state.is_terminal:
            s = state.current
            state.apply(bots[s].act(state.observation(s), rng), s)
        m.finish_hand(state)
    return m


@pytest.mark.parametrize("seed", [1, 2])
def test_a_match_runs_to_the_fixed_number_of_bangkong(seed: int) -> None:
    m = play_match(seed)
    led = m.ledger
    assert isinstance(led, ChotLedger)
    assert len(led.bangkong) == 3
    assert m.money == led.money() and sum(m.money) == 0
    assert sum(m.totals) == 0
    teams = m.team_totals()
    assert teams == [m.totals[0], m.totals[1]] and m.totals[0] == m.totals[2]
    notes = [n for row in m.sheet_rows() for n in row["notes"]]
    assert len(notes) == 3 and notes[0]["number"] == 1
    assert note_line(m.notes[notes[0]["hand"] - 1][0], K, FOUR).startswith("Bangkong 1:")
    # each hand's record holds the tokens before it
    assert m.record.hands[0].context == {"tokens": [0, 0, 0, 0], "bangkong": 0}
    again = Match.from_record(parse_record(m.record.dumps()))
    assert again.money == m.money and again.totals == m.totals
    assert again.ledger.to_json() == led.to_json()
    assert m.to_json()["ledger"]["bangkong_won"] == list(led.won())


def test_a_fixed_number_of_hands_overrides_the_bangkong() -> None:
    m = play_match(3, hands=2)
    assert m.scored_hands == 2


# -- properties ---------------------------------------------------------------------------------
@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    how=st.sampled_from(["seed", "shoe", "stack"]),
    skill=st.sampled_from([0.3, 0.8, 1.0]),
    options=st.sampled_from(
        [{}, {"discard_wins": True}, {"caller_changes": "none"}, {"honours": "frames"}]
    ),
)
def test_random_games_keep_the_invariants(
    seed: int, how: str, skill: float, options: dict[str, Any]
) -> None:
    state = play_and_check(K, "pwee", seed, how, skill, **options)
    r = state.result
    if r.winner is not None:
        assert r.payments == sides(r.total, r.winner)
