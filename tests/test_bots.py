"""Bots: every level of every game plays legal moves from observations alone; the search
bot's sampled deals agree with what its seat knows."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cherki.bots import levels_for, make_bot
from cherki.bots.search import SearchBot
from cherki.core.errors import RulesError
from cherki.games import GAMES, find_game

GAME_NAMES = sorted(GAMES)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_game_has_random_and_heuristic(name: str) -> None:
    levels = levels_for(name)
    assert levels[:2] == ["random", "heuristic"]


def test_unknown_level_is_a_clear_error() -> None:
    with pytest.raises(RulesError, match="no 'genius' bot for balik-satu"):
        make_bot("balik-satu", "genius")


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("level", ["random", "heuristic"])
def test_bots_finish_hands_with_legal_moves(name: str, level: str) -> None:
    game = find_game(name)
    rng = random.Random(5)
    for seed in range(3):
        state = game.new_state(seed=seed)
        bots = [make_bot(name, level) for _ in range(state.n)]
        steps = 0
        while not state.is_terminal:
            seat = state.current
            obs = state.observation(seat)
            action = bots[seat].act(obs, rng)
            assert action in obs.legal
            state.apply(action, seat)
            steps += 1
            assert steps < 5000
        assert sum(state.result.payments) == 0


def _determinizable(name: str) -> bool:
    return "search" in levels_for(name)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), name=st.sampled_from(GAME_NAMES))
def test_determinized_deals_agree_with_the_observation(seed: int, name: str) -> None:
    """A sampled deal keeps everything the seat knows: its hand, the public table, and so
    the very same legal actions; every card of the shoe is still there exactly once."""
    if not _determinizable(name):
        pytest.skip(f"{name} has no search bot")
    game = find_game(name)
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    while not state.is_terminal:
        seat = state.current
        obs = state.observation(seat)
        world = game.determinize(obs, rng)
        again = world.observation(seat)
        assert again.hand == obs.hand
        assert sorted(world.legal_actions(seat)) == sorted(obs.legal)
        assert again.unseen() == obs.unseen()
        state.apply(rng.choice(obs.legal), seat)


def test_determinized_deals_do_not_depend_on_hidden_cards() -> None:
    """Two states that differ only in cards hidden from a seat give that seat the same
    sampled deal: the search bot cannot peek."""
    game = find_game("balik-satu")
    a = game.new_state(seed=3)
    for _ in range(9):
        a.apply(random.Random(len(a.history)).choice(a.legal_actions()))
    b = a.clone()
    seat = a.current
    other = (seat + 1) % a.n
    # swap one hidden card of another seat with a stock card in b
    hidden = [k for k in range(30) if b.hands[other][k] > b.exposed[other][k]]
    k = hidden[0]
    j = next(i for i in range(b.pos, len(b.stock)) if b.stock[i] != k)
    b.hands[other][k] -= 1
    b.hands[other][b.stock[j]] += 1
    b.stock[j] = k
    assert a.observation(seat) == b.observation(seat)
    wa = game.determinize(a.observation(seat), random.Random(1))
    wb = game.determinize(b.observation(seat), random.Random(1))
    assert wa.hands == wb.hands and wa.stock == wb.stock


@pytest.mark.parametrize("name", [n for n in GAME_NAMES if _determinizable(n)])
def test_search_bot_plays_legal_moves_within_its_budget(name: str) -> None:
    game = find_game(name)
    bot = SearchBot(name, budget_ms=None, iterations=2)
    rng = random.Random(1)
    state = game.new_state(seed=4)
    decisions = 0
    while not state.is_terminal and decisions < 12:
        seat = state.current
        obs = state.observation(seat)
        action = bot.act(obs, rng)
        assert action in obs.legal
        state.apply(action, seat)
        decisions += 1


def test_search_bot_is_reproducible() -> None:
    game = find_game("balik-satu")
    state = game.new_state(seed=8)
    obs = state.observation(state.current)
    one = SearchBot("balik-satu", budget_ms=None, iterations=3).act(obs, random.Random(2))
    two = SearchBot("balik-satu", budget_ms=None, iterations=3).act(obs, random.Random(2))
    assert one == two


def test_search_keeps_the_heuristic_choice_without_clear_evidence() -> None:
    bot = SearchBot("balik-satu", budget_ms=None, iterations=1)
    assert bot._choose(7, {8: [5.0, -5.0, 4.0, -4.0]}) == 7
    assert bot._choose(7, {8: [5.0, 6.0, 4.0, 5.0]}) == 8
    # where the heuristic would draw lots (8 rated level with 7), the better mean is enough
    assert bot._choose(7, {8: [5.0, -5.0, 4.0, -3.0]}, {8}) == 8
    assert bot._choose(7, {8: [-5.0, 5.0, -4.0, 3.0]}, {8}) == 7


def test_the_heuristic_rates_its_own_choice_first_and_tells_its_lots() -> None:
    """Tantanan, C3 C3 S5 M5 C7 drawing C9: throwing the 7 or the 9 leaves a tan kowah on
    the other's rank with five live cards each, a tie the heuristic draws lots between; the
    search sees the two as level, and the other discards as below them."""
    from relatives import stacked

    from cherki.bots.balik import BalikHeuristicBot
    from cherki.core.cards import parse_card
    from cherki.games.sets.actions import CALL_TAN, DRAW

    game = find_game("tantanan")
    idle = ["C1 C2 C4 C6 C8", "S1 S2 S4 S6 S8", "M1 M2 M4 M6 M8"]
    state = stacked(game, ["C3 C3 S5 M5 C7", *idle], stock="C9 S3")
    state.apply(DRAW, 0)
    obs = state.observation(0)
    bot = BalikHeuristicBot()
    scores = bot.scores(obs)
    assert scores is not None and set(scores) == set(obs.legal)
    c7, c9 = CALL_TAN + parse_card("C7"), CALL_TAN + parse_card("C9")
    assert scores[c7] == scores[c9] == max(scores.values())
    assert bot.act(obs, random.Random(0)) in (c7, c9)
    ranked = bot.rank(obs)
    assert set(ranked[:2]) == {c7, c9}
    assert SearchBot("tantanan")._tied(obs, ranked[0], ranked[:3]) == {ranked[1]}
    # no lots to tell outside a discard
    opening = game.new_state(seed=1)
    first = opening.observation(opening.current)
    assert first.phase == "draw" and bot.scores(first) is None


@pytest.mark.parametrize("name", ["balik-satu", "gonggong", "tantanan", "chaqui"])
def test_sampled_callers_really_wait_with_their_call(name: str) -> None:
    """A seat that called is one card from winning: the sampled deals give it such a hand."""
    game = find_game(name)
    rng = random.Random(3)
    waiting = total = 0
    for seed in range(25):
        state = game.new_state(seed=seed)
        bots = [make_bot(name, "heuristic") for _ in range(state.n)]
        while not state.is_terminal:
            seat = state.current
            obs = state.observation(seat)
            world = game.determinize(obs, rng)
            for t in range(state.n):
                if t != seat and obs.calls[t] and sum(world.hands[t]) == obs.hand_sizes[t]:
                    total += 1
                    waiting += bool(world.wait_sets[t])
                    if world.wait_sets[t]:
                        assert world.waits[t].call == obs.calls[t]
            state.apply(bots[seat].act(obs, rng), seat)
    assert total > 20
    assert waiting / total > 0.9


@pytest.mark.parametrize("name", ["balik-satu", "tantanan", "chot"])
def test_kept_looking_deals_still_agree_with_the_observation(name: str) -> None:
    """The search's deals for the games of sets weight unknown hands towards organised ones;
    they must still keep everything the seat knows."""
    game = find_game(name)
    heuristic = make_bot(name, "heuristic")
    rng = random.Random(4)
    state = game.new_state(seed=6)
    while not state.is_terminal:
        seat = state.current
        obs = state.observation(seat)
        world = heuristic.sample_deal(obs, rng, game)  # type: ignore[attr-defined]
        assert sorted(world.legal_actions(seat)) == sorted(obs.legal)
        assert world.card_counts() == state.card_counts()
        state.apply(heuristic.act(obs, rng), seat)


def test_cholek_search_values_unfinished_games_from_the_piles() -> None:
    from cherki.bots.cholek import CholekHeuristicBot, progress_value

    game = find_game("cholek-tiga")
    state = game.new_state(seed=3)
    rng = random.Random(3)
    bot = make_bot("cholek-tiga", "heuristic")
    for _ in range(60):
        state.apply(bot.act(state.observation(state.current), rng), state.current)
    est = [progress_value(c) for c in state.captured]
    lead = est[0] - (est[1] + est[2]) / 2
    assert CholekHeuristicBot().leaf_value(state, 0) == pytest.approx(2 * lead)
    # the seats' values sum to zero, like payments
    assert sum(CholekHeuristicBot().leaf_value(state, s) for s in range(3)) == pytest.approx(0.0)
    assert SearchBot("cholek-tiga").depth == CholekHeuristicBot.rollout_depth
    assert SearchBot("balik-satu").depth is None


def test_race_search_in_the_games_of_sets_only() -> None:
    assert SearchBot("balik-satu").race and SearchBot("chot").race
    assert not SearchBot("ceki").race and not SearchBot("cholek-tiga").race


def test_balik_search_looks_at_draws_and_discards_not_claims() -> None:
    """The race search weighs taking or drawing, and every discard and call; a claim (win or
    pass) is the heuristic's."""
    from cherki.bots.balik import BalikHeuristicBot

    game = find_game("balik-satu")
    state = game.new_state(seed=12)
    obs = state.observation(state.current)
    assert BalikHeuristicBot().searches(obs)
    assert BalikHeuristicBot().searches(dataclasses.replace(obs, phase="draw"))
    assert not BalikHeuristicBot().searches(dataclasses.replace(obs, phase="claim"))


