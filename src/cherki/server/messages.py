"""The messages of the table's WebSocket, both ways, as tagged unions on ``type``.

Incoming (client → server) messages are pydantic models, validated as one discriminated
union (:data:`Incoming`); anything else is answered with an :class:`ErrorOut` and changes
nothing. Outgoing (server → client) messages are :class:`typing.TypedDict` s, one per
``type`` (:data:`Outgoing`): checked by mypy where they are built, serialised once with
:func:`encode` and the same text sent to every connection that may see it.
"""

from __future__ import annotations

import json
from typing import Annotated, Literal, TypedDict

import orjson
from pydantic import BaseModel, Field, TypeAdapter

from cherki.core.events import JSON
from cherki.core.view import ActionView, SeatLine, Zone


# -- client → server ------------------------------------------------------------------------------
class Act(BaseModel):
    """Play ``action`` (an id from the legal list, or its notation) at ``version``."""

    type: Literal["act"]
    action: int | str
    version: int


class Ping(BaseModel):
    type: Literal["ping"]


class Hint(BaseModel):
    type: Literal["hint"]


class Back(BaseModel):
    """Take the seat back from the stand-in bot that played it while its time had run out."""

    type: Literal["back"]


class Next(BaseModel):
    """Deal the next hand as far as this person is concerned (the result was seen)."""

    type: Literal["next"]


class Again(BaseModel):
    """Ask for another match at the same table (once the match is over)."""

    type: Literal["again"]


class Say(BaseModel):
    """A chat message from a person's seat (:mod:`cherki.server.chat`)."""

    type: Literal["chat"]
    text: str


class Emote(BaseModel):
    """A quick reaction from a person's seat, one of :data:`cherki.server.chat.EMOTES`."""

    type: Literal["emote"]
    emote: str


Incoming = TypeAdapter(
    Annotated[Act | Ping | Hint | Back | Next | Again | Say | Emote, Field(discriminator="type")]
)


# -- server → client: what the page shows (``ui``, :mod:`cherki.server.present`) -----------------
class DrawnOut(TypedDict):
    """The card the seat just drew or took, and a sentence on it."""

    card: str
    text: str


class RankGroup(TypedDict):
    rank: int
    cards: list[str]


class HandOut(TypedDict):
    """The seat's hand grouped by printed rank, with what its game shows under it
    (:class:`~cherki.core.view.HandExtras`)."""

    count: int
    groups: list[RankGroup]
    sets: list[list[str]]
    leftover: list[str]
    winning: bool
    laid: list[str]


class SeatOut(TypedDict):
    """One seat's public side of the table: its name, its cards in hand, its call and the
    lines its game shows under it (:class:`~cherki.core.view.SeatSide`)."""

    seat: int
    name: str
    you: bool
    turn: bool
    cards: int
    call: str | None
    lines: list[SeatLine]


class TableOut(TypedDict):
    """The table's middle: the zones the game declares (:class:`~cherki.core.view.Zone`)."""

    zones: list[Zone]


class ItemOut(TypedDict):
    label: str
    points: str
    cards: list[str]


class PaymentOut(TypedDict):
    seat: int
    name: str
    points: str
    money: str


class FinalHand(TypedDict):
    seat: int
    name: str
    cards: list[str]


class ResultOut(TypedDict, total=False):
    """A finished hand's public result; ``notes`` and ``final_hands`` once it is the
    match's last result."""

    hand: int
    summary: str
    items: list[ItemOut]
    total: int
    payments: list[PaymentOut]
    #: the payments' points column's heading, as the game words it (Chot: tokens)
    points_heading: str
    winner: int | None
    hand_cards: list[str]
    sets: list[list[str]]
    winning_card: str | None
    turned: list[str]
    redeal: bool
    notes: list[str]
    final_hands: list[FinalHand]


class SheetRow(TypedDict):
    hand: JSON
    totals: list[str]
    how: str
    pot: str


class SheetOut(TypedDict):
    """The match's running score sheet."""

    names: list[str]
    rows: list[SheetRow]
    has_pot: bool
    scored: list[str] | None
    money: list[str]
    lines: list[str]
    hands_played: int
    match_length: int | None


class KeyOut(TypedDict):
    """A keyboard key of the game's own actions and what it does."""

    key: str
    label: str


class UiOut(TypedDict):
    """What the browser shows beside a seat's observation (:func:`present.seat_view`)."""

    log: list[str]
    actions: list[ActionView]
    hand: HandOut | None
    drawn: DrawnOut | None
    seats: list[SeatOut]
    table: TableOut | None
    status: str
    result: ResultOut | None
    sheet: SheetOut | None
    title: str
    call_names: list[str]
    #: the game's own terms the page explains (``glossary.<term>``)
    glossary: list[str]
    #: what a player says aloud at an event, by the event's kind (``GameView.shouts``)
    shouts: dict[str, str]
    #: the keyboard keys of the game's own actions (``GameView.keys``)
    keys: list[KeyOut]


