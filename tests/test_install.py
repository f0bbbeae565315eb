"""What ``uv run cherki serve`` installs (issue 24): only what playing needs. The dev group
(the test, lint and type-check tools, and through it the research extras) is installed only
when asked for, as ``scripts/test.sh`` asks for it."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: what the dev group and the extras bring, none of which playing may import
NOT_FOR_PLAYING = (
    "pytest", "hypothesis", "ruff", "mypy", "httpx", "playwright", "pytest_playwright",
    "ray", "pettingzoo", "gymnasium", "pyspiel", "open_spiel", "scipy",
)  # fmt: skip


def test_the_dev_group_is_not_installed_by_default() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["tool"]["uv"]["default-groups"] == []
    assert "dev" in project["dependency-groups"]
    lock = (ROOT / "uv.lock").read_text(encoding="utf-8")
    assert "default-groups = []" in lock  # the lock file agrees (`uv lock --check`)


def test_the_test_script_asks_for_the_dev_group() -> None:
    script = (ROOT / "scripts" / "test.sh").read_text(encoding="utf-8")
    assert '"$uv" run --locked --group dev pytest' in script


BLOCK = f"""
import sys
from importlib.abc import MetaPathFinder

class NotForPlaying(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {NOT_FOR_PLAYING!r}:
            raise ImportError(f"{{name}} is not installed for playing")
        return None

sys.meta_path.insert(0, NotForPlaying())
"""


def run_without_dev(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCK + code],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )


def test_playing_and_serving_need_nothing_of_the_dev_group() -> None:
    """The terminal game and the browser app's whole server import and run with every
    package of the dev group and the extras missing."""
    run = run_without_dev(
        "import sys\n"
        "import cherki.server.app, cherki.ui.cli_serve\n"
        "from cherki.ui.cli import main\n"
        "sys.argv = ['cherki', 'play', 'balik-satu', '--watch', '--seed', '4', '--delay', '0',"
        " '--hands', '2']\n"
        "main()\n"
    )
    assert run.returncode == 0, run.stderr
    assert "Score sheet" in run.stdout and "Traceback" not in run.stderr
    assert "ImportError" not in run.stderr


def test_the_server_serves_a_table_with_nothing_of_the_dev_group(tmp_path: Path) -> None:
    """``cherki serve`` itself, started with the dev group's packages missing: the lobby
    answers and a table is created."""
    import json
    import socket
    import time
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = ["cherki", "serve", "--port", str(port), "--database-url",
            f"sqlite:///{tmp_path / 'cherki.db'}"]  # fmt: skip
    code = BLOCK + f"import sys\nfrom cherki.ui.cli import main\nsys.argv = {argv!r}\nmain()\n"
    server = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/", timeout=5) as page:
                    assert page.status == 200
                    break
            except OSError:
                assert server.poll() is None, server.communicate()[1]
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        seats = [{"kind": "human"}, {"kind": "bot", "level": "heuristic"}]
        request = urllib.request.Request(
            f"{base}/api/tables",
            data=json.dumps({"game": "ceki", "seats": seats}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status == 200
            assert list(json.load(answer)["seats"]) == ["0"]
    finally:
        server.terminate()
        _, err = server.communicate(timeout=30)
    assert "is not installed for playing" not in err and "Traceback" not in err


def test_the_blocker_blocks() -> None:
    """The check above would see a dev package imported for playing."""
    run = run_without_dev("import httpx\n")
    assert run.returncode != 0 and "httpx is not installed for playing" in run.stderr
