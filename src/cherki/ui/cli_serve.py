"""``cherki serve``: the browser app, for people at one table or many.

Our specifications
------------------
* The default database is an SQLite file in the user's data folder
  (``$XDG_DATA_HOME/cherki/cherki.db``, else ``~/.local/share/cherki/cherki.db``): no other
  service is needed. ``--database-url postgresql+psycopg://…`` uses PostgreSQL instead.
* It listens on 127.0.0.1 unless told otherwise: ``--host 0.0.0.0`` lets others on the
  network reach it, and the address printed is then this machine's LAN address
  (:func:`cherki.server.origin.lan_address`), not ``localhost``.
* ``--public-url https://cards.example.org`` (``$CHERKI_PUBLIC_URL``): the address people
  open, in front of a reverse proxy (docs/deploy.md). It is printed as the address to open,
  the links the API returns are absolute under it, and only its pages may open the
  WebSockets. A URL that is not ``http(s)://HOST[:PORT]`` is a one-line error.
* ``--forwarded-allow-ips`` (``$FORWARDED_ALLOW_IPS``, uvicorn's own; default 127.0.0.1):
  the proxies whose ``X-Forwarded-Proto`` and ``X-Forwarded-For`` are believed.
* A port already in use, a database that cannot be opened, or a bad ``--limit`` is a
  one-line message before anything starts. ``--limit NAME=VALUE`` changes one of the
  server's limits (:class:`cherki.server.limits.Limits`).
* **Messages are not compressed** (WebSocket per-message deflate off): a state message holds
  only what changed (a few KB), and compressing each one for each connection cost the server
  more than any family's connection gains from it (at 500 tables, the server's CPU went from
  80% to 57% of a core without it, and the people's from 46% to 34%).
* ``--workers N`` starts N serving processes on one machine, on one listening socket (the
  kernel hands each new connection to one of them), for people who do not want to set up a
  reverse proxy; each process serves any table (:mod:`cherki.server.cluster`), so N > 1
  needs PostgreSQL: with SQLite it is a one-line error. The command stays in front as their
  supervisor: a process that stops is started again (at most once a second), Ctrl+C or
  SIGTERM stops them all, and a worker whose supervisor is gone (even killed) stops too.
* **Garbage collection**: Python's full collections grow with the tables held (a few hundred
  tables: 100–200 ms each, every few seconds, and every connection waits). The server
  collects the two young generations as usual but the oldest only every
  :data:`FULL_COLLECTION` seconds (one pause then, instead of one every few seconds), and
  what exists when it starts (the code, the rules) is never scanned.
"""

from __future__ import annotations

import errno
import gc
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from cherki.core.errors import CherkiError

if TYPE_CHECKING:
    from fastapi import FastAPI
from cherki.server import origin as reach

console = Console(highlight=False)

#: seconds between full garbage collections in a serving process
FULL_COLLECTION = 300.0


def serve(
    host: Annotated[
        str, typer.Option(help="the address to listen on (0.0.0.0: every network)")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="the port to listen on")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            envvar="CHERKI_DATABASE_URL",
            help="sqlite:///PATH or postgresql+psycopg://USER@HOST:PORT/DB "
            "(default: an SQLite file in your data folder)",
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            envvar="CHERKI_PUBLIC_URL",
            help="the address people open, in front of a reverse proxy "
            "(https://cards.example.org): printed, used for the links, and the only "
            "site whose pages may connect",
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            envvar="FORWARDED_ALLOW_IPS",
            help="comma-separated addresses of the proxies whose X-Forwarded-Proto/For "
            "headers are believed (default: 127.0.0.1; * for any)",
        ),
    ] = None,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            "--limit",
            metavar="NAME=VALUE",
            help="change one of the server's limits, e.g. connections_per_address=1000 "
            "(docs/server.md lists them all); may be given again",
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            max=64,
            help="serving processes on this machine, on one port (more than 1 needs "
            "PostgreSQL: docs/deploy.md)",
        ),
    ] = 1,
    share: Annotated[
        bool,
        typer.Option(
            "--share",
            help="publish the server through a tunnel program (cloudflared's quick tunnel, "
            "no account needed; or tailscale funnel) so that the links reach anywhere",
        ),
    ] = False,
    share_with: Annotated[
        str | None,
        typer.Option(
            "--share-with", help="the tunnel program for --share: cloudflared or tailscale"
        ),
    ] = None,
    fd: Annotated[
        int | None, typer.Option(hidden=True, help="a worker: serve on this inherited socket")
    ] = None,
) -> None:
    """Play in the browser: start the app and print the address to open.

    Create a table in the lobby, send each person their seat's link, and play against
    family, friends and bots. Everything played is kept in the database: stop the server
    (Ctrl+C) and start it again, and every unfinished table goes on.
    """
    import uvicorn

    from cherki.server.app import create_app, default_url
    from cherki.server.limits import Limits
    from cherki.server.store import Store

    limits = Limits().with_text(limit or [])
    share = share or share_with is not None
    if share and public_url:
        raise CherkiError("give --share or --public-url, not both")
    tunnel = None
    if share and fd is None:
        from cherki.ui import share as tunnels

        chosen = tunnels.find(share_with)
        _check_port(host, port)
        console.print(f"Starting {chosen.program} to publish the server…")
        tunnel = tunnels.Running(chosen, port)
        public_url = tunnel.url
        console.print(
            f"Published through {chosen.program}: anyone with a link can open it; "
            "stop the server (Ctrl+C) to close it."
        )
    public = reach.public_url(public_url) if public_url else None
    url = database_url or default_url()
    if workers > 1 and not _is_postgres(url):
        raise CherkiError(
            f"--workers {workers} needs PostgreSQL (--database-url postgresql+psycopg://…): "
            "an SQLite file is served by one process"
        )
    if fd is None:
        _check_port(host, port)
    store = Store(url)
    if fd is None:
        address, also = addresses(host, port, public)
        console.print(f"cherki is serving at [bold]{address}[/] — open it in a browser.")
        if also:
            console.print(also)
        console.print(f"Tables are kept in {_safe_url(url)}. Ctrl+C stops the server.")
    if workers > 1:
        store.close()
        extra = [f"--public-url={public}"] if public else []
        if forwarded_allow_ips:
            extra.append(f"--forwarded-allow-ips={forwarded_allow_ips}")
        extra += [f"--limit={x}" for x in limit or []]
        try:
            _supervise(host, port, url, workers, extra)
        finally:
            if tunnel is not None:
                tunnel.stop()
        return
    if fd is not None:
        _stop_with_supervisor()
    app = create_app(
        store,
        public_url=public,
        limits=limits,
        collect_every=FULL_COLLECTION,
        listening=host,
        warm=True,
    )
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 2**31 - 1)  # the oldest generation: by the app's clock
    if tunnel is not None:  # uvicorn raises SIGTERM again once stopped: the tunnel stops too
        signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(0))
    try:
        _run(uvicorn, app, host, port, fd, forwarded_allow_ips, limits.liveness_seconds)
    finally:
        if tunnel is not None:
            tunnel.stop()


