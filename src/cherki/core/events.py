"""What happens in a hand (events) and how it ends (results): data, never sentences.

The rules core says *what* happened with typed kinds, seats, cards and numbers; every front
end (the terminal, the browser, records for people) writes its own words for them through
:mod:`cherki.ui.text`. A result carries what a match depends on as typed fields (the pot, the
points scored, Chot's tokens), so nothing is read back out of a string-keyed bag.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import Final, TypeAlias

from cherki import compiled
from cherki.compiled import reduce_fields

#: A JSON value: what ``Result.detail``, a match's context and the observations' ``to_json``
#: hold (read-only containers, so a ``list[str]`` or a ``dict[str, int]`` is one too).
JSON: TypeAlias = "str | int | float | bool | Sequence[JSON] | Mapping[str, JSON] | None"

#: The seat of nobody: the viewer of the public view (``state.public_observation()``, whose
#: ``seat`` it is) and the one to ask ``event.seen_by(NOBODY)`` for what every watcher sees.
NOBODY: Final = -1


class EventKind(StrEnum):
    """The kinds of event. A ``StrEnum``, so ``event.kind == "draw"`` reads as it looks."""

    #: a hand is dealt: ``seat`` starts (Ceki: ``seat`` deals), ``number`` cards in the stock
    #: once dealt, as the observations' ``stock_left`` counts them (a scoring reserve not)
    DEAL = "deal"
    #: ``seat`` draws ``card`` from the stock, seen by that seat alone (``private_to``)
    DRAW = "draw"
    #: ``seat`` draws ``card`` from the stock and shows it to all (a call stands)
    REVEAL = "reveal"
    #: ``seat`` takes the discard ``card``
    TAKE = "take"
    #: ``seat`` discards ``card``; ``straight`` when thrown straight from the draw (Ceki)
    DISCARD = "discard"
    #: ``seat`` calls ``call`` (``changed``: changes an earlier call to it); ``number``: cards
    #: laid face down with the call (Ceki)
    CALL = "call"
    #: ``seat`` exposes the set ``cards`` on the table (Chaqui's olo)
    EXPOSE = "expose"
    #: ``seat`` passes on the shown winning ``card``
    PASS = "pass"
    #: ``seat`` says "sampei!" and goes out (``card``: the winning card, if any)
    SAMPEI = "sampei"
    #: ``seat`` goes out with ``card``; ``how`` names the win (Ceki: plain, double, triple)
    WIN = "win"
    #: ``card`` is turned up: into the pool at the deal (``seat`` -1) or from the stock by
    #: ``seat`` (Cholek Tiga)
    TURN = "turn"
    #: ``card`` stays in the pool, captured by nobody (Cholek Tiga)
    KEEP = "keep"
    #: ``seat`` captures ``cards`` (two from the pool) with ``card`` (Cholek Tiga)
    CAPTURE = "capture"
    #: ``seat`` earns the in-play bonus ``how`` (ayam or kandang) with three ``card``;
    #: ``number``: cents from each other seat (Cholek Tiga)
    BONUS = "bonus"
    #: ``seat`` takes the ``cards`` left in the pool at the end (Cholek Tiga)
    SWEEP = "sweep"
    #: the hand is over: see ``state.result``
    END = "end"

    #: hashed as the word it equals (``EventKind.DRAW == "draw"``), by ``str``'s own hash in
    #: C: ``Enum`` hashes a member's name in Python, which events' look-ups (:func:`event`)
    #: paid at every step
    __hash__ = str.__hash__


class Origin(IntEnum):
    """Where the card a seat holds last came from (``drawn_from`` in observations)."""

    #: nothing drawn this turn (the deal)
    NONE = 0
    STOCK = 1
    DISCARD = 2


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``card`` is hidden (``None``) from seats other than
    ``private_to`` when the event is private to one seat."""

    kind: EventKind
    seat: int = -1
    card: int | None = None
    private_to: int = -1
    #: other cards the event involves (an exposed olo, the cards captured, the pool swept)
    cards: tuple[int, ...] = ()
    #: the call made (a call word of the game's notation: ``tan``, ``ceki``, ``kowah``...)
    call: str | None = None
    #: a call changed from an earlier one
    changed: bool = False
    #: a discard thrown straight from the draw (Ceki)
    straight: bool = False
    #: a count the kind documents (stock size, cards laid down, cents)
    number: int = 0
    #: a machine word the kind documents (how a Ceki win was made, a bonus's name)
    how: str = ""

    def seen_by(self, seat: int) -> Event:
        """The event as ``seat`` sees it."""
        if self.private_to >= 0 and seat != self.private_to and self.card is not None:
            return dataclasses.replace(self, card=None)
        return self

    def to_json(self) -> dict[str, JSON]:
        """The event as data (cards as codes), only the fields that are set."""
        from cherki.core.cards import CODES

        out: dict[str, JSON] = {"kind": str(self.kind), "seat": self.seat}
        if self.card is not None:
            out["card"] = CODES[self.card]
        if self.cards:
            out["cards"] = [CODES[k] for k in self.cards]
        if self.call is not None:
            out["call"] = self.call
        if self.changed:
            out["changed"] = True
        if self.straight:
            out["straight"] = True
        if self.number:
            out["number"] = self.number
        if self.how:
            out["how"] = self.how
        return out

    def __reduce__(self) -> tuple[object, ...]:
        return reduce_fields(self)  # pickle and copy, compiled too (cherki.compiled)


