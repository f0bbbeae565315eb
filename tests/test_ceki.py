"""Ceki (Kowah): rules from source 003, our specifications, and properties over random games."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from conftest import detail
from conftest import table as table_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_contract import check_hand

from cherki.bots import make_bot
from cherki.core.cards import N_KINDS, card_name, parse_card, parse_cards
from cherki.core.errors import IllegalActionError, NotationError, RulesError
from cherki.core.sets import GROUPINGS
from cherki.games import find_game
from cherki.games.ceki import (
    CALL,
    DRAW,
    NUM_ACTIONS,
    TAKE,
    WIN,
    CekiRules,
    CekiState,
    couple_group,
)

CEKI = find_game("ceki")

#: Two sets (9s, 8s) and a couple of 7s: 27 + 24 + 21 = 72 once the third 7 comes.
NINES = "C9 S9 M9 C8 S8 M8 C7 S7"
#: Eight cards far from two sets and a couple (no pair of one value).
JUNK = "C1 S2 M3 C4 S5 M6 WF RF"
JUNK2 = "M1 C2 S3 M4 C5 S6 OT C6"


def stacked(
    hands: list[str], stock: str = "", first: int = 0, seed: int | None = None, **options: Any
) -> CekiState:
    rules = CEKI.rules(None, **options)
    state = CEKI.new_state(
        rules,
        len(hands),
        stack=([parse_cards(h) for h in hands], parse_cards(stock)),
        first=first,
        seed=seed,
    )
    assert isinstance(state, CekiState)
    return state


def play(state: CekiState, *moves: str) -> None:
    for m in moves:
        seat, _, text = m.partition(":")
        state.apply(text.strip(), seat=int(seat))


def snapshot(state: CekiState) -> tuple[Any, ...]:
    return (
        tuple(state.observation(s) for s in range(state.n)),
        tuple(state.history),
        tuple(state.log),
        tuple(tuple(h) for h in state.hands),
        state.pos,
        state.current,
        state.phase,
        state.drawn,
        tuple(state.pile),
        tuple(state.called),
    )


def whole_shoe(state: Any) -> list[int]:
    """Every card in play, from the state's own invariant view."""
    counts: list[int] = state.card_counts()
    return counts


# -- the deck and the deal [003] ------------------------------------------------------------
def test_two_packs_four_of_each_and_eight_cards_dealt() -> None:
    for n in range(2, 7):
        state = CEKI.new_state(players=n, seed=n)
        assert whole_shoe(state) == [4] * N_KINDS
        assert all(sum(h) == 8 for h in state.hands)
        assert state.stock_left == 120 - 8 * n


@pytest.mark.parametrize("n", [1, 7])
def test_player_count_is_two_to_six(n: int) -> None:
    with pytest.raises(RulesError, match="2 to 6"):
        CEKI.new_state(players=n, seed=1)


def test_deal_is_two_cards_at_a_time_clockwise_from_the_dealers_left() -> None:
    order = [k for k in range(N_KINDS) for _ in range(4)]
    state = CEKI.new_state(players=3, shoe=order, first=1)
    # packets of two: seat 1 gets cards 0-1, seat 2 cards 2-3, seat 0 (the dealer) 4-5, ...
    expected: dict[int, list[int]] = {0: [], 1: [], 2: []}
    i = 0
    for _ in range(4):
        for s in (1, 2, 0):
            expected[s] += order[i : i + 2]
            i += 2
    for s in range(3):
        assert parse_cards(" ".join(_codes(state.hands[s]))) == sorted(expected[s])
    assert state.current == 1
    assert state.stock[0] == order[24]


def _codes(hand: list[int]) -> list[str]:
    from cherki.core.cards import cards_of, format_cards

    return format_cards(cards_of(hand)).split()


# -- sets [003] -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hand", "honours", "group"),
    [
        ("C9 S9 M9 C8 S8 M8 C7 S7", "own", 6),  # couple of 7s (mixed suits count)
        ("C7 M7 M7 C3 S3 M3 WF WF", "own", 9),  # couple of White Flowers
        ("WF RF OT C1 S1 M1 C2 C2", "own", -1),  # honours do not set with 1s or each other
        ("WF RF OT C1 S1 M1 C2 C2", "rank1", 1),  # ... unless honours join the 1s
        ("C3 S3 M3 C3 S3 C9 S9 M9", "own", 2),  # five 3s: a set and a couple
        ("C9 S9 M9 C8 S8 M8 C7 S6", "own", -1),  # no couple
    ],
)
def test_two_sets_and_a_couple(hand: str, honours: str, group: int) -> None:
    from cherki.core.cards import parse_hand

    assert couple_group(parse_hand(hand), GROUPINGS[honours]) == group


