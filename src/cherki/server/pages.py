"""The browser app's pages and static files (lobby, table, replay)."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).parent / "static"


def mount(app: FastAPI) -> None:
    """Serve the pages and their static files on ``app``."""
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
