"""The compiled engine: the rules core built with mypyc, opt-in, never stale.

cherki is pure Python and runs as such by default (``uv run cherki ...`` needs no compiler).
For long simulations the engine's modules (:data:`ENGINE`: the contract, the cards, the
deal, the events, the sets and the three families' rules, states and games) can be compiled
with mypyc, which ships inside mypy (the dev group), and a C compiler::

    uv run --group dev python scripts/compile_engine.py
    CHERKI_COMPILED=1 uv run cherki simulate balik-satu --hands 10000

The build goes to ``build/engine/`` (git-ignored), never beside the sources, so nothing
compiled is imported unless asked for. ``CHERKI_COMPILED`` unset, empty or ``0``: pure
Python; ``1``: the build in ``build/engine/`` of the checkout; any other value: the build in
that directory. With it set, :func:`install` (run by ``import cherki`` before any engine
module) checks the build's manifest: every module's source must hash (SHA-256) to what it
was built from, for this Python; otherwise ``import cherki`` fails with an
:class:`ImportError` that says which sources changed and how to rebuild. A mypyc build left
beside the sources (``mypyc src/...`` run by hand, which Python would import in preference
to the ``.py``) is refused the same way.

The rules are the same compiled or not: the build script plays seeded hands of every game,
preset and option both ways and keeps the build only when every legal list, event, result
and encoding hashes the same (``tests/test_compiled.py`` holds it).

Our specifications
------------------
* All or nothing: one module changed since the build refuses the whole build (compiled
  modules call each other natively, so a mix of versions is never run).
* Pickle and ``copy`` cannot make a compiled object empty and fill it in, so the engine's
  frozen dataclasses reduce to their fields (:func:`reduce_fields`) and the games' states to
  their constructor's arguments (``__reduce__``, :func:`cherki.core.contract.rebuild`); the
  base ``State`` names its own attributes for a game kept outside cherki (``__getstate__``).
* Ray's workers run on a copy of the package without ``build/``: name the build by its
  absolute path there, or leave it unset.
* The observation, presentation and encoding modules stay Python (mypyc mishandles a frozen
  dataclass's class variables, https://github.com/mypyc/mypyc/issues/1207, and they are
  not on plain play's path); so do the packages' ``__init__`` modules.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.abc
import importlib.machinery
import itertools
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import NoReturn, TypeVar

_T = TypeVar("_T")

try:  # mypyc's class markers, read when the engine is compiled (the dev group has them)
    from mypy_extensions import mypyc_attr as mypyc_attr
except ImportError:  # a default install: a marker that does nothing

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_T], _T]:
        return lambda cls: cls


def reduce_fields(obj: object) -> tuple[object, ...]:
    """``__reduce__`` for a frozen dataclass of the engine: its class and its fields in order
    (pickle and ``copy`` set a compiled frozen dataclass's fields by assignment otherwise,
    which it refuses). The same copy, compiled or not."""
    values = tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))  # type: ignore[arg-type]
    return (type(obj), values)


#: the variable that asks for the compiled engine
ENV = "CHERKI_COMPILED"
#: the package's directory and the checkout's default build directory
PACKAGE = Path(__file__).resolve().parent
DEFAULT_DIR = PACKAGE.parent.parent / "build" / "engine"
MANIFEST = "manifest.json"
#: the engine's modules that are compiled, relative to the package
ENGINE: tuple[str, ...] = (
    "core/cards.py",
    "core/contract.py",
    "core/deal.py",
    "core/events.py",
    "core/options.py",
    "core/sets.py",
    "games/sets/actions.py",
    "games/sets/balik.py",
    "games/sets/calls.py",
    "games/sets/chaqui.py",
    "games/sets/chot.py",
    "games/sets/game.py",
    "games/sets/gonggong.py",
    "games/sets/hand.py",
    "games/sets/options.py",
    "games/sets/rules.py",
    "games/sets/scoring.py",
    "games/sets/state.py",
    "games/sets/tantanan.py",
    "games/ceki/actions.py",
    "games/ceki/game.py",
    "games/ceki/rules.py",
    "games/ceki/state.py",
    "games/cholek/actions.py",
    "games/cholek/game.py",
    "games/cholek/rules.py",
    "games/cholek/state.py",
)

#: which engine this process runs: "python" or "mypyc (DIRECTORY)"
BUILD = "python"


def module_name(rel: str) -> str:
    """``core/contract.py`` -> ``cherki.core.contract``."""
    return "cherki." + rel.removesuffix(".py").replace("/", ".")


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def build_dir(value: str | None = None) -> Path | None:
    """The build directory ``CHERKI_COMPILED`` names, or None for pure Python."""
    value = os.environ.get(ENV, "") if value is None else value
    if value in ("", "0"):
        return None
    return DEFAULT_DIR if value == "1" else Path(value).resolve()


def stale(directory: Path) -> list[str]:
    """Why the build in ``directory`` cannot run here (empty: it can)."""
    manifest = directory / MANIFEST
    if not manifest.is_file():
        return [f"no build in {directory} (no {MANIFEST})"]
    data = json.loads(manifest.read_text())
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    if data.get("suffix") != suffix:
        return [f"built for {data.get('suffix')}, this Python loads {suffix}"]
    built = data.get("modules", {})
    why = [f"{rel} changed since the build" for rel in ENGINE if rel not in built]
    for rel, entry in built.items():
        source = PACKAGE / rel
        if not source.is_file() or source_hash(source) != entry["sha256"]:
            why.append(f"{rel} changed since the build")
        elif not (directory / entry["binary"]).is_file():
            why.append(f"{entry['binary']} is missing")
    return why


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the compiled engine's modules (and mypyc's shared library) in the build."""

    def __init__(self, binaries: dict[str, Path]) -> None:
        self.binaries = binaries

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        binary = self.binaries.get(fullname)
        if binary is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(binary))
        return importlib.machinery.ModuleSpec(fullname, loader, origin=str(binary))


