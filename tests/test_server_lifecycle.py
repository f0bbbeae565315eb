"""The family table's evening: another match at the same table (the people agree, or the
host decides) with the score sheet running on across matches and kept through a restart;
the pause after a hand until every person pressed "next hand"; the bots' pace; the table's
settings (hints, pace, pause, timer) chosen when it is made and changed by the host; a
stand-in bot's actions worded as the bot's, after a reload too; the lobby's list fresh."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from serverutil import next_settled

from cherki.play.records import parse_record, replay_hand
from cherki.server.app import create_app
from cherki.server.settings import check_setting, plays_for_money
from cherki.server.store import Store
from cherki.server.tables import Table

HEURISTIC = {"kind": "bot", "level": "heuristic"}
TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}, HEURISTIC]


@pytest.fixture
def opened() -> Iterator[Callable[..., TestClient]]:
    with ExitStack() as stack:

        def open_client(store: Store, **kw: Any) -> TestClient:
            kw.setdefault("rate", 1000)
            return stack.enter_context(TestClient(create_app(store, **kw)))

        yield open_client


def _table(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("game", "ceki")
    body.setdefault("seats", TWO_PEOPLE)
    body.setdefault("bot_pace", 0)
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _live(client: TestClient, table_id: str) -> Table:
    live: Table = client.app.state.tables.table(table_id)  # type: ignore[attr-defined]
    return live


def _settle(client: TestClient, table: Table) -> None:
    """Wait until the table's bots have played (nothing is timed: the bots' task ends)."""
    for _ in range(20_000):
        if (table.bots is None or table.bots.done()) and not table.lock.locked():
            return
        client.portal.call(asyncio.sleep, 0.005)  # type: ignore[union-attr]
    raise AssertionError("the bots did not finish")


def _move(table: Table, seat: int) -> int:
    """A person's move: go out when possible, else draw, else the last legal action."""
    state = table.session.state
    assert state is not None
    legal = state.observation(seat).to_json()["legal"]
    texts = {a["text"]: a["id"] for a in legal}
    return int(texts.get("sampei", texts.get("draw", legal[-1]["id"])))


def _play_until(client: TestClient, table: Table, done: Callable[[Table], bool]) -> None:
    """Play the people's seats through the table's own door until ``done``."""
    thinker = client.app.state.server.thinker  # type: ignore[attr-defined]
    for _ in range(3000):
        _settle(client, table)
        if done(table):
            return
        seat = table.session.to_act
        assert seat is not None, "the table waits for nobody to act"
        portal = client.portal
        assert portal is not None
        portal.call(table.act, seat, _move(table, seat), table.version, thinker)
    raise AssertionError("the match did not end")


def _receive_state(ws: Any) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "state":
            return msg


def _chat(ws: Any) -> dict[str, Any]:
    """The next chat line a connection is sent (state messages passed over)."""
    for _ in range(5000):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "chat" and msg["lines"]:
            line: dict[str, Any] = msg["lines"][-1]
            return line
    raise AssertionError("no chat line came")


