"""The table's chat: short messages and quick reactions (emotes) from the people's seats,
stored with the table and shown among the game's log.

Our specifications
------------------
* **Who writes**: a person's seat, through its connection (``{"type": "chat", "text": …}``
  or ``{"type": "emote", "emote": "👍"}``). Spectators never write; they read the chat only
  when the table's host allows it (the table setting ``chat_spectators``, off by default,
  changed on the host's page: :func:`set_spectators`).
* **What a message may be**: trimmed, 1 to ``Limits.chat_chars`` characters (200), with no
  control character (no new line, tab or escape), no line or paragraph separator (U+2028,
  U+2029), and no invisible format character that reorders or hides the text around it
  (bidirectional marks, embeddings, overrides and isolates: U+061C, U+200E, U+200F,
  U+202A–U+202E, U+2066–U+2069; the zero-width space, the byte order mark and every other
  character of Unicode's kind Cf but the zero-width joiner and non-joiner and the flag
  emoji's tags), so one line stays one line and cannot pass itself off as another person's
  or the game's, nor reorder its neighbours. An emote is one of
  :data:`EMOTES`. Each is refused in words, nothing stored.
* **How often**: at most ``Limits.chat_messages`` messages and emotes from one seat in
  ``Limits.chat_seconds`` (all its connections together), and ``Limits.chat_lines`` lines a
  table in all. Each limit is refused in words.
* **Written before anyone is told**: each line is a row of the append-only ``chat`` table
  (schema revision ``0004``), committed before it is queued on the connections (their
  bounded queues: :mod:`cherki.server.connection`); it is made under the table's lock, as
  an action is, so a line and a page that opens are never out of step.
* **Where in the game**: each line keeps the table's version, the hand in play and how
  many entries of that hand's log there were; pages put it among the game's lines there.
* **Catch-up**: a page names the last line it holds (``?chat=N``; 0 for none) when it
  opens its socket, and is sent, after its first state message, the lines after that one
  (at most ``Limits.chat_history``, the latest). Each line has a running number, so a page
  that reconnects neither loses nor repeats one.
* **Muting** another seat is the page's own business (kept in the browser, per table): the
  server sends every line to everyone who may read it.
* Chat is people's words, in the open: it holds nothing the game hides.
"""

from __future__ import annotations

import asyncio
import json
import unicodedata
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text, func, select
from sqlalchemy.orm import Mapped, mapped_column

from cherki.core.errors import CherkiError
from cherki.core.events import JSON
from cherki.server.limits import Limits
from cherki.server.messages import ChatLine, ChatOut, Emote, Say, encode, error
from cherki.server.schema import Base, TableRow
from cherki.server.store import Store, StoreError
from cherki.server.tables import ChatRoom, Table
from cherki.server.words import Refused, said

if TYPE_CHECKING:
    from cherki.server.connection import Connection

#: the quick reactions a seat may send with one tap
EMOTES = ("👍", "😄", "😮", "😢", "🎉", "🙏")
#: the kinds of chat line
TEXT, EMOTE = "text", "emote"
#: the table setting that lets spectators read the chat (off when absent)
SPECTATORS = "chat_spectators"
#: characters that reorder the text around them (bidirectional embeddings, overrides,
#: isolates): refused, so a line cannot disguise itself
REORDERING = frozenset(chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)])
#: Unicode's kinds of character refused in a chat line: controls (Cc), the line and
#: paragraph separators (Zl, Zp: one line would be drawn as two), lone surrogates (Cs) and
#: the invisible format characters (Cf: the Arabic letter mark U+061C, the left-to-right
#: and right-to-left marks U+200E/U+200F, the zero-width space U+200B, the byte order mark
#: U+FEFF, the soft hyphen, …), which reorder or hide text
REFUSED_KINDS = frozenset({"Cc", "Zl", "Zp", "Cs", "Cf"})
#: format characters kept: the zero-width joiner and non-joiner (emoji sequences, Persian
#: and Indic writing) and the tag characters of flag emoji; none of them reorders a line
JOINERS = frozenset(["\u200c", "\u200d", *(chr(c) for c in range(0xE0020, 0xE0080))])


