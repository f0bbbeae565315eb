"""Fuzzed parsers: whatever the text or record, the only errors are cherki's own."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cherki.core.cards import format_cards, parse_cards
from cherki.core.errors import CherkiError, NotationError
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


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
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


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=30), name=st.sampled_from(sorted(GAMES)))
def test_any_text_is_an_action_or_a_notation_error(text: str, name: str) -> None:
    game = find_game(name)
    try:
        action = game.parse_action(text)
    except NotationError:
        return
    assert game.parse_action(game.action_text(action)) == action


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=30))
def test_any_text_is_cards_or_a_notation_error(text: str) -> None:
    try:
        cards = parse_cards(text)
    except NotationError:
        return
    assert parse_cards(format_cards(cards)) == cards
