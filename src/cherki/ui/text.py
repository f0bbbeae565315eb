"""All the English of cherki: events, results, score items, tables and money, with the
players' names and pronouns right ("You draw", "Ann draws", "your own draw").

The rules core returns data (:mod:`cherki.core.events`); every front end words it here, so
a sentence is written once and the terminal, the browser and records for people agree.
``names`` are the seats' names in seat order; ``you`` is the seat of the person reading (or
None for an onlooker): that seat is spoken to in the second person.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cherki.core.cards import IS_RED, card_name, format_cards, format_hand
from cherki.core.contract import Game, MatchNote, Observation
from cherki.core.events import Event, EventKind, Result, ScoreItem


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
    """Who is who at a table: the seats' names and the reader's own seat."""

    names: tuple[str, ...]
    you: int | None = None

    @classmethod
    def of(cls, names: Sequence[str] | None, players: int, you: int | None = None) -> Voice:
        """Names as people gave them (a record's, ``--name``), with any character that is
        not printable (a terminal escape, a newline) shown as ``?``, so a name can never
        move the cursor or clear the screen."""
        given = [*names] if names else [f"Seat {i}" for i in range(players)]
        clean = tuple("".join(c if c.isprintable() else "?" for c in n) for n in given)
        return cls(clean, you)

    def is_you(self, seat: int) -> bool:
        return seat >= 0 and (seat == self.you or (self.names[seat] == "You" and self.you is None))

    def name(self, seat: int) -> str:
        """The subject: ``You`` or the seat's name."""
        if self.is_you(seat):
            return "You"
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat}"

    def obj(self, seat: int) -> str:
        """The object: ``you`` or the seat's name."""
        return "you" if self.is_you(seat) else self.name(seat)

    def owner(self, seat: int) -> str:
        """``your`` or ``Ann's``."""
        return "your" if self.is_you(seat) else f"{self.name(seat)}'s"

    def their(self, seat: int) -> str:
        return "your" if self.is_you(seat) else "their"

    def verb(self, seat: int, plain: str, third: str | None = None) -> str:
        """``You draw`` / ``Ann draws``: the verb agreeing with the seat."""
        if self.is_you(seat):
            return f"You {plain}"
        return f"{self.name(seat)} {third if third is not None else plain + 's'}"


def _card(card: int | None) -> str:
    return card_name(card) if card is not None else "a card"


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
    card = _card(event.card)
    kind = event.kind
    if kind == EventKind.DEAL:
        if game.name == "ceki":
            return f"{v.verb(s, 'deal')} 8 cards each; {event.number} cards in the pile"
        return f"{v.verb(s, 'start')}; {event.number} cards in the stock"
    if kind == EventKind.DRAW:
        where = "the pile" if game.name == "ceki" else "the stock"
        return f"{v.verb(s, 'draw')} {card} from {where}"
    if kind == EventKind.REVEAL:
        return (
            f"{v.verb(s, 'draw')} {card} from the stock and {'show' if v.is_you(s) else 'shows'} it"
        )
    if kind == EventKind.TAKE:
        return f"{v.verb(s, 'take')} the discard {card}"
    if kind == EventKind.DISCARD:
        return f"{v.verb(s, 'discard')} {card}" + (
            " (thrown straight away)" if event.straight else ""
        )
    if kind == EventKind.CALL:
        name = _call_name(game, event.call)
        if event.changed:
            return f"{v.verb(s, 'change')} the call to {name}"
        laid = f" ({event.number} cards face down)" if event.number else ""
        return f"{v.verb(s, 'call')} {name}!{laid}"
    if kind == EventKind.EXPOSE:
        return f"{v.verb(s, 'expose')} the olo {format_cards(event.cards)}"
    if kind == EventKind.PASS:
        return f"{v.verb(s, 'pass', 'passes')} on {card}"
    if kind == EventKind.SAMPEI:
        return f"{v.name(s)}: sampei!" + (f" ({card})" if event.card is not None else "")
    if kind == EventKind.WIN:
        return f"{v.name(s)}: ceki! {'win' if v.is_you(s) else 'wins'} ({event.how}) with {card}"
    if kind == EventKind.TURN:
        if s < 0:
            return f"{card} is turned up into the pool"
        return f"{v.verb(s, 'turn')} up {card} from the stock"
    if kind == EventKind.KEEP:
        return f"{card} stays in the pool"
    if kind == EventKind.CAPTURE:
        return f"{v.verb(s, 'capture')} {format_cards(event.cards)} with {card}"
    if kind == EventKind.BONUS:
        return f"{v.name(s)}: {event.how}! three {card}: {format_cents(event.number)} from each"
    if kind == EventKind.SWEEP:
        return f"{v.verb(s, 'take')} the pool left over: {format_hand(_counts(event.cards)) or '-'}"
    if kind == EventKind.END:
        return "The hand is over."
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
    return {
        "self-draw": f"on {voice.their(seat if seat is not None else -1)} own draw",
        "claim": f"on {voice.owner(frm)} draw",
        "discard": f"on {voice.owner(frm)} discard",
        "kandang-tangan": "with the hand as dealt (kandang tangan)",
    }.get(result.how, result.how)


