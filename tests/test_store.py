"""The server's store (cherki.server.store): tables, seats bound to tokens, records written
with every action, against SQLite and a real PostgreSQL server."""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import partial
from importlib import resources
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from pg import postgres_server
from sqlalchemy import create_engine, event, inspect, text

from cherki.bots import make_bot
from cherki.core.errors import RecordError
from cherki.games import find_game
from cherki.play.records import Record, parse_record, replay_hand
from cherki.play.session import Acted, Seat, Session
from cherki.server.store import (
    BOT,
    FINISHED,
    HUMAN,
    PLAYING,
    Store,
    StoreError,
    carried_from_json,
    new_token,
    token_hash,
)


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'cherki.db'}"
    pg: str = request.getfixturevalue("pg_url")
    return pg


def _session(game_name: str = "balik-satu", save: object = None) -> Session:
    game = find_game(game_name)
    seats = [Seat("Ann", None)] + [
        Seat(f"Bot {i}", make_bot(game_name, "heuristic")) for i in (1, 2, 3)
    ]
    return Session(game, game.rules(), seats, seed=random.SystemRandom().getrandbits(64),
                   hands=2, save=save)  # type: ignore[arg-type]  # fmt: skip


def test_a_table_its_seats_and_tokens(url: str) -> None:
    store = Store(url)
    session = _session()
    tid, tokens, _ = store.create_table(
        session.record(), [(HUMAN, None), (BOT, "heuristic"), (BOT, "heuristic"), (HUMAN, None)],
        {"timer": None},
    )  # fmt: skip
    assert sorted(tokens) == [0, 3] and len({*tokens.values()}) == 2
    assert all(len(t) >= 22 for t in tokens.values())  # 128 bits, URL-safe
    info = store.table(tid)
    assert info.status == "open" and info.game == "balik-satu" and info.settings == {"timer": None}
    want = [(0, HUMAN, None), (1, BOT, "heuristic"), (2, BOT, "heuristic"), (3, HUMAN, None)]
    assert [(s.seat, s.kind, s.level) for s in info.seats] == want
    assert store.seat_of(tokens[3]) == (tid, 3)
    assert store.take_seat(tokens[0], " Mei Ling ") == (tid, 0)
    assert store.table(tid).seats[0].name == "Mei Ling"
    # the token with its last character changed (to one it is not)
    near = tokens[0][:-1] + ("B" if tokens[0].endswith("A") else "A")
    for bad in ("", "x" * 22, near, "'; drop table seats; --"):
        with pytest.raises(StoreError, match="holds no seat"):
            store.seat_of(bad)
    with pytest.raises(StoreError, match="1 to 40 printable"):
        store.take_seat(tokens[0], "\x1b[2J")
    with pytest.raises(StoreError, match="no table"):
        store.table("nope")
    assert [t.id for t in store.tables()] == [tid]
    store.close()


