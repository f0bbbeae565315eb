"""The batched simulator against the reference engine: the same shoes and the same choices,
hand by hand, must offer the same legal actions to the same seat at every step and end in
the same result, payments, items and figures (the simulation's ``HandSummary``)."""

from __future__ import annotations

import os
import random
from typing import Any

import numpy as np
import pytest

from cherki.core.cards import N_KINDS
from cherki.core.errors import RulesError
from cherki.core.options import Option, Value
from cherki.games import find_game
from cherki.games.sets.actions import CALL_TAN, NUM_ACTIONS, SAMPEI, TAKE
from cherki.play.batched import summaries
from cherki.play.simulate import summarise
from cherki.vector import declare
from cherki.vector.declare import EVERY, PLAYS
from cherki.vector.finished import HOWS
from cherki.vector.policies import HeuristicPolicy
from cherki.vector.sets import SetsVector

PRESETS = [(g, p.name) for g in PLAYS for p in find_game(g).presets]
#: hands each row of the options matrix plays in both engines (fewer while iterating:
#: CHERKI_EXACT_HANDS=50)
HANDS = int(os.environ.get("CHERKI_EXACT_HANDS", "200"))


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
        kinds = {i.kind for i in res.items}
        assert kinds <= set(rules.method.items), f"undeclared items {kinds}"  # type: ignore[attr-defined]
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


#: a value to try for each text option (a text option the simulator plays needs one here),
#: and for a number left to auto
TEXT_VALUES: dict[str, Value] = {"ceken_bets": "0-1:5, 1-2", "half_packs": 12}
#: options whose change decides what others mean (the scoring method, the chiqui go-out,
#: a shoe size over the shoe table): each of their changes is a row of its own, so that the
#: rest are played under the preset's
ALONE = frozenset({"scoring", "chiqui", "half_packs"})


def alternatives(opt: Option, played: declare.Played, current: Value) -> list[Value]:
    """The values the matrix tries for ``opt`` besides the preset's: every value declared
    played, else every choice, the flag flipped, a whole number moved (auto given one)."""
    if played is not EVERY:
        return [v for v in played if v != current]
    if opt.kind is bool:
        return [not current]
    if opt.choices:
        return [c for c in opt.choices if c != current]
    if opt.kind is int:
        if current is None:
            return [TEXT_VALUES[opt.name]]
        assert isinstance(current, int)
        up = current + 1
        return [up if opt.maximum is None or up <= opt.maximum else current - 1]
    assert opt.name in TEXT_VALUES, f"no value to try for the text option {opt.name}"
    return [TEXT_VALUES[opt.name]]


def option_rows(name: str) -> list[tuple[str, str, int, dict[str, Value]]]:
    """The options matrix of a game, built from the simulator's declaration: for every
    preset, rows of option changes that together take every value the matrix tries of
    every option the game has (packed greedily: a change joins a row while the rules stay
    playable), each row at a player count taken in turn from the game's range. A value the
    game itself refuses at every count (a shoe table with no shoe for it) is left out; one
    the game plays and the simulator refuses fails here."""
    game = find_game(name)
    plays = PLAYS[name]
    lo, hi = game.players
    counts = list(range(lo, min(hi, 7) + 1))

    def reference(preset: str, players: int, changes: dict[str, Value]) -> bool:
        try:
            game.new_state(game.rules(preset, **changes), players, seed=0)
        except RulesError:
            return False
        return True

    rows: list[tuple[str, str, int, dict[str, Value]]] = []
    for preset in game.presets:
        base = preset.rules
        todo = []
        for opt in game.options:
            for value in alternatives(opt, plays[opt.name], getattr(base, opt.name)):
                fits = [n for n in counts if reference(preset.name, n, {opt.name: value})]
                for n in fits[:1]:
                    rules = game.rules(preset.name, **{opt.name: value})
                    SetsVector(game, rules, players=n, batch=1)  # type: ignore[arg-type]
                if fits:
                    todo.append((opt.name, value, fits))
        while todo:
            players = counts[len(rows) % len(counts)]
            if players not in todo[0][2]:
                players = todo[0][2][0]
            row: dict[str, Value] = {}
            for item in list(todo):
                key, value, _ = item
                if key in row or (row and (key in ALONE or row.keys() & ALONE)):
                    continue
                if reference(preset.name, players, {**row, key: value}):
                    row[key] = value
                    todo.remove(item)
            rows.append((name, preset.name, players, row))
    return rows


OPTIONS = [row for name in PLAYS for row in option_rows(name)]
#: the quick lane plays each preset's first row (most options changed at once); the slow
#: lane every row
MATRIX = [
    pytest.param(*row, marks=() if row[:2] != OPTIONS[i - 1][:2] or i == 0 else pytest.mark.slow)
    for i, row in enumerate(OPTIONS)
]


def test_every_field_of_every_game_the_simulator_plays_is_declared() -> None:
    """Each field of the rules of a game the simulator plays is declared played (at every
    value or some) or refused: an option a game adds fails here until it is declared."""
    for name, plays in PLAYS.items():
        game = find_game(name)
        for preset in game.presets:
            fields = set(preset.rules.to_json())  # type: ignore[attr-defined]
            assert fields == set(plays), f"{name}: declare {sorted(fields ^ set(plays))}"
        for opt in game.options:
            played = plays[opt.name]
            if played is not EVERY:
                for value in played:
                    opt.check(value)


