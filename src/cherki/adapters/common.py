"""What the research interfaces share: a table (game, rules, players), the rewards, the
length cap, and the text view of a seat.

Our specifications
------------------
* **Rewards** (``reward``): ``points`` (default), the hand's payments in points as the
  result gives them; ``money``, the payments in cents; ``win``, +1 to each seat that gained
  in the hand, −1 to each that paid, 0 to the others (a Chot side or a pot's taker
  gains, so the sign of the payment is the one definition that fits every game).
* **Length cap** (``max_steps``, a house rule of the adapters alone): the games of sets and
  Ceki set no bound on a hand's length (a discard may be taken and thrown again without
  end, see ``Game.max_actions``), and learning libraries need one. A hand still going after
  ``max_steps`` actions is cut short: PettingZoo and Gymnasium *truncate* the episode,
  OpenSpiel ends it with every return 0 (the hand abandoned, as a table would). The default,
  5,000, is several times the longest hand of random play we have seen at 14 players (Balik
  Satu: under 1,000 actions) and above the longest at 20 on Pwee's 1,200 cards (about 3,100
  in eight hands of random play); where a game declares a bound, the cap is that bound.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from cherki.core.contract import Game, State
from cherki.core.encoding import Layout
from cherki.core.errors import RulesError
from cherki.core.events import Result
from cherki.core.options import Rules
from cherki.games import GAMES, find_game

if TYPE_CHECKING:
    from gymnasium import spaces

#: A hand longer than this is cut short (see the module's notes).
DEFAULT_MAX_STEPS = 5000
REWARDS = ("points", "money", "win")


def agent_name(seat: int) -> str:
    return f"player_{seat}"


@dataclass(frozen=True)
class Table:
    """A game, its rules and its number of players: what an environment plays."""

    game: Game
    rules: Rules
    players: int
    preset: str | None = None
    layout: Layout = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.game.check_players(self.players)
        object.__setattr__(self, "layout", self.game.observation_layout(self.rules, self.players))

    @classmethod
    def of(
        cls,
        game: str | Game,
        players: int | None = None,
        rules: str | None = None,
        **options: Any,
    ) -> Table:
        """``game`` (a name or alias) with ``players`` (default: the game's) under preset
        ``rules`` with ``options`` changed: each checked, with cherki's own errors."""
        g = find_game(game) if isinstance(game, str) else game
        n = g.default_players if players is None else players
        if type(n) is not int:
            raise RulesError(f"players is a whole number, not {n!r}")
        return cls(g, g.rules(rules, **options), n, rules)

    @property
    def num_actions(self) -> int:
        return self.game.num_actions

    @property
    def obs_size(self) -> int:
        return self.layout.size

    def observation_box(self) -> spaces.Box:
        """The ``gymnasium.spaces.Box`` of an encoded observation at this table, bounded by
        the layout's declared bounds (``Game.observation_layout``)."""
        from gymnasium import spaces

        return spaces.Box(self.layout.low(), self.layout.high(), dtype=np.float32)

    def new_state(self, seed: int) -> State:
        return self.game.new_state(self.rules, self.players, seed=seed)

    def max_steps(self, cap: int | None) -> int:
        """The cap on a hand's actions: the game's own bound where it has one, else ``cap``
        (default :data:`DEFAULT_MAX_STEPS`)."""
        own = self.game.max_actions(self.rules, self.players)
        want = DEFAULT_MAX_STEPS if cap is None else cap
        if type(want) is not int or want < 1:
            raise RulesError(f"max_steps is a whole number of actions ≥ 1, not {want!r}")
        return want if own is None else min(own, want)

    def reward_bounds(self, reward: str) -> tuple[float, float]:
        """The least and the most one seat's reward for a hand may be."""
        if reward == "win":
            return -1.0, 1.0
        if reward == "money":
            lo, hi = self.game.money_bounds(self.rules, self.players)
        else:
            lo, hi = self.game.payment_bounds(self.rules, self.players)
        return float(lo), float(hi)


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise RulesError(f"reward is one of {', '.join(REWARDS)}, not {reward!r}")
    return reward


def rewards(result: Result, players: int, reward: str) -> list[float]:
    """Each seat's reward for a finished hand (see the module's notes)."""
    pay = result.payments or (0,) * players
    if reward == "money":
        money = result.money or (0,) * players
        return [float(m) for m in money]
    if reward == "win":
        return [float(np.sign(p)) for p in pay]
    return [float(p) for p in pay]


def legal_mask(state: State, seat: int, size: int) -> np.ndarray:
    """An int8 mask over every action id: 1 where ``seat`` may play it now."""
    mask = np.zeros(size, dtype=np.int8)
    mask[state.legal_actions(seat)] = 1
    return mask


def seat_text(state: State, seat: int) -> str:
    """The table as ``seat`` sees it, as the terminal words it (for ``render``)."""
    from cherki.ui.text import Voice, result_summary, table_lines

    game = state.game
    obs = state.observation(seat)
    voice = Voice.of(None, state.n, seat)
    lines = [f"{game.title}, seat {seat} of {state.n}"]
    lines += table_lines(obs, game, voice)
    from cherki.core.cards import format_hand

    lines.append("Your hand: " + format_hand(obs.hand))
    if obs.legal:
        lines.append("Legal: " + ", ".join(game.action_text(a) for a in obs.legal))
    if state.is_terminal:
        lines.append(result_summary(state.result, game, voice))
    return "\n".join(lines)


def env_names() -> dict[str, str]:
    """Each game's environment name stem: ``balik-satu`` → ``balik_satu``."""
    return {name: name.replace("-", "_") for name in sorted(GAMES)}
