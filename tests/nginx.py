"""A throwaway nginx for the tests: Debian's binary in front of a cherki server, running
the proxy part of the documented configuration (``docs/deploy/cherki-proxy.conf``) as it
is, inside a main configuration of the tests' own (its pid file, logs and temporary
folders in a folder of its own, listening on 127.0.0.1 only); stopped when the test ends.

A machine without nginx fails the tests that need it, never skips them: the README's test
command (``scripts/test.sh``) installs it.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

NGINX = "/usr/sbin/nginx"
DEPLOY = Path(__file__).resolve().parent.parent / "docs" / "deploy"
#: the proxy part of the documented configuration, run as it is
PROXY_CONF = DEPLOY / "cherki-proxy.conf"
#: the documented site: upstream, TLS, the redirect to HTTPS; it includes PROXY_CONF
SITE_CONF = DEPLOY / "nginx-site.conf"
#: the documented upstream of several processes: each server line's options and the
#: block's other settings are run as they are, the servers' addresses being the tests'
UPSTREAM_CONF = DEPLOY / "cherki-upstream.conf"


def upstream(ports: tuple[int, ...], conf: Path = UPSTREAM_CONF) -> str:
    """The ``upstream cherki`` block of ``conf`` with one server line (its first one's
    options) for each of ``ports`` on 127.0.0.1."""
    options = ""
    others: list[str] = []
    for raw in conf.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line or line.startswith("upstream") or line == "}":
            continue
        if line.startswith("server "):
            if not options:
                options = line.removesuffix(";").split(None, 2)[2] if len(line.split()) > 2 else ""
            continue
        others.append(f"        {line}")
    servers = [f"        server 127.0.0.1:{p} {options};" for p in ports]
    return "    upstream cherki {\n" + "\n".join(servers + others) + "\n    }"


@dataclass(frozen=True)
class Proxy:
    port: int
    folder: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        """nginx's access log so far."""
        return (self.folder / "access.log").read_text(encoding="utf-8")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _nginx() -> str:
    found = NGINX if os.access(NGINX, os.X_OK) else shutil.which("nginx")
    if not found:
        pytest.fail(
            "nginx is not installed: run the tests with scripts/test.sh, which installs it "
            "(apt-get install nginx)"
        )
    return found


def main_conf(folder: Path, http: str) -> str:
    """A main configuration whose every file lies in ``folder``, ``http`` its http block's
    body. The workers run as the tests' own user (as root, nginx would otherwise pick
    ``nobody``, who cannot write in a private temporary folder)."""
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name};" if os.geteuid() == 0 else ""
    temps = "\n".join(
        f"    {kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""{user}
worker_processes 1;
pid {folder / "nginx.pid"};
error_log {folder / "error.log"} warn;
events {{
    worker_connections 4096;
}}
http {{
    access_log {folder / "access.log"};
{temps}
{http}
}}
"""


def check(conf: Path, folder: Path) -> subprocess.CompletedProcess[str]:
    """``nginx -t`` on ``conf``: whether it reads (nothing is listened on)."""
    return subprocess.run(
        [_nginx(), "-t", "-c", str(conf), "-p", str(folder), "-e", str(folder / "error.log")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


@contextmanager
def nginx_proxy(
    upstream_port: int,
    *more_ports: int,
    proxy_conf: Path = PROXY_CONF,
    upstream_conf: Path = UPSTREAM_CONF,
    port: int | None = None,
) -> Iterator[Proxy]:
    """nginx on a free port of 127.0.0.1 proxying to cherki on ``upstream_port`` (and on
    ``more_ports``: several processes, each request to the next that answers) with the
    documented proxy part and upstream settings (others by ``proxy_conf`` and
    ``upstream_conf``: the benchmark's comparison), on ``port`` if given (the public
    address the processes were told); stopped (and its folder removed) afterwards."""
    binary = _nginx()
    folder = Path(tempfile.mkdtemp(prefix="cherki-nginx-"))
    port = free_port() if port is None else port
    http = f"""{upstream((upstream_port, *more_ports), upstream_conf)}
    server {{
        listen 127.0.0.1:{port};
        server_name 127.0.0.1;
        include {proxy_conf};
    }}"""
    conf = folder / "nginx.conf"
    conf.write_text(main_conf(folder, http), encoding="utf-8")
    proc = subprocess.Popen(
        [binary, "-c", str(conf), "-p", str(folder), "-e", str(folder / "error.log"),
         "-g", "daemon off;"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                pytest.fail(f"nginx did not start: {err.strip()}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "nginx did not start listening"
                time.sleep(0.1)
        yield Proxy(port, folder)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)
