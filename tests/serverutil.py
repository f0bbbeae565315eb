"""Helpers of the server's tests: which state messages leave a person to act."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def settled(msg: dict[str, Any]) -> bool:
    """Whether a message leaves the table waiting for a person (or the match over): the
    messages of the bots' moves before it are passed over by the tests."""
    if msg["type"] != "state":
        return True
    obs = msg["observation"]
    if msg["over"] or obs is None:
        return True
    now = obs["current"]
    return bool(now >= 0 and msg["people"][now] and now not in msg["away"])


def next_settled(receive: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The next message that :func:`settled` accepts."""
    while True:
        msg = receive()
        if settled(msg):
            return msg
