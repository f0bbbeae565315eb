"""The family table in Debian's Chromium (issue 39): the host reads where the links reach;
the money panel at 4 and 14 seats on a 360 px phone; a replay opened right after the server
starts shows that it is loading. Screenshots go to ``$CHERKI_WEB_SHOTS`` (docs/img/)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from test_web_e2e import (
    DESKTOP,
    PHONE,
    _choose,
    _create_from_lobby,
    _host_link,
    _page,
    _play_match,
    _sit,
    _state,
    _wait_change,
    _wait_state,
)
from test_web_e2e import server as server  # a fixture
from test_web_e2e import shots as shots  # a fixture

PHONE_360 = {"width": 360, "height": 780}


def test_the_host_reads_where_the_links_reach(server: str, browser: Browser, shots: Path) -> None:
    lobby = _page(browser)
    _create_from_lobby(lobby, server, "ceki", ["human", "human", "bot:heuristic"])
    reach = lobby.locator("#reach")
    expect(reach).to_be_visible()
    expect(reach).to_contain_text("These links open on this computer only.")
    expect(reach).to_contain_text("cherki serve --share")
    lobby.locator("#made").screenshot(path=shots / "web-reach.png")
    host = _page(browser, PHONE)
    host.goto(_host_link(lobby))
    expect(host.locator("#reach")).to_contain_text("on this computer only")
    host.screenshot(path=shots / "web-reach-host-phone.png")
    # in Malay too
    host.evaluate("localStorage.setItem('cherki:lang', 'ms')")
    host.reload()
    expect(host.locator("#reach")).to_contain_text("Pautan ini hanya dibuka pada komputer ini.")
    assert not lobby.errors and not host.errors  # type: ignore[attr-defined]


MONEY = r"^[+-](\$\d+\.\d\d|\d+¢)$"


@pytest.mark.parametrize("seats", [4, 14])
def test_the_money_panel_shows_every_seat_on_a_360_px_phone(
    server: str, browser: Browser, shots: Path, seats: int
) -> None:
    """A one-hand match of a person and bots played on a 360 px phone: "Score across matches"
    has a row for every seat, inside the screen, with its money written as the result writes
    it."""
    made = httpx.post(f"{server}/api/tables", json={
        "game": "balik-satu",
        "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "heuristic"}] * (seats - 1),
        "hands": 1, "bot_pace": 0,
    }, timeout=30).json()  # fmt: skip
    page = _page(browser, PHONE_360)
    _sit(page, server + made["links"]["0"], "Nenek")
    _play_match(page)
    result_money = page.locator("#result td.num").all_inner_texts()
    page.locator("#result-close").click()
    panel = page.locator("#matches-panel")
    expect(panel).to_be_visible(timeout=120_000)
    rows = page.locator("#matches-sheet tbody tr")
    expect(rows).to_have_count(seats)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_360["width"]
    for i in range(seats):  # every seat's row is inside the screen's width
        box = rows.nth(i).locator("td.running").bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE_360["width"]
    money = page.locator("#matches-sheet td.running .money").all_inner_texts()
    assert len(money) == seats and all(re.match(MONEY, m) for m in money), money
    assert set(money) <= set(result_money)  # written as the result writes it
    panel.scroll_into_view_if_needed()
    panel.screenshot(path=shots / f"web-matches-{seats}-phone-360.png")
    assert not page.errors  # type: ignore[attr-defined]


def test_a_page_waiting_on_the_server_says_it_is_loading(server: str, browser: Browser) -> None:
    """The replay and the table show "Loading…" while their first answer is on its way
    (held back here), and not once the page has drawn."""
    page = _page(browser)
    page.route("**/api/tables/*/replay*", lambda route: None)  # never answered
    page.goto(f"{server}/replay/no-such-table")
    expect(page.locator("#page-loading")).to_be_visible()
    expect(page.locator("#page-loading")).to_contain_text("Loading…")
    other = _page(browser)
    other.goto(f"{server}/replay/no-such-table")  # answered: the page says what is wrong
    expect(other.locator("#fatal")).to_be_visible()
    expect(other.locator("#page-loading")).to_be_hidden()
    made = httpx.post(f"{server}/api/tables", json={
        "game": "ceki", "seats": [{"kind": "human"}, {"kind": "bot", "level": "heuristic"}],
    }, timeout=30).json()  # fmt: skip
    table = _page(browser, PHONE)
    table.route("**/api/words/*", lambda route: None)
    table.goto(server + made["links"]["0"])
    expect(table.locator("#page-loading")).to_be_visible()
    seat = _page(browser, PHONE)
    _sit(seat, server + made["links"]["0"], "Nenek")
    expect(seat.locator("#page-loading")).to_be_hidden()


def test_the_heavy_process_starts_with_the_server(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from cherki.server.app import create_app
    from cherki.server.store import Store

    app = create_app(Store(f"sqlite:///{tmp_path / 'c.db'}"), warm=True)
    with TestClient(app):
        heavy = app.state.server.heavy
        assert heavy.pool is not None  # started before any request
        assert heavy.pool.submit(int, "7").result(timeout=120) == 7


def test_a_family_leaves_and_comes_back_to_a_paused_table(
    server: str, browser: Browser, shots: Path
) -> None:
    """Two people and a bot; the host sets the wait to 0 minutes. Both close their pages:
    the table pauses at once (the host page and the lobby say so) and nothing is played or
    settled, even when a turn timer set meanwhile runs out; the first one back resumes it."""
    made = httpx.post(f"{server}/api/tables", json={
        "game": "ceki", "seats": [{"kind": "human"}, {"kind": "human"},
                                  {"kind": "bot", "level": "heuristic"}],
        "hands": 2, "bot_pace": 0, "listed": True,
    }, timeout=30).json()  # fmt: skip
    host_api = f"{server}/api/host/{made['host']}"
    assert httpx.post(f"{host_api}/settings", json={"wait": 0}, timeout=30).status_code == 200
    a, b = _page(browser), _page(browser, PHONE)
    _sit(a, server + made["links"]["0"], "Nenek")
    _sit(b, server + made["links"]["1"], "Adik")
    version = _state(a)["version"]
    match = _state(a)["match"]
    assert not httpx.get(host_api, timeout=30).json()["paused"]
    a.close()
    b.close()
    # a turn timer set now (not from the start: a slow page could let it run out while
    # the people were still here, and a stand-in would rightly play)
    assert httpx.post(f"{host_api}/settings", json={"timer": 5}, timeout=30).status_code == 200
    host = _page(browser)
    host.goto(server + made["host_page"])
    expect(host.locator("#paused")).to_be_visible()
    expect(host.locator("#about")).to_contain_text("nothing is played or scored")
    host.screenshot(path=shots / "web-paused-host.png")
    lobby = _page(browser, PHONE)
    lobby.goto(server + "/")
    expect(lobby.locator("#open .paused")).to_have_text("paused")
    # the turn timer runs out meanwhile: still nobody plays (the person is not made away)
    host.wait_for_timeout(6000)
    assert httpx.get(host_api, timeout=30).json()["paused"]
    back = _page(browser, PHONE)
    state = _sit(back, server + made["links"]["1"], "Adik")
    assert state["version"] == version  # nothing was played while they were all away
    assert state["match"] == match  # nor settled
    host.reload()
    expect(host.locator("#about")).to_be_visible()
    expect(host.locator("#paused")).to_have_count(0)
    assert not httpx.get(host_api, timeout=30).json()["paused"]
    back.screenshot(path=shots / "web-paused-back-phone.png")
    assert not host.errors and not back.errors and not lobby.errors  # type: ignore[attr-defined]


def _key_for(page: Page, state: dict[str, Any], action: dict[str, Any]) -> None:
    """Play ``action`` with the keys the table's Keys panel lists, as a person would."""
    acts = state["ui"]["actions"]
    if action.get("key"):
        page.keyboard.press(action["key"])
        return
    page.keyboard.press("Escape")  # nothing picked
    if action["card"] and not action.get("numbered"):
        flat = [c for g in state["ui"]["hand"]["groups"] for c in g["cards"]]
        for _ in range(flat.index(action["card"]) + 1):
            page.keyboard.press("ArrowRight")
        mine = [a for a in acts if a["card"] == action["card"] and not a.get("numbered")]
        if (
            action["kind"] == "discard"
            and next(a for a in mine if a["kind"] == "discard") is action
        ):
            page.keyboard.press("Enter")
            return
        choices = mine + [a for a in acts if a.get("numbered")]
    else:
        choices = [a for a in acts if a.get("numbered")]
    page.keyboard.press(str(choices.index(action) + 1))


