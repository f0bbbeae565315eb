"""Helpers of the server's tests: which state messages leave a person to act, and when a
server started as a process is serving."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from typing import Any

import httpx


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


class Follow:
    """A connection's messages as its page reads them: each state message's ``events`` and
    ``ui.log`` hold the hand's log from entry ``log_from`` on, stitched here onto the
    entries the connection already holds."""

    def __init__(self, receive: Callable[[], dict[str, Any]]) -> None:
        self.receive = receive
        self.last: dict[str, Any] | None = None
        #: state messages that held only the end of the log
        self.partial = 0

    def __call__(self) -> dict[str, Any]:
        msg = self.receive()
        if msg.get("type") != "state":
            return msg
        start = msg.get("log_from", 0)
        if start:
            self.partial += 1
            last = self.last
            assert last is not None and last["hand_number"] == msg["hand_number"]
            assert len(last["events"]) >= start and len(last["ui"]["log"]) >= start
            msg["events"] = last["events"][:start] + msg["events"]
            msg["ui"]["log"] = last["ui"]["log"][:start] + msg["ui"]["log"]
        self.last = msg
        return msg


def wait_serving(
    base: str, proc: subprocess.Popen[bytes] | None = None, seconds: float = 60
) -> None:
    """Wait until the server at ``base`` answers its table list (an assertion past
    ``seconds``, or as soon as ``proc``, its process, has ended)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if httpx.get(f"{base}/api/tables", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "the server did not start"
        assert proc is None or proc.poll() is None, "the server stopped as it started"
        time.sleep(0.2)
