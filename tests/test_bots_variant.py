"""The ``variant`` bot plays the variant: among calls, it keeps the wait whose wins are worth
most under the scoring in force (the game's own scoring function), so presets and options
with other bonus values lead to other play, not only to other scores. The plain
``heuristic`` stays as it was: it calls by live outs alone, whatever the bonuses."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import SATU, stacked

from cherki.bots import levels_for, make_bot
from cherki.bots.balik import BalikHeuristicBot
from cherki.bots.variant import VariantBot, call_worth
from cherki.core.cards import N_KINDS, parse_card
from cherki.core.errors import RulesError
from cherki.games import GAMES as ALL_GAMES
from cherki.games import find_game
from cherki.games.sets.actions import CALL_CEKI, CALL_TAN, DISCARD
from cherki.play.simulate import make_setup

#: the games of sets, whose bots the variant level is registered for (by family)
GAMES = tuple(name for name, g in ALL_GAMES.items() if g.family == "sets")

# Seat 0 may call two ways: throw M7 and call tan (S7 S7 S7 kept; any 8 wins: 13 live
# outs), or throw S7 and call ceki (S7 S7 M7 a mixed set; M8 or S8 must make the mata: 8
# live outs, but a ceki win takes ayam or kandang, R-BONUS).
STARTER = "C2 S2 M2 C3 S3 M3 S7 S7 S7 M7 M8 M8 S8 S8 C8"
OTHERS = [
    "C4 S4 M4 C5 S5 M5 C6 S6 M6 C9 S9 M9 WF RF",
    "C4 S4 M4 C5 S5 M5 C6 S6 M6 C9 S9 M9 WF RF",
    "C4 S4 M4 C5 S5 M5 C6 S6 M6 C9 S9 M9 WF RF",
]
TAN = CALL_TAN + parse_card("M7")
CEKI = CALL_CEKI + parse_card("S7")


def choice(preset: str, level: str = "variant", seed: int = 0, **options: int) -> int:
    state = stacked(SATU, [STARTER, *OTHERS], rules=preset, **options)
    obs = state.observation(0)
    assert TAN in obs.legal and CEKI in obs.legal
    return make_bot("balik-satu", level).act(obs, random.Random(seed))


def test_the_calls_wins_are_valued_by_the_scoring_function() -> None:
    state = stacked(SATU, [STARTER, *OTHERS], rules="pwee")
    obs = state.observation(0)
    worth = call_worth(obs)
    hand = list(obs.hand)
    tan, tan_outs = worth.after_discard(hand, (TAN - DISCARD) % N_KINDS)
    ceki, ceki_outs = worth.after_discard(hand, (CEKI - DISCARD) % N_KINDS)
    assert (tan_outs, ceki_outs) == (13, 8)
    assert ceki > tan > 0


@pytest.mark.parametrize(("preset", "want"), [("pwee", CEKI), ("babas", CEKI), ("gateway", TAN)])
def test_presets_with_other_bonuses_call_otherwise(preset: str, want: int) -> None:
    """Pwee's ayam 10 / kandang 20 and the Babas' 5 / 10 make the ceki wait worth its fewer
    outs; Gateway's 1 / 2 do not, and the bot keeps the wider tan wait."""
    assert choice(preset) == want


def test_the_ayam_bonus_alone_changes_the_call() -> None:
    assert choice("gateway", ayam_bonus=1) == TAN
    assert choice("gateway", ayam_bonus=10) == CEKI


def test_the_kandang_bonus_alone_changes_the_call() -> None:
    assert choice("gateway", ayam_bonus=0, kandang_bonus=2) == TAN
    assert choice("gateway", ayam_bonus=0, kandang_bonus=60) == CEKI


def test_the_tan_bonus_alone_changes_the_call() -> None:
    assert choice("pwee", tan_bonus=1) == CEKI
    assert choice("pwee", tan_bonus=10) == TAN


@pytest.mark.parametrize(
    "rules",
    [
        ("pwee", {}),
        ("babas", {}),
        ("gateway", {}),
        ("gateway", {"ayam_bonus": 10}),
        ("gateway", {"ayam_bonus": 0, "kandang_bonus": 60}),
        ("pwee", {"tan_bonus": 10}),
    ],
)
def test_the_plain_heuristic_calls_by_live_outs_whatever_the_bonuses(
    rules: tuple[str, dict[str, int]],
) -> None:
    """The ``heuristic`` level does not read the scoring: it keeps the tan wait (13 live
    outs against 8) under every preset and bonus, with any lots."""
    preset, options = rules
    for seed in range(3):
        assert choice(preset, "heuristic", seed, **options) == TAN


def test_the_variants_scores_rank_its_call_first() -> None:
    """The search reads a heuristic's ``scores``: the variant's rank the ceki call above the
    tan call under Pwee, the heuristic's the other way round."""
    state = stacked(SATU, [STARTER, *OTHERS], rules="pwee")
    obs = state.observation(0)
    variant = VariantBot().scores(obs)
    plain = BalikHeuristicBot().scores(obs)
    assert variant is not None and plain is not None
    assert variant[CEKI] > variant[TAN] and plain[TAN] > plain[CEKI]
    assert VariantBot().rank(obs)[0] == CEKI


