"""Game records: a documented JSON format that replays any hand exactly.

The format is described in ``docs/records.md``. In short::

    {
      "format": "cherki-record", "version": 1,
      "game": "balik-satu",
      "preset": "pwee",
      "rules": {"ayam_bonus": 10, ...},        # every option; missing ones take the preset's
      "players": ["You", "heuristic bot", ...],  # or a number of players
      "hands": [
        {"first": 0,
         "seed": 7,                               # a seeded shuffle, or
         "shoe": ["M3", "C1", ...],               # the whole shoe, top card first, or
         "stack": {"hands": [["C1", ...], ...], "stock": ["M7", ...]},  # hands and stock top
         "context": {"pot": 40},                  # optional: what the match carried over
         "actions": ["0: discard C3", "1: draw", "1: discard WF tan", ...],
         "result": {...}}                         # optional; checked when replaying
      ]
    }

Reading is strict: :func:`parse_record` raises :class:`~cherki.core.errors.RecordError` whose
message names the field, hand and action at fault.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from cherki.core.cards import format_cards, parse_card
from cherki.core.contract import Game, Rules, State
from cherki.core.deal import DealRequest
from cherki.core.errors import CherkiError, RecordError, quote
from cherki.core.events import JSON, RESULT_KEYS, Event
from cherki.games import find_game

_T = TypeVar("_T")

FORMAT = "cherki-record"
VERSION = 1


@dataclass
class HandRecord:
    """One hand: how the shoe was set up, who started, and every action in order."""

    first: int = 0
    seed: int | None = None
    shoe: list[int] | None = None
    stack: tuple[list[list[int]], list[int]] | None = None
    actions: list[str] = field(default_factory=list)
    result: dict[str, JSON] | None = None
    context: dict[str, JSON] | None = None

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"first": self.first}
        if self.seed is not None:
            out["seed"] = self.seed
        if self.shoe is not None:
            out["shoe"] = format_cards(self.shoe).split()
        if self.stack is not None:
            hands, stock = self.stack
            out["stack"] = {
                "hands": [format_cards(h).split() for h in hands],
                "stock": format_cards(stock).split(),
            }
        if self.context is not None:
            out["context"] = dict(self.context)
        out["actions"] = list(self.actions)
        if self.result is not None:
            out["result"] = self.result
        return out


@dataclass(frozen=True)
class TableRecord:
    """Who plays each seat and the match they play: what resuming a record needs."""

    #: each seat's bot level, or None for a person
    seats: tuple[str | None, ...]
    hands: int | None = None
    target: int | None = None
    until_stopped: bool = False
    #: a lead tied after the agreed hands: "share" (written only when not) or "play-on"
    tie: str = "share"

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "seats": list(self.seats),
            "hands": self.hands,
            "target": self.target,
            "until_stopped": self.until_stopped,
        }
        if self.tie != "share":
            out["tie"] = self.tie
        return out


def _parse_table(raw: object, players: int) -> TableRecord:
    if not isinstance(raw, dict):
        raise RecordError('"table" must be an object')
    seats = raw.get("seats")
    if (
        not isinstance(seats, list)
        or len(seats) != players
        or not all(s is None or (isinstance(s, str) and s) for s in seats)
    ):
        raise RecordError(f'"table": "seats" must list a bot level or null for each of {players}')
    counts: list[int | None] = []
    for key in ("hands", "target"):
        value = raw.get(key)
        if value is not None and (type(value) is not int or value < 1):
            raise RecordError(f'"table": "{key}" must be a whole number ≥ 1 or null')
        counts.append(value)
    stopped = raw.get("until_stopped", False)
    if type(stopped) is not bool:
        raise RecordError('"table": "until_stopped" must be true or false')
    tie = raw.get("tie", "share")
    if tie not in ("share", "play-on"):
        raise RecordError('"table": "tie" must be "share" or "play-on"')
    return TableRecord(tuple(seats), counts[0], counts[1], stopped, tie)


@dataclass
class Record:
    """A whole record: the game, its rules, the players and the hands played."""

    game: Game
    rules: Rules
    players: list[str]
    hands: list[HandRecord] = field(default_factory=list)
    preset: str | None = None
    #: optional: who plays each seat (a bot level, or None for a person) and the match
    #: being played, so that an unfinished game can be resumed (``cherki play --resume``)
    table: TableRecord | None = None

    def to_json(self) -> dict[str, JSON]:
        from cherki.version import __version__

        out: dict[str, JSON] = {"format": FORMAT, "version": VERSION, "cherki": __version__}
        out.update(self.header_json())
        out["hands"] = [h.to_json() for h in self.hands]
        return out

    def header_json(self) -> dict[str, JSON]:
        """What the record says before its hands: the game, preset, rules, players and
        table (the fields of :meth:`to_json` but ``format``, ``version``, ``cherki`` and
        ``hands``)."""
        out: dict[str, JSON] = {
            "game": self.game.name,
            "preset": self.preset,
            "rules": self.game.rules_json(self.rules),
            "players": list(self.players),
        }
        if self.table is not None:
            out["table"] = self.table.to_json()
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the record: to a temporary file beside ``path``, flushed to disk, then
        renamed over it, so a crash or a full disk never leaves a half-written record."""
        target = Path(path)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or Path("."))
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(self.dumps())
                out.flush()
                os.fsync(out.fileno())
            mode = target.stat().st_mode & 0o777 if target.exists() else 0o644
            os.chmod(tmp, mode)  # mkstemp makes it private; a record reads like any file
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def start(self, index: int) -> State:
        """A fresh state for hand ``index`` (before any action)."""
        if not 0 <= index < len(self.hands):
            raise RecordError(f"there is no hand {index + 1}: the record holds {len(self.hands)}")
        return start_hand(self.game, self.rules, len(self.players), self.hands[index])