class ChatRow(Base):
    """One line of a table's chat (see the module's notes)."""

    __tablename__ = "chat"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    #: the line's running number in its table, from 1
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    text: Mapped[str] = mapped_column(Text)
    #: the table's version (actions recorded) when it was said
    version: Mapped[int] = mapped_column(Integer)
    #: the table's match in play (from 0; ``Table.number``), its hand in play (from 0) and
    #: how many entries of that hand's log there were
    match: Mapped[int] = mapped_column(Integer, default=0)
    hand: Mapped[int] = mapped_column(Integer)
    log_at: Mapped[int] = mapped_column(Integer)
    said: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# -- what a message may be ------------------------------------------------------------------------
def clean_text(text: str, limits: Limits) -> str:
    """A chat message as stored: trimmed, checked (a CherkiError in words for a bad one)."""
    text = text.strip()
    if not text:
        raise Refused("error.chat.empty")
    if len(text) > limits.chat_chars:
        raise Refused("error.chat.too_long", most=limits.chat_chars, n=len(text))
    for ch in text:
        if (unicodedata.category(ch) in REFUSED_KINDS and ch not in JOINERS) or ch in REORDERING:
            raise Refused("error.chat.control", code=f"U+{ord(ch):04X}")
    return text


def clean_emote(emote: str) -> str:
    if emote not in EMOTES:
        raise Refused("error.chat.emote", emotes=" ".join(EMOTES))
    return emote


# -- the store's side -------------------------------------------------------------------------
def _line(row: ChatRow) -> ChatLine:
    said = row.said if row.said.tzinfo is not None else row.said.replace(tzinfo=UTC)
    return ChatLine(n=row.number, seat=row.seat, kind=row.kind, text=row.text,
                    version=row.version, match=row.match, hand=row.hand, at=row.log_at,
                    time=said.isoformat(timespec="seconds"))  # fmt: skip


def load(store: Store, table_id: str, most: int) -> tuple[int, list[ChatLine]]:
    """How many lines the table's chat holds, and the latest ``most`` of them in order."""
    with store._tx() as s:
        count = s.scalar(select(func.max(ChatRow.number)).where(ChatRow.table_id == table_id))
        rows = s.scalars(
            select(ChatRow)
            .where(ChatRow.table_id == table_id)
            .order_by(ChatRow.number.desc())
            .limit(most)
        ).all()
        return int(count or 0), [_line(r) for r in reversed(rows)]


def append(store: Store, table_id: str, line: ChatLine) -> None:
    """Write one line (committed when this returns; refused, and nothing written, when
    this process no longer owns the table: :attr:`Store.fence`)."""
    with store._tx() as s:
        if store.fence is not None:
            store.fence(s.connection(), table_id)
        s.add(ChatRow(table_id=table_id, number=line["n"], seat=line["seat"], kind=line["kind"],
                      text=line["text"], version=line["version"], match=line["match"],
                      hand=line["hand"],
                      log_at=line["at"], said=datetime.fromisoformat(line["time"])))  # fmt: skip


def store_spectators(store: Store, table_id: str, allowed: bool) -> dict[str, JSON]:
    """Record whether the table's spectators read its chat; the table's settings after."""
    with store._tx() as s:
        if store.fence is not None:
            store.fence(s.connection(), table_id)
        row = s.get(TableRow, table_id)
        if row is None:
            raise StoreError(f"there is no table {table_id!r}")
        settings = json.loads(row.settings)
        settings[SPECTATORS] = bool(allowed)
        row.settings = json.dumps(settings)
        out: dict[str, JSON] = settings
        return out


