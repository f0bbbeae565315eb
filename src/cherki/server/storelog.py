"""The log a table's record is written as (:mod:`cherki.server.store`'s tables ``hands`` and
``actions``), and what a save adds to it.

The store remembers per table what the database holds of its record (:class:`Written`);
:func:`change_of` compares a record with it, in memory, and says what is new
(:class:`Change`: only the new hands, actions and results) or refuses a record that
contradicts the log; :func:`write_log` writes a change in the caller's transaction, and
:func:`hand_json` reads a ``hands`` row back as the record's hand. See the store's notes
("The record is an append-only log").
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Protocol, TypeAlias

from sqlalchemy import Connection, bindparam, insert, update

from cherki.core.errors import CherkiError
from cherki.core.events import JSON
from cherki.play.records import HandRecord, Record
from cherki.server.driver import for_connection
from cherki.server.schema import ActionRow, HandRow, TableRow


class StoreError(CherkiError):
    """The database refused or lost something (one line, for the user)."""


class StoreUnavailable(StoreError):
    """The database cannot be reached just now (try again later)."""


# -- the log a table's record is written as -------------------------------------------------
#: A hand's deal as the record holds it: first seat, seed, shoe, stack, context.
Deal: TypeAlias = tuple[
    int, int | None, list[int] | None, tuple[list[list[int]], list[int]] | None, JSON
]
#: The values of one row written (column: value).
Values: TypeAlias = dict[str, str | int | None]


@dataclass
class WrittenHand:
    """A hand as written: its deal (as the record's own values, to compare), its actions
    and its result."""

    deal: Deal
    actions: list[str]
    result: dict[str, JSON] | None


@dataclass
class Written:
    """What the database holds of a table's record."""

    header: str
    status: str
    version: int
    hands: list[WrittenHand] = field(default_factory=list)
    #: what the header was written from (game, preset, rules, players, table): a record
    #: with the same needs no new header text
    header_key: tuple[object, ...] | None = None
    #: the match in play (0: the first) and the ``hands`` row of its first hand: the
    #: record saved is this match's, its hand ``i`` the row ``first_hand + i``
    match: int = 0
    first_hand: int = 0


@dataclass
class Change:
    """What a save writes: only what is new."""

    table_id: str
    header: str | None = None
    status: str | None = None
    hands: list[Values] = field(default_factory=list)
    actions: list[Values] = field(default_factory=list)
    results: list[tuple[int, str]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(
            self.header is not None
            or self.status is not None
            or self.hands
            or self.actions
            or self.results
        )


def deal_of(hand: HandRecord) -> Deal:
    return (hand.first, hand.seed, hand.shoe, hand.stack, hand.context)


def header_text(record: Record) -> str:
    return json.dumps(record.header_json(), ensure_ascii=False)


def hand_values(table_id: str, index: int, hand: HandRecord) -> Values:
    data = hand.to_json()
    return {
        "table_id": table_id,
        "hand": index,
        "first_seat": hand.first,
        "seed": str(hand.seed) if hand.seed is not None else None,
        "shoe": json_or_none(data.get("shoe")),
        "stack": json_or_none(data.get("stack")),
        "context": json_or_none(data.get("context")),
        "result": json_or_none(hand.result),
    }


def json_or_none(value: JSON) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


def change_of(
    table_id: str,
    old: Written,
    record: Record,
    status: str | None,
    stand_in: str | None = None,
) -> tuple[Change, Written]:
    """What is new in ``record`` compared with what is written, and what will be written
    after it; a StoreError if the record contradicts what is written."""
    change = Change(table_id)
    key = (record.game.name, record.preset, record.rules, tuple(record.players), record.table)
    try:
        header = old.header if key == old.header_key else header_text(record)
    except CherkiError as e:  # rules of another game than the record names
        raise StoreError(f"the record's rules do not fit its game ({e}): refused") from None
    if header != old.header:
        if json.loads(header)["game"] != json.loads(old.header).get("game", record.game.name):
            raise StoreError("the record is of another game than the table's: refused")
        change.header = header
    if status is not None and status != old.status:
        change.status = status
    if len(record.hands) < len(old.hands):
        raise StoreError(
            f"the record holds {len(record.hands)} hands, the table {len(old.hands)}: refused"
        )
    version = old.version
    base = old.first_hand
    hands: list[WrittenHand] = []
    last = len(old.hands) - 1
    for i, hand in enumerate(record.hands):
        if i <= last:
            was = old.hands[i]
            n = len(was.actions)
            if deal_of(hand) != was.deal:
                raise StoreError(f"hand {i + 1} of the record is dealt otherwise: refused")
            if len(hand.actions) < n or hand.actions[:n] != was.actions:
                raise StoreError(
                    f"hand {i + 1} of the record does not go on from the table's "
                    f"{n} actions: refused"
                )
            if was.result is not None and hand.result != was.result:
                raise StoreError(f"hand {i + 1} of the record has another result: refused")
            new = hand.actions[n:]
            if new and (i < last or was.result is not None):
                raise StoreError(f"hand {i + 1} is over: no action can be added to it")
            result = was.result
            if result is None and hand.result is not None:
                result = copy.deepcopy(hand.result)
                change.results.append((base + i, json.dumps(result, ensure_ascii=False)))
            unchanged = not new and result is was.result
            hands.append(was if unchanged else WrittenHand(was.deal, [*was.actions, *new], result))
        else:
            new = list(hand.actions)
            change.hands.append(hand_values(table_id, base + i, hand))
            hands.append(WrittenHand(copy.deepcopy(deal_of(hand)), new, copy.deepcopy(hand.result)))
        for text in new:
            version += 1
            change.actions.append(
                {
                    "table_id": table_id,
                    "version": version,
                    "hand": base + i,
                    "action": text,
                    "stand_in": stand_in,
                }
            )
    after = Written(
        header,
        status if status is not None else old.status,
        version,
        hands,
        key,
        old.match,
        old.first_hand,
    )
    return change, after


#: a table's version moved on from the one remembered (``was``), with what else changed
#: (the SET clause is the parameters' columns); built once: a save is on every action
BUMP = update(TableRow).where(
    TableRow.id == bindparam("table"), TableRow.version == bindparam("was")
)
ADD_HANDS = insert(HandRow)
ADD_ACTIONS = insert(ActionRow)


def write_log(conn: Connection, change: Change) -> None:
    """The new hands, actions and results of a change (the table's row is the caller's);
    the actions, written at every action, in the driver's own SQL where it is one of
    cherki's (:mod:`cherki.server.driver`)."""
    if change.hands:
        conn.execute(ADD_HANDS, change.hands)
    if change.actions:
        driver = for_connection(conn)
        if driver is not None:
            driver.add_actions(conn, change.actions)
        else:
            conn.execute(ADD_ACTIONS, change.actions)
    for index, result in change.results:
        conn.execute(
            update(HandRow)
            .where(HandRow.table_id == change.table_id, HandRow.hand == index)
            .values(result=result)
        )


class HandRowLike(Protocol):
    """The columns of a ``hands`` row that make the record's hand."""

    @property
    def first_seat(self) -> int: ...
    @property
    def seed(self) -> str | None: ...
    @property
    def shoe(self) -> str | None: ...
    @property
    def stack(self) -> str | None: ...
    @property
    def context(self) -> str | None: ...
    @property
    def result(self) -> str | None: ...


def hand_json(row: HandRowLike) -> dict[str, JSON]:
    """A ``hands`` row as the record's hand object (its ``actions`` to be added)."""
    out: dict[str, JSON] = {"first": row.first_seat}
    if row.seed is not None:
        out["seed"] = int(row.seed)
    for key in ("shoe", "stack", "context", "result"):
        text = getattr(row, key)
        if text is not None:
            out[key] = json.loads(text)
    return out
