"""The table page shows what happens, end to end in Debian's Chromium: on a phone (390 × 844
and 360 × 640, touch) the hand, the top discard and the actions are on one screen without
scrolling at the seat's turn; each seat's last action is written under its name, and the
top discard says whose it is; draws and discards are animated (a click lands them at
once), but not under
``prefers-reduced-motion: reduce`` nor with the page's toggle off; sounds are off until
the person turns them on, and the page remembers it.

Set ``CHERKI_WEB_SHOTS=docs/img`` to write the screenshots the docs show (web-*.png)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from test_web_e2e import _choose, _state, _wait_change, server, shots

__all__ = ["server", "shots"]  # the fixtures, shared with the other end-to-end tests

BOTS = [{"kind": "bot", "level": "heuristic"}] * 3

#: what each kind of event reads as under its seat's name (the start of it)
WORDS = {"draw": "drew", "reveal": "drew", "take": "took", "discard": "discarded", "pass": "passed"}
#: the kinds of event that are a seat's own action (and so its last action)
ACTIONS = {*WORDS, "call", "expose", "sampei", "win", "turn", "keep", "capture", "bonus", "sweep"}


def _table(server: str, name: str = "Mei Ling") -> dict[str, Any]:
    """A Balik Satu table: a person (seat 0, named) and three bots."""
    # the bots at once (no pace): the page is measured while nothing is in flight
    body = {"game": "balik-satu", "seats": [{"kind": "human"}, *BOTS], "hands": 1, "bot_pace": 0}
    made: dict[str, Any] = httpx.post(f"{server}/api/tables", json=body, timeout=30).json()
    token = made["seats"]["0"]
    r = httpx.post(f"{server}/api/seats", json={"token": token, "name": name}, timeout=30)
    assert r.status_code == 200, r.text
    return made


def _open(context: BrowserContext, url: str) -> Page:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(url)
    page.wait_for_function("window.cherki && window.cherki.state() !== null", timeout=15_000)
    return page


def _settle(page: Page) -> None:
    """Finish whatever is moving (as a tap would), so what is measured is where it rests."""
    # the page's own finish (what a tap does) puts every landed card back at once; the
    # animations' own "finish" events come only with the page's next frame
    page.evaluate("window.cherki.settle(); document.getAnimations().forEach(a => a.finish())")


def _until(page: Page, kind: str, tap: bool = False) -> dict[str, Any]:
    """Play the seat's turns (tapping or clicking) until one of its actions is ``kind``."""
    for _ in range(60):
        state = _state(page)
        acts = state["ui"]["actions"]
        if any(a["kind"] == kind for a in acts):
            return state
        if state["over"]:
            break
        if acts:
            _act(page, _choose(state), tap)
        _wait_change(page, state["version"])
    raise AssertionError(f"the seat was never offered {kind!r}")


def _act(page: Page, action: dict[str, Any], tap: bool) -> None:
    def press(selector: str) -> None:
        # what is flying lands first, as a person taps a card once it is there: a card
        # that shows the moment Playwright taps it made it scroll on a busy machine
        _settle(page)
        loc = page.locator(selector).first
        loc.tap() if tap else loc.click()

    if action["kind"] == "draw":
        press("#stock")
    elif action["card"] and action["kind"] in ("discard", "call"):
        press(f"#hand .card-btn[data-code='{action['card']}']")
        press(f"#actions button[data-action='{action['id']}']")
    else:
        press(f"#actions button[data-action='{action['id']}']")


def _on_screen(page: Page, selector: str) -> None:
    """Every element ``selector`` matches is inside the viewport and not covered (the topmost
    element at its middle is itself or inside it)."""
    size = page.viewport_size
    assert size is not None
    boxes = page.locator(selector).evaluate_all(
        """ns => ns.map(n => { const r = n.getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return { top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                     hit: !!hit && (n === hit || n.contains(hit)) }; })"""
    )
    assert boxes, f"nothing matches {selector}"
    for b in boxes:
        assert b["top"] >= 0 and b["bottom"] <= size["height"], f"{selector} off screen: {b}"
        assert b["left"] >= 0 and b["right"] <= size["width"], f"{selector} off screen: {b}"
        assert b["hit"], f"{selector} is covered: {b}"


