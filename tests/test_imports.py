"""The modules of cherki import one another without a loop: a module graph read from the
sources with ``ast`` (every import counts, at module level, in a function or for type
checking only, absolute or relative), checked acyclic for the whole package."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"


def module_graph(package: str, src: Path = SRC) -> dict[str, set[str]]:
    """Each module of ``package`` (dotted, under ``src``) and the modules of the same
    package it imports."""
    root = src / package.replace(".", "/")
    names = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(src).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        names[name] = path
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        out: set[str] = set()
        # the package a relative import starts from: the module's own, or itself for an
        # ``__init__``
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = here[: len(here) - node.level + 1] if node.level else []
                module = ".".join([*base, *([node.module] if node.module else [])])
                subs = [f"{module}.{a.name}" for a in node.names]
                # ``from pkg import module`` imports that module (a package's own
                # ``__init__`` runs first for any of its modules, so it is no edge)
                targets = [t for t in subs if t in names] or [module]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            out.update(t for t in targets if t in names and t != name)
        graph[name] = out
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A loop in ``graph`` (its modules in order, the first repeated at the end), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (loop := visit(nxt)):
                return loop
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (loop := visit(node)):
            return loop
    return None


def test_the_checker_finds_a_loop() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_the_graph_counts_every_kind_of_import(tmp_path: Path) -> None:
    """Imports at module level, in a function, for type checking only and relative ones
    (``from . import``, ``from ..pkg.mod import``) are all edges; a package's own
    ``__init__`` is none for its modules."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "from pkg import a\n",
        "a.py": "import pkg.b\n",
        "b.py": "def f():\n    from pkg.sub import c\n",
        "sub/__init__.py": "from . import c\n",
        "sub/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..a import x\n",
        "sub/d.py": "from .c import y\nfrom .. import b\nimport os\n",
    }
    for rel, text in files.items():
        (pkg / rel).write_text(text, encoding="utf-8")
    assert module_graph("pkg", tmp_path) == {
        "pkg": {"pkg.a"},
        "pkg.a": {"pkg.b"},
        "pkg.b": {"pkg.sub.c"},
        "pkg.sub": {"pkg.sub.c"},
        "pkg.sub.c": {"pkg.a"},
        "pkg.sub.d": {"pkg.sub.c", "pkg.b"},
    }
    assert find_cycle(module_graph("pkg", tmp_path)) == ["pkg.a", "pkg.b", "pkg.sub.c", "pkg.a"]


def test_no_import_loop() -> None:
    """No loop anywhere in cherki: between its packages (the core and the games' views,
    the registry and each game's observations, a game's state and its game class, the
    package's ``__init__`` and the records, the server's tables and chat...) nor inside one."""
    graph = module_graph("cherki")
    assert {"cherki.core.contract", "cherki.games.sets.state", "cherki.server.tables"} <= set(graph)
    assert find_cycle(graph) is None


def test_the_batched_simulator_never_imports_the_simulation() -> None:
    """``play`` (the simulation, a run's hands) reads the batched simulator's arrays
    (``play/batched.py``); ``vector`` never imports ``play``: no loop between them."""
    for path in sorted((SRC / "cherki" / "vector").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            assert not any(n.startswith("cherki.play") for n in names), path.name
