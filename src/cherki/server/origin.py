"""Where the server is reached: its public address, the links it hands out, and which pages
may open its WebSockets.

* :func:`public_url` reads ``--public-url`` (``$CHERKI_PUBLIC_URL``): the address people
  open, in front of any reverse proxy, e.g. ``https://cards.example.org``.
* :func:`allowed_origins` and :func:`origin_ok`: the ``Origin`` check of a WebSocket
  upgrade. A browser always names the page that opens a socket; a page of another site
  (DNS rebinding included: ``http://evil.example:8000`` whose name points at us sends
  ``Host: evil.example:8000`` and ``Origin: http://evil.example:8000``) must not play a
  seat, so the check never compares the ``Origin`` with the request's own ``Host``.
* :func:`absolute_links`: the API's links (paths) under the public address.
* :func:`lan_address`: this machine's address on its network, found without sending
  anything.

Our specifications
------------------
* A public URL is ``http`` or ``https``, names a host, and has no user, query or fragment;
  the app is served at the root of it (its pages and sockets use absolute paths), so a
  path other than ``/`` is refused too. It is kept as its origin: ``scheme://host[:port]``,
  lower case, the scheme's default port left out (as browsers write ``Origin``).
* With a public URL, the only origin accepted is the public URL's: a page opened on the
  server's own port or under another name is refused (open the public address).
* Without one, the origins accepted are ``http`` on the server's port at the loopback
  names (``localhost``, ``127.0.0.1``, ``[::1]``), the address the server is bound to and,
  bound to every address (``0.0.0.0``, ``::``), this machine's LAN address. The app passes
  the local address of each connection as the bound address, which for a server bound to
  every address is the interface the browser reached.
* A request without ``Origin`` (a client that is not a browser: a bot, a script) is let
  in: only browsers are tricked into connecting, and they always send it.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

from cherki.core.errors import CherkiError
from cherki.core.events import JSON

#: the host names of this machine that only its own browsers use
LOOPBACK = ("localhost", "127.0.0.1", "[::1]")
#: bound to one of these, the server listens on every address
EVERY_ADDRESS = ("0.0.0.0", "::", "")
#: an address no packet is sent to: connecting a UDP socket only picks the route
UNROUTABLE = ("10.255.255.255", 1)
DEFAULT_PORTS = {"http": 80, "https": 443}


def _host_text(host: str) -> str:
    """A host as a URL writes it: lower case, a name in another script in punycode, an
    IPv6 address in brackets, an IPv4-mapped IPv6 address as its IPv4 address."""
    host = host.strip("[]").lower()
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        if host.isascii():
            return host
        try:  # a name in another script: as browsers send it (punycode)
            return host.encode("idna").decode("ascii")
        except UnicodeError:
            return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return f"[{ip}]"
    return str(ip)


def origin(scheme: str, host: str, port: int | None) -> str:
    """``scheme://host[:port]`` as a browser's ``Origin`` writes it."""
    scheme = scheme.lower()
    shown = "" if port is None or DEFAULT_PORTS.get(scheme) == port else f":{port}"
    return f"{scheme}://{_host_text(host)}{shown}"


def public_url(text: str) -> str:
    """The public address ``text`` names, as its origin (``https://cards.example.org``);
    a :class:`~cherki.core.errors.CherkiError` in one line says what is wrong with it."""
    where = f"--public-url {text!r}"
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError as err:
        raise CherkiError(f"{where} is not a URL: {err}") from None
    if parts.scheme.lower() not in DEFAULT_PORTS:
        raise CherkiError(f"{where} must start with https:// (or http://)")
    if not parts.hostname:
        raise CherkiError(f"{where} names no host: write it as https://cards.example.org")
    if parts.username is not None or parts.password is not None:
        raise CherkiError(f"{where} must not hold a user name or password")
    if parts.query or parts.fragment or text.rstrip().endswith(("?", "#")):
        raise CherkiError(f"{where} must not have a query (?…) or fragment (#…)")
    if parts.path not in ("", "/"):
        raise CherkiError(
            f"{where} has a path ({parts.path}): cherki is served at the root of an "
            "address, so give it a host name (or port) of its own"
        )
    return origin(parts.scheme, parts.hostname, port)


def lan_address() -> str:
    """This machine's address on its network, found without sending anything: the source
    address a UDP socket connected to an unroutable address would use; else what the host
    name resolves to; else ``127.0.0.1``."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(UNROUTABLE)
            found = str(s.getsockname()[0])
        if found and not found.startswith("0."):
            return found
    except OSError:
        pass
    try:
        found = socket.gethostbyname(socket.gethostname())
        if found and not found.startswith(("0.", "127.")):
            return found
    except OSError:
        pass
    return "127.0.0.1"


def allowed_origins(
    public: str | None, bound_host: str, port: int, *, lan: Iterable[str] | None = None
) -> frozenset[str]:
    """The origins whose pages may open this server's WebSockets: the public URL's alone
    when there is one (``public``, as :func:`public_url` returns it); else ``http`` on
    ``port`` at the loopback names, ``bound_host`` and, when ``bound_host`` is every
    address, the LAN addresses ``lan`` (default: :func:`lan_address`)."""
    if public is not None:
        return frozenset({public_url(public)})
    hosts = set(LOOPBACK)
    if bound_host in EVERY_ADDRESS:
        hosts.update([lan_address()] if lan is None else lan)
    else:
        hosts.add(bound_host)
    return frozenset(origin("http", h, port) for h in hosts)


def origin_ok(origin_header: str | None, allowed: Iterable[str]) -> bool:
    """Whether a WebSocket upgrade whose ``Origin`` is ``origin_header`` may go on: it is
    one of ``allowed``, or absent (not a browser)."""
    if origin_header is None:
        return True
    try:
        parts = urlsplit(origin_header.strip())
        seen = origin(parts.scheme, parts.hostname or "", parts.port)
    except ValueError:
        return False
    return bool(parts.hostname) and seen in allowed


def absolute_links(public: str, made: Mapping[str, JSON]) -> dict[str, JSON]:
    """The absolute twins, under the public address, of the links an answer of the API
    holds: ``links`` (a path for each seat) → ``urls``; ``watch_page`` →
    ``watch_page_url``; the socket ``watch`` → ``watch_url`` (``ws``, or ``wss`` under
    ``https``). Fields the answer lacks are left out."""
    base = public_url(public)
    sockets = "wss" + base[len("https") :] if base.startswith("https:") else "ws" + base[4:]
    out: dict[str, JSON] = {}
    links = made.get("links")
    if isinstance(links, Mapping):
        out["urls"] = {seat: base + str(path) for seat, path in links.items()}
    if isinstance(made.get("watch_page"), str):
        out["watch_page_url"] = base + str(made["watch_page"])
    if isinstance(made.get("watch"), str):
        out["watch_url"] = sockets + str(made["watch"])
    return out


def connection_origins(public: str | None, server: tuple[str, int | None] | None) -> frozenset[str]:
    """:func:`allowed_origins` for one connection whose local address (ASGI's ``server``)
    is ``server``; a connection without one (a Unix socket) accepts only the public URL's
    origin, or none."""
    if public is not None:
        return allowed_origins(public, "", 0)
    if not server or server[1] is None:
        return frozenset()
    return allowed_origins(None, str(server[0]), int(server[1]))
