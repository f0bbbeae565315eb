"""Compile cherki's rules engine with mypyc (opt-in; see ``cherki.compiled``).

Builds the modules of ``cherki.compiled.ENGINE`` into ``build/engine/`` (or ``--out``), never
beside the sources, with a manifest of the sources' SHA-256 hashes, so that
``CHERKI_COMPILED=1`` uses the build only while every source is the one it was built from.
Then it plays seeded hands of every game, every preset and every option flipped, at several
table sizes, once in pure Python and once compiled, in two fresh processes, hashing every
legal list, event, result and some encodings; the build is kept only when the hashes agree.

Needs the dev group (mypy, which ships mypyc, and setuptools, which mypyc builds with) and
a C compiler with Python's headers. Run from the repository root::

    uv run --group dev python scripts/compile_engine.py
    CHERKI_COMPILED=1 uv run --extra rl python benchmarks/bench_engine.py --modes plain
    uv run --group dev python scripts/compile_engine.py --clean

About 90 seconds on one core of a 2-core machine. ``--hands N`` sets the hands a variant
of the check (default 6); ``--out DIR`` the build directory (``CHERKI_COMPILED=DIR`` uses it).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"


def play_hash(hands: int) -> str:
    """One hash of seeded random play over every game, preset, option flipped (a third as
    many hands, at least 2) and a few table sizes: legal lists, events, results and some
    encodings (``scripts/play_hash.py``'s, which this script's directory provides)."""
    from play_hash import game_hash

    from cherki.games import GAMES

    total = hashlib.sha256()
    for name in sorted(GAMES):
        total.update(game_hash(name, hands, option_hands=max(2, hands // 3))[0].encode())
    return total.hexdigest()


def hash_in(env_value: str, hands: int) -> tuple[str, str]:
    """(build, hash) from a fresh process with ``CHERKI_COMPILED=env_value``."""
    env = dict(os.environ, CHERKI_COMPILED=env_value)
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import compile_engine as c; "
        "import cherki.compiled as k; print(k.BUILD); print(c.play_hash(int(sys.argv[2])))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(ROOT / "scripts"), str(hands)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split("\n")
    return out[0], out[1]


def build(out: Path) -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    from cherki.compiled import ENGINE, MANIFEST, PACKAGE, source_hash

    before = {rel: source_hash(PACKAGE / rel) for rel in ENGINE}
    with tempfile.TemporaryDirectory(prefix="cherki-mypyc-") as tmp:
        cwd = os.getcwd()
        os.chdir(tmp)  # away from pyproject.toml: setuptools builds only the extensions
        try:
            extensions = mypycify(
                [str(PACKAGE / rel) for rel in ENGINE], opt_level="3", target_dir="c"
            )
            setup(
                name="cherki-engine",
                ext_modules=extensions,
                script_args=["-q", "build_ext", "--build-lib", "lib", "--build-temp", "temp"],
            )
        finally:
            os.chdir(cwd)
        if {rel: source_hash(PACKAGE / rel) for rel in ENGINE} != before:
            raise SystemExit("a source changed during the build: run it again")
        import importlib.machinery

        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        lib = Path(tmp) / "lib"
        modules = {}
        for rel in ENGINE:
            binary = "cherki/" + rel.removesuffix(".py") + suffix
            if not (lib / binary).is_file():
                raise SystemExit(f"mypyc built no {binary}")
            modules[rel] = {"sha256": before[rel], "binary": binary}
        shared = {p.name.split(".")[0]: p.name for p in lib.glob(f"*__mypyc{suffix}")}
        manifest = {
            "suffix": suffix,
            "python": sys.version.split()[0],
            "built": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
            "modules": modules,
            "shared": shared,
        }
        (lib / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
        if out.exists():
            shutil.rmtree(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(lib, out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "engine")
    parser.add_argument("--hands", type=int, default=6, help="hands a variant of the check")
    parser.add_argument("--clean", action="store_true", help="remove the build and stop")
    args = parser.parse_args()
    out = args.out.resolve()
    if args.clean:
        shutil.rmtree(out, ignore_errors=True)
        print(f"removed {out}")
        return
    t0 = time.perf_counter()
    build(out)
    print(f"built {out} in {time.perf_counter() - t0:.0f}s; checking the rules both ways")
    pure_build, pure = hash_in("0", args.hands)
    compiled_build, compiled = hash_in(str(out), args.hands)
    assert pure_build == "python" and compiled_build.startswith("mypyc"), (
        pure_build,
        compiled_build,
    )
    if pure != compiled:
        shutil.rmtree(out)
        raise SystemExit(
            f"the compiled engine plays differently from the sources ({compiled[:16]} against "
            f"{pure[:16]}): build removed"
        )
    print(f"same play compiled and pure ({pure[:16]}); use it with CHERKI_COMPILED=1")


if __name__ == "__main__":
    main()
