"""The server's JSON (issue 41's capacity): state messages are encoded with orjson, and they
say what :func:`json.dumps` (compact, non-ASCII as it is) said before, so that pages read
the same messages (the text differs only in how a float is spelt: ``1e-7`` for
``1e-07``); what orjson refuses falls back to :mod:`json`, text for text. The part of a state
message every reader shares is worked out once per change and each reader's message is
what it was alone."""

from __future__ import annotations

import json

import pytest

from cherki.server.messages import compact
from cherki.server.registry import Tables
from cherki.server.settings import SeatPlan
from cherki.server.store import Store

VALUES: list[object] = [
    {"type": "state", "names": ["Siti", "Bot 1 (heuristic)"], "version": 12, "over": False},
    {"text": "é ü 中 😄 \u2028 \u200f", "n": [0.8, 1e16, -0.5, 3.0, 1e-7], "none": None},
    "\x00events\x00",
    [True, False, [], {}, ""],
    # what orjson refuses: a lone surrogate, an integer past 64 bits, a key not a string
    "x\ud800y",
    {"seed": 2**70},
    {1: "one"},
]


@pytest.mark.parametrize("value", VALUES)
def test_compact_says_what_json_said(value: object) -> None:
    before = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    text = compact(value)
    assert json.loads(text) == json.loads(before)
    assert len(text) <= len(before)  # as compact
    if (isinstance(value, str) and "\ud800" in value) or value in ({"seed": 2**70}, {1: "one"}):
        assert text == before  # refused by orjson: json's own text


def test_each_readers_message_is_what_it_was_alone(store: Store) -> None:
    """Messages worked out together for every reader (:meth:`Views.texts`, sharing what
    they share) say what the same readers' messages worked out one at a time say,
    spectators' and other languages' included."""
    tables = Tables(store)
    people = [SeatPlan("human")] * 4
    table_id, _, _ = tables.create("balik-satu", None, {}, people, hands=3, pause=False)
    table = tables.table(table_id)
    table.left_at = None  # the people are at the table
    readers = {(0, "en"), (1, "ms"), (2, "id"), (None, "en"), (None, "ms")}
    for _ in range(12):
        session = table.session
        seat = session.to_act
        assert seat is not None and session.state is not None
        table._act(seat, session.state.legal_actions()[0], table.version)
        together = table.views.texts(100.0, readers)
        for who, lang in readers:
            alone = json.loads(table.views.text(who, 100.0, 0, lang))
            shared = json.loads(together[(who, lang)])
            assert alone["seat"] == who and alone["ui"]["status"]
            # the joint message holds the log from where the reader's last one left it
            for out in (alone, shared):
                del out["log_from"], out["events"], out["ui"]["log"]
            assert shared == alone, (who, lang)
