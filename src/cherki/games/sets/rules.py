"""The play-rules core of the games of sets: the rules every game shares, the hooks a game
fills in, and the registry of scoring methods.

Every game of sets plays on a subclass of :class:`SetsRules` declared in its own module
(``BalikRules``, ``GonggongRules``, ``ChaquiRules``, ``ChotRules``): the fields here are the
shoe, the deal, the shape of a winning hand, calling and claims, who starts next and the
money a point is worth; a game adds its own fields (its scoring's and its table's) and
nothing of one game is a field of another's rules. What a game changes in the shared play
reaches the engine through the hooks declared here with their defaults (a pair that goes
out, a taken mata laid face up, a pot's stake, checks on the table), never through a
game's option read by the shared code.

A scoring method (:class:`ScoringMethod`) is a function over a won hand, registered by the
game that owns it, with the rules class it scores: ``scoring`` names one, and a game's
rules accept only the methods registered for their class.

Our specifications
------------------
* A rules object is checked by the options its class declares (``declared``): each field
  in its range, the scoring method registered for that class, the shape of a hand sound.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Protocol, Self, TypeVar

from cherki.compiled import reduce_fields
from cherki.core.errors import Phrase, RulesError
from cherki.core.events import Result, slot_init
from cherki.core.options import Option, Rules, Value
from cherki.games.sets.options import (
    CORE_OPTIONS,
    MAX_HALF_PACKS,
    MAX_PLAYERS,
    SHOE_TABLES,
    spans,
)

__all__ = [
    "MAX_HALF_PACKS",
    "MAX_PLAYERS",
    "SCORING",
    "SHOE_TABLES",
    "Paid",
    "ScoredHand",
    "ScoringMethod",
    "SetsRules",
    "Win",
    "own",
    "register_scoring",
    "score_items",
]


@dataclass(frozen=True, slots=True)
class SetsRules(Rules):
    """The rules every game of sets shares (see the module docstring); a game's own rules
    subclass it. Alone it is a core to check by hand (defaults: Balik Satu's play)."""

    scoring: str = "satu"
    shoe_table: str = "pwee"
    half_packs: int | None = None
    deal: str = "rounds"
    honours: str = "rank1"
    kandang_tangan: bool = True
    kandang_tangan_multiplier: int = 2
    must_call_to_win: bool = False
    call_timing: str = "any"
    caller_changes: str = "mata-only"
    claim_priority: str = "turn-order"
    next_starter: str = "winner"
    cents_per_point: int = 10
    set_size: int = 3
    sets: int = 5
    starter_extra: bool = True
    discard_wins: bool = False

    def declared(self) -> tuple[Option, ...]:
        """The options a rules object of this class is checked by (its fields'
        declarations). A method, not a class variable: mypyc (scripts/compile_engine.py)
        takes a frozen dataclass's class variables for fields."""
        return CORE_OPTIONS

    def check(self) -> None:
        """Every field its class declares in range, the scoring method one registered for
        this class of rules, the shape of a hand sound. A game checks its own options first
        (``Game.check_rules``)."""
        method = SCORING.get(self.scoring)
        if method is None or not isinstance(self, method.rules):
            mine = [m for m, s in SCORING.items() if isinstance(self, s.rules)]
            raise RulesError(
                "refuse.option.choice",
                name="scoring",
                value=repr(self.scoring),
                names=", ".join(mine) or Phrase.of("refuse.rules.none"),
            )
        if self.set_size not in (2, 3):
            raise RulesError("refuse.option.set_size")
        if not 1 <= self.sets <= 9:
            raise RulesError("refuse.option.range", name="sets", lo=1, hi=9)
        for opt in self.declared():
            if opt.name != "scoring":
                opt.check(getattr(self, opt.name))

    def with_fields(self, **changes: Value) -> Self:
        """A copy with ``changes`` made, checked (a preset's rules from its game's base)."""
        out = dataclasses.replace(self, **changes)  # type: ignore[arg-type]
        out.check()
        return out

    # -- the hooks a game fills in (defaults: Balik Satu's play) --------------------------
    @property
    def goes_out_on_pair(self) -> bool:
        """Whether a hand of sets with no mata but a set holding an identical pair goes out
        too (Chaqui's chiqui, [001] C-CHIQUI): the waits, the wins and the calls follow it."""
        return False

    @property
    def lays_taken_mata(self) -> bool:
        """Whether a mata completed by taking another seat's discard is laid face up and
        stays on the table (Chaqui's exposed olo, [001] C-EXPOSE)."""
        return False

    @property
    def pot_stake(self) -> int:
        """What each seat stakes into an empty pot, for a scoring method that keeps one
        (``ScoringMethod.pot``: Gonggong's undhuh-undhuhan and umbuk, [001])."""
        return 0

    @property
    def pair_go_out_costs(self) -> bool:
        """Whether going out on a pair that then turns up no mata costs the player (Chaqui's
        house rule ``chiqui_fail=pays``) rather than ending the hand with no winner: the
        bots weigh such a go-out before taking it."""
        return False

    def check_table(self, players: int) -> None:
        """Checks these rules make on a table of ``players`` (side bets naming seats,
        partnerships needing an even count...): :class:`RulesError` if it cannot play."""

    # -- derived --------------------------------------------------------------------------
    @property
    def method(self) -> ScoringMethod:
        """The scoring method ``scoring`` names."""
        method = SCORING.get(self.scoring)
        if method is None:
            raise RulesError(f"no scoring method {self.scoring!r} is registered")
        return method

    @property
    def reserve(self) -> int:
        """Stock cards kept back for the winner's scoring draw (the scoring method's)."""
        return self.method.reserve(self)

    @property
    def hand_size(self) -> int:
        """Cards in a winning hand: ``sets`` × ``set_size`` (15 in Balik Satu)."""
        return self.sets * self.set_size

    def shoe_half_packs(self, players: int) -> int:
        if self.half_packs is not None:
            return self.half_packs
        table = SHOE_TABLES[self.shoe_table]
        if players not in table:
            runs = spans(table).split(" and ")
            covers = (
                Phrase.of("refuse.rules.and", a=runs[0], b=runs[1]) if len(runs) == 2 else runs[0]
            )
            raise RulesError(
                "refuse.rules.shoe", table=self.shoe_table, players=players, covers=covers
            )
        return table[players]

    def to_json(self) -> dict[str, Value]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


_R = TypeVar("_R", bound=SetsRules)


def own(rules: SetsRules, kind: type[_R]) -> _R:
    """``rules`` as a game's own rules class (:class:`RulesError` for another game's): what
    a scoring function or a game's hook calls before reading its own fields."""
    if not isinstance(rules, kind):
        raise RulesError(f"these rules are {type(rules).__name__}, not {kind.__name__}")
    return rules


# -- scoring methods: a registry of functions, each with the stock reserve it needs -----------
@dataclass(frozen=True, slots=True)
class Win:
    """A won hand, as a scoring function sees it.

    ``how`` is ``self-draw`` (own stock draw), ``claim`` (another seat's shown draw),
    ``discard`` (another seat's discard, option ``discard_wins``) or ``kandang-tangan``
    (a winning hand as dealt). ``scoring`` are the stock cards kept back for scoring, in
    order (the turned card, or the fifteen drawn...).
    """

    seat: int
    how: str
    card: int
    from_seat: int
    hand: tuple[int, ...]
    call: str | None
    call_changed: bool
    scoring: tuple[int, ...]

    @property
    def self_drawn(self) -> bool:
        return self.how in ("self-draw", "kandang-tangan")

    @property
    def ceki_win(self) -> bool:
        """Won by completing the mata after calling ceki (not changed to tan): the ayam /
        kandang condition."""
        return (
            self.call == "ceki"
            and not self.call_changed
            and self.how in ("self-draw", "claim", "discard")
        )

    def __reduce__(self) -> tuple[object, ...]:
        return reduce_fields(self)  # pickle and copy, compiled too (cherki.compiled)


slot_init(Win)  # made at every win: the quicker __init__ (cherki.core.events.slot_init)


class ScoredHand(Protocol):
    """What a scoring function reads of the hand it scores (a ``SetsState`` is one)."""

    @property
    def rules(self) -> SetsRules: ...
    @property
    def n(self) -> int: ...
    @property
    def size(self) -> int: ...
    @property
    def grouping(self) -> Sequence[int]: ...
    @property
    def melded(self) -> Sequence[Sequence[int]]: ...
    @property
    def pot(self) -> int: ...
    @property
    def pot_start(self) -> int: ...
    @property
    def stakes(self) -> tuple[int, ...]: ...


@dataclass(frozen=True)
class Paid:
    """One line of a scoring list as data (``ScoringMethod.paid``): ``key`` names its words
    (``pays.<key>`` in the catalogues), ``points`` what it pays (None: its words say it),
    ``params`` the numbers and cards its words take."""

    key: str
    points: int | None = None
    params: tuple[tuple[str, int | str], ...] = ()
    #: how ``points`` reads: ``+`` points added, ``x`` a multiplier, ``c`` cents
    unit: str = "+"

    def __reduce__(self) -> tuple[object, ...]:
        return reduce_fields(self)  # pickle and copy, compiled too (cherki.compiled)


@dataclass(frozen=True)
class ScoringMethod:
    """A way of scoring a won hand, owned by the game that registers it.

    ``score(hand, win)`` returns the hand's :class:`Result`; ``reserve(rules)`` is how many
    stock cards are kept back for it; ``rules`` is the rules class it scores (a game's rules
    accept only their own methods). ``items`` are the kinds of :class:`ScoreItem` its
    results may hold (the one vocabulary the words, the records and the batched simulator
    read). A ``pot`` method keeps a pot across the hands of a match: each seat stakes the
    rules' ``pot_stake`` at the start of a hand that finds the pot empty, and the result's
    ``pot.taken`` is what the winner takes from it. ``money`` is false when a hand's points
    settle at match level only (Chot's tokens). ``ceki_bonus`` is true when a ceki win can
    score more than a tan win (ayam and kandang, R-BONUS; Chot's ten-point tokens, K-SCORE):
    the search bot then weighs a caller's change of call instead of always taking it.
    ``by_mata`` is true when a win scores a fixed amount per mata (Chaqui's olo, C-SCORING),
    so that a second mata is worth as much as the first. Neither changes a score: they tell
    the bots what the scoring function does.
    """

    name: str
    score: Callable[[ScoredHand, Win], Result]
    reserve: Callable[[SetsRules], int]
    description: str
    rules: type[SetsRules] = SetsRules
    items: tuple[str, ...] = ()
    pot: bool = False
    money: bool = True
    ceki_bonus: bool = False
    by_mata: bool = False
    #: the least and most one seat's payment may be in a hand, from the rules and the number
    #: of players (the contract's ``payment_bounds``)
    bounds: Callable[[SetsRules, int], tuple[int, int]] = lambda r, n: (0, 0)
    #: what each item pays under the rules, as data (the scoring list a table shows: the
    #: view words it), computed from the rules given
    paid: Callable[[SetsRules], tuple[Paid, ...]] = lambda r: ()

    def __reduce__(self) -> tuple[object, ...]:
        return reduce_fields(self)  # pickle and copy, compiled too (cherki.compiled)


#: Scoring methods by name; each game's module registers its own.
SCORING: Final[dict[str, ScoringMethod]] = {}


def register_scoring(method: ScoringMethod) -> ScoringMethod:
    SCORING[method.name] = method
    return method


def score_items(methods: Iterable[str] | None = None) -> tuple[str, ...]:
    """The kinds of score item the registered scoring ``methods`` (every one when None)
    declare, each once, in the order of registration: the one vocabulary of score items
    that the words, the records' documentation and the batched simulator follow."""
    wanted = set(SCORING) if methods is None else set(methods)
    out: dict[str, None] = {}
    for name, method in SCORING.items():
        if name in wanted:
            out.update(dict.fromkeys(method.items))
    return tuple(out)
