"""Every limit of the server, in one place: what a client may ask for and how much of the
server it may hold. Each is refused in words (an HTTP error's ``detail``, or an ``error`` /
``closing`` message on the socket), never by a stall.

``cherki serve --limit NAME=VALUE`` changes one (e.g. a benchmark that runs hundreds of
tables from one address raises ``connections_per_address``).
"""

from __future__ import annotations

import dataclasses
import time
from collections import deque
from dataclasses import dataclass

from cherki.core.errors import CherkiError


@dataclass(frozen=True)
class Limits:
    #: the largest message a client may send on a socket (bytes)
    message_bytes: int = 4096
    #: messages a second a connection may send (a burst of as many)
    messages_per_second: float = 10.0
    #: the largest request body (bytes), a record sent for replay apart
    body_bytes: int = 64 * 1024
    #: the largest record sent to ``POST /api/replay`` (bytes)
    replay_bytes: int = 1024 * 1024
    #: open connections of the people seated at one table (by their seat's link; spectators
    #: are counted apart and never keep a seated person out)
    connections_per_table: int = 64
    #: open spectators' connections on one table
    spectators_per_table: int = 48
    #: open spectators' connections from one address (all tables)
    spectators_per_address: int = 32
    #: seconds a spectator may stay silent (its page pings every few seconds) before it is
    #: let go
    spectator_silent_seconds: float = 60.0
    #: seconds without an answer after which a connection is taken for dead: the server
    #: pings every half of it and closes a socket whose answer does not come (the page
    #: reconnects after as long without a word from the server)
    liveness_seconds: float = 10.0
    #: open connections from one address (all tables)
    connections_per_address: int = 256
    #: open connections in all
    connections: int = 10_000
    #: tables one address may create in a minute
    tables_per_minute: int = 20
    #: tables in play (not finished) the server holds at once
    live_tables: int = 5_000
    #: messages waiting to be sent to one connection before it is dropped as too slow
    queue_messages: int = 200
    #: bytes waiting to be sent to one connection before it is dropped as too slow
    queue_bytes: int = 4 * 1024 * 1024
    #: seconds one message may take to be sent before its connection is dropped
    send_seconds: float = 10.0
    #: heavy requests (replays, records) worked on or waiting, in all
    heavy_jobs: int = 4
    #: heavy requests from one address worked on or waiting
    heavy_per_address: int = 2
    #: seconds a heavy request may take
    heavy_seconds: float = 20.0
    #: characters of one chat message (after trimming)
    chat_chars: int = 200
    #: chat messages and emotes one seat may send in ``chat_seconds`` (all its connections)
    chat_messages: int = 5
    #: the window of ``chat_messages`` (seconds)
    chat_seconds: float = 10.0
    #: chat lines a table keeps in all (then its chat is full)
    chat_lines: int = 2000
    #: the latest chat lines sent to a page that opens the table afresh
    chat_history: int = 100
    #: reviews of a hand (:mod:`cherki.server.review`) running at once, in all
    reviews: int = 2
    #: reviews running at once for one table
    reviews_per_table: int = 1
    #: reviews running at once for one address
    reviews_per_address: int = 1
    #: seconds a review may run before it is cut short (what it found is kept)
    review_seconds: float = 300.0
    #: sampled deals a decision in the server's reviews (the review's default budget,
    #: ``cherki.bots.review.DEFAULT_BUDGET``)
    review_budget: int = 24

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls)]

    def with_text(self, items: list[str]) -> Limits:
        """These limits with ``NAME=VALUE`` items applied (a CherkiError for a bad one)."""
        changes: dict[str, float | int] = {}
        kinds = {f.name: f.type for f in dataclasses.fields(self)}
        for item in items:
            name, eq, value = item.partition("=")
            name = name.strip()
            if not eq or name not in kinds:
                raise CherkiError(
                    f"a limit is NAME=VALUE with NAME one of {', '.join(self.names())}, "
                    f"not {item!r}"
                )
            try:
                number: float | int = (
                    float(value) if kinds[name] in (float, "float") else int(value)
                )
            except ValueError:
                raise CherkiError(f"limit {name} takes a number, not {value!r}") from None
            if number <= 0:
                raise CherkiError(f"limit {name} must be more than 0, not {value}")
            changes[name] = number
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


class Window:
    """How many things each key did in the last ``seconds`` (a sliding window)."""

    def __init__(self, most: int, seconds: float = 60.0) -> None:
        self.most = most
        self.seconds = seconds
        self._seen: dict[str, deque[float]] = {}

    def take(self, key: str, now: float | None = None) -> bool:
        """Count one for ``key`` if it has done fewer than ``most``; False if it has not."""
        now = time.monotonic() if now is None else now
        if len(self._seen) > 10_000:  # forget the keys whose window is empty
            for k in [k for k, q in self._seen.items() if not q or q[-1] < now - self.seconds]:
                del self._seen[k]
        q = self._seen.setdefault(key, deque())
        while q and q[0] <= now - self.seconds:
            q.popleft()
        if len(q) >= self.most:
            return False
        q.append(now)
        return True


class Bucket:
    """A token bucket: ``rate`` a second, bursts of ``rate``."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.level = rate
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.rate, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True
