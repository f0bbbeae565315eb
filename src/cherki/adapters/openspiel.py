"""OpenSpiel games for every cherki game: ``python_cherki_<stem>`` (``python_cherki_balik_satu``,
``python_cherki_ceki``...), registered with ``pyspiel`` when this module is imported.

>>> import pyspiel
>>> import cherki.adapters.openspiel
>>> game = pyspiel.load_game("python_cherki_tantanan", {"players": 3})

Each game takes the parameters ``players`` (default: the game's), ``rules`` (a preset; ``""``,
the default, is the game's default preset), ``options`` (rule options changed from the
preset, ``NAME=VALUE,NAME=VALUE``), ``max_steps`` (default 5,000) and ``reward`` (``points``,
``money`` or ``win``, see :mod:`cherki.adapters.common`). A bad value is cherki's own
:class:`~cherki.core.errors.RulesError`, with the reason (OpenSpiel itself refuses an
unknown parameter or one of the wrong type, with ``pyspiel.SpielError``). The game string
records the options as ``NAME:VALUE;NAME:VALUE``, since an OpenSpiel game string cannot hold
``,`` or ``=`` in a value; both forms are read. The game is a thin layer on the contract
(:mod:`cherki.core.contract`): the cherki state decides every rule.

Our specifications
------------------
* **Chance deals the shoe card by card.** A hand starts with as many chance nodes as the
  shoe holds cards (``30 × half-packs``: 60 to 330). At each the outcomes are the card kinds
  (action ids 0-29) with copies still in the shoe, each as likely as the copies left of it,
  so the order dealt is a uniformly shuffled shoe. Once the whole order is fixed the hand
  starts exactly as cherki deals that shoe (``DealRequest(shoe=...)``, seat 0 first) and
  play goes on by cherki's rules: the player to act is ``state.current``, the legal actions
  cherki's sorted action ids (``Game.num_actions`` distinct ids). Play is sequential; a
  claim out of turn is a turn of its own, as in cherki.
* **Returns** come at the end of the hand only (terminal reward model): each seat's reward
  by ``reward`` (:func:`cherki.adapters.common.rewards`), 0 before the end. Payments do not
  always add up to zero (a Gonggong pot pays a winner what earlier hands staked; ``win``
  gives +1/−1 signs), so every game is declared *general-sum*; the utility bounds are the
  declared bounds of a seat's payment (``Table.reward_bounds``).
* **Length cap** (a house rule of the adapters, :mod:`cherki.adapters.common`): a hand still
  going after ``max_steps`` actions (the game's own bound where it has one) is terminal with
  every return 0, the hand abandoned. The chance nodes of the deal do not count towards it;
  ``max_game_length`` is the shoe's cards plus the cap.
* **Observations.** A seat's observation string is its cherki observation as compact JSON
  (``docs/observations.md``), its tensor the observation's ``encode()`` (length
  ``observation_layout(...).size``; the tensor's named pieces are the layout's views). Both
  come from ``state.observation(seat)`` only, so no seat ever sees another's hidden cards.
  While the shoe is being dealt no card has reached a hand: the tensor is all zeros and the
  string says how many cards are dealt.
* **Information state.** The string is the observation string followed by the seat's own
  actions of the hand, in order (``own: ...``). The observation already holds the public
  record (the discards and who threw them, calls, exposed sets, cards left). Other seats'
  actions are not listed: what a seat sees of them is each game's business, and its
  observation says it. So the information state is not a perfect-recall record of every
  action seen. The information-state tensor is the observation tensor.
* **Resampling** (``resample_from_infostate``, for ISMCTS): a hand under way becomes the
  game's own ``determinize`` of the seat's observation, seeded from the sampler
  (``random.Random(int(sampler() * 2**31))``); the seat's observation and own actions are
  the same, the other hands and the stock sampled from the cards it has not seen, every
  call, claim, reveal and lay-down made so far kept (a caller's sampled hand waits under its
  call; the seat to act can act), for whichever seat asks, the one to act or not. Such a
  state is not dealt from a shoe: its OpenSpiel ``history()`` is empty and its string
  records the sampled hands. During the deal the sample is as many chance outcomes as were
  dealt, drawn at random from the whole shoe (no seat has seen a card yet); a finished hand
  is returned as it is (a clone).
* **Cloning** copies the cherki state with ``State.clone()``, never a deep copy;
  **serialization** (``state.serialize()``, ``game.deserialize_state``) records the shoe
  order and the actions (a sampled hand: the sampled cherki state and the actions since)
  and replays them; ``pickle`` works on games and states the same way.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final

import numpy as np

from cherki.adapters.common import (
    DEFAULT_MAX_STEPS,
    Table,
    check_reward,
    env_names,
    rewards,
)
from cherki.core.cards import N_KINDS, card_name
from cherki.core.contract import DealRequest, Game, State
from cherki.core.errors import IllegalActionError, RulesError
from cherki.core.options import Rules
from cherki.games import GAMES, find_game

try:
    import pyspiel as _pyspiel
except ImportError as exc:  # pragma: no cover - the extra is part of the test environment
    raise ImportError(
        "cherki.adapters.openspiel needs OpenSpiel, the extra `rl`: pip install 'cherki[rl]' "
        "(in a checkout: uv run --extra rl …)"
    ) from exc

#: pyspiel has no type information: its classes are typed ``Any`` here.
pyspiel: Any = _pyspiel

CHANCE: Final[int] = int(pyspiel.PlayerId.CHANCE)
TERMINAL: Final[int] = int(pyspiel.PlayerId.TERMINAL)

#: Each cherki game's OpenSpiel short name: ``balik-satu`` → ``python_cherki_balik_satu``.
SHORT_NAMES: Final[dict[str, str]] = {
    name: f"python_cherki_{stem}" for name, stem in env_names().items()
}
PARAMETERS: Final = ("players", "rules", "options", "max_steps", "reward")


# -- the table a game plays ---------------------------------------------------------------
class Spec:
    """What every state of one OpenSpiel game shares: the table, the reward, the cap and
    the shoe. Pickled by its key and shared, never copied."""

    def __init__(self, name: str, players: int, rules: Rules, cap: int, reward: str) -> None:
        self.key = (name, players, rules, cap, reward)
        self.table = Table(find_game(name), rules, players)
        self.game: Game = self.table.game
        self.players = players
        self.reward = check_reward(reward)
        self.cap = self.table.max_steps(cap)
        probe = self.game.new_state(rules, players, seed=0)
        self.counts: tuple[int, ...] = tuple(probe.card_counts())
        self.size = sum(self.counts)

    def __reduce__(self) -> tuple[Callable[..., Spec], tuple[Any, ...]]:
        return spec_of, self.key

    def __deepcopy__(self, memo: dict[int, Any]) -> Spec:
        return self


_SPECS: dict[tuple[Any, ...], Spec] = {}


def spec_of(name: str, players: int, rules: Rules, cap: int, reward: str) -> Spec:
    """The one :class:`Spec` of a table (built once)."""
    key = (name, players, rules, cap, reward)
    spec = _SPECS.get(key)
    if spec is None:
        spec = _SPECS[key] = Spec(name, players, rules, cap, reward)
    return spec


def parse_options(text: object) -> dict[str, str]:
    """``NAME=VALUE,NAME=VALUE`` (``;`` also separates, ``:`` also joins) as a dict."""
    if not isinstance(text, str):
        raise RulesError(f"options is text (NAME=VALUE,NAME=VALUE), not {text!r}")
    out: dict[str, str] = {}
    for item in text.replace(";", ",").split(","):
        if not item.strip():
            continue
        name, sep, value = item.replace(":", "=").partition("=")
        if not sep or not name.strip():
            raise RulesError(f"a rule option is NAME=VALUE, not {item.strip()!r}")
        out[name.strip()] = value.strip()
    return out


def settle(game: Game, params: Mapping[str, object]) -> tuple[Spec, dict[str, object]]:
    """The table the parameters describe, and the parameters as the game records them (the
    options as ``NAME:VALUE;NAME:VALUE``, which an OpenSpiel game string can hold)."""
    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        raise RulesError(
            f"{SHORT_NAMES[game.name]} has no parameter {unknown[0]!r}; "
            f"its parameters: {', '.join(PARAMETERS)}"
        )
    players = params.get("players", game.default_players)
    if type(players) is not int:
        raise RulesError(f"players is a whole number, not {players!r}")
    preset = params.get("rules", "")
    if not isinstance(preset, str):
        raise RulesError(f"rules is the name of a preset, not {preset!r}")
    options = parse_options(params.get("options", ""))
    cap = params.get("max_steps", DEFAULT_MAX_STEPS)
    if type(cap) is not int:
        raise RulesError(f"max_steps is a whole number of actions ≥ 1, not {cap!r}")
    reward = check_reward(str(params.get("reward", "points")))
    named = game.find_preset(preset).name if preset.strip() else ""
    table = Table.of(game, players, named or None, **options)
    table.max_steps(cap)
    spec = spec_of(game.name, table.players, table.rules, cap, reward)
    shown = ";".join(f"{game.option(k).name}:{v}" for k, v in options.items())
    recorded: dict[str, object] = {
        "players": table.players,
        "rules": named,
        "options": shown,
        "max_steps": cap,
        "reward": reward,
    }
    return spec, recorded


# -- one hand -----------------------------------------------------------------------------
class Hand:
    """A hand as the OpenSpiel state holds it: the shoe dealt so far, then the cherki state
    and the actions played. Its ``__deepcopy__`` (what OpenSpiel's clone calls) is the cheap
    :meth:`copy`; it pickles as the shoe order and the actions, replayed when loaded."""

    __slots__ = ("base", "left", "moves", "order", "sample", "sampled_text", "spec", "state")

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.order: list[int] = []
        self.left = list(spec.counts)
        self.state: State | None = None
        #: the actions of the hand after the deal, as ``(seat, action)``
        self.moves: list[tuple[int, int]] = []
        #: a sampled hand: the cherki state as sampled (never changed) and ``len(moves)`` then
        self.sample: State | None = None
        self.base = 0
        self.sampled_text = ""

    # -- copies and pickles -----------------------------------------------------------------
    def copy(self) -> Hand:
        out = Hand.__new__(Hand)
        out.spec = self.spec
        out.order = list(self.order)
        out.left = list(self.left)
        out.state = self.state.clone() if self.state is not None else None
        out.moves = list(self.moves)
        out.sample = self.sample
        out.base = self.base
        out.sampled_text = self.sampled_text
        return out

    def __deepcopy__(self, memo: dict[int, Any]) -> Hand:
        return self.copy()

    def __getstate__(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "order": self.order,
            "moves": self.moves,
            "sample": self.sample,
            "base": self.base,
            "sampled_text": self.sampled_text,
        }

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.spec = data["spec"]
        self.order = list(data["order"])
        self.moves = []
        self.sample = data["sample"]
        self.base = data["base"]
        self.sampled_text = data["sampled_text"]
        self.left = list(self.spec.counts)
        for k in self.order:
            self.left[k] -= 1
        moves = [(int(s), int(a)) for s, a in data["moves"]]
        if self.sample is not None:
            self.state = self.sample.clone()
            self.moves = moves[: self.base]
            moves = moves[self.base :]
        else:
            self.state = self._start() if len(self.order) == self.spec.size else None
        for seat, action in moves:
            self.play(action, seat)

    # -- the deal ---------------------------------------------------------------------------
    def _start(self) -> State:
        spec = self.spec
        request = DealRequest(shoe=tuple(self.order))
        return spec.game.start(spec.table.rules, spec.players, request)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        remaining = self.spec.size - len(self.order)
        return [(k, c / remaining) for k, c in enumerate(self.left) if c]

    def deal(self, kind: int) -> None:
        if self.state is not None:
            raise IllegalActionError("the shoe is dealt: no more chance outcomes")
        if not 0 <= kind < N_KINDS or not self.left[kind]:
            raise IllegalActionError(f"the shoe holds no more {_kind_text(kind)}")
        self.order.append(kind)
        self.left[kind] -= 1
        if len(self.order) == self.spec.size:
            self.state = self._start()

    # -- play -------------------------------------------------------------------------------
    @property
    def cut(self) -> bool:
        """The hand reached the cap unfinished (abandoned: every return 0)."""
        st = self.state
        return st is not None and not st.is_terminal and len(self.moves) >= self.spec.cap

    @property
    def is_terminal(self) -> bool:
        st = self.state
        return st is not None and (st.is_terminal or len(self.moves) >= self.spec.cap)

    def current(self) -> int:
        if self.state is None:
            return CHANCE
        if self.is_terminal:
            return TERMINAL
        return self.state.current

    def play(self, action: int, seat: int | None = None) -> None:
        st = self.state
        if st is None:
            raise IllegalActionError("the shoe is still being dealt")
        if self.cut:
            raise IllegalActionError(f"the hand was cut short after {self.spec.cap} actions")
        actor = st.current if seat is None else seat
        st.apply(action, actor)
        self.moves.append((actor, action))

    def returns(self) -> list[float]:
        st = self.state
        if st is not None and st.is_terminal:
            return rewards(st.result, self.spec.players, self.spec.reward)
        return [0.0] * self.spec.players

    # -- what a seat sees -------------------------------------------------------------------
    def observation_text(self, seat: int) -> str:
        st = self.state
        if st is None:
            return (
                f"seat {seat}: the deal is under way "
                f"({len(self.order)} of {self.spec.size} cards dealt)"
            )
        text = json.dumps(st.observation(seat).to_json(), separators=(",", ":"))
        if self.cut:
            text += f"\ncut short after {self.spec.cap} actions"
        return text

    def information_text(self, seat: int) -> str:
        game = self.spec.game
        own = ", ".join(game.action_text(a) for s, a in self.moves if s == seat)
        return f"{self.observation_text(seat)}\nown: {own}"

    def encode(self, seat: int, out: np.ndarray) -> None:
        if self.state is None:
            out.fill(0.0)
        else:
            out[:] = self.state.encode(seat)

    # -- sampling ---------------------------------------------------------------------------
    def dealt_sample(self, rng: random.Random) -> list[int]:
        """As many cards as are dealt, drawn at random from the whole shoe."""
        pool = [k for k, c in enumerate(self.spec.counts) for _ in range(c)]
        return rng.sample(pool, len(self.order))

    def resampled(self, seat: int, rng: random.Random) -> Hand:
        """A hand under way consistent with everything ``seat`` knows: the others' hands
        and the stock sampled by the game's ``determinize``."""
        st = self.state
        assert st is not None and not self.is_terminal
        sampled = self.spec.game.determinize(st.observation(seat), rng)
        out = Hand(self.spec)
        out.order = []
        out.left = [0] * N_KINDS
        out.sample = sampled
        out.state = sampled.clone()
        out.moves = list(self.moves)
        out.base = len(self.moves)
        hands = " | ".join(" ".join(_codes(sampled.observation(s).hand)) for s in range(sampled.n))
        out.sampled_text = f"sampled for seat {seat} after {out.base} actions: {hands}"
        return out

    def text(self) -> str:
        spec = self.spec
        head = f"{spec.game.title}, {spec.players} players"
        if self.state is None:
            dealt = " ".join(card_name(k) for k in self.order)
            return f"{head}; dealing, {len(self.order)} of {spec.size} cards: {dealt}"
        if self.sample is not None:
            origin = self.sampled_text
        else:
            origin = "shoe: " + " ".join(card_name(k) for k in self.order)
        moves = " ".join(f"{s}:{a}" for s, a in self.moves)
        if self.state.is_terminal:
            end = "\nover: " + " ".join(str(r) for r in self.returns())
        elif self.cut:
            end = f"\ncut short after {spec.cap} actions"
        else:
            end = f"\nseat {self.state.current} to act"
        return f"{head}; {origin}\nmoves: {moves}{end}"


def _kind_text(kind: int) -> str:
    return card_name(kind) if 0 <= kind < N_KINDS else f"card {kind}"


def _codes(counts: tuple[int, ...] | list[int]) -> list[str]:
    return [card_name(k) for k, c in enumerate(counts) for _ in range(c)]


# -- OpenSpiel's classes ------------------------------------------------------------------
def game_type(name: str) -> Any:
    """The ``pyspiel.GameType`` of a cherki game."""
    game = find_game(name)
    lo, hi = game.players
    kinds = pyspiel.GameType
    return pyspiel.GameType(
        short_name=SHORT_NAMES[game.name],
        long_name=f"Python Cherki {game.title}",
        dynamics=kinds.Dynamics.SEQUENTIAL,
        chance_mode=kinds.ChanceMode.EXPLICIT_STOCHASTIC,
        information=kinds.Information.IMPERFECT_INFORMATION,
        utility=kinds.Utility.GENERAL_SUM,
        reward_model=kinds.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": game.default_players,
            "rules": "",
            "options": "",
            "max_steps": DEFAULT_MAX_STEPS,
            "reward": "points",
        },
    )


