"""The batched simulator against the reference engine: the same shoes and the same choices,
hand by hand, must offer the same legal actions to the same seat at every step and end in
the same result, payments, items and figures (the simulation's ``HandSummary``)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from cherki.core.cards import N_KINDS
from cherki.games import find_game
from cherki.games.sets.actions import CALL_TAN, NUM_ACTIONS, SAMPEI, TAKE
from cherki.play.simulate import summarise
from cherki.vector.policies import HeuristicPolicy
from cherki.vector.sets import SetsVector
from cherki.vector.summary import summaries

GAMES = ("balik-satu", "balik-lima-belas", "gonggong", "chaqui", "chot")
PRESETS = [(g, p.name) for g in GAMES for p in find_game(g).presets]


def play_both(
    name: str,
    preset: str | None,
    players: int,
    hands: int,
    seed: int,
    explore: float = 0.15,
    **options: Any,
) -> list[str]:
    """Play ``hands`` hands through both engines; the ways they ended. The choices are the
    batched heuristic's, replaced with probability ``explore`` by a random legal action
    (biased to the rarer branches: calls, changes of call, takes, passing on a win)."""
    game = find_game(name)
    rules = game.rules(preset, **options)
    env = SetsVector(game, rules, players=players, batch=hands, autoreset=False)
    base = np.repeat(np.arange(N_KINDS), env.half_packs)
    shoes = np.random.default_rng(seed).permuted(np.tile(base, (hands, 1)), axis=1)
    firsts = np.arange(hands) % players
    env.reset(shoes=shoes, first=firsts)
    states = [
        game.new_state(rules, players, shoe=shoes[i].tolist(), first=int(firsts[i]))
        for i in range(hands)
    ]
    policy = HeuristicPolicy(seed)
    rng = random.Random(seed)
    while not env.done.all():
        rows = np.flatnonzero(~env.done)
        acts = policy(env, rows).tolist()
        seats = env.current[rows].tolist()
        flat: list[int] = []
        for i, r in enumerate(rows.tolist()):
            st = states[r]
            assert st.current == seats[i], f"hand {r}: seat to act"
            legal = st.legal_actions()
            flat.extend(i * NUM_ACTIONS + a for a in legal)
            if rng.random() < explore:
                acts[i] = explore_choice(legal, rng)
            st.apply(acts[i])
        ref = np.zeros(len(rows) * NUM_ACTIONS, bool)
        ref[flat] = True
        ref = ref.reshape(len(rows), NUM_ACTIONS)
        same = (ref == env.mask[rows]).all(axis=1)
        if not same.all():
            i = int(np.flatnonzero(~same)[0])
            r = int(rows[i])
            want = [game.action_text(a) for a in np.flatnonzero(ref[i])]
            got = [game.action_text(a) for a in np.flatnonzero(env.mask[r])]
            pytest.fail(
                f"hand {r} before {states[r].history[-1]}: engine offers {want}, batch {got}"
            )
        env.apply(rows, np.array(acts, np.int64))
    done = env.take_finished()
    assert sorted(done.index.tolist()) == list(range(hands))
    hows = []
    for j, h in enumerate(summaries(done, players, rules)):
        want = summarise(states[h.index], h.index)
        assert h == want, f"hand {h.index}: {h} != {want}"
        res = states[h.index].result
        assert done.payments[j].tolist() == list(res.payments or (0,) * players)
        hows.append(h.how)
    return hows


def explore_choice(legal: list[int], rng: random.Random) -> int:
    """A random legal action, biased to the rarer branches: calls and changes of call,
    takes, passing on a win or letting it go."""
    calls = [a for a in legal if a >= CALL_TAN]
    if SAMPEI in legal and rng.random() < 0.5:
        return rng.choice(legal)
    if calls and rng.random() < 0.7:
        return rng.choice(calls)
    if TAKE in legal and rng.random() < 0.5:
        return TAKE
    return rng.choice(legal)


@pytest.mark.parametrize(("name", "preset"), PRESETS)
def test_every_preset_plays_exactly_as_the_reference_engine(name: str, preset: str) -> None:
    game = find_game(name)
    hows = play_both(name, preset, game.default_players, 2000, 10_000)
    # the hands went every common way: won on a claim, on a self-draw, and to the end of
    # the stock or a void (yeo, a failed chiqui)
    assert {"claim", "self-draw"} <= set(hows)


OPTIONS = [
    ("balik-satu", "pwee", 2, {}),
    ("balik-satu", "babas", 7, {"deal": "wash"}),
    ("balik-satu", "pwee", 5, {"claim_priority": "first-caller"}),
    ("balik-satu", "pwee", 4, {"caller_changes": "free", "honours": "frames"}),
    ("balik-satu", "pwee", 4, {"caller_changes": "none", "must_call_to_win": "true"}),
    ("balik-satu", "pwee", 3, {"honours": "own", "kena": "false", "yeo_cards": "rank1"}),
    ("balik-lima-belas", "babas", 6, {"claim_priority": "first-caller"}),
    ("gonggong", "toh-bayaran", 6, {"toh_step4": "in-hand", "discard_wins": "true"}),
    ("gonggong", "bak-bakan", 5, {"bak_bakan_turn": "false", "starter_extra": "true"}),
    ("gonggong", "ceken", 4, {"ceken_bets": "0-1:5, 2-3"}),
    ("chaqui", "kristang", 4, {"chiqui_fail": "pays", "caller_changes": "free"}),
    ("chaqui", "kristang", 5, {"chiqui_turn": "no-olo", "discard_wins": "true"}),
    ("chot", "pwee", 4, {"discard_wins": "true", "claim_priority": "first-caller"}),
    ("tantanan", None, 3, {}),
    ("ceken", None, 3, {}),
]


@pytest.mark.parametrize(("name", "preset", "players", "options"), OPTIONS)
def test_rule_options_play_exactly_as_the_reference_engine(
    name: str, preset: str | None, players: int, options: dict[str, str]
) -> None:
    play_both(name, preset, players, 400, 20_000, explore=0.3, **options)


@pytest.mark.parametrize(("name", "preset"), [("balik-satu", "pwee"), ("chaqui", "kristang")])
def test_twenty_players_play_exactly_as_the_reference_engine(name: str, preset: str) -> None:
    """[000] "up to 20 people can play with a total of 1 200 cards": a few hands at 20."""
    play_both(name, preset, 20, 8, 30_000, explore=0.3)


def stacked_shoe(env: SetsVector, starter: list[int], seed: int) -> np.ndarray:
    """A shoe order that deals ``starter`` (card kinds) to the starter, seat 0, through the
    game's own dealing plan, the rest shuffled."""
    left = np.repeat(np.arange(N_KINDS), env.half_packs).tolist()
    for k in starter:
        left.remove(k)
    rest = np.random.default_rng(seed).permutation(left).tolist()
    order = [-1] * env.cards
    for spot, k in zip(env._plan[0].tolist(), starter, strict=True):
        order[spot] = k
    it = iter(rest)
    return np.array([k if k >= 0 else next(it) for k in order])


@pytest.mark.parametrize("name", ["balik-satu", "balik-lima-belas", "chaqui", "chot"])
def test_kandang_tangan_from_a_stacked_shoe(name: str) -> None:
    """A winning hand as dealt wins at once (kandang tangan, doubled): rare in random
    deals, so stacked here, and played through both engines."""
    game = find_game(name)
    rules = game.rules()
    env = SetsVector(game, rules, batch=1, autoreset=False)
    hand = [0, 0, 0, 10, 10, 10, 20, 20, 20, 3, 12, 21, 17, 17, 17]  # 3 mata, C4 S4 M4, S9s
    shoe = stacked_shoe(env, hand, 1)
    env.reset(shoes=shoe[None, :], first=0)
    state = game.new_state(rules, 4, shoe=shoe.tolist(), first=0)
    assert SAMPEI in state.legal_actions() and env.mask[0, SAMPEI]
    state.apply(SAMPEI)
    env.step(np.array([SAMPEI]))
    (got,) = summaries(env.take_finished(), 4, rules)
    assert got == summarise(state, 0)
    assert got.how == "kandang-tangan" and "kandang-tangan" in got.items, got