def start_hand(game: Game, rules: Rules, players: int, hand: HandRecord) -> State:
    if hand.context is not None and not game.accepts_context:
        raise RecordError(f'{game.title} hands take no "context"')
    request = DealRequest(
        seed=hand.seed, shoe=hand.shoe, stack=hand.stack, first=hand.first, context=hand.context
    )
    return game.start(rules, players, request)


def hand_record(state: State, result: bool = True, actions: list[str] | None = None) -> HandRecord:
    """The record of a hand played from ``state``'s start (its history so far; ``actions``:
    that history in notation, where the caller keeps it)."""
    info = state.info
    stack = None
    if info.stack is not None:
        stack = ([list(h) for h in info.stack[0]], list(info.stack[1]))
    rec = HandRecord(
        first=info.first,
        seed=info.seed,
        shoe=list(info.shoe) if info.shoe is not None else None,
        stack=stack,
        actions=state.action_texts() if actions is None else actions,
        context=dict(info.context) if info.context else None,
    )
    if result and state.is_terminal:
        rec.result = state.result.to_json()
    return rec


def _start(record: Record, index: int) -> State:
    try:
        return record.start(index)
    except CherkiError as err:
        raise RecordError(f"hand {index + 1}: cannot set up the deal: {err}") from err


def replay_steps(record: Record, index: int = 0) -> Iterator[tuple[State, str, list[Event]]]:
    """Yield ``(state, action text, events)`` after each action of hand ``index``.

    Raises :class:`RecordError` naming the action that does not replay.
    """
    hand = record.hands[index]
    state = _start(record, index)
    for i, text in enumerate(hand.actions):
        seat, action_text = split_action(text, i, index)
        if seat is not None and seat != state.current:
            who = "nobody (the hand is over)" if state.current < 0 else f"seat {state.current}"
            raise RecordError(
                f"hand {index + 1}, action {i + 1} ({quote(text)}): the record says seat {seat} "
                f"but {who} is to act"
            )
        try:
            events = state.apply(action_text)
        except CherkiError as err:
            raise RecordError(f"hand {index + 1}, action {i + 1} ({quote(text)}): {err}") from err
        yield state, text, events


def events_made_by(record: Record, index: int, first: int, versions: set[int]) -> set[int]:
    """The events of hand ``index`` that actions of ``versions`` made, its actions numbered
    from ``first + 1`` (a table's versions: which events a stand-in bot made)."""
    hand = record.hands[index]
    if not any(first < v <= first + len(hand.actions) for v in versions):
        return set()
    out: set[int] = set()
    count = len(record.start(index).log)
    for n, (step, _, _) in enumerate(replay_steps(record, index), start=1):
        if first + n in versions:
            out.update(range(count, len(step.log)))
        count = len(step.log)
    return out