def result_summary(result: Result, game: Game, voice: Voice) -> str:
    """One sentence on how the hand ended and who pays."""
    v = voice
    how = result.how
    if game.name == "ceki":
        return _ceki_summary(result, v)
    if game.name == "cholek-tiga":
        return _cholek_summary(result, v)
    if how == "stock-out":
        return "The stock ran out before anyone won: no score, no payments."
    if how == "yeo":
        seat = result.would_be_winner if result.would_be_winner is not None else -1
        turned = result.win.turned[0] if result.win and result.win.turned else None
        base = f"{v.name(seat)} won ({_how_won(result, v)}) but turned {_card(turned)}"
        return base + ", a yeo card: no score, the hand is played again."
    if how == "chiqui-failed":
        seat = result.would_be_winner if result.would_be_winner is not None else -1
        head = f"{v.name(seat)} went out on a chiqui but no olo turned up"
        if not result.payments or not any(result.payments):
            return head + ": the hand is void."
        return f"{head}: {v.verb(seat, 'pay')} each other seat {result.total}."
    w = result.winner if result.winner is not None else -1
    won = _how_won(result, v)
    word = result.detail.get("win")
    if result.pot is not None and result.winner is not None:
        takes = "take" if v.is_you(w) else "takes"
        return f"{v.verb(w, 'win')} {won} ({word}) and {takes} {result.pot.taken} from the pot."
    if result.detail.get("side_bets"):
        collects = "collect" if v.is_you(w) else "collects"
        return f"{v.verb(w, 'win')} {won} ({word}) and {collects} {result.total} in side bets."
    if result.tokens is not None:
        side = "your" if v.is_you(w) else "their"
        return (
            f"{v.verb(w, 'win')} {won} and {'take' if v.is_you(w) else 'takes'} {result.total} "
            f"points in tokens; {side} side gains {result.total} on the other."
        )
    if result.winner is None:
        return "No one won: no score, no payments."
    return f"{v.verb(w, 'win')} {won}, scoring {result.total}; each other seat pays {result.total}."


def _ceki_summary(result: Result, v: Voice) -> str:
    if result.winner is None:
        return "The pile ran out before anyone completed three sets: no score, no payments."
    s = result.winner
    w = result.win
    card = _card(w.card if w else None)
    prev = w.from_seat if w else -1
    how = result.how
    if how == "triple":
        how_text = f"with {card} drawn from the pile: a triple win"
    elif how == "plain":
        how_text = (
            f"with {v.owner(prev)} discard {card}, drawn and thrown straight away: a plain win"
        )
    else:
        had = "you had" if v.is_you(prev) else f"{v.name(prev)} had"
        how_text = f"with {v.owner(prev)} discard {card}, a card {had} held: a double win"
    base = result.detail.get("base", result.total)
    mult = result.detail.get("multiplier", 1)
    if result.detail.get("payment") == "total":
        pay_text = f"the other seats pay {result.total} between them"
    else:
        pay_text = f"each other seat pays {result.total}"
    return f"{v.verb(s, 'win')} {how_text}, scoring {base} × {mult} = {result.total}; {pay_text}."


def _cholek_summary(result: Result, v: Voice) -> str:
    scores = result.scores or ()
    score_text = ", ".join(f"{v.obj(t)} {x}" for t, x in enumerate(scores))
    best = result.total
    if result.winner is not None:
        return f"{v.verb(result.winner, 'win')} with {best} points ({score_text})."
    tops = [v.obj(t) for t, x in enumerate(scores) if x == best]
    return f"Top score {best} shared by {' and '.join(tops)} ({score_text})."


# -- score items --------------------------------------------------------------------------
def _cards_of(item: ScoreItem) -> str:
    return ", ".join(card_name(k) for k in item.cards)


def _kena(item: ScoreItem) -> str:
    return " (kena)" if item.kena else ""


