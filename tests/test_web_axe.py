"""Pages anyone can read (issue 39): axe-core, run in Debian's Chromium on every page of the
browser app, finds no critical, serious or moderate violation. ``scripts/test.sh`` installs
axe-core with npm (``tests/axe/package.json``); a machine without it fails here, never skips.

To check another page, add it to :data:`PAGES`: a name, how to reach it from a table made for
the test (a function of the :class:`Made` table's links), and the screen size."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page
from test_web_e2e import DESKTOP, PHONE, _page, _play_match, _sit
from test_web_e2e import server as server  # a fixture
from test_web_learn import _lesson

from cherki.games import GAMES

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
#: the impacts that fail the test
FAILING = ("critical", "serious", "moderate")


@dataclass(frozen=True)
class Made:
    """A finished one-hand Ceki table (a person and a bot) and an unfinished one."""

    base: str
    seat: str  # a seat's page of the unfinished table
    host: str  # its host page
    watch: str  # its spectators' page
    finished: str  # the finished table's id (its replay)
    played: str  # a seat's page of the finished table (its log full, the result shown)


#: (name, path from a Made table, screen)
PAGES: list[tuple[str, Callable[[Made], str], dict[str, int]]] = [
    ("lobby", lambda m: "/", DESKTOP),
    ("lobby-phone", lambda m: "/", PHONE),
    ("table", lambda m: m.seat, DESKTOP),
    ("table-phone", lambda m: m.seat, PHONE),
    ("table-played", lambda m: m.played, DESKTOP),
    ("table-played-phone", lambda m: m.played, PHONE),
    ("watch", lambda m: m.watch, DESKTOP),
    ("host", lambda m: m.host, DESKTOP),
    ("host-phone", lambda m: m.host, PHONE),
    ("replay", lambda m: f"/replay/{m.finished}", DESKTOP),
    ("replay-phone", lambda m: f"/replay/{m.finished}", PHONE),
    ("replay-open", lambda m: "/replay", DESKTOP),
    # the learning pages (issue 37): the courses, a game's lessons, its rules page
    ("learn", lambda m: "/learn", DESKTOP),
    ("learn-phone", lambda m: "/learn", PHONE),
    ("learn-game", lambda m: "/learn/balik-satu", DESKTOP),
    ("learn-game-phone", lambda m: "/learn/balik-satu", PHONE),
    ("rules", lambda m: "/rules/balik-satu", DESKTOP),
    ("rules-phone", lambda m: "/rules/balik-satu", PHONE),
]


def _table(base: str, hands: int = 1) -> dict[str, Any]:
    made: dict[str, Any] = httpx.post(f"{base}/api/tables", json={
        "game": "ceki", "seats": [{"kind": "human"}, {"kind": "bot", "level": "heuristic"}],
        "hands": hands, "bot_pace": 0,
    }, timeout=30).json()  # fmt: skip
    return made


@pytest.fixture(scope="module")
def made(server: str, browser: Browser) -> Iterator[Made]:
    assert AXE.exists(), "axe-core is not installed: run the tests with scripts/test.sh"
    done = _table(server)
    page = _page(browser)
    _sit(page, server + done["links"]["0"], "Nenek")
    _play_match(page)
    page.close()
    live = _table(server, hands=3)
    page = _page(browser)
    _sit(page, server + live["links"]["0"], "Nenek")  # named: the table shows at once
    page.close()
    yield Made(server, live["links"]["0"], live["host_page"], live["watch_page"], done["table"],
               done["links"]["0"])  # fmt: skip


def violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is, those of a failing impact."""
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, { resultTypes: ['violations'] })).violations"
    )
    return [v for v in found if v.get("impact") in FAILING]


def _said(found: list[dict[str, Any]]) -> str:
    return "\n".join(
        f"{v['impact']}: {v['id']} ({v['help']}): "
        + "; ".join(str(n["target"]) for n in v["nodes"][:4])
        for v in found
    )


@pytest.mark.parametrize(("name", "path", "screen"), PAGES, ids=[p[0] for p in PAGES])
def test_no_violations(
    made: Made, browser: Browser, name: str, path: Callable[[Made], str], screen: dict[str, int]
) -> None:
    page = _page(browser, screen)
    page.goto(made.base + path(made))
    page.wait_for_load_state("networkidle")
    page.wait_for_function(
        "!document.querySelector('#page-loading') || "
        "getComputedStyle(document.querySelector('#page-loading')).display === 'none'"
    )
    found = violations(page)
    assert not found, f"{name}:\n{_said(found)}"
    assert not page.errors  # type: ignore[attr-defined]


def test_the_check_finds_a_violation(made: Made, browser: Browser) -> None:
    """The check above would see a page's faults: an image without words and a button
    without a name, put on the lobby."""
    page = _page(browser)
    page.goto(made.base + "/")
    page.evaluate("document.body.append(Object.assign(document.createElement('button'), {}))")
    assert any(v["id"] == "button-name" for v in violations(page))


@pytest.mark.parametrize("screen", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_review_dialog_has_no_violations(
    made: Made, browser: Browser, screen: dict[str, int]
) -> None:
    """The post-hand review (``review.js``), opened from the finished table's result: while
    it works (its progress) and once done (its decisions, one of them opened)."""
    page = _page(browser, screen)
    page.goto(made.base + made.played)
    page.wait_for_load_state("networkidle")
    page.locator("#result-review").click()
    page.wait_for_selector("#review[open]")
    found = violations(page)
    assert not found, f"review (working):\n{_said(found)}"
    page.wait_for_selector("#review-summary", timeout=240_000)
    items = page.locator("#review-list .review-item")
    if items.count():
        items.first.click()
    found = violations(page)
    assert not found, f"review (done):\n{_said(found)}"
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("screen", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_lesson_answered_has_no_violations(
    made: Made, browser: Browser, screen: dict[str, int]
) -> None:
    """The first lesson answered wrong, then right: its feedback, the rule it teaches quoted."""
    game = GAMES["balik-satu"]
    page = _page(browser, screen)
    page.goto(made.base + "/learn/balik-satu")
    _lesson(page, game, game.lessons().lessons[0])
    found = violations(page)
    assert not found, f"lesson answered:\n{_said(found)}"
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("screen", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_scoring_list_has_no_violations(
    made: Made, browser: Browser, screen: dict[str, int]
) -> None:
    """The table's "what each item pays" dialog (``scoring.js``)."""
    page = _page(browser, screen)
    page.goto(made.base + made.seat)
    page.wait_for_load_state("networkidle")
    # on a phone the button sits in the folded top bar: pressed as the menu would
    page.evaluate("document.querySelector('#scoring-btn').click()")
    page.wait_for_selector("#scoring[open] #scoring-list > *")
    found = violations(page)
    assert not found, f"scoring list:\n{_said(found)}"
    assert not page.errors  # type: ignore[attr-defined]
