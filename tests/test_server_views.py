"""The parts of a state message that the server works out once for all a change's readers
(issue 41's capacity, :func:`cherki.server.present.public_parts`): every seat's public side
and the middle of the table are worked out from the game's public view, and each reader's
rows are what its own observation gives, its own row being ``you``; a game whose public
parts speak to the reader (Chot: "partners with you") gets them worked out for each reader.
Events every viewer sees whole share their data, and what changes only when a hand ends is
encoded once, changing no byte of a message."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from cherki.core.contract import Game
from cherki.games import GAMES
from cherki.i18n import LANGUAGES
from cherki.i18n.voice import Voice
from cherki.play.session import Session
from cherki.server import present
from cherki.server.registry import Tables
from cherki.server.settings import SeatPlan
from cherki.server.store import Store
from cherki.server.tables import Table


def _players(game: Game) -> int:
    lo, hi = game.players
    return 4 if lo <= 4 <= hi else hi


@pytest.mark.parametrize("name", sorted(GAMES))
def test_shared_public_parts_are_each_readers_own(name: str) -> None:
    """At every step of a hand played at random, for every seat and the spectators and in
    every language: the rows and the table worked out once from the public view are what
    the reader's own observation gives (bar ``you``), or the game is one that speaks to
    the reader and they are worked out for each."""
    game = GAMES[name]
    players = _players(game)
    rng = random.Random(3)
    state = game.new_state(None, players, rng=rng)
    speaks = False
    steps = 0
    while not state.is_terminal and steps < 400:
        public = state.public_observation()
        for lang in LANGUAGES:
            voice = Voice.of(None, players, None, lang)
            shared = present.public_parts(public, game, voice)
            if shared is None:
                speaks = True
                continue
            for seat in (*range(players), None):
                obs = state.observation(seat) if seat is not None else public
                own = Voice.of(None, players, seat, lang)
                rows = present._as_seen_by(shared[0], seat)
                assert rows == present.seats_view(obs, game, own), (name, seat, lang, steps)
                assert shared[1] == present.table_view(obs, game, own), (name, seat, lang)
                assert [r["you"] for r in rows] == [s == seat for s in range(players)]
        state.apply(rng.choice(state.legal_actions()), state.current)
        steps += 1
    assert steps > 5
    # only Chot words a seat's side for its reader ("partners with you")
    assert speaks == (name == "chot")


def test_the_shared_rows_are_never_changed() -> None:
    """A reader's own ``you`` row is a copy: the rows shared by every reader stay as they
    were made."""
    game = GAMES["balik-satu"]
    state = game.new_state(None, 4, seed=1)
    shared = present.public_parts(state.public_observation(), game, Voice.of(None, 4))
    assert shared is not None
    before = json.dumps(shared)
    for seat in (0, 1, 2, 3, None):
        present._as_seen_by(shared[0], seat)
    assert json.dumps(shared) == before
    assert not any(r["you"] for r in shared[0])


def _people_table(tables: Tables, hands: int) -> Table:
    """A Tantanan table of three people, hands one after another."""
    people = [SeatPlan("human")] * 3
    table_id, _, _ = tables.create("tantanan", None, {}, people, hands=hands, pause=False)
    table = tables.table(table_id)
    table.left_at = None
    return table


def _played(table: Table, rng: random.Random, steps: int) -> Iterator[Session]:
    """Plays ``table``'s seats at random, up to ``steps`` actions: the session after each."""
    for _ in range(steps):
        session = table.session
        if session.is_over() or session.state is None:
            return
        seat = session.to_act
        assert seat is not None
        table._act(seat, rng.choice(session.state.legal_actions()), table.version)
        yield session


def test_messages_share_public_events_and_parts(store: Store) -> None:
    """Over a whole match of bots' and people's actions, the state message of every seat
    and of a spectator, worked out together, is the message worked out alone (which
    shares nothing); public events' data are one object for every viewer."""
    table = _people_table(Tables(store), hands=2)
    readers = {(0, "en"), (1, "id"), (2, "en"), (None, "ms")}
    shared_events = 0
    for session in _played(table, random.Random(5), 60):
        together = table.views.texts(50.0, readers)
        views = table.views
        for who, lang in readers:
            table.views = type(views)(table)  # nothing worked out: each part made alone
            alone = json.loads(table.views.text(who, 50.0, 0, lang))
            table.views = views
            joint = json.loads(together[(who, lang)])
            for out in (alone, joint):
                del out["log_from"], out["events"], out["ui"]["log"]
            assert joint == alone, (who, lang)
        if session.state is not None:
            a, b = views.seen_by(0, "en"), views.seen_by(2, "en")
            shared_events += sum(x is y for x, y in zip(a.data, b.data, strict=True))
    assert shared_events > 0


def test_the_json_kept_of_a_hands_end_changes_no_byte(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over a match of several hands, every reader's message put together from the JSON
    kept of the match, the last result and the score sheet is, byte for byte, the message
    encoded whole; and a message orjson refuses (a lone surrogate) is encoded by json as
    before."""
    from cherki.server import views as views_module
    from cherki.server.messages import encode

    tables = Tables(store)
    table = _people_table(tables, hands=4)
    readers = [(0, "en"), (1, "ms"), (None, "en")]
    hands = 0
    for session in _played(table, random.Random(9), 2000):
        hands = len(session.match.results)
        for who, lang in readers:
            kept = table.views.text(who, 50.0, 0, lang)
            with monkeypatch.context() as m:
                m.setattr(views_module.Views, "_encode", lambda self, out: encode(out))
                whole = table.views.text(who, 50.0, 0, lang)
            assert kept == whole, (who, lang)
    assert hands >= 2
    assert len(table.views.fragments) <= views_module._MAX_FRAGMENTS
    out = table.views.view(0, 50.0, spliced=True)
    out["names"] = ["\ud800", *out["names"][1:]]
    assert table.views._encode(out) == encode(out)
