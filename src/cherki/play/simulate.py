"""Simulation: many hands of one variant, or of several on the same deals, and what they
show: how hands end, what a win scores and of what, how long a hand lasts, who wins from
which seat, calls and how often they win, what each seat can expect to pay or take.

Our specifications
------------------
* **Deals.** Hand ``i`` of a run is dealt from seed ``seed + i`` with seat ``i mod n``
  starting, so every seat position starts equally often. *Positions* count from the hand's
  starter (position 0), so "who wins from where" does not depend on the seat numbers.
* **Players.** ``bots`` gives one level for every seat, or one per seat. Each seat's
  generator is seeded from the run's seed, the hand and the seat, so a run is reproducible
  and gives the same figures however its hands are shared out (``jobs``, or a Ray cluster:
  chunks of hand numbers, merged in order).
* **Variants compared** (:func:`compare`) play the same hand numbers, so the same deals and
  the same bots' generators: a difference between two variants is measured hand by hand
  (paired), and its interval is that of the per-hand differences.
* **What a hand leaves** is a :class:`HandSummary`: how it ended (``Result.how``: each
  game's own words), the winner's position, the winning score and its items by kind, the
  number of actions and of turns (a turn: a run of actions by one seat), the calls made
  (and changes of call), the call the winner stood on, each position's payment, a count of
  each kind of event (captures, bonuses, sweeps, exposed sets, shown draws…) and the
  result's numeric details (mata, bak, a Chot hand's tokens, a Ceki win's multiplier…).
* **Intervals** are 95%: Wilson's for shares (right near 0 and 1), ``mean ± 1.96·sd/√n``
  for means, or the percentile bootstrap's below 30 samples or where that interval would
  leave the range of the values seen (:func:`bounded_mean`); paired differences are
  ``mean ± 1.96·sd/√n`` (:func:`cherki.play.arena.mean_interval`).
* A run is **resumable**: its JSON holds every hand's summary; run again with the same
  arguments and the same file and it goes on from the hands already there (a file of other
  arguments is refused).
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass

from cherki.bots import make_bot
from cherki.core.contract import Game, MatchNote, State, play_out
from cherki.core.errors import RulesError
from cherki.core.events import JSON, EventKind, Result, ScoreItem, Tokens
from cherki.core.options import Rules
from cherki.games import find_game
from cherki.play.arena import IntervalJSON, mean_interval, wilson
from cherki.play.figures import (
    DetailFigure,
    Differences,
    ExactJSON,
    ItemFigure,
    MatchFigures,
    RunJSON,
    Statistics,
)
from cherki.play.summary import HandSummary

FORMAT = "cherki-simulation"
VERSION = 1
#: hands a worker plays before reporting (and the run's file is written)
CHUNK = 50


@dataclass(frozen=True)
class Setup:
    """What a run plays: it names the file's run, so a resumed run must match it."""

    game: str
    preset: str | None
    options: dict[str, str]
    players: int
    bots: tuple[str, ...]
    seed: int
    #: ``reference`` (the rules engine, hand by hand) or ``vector`` (the batched simulator,
    #: :mod:`cherki.vector`: the games of sets with random and heuristic bots)
    engine: str = "reference"

    def to_json(self) -> dict[str, JSON]:
        out = {**asdict(self), "bots": list(self.bots)}
        if self.engine == "reference":
            del out["engine"]  # files written before the batched engine name none
        return out

    def table(self) -> tuple[Game, Rules]:
        game = find_game(self.game)
        return game, game.rules(self.preset, **self.options)

    def endings(self) -> tuple[str, ...]:
        """The ways a hand can end under these rules (:func:`possible_endings`)."""
        return possible_endings(*self.table())