PHONES = {"390x844": {"width": 390, "height": 844}, "360x640": {"width": 360, "height": 640}}


@pytest.mark.parametrize("phone", list(PHONES))
def test_on_a_phone_hand_top_discard_and_actions_fit_one_screen(
    server: str, browser: Browser, shots: Path, phone: str
) -> None:
    made = _table(server)
    size = PHONES[phone]
    context = browser.new_context(viewport=size, is_mobile=True, has_touch=True)  # type: ignore[arg-type]
    try:
        page = _open(context, f"{server}/seat/{made['seats']['0']}")
        _until(page, "draw", tap=True)  # a later turn: the discards have a top
        _settle(page)
        assert page.evaluate("window.scrollY") == 0
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        _on_screen(page, "#hand .card-btn")
        _on_screen(page, "#pile .card-btn.top")
        _on_screen(page, "#stock")
        _on_screen(page, "#actions button[data-action]")
        # drawn, and a card picked: its discard buttons come up, still on the same screen
        version = _state(page)["version"]
        page.locator("#stock").tap()
        _wait_change(page, version)
        # the drawn card's state (a message in between may come first on a busy machine)
        page.wait_for_function(
            "() => window.cherki.state().ui.actions.some(a => a.kind === 'discard')"
        )
        state = _state(page)
        assert any(a["kind"] == "discard" for a in state["ui"]["actions"])
        _settle(page)  # the drawn card lands first (see _act)
        page.locator("#hand .card-btn.playable").first.tap()
        _settle(page)
        expect(page.locator("#actions button[data-kind='discard']")).to_be_visible()
        assert page.evaluate("window.scrollY") == 0
        _on_screen(page, "#hand .card-btn")
        _on_screen(page, "#pile .card-btn.top")
        _on_screen(page, "#actions button[data-action]")
        name = "web-table-phone.png" if phone == "390x844" else "web-table-phone-360.png"
        page.screenshot(path=shots / name)
        # the settings sit behind a button of the top bar on a phone
        expect(page.locator("#sound-toggle")).to_be_hidden()
        page.locator("#prefs-btn").tap()
        expect(page.locator("#sound-toggle")).to_be_visible()
        expect(page.locator("#sound-toggle")).not_to_be_checked()
        expect(page.locator("#motion-toggle")).to_be_checked()
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()


#: the hand's cards regrouped as a deal can group them: groups of five, which on a 390-pixel
#: phone at the usual card size wrap one group a row (two fives are two pixels too wide)
REGROUP = """sizes => { const h = window.cherki.state().ui.hand;
    const flat = h.groups.flatMap(g => g.cards); let i = 0;
    h.groups = sizes.map((n, k) => ({ rank: k + 1, cards: flat.slice(i, i += n) }));
    h.groups[h.groups.length - 1].cards.push(...flat.slice(i)); }"""


@pytest.mark.parametrize("phone", list(PHONES))
def test_a_hand_of_large_groups_is_drawn_smaller_to_fit_a_phone(
    server: str, browser: Browser, phone: str
) -> None:
    """A hand of large groups (three fives) would wrap a group a row, its last row under the
    action bar: on a phone its cards are drawn a little smaller (never under four fifths of
    their size), and the hand, the top discard and the actions are on one screen again."""
    made = _table(server)
    size = PHONES[phone]
    context = browser.new_context(viewport=size, is_mobile=True, has_touch=True)  # type: ignore[arg-type]
    try:
        page = _open(context, f"{server}/seat/{made['seats']['0']}")
        _until(page, "draw", tap=True)
        version = _state(page)["version"]
        page.locator("#stock").tap()
        _wait_change(page, version)
        page.wait_for_function(
            "() => window.cherki.state().ui.actions.some(a => a.kind === 'discard')"
        )
        _settle(page)
        usual = page.evaluate(
            "parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--card-w'))"
        )
        page.evaluate(REGROUP, [5, 5, 5])
        page.locator("#hand .card-btn.playable").first.tap()  # the page draws the hand again
        _settle(page)
        groups = page.locator("#hand .group").evaluate_all(
            "ns => ns.map(n => n.querySelectorAll('.card-btn').length)"
        )
        assert groups[:2] == [5, 5]
        assert page.evaluate("window.scrollY") == 0
        _on_screen(page, "#hand .card-btn")
        _on_screen(page, "#pile .card-btn.top")
        _on_screen(page, "#actions button[data-action]")
        drawn = page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('#hand .card')).width)"
        )
        assert usual * 0.8 <= drawn <= usual
        if phone == "390x844":  # here the usual size wraps a group a row: it was made smaller
            assert drawn < usual
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()