_TYPES: dict[str, Any] = {}


class CherkiGame(pyspiel.Game):  # type: ignore[misc]
    """One cherki game at one table, as an OpenSpiel game: each game has its subclass
    (:data:`GAME_CLASSES`), which OpenSpiel calls with the parameters."""

    #: the cherki game of the subclass
    cherki_name: ClassVar[str] = ""

    def __init__(self, params: Mapping[str, object] | None = None) -> None:
        game = find_game(self.cherki_name)
        spec, recorded = settle(game, params or {})
        lo, hi = spec.table.reward_bounds(spec.reward)
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions,
            max_chance_outcomes=N_KINDS,
            num_players=spec.players,
            min_utility=lo,
            max_utility=hi,
            max_game_length=spec.size + spec.cap,
        )
        kind = _TYPES.get(game.name)
        if kind is None:
            kind = _TYPES[game.name] = game_type(game.name)
        super().__init__(kind, info, recorded)
        self._spec = spec

    @property
    def spec(self) -> Spec:
        """The table. (A game unpickled by OpenSpiel comes back without running
        ``__init__``: its table is found again from its parameters.)"""
        spec: Spec | None = self.__dict__.get("_spec")
        if spec is None:
            spec, _ = settle(find_game(self.cherki_name), self.get_parameters())
            self._spec = spec
        return spec

    def new_initial_state(self) -> CherkiState:
        return CherkiState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self.spec.size

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self.spec, iig_obs_type, params)