def _until(ws: Any, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    for _ in range(5000):
        msg = _receive_state(ws)
        if check(msg):
            return msg
    raise AssertionError("no such message came")


# -- another match --------------------------------------------------------------------------
def test_two_people_agree_to_another_match_and_the_totals_run_on(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    data = _table(client, hands=1)
    table_id = data["table"]
    table = _live(client, table_id)
    _play_until(client, table, lambda t: t.over)
    first = table.session.match
    totals0, money0, version0 = list(first.totals), list(first.money), table.version
    a_token, b_token = data["seats"]["0"], data["seats"]["1"]
    with (
        client.websocket_connect(f"/ws/seat/{a_token}") as a,
        client.websocket_connect(f"/ws/seat/{b_token}") as b,
    ):
        msg = _receive_state(a)
        _receive_state(b)
        assert msg["over"] and msg["again"] == [] and msg["matches"]["number"] == 0
        a.send_json({"type": "chat", "text": "one more?"})
        said = _chat(b)
        assert (said["text"], said["match"], said["hand"]) == ("one more?", 0, 1)
        a.send_json({"type": "again"})
        msg = _receive_state(b)
        assert msg["over"] and msg["again"] == [0]  # one asked: the table waits for the other
        _receive_state(a)
        b.send_json({"type": "again"})
        msg = _until(b, lambda m: not m["over"])
        assert msg["matches"]["number"] == 1 and msg["again"] == []
        assert msg["matches"]["earlier"] == [{"totals": totals0, "money_cents": money0}]
        assert msg["version"] >= version0 and msg["hand_number"] == 0
        assert msg["names"] == table.session.names
        # a line said in the second match says so: pages place it after the first's lines
        b.send_json({"type": "chat", "text": "good luck"})
        said = _chat(a)
        assert (said["text"], said["match"], said["hand"]) == ("good luck", 1, 0)
        # the sheet runs on: this match's totals added to the first's
        _play_until(client, table, lambda t: len(t.session.match.results) >= 1 or t.over)
        now = table.running()
        assert now["totals"] == [
            x + y for x, y in zip(totals0, table.session.match.totals, strict=True)
        ]
    # the first match's replay still opens; the second's waits for its end
    assert client.get(f"/api/tables/{table_id}/replay?match=0").status_code == 200
    assert client.get(f"/api/tables/{table_id}/replay?match=5").status_code == 404
    record0 = store.record(table_id, 0)
    assert len(record0.hands) >= 1 and record0.hands[-1].result is not None
    for i in range(len(record0.hands)):
        replay_hand(record0, i)
    assert len(store.matches(table_id)) == 1


def test_the_running_total_survives_a_restart(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    data = _table(client, hands=1)
    table_id = data["table"]
    table = _live(client, table_id)
    _play_until(client, table, lambda t: t.over)
    totals0 = list(table.session.match.totals)
    host = data["host"]
    r = client.post(f"/api/host/{host}/again")
    assert r.status_code == 200 and r.json()["match"] == 1
    _settle(client, table)
    version = table.version
    # a second server on the same database: the table comes back in its second match
    again = Store(store.url)
    client2 = opened(again)
    with client2.websocket_connect(f"/ws/seat/{data['seats']['0']}?since=0") as ws:
        msg = _receive_state(ws)
    assert msg["matches"]["number"] == 1 and msg["version"] == version
    assert msg["matches"]["earlier"][0]["totals"] == totals0
    assert not msg["over"]


def test_another_match_waits_for_the_end_and_is_refused_in_words(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    data = _table(client, hands=1)
    r = client.post(f"/api/host/{data['host']}/again")
    assert r.status_code == 400 and "not over" in r.json()["detail"]
    with client.websocket_connect(f"/ws/seat/{data['seats']['0']}") as ws:
        _receive_state(ws)
        ws.send_json({"type": "again"})
        while True:
            msg = ws.receive_json()
            if msg["type"] == "error":
                break
        assert "not over" in msg["message"]


# -- the pause after a hand ---------------------------------------------------------------
def test_the_next_hand_waits_for_every_person(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    data = _table(client, hands=3, pause=True)
    table = _live(client, data["table"])
    _play_until(client, table, lambda t: t.waiting is not None or t.over)
    assert table.waiting == {0, 1} and table.session.state is None
    with (
        client.websocket_connect(f"/ws/seat/{data['seats']['0']}") as a,
        client.websocket_connect(f"/ws/seat/{data['seats']['1']}") as b,
    ):
        msg = _receive_state(a)
        _receive_state(b)
        assert msg["waiting"] == [0, 1] and msg["observation"] is None
        assert msg["ui"]["result"] is not None  # the result stays on the table meanwhile
        a.send_json({"type": "next"})
        msg = _receive_state(b)
        assert msg["waiting"] == [1] and msg["observation"] is None
        _receive_state(a)
        b.send_json({"type": "next"})
        msg = next_settled(lambda: _receive_state(b))
        assert msg["waiting"] is None and msg["observation"] is not None
        assert msg["hand_number"] == 1
    # the host may deal without waiting
    _play_until(client, table, lambda t: t.waiting is not None or t.over)
    if not table.over:
        assert client.post(f"/api/host/{data['host']}/next").status_code == 200
        _settle(client, table)
        assert table.waiting is None and table.session.state is not None


def test_away_people_and_the_timer_do_not_hold_the_next_hand(store: Store) -> None:
    from cherki.server.registry import Tables
    from cherki.server.settings import SeatPlan

    tables = Tables(store)
    plans = [SeatPlan("human"), SeatPlan("human"), SeatPlan("bot", "heuristic")]
    table_id, _, _ = tables.create("ceki", None, {}, plans, 3, 30, pause=True, bot_pace=0)
    table = tables.table(table_id)
    table.away.add(1)  # seat 1's time ran out earlier: a bot plays it
    for _ in range(3000):  # everyone's moves straight through the table (no event loop)
        job = table._bot_job()
        if table.waiting is not None or table.over:
            break
        if job is not None:
            seat, bot, obs, seed, version = job
            import random

            table._bot_act(seat, bot.act(obs, random.Random(seed)), version)
            continue
        seat = table.session.to_act
        assert seat == 0
        table._act(0, _move(table, 0), table.version)
    assert table.waiting == {0}  # the away person holds nothing up
    table.arm(100.0)
    assert table.deadline is not None and table.deadline[1] == -1
    assert not table.expire(129.0)
    assert table.expire(131.0)  # seat 0's time to press "next hand" ran out
    table._deal_next()
    assert table.waiting is None and table.session.state is not None


# -- the bots' pace -----------------------------------------------------------------------
class _Conn:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat


def test_bots_keep_a_pace_only_while_a_person_follows(store: Store) -> None:
    from cherki.server.registry import Tables
    from cherki.server.settings import SeatPlan

    tables = Tables(store)
    plans = [SeatPlan("human"), SeatPlan("bot", "heuristic"), SeatPlan("bot", "heuristic")]
    table_id, _, _ = tables.create("ceki", None, {}, plans)
    table = tables.table(table_id)
    assert table.pace == 0.8  # the default
    table.moved = 100.0
    assert table._pace_left(100.3) == 0.0  # nobody connected: no one to follow
    table.connections.add(_Conn(None))  # type: ignore[arg-type]
    assert table._pace_left(100.3) == 0.0  # a spectator alone does not slow the bots
    table.connections.add(_Conn(0))  # type: ignore[arg-type]
    assert table._pace_left(100.3) == pytest.approx(0.5)
    assert table._pace_left(101.0) == 0.0
    table.away.add(0)  # every person away: a table of bots
    assert table._pace_left(100.3) == 0.0
    table.away.clear()
    table._set({"bot_pace": 0})
    assert table._pace_left(100.3) == 0.0
    assert store.table(table_id).settings["bot_pace"] == 0.0


def test_the_bots_wait_for_their_pace_outside_the_lock(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    data = _table(client, hands=1, bot_pace=0.8, seats=[{"kind": "human"}, HEURISTIC, HEURISTIC])
    table = _live(client, data["table"])
    waits: list[tuple[float, bool]] = []

    async def sleep(seconds: float) -> None:
        waits.append((seconds, table.lock.locked()))

    table.sleep = sleep
    with client.websocket_connect(f"/ws/seat/{data['seats']['0']}") as ws:
        msg = next_settled(lambda: _receive_state(ws))
        while not msg["over"] and not waits:
            legal = msg["observation"]["legal"]
            texts = {a["text"]: a["id"] for a in legal}
            action = texts.get("sampei", texts.get("draw", legal[-1]["id"]))
            ws.send_json({"type": "act", "action": action, "version": msg["version"]})
            msg = next_settled(lambda: _receive_state(ws))
    assert waits, "the bots never waited for a person to follow"
    assert all(0 < s <= 0.8 and not locked for s, locked in waits)


# -- settings -------------------------------------------------------------------------------
def test_hints_are_off_at_a_table_for_money_and_the_host_may_turn_them_on(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    data = _table(client)  # ceki's points are worth 10 cents by default
    table = _live(client, data["table"])
    assert plays_for_money(table.session.game, table.session.rules)
    assert table.settings["hints"] is False
    free = _table(client, options={"cents_per_point": 0})
    assert _live(client, free["table"]).settings["hints"] is True
    with client.websocket_connect(f"/ws/seat/{data['seats']['0']}") as ws:
        msg = _receive_state(ws)
        assert msg["settings"]["hints"] is False
        ws.send_json({"type": "hint"})
        while (reply := ws.receive_json())["type"] == "state":
            pass
        assert reply["type"] == "error" and "hints are off" in reply["message"]
        r = client.post(f"/api/host/{data['host']}/settings", json={"hints": True, "timer": 30})
        assert r.status_code == 200, r.text
        assert r.json()["settings"]["hints"] is True and r.json()["settings"]["timer"] == 30
        msg = _until(ws, lambda m: m["settings"]["hints"])
        assert msg["settings"]["timer"] == 30
        ws.send_json({"type": "hint"})
        while (reply := ws.receive_json())["type"] == "state":
            pass
        assert reply["type"] == "hint"
    info = store.table(data["table"])
    assert info.settings["hints"] is True and info.settings["timer"] == 30
    view = client.get(f"/api/host/{data['host']}").json()
    assert view["settings"]["hints"] is True
    r = client.post(f"/api/host/{data['host']}/settings", json={"timer": 0})
    assert r.status_code == 200 and r.json()["settings"]["timer"] is None
    r = client.post(f"/api/host/{data['host']}/settings", json={"bot_pace": 9})
    assert r.status_code == 422
    r = client.post(f"/api/host/{data['host']}/settings", json={"timer": 2})
    assert r.status_code == 400 and "turn timer" in r.json()["detail"]


def test_settings_are_checked_in_words() -> None:
    from cherki.server.words import Refused

    assert check_setting("bot_pace", 1) == 1.0
    for name, value, words in [
        ("hints", "yes", "on or off"),
        ("bot_pace", -1, "pace"),
        ("timer", 1, "turn timer"),
        ("colour", 1, "no table setting"),
    ]:
        with pytest.raises(Refused, match=words):
            check_setting(name, value)


# -- a stand-in's actions are the stand-in's ------------------------------------------------
def test_what_a_stand_in_did_is_worded_as_the_bots_after_a_reload_too(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store, tick=0.02)
    data = _table(client, hands=1, timer=60, seats=[{"kind": "human"}, HEURISTIC, HEURISTIC])
    table = _live(client, data["table"])
    token = data["seats"]["0"]
    with client.websocket_connect(f"/ws/seat/{token}") as ws:
        msg = next_settled(lambda: _receive_state(ws))
        since = msg["version"]
        assert table.deadline is not None
        version, seat, _ = table.deadline
        table.deadline = (version, seat, 0.0)  # the time is up now
        # the stand-in's first action (seat 0 was to act): in the live log as the bot's
        msg = _until(ws, lambda m: m["version"] == since + 1)
        assert msg["away"] == [0] and not msg["over"]
        assert msg["ui"]["log"][-1].startswith("Your stand-in bot"), msg["ui"]["log"][-3:]
        _settle(client, table)
        msg = _until(ws, lambda m: m["version"] == table.version)
    assert table.stand_ins and store.stand_ins(data["table"])
    # a reload: the lines of what was missed say whose the actions were
    again = Store(store.url)
    client2 = opened(again)
    with client2.websocket_connect(f"/ws/seat/{token}?since={since}") as ws:
        msg = _receive_state(ws)
    missed = msg["missed"]
    assert any(line.startswith("Your stand-in bot") for line in missed), missed
    moves = ("You draw", "You discard", "You take")  # the result may still say "You pay"
    assert not any(line.startswith(moves) for line in missed), missed
    # a spectator reads the person's name with the stand-in's
    with client2.websocket_connect(f"/ws/watch/{data['table']}?since={since}") as ws:
        msg = _receive_state(ws)
    assert any("Seat 1's stand-in bot" in line for line in msg["missed"]), msg["missed"]


# -- the lobby's list -----------------------------------------------------------------------
def test_the_lobby_list_changes_as_soon_as_a_match_ends_or_another_begins(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    data = _table(client, hands=1, listed=True)
    table = _live(client, data["table"])
    listed = client.get("/api/tables").json()
    assert [t["table"] for t in listed] == [data["table"]]
    assert listed[0]["hints"] is False and listed[0]["bot_pace"] == 0.0
    _play_until(client, table, lambda t: t.over)
    assert client.get("/api/tables").json() == []  # no longer in play: gone at once
    assert client.post(f"/api/host/{data['host']}/again").status_code == 200
    assert [t["table"] for t in client.get("/api/tables").json()] == [data["table"]]


def test_a_record_of_each_match_reads_back_whole(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    data = _table(client, hands=1)
    table = _live(client, data["table"])
    _play_until(client, table, lambda t: t.over)
    client.post(f"/api/host/{data['host']}/again")
    _play_until(client, table, lambda t: t.over)
    for match in (0, 1):
        record = store.record(data["table"], match)
        assert parse_record(record.dumps()).hands[-1].result is not None
    assert store.record(data["table"]).dumps() == store.record(data["table"], 1).dumps()
    token = data["seats"]["0"]
    first = client.get(f"/api/tables/{data['table']}/record?match=0&token={token}")
    assert first.status_code == 200 and "match1" in first.headers["content-disposition"]
    assert parse_record(first.text).to_json() == store.record(data["table"], 0).to_json()
    assert client.get(f"/api/tables/{data['table']}/record?match=7").status_code == 404
    assert client.get(f"/api/tables/{data['table']}/replay").status_code == 200


def test_revision_0003_goes_down_to_0002_and_up_again(store: Store) -> None:
    """A table that played a second match, with a stand-in's action: down to 0002 (the
    matches and the stand-in marks go; every hand and action stays) and up again."""
    from test_store import _migrate

    from cherki.server.registry import Tables
    from cherki.server.settings import SeatPlan

    tables = Tables(store)
    plans = [SeatPlan("human"), SeatPlan("bot", "heuristic"), SeatPlan("bot", "heuristic")]
    table_id, _, _ = tables.create("ceki", None, {}, plans)
    table = tables.table(table_id)
    table.away.add(0)
    table.left_at = None  # the person is at the table (stand-ins play only then), seat away
    for _ in range(3000):
        job = table._bot_job()
        if job is None:
            break
        seat, bot, obs, seed, version = job
        import random

        table._bot_act(seat, bot.act(obs, random.Random(seed)), version)
    assert table.over and store.stand_ins(table_id)
    table._again(None)
    version = table.version
    store.close()
    _migrate(store.url, "0002", down=True)
    again = Store(store.url)  # upgraded to the head when opened
    assert again.matches(table_id) == [] and again.stand_ins(table_id) == {}
    assert again.table(table_id).version == version
    record = again.record(table_id)  # the log whole, as one match: every hand reads back
    for i in range(len(record.hands)):
        replay_hand(record, i)
