"""cherki behind a real reverse proxy: ``cherki serve --public-url … --forwarded-allow-ips
127.0.0.1`` as a real process, Debian's nginx in front of it running the documented
configuration (docs/deploy.md: ``docs/deploy/cherki-proxy.conf``), and Debian's Chromium
driven by Playwright through the proxy, WebSockets included.

* a table made in the lobby through the proxy, its seat's link opened, a hand played by
  clicking; nginx's log shows the seat's WebSocket upgraded through it;
* the links printed and returned are under the public URL, even to a lobby opened on the
  server's own port;
* a page of another origin is refused through the proxy: another name of this machine
  (in Chromium), another site, and DNS rebinding (``Host`` and ``Origin`` both
  ``evil.example``); the public origin is let in;
* ``X-Forwarded-Proto`` is believed from the trusted proxy's address only;
* the documented site (TLS, the redirect to HTTPS) reads (``nginx -t``).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from nginx import SITE_CONF, Proxy, check, free_port, main_conf, nginx_proxy
from playwright.sync_api import Browser, expect
from serverutil import wait_serving
from test_web_e2e import _create_from_lobby, _page, _play_hand, _sit, _state
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

BOTS = ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]


@dataclass(frozen=True)
class Served:
    public: str  # through nginx: the public URL
    direct: str  # cherki serve's own port
    said: str  # what it printed first
    proxy: Proxy


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    db = tmp_path_factory.mktemp("proxy") / "proxy.db"
    port = free_port()
    with nginx_proxy(port) as proxy:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cherki", "serve", "--port", str(port),
             "--database-url", f"sqlite:///{db}", "--public-url", proxy.url,
             "--forwarded-allow-ips", "127.0.0.1"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            env={**os.environ, "COLUMNS": "200"},
        )  # fmt: skip
        direct = f"http://127.0.0.1:{port}"
        try:
            wait_serving(proxy.url, proc)  # through nginx
            assert proc.stdout is not None
            yield Served(proxy.url, direct, proc.stdout.readline().decode(), proxy)
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def _table(base: str) -> dict[str, object]:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3
    made = httpx.post(
        f"{base}/api/tables",
        json={"game": "balik-satu", "seats": seats, "listed": True},
        timeout=30,
    )
    assert made.status_code == 200, made.text
    data: dict[str, object] = made.json()
    return data


def test_a_hand_in_chromium_through_nginx(served: Served, browser: Browser) -> None:
    page = _page(browser)
    seat_url, watch_url = _create_from_lobby(page, served.public, "balik-satu", BOTS)
    assert seat_url.startswith(served.public + "/seat/")
    assert watch_url.startswith(served.public + "/watch/")
    state = _sit(page, seat_url, "Siti")
    assert state["seat"] == 0 and state["game"] == "balik-satu"
    _play_hand(page)  # every turn clicked, each answered over the WebSocket, to the end
    assert page.locator("#result").evaluate("d => d.open")
    assert not page.errors  # type: ignore[attr-defined]
    page.close()  # nginx logs a WebSocket when it closes
    token = seat_url.rsplit("/", 1)[1]
    deadline = time.monotonic() + 10
    while not any(
        f"GET /ws/seat/{token}" in line and '" 101 ' in line
        for line in served.proxy.log().splitlines()
    ):
        assert time.monotonic() < deadline, "the seat's WebSocket did not go through nginx"
        time.sleep(0.1)


def test_links_printed_and_returned_are_under_the_public_url(
    served: Served, browser: Browser
) -> None:
    assert f"cherki is serving at {served.public}/" in served.said, served.said
    made = _table(served.public)
    token, table = made["seats"]["0"], made["table"]  # type: ignore[index]
    assert made["links"] == {"0": f"/seat/{token}"}
    assert made["urls"] == {"0": f"{served.public}/seat/{token}"}
    assert made["watch_page_url"] == f"{served.public}/watch/{table}"
    assert made["watch_url"] == f"ws://127.0.0.1:{served.proxy.port}/ws/watch/{table}"
    listed = httpx.get(f"{served.public}/api/tables", timeout=10).json()
    assert {t["watch_page_url"] for t in listed} >= {f"{served.public}/watch/{table}"}
    # a lobby opened on the server's own port still hands out the public links
    page = _page(browser)
    seat_url, watch_url = _create_from_lobby(page, served.direct, "balik-satu", BOTS)
    assert seat_url.startswith(served.public + "/seat/")
    assert watch_url.startswith(served.public + "/watch/")


def test_another_origin_is_refused_through_nginx(served: Served, browser: Browser) -> None:
    made = _table(served.public)
    token, table = made["seats"]["0"], made["table"]  # type: ignore[index]
    port = served.proxy.port
    path = f"/ws/seat/{token}"
    with connect(f"ws://127.0.0.1:{port}{path}", origin=served.public) as ws:  # type: ignore[arg-type]
        assert json.loads(ws.recv(timeout=30))["type"] == "state"
    with connect(f"ws://127.0.0.1:{port}{path}") as ws:  # no Origin: not a browser
        assert json.loads(ws.recv(timeout=30))["type"] == "state"
    with pytest.raises(InvalidStatus) as refused:
        connect(f"ws://127.0.0.1:{port}{path}", origin="https://evil.example")  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    # DNS rebinding: evil.example's page, its name now pointing at this machine
    rebound = socket.create_connection(("127.0.0.1", port))
    with pytest.raises(InvalidStatus) as refused:
        connect(f"ws://evil.example:{port}{path}", sock=rebound, origin=f"http://evil.example:{port}")  # type: ignore[arg-type]  # fmt: skip
    assert refused.value.response.status_code == 403
    # in Chromium: the proxy reached under another name of this machine serves the page,
    # but its socket is refused and the page never shows the table
    page = _page(browser)
    page.goto(f"http://localhost:{port}/watch/{table}")
    expect(page.locator("body")).to_be_visible()
    page.wait_for_timeout(3000)
    assert page.evaluate("window.cherki ? window.cherki.state() : null") is None
    page.goto(f"{served.public}/watch/{table}")  # the public address: let in
    page.wait_for_function("window.cherki && window.cherki.state() !== null", timeout=15_000)
    assert _state(page)["seat"] is None


def test_forwarded_proto_is_believed_from_the_trusted_proxy_only(served: Served) -> None:
    """A redirect (``/api/tables/`` → ``/api/tables``) is written with the scheme and host
    the request came in under: through nginx, the public address's; straight from
    127.0.0.1 (trusted) claiming HTTPS, ``https``; from 127.0.0.2 (not trusted), ``http``."""
    through = httpx.get(f"{served.public}/api/tables/", timeout=10)
    assert through.status_code == 307
    assert through.headers["location"] == f"{served.public}/api/tables"
    https = {"x-forwarded-proto": "https"}
    trusted = httpx.get(f"{served.direct}/api/tables/", headers=https, timeout=10)
    assert trusted.headers["location"].startswith("https://")
    other = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"))
    with other:
        untrusted = other.get(f"{served.direct}/api/tables/", headers=https, timeout=10)
    assert untrusted.headers["location"].startswith("http://")


def test_the_documented_site_reads(tmp_path: Path) -> None:
    """``nginx -t`` on the documented site, its certificate a self-signed one made here
    and its include this repository's proxy part."""
    live = tmp_path / "live"
    live.mkdir()
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=cards.example.org", "-keyout", str(live / "privkey.pem"),
         "-out", str(live / "fullchain.pem")],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    site = SITE_CONF.read_text(encoding="utf-8")
    assert "include /etc/nginx/snippets/cherki-proxy.conf;" in site
    site = site.replace("/etc/letsencrypt/live/cards.example.org", str(live))
    site = site.replace(
        "/etc/nginx/snippets/cherki-proxy.conf", str(SITE_CONF.parent / "cherki-proxy.conf")
    )
    (tmp_path / "site.conf").write_text(site, encoding="utf-8")
    conf = tmp_path / "nginx.conf"
    conf.write_text(main_conf(tmp_path, f"    include {tmp_path / 'site.conf'};"), encoding="utf-8")
    result = check(conf, tmp_path)
    assert result.returncode == 0, result.stderr
