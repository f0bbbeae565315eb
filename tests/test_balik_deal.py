"""The deal and the shoe tables of Balik Satu / Balik Lima Belas (games/balik.py), one test
(or table) per rule [R-DEAL] [R-SHOE]; the other rules are in test_balik_rules.py.

Seats are numbered in playing order (seat i+1 sits on seat i's right).
"""

from __future__ import annotations

import random

import pytest
from conftest import JUNK, SATU, stacked, whole_shoe
from test_balik_rules import CEKI14, CEKI15, k

from cherki.core.cards import N_KINDS, counts_of, format_hand, parse_cards, parse_hand
from cherki.core.deal import shoe_cards
from cherki.core.errors import RulesError
from cherki.games.sets.rules import SHOE_TABLES


# -- the deal [R-DEAL] -------------------------------------------------------------------------
def _order(n_cards: int, seed: int) -> list[int]:
    half = n_cards // N_KINDS
    order = shoe_cards(half)
    random.Random(seed).shuffle(order)
    return order


@pytest.mark.parametrize("first", [0, 1, 2])
def test_deal_in_rounds_places_an_explicit_shoe(first: int) -> None:
    order = _order(180, 1)  # 3 players, Pwee: 3 decks
    st = SATU.new_state(SATU.rules(), 3, shoe=order, first=first)
    seats = [(first + i) % 3 for i in range(3)]
    want = {s: [] for s in seats}  # type: dict[int, list[int]]
    i = 0
    for s in seats:  # 7 each in turn order from the starter
        want[s] += order[i : i + 7]
        i += 7
    want[first].append(order[i])  # one more to the starter
    i += 1
    for s in seats:  # then 7 more each
        want[s] += order[i : i + 7]
        i += 7
    for s in seats:
        assert st.hands[s] == counts_of(want[s])
    assert st.stock == order[i:]
    assert st.current == first
    assert [sum(h) for h in st.hands] == [15 if s == first else 14 for s in range(3)]


@pytest.mark.parametrize("first", [0, 2])
def test_wash_deal_each_takes_fourteen_starter_fifteen(first: int) -> None:
    order = _order(180, 2)
    st = SATU.new_state(SATU.rules(deal="wash"), 3, shoe=order, first=first)
    i = 0
    for s in [(first + j) % 3 for j in range(3)]:
        take = 15 if s == first else 14
        assert st.hands[s] == counts_of(order[i : i + take])
        i += take
    assert st.stock == order[i:]


def test_rounds_and_wash_place_cards_differently_but_deal_the_same_sizes() -> None:
    order = _order(180, 3)
    a = SATU.new_state(SATU.rules(), 3, shoe=order)
    b = SATU.new_state(SATU.rules(deal="wash"), 3, shoe=order)
    assert a.hands != b.hands
    assert [sum(h) for h in a.hands] == [sum(h) for h in b.hands] == [15, 14, 14]
    assert a.stock == b.stock  # both deal 43 cards from the top


@pytest.mark.parametrize("players", [2, 4, 8, 14])
def test_seeded_deal_is_reproducible_and_uses_the_whole_shoe(players: int) -> None:
    a = SATU.new_state(SATU.rules(), players, seed=11)
    b = SATU.new_state(SATU.rules(), players, seed=11)
    c = SATU.new_state(SATU.rules(), players, seed=12)
    assert a.hands == b.hands and a.stock == b.stock
    assert (a.hands, a.stock) != (c.hands, c.stock)
    half = SHOE_TABLES["pwee"][players]
    assert whole_shoe(a) == [half] * N_KINDS
    assert a.observation(0).stock_left == half * 30 - 14 * players - 1 - 1


def test_stacked_deal_puts_hands_and_stock_top_in_place() -> None:
    st = stacked(SATU, [CEKI15, JUNK], stock="M8 OT RF")
    assert format_hand(st.hands[0]) == format_hand(parse_hand(CEKI15))
    assert format_hand(st.hands[1]) == format_hand(parse_hand(JUNK))
    assert st.stock[:3] == [k("M8"), k("OT"), k("RF")]
    assert whole_shoe(st) == [5] * N_KINDS  # 2 players, Pwee: 2½ decks


def test_stacked_deal_with_a_seed_shuffles_the_rest() -> None:
    a = stacked(SATU, [CEKI15, JUNK], stock="M8", seed=1)
    b = stacked(SATU, [CEKI15, JUNK], stock="M8", seed=2)
    assert a.stock[0] == b.stock[0] == k("M8")
    assert a.stock != b.stock
    assert sorted(a.stock) == sorted(b.stock)