def test_a_wide_screen_keeps_the_cards_size(server: str, browser: Browser) -> None:
    """Only a phone's layout makes a hand's cards smaller: on a wide screen the same hand of
    large groups keeps the usual size, and the page scrolls if it must."""
    made = _table(server)
    page = _open(
        browser.new_context(viewport={"width": 1280, "height": 800}),
        f"{server}/seat/{made['seats']['0']}",
    )
    try:
        _until(page, "draw")
        usual = page.evaluate(
            "parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--card-w'))"
        )
        page.evaluate(REGROUP, [5, 5, 5])
        page.set_viewport_size(
            {"width": 1280, "height": 500}
        )  # a short window: the hand cannot fit
        page.wait_for_timeout(100)
        page.locator("#hand .card-btn").first.click()
        drawn = page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('#hand .card')).width)"
        )
        assert drawn == usual
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()


def test_cholek_tigas_pool_leaves_room_on_a_small_phone(server: str, browser: Browser) -> None:
    """Cholek Tiga's pool of a dozen cards sits beside the stock in small cards, so the hand
    and the actions still fit a 360 × 640 screen."""
    body = {"game": "cholek-tiga", "seats": [{"kind": "human"}, *BOTS[:2]], "bot_pace": 0}
    made = httpx.post(f"{server}/api/tables", json=body, timeout=30).json()
    token = made["seats"]["0"]
    httpx.post(f"{server}/api/seats", json={"token": token, "name": "Ah Kow"}, timeout=30)
    context = browser.new_context(viewport=PHONES["360x640"], is_mobile=True, has_touch=True)  # type: ignore[arg-type]
    try:
        page = _open(context, f"{server}/seat/{token}")
        for _ in range(40):  # the pool grows as the hand goes on
            state = _state(page)
            acts = state["ui"]["actions"]
            zones = {z["id"]: z for z in state["ui"]["table"]["zones"]}
            if acts and len(zones["pool"]["cards"]) >= 6:
                break
            if acts:
                _act(page, _choose(state), tap=True)
            _wait_change(page, state["version"])
        _settle(page)
        assert page.evaluate("window.scrollY") == 0
        assert page.locator("#pool img.card").count() >= 6
        _on_screen(page, "#pool img.card")
        _on_screen(page, "#hand .card-btn")
        _on_screen(page, "#actions .btn")
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()


def test_reduced_motion_turns_the_animations_off(server: str, browser: Browser) -> None:
    """A seat whose system asks for reduced motion sees nothing move; a spectator without
    that wish sees the bots' draws and discards fly, until the page's toggle is turned off."""
    made = _table(server)
    still = browser.new_context(viewport={"width": 1280, "height": 860}, reduced_motion="reduce")
    moving = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        page = _open(still, f"{server}/seat/{made['seats']['0']}")
        watch = _open(moving, f"{server}/watch/{made['table']}")
        expect(page.locator("#motion-toggle")).not_to_be_checked()
        expect(page.locator("#motion-toggle")).to_be_disabled()
        expect(watch.locator("#motion-toggle")).to_be_checked()
        _until(page, "draw")
        assert page.evaluate("window.cherki.motion.animated") == 0
        assert page.evaluate("document.getAnimations().length") == 0
        watch.wait_for_function("window.cherki.motion.animated > 0", timeout=15_000)
        # the spectator turns animations off: nothing more moves there
        watch.locator("#motion-toggle").uncheck()
        assert watch.evaluate("localStorage.getItem('cherki:motion')") == "off"
        before = watch.evaluate("window.cherki.motion.animated")
        seen = watch.evaluate("window.cherki.state().version")
        version = _state(page)["version"]
        page.click("#stock")
        _wait_change(page, version)
        watch.wait_for_function(
            "v => window.cherki.state().version !== v", arg=seen, timeout=15_000
        )
        assert watch.evaluate("window.cherki.motion.animated") == before
        assert page.evaluate("window.cherki.motion.animated") == 0
        assert not page.errors and not watch.errors  # type: ignore[attr-defined]
    finally:
        still.close()
        moving.close()


