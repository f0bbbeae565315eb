"""cherki's version, in a module of its own so that any layer can write it (a record's
``cherki`` field, a report's first line) without importing the package's ``__init__``."""

from __future__ import annotations

__version__ = "0.1.0"
