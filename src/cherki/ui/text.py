"""All the words of cherki's play: events, results, score items, tables and money, with
the players' names and pronouns right ("You draw", "Ann draws", "your own draw"), in the
reader's language (English, Malay or Indonesian: the catalogues of :mod:`cherki.i18n`).

The rules core returns data (:mod:`cherki.core.events`); every front end words it here, so
a sentence is written once and the terminal, the browser and records for people agree.
``names`` are the seats' names in seat order; ``you`` is the seat of the person reading (or
None for an onlooker): that seat is spoken to in the second person.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cherki.core.cards import IS_RED, card_name, format_cards, format_hand
from cherki.core.contract import Game, MatchNote, Observation
from cherki.core.events import Event, EventKind, Result, ScoreItem
from cherki.i18n import Words, words


def format_cents(cents: int) -> str:
    """An amount of money for people: ``$21.00`` from 100 cents up, else ``50¢``."""
    sign = "-" if cents < 0 else ""
    c = abs(cents)
    return f"{sign}${c // 100}.{c % 100:02d}" if c >= 100 else f"{sign}{c}¢"


def money_text(cents: int) -> str:
    """Money with its sign, for payment tables: ``+$1.20``, ``-50¢``."""
    return ("+" if cents >= 0 else "") + format_cents(cents)


@dataclass(frozen=True)
class Voice:
    """Who is who at a table: the seats' names, the reader's own seat and the language
    the reader reads (:class:`cherki.i18n.Words`; English unless told)."""

    names: tuple[str, ...]
    you: int | None = None
    words: Words = field(default_factory=words, compare=False)

    @classmethod
    def of(
        cls,
        names: Sequence[str] | None,
        players: int,
        you: int | None = None,
        lang: str | None = None,
    ) -> Voice:
        """Names as people gave them (a record's, ``--name``), with any character that is
        not printable (a terminal escape, a newline) shown as ``?``, so a name can never
        move the cursor or clear the screen."""
        w = words(lang)
        given = [*names] if names else [w.t("voice.seat", n=i) for i in range(players)]
        clean = tuple(
            _local_name("".join(c if c.isprintable() else "?" for c in n), w) for n in given
        )
        return cls(clean, you, w)

    def t(self, key: str, /, **params: object) -> str:
        """The reader's language's text for ``key``."""
        return self.words.t(key, **params)

    def is_you(self, seat: int) -> bool:
        return seat >= 0 and (seat == self.you or (self.names[seat] == "You" and self.you is None))

    def name(self, seat: int) -> str:
        """The subject: ``You`` or the seat's name."""
        if self.is_you(seat):
            return self.t("voice.you")
        return self.names[seat] if 0 <= seat < len(self.names) else self.t("voice.seat", n=seat)

    def obj(self, seat: int) -> str:
        """The object: ``you`` or the seat's name."""
        return self.t("voice.you.obj") if self.is_you(seat) else self.name(seat)

    def owner(self, seat: int) -> str:
        """``your`` or ``Ann's``."""
        return (
            self.t("voice.your")
            if self.is_you(seat)
            else self.t("voice.owner", name=self.name(seat))
        )

    def say(self, key: str, seat: int, /, **params: object) -> str:
        """A sentence whose verb agrees with ``seat``: ``<key>.you`` for the reader ("You
        draw S7"), else ``key`` with the seat's ``{name}`` ("Ann draws S7")."""
        if self.is_you(seat):
            return self.t(key + ".you", **params)
        return self.t(key, name=self.name(seat), **params)

    def both(self, names: Sequence[str]) -> str:
        """``Ann and Bob``."""
        return self.t("list.and").join(names)


_SEAT_NAME = re.compile(r"Seat (\d+)")
_BOT_NAME = re.compile(r"Bot (\d+) \((\w+)\)")


def _local_name(name: str, w: Words) -> str:
    """The names cherki gives (``Seat 2``, ``Bot 1 (heuristic)``) in the reader's language;
    any other name as it is."""
    if w.lang == "en":
        return name
    if m := _SEAT_NAME.fullmatch(name):
        return w.t("voice.seat", n=int(m[1]))
    if m := _BOT_NAME.fullmatch(name):
        level = w.t(f"level.{m[2]}") if w.has(f"level.{m[2]}") else m[2]
        return w.t("voice.bot", n=int(m[1]), level=level)
    return name


def _card(card: int | None, v: Voice) -> str:
    return card_name(card) if card is not None else v.t("log.a_card")


def _call_name(game: Game, call: str | None) -> str:
    names = game.call_names
    if call == "tan":
        return names[0]
    if call == "ceki":
        return names[1]
    return call or ""


# -- events ---------------------------------------------------------------------------------
def event_line(event: Event, game: Game, voice: Voice) -> str:
    """One line for an event as the reader saw it (hidden cards already removed)."""
    s = event.seat
    v = voice
    card = _card(event.card, v)
    kind = event.kind
    if kind == EventKind.DEAL:
        if game.name == "ceki":
            return v.say("log.deal_ceki", s, n=event.number)
        return v.say("log.start", s, n=event.number)
    if kind == EventKind.DRAW:
        where = v.t(f"log.the_{game.stock_word}")
        return v.say("log.draw", s, card=card, where=where)
    if kind == EventKind.REVEAL:
        return v.say("log.reveal", s, card=card)
    if kind == EventKind.TAKE:
        return v.say("log.take", s, card=card)
    if kind == EventKind.DISCARD:
        return v.say("log.discard", s, card=card) + (v.t("log.straight") if event.straight else "")
    if kind == EventKind.CALL:
        name = _call_name(game, event.call)
        if event.changed:
            return v.say("log.call_change", s, call=name)
        laid = v.t("log.call_laid", n=event.number) if event.number else ""
        return v.say("log.call", s, call=name) + laid
    if kind == EventKind.EXPOSE:
        return v.say("log.expose", s, cards=format_cards(event.cards))
    if kind == EventKind.PASS:
        return v.say("log.pass", s, card=card)
    if kind == EventKind.SAMPEI:
        return v.t("log.sampei", name=v.name(s)) + (f" ({card})" if event.card is not None else "")
    if kind == EventKind.WIN:
        how = (
            v.t(f"log.win_how.{event.how}")
            if v.words.has(f"log.win_how.{event.how}")
            else event.how
        )
        return v.say("log.win", s, how=how, card=card)
    if kind == EventKind.TURN:
        if s < 0:
            return v.t("log.turn_pool", card=card)
        return v.say("log.turn", s, card=card)
    if kind == EventKind.KEEP:
        return v.t("log.keep", card=card)
    if kind == EventKind.CAPTURE:
        return v.say("log.capture", s, cards=format_cards(event.cards), card=card)
    if kind == EventKind.BONUS:
        return v.t(
            "log.bonus", name=v.name(s), how=event.how, card=card, money=format_cents(event.number)
        )
    if kind == EventKind.SWEEP:
        return v.say("log.sweep", s, cards=format_hand(_counts(event.cards)) or "-")
    if kind == EventKind.END:
        return v.t("log.end")
    return f"{v.name(s)}: {kind}"  # pragma: no cover (every kind is worded above)


def _counts(cards: Sequence[int]) -> list[int]:
    out = [0] * 30
    for k in cards:
        out[k] += 1
    return out


# -- results ----------------------------------------------------------------------------------
def _how_won(result: Result, voice: Voice) -> str:
    w = result.win
    frm = w.from_seat if w is not None else -1
    seat = result.winner if result.winner is not None else result.would_be_winner
    v = voice
    how = result.how
    if how == "self-draw":
        return v.t("won.self.you" if v.is_you(seat if seat is not None else -1) else "won.self")
    if how == "claim":
        return v.t("won.claim", owner=v.owner(frm))
    if how == "discard":
        return v.t("won.discard", owner=v.owner(frm))
    if how == "kandang-tangan":
        return v.t("won.kandang_tangan")
    return how


def result_summary(result: Result, game: Game, voice: Voice) -> str:
    """One sentence on how the hand ended and who pays."""
    v = voice
    how = result.how
    if game.name == "ceki":
        return _ceki_summary(result, v)
    if game.name == "cholek-tiga":
        return _cholek_summary(result, v)
    if how == "stock-out":
        return v.t("result.stock_out")
    if how == "yeo":
        seat = result.would_be_winner if result.would_be_winner is not None else -1
        turned = result.win.turned[0] if result.win and result.win.turned else None
        return v.t("result.yeo", name=v.name(seat), how=_how_won(result, v), card=_card(turned, v))
    if how == "chiqui-failed":
        seat = result.would_be_winner if result.would_be_winner is not None else -1
        if not result.payments or not any(result.payments):
            return v.t("result.chiqui_void", name=v.name(seat))
        return v.say("result.chiqui_pays", seat, total=result.total)
    w = result.winner if result.winner is not None else -1
    won = _how_won(result, v)
    word = result.detail.get("win")
    if result.pot is not None and result.winner is not None:
        return v.say("result.pot", w, how=won, word=word, taken=result.pot.taken)
    if result.detail.get("side_bets"):
        return v.say("result.side_bets", w, how=won, word=word, total=result.total)
    if result.tokens is not None:
        return v.say("result.tokens", w, how=won, total=result.total)
    if result.winner is None:
        return v.t("result.no_one")
    return v.say("result.win", w, how=won, total=result.total)


def _ceki_summary(result: Result, v: Voice) -> str:
    if result.winner is None:
        return v.t("result.ceki.pile_out")
    s = result.winner
    w = result.win
    card = _card(w.card if w else None, v)
    prev = w.from_seat if w else -1
    how = result.how
    if how == "triple":
        how_text = v.t("result.ceki.triple", card=card)
    elif how == "plain":
        how_text = v.t("result.ceki.plain", owner=v.owner(prev), card=card)
    elif v.is_you(prev):
        how_text = v.t("result.ceki.double.you", card=card)
    else:
        how_text = v.t("result.ceki.double", owner=v.owner(prev), name=v.name(prev), card=card)
    base = result.detail.get("base", result.total)
    mult = result.detail.get("multiplier", 1)
    if result.detail.get("payment") == "total":
        pay_text = v.t("result.ceki.pay_total", total=result.total)
    else:
        pay_text = v.t("result.ceki.pay_each", total=result.total)
    return v.say(
        "result.ceki.win", s, how=how_text, base=base, mult=mult, total=result.total, pay=pay_text
    )


def _cholek_summary(result: Result, v: Voice) -> str:
    scores = result.scores or ()
    score_text = ", ".join(f"{v.obj(t)} {x}" for t, x in enumerate(scores))
    best = result.total
    if result.winner is not None:
        return v.say("result.cholek.win", result.winner, best=best, scores=score_text)
    tops = [v.obj(t) for t, x in enumerate(scores) if x == best]
    return v.t("result.cholek.shared", best=best, tops=v.both(tops), scores=score_text)


# -- score items --------------------------------------------------------------------------
def _cards_of(item: ScoreItem) -> str:
    return ", ".join(card_name(k) for k in item.cards)


def _kena(item: ScoreItem) -> str:
    return " (kena)" if item.kena else ""


#: the score items worded by a key ``item.<kind>`` with these placeholders
_ITEM_PARAMS: dict[str, Callable[[ScoreItem, Voice], dict[str, object]]] = {
    "turned": lambda i, v: {"cards": _cards_of(i)},
    "mata": lambda i, v: {"n": i.count, "kena": _kena(i)},
    "red-mata": lambda i, v: {"n": i.count, "kena": _kena(i)},
    "tan-bonus": lambda i, v: {},
    "ayam": lambda i, v: {},
    "kandang": lambda i, v: {},
    "kandang-tangan": lambda i, v: {},
    "winning": lambda i, v: {},
    "mata-swapped": lambda i, v: {"n": i.count, "among": _number(i.among, v)},
    "rabas": lambda i, v: {"red": _red_card(i, v)},
    "metu": lambda i, v: {"red": _red_card(i, v)},
    "bak": lambda i, v: {"n": i.count},
    "red-bak": lambda i, v: {"n": i.count},
    "bak-of-all": lambda i, v: {"n": i.count, "among": i.among},
    "red-bak-of-all": lambda i, v: {"n": i.count, "among": i.among},
    "whole-pot": lambda i, v: {},
    "one-stake": lambda i, v: {},
    "half-pot": lambda i, v: {},
    "ceken-bet": lambda i, v: {"name": v.obj(i.seat)},
    "toh-cards": lambda i, v: {"cards": _cards_of(i)},
    "chiqui-failed": lambda i, v: {},
    "ayam-tokens": lambda i, v: {"n": i.multiplier},
    "kandang-tokens": lambda i, v: {"n": i.multiplier},
    "set": lambda i, v: {"cards": format_cards(i.cards)},
    "double": lambda i, v: {},
    "triple": lambda i, v: {},
    "ang-pow": lambda i, v: {
        "name": v.name(i.seat),
        "cards": _cards_of(i),
        "money": format_cents(i.count),
    },
    "ang-pow-besar": lambda i, v: {
        "name": v.name(i.seat),
        "cards": _cards_of(i),
        "money": format_cents(i.count),
    },
}


def _number(n: int, v: Voice) -> str:
    key = f"number.{n}"
    return v.t(key) if v.words.has(key) else str(n)


def _red_card(item: ScoreItem, v: Voice) -> str:
    return v.t("item.red_card", cards=_cards_of(item)) if item.cards else ""


def _olo(item: ScoreItem, result: Result, v: Voice) -> str:
    each = item.points // item.count if item.count else 0
    text = f"{item.count} olo × {each}"
    exposed = result.detail.get("exposed_olo", 0)
    return text + (v.t("item.olo_exposed", n=exposed) if exposed else "")


def _captured(item: ScoreItem, v: Voice) -> str:
    k = item.cards[0]
    if IS_RED[k]:
        what = ("one", "pair", "three", "four")[item.count - 1]
        return v.t(f"item.captured.red_{what}", card=card_name(k))
    return v.t(f"item.captured.{'three' if item.count == 3 else 'four'}", card=card_name(k))


def item_label(item: ScoreItem, result: Result, voice: Voice) -> str:
    """The line of a score sheet for ``item``."""
    v = voice
    kind = item.kind
    if kind == "olo":
        return _olo(item, result, v)
    if kind == "chiqui":
        if item.cards:
            return v.t("item.chiqui", cards=_cards_of(item), among=item.among)
        return v.t("item.chiqui_none", among=item.among)
    if kind == "captured":
        return f"{v.name(item.seat)}: {_captured(item, v)}"
    params = _ITEM_PARAMS.get(kind)
    return v.t(f"item.{kind}", **params(item, v)) if params is not None else kind


def item_points(item: ScoreItem) -> str:
    return f"× {item.multiplier}" if item.multiplier != 1 else f"{item.points:+d}"


# -- the table --------------------------------------------------------------------------------
def table_lines(obs: Observation, game: Game, voice: Voice) -> list[str]:
    """The public table as one seat sees it, in card notation."""
    from cherki.games.ceki.observation import CekiObservation
    from cherki.games.cholek.observation import CholekObservation
    from cherki.games.sets.observation import SetsObservation

    if isinstance(obs, SetsObservation):
        return _sets_table(obs, game, voice)
    if isinstance(obs, CekiObservation):
        return _ceki_table(obs, voice)
    if isinstance(obs, CholekObservation):
        return _cholek_table(obs, voice)
    return []  # pragma: no cover (every game's observation is worded above)


def _discards(pile: Sequence[int], v: Voice) -> str:
    """The discards, newest first (the most recent twelve, then how many more)."""
    newest = list(reversed(pile))
    shown = format_cards(newest[:12])
    more = len(pile) - 12
    return shown + (v.t("table.more", n=more) if more > 0 else "")


def _cards_n(v: Voice, n: int) -> str:
    return v.words.count("count.cards", n)


def _sets_table(obs: object, game: Game, v: Voice) -> list[str]:
    from cherki.games.sets.observation import SetsObservation

    assert isinstance(obs, SetsObservation)
    lines = [v.t("table.stock_to_play", n=obs.stock_left)]
    top = obs.top
    lines.append(v.t("table.last_discard", card=card_name(top) if top is not None else "-"))
    if obs.pile:
        lines.append(v.t("table.discards", cards=_discards(obs.pile, v)))
    for s in range(obs.players):
        bits = [_cards_n(v, obs.hand_sizes[s])]
        call = obs.calls[s]
        if call:
            name = obs.call_names[0 if call == "tan" else 1]
            bits.append(
                v.t("table.called", call=name)
                + (v.t("table.changed") if obs.call_changed[s] else "")
            )
        if obs.melds and any(obs.melds[s]):
            bits.append(v.t("table.exposed_olo", cards=format_hand(obs.melds[s])))
        if any(obs.exposed[s]):
            bits.append(v.t("table.known", cards=format_hand(obs.exposed[s])))
        lines.append(f"{v.name(s)}: " + ", ".join(bits))
    if obs.claim_card is not None:
        key = "table.claim_discard" if obs.claim_from_discard else "table.claim_shown"
        lines.append(v.t(key, card=card_name(obs.claim_card)))
    if obs.pot:
        lines.append(v.t("table.pot", n=obs.pot))
    return lines


def _ceki_table(obs: object, v: Voice) -> list[str]:
    from cherki.games.ceki.observation import CekiObservation

    assert isinstance(obs, CekiObservation)
    lines = [
        v.t("table.pile", n=obs.stock_left),
        v.t("table.dealer", name=v.name((obs.first - 1) % obs.players)),
    ]
    top = obs.top
    if top is not None:
        how = v.t("table.top_straight" if obs.top_straight else "table.top_hand")
        lines.append(v.t("table.last_discard_how", card=card_name(top), how=how))
    else:
        lines.append(v.t("table.last_discard", card="-"))
    if obs.pile:
        lines.append(v.t("table.discards", cards=_discards(obs.pile, v)))
    for s in range(obs.players):
        bits = [_cards_n(v, obs.hand_sizes[s])]
        if obs.called[s]:
            bits.append(v.t("table.called_ceki", n=obs.laid_count[s]))
        if any(obs.exposed[s]) and s != obs.seat:
            bits.append(v.t("table.known", cards=format_hand(obs.exposed[s])))
        lines.append(f"{v.name(s)}: " + ", ".join(bits))
    if any(obs.laid):
        lines.append(v.t("table.your_laid", cards=format_hand(obs.laid)))
    return lines


def _cholek_table(obs: object, v: Voice) -> list[str]:
    from cherki.games.cholek.observation import CholekObservation

    assert isinstance(obs, CholekObservation)
    lines = [
        v.t("table.stock", n=obs.stock_left),
        v.t("table.pool", cards=format_hand(obs.pool) or "-"),
    ]
    if obs.active is not None:
        src = v.t("table.discarded" if obs.active_from == "hand" else "table.turned_up")
        lines.append(v.t("table.active", card=card_name(obs.active), how=src))
    for s in range(obs.players):
        cap = format_hand(obs.captured[s]) or "-"
        bits = [v.t("table.in_hand", n=obs.hand_sizes[s]), v.t("table.captured", cards=cap)]
        if obs.bonus_money[s]:
            bits.append(v.t("table.bonuses", money=f"{obs.bonus_money[s]:+d}¢"))
        lines.append(f"{v.name(s)}: " + ", ".join(bits))
    return lines


# -- matches ----------------------------------------------------------------------------------
def note_line(note: MatchNote, voice: Voice) -> str:
    """What a match ledger announced (Chot: a bangkong completed)."""
    from cherki.games.sets.chot import Bangkong

    if isinstance(note, Bangkong):
        half = len(voice.names) // 2
        sides = [
            voice.both([voice.obj(t) for t in range(len(voice.names)) if t % half == side])
            for side in (0, 1)
        ]
        if note.winner is None:
            return voice.t("note.bangkong_tie", n=note.number, points=note.sides[0])
        w = note.winner
        return voice.t(
            "note.bangkong_won",
            n=note.number,
            side=sides[w],
            points=note.sides[w],
            other=note.sides[1 - w],
            excess=note.excess,
        )
    return note.kind  # pragma: no cover (every note is worded above)


def settlement_lines(ledger: object, voice: Voice) -> list[str]:
    """How a match with a ledger settles (Chot: bangkong won, excess points, who pays)."""
    from cherki.games.sets.chot import ChotLedger

    if not isinstance(ledger, ChotLedger):
        return []
    half = len(voice.names) // 2
    sides = [
        voice.both([voice.obj(t) for t in range(len(voice.names)) if t % half == side])
        for side in (0, 1)
    ]
    won, ex = ledger.won(), ledger.excess()
    a, _ = ledger.side_money()
    lines = [
        voice.t("note.bangkong_count", a=sides[0], x=won[0], b=sides[1], y=won[1]),
        voice.t("note.excess", a=sides[0], x=ex[0], b=sides[1], y=ex[1]),
    ]
    if a:
        payer, payee = (sides[1], sides[0]) if a > 0 else (sides[0], sides[1])
        lines.append(voice.t("note.pays", payer=payer, payee=payee, money=format_cents(abs(a))))
    else:
        lines.append(voice.t("note.no_one_pays"))
    return lines
