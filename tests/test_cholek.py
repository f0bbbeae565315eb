"""Cholek Tiga: rules from source 002, our specifications, and properties over random games."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from conftest import detail
from hypothesis import given, settings
from hypothesis import strategies as st
from test_contract import check_hand

from cherki.bots import make_bot
from cherki.core.cards import N_KINDS, parse_card, parse_cards, parse_hand
from cherki.core.errors import IllegalActionError, NotationError, RulesError
from cherki.games import find_game
from cherki.games.cholek import (
    CAPTURE,
    NUM_ACTIONS,
    PASS,
    TURN,
    CholekState,
    score_captured,
)

CHOLEK = find_game("cholek-tiga")


def stacked(
    hands: list[str], stock: str = "", first: int = 0, seed: int | None = None, **options: Any
) -> CholekState:
    rules = CHOLEK.rules(None, **options)
    state = CHOLEK.new_state(
        rules,
        len(hands),
        stack=([parse_cards(h) for h in hands], parse_cards(stock)),
        first=first,
        seed=seed,
    )
    assert isinstance(state, CholekState)
    return state


def play(state: CholekState, *moves: str) -> None:
    for m in moves:
        seat, _, text = m.partition(":")
        state.apply(text.strip(), seat=int(seat))


def finish_without_captures(state: CholekState) -> None:
    """Play the game out never capturing, discarding the lowest card."""
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(PASS if PASS in legal else TURN if TURN in legal else legal[0])


def snapshot(state: CholekState) -> tuple[Any, ...]:
    return (
        tuple(state.observation(s) for s in range(state.n)),
        tuple(state.history),
        tuple(state.log),
        tuple(tuple(h) for h in state.hands),
        tuple(state.pool),
        state.pos,
        state.current,
        state.phase,
        state.active,
    )


def whole_shoe(state: Any) -> list[int]:
    """Every card in play, from the state's own invariant view."""
    counts: list[int] = state.card_counts()
    return counts


# -- equipment and the deal [002] ------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3])
def test_two_decks_and_three_cards_each(n: int) -> None:
    state = CHOLEK.new_state(players=n, seed=3)
    assert isinstance(state, CholekState)
    assert whole_shoe(state) == [4] * N_KINDS
    assert [sum(h) for h in state.hands] == [3] * n
    assert not any(state.pool)  # our specification: the pool starts empty


@pytest.mark.parametrize("n", [1, 4])
def test_two_or_three_players(n: int) -> None:
    with pytest.raises(RulesError, match="2 to 3"):
        CHOLEK.new_state(players=n, seed=1)


def test_initial_pool_option_turns_cards_up() -> None:
    state = stacked(["C1 C2 C3", "S1 S2 S3"], "M7 M8", initial_pool=2)
    assert state.pool == parse_hand("M7 M8")


# -- scoring table [002] ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("captured", "points", "ang_pow", "besar"),
    [
        ("C5 C5", 0, 0, 0),
        ("C5 C5 C5", 3, 0, 0),  # three identical normal cards
        ("C5 C5 C5 C5", 8, 0, 0),  # all four
        ("C5 S5 M5", 0, 0, 0),  # same rank is not identical
        ("WF WF WF", 3, 0, 0),  # White Flower has no red stamp
        ("S9", 1, 0, 0),  # red: 1 a card
        ("S9 S9", 4, 0, 0),  # red identical pair
        ("RF RF RF", 3, 1, 0),  # red identical triplet: ang pow
        ("OT OT OT OT", 8, 0, 1),  # red four: ang pow besar
        ("S9 RF OT", 3, 0, 0),  # three different red cards, one each
        ("S9 S9 RF C9 C9 C9", 4 + 1 + 3, 0, 0),
    ],
)
def test_scoring_table(captured: str, points: int, ang_pow: int, besar: int) -> None:
    got, _, ap, apb = score_captured(parse_hand(captured))
    assert (got, len(ap), len(apb)) == (points, ang_pow, besar)


# -- captures [002] --------------------------------------------------------------------------
def test_a_card_captures_two_of_its_rank_and_capturing_is_optional() -> None:
    state = stacked(["M7 C1 C2", "S7 C3 C4"], "C7 C8", initial_pool=1)
    assert state.pool == parse_hand("C7")
    play(state, "0: discard M7")  # only one other 7: no capture possible
    assert state.phase_name == "turn"
    play(state, "0: turn")  # C8 alone
    play(state, "1: discard S7")  # C7 M7 in the pool: S7 may take both
    legal = [CHOLEK.action_text(a) for a in state.legal_actions()]
    assert legal == ["no capture", "capture C7 M7 with S7"]  # sorted by id: PASS first
    before = snapshot(state)
    play(state, "1: no capture")
    assert state.pool == parse_hand("C7 M7 S7 C8")
    assert snapshot(state) != before


