"""The pages in three languages, end to end in Debian's Chromium (issue 24): the browser's
own language chooses the first one (Malay here), the picker switches a table to
Indonesian (the page's words and the server's log and status line), a reload remembers
it, and the table page in Malay is screenshot (``CHERKI_WEB_SHOTS=docs/img`` keeps it)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Route, expect
from test_web_e2e import PHONE, _create_from_lobby, _page, _sit, _wait_state, server, shots

__all__ = ["server", "shots"]  # the fixtures, shared with the other browser tests


def test_a_person_switches_the_table_to_their_language_and_it_is_remembered(
    browser: Browser, server: str, shots: Path
) -> None:
    # the browser says Malay: the lobby opens in Malay
    context = browser.new_context(locale="ms-MY", viewport={"width": 1280, "height": 860})
    lobby = context.new_page()
    lobby.goto(server + "/")
    expect(lobby.locator("#new-title")).to_have_text("Buka meja baharu")
    expect(lobby.locator("html")).to_have_attribute("lang", "ms")
    expect(lobby.locator("#lang")).to_have_value("ms")
    expect(lobby.locator("#seats .seat-row label").first).to_have_text("Pemain 1")
    context.close()

    # an English browser: the table in English, then switched to Indonesian
    page = _page(browser)
    seat, _ = _create_from_lobby(page, server, "balik-satu", ["human", *["bot:heuristic"] * 3])
    expect(page.locator("html")).to_have_attribute("lang", "en")
    _sit(page, seat, "Mei")
    expect(page.locator("#log li").first).to_contain_text("You start")
    expect(page.locator("#status-text")).to_contain_text("Your turn")
    page.select_option("#lang", "id")
    page.wait_for_load_state()
    _wait_state(page)
    expect(page.locator("html")).to_have_attribute("lang", "id")
    expect(page.locator("#log li").first).to_contain_text("Anda mulai")  # the server's words
    expect(page.locator("#status-text")).to_contain_text("Giliran Anda")
    expect(page.locator(".side section:not(.hidden) h2").first).to_have_text("Apa yang terjadi")
    expect(page.locator("#hand-count")).to_contain_text("kartu")
    expect(page.locator("#actions")).to_contain_text("Pilih satu kartu di tangan Anda")
    page.locator("#hand .card-btn.playable").first.click()  # its discards, as buttons
    labels = page.locator("#actions button[data-action]").evaluate_all(
        "ns => ns.map(n => n.getAttribute('aria-label'))"
    )
    assert labels and all(x.startswith("Buang ") for x in labels), labels

    page.reload()  # remembered in this browser
    _wait_state(page)
    expect(page.locator("#lang")).to_have_value("id")
    expect(page.locator("#status-text")).to_contain_text("Giliran Anda")

    page.select_option("#lang", "ms")
    page.wait_for_load_state()
    _wait_state(page)
    expect(page.locator("#log li").first).to_contain_text("Anda bermula")
    expect(page.locator("#status-text")).to_contain_text("Giliran anda")
    # the games' own terms stay, explained in the person's language
    page.click("#glossary summary")
    expect(page.locator("#glossary")).to_contain_text("Istilah permainan")
    expect(page.locator("#glossary dt").first).to_have_text("tan")
    expect(page.locator("#glossary dd").first).to_contain_text("panggilan")
    page.screenshot(path=str(shots / "web-table-ms.png"))
    assert not page.errors  # type: ignore[attr-defined]
    page.close()

    # on a phone, in Indonesian: the longer words and the picker fit without sideways scrolling
    phone = _page(browser, PHONE)
    phone.goto(server + "/")
    phone.evaluate("localStorage.setItem('cherki:lang', 'id')")
    phone.goto(seat)
    _wait_state(phone)
    expect(phone.locator("#status-text")).to_contain_text("Giliran Anda")
    wide = phone.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert wide <= 0, wide
    phone.screenshot(path=str(shots / "web-table-id-phone.png"))
    phone.goto(server + "/")
    expect(phone.locator("#new-title")).to_have_text("Buka meja baru")
    assert phone.evaluate("document.scrollingElement.scrollWidth - window.innerWidth") <= 0
    phone.screenshot(path=str(shots / "web-lobby-id-phone.png"))
    assert not phone.errors  # type: ignore[attr-defined]


def test_a_registered_policy_is_named_in_words_in_the_lobby(browser: Browser, server: str) -> None:
    """A policy seat (``policy:NAME``, offered by a server run with ``CHERKI_POLICIES``) reads
    "a policy bot (NAME)" in each language, not its level's raw name. The games' list is
    served with a policy level added, as such a server sends it."""
    page = _page(browser)

    def with_policy(route: Route) -> None:
        response = route.fetch()
        games = response.json()
        for g in games:
            g["levels"] = [*g["levels"], "policy:ppo"]
        route.fulfill(response=response, json=games)

    page.route("**/api/games*", with_policy)
    for lang, words in (
        ("en", "a policy bot (ppo)"),
        ("ms", "bot polisi (ppo)"),
        ("id", "bot kebijakan (ppo)"),
    ):
        page.goto(server + "/")
        page.evaluate(f"localStorage.setItem('cherki:lang', '{lang}')")
        page.goto(server + "/")
        options = page.locator("select#seat-1 option")
        expect(options.last).to_have_text(words)
        assert "policy:ppo" not in options.all_inner_texts()[-1]
    assert not page.errors  # type: ignore[attr-defined]
    page.close()
