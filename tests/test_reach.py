"""Where the links reach (issue 39): the classification, the API's answer under each way of
serving, and ``cherki serve --share`` against a stand-in tunnel program that prints what the
real one prints."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cherki.server.app import create_app
from cherki.server.reach import classify, describe
from cherki.server.store import Store


@pytest.mark.parametrize(
    ("host", "reach"),
    [
        ("127.0.0.1", "computer"), ("localhost", "computer"), ("::1", "computer"),
        ("0.0.0.0", "computer"), ("192.168.1.20", "network"), ("10.0.0.5", "network"),
        ("100.101.102.103", "network"), ("raspberrypi", "network"), ("nas.local", "network"),
        ("fd00::1", "network"), ("cards.example.org", "anywhere"), ("93.184.215.14", "anywhere"),
        ("abc-def.trycloudflare.com", "anywhere"),
    ],
)  # fmt: skip
def test_classify(host: str, reach: str) -> None:
    assert classify(host) == reach


def test_describe_each_way_of_serving() -> None:
    # the README's command: listens on the loopback, opened as 127.0.0.1
    r = describe(public=None, listening="127.0.0.1", page_scheme="http",
                 page_host="127.0.0.1:8000", proxied=False)  # fmt: skip
    assert r["reach"] == "computer" and r["lan_url"] is None
    # --host 0.0.0.0 but opened as localhost: the LAN address is offered
    r = describe(public=None, listening="0.0.0.0", page_scheme="http",
                 page_host="localhost:8000", proxied=False, lan="192.168.1.20")  # fmt: skip
    assert r["reach"] == "computer" and r["lan_url"] == "http://192.168.1.20:8000"
    r = describe(public=None, listening="0.0.0.0", page_scheme="http",
                 page_host="192.168.1.20:8000", proxied=False, lan="192.168.1.20")  # fmt: skip
    assert r["reach"] == "network" and r["base"] == "http://192.168.1.20:8000"
    # behind a proxy without a public URL: said
    r = describe(public=None, listening="127.0.0.1", page_scheme="https",
                 page_host="cards.example.org", proxied=True)  # fmt: skip
    assert r["reach"] == "computer" and r["proxied"]
    r = describe(public="https://cards.example.org", listening="127.0.0.1", page_scheme="http",
                 page_host="127.0.0.1:8000", proxied=True)  # fmt: skip
    assert r["reach"] == "anywhere" and r["public"] and r["base"] == "https://cards.example.org"
    r = describe(public="http://192.168.1.20:8000", listening="0.0.0.0", page_scheme="http",
                 page_host="192.168.1.20:8000", proxied=False)  # fmt: skip
    assert r["reach"] == "network"


def test_the_api_says_where_links_reach(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    with TestClient(
        create_app(store, listening="127.0.0.1"), base_url="http://127.0.0.1:8000"
    ) as c:
        assert c.get("/api/reach").json()["reach"] == "computer"
        got = c.get("/api/reach", headers={"X-Forwarded-For": "203.0.113.9"}).json()
        assert got["proxied"] is True
    public = create_app(store, listening="127.0.0.1", public_url="https://cards.example.org")
    with TestClient(public, base_url="http://127.0.0.1:8000") as c:
        assert c.get("/api/reach").json() == {
            "reach": "anywhere", "base": "https://cards.example.org", "proxied": False,
            "public": True, "listening": "loopback", "lan_url": None,
        }  # fmt: skip


#: stand-ins that print what cloudflared's quick tunnel and tailscale funnel print, then wait
STAND_INS = Path(__file__).parent / "fixtures" / "tunnels"


def _stand_in(folder: Path, name: str) -> dict[str, str]:
    folder.mkdir()
    exe = folder / name
    exe.write_text((STAND_INS / name).read_text())
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    return {**os.environ, "PATH": f"{folder}{os.pathsep}/usr/bin{os.pathsep}/bin"}


def _serve(tmp_path: Path, env: dict[str, str], *extra: str) -> tuple[str, str, int]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "cherki", "serve", "--port", str(port), "--database-url",
         f"sqlite:///{tmp_path / 'c.db'}", *extra],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/reach", timeout=5) as r:
                    answer = r.read().decode()
                    break
            except OSError:
                assert server.poll() is None, server.communicate()
                assert time.monotonic() < deadline
                time.sleep(0.3)
    finally:
        server.terminate()
        out, err = server.communicate(timeout=60)
    return out + err, answer, port


def test_share_through_a_stand_in_cloudflared(tmp_path: Path) -> None:
    env = _stand_in(tmp_path / "bin", "cloudflared")
    said, answer, port = _serve(tmp_path, env, "--share")
    url = "https://tender-river-quiet-hills.trycloudflare.com"
    assert f"cherki is serving at {url}/" in said.replace("\n", " ")
    assert '"reach":"anywhere"' in answer and url in answer
    args = (tmp_path / "bin" / "args").read_text()
    assert f"--url http://127.0.0.1:{port}" in args
    deadline = time.monotonic() + 10
    while not (tmp_path / "bin" / "stopped").exists():  # stopped with the server
        assert time.monotonic() < deadline, "the tunnel program was left running"
        time.sleep(0.1)


def test_share_through_a_stand_in_tailscale_funnel(tmp_path: Path) -> None:
    env = _stand_in(tmp_path / "bin", "tailscale")
    said, answer, port = _serve(tmp_path, env, "--share-with", "tailscale")
    assert "https://grandmas-laptop.tail1234.ts.net/" in said
    assert (tmp_path / "bin" / "args").read_text().split() == ["funnel", str(port)]
    assert "grandmas-laptop.tail1234.ts.net" in answer


def test_share_without_a_tunnel_program_says_what_to_install(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    env = {**os.environ, "PATH": f"{tmp_path / 'bin'}{os.pathsep}/usr/bin{os.pathsep}/bin"}
    run = subprocess.run([sys.executable, "-m", "cherki", "serve", "--share", "--port", "1"],
                         env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert run.returncode == 2 and "Traceback" not in run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "install cloudflared" in lines[0]