def test_a_whole_hand_with_the_keyboard_alone(server: str, browser: Browser) -> None:
    made = httpx.post(f"{server}/api/tables", json={
        "game": "ceki", "seats": [{"kind": "human"}, {"kind": "bot", "level": "heuristic"}],
        "hands": 1, "bot_pace": 0,
    }, timeout=30).json()  # fmt: skip
    page = _page(browser, PHONE)
    page.goto(server + made["links"]["0"])
    expect(page.locator("#name-page")).to_be_visible()
    for _ in range(40):  # Tab to the name field, type, Enter
        if page.evaluate("document.activeElement && document.activeElement.id") == "name":
            break
        page.keyboard.press("Tab")
    page.keyboard.type("Nenek")
    page.keyboard.press("Enter")
    _wait_state(page)
    for _ in range(400):
        if page.locator("#result").evaluate("d => d.open"):
            break
        state = _state(page)
        obs = state["observation"]
        if obs is None or obs["current"] != state["seat"] or not obs["legal"]:
            _wait_change(page, state["version"])
            continue
        _key_for(page, state, _choose(state))
        _wait_change(page, state["version"])
    else:
        raise AssertionError("the hand did not end")
    assert _state(page)["over"]
    page.keyboard.press("Escape")  # the result closes
    expect(page.locator("#result")).not_to_have_attribute("open", "")
    assert not page.errors  # type: ignore[attr-defined]


