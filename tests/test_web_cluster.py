"""A person's page in Chromium at ``cherki serve --workers 2`` on a throwaway PostgreSQL:
the worker that owns the table is killed (``kill -9``); the page reconnects by itself to
the same table (now owned by the other worker, started again by the
supervisor meanwhile), and the person plays on with the bots."""

from __future__ import annotations

import os
import signal
import subprocess
import time

import httpx
from cluster import free_port, owner_of, pid_of, table_body, workers
from pg import postgres_server
from playwright.sync_api import Browser, expect


def test_a_page_follows_its_table_when_its_worker_dies(browser: Browser) -> None:
    with postgres_server() as url:
        port = free_port()
        proc = workers(url, port, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://localhost:{port}"
            made = httpx.post(base + "/api/tables", json=table_body(bot_pace=0.2), timeout=30)
            table = made.json()
            page = browser.new_page()
            page.goto(f"{base}/seat/{table['seats']['0']}")
            page.fill("#name", "Siti")
            page.click("#name-form button[type=submit]")
            page.wait_for_function("window.cherki && window.cherki.state() !== null")
            before = page.evaluate("window.cherki.state().version")
            lease = owner_of(url, table["table"])
            assert lease is not None
            os.kill(pid_of(lease[0]), signal.SIGKILL)
            deadline = time.monotonic() + 60
            while (now := owner_of(url, table["table"])) is None or now[0] == lease[0]:
                assert time.monotonic() < deadline, "nobody took the table over"
                time.sleep(0.1)
            # the person's turn (they start): once the page is back, a discard, then the
            # bots play on at the new owner
            mine = "(s => s.observation && s.observation.current === s.seat)(window.cherki.state())"
            while page.evaluate("window.cherki.state().version") <= before + 2:
                assert time.monotonic() < deadline, "the table did not move on"
                if page.locator("#conn").is_hidden() and page.evaluate(mine):
                    page.keyboard.press("ArrowRight")
                    page.keyboard.press("Enter")
                time.sleep(1.0)
            expect(page.locator("#conn")).to_be_hidden()
            expect(page.locator("#log")).to_contain_text("You discard")
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=60)