# -- scoring: set values and the three kinds of win [003] ----------------------------------
@pytest.mark.parametrize(
    ("hand", "win_card", "base", "options"),
    [
        (NINES, "M7", 72, {}),  # 27 + 24 + 21
        ("WF WF WF RF RF RF OT OT", "OT", 9, {}),  # honours are worth 1: 3 a set
        ("C1 S1 M1 WF RF RF C2 C2", "S2", 3 + 3 + 6, {"honours": "rank1"}),
        ("C5 C5 S5 S5 M5 C1 S1 M1", "M5", 15 + 15 + 3, {}),  # five 5s laid face down
        ("C9 S9 M9 C9 S9 M9 C2 M2", "S2", 27 + 27 + 6, {}),
    ],
)
def test_triple_win_self_drawn_scores_three_times_the_sets(
    hand: str, win_card: str, base: int, options: dict[str, Any]
) -> None:
    state = stacked([hand, JUNK], win_card, **options)
    play(state, "0: ceki", "0: draw", "0: win")
    res = state.result
    assert res.winner == 0 and res.how == "triple"
    assert res.total == base * 3
    assert res.items[-1].multiplier == 3
    assert sum(i.points for i in res.items) == base
    assert res.payments == (base * 3, -base * 3)
    assert res.money == (base * 30, -base * 30)
    assert detail(res)["scores"] == [base * 3, 0]


def test_plain_win_previous_player_threw_the_drawn_card_straight_away() -> None:
    state = stacked([NINES, JUNK], "C1 C7")
    play(state, "0: ceki", "0: draw", "0: discard C1", "1: draw", "1: discard C7", "0: win")
    res = state.result
    assert (res.winner, res.how, res.total) == (0, "plain", 72)
    assert res.payments == (72, -72)
    assert detail(res)["from_seat"] == 1
    assert all(i.multiplier == 1 for i in res.items)


def test_double_win_previous_player_discarded_a_card_he_held() -> None:
    state = stacked([NINES, "M7 S2 M3 C4 S5 M6 WF RF"], "C1 C2")
    play(state, "0: ceki", "0: draw", "0: discard C1", "1: draw", "1: discard M7", "0: win")
    res = state.result
    assert (res.winner, res.how, res.total) == (0, "double", 144)
    assert res.payments == (144, -144)


def test_double_win_when_the_card_was_dealt_and_kept_after_taking_a_discard() -> None:
    state = stacked([NINES, "M7 S2 M3 C4 S5 M6 WF RF"], "C1")
    play(state, "0: ceki", "0: draw", "0: discard C1", "1: take", "1: discard M7", "0: win")
    assert state.result.how == "double"


def test_each_opponent_pays_the_full_amount_or_shares_it() -> None:
    hands = [NINES, JUNK, JUNK2]
    state = stacked(hands, "M7")
    play(state, "0: ceki", "0: draw", "0: win")
    assert state.result.payments == (432, -216, -216)
    state = stacked(hands, "M7", payment="total")
    play(state, "0: ceki", "0: draw", "0: win")
    assert state.result.payments == (216, -108, -108)
    state = stacked([NINES, JUNK, JUNK2, "C3 C3 S4 M5 S6 S7 S8 M1"], "M7", payment="total")
    play(state, "0: ceki", "0: draw", "0: win")
    assert state.result.payments == (216, -72, -72, -72)
    assert sum(state.result.money) == 0


def test_match_settlements_keep_money_until_the_end() -> None:
    state = stacked([NINES, JUNK], "M7", settlement="target")
    play(state, "0: ceki", "0: draw", "0: win")
    assert state.result.money == (0, 0)
    assert state.result.payments == (216, -216)
    # the match the settlement fixes (decided by cherki.play.match.Match: tests/test_match_tie.py)
    game = find_game("ceki")
    assert game.match_plan(CekiRules(settlement="target", target_points=200)) == (None, 200)
    assert game.match_plan(CekiRules(settlement="hands", match_hands=3)) == (3, None)
    assert game.match_plan(CekiRules()) == (None, None)