# -- a table's chat (on the event loop) ---------------------------------------------------------
def spectators_read(table: Table) -> bool:
    """Whether the table's spectators are shown its chat (the host's choice)."""
    return bool(table.settings.get(SPECTATORS, False))


async def _room(table: Table, store: Store, limits: Limits) -> ChatRoom:
    """The table's chat, read from the store the first time (hold the table's lock)."""
    if table.chat is None:
        count, lines = await asyncio.to_thread(load, store, table.id, limits.chat_history)
        if table.chat is None:
            table.chat = ChatRoom(count, lines, limits)
    return table.chat


async def say(
    table: Table, conn: Connection, message: Say | Emote, store: Store, limits: Limits
) -> None:
    """A seat's chat message or emote: checked, written, then sent to everyone who reads
    the chat; a refused one is answered with an error in words and changes nothing."""
    seat = conn.seat
    if seat is None:
        conn.send(error(Refused("error.chat.spectator").said(conn.lang)))
        return
    try:
        if isinstance(message, Say):
            kind, text = TEXT, clean_text(message.text, limits)
        else:
            kind, text = EMOTE, clean_emote(message.emote)
    except CherkiError as err:
        conn.send(error(said(err, conn.lang)))
        return
    async with table.lock:
        try:
            room = await _room(table, store, limits)
        except CherkiError as err:
            conn.send(error(said(err, conn.lang)))
            return
        if room.count >= limits.chat_lines:
            full = Refused("error.chat.full", n=limits.chat_lines)
            conn.send(error(full.said(conn.lang)))
            return
        if not room.window.take(str(seat)):
            many = Refused(
                "error.chat.too_many", n=limits.chat_messages, s=f"{limits.chat_seconds:g}"
            )
            conn.send(error(many.said(conn.lang)))
            return
        session = table.session
        state = session.state
        line = ChatLine(
            n=room.count + 1,
            seat=seat,
            kind=kind,
            text=text,
            version=table.version,
            match=table.number,
            hand=len(session.match.results),
            at=len(state.log) if state is not None else 0,
            time=datetime.now(UTC).isoformat(timespec="seconds"),
        )
        try:
            if table.inline:
                append(store, table.id, line)
            else:
                await asyncio.to_thread(append, store, table.id, line)
        except CherkiError as err:
            conn.send(error(str(err)))
            return
        room.count += 1
        room.lines.append(line)
        text_out = encode(ChatOut(type="chat", lines=[line], open=True, history=False))
        spectators = spectators_read(table)
        for c in list(table.connections):
            if c.seat is not None or spectators:
                c.send(text_out)


async def join(table: Table, conn: Connection, after: int, store: Store, limits: Limits) -> None:
    """A connection that asked for the chat (``?chat=N``) is sent the lines after line
    ``after`` it holds (0: the latest ``chat_history``), or, for a spectator the host does
    not let read the chat, that it is closed."""
    async with table.lock:
        allowed = conn.seat is not None or spectators_read(table)
        lines: list[ChatLine] = []
        if allowed:
            try:
                room = await _room(table, store, limits)
            except CherkiError as err:
                conn.send(error(str(err)))
                return
            lines = [line for line in room.lines if line["n"] > after]
        conn.send(encode(ChatOut(type="chat", lines=lines, open=allowed, history=True)))


async def set_spectators(table: Table, allowed: bool, store: Store, limits: Limits) -> None:
    """The host lets the table's spectators read the chat, or stops them: stored, then the
    spectators connected now are sent the chat (or told it is closed)."""
    async with table.lock:
        settings = await asyncio.to_thread(store_spectators, store, table.id, allowed)
        table.settings[SPECTATORS] = settings[SPECTATORS]
        watchers = [c for c in table.connections if c.seat is None]
        if not watchers:
            return
        lines: list[ChatLine] = []
        if allowed:
            lines = list((await _room(table, store, limits)).lines)
        text = encode(ChatOut(type="chat", lines=lines, open=allowed, history=True))
        for c in watchers:
            c.send(text)
