"""A game's view: how its table, events, results and actions are shown to people, declared
by the game (``Game.view()``) so that every front end — the terminal, the browser, the
adapters' text render — draws what the game declares and never tests a game's name or its
observation's class (as boardgame.io's ``Game`` carries its ``playerView`` and pgx draws
each game beside its rules).

A view writes no English: its words are keys of the catalogues (:mod:`cherki.i18n`, with
a game's own words added by ``Game.words``), said through a
:class:`~cherki.i18n.voice.Voice`. What it hands the front ends is data:

* lines of text for the terminal's table (:meth:`GameView.table_lines`);
* the zones of the table's middle (:class:`Zone`: the stock, a discard pile, a pool, a
  card on offer, a pot) and each seat's public side (:class:`SeatSide`: a call, cards laid
  or shown), which the browser draws by their kind and never by their name;
* each legal action as a button (:meth:`GameView.action`): its label, its key, the card of
  the hand it plays or the zone it acts on;
* the hand's own extras (:class:`HandExtras`: its best arrangement into sets);
* hints as data (:class:`Hint`: a sentence and the cards it waits on, with how many of
  each are unseen), which the terminal colours and the browser prints;
* its events, results, score items and match notes in words, where the common words do
  not say them.

Every hook has a default that serves a plain draw-and-discard game, so a new game needs
to declare only what it adds. The view narrows the observation to its own game's class
itself (it is the game's own code).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal, Protocol, TypedDict, TypeVar

from cherki.core.cards import CODES, card_name, format_cards, format_hand, parse_card
from cherki.core.events import JSON, Event, Result, ScoreItem
from cherki.core.pieces import Piece, pieces

if TYPE_CHECKING:
    from cherki.core.options import Rules
    from cherki.core.protocols import Ledger, MatchNote, Observation
    from cherki.i18n.voice import Voice

__all__ = [
    "ActionView",
    "AnalysisLine",
    "Emphasis",
    "GameView",
    "HandAnalysis",
    "HandExtras",
    "Hint",
    "Reason",
    "ScoringLine",
    "SeatLine",
    "SeatSide",
    "ShownGame",
    "Zone",
    "ZoneKind",
    "card_name",
    "codes",
    "discards_text",
    "format_cards",
    "format_hand",
    "hand_text",
    "held",
    "own_observation",
    "piece_text",
    "zone",
]

_O = TypeVar("_O")


def own_observation(obs: Observation, kind: type[_O], game: str) -> _O:
    """``obs`` as the game's own observation class: a view draws only its own game's
    observations (a TypeError, a programming mistake, for another's)."""
    if not isinstance(obs, kind):
        raise TypeError(f"{game} shows its own observations, not {type(obs).__name__}")
    return obs


#: how the browser draws a zone: ``stock`` (a face-down stack and its count, which the
#: action acting on it draws from), ``pile`` (discards in order, the newest last, the top
#: one takeable by the action acting on it, each with the seat that laid it), ``cards``
#: (cards face up, an empty text when none), ``card`` (one card) or ``count`` (a number)
ZoneKind = Literal["stock", "pile", "cards", "card", "count"]


class Zone(TypedDict):
    """One zone of the table's middle, as the page draws it."""

    #: the zone's element id on the page (``stock``, ``pile``, ``pool``...), which the
    #: page's motion and an action's ``zone`` name
    id: str
    kind: ZoneKind
    #: its heading, in the reader's language
    title: str
    #: the cards in it (codes; a pile's in the order laid, the newest last)
    cards: list[str]
    #: a pile's seat that laid each card
    seats: list[int]
    #: the card an action may take from it (a pile's top), or None
    top: str | None
    #: a stock's cards left, a count's number
    count: int
    #: the words shown when it holds nothing
    empty: str
    #: what a screen reader says for it (a stock: how many cards are in it)
    label: str


class SeatLine(TypedDict):
    """A line under a seat's name: a label and the cards it names (``cards`` None: the
    label says it all)."""

    label: str
    cards: list[str] | None


class SeatSide(TypedDict):
    """A seat's public side of the table beyond its name and card count."""

    #: the call it made, in words, or None
    call: str | None
    lines: list[SeatLine]


class ActionView(TypedDict):
    """One legal action as a button."""

    id: int
    #: its notation
    text: str
    #: what kind of action it is (the notation's first word; ``call``: a discard with a call)
    kind: str
    #: the card of the hand it plays, or None
    card: str | None
    #: the other cards it involves (a capture's pool cards, a take's discard)
    cards: list[str]
    #: the call it makes, or None
    call: str | None
    label: str
    #: its keyboard key (None: pick the card, or numbered in order)
    key: str | None
    #: the zone of the table it acts on (the stock it draws from, the pile it takes
    #: from), or None
    zone: str | None
    #: an action that ends the hand in the player's favour (drawn as the go button)
    goes_out: bool
    #: a choice among several like it (a capture), numbered in order on the page
    numbered: bool


class HandExtras(TypedDict):
    """What a game shows under a seat's hand besides its cards."""

    #: the hand's best arrangement into sets, and what is left over
    sets: list[list[str]]
    leftover: list[str]
    #: whether the hand is a winning hand as it is
    winning: bool
    #: cards the seat has laid face down (Ceki's), shown to the seat alone
    laid: list[str]


#: how a part of a line is stressed: ``""`` plain, ``strong`` (bold), ``good`` (a winning
#: hand: bold green in the terminal)
Emphasis = Literal["", "strong", "good"]


@dataclass(frozen=True)
class AnalysisLine:
    """A line of a hand's analysis for people: its words (parts, each with its emphasis),
    then cards (kinds): in the order given, or grouped by rank as a hand (``by_rank``)."""

    parts: tuple[tuple[str, Emphasis], ...]
    cards: tuple[int, ...] = ()
    by_rank: bool = False

    @classmethod
    def of(cls, text: str, emphasis: Emphasis = "") -> AnalysisLine:
        """A line of words alone."""
        return cls(((text, emphasis),))


@dataclass(frozen=True)
class HandAnalysis:
    """What a game says of a hand of cards (``Game.analyse_hand``, ``cherki hand``): its
    JSON form, in the game's own keys, and its lines for people. A front end prints the
    one or the other and reads no key of it."""

    data: dict[str, JSON]
    lines: tuple[AnalysisLine, ...]


@dataclass(frozen=True)
class Hint:
    """One line of a hint: ``text`` and, where it waits on cards, the cards (kinds) with
    how many of each the seat has not seen; ``style``: ``good`` (a winning hand), ``act``
    (what one action keeps and breaks), ``why`` (a bot's reason), ``dim`` or ``""``."""

    text: str
    waits: tuple[int, ...] = ()
    unseen: tuple[int, ...] = ()
    style: str = ""
    #: whether the cards waited on are listed (with their live count), even when none
    lists_waits: bool = False

    def plain(self, voice: Voice) -> str:
        """The line as plain text: ``Calls tan on C3 (2 unseen), S9 (1 unseen): 3 live``."""
        if not self.lists_waits:
            return self.text
        cards = ", ".join(
            CODES[k] + voice.t("hint.unseen", n=n)
            for k, n in zip(self.waits, self.unseen, strict=True)
        )
        return f"{self.text} {cards}" + voice.words.count("hint.live", sum(self.unseen))


@dataclass(frozen=True)
class Reason:
    """Why a bot picks an action, as data its game's view words (:meth:`GameView.reason_lines`):
    ``kind`` names the reason (``why.bot.<kind>`` in the catalogues unless the view words it
    its own way), ``action`` the action it picks, ``cards`` the cards the reason speaks of,
    ``n`` and ``m`` its numbers (live cards, points), ``other`` an action it weighed against."""

    kind: str
    action: int
    cards: tuple[int, ...] = ()
    n: int = 0
    m: int = 0
    other: int | None = None


@dataclass(frozen=True)
class ScoringLine:
    """One line of a game's scoring list (:meth:`GameView.scoring_lines`): what an item
    pays under the rules in force, in words (``label``) and as data (``points``: the
    points, or None where the line says it in words; ``note``: how it is counted)."""

    label: str
    points: str
    note: str = ""

    def plain(self) -> str:
        """``Ayam: ceki won on another's card: +10`` (the label alone when its words say
        what it pays)."""
        out = f"{self.label}: {self.points}" if self.points else self.label
        return out + (f" ({self.note})" if self.note else "")


def codes(cards: Sequence[int]) -> list[str]:
    """Card kinds as codes, in the order given."""
    return [CODES[k] for k in cards]


def held(hand: Sequence[int]) -> list[str]:
    """A hand of 30 counts as codes, in card order."""
    return [CODES[k] for k, n in enumerate(hand) if n for _ in range(n)]


def discards_text(pile: Sequence[int], voice: Voice) -> str:
    """Discards for the terminal, newest first (the most recent twelve, then how many
    more)."""
    newest = list(reversed(pile))
    shown = format_cards(newest[:12])
    more = len(pile) - 12
    return shown + (voice.t("table.more", n=more) if more > 0 else "")


def piece_text(piece: Piece, verb: str, voice: Voice) -> str:
    """What a discard breaks (``verb`` ``breaks``) or a card taken does (``joins``), in
    words: ``why.<verb>.<kind>`` with the piece's cards and live count."""
    return voice.t(f"why.{verb}.{piece.kind}", cards=" ".join(codes(piece.cards)), n=piece.live)


def hand_text(
    hand: Sequence[int], unseen: Sequence[int], honours: str, size: int, voice: Voice
) -> str:
    """The hand as pieces in words: its sets, its part-sets with the live cards that
    finish each, its lone cards."""
    v = voice
    ps = pieces(hand, unseen, honours, size)
    full = [p for p in ps if p.kind in ("mata", "set")]
    bits = []
    if full:
        mata = sum(p.kind == "mata" for p in full)
        shown = " · ".join(" ".join(codes(p.cards)) for p in full)
        bits.append(v.words.count("why.sets", len(full), m=mata) + f" ({shown})")
    bits += [
        v.t("why.part", cards=" ".join(codes(p.cards)), n=p.live) for p in ps if p.kind == "part"
    ]
    lone = [p for p in ps if p.kind == "lone"]
    if lone:
        bits.append(v.t("why.lone", cards=" ".join(codes(p.cards[:1])[0] for p in lone)))
    return v.t("why.hand", pieces="; ".join(bits))


_CODE = re.compile(r"\b([CSM][1-9]|WF|RF|OT)\b")


def zone(
    id: str,
    kind: ZoneKind,
    title: str,
    *,
    cards: Sequence[str] = (),
    seats: Sequence[int] = (),
    top: str | None = None,
    count: int = 0,
    empty: str = "",
    label: str = "",
) -> Zone:
    """A :class:`Zone` with its unused parts empty."""
    return Zone(
        id=id,
        kind=kind,
        title=title,
        cards=list(cards),
        seats=list(seats),
        top=top,
        count=count,
        empty=empty,
        label=label or title,
    )


class ShownGame(Protocol):
    """What a view reads of the game it shows (every :class:`~cherki.core.contract.Game`
    has it): the view draws the game's table and actions, and needs nothing else of it."""

    @property
    def stock_word(self) -> str:
        """The game's word for its face-down stock (``Game.stock_word``)."""
        ...

    @property
    def call_words(self) -> tuple[str, str]:
        """The action words of its two calls (``Game.call_words``)."""
        ...

    @property
    def call_names(self) -> tuple[str, str]:
        """The names of its two calls (``Game.call_names``)."""
        ...

    def action_text(self, action: int) -> str:
        """An action id in the game's notation (``Game.action_text``)."""
        ...


class GameView:
    """How a game is shown. Every hook has a default; a game's view overrides what it
    shows its own way. ``game`` is the game shown (what the view reads of it:
    :class:`ShownGame`)."""

    #: short forms a person may type at the terminal for this game's actions, over the
    #: common ones (``d`` draw, ``t`` take)
    short_forms: ClassVar[Mapping[str, str]] = {}
    #: the catalogue key of the terminal's help on this game's actions
    help_key: ClassVar[str] = "term.help.plain"
    #: each action word of this game (its notation's first word, or the whole notation)
    #: beyond draw, take and discard: the catalogue key of its button's label ("": the
    #: notation itself), its keyboard key and the zone it acts on (the stock it turns up)
    action_words: ClassVar[Mapping[str, tuple[str, str | None, str | None]]] = {}
    #: the game's own terms, kept as the players say them, that the page explains
    #: (``glossary.<term>`` in the catalogues; ``docs/glossary.md``)
    glossary: ClassVar[tuple[str, ...]] = ()
    #: what a player says aloud at an event of this game, by the event's kind (the page
    #: shows it over the seat): the players' own words, the same in every language
    shouts: ClassVar[Mapping[str, str]] = {}
    #: the action words that end the hand in the player's favour (the go button)
    going_out: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, game: ShownGame) -> None:
        self.game = game

    # -- the table --------------------------------------------------------------------------
    def table_lines(self, obs: Observation, voice: Voice) -> list[str]:
        """The public table as the observing seat sees it, in card notation, for the
        terminal: by default the zones and the seats' sides."""
        v = voice
        lines = []
        for z in self.zones(obs, v):
            if z["kind"] == "stock":
                lines.append(v.t(f"table.{self.game.stock_word}", n=z["count"]))
            elif z["kind"] == "count":
                lines.append(f"{z['title']}: {z['count']}")
            elif z["kind"] == "pile":
                shown = [parse_card(c) for c in z["cards"]]
                lines.append(v.t("table.discards", cards=discards_text(shown, v) or "-"))
            else:
                lines.append(f"{z['title']}: {' '.join(z['cards']) or '-'}")
        for s in range(obs.players):
            side = self.seat_side(obs, s, v)
            bits = [v.words.count("count.cards", obs.hand_sizes[s])]
            if side["call"]:
                bits.append(v.t("table.called", call=side["call"]))
            for line in side["lines"]:
                cards = line["cards"]
                bits.append(
                    line["label"] + ("" if cards is None else " " + (" ".join(cards) or "-"))
                )
            lines.append(f"{v.name(s)}: " + ", ".join(bits))
        return lines

    def zones(self, obs: Observation, voice: Voice) -> list[Zone]:
        """The table's middle: by default the stock and nothing else."""
        return [self.stock_zone(obs, voice)]

    def stock_zone(self, obs: Observation, voice: Voice) -> Zone:
        """The face-down stock, named as the game names it (``Game.stock_word``)."""
        word = self.game.stock_word
        left = obs.stock_left
        title = voice.t(f"page.table.{word}")
        label = voice.t(f"page.table.cards_in_{word}", n=left)
        return zone("stock", "stock", title, count=left, label=label)

    def seat_side(self, obs: Observation, seat: int, voice: Voice) -> SeatSide:
        """``seat``'s public side of the table: by default nothing beyond its cards."""
        return SeatSide(call=None, lines=[])

    def piles(self, obs: Observation, voice: Voice) -> list[tuple[str, list[int]]]:
        """The face-up cards a person may ask to see whole (the terminal's ``pile``), with
        a heading, each newest first: by default every pile and set of cards the zones
        show."""
        out = []
        for z in self.zones(obs, voice):
            if z["kind"] in ("pile", "cards"):
                cards = [parse_card(c) for c in z["cards"]]
                out.append((z["title"], cards[::-1] if z["kind"] == "pile" else cards))
        return out

    # -- the hand -----------------------------------------------------------------------------
    def hand_extras(self, obs: Observation) -> HandExtras:
        """What the page shows under the seat's hand: by default nothing."""
        return HandExtras(sets=[], leftover=[], winning=False, laid=[])

    def hints(self, obs: Observation, voice: Voice) -> list[Hint]:
        """What the seat's hand waits on and could do (the bot's suggestion is added by
        the front end): by default nothing."""
        return []

    def reason_lines(self, reasons: Sequence[Reason], obs: Observation, voice: Voice) -> list[Hint]:
        """The bot's pick and why, in words: by default ``why.bot.<kind>`` of the catalogues
        (``action``: the pick's notation, ``card`` the first card, ``cards`` them all, ``n``,
        ``m``, ``other``: the action weighed against), a reason no catalogue words left out."""
        out = []
        for r in reasons:
            key = f"why.bot.{r.kind}"
            if not voice.words.has(key):
                continue
            out.append(
                Hint(
                    voice.t(
                        key,
                        action=self.game.action_text(r.action),
                        card=CODES[r.cards[0]] if r.cards else "",
                        cards=" ".join(CODES[k] for k in r.cards),
                        n=r.n,
                        m=r.m,
                        other=self.game.action_text(r.other) if r.other is not None else "",
                    ),
                    style="why",
                )
            )
        return out

    def scoring_lines(self, rules: Rules, voice: Voice) -> list[ScoringLine]:
        """What each score item pays under ``rules`` (the rules in force at the table), in
        the reader's language: by default nothing (a game declares its own)."""
        return []

    # -- actions ------------------------------------------------------------------------------
    def action(self, action: int, obs: Observation, voice: Voice) -> ActionView:
        """One legal action as a button: the common notation (``draw``, ``take``,
        ``discard CARD [CALL]``) and the game's :attr:`action_words`."""
        v = voice
        text = self.game.action_text(action)
        found = _CODE.findall(text)
        word = text.split()[0]
        label_key, key, at = self.action_words.get(
            text, self.action_words.get(word, ("", None, None))
        )
        out = ActionView(
            id=action,
            text=text,
            kind=word,
            card=None,
            cards=[],
            call=None,
            label=v.t(label_key) if label_key else text[:1].upper() + text[1:],
            key=key,
            zone=at,
            goes_out=word in self.going_out or text in self.going_out,
            numbered=False,
        )
        if word == "discard" and found:
            out["card"] = found[0]
            rest = text.split()[2:]
            if rest:
                out["kind"] = "call"
                out["call"] = rest[0]
                out["label"] = v.t("action.discard_call", card=found[0], call=rest[0])
            else:
                out["label"] = v.t("action.discard", card=found[0])
        elif word == "take":
            top = self.takeable(obs)
            out["cards"] = [CODES[top]] if top is not None else []
            out["label"] = (
                v.t("action.take", card=CODES[top])
                if top is not None
                else v.t("action.take_discard")
            )
            out["key"] = "t"
            out["zone"] = "pile"
        elif word == "draw":
            out["label"] = v.t(f"action.draw_{self.game.stock_word}")
            out["key"] = "d"
            out["zone"] = "stock"
        return out

    def keys(self, voice: Voice) -> list[tuple[str, str]]:
        """The keyboard keys of this game's own action words, with each one's label, for
        the page's list of keys (draw and take are the page's own)."""
        return [
            (key, voice.t(label) if label else word[:1].upper() + word[1:])
            for word, (label, key, _) in self.action_words.items()
            if key is not None
        ]

    def takeable(self, obs: Observation) -> int | None:
        """The card a ``take`` would take (the top discard), or None."""
        return None

    def status(self, obs: Observation, voice: Voice, mine: bool) -> str | None:
        """Where the game says it its own way: what the seat to act is asked to do (``mine``:
        the reader is that seat; the words after "Your turn: ") or is doing (the whole
        sentence, naming it); None for the common words of its phase."""
        return None

    def help(self, voice: Voice) -> str:
        """The terminal's help on this game's actions (Rich markup allowed)."""
        return voice.t(self.help_key, calls=voice.t("list.or").join(self.game.call_words))

    # -- words --------------------------------------------------------------------------------
    def event_line(self, event: Event, voice: Voice) -> str | None:
        """An event this game words its own way (or adds), or None for the common words."""
        return None

    def result_summary(self, result: Result, voice: Voice) -> str:
        """One sentence on how the hand ended and who pays."""
        v = voice
        if result.winner is None:
            return v.t("result.no_one")
        return v.say("result.win", result.winner, how=result.how, total=result.total)

    def item_label(self, item: ScoreItem, result: Result, voice: Voice) -> str | None:
        """A score item this game words its own way, or None for ``item.<kind>``."""
        return None

    def ending(self, how: str, voice: Voice) -> str:
        """How a hand ended (its result's ``how``), in a word or two for a score sheet's
        column: ``sheet.how.<how>``, else as it is."""
        key = f"sheet.how.{how}"
        return voice.t(key) if voice.words.has(key) else how

    def note_line(self, note: MatchNote, voice: Voice) -> str:
        """What a match ledger announced (``note.<kind>``)."""
        return voice.t(f"note.{note.kind}") if voice.words.has(f"note.{note.kind}") else note.kind

    def payments_heading(self, voice: Voice) -> str:
        """The heading of a result's payments in points (Chot's: its tokens, by side)."""
        return voice.t("page.result.points")

    def ledger_lines(self, ledger: Ledger, voice: Voice) -> list[str]:
        """How a match's ledger stands (Chot's tokens and bangkong), line by line."""
        return []

    def settlement_lines(self, ledger: Ledger, voice: Voice) -> list[str]:
        """How a match with a ledger settles, line by line."""
        return []