def slot_init(cls: type) -> None:
    """Give a frozen slotted dataclass an ``__init__`` that sets each slot through its own
    descriptor, where the generated one calls ``object.__setattr__`` by name for every field
    (several times slower; events are made at every step of every hand). The same
    parameters, defaults and values: only the way each slot is set differs. Compiled with
    mypyc (scripts/compile_engine.py) too: mypyc leaves a dataclass's generated methods to
    the ``dataclasses`` module, in Python, and its slots' descriptors take a value the same
    way (2.5 times quicker than the generated ``__init__`` there). A field with a
    ``default_factory`` gets a fresh value of it where none is given, as the generated one."""
    fields = dataclasses.fields(cls)
    assert all(f.init for f in fields), cls
    scope: dict[str, object] = {"MISSING": dataclasses.MISSING}
    params, body = [], []
    for f in fields:
        scope[f"set_{f.name}"] = getattr(cls, f.name).__set__
        if f.default_factory is not dataclasses.MISSING:
            # a fresh value of the factory's where none is given, as the generated one
            scope[f"factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=MISSING")
            body.append(f"    if {f.name} is MISSING: {f.name} = factory_{f.name}()")
        elif f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            scope[f"default_{f.name}"] = f.default
            params.append(f"{f.name}=default_{f.name}")
        body.append(f"    set_{f.name}(self, {f.name})")
    exec(f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body), scope)
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"  # type: ignore[attr-defined]
    setattr(cls, "__init__", init)  # noqa: B010 (a method replaced on the class)


slot_init(Event)

#: the events :func:`event` has made: the common ones (no field past ``straight`` set) by
#: their fields, compiled by their kind and then one number packing the seat, the card,
#: ``private_to`` and ``straight`` (no tuple to make and hash: twice as quick there, where
#: pure Python pays more for the number's checks than for the tuple); the others by all
#: their fields
_NUMBER_KEYS: Final = compiled.BUILD != "python"
_MADE: Final[dict[tuple[EventKind, int, int | None, int, bool], Event]] = {}
_MADE_BY_KIND: Final[dict[EventKind, dict[int, Event]]] = {kind: {} for kind in EventKind}
_MADE_FULL: Final[
    dict[
        tuple[EventKind, int, int | None, int, bool, tuple[int, ...], str | None, bool, int, str],
        Event,
    ]
] = {}


