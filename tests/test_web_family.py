"""The family table in Debian's Chromium (issue 39): the host reads where the links reach;
the money panel at 4 and 14 seats on a 360 px phone; a replay opened right after the server
starts shows that it is loading. Screenshots go to ``$CHERKI_WEB_SHOTS`` (docs/img/)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect
from test_web_e2e import PHONE, _create_from_lobby, _host_link, _page
from test_web_e2e import server as server  # a fixture
from test_web_e2e import shots as shots  # a fixture


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
