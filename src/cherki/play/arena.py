"""The arena: many hands between bots, seats rotated, with confidence intervals.

Our specifications
------------------
* The bots listed are seated cyclically, shifted by one seat each hand (seat ``i`` of hand
  ``h`` gets bot ``(i + h) mod k`` for ``k`` bots), so every bot sits in every seat equally
  often and no bot gains from its seat. A bot listed fewer times than there are seats fills
  several seats in a hand.
* *Duplicate* deals (the default): each deal is played ``k`` times in a row, once under each
  shift, so every bot holds every hand of that deal once. Luck of the deal then cancels out
  of the comparison, as in duplicate bridge, and far fewer hands show a real difference. Deal
  ``d`` is shuffled from seed ``seed + d``. Without duplicate, hand ``h`` has seed ``seed + h``.
* Each bot's figure for a hand is the mean of its seats' points that hand (a hand voided and
  dealt again counts as 0 for everyone). When there are more bots than seats, a bot sits
  out some hands of each deal; those hands do not count for it. Its *mean points per hand*
  is the mean over all hands, with a 95% interval ``mean ± 1.96 · sd / √blocks`` (normal
  approximation), where the independent samples are the deals' averages (duplicate) or the
  single hands.
* *Win rate* is the share of its seat-hands a bot won.
* For each pair of bots the arena also gives the per-hand difference of their figures, with
  its 95% interval: a margin whose interval excludes zero is a significant difference. With
  fewer than ``MIN_SAMPLES`` (30) independent samples (deals, or hands without duplicate) the
  normal approximation cannot be trusted (a handful of deals can all agree and give a
  zero-width interval), so the verdict is "too few to tell" whatever the interval says.
* A run can be stopped and resumed: ``run_arena`` takes the outcomes of hands already played
  (``done``) and hands its ``save`` every finished hand's outcome as it goes, so the figures
  of a resumed run are those of an unbroken one (decision times aside).
* Every bot gets its own random generator, seeded from the arena seed, the hand and the
  seat, so an arena run is reproducible, and gives the same figures when its hands are
  shared out between processes (``jobs``).

*Field* play (``field=LEVEL``, ``--field LEVEL``) measures each bot as a replacement for one
player at a table of ``LEVEL`` bots, the way a duplicate match compares two players who sit
in the same seat with the same cards against the same opponents:

* Deal ``d`` (seed ``seed + d``) is played once for every seat and every listed bot: the bot
  in that seat, a ``LEVEL`` bot in every other seat. A bot's figure for the deal is the mean
  of its points over the seats it sat in; its win rate counts those seat-hands.
* Each seat's generator depends on the deal and the seat only, so the ``LEVEL`` players at
  the table draw the same numbers whichever bot sits among them, and the hands of two bots
  in one seat stay identical until their choices first differ. Listing ``LEVEL`` itself
  among the bots gives the table's own baseline (all ``LEVEL`` players), and the difference
  to it is what the bot gains or loses in that seat. Random differences between the runs
  come only from the decisions where the bots differ, so far fewer hands show a margin than
  with rotated seats.
* ``hands`` counts every hand played: a deal takes ``bots × players`` of them.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import TypedDict

from cherki.bots import SearchBot, SearchBudget, make_bot
from cherki.bots.base import Bot
from cherki.core.contract import Game, Observation, Rules, play_out
from cherki.core.errors import RulesError
from cherki.games import find_game


class IntervalJSON(TypedDict):
    """An interval as JSON: the figure and its 95% bounds."""

    mean: float
    low: float
    high: float


@dataclass(frozen=True)
class Interval:
    mean: float
    low: float
    high: float

    def to_json(self) -> IntervalJSON:
        return {"mean": self.mean, "low": self.low, "high": self.high}


def wilson(successes: int, trials: int) -> Interval:
    """A share with Wilson's 95% score interval, right near 0 and 1 (none in 40 gives
    [0%, 8.8%], not [0%, 0%]); with no trials, the whole of [0, 1]."""
    if not trials:
        return Interval(0.0, 0.0, 1.0)
    n = trials
    p = successes / n
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # the bounds hold the share itself, even where rounding would put 1.0 past them
    return Interval(p, min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


def mean_interval(samples: Sequence[float]) -> Interval:
    n = len(samples)
    if n == 0:
        return Interval(0.0, 0.0, 0.0)
    m = sum(samples) / n
    if n == 1:
        return Interval(m, m, m)
    var = sum((x - m) ** 2 for x in samples) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return Interval(m, m - half, m + half)


@dataclass
class BotStats:
    label: str
    level: str
    seat_hands: int = 0
    wins: int = 0
    per_hand: list[float] = field(default_factory=list)
    decision_ms: list[float] = field(default_factory=list)
    block: int = 1

    @property
    def samples(self) -> list[float]:
        """Independent samples: the mean over each block of ``block`` hands (one deal)."""
        b = self.block
        return [
            sum(self.per_hand[i : i + b]) / len(self.per_hand[i : i + b])
            for i in range(0, len(self.per_hand), b)
        ]

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_hands if self.seat_hands else 0.0

    def win_interval(self) -> Interval:
        """The win rate with Wilson's 95% score interval, which stays right near 0 and 1
        (a bot that never won in 40 hands gets [0%, 8.8%], not [0%, 0%])."""
        return wilson(self.wins, self.seat_hands)


class BotJSON(TypedDict):
    """One bot's figures in an arena's JSON."""

    bot: str
    level: str
    seat_hands: int
    win_rate: IntervalJSON
    mean_points_per_hand: IntervalJSON
    median_decision_ms: float
    p99_decision_ms: float


class DifferenceJSON(TypedDict):
    """The per-hand difference between two bots' figures: its interval, the independent
    samples it rests on, and the verdict (``significant``, ``not significant``, or
    ``too few`` below ``MIN_SAMPLES`` samples)."""

    bot: str
    versus: str
    mean_points_per_hand: IntervalJSON
    samples: int
    verdict: str


#: Below this many independent samples a difference's interval is not trusted.
MIN_SAMPLES = 30


def verdict(interval: Interval, samples: int) -> str:
    """``too few`` under ``MIN_SAMPLES`` samples, else whether the interval excludes zero."""
    if samples < MIN_SAMPLES:
        return "too few"
    return "significant" if interval.low > 0 or interval.high < 0 else "not significant"


class ArenaJSON(TypedDict):
    """An arena's figures as JSON (``cherki arena --json``)."""

    game: str
    players: int
    hands: int
    seed: int
    duplicate: bool
    field: str | None
    search: str | None
    seconds: float
    bots: list[BotJSON]
    differences: list[DifferenceJSON]


