"""Where the links reach (issue 39): whether a seat's link opens on this computer only, on the
same network, or anywhere, said to the host on the lobby and the host page.

``GET /api/reach`` answers, for the page that asks, ``reach`` (``computer``, ``network`` or
``anywhere``), the ``base`` the links are built on, whether the request came through a proxy
(``proxied``), the address the server listens on (``listening``: ``every`` address or
``loopback`` or ``one``), and, where the host could reach further without restarting,
``lan_url`` (this machine's address on its network, for a server listening on every address
but opened as ``localhost``).

Our specifications
------------------
* With a public URL (``--public-url``, or the tunnel of ``cherki serve --share``) the links
  are built on it, so its host decides: a loopback name or address reaches this computer only;
  a private address (10/8, 172.16/12, 192.168/16, link-local, IPv6 unique-local), a
  carrier-grade NAT address (100.64/10: Tailscale's tailnet), a name of one label
  (``raspberrypi``) or under ``.local``, ``.lan``, ``.home``, ``.internal`` or
  ``.home.arpa`` reaches the same network; any other name or address reaches anywhere.
* Without one the links are built on the address the page was opened at (its ``Host``),
  classified the same way; a server that listens on the loopback only reaches this computer
  whatever the page's address.
* A request that came through a proxy (``Forwarded``, ``X-Forwarded-For`` or
  ``X-Forwarded-Host``) without a public URL is said to the host: the links may then name the
  proxy's address as the browser wrote it, and ``--public-url`` fixes them.
"""

from __future__ import annotations

import ipaddress
from typing import TypedDict
from urllib.parse import urlsplit

from fastapi import APIRouter, Request

from cherki.server import origin as where

router = APIRouter()

#: name endings used on home networks (and mDNS), never on the internet
LOCAL_SUFFIXES = (".local", ".lan", ".home", ".internal", ".home.arpa", ".localdomain")
PROXY_HEADERS = ("forwarded", "x-forwarded-for", "x-forwarded-host")
CGNAT = ipaddress.ip_network("100.64.0.0/10")


class ReachJSON(TypedDict):
    reach: str
    base: str
    proxied: bool
    public: bool
    listening: str
    lan_url: str | None


def classify(host: str) -> str:
    """``computer``, ``network`` or ``anywhere``: how far an address naming ``host`` reaches."""
    name = host.strip("[]").lower().rstrip(".")
    if name in ("localhost", "") or name.endswith(".localhost"):
        return "computer"
    try:
        ip = ipaddress.ip_address(name.split("%", 1)[0])
    except ValueError:
        if "." not in name or name.endswith(LOCAL_SUFFIXES):
            return "network"
        return "anywhere"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return "computer"
    if ip.is_unspecified:
        return "computer"
    if ip.is_private or ip.is_link_local or (ip.version == 4 and ip in CGNAT):
        return "network"
    return "anywhere"


def listening_kind(host: str | None) -> str:
    if host is None:
        return "unknown"
    if host in where.EVERY_ADDRESS:
        return "every"
    return "loopback" if classify(host) == "computer" else "one"


def describe(
    *,
    public: str | None,
    listening: str | None,
    page_scheme: str,
    page_host: str,
    proxied: bool,
    lan: str | None = None,
) -> ReachJSON:
    """What the reach of the links is, for a page opened at ``page_scheme://page_host``
    (``page_host`` with its port, as the ``Host`` header writes it)."""
    kind = listening_kind(listening)
    if public is not None:
        base = where.public_url(public)
        reach = classify(urlsplit(base).hostname or "")
        return ReachJSON(reach=reach, base=base, proxied=proxied, public=True,
                         listening=kind, lan_url=None)  # fmt: skip
    try:
        page = urlsplit(f"//{page_host}")
        host, port = page.hostname or "", page.port
    except ValueError:
        host, port = "", None
    base = where.origin(page_scheme, host, port) if host else f"{page_scheme}://{page_host}"
    reach = "computer" if kind == "loopback" else classify(host)
    lan_url = None
    if reach == "computer" and kind == "every" and lan and classify(lan) != "computer":
        lan_url = where.origin(page_scheme, lan, port)
    return ReachJSON(reach=reach, base=base, proxied=proxied, public=False,
                     listening=kind, lan_url=lan_url)  # fmt: skip


@router.get("/api/reach", response_model=None)
async def reach(request: Request) -> dict[str, object]:
    state = request.app.state
    public: str | None = state.server.public
    listening: str | None = getattr(state, "listening", None)
    proxied = any(h in request.headers for h in PROXY_HEADERS)
    host = request.headers.get("host") or request.url.netloc
    lan = where.lan_address() if listening_kind(listening) == "every" else None
    return dict(describe(public=public, listening=listening, page_scheme=request.url.scheme,
                    page_host=host, proxied=proxied, lan=lan))  # fmt: skip
