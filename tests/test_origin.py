"""Where the server is reached (cherki.server.origin): public URLs read and refused, the
origins whose pages may open a WebSocket (DNS rebinding refused), the absolute links, and
the same through the app (the test client)."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cherki.core.errors import CherkiError
from cherki.server import origin as reach
from cherki.server.app import create_app
from cherki.server.store import Store


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("https://cards.example.org", "https://cards.example.org"),
        ("https://Cards.Example.org/", "https://cards.example.org"),
        ("HTTPS://cards.example.org:443", "https://cards.example.org"),
        ("http://cards.example.org:80/", "http://cards.example.org"),
        ("https://cards.example.org:8443", "https://cards.example.org:8443"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("http://[::1]:8080/", "http://[::1]:8080"),
        ("  https://cards.example.org  ", "https://cards.example.org"),
        ("https://kartu.bücher.example", "https://kartu.xn--bcher-kva.example"),
    ],
)
def test_a_public_url_is_kept_as_its_origin(text: str, kept: str) -> None:
    assert reach.public_url(text) == kept


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("cards.example.org", "https://"),
        ("ftp://cards.example.org", "https://"),
        ("ws://cards.example.org", "https://"),
        ("https://", "names no host"),
        ("https:///cards", "names no host"),
        ("https://cards.example.org:99999", "not a URL"),
        ("https://cards.example.org:port", "not a URL"),
        ("https://me:pw@cards.example.org", "user name"),
        ("https://cards.example.org/?x=1", "query"),
        ("https://cards.example.org/#top", "fragment"),
        ("https://cards.example.org?", "query"),
        ("https://cards.example.org/cards", "path"),
        ("", "https://"),
    ],
)
def test_a_wrong_public_url_is_one_line_that_says_why(text: str, says: str) -> None:
    with pytest.raises(CherkiError) as err:
        reach.public_url(text)
    message = str(err.value)
    assert says in message and "\n" not in message


def test_with_a_public_url_only_its_origin_is_allowed() -> None:
    allowed = reach.allowed_origins("https://cards.example.org/", "127.0.0.1", 8000)
    assert allowed == {"https://cards.example.org"}
    assert reach.origin_ok("https://cards.example.org", allowed)
    assert reach.origin_ok("https://CARDS.example.org:443", allowed)
    for other in [
        "http://cards.example.org",  # not the public scheme
        "https://cards.example.org:8443",
        "http://127.0.0.1:8000",  # the server's own port, past the proxy
        "http://localhost:8000",
        "https://evil.example",
        "https://cards.example.org.evil.example",
        "null",
        "",
        "garbage",
    ]:
        assert not reach.origin_ok(other, allowed), other
    assert reach.origin_ok(None, allowed)  # not a browser


def test_without_one_the_loopback_and_bound_addresses_on_the_port() -> None:
    allowed = reach.allowed_origins(None, "192.168.1.20", 8000)
    assert allowed == {
        "http://localhost:8000",
        "http://127.0.0.1:8000",
        "http://[::1]:8000",
        "http://192.168.1.20:8000",
    }
    everywhere = reach.allowed_origins(None, "0.0.0.0", 8080, lan=["10.0.0.7"])
    assert "http://10.0.0.7:8080" in everywhere and "http://localhost:8080" in everywhere
    assert reach.allowed_origins(None, "::", 8080, lan=["10.0.0.7"]) == everywhere
    assert not reach.origin_ok("http://localhost:9000", everywhere)  # another port
    assert not reach.origin_ok("https://localhost:8080", everywhere)


def test_a_rebound_name_is_refused() -> None:
    """DNS rebinding: evil.example's page, its name now pointing at us, sends Host and
    Origin alike: ``evil.example:8000``. The Host is never what the Origin is checked
    against."""
    allowed = reach.connection_origins(None, ("127.0.0.1", 8000))
    assert not reach.origin_ok("http://evil.example:8000", allowed)
    assert reach.origin_ok("http://localhost:8000", allowed)
    mapped = reach.connection_origins(None, ("::ffff:192.168.1.20", 8000))
    assert reach.origin_ok("http://192.168.1.20:8000", mapped)
    assert reach.connection_origins(None, None) == frozenset()  # a Unix socket: no page
    assert reach.connection_origins("https://cards.example.org", None) == {
        "https://cards.example.org"
    }


def test_absolute_links_under_the_public_url() -> None:
    made: dict[str, Any] = {
        "table": "t1",
        "links": {"0": "/seat/abc", "2": "/seat/def"},
        "watch": "/ws/watch/t1",
        "watch_page": "/watch/t1",
    }
    assert reach.absolute_links("https://cards.example.org/", made) == {
        "urls": {
            "0": "https://cards.example.org/seat/abc",
            "2": "https://cards.example.org/seat/def",
        },
        "watch_page_url": "https://cards.example.org/watch/t1",
        "watch_url": "wss://cards.example.org/ws/watch/t1",
    }
    plain = reach.absolute_links("http://127.0.0.1:8080", {"watch_page": "/watch/t1"})
    assert plain == {"watch_page_url": "http://127.0.0.1:8080/watch/t1"}
    assert reach.absolute_links("http://h:1", {"watch": "/ws/watch/t"}) == {
        "watch_url": "ws://h:1/ws/watch/t"
    }


def test_the_lan_address_is_found_without_sending_and_falls_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    found = reach.lan_address()
    socket.inet_aton(found)  # an IPv4 address, whatever this machine's network

    class NoRoute:
        def __init__(self, *_: Any) -> None:
            pass

        def __enter__(self) -> NoRoute:
            return self

        def __exit__(self, *_: Any) -> None:
            pass

        def connect(self, _: Any) -> None:
            raise OSError("network is unreachable")

    monkeypatch.setattr(reach.socket, "socket", NoRoute)
    monkeypatch.setattr(reach.socket, "gethostbyname", lambda _: "192.168.7.9")
    assert reach.lan_address() == "192.168.7.9"
    monkeypatch.setattr(reach.socket, "gethostbyname", lambda _: "127.0.1.1")
    assert reach.lan_address() == "127.0.0.1"

    def unknown(_: str) -> str:
        raise socket.gaierror("unknown host")

    monkeypatch.setattr(reach.socket, "gethostbyname", unknown)
    assert reach.lan_address() == "127.0.0.1"


# -- through the app (the test client's connections come from "testserver", port 80) ---------
SEATS = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3


def test_the_app_returns_absolute_links_and_checks_the_public_origin(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'o.db'}")
    app = create_app(store, public_url="https://cards.example.org/")
    with TestClient(app) as client:
        body = {"game": "balik-satu", "seats": SEATS, "listed": True}
        made = client.post("/api/tables", json=body).json()
        table, token = made["table"], made["seats"]["0"]
        assert made["links"] == {"0": f"/seat/{token}"}  # the pages' relative links stay
        assert made["urls"] == {"0": f"https://cards.example.org/seat/{token}"}
        assert made["watch_page_url"] == f"https://cards.example.org/watch/{table}"
        assert made["watch_url"] == f"wss://cards.example.org/ws/watch/{table}"
        listed = client.get("/api/tables").json()
        assert listed[0]["watch_page_url"] == f"https://cards.example.org/watch/{table}"
        ok = {"origin": "https://cards.example.org", "host": "127.0.0.1:8000"}
        with client.websocket_connect(f"/ws/seat/{token}", headers=ok) as ws:
            assert ws.receive_json()["type"] == "state"
        with client.websocket_connect(f"/ws/watch/{table}") as ws:  # no Origin: not a browser
            assert ws.receive_json()["type"] == "state"
        for origin, host in [
            ("http://evil.example:8000", "evil.example:8000"),  # DNS rebinding
            ("http://testserver", "testserver"),  # Origin and Host agree: not enough
            ("http://127.0.0.1:8000", "127.0.0.1:8000"),  # past the proxy
        ]:
            with (
                pytest.raises(WebSocketDisconnect),
                client.websocket_connect(
                    f"/ws/seat/{token}", headers={"origin": origin, "host": host}
                ) as ws,
            ):
                ws.receive_json()


def test_the_app_without_a_public_url_accepts_its_own_addresses(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'o.db'}")
    with TestClient(create_app(store)) as client:
        body = {"game": "balik-satu", "seats": SEATS, "listed": True}
        made = client.post("/api/tables", json=body).json()
        assert "urls" not in made and "watch_page_url" not in made
        watch = f"/ws/watch/{made['table']}"
        # the test client's connections are to "testserver" on port 80
        with client.websocket_connect(watch, headers={"origin": "http://testserver"}) as ws:
            assert ws.receive_json()["type"] == "state"
        with client.websocket_connect(watch, headers={"origin": "http://localhost"}) as ws:
            assert ws.receive_json()["type"] == "state"
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(
                watch, headers={"origin": "http://evil.example", "host": "evil.example"}
            ) as ws,
        ):
            ws.receive_json()
    with pytest.raises(CherkiError):
        create_app(store, public_url="cards.example.org")
