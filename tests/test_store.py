"""The server's store (cherki.server.store): tables, seats bound to tokens, records written
with every action, against SQLite and a real PostgreSQL server."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from pg import postgres_server

from cherki.bots import make_bot
from cherki.games import find_game
from cherki.play.records import replay_hand
from cherki.play.session import Seat, Session
from cherki.server.store import BOT, FINISHED, HUMAN, PLAYING, Store, StoreError, token_hash


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
