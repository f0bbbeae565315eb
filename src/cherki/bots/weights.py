"""The constants a heuristic plays by, as data a learned model's card can carry.

A game's heuristic that can be tuned (``cherki train --method tune``, :mod:`cherki.tune`)
declares its constants as a frozen dataclass derived from :class:`TunedWeights`, with the
hand-set values as defaults, and names it as its ``weights_type``
(:class:`cherki.bots.base.Heuristic`). The games of sets' are
:class:`cherki.bots.balik.Weights`, Ceki's :class:`cherki.bots.ceki.CekiWeights`.

Our specifications
------------------
* Every weight is a number ≥ 0 (the tuning searches their logarithms); a weight annotated
  ``int`` is a whole number, so a hand's equal values stay equal to the last bit.
* A card's mapping names every weight but those of ``later`` (named after the first cards
  were written: a card without them plays their hand-set values) and nothing else; anything
  else is refused in one sentence.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import ClassVar, Self

from cherki.core.errors import RulesError


@dataclass(frozen=True)
class TunedWeights:
    """The base of a heuristic's constants (see the module)."""

    #: the weights a card may leave out (their hand-set values then)
    later: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            whole = f.type in ("int", int)
            ok = type(v) is not bool and isinstance(v, int if whole else (int, float))
            if not ok or not math.isfinite(v) or v < 0:
                kind = "a whole number" if whole else "a finite number"
                raise RulesError(f"the heuristic's weight {f.name} must be {kind} ≥ 0, not {v!r}")

    def as_dict(self) -> dict[str, float]:
        return asdict(self)

    @classmethod
    def whole(cls) -> frozenset[str]:
        """The names of the weights that are whole numbers."""
        return frozenset(f.name for f in fields(cls) if f.type in ("int", int))

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Self:
        """Weights from a model card's mapping (every name, those of ``later`` where the
        card gives them, nothing else), or a one-line refusal."""
        if not isinstance(data, Mapping):
            raise RulesError(f"the heuristic's weights must be a mapping, not {data!r}")
        names = [f.name for f in fields(cls)]
        unknown = sorted(set(data) - set(names))
        missing = [n for n in names if n not in data and n not in cls.later]
        if unknown or missing:
            raise RulesError(
                "the heuristic's weights "
                + (f"name unknown {', '.join(unknown)}" if unknown else "")
                + ("; " if unknown and missing else "")
                + (f"lack {', '.join(missing)}" if missing else "")
            )
        return cls(**data)


__all__ = ["TunedWeights"]
