"""An arena run kept as it goes, so that a stopped run can be resumed (issue 39).

``cherki arena … --json FILE`` appends each finished hand's outcome to ``FILE.hands.jsonl``
(one JSON line a hand, after a first line naming the run's settings); run the same command
again and the hands already there are not played again. The file is removed once the
figures are written. A file left by a run with other settings is refused in words."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import IO

from cherki.core.errors import RulesError
from cherki.core.events import JSON
from cherki.play.arena import HandOutcome


def log_path(json_file: Path) -> Path:
    return json_file.with_name(json_file.name + ".hands.jsonl")


class ArenaLog:
    """The hands of one arena run, read back and appended to."""

    def __init__(self, path: Path, settings: dict[str, JSON]) -> None:
        self.path = path
        self.settings = settings
        self.done: dict[int, HandOutcome] = {}
        self._out: IO[str] | None = None
        if path.exists() and path.stat().st_size:
            lines = path.read_text(encoding="utf-8").splitlines()
            try:
                head = json.loads(lines[0])
            except ValueError:
                head = None
            if head != {"arena": settings}:
                raise RulesError(
                    f"{path} holds hands of an arena run with other settings: "
                    "run it with those, or remove the file to start again"
                )
            for line in lines[1:]:
                try:
                    row = json.loads(line)
                    self.done[int(row["hand"])] = HandOutcome(
                        row["points"], row["seats"], row["wins"], row["decision_ms"]
                    )
                except (ValueError, KeyError, TypeError):
                    break  # a line cut short when the run was stopped: played again

    def open(self) -> None:
        if not self.done:
            self.path.write_text(json.dumps({"arena": self.settings}) + "\n", encoding="utf-8")
        else:  # rewrite what was read, dropping a cut line
            rows = [json.dumps({"arena": self.settings})]
            rows += [json.dumps({"hand": h, **asdict(o)}) for h, o in sorted(self.done.items())]
            self.path.write_text("\n".join(rows) + "\n", encoding="utf-8")
        self._out = self.path.open("a", encoding="utf-8")

    def save(self, hand: int, outcome: HandOutcome) -> None:
        assert self._out is not None
        self._out.write(json.dumps({"hand": hand, **asdict(outcome)}) + "\n")
        self._out.flush()

    def close(self, *, finished: bool) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None
        if finished:
            self.path.unlink(missing_ok=True)
