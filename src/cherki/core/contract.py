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
  :class:`~cherki.core.errors.IllegalActionError` with the reason, leaving the state untouched;
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
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from cherki.core.errors import IllegalActionError, RulesError
from cherki.core.events import Event, Result
from cherki.core.options import Preset, coerce_option

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
