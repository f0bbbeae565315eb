"""What the browser shows beside a seat's observation: the log in plain words and each
legal action's text (the English of :mod:`cherki.ui.text`, so the terminal and the browser
agree).

Everything here is built from what the seat may know: its own observation and the events
as it saw them (a spectator: seat ``None``, every hand hidden). Nothing reads the state's
hidden parts.
"""

from __future__ import annotations

from typing import Any

from cherki.play.session import Session
from cherki.ui.text import Voice, event_line


def seat_view(session: Session, seat: int | None) -> dict[str, Any]:
    """The presentation part of a ``state`` message for ``seat`` (None: a spectator)."""
    state = session.state
    voice = Voice.of(session.names, len(session.seats), seat)
    out: dict[str, Any] = {"log": [], "actions": []}
    if state is None:
        return out
    viewer = seat if seat is not None else -1
    out["log"] = [event_line(e, session.game, voice) for e in state.events_for(viewer)]
    if seat is not None:
        obs = state.observation(seat)
        out["actions"] = [{"id": a, "text": session.game.action_text(a)} for a in obs.legal]
    return out


def hint(session: Session, seat: int) -> list[str]:
    """The terminal's hint for ``seat`` as plain lines (waits, live outs, the heuristic
    bot's suggestion)."""
    from cherki.ui.table import hint_lines

    state = session.state
    if state is None:
        return []
    return [line.plain for line in hint_lines(session.game, state.observation(seat))]
