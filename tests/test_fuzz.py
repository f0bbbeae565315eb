"""Fuzzed parsers: whatever the text or record, the only errors are cherki's own."""

from __future__ import annotations

import copy
import json
import os
import pickle
import random
import re
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cherki.core.cards import format_cards, parse_cards
from cherki.core.errors import CherkiError, NotationError, RecordError
from cherki.games import GAMES, find_game
from cherki.play.records import hand_record, new_record, parse_record, replay_hand


def _base_record() -> dict[str, Any]:
    game = find_game("gonggong")
    state = game.new_state(seed=1)
    rng = random.Random(0)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    rec = new_record(game, game.rules(), ["a", "b", "c", "d"])
    rec.hands.append(hand_record(state))
    return rec.to_json()


#: CHERKI_FUZZ_SCALE=N tries N times as many cases (a longer hunt than the suite's)
SCALE = int(os.environ.get("CHERKI_FUZZ_SCALE", "1"))
BASE = _base_record()
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=10,
)
PATHS = [
    ("game",), ("preset",), ("rules",), ("players",), ("hands",), ("version",),
    ("hands", 0), ("hands", 0, "seed"), ("hands", 0, "first"), ("hands", 0, "actions"),
    ("hands", 0, "shoe"), ("hands", 0, "stack"), ("hands", 0, "result"), ("hands", 0, "context"),
    ("rules", "half_packs"), ("rules", "honours"), ("rules", "stake"), ("hands", 0, "actions", 0),
]  # fmt: skip


@settings(max_examples=400 * SCALE, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(PATHS), value=JSON)
def test_a_damaged_record_is_a_record_error_or_replays(path: tuple[Any, ...], value: Any) -> None:
    data = copy.deepcopy(BASE)
    node: Any = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    try:
        record = parse_record(json.dumps(data))
        for i in range(len(record.hands)):
            replay_hand(record, i)
    except CherkiError:
        pass


@settings(max_examples=300 * SCALE, deadline=None)
@given(text=st.text(max_size=30), name=st.sampled_from(sorted(GAMES)))
def test_any_text_is_an_action_or_a_notation_error(text: str, name: str) -> None:
    game = find_game(name)
    try:
        action = game.parse_action(text)
    except NotationError:
        return
    assert game.parse_action(game.action_text(action)) == action


@settings(max_examples=300 * SCALE, deadline=None)
@given(text=st.text(max_size=30))
def test_any_text_is_cards_or_a_notation_error(text: str) -> None:
    try:
        cards = parse_cards(text)
    except NotationError:
        return
    assert parse_cards(format_cards(cards)) == cards


