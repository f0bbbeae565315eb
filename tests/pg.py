"""A throwaway PostgreSQL server for the tests: Debian's binaries, run as the ``postgres``
user (``initdb`` refuses root), with a data directory, socket directory and port of its
own, on 127.0.0.1 only; stopped when the tests end.

A machine without PostgreSQL fails the tests that need it, never skips them: the README's
test command (``scripts/test.sh``) installs it.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_postgres(*cmd: str) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else list(cmd)


@contextmanager
def postgres_server() -> Iterator[str]:
    """The URL of a fresh database on a server started for the tests."""
    initdb, pg_ctl, createdb = _bin("initdb"), _bin("pg_ctl"), _bin("createdb")
    if not (initdb and pg_ctl and createdb):
        pytest.fail(
            "PostgreSQL's server binaries are not installed: run the tests with "
            "scripts/test.sh, which installs them (apt-get install postgresql)"
        )
    root = Path(tempfile.mkdtemp(prefix="cherki-pg-"))
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        shutil.chown(sock, "postgres")
    port = _free_port()
    run = {"check": True, "capture_output": True, "timeout": 120}
    subprocess.run(_as_postgres(initdb, "-D", str(data), "--auth=trust", "-U", "postgres"), **run)  # type: ignore[call-overload]
    opts = f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off"
    subprocess.run(_as_postgres(pg_ctl, "-D", str(data), "-o", opts, "-w", "-l",
                                str(root / "log"), "start"), **run)  # type: ignore[call-overload]  # fmt: skip
    try:
        subprocess.run(_as_postgres(createdb, "-h", "127.0.0.1", "-p", str(port), "-U",
                                    "postgres", "cherki"), **run)  # type: ignore[call-overload]  # fmt: skip
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/cherki"
    finally:
        subprocess.run(_as_postgres(pg_ctl, "-D", str(data), "-m", "immediate", "stop"),
                       capture_output=True, timeout=60)  # fmt: skip
        shutil.rmtree(root, ignore_errors=True)