def strays() -> list[str]:
    """Compiled engine modules lying beside their sources (``mypyc src/...`` run by hand):
    Python would import them instead of the sources, however old."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    stems: dict[Path, set[str]] = {}
    for rel in ENGINE:
        stems.setdefault((PACKAGE / rel).parent, set()).add(Path(rel).stem)
    return sorted(
        entry.path
        for directory, names in stems.items()
        for entry in os.scandir(directory)
        if entry.name.endswith(suffixes) and entry.name.split(".")[0] in names
    )


def _refuse(message: str) -> NoReturn:
    """Refuse the build: an ``ImportError`` for a program importing cherki; for the ``cherki``
    command (or ``python -m cherki``) one line on stderr and exit status 2, no traceback."""
    command = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    as_module = ("-m", "cherki") in itertools.pairwise(sys.orig_argv)
    if command == "cherki" or as_module:
        print(f"cherki: {message}", file=sys.stderr)
        raise SystemExit(2)
    raise ImportError(message)


def install() -> str:
    """Use the compiled engine when ``CHERKI_COMPILED`` asks for it (see the module
    docstring); return which engine runs. Called by ``import cherki`` first."""
    global BUILD
    found = strays()
    if found:
        _refuse(
            "compiled modules lie beside cherki's sources and would be imported instead of "
            f"them: {', '.join(found)}; delete them (the compiled engine is built into "
            f"build/engine by scripts/compile_engine.py and asked for with {ENV}=1)"
        )
    directory = build_dir()
    if directory is None:
        return BUILD
    if any(isinstance(f, _Finder) for f in sys.meta_path):
        return BUILD
    why = stale(directory)
    if why:
        _refuse(
            f"{ENV}={os.environ.get(ENV)}: the compiled engine cannot be used: "
            + "; ".join(why[:5])
            + (f" (and {len(why) - 5} more)" if len(why) > 5 else "")
            + ". Rebuild it (uv run --group dev python "
            f"scripts/compile_engine.py) or unset {ENV} for pure Python."
        )
    data = json.loads((directory / MANIFEST).read_text())
    binaries = {module_name(rel): directory / e["binary"] for rel, e in data["modules"].items()}
    for name, binary in data.get("shared", {}).items():
        binaries[name] = directory / binary
    sys.meta_path.insert(0, _Finder(binaries))
    BUILD = f"mypyc ({directory})"
    return BUILD


install()
