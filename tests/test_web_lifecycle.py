"""The family table in Debian's Chromium: two people agree to another match and the score
runs on (a reload in the second match keeps the running total); the next hand waits for
both people's "Next hand"; the host turns hints on from the host's page and the person's
page follows. The server and the helpers are the browser suite's
(:mod:`test_web_e2e`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect
from test_web_e2e import (
    PHONE,
    _choose,
    _click,
    _create_from_lobby,
    _host_link,
    _page,
    _sit,
    _state,
    _wait_change,
)
from test_web_e2e import server as server  # a fixture
from test_web_e2e import shots as shots  # a fixture

PEOPLE2 = ["human", "human", "bot:heuristic"]


def _result_open(page: Page) -> bool:
    return bool(page.locator("#result").evaluate("d => d.open"))


def _play_both(pages: list[Page], done: Callable[[], bool], limit: int = 1500) -> None:
    """Each page plays its turns by clicking (as in the browser suite) until ``done``."""
    for n in range(limit):
        if done():
            return
        moved = False
        for page in pages:
            if _result_open(page):
                continue
            state = _state(page)
            obs = state["observation"]
            if state["over"] or obs is None or obs["current"] != state["seat"] or not obs["legal"]:
                continue
            _click(page, _choose(state), n)
            _wait_change(page, state["version"])
            moved = True
        if not moved:
            pages[0].wait_for_timeout(50)
    raise AssertionError("the play did not get there")


def _two_people(
    browser: Browser, server: str, hands: int
) -> tuple[Page, Page, Page, str]:  # fmt: skip
    """A Ceki table of two people and a bot made from the lobby: the lobby's page, the two
    people's pages, and the host's link."""
    lobby = _page(browser)
    first, _ = _create_from_lobby(lobby, server, "ceki", PEOPLE2, hands=hands)
    second = lobby.locator("#links .link-row code").nth(2).inner_text()
    host = _host_link(lobby)
    a, b = _page(browser), _page(browser)
    _sit(a, first, "Ann")
    _sit(b, second, "Ben")
    return lobby, a, b, host


def _running(page: Page) -> list[Any]:
    totals: list[Any] = page.evaluate("window.cherki.state().matches.totals")
    return totals


def test_two_people_agree_to_another_match_and_a_reload_keeps_the_running_total(
    server: str, browser: Browser, shots: Path
) -> None:
    _, a, b, _ = _two_people(browser, server, hands=1)
    _play_both([a, b], lambda: _state(a)["over"] and _state(b)["over"])
    for page in (a, b):
        expect(page.locator("#result-again")).to_be_visible()
    first_totals = _state(a)["match"]["totals"]
    a.click("#result-again")  # Ann asks from the result
    b.locator("#result-close").click()  # Ben closes it first, then sees who asked
    expect(b.locator("#again-box")).to_contain_text("Ann asked for another match")
    expect(a.locator("#again-box")).to_contain_text("Waiting for Ben")
    expect(b.locator("#matches-panel")).to_be_visible()
    b.screenshot(path=shots / "web-again.png")
    b.set_viewport_size(PHONE)  # type: ignore[arg-type]
    assert b.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    expect(b.locator("#again-btn")).to_be_visible()
    b.screenshot(path=shots / "web-again-phone.png")
    b.click("#again-btn")
    for page in (a, b):
        page.wait_for_function("!window.cherki.state().over", timeout=15_000)
        expect(page.locator("#title")).to_contain_text("match 2")
        expect(page.locator("#matches-sheet tbody tr")).to_have_count(3)  # a row a seat
        expect(page.locator("#matches-sheet thead th")).to_have_count(4)  # seat, running, 1, 2
    assert _state(a)["matches"]["earlier"][0]["totals"] == first_totals
    # a few moves into the second match, Ann reloads: the running total is still there
    start = _state(a)["version"]
    _play_both([a, b], lambda: _state(a)["version"] >= start + 4 or _state(a)["over"], 60)
    before = _running(a)
    a.reload()
    a.wait_for_function("window.cherki && window.cherki.state() !== null", timeout=15_000)
    assert _state(a)["matches"]["number"] == 1
    assert _running(a) == before
    expect(a.locator("#running-total")).to_be_visible()
    running = a.locator("#matches-sheet td.running")
    cells = running.evaluate_all("ns => ns.map(n => n.firstChild.data)")
    assert cells == [str(t) for t in before]
    # the first match's replay still opens
    replay = a.locator("#matches-sheet a", has_text="replay").first
    replay.click()
    expect(a.locator("#viewer")).to_be_visible(timeout=30_000)  # the heavy process starts
    assert not a.errors and not b.errors  # type: ignore[attr-defined]


def test_the_next_hand_waits_for_both_people(server: str, browser: Browser, shots: Path) -> None:
    _, a, b, _ = _two_people(browser, server, hands=3)
    _play_both([a, b], lambda: _result_open(a) and _result_open(b))
    state = _state(a)
    if state["over"]:  # the first hand was dealt again? no: ceki has no void hand
        raise AssertionError("a three-hand match ended after one hand")
    assert state["waiting"] == [0, 1] and state["observation"] is None
    expect(a.locator("#result-close")).to_have_text("Next hand")
    a.click("#result-close")
    expect(a.locator("#next-box")).to_contain_text('Waiting for Ben to press "Next hand"')
    expect(a.locator(".seat[data-seat='1']")).to_contain_text("reading the result")
    expect(a.locator(".seat[data-seat='0']")).to_contain_text("ready")
    a.screenshot(path=shots / "web-next-hand.png")
    assert _state(b)["waiting"] == [1]
    assert _state(b)["observation"] is None  # Ben still sees the result
    expect(b.locator("#result")).to_be_visible()
    b.click("#result-close")
    for page in (a, b):
        page.wait_for_function(
            "window.cherki.state().observation !== null && window.cherki.state().hand_number === 1",
            timeout=15_000,
        )
    assert _state(a)["waiting"] is None
    assert not a.errors and not b.errors  # type: ignore[attr-defined]


def test_the_host_turns_hints_on_and_the_table_follows(
    server: str, browser: Browser, shots: Path
) -> None:
    lobby = _page(browser)
    seat_url, _ = _create_from_lobby(lobby, server, "ceki", ["human"] + ["bot:heuristic"] * 2)
    host_url = _host_link(lobby)
    page = _page(browser)
    state = _sit(page, seat_url, "Ann")
    assert state["settings"]["hints"] is False  # Ceki plays for money: hints off
    expect(page.locator("#hint-btn")).to_be_disabled()
    host = _page(browser, PHONE)
    host.goto(host_url)
    expect(host.locator("#host-play")).to_be_visible()
    expect(host.locator("#set-hints")).not_to_be_checked()
    host.check("#set-hints")
    host.fill("#set-pace", "0.5")
    host.click("#settings-save")
    page.wait_for_function("window.cherki.state().settings.hints === true", timeout=15_000)
    assert _state(page)["settings"]["bot_pace"] == 0.5
    host.reload()
    expect(host.locator("#set-hints")).to_be_checked()
    expect(host.locator("#set-pace")).to_have_value("0.5")
    host.screenshot(path=shots / "web-host-settings.png", full_page=True)
    page.wait_for_function(
        "(() => { const s = window.cherki.state(); return s.over ||"
        " (s.observation && s.observation.current === s.seat) })()",
        timeout=15_000,
    )
    if not _state(page)["over"]:
        expect(page.locator("#hint-btn")).to_be_enabled()
        page.click("#hint-btn")
        expect(page.locator("#hint")).to_be_visible()
    assert not page.errors and not host.errors  # type: ignore[attr-defined]
