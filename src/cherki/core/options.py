"""Rule options, declared once: their type, choices or range, default and source.

A game lists the :class:`Option` s it accepts (``Game.options``); from these declarations
come checking (a value of the wrong type, out of range or not among the choices is a
:class:`~cherki.core.errors.RulesError` naming the option), the command line's help, and the
options table of each rules document (``cherki rules GAME`` and ``docs/rules/``). A game
accepts only its own options and names them when given another.

Values arrive typed (from Python) or as text (from the command line); both are converted
strictly: ``true``/``false`` (also yes/no, on/off, 1/0) for a flag, a whole number written in
digits for a number (never a float, a bool or ``1e3``), one of the choices for a choice.

Our specifications
------------------
* Every whole-number option is within ±:data:`WHOLE_LIMIT` (a million) even where its
  declaration sets no bound: no stake, target or score of these games comes near it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from cherki.compiled import mypyc_attr, reduce_fields
from cherki.core.errors import RulesError


@mypyc_attr(allow_interpreted_subclasses=True)  # a game kept outside cherki subclasses it
class Rules:
    """Base of every game's rules: a frozen dataclass of option values."""

    __slots__ = ()

    def check(self) -> None:
        """Checks across options (one option's own range is checked by its declaration)."""

    def __reduce__(self) -> tuple[object, ...]:
        return reduce_fields(self)  # pickle and copy, compiled too (cherki.compiled)


#: A rule option's value.
Value = bool | int | str | None

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")
_NONE = ("none", "auto", "")


@dataclass(frozen=True)
class Preset:
    """A named set of rule options with the sources it follows."""

    name: str
    rules: Rules
    description: str
    sources: str
    aliases: tuple[str, ...] = ()
    #: its name for people ("Singapore (Pwee, 2003)"): the lobby shows it, ``name`` beside
    title: str = ""

    def __reduce__(self) -> tuple[object, ...]:
        return reduce_fields(self)  # pickle and copy, compiled too (cherki.compiled)


