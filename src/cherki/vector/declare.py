"""What the batched simulator plays: its games and, for each field of their rules, the values.

The batched simulator (:mod:`cherki.vector.sets`) re-implements the rules of the games of
sets for speed, so it says here, as data, which games it plays and which values of each of
their rules' fields (every option a player may set, and the fields the presets fix): every
value the field's declaration takes (:data:`EVERY`), or the listed values only. Rules with a
value it does not play, or a field it does not know (an option a game added since), are
refused before a hand is dealt, in words that name the option and what it plays, and point
to the reference engine. ``tests/test_vector_exact.py`` builds its matrix from this
declaration (every flag flipped, every choice taken, every whole number moved, for every
preset) and fails on a field of a game's rules that is declared neither played nor refused.

Our specifications
------------------
* ``call_timing``: ``any`` only. The strict reading ``next`` keeps, per seat, whether the
  chance to call has lapsed; the reference engine plays it (``--engine reference``).
* ``scoring``: the methods listed for each game (every method its rules class registers
  today); a method a game registers later is refused here until the simulator scores it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Final

from cherki.core.errors import RulesError
from cherki.core.options import Value
from cherki.games import GAMES as _REGISTERED  # every game's scoring methods registered
from cherki.games.sets.rules import SetsRules, score_items

#: Every value the field's declaration takes.
EVERY: Final = None

#: What the simulator plays of a field: :data:`EVERY` value, or only these.
Played = tuple[Value, ...] | None

#: The play core every game of sets shares (``SetsRules``), as the simulator plays it.
CORE: Final[Mapping[str, Played]] = {
    "scoring": EVERY,  # narrowed per game below
    "shoe_table": EVERY,
    "half_packs": EVERY,
    "deal": EVERY,
    "honours": EVERY,
    "kandang_tangan": EVERY,
    "kandang_tangan_multiplier": EVERY,
    "must_call_to_win": EVERY,
    "call_timing": ("any",),
    "caller_changes": EVERY,
    "claim_priority": EVERY,
    "next_starter": EVERY,
    "cents_per_point": EVERY,
    "set_size": EVERY,
    "sets": EVERY,
    "starter_extra": EVERY,
    "discard_wins": EVERY,
}

_BALIK: Final[Mapping[str, Played]] = {
    **CORE,
    "scoring": ("satu", "lima-belas"),
    "kena": EVERY,
    "yeo_redeal": EVERY,
    "yeo_cards": EVERY,
    "ayam_bonus": EVERY,
    "kandang_bonus": EVERY,
    "tan_bonus": EVERY,
}

_JAVANESE: Final[Mapping[str, Played]] = {
    **CORE,
    "scoring": ("toh-bayaran", "toh-bayaran-14", "bak-bakan", "undhuh-undhuhan", "umbuk", "ceken"),
    "stake": EVERY,
    "ceken_bets": EVERY,
    "bak_bakan_turn": EVERY,
    "toh_step4": EVERY,
}

_CHAQUI: Final[Mapping[str, Played]] = {
    **CORE,
    "scoring": ("olo",),
    "olo_points": EVERY,
    "chiqui": EVERY,
    "chiqui_fail": EVERY,
    "chiqui_turn": EVERY,
    "expose_olo": EVERY,
}

_CHOT: Final[Mapping[str, Played]] = {
    **CORE,
    "scoring": ("chot-tokens",),
    "partnerships": EVERY,
    "ceki_tokens": EVERY,
    "bangkong_points": EVERY,
    "bangkong_count": EVERY,
    "cents_per_bangkong": EVERY,
    "cents_per_excess": EVERY,
}

#: The games the simulator plays, and what it plays of each field of their rules.
PLAYS: Final[Mapping[str, Mapping[str, Played]]] = {
    "balik-satu": _BALIK,
    "balik-lima-belas": _BALIK,
    "gonggong": _JAVANESE,
    "chaqui": _CHAQUI,
    "chot": _CHOT,
    "tantanan": _JAVANESE,
    "ceken": _JAVANESE,
}

#: The games the simulator plays, by name.
GAMES: Final = tuple(PLAYS)
assert set(GAMES) <= set(_REGISTERED)

#: The scoring methods the simulator plays.
METHODS: Final = tuple(
    dict.fromkeys(str(m) for plays in PLAYS.values() for m in plays["scoring"] or ())
)

#: The kinds of score item of those methods (as they register them): the columns of a
#: finished hand's items (:data:`cherki.vector.finished.ITEMS`).
ITEMS: Final = score_items(METHODS)


def check_plays(game: str, rules: SetsRules) -> None:
    """Refuse ``rules`` of ``game`` unless the simulator plays every field's value, saying
    which option it does not play and what it plays instead."""
    plays = PLAYS.get(game)
    if plays is None:
        raise RulesError(
            f"the batched simulator plays the games of sets ({', '.join(GAMES)}), not {game}"
        )
    for field in dataclasses.fields(rules):
        name = field.name
        if name not in plays:
            raise RulesError(
                f"the batched simulator does not play {game}'s option {name}; simulate it "
                "with the reference engine (--engine reference)"
            )
        played = plays[name]
        value = getattr(rules, name)
        if played is not EVERY and value not in played:
            only = ", ".join(f"{name}={v}" for v in played)
            raise RulesError(
                f"the batched simulator plays only {only}, not {name}={value}; simulate "
                f"{name}={value} with the reference engine (--engine reference)"
            )


__all__ = ["CORE", "EVERY", "GAMES", "ITEMS", "METHODS", "PLAYS", "Played", "check_plays"]