def make_setup(
    game: Game,
    preset: str | None,
    options: dict[str, str],
    players: int | None,
    bots: str,
    seed: int,
    engine: str = "reference",
) -> Setup:
    """A checked setup: the rules, the table, the bot levels (one, or one per seat) and the
    engine (``vector``: only for the games and bots the batched simulator plays)."""
    n = game.default_players if players is None else players
    game.check_players(n)
    game.rules(preset, **options)
    levels = tuple(b.strip().lower() for b in bots.split(",") if b.strip())
    if len(levels) not in (1, n):
        raise RulesError(f"--bots: give one level, or {n} (one per seat), not {len(levels)}")
    for level in set(levels):
        make_bot(game.name, level, players=n)
    if engine == "vector":
        try:
            from cherki.vector.run import check_vector
        except ModuleNotFoundError as missing:  # numba: the extra 'vector' not installed
            if missing.name != "numba":
                raise
            raise RulesError(f"--engine vector: {missing}") from None
        check_vector(game, levels)
    elif engine != "reference":
        raise RulesError(f"--engine must be reference or vector, not {engine!r}")
    return Setup(game.name, preset, dict(options), n, levels, seed, engine)


# -- one hand -------------------------------------------------------------------------------
def summarise(state: State, index: int) -> HandSummary:
    """The summary of a finished hand."""
    res = state.result
    n = state.n
    first = state.first

    def pos(seat: int) -> int:
        return (seat - first) % n

    winner = res.winner
    items, item_money = win_items(res, n, state.game.money_items)
    for e in state.log:
        if e.kind == EventKind.BONUS and e.seat is not None and e.seat == winner and e.number:
            item_money[f"in-play-{e.how}"] = item_money.get(f"in-play-{e.how}", 0) + e.number * (
                n - 1
            )
    calls: Counter[str] = Counter()
    standing: dict[int, str | None] = {}
    events: Counter[str] = Counter()
    for e in state.log:
        events[str(e.kind)] += 1
        if e.kind == EventKind.CALL and e.seat is not None:
            calls["changed" if e.changed else str(e.call)] += 1
            standing[e.seat] = e.call
    turns = sum(
        1 for i, (s, _) in enumerate(state.history) if i == 0 or state.history[i - 1][0] != s
    )
    payments = res.payments or (0,) * n
    money = res.money or (0,) * n
    return HandSummary(
        index=index,
        how=res.how,
        winner=None if winner is None else pos(winner),
        score=res.total if winner is not None else 0,
        items=dict(items),
        actions=len(state.history),
        turns=turns,
        calls=dict(calls),
        winner_call=standing.get(winner) if winner is not None else None,
        payments=tuple(payments[(first + p) % n] for p in range(n)),
        events=dict(events),
        detail=_numbers(res.detail or {}),
        winner_seat=winner,
        tokens=res.tokens.points if res.tokens is not None else None,
        redeal=res.redeal,
        money=tuple(money[(first + p) % n] for p in range(n)),
        item_money=item_money,
    )


def win_items(
    res: Result, n: int, money_items: frozenset[str] = frozenset()
) -> tuple[dict[str, int], dict[str, int]]:
    """The winner's items: points by kind, and the cents of those paid in money only.

    * **Whose items.** Where a result reports each seat's score (``Result.scores``: Cholek
      Tiga's captures), an item with a ``seat`` is that seat's, and only the winner's count
      (the others' items are their own captures, not what the win scored). Elsewhere an
      item's ``seat`` is the other party it concerns (a Cekèn side bet): the win's own.
    * **Factors.** An item that multiplies (Ceki's double and triple, kandang tangan, Chot's
      ten-point tokens) carries no points of its own; it is given what it adds to the score,
      ``subtotal × (factor − 1)``, so that a win's items add up to its score.
    * **Money.** An item of ``money_items`` (``Game.money_items``: Cholek Tiga's ang pow)
      pays ``count`` cents from each other seat: the winner's gain is ``count × (n − 1)``
      cents, kept apart from the points.
    """
    winner = res.winner
    per_seat = res.scores is not None
    points: dict[str, int] = {}
    money: dict[str, int] = {}
    plain = 0
    factors: list[ScoreItem] = []
    for item in res.items:
        if per_seat and item.seat >= 0 and item.seat != winner:
            continue
        if item.kind in money_items:
            money[item.kind] = money.get(item.kind, 0) + item.count * (n - 1)
            points.setdefault(item.kind, 0)
            continue
        points[item.kind] = points.get(item.kind, 0) + item.points
        if item.multiplier != 1 and not item.points:
            factors.append(item)
        else:
            plain += item.points
    for item in factors:
        points[item.kind] += plain * (item.multiplier - 1)
        plain *= item.multiplier
    return points, money