_ITEMS: dict[str, Callable[[ScoreItem, Result, Voice], str]] = {
    # the games of sets
    "turned": lambda i, r, v: f"turned card {_cards_of(i)}",
    "mata": lambda i, r, v: f"{i.count} unmarked mata × 1{_kena(i)}",
    "red-mata": lambda i, r, v: f"{i.count} red mata × 2{_kena(i)}",
    "tan-bonus": lambda i, r, v: "won after calling tan",
    "ayam": lambda i, r, v: "ayam: ceki won on another's draw",
    "kandang": lambda i, r, v: "kandang: ceki won on own draw",
    "kandang-tangan": lambda i, r, v: "kandang tangan: dealt a winning hand",
    "winning": lambda i, r, v: "winning",
    "mata-swapped": lambda i, r, v: (
        f"{i.count} mata × 1 (after swapping from the {_number(i.among)} drawn)"
    ),
    "rabas": lambda i, r, v: "rabas (self-drawn)" + _red_card(i),
    "metu": lambda i, r, v: "metu (with another player's card)" + _red_card(i),
    "bak": lambda i, r, v: f"{i.count} bak × 1",
    "red-bak": lambda i, r, v: f"{i.count} red bak × 2",
    "bak-of-all": lambda i, r, v: f"{i.count} bak from the {i.among} cards × 1",
    "red-bak-of-all": lambda i, r, v: f"{i.count} red bak from the {i.among} cards × 2",
    "whole-pot": lambda i, r, v: "rabas: the whole pot",
    "one-stake": lambda i, r, v: "metu: one stake from the pot",
    "half-pot": lambda i, r, v: "metu: half the pot",
    "ceken-bet": lambda i, r, v: f"ceken bet with {v.obj(i.seat)}",
    "toh-cards": lambda i, r, v: f"{_cards_of(i)} in the hand × 10",
    "chiqui": lambda i, r, v: (
        f"chiqui: {_cards_of(i)} turned up among the {i.among}"
        if i.cards
        else f"chiqui: no third card among the {i.among}"
    ),
    "olo": lambda i, r, v: _olo(i, r),
    "chiqui-failed": lambda i, r, v: "chiqui failed: one olo's worth to each other seat",
    "ayam-tokens": lambda i, r, v: f"ayam: ceki won, {i.multiplier}-point tokens",
    "kandang-tokens": lambda i, r, v: f"kandang: ceki won, {i.multiplier}-point tokens",
    # Ceki
    "set": lambda i, r, v: f"set {format_cards(i.cards)}",
    "double": lambda i, r, v: "double win",
    "triple": lambda i, r, v: "triple win",
    # Cholek Tiga
    "captured": lambda i, r, v: f"{v.name(i.seat)}: {_captured(i)}",
    "ang-pow": lambda i, r, v: (
        f"{v.name(i.seat)}: ang pow {_cards_of(i)} ({format_cents(i.count)} each)"
    ),
    "ang-pow-besar": lambda i, r, v: (
        f"{v.name(i.seat)}: ang pow besar {_cards_of(i)} ({format_cents(i.count)} each)"
    ),
}

_NUMBERS = {15: "fifteen", 14: "fourteen", 1: "one"}


def _number(n: int) -> str:
    return _NUMBERS.get(n, str(n))


def _red_card(item: ScoreItem) -> str:
    return f" with a red card ({_cards_of(item)})" if item.cards else ""


def _olo(item: ScoreItem, result: Result) -> str:
    each = item.points // item.count if item.count else 0
    text = f"{item.count} olo × {each}"
    exposed = result.detail.get("exposed_olo", 0)
    return text + (f" ({exposed} exposed)" if exposed else "")


def _captured(item: ScoreItem) -> str:
    k = item.cards[0]
    if IS_RED[k]:
        what = ("one", "pair of", "three", "four")[item.count - 1]
        return f"{what} {card_name(k)} (red)"
    return f"{'three' if item.count == 3 else 'four'} {card_name(k)}"


def item_label(item: ScoreItem, result: Result, voice: Voice) -> str:
    """The line of a score sheet for ``item``."""
    word = _ITEMS.get(item.kind)
    return word(item, result, voice) if word is not None else item.kind


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


def _discards(pile: Sequence[int]) -> str:
    """The discards, newest first (the most recent twelve, then how many more)."""
    newest = list(reversed(pile))
    shown = format_cards(newest[:12])
    more = len(pile) - 12
    return shown + (f" … and {more} more" if more > 0 else "")