def test_choice_of_two_cards() -> None:
    state = stacked(["S7 C1 C2", "C3 C4 C5"], "C7 M7 C7", initial_pool=3)
    play(state, "0: discard S7")
    legal = sorted(CHOLEK.action_text(a) for a in state.legal_actions())
    assert legal == ["capture C7 C7 with S7", "capture C7 M7 with S7", "no capture"]
    play(state, "0: capture M7 C7 with S7")  # any order of the pool cards
    assert state.captured[0] == parse_hand("C7 M7 S7")
    assert state.pool == parse_hand("C7")
    assert state.bonuses == []  # not identical: no ayam


def test_both_cards_of_a_turn_may_capture() -> None:
    state = stacked(["C7 C1 C2", "C3 C4 C5"], "M7 M7 M9 M9 C9", initial_pool=4)
    play(state, "0: discard C7", "0: capture M7 M7 with C7", "0: turn")
    assert state.phase_name == "capture"
    play(state, "0: capture M9 M9 with C9")
    assert sum(state.captured[0]) == 6
    assert state.current == 1


def test_the_public_view_shows_the_table_never_a_hand() -> None:
    state = stacked(["M7 C1 C2", "S7 C3 C4"], "C7 C8", initial_pool=1)
    play(state, "0: discard M7", "0: turn", "1: discard S7")
    pub = state.public_observation()
    assert pub.seat == -1 and not any(pub.hand) and pub.legal == ()
    data = pub.to_json()
    assert (data["seat"], data["hand"], data["legal"]) == (None, [], [])
    assert data["pool"] == ["C7", "C8", "M7"] and data["hand_sizes"] == [2, 2]
    assert (data["active"], data["active_from"]) == ("S7", "hand")  # face up on the table
    assert state.observation(1).to_json()["hand"] == ["C3", "C4"]
    text = json.dumps(data)
    assert not [c for c in ("C1", "C2", "C3", "C4") if f'"{c}"' in text]


@pytest.mark.parametrize(
    ("honours", "legal"),
    [("rank1", True), ("frames", False), ("own", False)],
)
def test_honours_rank_with_the_ones_by_option(honours: str, legal: bool) -> None:
    state = stacked(["OT C2 C3", "C4 C5 C6"], "C1 S1 OT OT", initial_pool=4, honours=honours)
    play(state, "0: discard OT")
    action = CHOLEK.parse_action("capture C1 S1 with OT")
    assert (action in state.legal_actions()) == legal
    if not legal:
        before = snapshot(state)
        with pytest.raises(IllegalActionError, match="own rank under these rules"):
            state.apply(action)
        assert snapshot(state) == before


# -- in-play bonuses: ayam and kandang [002] -------------------------------------------------
def test_ayam_capture_of_three_identical_with_a_hand_card() -> None:
    state = stacked(["M7 C1 C2", "M7 C3 C4", "C5 C6 C8"], "M7 C9 S2")
    play(state, "0: discard M7", "0: turn")  # M7 turned: one other M7, no capture
    assert state.pool == parse_hand("M7 M7")
    play(state, "1: discard M7", "1: capture M7 M7 with M7")
    assert state.bonus_money == [-50, 100, -50]
    assert state.bonuses == [{"seat": 1, "bonus": "ayam", "card": "M7", "cents_each": 50}]


def test_kandang_capture_of_three_identical_with_the_stock_card() -> None:
    state = stacked(["M7 C1 C2", "M7 C3 C4"], "C9 M7")
    play(state, "0: discard M7", "0: turn", "1: discard M7")
    assert state.phase_name == "turn"  # a single other M7: no capture
    play(state, "1: turn", "1: capture M7 M7 with M7")
    assert state.bonus_money == [-100, 100]
    assert state.bonuses[0]["bonus"] == "kandang"