def _numbers(detail: Mapping[str, JSON], prefix: str = "") -> dict[str, float]:
    """The numeric fields of a result's detail (one level of nesting flattened)."""
    out: dict[str, float] = {}
    for key, value in detail.items():
        name = prefix + key
        if isinstance(value, bool) or (isinstance(value, int | float) and math.isfinite(value)):
            out[name] = float(value)
        elif isinstance(value, Mapping) and not prefix:
            out.update(_numbers(value, name + "."))
    return out


def play_hand(game: Game, rules: Rules, setup: Setup, index: int) -> HandSummary:
    n = setup.players
    levels = setup.bots if len(setup.bots) == n else setup.bots * n
    bots = [make_bot(game.name, lv) for lv in levels]
    rngs = [random.Random(setup.seed * 1_000_003 + index * 101 + s) for s in range(n)]
    state = game.new_state(rules, n, seed=setup.seed + index, first=index % n)
    play_out(state, lambda s, obs: bots[s].act(obs, rngs[s]))
    return summarise(state, index)


def play_chunk(setup: Setup, indices: Sequence[int]) -> list[HandSummary]:
    """Hands ``indices`` of a run (what a worker process or a Ray task plays)."""
    game, rules = setup.table()
    if setup.engine == "vector":
        from cherki.play.batched import play_block

        return play_block(game, rules, setup.players, setup.seed, setup.bots, indices)
    return [play_hand(game, rules, setup, i) for i in indices]


# -- a run ----------------------------------------------------------------------------------
Runner = Callable[[Setup, list[range]], Iterable[list[HandSummary]]]


def local_runner(jobs: int) -> Runner:
    """Chunks played here, in ``jobs`` processes (1: in this one)."""
    if type(jobs) is not int or jobs < 1:
        raise RulesError(f"--jobs must be a whole number ≥ 1, not {jobs!r}")

    def run(setup: Setup, chunks: list[range]) -> Iterable[list[HandSummary]]:
        if jobs == 1:
            for c in chunks:
                yield play_chunk(setup, c)
            return
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(play_chunk, setup, c) for c in chunks]
            for fut in as_completed(futures):
                yield fut.result()

    return run


def _first_line(err: BaseException) -> str:
    """An exception's message cut to its first non-empty line (Ray's run to dozens)."""
    lines = [line.strip() for line in str(err).splitlines() if line.strip()]
    text = lines[0] if lines else type(err).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def ray_runner(address: str) -> Runner:
    """Chunks played as tasks of a Ray cluster (the extra ``cherki[ray]``).

    ``address``: ``auto`` (the cluster this machine belongs to, as ``ray start`` left it),
    ``local`` (a Ray instance started here for the run, node address 127.0.0.1; Ray's
    services and the driver's own port still listen on every interface, see
    docs/simulation.md), or a
    cluster's address (``ray://HOST:10001`` or ``HOST:6379``). Where Ray is already
    initialised in this process, that connection is used. Every node needs cherki
    installed (the same version: the figures are the engine's). Chunks are merged by hand
    number, so the figures are those of a serial run of the same seeds. Any failure of Ray,
    as it starts or during the run, is a :class:`RulesError` of one line.
    """
    try:
        import ray
    except ImportError:
        raise RulesError(
            "--ray needs Ray, the extra `ray`: pip install 'cherki[ray]' "
            "(in a checkout: uv run --extra ray …)"
        ) from None
    if not ray.is_initialized():
        try:
            if address == "local":
                ray.init(include_dashboard=False, _node_ip_address="127.0.0.1",
                         log_to_driver=False)  # fmt: skip
            else:
                ray.init(address=address, log_to_driver=False)
        except Exception as err:  # Ray raises many kinds as it starts: each is one line
            raise RulesError(
                f"--ray {address}: cannot start or reach a Ray cluster ({_first_line(err)}); "
                "--jobs N plays the same hands in local processes"
            ) from None
    task = ray.remote(play_chunk)

    def run(setup: Setup, chunks: list[range]) -> Iterable[list[HandSummary]]:
        try:
            pending = [task.remote(setup, c) for c in chunks]
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                yield ray.get(ready[0])
        except (ray.exceptions.RayError, ConnectionError, OSError) as err:
            raise RulesError(
                f"--ray {address}: the cluster failed during the run ({_first_line(err)}); "
                "the hands finished so far are kept in --json's file"
            ) from None

    return run


