"""The session loop: seats, bots and a person, matches, and the record kept as play goes."""

from __future__ import annotations

import random

import pytest

from cherki import GAMES, find_game, make_bot
from cherki.core.errors import IllegalActionError, RecordError
from cherki.play.match import replay_match
from cherki.play.records import Record, parse_record
from cherki.play.session import (
    Acted,
    HandEnded,
    HandStarted,
    MatchEnded,
    Seat,
    Session,
    Stopped,
    StopSession,
)


def bots_session(name: str, players: int | None = None, **kw: object) -> Session:
    game = find_game(name)
    n = players or game.default_players
    seats = [Seat(f"B{i}", make_bot(name, "heuristic")) for i in range(n)]
    return Session(game, game.rules(), seats, seed=11, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_bots_play_a_match_and_the_record_replays_it(name: str) -> None:
    saved: list[Record] = []
    session = bots_session(name, hands=2, save=saved.append)
    events = list(session.run())
    assert isinstance(events[0], HandStarted) and isinstance(events[-1], MatchEnded)
    ended = [e for e in events if isinstance(e, HandEnded)]
    assert [e.index for e in ended] == list(range(len(ended)))
    acted = [e for e in events if isinstance(e, Acted)]
    # the record is handed over before each action is reported, and once per hand
    assert len(saved) >= len(acted) + len(ended)
    final = parse_record(saved[-1].dumps())
    again = replay_match(final)
    assert [r.payments for r in again.results] == [e.result.payments for e in ended]


def test_every_action_is_written_down_before_it_is_reported() -> None:
    saved: list[Record] = []
    session = bots_session("balik-satu", save=saved.append)
    for ev in session.run():
        if isinstance(ev, Acted):
            last = saved[-1]
            actions = last.hands[-1].actions
            assert actions[-1].startswith(f"{ev.seat}: ")
            assert actions[-1] == f"{ev.seat}: {session.game.action_text(ev.action)}"


@pytest.mark.parametrize("name", ["balik-satu", "ceki", "cholek-tiga"])
def test_the_record_saved_after_each_action_is_the_hand_whole(name: str) -> None:
    """The record handed over after every action holds the hand in play's whole history in
    notation, as the state words it from its start, hand after hand (the session keeps
    the notation as the hand grows: none is left out, repeated or kept from a hand before)."""
    saved: list[tuple[Record, list[str]]] = []
    session = bots_session(
        name, hands=3, save=lambda r: saved.append((r, list(r.hands[-1].actions)))
    )
    checked = 0
    for ev in session.run():
        if isinstance(ev, Acted) and session.state is not None:
            assert saved[-1][0].hands[-1].actions == session.state.action_texts()
            checked += 1
    assert checked > 20
    # each record handed over with a hand in play is a copy: no later action changed its
    # hand (between hands the match's own record is handed over, and grows with it)
    copies = [(record, then) for record, then in saved if record is not session.match.record]
    assert len(copies) >= checked
    assert all(record.hands[-1].actions == then for record, then in copies)


def test_a_person_plays_through_the_callback_and_may_stop() -> None:
    game = find_game("cholek-tiga")
    seats = [Seat("You"), Seat("Bot", make_bot(game.name, "random"))]
    saved: list[Record] = []
    session = Session(game, game.rules(), seats, seed=3, save=saved.append)
    asked: list[int] = []

    def person(state: object, seat: int) -> int:
        asked.append(seat)
        if len(asked) > 3:
            raise StopSession
        obs = session.state.observation(seat)  # type: ignore[union-attr]
        return obs.legal[0]

    events = list(session.run(person))
    assert isinstance(events[-1], Stopped)
    assert asked and all(s == 0 for s in asked)
    record = saved[-1]
    assert len(record.hands) == 1 and record.hands[0].result is None
    assert len(record.hands[0].actions) >= 3  # the person's moves and the bot's are kept


def test_step_by_step_and_refused_actions_change_nothing() -> None:
    session = bots_session("ceki", players=3)
    assert session.to_act is None
    started = session.start_hand()
    state = started.state
    seat = session.to_act
    assert seat == state.current
    before = (list(state.history), state.observation(seat))
    with pytest.raises(IllegalActionError):
        session.act((seat + 1) % 3, state.legal_actions()[0])
    with pytest.raises(IllegalActionError):
        session.act(seat, 10_000)
    assert (list(state.history), state.observation(seat)) == before
    while session.to_act is not None:
        action = session.bot_action()
        acted = session.act(session.to_act, action)
        assert acted.action == action
    ended = session.finish_hand()
    assert ended.result == state.result
    with pytest.raises(IllegalActionError, match="no hand is in progress"):
        session.bot_action()


def test_only_a_bot_seat_to_act_is_asked_of_its_bot() -> None:
    game = find_game("balik-satu")
    seats = [Seat("You"), Seat("Bot", make_bot(game.name, "random"))]
    table = Session(game, game.rules(), seats, seed=1)
    table.start_hand()
    assert table.to_act == 0
    with pytest.raises(IllegalActionError, match="is a person"):
        table.bot_action(0)
    with pytest.raises(IllegalActionError, match="not seat 1's turn"):
        table.bot_action(1)
    state = table.state
    assert state is not None
    table.act(0, state.legal_actions()[0])
    assert table.to_act == 1 and isinstance(table.bot_action(), int)


def test_shared_and_separate_generators() -> None:
    game = find_game("balik-satu")
    bots = [make_bot(game.name, "random") for _ in range(2)]
    seats = [Seat(f"B{i}", b) for i, b in enumerate(bots)]
    one = Session(game, game.rules(), seats, seed=5)
    two = Session(game, game.rules(), seats, seed=5, rngs=[random.Random(1), random.Random(2)])
    a = [e.action for e in one.run() if isinstance(e, Acted)]
    b = [e.action for e in two.run() if isinstance(e, Acted)]
    assert a and b
    with pytest.raises(ValueError, match="one generator per seat"):
        Session(game, game.rules(), seats, seed=5, rngs=[random.Random(1)])


def test_a_session_resumes_a_record_from_its_last_action() -> None:
    game = find_game("chaqui")
    bots = [Seat(f"B{i}", make_bot("chaqui", "heuristic")) for i in range(3)]
    saved: list[Record] = []
    first = Session(game, game.rules(), bots, seed=21, hands=2, save=saved.append)
    events = first.run()
    acted = 0
    for ev in events:  # stop part-way through the second hand, as a crash would
        if isinstance(ev, Acted) and len(first.match.results) == 1:
            acted += 1
            if acted == 5:
                break
    record = parse_record(saved[-1].dumps())
    assert record.table is not None and record.table.hands == 2
    assert record.table.seats == ("heuristic",) * 3
    again = Session.resume(record, bots, save=saved.append)
    assert again.state is not None and len(again.state.history) == 5
    assert len(again.match.results) == 1
    tail = list(again.run())
    assert isinstance(tail[0], HandStarted) and tail[0].resumed
    assert isinstance(tail[-1], MatchEnded) and again.match.scored_hands == 2
    final = replay_match(parse_record(saved[-1].dumps()))
    assert final.totals == again.match.totals


def test_a_record_without_its_table_does_not_resume() -> None:
    game = find_game("ceki")
    rec = Record(game, game.rules(), ["a", "b"])
    with pytest.raises(RecordError, match="who played each seat"):
        Session.resume(rec, [Seat("a"), Seat("b")])
