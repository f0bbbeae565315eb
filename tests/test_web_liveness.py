"""The page's side of liveness (``static/table.js``, docs/server.md "Liveness") in Debian's
Chromium, against a real server: a socket the server has gone silent on is given up after
5 s and a new one made (here the page is made deaf to its socket's messages, which is what
a stalled process or a pulled cable looks like from the page); a page whose own timers
stood still (a sleeping phone, a background tab: Playwright's clock jumps a minute ahead,
firing each due timer once) pings before it judges and keeps its socket, which did answer.
The server and the helpers are the browser suite's (:mod:`test_web_e2e`)."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, Page
from test_web_e2e import _page, _sit, _wait_state
from test_web_e2e import server as server  # a fixture

#: counts the page's sockets, and lets a test make it deaf to what they say (their
#: messages are not handed on to the page while ``window.__deaf`` is set)
DEAF = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = 0;
  window.__deaf = false;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      window.__sockets += 1;
    }
    addEventListener(kind, handler, ...rest) {
      if (kind !== "message") return super.addEventListener(kind, handler, ...rest);
      return super.addEventListener(kind, (event) => {
        if (!window.__deaf) handler(event);
      }, ...rest);
    }
  };
})();
"""


def _seated(browser: Browser, server: str, *, clock: bool = False) -> Page:
    """A person's page at a Balik Satu table of one person and three bots that wait for
    them (the bots' pace is slow, so that the table says little on its own); with
    ``clock``, the page's time is Playwright's to move."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "heuristic"}] * 3
    body = {"game": "balik-satu", "seats": seats, "hands": 1, "bot_pace": 3, "pause": False}
    made = httpx.post(server + "/api/tables", json=body, timeout=30)
    assert made.status_code == 200, made.text
    page = _page(browser)
    page.add_init_script(DEAF)
    if clock:  # before the page's scripts run, so that every timer of theirs is the clock's
        page.clock.install()
    _sit(page, server + made.json()["links"]["0"], "Ann")
    return page


def _sockets(page: Page) -> int:
    return int(page.evaluate("window.__sockets"))


def test_a_silent_socket_is_given_up_within_five_seconds_and_another_made(
    server: str, browser: Browser
) -> None:
    page = _seated(browser, server, clock=True)
    assert _sockets(page) == 1
    page.wait_for_timeout(3000)  # pings answered: the socket is kept
    assert _sockets(page) == 1
    # the page's own time, moved on by Playwright through every timer in turn (a loaded
    # machine's slowness does not move it): 5 s of silence, looked at every half second.
    # It last heard the server up to a ping's 2 s before it went deaf, so 2 s on it has
    # heard nothing for less than 5 s, and 6 s on for more
    page.evaluate("window.__deaf = true")
    page.clock.run_for(2000)
    assert _sockets(page) == 1  # not yet given up
    page.clock.run_for(4000)
    page.wait_for_function("window.__sockets > 1", timeout=15_000)  # given up, another made
    page.evaluate("window.__deaf = false")
    _wait_state(page)
    page.wait_for_timeout(3000)
    assert _sockets(page) == 2  # the new socket answers: kept
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_page_whose_timers_stood_still_pings_before_it_judges(
    server: str, browser: Browser
) -> None:
    page = _seated(browser, server, clock=True)
    page.wait_for_timeout(1000)
    assert _sockets(page) == 1
    page.clock.fast_forward("01:00")  # a minute asleep: each due timer fires once
    page.wait_for_timeout(3000)  # the ping it sent on waking is answered
    assert _sockets(page) == 1
    page.clock.fast_forward("01:00")
    page.wait_for_timeout(3000)
    assert _sockets(page) == 1
    assert page.errors == []  # type: ignore[attr-defined]
