"""A person's page in Chromium, through Debian's nginx (the documented proxy part) in front
of two ``cherki serve`` processes on one PostgreSQL, when the process serving the page
stops (SIGSTOP: a stalled VM, a long swap) and stays stopped. The stopped process's kernel
still holds the page's socket open, so only the page's own liveness can notice: it hears
nothing (no pong) for 5 s, gives the socket up, connects again through nginx and reaches
the process that took the table over, and the person plays on, all before the stopped
process wakes. No state older than one the page was shown comes after it.

First the table's owner is stopped (its table moves to the other process, where the page
is after that pause whichever process it reached before), then that other process, which
is then surely the one serving the page."""

from __future__ import annotations

import os
import signal
import time

import httpx
from cluster import free_port, owner_of, pid_of, serving, table_body
from nginx import nginx_proxy
from pg import postgres_server
from playwright.sync_api import Browser, Page, expect

#: seconds each process stays stopped: longer than the page's silence (5.5 s at most) twice over
#: (its first new connection may reach the stopped process through nginx, and hang) and
#: the takeover
STOPPED = 20.0

#: every state the page takes in, in order: the messages of sockets it has given up (it
#: closes them) are not shown, and not counted; how many sockets it opened
WATCH = """
(() => {
  const Native = window.WebSocket;
  window.__shown = [];
  window.__sockets = 0;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      window.__sockets += 1;
      this.__given_up = false;
      this.addEventListener("message", (event) => {
        if (this.__given_up) return;
        try {
          const msg = JSON.parse(event.data);
          if (msg.type === "state") window.__shown.push(msg.version);
        } catch {}
      });
    }
    close(...args) {
      this.__given_up = true;
      return super.close(...args);
    }
  };
})();
"""

MINE = "(s => s && s.observation && s.observation.current === s.seat)(window.cherki.state())"


def _version(page: Page) -> int:
    return int(page.evaluate("window.cherki.state().version"))


def _plays_on(page: Page, past: int, until: float, why: str) -> None:
    """The table moves past version ``past`` (the person playing their turns) before
    ``until`` (monotonic)."""
    while _version(page) <= past:
        assert time.monotonic() < until, why
        if page.locator("#conn").is_hidden() and page.evaluate(MINE):
            buttons = page.locator("#actions button[data-action]:not([disabled])")
            if buttons.count():  # a draw, a take, a call: the first the bar offers
                buttons.first.click()
            else:  # a discard: a card picked with the keys, then Enter
                page.evaluate("document.activeElement && document.activeElement.blur()")
                page.keyboard.press("ArrowRight")
                page.keyboard.press("Enter")
        time.sleep(0.5)


def test_a_page_through_nginx_leaves_a_stopped_process_and_plays_on(browser: Browser) -> None:
    public = free_port()  # nginx's: the address the page is opened at
    with (
        postgres_server() as url,
        serving(
            url,
            2,
            "--public-url",
            f"http://127.0.0.1:{public}",
            "--forwarded-allow-ips",
            "127.0.0.1",
        ) as procs,  # fmt: skip
        nginx_proxy(*(p.port for p in procs), port=public) as proxy,
    ):
        made = httpx.post(
            proxy.url + "/api/tables", json=table_body(bot_pace=0.2, hands=20), timeout=30
        )
        assert made.status_code == 200, made.text
        table = made.json()
        pids = [p.proc.pid for p in procs if p.proc is not None]
        page = browser.new_page()
        page.add_init_script(WATCH)
        page.goto(f"{proxy.url}/seat/{table['seats']['0']}")
        page.fill("#name", "Siti")
        page.click("#name-form button[type=submit]")
        page.wait_for_function("window.cherki && window.cherki.state() !== null")
        _plays_on(page, _version(page) + 1, time.monotonic() + 60, "the table did not start")
        lease = owner_of(url, table["table"])
        assert lease is not None
        first = pid_of(lease[0])
        try:
            for n, pid in enumerate((first, pids[1 - pids.index(first)])):
                sockets = int(page.evaluate("window.__sockets"))
                at = _version(page)
                os.kill(pid, signal.SIGSTOP)
                stopped = time.monotonic()
                _plays_on(
                    page,
                    at + 2,
                    stopped + STOPPED,
                    f"pause {n}: the page did not play on while process {pid} was stopped",
                )
                took = time.monotonic() - stopped
                if n == 1:  # the page was served by the stopped process: it left it
                    assert int(page.evaluate("window.__sockets")) > sockets
                now = owner_of(url, table["table"])
                assert now is not None and pid_of(now[0]) != pid
                expect(page.locator("#conn")).to_be_hidden()
                print(f"pause {n}: the page played on after {took:.1f} s")
                time.sleep(max(0.0, stopped + STOPPED - time.monotonic()))
                os.kill(pid, signal.SIGCONT)
                _plays_on(page, _version(page) + 2, time.monotonic() + 30, "after the wake")
        finally:
            for pid in pids:  # never leave a process stopped
                os.kill(pid, signal.SIGCONT)
        shown = page.evaluate("window.__shown")
        assert shown == sorted(shown), shown  # never an older state after a newer one
        expect(page.locator("#log")).to_contain_text("You discard")
        page.close()
