"""The opt-in compiled engine (cherki.compiled, scripts/compile_engine.py): pure Python by
default, a build used only when asked for and only while every source is the one it was
built from, and the same play compiled as pure."""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import cherki.compiled as compiled
import cherki.core.contract

ROOT = Path(__file__).resolve().parent.parent
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def run_python(code: str, env_value: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, CHERKI_COMPILED=env_value)
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )


def fake_build(directory: Path, *, change: str | None = None) -> None:
    """A manifest of the engine's sources as they are (``change``: that one's hash off),
    with empty files for the binaries."""
    modules = {}
    for rel in compiled.ENGINE:
        digest = compiled.source_hash(compiled.PACKAGE / rel)
        if rel == change:
            digest = "0" * 64
        binary = "cherki/" + rel.removesuffix(".py") + SUFFIX
        (directory / binary).parent.mkdir(parents=True, exist_ok=True)
        (directory / binary).write_bytes(b"")
        modules[rel] = {"sha256": digest, "binary": binary}
    manifest = {"suffix": SUFFIX, "modules": modules, "shared": {}}
    (directory / compiled.MANIFEST).write_text(json.dumps(manifest))


def test_pure_python_unless_asked_for() -> None:
    if compiled.build_dir() is None:
        assert compiled.BUILD == "python"
        assert cherki.core.contract.__file__.endswith(".py")
    else:  # the suite run with CHERKI_COMPILED set: every engine module compiled
        assert compiled.BUILD.startswith("mypyc")
        assert cherki.core.contract.__file__.endswith(SUFFIX)
    assert compiled.build_dir("") is None and compiled.build_dir("0") is None
    assert compiled.build_dir("1") == compiled.DEFAULT_DIR
    out = run_python("import cherki.compiled as c, cherki.games.sets.state as s; "
                     "print(c.BUILD, s.__file__)", "0")  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[0] == "python" and out.stdout.strip().endswith("state.py")


def test_a_missing_build_is_refused_in_words(tmp_path: Path) -> None:
    assert compiled.stale(tmp_path) == [f"no build in {tmp_path} (no manifest.json)"]
    out = run_python("import cherki", str(tmp_path))
    assert out.returncode != 0
    assert "ImportError: CHERKI_COMPILED=" in out.stderr
    assert "the compiled engine cannot be used: no build in" in out.stderr
    assert "scripts/compile_engine.py" in out.stderr


def test_a_build_of_other_sources_is_refused(tmp_path: Path) -> None:
    fake_build(tmp_path)
    assert compiled.stale(tmp_path) == []
    fake_build(tmp_path, change="games/sets/state.py")
    assert compiled.stale(tmp_path) == ["games/sets/state.py changed since the build"]
    out = run_python("import cherki", str(tmp_path))
    assert out.returncode != 0
    assert "games/sets/state.py changed since the build" in out.stderr
    # a binary gone, or a build for another Python
    fake_build(tmp_path)
    (tmp_path / ("cherki/core/events" + SUFFIX)).unlink()
    assert compiled.stale(tmp_path) == [f"cherki/core/events{SUFFIX} is missing"]
    data = json.loads((tmp_path / compiled.MANIFEST).read_text())
    data["suffix"] = ".cpython-39-x86_64-linux-gnu.so"
    (tmp_path / compiled.MANIFEST).write_text(json.dumps(data))
    assert compiled.stale(tmp_path)[0].startswith("built for .cpython-39")


def test_the_cherki_command_refuses_a_stale_build_in_one_line(tmp_path: Path) -> None:
    """The ``cherki`` command (and ``python -m cherki``) says what is wrong on one line and
    exits with status 2, no traceback; a program that imports cherki gets the ImportError."""
    fake_build(tmp_path, change="core/cards.py")
    env = dict(os.environ, CHERKI_COMPILED=str(tmp_path))
    cherki_command = Path(sys.executable).with_name("cherki")
    for argv in ([str(cherki_command), "rules"], [sys.executable, "-m", "cherki", "rules"]):
        out = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
        assert out.returncode == 2, (argv, out.stderr)
        assert out.stdout == ""
        assert out.stderr.splitlines() == [
            f"cherki: CHERKI_COMPILED={tmp_path}: the compiled engine cannot be used: "
            "core/cards.py changed since the build. Rebuild it (uv run --group dev python "
            "scripts/compile_engine.py) or unset CHERKI_COMPILED for pure Python."
        ], argv
    assert "Traceback" in run_python("import cherki", str(tmp_path)).stderr


def test_compiled_modules_beside_the_sources_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for rel in compiled.ENGINE:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    monkeypatch.setattr(compiled, "PACKAGE", tmp_path)
    assert compiled.strays() == []
    stray = tmp_path / ("core/contract" + SUFFIX)
    stray.write_bytes(b"")
    (tmp_path / ("core/view" + SUFFIX)).write_bytes(b"")  # not an engine module
    assert compiled.strays() == [str(stray)]
    with pytest.raises(ImportError, match="would be imported instead of them"):
        compiled.install()


@pytest.mark.slow
def test_the_compiled_engine_plays_as_the_sources(tmp_path: Path) -> None:
    """Builds the engine with mypyc (a C compiler needed: a missing one is a failure) and
    plays seeded hands of every game, preset and option both ways: the script keeps the
    build only when every legal list, event, result and encoding hashes the same."""
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "compile_engine.py"),
            "--out",
            str(tmp_path / "engine"),
            "--hands",
            "3",
        ],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert "same play compiled and pure" in out.stdout
    assert compiled.stale(tmp_path / "engine") == []
    probe = run_python(
        "import cherki.compiled as c, cherki.core.contract as k; print(c.BUILD, k.__file__)",
        str(tmp_path / "engine"),
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.startswith("mypyc") and probe.stdout.strip().endswith(SUFFIX)
