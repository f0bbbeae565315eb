"""Where the search's edge over the heuristic lies, in a game of sets (issue 38).

A probe bot plays a base policy (the hand-set heuristic, or the shipped learned bot) and
departs from it only at the decisions named, so that its figure against the heuristic says
what those decisions are worth:

* ``--search-at take`` / ``call`` / ``tie`` (or several, comma-separated): the race search
  (``--rollouts`` futures, :meth:`cherki.bots.search.SearchBot.by_rollouts`) decides where
  the base would take a discard, where the seat, not yet called, may call, and at the plain
  discards where the base's heuristic rates two or more discards level (where it would
  draw lots, or break the tie by its weights); with the learned base the search plays the
  model's tuned weights (for the score, as the search's own policy does);
* ``--tie-break red,held,live``: among the plain discards the base's heuristic rates equal
  (where it would draw lots: ``scores``), the probe throws by a fixed rule, each key in turn
  breaking the ties the one before left: ``red`` keeps the red cards (``S9``, ``RF``,
  ``OT``), ``held`` throws from the value group of which the hand holds fewest, ``live``
  from the group with fewest cards the seat has not seen, ``same`` the card of whose own
  kind fewest copies are unseen, ``rank`` the card of the lowest rank; then the lowest
  action id.

``--study-ties`` asks instead which of the level discards the search itself throws: in
hands of heuristic players, at every plain discard with level choices, how often the
search's pick has the least value of each key, against what lots would give.

It plays the arena's field mode on the arena's deals (``cherki arena GAME -n N --bots ...
--field heuristic --seed S``: deal ``d`` is ``game.new_state(rules, n, seed=S + d, first=d %
n)``, seat ``i`` draws from ``random.Random(S * 1_000_003 + d * 101 + i)``), the probe in each
seat in turn among heuristic players, and prints its mean points a hand above the
heuristic's in the same seat on the same deal, with the 95% interval over deals, the share
of its decisions the search took and their CPU time::

    uv run python scripts/search_edge.py balik-satu -n 4 --base learned --tie-break held,live
    uv run python scripts/search_edge.py balik-satu -n 4 --base learned --search-at take,call \\
        --deals 400
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from cherki.bots.balik import BalikHeuristicBot
from cherki.bots.base import Heuristic, heuristic_for
from cherki.bots.learned import LearnedBot, shipped_model
from cherki.bots.search import SearchBot
from cherki.core.cards import RANK, RED
from cherki.core.contract import Observation, State, play_out
from cherki.core.errors import RulesError
from cherki.core.sets import GROUPINGS
from cherki.games import find_game
from cherki.games.sets.actions import CALL_TAN, DISCARD, TAKE
from cherki.games.sets.observation import SetsObservation
from cherki.play.arena import mean_interval

TIE_KEYS = ("red", "held", "live", "same", "rank")
SEARCH_AT = ("take", "call", "tie")


class Probe:
    """The base policy, with the search or the tie-break rule at the decisions named."""

    def __init__(
        self,
        game: str,
        players: int,
        base: str,
        search_at: Sequence[str],
        tie_break: Sequence[str],
        rollouts: int,
    ) -> None:
        self.base: LearnedBot | Heuristic
        if base == "learned":
            model = shipped_model(game, players)
            self.base = LearnedBot(game, model)
            self.rater = model.heuristic()
            weights = model.weights
        else:
            self.base = self.rater = heuristic_for(game)
            weights = None
        self.search_at = set(search_at)
        self.tie_break = list(tie_break)
        self.search = SearchBot.by_rollouts(game, rollouts)
        if weights is not None:
            self.search.heuristic = BalikHeuristicBot(for_score=True, weights=weights)
        self.decisions = 0
        self.searched = 0
        #: plain discards met (no call open to the seat), and those with level discards
        self.plain = 0
        self.tied = 0
        self.search_seconds = 0.0

    def act(self, obs: Observation, rng: random.Random) -> int:
        if not isinstance(obs, SetsObservation):
            raise TypeError("the probe plays the games of sets")
        self.decisions += 1
        legal = [int(a) for a in obs.legal]
        choice = int(self.base.act(obs, rng))  # its lots drawn as the base alone draws them
        if len(legal) == 1:
            return choice
        open_seat = obs.calls[obs.seat] is None
        may_call = open_seat and any(a >= CALL_TAN for a in legal)
        if ("take" in self.search_at and obs.phase == "draw" and choice == TAKE) or (
            "call" in self.search_at and obs.phase == "discard" and may_call
        ):
            return self._search(obs, rng)
        plain = obs.phase == "discard" and open_seat and not may_call
        if (self.tie_break or "tie" in self.search_at) and plain:
            self.plain += 1
            tied = self._level(obs, choice)
            if len(tied) < 2:
                return choice
            self.tied += 1
            if "tie" in self.search_at:
                return self._search(obs, rng)
            values = _tie_values(obs, tied)
            return int(min(tied, key=lambda a: (*(values[a][k] for k in self.tie_break), a)))
        return choice

    def _search(self, obs: SetsObservation, rng: random.Random) -> int:
        """The search's choice, its CPU time counted."""
        self.searched += 1
        t0 = time.process_time()
        choice = int(self.search.act(obs, rng))
        self.search_seconds += time.process_time() - t0
        return choice

    def _level(self, obs: SetsObservation, choice: int) -> list[int]:
        """The plain discards the base's heuristic rates level with its choice."""
        scores = self.rater.scores(obs)
        if scores is None or choice not in scores:
            return []
        top = scores[choice]
        return [a for a, v in scores.items() if abs(v - top) < 1e-9 and DISCARD <= a < CALL_TAN]


