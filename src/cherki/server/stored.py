"""The heavy requests' jobs on a table's record (:class:`cherki.server.service.Heavy`):
a record to download and a finished match's replay, worked out in the heavy requests'
low-priority process from what the database holds.

Our specification
-----------------
* **The serving process does none of the work.** It hands the job the database's URL, the
  table, the match and the viewer; the job reads the match's log from the database itself
  (:meth:`cherki.server.store.Store.stored`, one store per URL kept open in that process,
  which neither prepares the schema nor does checkpoints), assembles the record, keeps
  what the viewer may see (:func:`cherki.server.registry.record_for`) and writes the JSON.
  The event loop that serves every table pays only for sending a few small arguments and
  receiving the answer: no copy of the record, no serialisation, no parsing, and no
  thread of the serving process taking the interpreter's lock for it. (Sending the log
  the store remembers instead would cost a pickle of the whole log in the serving
  process: reading it again in the other process costs the loop nothing.)
* **The live match is the one stored**: every action is stored before anyone is told of
  it, so the log read is the table's at the request or later; the job says the version
  it read, and the answer is kept under that version. Whether the match is over is read
  with it (the table's status, or a match that another follows), so a hand in play is
  never shown whole. The players' names are the table's (a seat taken or renamed since the
  last action is written in the record's header only with the next action): the serving
  process passes them.
* A database the heavy process cannot open answers in words (503, as when the database
  is away; an SQLite database in memory, ``sqlite://``, serves no tables anyway).
"""

from __future__ import annotations

import json

from cherki.core.errors import CherkiError
from cherki.play.records import Record, parse_record
from cherki.server import pages
from cherki.server.registry import record_for
from cherki.server.store import Store, StoreUnavailable

#: the stores this (heavy) process has opened, by URL
_readers: dict[str, Store] = {}


def reader(url: str) -> Store:
    """This process's store on the database at ``url`` (opened on first use)."""
    store = _readers.get(url)
    if store is None:
        store = _readers[url] = Store(url, prepare=False)
    return store


def record_json(record: Record | str, seat: int | None, over: bool) -> str:
    """The record (or its text) as ``seat`` (None: a spectator) may have it, as JSON."""
    return json.dumps(record_for(record, seat, over), indent=1, ensure_ascii=False) + "\n"


def replay_json(
    record: Record | str, table_id: str | None = None, lang: str | None = None
) -> tuple[int, str]:
    """The replay frames of a record (or its text: status 200), or the reader's message
    (400), in the language ``lang`` (English unless told)."""
    try:
        out = pages.frames(parse_record(record) if isinstance(record, str) else record, lang)
    except CherkiError as err:
        return 400, str(err)
    if table_id is not None:
        out["table"] = table_id
    return 200, json.dumps(out, ensure_ascii=False)


def _refused(err: CherkiError) -> tuple[int, str]:
    return (503 if isinstance(err, StoreUnavailable) else 404), str(err)


def record_job(
    url: str, table_id: str, match: int, seat: int | None, players: list[str] | None
) -> tuple[int, str, int]:
    """In the heavy process: match ``match``'s record of the table as ``seat`` may have
    it, read from the database (``players``: the table's names for the seats, for the
    match in play); ``(200, JSON, the table's version read)``, or ``(404 or 503, why,
    -1)``."""
    try:
        record, over, version = reader(url).stored(table_id, match)
    except CherkiError as err:
        return (*_refused(err), -1)
    if players is not None and len(players) == len(record.players):
        record.players = list(players)
    return 200, record_json(record, seat, over), version


def replay_job(url: str, table_id: str, match: int, lang: str | None) -> tuple[int, str]:
    """In the heavy process: a finished match's replay, read from the database."""
    try:
        record, _, _ = reader(url).stored(table_id, match)
    except CherkiError as err:
        return _refused(err)
    return replay_json(record, table_id, lang)


def open_reader(url: str | None) -> None:
    """In the heavy process, as it starts: the store on ``url`` opened (and connected)."""
    if url is not None:
        with reader(url).engine.connect():
            pass
