"""One test (or table) per rule and option of Balik Satu / Balik Lima Belas (games/balik.py).

Seats are numbered in playing order (seat i+1 sits on seat i's right). Most tests deal a
stacked shoe: the hands in seat order (the starter holds 15) and the top of the stock.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from conftest import JUNK, JUNK2, LIMA, SATU, detail, play, snapshot, stacked

from cherki.core.cards import parse_card, parse_hand
from cherki.core.errors import IllegalActionError, NotationError, RulesError
from cherki.games.sets.actions import CALL_CEKI, DISCARD, DRAW, NUM_ACTIONS, PASS, SAMPEI, TAKE
from cherki.games.sets.balik import BalikGame, BalikRules
from cherki.ui.table import hint_lines
from cherki.ui.text import Voice, event_line

#: The source's example hand (ceki, waits on M8) plus a ninth to call on.
CEKI14 = "S2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 M8 M8"
CEKI15 = CEKI14 + " C9"
#: A mata (M2) and an open pair of 8s: tan, any 8 wins.
TAN14 = "M2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 C8 M8"
TAN15 = TAN14 + " C9"
#: A winning hand (kandang tangan when dealt to the starter).
WIN15 = TAN14 + " S8"
#: Five sets of three with no mata: never a win.
NO_MATA15 = "C2 S2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 C8 S8 M8"


def names(state: Any, seat: int | None = None) -> list[str]:
    return [state.game.action_text(a) for a in state.legal_actions(seat)]


def k(code: str) -> int:
    return parse_card(code)


# -- rules errors ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "message"),
    [
        # Balik Satu's scoring is its own: another game's options are refused by name
        ({"scoring": "lima"}, "balik-satu has no rule option 'scoring'; its options: shoe_table"),
        ({"chiqui": "true"}, "balik-satu has no rule option 'chiqui'"),
        ({"partnerships": True, "olo_points": 99}, "balik-satu has no rule option"),
        ({"shoe_table": "hoyle"}, "option shoe_table cannot be 'hoyle'"),
        ({"deal": "fan"}, "option deal cannot be 'fan'"),
        ({"honours": "jokers"}, "option honours cannot be 'jokers'"),
        ({"yeo_cards": "all"}, "option yeo_cards cannot be 'all'"),
        ({"caller_changes": "any"}, "option caller_changes cannot be 'any'"),
        ({"claim_priority": "loudest"}, "option claim_priority cannot be 'loudest'"),
        ({"next_starter": "loser"}, "option next_starter cannot be 'loser'"),
        ({"ayam_bonus": -1}, "option ayam_bonus cannot be negative"),
        ({"kandang_bonus": "-2"}, "option kandang_bonus cannot be negative"),
        ({"cents_per_point": -5}, "option cents_per_point cannot be negative"),
        ({"kandang_tangan_multiplier": 0}, "kandang_tangan_multiplier must be at least 1"),
        ({"half_packs": 0}, "half_packs must be from 1 to 40"),
        ({"half_packs": 41}, "half_packs must be from 1 to 40"),
        ({"half_packs": "many"}, "option half_packs takes a whole number"),
        ({"kena": "maybe"}, "option kena takes true or false"),
        ({"ayam_bonus": "ten"}, "option ayam_bonus takes a whole number"),
        ({"jokers": True}, "no rule option 'jokers'"),
    ],
)
def test_bad_options_raise_rules_error(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        SATU.rules(**options)


def test_options_are_coerced_from_text() -> None:
    r = SATU.rules(
        "babas", kena="off", ayam_bonus="7", half_packs="auto", **{"must-call-to-win": "yes"}
    )
    assert r.kena is False and r.ayam_bonus == 7 and r.half_packs is None
    assert r.must_call_to_win is True
    assert SATU.rules(half_packs="9").half_packs == 9


def test_unknown_preset() -> None:
    with pytest.raises(RulesError, match="no preset 'hoyle': choose one of pwee, babas, gateway"):
        SATU.rules("hoyle")


@pytest.mark.parametrize("players", [0, 1, 21])
def test_player_counts(players: int) -> None:
    with pytest.raises(RulesError, match=f"played by 2 to 20 players, not {players}"):
        SATU.new_state(SATU.rules(), players, seed=1)


def test_too_small_a_shoe_and_a_bad_starter() -> None:
    with pytest.raises(RulesError, match="too few for 2 players"):
        SATU.new_state(SATU.rules(half_packs=1), 2, seed=1)
    with pytest.raises(RulesError, match="too few"):  # 60 cards: 29 dealt, 15 kept, 1 to play
        SATU.new_state(LIMA.rules(half_packs=1), 2, seed=1)
    SATU.new_state(LIMA.rules(half_packs=2), 2, seed=1)  # 60 = 29 + 15 + 16: playable
    with pytest.raises(RulesError, match="first player must be a seat from 0 to 1"):
        SATU.new_state(SATU.rules(), 2, seed=1, first=2)


def test_presets() -> None:
    pwee, babas, gateway = (SATU.rules(p) for p in ("pwee", "babas", "gateway"))
    assert (pwee.ayam_bonus, pwee.kandang_bonus, pwee.tan_bonus, pwee.cents_per_point) == (
        10, 20, 1, 10)  # fmt: skip
    assert (babas.ayam_bonus, babas.kandang_bonus, babas.tan_bonus, babas.cents_per_point) == (
        5, 10, 0, 5)  # fmt: skip
    assert (gateway.ayam_bonus, gateway.kandang_bonus, gateway.tan_bonus) == (1, 2, 0)
    assert SATU.rules() == pwee == BalikRules()
    for p in ("pwee", "babas", "gateway"):
        lb = LIMA.rules(p)
        sat = SATU.rules(p)
        assert lb.scoring == "lima-belas"
        assert (lb.ayam_bonus, lb.kandang_bonus) == (sat.ayam_bonus, sat.kandang_bonus)
        assert lb.reserve == 15 and sat.reserve == 1


# -- action notation ---------------------------------------------------------------------------
def test_action_notation_round_trips() -> None:
    for a in range(NUM_ACTIONS):
        text = SATU.action_text(a)
        assert SATU.parse_action(text) == a
        assert SATU.parse_action(text.upper()) == a
    assert SATU.parse_action("sampei!") == SAMPEI
    assert SATU.action_text(CALL_CEKI + k("M8")) == "discard M8 ceki"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("jump", "'jump' is not a Balik Satu action"),
        ("discard", "is not a Balik Satu action"),
        ("discard M8 sampei", "can call 'tan' or 'ceki', not 'sampei'"),
        ("discard Q8", "'Q8' is not a card"),
        ("discard M8 tan now", "is not a Balik Satu action"),
    ],
)
def test_bad_action_notation(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        SATU.parse_action(text)
    with pytest.raises(NotationError):
        SATU.action_text(NUM_ACTIONS)


# -- turns [R-TURN] ----------------------------------------------------------------------------
@pytest.mark.parametrize("first", [0, 1, 2])
def test_play_goes_anticlockwise_from_the_starter(first: int) -> None:
    st = SATU.new_state(SATU.rules(), 3, seed=5, first=first)
    seen = []
    assert st.phase_name == "discard"  # the starter opens by discarding
    for _ in range(7):
        seen.append(st.current)
        if st.phase_name == "draw":
            st.apply("draw")
        k0 = next(a for a in st.legal_actions() if a >= DISCARD)
        st.apply(k0)
    assert seen == [(first + i) % 3 for i in range(7)]


def test_take_the_last_discard() -> None:
    st = stacked(SATU, [CEKI15, JUNK], stock="C4")
    play(st, "0: discard M7")
    assert names(st) == ["take", "draw"]
    obs = st.observation(1)
    assert obs.top == k("M7") and obs.pile == (k("M7"),)
    ev = play(st, "1: take")
    assert [(e.kind, e.seat, e.card) for e in ev] == [("take", 1, k("M7"))]
    assert st.hands[1][k("M7")] == 1
    assert st.observation(0).exposed[1][k("M7")] == 1  # a taken card is public
    assert st.observation(0).pile == () and st.observation(0).top is None
    assert st.observation(1).stock_left == len(st.stock) - 1  # the stock was not touched
    play(st, "1: discard C1")
    play(st, "0: draw")
    assert st.hands[0][k("C4")] == 1


def test_draw_takes_the_top_of_the_stock() -> None:
    st = stacked(SATU, [CEKI15, JUNK], stock="OT RF")
    play(st, "0: discard C9", "1: draw")
    assert st.hands[1][k("OT")] == 1
    assert st.observation(1).drawn == k("OT")
    assert st.observation(0).drawn is None
    assert names(st)[0] == "discard C1"
    play(st, "1: discard OT")
    assert names(st) == ["take", "draw"]
    play(st, "0: take")
    assert st.hands[0][k("OT")] == 1


# -- winning [R-WIN] ---------------------------------------------------------------------------
def test_a_stock_draw_completing_the_hand_may_win() -> None:
    st = stacked(SATU, [JUNK + " M9", TAN14], stock="S8 C5")
    play(st, "0: discard M9", "1: draw")
    assert "sampei" in names(st)
    play(st, "1: sampei")
    assert st.result.winner == 1 and st.result.how == "self-draw"


def test_the_winning_card_must_come_from_the_stock_not_a_discard() -> None:
    st = stacked(SATU, [JUNK + " S8", TAN14], stock="C5")
    play(st, "0: discard S8", "1: take")
    assert st.hands[1] == parse_hand(WIN15)  # the hand is complete...
    assert "sampei" not in names(st)  # ...but it may not win on a discard
    before = snapshot(st)
    with pytest.raises(IllegalActionError, match="must come from the stock, never from a discard"):
        st.apply("sampei")
    assert snapshot(st) == before


def test_a_win_needs_at_least_one_mata() -> None:
    st = stacked(SATU, [JUNK + " M9", "C2 S2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 C8 M8"], stock="S8")
    play(st, "0: discard M9", "1: draw")
    assert st.hands[1] == parse_hand(NO_MATA15)
    assert "sampei" not in names(st)
    with pytest.raises(IllegalActionError, match="five sets of three with at least one mata"):
        st.apply("sampei")


# -- calling [R-CALL] --------------------------------------------------------------------------
def test_call_actions_are_offered_only_with_the_right_word() -> None:
    ceki = stacked(SATU, [CEKI15, JUNK])
    assert [n for n in names(ceki) if n.endswith(("tan", "ceki"))] == ["discard C9 ceki"]
    tan = stacked(SATU, [TAN15, JUNK])
    assert [n for n in names(tan) if n.endswith(("tan", "ceki"))] == ["discard C9 tan"]
    junk = stacked(SATU, [JUNK + " M9", JUNK2])
    assert not [n for n in names(junk) if n.endswith(("tan", "ceki"))]


@pytest.mark.parametrize(
    ("hand", "action", "message"),
    [
        (CEKI15, "discard C9 tan", "your call is ceki, not tan"),
        (TAN15, "discard C9 ceki", "your call is tan, not ceki"),
        (CEKI15, "discard M8 ceki", "not four sets and a card from winning, so you cannot call"),
        (JUNK + " M9", "discard M9 tan", "cannot call"),
        (CEKI15, "discard OT", "you have no OT to discard"),
    ],
)
def test_illegal_calls_and_discards(hand: str, action: str, message: str) -> None:
    st = stacked(SATU, [hand, JUNK2])
    before = snapshot(st)
    with pytest.raises(IllegalActionError, match=message):
        st.apply(action)
    assert snapshot(st) == before


def test_calling_is_announced_and_public() -> None:
    st = stacked(SATU, [CEKI15, JUNK])
    ev = play(st, "0: discard C9 ceki")
    assert [(e.kind, e.seat, e.call, e.changed) for e in ev] == [
        ("discard", 0, None, False),
        ("call", 0, "ceki", False),
    ]
    assert event_line(ev[1], SATU, Voice.of(None, 2)) == "Seat 0 calls ceki!"
    assert event_line(ev[1], SATU, Voice.of(None, 2, 0)) == "You call ceki!"
    assert st.observation(1).calls == ("ceki", None)
    assert st.wait_sets[0] == frozenset({k("M8")})


def test_a_waiting_player_need_not_call_and_may_call_later() -> None:
    st = stacked(SATU, [JUNK + " M9", TAN14], stock="C9 C4")
    play(st, "0: discard M9", "1: draw")
    assert "discard C9 tan" in names(st)
    play(st, "1: discard C9")  # no call this time
    assert st.calls == [None, None]
    play(st, "0: draw", "0: discard C4", "1: take")
    assert "discard C4 tan" in names(st)
    play(st, "1: discard C4 tan")
    assert st.calls == [None, "tan"]


def test_call_timing_any_lets_a_call_wait_a_turn() -> None:
    """Option call_timing=any (the default): "they can call on their next discard" [000]
    read as when a call is made, not as a deadline."""
    assert SATU.rules().call_timing == "any"
    st = stacked(SATU, [JUNK + " M9", TAN14], stock="C9 C4", call_timing="any")
    play(st, "0: discard M9", "1: draw", "1: discard C9")  # could call tan; does not
    play(st, "0: draw", "0: discard C4", "1: take")
    assert "discard C4 tan" in names(st)
    play(st, "1: discard C4 tan")
    assert st.calls == [None, "tan"]


def test_call_timing_next_calls_only_on_the_next_discard() -> None:
    """Option call_timing=next: [000] "once a player has formed four sets in their hand and
    only needs one card to win, they can 'call' on their next discard", strictly: a plain
    discard that keeps the hand a card from winning lets the chance pass."""
    st = stacked(SATU, [JUNK + " M9", TAN14], stock="C9 C4 C5 M2", call_timing="next")
    play(st, "0: discard M9", "1: draw")
    assert "discard C9 tan" in names(st)  # dealt a card from winning: the first discard
    play(st, "1: discard C9")  # lets it pass, the hand still a card from winning
    assert st.lapsed == [False, True]
    play(st, "0: draw", "0: discard C4", "1: take")
    assert [n for n in names(st) if n.endswith(("tan", "ceki"))] == []
    before = snapshot(st)
    with pytest.raises(IllegalActionError, match=r"call_timing=next.*let that discard pass"):
        st.apply("discard C4 tan")
    assert snapshot(st) == before
    # a discard that leaves the hand further from winning gives the next chance back
    play(st, "1: discard M2")  # M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 C4 C8 M8
    assert st.lapsed == [False, False]
    play(st, "0: draw", "0: discard C5", "1: draw")  # M2: four sets and a card again
    assert "discard C4 tan" in names(st)
    play(st, "1: discard C4 tan")
    assert st.calls == [None, "tan"]


def test_call_timing_next_calls_on_the_discard_that_makes_the_hand() -> None:
    st = stacked(SATU, [CEKI15, JUNK], call_timing="next")
    assert "discard C9 ceki" in names(st)
    play(st, "0: discard C9 ceki")
    assert st.calls == ["ceki", None] and st.lapsed == [False, False]


def test_call_timing_next_survives_clone_and_a_seats_own_sample() -> None:
    st = stacked(SATU, [JUNK + " M9", TAN14], stock="C9 C4", call_timing="next")
    play(st, "0: discard M9", "1: draw", "1: discard C9", "0: draw", "0: discard C4")
    assert st.clone().lapsed == [False, True]
    # the seat's own sample knows it let its chance pass; the other seat keeps its own
    sample = SATU.determinize(st.observation(1), random.Random(1))
    assert sample.lapsed[1] is True
    play(sample, "1: take")
    assert "discard C4 tan" not in names(sample)


# -- reveals [R-CLAIM] -------------------------------------------------------------------------
def test_draws_are_private_until_someone_calls_then_revealed() -> None:
    st = stacked(SATU, [CEKI15, JUNK], stock="OT RF C4")
    play(st, "0: discard C9")  # no call
    ev = play(st, "1: draw")
    assert [(e.kind, e.card, e.private_to) for e in ev] == [("draw", k("OT"), 1)]
    assert st.events_for(0)[-1].card is None
    assert st.events_for(1)[-1].card == k("OT")
    assert st.observation(0).exposed[1][k("OT")] == 0
    play(st, "1: discard C1")
    play(st, "0: draw", "0: discard RF ceki")
    ev = play(st, "1: draw")
    assert [(e.kind, e.card, e.private_to) for e in ev] == [("reveal", k("C4"), -1)]
    assert st.events_for(0)[-1].card == k("C4")
    assert st.observation(0).exposed[1][k("C4")] == 1  # a shown draw is public knowledge


# -- the public view (what a spectator sees) ----------------------------------------------------
def test_the_public_view_shows_taken_discards_and_shown_draws_never_a_private_draw() -> None:
    st = stacked(SATU, [CEKI15, JUNK], stock="OT RF")
    play(st, "0: discard C9", "1: draw")  # OT: seen by seat 1 alone
    pub = st.public_observation()
    assert (pub.seat, pub.legal, pub.drawn, pub.drawn_from) == (-1, (), None, 0)
    assert not any(pub.hand) and pub.exposed[1][k("OT")] == 0
    assert st.observation(1).to_json()["drawn"] == "OT"
    data = pub.to_json()
    assert (data["seat"], data["hand"], data["legal"]) == (None, [], [])
    assert (data["drawn"], data["drawn_from"]) == (None, "none")
    assert '"OT"' not in json.dumps(data)
    play(st, "1: discard C1", "0: take")  # a discard taken: public
    pub = st.public_observation()
    assert pub.exposed[0][k("C1")] == 1 and pub.drawn is None
    assert st.observation(0).to_json()["drawn_from"] == "discard"
    play(st, "0: discard C1 ceki", "1: draw")  # a call stands: RF is shown to all
    pub = st.public_observation()
    assert pub.exposed[1][k("RF")] == 1 and pub.drawn is None
    assert pub.to_json()["exposed"][1] == ["RF"]


# -- claims ------------------------------------------------------------------------------------
def test_a_caller_claims_a_revealed_winning_card() -> None:
    st = stacked(SATU, [CEKI15, JUNK], stock="M8 C5")
    play(st, "0: discard C9 ceki", "1: draw")
    assert st.current == 0 and st.phase_name == "claim"
    assert names(st) == ["sampei", "pass"]
    assert st.observation(1).claim_card == k("M8")
    assert st.observation(1).legal == ()
    assert st.legal_actions(1) == []
    ev = play(st, "0: sampei")
    assert ev[0].kind == "sampei" and ev[0].card == k("M8") and ev[0].seat == 0
    assert st.result.winner == 0 and st.result.how == "claim"
    assert detail(st.result)["from_seat"] == 1


def test_passing_gives_the_card_to_the_drawer() -> None:
    st = stacked(SATU, [CEKI15, JUNK], stock="M8 C5")
    play(st, "0: discard C9 ceki", "1: draw", "0: pass")
    assert st.current == 1 and st.phase_name == "discard"
    assert st.hands[1][k("M8")] == 1 and st.observation(0).exposed[1][k("M8")] == 1
    assert "sampei" not in names(st)
    play(st, "1: discard M8")
    assert st.current == 0 and names(st) == ["take", "draw"]
    play(st, "0: take")  # taking the discarded winning card cannot win
    assert "sampei" not in names(st)


THREE = [JUNK + " M9", CEKI14, "C2 S2 S2 C4 S4 M4 C5 S5 M5 C7 C7 M7 M8 M8"]
#: seat 2 calls ceki first, then seat 1; then seat 0 draws the M8 both wait on
THREE_MOVES = (
    "0: discard M9", "1: draw", "1: discard C9", "2: draw", "2: discard C9 ceki",
    "0: draw", "0: discard S9", "1: draw", "1: discard C9 ceki", "2: draw", "2: discard S9",
    "0: draw",
)  # fmt: skip
THREE_STOCK = "C9 C9 S9 C9 S9 M8 C5"


@pytest.mark.parametrize(("priority", "order"), [("turn-order", [1, 2]), ("first-caller", [2, 1])])
def test_claim_priority(priority: str, order: list[int]) -> None:
    st = stacked(SATU, THREE, stock=THREE_STOCK, claim_priority=priority)
    play(st, *THREE_MOVES)
    assert st.calls == [None, "ceki", "ceki"]
    assert st.phase_name == "claim" and st.claimants == order
    assert st.current == order[0]
    play(st, f"{order[0]}: pass")
    assert st.current == order[1]
    play(st, f"{order[1]}: sampei")
    assert st.result.winner == order[1]
    assert st.result.how == "claim" and detail(st.result)["from_seat"] == 0


def test_all_claimants_pass() -> None:
    st = stacked(SATU, THREE, stock=THREE_STOCK)
    play(st, *THREE_MOVES, "1: pass", "2: pass")
    assert st.current == 0 and st.phase_name == "discard"
    assert st.hands[0][k("M8")] == 1


def test_the_drawer_comes_first_then_the_callers() -> None:
    # seat 1 waits on M8 without calling; seat 0 called ceki on M8; seat 1 draws M8
    other = "C2 S2 S2 C4 S4 M4 C5 S5 M5 C7 C7 M7 M8 M8"
    st = stacked(SATU, [CEKI15, other], stock="M8 C5")
    play(st, "0: discard C9 ceki", "1: draw")
    assert st.claimants == [1, 0] and st.current == 1
    play(st, "1: sampei")
    assert st.result.winner == 1 and st.result.how == "self-draw"
    # or the drawer passes and the caller claims
    st = stacked(SATU, [CEKI15, other], stock="M8 C5")
    play(st, "0: discard C9 ceki", "1: draw", "1: pass")
    assert st.current == 0
    play(st, "0: sampei")
    assert st.result.winner == 0 and st.result.how == "claim"


def test_only_callers_claim() -> None:
    # seat 1 waits on M8 but has not called: a revealed M8 drawn by seat 0 is not theirs
    other = "C2 S2 S2 C4 S4 M4 C5 S5 M5 C7 C7 M7 M8 M8"
    st = stacked(SATU, [TAN15, other], stock="C4 M8 C5")
    play(st, "0: discard C9 tan", "1: draw", "1: discard C4", "0: draw")
    assert st.phase_name == "discard" and st.current == 0  # seat 0 drew M8: its own win
    assert "sampei" in names(st)


# -- changing after a call [R-CHANGE] ----------------------------------------------------------
def _tan_caller_draws(draw: str, **options: Any) -> Any:
    st = stacked(SATU, [TAN15, JUNK2], stock=f"C4 {draw}", **options)
    play(st, "0: discard C9 tan", "1: draw", "1: discard C4", "0: draw")
    assert st.current == 0 and st.phase_name == "discard"
    return st


@pytest.mark.parametrize(
    ("mode", "draw", "allowed"),
    [
        # C3 gives C3 C3 S3 M3: discarding S3 or M3 still waits, but gains no mata
        ("mata-only", "C3", ["discard C3"]),
        ("free", "C3", ["discard C3", "discard S3", "discard M3"]),
        ("none", "C3", ["discard C3"]),
        # S7 gives S7 S7 S7 M7: discarding M7 turns the mixed set into a mata
        ("mata-only", "S7", ["discard S7", "discard M7"]),
        ("free", "S7", ["discard S7", "discard M7"]),
        ("none", "S7", ["discard S7"]),
    ],
)
def test_caller_changes(mode: str, draw: str, allowed: list[str]) -> None:
    st = _tan_caller_draws(draw, caller_changes=mode)
    assert sorted(names(st)) == sorted(allowed)
    before = snapshot(st)
    with pytest.raises(IllegalActionError, match="you have called tan"):
        st.apply("discard C6")
    assert snapshot(st) == before


def test_a_ceki_caller_who_makes_a_mata_may_change_to_tan() -> None:
    st = stacked(SATU, [CEKI15, JUNK], stock="C4 M2 C8 C5")
    play(st, "0: discard C9 ceki", "1: draw", "1: discard C4", "0: draw")
    # [000]: "they *can* change their call to tan": keep ceki (discard S2) or change
    assert sorted(names(st)) == ["discard M2", "discard S2", "discard S2 tan"]
    with pytest.raises(IllegalActionError, match="you have called ceki"):
        st.apply("discard C3")
    ev = play(st, "0: discard S2 tan")
    assert ev[1].kind == "call" and ev[1].call == "tan" and ev[1].changed
    assert event_line(ev[1], SATU, Voice.of(None, 2)) == "Seat 0 changes the call to tan"
    assert st.calls[0] == "tan" and st.call_changed[0]
    assert st.observation(1).call_changed == (True, False)
    assert st.wait_sets[0] == frozenset({k("C8"), k("S8"), k("M8")})
    play(st, "1: draw")  # C8: now a winning card for the tan call
    assert st.phase_name == "claim" and st.current == 0


def test_a_ceki_caller_who_makes_a_mata_may_keep_ceki_and_waits_on_the_mata_card() -> None:
    """Keeping ceki after making a mata keeps its promise: only a card that completes a mata
    (M8 to the pair M8 M8) wins, and such a win is a ceki win (ayam / kandang)."""
    st = stacked(SATU, [CEKI15, JUNK], stock="C4 M2 C8 C5 C4 M8 C7")
    play(st, "0: discard C9 ceki", "1: draw", "1: discard C4", "0: draw")
    hints = [line.plain for line in hint_lines(SATU, st.observation(0))]
    assert "Discard S2 keeping ceki, waiting on M8 (3 unseen) — 3 live cards" in hints
    ev = play(st, "0: discard S2")
    hints = [line.plain for line in hint_lines(SATU, st.observation(0))]
    assert "Your ceki call waits on M8 (3 unseen) — 3 live cards" in hints
    assert [e.kind for e in ev] == ["discard"]  # no call event: the call stands
    assert st.calls[0] == "ceki" and not st.call_changed[0]
    assert st.wait_sets[0] == frozenset({k("M8")})
    play(st, "1: draw")  # C8 would win for tan, not for the ceki kept
    assert st.phase_name == "discard" and st.current == 1
    play(st, "1: discard C8", "0: draw")  # C5 revealed, discarded
    assert names(st) == ["discard C5"]
    play(st, "0: discard C5", "1: draw", "1: discard C4", "0: draw")  # M8: the mata
    assert "sampei" in names(st)
    play(st, "0: sampei")
    r = st.result
    assert r.how == "self-draw" and r.win is not None
    labels = [i.kind for i in r.items]
    assert "kandang" in labels and detail(r)["call"] == "ceki"
    # the seat that kept ceki never self-wins on the tan card either
    own = stacked(SATU, [CEKI15, JUNK], stock="C4 M2 C4 C8 C5")
    play(own, "0: discard C9 ceki", "1: draw", "1: discard C4", "0: draw", "0: discard S2")
    play(own, "1: draw", "1: discard C4", "0: draw")
    assert names(own) == ["discard C8"]


def test_the_kept_ceki_rule_is_the_games_and_the_bots_read_it() -> None:
    """A ceki kept after making a mata waits only on a card that completes a mata: stated
    once (``kept_ceki_waits``), the state's wait, the search model's and the hints agree."""
    from cherki.bots.race import Solitaire
    from cherki.games.sets.calls import call_wait, kept_ceki_waits

    hand = parse_hand("C1 C1 C1 C2 C2 C2 C3 C3 C3 M8 M8 C8 S7 S7")  # mata held: a tan hand
    tan = call_wait("tan", hand, SATU.rules())
    assert tan.call == "tan" and tan.cards == (k("C7"), k("S7"), k("M7"))
    assert kept_ceki_waits(tan.cards, hand, 3) == (k("S7"),)  # S7 S7 S7: the mata
    kept = call_wait("ceki", hand, SATU.rules())
    assert kept.call == "ceki" and kept.cards == (k("S7"),)
    st = SATU.new_state(seed=1)
    assert Solitaire(st.observation(0)).call_wait("ceki", hand) == kept


def test_caller_changes_none_freezes_the_hand_even_for_a_mata() -> None:
    st = stacked(SATU, [CEKI15, JUNK], stock="C4 M2", caller_changes="none")
    play(st, "0: discard C9 ceki", "1: draw", "1: discard C4", "0: draw")
    assert names(st) == ["discard M2"]
    with pytest.raises(IllegalActionError, match="only discard the card you just drew"):
        st.apply("discard S2 tan")


# -- options: must_call_to_win, kandang tangan -------------------------------------------------
@pytest.mark.parametrize("must", [False, True])
def test_must_call_to_win(must: bool) -> None:
    st = stacked(SATU, [JUNK + " M9", TAN14], stock="S8", must_call_to_win=must)
    play(st, "0: discard M9", "1: draw")
    assert ("sampei" in names(st)) is not must
    if must:
        before = snapshot(st)
        with pytest.raises(IllegalActionError, match="must call tan or ceki before you can win"):
            st.apply("sampei")
        assert snapshot(st) == before
    # once called, the same draw wins
    st = stacked(SATU, [JUNK + " M9", TAN14], stock="C9 C4 S8", must_call_to_win=must)
    play(st, "0: discard M9", "1: draw", "1: discard C9 tan", "0: draw", "0: discard C4", "1: draw")
    assert "sampei" in names(st)


@pytest.mark.parametrize("allowed", [True, False])
def test_kandang_tangan(allowed: bool) -> None:
    st = stacked(SATU, [WIN15, JUNK], stock="C5", kandang_tangan=allowed)
    assert ("sampei" in names(st)) is allowed
    if allowed:
        play(st, "0: sampei")
        assert st.result.how == "kandang-tangan" and st.result.winner == 0
    else:
        with pytest.raises(IllegalActionError, match="cannot win now"):
            st.apply("sampei")


def test_kandang_tangan_only_at_the_first_turn_and_needs_a_mata() -> None:
    st = stacked(SATU, [WIN15, JUNK], stock="C4")
    play(st, "0: discard S8")
    assert st.self_win_ok is False
    assert "sampei" not in names(stacked(SATU, [NO_MATA15, JUNK]))


# -- yeo [R-YEO] -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("turned", "yeo_cards", "yeo"),
    [
        ("C1", "one-point", True), ("S1", "one-point", True), ("M1", "one-point", True),
        ("WF", "one-point", True), ("RF", "one-point", False), ("OT", "one-point", False),
        ("C2", "one-point", False), ("S9", "one-point", False),
        ("C1", "suited", True), ("WF", "suited", False), ("RF", "suited", False),
        ("WF", "rank1", True), ("RF", "rank1", True), ("OT", "rank1", True),
        ("M1", "rank1", True), ("C2", "rank1", False),
    ],
)  # fmt: skip
def test_yeo_cards(turned: str, yeo_cards: str, yeo: bool) -> None:
    st = stacked(SATU, [WIN15, JUNK], stock=turned, yeo_cards=yeo_cards)
    play(st, "0: sampei")
    r = st.result
    assert r.redeal is yeo
    assert (r.how == "yeo") is yeo
    assert (r.winner is None) is yeo
    if yeo:
        assert r.payments == (0, 0) and r.money == (0, 0) and r.total == 0
        assert detail(r)["would_be_winner"] == 0
        assert st.next_first() == 0  # the same starter deals again


@pytest.mark.parametrize("turned", ["C1", "S1", "M1", "WF"])
def test_no_yeo_redeal(turned: str) -> None:
    st = stacked(SATU, [WIN15, JUNK], stock=turned, yeo_redeal=False)
    play(st, "0: sampei")
    assert st.result.winner == 0 and not st.result.redeal
    assert st.result.items[0].points == 1


# -- the stock running out ---------------------------------------------------------------------
@pytest.mark.parametrize("game", [SATU, LIMA])
def test_stock_running_out_ends_the_hand_without_a_winner(game: BalikGame) -> None:
    half = 2 if game is SATU else 3
    st = stacked(game, [JUNK + " M9", JUNK2], half_packs=half, seed=4)
    live = st.observation(0).stock_left
    assert live == half * 30 - 29 - st.rules.reserve
    play(st, "0: discard M9")
    turns = 0
    while not st.is_terminal:
        st.apply("draw")
        st.apply(DISCARD + st.observation(st.current).drawn)
        turns += 1
    assert turns == live
    assert st.pos == len(st.stock) - st.rules.reserve  # the reserve is never played
    r = st.result
    assert (r.winner, r.how, r.payments, r.money) == (None, "stock-out", (0, 0), (0, 0))
    assert st.next_first() == 0
    with pytest.raises(IllegalActionError, match="the hand is over: no more actions"):
        st.apply("draw")


# -- next starter ------------------------------------------------------------------------------
@pytest.mark.parametrize(("option", "expected"), [("winner", 2), ("next", 1)])
def test_next_first(option: str, expected: int) -> None:
    st = stacked(SATU, [JUNK + " M9", JUNK2, TAN14], stock="C4 S8 C5", next_starter=option)
    with pytest.raises(IllegalActionError, match="the hand is not over yet"):
        _ = st.result
    with pytest.raises(IllegalActionError):
        st.next_first()
    play(st, "0: discard M9", "1: draw", "1: discard C4", "2: draw", "2: sampei")
    assert st.result.winner == 2
    assert st.next_first() == expected


# -- illegal actions leave the state untouched -------------------------------------------------
def _claiming() -> Any:
    st = stacked(SATU, [CEKI15, JUNK], stock="M8 C5")
    play(st, "0: discard C9 ceki", "1: draw")
    return st


def _seat1_to_draw() -> Any:
    st = stacked(SATU, [CEKI15, JUNK], stock="C4 C5")
    play(st, "0: discard C9")
    return st


def _seat1_drew() -> Any:
    st = _seat1_to_draw()
    play(st, "1: draw")
    return st


def _over() -> Any:
    st = stacked(SATU, [WIN15, JUNK], stock="C5")
    play(st, "0: sampei")
    return st


@pytest.mark.parametrize(
    ("setup", "action", "seat", "error", "message"),
    [
        (_seat1_to_draw, "draw", 0, IllegalActionError, "not seat 0's turn: seat 1 is to take"),
        (_seat1_to_draw, "draw", 7, IllegalActionError, "there is no seat 7 at a table of 2"),
        (_seat1_to_draw, "discard C1", 1, IllegalActionError, "first take the last discard"),
        (_seat1_to_draw, "pass", 1, IllegalActionError, "nothing to pass on"),
        (_seat1_to_draw, "sampei", 1, IllegalActionError, "first take the last discard"),
        (_seat1_to_draw, "discard Q1", 1, NotationError, "'Q1' is not a card"),
        (_seat1_drew, "draw", 1, IllegalActionError, "you have already drawn this turn"),
        (_seat1_drew, "take", 1, IllegalActionError, "you have already drawn this turn"),
        (_seat1_drew, "discard M9", 1, IllegalActionError, "you have no M9 to discard"),
        (_seat1_drew, "sampei", 1, IllegalActionError, "not five sets of three"),
        (_seat1_drew, "discard C1", 0, IllegalActionError, "seat 1 is to discard"),
        (_claiming, "discard M8", 0, IllegalActionError, "M8 was just shown and would win for you"),
        (_claiming, "draw", 0, IllegalActionError, "say sampei to claim it or pass"),
        (_claiming, "pass", 1, IllegalActionError, "seat 0 is to claim or pass"),
        (_over, "draw", 1, IllegalActionError, "the hand is over"),
        (_over, "sampei", 0, IllegalActionError, "the hand is over"),
    ],
)  # fmt: skip
def test_illegal_actions_explain_and_change_nothing(
    setup: Any, action: str, seat: int, error: type, message: str
) -> None:
    st = setup()
    before = snapshot(st)
    legal_before = [st.legal_actions(s) for s in range(st.n)]
    with pytest.raises(error, match=message):
        st.apply(action, seat=seat)
    assert snapshot(st) == before
    assert [st.legal_actions(s) for s in range(st.n)] == legal_before


def test_action_ids_are_accepted_too() -> None:
    st = _seat1_to_draw()
    st.apply(DRAW, seat=1)
    with pytest.raises(IllegalActionError):
        st.apply(TAKE)
    assert PASS not in st.legal_actions()


def test_legal_actions_are_empty_for_other_seats_and_after_the_end() -> None:
    st = _seat1_to_draw()
    assert st.legal_actions(0) == [] and st.legal_actions(1) == [TAKE, DRAW]
    assert st.observation(0).legal == ()
    st = _over()
    assert st.legal_actions() == [] and st.current == -1
    assert st.observation(0).phase == "over"


def test_the_hint_of_a_caller_lists_only_the_exchanges_the_rules_allow() -> None:
    from cherki.ui.table import hint_lines

    st = stacked(SATU, [CEKI15, JUNK], stock="C4 M2 C8 C5")
    play(st, "0: discard C9 ceki", "1: draw", "1: discard C4", "0: draw")
    lines = [line.plain for line in hint_lines(SATU, st.observation(0))]
    assert "You have called ceki." in lines
    offered = [line for line in lines if line.startswith("Discard ")]
    assert offered and all(line.startswith(("Discard M2", "Discard S2")) for line in offered)
    assert any("heuristic bot would play: discard" in line for line in lines)