def events_after(record: Record, index: int, actions: int) -> int:
    """How many events hand ``index`` had after its first ``actions`` actions."""
    state = record.start(index)
    if actions:
        for n, (state, _, _) in enumerate(replay_steps(record, index), start=1):  # noqa: B007
            if n == actions:
                break
    return len(state.log)


def replay_hand(record: Record, index: int = 0, check: bool = True) -> State:
    """Play hand ``index`` through; with ``check``, compare to the stored result."""
    state = _start(record, index)
    for state, _, _ in replay_steps(record, index):  # noqa: B007 (the last state is kept)
        pass
    if check:
        check_result(record, index, state)
    return state


def check_result(record: Record, index: int, state: State) -> None:
    """Compare hand ``index``'s stored result (if any) with ``state``, the hand replayed:
    :class:`RecordError` naming what differs."""
    stored = record.hands[index].result
    if stored is not None:
        if not state.is_terminal:
            raise RecordError(
                f"hand {index + 1}: the record stores a result but its actions stop before "
                "the hand is over"
            )
        got = state.result.to_json()
        diff = [k for k in RESULT_KEYS if got.get(k) != stored.get(k)]
        if diff:
            what = "; ".join(f"{k}: recorded {stored.get(k)!r}, replayed {got[k]!r}" for k in diff)
            raise RecordError(f"hand {index + 1}: replaying gives a different result ({what})")


def split_action(text: object, i: int, hand: int) -> tuple[int | None, str]:
    if not isinstance(text, str):
        raise RecordError(f"hand {hand + 1}, action {i + 1}: expected text, got {quote(text)}")
    if ":" in text:
        head, _, rest = text.partition(":")
        try:
            return int(head.strip()), rest.strip()
        except ValueError:
            raise RecordError(
                f"hand {hand + 1}, action {i + 1} ({quote(text)}): the part before ':' must be a "
                "seat number"
            ) from None
    return None, text.strip()


# -- reading ------------------------------------------------------------------------------------
#: The largest record file read (a record of hundreds of hands is a few megabytes).
MAX_RECORD_BYTES = 64 * 1024 * 1024


def load_record(path: str | Path) -> Record:
    """Read a record file: at most :data:`MAX_RECORD_BYTES`, UTF-8, then
    :func:`parse_record`. Every fault is a one-line :class:`RecordError`."""
    p = Path(path)
    if "\x00" in str(p):
        raise RecordError(f"{str(p)!r} is no file name: it holds a NUL character")
    try:
        with p.open("rb") as f:
            raw = f.read(MAX_RECORD_BYTES + 1)
    except FileNotFoundError:
        raise RecordError(f"no record file at {p}") from None
    except OSError as err:
        raise RecordError(f"cannot read {p}: {err.strerror or err}") from None
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(f"{p} is larger than {MAX_RECORD_BYTES // (1024 * 1024)} MiB: no record")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise RecordError(
            f"cannot read {p}: not UTF-8 text ({err.reason} at byte {err.start})"
        ) from None
    return parse_record(text)


