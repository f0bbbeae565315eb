"""What one simulated hand leaves: :class:`HandSummary`, the same from the reference engine
(:func:`cherki.play.simulate.summarise`) and the batched simulator
(:func:`cherki.play.batched.summaries`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields

from cherki.core.errors import RulesError
from cherki.core.events import JSON


@dataclass(frozen=True)
class HandSummary:
    """What one simulated hand leaves (see the module's notes)."""

    index: int
    how: str
    winner: int | None  # position from the starter
    score: int
    items: dict[str, int]
    actions: int
    turns: int
    calls: dict[str, int]
    winner_call: str | None
    payments: tuple[int, ...]  # by position
    events: dict[str, int]
    detail: dict[str, float] = field(default_factory=dict)
    #: for a match's own bookkeeping (Chot's bangkong): the winner's seat, its tokens, and
    #: whether the hand was voided and dealt again
    winner_seat: int | None = None
    tokens: int | None = None
    redeal: bool = False
    #: each position's money in cents (``Result.money``: points at the rules' rate, plus
    #: what is paid in money only, such as Cholek Tiga's bonuses); empty in files written
    #: before it was kept
    money: tuple[int, ...] = ()
    #: the winner's items paid in money rather than points (cents, the winner's net gain):
    #: Cholek Tiga's ang pow and its in-play bonuses (``in-play-ayam``, ``in-play-kandang``)
    item_money: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        out = asdict(self)
        out["payments"] = list(self.payments)
        out["money"] = list(self.money)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> HandSummary:
        """Read a hand back from a simulation file, each field checked; a damaged one is a
        :class:`RulesError`."""
        unknown = sorted(set(data) - {f.name for f in fields(cls)})
        if unknown:
            raise RulesError(f"a hand of the simulation file is damaged: unknown {unknown}")
        try:
            return cls(
                index=_int(data, "index"),
                how=_str(data, "how"),
                winner=_maybe_int(data, "winner"),
                score=_int(data, "score"),
                items=_counts(data, "items"),
                actions=_int(data, "actions"),
                turns=_int(data, "turns"),
                calls=_counts(data, "calls"),
                winner_call=_maybe_str(data, "winner_call"),
                payments=_ints(data, "payments"),
                events=_counts(data, "events"),
                detail=_figures(data.get("detail", {})),
                winner_seat=_maybe_int(data, "winner_seat", missing=True),
                tokens=_maybe_int(data, "tokens", missing=True),
                redeal=_flag(data.get("redeal", False)),
                money=_ints(data, "money", missing=True),
                item_money=_counts(data, "item_money", missing=True),
            )
        except (TypeError, KeyError) as err:
            raise RulesError(f"a hand of the simulation file is damaged: {err}") from None


def _value(data: Mapping[str, object], key: str, missing: bool) -> object:
    if key not in data and not missing:
        raise KeyError(key)
    return data.get(key)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(data: Mapping[str, object], key: str) -> int:
    value = _value(data, key, False)
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{key!r} is not a whole number")
    return value


def _maybe_int(data: Mapping[str, object], key: str, missing: bool = False) -> int | None:
    value = _value(data, key, missing)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{key!r} is not a whole number")
    return value


def _str(data: Mapping[str, object], key: str) -> str:
    value = _value(data, key, False)
    if not isinstance(value, str):
        raise TypeError(f"{key!r} is not a text")
    return value


def _maybe_str(data: Mapping[str, object], key: str) -> str | None:
    value = _value(data, key, False)
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{key!r} is not a text")
    return value


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError("'redeal' is not true or false")
    return value


def _ints(data: Mapping[str, object], key: str, missing: bool = False) -> tuple[int, ...]:
    value = _value(data, key, missing)
    if value is None and missing:
        return ()
    if not isinstance(value, list) or not all(_is_int(v) for v in value):
        raise TypeError(f"{key!r} is not a list of whole numbers")
    return tuple(int(v) for v in value)


def _counts(data: Mapping[str, object], key: str, missing: bool = False) -> dict[str, int]:
    value = _value(data, key, missing)
    if value is None and missing:
        return {}
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and _is_int(v) for k, v in value.items()
    ):
        raise TypeError(f"{key!r} is not a table of whole numbers")
    return {str(k): int(v) for k, v in value.items()}


def _figures(value: object) -> dict[str, float]:
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, int | float) and not isinstance(v, bool)
        for k, v in value.items()
    ):
        raise TypeError("'detail' is not a table of numbers")
    return {str(k): v for k, v in value.items()}