def _play(state: State, bots: Sequence[Probe | Heuristic], rngs: list[random.Random]) -> None:
    """Play ``state`` to its end, each seat's bot drawing from its own generator."""
    play_out(state, lambda seat, obs: int(bots[seat].act(obs, rngs[seat])))


def run(args: argparse.Namespace) -> dict[str, Any]:
    game = find_game(args.game)
    n = args.players if args.players is not None else game.default_players
    game.check_players(n)
    rules = game.rules(args.rules)
    if not isinstance(heuristic_for(game.name), BalikHeuristicBot):
        raise RulesError(f"the probe is for the games of sets, not {game.title}")
    per_deal: list[float] = []
    decisions = searched = plain_met = tied_met = 0
    seconds = 0.0
    seed = args.seed
    for d in range(args.first_deal, args.first_deal + args.deals):
        seats: list[float] = []
        plain = game.new_state(rules, n, seed=seed + d, first=d % n)
        field: list[Probe | Heuristic] = [heuristic_for(game.name) for _ in range(n)]
        rngs = [random.Random(seed * 1_000_003 + d * 101 + i) for i in range(n)]
        _play(plain, field, rngs)
        assert plain.result is not None
        for guest in range(n):
            probe = Probe(game.name, n, args.base, args.search_at, args.tie_break, args.rollouts)
            bots: list[Probe | Heuristic] = [
                probe if i == guest else heuristic_for(game.name) for i in range(n)
            ]
            rngs = [random.Random(seed * 1_000_003 + d * 101 + i) for i in range(n)]
            state = game.new_state(rules, n, seed=seed + d, first=d % n)
            _play(state, bots, rngs)
            assert state.result is not None
            seats.append(state.result.payments[guest] - plain.result.payments[guest])
            decisions += probe.decisions
            searched += probe.searched
            plain_met += probe.plain
            tied_met += probe.tied
            seconds += probe.search_seconds
        per_deal.append(sum(seats) / n)
        if args.progress and (d - args.first_deal + 1) % 50 == 0:
            so_far = mean_interval(per_deal)
            print(f"{len(per_deal)} deals: {so_far.mean:+.3f}", file=sys.stderr, flush=True)
    figure = mean_interval(per_deal)
    return {
        "game": game.name,
        "players": n,
        "rules": args.rules,
        "seed": seed,
        "deals": [args.first_deal, args.first_deal + args.deals],
        "seat_hands": args.deals * n,
        "base": args.base,
        "search_at": list(args.search_at),
        "rollouts": args.rollouts,
        "tie_break": list(args.tie_break),
        "minus_heuristic": figure.to_json(),
        "decisions": decisions,
        "searched": searched,
        "plain_discards": plain_met,
        "tied_discards": tied_met,
        "search_ms_per_decision": 1000 * seconds / max(1, decisions),
        "ms_per_search": 1000 * seconds / max(1, searched),
    }


