"""Provenance (issue 40): ``cherki --version`` names the version, the commit and the rules
fingerprint; the version's recorded fingerprint is the rules' own, so a rule change without
a version bump fails here."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cherki.play.fingerprint as fp
from cherki import version
from cherki.ui.cli import app

ROOT = Path(__file__).resolve().parents[1]


def test_the_recorded_fingerprint_is_the_rules_own() -> None:
    # a rule changed (seeded play moved) and the version did not: raise __version__ (and
    # pyproject.toml) and add it to RULES_HISTORY with the new fingerprint
    assert fp.compute_fingerprint() == version.RULES_FINGERPRINT, (
        "the rules changed: raise cherki.version.__version__ and record the fingerprint"
    )


def test_each_version_its_own_rules_and_pyproject_agrees() -> None:
    history = version.RULES_HISTORY
    assert list(history)[-1] == version.__version__
    assert len(set(history.values())) == len(history)  # a new version for new rules only
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert meta["project"]["version"] == version.__version__


def test_version_names_version_commit_and_rules() -> None:
    out = CliRunner().invoke(app, ["--version"])
    assert out.exit_code == 0
    line = out.output.strip()
    assert "\n" not in line
    shape = r"cherki (\S+) \((commit [0-9a-f]{12}(-dirty)?|no git checkout), rules ([0-9a-f]{16})\)"
    m = re.fullmatch(shape, line)
    assert m is not None, line
    assert m.group(1) == version.__version__


def test_outside_a_checkout_the_fingerprint_is_computed_and_cached(tmp_path: Path) -> None:
    mp = pytest.MonkeyPatch()
    try:
        mp.setenv("XDG_CACHE_HOME", str(tmp_path))
        mp.setattr(fp, "commit", lambda: None)
        fp.rules_fingerprint.cache_clear()
        first = fp.provenance()
        assert first["commit"] == "none" and first["rules"] == version.RULES_FINGERPRINT
        cached = list((tmp_path / "cherki").glob("fingerprint-*"))
        assert [p.read_text().strip() for p in cached] == [version.RULES_FINGERPRINT]
        # the cache is read: a planted value comes back without playing
        cached[0].write_text("0123456789abcdef\n")
        fp.rules_fingerprint.cache_clear()
        mp.setattr(fp, "compute_fingerprint", lambda: "never")
        assert fp.rules_fingerprint() == "0123456789abcdef"
        assert fp.version_line().endswith("(no git checkout, rules 0123456789abcdef)")
    finally:
        fp.rules_fingerprint.cache_clear()
        mp.undo()
