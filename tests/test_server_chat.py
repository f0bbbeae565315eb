"""The table's chat (cherki.server.chat): short messages and emotes from the people's seats,
each limit refused in words, written before anyone is told, placed in the game's log,
replayed to a page that comes back without a line lost or repeated, and read by
spectators only when the host allows it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from starlette.websockets import WebSocketDisconnect

from cherki.server.chat import EMOTES
from cherki.server.limits import Limits
from cherki.server.store import Store

SEATS = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "human"}]


def _made(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/tables", json={"game": "ceki", "seats": SEATS, "hands": 3})
    assert r.status_code == 200, r.text
    made: dict[str, Any] = r.json()
    return made


def _next(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of ``kind`` (chat or error), passing over the table's states."""
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg
        assert msg["type"] == "state", msg


def _rows(store: Store) -> list[tuple[Any, ...]]:
    with store.engine.connect() as conn:
        q = "SELECT number, seat, kind, text, version, hand, log_at FROM chat ORDER BY number"
        return [tuple(r) for r in conn.execute(text(q)).all()]


def test_a_line_is_stored_then_sent_to_every_seat_in_order(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    made = _made(client)
    a, b = made["seats"]["0"], made["seats"]["2"]
    with (
        client.websocket_connect(f"/ws/seat/{a}?chat=0") as wa,
        client.websocket_connect(f"/ws/seat/{b}?chat=0") as wb,
    ):
        first = wa.receive_json()
        assert first["type"] == "state"
        opening = _next(wa, "chat")
        assert opening == {"type": "chat", "lines": [], "open": True, "history": True}
        assert _next(wb, "chat")["lines"] == []
        wa.send_json({"type": "chat", "text": "  Selamat malam, all!  "})
        line = _next(wa, "chat")
        assert line["history"] is False and line["open"] is True
        [said] = line["lines"]
        assert said["n"] == 1 and said["seat"] == 0 and said["kind"] == "text"
        assert said["text"] == "Selamat malam, all!"  # trimmed
        assert said["hand"] == 0 and said["version"] >= 0 and said["at"] >= 1
        assert _next(wb, "chat")["lines"] == [said]
        wb.send_json({"type": "emote", "emote": "🎉"})
        wb.send_json({"type": "chat", "text": "<img src=x onerror=alert(1)>"})
        got = [_next(wa, "chat")["lines"][0] for _ in range(2)]
        assert [(x["n"], x["seat"], x["kind"], x["text"]) for x in got] == [
            (2, 2, "emote", "🎉"),
            (3, 2, "text", "<img src=x onerror=alert(1)>"),  # words, kept as written
        ]
    # written down, in order, with where in the game each was said
    rows = _rows(store)
    assert [r[:4] for r in rows] == [
        (1, 0, "text", "Selamat malam, all!"),
        (2, 2, "emote", "🎉"),
        (3, 2, "text", "<img src=x onerror=alert(1)>"),
    ]
    assert rows[0][4:] == (said["version"], said["hand"], said["at"])


def test_every_chat_limit_is_refused_in_words_and_nothing_is_stored(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    limits = Limits(chat_chars=20, chat_messages=2, chat_seconds=600, messages_per_second=100)
    client = opened(store, limits=limits)
    made = _made(client)
    with client.websocket_connect(f"/ws/seat/{made['seats']['0']}") as ws:
        ws.receive_json()
        for message, words in [
            ({"type": "chat", "text": "   "}, "the message is empty"),
            ({"type": "chat", "text": "x" * 21}, "at most 20 characters, not 21"),
            ({"type": "chat", "text": "two\nlines"}, "no control character (U+000A)"),
            ({"type": "chat", "text": "bell\x07"}, "no control character (U+0007)"),
            ({"type": "chat", "text": "evil\u202eenil"}, "no control character (U+202E)"),
            ({"type": "emote", "emote": "💩"}, "an emote is one of " + " ".join(EMOTES)),
            ({"type": "chat", "text": 5}, "bad message: chat.text"),
            ({"type": "chat"}, "bad message: chat.text"),
        ]:
            ws.send_json(message)
            assert words in _next(ws, "error")["message"], message
        assert _rows(store) == []
        ws.send_json({"type": "chat", "text": "one"})
        ws.send_json({"type": "emote", "emote": "👍"})
        ws.send_json({"type": "chat", "text": "three"})
        assert _next(ws, "chat")["lines"][0]["text"] == "one"
        assert _next(ws, "chat")["lines"][0]["text"] == "👍"
        refused = _next(ws, "error")["message"]
        assert refused == "too many chat messages: at most 2 every 600 seconds"
    # per seat, not per connection: a second connection of the seat is refused too
    with client.websocket_connect(f"/ws/seat/{made['seats']['0']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "chat", "text": "again"})
        assert "too many chat messages" in _next(ws, "error")["message"]
    # while the other seat may still talk
    with client.websocket_connect(f"/ws/seat/{made['seats']['2']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "chat", "text": "me too"})
        assert _next(ws, "chat")["lines"][0]["n"] == 3
    assert [r[3] for r in _rows(store)] == ["one", "👍", "me too"]


def test_a_full_chat_is_refused(store: Store, opened: Callable[..., TestClient]) -> None:
    client = opened(store, limits=Limits(chat_lines=2))
    made = _made(client)
    with client.websocket_connect(f"/ws/seat/{made['seats']['0']}") as ws:
        ws.receive_json()
        for word in ("a", "b"):
            ws.send_json({"type": "chat", "text": word})
            _next(ws, "chat")
        ws.send_json({"type": "chat", "text": "c"})
        assert _next(ws, "error")["message"] == "this table's chat is full (2 lines)"
    assert len(_rows(store)) == 2


def test_spectators_never_write_in_the_chat(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    made = _made(client)
    with client.websocket_connect(f"/ws/watch/{made['table']}") as ws:
        ws.receive_json()
        for message in ({"type": "chat", "text": "hello"}, {"type": "emote", "emote": "👍"}):
            ws.send_json(message)
            assert _next(ws, "error")["message"] == "spectators cannot write in the chat"
    assert _rows(store) == []


def test_a_page_that_comes_back_gets_the_lines_it_missed_once(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store, limits=Limits(chat_history=3))
    made = _made(client)
    a, b = made["seats"]["0"], made["seats"]["2"]
    with client.websocket_connect(f"/ws/seat/{a}?chat=0") as wa:
        wa.receive_json()
        _next(wa, "chat")
        for n in range(1, 6):
            wa.send_json({"type": "chat", "text": f"line {n}"})
            assert _next(wa, "chat")["lines"][0]["n"] == n
    # a page that holds lines 1-2 comes back: the three after them, once each, in order
    with client.websocket_connect(f"/ws/seat/{b}?since=0&chat=2") as wb:
        assert wb.receive_json()["type"] == "state"
        back = _next(wb, "chat")
        assert back["history"] is True
        assert [x["n"] for x in back["lines"]] == [3, 4, 5]
    # one that holds them all is sent none; a fresh page the latest chat_history
    with client.websocket_connect(f"/ws/seat/{b}?chat=5") as wb:
        wb.receive_json()
        assert _next(wb, "chat")["lines"] == []
    # a page that does not show the chat (no ?chat=) is sent no history
    with client.websocket_connect(f"/ws/seat/{b}") as wb:
        wb.receive_json()
        wb.send_json({"type": "ping"})
        assert wb.receive_json() == {"type": "pong"}
    # after a restart, from the store
    client2 = opened(store, limits=Limits(chat_history=3))
    with client2.websocket_connect(f"/ws/seat/{b}?chat=0") as wb:
        wb.receive_json()
        assert [x["text"] for x in _next(wb, "chat")["lines"]] == ["line 3", "line 4", "line 5"]
        wb.send_json({"type": "chat", "text": "after the restart"})
        assert _next(wb, "chat")["lines"][0]["n"] == 6
    with client.websocket_connect(f"/ws/seat/{a}?chat=x") as bad:  # refused in words
        said = bad.receive_json()
        assert said["type"] == "closing" and "chat is a chat line's number" in said["message"]
        with pytest.raises(WebSocketDisconnect):
            bad.receive_json()


def test_lines_are_placed_in_the_games_log(store: Store, opened: Callable[..., TestClient]) -> None:
    client = opened(store)
    made = _made(client)
    with client.websocket_connect(f"/ws/seat/{made['seats']['0']}?chat=0") as ws:
        state = ws.receive_json()
        _next(ws, "chat")
        ws.send_json({"type": "chat", "text": "hi"})
        [line] = _next(ws, "chat")["lines"]
        # the line follows the log the page was last sent (the table sends every change)
        assert line["version"] >= state["version"]
        assert line["hand"] == state["hand_number"]
        assert line["at"] >= len(state["ui"]["log"]) > 0


def test_spectators_read_the_chat_only_when_the_host_allows_it(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    client = opened(store)
    made = _made(client)
    host, table = made["host"], made["table"]
    assert client.get(f"/api/host/{host}/chat").json() == {"table": table, "spectators": False}
    with (
        client.websocket_connect(f"/ws/seat/{made['seats']['0']}?chat=0") as wa,
        client.websocket_connect(f"/ws/watch/{table}?chat=0") as ww,
    ):
        wa.receive_json()
        _next(wa, "chat")
        ww.receive_json()
        assert _next(ww, "chat") == {"type": "chat", "lines": [], "open": False, "history": True}
        wa.send_json({"type": "chat", "text": "secret family talk"})
        _next(wa, "chat")
        r = client.post(f"/api/host/{host}/chat", json={"spectators": True})
        assert r.status_code == 200 and r.json()["spectators"] is True
        # the spectator's first chat message: the history, now open (never the line alone)
        opened_now = _next(ww, "chat")
        assert opened_now["open"] is True and opened_now["history"] is True
        assert [x["text"] for x in opened_now["lines"]] == ["secret family talk"]
        wa.send_json({"type": "emote", "emote": "😄"})
        _next(wa, "chat")
        assert _next(ww, "chat")["lines"][0]["text"] == "😄"
        r = client.post(f"/api/host/{host}/chat", json={"spectators": False})
        assert r.json()["spectators"] is False
        assert _next(ww, "chat") == {"type": "chat", "lines": [], "open": False, "history": True}
        wa.send_json({"type": "chat", "text": "only for us"})
        _next(wa, "chat")
        wa.send_json({"type": "ping"})
        assert _next(wa, "pong") == {"type": "pong"}
        ww.send_json({"type": "ping"})
        assert ww.receive_json() == {"type": "pong"}  # and no chat line before it
    # stored with the table: still so after a restart
    client.post(f"/api/host/{host}/chat", json={"spectators": True})
    client2 = opened(store)
    assert client2.get(f"/api/host/{host}/chat").json()["spectators"] is True
    with client2.websocket_connect(f"/ws/watch/{table}?chat=0") as ww:
        ww.receive_json()
        seen = _next(ww, "chat")
        assert seen["open"] is True and len(seen["lines"]) == 3
    for bad in (made["seats"]["0"], "x" * 22):
        assert client.post(f"/api/host/{bad}/chat", json={"spectators": True}).status_code == 404
    assert client.post(f"/api/host/{host}/chat", json={"spectators": "maybe"}).status_code == 422


def test_muting_is_the_pages_own_the_server_sends_every_line(
    store: Store, opened: Callable[..., TestClient]
) -> None:
    """A person's mute is kept in their browser: there is no message to mute a seat, and
    the server sends a muted seat's lines as any other (the page hides them)."""
    client = opened(store)
    made = _made(client)
    with client.websocket_connect(f"/ws/seat/{made['seats']['0']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "mute", "seat": 2})
        assert "bad message" in _next(ws, "error")["message"]
        with client.websocket_connect(f"/ws/seat/{made['seats']['2']}") as wb:
            wb.receive_json()
            wb.send_json({"type": "chat", "text": "can you hear me?"})
            assert _next(ws, "chat")["lines"][0]["text"] == "can you hear me?"


def test_limits_of_the_chat_change_in_words() -> None:
    limits = Limits().with_text(["chat_chars=80", "chat_seconds=2.5"])
    assert limits.chat_chars == 80 and limits.chat_seconds == 2.5
    assert Limits().chat_chars == 200
    with pytest.raises(Exception, match="more than 0"):
        Limits().with_text(["chat_messages=0"])


def test_the_chat_table_comes_with_its_migration(tmp_path: Any) -> None:
    """Revision 0004 adds the ``chat`` table to a database of the revision before it (its
    tables untouched), and its downgrade takes it away again."""
    from importlib import resources

    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, inspect

    url = f"sqlite:///{tmp_path / 'old.db'}"

    def migrate(revision: str, down: bool = False) -> None:
        cfg = Config()
        where = str(resources.files("cherki.server") / "migrations")
        cfg.set_main_option("script_location", where)
        engine = create_engine(url)
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            (command.downgrade if down else command.upgrade)(cfg, revision)
        engine.dispose()

    migrate("0002")
    engine = create_engine(url)
    assert "chat" not in inspect(engine).get_table_names()
    engine.dispose()
    store = Store(url)  # upgraded to the newest
    columns = {c["name"] for c in inspect(store.engine).get_columns("chat")}
    assert columns == {"table_id", "number", "seat", "kind", "text", "version", "match", "hand",
                       "log_at", "said"}  # fmt: skip
    store.close()
    migrate("0002", down=True)
    engine = create_engine(url)
    assert "chat" not in inspect(engine).get_table_names()
    engine.dispose()


def test_the_chat_on_postgresql() -> None:
    """The same on PostgreSQL, where the store is written from a worker thread: lines
    stored in order with their time, sent, and read back after a restart."""
    from pg import postgres_server

    from cherki.server.app import create_app

    with postgres_server() as url:
        store = Store(url)
        with TestClient(create_app(store)) as client:
            made = _made(client)
            with client.websocket_connect(f"/ws/seat/{made['seats']['0']}?chat=0") as ws:
                ws.receive_json()
                _next(ws, "chat")
                ws.send_json({"type": "chat", "text": "dari Postgres"})
                ws.send_json({"type": "emote", "emote": "🙏"})
                first = _next(ws, "chat")["lines"][0]
                assert first["n"] == 1 and first["time"].endswith("+00:00")
                assert _next(ws, "chat")["lines"][0]["n"] == 2
            client.post(f"/api/host/{made['host']}/chat", json={"spectators": True})
        with (
            TestClient(create_app(store)) as again,
            again.websocket_connect(f"/ws/watch/{made['table']}?chat=0") as ws,
        ):
            ws.receive_json()
            back = _next(ws, "chat")
            assert back["open"] is True
            lines = [(x["n"], x["text"]) for x in back["lines"]]
            assert lines == [(1, "dari Postgres"), (2, "🙏")]
            assert back["lines"][0]["time"] == first["time"]
        assert _rows(store)[0][:4] == (1, 0, "text", "dari Postgres")
        store.close()