def event(
    kind: EventKind,
    seat: int = -1,
    card: int | None = None,
    private_to: int = -1,
    straight: bool = False,
    *,
    cards: tuple[int, ...] = (),
    call: str | None = None,
    changed: bool = False,
    number: int = 0,
    how: str = "",
) -> Event:
    """``Event(kind, seat, card, private_to, cards, call, changed, straight, number, how)``,
    made once and then shared: an event is a frozen value, and play makes the same few
    again and again (a seat's draw, discard or take of a card, a call, a capture: a hot
    path, where a dictionary look-up is several times quicker than making the event, ten
    times in a compiled build). Every event of the games' play is made here."""
    if not cards and call is None and not changed and not number and not how:
        if not _NUMBER_KEYS:
            key = (kind, seat, card, private_to, straight)
            made = _MADE.get(key)
            if made is None:
                made = _MADE[key] = Event(kind, seat, card, private_to, straight=straight)
            return made
        # one number, different for every different value of the four fields, each within
        # 8 bits (or the full key below); the card in the lowest, the seat next: a number
        # hashes as itself, and the table's slots are picked by its low bits
        c = 0 if card is None else card + 1 if 0 <= card < 255 else -1
        of_kind = _MADE_BY_KIND.get(kind)
        if c >= 0 and -1 <= seat < 255 and -1 <= private_to < 255 and of_kind is not None:
            number_key = c | (seat + 1) << 8 | (private_to + 1) << 16 | (1 << 24 if straight else 0)
            made = of_kind.get(number_key)
            if made is None:
                made = of_kind[number_key] = Event(kind, seat, card, private_to, straight=straight)
            return made
    full = (kind, seat, card, private_to, straight, cards, call, changed, number, how)
    made = _MADE_FULL.get(full)
    if made is None:
        made = _MADE_FULL[full] = Event(
            kind, seat, card, private_to, cards, call, changed, straight, number, how
        )
    return made


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One line of a score: what it is (``kind``, a machine word each game documents), the
    points it adds or the factor it applies, and the data a front end needs to word it."""

    kind: str
    points: int
    multiplier: int = 1
    #: how many of a thing (mata, bak, olo, tokens...)
    count: int = 0
    #: the card(s) it concerns (the turned card...)
    cards: tuple[int, ...] = ()
    #: the turned card improved this line (kena)
    kena: bool = False
    #: the number of cards it looked among (the cards turned, or hand and turned together)
    among: int = 0
    #: the other seat it concerns (a Cekèn side bet)
    seat: int = -1

    def to_json(self) -> dict[str, JSON]:
        from cherki.core.cards import CODES

        out: dict[str, JSON] = {"kind": self.kind, "points": self.points}
        if self.multiplier != 1:
            out["multiplier"] = self.multiplier
        if self.count:
            out["count"] = self.count
        if self.cards:
            out["cards"] = [CODES[k] for k in self.cards]
        if self.kena:
            out["kena"] = True
        if self.among:
            out["among"] = self.among
        if self.seat >= 0:
            out["seat"] = self.seat
        return out

    def __reduce__(self) -> tuple[object, ...]:
        return reduce_fields(self)  # pickle and copy, compiled too (cherki.compiled)


slot_init(ScoreItem)


@dataclass(frozen=True, slots=True)
class PotChange:
    """A pot kept across the hands of a match: what it held, what the seats staked this
    hand, what the winner took, and what it holds after."""

    before: int
    staked: int
    taken: int
    after: int

    @property
    def change(self) -> int:
        return self.after - self.before

    def __reduce__(self) -> tuple[object, ...]:
        return reduce_fields(self)  # pickle and copy, compiled too (cherki.compiled)


slot_init(PotChange)


@dataclass(frozen=True, slots=True)
class Tokens:
    """Chot's tokens from one hand: the side that won them and how many points."""

    seat: int
    points: int
    ten_point_tokens: bool

    def __reduce__(self) -> tuple[object, ...]:
        return reduce_fields(self)  # pickle and copy, compiled too (cherki.compiled)


