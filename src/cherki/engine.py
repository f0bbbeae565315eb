"""The one engine every cherki game runs on.

A game is a :class:`Game` (metadata, rule options, action notation, a way to start a hand)
plus a :class:`State` subclass holding the rules of play. The engine fixes the contract every
game keeps, so the terminal, records, bots and benchmarks work on any game unchanged:

* ``state.current`` is the seat to act (``-1`` once the hand is over). Play is sequential:
  out-of-turn claims are turns of their own, given to the claiming seats one at a time.
* ``state.legal_actions(seat)`` lists integer action ids; it is empty for a seat that is not
  to act. ``game.action_text(a)`` / ``game.parse_action(text)`` convert to and from the
  documented text notation (they round-trip).
* ``state.apply(action, seat=...)`` validates first and raises
  :class:`~cherki.errors.IllegalActionError` with the reason, leaving the state untouched;
  otherwise it changes the state and returns the :class:`Event` s it caused.
* ``state.observation(seat)`` is everything that seat may know, built in one place per game.
* ``state.clone()`` is a cheap independent copy for bots that search.
* All chance (the shuffle) happens when a hand starts, from a seed or an explicit shoe order,
  so ``(game, rules, seed or shoe, actions)`` reproduces a hand exactly. A game whose hands
  depend on the match so far (a pot carried over) sets ``accepts_context`` and takes an
  optional ``context`` mapping in ``new_state``; records keep it with the hand.

Randomness: shuffles use only :meth:`random.Random.random`, whose output for a given seed
Python guarantees across versions, so seeds recorded today replay tomorrow.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from cherki.cards import N_KINDS, card_name, format_cards
from cherki.errors import IllegalActionError, RulesError


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``card`` is hidden (``None``) from seats other than
    ``private_to`` when the event is private to one seat."""

    kind: str
    seat: int = -1
    card: int | None = None
    text: str = ""
    private_to: int = -1

    def seen_by(self, seat: int) -> Event:
        """The event as ``seat`` sees it."""
        if self.private_to >= 0 and seat != self.private_to and self.card is not None:
            return dataclasses.replace(self, card=None)
        return self

    def describe(self, names: Sequence[str] | None = None) -> str:
        who = names[self.seat] if names and 0 <= self.seat < len(names) else f"seat {self.seat}"
        card = card_name(self.card) if self.card is not None else "a card"
        base = {
            "draw": f"{who} draws {card} from the stock",
            "reveal": f"{who} draws {card} from the stock and shows it",
            "take": f"{who} takes the discard {card}",
            "discard": f"{who} discards {card}",
        }.get(self.kind)
        if base is None:
            base = f"{who}: {self.text}" if self.seat >= 0 else self.text
        elif self.text:
            base += f" ({self.text})"
        return base


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One line of a score: a label and the points it adds (or the factor it applies)."""

    label: str
    points: int
    multiplier: int = 1


@dataclass(frozen=True)
class Result:
    """How a hand ended and who pays whom.

    ``payments`` are points per seat (zero-sum); ``money`` the same in cents at the rules'
    rate. ``how`` is a short machine word (``self-draw``, ``claim``, ``kandang-tangan``,
    ``stock-out``, ``yeo``...), ``summary`` a sentence for people.
    """

    winner: int | None
    how: str
    summary: str
    items: tuple[ScoreItem, ...] = ()
    total: int = 0
    payments: tuple[int, ...] = ()
    money: tuple[int, ...] = ()
    redeal: bool = False
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "how": self.how,
            "summary": self.summary,
            "items": [
                {"label": i.label, "points": i.points, "multiplier": i.multiplier}
                for i in self.items
            ],
            "total": self.total,
            "payments": list(self.payments),
            "money_cents": list(self.money),
            "redeal": self.redeal,
            "detail": dict(self.detail),
        }


R = TypeVar("R")


class Observation(Protocol):
    """What every game's observation offers the terminal, bots and records.

    Games add their own fields (discard pile, calls, pool...). ``hand`` is the seat's own
    hand as a 30-long count vector; ``legal`` the seat's legal action ids (empty when it is
    not to act); ``table_lines()`` the public table in plain text with card codes, for
    people.
    """

    seat: int
    players: int
    current: int
    phase: str
    hand: tuple[int, ...]
    legal: tuple[int, ...]
    result: Result | None

    def table_lines(self) -> list[str]: ...

    def unseen(self) -> list[int]: ...


def shuffled(cards: Sequence[int], rng: random.Random) -> list[int]:
    """Fisher-Yates using only ``rng.random()`` (stable across Python versions)."""
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def shoe_cards(half_packs: int) -> list[int]:
    """The cards of a shoe of ``half_packs`` half-packs (one of each kind each), sorted."""
    return [k for k in range(N_KINDS) for _ in range(half_packs)]


def check_shoe_order(order: Sequence[int], half_packs: int) -> None:
    """Raise :class:`RulesError` unless ``order`` holds exactly the shoe's cards."""
    if len(order) != half_packs * N_KINDS:
        raise RulesError(
            f"the shoe order has {len(order)} cards but {half_packs} half-packs hold "
            f"{half_packs * N_KINDS}"
        )
    counts = [0] * N_KINDS
    for k in order:
        counts[k] += 1
    wrong = [f"{card_name(k)} appears {c} times" for k, c in enumerate(counts) if c != half_packs]
    if wrong:
        raise RulesError(
            f"the shoe order must hold each card {half_packs} times: " + "; ".join(wrong[:5])
        )


