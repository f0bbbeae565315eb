"""A table waits for its people (issue 39): stand-ins play for an away person while another
person is at the table; with none of them there, no hand is settled, and after the table's
``wait`` it pauses (no bot acts) until the first person is back."""

from __future__ import annotations

import random
import time

import pytest

from cherki.core.errors import CherkiError
from cherki.server.registry import Tables
from cherki.server.settings import DEFAULT_WAIT, SeatPlan, check_setting
from cherki.server.store import Store
from cherki.server.tables import Table

PEOPLE = [SeatPlan("human"), SeatPlan("human"), SeatPlan("bot", "heuristic")]


def _bots(table: Table) -> int:
    """Let the bots and stand-ins play until they stop; how many actions they made."""
    for made in range(3000):
        job = table._bot_job()
        if job is None:
            return made
        seat, bot, obs, seed, version = job
        table._bot_act(seat, bot.act(obs, random.Random(seed)), version)
    raise AssertionError("the bots did not stop")


def _table(store: Store, hands: int = 2) -> Table:
    tables = Tables(store)
    table_id, _, _ = tables.create("ceki", None, {}, PEOPLE, hands=hands)
    return tables.table(table_id)


def test_the_wait_is_a_setting_checked_in_words() -> None:
    assert check_setting("wait", 0) == 0 and check_setting("wait", 600) == 600
    for bad in (-1, 1.5, True, "3", 10**9):
        with pytest.raises(CherkiError):
            check_setting("wait", bad)
    assert 60 <= DEFAULT_WAIT <= 600  # a few minutes


def test_stand_ins_play_while_someone_is_here(store: Store) -> None:
    table = _table(store, hands=1)
    table.away.update({0, 1})
    table.left_at = None  # a person is at the table (their page open), both seats away
    assert not table.nobody_here()
    _bots(table)
    assert table.over  # the stand-ins played the match out


def test_nothing_is_settled_for_people_all_away_and_the_table_pauses(store: Store) -> None:
    table = _table(store)
    table.away.update({0, 1})  # both people's time ran out ...
    now = time.monotonic()
    table.left_at = now  # ... and their pages are closed
    assert table.nobody_here() and not table.paused(now)
    _bots(table)  # within the wait the stand-ins play the hand, but it is not scored
    state = table.session.state
    assert state is not None and state.is_terminal
    assert table.session.match.results == []  # nothing settled
    assert not table._bot_to_play()
    assert table.paused(now + table.wait)  # the wait is over: paused
    table._set({"wait": 0})
    assert table.paused() and _bots(table) == 0
    # the first person back: the hand is scored, the next one dealt, the bots go on
    table.left_at = None
    table._advance()
    assert len(table.session.match.results) == 1
    assert not table.paused() and table._bot_to_play() is not None


def test_a_table_without_people_never_pauses(store: Store) -> None:
    tables = Tables(store)
    table_id, _, _ = tables.create(
        "ceki", None, {}, [SeatPlan("human"), SeatPlan("bot", "random")], hands=1
    )
    table = tables.table(table_id)
    assert table.nobody_here()  # made, nobody has opened a link yet
    table.session.seats = [table.session.seats[1], table.session.seats[1]]
    assert not table.nobody_here() and not table.paused(time.monotonic() + 10**6)
