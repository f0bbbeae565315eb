"""``cherki serve`` stopped as an operator stops it (SIGTERM from a service manager,
SIGINT from Ctrl+C) after serving a heavy request: it stops cleanly, its heavy requests'
process with it, and leaves nothing behind: no traceback, and no semaphore of a process
pool for multiprocessing's resource tracker to clean up ("leaked semaphore objects")."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from serverutil import wait_serving


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_server_stopped_after_a_heavy_request_leaves_nothing_behind(
    tmp_path: Path, sig: signal.Signals
) -> None:
    port = _port()
    errors = tmp_path / "stderr"
    with errors.open("wb") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cherki", "serve", "--port", str(port),
             "--database-url", f"sqlite:///{tmp_path / 'server.db'}"],
            stdout=subprocess.DEVNULL, stderr=err,
        )  # fmt: skip
        try:
            base = f"http://127.0.0.1:{port}"
            wait_serving(base, proc)
            seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
            made = httpx.post(
                f"{base}/api/tables", json={"game": "balik-satu", "seats": seats}, timeout=60
            ).json()
            record = httpx.get(f"{base}/api/tables/{made['table']}/record", timeout=120)
            assert record.status_code == 200 and record.json()["seen_by"] == "spectator"
            helpers = _children(proc.pid)
            assert helpers  # the heavy requests' process (and multiprocessing's tracker)
            proc.send_signal(sig)
            code = proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    # uvicorn stops gracefully, then raises the signal again: SIGINT ends as Ctrl+C does
    # (status 0), SIGTERM as the signal (a service manager's clean stop)
    assert code == (0 if sig == signal.SIGINT else -signal.SIGTERM), code
    time.sleep(2.0)  # the resource tracker writes its warnings as it ends, after the server
    said = errors.read_text()
    assert "leaked" not in said and "Traceback" not in said and "Error" not in said, said
    for pid in helpers:  # the heavy process ended with the server
        assert not Path(f"/proc/{pid}").exists() or _zombie(pid), pid


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True
