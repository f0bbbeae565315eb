"""cherki's version, in a module of its own so that any layer can write it (a record's
``cherki`` field, a report's first line) without importing the package's ``__init__``.

**The version changes when the rules do.** ``RULES_FINGERPRINT`` is the rules fingerprint
(:mod:`cherki.play.fingerprint`: the seeded-play hash of ``scripts/play_hash.py``, small) of
the rules this version plays; ``RULES_HISTORY`` keeps each released version's. A change that
moves a rule (any legal list, event or result of seeded play) changes the fingerprint, and
``tests/test_provenance.py`` fails until ``__version__`` (and ``pyproject.toml``) is raised
and the new version and fingerprint are added below. A change that moves no rule keeps both.
"""

from __future__ import annotations

__version__ = "0.2.0"

#: the rules fingerprint of each version, oldest first; the last is this version's
RULES_HISTORY: dict[str, str] = {
    "0.2.0": "67333515fc3b85ca",
}

RULES_FINGERPRINT = RULES_HISTORY[__version__]