def simulate(
    setup: Setup,
    hands: int,
    *,
    done: Sequence[HandSummary] = (),
    runner: Runner | None = None,
    progress: Callable[[list[HandSummary]], None] | None = None,
) -> list[HandSummary]:
    """Play hands ``0 … hands-1`` of ``setup`` (those not in ``done``); the summaries in
    hand order. ``progress`` is called with the hands so far after each chunk (in the order
    they finished: sort them to save)."""
    if type(hands) is not int or hands < 1:
        raise RulesError(f"--hands must be a whole number ≥ 1, not {hands!r}")
    have = {h.index: h for h in done if h.index < hands}
    todo = [i for i in range(hands) if i not in have]
    got = dict(have)
    if setup.engine == "vector":
        from cherki.vector.run import blocks

        chunks = blocks(todo, hands)
    else:
        chunks = _chunks(todo)
    for part in (runner or local_runner(1))(setup, chunks):
        for h in part:
            got[h.index] = h
        if progress is not None:
            progress(list(got.values()))
    return [got[i] for i in range(hands)]


def _chunks(indices: list[int]) -> list[range]:
    """Runs of consecutive hand numbers, at most :data:`CHUNK` long."""
    out: list[range] = []
    run: list[int] = []
    for i in indices:
        if run and (i != run[-1] + 1 or len(run) >= CHUNK):
            out.append(range(run[0], run[-1] + 1))
            run = []
        run.append(i)
    if run:
        out.append(range(run[0], run[-1] + 1))
    return out


# -- the run's file -------------------------------------------------------------------------
def run_json(setup: Setup, hands: int, summaries: Sequence[HandSummary]) -> RunJSON:
    done = sorted(summaries, key=lambda h: h.index)
    return {
        "format": FORMAT,
        "version": VERSION,
        "setup": setup.to_json(),
        "hands_asked": hands,
        "hands": [h.to_json() for h in done],
        "stats": statistics(done, setup.players, setup.endings()) if done else None,
        "match": match_statistics(*setup.table(), setup.players, done) if done else None,
    }