# -- calling ceki [003] ---------------------------------------------------------------------
def test_calling_lays_the_couple_face_down_hidden_from_others() -> None:
    state = stacked([NINES, JUNK], "C1")
    play(state, "0: ceki")
    mine, theirs = state.observation(0), state.observation(1)
    assert mine.laid == tuple(parse_cards_counts("C7 S7"))
    assert theirs.called == (True, False) and theirs.laid_count == (2, 0)
    assert not any(theirs.laid)
    assert "called ceki, 2 cards face down" in table_text(theirs, CEKI)


def test_a_sampled_deal_keeps_what_callers_laid_face_down() -> None:
    state = stacked([NINES, JUNK], "C1")
    play(state, "0: ceki", "0: draw", "0: discard C1")
    theirs = state.observation(1)
    for seed in range(20):
        world = state.game.determinize(theirs, random.Random(seed))
        assert world.observation(1) == theirs
        laid = world.laid[0]
        assert sum(laid) == 2 and all(world.hands[0][k] >= c for k, c in enumerate(laid))


def test_the_public_view_hides_cards_laid_face_down_and_a_stock_draw() -> None:
    # what a spectator is sent: seat 0's couple face down, its draw and where it came from,
    # and whether seat 1's take was of a card thrown straight are no part of it
    state = stacked([NINES, JUNK], "C1 C2")
    play(state, "0: ceki")
    pub = state.public_observation()
    assert pub.seat == -1 and not any(pub.hand) and not any(pub.laid) and pub.legal == ()
    assert pub.called == (True, False) and pub.laid_count == (2, 0)  # the count is public
    data = pub.to_json()
    assert state.observation(0).to_json()["laid"] == ["C7", "S7"]
    assert (data["seat"], data["hand"], data["laid"], data["legal"]) == (None, [], [], [])
    assert '"C7"' not in json.dumps(data) and '"S7"' not in json.dumps(data)
    play(state, "0: draw")  # C1 from the pile: seen by seat 0 alone
    data = state.public_observation().to_json()
    assert state.observation(0).to_json()["drawn"] == "C1"
    assert (data["drawn"], data["drawn_from"]) == (None, "none")
    assert '"C1"' not in json.dumps(data)
    play(state, "0: discard C1", "1: take")  # thrown straight, then taken: both public
    pub = state.public_observation()
    assert state.observation(1).taken_straight and not pub.taken_straight
    assert pub.exposed[1] == tuple(parse_cards_counts("C1")) and pub.drawn is None
    data = pub.to_json()
    assert data["exposed"] == [[], ["C1"]] and data["drawn_from"] == "none"
    assert data["taken_straight"] is False and data["laid"] == []


def parse_cards_counts(text: str) -> list[int]:
    from cherki.core.cards import parse_hand

    return parse_hand(text)


def test_a_set_of_the_couples_value_lays_all_five_face_down() -> None:
    state = stacked(["C3 S3 M3 C3 S3 C9 S9 M9", JUNK], "C1 C2")
    play(state, "0: draw", "0: discard C1 ceki")
    assert state.observation(1).laid_count == (5, 0)
    assert state.observation(0).laid == tuple(parse_cards_counts("C3 S3 M3 C3 S3"))


def test_call_with_a_discard() -> None:
    state = stacked(["C9 S9 M9 C8 S8 M8 C7 WF", JUNK], "S7")
    play(state, "0: draw")
    legal = {CEKI.action_text(a) for a in state.legal_actions()}
    assert "discard WF ceki" in legal and "discard C9 ceki" not in legal
    play(state, "0: discard WF ceki")
    assert state.called[0] and state.called_at[0] == 1


def test_after_calling_the_hand_is_frozen() -> None:
    state = stacked([NINES, JUNK], "C1 C2")
    play(state, "0: ceki", "0: draw")
    assert [CEKI.action_text(a) for a in state.legal_actions()] == ["discard C1"]
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="may change nothing: discard the card you drew"):
        state.apply("discard C9")
    assert snapshot(state) == before


def test_a_caller_takes_a_discard_only_to_win() -> None:
    state = stacked([NINES, JUNK], "C1 C2")
    play(state, "0: ceki", "0: draw", "0: discard C1", "1: draw", "1: discard C2")
    assert state.legal_actions() == [DRAW]
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="only to win"):
        state.apply("take")
    assert snapshot(state) == before


