"""Hints that say why, the scoring list and the rules pages in Debian's Chromium (issue 37):
the hint with its reasons at a table whose hints are on, the scoring list behind its button
at a Balik Satu and a Ceki table, each game's rules page in English and Malay (no English
left on the Malay page but the quotes and citations of the sources, marked as such), at
desktop and phone size. ``CHERKI_WEB_SHOTS=docs/img`` keeps the screenshots."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from test_web_e2e import PHONE, _page, _sit, server, shots

from cherki.games import GAMES

__all__ = ["server", "shots"]  # the fixtures, shared with the other browser tests


def _table(base: str, game: str, **body: Any) -> dict[str, Any]:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "heuristic"}]
    data = {"game": game, "seats": seats, "bot_pace": 0, **body}
    made = httpx.post(f"{base}/api/tables", json=data, timeout=30)
    assert made.status_code == 200, made.text
    out: dict[str, Any] = made.json()
    return out


def _seat(page: Page, base: str, game: str, **body: Any) -> dict[str, Any]:
    made = _table(base, game, **body)
    return _sit(page, base + made["links"]["0"], "Mei")


def test_the_hint_says_why_at_a_table_whose_hints_are_on(
    server: str, browser: Browser, shots: Path
) -> None:
    for size, name in ((None, "web-hint.png"), (PHONE, "web-hint-phone.png")):
        page = _page(browser) if size is None else _page(browser, size)
        state = _seat(page, server, "balik-satu", hints=True)
        assert state["settings"]["hints"] is True
        page.click("#hint-btn")
        hint = page.locator("#hint")
        expect(hint).to_contain_text("Your hand:")
        expect(hint).to_contain_text("The heuristic bot would play:")
        expect(hint).to_contain_text("Why:")
        text = hint.inner_text()
        assert re.search(r"Discard \w\w: keeps \d+ sets? \(\d+ mata\); breaks ", text), text
        hint.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / name), full_page=size is None)
        assert not page.errors  # type: ignore[attr-defined]
        page.close()


def test_a_free_table_has_hints_on_and_a_table_for_money_off(server: str) -> None:
    """A table that plays for nothing (a practice table) gives hints; one for money, by
    default, does not (its host may turn them on)."""
    free = _table(server, "balik-satu", options={"cents_per_point": 0}, listed=True)
    money = _table(server, "balik-satu", listed=True)
    listed = {t["table"]: t for t in httpx.get(f"{server}/api/tables", timeout=10).json()}
    assert listed[free["table"]]["hints"] is True
    assert listed[money["table"]]["hints"] is False


@pytest.mark.parametrize(
    ("game", "lang", "expected"),
    [
        ("balik-satu", "en", "Kandang: ceki won on your own draw"),
        ("ceki", "ms", "Kemenangan tiga kali ganda"),
    ],
)
def test_the_scoring_list_is_a_tap_away(
    server: str, browser: Browser, shots: Path, game: str, lang: str, expected: str
) -> None:
    page = _page(browser)
    page.goto(server + "/")
    page.evaluate(f"localStorage.setItem('cherki:lang', '{lang}')")
    _seat(page, server, game)
    if not page.locator("#scoring-btn").is_visible():  # behind the settings button
        page.click("#prefs-btn")
    page.click("#scoring-btn")
    dialog = page.locator("#scoring")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(expected)
    expect(page.locator("#rules-link")).to_have_attribute("href", f"/rules/{game}")
    page.screenshot(path=str(shots / f"web-scoring-{game}.png"))
    page.click("#scoring-close")
    expect(dialog).to_be_hidden()
    assert not page.errors  # type: ignore[attr-defined]
    page.close()
    phone = _page(browser, PHONE)
    phone.goto(server + "/")
    phone.evaluate(f"localStorage.setItem('cherki:lang', '{lang}')")
    _seat(phone, server, game)
    phone.click("#prefs-btn")
    phone.click("#scoring-btn")
    expect(phone.locator("#scoring")).to_contain_text(expected)
    phone.screenshot(path=str(shots / f"web-scoring-{game}-phone.png"))
    phone.close()


#: English words that would give an untranslated sentence away on a Malay page
ENGLISH = re.compile(
    r"\b(the|and|with|each|every|players?|cards?|wins?|which|when|your|scores?|rules?)\b",
    re.IGNORECASE,
)


def _own_words(page: Page) -> str:
    """The page's text less the sources' quotes and citations (marked ``lang=en``)."""
    text: str = page.evaluate(
        """() => {
          const root = document.querySelector('#rules').cloneNode(true);
          root.querySelectorAll('[lang=en], code').forEach((n) => n.remove());
          return root.innerText;
        }"""
    )
    return text


@pytest.mark.parametrize("game", list(GAMES))
def test_each_games_rules_page_in_english_and_malay(
    server: str, browser: Browser, shots: Path, game: str
) -> None:
    page = _page(browser)
    page.goto(f"{server}/rules/{game}")
    expect(page.locator("#rules h1")).to_contain_text("Rules of")
    if game == "balik-satu":
        expect(page.locator("#about")).to_contain_text("five sets")
        expect(page.locator("#quotes blockquote").first).to_contain_text("five sets of three")
        expect(page.locator("#presets-table")).to_contain_text("Ayam bonus")
        expect(page.locator("#words")).to_contain_text("winning hand")
        expect(page.locator("#words")).not_to_contain_text("olo")
        expect(page.locator("#sources")).to_contain_text("Chiki Cards")
        page.screenshot(path=str(shots / "web-rules.png"), full_page=True)
    assert not page.errors  # type: ignore[attr-defined]
    page.evaluate("localStorage.setItem('cherki:lang', 'ms')")
    page.reload()
    expect(page.locator("#rules h1")).to_contain_text("Peraturan")
    own = _own_words(page)
    for title in ("The Babas", "Gateway to Old School Games"):  # the books' own titles
        own = own.replace(title, "")
    own = re.sub(r"\b[A-Z]+-[A-Z0-9-]+\b", "", own)  # the rules' ids (R-WIN), as cited
    found = ENGLISH.findall(own)
    assert not found, (found, own)
    if game == "balik-satu":
        expect(page.locator("#quotes .translation").first).to_contain_text("lima set")
        phone = _page(browser, PHONE)
        phone.goto(server + "/")
        phone.evaluate("localStorage.setItem('cherki:lang', 'ms')")
        phone.goto(f"{server}/rules/{game}")
        expect(phone.locator("#rules h1")).to_contain_text("Peraturan")
        phone.screenshot(path=str(shots / "web-rules-ms-phone.png"))
        phone.close()
    page.close()


def test_a_rules_page_of_no_game_says_so(server: str) -> None:
    assert httpx.get(f"{server}/rules/nosuch", timeout=10).status_code == 404
    assert httpx.get(f"{server}/api/rulebook/nosuch", timeout=10).status_code == 404