# -- end of game: difference payment, ang pow, lowest starts next [002] ----------------------
def test_ayam_and_ang_pow_and_the_difference() -> None:
    state = stacked(["S9 C1 C2", "S9 C3 C4"], "S9 C6")
    play(state, "0: discard S9", "0: turn", "1: discard S9", "1: capture S9 S9 with S9")
    finish_without_captures(state)
    res = state.result
    assert detail(res)["scores"] == [0, 3]
    assert res.winner == 1 and res.total == 3
    assert res.payments == (-3, 3)
    # 3 points at 10¢, ayam 50¢, ang pow $1
    assert res.money == (-180, 180)
    assert detail(res)["end_bonuses"][0]["bonus"] == "ang pow"
    assert state.next_first() == 0


def test_kandang_and_ang_pow_besar() -> None:
    state = stacked(["RF C1 C1", "RF C3 RF"], "C5 RF C6 C7 C8 C9")
    play(
        state,
        "0: discard RF",
        "0: turn",  # C5
        "1: discard RF",  # one other RF: no capture
        "1: turn",  # RF
        "1: capture RF RF with RF",  # kandang
        "0: discard C1",
        "0: turn",  # C6
        "1: discard C3",
        "1: turn",  # C7
        "0: discard C1",
        "0: turn",  # C8
        "1: discard RF",
        "1: capture C1 C1 with RF",  # honours rank with the 1s (default)
    )
    finish_without_captures(state)
    res = state.result
    assert state.captured[1][parse_card("RF")] == 4
    assert detail(res)["scores"] == [0, 8]
    assert res.payments == (-8, 8)
    assert res.money == (-(80 + 100 + 200), 80 + 100 + 200)
    assert [b["bonus"] for b in detail(res)["end_bonuses"]] == ["ang pow besar"]


def test_three_players_difference_and_lowest_scorer_starts_next() -> None:
    state = stacked(
        ["C5 C5 C1", "S9 C9 C2", "M2 M4 M6"],
        "C5 S9 M3 C6 C7 M5",
    )
    play(
        state,
        "0: discard C5",
        "0: turn",  # C5: one other C5, no capture
        "1: discard S9",
        "1: turn",  # S9: one other S9
        "2: discard M2",
        "2: turn",  # M3
        "0: discard C5",
        "0: capture C5 C5 with C5",  # ayam
        "0: turn",  # C6
        "1: discard C9",
        "1: capture S9 S9 with C9",
        "1: turn",  # C7
        "2: discard M4",
        "2: turn",  # M5
    )
    finish_without_captures(state)
    res = state.result
    assert detail(res)["scores"] == [3, 4, 0]
    assert res.winner == 1
    assert res.payments == (-1, 5, -4)
    assert res.money == (-10 + 100, 50 - 50, -40 - 50)
    assert state.next_first() == 2


def test_tie_for_the_top() -> None:
    state = stacked(["C1 C2 C3", "S1 S2 S3"], "")
    finish_without_captures(state)
    res = state.result
    assert res.winner is None and res.how == "tie"
    assert res.payments == (0, 0) and res.money == (0, 0)
    assert state.next_first() == 0
    state = stacked(["C1 C2 C3", "S1 S2 S3"], "", first=1)
    finish_without_captures(state)
    assert state.next_first() == 1


@pytest.mark.parametrize(("rule", "payments"), [("each", (3, 3, -6)), ("none", (0, 0, 0))])
def test_tied_winners(rule: str, payments: tuple[int, ...]) -> None:
    state = stacked(
        ["C5 C1 C2", "C6 C3 C4", "M1 M2 M3"], "C5 C5 C6 C6", initial_pool=4, tie_rule=rule
    )
    play(state, "0: discard C5", "0: capture C5 C5 with C5", "0: turn")
    play(state, "1: discard C6", "1: capture C6 C6 with C6")
    finish_without_captures(state)
    assert detail(state.result)["scores"][:2] == [3, 3]
    assert state.result.payments == payments
    assert state.result.winner is None


def test_leftover_pool_option() -> None:
    state = stacked(["S9 C1 C2", "S9 C3 C4"], "S9 C6", leftover_pool="last-capturer")
    play(state, "0: discard S9", "0: turn", "1: discard S9", "1: capture S9 S9 with S9")
    finish_without_captures(state)
    assert sum(state.captured[1]) == 120 - 0 - sum(state.captured[0])
    assert not any(state.pool)


