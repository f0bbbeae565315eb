"""cherki.vector: the batched simulator's vector API, its observations (what the acting seat
may see, no more), its refusals, its policies, and ``cherki simulate --engine vector``."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cherki.bots.balik import WEIGHTS, BalikHeuristicBot, Weights, tie_scores
from cherki.core.cards import N_KINDS
from cherki.core.errors import RulesError
from cherki.games import find_game
from cherki.games.sets.actions import CALL_TAN, DISCARD, NUM_ACTIONS, PASS, PHASE_NAMES, SAMPEI
from cherki.games.sets.observation import SetsObservation
from cherki.play.simulate import local_runner, make_setup, simulate, statistics
from cherki.vector import SetsVector
from cherki.vector.policies import HeuristicPolicy, RandomPolicy
from cherki.vector.run import BLOCK

ENV = {**os.environ, "COLUMNS": "160", "XDG_DATA_HOME": "/tmp/cherki-vector-data"}


def snapshot(env: SetsVector) -> dict[str, np.ndarray]:
    return {k: v.copy() for k, v in vars(env).items() if isinstance(v, np.ndarray)}


def test_reset_and_step_follow_the_vector_api() -> None:
    env = SetsVector("balik-satu", batch=16)
    obs, info = env.reset(seed=4)
    assert obs["observation"].shape == (16, env.obs_size)
    assert obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (16, NUM_ACTIONS)
    assert (obs["seat"] == np.arange(16) % 4).all()  # hand i starts at seat i mod n
    assert (info["seat"] == obs["seat"]).all()
    policy = HeuristicPolicy(1)
    ended = 0
    for _ in range(300):
        rows = np.arange(16)
        acts = policy(env, rows)
        assert obs["action_mask"][rows, acts].all()
        obs, rewards, terminated, truncated, info = env.step(acts)
        assert rewards.shape == (16, 4)
        assert not truncated.any()
        # payments only where a hand ended, and they sum to zero (no pot in Balik Satu)
        assert (rewards[~terminated] == 0).all()
        assert (rewards.sum(axis=1) == 0).all()
        ended += int(terminated.sum())
        # autoreset: every row holds a hand in play, with legal actions
        assert obs["action_mask"].any(axis=1).all()
    done = env.take_finished()
    assert len(done) == ended > 16
    # the hands finished are the run's first, but for those still in play
    got = set(done.index.tolist())
    assert len(got) == ended and got | set(env.index.tolist()) == set(range(ended + 16))


def test_the_same_seed_plays_the_same_hands() -> None:
    def run(seed: int) -> list[int]:
        env = SetsVector("gonggong", batch=32)
        env.reset(seed=seed, hands=100)
        done = env.play(HeuristicPolicy(seed))
        assert done.index.tolist() == list(range(100))
        return [*done.total.tolist(), *done.actions.tolist(), *done.payments.ravel().tolist()]

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_bad_actions_are_refused_and_change_nothing() -> None:
    env = SetsVector("chaqui", batch=4)
    env.reset(seed=1)
    before = snapshot(env)
    legal = RandomPolicy(0)(env, np.arange(4))
    for bad in (
        np.full(4, PASS),  # no claim is open
        np.full(4, NUM_ACTIONS),  # out of range
        np.full(4, -1),
        legal.astype(np.float64),  # not whole numbers
        legal[:3],  # one per hand
        np.array(["draw"] * 4),
    ):
        with pytest.raises(RulesError):
            env.step(bad)
        after = snapshot(env)
        assert all((after[k] == v).all() for k, v in before.items())
    env.step(legal)


def test_bad_setups_are_clear_errors() -> None:
    with pytest.raises(RulesError, match="games of sets"):
        SetsVector("ceki")
    with pytest.raises(RulesError, match="players"):
        SetsVector("chot", players=6)
    with pytest.raises(RulesError, match="batch"):
        SetsVector("balik-satu", batch=0)
    env = SetsVector("balik-satu", batch=2)
    with pytest.raises(RulesError, match="cards"):
        env.reset(shoes=np.zeros((2, 5), np.int64))
    with pytest.raises(RulesError, match="every card"):
        env.reset(shoes=np.zeros((2, env.cards), np.int64))
    with pytest.raises(RulesError, match="seat"):
        env.reset(seed=1, first=9)


def test_a_hand_longer_than_max_actions_is_truncated() -> None:
    env = SetsVector("balik-satu", batch=8, max_actions=5, autoreset=False)
    env.reset(seed=2)
    policy = RandomPolicy(0)
    truncated = np.zeros(8, bool)
    for _ in range(5):
        _, rewards, _, trunc, _ = env.step(policy(env, np.arange(8)))
        truncated |= trunc
        assert (rewards[trunc] == 0).all()
    assert truncated.all() and env.done.all()
    assert not env.mask.any()


#: (game, preset, players) tables the observation check plays: every game the batched
#: simulator plays, with exposed olo (Chaqui), pots (Gonggong's pot methods) and sizes
OBSERVED = [
    ("balik-satu", None, 4),
    ("balik-satu", None, 2),
    ("chaqui", None, 4),
    ("balik-lima-belas", None, 5),
    ("gonggong", None, 4),
    ("chot", None, 4),
    ("tantanan", None, 3),
]


@pytest.mark.parametrize(("name", "preset", "players"), OBSERVED)
def test_the_observation_is_the_engines_encoding_at_every_step(
    name: str, preset: str | None, players: int
) -> None:
    """The batched observation of every seat, at every step of 80 hands a table (560 in
    all), is the reference engine's ``observation(seat).encode()``: the vector the adapters
    give, so a policy trained on either reads the other. Hands over show zeros."""
    game = find_game(name)
    rules = game.rules(preset)
    hands = 80
    env = SetsVector(game, rules, players=players, batch=hands, autoreset=False)
    base = np.repeat(np.arange(N_KINDS), env.half_packs)
    shoes = np.random.default_rng(5).permuted(np.tile(base, (hands, 1)), axis=1)
    firsts = np.arange(hands) % players
    obs, _ = env.reset(shoes=shoes, first=firsts)
    states = [
        game.new_state(rules, players, shoe=shoes[i].tolist(), first=int(firsts[i]))
        for i in range(hands)
    ]
    layout = game.observation_layout(rules, players)
    assert env.obs_size == layout.size
    policy = HeuristicPolicy(5)
    rng = random.Random(5)
    steps = 0
    while not env.done.all():
        rows = np.flatnonzero(~env.done)
        every = env.observe_all()
        assert every["observation"].shape == (hands, players, layout.size)
        for r in rows.tolist():
            st = states[r]
            want = st.observation(st.current).encode()
            np.testing.assert_array_equal(obs["observation"][r], want, err_msg=f"hand {r}")
            for j in range(players):
                seen = st.observation(j).encode()
                np.testing.assert_array_equal(every["observation"][r, j], seen)
            mask = every["action_mask"][r]
            assert mask[st.current].tolist() == obs["action_mask"][r].tolist()
            assert not np.delete(mask, st.current, axis=0).any()
            low, high = layout.low(), layout.high()
            assert ((low <= want) & (want <= high)).all()
        acts = policy(env, rows)
        for i, r in enumerate(rows.tolist()):
            if rng.random() < 0.2:  # now and then another legal action: takes, calls, passes
                acts[i] = rng.choice(states[r].legal_actions())
            states[r].apply(int(acts[i]))
        full = np.zeros(hands, np.int64)
        full[rows] = acts
        obs, *_ = env.step(full)
        steps += len(rows)
    assert steps > 20 * hands
    assert not obs["observation"].any()  # hands over: nothing shown
    assert not env.observe_all()["observation"].any()


#: weights far from the hand-set ones (a tuned prior's, :mod:`cherki.tune`)
TUNED = Weights(
    set=812, near=140, near_out=9, part=12, part_out=1, mata=2.9, extra_mata=0.4,
    pair=7, pair_out=2, pair_mata=0.007, pair_plain=0.025, take=0.55, ceki=1.6,
)  # fmt: skip


#: tuned weights with the tie-break between level discards (``--tune-ties``)
TIES = dataclasses.replace(TUNED, tie_held=1.3, tie_live=0.2)
#: and keeping the red cards the longer (``--tune-red``)
RED = dataclasses.replace(TIES, tie_red=0.9, tie_low=0.15)


@pytest.mark.parametrize(("name", "weights"), [("balik-satu", WEIGHTS), ("balik-satu", TUNED),
                                               ("tantanan", TUNED), ("chaqui", WEIGHTS),
                                               ("chaqui", TUNED), ("chot", TUNED),
                                               ("gonggong", TUNED), ("balik-satu", TIES),
                                               ("gonggong", TIES), ("balik-satu", RED),
                                               ("chaqui", RED)])  # fmt: skip
def test_the_batched_heuristic_chooses_as_the_heuristic_bot(name: str, weights: Weights) -> None:
    """Every choice of the batched heuristic is one the bot would make: its best measure
    (the bot draws lots between equals), in every phase, by the same weights."""
    game = find_game(name)
    bot = BalikHeuristicBot(weights=weights)
    hands = 200 if weights == WEIGHTS else 60
    # tuned weights at every seat may take and throw a discard round and round (the learned
    # bot plays the hand-set heuristic in such a hand): such hands are cut short
    env = SetsVector(game, batch=hands, autoreset=False, max_actions=120)
    env.reset(seed=8)
    policy = HeuristicPolicy(8, weights=weights)
    checked = ties = 0
    while not env.done.all():
        rows = np.flatnonzero(~env.done)
        acts = policy(env, rows)
        for r, a in zip(rows.tolist(), acts.tolist(), strict=True):
            obs = env_observation(env, r)
            legal = obs.legal
            if SAMPEI in legal:
                assert a == SAMPEI
            elif obs.phase == "claim":
                assert a == PASS
            elif obs.phase == "draw":
                # a bot of its own for this hand's seat (one bot follows one hand: it counts
                # its decisions with the stock unchanged); no lots are drawn here
                want = BalikHeuristicBot(weights=weights).act(obs, random.Random(0))
                assert a == want
            else:
                scores = bot.scores(obs)
                assert scores is not None
                assert scores[a] == max(scores.values()), (obs, a)
                tie = tie_scores(obs.hand, obs.unseen(), obs.honours, weights)
                if tie is not None and a < CALL_TAN:  # a plain discard: the least tie score
                    level = [b for b in scores if scores[b] == scores[a]]
                    assert tie[a - DISCARD] == min(tie[b - DISCARD] for b in level)
                    ties += len({tie[b - DISCARD] for b in level}) > 1
            checked += 1
        full = np.zeros(hands, np.int64)
        full[rows] = acts
        env.step(full)  # a hand past max_actions is cut short
    assert checked > 20 * hands
    if weights.tie_held or weights.tie_red or weights.tie_low:
        assert ties > hands  # the tie-break decided, not lots alone


def env_observation(env: SetsVector, r: int) -> SetsObservation:
    """The engine's observation for the acting seat of batch row ``r`` (rebuilt from the
    row: what the heuristic bot reads)."""
    game = env.game
    s = int(env.current[r])
    pile: list[int] = []
    for k in range(N_KINDS):
        pile.extend([k] * int(env.pile[r, k]))
    if env.top_ok[r]:
        pile.remove(int(env.top[r]))
        pile.append(int(env.top[r]))
    names = {0: None, 1: "tan", 2: "ceki"}
    return SetsObservation(
        seat=s,
        players=env.n,
        current=s,
        phase=PHASE_NAMES[int(env.phase[r])],
        hand=tuple(int(c) for c in env.hands[r, s]),
        hand_sizes=tuple(int(h.sum()) for h in env.hands[r]),
        stock_left=int(env.live_end - env.pos[r]),
        pile=tuple(pile),
        top_available=bool(env.top_ok[r]),
        calls=tuple(names[int(c)] for c in env.calls[r]),
        call_changed=tuple(bool(c) for c in env.changed[r]),
        exposed=tuple(tuple(int(c) for c in e) for e in env.exposed[r]),
        claim_card=int(env.claim_card[r]) if env.claim_card[r] >= 0 else None,
        drawn=int(env.drawn[r]) if env.drawn[r] >= 0 else None,
        legal=tuple(int(a) for a in np.flatnonzero(env.mask[r])),
        half_packs=env.half_packs,
        rules=env.rules,
        melds=tuple(tuple(int(c) for c in m) for m in env.melded[r]),
        game=game.name,
    )


# -- cherki simulate --engine vector ---------------------------------------------------------
def test_the_vector_engine_gives_the_reference_engines_figures() -> None:
    """Different deals and lots, the same game: the figures agree within their intervals."""
    game = find_game("balik-satu")
    ref = simulate(make_setup(game, None, {}, None, "heuristic", 11), 700)
    vec = simulate(make_setup(game, None, {}, None, "heuristic", 11, "vector"), 6000)
    a, b = statistics(ref, 4), statistics(vec, 4)

    def agree(x: dict[str, float], y: dict[str, float]) -> bool:
        return x["low"] <= y["high"] and y["low"] <= x["high"]

    assert agree(a["won"], b["won"])
    for how in ("claim", "self-draw", "yeo"):
        assert agree(a["ends"][how], b["ends"][how]), how
    for key in ("winning_score", "actions", "turns"):
        assert agree(a[key], b[key]), key
    for kind in ("turned", "mata", "tan-bonus"):
        assert agree(a["items"][kind]["mean_points"], b["items"][kind]["mean_points"]), kind
    for call in ("tan", "ceki"):
        assert agree(a["calls_per_hand"][call], b["calls_per_hand"][call]), call
    assert agree(a["payment_by_position"][0], b["payment_by_position"][0])


def test_vector_runs_reproduce_whatever_the_processes_and_resume() -> None:
    game = find_game("chot")
    setup = make_setup(game, None, {}, None, "random,heuristic,random,heuristic", 3, "vector")
    hands = BLOCK + 300
    one = simulate(setup, hands)
    assert [h.index for h in one] == list(range(hands))
    two = simulate(setup, hands, runner=local_runner(2))
    assert one == two
    # a run that stopped part way through its second block plays that block again
    resumed = simulate(setup, hands, done=one[: BLOCK + 100])
    assert resumed == one
    # seats 1 and 3 play the heuristic, 0 and 2 at random: the heuristic side wins more
    seats = [h.winner_seat for h in one if h.winner_seat is not None]
    assert sum(s % 2 for s in seats) > 0.6 * len(seats)


def test_the_vector_engine_refuses_what_it_does_not_play() -> None:
    with pytest.raises(RulesError, match="random, heuristic and learned"):
        make_setup(find_game("balik-satu"), None, {}, None, "search", 1, "vector")
    with pytest.raises(RulesError, match="games of sets"):
        make_setup(find_game("ceki"), None, {}, None, "heuristic", 1, "vector")
    with pytest.raises(RulesError, match="--engine"):
        make_setup(find_game("balik-satu"), None, {}, None, "heuristic", 1, "gpu")


#: run ``python -m cherki ARGS`` as on an install without the extra 'vector' (numba absent)
NO_NUMBA = (
    "import runpy, sys; sys.modules['numba'] = None; sys.argv[0] = 'cherki'; "
    "runpy.run_module('cherki', run_name='__main__', alter_sys=True)"
)


def test_without_the_vector_extra_only_the_batched_simulator_is_refused_in_words() -> None:
    def run(code: str, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", code, *args],
            capture_output=True, text=True, timeout=300, env=ENV, stdin=subprocess.DEVNULL,
        )  # fmt: skip

    bad = run(NO_NUMBA, "simulate", "balik-satu", "--engine", "vector", "--hands", "10")
    assert bad.returncode == 2, bad.stdout + bad.stderr
    assert "Traceback" not in bad.stderr
    said = " ".join((bad.stdout + bad.stderr).split())
    assert "--engine vector" in said and "uv run --extra vector" in said, said
    assert "pip install 'cherki[vector]'" in said, said
    # the reference engine, and everything else, needs no numba
    ok = run(NO_NUMBA, "simulate", "balik-satu", "--hands", "3", "--bots", "random")
    assert ok.returncode == 0, ok.stderr
    assert "How hands end" in ok.stdout
    # a program importing the batched simulator gets the same words, as ModuleNotFoundError
    prog = run("import sys; sys.modules['numba'] = None\nimport cherki\nimport cherki.vector")
    assert prog.returncode == 1
    assert "ModuleNotFoundError: the batched simulator" in prog.stderr, prog.stderr
    assert "extra 'vector'" in prog.stderr


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cherki", *args],
        capture_output=True, text=True, timeout=300, env=ENV, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def test_simulate_and_compare_commands_with_the_vector_engine(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    p = cli("simulate", "gonggong", "--engine", "vector", "--hands", "500", "--json", str(out))
    assert p.returncode == 0, p.stderr
    assert "How hands end" in p.stdout and "Traceback" not in p.stderr
    data = json.loads(out.read_text())
    assert data["setup"]["engine"] == "vector" and len(data["hands"]) == 500
    again = cli("simulate", "gonggong", "--engine", "vector", "--hands", "500", "--json", str(out))
    assert again.returncode == 0 and "Going on from 500 hands" in again.stdout
    p = cli("compare", "balik-satu", "--rules", "pwee", "--rules", "babas", "--engine", "vector",
            "--hands", "400")  # fmt: skip
    assert p.returncode == 0, p.stderr
    assert "babas" in p.stdout
    bad = cli("simulate", "ceki", "--engine", "vector", "--hands", "10")
    assert bad.returncode != 0 and "games of sets" in bad.stderr + bad.stdout
    assert "Traceback" not in bad.stderr


def test_the_documented_example_runs() -> None:
    text = (Path(__file__).parent.parent / "docs" / "simulation.md").read_text(encoding="utf-8")
    start = text.index("```python\nimport numpy as np\nfrom cherki.vector")
    code = text[start + len("```python\n") : text.index("```", start + 10)]
    code = code.replace("batch=1024", "batch=64")  # the same, smaller
    scope: dict[str, object] = {}
    exec(compile(code, "docs/simulation.md", "exec"), scope)
    finished = scope["finished"]
    assert len(finished) > 0  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "players"), [("balik-satu", 4), ("gonggong", 6), ("balik-satu", 2), ("chaqui", 5)]
)
def test_the_hands_dealt_ahead_are_each_hands_own_however_many_at_a_time(
    name: str, players: int
) -> None:
    """Hands are dealt ahead in blocks: hand ``i`` of a run is the ``i``-th shuffle of the
    seed whatever the blocks and however many hands are dealt at a time, and its seats' hands
    and stock are the reference engine's deal of that shoe (seat ``i mod n`` starting)."""
    game = find_game(name)
    rules = game.rules()
    env = SetsVector(game, rules, players=players, batch=4)
    pack = np.repeat(np.arange(N_KINDS), env.half_packs)
    hands = 150
    shoes = np.random.default_rng(5).permuted(np.broadcast_to(pack, (hands, env.cards)), axis=1)
    dealer = env._dealer
    for block in (1, 7, 64, 500):
        dealer.block = block
        dealer.start(5, None, None, 0, hands)
        lots = random.Random(block)
        got = []
        while left := dealer.left():
            got.append(dealer.take(min(left, lots.randint(1, 9))))
        index = np.concatenate([d.index for d in got])
        stock = np.concatenate([d.stock for d in got])
        dealt = np.concatenate([d.hands for d in got])
        first = np.concatenate([d.ints[env._seated[0]] for d in got])
        assert index.tolist() == list(range(hands)), block
        assert (first == index % players).all(), block
        assert (stock == shoes[:, env.dealt :]).all(), block
        for i in range(0, hands, 7):
            state = game.new_state(rules, players, shoe=shoes[i].tolist(), first=i % players)
            assert dealt[i].tolist() == state.hands, (block, i)  # type: ignore[attr-defined]
            assert state.stock == shoes[i, env.dealt :].tolist()  # type: ignore[attr-defined]