@pytest.mark.parametrize(("must_call", "can_win"), [(True, False), (False, True)])
def test_must_call_before_winning(must_call: bool, can_win: bool) -> None:
    state = stacked([NINES, JUNK], "M7", must_call_to_win=must_call)
    play(state, "0: draw")
    assert (WIN in state.legal_actions()) == can_win
    if not can_win:
        before = snapshot(state)
        with pytest.raises(IllegalActionError, match="must call ceki"):
            state.apply("win")
        assert snapshot(state) == before
    else:
        play(state, "0: win")
        assert state.result.how == "triple" and not detail(state.result)["called"]


def test_dealt_hand_may_call_at_the_start_of_the_turn() -> None:
    state = stacked([JUNK, NINES], "C1 C2")
    assert CALL not in state.legal_actions()
    play(state, "0: draw", "0: discard C1")
    assert CALL in state.legal_actions()


# -- turns ----------------------------------------------------------------------------------
def test_first_player_cannot_take_and_draws() -> None:
    state = stacked([JUNK, JUNK2], "C1")
    assert state.legal_actions() == [DRAW]
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="no discard to take"):
        state.apply("take")
    assert snapshot(state) == before


def test_drawn_card_may_be_kept_or_discarded_straight_away() -> None:
    state = stacked([JUNK, JUNK2], "M9")
    play(state, "0: draw")
    legal = {CEKI.action_text(a) for a in state.legal_actions()}
    assert {"discard M9", "discard C1"} <= legal
    play(state, "0: discard C1")
    assert sum(state.hands[0]) == 8 and state.hands[0][parse_card("M9")] == 1
    assert not state.top_straight


def test_taken_card_may_not_be_thrown_back() -> None:
    state = stacked([JUNK, JUNK2], "C3")
    play(state, "0: draw", "0: discard C3", "1: take")
    assert state.exposed[1][parse_card("C3")] == 1
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="took C3 from the discards"):
        state.apply("discard C3")
    assert snapshot(state) == before
    assert TAKE not in state.legal_actions()


@pytest.mark.parametrize(
    ("moves", "bad", "message"),
    [
        ([], "discard C1", "first draw from the pile or take"),
        (["0: draw"], "draw", "already drawn this turn"),
        (["0: draw"], "discard M9", "no M9 to discard"),
        (["0: draw"], "discard C1 ceki", "not two sets and a"),
        ([], "win", "no discard to win with"),
        ([], "ceki", "not two sets of three and a couple"),
        (["0: draw"], "win", "must call ceki"),
    ],
)
def test_illegal_actions_explain_and_leave_the_state(
    moves: list[str], bad: str, message: str
) -> None:
    state = stacked([JUNK, JUNK2], "C9")
    play(state, *moves)
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=message):
        state.apply(bad)
    assert snapshot(state) == before


def test_out_of_turn_and_after_the_end() -> None:
    state = stacked([NINES, JUNK], "M7")
    with pytest.raises(IllegalActionError, match="not seat 1's turn"):
        state.apply("draw", seat=1)
    play(state, "0: ceki", "0: draw", "0: win")
    with pytest.raises(IllegalActionError, match="hand is over"):
        state.apply("draw")


# -- the pile running out (our specification) -----------------------------------------------
def _draw_and_throw_until_end(state: CekiState, keep: dict[int, str] | None = None) -> None:
    keep = keep or {}
    while not state.is_terminal:
        s = state.current
        if WIN in state.legal_actions():
            state.apply("win")
            break
        state.apply("draw")
        k = state.drawn
        if s in keep and state.stock_left == 0:
            state.apply(f"discard {keep[s]}")
        else:
            state.apply(f"discard {card_name(k)}")


def test_pile_out_ends_with_no_winner() -> None:
    state = stacked([JUNK, JUNK2], "")
    _draw_and_throw_until_end(state)
    res = state.result
    assert res.winner is None and res.how == "pile-out"
    assert res.payments == (0, 0) and res.money == (0, 0)
    assert state.stock_left == 0


def test_last_discard_may_still_win_after_the_pile_is_empty() -> None:
    # the stock's tail is filled in kind order: the last card is the one OT left
    state = stacked(["C9 S9 M9 C8 S8 M8 OT OT", "OT C2 M3 C4 S5 M6 WF RF"], "")
    play(state, "0: ceki")
    _draw_and_throw_until_end(state)
    res = state.result
    assert state.stock_left == 0
    assert (res.winner, res.how, res.total) == (0, "plain", 27 + 24 + 3)


