"""What the ``cherki`` commands share: where the docs are, finding a game, reading
``NAME=VALUE`` options, refusing an output file that could not be written, writing it
atomically, the bounds of a run (``--hands``, ``--jobs``), and a progress bar.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TimeRemainingColumn

from cherki.core.contract import Game
from cherki.core.errors import RulesError
from cherki.games import find_game

#: The most hands one run of ``simulate``, ``compare`` or ``arena`` plays (each variant): a
#: hundred million is days of the reference engine and minutes of the batched one; a longer
#: study is several runs (``simulate --json`` goes on from a file, with other seeds).
MAX_RUN_HANDS = 100_000_000
#: The most hands ``cherki play --hands`` plays as one match.
MAX_MATCH_HANDS = 10_000


def docs_dir() -> Path:
    """Where the Markdown docs are: inside the installed package, or the source checkout."""
    packaged = resources.files("cherki") / "docs"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[3] / "docs"


def max_jobs() -> int:
    """The most processes ``--jobs`` may ask for: four for each CPU of this machine (more
    only wait for a CPU and hold memory), at least 8."""
    return max(8, 4 * (os.cpu_count() or 1))


def check_run(hands: int, jobs: int = 1) -> None:
    """Refuse, in words, a run of more hands or processes than :data:`MAX_RUN_HANDS` and
    :func:`max_jobs` allow."""
    if not 1 <= hands <= MAX_RUN_HANDS:
        raise RulesError(
            f"--hands must be from 1 to {MAX_RUN_HANDS:,}, not {hands:,}: run a longer study "
            "in several runs"
        )
    top = max_jobs()
    if not 1 <= jobs <= top:
        raise RulesError(
            f"--jobs must be from 1 to {top} on this machine ({os.cpu_count() or 1} CPUs), "
            f"not {jobs:,}"
        )


def game_named(name: str) -> Game:
    return find_game(name)


def writable(path: Path | None, what: str) -> None:
    """Refuse, before anything is played, a file that could not be written: the file is
    written as a record is (a temporary file beside it, renamed over it), so a temporary
    file is tried in its folder."""
    if path is None:
        return
    if "\x00" in str(path) or not path.name:
        raise RulesError(f"{what} {str(path)!r} is no file name")
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise RulesError(f"{what} {path} is a directory, not a file")
    if path.exists() and not path.is_file():
        raise RulesError(f"{what} {path} is not a regular file")
    if not parent.is_dir():
        raise RulesError(f"{what} {path}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise RulesError(f"{what} {path} cannot be written here")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=parent)
        os.close(fd)
        os.unlink(tmp)
    except OSError as err:
        raise RulesError(f"{what} {path} cannot be written here ({err.strerror})") from None


def plot_format(path: Path | None) -> None:
    """Refuse a plot file whose name asks for a format matplotlib cannot write."""
    if path is None or not path.suffix:
        return
    from matplotlib.backend_bases import FigureCanvasBase

    kinds = FigureCanvasBase.get_supported_filetypes()
    if path.suffix[1:].lower() not in kinds:
        raise RulesError(
            f"--plot {path}: cannot draw a {path.suffix} file; name it .png, .svg or .pdf "
            f"(or any of {', '.join(sorted(kinds))})"
        )


def write_file(path: Path, what: str, write: Callable[[Path], object]) -> None:
    """``write`` the output to a temporary file beside ``path``, then rename it over
    ``path``: a failure leaves the old file whole and is a one-line error."""
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=path.suffix, dir=path.parent)
        os.close(fd)
    except OSError as err:
        raise RulesError(f"{what} {path} cannot be written ({err.strerror})") from None
    tmp = Path(name)
    try:
        write(tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as err:
        raise RulesError(f"{what} {path} cannot be written ({err.strerror})") from None
    finally:
        tmp.unlink(missing_ok=True)


def parse_options(options: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for opt in options or []:
        if "=" not in opt:
            raise RulesError(
                f"--option takes NAME=VALUE (for example yeo_redeal=false), not {opt!r}"
            )
        key, _, value = opt.partition("=")
        out[key.strip()] = value.strip()
    return out


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


class ProgressLines:
    """Progress as a line now and then (every ``every`` seconds at most), for a standard error
    that is no terminal (a log, CI, a pipe): hands done, time taken, and an estimate of the
    time left from the pace so far."""

    def __init__(
        self,
        description: str,
        total: int,
        done: int = 0,
        *,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        every: float = 30.0,
    ) -> None:
        self.description, self.total, self.start_done = description, total, done
        self.stream = stream if stream is not None else sys.stderr
        self.clock, self.every = clock, every
        self.started = self.last = clock()

    def __call__(self, done: int) -> None:
        now = self.clock()
        if now - self.last < self.every and done < self.total:
            return
        if done >= self.total and self.last == self.started:
            return  # a run that took under one interval needs no line
        self.last = now
        took = now - self.started
        line = f"{self.description}: {done}/{self.total} hands, {_duration(took)}"
        played = done - self.start_done
        if played > 0 and done < self.total:
            line += f", about {_duration(took / played * (self.total - done))} left"
        print(line, file=self.stream, flush=True)


@contextmanager
def progress(description: str, total: int, done: int = 0) -> Iterator[Callable[[int], None]]:
    """A progress bar on standard error (gone when finished) in a terminal, with the time
    left; elsewhere a line now and then (``ProgressLines``). Yields ``update(done)``."""
    if not sys.stderr.isatty():
        yield ProgressLines(description, total, done)
        return
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task: TaskID = bar.add_task(description, total=total, completed=done)
        yield lambda n: bar.update(task, completed=n)
