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
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
from typing import Any

from cherki.games import GAMES


def variants(
    game: Any, hands: int, option_hands: int | None = None
) -> list[tuple[str | None, dict[str, Any], int]]:
    """Each preset at ``hands`` hands, then each option flipped at ``option_hands`` (by
    default a tenth as many, at least 10)."""
    flipped = max(10, hands // 10) if option_hands is None else option_hands
    out: list[tuple[str | None, dict[str, Any], int]] = [(p.name, {}, hands) for p in game.presets]
    for opt in game.options:
        base = getattr(game.default_preset().rules, opt.name)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("hands", nargs="?", type=int, default=150, help="hands a preset")
    parser.add_argument("--games", default="", help="comma-separated games (default: all)")
    parser.add_argument("--no-encode", action="store_true", help="leave out the encodings")
    args = parser.parse_args()
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
