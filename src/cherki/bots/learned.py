"""The learned bot: a small network trained on our own simulator, played with numpy alone.

A shipped model is two files in ``cherki/bots/models/``: ``<game>-<players>p.npz`` (the
weights) and ``<game>-<players>p.card.json`` (its **model card**: the game, the presets and
player counts it was trained and measured on, the observation layout it reads, the command,
seed, CPU time and library versions that made it, and its arena figures). The network reads
a seat's encoded observation (``observation.encode()``, the layout of
``Game.observation_layout``), scales each entry by its view's declared greatest value, and
gives a logit for every action id and a value (the hand's expected payment to the seat, in
points); the bot plays the legal action of the highest logit.

Our specifications
------------------
* **The layout is checked, not assumed.** A card names the observation layout it was made
  for by its views (name and length, in order) and an id hashed from them
  (:func:`layout_id`); a model is refused, in one sentence, at a table whose layout differs
  (another player count, or a game whose encoding changed since), and for a game or player
  count it was not made for. A game's observation layout has no version number of its own:
  its views are its version.
* **Deterministic play**: the highest legal logit (the lowest action id among equals); the
  bot draws nothing from its generator but the heuristic's (below), so a hand with it
  replays exactly.
* **No endless hands.** The games of sets set no bound on a hand's length: a discard may be
  taken and thrown again without end, and greedy networks at every seat can do just that.
  After :data:`STUCK` decisions of its own with the stock unchanged (``stock_left``), the
  bot plays its game's heuristic (which takes a discard only when it makes the hand
  clearly better) until a card is drawn from the stock again. The batched policy does the
  same per hand (:class:`cherki.vector.policies.LearnedPolicy`).
* **The heuristic as a prior** (models whose card's ``network.prior`` is ``"heuristic"``):
  the network also reads the action its game's heuristic would play (an embedding of that
  action added to the first layer), and that action's logit is raised by the card's
  ``beta``. A fresh network therefore plays as the heuristic does, and training learns
  where to depart from it (residual policy learning: Silver et al. 2018, "Residual Policy
  Learning"; Johannink et al. 2019). Playing costs one heuristic decision (tens of
  microseconds) beside the network's. Models without a prior read the observation alone.
* **The prior's own weights.** A card may give the heuristic's constants its prior plays by
  (``network.prior_weights``: every name of its game's heuristic's weights,
  :attr:`cherki.bots.base.Heuristic.weights_type`: :class:`cherki.bots.balik.Weights` in
  the games of sets, :class:`cherki.bots.ceki.CekiWeights`,
  :class:`cherki.bots.cholek.CholekWeights`; tuned by ``cherki train --method tune``,
  :mod:`cherki.tune`; the tie-break's, named since the first cards, only where a card
  tunes it, ``--tune-ties``); without them the prior is the hand-set heuristic. Weights are
  refused in one sentence where a name is missing or unknown, a value is not a number ≥ 0,
  or the game's heuristic has no weights. A stuck hand (above) is played by the hand-set
  heuristic, whose takes are the proven way out of a loop; tuned weights may take more
  readily.
* **A zero policy head plays the prior alone** (:attr:`Model.plays_prior`): where a prior
  model's policy head (``wp``, ``bp``) is all zeros and its raise above 0, its logits are
  the raise on the heuristic's choice and 0 elsewhere, so the bot plays the heuristic's
  choice (the lowest legal action, were that ever not legal) without running the network,
  which then serves only for the value. ``--method tune`` writes its models so: it trains
  the prior's weights and the value head, never the policy head.
* **Half the bytes where the play allows** (:func:`halve`, ``scripts/halve_model.py``): a
  model that plays its prior may store its weight matrices as float16 (its card's
  ``network.stored``), read back as float32; its play cannot change, its values move by
  float16's rounding. A network that chooses keeps float32.
* **Only numpy**: playing needs no learning library; training (:mod:`cherki.train`) is the
  ``train`` extra's.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from cherki.bots.balik import STUCK_TURNS, WEIGHTS, Weights
from cherki.bots.base import Heuristic, heuristic_for
from cherki.bots.shipped import MODELS, shipped, shipped_players
from cherki.bots.weights import TunedWeights
from cherki.core.contract import Observation
from cherki.core.encoding import Layout
from cherki.core.errors import RulesError
from cherki.games import find_game

#: where the shipped models are (package data)
#: the card's format
CARD_FORMAT = "cherki-learned-model/1"
#: the weights' names in a model's ``.npz``, in the order of the layers
HIDDEN_KEYS = ("w0", "b0", "w1", "b1")
HEAD_KEYS = ("wp", "bp", "wv", "bv")
#: the bot's own decisions with the stock unchanged after which it plays the heuristic (the
#: same count after which the heuristic itself draws instead of taking)
STUCK = STUCK_TURNS


def layout_id(layout: Layout) -> str:
    """The id of an observation layout: a hash of its views' names and lengths, in order."""
    text = json.dumps([[name, n] for name, n in layout.views])
    return "views-sha256:" + hashlib.sha256(text.encode()).hexdigest()[:16]


