"""All the words of cherki's play: events, results, score items, tables and money, with
the players' names and pronouns right ("You draw", "Ann draws", "your own draw"), in the
reader's language (English, Malay or Indonesian: the catalogues of :mod:`cherki.i18n`).

The rules core returns data (:mod:`cherki.core.events`); every front end words it here, so
a sentence is written once and the terminal, the browser and records for people agree.
``names`` are the seats' names in seat order; ``you`` is the seat of the person reading (or
None for an onlooker): that seat is spoken to in the second person.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cherki.core.cards import card_name, format_cards, format_hand
from cherki.core.contract import Game, Ledger, MatchNote, Observation
from cherki.core.events import Event, EventKind, Result, ScoreItem
from cherki.core.view import Hint
from cherki.i18n.voice import Voice, format_cents, money_text

__all__ = ["Voice", "format_cents", "money_text"]


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
    own = game.view().event_line(event, v)
    if own is not None:
        return own
    if kind == EventKind.DEAL:
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
def result_summary(result: Result, game: Game, voice: Voice) -> str:
    """One sentence on how the hand ended and who pays (the game's view words it)."""
    return game.view().result_summary(result, voice)


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


def item_label(item: ScoreItem, result: Result, game: Game, voice: Voice) -> str:
    """The line of a score sheet for ``item``."""
    v = voice
    kind = item.kind
    own = game.view().item_label(item, result, v)
    if own is not None:
        return own
    params = _ITEM_PARAMS.get(kind)
    return v.t(f"item.{kind}", **params(item, v)) if params is not None else kind


def item_points(item: ScoreItem) -> str:
    return f"× {item.multiplier}" if item.multiplier != 1 else f"{item.points:+d}"


# -- the table --------------------------------------------------------------------------------
def table_lines(obs: Observation, game: Game, voice: Voice) -> list[str]:
    """The public table as one seat sees it, in card notation (the game's view)."""
    return game.view().table_lines(obs, voice)


# -- matches ----------------------------------------------------------------------------------
def note_line(note: MatchNote, game: Game, voice: Voice) -> str:
    """What a match ledger announced (Chot: a bangkong completed)."""
    return game.view().note_line(note, voice)


def settlement_lines(ledger: Ledger, game: Game, voice: Voice) -> list[str]:
    """How a match with a ledger settles (Chot: bangkong won, excess points, who pays)."""
    return game.view().settlement_lines(ledger, voice)


# -- hints ------------------------------------------------------------------------------------
def hints(game: Game, obs: Observation, voice: Voice) -> list[Hint]:
    """A seat's hint: what its game's view says about the hand (what it waits on, the
    discards that leave it one card from winning, what each action keeps and breaks) and,
    when it is to act, the heuristic bot's suggestion and why (``Heuristic.explain``, worded
    by the view's ``reason_lines``). Data (:class:`~cherki.core.view.Hint`): the terminal
    colours it, the browser prints it."""
    import random

    from cherki.bots import make_bot
    from cherki.bots.base import Heuristic
    from cherki.core.errors import RulesError

    view = game.view()
    lines = view.hints(obs, voice)
    if obs.legal:
        try:
            bot = make_bot(game.name, "heuristic")
        except RulesError:
            return lines
        chosen = bot.act(obs, random.Random(0))
        suggestion = game.action_text(chosen)
        if voice.words.lang != "en":  # the label in the reader's language, then what to type
            label = game.view().action(chosen, obs, voice)["label"]
            if label.casefold() != suggestion.casefold():
                suggestion = f"{label} [{suggestion}]"
        lines.append(Hint(voice.t("hint.bot", action=suggestion), style="dim"))
        if isinstance(bot, Heuristic):  # why, as the game's view words the bot's reasons
            lines.extend(view.reason_lines(bot.explain(obs), obs, voice))
    return lines