def test_next_first_rotates_or_follows_the_winner() -> None:
    for option, expected in (("rotate", 0), ("winner", 2)):
        state = stacked([JUNK, NINES, JUNK2], "C1 M7", first=2, next_dealer=option)
        play(state, "2: draw", "2: discard C1", "0: draw", "0: discard M7", "1: ceki", "1: win")
        assert state.result.how == "plain"
        assert state.next_first() == expected
    state = stacked([JUNK, JUNK2], "", first=1, next_dealer="winner")
    _draw_and_throw_until_end(state)
    assert state.next_first() == 1


# -- notation -------------------------------------------------------------------------------
def test_every_action_round_trips() -> None:
    for a in range(NUM_ACTIONS):
        assert CEKI.parse_action(CEKI.action_text(a)) == a
    assert CEKI.parse_action("Discard m7 CEKI") == CEKI.parse_action("discard M7 ceki")


@pytest.mark.parametrize("text", ["discard ZZ", "discard M7 tan", "sampei", "", "take M7"])
def test_bad_notation(text: str) -> None:
    with pytest.raises(NotationError):
        CEKI.parse_action(text)


def test_bad_stack_and_rules() -> None:
    with pytest.raises(RulesError, match="7 cards, not 8"):
        stacked(["C1 C2 C3 C4 C5 C6 C7", JUNK])
    with pytest.raises(RulesError, match="payment"):
        CEKI.rules(None, payment="half")
    assert CEKI.find_preset("target").rules.settlement == "target"


# -- properties over random games -----------------------------------------------------------
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    n=st.integers(2, 6),
    level=st.sampled_from(["random", "heuristic"]),
    must_call=st.booleans(),
    stacked_deal=st.booleans(),
)
def test_random_games_keep_the_contract_and_score_as_the_rules_say(
    seed: int, n: int, level: str, must_call: bool, stacked_deal: bool
) -> None:
    """The conformance suite's checks at every step, over Ceki's options and deals."""
    rules = CEKI.rules(None, must_call_to_win=must_call)
    if stacked_deal:
        rng = random.Random(seed)
        shoe = [k for k in range(N_KINDS) for _ in range(4)]
        rng.shuffle(shoe)
        hands = [shoe[8 * i : 8 * i + 8] for i in range(n)]
        state = CEKI.new_state(rules, n, stack=(hands, shoe[8 * n : 8 * n + 5]), seed=seed)
    else:
        state = CEKI.new_state(rules, n, seed=seed, first=seed % n)
    check_hand(state, seed, "random", skill=0.0 if level == "random" else 0.7)
    res = state.result
    assert sum(res.money) == 0
    assert 0 <= state.next_first() < n
    if res.winner is not None:
        assert res.total == detail(res)["base"] * detail(res)["multiplier"]


def test_heuristic_bot_avoids_handing_a_caller_a_double_win() -> None:
    bot = make_bot("ceki", "heuristic")
    doubles = wins = 0
    for seed in range(60):
        state = CEKI.new_state(None, 4, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            state.apply(bot.act(state.observation(state.current), rng))
        if state.result.winner is not None:
            wins += 1
            doubles += state.result.how == "double"
    assert wins > 40 and doubles <= wins // 5


#: nine cards of few ranks (couples are common among them), or of any
NINE = st.lists(st.sampled_from([0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 28, 29]), min_size=9,
                max_size=9) | st.lists(st.integers(0, 29), min_size=9, max_size=9)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(cards=NINE, honours=st.sampled_from(sorted(GROUPINGS)))
def test_couple_discards_are_the_discards_that_leave_a_couple(
    cards: list[int], honours: str
) -> None:
    """The legal-action listing's one-count shortcut agrees with trying each discard."""
    from cherki.games.ceki.rules import couple_discards, couple_group

    grouping = GROUPINGS[honours]
    hand = [cards.count(k) for k in range(30)]
    want = set()
    for k in range(30):
        if hand[k]:
            hand[k] -= 1
            if couple_group(hand, grouping) >= 0:
                want.add(grouping[k])
            hand[k] += 1
    assert couple_discards(hand, grouping) == want
