"""docs/deploy.md shows the files of docs/deploy/ as they are (the nginx part is the one
tests/test_proxy_e2e.py runs), and is linked from the README and docs/web.md."""

from __future__ import annotations

from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize(
    "name",
    ["cherki-proxy.conf", "cherki-upstream.conf", "nginx-site.conf", "Caddyfile", "cherki.service"],
)
def test_the_guide_shows_each_file_as_it_is(name: str) -> None:
    guide = (DOCS / "deploy.md").read_text(encoding="utf-8")
    text = (DOCS / "deploy" / name).read_text(encoding="utf-8").strip()
    assert f"\n{text}\n```" in guide, f"docs/deploy.md does not show docs/deploy/{name} as it is"


def test_the_guide_is_linked() -> None:
    assert "docs/deploy.md" in (DOCS.parent / "README.md").read_text(encoding="utf-8")
    assert "(deploy.md)" in (DOCS / "web.md").read_text(encoding="utf-8")
    assert "(deploy.md)" in (DOCS / "server.md").read_text(encoding="utf-8")