#: The arena's search budget: the game's rollouts a decision, the same on any machine.
DEFAULT_SEARCH = SearchBudget()


@dataclass
class ArenaResult:
    game: str
    players: int
    hands: int
    seed: int
    bots: list[BotStats]
    seconds: float
    duplicate: bool = True
    field: str | None = None
    #: the search bots' budget: "256 rollouts" (the same on any machine) or "100 ms"
    search: str | None = None

    def pairs(self) -> list[tuple[str, str, Interval]]:
        return [(a, b, iv) for a, b, iv, _ in self.differences()]

    def differences(self) -> list[tuple[str, str, Interval, int]]:
        """Each pair of bots: the per-hand difference's interval and its sample count."""
        out = []
        for i, a in enumerate(self.bots):
            for b in self.bots[i + 1 :]:
                diffs = [x - y for x, y in zip(a.samples, b.samples, strict=True)]
                out.append((a.label, b.label, mean_interval(diffs), len(diffs)))
        return out

    def to_json(self) -> ArenaJSON:
        return {
            "game": self.game,
            "players": self.players,
            "hands": self.hands,
            "seed": self.seed,
            "duplicate": self.duplicate,
            "field": self.field,
            "search": self.search,
            "seconds": round(self.seconds, 3),
            "bots": [
                {
                    "bot": b.label,
                    "level": b.level,
                    "seat_hands": b.seat_hands,
                    "win_rate": b.win_interval().to_json(),
                    "mean_points_per_hand": mean_interval(b.samples).to_json(),
                    "median_decision_ms": _percentile(b.decision_ms, 50),
                    "p99_decision_ms": _percentile(b.decision_ms, 99),
                }
                for b in self.bots
            ],
            "differences": [
                {
                    "bot": a,
                    "versus": b,
                    "mean_points_per_hand": iv.to_json(),
                    "samples": n,
                    "verdict": verdict(iv, n),
                }
                for a, b, iv, n in self.differences()
            ],
        }


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    idx = min(len(s) - 1, max(0, math.ceil(q / 100 * len(s)) - 1))
    return round(s[idx], 3)


