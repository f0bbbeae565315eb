"""Card notation, names, ranks and red stamps (cherki.core.cards)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cherki.core.cards import (
    CODES,
    HONOURS,
    IS_RED,
    KINDS,
    N_KINDS,
    NAMES,
    OT,
    RANK,
    RED,
    RF,
    S9,
    SUIT,
    WF,
    card_name,
    cards_of,
    counts_of,
    format_cards,
    format_hand,
    long_name,
    parse_card,
    parse_cards,
    parse_hand,
)
from cherki.core.errors import CherkiError, NotationError

ALL_CODES = [f"{s}{r}" for s in "CSM" for r in range(1, 10)] + ["WF", "RF", "OT"]


def test_thirty_kinds_in_documented_order() -> None:
    assert N_KINDS == 30
    assert list(CODES) == ALL_CODES
    assert len(set(CODES)) == 30
    assert (WF, RF, OT, S9) == (27, 28, 29, 17)


@pytest.mark.parametrize("kind", range(30))
def test_notation_round_trip_every_card(kind: int) -> None:
    code = card_name(kind)
    assert parse_card(code) == kind
    assert card_name(parse_card(code)) == code
    assert parse_card(code.lower()) == kind
    assert parse_card(f"  {code.lower()} ") == kind


@pytest.mark.parametrize("text", ["m7", "M7", "rf", "Rf", "rF", "ot", "wF", "s9"])
def test_parsing_is_case_insensitive(text: str) -> None:
    assert card_name(parse_card(text)) == text.upper()


@pytest.mark.parametrize("text", ["", "X1", "C0", "C10", "S", "9", "WW", "M 7", "Nyonya", "C1C2"])
def test_bad_card_raises_notation_error_naming_the_text_and_the_codes(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_card(text)
    msg = str(info.value)
    assert repr(text.strip()) in msg
    for hint in ("C1-C9", "S1-S9", "M1-M9", "WF", "RF", "OT"):
        assert hint in msg
    assert isinstance(info.value, CherkiError) and isinstance(info.value, ValueError)


def test_bad_card_in_a_hand_is_named() -> None:
    with pytest.raises(NotationError, match="'Q5'"):
        parse_hand("C1 C2 Q5 M3")


def test_red_stamps_are_red_nine_nyonya_and_lau_chian() -> None:
    assert frozenset({S9, RF, OT}) == RED
    assert [card_name(k) for k in KINDS if IS_RED[k]] == ["S9", "RF", "OT"]
    assert long_name(S9) == "9 of Strings (Red Nine)"
    assert long_name(RF) == "Red Flower (Nyonya)"
    assert long_name(OT) == "Old Thousand (Lau Chian)"
    assert long_name(WF) == "White Flower"
    assert long_name(parse_card("C9")) == "9 of Coins"


def test_ranks_and_suits() -> None:
    for s, letter in enumerate("CSM"):
        for r in range(1, 10):
            k = parse_card(f"{letter}{r}")
            assert RANK[k] == r
            assert SUIT[k] == s
    # honours have no printed index: rank 1 as in Pwee's table, no suit
    for k in (WF, RF, OT):
        assert RANK[k] == 1
        assert SUIT[k] == -1
    assert frozenset({WF, RF, OT}) == HONOURS
    assert NAMES[WF] == "White Flower"


def test_parse_cards_keeps_order_and_accepts_commas_and_lists() -> None:
    assert parse_cards("M7, c1 ,RF") == [parse_card("M7"), 0, RF]
    assert parse_cards(["ot", "S9"]) == [OT, S9]
    assert parse_cards("") == []


def test_parse_hand_counts_and_format_sorts() -> None:
    hand = parse_hand("M8 S2 M8 OT c1")
    assert sum(hand) == 5
    assert hand[parse_card("M8")] == 2
    assert format_hand(hand) == "C1 S2 M8 M8 OT"
    assert format_cards([OT, 0, OT]) == "OT C1 OT"
    assert cards_of(counts_of([3, 1, 3])) == [1, 3, 3]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 29), max_size=40))
def test_hand_round_trip(cards: list[int]) -> None:
    counts = counts_of(cards)
    text = format_hand(counts)
    assert parse_hand(text) == counts
    assert parse_hand(text.lower()) == counts
    assert cards_of(counts) == sorted(cards)
    assert parse_cards(format_cards(cards)) == cards


@given(st.lists(st.integers(0, 4), min_size=N_KINDS, max_size=N_KINDS))
@settings(max_examples=200)
def test_a_count_vector_written_as_codes_is_the_same_however_often(counts: list[int]) -> None:
    """``codes`` writes a count vector as card codes in card order with repeats, the same
    for a tuple (kept once written) as for a list, each call a list of its own."""
    from cherki.core.encoding import codes

    expected = [CODES[k] for k, n in enumerate(counts) for _ in range(n)]
    first = codes(tuple(counts))
    assert first == expected == codes(counts)
    first.append("XX")  # a caller's list is its own
    assert codes(tuple(counts)) == expected