class CherkiState(pyspiel.State):  # type: ignore[misc]
    """A hand of a cherki game as an OpenSpiel state (see the module's notes)."""

    def __init__(self, game: CherkiGame) -> None:
        super().__init__(game)
        # the one attribute: OpenSpiel's clone deep-copies (Hand.copy) and pickles it
        self._hand = Hand(game.spec)

    @property
    def hand(self) -> Hand:
        return self._hand

    def current_player(self) -> int:
        return self._hand.current()

    def _legal_actions(self, player: int) -> list[int]:
        st = self._hand.state
        if st is None or self._hand.is_terminal:
            return []
        return st.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._hand.state is not None:
            return []
        return self._hand.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self._hand.state is None:
            self._hand.deal(int(action))
        else:
            self._hand.play(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"deal {_kind_text(action)}"
        return self._hand.spec.game.action_text(action)

    def is_terminal(self) -> bool:
        return self._hand.is_terminal

    def returns(self) -> list[float]:
        return self._hand.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CherkiState:
        """A state consistent with what ``player_id`` knows (see the module's notes)."""
        rng = random.Random(int(probability_sampler() * 2**31))
        hand = self._hand
        out: CherkiState
        if hand.is_terminal:
            out = self.clone()
            return out
        out = self.get_game().new_initial_state()
        if hand.state is None:
            for kind in hand.dealt_sample(rng):
                out.apply_action(kind)
        else:
            out._hand = hand.resampled(player_id, rng)
        return out

    def __str__(self) -> str:
        return self._hand.text()


class Observer:
    """OpenSpiel's Python observer: the seat's cherki observation as a string and a tensor
    (whose named pieces are the layout's views). ``perfect_recall`` asks for the information
    state; only a single seat's private view with the public information is offered."""

    def __init__(self, spec: Spec, iig_obs_type: Any, params: Any) -> None:
        if isinstance(iig_obs_type, Mapping):  # OpenSpiel passes the parameters alone
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise RulesError(f"the cherki observers take no parameters, not {dict(params)!r}")
        recall = False
        if iig_obs_type is not None:
            single = pyspiel.PrivateInfoType.SINGLE_PLAYER
            if iig_obs_type.private_info != single or not iig_obs_type.public_info:
                raise RulesError(
                    "cherki observes one seat's own cards with the public information only "
                    "(private_info SINGLE_PLAYER, public_info True)"
                )
            recall = bool(iig_obs_type.perfect_recall)
        self.recall = recall
        layout = spec.table.layout
        self.tensor = np.zeros(layout.size, np.float32)
        names = [name for name, _ in layout.views]
        if len(set(names)) == len(names):
            self.dict = {name: self.tensor[part] for name, part in layout.slices().items()}
        else:
            self.dict = {"observation": self.tensor}

    def set_from(self, state: CherkiState, player: int) -> None:
        state.hand.encode(player, self.tensor)

    def string_from(self, state: CherkiState, player: int) -> str:
        hand = state.hand
        return hand.information_text(player) if self.recall else hand.observation_text(player)


# -- registration and helpers -------------------------------------------------------------
def _game_class(name: str) -> type[CherkiGame]:
    title = "".join(part.capitalize() for part in env_names()[name].split("_")) + "Game"
    made = type(title, (CherkiGame,), {"cherki_name": name, "__module__": __name__})
    globals()[title] = made  # found by its name, as pickle finds a class
    return made


#: Each cherki game's OpenSpiel game class. OpenSpiel keeps the class it is given to the
#: end of the process: a class (unlike a function) is never freed while Python shuts down,
#: which would crash the interpreter on exit.
GAME_CLASSES: Final[dict[str, type[CherkiGame]]] = {name: _game_class(name) for name in GAMES}


def register() -> None:
    """Register every cherki game with OpenSpiel (done on import; idempotent)."""
    known = set(pyspiel.registered_names())
    for name in sorted(GAMES):
        if SHORT_NAMES[name] not in known:
            kind = _TYPES.get(name)
            if kind is None:
                kind = _TYPES[name] = game_type(name)
            pyspiel.register_game(kind, GAME_CLASSES[name])


def load_game(game: str, **params: object) -> CherkiGame:
    """``pyspiel.load_game`` for a cherki game by its name or alias."""
    short = SHORT_NAMES[find_game(game).name]
    loaded: CherkiGame = pyspiel.load_game(short, dict(params))
    return loaded


def cherki_state(state: CherkiState) -> State | None:
    """The cherki state under an OpenSpiel state (None while the shoe is being dealt)."""
    return state.hand.state


register()
