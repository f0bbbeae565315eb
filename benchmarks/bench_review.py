"""CPU time to review one seat's decisions in a whole hand (:mod:`cherki.play.review`).

For each table (a 4-player Balik Satu hand, a 4-player Ceki hand, a 3-player Cholek Tiga
hand, and every table whose reviews the learned bot's rollouts judge, issue 38:
``cherki.bots.review.evaluator_for`` over the shipped models; each game's default
preset) it plays ``--hands`` hands with the heuristic bot on every seat, then reviews
seat 0 of each at the review's default budget
(``cherki.bots.review.DEFAULT_BUDGET`` sampled deals a decision, every legal action played
in each), and prints the seat's real decisions, the CPU seconds of each review
(``time.process_time``: this process only; the review starts no other) and the ratio to the
anchor, the CPU time of playing that hand once with the heuristic (the rollout's unit). The
target: under 30 CPU-seconds a hand at the default budget on the reference machine (2
cores, 2026).

    uv run --group dev python benchmarks/bench_review.py
    uv run --group dev python benchmarks/bench_review.py --hands 5 --budget 32
    uv run --group dev python benchmarks/bench_review.py --tables balik-satu:2,chaqui:3

The evaluator column names the review's own (``search``, or ``learned`` where that bot is
measured at least as strong as the search).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from cherki.bots.base import heuristic_for
from cherki.bots.review import DEFAULT_BUDGET, evaluator_for
from cherki.bots.shipped import shipped
from cherki.core.contract import State
from cherki.core.deal import DealRequest
from cherki.games import find_game
from cherki.play.records import Record, hand_record, new_record
from cherki.play.review import review_record

#: the search's tables, then the learned bot's (where its card says it is as strong)
SEARCH = (("balik-satu", 4), ("ceki", 4), ("cholek-tiga", 3))
GAMES = (*SEARCH, *sorted(t for t in shipped() if evaluator_for(*t) == "learned"))
TARGET_S = 30.0


def play_hand(name: str, players: int, seed: int) -> tuple[Record, float]:
    """A hand played by the heuristic on every seat, and its CPU seconds (the anchor)."""
    game = find_game(name)
    rules = game.default_preset().rules
    bot = heuristic_for(name)
    t0 = time.process_time()
    state: State = game.start(rules, players, DealRequest(seed=seed))
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(bot.act(state.observation(state.current), rng))
    anchor = time.process_time() - t0
    record = new_record(game, rules, [f"p{i}" for i in range(players)])
    record.hands.append(hand_record(state))
    return record, anchor


# -- reviews beside the server's other tables (bench_server.py --reviews N) -------------------
async def _finish_a_hand(port: int, token: str) -> None:
    """Play a seat of a one-hand table over its WebSocket at once (sampei, else draw, else
    a discard at random) until the match is over."""
    import websockets

    rng = random.Random(token)
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/seat/{token}", max_size=2**23) as ws:
        acted = -1
        async for raw in ws:
            msg = json.loads(raw)
            if msg.get("type") != "state":
                continue
            if msg.get("over"):
                return
            obs = msg.get("observation") or {}
            legal = obs.get("legal") or []
            if not legal or obs.get("current") != msg.get("seat") or msg["version"] <= acted:
                continue
            texts = {a["text"]: a["id"] for a in legal}
            pick = next((texts[w] for w in ("sampei", "draw") if w in texts), None)
            action = pick if pick is not None else rng.choice([a["id"] for a in legal])
            acted = msg["version"]
            await ws.send(json.dumps({"type": "act", "action": action, "version": acted}))


async def review_load(port: int, reviews: int, done: list[float]) -> None:
    """Keep ``reviews`` reviews running on the server at ``port`` (each of a one-hand table
    of its own, finished first, from an address of its own), appending each review's
    seconds to ``done``, until cancelled. The server needs ``--limit reviews=N``."""
    import asyncio

    import httpx

    async def one(i: int) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=f"127.0.9.{i + 1}")
        async with httpx.AsyncClient(
            base_url=f"http://127.0.0.1:{port}", timeout=60, transport=transport
        ) as client:
            seats = [{"kind": "human"}] + [{"kind": "bot", "level": "heuristic"}] * 3
            body = {"game": "balik-satu", "seats": seats, "bot_pace": 0, "pause": False,
                    "hands": 1}  # fmt: skip
            made = (await client.post("/api/tables", json=body)).json()
            table, token = made["table"], made["seats"]["0"]
            await _finish_a_hand(port, token)
            while True:
                t0 = time.monotonic()
                r = await client.post(f"/api/tables/{table}/review", params={"token": token})
                if r.status_code != 200:
                    print(f"review refused: {r.text}", flush=True)
                    await asyncio.sleep(1.0)
                    continue
                key = r.json()["id"]
                while True:
                    await asyncio.sleep(0.5)
                    state = (await client.get(f"/api/reviews/{key}")).json()
                    if state["state"] not in ("waiting", "working"):
                        break
                done.append(time.monotonic() - t0)

    await asyncio.gather(*(one(i) for i in range(reviews)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=3, help="hands reviewed a game")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--seed", type=int, default=1, help="the first hand's seed")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument(
        "--tables", default=",".join(f"{g}:{n}" for g, n in GAMES), help="GAME:PLAYERS,..."
    )
    args = parser.parse_args()
    tables = [(t.split(":")[0], int(t.split(":")[1])) for t in args.tables.split(",")]
    print(f"review of seat 0, budget {args.budget} sampled deals a decision, {args.hands} hands")
    print(
        f"{'table':<15} {'hand':>4} {'evaluator':>9} {'decisions':>9} {'CPU s':>7} "
        f"{'s/decision':>10} {'anchor ms':>9} {'× anchor':>9}"
    )
    out: dict[str, list[dict[str, float]]] = {}
    for name, players in tables:
        label = f"{name} {players}p"
        rows = out.setdefault(label, [])
        for h in range(args.hands):
            seed = args.seed + h
            record, anchor = play_hand(name, players, seed)
            t0 = time.process_time()
            review = review_record(record, 0, budget=args.budget)
            cpu = time.process_time() - t0
            n = len(review.decisions)
            rows.append({"seed": seed, "decisions": n, "cpu_s": cpu, "anchor_s": anchor})
            print(
                f"{label:<15} {seed:>4} {review.evaluator:>9} {n:>9} {cpu:>7.2f} "
                f"{cpu / max(n, 1):>10.3f} "
                f"{anchor * 1000:>9.1f} {cpu / anchor:>9.0f}"
            )
    print()
    print(f"{'table':<15} {'mean CPU s':>10} {'worst CPU s':>11}  target < {TARGET_S:g} s")
    for name, rows in out.items():
        cpus = [r["cpu_s"] for r in rows]
        worst = max(cpus)
        verdict = "meets" if worst < TARGET_S else "MISSES"
        print(f"{name:<15} {statistics.mean(cpus):>10.2f} {worst:>11.2f}  {verdict}")
    if args.json:
        args.json.write_text(json.dumps({"budget": args.budget, "games": out}, indent=1) + "\n")


if __name__ == "__main__":
    main()
