"""The hash of seeded play over every game (``scripts/play_hash.py``), and cherki's
provenance: the version, the commit, and the rules fingerprint every output names.

:func:`game_hash` plays seeded random hands of a game, every preset and every flag or choice
option flipped, at a few table sizes, and hashes every legal list, every event and the
result (and some encodings). ``scripts/play_hash.py`` runs it at 150 hands a preset, to show
across commits that a change moved no rule. The **rules fingerprint** is the same hash, small
enough to compute at start: 3 hands a preset, 1 hand for each option flipped, no encodings
(:data:`FINGERPRINT_HANDS`). It is what ``cherki --version`` names outside a git checkout,
and ``cherki.version.RULES_FINGERPRINT`` records the one the version was released with
(``tests/test_provenance.py`` fails when they differ: a rule changed and the version did not).
The fingerprint is computed once and cached, in memory and in the user's cache folder, keyed
by a hash of the installed package's rule files.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import random
import subprocess
from pathlib import Path

from cherki.core.contract import Game
from cherki.core.options import Value
from cherki.games import GAMES

#: the fingerprint's size: hands a preset, hands an option flipped
FINGERPRINT_HANDS = (3, 1)


def variants(
    game: Game, hands: int, option_hands: int | None = None
) -> list[tuple[str | None, dict[str, Value], int]]:
    """Each preset at ``hands`` hands, then each option flipped at ``option_hands`` (by
    default a tenth as many, at least 10)."""
    flipped = max(10, hands // 10) if option_hands is None else option_hands
    out: list[tuple[str | None, dict[str, Value], int]] = [
        (p.name, {}, hands) for p in game.presets
    ]
    for opt in game.options:
        base = getattr(game.default_preset().rules, opt.name)
        values: list[Value]
        if opt.kind is bool:
            values = [not base]
        elif opt.choices:
            values = [c for c in opt.choices if c != base]
        else:
            continue
        for value in values:
            try:
                game.rules(None, **{opt.name: value})
            except Exception:  # a flip the rules refuse alone (it needs another option)
                continue
            out.append((None, {opt.name: value}, flipped))
    return out


def game_hash(
    name: str, hands: int, encode: bool = True, option_hands: int | None = None
) -> tuple[str, int]:
    """The hash of ``name``'s seeded play and its number of steps (``option_hands``: the
    hands of each option flipped, as :func:`variants`)."""
    game = GAMES[name]
    lo, hi = game.players
    counts = sorted({game.default_players, lo, min(hi, lo + 1), min(hi, game.default_players + 2)})
    h = hashlib.sha256()
    steps = 0
    for preset, options, count in variants(game, hands, option_hands):
        rules = game.rules(preset, **options)
        for i in range(count):
            n = counts[i % len(counts)]
            rng = random.Random(i * 31 + 7)
            try:
                state = game.new_state(rules, n, seed=i, first=i % n)
            except Exception as e:  # a table size the rules refuse: hashed as refused
                h.update(f"start-error {type(e).__name__} {e}".encode())
                continue
            while state.current >= 0:
                legal = state.legal_actions()
                h.update(repr(legal).encode())
                if encode and i % 3 == 0:
                    h.update(state.encode(state.current).tobytes())
                    if i % 9 == 0:
                        h.update(state.encode(rng.randrange(n)).tobytes())
                for event in state.apply(rng.choice(legal)):
                    h.update(json.dumps(event.to_json(), sort_keys=True).encode())
                steps += 1
            h.update(json.dumps(state.result.to_json(), sort_keys=True, default=str).encode())
    return h.hexdigest()[:16], steps


def own_games() -> list[str]:
    """cherki's own games, sorted (not those listed from outside: ``CHERKI_GAMES``, entry
    points), whose rules the version names."""
    return sorted(n for n, g in GAMES.items() if type(g).__module__.startswith("cherki."))


def compute_fingerprint() -> str:
    """The rules fingerprint, computed now (a few seconds): the total of :func:`game_hash`
    over cherki's own games at :data:`FINGERPRINT_HANDS`, without encodings."""
    hands, flipped = FINGERPRINT_HANDS
    total = hashlib.sha256()
    for name in own_games():
        digest, _ = game_hash(name, hands, False, flipped)
        total.update(digest.encode())
    return total.hexdigest()[:16]


def _package() -> Path:
    return Path(__file__).resolve().parents[1]


def _sources_key() -> str:
    """A hash of the package's Python files: the cache's key (any change recomputes)."""
    h = hashlib.sha256()
    root = _package()
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:24]


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cherki"


@functools.cache
def rules_fingerprint() -> str:
    """The rules fingerprint of the installed package, cached in memory and in
    ``$XDG_CACHE_HOME/cherki/fingerprint-<key>`` (``~/.cache``), keyed by its sources."""
    try:
        cached = _cache_dir() / f"fingerprint-{_sources_key()}"
        if cached.is_file():
            text = cached.read_text(encoding="ascii").strip()
            if len(text) == 16:
                return text
    except (OSError, UnicodeDecodeError, ValueError):
        cached = None
    value = compute_fingerprint()
    if cached is not None:
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            cached.write_text(value + "\n", encoding="ascii")
        except OSError:
            pass  # a read-only home: computed again next time
    return value


@functools.cache
def commit() -> str | None:
    """The git commit of the checkout the package runs from (with ``-dirty`` when its
    files differ from it), or None outside a checkout."""
    root = _package().parents[1]
    if not (root / ".git").exists():
        return None
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"],
            capture_output=True, text=True, timeout=10, check=True,
        ).stdout.strip()  # fmt: skip
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no", "--", "src"],
            capture_output=True, text=True, timeout=10, check=True,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("-dirty" if dirty else "") if head else None


def provenance() -> dict[str, str]:
    """What made an output: ``cherki`` (the version), ``commit`` (the git commit, or
    ``"none"`` outside a checkout) and ``rules`` (the rules fingerprint: the recorded one
    in a checkout at a clean commit, else computed)."""
    from cherki.version import RULES_FINGERPRINT, __version__

    sha = commit()
    clean = sha is not None and not sha.endswith("-dirty")
    return {
        "cherki": __version__,
        "commit": sha or "none",
        "rules": RULES_FINGERPRINT if clean else rules_fingerprint(),
    }


def version_line() -> str:
    """``cherki 0.2.0 (commit 0374224abcde, rules 67333515fc3b85ca)``: one line."""
    p = provenance()
    where = f"commit {p['commit']}" if p["commit"] != "none" else "no git checkout"
    return f"cherki {p['cherki']} ({where}, rules {p['rules']})"
