"""``cherki simulate --engine vector``: a run's hands played by the batched simulator.

Our specifications
------------------
* A run's hands are played in **blocks** of :data:`BLOCK` consecutive hand numbers (the
  last block ends at the run's last hand). Block ``c`` is one batch run, seeded from the
  run's seed and ``c``: its shoes are shuffled by numpy up front (hand ``i`` of the block
  always gets the block's ``i``-th shoe, so variants compared play the same deals) and the
  policies draw their lots from their own generator. So a block's figures depend only on the
  seed, the block and the run's length: the same whatever ``--jobs`` or Ray cluster shares
  the blocks out, and a resumed run plays again any block it had not finished, to the same
  figures.
* The deals differ from the reference engine's (numpy's shuffles, not Python's), and so do
  the bots' lots: the figures agree with the reference engine's within their intervals, not
  hand by hand (``tests/test_vector.py`` checks it).
* Bots: ``random`` and ``heuristic`` (:mod:`cherki.vector.policies`), one level for every
  seat or one per seat. The search bot is not batched: use the reference engine for it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cherki.core.contract import Game, Rules
from cherki.core.errors import RulesError
from cherki.games.sets.rules import SetsRules
from cherki.vector.finished import Finished
from cherki.vector.policies import by_seat
from cherki.vector.sets import GAMES, SetsVector

#: hands a block (one batch run) plays
BLOCK = 2048
#: rows of the batch a block plays in (finished hands are replaced by the block's next)
BATCH = 512
LEVELS = ("random", "heuristic", "learned")


def check_vector(game: Game, levels: Sequence[str]) -> None:
    """Refuse a game or bot the batched simulator does not play, saying what it does."""
    if game.name not in GAMES:
        raise RulesError(
            f"--engine vector plays the games of sets ({', '.join(GAMES)}), not {game.title}"
        )
    wrong = sorted({lv for lv in levels if lv not in LEVELS})
    if wrong:
        raise RulesError(
            f"--engine vector plays only the random, heuristic and learned bots, not "
            f"{', '.join(wrong)}: "
            "use --engine reference (the default) for them"
        )


def vector_rules(game: Game, rules: Rules) -> SetsRules:
    """``rules`` as the batched simulator plays them: a game of sets' rules (a
    :class:`RulesError` for another game's)."""
    if not isinstance(rules, SetsRules):
        raise RulesError(f"the batched engine plays the games of sets, not {game.title}")
    return rules


def money_rate(rules: Rules) -> int:
    """The cents a point of a hand's payments is paid at under ``rules`` (0 where the scoring
    settles money at match level only, or plays for points)."""
    if not isinstance(rules, SetsRules):
        raise RulesError(f"the batched engine plays the games of sets, not {rules!r}")
    return rules.cents_per_point if rules.method.money else 0


def blocks(todo: Sequence[int], hands: int) -> list[range]:
    """The blocks holding the hands still to play."""
    first = sorted({i // BLOCK for i in todo})
    return [range(c * BLOCK, min((c + 1) * BLOCK, hands)) for c in first]


def run_block(
    game: Game, rules: SetsRules, players: int, seed: int, levels: Sequence[str], block: range
) -> Finished:
    """The finished hands of one block (``block``: a range :func:`blocks` gives), played
    with the bot ``levels`` (one, or one per seat) from ``seed``."""
    if block.start % BLOCK or len(block) > BLOCK:
        raise RulesError(f"the batched engine plays whole blocks of {BLOCK} hands")
    n = players
    c = block.start // BLOCK
    base = [seed % 2**63, c]
    env = SetsVector(game.name, rules, players=n, batch=min(BATCH, len(block)))
    env.reset(seed=[*base, 0], start=block.start, hands=len(block))
    per_seat = list(levels) if len(levels) == n else list(levels) * n
    policy = by_seat(per_seat, np.random.default_rng([*base, 1]))
    return env.play(policy)


__all__ = [
    "BATCH",
    "BLOCK",
    "blocks",
    "check_vector",
    "money_rate",
    "run_block",
    "vector_rules",
]
