"""Tuning the heuristic's weights on the batched simulator, or in the rules engine where it
does not play (``cherki train --method tune``).

A learned model with the heuristic as its prior (:mod:`cherki.bots.learned`) plays that
heuristic's choice unless its network departs from it. ``--method tune`` learns the prior
itself: the heuristic's constants (:class:`cherki.bots.balik.Weights`: how it values a hand,
when it takes a discard, how it weighs a ceki call) are tuned by an evolution strategy on
duplicate deals, the way chess engines tune their evaluation's weights by self-play
(SPSA in Stockfish's fishtest; Hansen's CMA-ES is the same family).

The method
----------
* **The search space**: each weight's logarithm (they are all positive), starting from the
  hand-set heuristic's. Whole-number weights (group terms, pairs) are rounded when played,
  so a hand's equal values stay equal to the last bit. The tie-break's weights (the
  hand-set heuristic has none) join only when asked (:func:`start`, from
  :data:`TIE_START`): ``tie_held`` and ``tie_live`` with ``--tune-ties``, ``tie_red`` and
  ``tie_low`` with ``--tune-tie-keys red,low``. A tuning without them draws its candidates
  over the first thirteen, as every run before them did, and replays them; one with
  ``--tune-ties`` alone over the fifteen, as the runs before the further keys did.
* **A generation** (:meth:`Tuner.generation`): ``population`` candidates drawn around the
  mean, ``exp(mean + sigma · z)``, each played in seat 0 of the same ``hands`` duplicate
  deals among hand-set heuristic players, and the hand-set heuristic once more in seat 0 of
  those deals; a candidate's fitness is its mean payment minus the heuristic's, in points a
  hand. The mean moves to the weighted mean of the best ``parents`` (log-rank weights, a
  (μ/μ_w, λ)-ES), and ``sigma`` shrinks by ``decay`` a generation.
* **Common random numbers**: where the heuristic draws lots between equal discards, every
  player in these runs draws them from :func:`keyed_lots`, a hash of the hand, the seat, the
  stock's position and the cards held, not from a generator. Two runs of a deal then stay
  the same until their weights first choose differently, and the fitness measures only
  what the weights change: a candidate the same as the heuristic scores exactly 0.
* Every generation's deals are fresh (seeded from the run's seed and the generation), so a
  mean that got lucky on one block of deals is tested on the next.

The result is the mean's weights, which the model's card keeps (``network.prior_weights``);
the shipped bot plays them with ordinary lots. numpy and the batched simulator only.

**Ceki and Cholek Tiga** (:func:`engine_payments`): their heuristics' weights
(:class:`cherki.bots.ceki.CekiWeights`, :class:`cherki.bots.cholek.CholekWeights`; which
a game has, :func:`kind_of`) are tuned the same way on deals of the rules engine, every one
of them searched from the hand-set values (they have no tie-break to add). There the lots
are each seat's own generator, seeded by the deal and the seat: a candidate's run of a deal
is the hand-set heuristic's until its weights first choose otherwise, after which the seat's
lots may follow other draws (the engine's bots draw them in order), so the hand-set weights
still measure exactly 0. A generation of 10 candidates on 2,048 deals takes about 80
CPU-seconds in Ceki 4p and 60 in Cholek Tiga 3p.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from cherki.bots.balik import LATER, WEIGHTS, Weights
from cherki.bots.ceki import CekiWeights
from cherki.bots.cholek import CholekWeights
from cherki.bots.weights import TunedWeights
from cherki.core.errors import RulesError

if TYPE_CHECKING:
    from cherki.vector.sets import SetsVector

#: every weight, in :class:`Weights`' order
NAMES = tuple(f.name for f in fields(Weights))
#: the weights tuned by default: all but the tie-break's (``--tune-ties`` adds them), so a
#: run made before they were named replays exactly
BASE_NAMES = tuple(n for n in NAMES if n not in LATER)
#: where ``--tune-ties`` starts the tie-break: the group held first, its live cards a
#: quarter as much; ``--tune-tie-keys red,low``: a red card as one more card held in its
#: group, each rank below 9 a tenth of one (the hand-set weights have none: 0 has no
#: logarithm)
TIE_START = {"tie_held": 1.0, "tie_live": 0.25, "tie_red": 1.0, "tie_low": 0.1}

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLD = np.uint64(0x9E3779B97F4A7C15)
_KIND = (np.arange(30, dtype=np.uint64) * np.uint64(0x632BE59BD9B4E019))[None, :]
_CARD = np.arange(30, dtype=np.uint64) * np.uint64(2654435761) + np.uint64(1)


def keyed_lots(env: SetsVector, rows: np.ndarray) -> np.ndarray:
    """A uniform number in [0, 1) for each of ``rows`` and each card kind ([m, 30]), a hash
    (splitmix64's finaliser) of the hand's number, the actions played in it so far, the
    seat to act, the phase and the cards it holds: two runs of a deal draw the same lots
    until they part, and a hand that comes back to a position (a discard taken and thrown
    round and round) draws new ones, as lots from a generator would."""
    with np.errstate(over="ignore"):
        seat = env.current[rows]
        held = env.hands[rows, seat].astype(np.uint64) @ _CARD
        key = (
            env.index[rows].astype(np.uint64) * _GOLD
            ^ env.actions[rows].astype(np.uint64) * _M1
            ^ seat.astype(np.uint64) * _M2
            ^ (env.phase[rows].astype(np.uint64) << np.uint64(40))
            ^ held
        )
        z = key[:, None] + _KIND
        z = (z ^ (z >> np.uint64(30))) * _M1
        z = (z ^ (z >> np.uint64(27))) * _M2
        z = z ^ (z >> np.uint64(31))
    out: np.ndarray = (z >> np.uint64(11)).astype(np.float64) / float(1 << 53)
    return out


def to_log(w: TunedWeights, names: Sequence[str] = BASE_NAMES) -> np.ndarray:
    """The search space's point of ``w``: the logarithm of each weight of ``names`` (0
    counts as 1e-6)."""
    return np.log(np.maximum([float(getattr(w, n)) for n in names], 1e-6))


def from_log(
    v: np.ndarray, names: Sequence[str] = BASE_NAMES, kind: type[TunedWeights] = Weights
) -> TunedWeights:
    """The weights of ``kind`` at a point of the search space over ``names`` (whole numbers
    rounded; the weights not named keep their hand-set values)."""
    x = np.exp(np.asarray(v, np.float64))
    whole = kind.whole()
    return kind(
        **{
            n: round(float(a)) if n in whole else round(float(a), 6)
            for n, a in zip(names, x, strict=True)
        }
    )


#: the weights a tuning's :attr:`Tuner.kind` names
KINDS: dict[str, type[TunedWeights]] = {
    "sets": Weights,
    "ceki": CekiWeights,
    "cholek": CholekWeights,
}


def kind_of(game: str) -> str:
    """The :data:`KINDS` name of the weights ``game``'s heuristic plays by, or a one-line
    refusal where it has none."""
    from cherki.bots.base import heuristic_for
    from cherki.games import find_game

    g = find_game(game)
    have = heuristic_for(g.name).weights_type
    for name, kind in KINDS.items():
        if have is kind:
            return name
    raise RulesError(f"the heuristic of {g.title} has no weights to tune")


#: the tie-break's further keys ``--tune-tie-keys`` names, and their weights
TIE_KEYS = {"red": "tie_red", "low": "tie_low"}


def start(
    ties: bool = False, keys: Sequence[str] = (), kind: str = "sets"
) -> tuple[list[str], list[float]]:
    """The weights a tuning searches over and its first mean: the hand-set weights, with
    ``ties`` the tie-break's by group (``tie_held``, ``tie_live``) too, and those of the
    further ``keys`` (:data:`TIE_KEYS`), from :data:`TIE_START`. Another ``kind``'s
    (:data:`KINDS`): every weight, from the hand-set ones; it has no tie-break to tune."""
    if kind != "sets":
        if ties or keys:
            raise RulesError(
                "--tune-ties and --tune-tie-keys tune the games of sets' tie-break between "
                "level discards; this game's heuristic has none"
            )
        plain = KINDS[kind]()
        names = [f.name for f in fields(plain)]
        return names, to_log(plain, names).tolist()
    unknown = sorted(set(keys) - set(TIE_KEYS))
    if unknown:
        raise RulesError(
            f"the tie-break's keys to tune are {', '.join(TIE_KEYS)}, not {', '.join(unknown)}"
        )
    extra = [n for n in LATER if (ties and n in ("tie_held", "tie_live"))]
    extra += [TIE_KEYS[k] for k in TIE_KEYS if k in keys]
    names = [*BASE_NAMES, *extra]
    w = replace(WEIGHTS, **{n: TIE_START[n] for n in extra})  # type: ignore[arg-type]
    return names, to_log(w, names).tolist()


def payments(
    game: str,
    players: int,
    rules: str | None,
    weights: TunedWeights | None,
    hands: int,
    seed: int,
) -> np.ndarray:
    """Seat 0's payment in each of ``hands`` deals from ``seed``, with the heuristic of
    ``weights`` in seat 0 (None: the hand-set one) and the hand-set heuristic elsewhere,
    every lot keyed (:func:`keyed_lots`). As the ``learned`` bot does, seat 0 plays the
    hand-set heuristic in a hand stuck with its stock unchanged (tuned weights may take and
    throw a discard round and round: :class:`cherki.vector.policies.StuckHands`), and a
    hand whose players all keep taking and throwing the same discards is drawn on
    (:class:`cherki.vector.policies.Progress`). The games the batched simulator does not
    play are played in the rules engine (:func:`engine_payments`)."""
    from cherki.vector.policies import HeuristicPolicy, Progress, Unstuck
    from cherki.vector.sets import GAMES, SetsVector

    if game not in GAMES:
        return engine_payments(game, players, rules, weights, hands, seed)
    if weights is not None and not isinstance(weights, Weights):
        raise RulesError(f"{game} plays by the games of sets' weights")

    env = SetsVector(game, rules, players=players, batch=min(hands, 1024))
    env.reset(seed=seed, hands=hands)
    field_ = HeuristicPolicy(seed, lots=keyed_lots)
    # a stuck hand played by the hand-set heuristic, as the learned bot plays it
    mine = (
        Unstuck(HeuristicPolicy(seed, weights=weights, lots=keyed_lots), field_)
        if weights
        else None
    )

    def policy(e: SetsVector, rows: np.ndarray) -> np.ndarray:
        out = field_(e, rows)
        if mine is not None:
            at = e.current[rows] == 0
            if at.any():
                out[at] = mine(e, rows[at])
        return out

    pay: np.ndarray = env.play(Progress(policy)).payments[:, 0].astype(np.float64)
    return pay


def engine_payments(
    game: str,
    players: int,
    rules: str | None,
    weights: TunedWeights | None,
    hands: int,
    seed: int,
) -> np.ndarray:
    """:func:`payments` in the rules engine: seat 0's payment in each of ``hands`` deals
    from ``seed`` (deal ``seed + h``, its first player ``h mod players``), with the
    heuristic of ``weights`` in seat 0 (None: the hand-set one) and the hand-set heuristic
    elsewhere, each seat drawing its lots from a generator seeded by the deal and the seat,
    so two runs of a deal stay the same until their weights first choose differently. As
    the ``learned`` bot does, seat 0 plays the hand-set heuristic after
    :data:`~cherki.bots.learned.STUCK` decisions of its own with the stock unchanged, until a
    card is drawn again."""
    import random

    from cherki.bots.base import heuristic_for
    from cherki.bots.learned import STUCK
    from cherki.games import find_game

    g = find_game(game)
    table = g.rules(rules)
    plain = heuristic_for(g.name)
    mine = plain if weights is None else plain.weighted(weights)
    out = np.empty(hands, np.float64)
    for h in range(hands):
        deal = seed + h
        state = g.new_state(table, players, seed=deal, first=h % players)
        rngs = [random.Random(deal * 101 + i) for i in range(players)]
        same, last = 0, -1
        while not state.is_terminal:
            seat = state.current
            obs = state.observation(seat)
            bot = plain
            if seat == 0 and len(obs.legal) > 1:
                same = same + 1 if obs.stock_left == last else 0
                last = obs.stock_left
                bot = plain if same >= STUCK else mine
            state.apply(bot.act(obs, rngs[seat]), seat)
        out[h] = float(state.result.payments[0])
    return out


def gain(
    game: str, players: int, rules: str | None, weights: TunedWeights, hands: int, seed: int
) -> tuple[float, float, float]:
    """What ``weights`` gain over the hand-set heuristic in seat 0 of ``hands`` keyed
    duplicate deals: ``(mean, low, high)``, points a hand with a 95% interval."""
    d = payments(game, players, rules, weights, hands, seed) - payments(
        game, players, rules, None, hands, seed
    )
    half = 1.96 * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else math.inf
    return float(d.mean()), float(d.mean()) - half, float(d.mean()) + half


@dataclass
class Tuner:
    """The evolution strategy's state (see the module), kept in a training checkpoint."""

    seed: int
    population: int = 10
    parents: int = 3
    sigma: float = 0.25
    decay: float = 0.97
    generations: int = 0
    mean: list[float] = field(default_factory=lambda: to_log(WEIGHTS).tolist())
    #: the weights searched over, in the order of ``mean`` (:func:`start`)
    names: list[str] = field(default_factory=lambda: list(BASE_NAMES))
    rng: dict[str, Any] | None = None
    #: the weights tuned (:data:`KINDS`: the games of sets', Ceki's)
    kind: str = "sets"
    #: each generation's figures: its mean's gain, the best candidate's, the average's
    history: list[dict[str, float]] = field(default_factory=list)

    @property
    def weights(self) -> TunedWeights:
        return from_log(np.array(self.mean), self.names, KINDS[self.kind])

    def _at(self, point: np.ndarray) -> TunedWeights:
        return from_log(point, self.names, KINDS[self.kind])

    def generation(self, game: str, players: int, rules: str | None, hands: int) -> str:
        """One generation (see the module); a line saying what it found."""
        rng = np.random.default_rng(self.seed)
        if self.rng is not None:
            rng.bit_generator.state = self.rng
        mean = np.array(self.mean)
        seed = self.seed * 1_000_003 + 900_000 + self.generations
        z = rng.standard_normal((self.population, len(mean)))
        base = payments(game, players, rules, None, hands, seed).mean()
        fit = np.array(
            [
                payments(game, players, rules, self._at(mean + self.sigma * zi), hands, seed).mean()
                - base
                for zi in z
            ]
        )
        at_mean = payments(game, players, rules, self._at(mean), hands, seed).mean() - base
        parents = min(self.parents, self.population)  # a population of 2 has 2 parents
        best = np.argsort(-fit, kind="stable")[:parents]
        w = np.log(parents + 0.5) - np.log(np.arange(1, parents + 1))
        w /= w.sum()
        self.mean = (mean + self.sigma * (w[:, None] * z[best]).sum(axis=0)).tolist()
        self.sigma *= self.decay
        self.generations += 1
        self.rng = dict(rng.bit_generator.state)
        row = {"mean": float(at_mean), "best": float(fit[best[0]]), "average": float(fit.mean())}
        self.history.append(row)
        return (
            f"tuning the heuristic's weights: generation {self.generations}, its mean "
            f"{row['mean']:+.2f}, best {row['best']:+.2f} points a hand on {hands:,} keyed deals"
        )


__all__ = [
    "BASE_NAMES",
    "KINDS",
    "NAMES",
    "TIE_KEYS",
    "TIE_START",
    "Tuner",
    "engine_payments",
    "from_log",
    "gain",
    "keyed_lots",
    "kind_of",
    "payments",
    "start",
    "to_log",
]