def load_run(text: str, setup: Setup) -> list[HandSummary]:
    """The hands of a run's file, if it is a run of ``setup`` (else a RulesError)."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError, ValueError) as err:
        raise RulesError(f"the simulation file is not JSON: {err}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RulesError("the file is not a cherki simulation: refusing to overwrite it")
    if data.get("setup") != setup.to_json():
        raise RulesError(
            "the file holds a simulation of other arguments (game, rules, players, bots or "
            "seed): give another --json file to start afresh"
        )
    hands = data.get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, dict) for h in hands):
        raise RulesError('the simulation file\'s "hands" is damaged')
    return [HandSummary.from_json(h) for h in hands]


# -- statistics -----------------------------------------------------------------------------
def _share(k: int, n: int) -> IntervalJSON:
    return wilson(k, n).to_json()


#: below this many samples a mean's interval is the bootstrap's (:func:`bounded_mean`)
SMALL_SAMPLE = 30
#: resamples of the bootstrap
RESAMPLES = 2000


def bounded_mean(xs: Sequence[float]) -> IntervalJSON:
    """A mean and its 95% interval that never leaves the range of the values seen: the
    normal interval ``mean ± 1.96·sd/√n``, except below :data:`SMALL_SAMPLE` samples or
    where that interval would pass the least or greatest value seen (a count that cannot be
    negative, mostly zeros: ``0.54 [−0.52, 1.60]``), where it is the percentile bootstrap's
    (:data:`RESAMPLES` resamples, drawn as multinomial counts over the distinct values,
    seeded by the sample so a run's figures are its own). Over 2,000 distinct values the
    normal interval is cut to the range seen instead."""
    normal = mean_interval(xs).to_json()
    n = len(xs)
    if n < 2:
        return normal
    lo, hi = min(xs), max(xs)
    if n >= SMALL_SAMPLE and lo <= normal["low"] and normal["high"] <= hi:
        return normal
    import numpy as np

    values, counts = np.unique(np.asarray(xs, dtype=np.float64), return_counts=True)
    if len(values) > 2000:
        return {**normal, "low": max(normal["low"], lo), "high": min(normal["high"], hi)}
    seed = [n, len(values), *counts[:8].tolist()]
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(n, counts / n, size=RESAMPLES) @ values / n
    low, high = np.percentile(draws, [2.5, 97.5])
    mean = normal["mean"]
    return {**normal, "low": min(mean, float(low)), "high": max(mean, float(high))}


def _mean(xs: Sequence[float]) -> IntervalJSON:
    return bounded_mean(xs)


def _quantile(xs: Sequence[float], q: float) -> float:
    s = sorted(xs)
    if not s:
        return 0.0
    return float(s[min(len(s) - 1, int(q * len(s)))])


def possible_endings(game: Game, rules: Rules) -> tuple[str, ...]:
    """The ways a hand of ``game`` can end under ``rules`` (``Result.how``), so that an
    ending that never happened in a run still gets its row, at 0 with its interval."""
    return game.endings(rules)


def _is_flag(xs: Sequence[float]) -> bool:
    return all(x in (0.0, 1.0) for x in xs)


def statistics(
    hands: Sequence[HandSummary], players: int, endings: Sequence[str] = ()
) -> Statistics:
    """Every figure of a run, with its 95% interval (JSON data). ``endings``: the ways a
    hand can end (:func:`possible_endings`); each gets a share, 0 if it never happened."""
    n = len(hands)
    wins = [h for h in hands if h.winner is not None]
    w = len(wins)
    ends = Counter({how: 0 for how in endings})
    ends.update(h.how for h in hands)
    kinds = sorted({k for h in wins for k in [*h.items, *h.item_money]})
    call_kinds = sorted({k for h in hands for k in h.calls})
    event_kinds = sorted({k for h in hands for k in h.events})
    detail_keys = sorted({k for h in wins for k in h.detail})
    won_on = Counter(h.winner_call or "none" for h in wins)
    scores = [float(h.score) for h in wins]
    with_money = [h for h in hands if len(h.money) == players]
    pot = [-float(sum(h.payments)) for h in hands]
    out: Statistics = {
        "hands": n,
        "ends": {how: _share(c, n) for how, c in sorted(ends.items())},
        "won": _share(w, n),
        "winning_score": {
            **_mean(scores),
            "median": _quantile(scores, 0.5),
            "p90": _quantile(scores, 0.9),
            "max": max(scores) if scores else 0.0,
        },
        "items": {k: _item_figure(wins, k) for k in kinds},
        "actions": _mean([float(h.actions) for h in hands]),
        "turns": _mean([float(h.turns) for h in hands]),
        "winner_position": [
            _share(sum(1 for h in wins if h.winner == p), w) for p in range(players)
        ],
        "calls_per_hand": {k: _mean([float(h.calls.get(k, 0)) for h in hands]) for k in call_kinds},
        "wins_by_call": {k: _share(c, w) for k, c in sorted(won_on.items())},
        "payment_by_position": [
            _mean([float(h.payments[p]) for h in hands]) for p in range(players)
        ],
        "events_per_hand": {
            k: _mean([float(h.events.get(k, 0)) for h in hands]) for k in event_kinds
        },
        # each key: the share of wins where it is there and not 0, and its mean in those wins
        "detail_in_wins": {k: _detail_figure(wins, k) for k in detail_keys},
    }
    if with_money:
        out["money_by_position"] = [
            _mean([float(h.money[p]) for h in with_money]) for p in range(players)
        ]
    if any(pot):
        # what the seats' payments leave in the pot (stakes not taken): with it they add
        # up to zero; a match carries it to the next hand's winner
        out["left_in_pot"] = _mean(pot)
        if with_money:
            out["left_in_pot_cents"] = _mean([-float(sum(h.money)) for h in with_money])
    return out


def _item_figure(wins: Sequence[HandSummary], kind: str) -> ItemFigure:
    """A score item's figures in the wins (its cents only where it is paid in money)."""
    has = sum(1 for h in wins if kind in h.items or kind in h.item_money)
    out: ItemFigure = {
        "in_wins": _share(has, len(wins)),
        "mean_points": _mean([float(h.items.get(kind, 0)) for h in wins]),
    }
    if any(kind in h.item_money for h in wins):
        out["mean_cents"] = _mean([float(h.item_money.get(kind, 0)) for h in wins])
    return out


def _detail_figure(wins: Sequence[HandSummary], key: str) -> DetailFigure:
    """A detail's figures in the wins: where it is there and not 0, and its mean there."""
    return {
        "in_wins": _share(sum(1 for h in wins if h.detail.get(key, 0)), len(wins)),
        "mean_where_present": _mean([h.detail[key] for h in wins if h.detail.get(key, 0)]),
        "flag": _is_flag([h.detail[key] for h in wins if key in h.detail]),
    }


def match_statistics(
    game: Game, rules: Rules, players: int, hands: Sequence[HandSummary]
) -> MatchFigures | None:
    """For a game with its own match bookkeeping (Chot: tokens, bangkong and the
    settlement), the simulated hands taken in order as one run of matches through the
    game's own ledger: the figures the game says its ledger's notes show
    (``Game.match_measures``: for Chot how many hands a bangkong takes, its excess, which
    side wins it), the matches completed and each seat's money per match. None for other
    games."""
    ledger = game.match_ledger(rules, players)
    if ledger is None:
        return None
    notes: list[tuple[int, MatchNote]] = []
    settled: list[list[int]] = []
    for index, h in enumerate(hands):
        seat = h.winner_seat
        tokens = (
            Tokens(seat, h.tokens, False) if seat is not None and h.tokens is not None else None
        )
        notes += [
            (index, note)
            for note in ledger.add(Result(seat, h.how, redeal=h.redeal, tokens=tokens))
        ]
        if ledger.is_over():
            settled.append(ledger.money())
            ledger = game.match_ledger(rules, players)
            assert ledger is not None
    shown = game.match_measures(rules, players, notes)
    return {
        "title": shown.title,
        "figures": [
            {
                "key": m.key,
                "label": m.label,
                "kind": m.kind,
                "value": (
                    len(m.values)
                    if m.kind == "count"
                    else _mean(m.values)
                    if m.kind == "mean"
                    else _share(sum(1 for v in m.values if v), len(m.values))
                ),
            }
            for m in shown.measures
        ],
        "matches": len(settled),
        "money_per_match_by_seat": [_mean([float(m[s]) for m in settled]) for s in range(players)],
    }


# -- comparing variants ---------------------------------------------------------------------
#: per-hand measures compared between variants (paired on the same deals)
MEASURES: dict[str, Callable[[HandSummary], float]] = {
    "won": lambda h: float(h.winner is not None),
    "winning_score": lambda h: float(h.score),
    "actions": lambda h: float(h.actions),
    "starter_payment": lambda h: float(h.payments[0]),
}


def differences(base: Sequence[HandSummary], other: Sequence[HandSummary]) -> Differences:
    """Each measure's mean difference (other − base) over the same hands, with its interval;
    and each way of ending's difference in share."""
    if [h.index for h in base] != [h.index for h in other]:
        raise RulesError("variants compared must play the same hands")

    def paired(name: str) -> IntervalJSON:
        f = MEASURES[name]
        return mean_interval([f(b) - f(o) for b, o in zip(other, base, strict=True)]).to_json()

    hows = sorted({h.how for h in [*base, *other]})
    pairs = list(zip(base, other, strict=True))
    ends = {
        how: mean_interval([float(o.how == how) - float(b.how == how) for b, o in pairs]).to_json()
        for how in hows
    }
    return {
        "won": paired("won"),
        "winning_score": paired("winning_score"),
        "actions": paired("actions"),
        "starter_payment": paired("starter_payment"),
        "ends": ends,
    }


def compare(
    setups: Sequence[Setup],
    hands: int,
    *,
    runner: Runner | None = None,
    progress: Callable[[int], None] | None = None,
    done: Sequence[Sequence[HandSummary]] = (),
    save: Callable[[list[list[HandSummary]]], None] | None = None,
) -> list[list[HandSummary]]:
    """Every variant's hands, the same hand numbers for each. ``done``: each variant's hands
    already played (a resumed comparison); ``save`` is called with every variant's hands so
    far after each chunk."""
    have = [list(d) for d in done] + [[] for _ in range(len(setups) - len(done))]
    out: list[list[HandSummary]] = [list(h) for h in have]
    for i, s in enumerate(setups):

        def step(got: list[HandSummary], i: int = i) -> None:
            out[i] = sorted(got, key=lambda h: h.index)
            if progress is not None:
                progress(sum(len(o) for o in out))
            if save is not None:
                save(out)

        out[i] = simulate(s, hands, done=have[i], runner=runner, progress=step)
    return out


def same_deals(setups: Sequence[Setup], sample: int = 8) -> bool:
    """Whether the variants deal the same cards: every seat's hand and the stock the same in
    the first ``sample`` hands of each (the shoe, the deal and the table alike). Variants
    that change only the scoring or the play do; another shoe, deal or player count does
    not, and a comparison then says its deals differ."""
    if len({s.players for s in setups}) > 1:
        return False

    def deals(setup: Setup) -> list[tuple[tuple[int, ...], ...]]:
        game, rules = setup.table()
        n = setup.players
        out = []
        for i in range(sample):
            state = game.new_state(rules, n, seed=setup.seed + i, first=i % n)
            out.append(
                (*(tuple(state.observation(t).hand) for t in range(n)), tuple(state.card_counts()))
            )
        return out

    first = deals(setups[0])
    return all(deals(s) == first for s in setups[1:])


# -- exact figures --------------------------------------------------------------------------
def exact_figures(setup: Setup, hands: Sequence[HandSummary]) -> list[ExactJSON]:
    """The figures the game knows exactly for the run's rules and players
    (``Game.exact_figures``, :mod:`cherki.core.figures`), each beside its simulated share
    or mean and 95% interval, over the hands that count for it."""
    game, rules = setup.table()
    out: list[ExactJSON] = []
    for f in game.exact_figures(rules, setup.players):
        values = [v for h in hands if (v := f.measure(h)) is not None]
        simulated = _share(int(sum(values)), len(values)) if f.share else _mean(values)
        out.append(
            {
                "figure": f.figure,
                "exact": float(f.exact),
                "exact_text": f.exact_text,
                "simulated": simulated,
                "share": f.share,
            }
        )
    return out


__all__ = [
    "FORMAT",
    "HandSummary",
    "Setup",
    "compare",
    "differences",
    "exact_figures",
    "load_run",
    "local_runner",
    "make_setup",
    "play_chunk",
    "possible_endings",
    "run_json",
    "same_deals",
    "simulate",
    "statistics",
    "summarise",
    "win_items",
]
