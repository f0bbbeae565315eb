"""What one simulated hand leaves: :class:`HandSummary`, the same from the reference engine
(:func:`cherki.play.simulate.summarise`) and the batched simulator
(:func:`cherki.play.batched.summaries`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

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
    def from_json(cls, data: dict[str, Any]) -> HandSummary:
        try:
            return cls(
                **{
                    **data,
                    "payments": tuple(data["payments"]),
                    "money": tuple(data.get("money", ())),
                }
            )
        except (TypeError, KeyError) as err:
            raise RulesError(f"a hand of the simulation file is damaged: {err}") from None
