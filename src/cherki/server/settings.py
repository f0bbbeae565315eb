"""A table's limits and settings: what a creator or a host may ask for, each checked and
refused in words; and the names cherki gives seats until people give theirs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cherki.core.events import JSON
from cherki.core.options import plays_for_money as options_play_for_money
from cherki.server.words import Refused

if TYPE_CHECKING:
    from cherki.core.contract import Game
    from cherki.core.options import Rules

#: limits of a table a person may ask for
MAX_HANDS = 100
MIN_TIMER, MAX_TIMER = 5, 3600
#: the most lines of missed events sent to a client that comes back
MAX_MISSED = 300
#: seconds a table nobody is connected to stays in memory
IDLE_SECONDS = 600.0
#: seconds between bots' actions at a table with people (a table setting), and its range
DEFAULT_PACE, MAX_PACE = 0.8, 5.0
#: seconds a table with people waits, once none of them is at it, before it pauses (a table
#: setting, ``wait``: 0 pauses it as soon as the last person leaves), and its most
DEFAULT_WAIT, MAX_WAIT = 180, 86400
#: the table settings the host may change while the table plays, and what each may be
SETTINGS = ("hints", "bot_pace", "timer", "pause", "wait")


@dataclass(frozen=True)
class SeatPlan:
    """What the creator asks for one seat: a person, or a bot of ``level``."""

    kind: str
    level: str | None = None


def plays_for_money(game: Game, rules: Rules) -> bool:
    """Whether a table's rules put money on the game: any of the money options the game
    declares (``Option.money``: a point's worth, an ang pow...) above nothing."""
    return options_play_for_money(game.options, rules)


def check_setting(name: str, value: JSON) -> bool | float | int | None:
    """A table setting's value, checked (a refusal in words for a bad one)."""
    if name in ("hints", "pause"):
        if type(value) is not bool:
            raise Refused("error.setting.on_off", name=name, value=repr(value))
        return value
    if name == "bot_pace":
        pace = value if type(value) in (int, float) else None  # a bool is no pace
        if not isinstance(pace, int | float) or not 0 <= pace <= MAX_PACE:
            raise Refused("error.setting.pace", most=f"{MAX_PACE:g}", value=repr(value))
        return round(float(pace), 2)
    if name == "timer":
        if value is not None and (type(value) is not int or not MIN_TIMER <= value <= MAX_TIMER):
            raise Refused("error.setting.timer", least=MIN_TIMER, most=MAX_TIMER, value=repr(value))
        return value
    if name == "wait":
        if type(value) is not int or not 0 <= value <= MAX_WAIT:
            raise Refused("error.setting.wait", most=MAX_WAIT, value=repr(value))
        return value
    raise Refused("error.setting.unknown", name=repr(name), names=", ".join(SETTINGS))


def seat_name(seat: int, bot_level: str | None = None) -> str:
    """A seat's name until its person gives one, numbered from 1 as people count seats
    ("Seat 1", "Bot 2 (heuristic)"); the API's seat numbers start at 0."""
    return f"Bot {seat + 1} ({bot_level})" if bot_level else f"Seat {seat + 1}"
