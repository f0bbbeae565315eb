"""``cherki serve``'s addresses: what it prints to open (the public URL, the LAN address
bound to every address, else localhost), and a wrong ``--public-url`` (or
``$CHERKI_PUBLIC_URL``) refused in one line before anything starts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cherki.ui.cli_serve import addresses


def _lan() -> str:
    return "192.168.1.20"


def test_the_address_printed() -> None:
    assert addresses("127.0.0.1", 8000, None, _lan) == ("http://localhost:8000/", None)
    assert addresses("localhost", 8000, None, _lan) == ("http://localhost:8000/", None)
    shown, also = addresses("0.0.0.0", 8080, None, _lan)
    assert shown == "http://192.168.1.20:8080/"
    assert also is not None and "http://localhost:8080/" in also
    assert addresses("::", 8080, None, _lan)[0] == "http://192.168.1.20:8080/"
    assert addresses("0.0.0.0", 8080, None, lambda: "127.0.0.1")[0] == "http://localhost:8080/"
    assert addresses("10.1.2.3", 9000, None, _lan) == ("http://10.1.2.3:9000/", None)
    assert addresses("::1", 9000, None, _lan) == ("http://[::1]:9000/", None)
    shown, also = addresses("127.0.0.1", 8000, "https://cards.example.org", _lan)
    assert shown == "https://cards.example.org/"
    assert also == "It listens on 127.0.0.1:8000 for your proxy."


def _serve(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cherki", "serve", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "200", **(env or {})},
    )


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        ("--public-url", "cards.example.org", "must start with https://"),
        ("--public-url", "https://cards.example.org/cards", "has a path"),
        ("--public-url", "https://cards.example.org/?a=b", "query"),
        ("--public-url", "https://:443", "names no host"),
        ("--limit", "nonsense=1", "a limit is NAME=VALUE"),
        ("--limit", "queue_messages=lots", "limit queue_messages takes a number"),
        ("--limit", "send_seconds=0", "must be more than 0"),
    ],
)
def test_a_wrong_public_url_or_limit_is_one_line(
    tmp_path: Path, option: str, value: str, says: str
) -> None:
    db = f"sqlite:///{tmp_path / 'a.db'}"
    r = _serve("--port", "1", "--database-url", db, option, value)
    assert r.returncode == 2 and says in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "a.db").exists()  # refused before anything started


def test_a_wrong_public_url_from_the_environment_too(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'a.db'}"
    r = _serve("--port", "1", "--database-url", db, env={"CHERKI_PUBLIC_URL": "ftp://x"})
    assert r.returncode == 2 and "--public-url 'ftp://x' must start with" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_several_workers_on_sqlite_are_one_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'a.db'}"
    r = _serve("--port", "1", "--database-url", db, "--workers", "2")
    assert r.returncode == 2, r.stderr
    assert "--workers 2 needs PostgreSQL" in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "a.db").exists()  # refused before anything started
