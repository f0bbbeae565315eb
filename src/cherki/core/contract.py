"""The contract every cherki game keeps: typed :class:`Game`, :class:`State`, :class:`Rules`
and :class:`Observation`, with every hook declared here (with a default where one makes
sense), so the terminal, the browser, records, matches, bots and the research adapters work
on any game unchanged and never probe a game with ``getattr``.

* ``state.current`` is the seat to act (``-1`` once the hand is over). Play is sequential:
  out-of-turn claims are turns of their own, given to the claiming seats one at a time.
* ``state.legal_actions(seat)`` lists integer action ids, sorted ascending; it is empty for a
  seat that is not to act. ``game.action_text(a)`` / ``game.parse_action(text)`` convert to
  and from the documented text notation (they round-trip).
* ``state.apply(action, seat=...)`` validates first and raises
  :class:`~cherki.core.errors.IllegalActionError` with the reason, leaving the state untouched
  (an action or seat that is not exactly an ``int`` in range included); otherwise it changes
  the state and returns the :class:`~cherki.core.events.Event` s it caused.
* ``state.observation(seat)`` is everything that seat may know, built in one place per game;
  it has a JSON form (``to_json``, ``docs/observations.md``) and a numeric one (``encode``,
  laid out by ``game.observation_layout``).
* ``state.public_observation()`` is what anyone watching the table may see (a spectator):
  the game's own observation class with ``seat == NOBODY`` (-1), built by the same code as a
  seat's with nobody as the viewer. Its ``own_fields`` (the hand, the legal actions, the
  card drawn and where from...) hold the values of a seat with nothing of its own: an empty
  hand, no legal actions, no drawn card; every other field is the same in every seat's
  observation and in the public view, so it holds no card a seat may keep to itself.
* ``state.clone()`` is a cheap independent copy; every state is built by ONE constructor,
  which dealing, ``clone`` and ``game.determinize`` all call.
* ``game.determinize(obs, rng)`` samples a full state from ANY seat's observation (the one
  to act or another): the seat sees exactly what it sees now, and the hidden cards keep
  every public commitment made so far, which ``state.record_faults()`` lists in words when
  broken (empty for every state play reaches; the conformance suite checks both, and that
  the seat to act of a sampled state has legal actions).
* All chance (the shuffle) happens when a hand starts, from a :class:`DealRequest` (a seed, a
  generator, a shoe order or a stacked deal), so ``(game, rules, deal, actions)`` reproduces a
  hand exactly. What a match carries into a hand (a pot) is its ``context``.
* Every game declares, from its rules and player count, its number of distinct actions, the
  most cards a hand may hold, the most actions a hand may take and the bounds of a seat's
  payment; the conformance suite (``tests/test_contract.py``) holds every game to them.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar, Self, TypeVar

from cherki.compiled import mypyc_attr
from cherki.core.deal import DealInfo, DealRequest, Stack
from cherki.core.encoding import Layout, Vector
from cherki.core.errors import Act, IllegalActionError, Phrase, RulesError, is_key, quote
from cherki.core.events import JSON, NOBODY, Event, Result
from cherki.core.figures import ExactFigure, MatchMeasures
from cherki.core.lessons import Course
from cherki.core.options import Option, Preset, Rules, Value, find_option
from cherki.core.protocols import Ledger, MatchNote, Observation
from cherki.core.view import GameView, HandAnalysis

__all__ = [
    "NOBODY",
    "DealInfo",
    "DealRequest",
    "Game",
    "Ledger",
    "MatchNote",
    "Observation",
    "Policy",
    "Rules",
    "State",
    "play_out",
]


#: the attributes :class:`State` declares, kept by a pickle of a state without ``__reduce__``
_STATE_FIELDS = ("game", "n", "first", "current", "log", "history", "info", "_result")


@mypyc_attr(allow_interpreted_subclasses=True)  # a game kept outside cherki subclasses it
class State:
    """Base of every game's state. Subclasses implement the rules of play."""

    game: Game
    # ``rules``: each game's state declares it with its own rules type (a compiled build,
    # mypyc, refuses an attribute whose type a subclass narrows)
    n: int
    first: int
    current: int
    log: list[Event]
    history: list[tuple[int, int]]
    info: DealInfo
    _result: Result | None

    #: the legal actions of the position after ``_legal_at`` actions (-1: none yet; the
    #: list is set with it, and read only when it matches), kept as two fields, not a pair,
    #: so that a step makes no tuple (a hot path); the list is the state's own:
    #: :meth:`legal_actions` hands out copies
    _legal_at: int = -1
    _legal_list: list[int]

    def __getstate__(self) -> dict[str, object]:
        """What a pickle or ``copy.deepcopy`` keeps of a state that does not go through its
        constructor (cherki's own states do, ``__reduce__``): its attributes, this base's too
        (in a compiled build they are not in the instance's ``__dict__``)."""
        names = [*_STATE_FIELDS, *getattr(self, "__dict__", {})]
        return {name: getattr(self, name) for name in names if hasattr(self, name)}

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    # -- what each game implements ------------------------------------------------------
    def _legal(self) -> list[int]:
        """The legal action ids of the seat to act in a hand not over, sorted ascending. The
        state keeps the list (its cache) and changes it never, nor does any caller
        (:meth:`legal_actions` hands out copies), so a game may return a shared constant."""
        raise NotImplementedError

    def _why_illegal(self, seat: int, action: int) -> Phrase | str:
        """Why ``action`` is not legal for ``seat`` now (called only when it is not): words
        of the catalogues (a :class:`~cherki.core.errors.Phrase`; a game listed from outside
        cherki brings its keys in ``Game.words``), or a plain sentence."""
        return Phrase.of("refuse.not_now", action=Act(self.game.action_text(action)))

    def _apply(self, action: int) -> list[Event]:
        raise NotImplementedError

    def observation(self, seat: int) -> Observation:
        """Everything ``seat`` may know now (its own hand, its legal actions...)."""
        raise NotImplementedError

    def public_observation(self) -> Observation:
        """What anyone watching the table may see now: the game's observation class with
        ``seat == NOBODY`` (-1), an empty hand, no legal actions, no drawn card, and every
        field about a seat's own cards (``own_fields``) empty; the rest is what every seat
        sees. Never a hand's cards, the stock's order, cards laid face down or a card a
        seat drew for itself. ``to_json()`` writes ``"seat": null``; ``encode()`` lays the
        views about seats out from seat 0."""
        raise NotImplementedError

    def encode(self, seat: int) -> Vector:
        """``observation(seat).encode()`` (``seat`` ``NOBODY``: the public view's), the
        vector a learner reads at every step. A game may give a faster way to the same
        vector (the games of sets keep the blocks that rarely change); the conformance suite
        holds it equal to the observation's at every step."""
        if seat == NOBODY:
            return self.public_observation().encode()
        return self.observation(seat).encode()

    def clone(self) -> Self:
        """An independent copy, through the state's one constructor (:meth:`_parts`)."""
        args, kwargs = self._parts()
        return rebuild(type(self), args, kwargs)

    def _parts(self) -> tuple[tuple[object, ...], dict[str, object]]:
        """The constructor's arguments for an independent copy of this state (what
        :meth:`clone` and a game's ``__reduce__`` build it from); a game either gives them
        or overrides :meth:`clone`."""
        raise NotImplementedError

    def _own_parts(self) -> dict[str, object]:
        """This base's own part of :meth:`_parts`, as keywords of the game's constructor: the
        seat to act, the log, the history and the result (events and results are immutable,
        shared)."""
        return {
            "current": self.current,
            "log": self.log[:],
            "history": self.history[:],
            "result": self._result,
        }

    def card_counts(self) -> list[int]:
        """Every card of the shoe wherever it lies now (hands, discards, stock, a card on the
        table), as a count vector: the invariant checker's view. Always the whole shoe."""
        raise NotImplementedError

    # -- hooks with defaults --------------------------------------------------------------
    def next_context(self) -> dict[str, JSON]:
        """What the next hand of a match starts from (a pot carried over); {} by default."""
        return {}

    def next_first(self) -> int:
        """Who starts the next hand of a match: by default the next seat."""
        return (self.first + 1) % self.n

    def waiting_for(self) -> str:
        """The catalogue key of a few words on what the seat to act must do (for error
        messages: "seat 1 is to {doing}")."""
        return "refuse.doing.act"

    def record_faults(self) -> list[str]:
        """Where the hidden cards of this full state contradict the public record, in words:
        each call, claim, reveal or lay-down made so far that the hands do not honour (a
        caller not one card from winning under its call, a seat without the cards it showed,
        a seat to act left without a move the record promises). Empty for every state play
        reaches; ``game.determinize`` must give states where it is empty too (the
        conformance suite checks both). By default a game has no such commitments."""
        return []

    # -- shared behaviour ---------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> list[int]:
        """The legal action ids of ``seat`` (default: the seat to act), sorted ascending;
        empty for any other seat and once the hand is over. Computed once a position."""
        if self._result is not None or (seat is not None and seat != self.current):
            return []
        steps = len(self.history)
        if self._legal_at != steps:  # as _legal_now, one call fewer (a hot path)
            self._legal_list = self._legal()
            self._legal_at = steps
        return self._legal_list[:]

    def _legal_now(self) -> list[int]:
        """The cached legal actions of the seat to act (not to be changed by the caller)."""
        steps = len(self.history)
        if self._legal_at != steps:
            self._legal_list = self._legal()
            self._legal_at = steps
        return self._legal_list

    @property
    def is_terminal(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> Result:
        if self._result is None:
            raise IllegalActionError("refuse.not_over")
        return self._result

    def check_seat(self, seat: object) -> int:
        """``seat`` as a seat number of this table, or :class:`IllegalActionError`."""
        if type(seat) is not int:
            raise IllegalActionError("refuse.seat_number", seat=quote(seat))
        if not 0 <= seat < self.n:
            raise IllegalActionError("refuse.no_seat", seat=seat, n=self.n)
        return seat

    def check(self, action: object, seat: object = None) -> tuple[int, int]:
        """``(seat, action id)`` if ``seat`` (default: the seat to act) may play ``action``
        (an id or its notation) now; else :class:`IllegalActionError` with the reason, or
        :class:`~cherki.core.errors.NotationError` for text that is no action. Changes
        nothing."""
        if isinstance(action, str):
            action = self.game.parse_action(action)
        elif type(action) is not int:
            raise IllegalActionError("refuse.action_type", action=quote(action))
        if self._result is not None:
            raise IllegalActionError("refuse.hand_over")
        actor = self.current if seat is None else self.check_seat(seat)
        if actor != self.current:
            raise IllegalActionError(
                "refuse.not_turn",
                seat=actor,
                current=self.current,
                doing=Phrase.of(doing) if is_key(doing := self.waiting_for()) else doing,
            )
        if not 0 <= action < self.game.num_actions:
            raise IllegalActionError(
                "refuse.action_id",
                action=action,
                title=self.game.title,
                last=self.game.num_actions - 1,
            )
        if action not in self._legal_now():
            why = self._why_illegal(actor, action)
            if isinstance(why, Phrase):
                raise IllegalActionError(why.key, **why.values)
            raise IllegalActionError(why)
        return actor, action

    def apply(self, action: object, seat: object = None) -> list[Event]:
        """Validate and play ``action`` (an id or its notation) for ``seat``.

        ``seat`` defaults to the seat to act. Raises :class:`IllegalActionError` (state
        untouched) when the hand is over, it is not that seat's turn, the action is no
        action of this game, or the rules forbid it (see :meth:`check`).
        """
        history = self.history
        if (
            type(action) is int
            and (seat is None or (type(seat) is int and seat == self.current))
            and self._result is None
            and self._legal_at == len(history)
            and action in self._legal_list
        ):
            # what check finds, without its steps: a legal id of the seat to act (a hot path)
            actor, action_id = self.current, action
        else:
            actor, action_id = self.check(action, seat)
        events = self._apply(action_id)
        history.append((actor, action_id))
        self.log.extend(events)
        return events

    def events_for(self, seat: int, since: int = 0) -> list[Event]:
        """The log from ``since`` on as ``seat`` saw it."""
        return [e.seen_by(seat) for e in self.log[since:]]

    def action_texts(self, since: int = 0) -> list[str]:
        """The history (from action ``since`` on) in record notation: ``"SEAT: ACTION"``."""
        return [f"{s}: {self.game.action_text(a)}" for s, a in self.history[since:]]


#: A policy for :func:`play_out`: the action a seat takes given its observation.
Policy = Callable[[int, Observation], int]


_S = TypeVar("_S")


def rebuild(cls: Callable[..., _S], args: tuple[object, ...], kwargs: dict[str, object]) -> _S:
    """``cls(*args, **kwargs)``: how a game's state is unpickled and deep-copied, through its
    one constructor as :meth:`State.clone` makes a copy (the compiled build has no other
    way: its states cannot be made empty and filled in)."""
    return cls(*args, **kwargs)


def play_out(state: State, policy: Policy, *, limit: int | None = None) -> int:
    """Play ``state`` on with ``policy`` until the hand ends or ``limit`` actions have been
    played; returns how many were. The one loop the session, the arena, search rollouts and
    the tests share."""
    steps = 0
    while not state.is_terminal and (limit is None or steps < limit):
        seat = state.current
        state.apply(policy(seat, state.observation(seat)), seat)
        steps += 1
    return steps


@mypyc_attr(allow_interpreted_subclasses=True)
class Game:
    """A game: its rules, presets, options, action notation, bounds and how a hand starts."""

    name: ClassVar[str]
    title: ClassVar[str]
    players: ClassVar[tuple[int, int]]
    default_players: ClassVar[int]
    rules_type: ClassVar[type[Rules]]
    presets: ClassVar[tuple[Preset, ...]]
    #: the rule options this game accepts (each declared once, with its source)
    options: ClassVar[tuple[Option, ...]] = ()
    #: the number of distinct action ids (the same for every rules and table size)
    num_actions: ClassVar[int]
    #: how the seats' order goes round the table, for people
    direction: ClassVar[str] = "(clockwise)"
    #: the rules document (docs/rules/NAME.md)
    rules_doc: ClassVar[str] = ""
    #: the path of the rules document (Markdown) of a game kept outside cherki, which
    #: keeps its rules beside its code; "": cherki's ``docs/rules/<rules_doc>.md``
    rules_path: ClassVar[str] = ""
    #: whether ``new_state`` takes ``context=``: what a match carries from hand to hand (a
    #: pot, a running count), stored with each hand of a record so that it replays exactly
    accepts_context: ClassVar[bool] = False
    #: whether :meth:`determinize` is implemented (search bots need it)
    searchable: ClassVar[bool] = False
    #: notation words of the game's two calls (the tan-like and the ceki-like call)
    call_words: ClassVar[tuple[str, str]] = ("tan", "ceki")
    #: the calls' names for people ("tan kowah", "tan nokang"...)
    call_names: ClassVar[tuple[str, str]] = ("tan", "ceki")
    #: the family whose bots this game shares (``sets``: every game of sets plays with the
    #: Balik heuristic); bots register for a game's name or its family (``bots.register``)
    family: ClassVar[str] = ""
    #: the rules :meth:`check_rules` passed last (frozen: they stay good)
    _checked: Rules | None = None
    #: what the players call the face-down cards drawn from: ``stock`` (the games of sets,
    #: Cholek Tiga) or ``pile`` (Ceki's "pile", [003]); the words' keys end with it
    stock_word: ClassVar[str] = "stock"
    #: the score items paid in money, not points: an item's ``count`` cents from each other
    #: seat (Cholek Tiga's ang pow); a simulation keeps their cents apart from the points
    money_items: ClassVar[frozenset[str]] = frozenset()

    # -- presets and options ------------------------------------------------------------
    def default_preset(self) -> Preset:
        return self.presets[0]

    def find_preset(self, name: str | None) -> Preset:
        if name is None:
            return self.default_preset()
        key = name.strip().lower()
        for p in self.presets:
            if key == p.name or key in p.aliases:
                return p
        names = ", ".join(p.name for p in self.presets)
        raise RulesError("refuse.rules.no_preset", game=self.name, name=repr(name), names=names)

    def option(self, name: str) -> Option:
        """The option called ``name``; :class:`RulesError` naming this game's options if it
        has none such."""
        opt = find_option(self.options, name)
        if opt is None:
            names = ", ".join(o.name for o in self.options)
            raise RulesError(
                "refuse.rules.no_option",
                game=self.name,
                name=repr(name),
                names=names or Phrase.of("refuse.rules.none"),
            )
        return opt

    def rules(self, preset: str | None = None, **options: object) -> Rules:
        """The rules of a preset with some options changed (values checked)."""
        return self.with_options(self.find_preset(preset).rules, options)

    def with_options(self, base: Rules, options: Mapping[str, object]) -> Rules:
        """``base`` with ``options`` changed; each must be one of this game's options."""
        changes: dict[str, Value] = {}
        for key, value in options.items():
            opt = self.option(key)
            changes[opt.name] = opt.parse(value)
        rules: Rules = dataclasses.replace(base, **changes)  # type: ignore[type-var]
        self.check_rules(rules)
        return rules

    def check_rules(self, rules: Rules) -> None:
        """Raise :class:`RulesError` unless ``rules`` are rules of this game with every
        option in its range."""
        if rules is self._checked:
            return  # checked already: rules are frozen (every hand of a table starts here)
        if not isinstance(rules, self.rules_type):
            raise RulesError(f"{self.title} needs {self.rules_type.__name__}, not {rules!r}")
        for opt in self.options:
            opt.check(getattr(rules, opt.name))
        rules.check()
        self._checked = rules

    def rules_json(self, rules: Rules) -> dict[str, Value]:
        """This game's options and their values in ``rules`` (for records); a
        :class:`RulesError` for another game's rules."""
        if not isinstance(rules, self.rules_type):
            raise RulesError(
                f"{self.title} needs {self.rules_type.__name__}, not {type(rules).__name__}"
            )
        return {o.name: getattr(rules, o.name) for o in self.options}

    def rules_from_json(self, preset: str | None, data: Mapping[str, object]) -> Rules:
        """The rules a record names. Records written before each game had its own options
        hold every field of the family's rules: such a field is accepted when it has the
        value this game fixes, and refused otherwise."""
        base = self.find_preset(preset).rules
        own: dict[str, object] = {}
        for key, value in data.items():
            if find_option(self.options, key) is not None:
                own[key] = value
            elif (
                hasattr(base, key)
                and getattr(base, key) == value
                and type(value) is type(getattr(base, key))
            ):
                continue
            else:
                self.option(key)  # raises, naming this game's options
        return self.with_options(base, own)

    def table(self, rules: Rules | None, players: int | None, first: int) -> tuple[Rules, int]:
        """The rules (the default preset's when None, checked) and the number of players
        (the game's default when None, checked), with ``first`` a seat at that table."""
        rules = rules if rules is not None else self.default_preset().rules
        self.check_rules(rules)
        n = self.default_players if players is None else players
        self.check_players(n)
        if type(first) is not int or not 0 <= first < n:
            raise RulesError("refuse.rules.first", last=n - 1)
        return rules, n

    def check_players(self, players: int) -> None:
        if type(players) is not int:
            raise RulesError("refuse.rules.players_number", players=quote(players))
        lo, hi = self.players
        if not lo <= players <= hi:
            raise RulesError(
                "refuse.rules.players" if lo != hi else "refuse.rules.players_exactly",
                title=self.title,
                lo=lo,
                hi=hi,
                players=players,
            )

    # -- starting a hand ----------------------------------------------------------------
    def new_state(
        self,
        rules: Rules | None = None,
        players: int | None = None,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        shoe: Sequence[int] | None = None,
        stack: Stack | None = None,
        first: int = 0,
        context: Mapping[str, JSON] | None = None,
    ) -> State:
        """A new hand: the keyword form of :meth:`start`."""
        request = DealRequest(seed, rng, shoe, stack, first, context)
        return self.start(rules, players, request)

    def start(self, rules: Rules | None, players: int | None, request: DealRequest) -> State:
        """A new hand dealt as ``request`` says (each game implements it)."""
        raise NotImplementedError

    # -- declared bounds ------------------------------------------------------------------
    def max_hand_cards(self, rules: Rules, players: int) -> int:
        """The most cards one seat's hand may hold at any point of a hand."""
        raise NotImplementedError

    def max_actions(self, rules: Rules, players: int) -> int | None:
        """An upper bound on the number of actions in one hand, or None where the rules
        allow a hand without end (the game then documents why)."""
        raise NotImplementedError

    def payment_bounds(self, rules: Rules, players: int) -> tuple[int, int]:
        """The least and the most one seat's payment (points) in one hand may be."""
        raise NotImplementedError

    def money_bounds(self, rules: Rules, players: int) -> tuple[int, int]:
        """The least and the most one seat's money (``Result.money``, cents) in one hand may
        be. The default, ``(0, 0)``, is a game that plays for points only."""
        return 0, 0

    def observation_layout(self, rules: Rules, players: int) -> Layout:
        """The views of an encoded observation at this table (the same for every seat)."""
        raise NotImplementedError

    # -- notation -----------------------------------------------------------------------
    def action_text(self, action: int) -> str:
        raise NotImplementedError

    def parse_action(self, text: str) -> int:
        raise NotImplementedError

    # -- hooks with defaults --------------------------------------------------------------
    def view(self) -> GameView:
        """How the game is shown to people (:mod:`cherki.core.view`): its table, actions,
        hints and words. By default the plain view of a draw-and-discard game."""
        return GameView(self)

    def lessons(self) -> Course:
        """The game's course (:mod:`cherki.core.lessons`): every rule statement of its
        sources and the lessons that teach them, each a real position judged by the engine
        (``cherki learn``, the ``/learn`` pages). By default no course."""
        return Course()

    def endings(self, rules: Rules) -> tuple[str, ...]:
        """The ways a hand may end under ``rules`` (its results' ``how``), so that a
        simulation's table gives an ending that never happened its row at 0: none declared
        by default (the table lists the endings seen)."""
        return ()

    def words(self, lang: str) -> Mapping[str, str]:
        """The game's own words in ``lang`` beyond cherki's catalogues (a game listed from
        outside cherki brings them here; :func:`cherki.i18n.add_words`): empty by default."""
        return {}

    def determinize(self, obs: Observation, rng: random.Random) -> State:
        """A full state consistent with an observation, hidden cards sampled (for search)."""
        raise RulesError(f"{self.title} has no determinization for search bots yet")

    def check_context(self, context: Mapping[str, JSON]) -> None:
        """Refuse, with a :class:`RulesError` in words, a hand's context (what a match
        carries into the hand: a pot, a ledger's counts) whose keys this game reads hold
        what it cannot read (a record read back; other keys are kept and ignored): by
        default the game reads none."""

    def match_ledger(self, rules: Rules, players: int) -> Ledger | None:
        """A match's own bookkeeping (Chot's bangkong), or None: payments simply add up."""
        return None

    def match_measures(
        self, rules: Rules, players: int, notes: Sequence[tuple[int, MatchNote]]
    ) -> MatchMeasures:
        """What a run of simulated matches shows of the game's match ledger
        (:meth:`match_ledger`), from what it announced: each note with the index of the
        hand after which it came (the run's hands in order, counted from 0, across its
        matches). By default a section of the settlement alone, with no figures of its own."""
        return MatchMeasures("Matches: the settlement")

    def sides(self, rules: Rules, players: int) -> tuple[tuple[int, ...], ...] | None:
        """The partnerships at this table (seats that score together), or None."""
        return None

    def analyse_hand(
        self, counts: Sequence[int], rules: Rules, honours: str | None = None
    ) -> HandAnalysis:
        """What the game says of a hand of cards (``counts``: how many of each kind) under
        ``rules`` (``cherki hand``): whether it wins, how it is arranged, what it waits on.
        ``honours``: how the pack's honours form sets, where the analysis lets it be chosen
        (None: as the rules say). A :class:`RulesError` for a hand the game cannot hold,
        and by default: the game offers no hand analysis."""
        raise RulesError(f"hand analysis is not offered for {self.title}")

    def exact_figures(self, rules: Rules, players: int) -> tuple[ExactFigure, ...]:
        """Figures the game knows exactly under ``rules`` at a table of ``players``, which a
        simulation sets beside the ones its hands show (:mod:`cherki.core.figures`): none
        by default."""
        return ()

    def match_plan(self, rules: Rules) -> tuple[int | None, int | None]:
        """The match the rules themselves fix, as ``(hands, target points)`` (Ceki: an agreed
        total or a number of hands); ``(None, None)``: the players choose."""
        return None, None