@pytest.mark.parametrize(
    ("hands", "stock", "message"),
    [
        ([CEKI15], "", "gives 1 hands for 2 players"),
        ([CEKI14, JUNK], "", "seat 0's stacked hand has 14 cards, not 15"),
        ([CEKI15, JUNK + " C1"], "", "seat 1's stacked hand has 15 cards, not 14"),
        ([CEKI15, JUNK], "M8 M8 M8 M8", "uses M8 more than the 5 times"),
    ],
)
def test_bad_stacked_deals(hands: list[str], stock: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        SATU.new_state(
            SATU.rules(),
            2,
            stack=([parse_cards(h) for h in hands], parse_cards(stock)),
        )


def test_bad_explicit_shoe() -> None:
    with pytest.raises(RulesError, match="150"):
        SATU.new_state(SATU.rules(), 2, shoe=shoe_cards(4))
    bad = shoe_cards(5)
    bad[0] = k("M8")  # one C1 too few, one M8 too many
    with pytest.raises(RulesError, match="C1 appears 4 times; M8 appears 6 times"):
        SATU.new_state(SATU.rules(), 2, shoe=bad)


# -- shoe tables [R-SHOE] ----------------------------------------------------------------------
# Cards per player count, as the sources print them (Amaro has no entry for two players).
SOURCE_TABLES = {
    "pwee": {2: 150, 3: 180, 4: 180, 5: 210, 6: 210, 7: 240, 8: 240, 9: 270, 10: 270,
             11: 300, 12: 300, 13: 330, 14: 330, 20: 1200},  # 20: "the book" [000]
    "babas": {2: 120, 3: 150, 4: 180, 5: 210, 6: 240, 7: 270, 8: 300, 9: 330, 10: 360,
              11: 390, 12: 420, 13: 450, 14: 480,
              15: 510, 16: 540, 17: 570, 18: 600, 19: 630, 20: 660},  # 15-20: ours
    "amaro": {3: 120, 4: 120, 5: 180, 6: 180, 7: 240, 8: 240, 9: 300, 10: 300, 11: 360,
              12: 360, 13: 420, 14: 420},
}  # fmt: skip


@pytest.mark.parametrize("table", sorted(SOURCE_TABLES))
def test_shoe_tables_match_the_sources(table: str) -> None:
    assert {p: 30 * h for p, h in SHOE_TABLES[table].items()} == SOURCE_TABLES[table]
    rules = SATU.rules(shoe_table=table)
    for players, cards in SOURCE_TABLES[table].items():
        st = SATU.new_state(rules, players, seed=players)
        assert len(st.stock) + 14 * players + 1 == cards
        assert whole_shoe(st) == [cards // 30] * N_KINDS


def test_twenty_players_play_a_hand_to_the_end() -> None:
    """[000] "up to 20 people can play with a total of 1 200 cards": a 20-player hand on
    Pwee's 40 half-packs, random legal play to its end, every card accounted for."""
    rng = random.Random(20)
    for seed in range(3):
        st = SATU.new_state(SATU.rules(), 20, seed=seed)
        assert whole_shoe(st) == [40] * N_KINDS and len(st.stock) == 1200 - 281
        steps = 0
        while not st.is_terminal:
            st.apply(rng.choice(st.legal_actions()))
            steps += 1
        res = st.result
        assert sum(res.payments) + res.pot_change == 0 and len(res.payments) == 20
        assert steps > 20


def test_fifteen_to_nineteen_players_need_a_shoe_from_pwee() -> None:
    with pytest.raises(RulesError, match=r"no shoe for 17 players \(it covers 2-14 and 20\)"):
        SATU.new_state(SATU.rules(), 17, seed=1)
    st = SATU.new_state(SATU.rules(half_packs=30), 17, seed=1)
    assert len(st.stock) == 900 - 17 * 14 - 1
    assert len(SATU.new_state(SATU.rules("babas"), 17, seed=1).stock) == 570 - 239


def test_amaro_has_no_two_player_shoe() -> None:
    with pytest.raises(RulesError, match="amaro table gives no shoe for 2 players"):
        SATU.new_state(SATU.rules(shoe_table="amaro"), 2, seed=1)
    # half_packs overrides the table
    st = SATU.new_state(SATU.rules(shoe_table="amaro", half_packs=4), 2, seed=1)
    assert whole_shoe(st) == [4] * N_KINDS


def test_presets_pick_their_shoe_tables() -> None:
    assert SATU.rules("babas").shoe_table == "babas"
    assert SATU.rules("pwee").shoe_table == "pwee"
    st = SATU.new_state(SATU.rules("babas"), 2, seed=3)
    assert whole_shoe(st) == [4] * N_KINDS
