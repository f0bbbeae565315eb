"""A policy seat: any callable ``policy(observation_vector, mask) -> action`` as a bot.

A policy trained on the adapters or the batched simulator reads the same vector
everywhere (``observation.encode()``, the layout of ``Game.observation_layout``), so it can
sit at a table: :class:`PolicyBot` hands it the seat's encoded observation (``float32
[size]``) and its legal actions as a mask (``bool [num_actions]``) and plays the action it
returns. Only numpy is needed; a learning library's model is wrapped by a function::

    model = MaskablePPO.load("balik.zip")
    def act(obs, mask):
        return model.predict(obs, action_masks=mask, deterministic=True)[0]

Policies are named and offered as the bot level ``policy:<name>`` (``cherki arena
balik-satu --bots policy:ppo,heuristic``, a web table's seats) once registered:

* in Python, :func:`register_policy` (``register_policy("ppo", act, games=["balik-satu"])``);
* for a whole program and the processes it starts (the arena's ``--jobs``, the server), the
  environment variable ``CHERKI_POLICIES``: ``name=module:function`` or
  ``name=path/to/file.py:function``, several separated by ``;``; ``cherki arena --policy
  NAME=SPEC`` sets it for its run.

Our specifications
------------------
* **Only registered policies play.** A bot level names a registered policy, never a module:
  a client of the web server cannot make it import code; the person running a program
  chooses its policies.
* **An illegal choice is an error**, named in words (the policy, the action, the legal
  ones), never replaced by another action: a policy that picks illegal actions is a bug to
  see, not to hide.
* A policy gets no random generator; one that wants randomness keeps its own.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cherki.core.contract import Observation
from cherki.core.errors import RulesError
from cherki.games import find_game

#: ``policy(observation_vector, mask) -> action id``
PolicyFn = Callable[[np.ndarray, np.ndarray], Any]

#: the environment variable naming policies for a program and its processes
ENV_VAR = "CHERKI_POLICIES"
PREFIX = "policy:"


@dataclass(frozen=True)
class Policy:
    """A registered policy: its name, the callable, the games it plays (None: any)."""

    name: str
    fn: PolicyFn
    games: tuple[str, ...] | None = None
    spec: str | None = None


POLICIES: dict[str, Policy] = {}
_loaded_env: str | None = None


def register_policy(
    name: str, fn: PolicyFn, games: Sequence[str] | None = None, spec: str | None = None
) -> None:
    """Offer ``fn`` as the bot level ``policy:<name>`` (for ``games``, or every game)."""
    if not name or not all(c.isalnum() or c in "-_" for c in name):
        raise RulesError(f"a policy's name is letters, digits, - and _, not {name!r}")
    if not callable(fn):
        raise RulesError(f"policy {name!r} is not callable")
    known = tuple(find_game(g).name for g in games) if games is not None else None
    POLICIES[name] = Policy(name, fn, known, spec)


def load_policy(spec: str) -> PolicyFn:
    """The callable that ``spec`` names: ``module:function`` or ``path/to/file.py:function``
    (the function may be an attribute path, ``module:agent.act``)."""
    where, sep, attr = spec.rpartition(":")
    if not sep or not where or not attr:
        raise RulesError(f"a policy is module:function or file.py:function, not {spec!r}")
    try:
        if where.endswith(".py"):
            path = Path(where)
            if not path.is_file():
                raise RulesError(f"no policy file {where!r}")
            loaded = importlib.util.spec_from_file_location(f"cherki_policy_{path.stem}", path)
            if loaded is None or loaded.loader is None:
                raise RulesError(f"cannot load the policy file {where!r}")
            module = importlib.util.module_from_spec(loaded)
            loaded.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
    except ImportError as err:
        raise RulesError(f"cannot import the policy {spec!r}: {err}") from err
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise RulesError(f"the policy {spec!r}: {where} has no {attr}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise RulesError(f"the policy {spec!r} is not callable")
    fn: PolicyFn = obj
    return fn


def register_specs(text: str) -> list[str]:
    """Register every ``name=spec`` of ``text`` (``;``-separated); their names."""
    names = []
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        name, sep, spec = part.partition("=")
        if not sep:
            raise RulesError(f"a policy is given as NAME=module:function, not {part!r}")
        register_policy(name.strip(), load_policy(spec.strip()), spec=spec.strip())
        names.append(name.strip())
    return names


def _from_env() -> None:
    """The policies of ``CHERKI_POLICIES``, registered once (again when it changes)."""
    global _loaded_env
    text = os.environ.get(ENV_VAR, "")
    if text != _loaded_env:
        _loaded_env = text
        register_specs(text)


def policy_levels(game: str) -> list[str]:
    """The ``policy:<name>`` levels registered for ``game``."""
    _from_env()
    return [PREFIX + p.name for p in POLICIES.values() if p.games is None or game in p.games]


class PolicyBot:
    """A registered policy at a seat (see the module)."""

    def __init__(self, game: str, policy: Policy) -> None:
        self.game = find_game(game)
        self.policy = policy
        self.name = PREFIX + policy.name

    def act(self, obs: Observation, rng: random.Random) -> int:
        mask = np.zeros(self.game.num_actions, bool)
        mask[list(obs.legal)] = True
        choice = self.policy.fn(obs.encode(), mask)
        try:
            action = int(choice)
        except (TypeError, ValueError) as err:
            raise RulesError(
                f"the policy {self.policy.name} returned {choice!r}, not an action id"
            ) from err
        if action != choice or action not in obs.legal:
            legal = ", ".join(self.game.action_text(a) for a in obs.legal)
            raise RulesError(
                f"the policy {self.policy.name} chose action {choice!r}, which is not legal "
                f"here (legal: {legal})"
            )
        return action


def policy_bot(game: str, level: str) -> PolicyBot:
    """The bot of level ``policy:<name>`` for ``game``."""
    _from_env()
    name = level[len(PREFIX) :]
    policy = POLICIES.get(name)
    if policy is None:
        known = ", ".join(PREFIX + n for n in sorted(POLICIES)) or "none"
        raise RulesError(
            f"there is no policy {name!r} (registered: {known}; register one with "
            f"{ENV_VAR}=NAME=module:function or cherki arena --policy NAME=module:function)"
        )
    g = find_game(game).name
    if policy.games is not None and g not in policy.games:
        raise RulesError(f"the policy {name!r} plays {', '.join(policy.games)}, not {g}")
    return PolicyBot(g, policy)


__all__ = [
    "ENV_VAR",
    "POLICIES",
    "Policy",
    "PolicyBot",
    "PolicyFn",
    "load_policy",
    "policy_bot",
    "policy_levels",
    "register_policy",
    "register_specs",
]