def test_what_the_simulator_does_not_play_is_refused_in_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(RulesError, match="plays only call_timing=any, not call_timing=next"):
        SetsVector("balik-satu", find_game("balik-satu").rules(call_timing="next"))
    with pytest.raises(RulesError, match=r"plays the games of sets .* not Ceki"):
        SetsVector("ceki")
    less = {k: v for k, v in PLAYS["chaqui"].items() if k != "chiqui_turn"}
    monkeypatch.setitem(declare.PLAYS, "chaqui", less)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="does not play chaqui's option chiqui_turn"):
        SetsVector("chaqui")


def test_the_matrix_takes_every_value_of_every_option() -> None:
    """Every flag flipped, every choice taken, every whole number moved, for every preset."""
    for name in PLAYS:
        game = find_game(name)
        for preset in game.presets:
            rows = [r for n, p, _, r in OPTIONS if (n, p) == (name, preset.name)]
            for opt in game.options:
                tried = {r[opt.name] for r in rows if opt.name in r}
                want = alternatives(opt, PLAYS[name][opt.name], getattr(preset.rules, opt.name))
                refused = {
                    v
                    for v in want
                    if v not in tried and not _played_anywhere(game, preset.name, opt.name, v)
                }
                assert set(want) - refused <= tried, (name, preset.name, opt.name)
                assert len(refused) < len(want) or not want, (name, preset.name, opt.name)


def _played_anywhere(game: Any, preset: str, key: str, value: Value) -> bool:
    lo, hi = game.players
    for n in range(lo, min(hi, 7) + 1):
        try:
            game.new_state(game.rules(preset, **{key: value}), n, seed=0)
        except RulesError:
            continue
        return True
    return False


@pytest.mark.parametrize(("name", "preset", "players", "options"), MATRIX)
def test_rule_options_play_exactly_as_the_reference_engine(
    name: str, preset: str, players: int, options: dict[str, Value]
) -> None:
    play_both(name, preset, players, HANDS, 20_000, explore=0.3, **options)


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


@pytest.mark.parametrize(
    ("name", "preset"), [("balik-satu", "pwee"), ("gonggong", "umbuk"), ("chaqui", "kristang")]
)
def test_a_row_dealt_again_before_its_hand_is_scored_keeps_that_hands_figures(
    name: str, preset: str
) -> None:
    """A row whose hand ends is dealt its next hand at once (autoreset) while the ended hand's
    results are still owed (scored later, with others): what is kept for the ended hand (its
    result, payments, items, actions, turns, events) is that hand's, hand by hand the
    reference engine's, and the row's ``res`` stays blank for the hand dealt after it."""
    game = find_game(name)
    rules = game.rules(preset)
    n, batch, hands, seed = game.default_players, 6, 90, 40_000
    env = SetsVector(game, rules, batch=batch)
    base = np.repeat(np.arange(N_KINDS), env.half_packs)
    shoes = np.random.default_rng(seed).permuted(np.tile(base, (hands, 1)), axis=1)
    env.reset(shoes=shoes)  # hand i starts at seat i mod n
    policy = HeuristicPolicy(seed)
    rng = random.Random(seed)
    chosen: list[list[int]] = [[] for _ in range(hands)]
    owing = 0  # rows dealt again while their ended hand was not yet scored
    steps = 0
    while not env.done.all():
        rows = np.flatnonzero(~env.done)
        acts = policy(env, rows)
        for i, r in enumerate(rows.tolist()):
            if rng.random() < 0.3:
                acts[i] = explore_choice(np.flatnonzero(env.mask[r]).tolist(), rng)
            chosen[int(env.index[r])].append(int(acts[i]))
        ended = env.apply(rows, acts)
        if len(ended):
            owed = np.concatenate([o.rows for o in env._owed]) if env._owed else ended[:0]
            env._deal_next(ended)  # what ``play`` does: the next hands into these rows
            owing += int(np.isin(ended[~env.done[ended]], owed).sum())
        steps += 1
        if steps % 25 == 0:  # scoring the owed hands leaves the new hands' results blank
            live = np.flatnonzero(~env.done)
            assert (env.res.winner[live] == -1).all() and (env.res.payments[live] == 0).all()
    assert owing > 2 * batch, owing
    done = env.take_finished()
    assert sorted(done.index.tolist()) == list(range(hands))
    states = []
    for i in range(hands):
        st = game.new_state(rules, n, shoe=shoes[i].tolist(), first=i % n)
        for a in chosen[i]:
            st.apply(a)
        assert st.is_terminal, f"hand {i}"
        states.append(st)
    for j, h in enumerate(summaries(done, n, rules)):
        assert h == summarise(states[h.index], h.index), f"hand {h.index}"
        res = states[h.index].result
        assert done.payments[j].tolist() == list(res.payments or (0,) * n), f"hand {h.index}"
    # the rows hold the run's last hands, over: their results are theirs
    for r in range(batch):
        res = states[int(env.index[r])].result
        assert env.res.payments[r].tolist() == list(res.payments or (0,) * n), f"row {r}"
        assert env.res.how[r] == HOWS.index(res.how), f"row {r}"
        assert env.res.winner[r] == (-1 if res.winner is None else res.winner), f"row {r}"
        assert env.res.total[r] == (res.total if res.winner is not None else 0), f"row {r}"
