"""Names for people in Debian's Chromium (issue 24): the lobby's presets and options by
their names, the identifier beside in small type; seats numbered from 1 on the lobby, the
host's page and the table; the site's icon linked from the pages and served."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect
from serverutil import wait_serving


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server on a free port of 127.0.0.1; its base URL."""
    db = tmp_path_factory.mktemp("names") / "web.db"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "cherki.server.app:app_from_env",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        env={**os.environ, "CHERKI_DATABASE_URL": f"sqlite:///{db}"},
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_serving(base)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_names_for_people_seats_from_1_and_the_icon(server: str, browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.wait_for_selector("#game option[value='balik-satu']", state="attached")
    # the preset by its name, its identifier beside the summary in small type
    expect(page.locator("#preset option:checked")).to_have_text("Singapore (Pwee, 2003)")
    expect(page.locator("#preset-help .ident")).to_have_text("pwee")
    page.click("#options-box summary")
    row = page.locator(".option[data-name='kandang_tangan_multiplier']")
    expect(row.locator("label")).to_have_text("Kandang tangan multiplies the score by")
    expect(row.locator(".ident")).to_have_text("kandang_tangan_multiplier")
    assert row.locator(".ident").evaluate("e => parseFloat(getComputedStyle(e).fontSize)") < 14
    # the seats from 1
    expect(page.locator("#seats .who")).to_have_text(["Seat 1", "Seat 2", "Seat 3", "Seat 4"])
    page.select_option("#seat-1", "human")
    page.click("#create-btn")
    expect(page.locator("#links .link-row").first).to_be_visible()
    expect(page.locator("#links .link-row .who")).to_have_text(
        ["Host", "Seat 1", "Seat 2", "Spectators"]
    )
    codes = page.locator("#links .link-row code")
    host, first = codes.nth(0).inner_text(), codes.nth(1).inner_text()
    # the host's page: people's seats and bots' alike from 1
    page.goto(host)
    expect(page.locator("#seats .who")).to_have_text(
        ["Seat 1", "Seat 2", "Seat 3", "Seat 4", "Spectators"]
    )
    # the table: a seat no one has taken yet, and the bots, by their numbers from 1
    page.goto(first)
    page.fill("#name", "Ann")
    page.click("#name-form button[type=submit]")
    page.wait_for_function("window.cherki && window.cherki.state() !== null")
    names = page.evaluate("window.cherki.state().names")
    assert names == ["Ann", "Seat 2", "Bot 3 (heuristic)", "Bot 4 (heuristic)"]
    # the icon every page links is served
    icons = page.evaluate(
        "Promise.all([...document.querySelectorAll('link[rel~=icon], link[rel=apple-touch-icon]')]"
        ".map(l => fetch(l.href).then(r => [l.getAttribute('href'), r.status,"
        " r.headers.get('content-type')])))"
    )
    assert sorted(icons) == [
        ["/apple-touch-icon.png", 200, "image/png"],
        ["/favicon.ico", 200, "image/x-icon"],
        ["/favicon.svg", 200, "image/svg+xml"],
    ]
    assert not errors, errors
    page.close()
