"""``Any`` only at library seams (issue 25), and mypy kept strict.

Every module under ``src/cherki`` is parsed with :mod:`ast`; a use of the name ``Any`` (or
``typing.Any``) is allowed only in the seam modules below, each with the reason the library
gives us untyped values there. JSON we produce or parse is typed with
:data:`cherki.core.events.JSON`, TypedDicts or dataclasses; ASGI values with
``starlette.types``; psycopg connections with their row type.

``PENDING`` is the debt still to pay: modules not yet typed, each with the most uses it may
keep. The test fails when one grows, and when one shrinks (lower its number, or drop it
once it is clean), so the list only goes down.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "cherki"

#: modules where a library hands us untyped values: ``Any`` stays, at that seam
SEAMS: dict[str, str] = {
    "cherki.adapters.openspiel": "pyspiel ships no types: its games, states and parameters",
    "cherki.adapters.gymnasium": "Gymnasium's Env.reset/step/metadata signatures use Any",
    "cherki.adapters.pettingzoo": "PettingZoo's AECEnv signatures, spaces and wrappers use Any",
    "cherki.adapters.common": "the keyword options a Gymnasium/PettingZoo make(...) passes on",
    "cherki.vector.env": "Gymnasium's VectorEnv reset/step signatures use Any",
    "cherki.vector.tables": "numpy's generic integer dtype, np.integer[Any]",
    "cherki.vector.kernels": "numba's njit decorator: compiled functions typed at their call",
    "cherki.bots.policy": "a policy found by import path (importlib) and what it returns",
    "cherki.games.sets.observation": "the slots' constructor generated with exec (mixed values)",
    "cherki.train": "JAX and optax ship arrays, pytrees and optimiser states typed as Any",
    "cherki.trainconfig": "a training run's progress keeps the tuner's state and the commands "
    "as the checkpoint's JSON-like dicts, unpacked back into cherki.train's JAX seam",
    "cherki.traincard": "the training run's card: the Trainer (cherki.train's JAX seam, which "
    "imports this module) and the card's free-form JSON",
    "cherki.tune": "numpy's bit generator state, kept in a checkpoint, is a dict typed as Any",
    "cherki.bots.learned": "a model card is json.loads' value, read by its documented keys",
    "cherki.server.migrations.versions.0002_action_log_and_host_links": (
        "a frozen migration: SQLAlchemy's raw rows and records of the old stored format"
    ),
}

#: not yet typed (issue 25): module → the most uses of ``Any`` it may keep
PENDING: dict[str, int] = {}


def _module(path: Path) -> str:
    return ".".join(path.relative_to(SRC.parent).with_suffix("").parts)


def _uses_of_any(tree: ast.AST) -> list[int]:
    """The lines where ``Any`` is used: the bare name, an attribute ``….Any``, or a
    quoted annotation that names it."""
    lines: list[int] = []
    for node in ast.walk(tree):
        named = isinstance(node, ast.Name) and node.id == "Any"
        if named or (isinstance(node, ast.Attribute) and node.attr == "Any"):
            lines.append(node.lineno)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                inner = ast.parse(node.value, mode="eval")
            except SyntaxError:
                continue
            if any(isinstance(n, ast.Name) and n.id == "Any" for n in ast.walk(inner)):
                lines.append(node.lineno)
    return sorted(lines)


def _all_uses() -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for path in sorted(SRC.rglob("*.py")):
        lines = _uses_of_any(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        if lines:
            found[_module(path)] = lines
    return found


def test_the_finder_sees_every_spelling() -> None:
    text = (
        "import typing\nfrom typing import Any\nx: Any = 1\ny: typing.Any = 2\n"
        "def f(z: 'dict[str, Any]') -> None: ...\n"
    )
    assert _uses_of_any(ast.parse(text)) == [3, 4, 5]
    assert _uses_of_any(ast.parse("'''Any process serves any table.'''\nx: object = 1\n")) == []


def test_any_only_at_library_seams() -> None:
    wrong = [
        f"{module}:{line}"
        for module, lines in _all_uses().items()
        if module not in SEAMS and module not in PENDING
        for line in lines
    ]
    assert not wrong, (
        "Any outside the library seams (type the value: cherki.core.events.JSON, a "
        "TypedDict, a dataclass, a Protocol; or add a seam with its reason): " + ", ".join(wrong)
    )


def test_pending_modules_only_shrink() -> None:
    uses = _all_uses()
    changed = {
        module: (most, len(uses.get(module, [])))
        for module, most in PENDING.items()
        if len(uses.get(module, [])) != most
    }
    assert not changed, f"PENDING is out of date (module: (allowed, found)): {changed}"


def test_seams_are_real_modules_that_still_need_it() -> None:
    uses = _all_uses()
    for module, reason in SEAMS.items():
        assert reason.strip(), module
        assert module in uses, f"{module} no longer uses Any: drop it from SEAMS"
    assert not set(SEAMS) & set(PENDING)


def test_mypy_stays_strict() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True
    assert "src/cherki" in config["files"]
    loosening = {
        "ignore_errors",
        "disallow_untyped_defs",
        "disallow_any_generics",
        "check_untyped_defs",
        "warn_return_any",
        "disallow_untyped_calls",
        "disallow_incomplete_defs",
        "follow_imports",
    }
    assert not loosening & set(config), "mypy's strict options are not to be turned off"
    for override in config.get("overrides", []):
        # only the research libraries without type information, and only their imports
        assert set(override) == {"module", "ignore_missing_imports"}, override
        assert all(m.split(".")[0] in {"pettingzoo", "pyspiel", "open_spiel"} for m in
                   override["module"]), override  # fmt: skip