@dataclass
class HandOutcome:
    """One arena hand, per bot: mean points of its seats, seats held, wins, decision times."""

    points: list[float]
    seats: list[int]
    wins: list[int]
    decision_ms: list[list[float]]


class _TimedSeats:
    """The arena's policy: each seat's bot with its generator, timing the listed bots."""

    def __init__(
        self, bots: Sequence[Bot], rngs: Sequence[random.Random], assign: Sequence[int], k: int
    ) -> None:
        self.bots, self.rngs, self.assign = bots, rngs, assign
        self.times: list[list[float]] = [[] for _ in range(k)]

    def __call__(self, seat: int, obs: Observation) -> int:
        t0 = time.perf_counter()
        action = self.bots[seat].act(obs, self.rngs[seat])
        if self.assign[seat] >= 0:
            self.times[self.assign[seat]].append((time.perf_counter() - t0) * 1000)
        return action


def play_hands(
    game_name: str,
    levels: Sequence[str],
    rules: Rules,
    players: int,
    seed: int,
    duplicate: bool,
    hands: range,
    field: str | None = None,
    search: SearchBudget | None = DEFAULT_SEARCH,
) -> list[HandOutcome]:
    """Play the arena's hands numbered ``hands`` (a slice of the whole run, so that runs
    split across processes deal, seat and seed every hand exactly as one process would)."""
    game = find_game(game_name)
    k = len(levels)
    n = players
    out: list[HandOutcome] = []
    for h in hands:
        if field is None:
            assign = [(i + h) % k for i in range(n)]
            bots = [make_bot(game.name, levels[b], search=search) for b in assign]
            rngs = [random.Random(seed * 1_000_003 + h * 101 + i) for i in range(n)]
            deal = h // k if duplicate else h
        else:  # one listed bot in one seat, the field in the others
            deal, r = divmod(h, k * n)
            guest, b = divmod(r, k)
            assign = [-1] * n
            assign[guest] = b
            bots = [
                make_bot(game.name, levels[b] if i == guest else field, search=search)
                for i in range(n)
            ]
            rngs = [random.Random(seed * 1_000_003 + deal * 101 + i) for i in range(n)]
        state = game.new_state(rules, n, seed=seed + deal, first=deal % n)
        timed = _TimedSeats(bots, rngs, assign, k)
        play_out(state, timed)
        times = timed.times
        result = state.result
        sums = [0.0] * k
        seats = [0] * k
        wins = [0] * k
        for seat, b in enumerate(assign):
            if b < 0:
                continue
            sums[b] += result.payments[seat]
            seats[b] += 1
            if result.winner == seat:
                wins[b] += 1
        points = [sums[b] / seats[b] if seats[b] else math.nan for b in range(k)]
        out.append(HandOutcome(points, seats, wins, times))
    return out