# -- play out and redraws ----------------------------------------------------------------------
@pytest.mark.parametrize(("n", "discards"), [(2, 60), (3, 60)])
def test_every_card_is_played_out(n: int, discards: int) -> None:
    state = CHOLEK.new_state(players=n, seed=11)
    assert isinstance(state, CholekState)
    finish_without_captures(state)
    assert state.stock_left == 0 and not any(sum(h) for h in state.hands)
    assert sum(1 for _, a in state.history if a < TURN) == discards
    assert sum(state.pool) == 120


def test_leftover_stock_after_an_initial_pool_is_turned_up_without_discards() -> None:
    state = CHOLEK.new_state(CHOLEK.rules(None, initial_pool=4), 3, seed=5)
    assert isinstance(state, CholekState)
    finish_without_captures(state)
    assert sum(state.pool) == 120 and state.stock_left == 0


# -- illegal actions ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("moves", "bad", "message"),
    [
        ([], "discard M9", "no M9 in your hand"),
        ([], "turn", "first discard a card"),
        ([], "no capture", "first discard a card"),
        (["0: discard C1"], "discard C2", "turn up a card"),
        (["0: discard C7"], "turn", "decide first whether C7 captures"),
        (["0: discard C7"], "capture M7 M7 with C7", "pool does not hold M7 and M7"),
        (["0: discard C7"], "capture S7 S7 with M7", "may capture now is C7"),
    ],
)
def test_illegal_actions_explain_and_leave_the_state(
    moves: list[str], bad: str, message: str
) -> None:
    # the two initial pool cards come from the stock top: two 7s
    state = stacked(["C7 C1 C2", "C3 C4 C5"], "S7 M7 S2", initial_pool=2)
    play(state, *moves)
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=message):
        state.apply(bad)
    assert snapshot(state) == before


def test_out_of_turn() -> None:
    state = stacked(["C7 C1 C2", "C3 C4 C5"], "")
    with pytest.raises(IllegalActionError, match="not seat 1's turn"):
        state.apply("discard C3", seat=1)


# -- notation ----------------------------------------------------------------------------------
def test_every_action_round_trips() -> None:
    for a in range(NUM_ACTIONS):
        assert CHOLEK.parse_action(CHOLEK.action_text(a)) == a
    assert CHOLEK.parse_action("Capture m7 c7 WITH s7") == CHOLEK.parse_action(
        "capture C7 M7 with S7"
    )
    assert CHOLEK.action_text(CAPTURE) == "capture C1 C1 with C1"


@pytest.mark.parametrize(
    "text", ["capture C7 C8 with C7", "capture C7 with C7", "discard ZZ", "draw", ""]
)
def test_bad_notation(text: str) -> None:
    with pytest.raises(NotationError):
        CHOLEK.parse_action(text)


# -- properties over random games --------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    n=st.integers(2, 3),
    level=st.sampled_from(["random", "heuristic"]),
    honours=st.sampled_from(["rank1", "frames", "own"]),
    pool=st.sampled_from([0, 0, 4]),
    stacked_deal=st.booleans(),
)
def test_random_games_keep_the_contract_and_score_as_the_rules_say(
    seed: int, n: int, level: str, honours: str, pool: int, stacked_deal: bool
) -> None:
    """The conformance suite's checks at every step, over Cholek Tiga's options and deals."""
    rules = CHOLEK.rules(None, honours=honours, initial_pool=pool)
    if stacked_deal:
        rng = random.Random(seed)
        shoe = [k for k in range(N_KINDS) for _ in range(4)]
        rng.shuffle(shoe)
        hands = [shoe[3 * i : 3 * i + 3] for i in range(n)]
        state = CHOLEK.new_state(rules, n, stack=(hands, shoe[3 * n : 3 * n + 6]), seed=seed)
    else:
        state = CHOLEK.new_state(rules, n, seed=seed, first=seed % n)
    check_hand(state, seed, "random", skill=0.0 if level == "random" else 0.7)
    res = state.result
    assert sum(res.money) == 0
    scores = detail(res)["scores"]
    assert state.next_first() in [t for t in range(n) if scores[t] == min(scores)]
    assert res.total == max(scores)


def test_heuristic_bot_beats_random_players() -> None:
    bot, rnd = make_bot("cholek-tiga", "heuristic"), make_bot("cholek-tiga", "random")
    money = 0
    for seed in range(30):
        state = CHOLEK.new_state(None, 3, seed=seed, first=seed % 3)
        rng = random.Random(seed)
        while not state.is_terminal:
            s = state.current
            state.apply((bot if s == 0 else rnd).act(state.observation(s), rng))
        money += state.result.money[0]
    assert money > 0