def layout_of(game: str, players: int, rules: str | None = None) -> Layout:
    g = find_game(game)
    return g.observation_layout(g.rules(rules), players)


@dataclass
class Model:
    """A network's weights and its card (see the module)."""

    params: dict[str, np.ndarray]
    card: dict[str, Any] = field(default_factory=dict)

    @property
    def game(self) -> str:
        return str(self.card["game"])

    @property
    def players(self) -> list[int]:
        return [int(p) for p in self.card["players"]]

    def _first(self) -> np.ndarray:
        """The first layer's weights with the input scaling folded in (computed once)."""
        w: np.ndarray | None = self.__dict__.get("_w0")
        if w is None:
            p = self.params
            w = (p["scale"][:, None] * p["w0"]).astype(np.float32)
            self.__dict__["_w0"] = w
        return w

    @property
    def weights(self) -> Weights:
        """The weights of the games of sets' heuristic its prior plays (see the module):
        what the batched simulator's policies read (the hand-set ones without a card's)."""
        if self.card.get("network", {}).get("prior_weights") is None:
            return WEIGHTS
        w = self.prior_weights
        if not isinstance(w, Weights):
            raise RulesError(
                f"the heuristic of {self.game} plays by no weights of the games of sets"
            )
        return w

    @property
    def prior_weights(self) -> TunedWeights:
        """The weights of the heuristic its prior plays (see the module): the card's, or
        the hand-set ones of its game's heuristic (:attr:`Heuristic.weights_type`)."""
        w: TunedWeights | None = self.__dict__.get("_weights")
        if w is None:
            given = self.card.get("network", {}).get("prior_weights")
            kind = heuristic_for(self.game).weights_type
            if kind is None:
                if given is not None:
                    raise RulesError(
                        f"the heuristic of {self.game} has no weights for a model to tune"
                    )
                kind = Weights
            w = kind() if given is None else kind.from_dict(given)
            self.__dict__["_weights"] = w
        return w

    def heuristic(self) -> Heuristic:
        """Its game's heuristic, playing the prior's weights (see the module)."""
        h = heuristic_for(self.game)
        w = self.prior_weights
        if h.weights_type is None or w == h.weights_type():
            return h
        return h.weighted(w)

    @property
    def has_prior(self) -> bool:
        """Whether the network reads the heuristic's choice (see the module)."""
        return "wprior" in self.params

    @property
    def plays_prior(self) -> bool:
        """Whether its policy is its prior's choice alone: a model with the heuristic prior
        whose policy head is zero (``--method tune`` trains the prior's weights and the
        value head, never the policy head, and writes it as zeros). Its logits are then the
        prior's ``prior_beta`` on the heuristic's choice and 0 on every other action, so it
        chooses without its network (:meth:`choose_prior`); the network gives its value."""
        got: bool | None = self.__dict__.get("_plays_prior")
        if got is None:
            p = self.params
            got = self.has_prior and not p["wp"].any() and not p["bp"].any()
            got = bool(got and p["prior_beta"][0] > 0)
            self.__dict__["_plays_prior"] = got
        return got

    @staticmethod
    def choose_prior(mask: np.ndarray, prior: np.ndarray) -> np.ndarray:
        """What a model that :attr:`plays_prior` chooses: the prior's action where it is
        legal (``mask`` bool ``[m, actions]``), else the lowest legal action id (level
        logits of 0), as :meth:`choose` does with those logits."""
        prior = np.asarray(prior, np.int64)
        ok = mask[np.arange(len(mask)), prior]
        out: np.ndarray = np.where(ok, prior, mask.argmax(axis=1))
        return out

    def _hidden(self, x: np.ndarray, prior: np.ndarray | None = None) -> np.ndarray:
        p = self.params
        pre = np.asarray(x, np.float32) @ self._first() + p["b0"]
        if self.has_prior:
            if prior is None:
                raise RulesError("this learned model reads the heuristic's choice: give it")
            pre += p["wprior"][np.asarray(prior, np.int64)]
        h = np.maximum(pre, 0)
        out: np.ndarray = np.maximum(h @ p["w1"] + p["b1"], 0)
        return out

    def _logits(self, h: np.ndarray, prior: np.ndarray | None) -> np.ndarray:
        p = self.params
        logits: np.ndarray = h @ p["wp"] + p["bp"]
        if prior is not None and self.has_prior:
            logits[np.arange(len(logits)), np.asarray(prior, np.int64)] += p["prior_beta"][0]
        return logits

    def forward(
        self, x: np.ndarray, prior: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Logits ``[m, actions]`` and values ``[m]`` (points) of observations ``x`` ``[m,
        size]`` (float32); ``prior``, the heuristic's action in each row, for a model that
        reads it."""
        p = self.params
        h = self._hidden(x, prior)
        logits = self._logits(h, prior)
        value = (h @ p["wv"] + p["bv"])[:, 0] * p["value_scale"][0]
        return logits, value

    def choose(
        self, x: np.ndarray, mask: np.ndarray, prior: np.ndarray | None = None
    ) -> np.ndarray:
        """The legal action of the highest logit in each row (``mask`` bool ``[m,
        actions]``, a legal action in every row)."""
        if prior is not None and self.plays_prior:
            return self.choose_prior(mask, prior)
        logits = self._logits(self._hidden(x, prior), prior)
        logits[~mask] = -np.inf
        out: np.ndarray = logits.argmax(axis=1)
        return out

    def check_table(self, game: str, players: int, rules: str | None = None) -> None:
        """Refuse, in one sentence, a table this model was not made for."""
        g = find_game(game)
        if g.name != self.game:
            raise RulesError(f"this learned model plays {self.game}, not {g.name}")
        if players not in self.players:
            made = ", ".join(str(p) for p in self.players)
            raise RulesError(
                f"the learned model of {g.name} was made for {made} players, not {players}"
            )
        want = self.card["observation"]["id"]
        have = layout_id(layout_of(g.name, players, rules))
        if have != want:
            raise RulesError(
                f"the learned model of {g.name} reads the observation layout {want}, but a "
                f"{players}-player table's is {have}: retrain it for this version of cherki"
            )

    @property
    def stored(self) -> str:
        """How its weight matrices are stored: ``float32``, or ``float16`` where its card
        says so (:func:`halve`); they are read back as float32 either way."""
        return str(self.card.get("network", {}).get("stored", "float32"))

    def save(self, stem: Path) -> None:
        """Write ``stem.npz`` and ``stem.card.json`` (the matrices as :attr:`stored`)."""
        stem.parent.mkdir(parents=True, exist_ok=True)
        half = self.stored == "float16"
        arrays = {
            k: np.asarray(v, np.float16 if half and np.ndim(v) == 2 else np.float32)
            for k, v in self.params.items()
        }
        with open(stem.with_suffix(".npz"), "wb") as fh:
            np.savez_compressed(fh, **arrays)  # type: ignore[arg-type]
        stem.with_suffix(".card.json").write_text(
            json.dumps(self.card, indent=1, ensure_ascii=False) + "\n"
        )


def halve(model: Model) -> Model:
    """The model with its weight matrices stored as float16 (half the bytes): only for a
    model that plays its prior (:attr:`Model.plays_prior`), whose choices never read its
    network, so that its play, and the arena figures on its card, stay exactly as they
    were; its value estimates move by float16's rounding (about one part in a thousand)."""
    if not model.plays_prior:
        raise RulesError(
            f"the learned model of {model.game} chooses by its network: float16 weights could "
            "change its play, so it keeps float32"
        )
    card = json.loads(json.dumps(model.card))
    card["network"]["stored"] = "float16"
    params = {
        k: (np.asarray(v, np.float16).astype(np.float32) if np.ndim(v) == 2 else v)
        for k, v in model.params.items()
    }
    return Model(params, card)


def load_model(stem: Path | str) -> Model:
    """A model from ``stem.npz`` and ``stem.card.json`` (``stem`` without a suffix)."""
    path = Path(stem)
    if path.suffix == ".npz":
        path = path.with_suffix("")
    npz, card_path = path.with_suffix(".npz"), path.with_suffix(".card.json")
    if not npz.is_file() or not card_path.is_file():
        raise RulesError(f"no learned model at {path} (it needs {npz.name} and {card_path.name})")
    card = json.loads(card_path.read_text())
    if card.get("format") != CARD_FORMAT:
        raise RulesError(f"{card_path} is not a cherki learned model's card ({CARD_FORMAT})")
    with np.load(npz) as data:
        params = {k: np.asarray(data[k], np.float32) for k in data.files}
    missing = [k for k in (*HIDDEN_KEYS, *HEAD_KEYS, "scale", "value_scale") if k not in params]
    if missing:
        raise RulesError(f"the learned model {npz} lacks {', '.join(missing)}")
    model = Model(params, card)
    try:
        model.heuristic()
    except RulesError as err:
        raise RulesError(f"{card_path}: {err}") from None
    return model


@lru_cache(maxsize=32)
def _load_shipped(stem: str) -> Model:
    return load_model(stem)


def shipped_model(game: str, players: int, rules: str | None = None) -> Model:
    """The shipped model of ``game`` at ``players``, checked against the table's layout;
    refused in one sentence where none ships."""
    return _checked_model(find_game(game).name, players, rules)


@lru_cache(maxsize=64)
def _checked_model(game: str, players: int, rules: str | None) -> Model:
    g = find_game(game)
    stem = shipped().get((g.name, players))
    if stem is None:
        have = shipped_players(g.name)
        if not have:
            raise RulesError(f"no learned model ships for {g.title}")
        raise RulesError(
            f"the learned models of {g.title} are for {', '.join(map(str, have))} players, "
            f"not {players}"
        )
    model = _load_shipped(str(stem))
    model.check_table(g.name, players, rules)
    return model


class LearnedBot:
    """The bot level ``learned`` (see the module): one shipped model per table size."""

    name = "learned"

    def __init__(self, game: str, model: Model | None = None) -> None:
        self.game = find_game(game)
        self.model = model
        if model is not None:
            model.check_table(self.game.name, model.players[0])
        elif not shipped_players(self.game.name):
            raise RulesError(f"no learned model ships for {self.game.title}")
        self._checked: set[int] = set()
        self._stock = -1
        self._same = 0
        self._priors: dict[int, Heuristic] = {}
        self._fallback: Heuristic | None = None

    def model_for(self, players: int) -> Model:
        if self.model is not None:
            if players not in self._checked:
                self.model.check_table(self.game.name, players)
                self._checked.add(players)
            return self.model
        return shipped_model(self.game.name, players)

    def act(self, obs: Observation, rng: random.Random) -> int:
        legal = obs.legal
        if len(legal) == 1:
            return int(legal[0])
        model = self.model_for(obs.players)
        stock = obs.stock_left
        self._same = self._same + 1 if stock == self._stock else 0
        self._stock = stock
        if self._same >= STUCK:
            return int(self._plain().act(obs, rng))
        prior = np.array([self._prior(model).act(obs, rng)]) if model.has_prior else None
        if prior is not None and model.plays_prior:
            return int(prior[0])  # the prior's choice is legal: the heuristic's
        logits, _ = model.forward(obs.encode()[None, :], prior)
        row = logits[0]
        return int(max(legal, key=lambda a: (row[a], -a)))

    def _prior(self, model: Model) -> Heuristic:
        """The heuristic of ``model``'s prior, one per model."""
        h = self._priors.get(id(model))
        if h is None:
            h = self._priors[id(model)] = model.heuristic()
        return h

    def _plain(self) -> Heuristic:
        """The hand-set heuristic, for a stuck hand."""
        if self._fallback is None:
            self._fallback = heuristic_for(self.game.name)
        return self._fallback

    def value(self, obs: Observation, rng: random.Random | None = None) -> float:
        """The model's estimate of the hand's payment to ``obs``'s seat, in points."""
        model = self.model_for(obs.players)
        prior = None
        if model.has_prior:
            # its value was learnt at the seat's own decisions, with the heuristic's choice
            if not obs.legal:
                raise RulesError(
                    "a learned model with the heuristic prior values the seat's own decisions only"
                )
            prior = np.array([self._prior(model).act(obs, rng or random.Random(0))])
        _, v = model.forward(obs.encode()[None, :], prior)
        return float(v[0])


__all__ = [
    "CARD_FORMAT",
    "MODELS",
    "STUCK",
    "LearnedBot",
    "Model",
    "layout_id",
    "load_model",
    "shipped",
    "shipped_model",
    "shipped_players",
]