def fill_stack(
    hands: Sequence[Sequence[int]],
    stock_top: Sequence[int],
    half_packs: int,
    rng: random.Random | None = None,
) -> tuple[list[list[int]], list[int]]:
    """Hands given card by card and the top of the stock; the rest of the shoe follows.

    The remaining cards go under ``stock_top`` in kind order, or shuffled when ``rng`` is
    given. Raises :class:`RulesError` when the stack uses a card more often than the shoe
    holds it.
    """
    remaining = [half_packs] * N_KINDS
    for k in [k for h in hands for k in h] + list(stock_top):
        remaining[k] -= 1
        if remaining[k] < 0:
            raise RulesError(
                f"the stacked deal uses {card_name(k)} more than the {half_packs} times "
                "the shoe holds it"
            )
    rest = [k for k in range(N_KINDS) for _ in range(remaining[k])]
    if rng is not None:
        rest = shuffled(rest, rng)
    return [list(h) for h in hands], list(stock_top) + rest


@dataclass
class DealSource:
    """Where a hand's cards come from, as :func:`deal_source` settles it.

    Either ``order`` (the whole shoe, top card first, for the game to deal by its own
    method) or, for a stacked deal, ``hands`` (each seat's cards) and ``stock`` (top first).
    ``meta`` is what a record needs to reproduce the deal.
    """

    order: list[int] | None
    hands: list[list[int]] | None
    stock: list[int] | None
    meta: dict[str, Any]


def deal_source(
    *,
    players: int,
    first: int,
    half_packs: int,
    hand_sizes: Sequence[int],
    seed: int | None,
    rng: random.Random | None,
    shoe: Sequence[int] | None,
    stack: tuple[Sequence[Sequence[int]], Sequence[int]] | None,
) -> DealSource:
    """Settle a deal from a stacked deal, an explicit shoe order, a generator or a seed.

    A stacked deal must give each seat ``hand_sizes[seat]`` cards; the rest of the shoe goes
    under its stock top in kind order, or shuffled by ``seed``. A shoe must hold exactly the
    shoe's cards. A generator with no seed keeps its order in ``meta`` so the hand replays.
    """
    meta: dict[str, Any] = {"first": first, "seed": seed}
    if stack is not None:
        hands_cards, top = stack
        if len(hands_cards) != players:
            raise RulesError(
                f"the stacked deal gives {len(hands_cards)} hands for {players} players"
            )
        for i, h in enumerate(hands_cards):
            if len(h) != hand_sizes[i]:
                raise RulesError(f"seat {i}'s stacked hand has {len(h)} cards, not {hand_sizes[i]}")
        stack_rng = random.Random(seed) if seed is not None else None
        hand_lists, stock = fill_stack(hands_cards, top, half_packs, stack_rng)
        meta["stack_cards"] = ([list(h) for h in hands_cards], list(top))
        return DealSource(None, hand_lists, stock, meta)
    if shoe is not None:
        check_shoe_order(shoe, half_packs)
        order = list(shoe)
        meta["shoe"] = order
    else:
        if rng is None:
            rng = random.Random(seed)
        order = shuffled(shoe_cards(half_packs), rng)
        if seed is None:
            meta["shoe"] = order  # an outside generator: keep the order to replay
    return DealSource(order, None, None, meta)