# -- HTTP answers: a record replayed (``/api/replay``, :func:`cherki.server.pages.frames`) ---------
class FrameOut(TypedDict):
    """One step of a replayed hand: the action, the log, every hand face up, the table as
    the page draws it and the result once the hand is over."""

    hand: int
    step: int
    action: str
    notation: str
    log: list[str]
    hands: list[list[str]]
    seats: list[SeatOut]
    table: TableOut
    status: str
    result: ResultOut | None


class HandSpan(TypedDict):
    """Where a hand's frames start and end."""

    hand: int
    start: int
    end: int


class ReplayOut(TypedDict, total=False):
    """A record's frames; ``table`` when the record is a table's of this server."""

    game: str
    title: str
    players: list[str]
    hands: list[HandSpan]
    frames: list[FrameOut]
    table: str


# -- server → client ------------------------------------------------------------------------------
class TimerOut(TypedDict):
    seconds: int
    remaining: float | None
    seat: int | None


class MatchTotals(TypedDict):
    """What one match left each seat: its points and its money (cents)."""

    totals: list[int]
    money_cents: list[int]


class RunningOut(TypedDict):
    """The score sheet across a table's matches: which match this is (from 0), what each
    earlier match left, and the running totals with this one's."""

    number: int
    earlier: list[MatchTotals]
    totals: list[int]
    money_cents: list[int]


class StateOut(TypedDict, total=False):
    """The table as one viewer may see it (``seat`` None: a spectator, who is sent the
    game's public view). ``missed`` only in the first message of a connection that named
    the version it last saw. ``events`` and ``ui.log`` hold the hand's log from entry
    ``log_from`` on: the client keeps the entries before it (0: the whole log)."""

    type: Literal["state"]
    table: str
    game: str
    seat: int | None
    names: list[str]
    version: int
    hand_number: int
    #: the match so far (``Match.to_json``) and the last hand's result (``Result.to_json``)
    match: dict[str, JSON]
    last_result: dict[str, JSON] | None
    over: bool
    timer: TimerOut | None
    people: list[bool]
    away: list[int]
    #: the viewer's observation (``docs/observations.md``) and the hand's events as it saw
    #: them (``Event.to_json``)
    observation: dict[str, JSON] | None
    events: list[JSON]
    ui: UiOut
    missed: list[str]
    log_from: int
    #: the score sheet across the table's matches (``Table.running``)
    matches: RunningOut
    #: the people's seats that asked for another match
    again: list[int]
    #: the people's seats the next hand waits for (None: it does not wait)
    waiting: list[int] | None
    #: the table's settings: hints, bot_pace, pause, timer
    settings: dict[str, JSON]


class ErrorOut(TypedDict):
    """A refused message (nothing changed), or why the connection is being closed."""

    type: Literal["error"]
    message: str


class HintOut(TypedDict):
    type: Literal["hint"]
    lines: list[str]


class PongOut(TypedDict):
    type: Literal["pong"]


class ClosingOut(TypedDict):
    """Sent just before the server closes the connection: why, and whether coming back
    (with ``?since=``) will work."""

    type: Literal["closing"]
    message: str
    reconnect: bool


class ChatLine(TypedDict):
    """One line of the table's chat: its running number ``n`` (from 1), the seat that said
    it, ``kind`` (``text`` or ``emote``), the words (or the emote), and where in the game it
    was said: the table's ``version``, the match in play (``match``, from 0), its hand in
    play (``hand``, from 0) and how many of that hand's log entries there were (``at``);
    ``time`` in UTC (ISO 8601)."""

    n: int
    seat: int
    kind: str
    text: str
    version: int
    match: int
    hand: int
    at: int
    time: str


class ChatOut(TypedDict):
    """Chat lines: each new one as it is said (``history`` false), or those a connection
    missed, sent after its first state message (``history`` true). ``open``: whether this
    viewer is shown the chat (a spectator only when the host allows)."""

    type: Literal["chat"]
    lines: list[ChatLine]
    open: bool
    history: bool


Outgoing = StateOut | ErrorOut | HintOut | PongOut | ClosingOut | ChatOut


def compact(value: object) -> str:
    """``value`` as compact JSON text (no spaces, non-ASCII as it is): orjson, about ten
    times as fast as :func:`json.dumps` (a state message is encoded for every reader at
    every action: ``benchmarks/README.md``, issue 41), the same JSON as :func:`json.dumps`
    gave (a float may be spelt otherwise: ``1e-7`` for ``1e-07``); what orjson refuses (a
    lone surrogate in a string, an integer past 64 bits, a key that is not a string) is
    encoded by :mod:`json` as before."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError is one
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def encode(message: Outgoing) -> str:
    """A message as the text sent on the socket."""
    return compact(message)


def error(message: str) -> str:
    return encode(ErrorOut(type="error", message=message))


def closing(message: str, *, reconnect: bool) -> str:
    return encode(ClosingOut(type="closing", message=message, reconnect=reconnect))


PONG = encode(PongOut(type="pong"))