def test_tokens_are_never_stored(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    store = Store(f"sqlite:///{db}")
    made = store.create_table(_session().record(), [(HUMAN, None)] + [(BOT, "heuristic")] * 3)
    store.close()
    raw = db.read_bytes() + b"".join(p.read_bytes() for p in tmp_path.glob("c.db-*"))
    for token in (made.tokens[0], made.host):
        assert token.encode() not in raw and token_hash(token).encode() in raw


def test_every_action_is_saved_and_a_killed_table_resumes(url: str) -> None:
    """A session saving into the store after every action; the store dropped mid-hand
    (the server killed); a new store on the same database resumes the table from its last
    action with the same seats, and the finished record replays to its results."""
    store = Store(url)
    holder: dict[str, str] = {}
    session = _session(save=lambda rec: store.save(holder["id"], rec, PLAYING))
    tid, _, _ = store.create_table(session.record(), [(HUMAN, None)] + [(BOT, "heuristic")] * 3)
    holder["id"] = tid
    session.start_hand()
    rng = random.Random(1)
    for _ in range(30):
        seat = session.to_act
        assert seat is not None
        state = session.state
        assert state is not None
        action = session.bot_action() if seat != 0 else rng.choice(state.legal_actions())
        session.act(seat, action)
        if state.is_terminal:
            break
    saved = store.table(tid)
    played = len(session.state.history)  # type: ignore[union-attr]
    assert saved.version == played and saved.status == PLAYING
    store.close()  # the server dies here

    again = Store(url)  # a new process on the same database
    record = again.record(tid)
    assert len(record.hands[-1].actions) == played
    seats = [Seat("Ann", make_bot("balik-satu", "random"))] + [
        Seat(f"Bot {i}", make_bot("balik-satu", "heuristic")) for i in (1, 2, 3)]  # fmt: skip
    resumed = Session.resume(record, seats, save=lambda rec: again.save(tid, rec))
    for _ in resumed.run():
        pass
    again.save(tid, resumed.record(), FINISHED)
    final = again.record(tid)
    assert again.table(tid).status == FINISHED
    assert final.hands[0].actions[:played] == record.hands[0].actions[:played]
    for i in range(len(final.hands)):
        stored = final.hands[i].result
        assert stored is not None
        assert list(replay_hand(final, i).result.payments) == stored["payments"]
    again.close()


def test_a_bad_url_is_a_clear_error() -> None:
    with pytest.raises(StoreError, match="cannot use the database"):
        Store("nonsense://")
    with pytest.raises(StoreError, match="cannot prepare the database"):
        Store("postgresql+psycopg://nobody@127.0.0.1:1/none")


# -- the action log -----------------------------------------------------------------------------
def _rows(store: Store, table: str, tid: str) -> int:
    with store.engine.connect() as conn:
        query = text(f"SELECT count(*) FROM {table} WHERE table_id = :t")
        return int(conn.execute(query, {"t": tid}).scalar_one())


@contextmanager
def _writes(store: Store) -> Iterator[list[str]]:
    """The statements that change something, as the store sends them meanwhile."""
    sent: list[str] = []

    def note(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        if statement.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
            sent.append(" ".join(statement.split()[:3]))

    event.listen(store.engine, "before_cursor_execute", note)
    try:
        yield sent
    finally:
        event.remove(store.engine, "before_cursor_execute", note)


def _bots(save: object = None, hands: int = 2, seed: int = 2) -> Session:
    """Four random bots for ``hands`` hands, dealt from ``seed`` (a test fails the same way
    on every run)."""
    game = find_game("balik-satu")
    seats = [Seat(f"Bot {i}", make_bot("balik-satu", "random")) for i in range(4)]
    return Session(game, game.rules(), seats, seed=seed,
                   hands=hands, save=save)  # type: ignore[arg-type]  # fmt: skip


def test_the_log_grows_by_one_row_an_action(url: str) -> None:
    """Each action is one INSERT (into ``actions``) beside the table's UPDATE; a hand is a
    row of ``hands``; the record reads back as it was played."""
    store = Store(url)
    holder: dict[str, str] = {}
    writes: list[list[str]] = []

    def save(record: Record) -> None:
        with _writes(store) as sent:
            store.save(holder["id"], record, PLAYING)
        writes.append(sent)

    session = _bots(save)
    tid = holder["id"] = store.create_table(session.record(), [(BOT, "random")] * 4).table_id
    acted = 0
    for step in session.run():
        if isinstance(step, Acted):
            acted += 1
            assert store.table(tid).version == acted == _rows(store, "actions", tid)
            inserts = [w for w in writes[-1] if w.upper().startswith("INSERT")]
            assert inserts == ["INSERT INTO actions"]
            assert writes[-1][0] == "UPDATE tables SET"
    assert acted > 10
    # a hand that does not count (no winner: dealt again) is a row too
    assert _rows(store, "hands", tid) == len(session.record().hands) >= 2
    assert store.record(tid).to_json() == session.record().to_json()
    assert Store(url).record(tid).to_json() == session.record().to_json()  # read back whole
    store.close()


def test_a_broken_sqlite_connection_is_opened_afresh(tmp_path: Path) -> None:
    """On SQLite the saves share one connection kept open: one that fails (here closed
    under the store, as a disk error would leave it) refuses that save in words and the
    next save opens another; nothing written is lost."""
    store = Store(f"sqlite:///{tmp_path / 'cherki.db'}")
    session = _bots()
    tid = store.create_table(session.record(), [(BOT, "random")] * 4).table_id
    steps = session.run()
    acted = 0
    for step in steps:
        if isinstance(step, Acted):
            store.save(tid, session.record(), PLAYING)
            acted += 1
            if acted == 3:
                break
    writer = store._writer
    assert writer is not None
    writer.connection.dbapi_connection.close()  # type: ignore[union-attr]
    for step in steps:
        if isinstance(step, Acted):
            break
    with pytest.raises(StoreError):
        store.save(tid, session.record(), PLAYING)
    assert store._writer is None  # let go
    store.save(tid, session.record(), PLAYING)  # a fresh connection
    assert store._writer is not None and store._writer is not writer
    assert store.table(tid).version == acted + 1
    assert Store(f"sqlite:///{tmp_path / 'cherki.db'}").record(tid).to_json() == (
        session.record().to_json()
    )
    store.close()


def _played(store: Store) -> tuple[str, Session]:
    """A table of four random bots played to its end, saved after every action."""
    session = _bots()
    tid = store.create_table(session.record(), [(BOT, "random")] * 4).table_id
    session.save = lambda record: store.save(tid, record, PLAYING)  # type: ignore[assignment]
    for _ in session.run():
        pass
    return tid, session


def test_saving_an_unchanged_record_writes_nothing(url: str) -> None:
    store = Store(url)
    tid, session = _played(store)
    record = session.record()
    version = store.table(tid).version
    for writer in (store, Store(url)):  # what it remembers, and a store that reads it back
        with _writes(writer) as sent:
            assert writer.save(tid, record, PLAYING) == version
            assert writer.save(tid, parse_record(record.dumps())) == version
        assert sent == []
    assert _rows(store, "actions", tid) == version
    record.players[0] = "Mei Ling"  # a name changed: the header alone is written
    with _writes(store) as sent:
        assert store.save(tid, record) == version
    assert sent == ["UPDATE tables SET"]
    assert Store(url).record(tid).players[0] == "Mei Ling"
    store.close()


def test_a_record_that_contradicts_the_log_is_refused(url: str) -> None:
    store = Store(url)
    tid, session = _played(store)
    good = session.record()
    version = store.table(tid).version

    def changed(how: Callable[[Record], None]) -> Record:
        record = parse_record(good.dumps())
        how(record)
        return record

    bad = {
        "fewer hands": changed(lambda r: r.hands.pop()),
        "fewer actions": changed(lambda r: r.hands[-1].actions.pop()),
        "another action": changed(
            lambda r: r.hands[0].actions.__setitem__(2, r.hands[0].actions[2] + " tan")
        ),
        "another deal": changed(lambda r: setattr(r.hands[1], "seed", (r.hands[1].seed or 0) + 1)),
        "another result": changed(lambda r: r.hands[0].__setattr__("result", {"winner": None})),
        "an action after the end": changed(lambda r: r.hands[0].actions.append("0: draw")),
        "another game": changed(lambda r: setattr(r, "game", find_game("chot"))),
    }
    for writer in (store, Store(url)):
        for what, record in bad.items():
            with pytest.raises(StoreError, match=r"refused|no action can be added"):
                writer.save(tid, record, FINISHED)
                pytest.fail(f"{what}: saved")
    assert store.table(tid).version == version == _rows(store, "actions", tid)
    assert store.table(tid).status == PLAYING
    assert Store(url).record(tid).to_json() == good.to_json()
    store.close()


def test_a_second_writer_is_noticed_not_interleaved(url: str) -> None:
    """Two stores on one database, each remembering what it wrote: a save from a version
    the table has left reads the table again and writes only what is new to it."""
    snapshots: list[Record] = []
    session = _bots(save=lambda record: snapshots.append(parse_record(record.dumps())))
    first, second = Store(url), Store(url)
    tid = first.create_table(session.record(), [(BOT, "random")] * 4).table_id
    session.start_hand()
    for _ in range(3):
        session.act(session.to_act, session.bot_action())  # type: ignore[arg-type]
    one, two, three = snapshots[-3:]
    assert first.save(tid, one, PLAYING) == 1
    assert second.record(tid).to_json() == one.to_json()  # the second remembers version 1
    assert first.save(tid, two, PLAYING) == 2
    with _writes(second) as sent:
        assert second.save(tid, three, PLAYING) == 3  # from version 1: read again
    assert sent == ["UPDATE tables SET", "UPDATE tables SET", "INSERT INTO actions"]
    with _writes(first) as sent:
        assert first.save(tid, three, PLAYING) == 3  # from version 2: nothing left to write
    assert sent == ["UPDATE tables SET"]
    assert _rows(first, "actions", tid) == 3
    with pytest.raises(StoreError, match="refused"):
        first.save(tid, two)
    assert Store(url).record(tid).to_json() == three.to_json()
    first.close()
    second.close()


# -- host links -----------------------------------------------------------------------------------
def test_host_links_reissue_and_rename(url: str) -> None:
    store = Store(url)
    made = store.create_table(
        _session().record(), [(HUMAN, None), (BOT, "random"), (HUMAN, None), (BOT, "random")]
    )
    tid, tokens, host = made
    assert len(host) >= 22 and host not in tokens.values()
    assert store.host_of(host) == tid
    for bad in (tokens[0], tokens[2], "", "x" * 22, host[:-1]):
        with pytest.raises(StoreError, match="not a host link"):
            store.host_of(bad)
    with pytest.raises(StoreError, match="holds no seat"):
        store.seat_of(host)
    store.take_seat(tokens[0], "Ann")
    again = store.reissue(tid, 0)
    assert again != tokens[0] and store.seat_of(again) == (tid, 0)
    with pytest.raises(StoreError, match="holds no seat"):
        store.seat_of(tokens[0])
    assert store.table(tid).seats[0].name == "Ann"
    store.rename_seat(tid, 2, "  Siti Nurhaliza ")
    assert [s.name for s in store.table(tid).seats] == ["Ann", None, "Siti Nurhaliza", None]
    with pytest.raises(StoreError, match="1 to 40 printable"):
        store.rename_seat(tid, 2, "x" * 41)
    for seat in (1, 3):
        with pytest.raises(StoreError, match="a bot plays"):
            store.reissue(tid, seat)
        with pytest.raises(StoreError, match="a bot plays"):
            store.rename_seat(tid, seat, "Robot")
    with pytest.raises(StoreError, match="no seat 4"):
        store.reissue(tid, 4)
    with pytest.raises(StoreError, match="no table"):
        store.rename_seat("nope", 0, "Ann")
    assert store.table(tid).seats[1].name is None
    store.close()


# -- the migration from revision 0001 -----------------------------------------------------------
@pytest.fixture(params=["sqlite", "postgresql"])
def fresh_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of its own (on the tests' PostgreSQL server, a new database)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'old.db'}"
    pg: str = request.getfixturevalue("pg_url")
    name = f"old_{uuid.uuid4().hex[:12]}"
    engine = create_engine(pg, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    engine.dispose()
    return pg.rsplit("/", 1)[0] + "/" + name


def _migrate(url: str, revision: str, down: bool = False) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("cherki.server") / "migrations"))
    engine = create_engine(url)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, revision)
    engine.dispose()


def _play(session: Session, rng: random.Random, hands: int = 99, then: int = 0) -> None:
    """Play (a person's seat at random), hands scored and dealt, to the end or until hand
    ``hands`` is dealt and ``then`` actions of it are played."""
    while then >= 0:
        if len(session.match.results) + (session.state is not None) >= hands:
            then -= 1
            if then < 0:
                return
        if session.state is None or session.state.is_terminal:
            if session.state is not None:
                session.finish_hand()
            if session.is_over():
                return
            session.start_hand()
        seat = session.to_act
        assert seat is not None and session.state is not None
        if session.seats[seat].bot is None:
            session.act(seat, rng.choice(session.state.legal_actions()))
        else:
            session.act(seat, session.bot_action())


def test_a_0001_database_is_upgraded_and_its_tables_play_on(fresh_url: str) -> None:
    """Tables written by the old store (the whole record in ``tables.record``): one in
    play, one finished, one whose first hand was never dealt. Opening a Store moves them
    into the log: each record reads back identical, the seats' links still work, the table
    in play goes on to its end; the downgrade writes each record back whole."""
    _migrate(fresh_url, "0001")
    rng = random.Random(5)
    playing = _session()
    _play(playing, rng, hands=2, then=5)  # into the second hand
    assert len(playing.record().hands) == 2 and playing.state is not None
    assert not playing.state.is_terminal
    finished = _session()
    _play(finished, rng)
    assert finished.is_over() and finished.state is None
    unstarted = _session()
    token = new_token()
    old = {
        "a" * 32: (playing.record(), PLAYING),
        "b" * 32: (finished.record(), FINISHED),
        "c" * 32: (unstarted.record(), "open"),
    }
    engine = create_engine(fresh_url)
    now = datetime.now(UTC)
    with engine.begin() as conn:  # as the old store wrote them
        for tid, (record, status) in old.items():
            conn.execute(
                text(
                    "INSERT INTO tables (id, game, status, created, updated, settings, record, "
                    "version) VALUES (:id, :game, :status, :now, :now, :settings, :record, :v)"
                ),
                {"id": tid, "game": "balik-satu", "status": status, "now": now,
                 "settings": '{"hands": 2, "timer": null}', "record": record.dumps(),
                 "v": sum(len(h.actions) for h in record.hands)},
            )  # fmt: skip
            for seat in range(4):
                conn.execute(
                    text(
                        "INSERT INTO seats (table_id, seat, kind, level, name, token_hash) "
                        "VALUES (:t, :s, :k, :l, :n, :h)"
                    ),
                    {"t": tid, "s": seat, "k": HUMAN if seat == 0 else BOT,
                     "l": None if seat == 0 else "heuristic", "n": "Ann" if seat == 0 else None,
                     "h": token_hash(token + tid) if seat == 0 else None},
                )  # fmt: skip
    engine.dispose()

    store = Store(fresh_url)  # upgraded here
    columns = {c["name"] for c in inspect(store.engine).get_columns("tables")}
    assert "record" not in columns and {"header", "host_hash"} <= columns
    for tid, (record, status) in old.items():
        info = store.table(tid)
        assert info.status == status and info.settings == {"hands": 2, "timer": None}
        assert info.version == sum(len(h.actions) for h in record.hands)
        assert _rows(store, "actions", tid) == info.version
        assert _rows(store, "hands", tid) == len(record.hands)
        assert store.seat_of(token + tid) == (tid, 0)
        if record.hands:
            assert store.record(tid).to_json() == record.to_json()
    with pytest.raises(RecordError, match="hands"):  # as before: a table with no hand yet
        store.record("c" * 32)
    with pytest.raises(StoreError, match="not a host link"):
        store.host_of(token)

    tid = "a" * 32
    seats = [Seat("Ann", make_bot("balik-satu", "random"))] + [
        Seat(f"Bot {i}", make_bot("balik-satu", "heuristic")) for i in (1, 2, 3)]  # fmt: skip
    resumed = Session.resume(store.record(tid), seats, save=lambda r: store.save(tid, r, PLAYING))
    for _ in resumed.run():
        pass
    store.save(tid, resumed.record(), FINISHED)
    final = Store(fresh_url).record(tid)
    assert final.to_json() == resumed.record().to_json()
    for i, hand in enumerate(final.hands):
        assert hand.result is not None
        assert list(replay_hand(final, i).result.payments) == hand.result["payments"]
    started = _session()  # the table never dealt gets its first hand
    started.start_hand()
    assert store.save("c" * 32, started.record(), PLAYING) == 0
    store.close()

    _migrate(fresh_url, "0001", down=True)
    engine = create_engine(fresh_url)
    with engine.connect() as conn:
        back = dict(conn.execute(text("SELECT id, record FROM tables")).all())
    engine.dispose()
    assert parse_record(back[tid]).to_json() == final.to_json()
    assert parse_record(back["b" * 32]).to_json() == finished.record().to_json()


def test_a_carried_score_sheet_reads_back_checked() -> None:
    """What the matches before a table's match left (``matches.carried``) reads back as
    written, and a damaged one is refused in words, never half read."""
    sheet = {"totals": [3, -3], "money_cents": [0, 0], "matches": [
        {"totals": [1, -1], "money_cents": [0, 0]}, {"totals": [2, -2], "money_cents": [0, 0]}
    ]}  # fmt: skip
    assert carried_from_json(sheet) == sheet
    for damaged in (
        [],
        {"totals": [0, 0], "money_cents": [0, 0]},
        {"totals": [0, "x"], "money_cents": [0, 0], "matches": []},
        {"totals": [0, 0], "money_cents": [0, 0], "matches": [{"totals": [0, 0]}]},
        {"totals": [0, 0], "money_cents": [0, True], "matches": []},
        {"totals": [0, 0], "money_cents": [0, 0], "matches": [7]},
    ):
        with pytest.raises(StoreError, match="carried score sheet is damaged"):
            carried_from_json(damaged)


# -- the save's statements in the driver's own SQL (issue 41's capacity) ----------------------
def _table_rows(store: Store, tid: str) -> tuple[list[tuple[object, ...]], tuple[object, ...]]:
    with store.engine.connect() as conn:
        actions = conn.execute(
            text(
                "SELECT version, hand, action, stand_in FROM actions "
                "WHERE table_id = :t ORDER BY version"
            ),
            {"t": tid},
        ).all()
        row = conn.execute(
            text("SELECT version, status, header, updated FROM tables WHERE id = :t"),
            {"t": tid},
        ).one()
    return [tuple(a) for a in actions], tuple(row)


def _save_to(store: Store, holder: dict[str, str], record: Record) -> None:
    store.save(holder["id"], record, PLAYING)


def test_the_drivers_own_statements_write_what_sqlalchemys_would(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save's UPDATE and INSERT go to sqlite3 and psycopg in their own SQL
    (:mod:`cherki.server.driver`), and write what SQLAlchemy's statements write: the same
    match saved once each way reads back the same, row for row, the time as a time."""
    from cherki.server import driver

    ran: list[str] = []
    execute = driver.Driver.execute

    def counted(self: driver.Driver, conn: object, sql: str, *a: object, **k: object) -> int:
        ran.append(sql.split()[0])
        return execute(self, conn, sql, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(driver.Driver, "execute", counted)
    saved: dict[str, list[tuple[object, ...]]] = {}
    for way in ("driver", "sqlalchemy"):
        store = Store(url)
        if way == "sqlalchemy":  # anything listening to the statements: SQLAlchemy's
            event.listen(store.engine, "before_cursor_execute", lambda *_: None)
        holder: dict[str, str] = {}
        before = len(ran)
        session = _bots(partial(_save_to, store, holder), seed=9)
        holder["id"] = tid = store.create_table(session.record(), [(BOT, "random")] * 4).table_id
        start = datetime.now(UTC)
        for _ in session.run():
            pass
        actions, row = _table_rows(store, tid)
        saved[way] = [*actions, (type(row[3]).__name__, len(str(row[3])))]  # the time's form
        assert row[0] == len(actions) > 10 and row[1] == PLAYING
        updated = store.engine.dialect.name == "sqlite" and datetime.fromisoformat(str(row[3]))
        when = updated if updated else row[3]
        assert isinstance(when, datetime)
        assert abs((when.replace(tzinfo=UTC) - start).total_seconds()) < 120
        assert Store(url).record(tid).to_json() == session.record().to_json()
        if way == "driver":
            assert ran[before:].count("UPDATE") >= len(actions)
            assert ran[before:].count("INSERT") >= len(actions)
        else:
            assert len(ran) == before  # nothing went around the listener
        store.close()
    assert saved["driver"] == saved["sqlalchemy"]