# -- hostile input to State.apply and State.observation (issue 14) -----------------------------
def _texts_of_every_game() -> list[str]:
    """Action notation of every game (so each game meets the others' actions)."""
    out: list[str] = []
    for name in sorted(GAMES):
        g = find_game(name)
        out += [g.action_text(a) for a in range(0, g.num_actions, max(1, g.num_actions // 40))]
    return out


OTHER_TEXTS = _texts_of_every_game()
MOST_ACTIONS = max(find_game(n).num_actions for n in GAMES)
HOSTILE_ACTIONS = st.one_of(
    st.integers(-3, MOST_ACTIONS + 3),  # ids of this game, illegal now, and of other games
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
    st.binary(max_size=3),
    st.lists(st.integers(0, 5), max_size=2),
    st.tuples(st.integers(0, 5)),
    st.complex_numbers(max_magnitude=10),
    st.text(max_size=12),
    st.sampled_from(OTHER_TEXTS),
    st.integers(-3, 300).map(str),  # "0": a string of an id is no notation
    st.integers(0, 40).map(np.int64),  # not exactly an int, though numpy's
)
HOSTILE_SEATS = st.one_of(
    st.none(),
    st.integers(-3, 16),
    st.booleans(),
    st.floats(),
    st.text(max_size=2),
    st.integers(0, 3).map(float),
    st.integers(0, 3).map(np.int64),
)


@settings(max_examples=300 * SCALE, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    name=st.sampled_from(sorted(GAMES)),
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 120),
    tries=st.lists(st.tuples(HOSTILE_ACTIONS, HOSTILE_SEATS), min_size=1, max_size=12),
)
def test_hostile_actions_leave_the_state_byte_identical(
    name: str, seed: int, steps: int, tries: list[tuple[Any, Any]]
) -> None:
    """Whatever is passed as an action and a seat, ``apply`` either plays a legal action of
    the seat to act or raises cherki's own one-line error with the state byte for byte as it
    was (pickled); and the hand can still be recorded and replayed."""
    game = find_game(name)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    for action, seat in tries:
        legal = state.legal_actions()
        to_act = state.current
        before = pickle.dumps(state)
        try:
            state.apply(action, seat)
        except CherkiError as err:
            assert "\n" not in str(err)
            assert pickle.dumps(state) == before, (action, seat)
            continue
        # it went through: it must have been a legal action of the seat to act
        assert seat is None or (type(seat) is int and seat == to_act), (action, seat)
        if isinstance(action, str):
            assert game.parse_action(action) in legal
        else:
            assert type(action) is int and action in legal, (action, seat)
    for seat in (-1, state.n, True, 1.0, None, "0"):
        with pytest.raises(CherkiError):
            state.observation(seat)  # type: ignore[arg-type]
    rec = new_record(game, game.rules(), [f"p{i}" for i in range(state.n)])
    rec.hands.append(hand_record(state, result=state.is_terminal))
    again = parse_record(json.dumps(rec.to_json()))
    assert replay_hand(again, 0).history == state.history


# -- damaged records (issue 14) ----------------------------------------------------------------
def _finished_records() -> dict[str, str]:
    """A finished hand of every game, as record text."""
    out = {}
    for name in sorted(GAMES):
        game = find_game(name)
        state = game.new_state(seed=5)
        rng = random.Random(5)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        rec = new_record(game, game.rules(), [f"p{i}" for i in range(state.n)])
        rec.hands.append(hand_record(state))
        out[name] = json.dumps(rec.to_json())
    return out


RECORDS = _finished_records()
HUGE = ["1e400", "-1e400", "Infinity", "-Infinity", "NaN", "9" * 5000, "-" + "9" * 5000,
        "1.5", "-0", "0.0", "true", "null", '"7"', "[]", "{}", "[" * 5000 + "]" * 5000]  # fmt: skip
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def _read(text: str) -> None:
    """Read a record and replay every hand: fine, or a one-line RecordError-like error."""
    try:
        record = parse_record(text)
        for i in range(len(record.hands)):
            replay_hand(record, i)
    except CherkiError as err:
        assert "\n" not in str(err), str(err)


@settings(max_examples=300 * SCALE, deadline=None)
@given(name=st.sampled_from(sorted(GAMES)), cut=st.floats(0, 1, exclude_max=True))
def test_a_truncated_record_is_a_one_line_error(name: str, cut: float) -> None:
    text = RECORDS[name]
    with pytest.raises(RecordError) as err:
        parse_record(text[: int(len(text) * cut)])
    assert "\n" not in str(err.value)


@settings(max_examples=400 * SCALE, deadline=None)
@given(
    name=st.sampled_from(sorted(GAMES)), which=st.integers(0, 10_000), value=st.sampled_from(HUGE)
)
def test_any_number_of_a_record_swapped_for_a_huge_or_odd_one(
    name: str, which: int, value: str
) -> None:
    text = RECORDS[name]
    spots = list(NUMBER.finditer(text))
    m = spots[which % len(spots)]
    _read(text[: m.start()] + value + text[m.end() :])


@settings(max_examples=200 * SCALE, deadline=None)
@given(a=st.sampled_from(sorted(GAMES)), b=st.sampled_from(sorted(GAMES)))
def test_a_record_under_another_games_name(a: str, b: str) -> None:
    data = json.loads(RECORDS[a])
    data["game"] = b
    _read(json.dumps(data))
    del data["preset"]
    _read(json.dumps(data))


def test_deep_nesting_anywhere_in_a_record_is_refused() -> None:
    data = json.loads(RECORDS["balik-satu"])
    deep = "[" * 100_000 + "]" * 100_000
    for key in ("rules", "players", "hands"):
        text = json.dumps({**data, key: "HOLE"}).replace('"HOLE"', deep)
        with pytest.raises(RecordError, match="nested too deeply"):
            parse_record(text)