@dataclass(frozen=True)
class Option:
    """One rule option: its name (a field of the game's rules), default, one line for
    people (``help``), the source it rests on (``[000] R-YEO``; ``ours`` where we chose),
    and what values it takes: ``choices`` for a word, ``minimum``/``maximum`` for a number,
    ``optional`` when ``None`` (written ``auto``) is allowed. ``house``: a house rule the
    sources do not state, labelled so in the docs. ``money``: the value is cents."""

    name: str
    default: Value
    help: str
    source: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    optional: bool = False
    kind: type = type(None)  # noqa: RUF009 (None: from the default)
    house: bool = False
    #: its name for people ("Kandang tangan multiplies the score by"): the lobby shows it,
    #: with ``name`` beside
    title: str = ""
    #: a sum of money in cents (a point's worth, a bonus): a table whose rules set any such
    #: option above nothing plays for money (:func:`plays_for_money`)
    money: bool = False

    def __post_init__(self) -> None:
        if self.kind is type(None):
            kind = type(self.default) if self.default is not None else int
            object.__setattr__(self, "kind", kind)

    @property
    def type_name(self) -> str:
        if self.kind is bool:
            return "true/false"
        if self.choices:
            return " / ".join(self.choices)
        if self.kind is int:
            lo, hi = self.minimum, self.maximum
            if lo is not None and hi is not None:
                span = f" {lo}–{hi}"
            elif lo is not None:
                span = f" ≥ {lo}"
            elif hi is not None:
                span = f" ≤ {hi}"
            else:
                span = ""
            return "whole number" + span + (" or auto" if self.optional else "")
        return "text"

    def parse(self, value: object) -> Value:
        """Convert ``value`` (typed, or text from a command line) and check it."""
        name = self.name
        if value is None or (isinstance(value, str) and value.strip().lower() in _NONE):
            if self.optional:
                return None
            if value is None or self.kind is not str:
                kind = {bool: "bool", int: "number"}.get(self.kind, "text")
                raise RulesError(f"refuse.option.{kind}", name=name, value=repr(value))
        out: Value
        if self.kind is bool:
            if isinstance(value, bool):
                out = value
            elif isinstance(value, str) and value.strip().lower() in _TRUE:
                out = True
            elif isinstance(value, str) and value.strip().lower() in _FALSE:
                out = False
            else:
                raise RulesError("refuse.option.bool", name=name, value=repr(value))
        elif self.kind is int:
            if isinstance(value, int) and not isinstance(value, bool):
                out = value
            elif isinstance(value, str) and _is_digits(value.strip()):
                out = int(value.strip())
            else:
                raise RulesError("refuse.option.number", name=name, value=repr(value))
        elif isinstance(value, str):
            out = value.strip()
        else:
            raise RulesError("refuse.option.text", name=name, value=repr(value))
        self.check(out)
        return out

    def check(self, value: Value) -> None:
        """Raise :class:`RulesError` unless ``value`` is one this option takes."""
        name = self.name
        if value is None:
            if not self.optional:
                raise RulesError("refuse.option.empty", name=name)
            return
        if self.kind is bool:
            if not isinstance(value, bool):
                raise RulesError("refuse.option.bool", name=name, value=repr(value))
            return
        if self.kind is int:
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError("refuse.option.number", name=name, value=repr(value))
            both = self.minimum is not None and self.maximum is not None
            if both and not self.minimum <= value <= self.maximum:  # type: ignore[operator]
                raise RulesError("refuse.option.range", name=name, lo=self.minimum, hi=self.maximum)
            if self.minimum is not None and value < self.minimum:
                if self.minimum == 0:
                    raise RulesError("refuse.option.negative", name=name)
                raise RulesError("refuse.option.least", name=name, lo=self.minimum)
            if self.maximum is not None and value > self.maximum:
                raise RulesError("refuse.option.most", name=name, hi=self.maximum)
            if abs(value) > WHOLE_LIMIT:
                raise RulesError(
                    "refuse.option.limit",
                    name=name,
                    lo=f"{-WHOLE_LIMIT:,}",
                    hi=f"{WHOLE_LIMIT:,}",
                    value=f"{value:,}",
                )
            return
        if not isinstance(value, str):
            raise RulesError("refuse.option.text", name=name, value=repr(value))
        if self.choices and value not in self.choices:
            raise RulesError(
                "refuse.option.choice", name=name, value=repr(value), names=", ".join(self.choices)
            )

    def __reduce__(self) -> tuple[object, ...]:
        return reduce_fields(self)  # pickle and copy, compiled too (cherki.compiled)


#: no number of the rules is larger than this (a stake, a target, points): larger ones are
#: typing mistakes or attacks on a server's arithmetic and storage
WHOLE_LIMIT = 1_000_000


def _is_digits(text: str) -> bool:
    body = text[1:] if text[:1] in "+-" else text
    return body.isascii() and body.isdigit() and len(body) <= 18


def restate(options: tuple[Option, ...], name: str, source: str) -> tuple[Option, ...]:
    """``options`` with option ``name``'s source given anew: a game whose rate or rule comes
    from another source than the family's (Gonggong's 2 cents a point)."""
    if find_option(options, name) is None:
        raise RulesError(f"no option {name!r} to restate")
    return tuple(replace(o, source=source) if o.name == name else o for o in options)


def find_option(options: tuple[Option, ...], name: str) -> Option | None:
    """The option called ``name`` (dashes read as underscores), or None."""
    key = name.strip().replace("-", "_")
    for opt in options:
        if opt.name == key:
            return opt
    return None


def plays_for_money(options: tuple[Option, ...], rules: Rules) -> bool:
    """Whether ``rules`` put money on the game: any of its money options (``Option.money``:
    a point's worth, a bonus, a bangkong's) above nothing."""
    return any(o.money and bool(getattr(rules, o.name, 0) or 0) for o in options)
