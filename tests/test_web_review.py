"""The review in Chromium: a person finishes a hand by clicking, opens "Review my hand" in
the result dialog, watches its progress and sees every decision with its values and
marks; clicking one shows that seat's own cards then; a spectator's review of a live
match is refused in words; the finished table's replay offers a seat's review.

Set ``CHERKI_WEB_SHOTS=docs/img`` to write the screenshots the docs show (review*.png)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from serverutil import wait_serving
from test_web_e2e import DESKTOP, PHONE, _click, _page, _port, _sit, _state, _wait_change


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``cherki serve`` with a small review budget (a setting: ``--limit``)."""
    db = tmp_path_factory.mktemp("review") / "web.db"
    port = _port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cherki", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--database-url", f"sqlite:///{db}", "--limit", "review_budget=12",
         "--limit", "heavy_seconds=120"],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_serving(base, seconds=90)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _careless(state: dict[str, Any]) -> dict[str, Any]:
    """A careless player (so that the review has something to mark): takes every discard
    it may, and otherwise discards a card of its sets rather than a spare one."""
    acts = state["ui"]["actions"]
    by: dict[str, list[dict[str, Any]]] = {}
    for a in acts:
        by.setdefault(a["kind"], []).append(a)
    for kind in ("take", "draw"):
        if by.get(kind):
            return by[kind][0]
    spare = set(state["ui"]["hand"]["leftover"])
    discards = by.get("discard", [])
    for a in discards:
        if a["card"] not in spare:
            return a
    return (discards or acts)[0]


def _play_carelessly(page: Page) -> None:
    for _ in range(400):
        if page.locator("#result").evaluate("d => d.open"):
            return
        state = _state(page)
        obs = state["observation"]
        if state["over"] or obs is None or obs["current"] != state["seat"] or not obs["legal"]:
            _wait_change(page, state["version"])
            continue
        _click(page, _careless(state), 0)
        _wait_change(page, state["version"])
    raise AssertionError("the hand did not end")


def test_review_my_hand_in_the_result_dialog(server: str, browser: Browser, tmp_path: Path) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "heuristic"}]
    body = {"game": "balik-satu", "seats": seats, "bot_pace": 0, "pause": False, "hands": 1}
    made = httpx.post(f"{server}/api/tables", json=body, timeout=30).json()
    table = made["table"]
    # a spectator cannot review a match in play
    r = httpx.post(f"{server}/api/tables/{table}/review", params={"seat": 0}, timeout=30)
    assert r.status_code == 403 and "still being played" in r.json()["detail"]
    page = _page(browser)
    _sit(page, f"{server}/seat/{made['seats']['0']}", "Siew")
    # a one-hand match goes on after a hand that ties at the top or is dealt again (the
    # match is over only when someone leads): play until the result offers another match
    for _ in range(12):
        _play_carelessly(page)
        if page.locator("#result-again").is_visible():
            break
        page.click("#result-close")
    else:
        raise AssertionError("the one-hand match did not end in twelve hands")
    expect(page.locator("#result-review")).to_have_text("Review my hand")
    page.click("#result-review")
    expect(page.locator("#review")).to_be_visible()
    expect(page.locator("#review-summary")).to_be_visible(timeout=240_000)
    items = page.locator("#review-list .review-item")
    n = items.count()
    assert n > 0
    summary = page.locator("#review-summary").inner_text()
    assert re.search(rf"decisions reviewed: {n};", summary), summary
    text = page.locator("#review-list").inner_text()
    assert "played:" in text and "[" in text
    marked = page.locator("#review-list .mark")
    counts = {
        m: page.locator(f"#review-list .mark.{m}").count()
        for m in ("blunder", "mistake", "inaccuracy")
    }
    assert (
        f"blunders: {counts['blunder']}," in summary
        and f"mistakes: {counts['mistake']}," in summary
    )
    # every mark the review gave is shown (the summary's counts come from the server's data)
    assert marked.count() == sum(counts.values())
    assert "better:" in text  # a careless hand has a better action somewhere
    with_mark = page.locator("#review-list .review-item:has(.mark)")
    first = (with_mark if with_mark.count() else page.locator("#review-list .review-item")).first
    first.click()
    position = first.locator(".position .card")
    assert position.count() >= 14  # the seat's own hand, and nothing of another seat's
    assert page.locator("#review .card").count() == position.count()
    # Balik Satu's table of two: the learned bot is measured as strong as the search there
    said = page.locator("#review-evaluator").inner_text()
    assert "Evaluator: the learned bot's rollouts (it plays every seat on; at this table" in said
    assert "12 sampled deals a decision" in said
    first.scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "review.png"))
    page.set_viewport_size(PHONE)  # type: ignore[arg-type]
    first.scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "review-phone.png"))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]
    page.click("#review-close")
    assert not page.errors  # type: ignore[attr-defined]
    # the finished table's replay: a seat's review, for anyone
    replay = _page(browser)
    replay.goto(f"{server}/replay/{table}")
    expect(replay.locator("#replay-review")).to_be_visible()
    replay.select_option("#review-seat", "1")
    replay.click("#replay-review")
    expect(replay.locator("#review-summary")).to_be_visible(timeout=240_000)
    assert replay.locator("#review-list .review-item").count() > 0
    assert not replay.errors  # type: ignore[attr-defined]
    target = os.environ.get("CHERKI_WEB_SHOTS")
    if target:
        for png in ("review.png", "review-phone.png"):
            shutil.copy(tmp_path / png, Path(target) / png)
