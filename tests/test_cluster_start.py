"""Processes started together on a new PostgreSQL database all serve: one creates the
schema under an advisory lock (:data:`cherki.server.store.SCHEMA_LOCK`), the others wait for
it and find it made (two creating it at once failed with ``UniqueViolation``)."""

from __future__ import annotations

import subprocess
import sys

import httpx
from cluster import free_port, wait_serving
from pg import postgres_server


def test_three_processes_started_at_once_on_an_empty_database_all_serve() -> None:
    with postgres_server() as url:
        ports = [free_port() for _ in range(3)]
        procs = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "cherki",
                    "serve",
                    "--port",
                    str(port),
                    "--database-url",
                    url,
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            for port in ports
        ]
        try:
            for port, proc in zip(ports, procs, strict=True):
                wait_serving(f"http://127.0.0.1:{port}", proc, seconds=240)
            body = {"game": "balik-satu", "seats": [{"kind": "human"}] * 2}
            for port in ports:
                made = httpx.post(f"http://127.0.0.1:{port}/api/tables", json=body, timeout=60)
                assert made.status_code == 200, made.text
        finally:
            errors = []
            for proc in procs:
                proc.terminate()
                _, err = proc.communicate(timeout=60)
                errors.append(err.decode(errors="replace"))
        assert not any("UniqueViolation" in e or "Traceback" in e for e in errors), errors
