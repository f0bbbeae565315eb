"""``cherki serve``: the browser app, for people at one table or many.

Our specifications
------------------
* The default database is an SQLite file in the user's data folder
  (``$XDG_DATA_HOME/cherki/cherki.db``, else ``~/.local/share/cherki/cherki.db``): no other
  service is needed. ``--database-url postgresql+psycopg://…`` uses PostgreSQL instead.
* It listens on 127.0.0.1 unless told otherwise: ``--host 0.0.0.0`` lets others on the
  network (or the internet, behind a proxy that passes the ``Host`` header on) reach it.
* A port already in use, or a database that cannot be opened, is a one-line message before
  anything starts.
* **Garbage collection**: Python's full collections grow with the tables held (a few hundred
  tables: 100–200 ms each, every few seconds, and every connection waits). The server
  collects the two young generations as usual but the oldest only every
  :data:`FULL_COLLECTION` seconds (one pause then, instead of one every few seconds), and
  what exists when it starts (the code, the rules) is never scanned.
"""

from __future__ import annotations

import errno
import gc
import socket
from typing import Annotated

import typer
from rich.console import Console

from cherki.core.errors import CherkiError

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
) -> None:
    """Play in the browser: start the app and print the address to open.

    Create a table in the lobby, send each person their seat's link, and play against
    family, friends and bots. Everything played is kept in the database: stop the server
    (Ctrl+C) and start it again, and every unfinished table goes on.
    """
    import uvicorn

    from cherki.server.app import create_app, default_url
    from cherki.server.store import Store

    url = database_url or default_url()
    _check_port(host, port)
    store = Store(url)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    address = f"http://{shown}:{port}/"
    console.print(f"cherki is serving at [bold]{address}[/] — open it in a browser.")
    console.print(f"Tables are kept in {_safe_url(url)}. Ctrl+C stops the server.")
    if host in ("0.0.0.0", "::"):
        console.print(
            "Others on your network reach it at this machine's address, port " + str(port)
        )
    app = create_app(store, collect_every=FULL_COLLECTION)
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 2**31 - 1)  # the oldest generation: by the app's clock
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=65536)


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
