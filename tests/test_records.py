"""Game records: round trips of seed, shoe and stacked deals; malformed records rejected."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import JUNK, LIMA, SATU, play, stacked

from cherki.core.cards import card_name
from cherki.core.deal import shoe_cards
from cherki.core.errors import RecordError
from cherki.games.sets.actions import SAMPEI
from cherki.games.sets.state import SetsState
from cherki.play.records import (
    FORMAT,
    VERSION,
    Record,
    hand_record,
    load_record,
    new_record,
    parse_record,
    replay_hand,
    replay_steps,
)

CEKI15 = "S2 M2 M2 C3 S3 M3 C6 S6 M6 S7 S7 M7 M8 M8 C9"


def finish(state: SetsState, seed: int) -> SetsState:
    """Play on to the end: win when possible, call when possible, else random."""
    rng = random.Random(seed)
    while not state.is_terminal:
        legal = state.legal_actions()
        calls = [a for a in legal if state.game.action_text(a).endswith(("tan", "ceki"))]
        if SAMPEI in legal:
            state.apply(SAMPEI)
        elif calls:
            state.apply(calls[0])
        else:
            state.apply(rng.choice(legal))
    return state


def record_of(*states: SetsState, preset: str | None = "babas") -> Record:
    st0 = states[0]
    rec = new_record(st0.game, st0.rules, [f"P{i}" for i in range(st0.n)], preset=preset)
    for st in states:
        rec.hands.append(hand_record(st))
    return rec


def seeded() -> SetsState:
    return finish(SATU.new_state(SATU.rules("babas", honours="frames"), 3, seed=7, first=1), 1)


def shoe_dealt() -> SetsState:
    rules = SATU.rules("babas", deal="wash")
    return finish(SATU.new_state(rules, 3, rng=random.Random(5), first=2), 2)


def stack_dealt() -> SetsState:
    st = stacked(SATU, [CEKI15, JUNK], stock="M8 C5", rules="babas")
    play(st, "0: discard C9 ceki", "1: draw", "0: sampei")
    return st


# -- round trips -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("make", "key"), [(seeded, "seed"), (shoe_dealt, "shoe"), (stack_dealt, "stack")]
)
def test_round_trip(make: Any, key: str, tmp_path: Path) -> None:
    st = make()
    rec = record_of(st)
    data = json.loads(rec.dumps())
    assert data["format"] == FORMAT and data["version"] == VERSION
    assert data["game"] == "balik-satu" and data["preset"] == "babas"
    hand = data["hands"][0]
    assert key in hand
    assert hand["actions"] == st.action_texts()
    assert hand["result"] == st.result.to_json()
    if key == "shoe":
        assert len(hand["shoe"]) == 150 and all(isinstance(c, str) for c in hand["shoe"])
    if key == "stack":
        assert hand["stack"]["hands"][0] == CEKI15.split()
        assert hand["stack"]["stock"] == ["M8", "C5"]
    again = parse_record(rec.dumps())
    assert again.rules == st.rules and again.players == rec.players
    replayed = replay_hand(again)
    assert replayed.result == st.result
    assert replayed.history == st.history
    assert again.dumps() == rec.dumps()
    path = tmp_path / "hand.json"
    rec.save(path)
    assert replay_hand(load_record(path)).result == st.result


def test_several_hands_and_steps() -> None:
    a, b = stack_dealt(), finish(SATU.new_state(SATU.rules("babas"), 2, seed=3, first=1), 3)
    rec = parse_record(record_of(a, b).dumps())
    assert len(rec.hands) == 2
    assert replay_hand(rec, 0).result == a.result
    assert replay_hand(rec, 1).result == b.result
    steps = list(replay_steps(rec, 0))
    assert [text for _, text, _ in steps] == ["0: discard C9 ceki", "1: draw", "0: sampei"]
    assert steps[1][2][0].kind == "reveal"


def test_lima_belas_record() -> None:
    st = finish(LIMA.new_state(LIMA.rules("gateway"), 4, seed=9), 9)
    rec = parse_record(record_of(st, preset="gateway").dumps())
    assert rec.game is LIMA
    assert replay_hand(rec).result == st.result


def test_players_as_a_number_and_no_result() -> None:
    data = base()
    data["players"] = 2
    del data["hands"][0]["result"]
    data["hands"][0]["actions"] = data["hands"][0]["actions"][:2]
    rec = parse_record(json.dumps(data))
    assert rec.players == ["Seat 0", "Seat 1"]
    st = replay_hand(rec)
    assert not st.is_terminal and st.phase_name == "claim"


def test_actions_without_seats_and_decoded_objects() -> None:
    data = base()
    data["hands"][0]["actions"] = ["discard C9 ceki", "draw", "sampei"]
    assert replay_hand(parse_record(data)).result.winner == 0


# -- malformed records -------------------------------------------------------------------------
def base() -> dict[str, Any]:
    return json.loads(record_of(stack_dealt()).dumps())


def rejected(data: Any) -> str:
    """The RecordError message for a record read and replayed."""
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(RecordError) as info:
        rec = parse_record(text)
        for i in range(len(rec.hands)):
            replay_hand(rec, i)
    return str(info.value)


def edit(path: list[Any], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(base())
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


DELETE = object()
H = ["hands", 0]


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (["format"], "chess-pgn", '"format" must be "cherki-record", found \'chess-pgn\''),
        (["format"], DELETE, '"format" must be "cherki-record", found None'),
        (["version"], 2, '"version" 2 is not supported'),
        (["game"], DELETE, 'the record has no "game"'),
        (["game"], 5, '"game" must be str'),
        (["game"], "mahjong", "\"game\": there is no game 'mahjong'"),
        (["preset"], "hoyle", "\"rules\": balik-satu has no preset 'hoyle'"),
        (["preset"], 3, '"preset" must be text or null'),
        (["rules"], [], '"rules" must be an object'),
        (["rules", "honours"], "jokers", '"rules": option honours cannot be \'jokers\''),
        (["rules", "ayam_bonus"], "lots", '"rules": option ayam_bonus takes a whole number'),
        (["rules", "half_packs"], "lots", '"rules": option half_packs takes a whole number'),
        (["rules", "jokers"], 1, "\"rules\": balik-satu has no rule option 'jokers'"),
        (["players"], "two", '"players" must be a number or a list of names'),
        (["players"], ["solo"], '"players": Balik Satu is played by 2 to 20 players, not 1'),
        (["hands"], [], '"hands" must be a non-empty list'),
        ([*H], "hand", "hand 1 must be an object"),
        ([*H, "first"], 2, 'hand 1: "first" must be a seat from 0 to 1'),
        ([*H, "first"], True, 'hand 1: "first" must be a seat'),
        ([*H, "seed"], "seven", 'hand 1: "seed" must be a whole number'),
        ([*H, "stack"], DELETE, 'hand 1: give a "seed", a "shoe" or a "stack"'),
        ([*H, "stack"], ["C1"], 'hand 1: "stack" must be {"hands": [...], "stock": [...]}'),
        ([*H, "stack", "hands", 1, 0], "X1", "hand 1: stack hand 1: 'X1' is not a card"),
        ([*H, "stack", "stock"], ["M8", 5], 'hand 1: stack "stock" must be a list of card codes'),
        ([*H, "stack", "hands", 0], CEKI15.split()[:-1], "hand 1: cannot set up the deal: "
         "seat 0's stacked hand has 14 cards, not 15"),
        ([*H, "stack", "stock"], ["M8"] * 5, "hand 1: cannot set up the deal: the stacked deal "
         "uses M8 more than the 4 times"),
        ([*H, "actions"], "draw", 'hand 1: "actions" must be a list of action texts'),
        ([*H, "actions", 1], "1: jump", "hand 1, action 2 ('1: jump'): 'jump' is not a"),
        ([*H, "actions", 1], "1: sampei", "hand 1, action 2 ('1: sampei'): first take"),
        ([*H, "actions", 1], "x: draw", "hand 1, action 2 ('x: draw'): the part before ':'"),
        ([*H, "actions", 1], "0: draw", "hand 1, action 2 ('0: draw'): the record says seat 0 "
         "but seat 1 is to act"),
        ([*H, "actions"], ["0: discard C9 ceki", "1: draw", "0: sampei", "1: draw"],
         "hand 1, action 4 ('1: draw'): the record says seat 1 but nobody (the hand is over) "
         "is to act"),
        ([*H, "actions"], ["0: discard C9 ceki", "1: draw", "0: sampei", "draw"],
         "hand 1, action 4 ('draw'): the hand is over: no more actions"),
        ([*H, "result"], "won", 'hand 1: "result" must be an object'),
        ([*H, "result", "total"], 99,
         "hand 1: replaying gives a different result (total: recorded 99, replayed 11)"),
    ],
)  # fmt: skip
def test_malformed_records(path: list[Any], value: Any, message: str) -> None:
    msg = rejected(edit(path, value))
    assert message in msg, msg


def test_passing_changes_the_result() -> None:
    data = edit([*H, "actions", 2], "0: pass")
    assert "its actions stop before the hand is over" in rejected(data)
    # with check=False the shortened hand replays to where it stops
    st = replay_hand(parse_record(data), check=False)
    assert st.current == 1 and st.phase_name == "discard"


def test_result_needs_the_whole_hand() -> None:
    data = base()
    data["hands"][0]["actions"] = data["hands"][0]["actions"][:2]
    assert "the record stores a result but its actions stop before the hand is over" in rejected(
        data
    )


def test_not_json_and_not_an_object() -> None:
    assert rejected("{ nope").startswith("not JSON: ")
    assert "line 1, column 3" in rejected("{ nope")
    assert rejected("[1, 2]") == "a record must be a JSON object"


def test_bad_shoe_records() -> None:
    order = ["C1", "S1", "M1"] * 40  # 120 cards, wrong counts
    data = base()
    del data["hands"][0]["stack"]
    data["hands"][0]["shoe"] = ["C1", "Z9"]
    assert "hand 1: \"shoe\": 'Z9' is not a card" in rejected(data)
    data["hands"][0]["shoe"] = order
    msg = rejected(data)
    assert msg.startswith("hand 1: cannot set up the deal: the shoe order must hold each card")
    data["hands"][0]["shoe"] = ["C1"] * 3
    assert "has 3 cards but 4 half-packs hold 120" in rejected(data)
    data["hands"][0]["shoe"] = [card_name(k) for k in shoe_cards(4)]
    data["hands"][0]["stack"] = {"hands": [], "stock": []}
    assert 'give a "shoe" or a "stack", not both' in rejected(data)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="no record file at"):
        load_record(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError, match="cannot read"):
        load_record(bad)


def test_a_hand_the_record_does_not_hold_is_a_clear_error() -> None:
    from cherki.games import find_game
    from cherki.play.records import new_record, replay_hand

    game = find_game("balik-satu")
    rec = new_record(game, game.rules(), ["a", "b", "c", "d"])
    with pytest.raises(RecordError, match="there is no hand 3: the record holds 0"):
        replay_hand(rec, 2)


# -- damaged records: one line each, fast, in bounded memory (toward issue 14) -----------------
def _record(**changes: object) -> str:
    base: dict[str, object] = {
        "format": "cherki-record",
        "version": 1,
        "game": "gonggong",
        "preset": "undhuh-undhuhan",
        "players": 4,
        "hands": [{"seed": 1, "actions": []}],
    }
    base.update(changes)
    return json.dumps(base)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_record(rules={"stake": 1e400}), "Infinity is not a number"),  # json writes inf so
        (_record(rules={"stake": 1.5}), "option stake takes a whole number"),
        (_record(rules={"scoring": ["umbuk"]}), "option scoring"),
        (_record(version=True), '"version" True is not supported'),
        (_record(players=1_000_000_000), '"players": Gonggong is played by 4 to 6 players'),
        (_record(hands=[{"seed": 1, "context": {"pot": "x"}}]), 'context "pot" must be'),
        (
            _record(
                game="chot", preset="pwee", hands=[{"seed": 1, "context": {"tokens": [1, "a"]}}]
            ),
            'context "tokens"',
        ),
        (
            _record(game="chot", preset="pwee", hands=[{"seed": 1, "context": {"bangkong": -1}}]),
            'context "bangkong" must be',
        ),
        (_record(hands=[{"seed": 1, "context": []}]), '"context" must be an object'),
        ('{"format": "cherki-record", "version": 1, "x": Infinity}', "Infinity is not a number"),
        ('{"format": "cherki-record", "version": 1, "x": NaN}', "NaN is not a number"),
        ('{"seed": ' + "9" * 5000 + "}", "not a record"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
)
def test_damaged_records_are_one_line_errors(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=re.escape(message)) as err:
        parse_record(text)
    assert "\n" not in str(err.value)


def test_record_files_are_read_in_bounded_memory(tmp_path: Path) -> None:
    from cherki.play import records

    with pytest.raises(RecordError, match="larger than"):
        old = records.MAX_RECORD_BYTES
        records.MAX_RECORD_BYTES = 1000
        try:
            load_record("/dev/zero")
        finally:
            records.MAX_RECORD_BYTES = old
    binary = tmp_path / "b.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError, match="not UTF-8 text"):
        load_record(binary)


def test_the_documented_example_is_what_the_engine_writes() -> None:
    """docs/records.md's complete example replays, and its stored result is the engine's."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "records.md").read_text()
    block = re.search(r"```json\n(\{\n  \"format\".*?)\n```", text, re.S)
    assert block is not None
    record = parse_record(block.group(1))
    state = replay_hand(record, 0)
    stored = json.loads(block.group(1))["hands"][0]["result"]
    assert state.result.to_json() == stored
    assert json.loads(record.dumps())["rules"] == json.loads(block.group(1))["rules"]