def test_the_text_size_is_kept_and_reactions_draw_without_an_emoji_font(
    server: str, browser: Browser, shots: Path
) -> None:
    made = httpx.post(f"{server}/api/tables", json={
        "game": "ceki", "seats": [{"kind": "human"}, {"kind": "human"},
                                  {"kind": "bot", "level": "heuristic"}],
    }, timeout=30).json()  # fmt: skip
    page = _page(browser, PHONE)
    _sit(page, server + made["links"]["0"], "Nenek")
    normal = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('#seats .name')).fontSize)"
    )
    page.click("#prefs-btn")
    page.select_option("#text-size", "larger")
    page.reload()
    _wait_state(page)
    assert page.evaluate("localStorage.getItem('cherki:text-size')") == "larger"
    assert page.locator("#text-size").input_value() == "larger"
    larger = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('#seats .name')).fontSize)"
    )
    assert larger >= normal * 1.3 and larger >= 17, (normal, larger)
    page.goto(server + "/")  # every page keeps it
    expect(page.locator("#text-size")).to_have_value("larger")
    # each reaction is a picture, whatever fonts the machine has
    page.goto(server + made["links"]["0"])
    _wait_state(page)
    buttons = page.locator(".emote-btn")
    expect(buttons).to_have_count(6)
    for i in range(6):
        box = buttons.nth(i).locator("svg").bounding_box()
        assert box is not None and box["width"] >= 16 and box["height"] >= 16
    buttons.first.click()
    expect(page.locator(".chat-emote svg")).to_have_count(1)
    # at the larger size everything still fits the phone's width
    right = (
        "s => Math.max(...[...document.querySelectorAll(s)]"
        ".map(e => e.getBoundingClientRect().right))"
    )
    for selector in ("#chat-form", ".emotes", "#seats", "#actions", ".topbar"):
        assert page.evaluate(f"({right})({selector!r})") <= PHONE["width"] + 1, selector
    page.screenshot(path=shots / "web-table-larger-phone.png")
    assert not page.errors  # type: ignore[attr-defined]


def test_chot_shows_the_partners_and_the_bangkong_at_the_table(
    server: str, browser: Browser, shots: Path
) -> None:
    made = httpx.post(f"{server}/api/tables", json={
        "game": "chot", "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "heuristic"}] * 3,
        "bot_pace": 0,
    }, timeout=30).json()  # fmt: skip
    for screen, name in ((DESKTOP, "web-chot.png"), (PHONE, "web-chot-phone.png")):
        page = _page(browser, screen)
        _sit(page, server + made["links"]["0"], "Nenek")
        seats = page.locator("#seats .seat")
        expect(seats).to_have_count(4)
        expect(seats.nth(0)).to_contain_text("partners with Bot 3 (heuristic)")
        expect(seats.nth(1)).to_contain_text("partners with Bot 4 (heuristic)")
        expect(page.locator("#centre")).to_contain_text("Bangkong completed (of 3")
        expect(page.locator("#centre")).to_contain_text("Tokens of")
        page.screenshot(path=shots / name)
        assert not page.errors  # type: ignore[attr-defined]
        page.close()