def study_ties(args: argparse.Namespace) -> dict[str, Any]:
    """``--study-ties``: which of the discards the heuristic rates level the search throws.
    Hands of heuristic players on the arena's deals; at every seat's plain discard with level
    choices the search (``--rollouts``) is asked too, and for each key of :data:`TIE_KEYS`
    the study counts, among positions where the key's values differ, how often the search's
    pick has the least value, against the share a pick by lots would (the chance)."""
    game = find_game(args.game)
    n = args.players if args.players is not None else game.default_players
    game.check_players(n)
    rules = game.rules(args.rules)
    rater = heuristic_for(game.name)
    if not isinstance(rater, BalikHeuristicBot):
        raise RulesError(f"the probe is for the games of sets, not {game.title}")
    search = SearchBot.by_rollouts(game.name, args.rollouts)
    keys = {k: {"positions": 0, "least": 0, "chance": 0.0} for k in TIE_KEYS}
    positions = 0
    for d in range(args.first_deal, args.first_deal + args.deals):
        state = game.new_state(rules, n, seed=args.seed + d, first=d % n)
        rngs = [random.Random(args.seed * 1_000_003 + d * 101 + i) for i in range(n)]
        while not state.is_terminal:
            seat = state.current
            obs = state.observation(seat)
            assert isinstance(obs, SetsObservation)
            plain = obs.phase == "discard" and obs.calls[seat] is None
            scores = rater.scores(obs) if plain else None
            if scores is not None and not any(a >= CALL_TAN for a in obs.legal):
                top = max(scores.values())
                level = [a for a, v in scores.items() if v == top]
                if len(level) > 1:
                    positions += 1
                    pick = int(search.act(obs, random.Random(d * 101 + seat)))
                    values = _tie_values(obs, level)
                    for k in TIE_KEYS:
                        got = [values[a][k] for a in level]
                        if pick in values and min(got) != max(got):
                            least = [a for a in level if values[a][k] == min(got)]
                            keys[k]["positions"] += 1
                            keys[k]["least"] += pick in least
                            keys[k]["chance"] += len(least) / len(level)
            state.apply(rater.act(obs, rngs[seat]), seat)
    return {
        "game": game.name,
        "players": n,
        "deals": [args.first_deal, args.first_deal + args.deals],
        "rollouts": args.rollouts,
        "positions": positions,
        "keys": {
            k: {
                "positions": v["positions"],
                "search_least": v["least"] / max(1, v["positions"]),
                "chance": v["chance"] / max(1, v["positions"]),
            }
            for k, v in keys.items()
        },
    }


def _tie_values(obs: SetsObservation, level: list[int]) -> dict[int, dict[str, int]]:
    """Each level discard's values of the tie-break's keys (see the module)."""
    group = GROUPINGS[obs.honours]
    hand = list(obs.hand)
    live = obs.unseen()
    out: dict[int, dict[str, int]] = {}
    for a in level:
        k = a - DISCARD
        g = group[k]
        out[a] = {
            "red": int(k in RED),
            "held": sum(c for j, c in enumerate(hand) if group[j] == g),
            "live": sum(c for j, c in enumerate(live) if group[j] == g),
            "same": live[k],
            "rank": RANK[k],
        }
    return out


def _names(allowed: tuple[str, ...]) -> Any:
    def parse(text: str) -> list[str]:
        names = [t.strip() for t in text.split(",") if t.strip()]
        bad = [t for t in names if t not in allowed]
        if bad or len(set(names)) != len(names):
            raise argparse.ArgumentTypeError(
                f"give distinct names from {', '.join(allowed)}, comma-separated, not {text!r}"
            )
        return names

    return parse


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("game")
    p.add_argument("-n", "--players", type=int, default=None)
    p.add_argument("--rules", default=None, help="a preset of the game (its default if not)")
    p.add_argument("--base", choices=("heuristic", "learned"), default="learned")
    p.add_argument("--search-at", type=_names(SEARCH_AT), default=[])
    p.add_argument("--tie-break", type=_names(TIE_KEYS), default=[])
    p.add_argument("--rollouts", type=int, default=256)
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--first-deal", type=int, default=0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", default=None, help="also write the figures to this file")
    p.add_argument("--progress", action="store_true", help="the running mean every 50 deals")
    p.add_argument(
        "--study-ties",
        action="store_true",
        help="instead: which of the discards the heuristic rates level the search throws",
    )
    args = p.parse_args(argv)
    if args.deals < 2:
        p.error("--deals must be at least 2 (an interval needs two deals)")
    if args.rollouts < 2:
        p.error("--rollouts must be at least 2")
    try:
        out = study_ties(args) if args.study_ties else run(args)
    except RulesError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=2)
    if args.study_ties:
        print(
            f"{out['game']} {out['players']}p: {out['positions']} plain discards with level "
            f"choices, the search ({out['rollouts']} rollouts) asked at each"
        )
        for k, v in out["keys"].items():
            print(
                f"  {k}: where it differs ({v['positions']}), the search throws the least "
                f"{100 * v['search_least']:.0f}% of the time (lots would {100 * v['chance']:.0f}%)"
            )
        return 0
    f = out["minus_heuristic"]
    print(
        f"{out['game']} {out['players']}p, base {out['base']}, search at "
        f"{','.join(out['search_at']) or 'nothing'}, "
        f"tie-break {','.join(out['tie_break']) or 'lots'}: "
        f"{f['mean']:+.2f} [{f['low']:+.2f}, {f['high']:+.2f}] points a hand above the heuristic "
        f"({out['seat_hands']} seat-hands); searched {out['searched']} of {out['decisions']} "
        f"decisions, {out['search_ms_per_decision']:.1f} ms of search a decision"
        + (
            f"; {out['tied_discards']} of {out['plain_discards']} plain discards had level "
            "choices to break"
            if out["tie_break"] or "tie" in out["search_at"]
            else ""
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
