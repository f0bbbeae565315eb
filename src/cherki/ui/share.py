"""``cherki serve --share``: the server published through a tunnel program, as Gradio's
``share=True`` does, so that the links reach anywhere without a server of one's own.

Our specifications
------------------
* The tunnel programs tried, in order: ``cloudflared`` (a *quick tunnel*,
  ``cloudflared tunnel --url http://127.0.0.1:PORT``: no account, an address under
  ``trycloudflare.com`` that changes every time) and ``tailscale`` (``tailscale funnel PORT``:
  the machine's name on its tailnet, for someone with a Tailscale account and Funnel allowed).
  ``--share-with cloudflared`` or ``--share-with tailscale`` names one; ``--share`` alone
  takes the first installed.
* The program is started, and its output (standard output and error) read until it prints
  its public address (at most :data:`WAIT_SECONDS`); that address is then the server's public
  URL: printed, the base of every link, and the only site whose pages may connect.
* Without any of them, or when the program stops or prints no address, one line says what to
  install (or what it printed last) and the command stops (exit 2) before serving.
* The program is stopped with the server.
"""

from __future__ import annotations

import queue
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from cherki.core.errors import CherkiError

#: seconds a tunnel program is given to print its address
WAIT_SECONDS = 60.0


@dataclass(frozen=True)
class Tunnel:
    program: str
    #: the command, given the local port
    command: Callable[[int], list[str]]
    #: the public address in its output
    address: re.Pattern[str]
    #: where to get it
    install: str


TUNNELS = (
    Tunnel(
        "cloudflared",
        lambda port: [
            "cloudflared",
            "tunnel",
            "--no-autoupdate",
            "--url",
            f"http://127.0.0.1:{port}",
        ],
        re.compile(r"https://[a-z0-9-]+\.trycloudflare\.com"),
        "https://developers.cloudflare.com/cloudflare-one/connections/connect-networks/downloads/",
    ),
    Tunnel(
        "tailscale",
        lambda port: ["tailscale", "funnel", str(port)],
        re.compile(r"https://[A-Za-z0-9.-]+\.ts\.net"),
        "https://tailscale.com/download",
    ),
)


def missing_line() -> str:
    return (
        "--share needs a tunnel program: install cloudflared (no account needed: "
        f"{TUNNELS[0].install}) or tailscale ({TUNNELS[1].install}, then tailscale funnel), "
        "or see docs/web.md for --host 0.0.0.0 on your own network"
    )


def find(name: str | None) -> Tunnel:
    """The tunnel named (``cloudflared``, ``tailscale``), or the first installed."""
    if name:
        named = [t for t in TUNNELS if t.program == name.strip().lower()]
        if not named:
            raise CherkiError(
                f"--share-with {name!r}: the tunnels are {', '.join(t.program for t in TUNNELS)}"
            )
        if shutil.which(named[0].program) is None:
            raise CherkiError(f"--share-with {name}: {name} is not installed ({named[0].install})")
        return named[0]
    for tunnel in TUNNELS:
        if shutil.which(tunnel.program) is not None:
            return tunnel
    raise CherkiError(missing_line())


class Running:
    """A started tunnel: its public address and its process (``stop()`` ends it)."""

    def __init__(self, tunnel: Tunnel, port: int, wait: float = WAIT_SECONDS) -> None:
        self.tunnel = tunnel
        exe = shutil.which(tunnel.program) or tunnel.program
        argv = [exe, *tunnel.command(port)[1:]]
        self.process = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
        )
        lines: queue.Queue[str | None] = queue.Queue()

        def read() -> None:
            assert self.process.stdout is not None
            for line in self.process.stdout:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=read, name="cherki-tunnel-output", daemon=True).start()
        deadline = time.monotonic() + wait
        last = ""
        while True:
            left = deadline - time.monotonic()
            try:
                line = lines.get(timeout=max(0.0, left)) if left > 0 else None
            except queue.Empty:
                line = None
            if line is None:
                self.stop()
                said = f" (it said: {last.strip()})" if last.strip() else ""
                raise CherkiError(f"{tunnel.program} gave no public address{said}")
            found = tunnel.address.search(line)
            if found:
                self.url = found.group(0).rstrip("/")
                break
            if line.strip():
                last = line

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
