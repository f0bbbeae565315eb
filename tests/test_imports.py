"""The modules of a package import one another without a loop: a module graph read from the
sources with ``ast`` (every import counts, at module level, in a function or for type
checking only), checked acyclic for each package."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"


def module_graph(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` (dotted) and the modules of the same package it imports."""
    root = SRC / package.replace(".", "/")
    names = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        names[name] = path
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        out: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                subs = [f"{node.module}.{a.name}" for a in node.names]
                # ``from pkg import module`` imports that module (a package's own
                # ``__init__`` runs first for any of its modules, so it is no edge)
                targets = [t for t in subs if t in names] or [node.module]
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


@pytest.mark.parametrize("package", ["cherki.games.sets", "cherki.play", "cherki.vector"])
def test_no_import_loop(package: str) -> None:
    graph = module_graph(package)
    assert len(graph) > 3
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