def test_the_search_policy_plays_for_the_score_where_every_olo_pays_alike() -> None:
    """Chaqui pays a fixed amount per olo, so the search's own policy values a second olo as
    much as the first: holding C4 C4 C4 and C8 C8, it takes the C8 just thrown (a second olo,
    laid face up) where the heuristic, valuing a second mata at 0.6, draws. In Balik Satu,
    whose score is not by the mata, the two play alike."""
    from relatives import stacked

    from cherki.bots.balik import BalikHeuristicBot
    from cherki.core.cards import parse_card
    from cherki.games.sets.actions import DISCARD, DRAW, TAKE

    hand = "C3 C3 C4 C4 C4 C6 C6 C8 C8 S1 S8 M1 M6 OT"
    idle = [
        "C1 C2 C5 C7 C9 S2 S3 S4 S5 S6 S7 S9 M2 M3 C8",
        "C1 C2 C5 C7 C9 S2 S3 S4 S5 S6 S7 S9 M2 M3",
    ]
    for name, differs in (("chaqui", True), ("balik-satu", False)):
        game = find_game(name)
        state = stacked(game, [idle[0], hand, idle[1], idle[1]], stock="M9 M9 M9")
        state.apply(DISCARD + parse_card("C8"), 0)
        obs = state.observation(1)
        assert TAKE in obs.legal
        plain = BalikHeuristicBot().act(obs, random.Random(0))
        policy = SearchBot(name).heuristic
        assert isinstance(policy, BalikHeuristicBot) and policy.for_score
        assert plain == DRAW
        assert policy.act(obs, random.Random(0)) == (TAKE if differs else DRAW)