class State:
    """Base of every game's state. Subclasses implement the rules."""

    game: Game[Any]
    n: int
    current: int
    log: list[Event]
    history: list[tuple[int, int]]
    _result: Result | None

    # -- the contract -------------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> list[int]:
        raise NotImplementedError

    def _why_illegal(self, seat: int, action: int) -> str:
        """Explain why ``action`` is not legal for ``seat`` now (called only when it is not)."""
        return f"{self.game.action_text(action)} is not allowed now"

    def _apply(self, action: int) -> list[Event]:
        raise NotImplementedError

    def observation(self, seat: int) -> Any:
        raise NotImplementedError

    def clone(self) -> State:
        raise NotImplementedError

    def card_counts(self) -> list[int]:
        """Every card of the shoe wherever it lies now (hands, discards, stock, a card on the
        table), as a count vector: the invariant checker's view. Always the whole shoe."""
        raise NotImplementedError

    # -- shared behaviour ---------------------------------------------------------------
    @property
    def is_terminal(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> Result:
        if self._result is None:
            raise IllegalActionError("the hand is not over yet")
        return self._result

    def apply(self, action: int | str, seat: int | None = None) -> list[Event]:
        """Validate and play ``action`` (an id or its notation) for ``seat``.

        ``seat`` defaults to the seat to act. Raises :class:`IllegalActionError` (state
        untouched) when the hand is over, it is not that seat's turn, or the rules forbid it.
        """
        if isinstance(action, str):
            action = self.game.parse_action(action)
        actor = self.current if seat is None else seat
        if self._result is not None:
            raise IllegalActionError("the hand is over: no more actions")
        if not 0 <= actor < self.n:
            raise IllegalActionError(f"there is no seat {actor} at a table of {self.n}")
        if actor != self.current:
            raise IllegalActionError(
                f"it is not seat {actor}'s turn: seat {self.current} is to {self.waiting_for()}"
            )
        if action not in self.legal_actions(actor):
            raise IllegalActionError(self._why_illegal(actor, action))
        self.history.append((actor, action))
        events = self._apply(action)
        self.log.extend(events)
        return events

    def waiting_for(self) -> str:
        """A few words on what the seat to act must do (for messages)."""
        return "act"

    def events_for(self, seat: int, since: int = 0) -> list[Event]:
        """The log from ``since`` on as ``seat`` saw it."""
        return [e.seen_by(seat) for e in self.log[since:]]

    def action_texts(self) -> list[str]:
        """The history in record notation: ``"SEAT: ACTION"``."""
        return [f"{s}: {self.game.action_text(a)}" for s, a in self.history]


S = TypeVar("S", bound=State)


@dataclass(frozen=True)
class Preset(Generic[R]):
    """A named set of rule options with the sources it follows."""

    name: str
    rules: R
    description: str
    sources: str
    aliases: tuple[str, ...] = ()


class Game(Generic[R]):
    """A game: its rules type, presets, action notation and how a hand starts."""

    name: ClassVar[str]
    title: ClassVar[str]
    players: ClassVar[tuple[int, int]]
    rules_type: ClassVar[type]
    presets: ClassVar[tuple[Preset[Any], ...]]
    num_actions: ClassVar[int]
    default_players: ClassVar[int]
    #: how the seats' order goes round the table, for people
    direction: ClassVar[str] = "(clockwise)"
    #: whether ``new_state`` takes ``context=``: what a match carries from hand to hand (a
    #: pot, a running count), stored with each hand of a record so that it replays exactly
    accepts_context: ClassVar[bool] = False

    def default_preset(self) -> Preset[R]:
        return self.presets[0]

    def find_preset(self, name: str | None) -> Preset[R]:
        if name is None:
            return self.default_preset()
        key = name.strip().lower()
        for p in self.presets:
            if key == p.name or key in p.aliases:
                return p
        names = ", ".join(p.name for p in self.presets)
        raise RulesError(f"{self.name} has no preset {name!r}: choose one of {names}")

    def rules(self, preset: str | None = None, **options: Any) -> R:
        """The rules of a preset with some options changed (values checked)."""
        base = self.find_preset(preset).rules
        return self.with_options(base, options)

    def with_options(self, base: R, options: Mapping[str, Any]) -> R:
        fields = {f.name: f for f in dataclasses.fields(self.rules_type)}
        changes: dict[str, Any] = {}
        for key, value in options.items():
            name = key.replace("-", "_")
            if name not in fields:
                raise RulesError(
                    f"{self.name} has no rule option {key!r}; options: {', '.join(fields)}"
                )
            new = coerce_option(name, value, getattr(base, name))
            # an optional whole number (default None) must still be a whole number
            if (
                new is not None
                and "int" in str(fields[name].type)
                and (not isinstance(new, int) or isinstance(new, bool))
            ):
                raise RulesError(f"option {name} takes a whole number, not {value!r}")
            changes[name] = new
        rules: R = dataclasses.replace(base, **changes)  # type: ignore[type-var]
        check = getattr(rules, "check", None)
        if check is not None:
            check()
        return rules

    def table(self, rules: R | None, players: int | None, first: int) -> tuple[R, int]:
        """The rules (the default preset's when None, checked) and the number of players
        (the game's default when None, checked), with ``first`` a seat at that table."""
        rules = rules if rules is not None else self.default_preset().rules
        check = getattr(rules, "check", None)
        if check is not None:
            check()
        n = self.default_players if players is None else players
        self.check_players(n)
        if not 0 <= first < n:
            raise RulesError(f"the first player must be a seat from 0 to {n - 1}")
        return rules, n

    def check_players(self, players: int) -> None:
        lo, hi = self.players
        if not lo <= players <= hi:
            span = f"{lo} to {hi}" if lo != hi else f"exactly {lo}"
            raise RulesError(f"{self.title} is played by {span} players, not {players}")

    def new_state(
        self,
        rules: R | None = None,
        players: int | None = None,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        shoe: Sequence[int] | None = None,
        stack: tuple[Sequence[Sequence[int]], Sequence[int]] | None = None,
        first: int = 0,
    ) -> State:
        raise NotImplementedError

    def action_text(self, action: int) -> str:
        raise NotImplementedError

    def determinize(self, obs: Any, rng: random.Random) -> State:
        """A full state consistent with an observation, hidden cards sampled (for search)."""
        raise NotImplementedError(f"{self.title} has no determinization for search bots yet")

    def parse_action(self, text: str) -> int:
        raise NotImplementedError


def coerce_option(name: str, value: Any, current: Any) -> Any:
    """Convert an option given as text (from the command line or JSON) to its type."""
    if isinstance(current, bool):
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise RulesError(f"option {name} takes true or false, not {value!r}")
    if isinstance(current, int) or (current is None and _looks_int(value)):
        if isinstance(value, bool):
            raise RulesError(f"option {name} takes a whole number, not {value!r}")
        try:
            return int(value)
        except (TypeError, ValueError):
            if current is None and str(value).strip().lower() in ("none", "auto", ""):
                return None
            raise RulesError(f"option {name} takes a whole number, not {value!r}") from None
    if current is None and str(value).strip().lower() in ("none", "auto", ""):
        return None
    return str(value).strip() if isinstance(value, str) else value


def _looks_int(value: Any) -> bool:
    try:
        int(value)
    except (TypeError, ValueError):
        return False
    return not isinstance(value, bool)


def tally(vectors: Iterable[Sequence[int]] = (), cards: Iterable[int] = ()) -> list[int]:
    """One count vector of several count vectors and loose cards (for ``card_counts``)."""
    counts = [0] * N_KINDS
    for vec in vectors:
        for k in range(N_KINDS):
            counts[k] += vec[k]
    for k in cards:
        counts[k] += 1
    return counts


def format_cents(cents: int) -> str:
    """An amount of money for people: ``$21.00`` from 100 cents up, else ``50¢``."""
    sign = "-" if cents < 0 else ""
    c = abs(cents)
    return f"{sign}${c // 100}.{c % 100:02d}" if c >= 100 else f"{sign}{c}¢"


def describe_cards(cards: Sequence[int]) -> str:
    return format_cards(cards)