def _run(
    uvicorn: ModuleType,
    app: FastAPI,
    host: str,
    port: int,
    fd: int | None,
    allow: str | None,
    liveness: float,
) -> None:
    uvicorn.run(
        app,
        host=host,
        port=port,
        fd=fd,
        log_level="warning",
        ws_max_size=65536,
        ws_per_message_deflate=False,
        # liveness: a WebSocket ping every half of liveness_seconds; a socket whose answer
        # has not come by the next half is closed (docs/server.md, "Liveness")
        ws_ping_interval=liveness / 2,
        ws_ping_timeout=liveness / 2,
        proxy_headers=True,
        forwarded_allow_ips=allow,
    )


def _is_postgres(url: str) -> bool:
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).get_backend_name() == "postgresql"
    except Exception:  # a URL SQLAlchemy cannot read fails with its own message later
        return False


def _stop_with_supervisor() -> None:
    """A worker stops (as on SIGTERM: its leases given back) when its supervisor is gone,
    even killed outright: a thread looks every second whether its parent is still there."""
    import threading

    # named by the supervisor: a worker started as it died sees another parent already
    parent = int(os.environ.get(SUPERVISOR) or os.getppid())

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="cherki-supervisor-watch", daemon=True).start()


#: the environment variable that names a worker's supervisor (its process id)
SUPERVISOR = "CHERKI_SUPERVISOR"
#: seconds a worker is given to stop before it is killed
STOP_SECONDS = 30.0


def _supervise(host: str, port: int, url: str, count: int, extra: list[str]) -> None:
    """``count`` worker processes of ``cherki serve`` on one socket bound here; each that
    stops is started again (at most once a second); SIGINT or SIGTERM stops them all."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    fd = sock.fileno()
    command = [sys.executable, "-m", "cherki", "serve", f"--host={host}", f"--port={port}",
               f"--database-url={url}", f"--fd={fd}", *extra]  # fmt: skip
    console.print(f"{count} serving processes on one port; each serves any table.")
    stopping = False

    def stop(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    env = {**os.environ, SUPERVISOR: str(os.getpid())}

    def spawn() -> subprocess.Popen[bytes]:
        return subprocess.Popen(command, pass_fds=(fd,), env=env)

    procs = [spawn() for _ in range(count)]
    started = [time.monotonic()] * count
    try:
        while not stopping:
            time.sleep(0.2)
            for i, p in enumerate(procs):
                if p.poll() is not None and not stopping:
                    wait = started[i] + 1.0 - time.monotonic()
                    if wait > 0:
                        continue
                    console.print(
                        f"worker {i + 1} stopped (exit {p.returncode}): starting it again"
                    )
                    procs[i] = spawn()
                    started[i] = time.monotonic()
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        for p in procs:
            try:
                p.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        sock.close()


def addresses(
    host: str, port: int, public: str | None, lan: Callable[[], str] = reach.lan_address
) -> tuple[str, str | None]:
    """The address to open, and a line more about where it is reached (or None): the
    public URL when there is one; bound to every address, this machine's LAN address
    (``lan``); on the loopback, ``localhost``."""
    local = reach.origin("http", host, port) + "/"
    here = f"http://localhost:{port}/"
    if public is not None:
        listening = local.removeprefix("http://").rstrip("/")
        return public + "/", f"It listens on {listening} for your proxy."
    if host in reach.EVERY_ADDRESS:
        at = reach.origin("http", lan(), port) + "/"
        if at.startswith("http://127."):  # no network found
            return here, "No network address was found for others to open."
        return at, f"Others on your network open it there; on this machine, also {here}"
    if host in ("127.0.0.1", "localhost"):
        return here, None
    return local, None


def _check_port(host: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as err:
            if err.errno == errno.EADDRINUSE:
                raise CherkiError(
                    f"port {port} is in use on {host}: stop what uses it, or choose "
                    "another with --port"
                ) from None
            raise CherkiError(f"cannot listen on {host}:{port}: {err.strerror or err}") from None


def _safe_url(url: str) -> str:
    """The database URL without its password."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # a URL SQLAlchemy cannot read fails with its own message later
        return url