@pytest.mark.parametrize("name", GAMES)
def test_the_variant_level_is_listed_for_the_games_of_sets(name: str) -> None:
    # and learned after them where a model ships for the game (tests/test_learned.py)
    assert levels_for(name)[:4] == ["random", "heuristic", "variant", "search"]
    assert levels_for(name)[4:] in ([], ["learned"])
    assert isinstance(make_bot(name, "variant"), VariantBot)


@pytest.mark.parametrize("name", ["ceki", "cholek-tiga"])
def test_the_other_games_have_no_variant_level(name: str) -> None:
    assert "variant" not in levels_for(name)
    with pytest.raises(RulesError, match="no 'variant' bot for"):
        make_bot(name, "variant")


def test_the_variant_finishes_hands_with_legal_moves() -> None:
    for name in GAMES:
        game = find_game(name)
        rng = random.Random(3)
        state = game.new_state(seed=2)
        bots = [make_bot(name, "variant") for _ in range(state.n)]
        while not state.is_terminal:
            obs = state.observation(state.current)
            action = bots[state.current].act(obs, rng)
            assert action in obs.legal
            state.apply(action, state.current)
        assert sum(state.result.payments) == 0


def test_the_batched_engine_refuses_the_variant_in_one_sentence() -> None:
    with pytest.raises(RulesError) as err:
        make_setup(find_game("balik-satu"), "pwee", {}, None, "variant", 1, "vector")
    assert str(err.value) == (
        "--engine vector plays only the random, heuristic and learned bots, not variant: "
        "use --engine reference (the default) for them"
    )
    setup = make_setup(find_game("balik-satu"), "pwee", {}, None, "variant", 1, "reference")
    assert setup.bots == ("variant",)


# Balik Satu, seed 298, after four heuristic turns: seat 0 called ceki with its first
# discard, took a card that makes a mata, and may change to tan (any card of its open group
# wins) or keep ceki (only the card that completes a mata wins, but with ayam or kandang).
CHANGE_SEED = 298
CHANGE_ACTIONS = [71, 0, 6, 0, 10, 0, 21, 0]
KEEP, CHANGE = DISCARD + 0, CALL_TAN + 0


def change_choice(level: str, seed: int = 0, **options: int) -> int:
    game = find_game("balik-satu")
    state = game.new_state(game.rules("pwee", **options), seed=CHANGE_SEED)
    for a in CHANGE_ACTIONS:
        state.apply(a, state.current)
    obs = state.observation(0)
    assert obs.calls[0] == "ceki" and {KEEP, CHANGE} <= set(obs.legal)
    return make_bot("balik-satu", level).act(obs, random.Random(seed))


def test_a_caller_weighs_its_change_of_call_by_the_scoring() -> None:
    """Under Pwee's bonuses the wider tan wait is worth more; where ayam and kandang pay
    ten times as much, the variant keeps ceki. The heuristic changes whatever they pay."""
    assert change_choice("variant") == CHANGE
    assert change_choice("variant", ayam_bonus=100, kandang_bonus=200) == KEEP
    for seed in range(3):
        assert change_choice("heuristic", seed) == CHANGE
        assert change_choice("heuristic", seed, ayam_bonus=100, kandang_bonus=200) == CHANGE


def test_the_variants_scores_rank_a_kept_call_as_it_plays() -> None:
    game = find_game("balik-satu")
    state = game.new_state(game.rules("pwee", ayam_bonus=100, kandang_bonus=200), seed=CHANGE_SEED)
    for a in CHANGE_ACTIONS:
        state.apply(a, state.current)
    obs = state.observation(0)
    assert VariantBot().rank(obs)[0] == KEEP
    assert BalikHeuristicBot().rank(obs)[0] == CHANGE


def cherki(*args: str) -> subprocess.CompletedProcess[str]:
    env = {"COLUMNS": "200", "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "cherki", *args],
        capture_output=True, text=True, timeout=120, env=env, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def test_the_command_line_lists_plays_and_refuses_the_variant(tmp_path: Path) -> None:
    games = cherki("games")
    assert games.returncode == 0 and "random, heuristic, variant, search" in games.stdout
    report = tmp_path / "r.md"
    run = cherki("simulate", "balik-satu", "--bots", "variant", "--hands", "4", "--report",
                 str(report))  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "Bots: variant" in report.read_text() and "weighs the scoring in force" in (
        report.read_text()
    )
    bad = cherki("simulate", "balik-satu", "--engine", "vector", "--bots", "variant")
    assert bad.returncode != 0 and "Traceback" not in bad.stderr
    said = bad.stdout + bad.stderr
    assert "plays only the random, heuristic and learned bots, not variant" in said
