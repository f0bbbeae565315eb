"""The cards drawn as SVG (cherki.ui.cards_svg, ``cherki cards --svg``)."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cherki.core.cards import CODES, IS_RED, N_KINDS, OT, RANK
from cherki.ui.cards_svg import RED, card_svg, write_svgs

NS = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


@pytest.mark.parametrize("kind", range(N_KINDS))
def test_every_card_is_an_svg_with_its_frame_its_stamp_and_its_index(kind: int) -> None:
    root = parse(card_svg(kind))
    assert root.tag == f"{NS}svg" and root.get("viewBox") == "0 0 60 168"
    title = root.find(f"{NS}title")
    assert title is not None and title.text
    marks = [e for e in root.iter() if e.get("class") == "rank-mark"]
    # the frame's pattern: rank bars on each long side; Old Thousand has no frame [003]
    assert len(marks) == (0 if kind == OT else 2 * RANK[kind])
    stamps = [e for e in root.iter() if e.get("class") == "red-stamp"]
    assert len(stamps) == (1 if IS_RED[kind] else 0)
    assert all(s.get("fill") == RED for s in stamps)
    index = [e for e in root.iter() if e.get("class") == "index"]
    assert [e.text for e in index] == [CODES[kind]]
    assert not [e for e in parse(card_svg(kind, index=False)).iter() if e.get("class") == "index"]
    # drawn, not set in a font: no text but the index
    assert [e for e in root.iter(f"{NS}text")] == index


def test_the_thirty_drawings_differ_and_the_back_is_plain() -> None:
    drawings = {card_svg(k, index=False) for k in range(N_KINDS)}
    assert len(drawings) == N_KINDS
    back = parse(card_svg(None))
    assert back.find(f"{NS}title").text == "The back of a card"  # type: ignore[union-attr]
    assert not [e for e in back.iter() if e.get("class") in ("index", "red-stamp", "rank-mark")]
    with pytest.raises(ValueError, match="no card kind"):
        card_svg(30)
    with pytest.raises(ValueError, match="no card kind"):
        card_svg(True)


def test_cards_command_writes_every_drawing(tmp_path: Path) -> None:
    out = tmp_path / "cards"
    run = subprocess.run(
        [sys.executable, "-m", "cherki", "cards", "--svg", str(out), "--no-index"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "31 drawings written" in run.stdout
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted([f"{c}.svg" for c in CODES] + ["back.svg"])
    assert 'class="index"' not in (out / "C7.svg").read_text()
    listing = subprocess.run(
        [sys.executable, "-m", "cherki", "cards"], capture_output=True, text=True, timeout=60
    )
    assert "Red Flower (Nyonya)" in listing.stdout
    file = tmp_path / "f"
    file.write_text("x")
    bad = subprocess.run(
        [sys.executable, "-m", "cherki", "cards", "--svg", str(file)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert bad.returncode == 2 and "is a file, not a folder" in bad.stderr


def test_the_docs_gallery_is_what_the_function_draws() -> None:
    gallery = Path(__file__).resolve().parent.parent / "docs" / "img" / "cards"
    for k in range(N_KINDS):
        assert (gallery / f"{CODES[k]}.svg").read_text() == card_svg(k) + "\n"
    assert write_svgs  # the gallery is written by `cherki cards --svg docs/img/cards`
