"""The command lines the program prints (``continue it with …``, ``replay it with …``), written
so that they run as printed in the shell the person typed the first one in.

How ``cherki`` was started decides the words:

* through ``uv run`` in the project's environment (the README's setup, where ``cherki`` is
  not on the shell's ``PATH``): ``uv run cherki …``;
* as the ``cherki`` script of this environment, found on the ``PATH`` (an activated
  environment, ``pip install cherki``): ``cherki …``;
* otherwise (``python -m cherki`` with an interpreter not on the ``PATH`` as ``cherki``):
  that interpreter, ``/path/to/python -m cherki …``.

Every argument is quoted for a POSIX shell (:func:`shlex.join`), so a path with spaces or
quotes pastes back as one argument.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path

__all__ = ["cherki_command", "extra_hint", "launcher"]


def _same(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return False


def _uv_project_env() -> bool:
    """Whether this process is ``uv run``'s, in the environment that ``uv run`` from the
    current folder would use again (the project's ``.venv`` or ``UV_PROJECT_ENVIRONMENT``)."""
    if not os.environ.get("UV"):
        return False
    chosen = os.environ.get("UV_PROJECT_ENVIRONMENT")
    if chosen:
        return _same(chosen, sys.prefix)
    try:
        here = Path.cwd()
    except OSError:  # the folder it was started in is gone
        return False
    return any(
        (folder / "pyproject.toml").is_file() and _same(folder / ".venv", sys.prefix)
        for folder in (here, *here.parents)
    )


def launcher() -> list[str]:
    """The words that start ``cherki`` again from the person's shell, as this one was."""
    if _uv_project_env():
        return ["uv", "run", "cherki"]
    found = shutil.which("cherki")
    if found and _same(Path(found).parent, sysconfig.get_path("scripts")):
        return ["cherki"]
    return [sys.executable, "-m", "cherki"]


def cherki_command(*args: str) -> str:
    """``cherki ARGS`` as a command line that runs as printed (see the module's text)."""
    return shlex.join([*launcher(), *args])


def extra_hint(extra: str, args: list[str]) -> str:
    """How to run ``cherki ARGS`` again with the optional dependencies ``extra`` installed."""
    words = launcher()
    if words[:2] == ["uv", "run"]:
        return f"run it with {shlex.join(['uv', 'run', '--extra', extra, *words[2:], *args])}"
    return f"install them with: pip install {shlex.quote(f'cherki[{extra}]')}"