@pytest.mark.parametrize("name", ["chaqui", "balik-satu"])
def test_in_chaqui_the_search_keeps_its_policys_lots_until_the_futures_say_otherwise(
    name: str,
) -> None:
    """Where every olo pays alike (Chaqui), the search plays its policy's own choice with
    the lots that policy would draw from the seat's generator, and leaves it only for a clear
    gain: made unable to see one (an impossible margin), it plays whole hands exactly as its
    policy does, and leaves the seat's generator where the policy leaves it. Elsewhere
    (Balik Satu) it breaks the policy's ties by the futures' better mean, so its play
    differs."""
    from cherki.bots.balik import BalikHeuristicBot

    game = find_game(name)
    same = []
    for deal in range(3):
        plays = []
        for level in ("search", "policy"):
            bot = (
                SearchBot(name, budget_ms=None, iterations=4, z=1e9)
                if level == "search"
                else BalikHeuristicBot(for_score=True)
            )
            others = BalikHeuristicBot()
            rngs = [random.Random(deal * 101 + i) for i in range(4)]
            state = game.new_state(seed=deal, first=deal % 4)
            actions = []
            while not state.is_terminal:
                seat = state.current
                player = bot if seat == 0 else others
                action = player.act(state.observation(seat), rngs[seat])
                actions.append(action)
                state.apply(action, seat)
            plays.append((actions, rngs[0].getstate()))
        same.append(plays[0] == plays[1])
    assert all(same) if name == "chaqui" else not all(same)


