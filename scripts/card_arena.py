"""Write a learned model's arena figures into its model card (issue 38).

Each figure comes from ``cherki arena ... --json FILE`` (field mode: each bot in turn in one
seat among heuristic players, on the same deals), run with the command given here, so the
card says exactly what made it::

    uv run python scripts/card_arena.py src/cherki/bots/models/balik-satu-4p \\
        heuristic=arena-h.json "heuristic-command=cherki arena balik-satu ..." \\
        search=arena-s.json "search-command=cherki arena balik-satu ..."

Every difference between two bots is the per-deal mean with its 95% interval, as the arena
prints it; ``verdict`` says in words whether the learned bot is above the other with the
whole interval.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def figures(arena: dict[str, Any], command: str) -> dict[str, Any]:
    bots = {b["level"]: b for b in arena["bots"]}
    out: dict[str, Any] = {
        "command": command,
        "hands": arena["hands"],
        "players": arena["players"],
        "seed": arena["seed"],
        "field": arena["field"],
        "search": arena["search"],
        "seat_hands": bots["learned"]["seat_hands"],
        "seconds": arena["seconds"],
        "bots": {
            lv: {
                "seat_hands": b["seat_hands"],
                "mean_points_per_hand": b["mean_points_per_hand"],
                "win_rate": b["win_rate"],
                "median_decision_ms": b["median_decision_ms"],
            }
            for lv, b in bots.items()
        },
    }
    label = {b["bot"]: b["level"] for b in arena["bots"]}
    for d in arena["differences"]:
        a, b = label[d["bot"]], label[d["versus"]]
        iv = d["mean_points_per_hand"]
        if b == "learned":
            a, b = b, a
            iv = {"mean": -iv["mean"], "low": -iv["high"], "high": -iv["low"]}
        out[f"{a}_minus_{b}"] = iv
        if a == "learned":
            if iv["low"] > 0:
                word = "above, with the whole 95% interval"
            elif iv["high"] < 0:
                word = "below, with the whole 95% interval"
            else:
                word = "not distinguished at this size (the 95% interval holds 0)"
            out[f"verdict_{b}"] = f"learned against {b}: {word}"
    return out


def main(argv: list[str]) -> None:
    stem = Path(argv[0])
    card_path = stem.with_suffix(".card.json")
    card = json.loads(card_path.read_text())
    pairs = dict(a.split("=", 1) for a in argv[1:])
    arena = card.get("arena") or {}
    for name in ("heuristic", "search"):
        if name in pairs:
            data = json.loads(Path(pairs[name]).read_text())
            arena[name] = figures(data, pairs[f"{name}-command"])
    card["arena"] = arena
    card_path.write_text(json.dumps(card, indent=1, ensure_ascii=False) + "\n")
    print(json.dumps(arena, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
