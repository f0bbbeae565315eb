"""One hash of seeded play over every game, to show that a change moved no rule.

Plays seeded random hands of every game (or those named), every preset and every flag or
choice option flipped, at a few table sizes, and hashes every legal list, every event, the
result and some of the state's encodings, per game and in total. A change meant to alter
no rule (a refactor, a speed-up, the compiled engine) must print the same total before and
after. Run from the repository root::

    uv run python scripts/play_hash.py 30                  # 30 hands a preset
    CHERKI_COMPILED=1 uv run python scripts/play_hash.py 30  # the same, compiled
    uv run python scripts/play_hash.py 30 --games=tantanan,ceken --no-encode

Unlike ``scripts/compile_engine.py``'s check (pure against compiled in one tree), the total
is compared across trees: run it on the old commit and the new one.

The hashing lives in :mod:`cherki.play.fingerprint`, so that an installed cherki computes the
same hash: its rules fingerprint (``cherki --version``) is this hash at 3 hands a preset and 1
an option, without encodings (``uv run python scripts/play_hash.py --fingerprint`` prints it).
"""

from __future__ import annotations

import argparse
import hashlib
import time

from cherki.games import GAMES
from cherki.play.fingerprint import game_hash, variants

__all__ = ["game_hash", "main", "variants"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("hands", nargs="?", type=int, default=150, help="hands a preset")
    parser.add_argument("--games", default="", help="comma-separated games (default: all)")
    parser.add_argument("--no-encode", action="store_true", help="leave out the encodings")
    parser.add_argument(
        "--fingerprint", action="store_true", help="print the rules fingerprint and stop"
    )
    args = parser.parse_args()
    if args.fingerprint:
        from cherki.play.fingerprint import compute_fingerprint

        print(compute_fingerprint())
        return
    names = args.games.split(",") if args.games else sorted(GAMES)
    unknown = [n for n in names if n not in GAMES]
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)}; the games are {', '.join(sorted(GAMES))}")
    total = hashlib.sha256()
    start = time.time()
    for name in names:
        digest, steps = game_hash(name, args.hands, not args.no_encode)
        total.update(digest.encode())
        print(f"{name:18} {steps:8d} steps  {digest}", flush=True)
    print(f"TOTAL {total.hexdigest()[:16]}  ({time.time() - start:.0f}s)")


if __name__ == "__main__":
    main()
