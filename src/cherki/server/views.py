"""What each viewer of a live table sees (:class:`Views`): a table's state messages, worked
out once per viewer and language, and what a returning client missed.

A :class:`~cherki.server.tables.Table` changes; its :class:`Views` say it. The views keep
what they worked out (the hand's log as each viewer saw it, in data and in words, with their
JSON; the last result and score sheet; each seat's hand as the page shows it), since a
hand's log only grows: a message's cost does not grow with the hand. The table clears them
when what they were made of changes (a name, a new match).

Our specifications
------------------
* **Spectators see the game's public view** (``State.public_observation``: what anyone at
  the table may see) and the events as seat -1 saw them, which hides every private card.
* **Missed events**: a client that reconnects names the version it last saw; it is sent what
  happened since, in words, as its seat saw it: the events of the hand in play after that
  version (the hand is replayed from the record to find where that was) and the result of
  every hand that ended meanwhile, at most :data:`MAX_MISSED` lines (the latest).
* **What every reader shares is worked out once a change** (:meth:`Views.texts`): the
  names, the match and the settings per language; every seat's public side and the middle
  of the table per language, from the game's public view (each reader's own row marked
  ``you``; a game whose view words them for the reader, as Chot's "partners with you"
  does, gets them per reader: :func:`cherki.server.present.public_parts`); and the data of
  each event every viewer sees whole. A message worked out alone shares nothing and says
  the same (``tests/test_server_views.py``).
* **What changes only when a hand ends is encoded once** (:meth:`Views._encode`): the
  match, the last result and the score sheet (after 20 hands, more than half of a state
  message's text), and the game's static lists, are kept as their JSON (orjson's
  ``Fragment``) and put into each message as they are; the message's text is the same
  byte for byte.
* **A stand-in's actions are its own**: worded as the bot's (:func:`stand_in_voice`), live
  and in what a returning client missed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import orjson

from cherki.core.contract import Observation, State
from cherki.core.events import JSON, Event
from cherki.i18n import DEFAULT as DEFAULT_LANG
from cherki.i18n import words
from cherki.play.records import events_after, events_made_by, replay_hand
from cherki.play.session import Session
from cherki.server import present
from cherki.server.messages import HandOut, RunningOut, StateOut, TimerOut, compact, encode
from cherki.server.settings import MAX_MISSED
from cherki.ui.text import Voice, event_line, result_summary

_json = compact
#: placeholders of the hand's log in a state message, filled in by :meth:`Views.text` (no
#: name or text of a message holds a NUL)
_EVENTS, _LOG = "\x00events\x00", "\x00log\x00"
_EVENTS_TEXT, _LOG_TEXT = f"[{_json(_EVENTS)}]", f"[{_json(_LOG)}]"


#: the parts of a state message (None: of the message itself; "ui": of its ``ui``) that
#: change only when a hand ends, encoded once (:meth:`Views._encode`)
_KEPT = (
    (None, "match"),
    (None, "last_result"),
    ("ui", "result"),
    ("ui", "sheet"),
    ("ui", "call_names"),
    ("ui", "glossary"),
    ("ui", "keys"),
    ("ui", "shouts"),
)
#: at most this many parts' JSON kept per table (a few per viewer and language)
_MAX_FRAGMENTS = 256

#: who reads a state message: a seat (None: a spectator) and a language
Reader = tuple[int | None, str]


@dataclass
class Seen:
    """A hand's log as one viewer saw it: the events' data and words, and their JSON."""

    log: list[Event]
    count: int = 0
    data: list[JSON] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    data_text: list[str] = field(default_factory=list)
    lines_text: list[str] = field(default_factory=list)


class Viewed(Protocol):
    """What the views read of a table (:class:`cherki.server.tables.Table`)."""

    id: str
    session: Session
    #: (version, seat, monotonic deadline) of the person to act, with a timer
    deadline: tuple[int, int, float] | None
    away: set[int]
    again: set[int]
    waiting: set[int] | None
    base: int
    stand_ins: set[int]

    @property
    def version(self) -> int: ...
    @property
    def timer(self) -> int | None: ...
    @property
    def hints(self) -> bool: ...
    @property
    def pace(self) -> float: ...
    @property
    def pauses(self) -> bool: ...
    def running(self) -> RunningOut: ...
    def marks(self) -> set[int]: ...


class Views:
    """What ``table``'s viewers see, and what was worked out of it (see the module's notes).
    Its methods run under the table's lock (or on the event loop)."""

    def __init__(self, table: Viewed) -> None:
        self.table = table
        #: per viewer (-1: spectators) and language: the hand's log as events, their data
        #: and words
        self.seen: dict[tuple[int, str], Seen] = {}
        #: per viewer and language: the last result and score sheet, and the hand count
        #: they are of
        self.finished: dict[tuple[int, str], tuple[int, present.Finished]] = {}
        #: per viewer and language: the hand's log and how much of it its last state
        #: message held
        self.sent: dict[tuple[int, str], tuple[list[Event], int]] = {}
        #: the hand's log and, by index, each event's data and JSON as seen whole
        self.events: tuple[list[Event], dict[int, tuple[JSON, str]]] = ([], {})
        #: per seat: its hand as the page shows it, and the cards it is of
        self.hands: dict[int, tuple[str, HandOut]] = {}
        #: while :meth:`texts` works out one change's messages: the part of a state
        #: message that every reader in a language shares (None: not in :meth:`texts`),
        #: the table's public parts in each language and the public observation
        self.shared: dict[str, StateOut] | None = None
        self.publics: dict[str, present.Public | None] = {}
        self.public_obs: Observation | None = None
        #: the match's JSON and its last result's, and what they were made of (the match,
        #: its hand count and length): they change only when a hand ends
        self.match_json: (
            tuple[object, tuple[object, ...], dict[str, JSON], dict[str, JSON] | None] | None
        ) = None
        #: by ``id``: parts of a state message that change only when a hand ends, and their
        #: JSON (each kept with the part itself, so that the ``id`` stays its own)
        self.fragments: dict[int, tuple[object, orjson.Fragment]] = {}

    def forget(self, *, hands: bool = False) -> None:
        """What was worked out is stale (a name changed, another match began)."""
        self.seen.clear()
        self.finished.clear()
        self.sent.clear()
        self.match_json = None
        self.fragments.clear()
        self.events = ([], {})
        if hands:
            self.hands.clear()

    def view(
        self,
        seat: int | None,
        now: float | None = None,
        *,
        spliced: bool = False,
        lang: str = DEFAULT_LANG,
    ) -> StateOut:
        """What ``seat`` (None: a spectator) may be sent now: its observation of the hand in
        play (a spectator: the public view) and the hand's events as it saw them, the names,
        the version, the match's running totals, the turn timer and who is away. ``spliced``:
        the events and the log in words are placeholders that :meth:`text` fills with
        their JSON, kept as the hand's log grows. ``lang``: the language of its words."""
        session = self.table.session
        state = session.state
        viewer = seat if seat is not None else -1
        shared = self.shared.get(lang) if self.shared is not None else None
        if shared is None:
            shared = self._shared(now, lang)
            if self.shared is not None:
                self.shared[lang] = shared
        out = shared.copy()
        out["seat"] = seat
        finished = self.finished_views(viewer, seat, lang)
        if state is None:
            out["observation"] = None
            out["events"] = []
            out["ui"] = present.seat_view(session, seat, finished=finished, lang=lang)
            if self.table.waiting is not None:
                out["ui"]["status"] = words(lang).t(
                    "status.next_hand_wait", n=len(session.match.results)
                )
            return out
        obs = state.observation(seat) if seat is not None else self._public_obs(state)
        data = obs.to_json()
        seen = self.seen_by(viewer, lang)
        out["observation"] = data
        out["events"] = [_EVENTS] if spliced else list(seen.data)
        lines = [_LOG] if spliced else list(seen.lines)
        hand = None
        if seat is not None:
            shown = self.hands.get(seat)
            # the hand's view depends on the seat's own fields alone (its hand, cards laid)
            cards = repr([data.get(f) for f in obs.own_fields if f != "legal"])
            if shown is None or shown[0] != cards:
                shown = (cards, present.hand_view(obs, session.game))
                self.hands[seat] = shown
            hand = shown[1]
        out["ui"] = present.seat_view(
            session,
            seat,
            obs=obs,
            log=lines,
            finished=finished,
            hand=hand,
            lang=lang,
            public=self._public_parts(state, lang) if self.shared is not None else None,
        )
        return out

    def _public_obs(self, state: State) -> Observation:
        """The game's public view of the hand in play (kept through one change's
        messages)."""
        if self.shared is None:
            return state.public_observation()
        if self.public_obs is None:
            self.public_obs = state.public_observation()
        return self.public_obs

    def _public_parts(self, state: State, lang: str) -> present.Public | None:
        """In :meth:`texts`: every seat's public side and the middle of the table in
        ``lang``, worked out from the public view once per change and language
        (:func:`present.public_parts`; None: for each reader)."""
        if lang not in self.publics:
            session = self.table.session
            voice = Voice.of(session.names, len(session.seats), None, lang)
            self.publics[lang] = present.public_parts(self._public_obs(state), session.game, voice)
        return self.publics[lang]

    def _shared(self, now: float | None, lang: str) -> StateOut:
        """The part of a state message that is the same for every reader in ``lang``
        (names, version, the match, the timer, who is away, the settings): worked out once
        per language in :meth:`texts`."""
        session = self.table.session
        seconds = self.table.timer
        held = self.table.deadline
        timer: TimerOut | None = None
        if seconds:
            left = None
            if held is not None and now is not None:
                left = round(max(0.0, held[2] - now), 1)
            timer = TimerOut(
                seconds=seconds, remaining=left, seat=held[1] if held and held[1] >= 0 else None
            )
        m = session.match
        key = (len(m.results), m.hands, m.target, m.until_stopped)
        kept = self.match_json
        if kept is None or kept[0] is not m or kept[1] != key:
            last = m.results[-1].to_json() if m.results else None
            kept = self.match_json = (m, key, m.to_json(), last)
        _, _, match, last = kept
        return StateOut(
            type="state",
            table=self.table.id,
            game=session.game.name,
            seat=None,
            # the names cherki gave ("Seat 2", "Bot 1 (heuristic)") in the viewer's language
            names=list(Voice.of(session.names, len(session.seats), None, lang).names),
            version=self.table.version,
            hand_number=len(session.match.results),
            match=match,
            last_result=last,
            over=session.is_over(),
            timer=timer,
            people=[s.bot is None for s in session.seats],
            away=sorted(self.table.away),
            matches=self.table.running(),
            again=sorted(self.table.again),
            waiting=None if self.table.waiting is None else sorted(self.table.waiting),
            settings={
                "hints": self.table.hints,
                "bot_pace": self.table.pace,
                "pause": self.table.pauses,
                "timer": seconds or None,
            },
        )

    def finished_views(
        self, viewer: int, seat: int | None, lang: str = DEFAULT_LANG
    ) -> present.Finished:
        """The last result and score sheet as ``viewer`` reads them (kept until a hand
        ends or a name changes)."""
        session = self.table.session
        hands = len(session.match.results)
        held = self.finished.get((viewer, lang))
        if held is not None and held[0] == hands:
            return held[1]
        voice = Voice.of(session.names, len(session.seats), seat, lang)
        made = (present.last_result(session, voice), present.score_sheet(session.match, voice))
        self.finished[(viewer, lang)] = (hands, made)
        return made

    def seen_by(self, viewer: int, lang: str = DEFAULT_LANG) -> Seen:
        """The hand in play's events as ``viewer`` saw them (-1: a spectator), as data and
        in words, each with its JSON; worked out once per event, since a hand's log only
        grows."""
        session = self.table.session
        state = session.state
        assert state is not None
        seen = self.seen.get((viewer, lang))
        if seen is None or seen.log is not state.log:
            seen = Seen(state.log)
            self.seen[(viewer, lang)] = seen
        if seen.count < len(state.log):
            you = None if viewer < 0 else viewer
            voice = Voice.of(session.names, len(session.seats), you, lang)
            marks = self.table.marks()
            for i, e in enumerate(state.log[seen.count :], start=seen.count):
                mine = e.seen_by(viewer)
                if mine is e:  # seen whole: its data as every such viewer has it
                    data, data_text = self._event_json(state.log, i)
                else:
                    data = mine.to_json()
                    data_text = _json(data)
                said = stand_in_voice(voice, e.seat) if i in marks else voice
                line = event_line(mine, session.game, said)
                seen.data.append(data)
                seen.lines.append(line)
                seen.data_text.append(data_text)
                seen.lines_text.append(_json(line))
            seen.count = len(state.log)
        return seen

    def _event_json(self, log: list[Event], i: int) -> tuple[JSON, str]:
        """Event ``i`` of the hand's ``log`` as data and its JSON, as every viewer who
        sees it whole has it: worked out once (the data is shared, never changed)."""
        kept = self.events
        if kept[0] is not log:
            kept = self.events = (log, {})
        made = kept[1].get(i)
        if made is None:
            data = log[i].to_json()
            made = kept[1][i] = (data, _json(data))
        return made

    def text(self, seat: int | None, now: float, start: int = 0, lang: str = DEFAULT_LANG) -> str:
        """The text of ``seat``'s state message: encoded without the hand's log, which is
        spliced in from the JSON kept of each event (the message's cost does not grow
        with the hand): the log from entry ``start`` on (``log_from``; the client keeps
        the entries before it)."""
        out = self.view(seat, now, spliced=True, lang=lang)
        if self.table.session.state is None:
            out["log_from"] = 0
            return self._encode(out)
        seen = self.seen_by(seat if seat is not None else -1, lang)
        start = min(start, seen.count)
        out["log_from"] = start
        text = self._encode(out)
        events = "[" + ",".join(seen.data_text[start:]) + "]"
        lines = "[" + ",".join(seen.lines_text[start:]) + "]"
        return text.replace(_EVENTS_TEXT, events, 1).replace(_LOG_TEXT, lines, 1)

    def _encode(self, out: StateOut) -> str:
        """``out`` as the text sent, its parts that change only when a hand ends (the
        match, the last result, the score sheet, the game's static lists) put in as the
        JSON kept of them (the same text as :func:`encode` gives)."""
        ui = out["ui"]
        fast: dict[str, object] = dict(out)
        fast_ui: dict[str, object] = dict(ui)
        for into, key in _KEPT:
            value = (out if into is None else ui).get(key)
            if value is not None:
                (fast if into is None else fast_ui)[key] = self._fragment(value)
        fast["ui"] = fast_ui
        try:
            return orjson.dumps(fast).decode()
        except TypeError:  # what orjson refuses (a lone surrogate in a name): json's own
            return encode(out)

    def _fragment(self, value: object) -> orjson.Fragment:
        """``value``'s JSON, made once while ``value`` is what the views hold (parts that
        change only when a hand ends are made anew then, and never changed in place)."""
        kept = self.fragments.get(id(value))
        if kept is None or kept[0] is not value:
            if len(self.fragments) >= _MAX_FRAGMENTS:  # a hand ended: the old ones go
                self.fragments.clear()
            kept = self.fragments[id(value)] = (value, orjson.Fragment(compact(value)))
        return kept[1]

    def texts(self, now: float, seats: set[Reader]) -> dict[Reader, str]:
        """The text of the state message of each reader in ``seats`` (a seat and a
        language), each worked out once,
        holding the hand's log from where the viewer's last such message left it: every
        connection of the viewer has had that message, or joined since with the whole log
        (:meth:`Table.join`)."""
        state = self.table.session.state
        out: dict[Reader, str] = {}
        self.shared = {}
        try:
            self._texts(now, seats, state, out)
        finally:
            self.shared = None
            self.publics.clear()
            self.public_obs = None
        return out

    def _texts(
        self, now: float, seats: set[Reader], state: State | None, out: dict[Reader, str]
    ) -> None:
        for seat, lang in seats:
            viewer = seat if seat is not None else -1
            held = self.sent.get((viewer, lang))
            start = (
                held[1] if state is not None and held is not None and held[0] is state.log else 0
            )
            out[(seat, lang)] = self.text(seat, now, start, lang)
            if state is not None:
                self.sent[(viewer, lang)] = (state.log, self.seen_by(viewer, lang).count)
            else:
                self.sent.pop((viewer, lang), None)

    def missed(self, seat: int | None, since: int, lang: str = DEFAULT_LANG) -> list[str]:
        """What happened after version ``since``, in words, as ``seat`` saw it."""
        session = self.table.session
        if type(since) is not int or since >= self.table.version:
            return []
        since = max(0, since - self.table.base)  # from this match's first action
        record = session.record()
        voice = Voice.of(session.names, len(session.seats), seat, lang)
        viewer = seat if seat is not None else -1
        lines: list[str] = []
        start = 0
        for index, hand in enumerate(record.hands):
            end = start + len(hand.actions)
            if end <= since:  # seen to its end (a hand that ended was shown with its result)
                start = end
                continue
            skip = max(0, since - start)
            live = index == len(record.hands) - 1 and session.state is not None
            state = session.state if live else replay_hand(record, index, check=False)
            assert state is not None
            lines.append(voice.t("missed.hand", n=index + 1))
            first_event = events_after(record, index, skip)
            marks = events_made_by(record, index, start + self.table.base, self.table.stand_ins)
            for i, e in enumerate(state.events_for(viewer, first_event), start=first_event):
                said = stand_in_voice(voice, e.seat) if i in marks else voice
                lines.append(event_line(e, session.game, said))
            if not live and index < len(session.match.results):
                lines.append(result_summary(session.match.results[index], session.game, voice))
            start = end
        return lines[-MAX_MISSED:]


def stand_in_voice(voice: Voice, seat: int) -> Voice:
    """The words of an event a stand-in bot made for the person at ``seat``: the bot's,
    not the person's ("Your stand-in bot discards …", "Siti's stand-in bot discards …")."""
    if not 0 <= seat < len(voice.names):
        return voice
    names = list(voice.names)
    if voice.is_you(seat):
        names[seat] = voice.say("voice.stand_in", seat)
        return Voice(tuple(names), None if voice.you == seat else voice.you, voice.words)
    names[seat] = voice.say("voice.stand_in", seat)
    return Voice(tuple(names), voice.you, voice.words)