slot_init(Tokens)


@dataclass(frozen=True, slots=True)
class WinningHand:
    """The winner's hand as it went out: its cards, sets, call and winning card."""

    hand: tuple[int, ...]
    sets: tuple[tuple[int, ...], ...]
    call: str | None
    call_changed: bool
    card: int | None
    from_seat: int
    #: the stock cards turned or drawn for scoring
    turned: tuple[int, ...] = ()

    def __reduce__(self) -> tuple[object, ...]:
        return reduce_fields(self)  # pickle and copy, compiled too (cherki.compiled)


slot_init(WinningHand)


@dataclass(frozen=True, slots=True)
class Result:
    """How a hand ended and who pays whom.

    ``payments`` are points per seat; with ``pot`` they sum to zero counting the pot's change.
    ``money`` is the same in cents at the rules' rate. ``how`` is a machine word
    (``self-draw``, ``claim``, ``discard``, ``kandang-tangan``, ``stock-out``, ``yeo``...).
    ``scores`` are points *scored* where a game reports them apart from payments (Ceki: only
    the winner scores; Cholek Tiga: each seat's captures). ``detail`` holds any further data
    (never sentences): counts of mata, kena, a failed chiqui...
    """

    winner: int | None
    how: str
    items: tuple[ScoreItem, ...] = ()
    total: int = 0
    payments: tuple[int, ...] = ()
    money: tuple[int, ...] = ()
    redeal: bool = False
    win: WinningHand | None = None
    scores: tuple[int, ...] | None = None
    pot: PotChange | None = None
    tokens: Tokens | None = None
    #: a voided win (a yeo): who would have won
    would_be_winner: int | None = None
    detail: Mapping[str, JSON] = field(default_factory=dict)

    @property
    def pot_change(self) -> int:
        return self.pot.change if self.pot is not None else 0

    def to_json(self) -> dict[str, JSON]:
        """The result as data, for records and clients (documented in docs/records.md)."""
        from cherki.core.cards import CODES, format_cards, format_hand

        detail: dict[str, JSON] = {}
        if self.win is not None:
            w = self.win
            detail.update(
                hand=format_hand(w.hand),
                sets=[format_cards(s) for s in w.sets],
                call=w.call,
                call_changed=w.call_changed,
                winning_card=CODES[w.card] if w.card is not None else None,
                from_seat=w.from_seat,
                turned=format_cards(w.turned),
            )
        if self.would_be_winner is not None:
            detail["would_be_winner"] = self.would_be_winner
        if self.scores is not None:
            detail["scores"] = list(self.scores)
        if self.pot is not None:
            p = self.pot
            detail["pot"] = {"before": p.before, "staked": p.staked, "after": p.after}
            detail["pot_take"] = p.taken
            detail["pot_change"] = p.change
        if self.tokens is not None:
            t = self.tokens
            detail["tokens"] = {
                "seat": t.seat,
                "points": t.points,
                "ten_point_tokens": t.ten_point_tokens,
            }
        detail.update(self.detail)
        return {
            "winner": self.winner,
            "how": self.how,
            "items": [i.to_json() for i in self.items],
            "total": self.total,
            "payments": list(self.payments),
            "money_cents": list(self.money),
            "redeal": self.redeal,
            "detail": detail,
        }

    def __reduce__(self) -> tuple[object, ...]:
        return reduce_fields(self)  # pickle and copy, compiled too (cherki.compiled)


slot_init(Result)  # made at the end of every hand

#: The keys of ``Result.to_json()`` a replay compares with a record's stored result: what a
#: hand decided, not how it was worded (records written before results became data hold
#: sentences and labels that a replay need not reproduce).
RESULT_KEYS: tuple[str, ...] = ("winner", "how", "total", "payments", "money_cents", "redeal")