def _sets_table(obs: object, game: Game, v: Voice) -> list[str]:
    from cherki.games.sets.observation import SetsObservation

    assert isinstance(obs, SetsObservation)
    lines = [f"Stock: {obs.stock_left} cards to play"]
    top = obs.top
    lines.append(f"Last discard: {card_name(top) if top is not None else '-'}")
    if obs.pile:
        lines.append("Discards (newest first): " + _discards(obs.pile))
    for s in range(obs.players):
        bits = [f"{obs.hand_sizes[s]} cards"]
        call = obs.calls[s]
        if call:
            name = obs.call_names[0 if call == "tan" else 1]
            bits.append(f"called {name}" + (" (changed)" if obs.call_changed[s] else ""))
        if obs.melds and any(obs.melds[s]):
            bits.append("exposed olo " + format_hand(obs.melds[s]))
        if any(obs.exposed[s]):
            bits.append("known to hold " + format_hand(obs.exposed[s]))
        lines.append(f"{v.name(s)}: " + ", ".join(bits))
    if obs.claim_card is not None:
        what = "Discard" if obs.claim_from_discard else "Shown draw"
        lines.append(f"{what}: {card_name(obs.claim_card)} (a winning card for a caller)")
    if obs.pot:
        lines.append(f"Pot: {obs.pot}")
    return lines


def _ceki_table(obs: object, v: Voice) -> list[str]:
    from cherki.games.ceki.observation import CekiObservation

    assert isinstance(obs, CekiObservation)
    lines = [f"Pile: {obs.stock_left} cards", f"Dealer: {v.name((obs.first - 1) % obs.players)}"]
    top = obs.top
    if top is not None:
        how = "thrown straight after drawing" if obs.top_straight else "from the hand"
        lines.append(f"Last discard: {card_name(top)} ({how})")
    else:
        lines.append("Last discard: -")
    if obs.pile:
        lines.append("Discards (newest first): " + _discards(obs.pile))
    for s in range(obs.players):
        bits = [f"{obs.hand_sizes[s]} cards"]
        if obs.called[s]:
            bits.append(f"called ceki, {obs.laid_count[s]} cards face down")
        if any(obs.exposed[s]) and s != obs.seat:
            bits.append("known to hold " + format_hand(obs.exposed[s]))
        lines.append(f"{v.name(s)}: " + ", ".join(bits))
    if any(obs.laid):
        lines.append("Your cards face down: " + format_hand(obs.laid))
    return lines


def _cholek_table(obs: object, v: Voice) -> list[str]:
    from cherki.games.cholek.observation import CholekObservation

    assert isinstance(obs, CholekObservation)
    lines = [f"Stock: {obs.stock_left} cards", "Pool: " + (format_hand(obs.pool) or "-")]
    if obs.active is not None:
        src = "discarded" if obs.active_from == "hand" else "turned up"
        lines.append(f"On the table: {card_name(obs.active)} ({src}), may capture")
    for s in range(obs.players):
        cap = format_hand(obs.captured[s]) or "-"
        bits = [f"{obs.hand_sizes[s]} in hand", f"captured {cap}"]
        if obs.bonus_money[s]:
            bits.append(f"bonuses {obs.bonus_money[s]:+d}¢")
        lines.append(f"{v.name(s)}: " + ", ".join(bits))
    return lines


# -- matches ----------------------------------------------------------------------------------
def note_line(note: MatchNote, voice: Voice) -> str:
    """What a match ledger announced (Chot: a bangkong completed)."""
    from cherki.games.sets.chot import Bangkong

    if isinstance(note, Bangkong):
        half = len(voice.names) // 2
        sides = [
            " and ".join(voice.obj(t) for t in range(len(voice.names)) if t % half == side)
            for side in (0, 1)
        ]
        if note.winner is None:
            return f"Bangkong {note.number}: the sides tie at {note.sides[0]}; no one wins it."
        w = note.winner
        return (
            f"Bangkong {note.number}: {sides[w]} win it with {note.sides[w]} points to "
            f"{note.sides[1 - w]}, {note.excess} in excess."
        )
    return note.kind  # pragma: no cover (every note is worded above)


def settlement_lines(ledger: object, voice: Voice) -> list[str]:
    """How a match with a ledger settles (Chot: bangkong won, excess points, who pays)."""
    from cherki.games.sets.chot import ChotLedger

    if not isinstance(ledger, ChotLedger):
        return []
    half = len(voice.names) // 2
    sides = [
        " and ".join(voice.obj(t) for t in range(len(voice.names)) if t % half == side)
        for side in (0, 1)
    ]
    won, ex = ledger.won(), ledger.excess()
    a, _ = ledger.side_money()
    lines = [
        f"Bangkong won: {sides[0]} {won[0]}, {sides[1]} {won[1]}",
        f"Excess points: {sides[0]} {ex[0]}, {sides[1]} {ex[1]}",
    ]
    if a:
        payer, payee = (sides[1], sides[0]) if a > 0 else (sides[0], sides[1])
        lines.append(f"{payer} pay {payee} {format_cents(abs(a))}")
    else:
        lines.append("No one pays.")
    return lines
