"""The runnable examples of docs/research.md run as written (all but the one that needs
sb3-contrib, which is an example rather than a dependency)."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "research.md"
BLOCKS = [b for b in re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S) if "sb3" not in b]


def test_the_document_has_its_seven_examples() -> None:
    assert len(BLOCKS) == 7


@pytest.mark.parametrize(
    "code",
    BLOCKS,
    ids=[
        "pettingzoo",
        "gymnasium",
        "make-vec",
        "openspiel",
        "vector-env",
        "learned-model",
        "policy-seat",
    ],
)
def test_a_documented_example_runs(code: str, tmp_path: Path) -> None:
    script = tmp_path / "example.py"
    script.write_text(code, encoding="utf-8")
    runpy.run_path(str(script), run_name="__main__")