def parse_record(text: str | Mapping[str, object]) -> Record:
    """Read and validate a record (JSON text or an already-decoded object)."""
    if isinstance(text, str):
        try:
            data = json.loads(text, parse_constant=_no_constant)
        except json.JSONDecodeError as err:
            raise RecordError(
                f"not JSON: {err.msg} at line {err.lineno}, column {err.colno}"
            ) from None
        except RecursionError:
            raise RecordError("not a record: nested too deeply") from None
        except ValueError as err:  # a number too long to read, NaN or Infinity
            raise RecordError(f"not a record: {err}") from None
    else:
        data = text
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    seen_by = data.get("seen_by")
    if seen_by is not None:
        who = f"seat {seen_by}" if type(seen_by) is int else "a spectator"
        raise RecordError(
            f"this record is what {who} saw of an unfinished game: its deals are hidden, "
            "so it cannot be replayed"
        )
    if data.get("format") != FORMAT:
        raise RecordError(f'"format" must be "{FORMAT}", found {data.get("format")!r}')
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        raise RecordError(f'"version" {version!r} is not supported (expected {VERSION})')
    try:
        game = find_game(_need(data, "game", str))
    except CherkiError as err:
        raise RecordError(f'"game": {err}') from None
    preset = data.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise RecordError('"preset" must be text or null')
    options = data.get("rules", {})
    if not isinstance(options, dict):
        raise RecordError('"rules" must be an object of rule options')
    try:
        rules = game.rules_from_json(preset, options)
    except CherkiError as err:
        raise RecordError(f'"rules": {err}') from None
    players_raw = data.get("players")
    if type(players_raw) is int:
        try:
            game.check_players(players_raw)
        except CherkiError as err:
            raise RecordError(f'"players": {err}') from None
        players = [f"Seat {i}" for i in range(players_raw)]
    elif isinstance(players_raw, list) and all(isinstance(p, str) for p in players_raw):
        players = list(players_raw)
    else:
        raise RecordError('"players" must be a number or a list of names')
    try:
        game.check_players(len(players))
    except CherkiError as err:
        raise RecordError(f'"players": {err}') from None
    hands_raw = data.get("hands")
    if not isinstance(hands_raw, list) or not hands_raw:
        raise RecordError('"hands" must be a non-empty list')
    hands = [_parse_hand(h, i, len(players), game) for i, h in enumerate(hands_raw)]
    table = _parse_table(data["table"], len(players)) if data.get("table") is not None else None
    return Record(game, rules, players, hands, preset, table)


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number a record may hold")


def _need(data: Mapping[str, object], key: str, kind: type[_T]) -> _T:
    if key not in data:
        raise RecordError(f'the record has no "{key}"')
    value = data[key]
    if not isinstance(value, kind):
        raise RecordError(f'"{key}" must be {kind.__name__}, found {value!r}')
    return value


def _cards(value: object, where: str) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise RecordError(f"{where} must be a list of card codes")
    try:
        return [parse_card(c) for c in value]
    except CherkiError as err:
        raise RecordError(f"{where}: {err}") from None


def _parse_hand(raw: object, i: int, players: int, game: Game) -> HandRecord:
    where = f"hand {i + 1}"
    if not isinstance(raw, dict):
        raise RecordError(f"{where} must be an object")
    first = raw.get("first", 0)
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players:
        raise RecordError(f'{where}: "first" must be a seat from 0 to {players - 1}')
    seed = raw.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(f'{where}: "seed" must be a whole number')
    shoe = _cards(raw["shoe"], f'{where}: "shoe"') if raw.get("shoe") is not None else None
    stack = None
    if raw.get("stack") is not None:
        st = raw["stack"]
        if not isinstance(st, dict) or not isinstance(st.get("hands"), list):
            raise RecordError(f'{where}: "stack" must be {{"hands": [...], "stock": [...]}}')
        stack = (
            [_cards(h, f"{where}: stack hand {j}") for j, h in enumerate(st["hands"])],
            _cards(st.get("stock", []), f'{where}: stack "stock"'),
        )
    if seed is None and shoe is None and stack is None:
        raise RecordError(f'{where}: give a "seed", a "shoe" or a "stack"')
    if shoe is not None and stack is not None:
        raise RecordError(f'{where}: give a "shoe" or a "stack", not both')
    actions = raw.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError(f'{where}: "actions" must be a list of action texts')
    result = raw.get("result")
    if result is not None and not isinstance(result, dict):
        raise RecordError(f'{where}: "result" must be an object')
    context = raw.get("context")
    if context is not None:
        _check_context(context, game, where)
    return HandRecord(first, seed, shoe, stack, list(actions), result, context)


def _check_context(context: object, game: Game, where: str) -> None:
    """A hand's context: an object whose keys the game reads hold what it can read
    (``Game.check_context``; other keys are kept and ignored)."""
    if not isinstance(context, dict):
        raise RecordError(f'{where}: "context" must be an object')
    try:
        game.check_context(context)
    except CherkiError as err:
        raise RecordError(f"{where}: {err}") from None


def new_record(
    game: Game,
    rules: Rules,
    players: Sequence[str],
    preset: str | None = None,
) -> Record:
    return Record(game, rules, list(players), [], preset)
