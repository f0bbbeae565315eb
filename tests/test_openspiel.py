"""The OpenSpiel adapter (``cherki.adapters.openspiel``): OpenSpiel's own random simulation
test on every game at its smallest, default and largest table, and our checks that the
OpenSpiel game is the cherki game: the shoe dealt by chance as cherki deals it, the same
legal actions and payments, the length cap, hidden cards kept hidden, resampling for
ISMCTS, cheap clones and serialization."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import numpy as np
import pytest

import cherki.adapters.openspiel as osp
from cherki.adapters.common import Table, rewards
from cherki.core.cards import N_KINDS
from cherki.core.contract import State
from cherki.core.errors import IllegalActionError, RulesError
from cherki.games import GAMES

pyspiel: Any = osp.pyspiel

TABLES = [
    (name, n)
    for name in sorted(GAMES)
    for n in sorted({GAMES[name].players[0], GAMES[name].default_players, GAMES[name].players[1]})
]


def under(state: Any) -> State:
    st = osp.cherki_state(state)
    assert st is not None
    return st


def deal(state: Any, rng: np.random.RandomState) -> None:
    """Play the chance nodes of the deal, sampled by their probabilities."""
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))


def play(state: Any, rng: np.random.RandomState, steps: int) -> None:
    """Up to ``steps`` random legal actions (fewer if the hand ends)."""
    for _ in range(steps):
        if state.is_terminal():
            return
        state.apply_action(int(rng.choice(state.legal_actions())))


def dealt(name: str, seed: int = 0, steps: int = 0, **params: Any) -> Any:
    game = osp.load_game(name, **params)
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    deal(state, rng)
    play(state, rng, steps)
    return state


# -- OpenSpiel's own test -----------------------------------------------------------------
@pytest.mark.parametrize(("name", "players"), TABLES, ids=[f"{g}-{n}" for g, n in TABLES])
def test_random_sim(name: str, players: int) -> None:
    game = osp.load_game(name, players=players)
    sims = 1 if players >= 6 else 2
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


# -- the game's declaration ---------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(GAMES))
def test_registered_and_declared(name: str) -> None:
    g = GAMES[name]
    short = "python_cherki_" + name.replace("-", "_")
    assert short in pyspiel.registered_names()
    game = pyspiel.load_game(short)
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (kind.min_num_players, kind.max_num_players) == g.players
    assert game.num_players() == g.default_players
    assert game.num_distinct_actions() == g.num_actions
    assert game.max_chance_outcomes() == N_KINDS
    table = Table.of(g)
    shoe = sum(table.new_state(0).card_counts())
    assert game.max_game_length() == shoe + table.max_steps(None)
    assert (game.min_utility(), game.max_utility()) == table.reward_bounds("points")
    assert game.observation_tensor_size() == table.obs_size
    assert game.information_state_tensor_size() == table.obs_size


def test_parameters_reach_the_rules_and_survive_the_game_string() -> None:
    game = osp.load_game(
        "balik-satu", players=5, rules="babas", options="half_packs=8, deal=wash", reward="win"
    )
    rules = game.spec.table.rules
    assert (rules.half_packs, rules.deal) == (8, "wash")
    assert rules == GAMES["balik-satu"].rules("babas", half_packs=8, deal="wash")
    assert game.num_players() == 5
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.spec is game.spec
    unpickled = pickle.loads(pickle.dumps(game))
    assert type(unpickled) is type(game) and unpickled.spec is game.spec
    played = unpickled.new_initial_state()
    deal(played, np.random.RandomState(0))
    assert under(played).rules == rules
    state = game.new_initial_state()
    assert len(state.chance_outcomes()) == N_KINDS
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
    assert game.max_game_length() == 8 * N_KINDS + 5000


def test_a_bounded_game_keeps_its_own_bound() -> None:
    g = GAMES["cholek-tiga"]
    table = Table.of(g)
    own = g.max_actions(table.rules, table.players)
    assert own is not None and own < 5000
    game = osp.load_game("cholek-tiga")
    assert game.max_game_length() == 120 + own


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"players": 1}, "played by 2 to 20 players"),
        ({"players": 21}, "not 21"),
        ({"rules": "nope"}, "no preset 'nope'"),
        ({"options": "foo=1"}, "no rule option 'foo'"),
        ({"options": "half_packs"}, "NAME=VALUE"),
        ({"options": "half_packs=lots"}, "half_packs"),
        ({"max_steps": 0}, "max_steps"),
        ({"reward": "gold"}, "reward is one of"),
    ],
)
def test_bad_parameters_are_rules_errors(params: dict[str, Any], words: str) -> None:
    with pytest.raises(RulesError, match=words):
        osp.load_game("balik-satu", **params)


def test_unknown_parameter_given_directly() -> None:
    with pytest.raises(RulesError, match="no parameter 'player'"):
        osp.GAME_CLASSES["ceki"]({"player": 3})


# -- the deal -----------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(GAMES))
def test_chance_deals_the_shoe_as_cherki_deals_it(name: str) -> None:
    game = osp.load_game(name)
    g, rules, n = GAMES[name], game.spec.table.rules, game.num_players()
    counts = g.new_state(rules, n, seed=1).card_counts()
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    order: list[int] = []
    while state.is_chance_node():
        assert state.current_player() == pyspiel.PlayerId.CHANCE
        outcomes = state.chance_outcomes()
        left = [c - order.count(k) for k, c in enumerate(counts)]
        remaining = sum(left)
        assert [k for k, _ in outcomes] == [k for k in range(N_KINDS) if left[k]]
        for k, p in outcomes:
            assert p == pytest.approx(left[k] / remaining)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert state.legal_actions() == [k for k, _ in outcomes]
        text = state.observation_string(0)
        assert "deal is under way" in text and f"{len(order)} of {sum(counts)}" in text
        assert not np.any(state.observation_tensor(n - 1))
        assert not np.any(state.information_state_tensor(0))
        assert osp.cherki_state(state) is None
        actions, probs = zip(*outcomes, strict=True)
        k = int(rng.choice(actions, p=probs))
        order.append(k)
        state.apply_action(k)
    assert len(order) == sum(counts)
    assert state.history() == order
    st = under(state)
    assert st.info.shoe == tuple(order)
    same = g.new_state(rules, n, shoe=order)
    for seat in range(n):
        assert st.observation(seat).to_json() == same.observation(seat).to_json()


def test_a_card_the_shoe_no_longer_holds_is_refused() -> None:
    game = osp.load_game("tantanan")
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(0)  # tantanan's shoe holds two of each kind
    assert 0 not in [k for k, _ in state.chance_outcomes()]
    with pytest.raises(IllegalActionError, match="no more"):
        state.apply_action(0)
    assert state.history() == [0, 0]


# -- play -----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("reward", ["points", "money", "win"])
def test_play_is_cherki_play(name: str, reward: str) -> None:
    state = dealt(name, seed=7, reward=reward)
    st = under(state)
    rng = np.random.RandomState(8)
    n = st.n
    while not state.is_terminal():
        assert state.current_player() == st.current
        assert state.legal_actions() == st.legal_actions()
        for seat in range(n):
            if seat != st.current:
                assert state.legal_actions(seat) == []
        assert state.returns() == [0.0] * n
        seat, action = st.current, int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        assert st.history[-1] == (seat, action)
    assert st.is_terminal
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == rewards(st.result, n, reward)
    if reward == "points":
        assert state.returns() == [float(p) for p in st.result.payments]


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    state = dealt("balik-satu", seed=2, steps=3)
    st = under(state)
    before = (str(state), state.history(), state.observation_string(0))
    bad = next(a for a in range(st.game.num_actions) if a not in state.legal_actions())
    with pytest.raises(IllegalActionError):
        state.apply_action(bad)
    assert (str(state), state.history(), state.observation_string(0)) == before


@pytest.mark.parametrize("name", ["balik-satu", "ceki", "tantanan"])
def test_the_cap_ends_the_hand_with_nothing_paid(name: str) -> None:
    state = dealt(name, seed=3, max_steps=12)
    rng = np.random.RandomState(3)
    for _ in range(11):
        state.apply_action(int(rng.choice(state.legal_actions())))
        assert not state.is_terminal()
    state.apply_action(int(rng.choice(state.legal_actions())))
    st = under(state)
    assert not st.is_terminal and len(st.history) == 12
    assert state.is_terminal()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == [0.0] * st.n
    assert state.legal_actions() == []
    assert "cut short after 12" in state.observation_string(0)
    with pytest.raises(IllegalActionError, match="cut short"):
        state.hand.play(st.legal_actions()[0])


# -- what a seat sees -------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(GAMES))
def test_strings_and_tensors_are_the_seats_observation(name: str) -> None:
    state = dealt(name, seed=4, steps=9)
    st = under(state)
    listed = 0
    for seat in range(st.n):
        obs = st.observation(seat)
        assert json.loads(state.observation_string(seat)) == json.loads(json.dumps(obs.to_json()))
        tensor = np.array(state.observation_tensor(seat), np.float32)
        assert np.array_equal(tensor, obs.encode())
        assert state.information_state_tensor(seat) == state.observation_tensor(seat)
        own = [st.game.action_text(a) for s, a in st.history if s == seat]
        info = state.information_state_string(seat)
        assert info == state.observation_string(seat) + "\nown: " + ", ".join(own)
        listed += len(own)
    assert listed == 9


@pytest.mark.parametrize("name", sorted(GAMES))
def test_resampling_keeps_what_the_seat_knows_and_varies_the_rest(name: str) -> None:
    state = dealt(name, seed=5, steps=14)
    st = under(state)
    n = st.n
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for seat in (st.current, (st.current + 1) % n):
        seen = (
            state.observation_string(seat),
            state.information_state_string(seat),
            state.observation_tensor(seat),
            state.information_state_tensor(seat),
        )
        others: set[tuple[tuple[int, ...], ...]] = set()
        for _ in range(8):
            sample = state.resample_from_infostate(seat, sampler)
            assert (
                sample.observation_string(seat),
                sample.information_state_string(seat),
                sample.observation_tensor(seat),
                sample.information_state_tensor(seat),
            ) == seen
            assert sample.current_player() == state.current_player()
            if seat == st.current:  # another seat's choices depend on its sampled hand
                assert sample.legal_actions() == state.legal_actions()
            ss = under(sample)
            assert ss.info.determinized
            others.add(tuple(tuple(ss.observation(t).hand) for t in range(n) if t != seat))
        assert len(others) > 1, "the hidden hands never varied"
    # a sample plays on to its end (or the cap) like any state
    sample = state.resample_from_infostate(st.current, sampler)
    play(sample, np.random.RandomState(5), 20_000)
    assert sample.is_terminal()
    assert not state.is_terminal()  # the original is untouched


@pytest.mark.parametrize("name", sorted(GAMES))
def test_another_seats_hidden_hand_never_shows(name: str) -> None:
    state = dealt(name, seed=6, steps=10)
    st = under(state)
    seat = st.current
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    a = state.resample_from_infostate(seat, sampler)
    found = False
    for _ in range(30):
        b = state.resample_from_infostate(seat, sampler)
        differ = [
            t for t in range(st.n) if under(a).observation(t).hand != under(b).observation(t).hand
        ]
        if differ:
            found = True
            break
    assert found, "two samples never differed"
    assert seat not in differ
    # the seat's view is the same though another seat's hand changed...
    assert a.observation_string(seat) == b.observation_string(seat)
    assert a.observation_tensor(seat) == b.observation_tensor(seat)
    assert a.information_state_string(seat) == b.information_state_string(seat)
    # ...which that other seat's own view shows: the views do carry a seat's hand
    t = differ[0]
    assert a.observation_tensor(t) != b.observation_tensor(t)
    assert a.observation_string(t) != b.observation_string(t)


def test_resampling_during_the_deal() -> None:
    game = osp.load_game("tantanan")
    state = game.new_initial_state()
    for k in (3, 3, 7):
        state.apply_action(k)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    sample = state.resample_from_infostate(0, sampler)
    assert sample.is_chance_node()
    assert sample.observation_string(0) == state.observation_string(0)
    assert len(sample.history()) == 3
    assert sum(p for _, p in sample.chance_outcomes()) == pytest.approx(1.0)
    orders = {tuple(state.resample_from_infostate(1, sampler).history()) for _ in range(10)}
    assert len(orders) > 1


def test_resampling_a_finished_hand_gives_it_back() -> None:
    state = dealt("cholek-tiga", seed=13, steps=400)
    assert state.is_terminal()
    sample = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    _same(sample, state)


def test_other_observation_types_are_refused() -> None:
    game = osp.load_game("tantanan")
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(RulesError, match="SINGLE_PLAYER"):
        game.make_py_observer(public)


# -- clones and serialization ---------------------------------------------------------------
def test_clone_uses_the_cherki_clone_and_is_independent(monkeypatch: pytest.MonkeyPatch) -> None:
    state = dealt("balik-satu", seed=9, steps=20)
    st = under(state)
    calls = []
    kind = type(st)
    original = kind.clone

    def counted(self: Any) -> Any:
        calls.append(self)
        return original(self)

    monkeypatch.setattr(kind, "clone", counted)
    copy = state.clone()
    assert calls == [st]
    assert str(copy) == str(state) and copy.history() == state.history()
    assert under(copy) is not st
    action = copy.legal_actions()[0]
    copy.apply_action(action)
    assert len(copy.history()) == len(state.history()) + 1
    assert len(st.history) == 20


def _same(a: Any, b: Any) -> None:
    assert str(a) == str(b)
    assert a.history() == b.history()
    assert a.is_terminal() == b.is_terminal()
    assert a.current_player() == b.current_player()
    for seat in range(a.num_players()):
        assert a.observation_string(seat) == b.observation_string(seat)
        assert a.information_state_string(seat) == b.information_state_string(seat)
        assert a.observation_tensor(seat) == b.observation_tensor(seat)
    assert a.returns() == b.returns()


@pytest.mark.parametrize("name", ["balik-satu", "ceki", "cholek-tiga", "gonggong"])
def test_serialization_round_trips(name: str) -> None:
    game = osp.load_game(name, max_steps=60, options="")
    state = game.new_initial_state()
    rng = np.random.RandomState(10)
    for k in (0, 1, 2):  # during the deal
        state.apply_action(k)
        _same(game.deserialize_state(state.serialize()), state)
    deal(state, rng)
    _same(game.deserialize_state(state.serialize()), state)
    play(state, rng, 25)
    back = game.deserialize_state(state.serialize())
    _same(back, state)
    # the copy plays on exactly as the original
    play(state, np.random.RandomState(11), 10)
    play(back, np.random.RandomState(11), 10)
    _same(back, state)
    # a sampled state, and one played on after sampling
    sample = state.resample_from_infostate(
        under(state).current, pyspiel.UniformProbabilitySampler(0.0, 1.0)
    )
    _same(game.deserialize_state(sample.serialize()), sample)
    play(sample, rng, 5)
    _same(game.deserialize_state(sample.serialize()), sample)
    _same(pickle.loads(pickle.dumps(sample)), sample)
    # to the end or the cap
    play(state, rng, 100)
    assert state.is_terminal()
    _same(game.deserialize_state(state.serialize()), state)
    _same(pickle.loads(pickle.dumps(state)), state)


# -- OpenSpiel's tools ----------------------------------------------------------------------
@pytest.mark.parametrize(("name", "players"), [("tantanan", 3), ("cholek-tiga", 2), ("ceki", 4)])
def test_rl_environment_plays_episodes(name: str, players: int) -> None:
    from open_spiel.python import rl_environment

    game = osp.load_game(name, players=players)
    env = rl_environment.Environment(game, seed=1)
    rng = random.Random(1)
    lo, hi = game.min_utility(), game.max_utility()
    for _ in range(2):
        step = env.reset()
        assert len(step.observations["info_state"][0]) == game.spec.table.obs_size
        while not step.last():
            seat = step.observations["current_player"]
            legal = step.observations["legal_actions"][seat]
            assert legal
            step = env.step([rng.choice(legal)])
        assert len(step.rewards) == players
        assert all(lo <= r <= hi for r in step.rewards)


def test_ismcts_searches_a_position() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    state = dealt("tantanan", seed=12, steps=4)
    game = state.get_game()
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 20, random_state=np.random.RandomState(2))
    action = bot.step(state)
    assert action in state.legal_actions()