def test_a_click_finishes_what_is_moving(server: str, browser: Browser) -> None:
    """With the page's clock for animations stopped (Chromium's DevTools protocol), a draw
    leaves its card in flight until a click anywhere lands it at once."""
    made = _table(server)
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        page = _open(context, f"{server}/seat/{made['seats']['0']}")
        state = _until(page, "draw")
        cdp = context.new_cdp_session(page)
        cdp.send("Animation.enable")
        cdp.send("Animation.setPlaybackRate", {"playbackRate": 0})
        page.click("#stock")
        _wait_change(page, state["version"])
        expect(page.locator(".motion-layer .motion-card")).to_have_count(1)
        expect(page.locator("#hand .card-btn.motion-hidden")).to_have_count(1)  # lands there
        page.click("#status")
        expect(page.locator(".motion-layer .motion-card")).to_have_count(0)
        expect(page.locator(".motion-hidden")).to_have_count(0)
        assert page.evaluate("document.getAnimations().length") == 0
        cdp.send("Animation.setPlaybackRate", {"playbackRate": 1})
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()


def test_each_seats_last_action_and_the_top_discards_seat_are_written(
    server: str, browser: Browser, shots: Path
) -> None:
    made = _table(server)
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        page = _open(context, f"{server}/seat/{made['seats']['0']}")
        state = _until(page, "draw")
        _settle(page)
        last: dict[int, dict[str, Any]] = {}
        for e in state["events"]:
            if e.get("seat", -1) >= 0 and e["kind"] in ACTIONS:
                last[e["seat"]] = e
        assert set(last) == {0, 1, 2, 3}  # everyone has played by the seat's second turn
        for seat, e in last.items():
            line = page.locator(f".seat[data-seat='{seat}'] .last")
            expect(line).to_be_visible()
            text = line.inner_text()
            assert text.startswith(WORDS.get(e["kind"], "")), (seat, e, text)
            if e.get("card"):  # a card the seat saw (another seat's draw is hidden)
                assert e["card"] in text
        pile = next(z for z in state["ui"]["table"]["zones"] if z["kind"] == "pile")
        top, by = pile["top"], pile["seats"][-1]
        expect(page.locator("#top-by")).to_have_text(f"{top} discarded by {state['names'][by]}")
        expect(page.locator(f".seat[data-seat='{by}']")).to_have_class(re.compile(r"\bdiscarder\b"))
        badge = page.locator(f".seat[data-seat='{by}'] .badge.top-by")
        expect(badge).to_have_text(f"top discard {top}")
        assert page.locator(".seat.discarder").count() == 1
        # a hand in play, on a desktop, a card picked
        page.click("#stock")
        _wait_change(page, state["version"])
        page.locator("#hand .card-btn.playable").first.click()
        _settle(page)
        page.screenshot(path=shots / "web-table.png")
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()


def test_sounds_are_off_until_turned_on_and_remembered(server: str, browser: Browser) -> None:
    made = _table(server)
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        url = f"{server}/seat/{made['seats']['0']}"
        page = _open(context, url)
        expect(page.locator("#sound-toggle")).not_to_be_checked()
        assert page.evaluate("localStorage.getItem('cherki:sounds')") is None
        _until(page, "draw")  # a turn came, discards were made: silence
        assert page.evaluate("window.cherki.motion.played") == []
        page.locator("#sound-toggle").check()
        assert page.evaluate("localStorage.getItem('cherki:sounds')") == "on"
        assert page.evaluate("window.cherki.motion.played") == ["turn"]  # a sample
        page.reload()
        page.wait_for_function("window.cherki && window.cherki.state() !== null")
        expect(page.locator("#sound-toggle")).to_be_checked()
        page.locator("#sound-toggle").uncheck()
        assert page.evaluate("localStorage.getItem('cherki:sounds')") == "off"
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