def run_arena(
    game: Game,
    levels: Sequence[str],
    hands: int,
    seed: int,
    *,
    players: int | None = None,
    rules: Rules | None = None,
    duplicate: bool = True,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    field: str | None = None,
    search: SearchBudget | None = DEFAULT_SEARCH,
    done: Mapping[int, HandOutcome] | None = None,
    save: Callable[[int, HandOutcome], None] | None = None,
) -> ArenaResult:
    """Play ``hands`` hands between bots of ``levels`` and gather the statistics.

    With ``jobs`` above 1 the hands are shared out between that many processes, in whole
    deals; the figures are the same as with one process (decision times aside). With
    ``field`` each bot in turn replaces one player at a table of ``field`` bots (see the
    module's notes). Search bots think within ``search``: by default their game's rollouts a
    decision, so that the same seed gives the same figures on any machine; None lets them
    think by the clock (their game's time a decision). ``done`` holds the outcomes of hands
    already played (by number; a stopped run's), which are not played again; ``save`` is
    handed each hand's outcome as it finishes, to keep a run that may be stopped.
    """
    if not levels:
        raise RulesError("name at least one bot level")
    if hands < 1:
        raise RulesError("the arena needs at least one hand")
    if jobs < 1:
        raise RulesError("--jobs must be at least 1")
    n = players if players is not None else game.default_players
    game.check_players(n)
    rules = rules if rules is not None else game.default_preset().rules
    labels = _labels(levels)
    k = len(levels)
    budget: str | None = None
    for lv in [*levels, *([field] if field else [])]:
        bot = make_bot(game.name, lv, search=search, players=n)  # clear errors first
        if isinstance(bot, SearchBot):
            budget = bot.budget_text
    if field is not None:
        field = field.strip().lower()
        if hands % (k * n):
            raise RulesError(
                f"with a field each deal takes {k * n} hands ({k} bots × {n} seats): "
                f"ask for a multiple of {k * n} hands, not {hands}"
            )
    block = k * n if field is not None else k if duplicate else 1
    # hands per deal in which each bot sits (a bot may sit out hands when bots outnumber seats)
    seated = n if field is not None else min(k, n) if duplicate else 1
    stats = [
        BotStats(label, level, block=seated) for label, level in zip(labels, levels, strict=True)
    ]
    start = time.perf_counter()
    got: dict[int, HandOutcome] = {h: o for h, o in (done or {}).items() if 0 <= h < hands}
    args = (game.name, list(levels), rules, n, seed, duplicate)

    def finished(first: int, part: list[HandOutcome]) -> None:
        for i, o in enumerate(part):
            got[first + i] = o
            if save is not None:
                save(first + i, o)
        if progress is not None:
            progress(len(got))

    # whole blocks (deals) left to play, in order
    todo = [
        a
        for a in range(0, hands, block)
        if any(h not in got for h in range(a, min(hands, a + block)))
    ]
    if jobs == 1:
        for a in todo:
            for h in range(a, min(hands, a + block)):
                if h not in got:
                    finished(h, play_hands(*args, range(h, h + 1), field, search))
    else:
        per = max(1, (hands // (jobs * 4)) // block)
        chunks = [
            range(todo[i], min(hands, todo[min(i + per, len(todo)) - 1] + block))
            for i in range(0, len(todo), per)
        ]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(play_hands, *args, c, field, search): c.start for c in chunks}
            for fut in as_completed(futures):
                finished(futures[fut], fut.result())
    outcomes = [got[h] for h in range(hands)]
    for o in outcomes:
        for b in range(k):
            if o.seats[b]:
                stats[b].per_hand.append(o.points[b])
            stats[b].seat_hands += o.seats[b]
            stats[b].wins += o.wins[b]
            stats[b].decision_ms.extend(o.decision_ms[b])
    return ArenaResult(
        game.name, n, hands, seed, stats, time.perf_counter() - start, duplicate, field, budget
    )


def _labels(levels: Sequence[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for lv in levels:
        seen[lv] = seen.get(lv, 0) + 1
        out.append(lv if levels.count(lv) == 1 else f"{lv}#{seen[lv]}")
    return out


def plot_arena(result: ArenaResult, path: str) -> None:
    """Bar chart of mean points per hand with 95% intervals, and win rates."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [b.label for b in result.bots]
    means = [mean_interval(b.samples) for b in result.bots]
    wins = [b.win_interval() for b in result.bots]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4.2))
    ax1.bar(
        labels,
        [m.mean for m in means],
        yerr=[[m.mean - m.low for m in means], [m.high - m.mean for m in means]],
        capsize=6,
        color="#b33",
    )
    ax1.axhline(0, color="black", linewidth=0.8)
    ax1.set_title("Mean points per hand (95% interval)")
    ax2.bar(
        labels,
        [w.mean * 100 for w in wins],
        yerr=[[(w.mean - w.low) * 100 for w in wins], [(w.high - w.mean) * 100 for w in wins]],
        capsize=6,
        color="#357",
    )
    ax2.set_title("Win rate per seat-hand, % (95% interval)")
    fig.suptitle(
        f"{result.game}: {result.hands} hands, {result.players} players, seed {result.seed}"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
