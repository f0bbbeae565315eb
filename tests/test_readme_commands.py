"""The README's two commands on a system whose Python is marked ``EXTERNALLY-MANAGED`` (PEP 668:
Debian 12, Ubuntu 23.04 and later), where ``python3 -m pip install uv`` is refused (issue 39).

The Python used is the system's own where it is so marked (Debian's ``/usr/bin/python3``), else a
copy of the running interpreter's installation with the marker placed in its standard library
folder (a virtual environment would not do: pip ignores the marker inside one). The PATH holds
that Python and the system's programs but no uv, and HOME is empty, so ``scripts/uv.sh`` has to
install uv the way uv's documentation gives for such a system, with pip in a virtual
environment of its own (from PyPI, as the test script has always installed uv)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SYSTEM_PYTHON = Path("/usr/bin/python3")
MARKER = "EXTERNALLY-MANAGED"


def _marked(python: Path) -> bool:
    code = (
        "import os, sysconfig; "
        "print(os.path.exists(os.path.join(sysconfig.get_path('stdlib'), 'EXTERNALLY-MANAGED')))"
    )
    run = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=False)
    return run.stdout.strip() == "True"


def managed_python(tmp_path: Path) -> Path:
    """A base Python (not a virtual environment) whose pip refuses to install."""
    if SYSTEM_PYTHON.exists() and _marked(SYSTEM_PYTHON):
        return SYSTEM_PYTHON
    prefix = Path(sys.base_prefix)
    copy = tmp_path / "python"
    shutil.copytree(prefix, copy, symlinks=True, ignore=shutil.ignore_patterns("site-packages"))
    stdlib = copy / Path(
        sysconfig.get_path("stdlib", vars={"installed_base": str(prefix)})
    ).relative_to(prefix)
    (stdlib / "site-packages").mkdir(exist_ok=True)
    (stdlib / MARKER).write_text("[externally-managed]\nError=managed by the test\n")
    return copy / "bin" / Path(sys.executable).name


def environment(tmp_path: Path, python: Path) -> dict[str, str]:
    """No uv on the PATH; python3 is the managed Python; HOME is new."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(python)
    home = tmp_path / "home"
    home.mkdir()
    path = [str(bin_dir)] + [
        d
        for d in ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")
        if Path(d).is_dir() and not (Path(d) / "uv").exists()
    ]
    env = {"PATH": os.pathsep.join(path), "HOME": str(home), "LANG": "C.UTF-8"}
    for keep in (
        "UV_CACHE_DIR",
        "PIP_INDEX_URL",
        "PIP_EXTRA_INDEX_URL",
        "http_proxy",
        "https_proxy",
    ):
        if keep in os.environ:
            env[keep] = os.environ[keep]
    # uv's cache (warm here) from the real home, so the environment builds quickly
    env.setdefault("UV_CACHE_DIR", str(Path.home() / ".cache" / "uv"))
    return env


@pytest.mark.slow
def test_the_readme_commands_work_under_an_externally_managed_python(tmp_path: Path) -> None:
    python = managed_python(tmp_path)
    env = environment(tmp_path, python)
    assert shutil.which("uv", path=env["PATH"]) is None
    # the README's old first command fails there, as on Debian 12
    refused = subprocess.run(
        ["python3", "-m", "pip", "install", "uv"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode != 0 and "externally-managed-environment" in refused.stderr

    # the README's first command: the server starts and the lobby answers
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [
            "bash",
            "scripts/serve.sh",
            "--port",
            str(port),
            "--database-url",
            f"sqlite:///{tmp_path / 'cherki.db'}",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 600
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
                    assert page.status == 200
                    break
            except OSError:
                assert server.poll() is None, server.communicate()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.5)
    finally:
        os.killpg(server.pid, 15)
        _, err = server.communicate(timeout=60)
    assert "installing uv into a virtual environment of its own" in err
    uv = Path(env["HOME"]) / ".local" / "share" / "cherki" / "uv" / "bin" / "uv"
    assert uv.exists()

    # the README's second command (one small test file, not the whole suite again)
    tests = subprocess.run(
        [
            "bash",
            "scripts/test.sh",
            "tests/test_install.py::test_the_blocker_blocks",
            "-q",
            "-p",
            "no:cacheprovider",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "1 passed" in tests.stdout
