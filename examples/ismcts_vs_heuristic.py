"""OpenSpiel's ISMCTS in seat 0 against cherki's heuristic bot in every other seat.

The game is cherki's OpenSpiel adapter (``cherki.adapters.openspiel``): the shoe is dealt by
chance nodes, ISMCTS (``open_spiel.python.algorithms.ismcts`` with random rollouts) samples
the hidden cards with the adapter's ``resample_from_infostate``, and the heuristic bots act
on their cherki observation. Prints ISMCTS's mean points per hand with a 95% interval and
its win rate (a hand it gained in) with Wilson's interval.

    uv run --extra rl python examples/ismcts_vs_heuristic.py --game tantanan \\
        --hands 10 --simulations 50

Seat 0 always plays first (the adapter deals every hand with seat 0 first), so the figures
are those of the first seat, not of ISMCTS in general; a few hands give wide intervals.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from cherki.adapters import openspiel as osp
from cherki.bots import make_bot
from cherki.games import find_game
from cherki.play.arena import BotStats, mean_interval


def play_hand(game: Any, search: Any, bots: dict[int, Any], seed: int) -> float:
    """One hand; returns seat 0's points."""
    chance = np.random.RandomState(seed)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            kinds, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(chance.choice(kinds, p=probs)))
            continue
        seat = state.current_player()
        if seat == 0:
            action = int(search.step(state))
        else:
            under = osp.cherki_state(state)
            assert under is not None
            action = bots[seat].act(under.observation(seat), rng)
        state.apply_action(action)
    return float(state.returns()[0])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tantanan", help="a cherki game (default tantanan)")
    parser.add_argument("--players", type=int, default=None, help="default: the game's")
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--simulations", type=int, default=50, help="ISMCTS's, a decision")
    parser.add_argument(
        "--uct", type=float, default=10.0, help="ISMCTS's exploration constant (returns in points)"
    )
    args = parser.parse_args(argv)

    name = find_game(args.game).name
    params = {} if args.players is None else {"players": args.players}
    game = osp.load_game(name, **params)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(args.seed + 1))
    search = ismcts.ISMCTSBot(
        game,
        evaluator,
        args.uct,
        args.simulations,
        random_state=np.random.RandomState(args.seed + 2),
    )
    bots = {seat: make_bot(name, "heuristic") for seat in range(1, game.num_players())}

    points: list[float] = []
    start = time.perf_counter()
    for hand in range(args.hands):
        points.append(play_hand(game, search, bots, args.seed * 100_003 + hand))
        print(f"hand {hand + 1}: ISMCTS {points[-1]:+g}", flush=True)
    took = time.perf_counter() - start

    wins = sum(1 for p in points if p > 0)
    mean = mean_interval(points)
    rate = BotStats("ismcts", "ismcts", seat_hands=len(points), wins=wins).win_interval()
    print(
        f"{game}: ISMCTS ({args.simulations} simulations) in seat 0 against "
        f"{game.num_players() - 1} heuristic bots, {len(points)} hands in {took:.1f}s"
    )
    print(
        f"mean points per hand: {mean.mean:+.2f} (95% interval {mean.low:+.2f} to {mean.high:+.2f})"
    )
    print(
        f"win rate: {rate.mean:.0%} ({wins} of {len(points)}; "
        f"Wilson 95% interval {rate.low:.0%} to {rate.high:.0%})"
    )


if __name__ == "__main__":
    main()
