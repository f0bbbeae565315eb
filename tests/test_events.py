"""Events, results and deal records as values: the shared events of :func:`event` under both
of its keys, and the slot-set ``__init__`` of the engine's frozen dataclasses
(:func:`cherki.core.events.slot_init`)."""

from __future__ import annotations

import copy
import itertools
import pickle

import pytest

from cherki.core import events
from cherki.core.deal import DealInfo, DealRequest
from cherki.core.events import Event, EventKind, Result, ScoreItem, event

#: seats, cards and ``private_to`` at and past the edges of the packed number (8 bits each):
#: -1 and None, 0, the last packed values and the first that are not
SEATS = (-1, 0, 3, 253, 254, 255, 300)
CARDS = (None, -1, 0, 29, 253, 254, 255, 300)
PRIVATE = (-1, 0, 3, 253, 254, 300)


@pytest.mark.parametrize("number_keys", [False, True])
def test_event_gives_the_event_of_its_fields_once_made_then_shared(
    number_keys: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pure Python reads the flag at each call: both keys are checked here (a compiled build
    # takes the number key whatever the flag, and is checked the same way)
    monkeypatch.setattr(events, "_NUMBER_KEYS", number_keys)
    made: dict[tuple[object, ...], Event] = {}
    kinds = (EventKind.DRAW, EventKind.DISCARD, EventKind.END)
    for kind, seat, card, private_to, straight in itertools.product(
        kinds, SEATS, CARDS, PRIVATE, (False, True)
    ):
        e = event(kind, seat, card, private_to, straight)
        assert e == Event(kind, seat, card, private_to, straight=straight)
        assert event(kind, seat, card, private_to, straight) is e
        made[(kind, seat, card, private_to, straight)] = e
    # no two different field values share an event (the packed number is one-to-one)
    assert len({id(e) for e in made.values()}) == len(made)


def test_event_with_more_fields_is_made_and_shared_by_all_of_them() -> None:
    call = event(EventKind.CALL, 2, call="tan", changed=True)
    assert call == Event(EventKind.CALL, 2, call="tan", changed=True)
    assert event(EventKind.CALL, 2, call="tan", changed=True) is call
    assert event(EventKind.CALL, 2, call="tan") is not call
    deal = event(EventKind.DEAL, 0, number=40)
    assert deal.number == 40 and event(EventKind.DEAL, 0, number=41).number == 41


def test_slot_init_gives_a_factory_field_a_fresh_value_as_the_generated_init() -> None:
    a, b = Result(None, "stock-out"), Result(None, "stock-out")
    assert a.detail == {} and a.detail is not b.detail
    assert a == b
    full = Result(
        1,
        "self-draw",
        (ScoreItem("mata", 2, count=2),),
        2,
        (6, -2, -2, -2),
        (12, -4, -4, -4),
        detail={"mata": 2},
    )
    assert full.items[0].count == 2 and full.detail == {"mata": 2} and full.winner == 1
    assert Result(winner=1, how="x", total=3) == Result(1, "x", (), 3)
    with pytest.raises(TypeError):
        Result(1)  # type: ignore[call-arg]


def test_results_and_deal_records_copy_and_pickle_to_equal_values() -> None:
    values: list[object] = [
        Result(0, "claim", (ScoreItem("metu", 1),), 1, (3, -1, -1, -1), detail={"win": "metu"}),
        DealInfo(2, 17, None, None, {"pot": 4}),
        DealRequest(seed=5, first=1),
    ]
    for value in values:
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.copy(value) == value
        assert copy.deepcopy(value) == value