def test_the_chaqui_search_forks_the_same_futures_in_every_process() -> None:
    """The generator the Chaqui search forks for its futures is seeded from the seat's
    generator alone, so two processes (each with its own hash seed and memory layout) sample
    the same futures, and the seat's generator is left where it was."""
    import subprocess
    import sys

    script = """
import random
from cherki.bots.search import SearchBot
from cherki.games import find_game

state = find_game("chaqui").new_state(seed=5)
seat_rng = random.Random(3)
before = seat_rng.getstate()
fork = SearchBot._fork(seat_rng, state.observation(state.current))
assert seat_rng.getstate() == before
print(fork.random())
"""
    runs = {
        subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True
        ).stdout
        for _ in range(3)
    }
    assert len(runs) == 1


@pytest.mark.parametrize(
    "module",
    [
        "cherki.bots.base",
        "cherki.bots.balik",
        "cherki.bots.clock",
        "cherki.bots.race",
        "cherki.bots.search",
        "cherki.bots",
    ],
)
def test_every_bots_module_imports_first_in_a_fresh_interpreter(module: str) -> None:
    """The bots' modules depend one way (base, heuristics, clock, race, search, the package): each
    imports on its own, with no import inside a function to break a loop."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_the_search_reads_declared_hints_not_attributes() -> None:
    """Every hint the search uses is declared on the Heuristic base with a default."""
    import inspect

    from cherki.bots import search

    source = inspect.getsource(search)
    assert "getattr(" not in source and "hasattr(" not in source
    from cherki.bots.base import Heuristic, heuristic_for

    for name in ("balik-satu", "ceki", "cholek-tiga"):
        assert isinstance(heuristic_for(name), Heuristic)


# -- no endless hands -------------------------------------------------------------------------
def _a_take(name: str, players: int) -> tuple[object, int]:
    """A state where the heuristic takes the last discard, and the seat to act."""
    from cherki.games.sets.actions import TAKE

    game = find_game(name)
    for seed in range(200):
        state = game.new_state(None, players, seed=seed)
        bot, rng = make_bot(name, "heuristic"), random.Random(seed)
        while not state.is_terminal:
            seat = state.current
            obs = state.observation(seat)
            action = bot.act(obs, rng)
            if action == TAKE:
                return state, seat
            state.apply(action, seat)
    raise AssertionError("no take in 200 hands")


@pytest.mark.parametrize(("name", "players"), [("tantanan", 3), ("balik-satu", 4)])
def test_a_seat_stuck_taking_and_throwing_draws_instead(name: str, players: int) -> None:
    """A discard taken and thrown round and round would never end the hand (a Tantanan 3p
    arena hung on one, past 220,000 actions): after STUCK_TURNS decisions of one seat in a
    row with the stock unchanged, the heuristic and the search draw instead of taking.
    Each observation counts once, however often it is asked; a moved stock starts again."""
    from cherki.bots.balik import STUCK_TURNS
    from cherki.games.sets.actions import DRAW, TAKE

    state, seat = _a_take(name, players)
    for level in ("heuristic", "search"):
        bot = make_bot(name, level) if level == "heuristic" else SearchBot.by_rollouts(name, 8)
        choices = []
        for i in range(STUCK_TURNS + 2):
            obs = state.observation(seat)  # a new observation of the same stock, each time
            if level == "heuristic":
                assert bot.act(obs, random.Random(i)) == bot.act(obs, random.Random(i))
            choices.append(bot.act(obs, random.Random(i)))
        if level == "heuristic":
            assert choices[:STUCK_TURNS] == [TAKE] * STUCK_TURNS
        assert choices[STUCK_TURNS:] == [DRAW, DRAW], level
    # the stock moved: the count starts again
    bot = make_bot(name, "heuristic")
    for i in range(STUCK_TURNS):
        bot.act(state.observation(seat), random.Random(i))
    moved = state.clone()
    moved.apply(DRAW, seat)
    assert bot.unstick(moved.observation(seat)) is None
    assert bot._watch[seat][1] == 0  # type: ignore[attr-defined]
