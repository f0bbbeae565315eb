"""Rule options declared once: each game accepts only its own, checks them strictly, and its
rules document's options table is generated from the declarations."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from cherki import GAMES, find_game
from cherki.core.errors import RulesError
from cherki.core.options import Option, plays_for_money
from cherki.games.sets.game import SetsGame
from cherki.ui.docs import stale

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_every_rules_document_has_the_generated_options_table() -> None:
    assert stale(DOCS) == [], "run: uv run python -m cherki.ui.docs docs"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_refuses_another_games_options_naming_its_own(name: str) -> None:
    game = GAMES[name]
    own = {o.name for o in game.options}
    foreign = {o.name for g in GAMES.values() for o in g.options} - own
    assert own, "every game has options"
    for other in sorted(foreign):
        with pytest.raises(RulesError, match=rf"{name} has no rule option '{other}'; its op"):
            game.rules(None, **{other: "1"})


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_option_parses_its_text_forms_and_refuses_bad_values(name: str) -> None:
    game = GAMES[name]
    base = game.default_preset().rules
    for opt in game.options:
        current = getattr(base, opt.name)
        # the value the preset has, written as text, is accepted as it is
        if current is None:
            text = "auto"
        elif isinstance(current, bool):
            text = "true" if current else "false"
        else:
            text = str(current)
        assert getattr(game.rules(None, **{opt.name: text}), opt.name) == current
        for bad in _bad_values(opt):
            with pytest.raises(RulesError, match=f"option {opt.name}"):
                game.rules(None, **{opt.name: bad})


def _bad_values(opt: Option) -> list[object]:
    if opt.kind is bool:
        return ["maybe", 2, 1.0, None]
    if opt.kind is int:
        bad: list[object] = ["ten", 1.5, True, "1e3", "0x10"]
        if opt.minimum is not None:
            bad.append(opt.minimum - 1)
        if opt.maximum is not None:
            bad.append(opt.maximum + 1)
        return bad
    if opt.choices:
        return ["nonsense", 3]
    return [3]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_preset_passes_its_games_checks(name: str) -> None:
    game = GAMES[name]
    for preset in game.presets:
        game.check_rules(preset.rules)
        assert game.rules_from_json(preset.name, game.rules_json(preset.rules)) == preset.rules


def test_presets_are_independent_values() -> None:
    """Tantanan's presets are its own, not Gonggong's object with fields replaced."""
    tantanan, gonggong = find_game("tantanan"), find_game("gonggong")
    t = tantanan.default_preset().rules
    g = gonggong.default_preset().rules
    assert t is not g and (t.set_size, t.sets) == (2, 3) and (g.set_size, g.sets) == (3, 5)


#: The 38 fields every game of sets shared before each had its own rules class, at Balik
#: Satu's (Pwee's) values: what a record written then lists.
OLD_SHARED_FIELDS: dict[str, object] = {
    "scoring": "satu", "shoe_table": "pwee", "half_packs": None, "deal": "rounds",
    "honours": "rank1", "kena": True, "yeo_redeal": True, "yeo_cards": "one-point",
    "ayam_bonus": 10, "kandang_bonus": 20, "tan_bonus": 1, "kandang_tangan": True,
    "kandang_tangan_multiplier": 2, "must_call_to_win": False, "call_timing": "any",
    "caller_changes": "mata-only", "claim_priority": "turn-order", "next_starter": "winner",
    "cents_per_point": 10, "set_size": 3, "sets": 5, "starter_extra": True,
    "discard_wins": False, "chiqui": False, "expose_olo": False, "stake": 10, "ceken_bets": "",
    "bak_bakan_turn": True, "toh_step4": "restates", "olo_points": 5, "chiqui_fail": "void",
    "chiqui_turn": "any", "partnerships": False, "ceki_tokens": 10, "bangkong_points": 20,
    "bangkong_count": 3, "cents_per_bangkong": 2000, "cents_per_excess": 10,
}  # fmt: skip


def test_an_old_record_holding_every_field_still_reads() -> None:
    """Records written when the games of sets shared one rules object hold all its fields:
    a field at the value the game fixed is accepted, another value refused."""
    game = find_game("balik-satu")
    base = game.default_preset().rules
    assert len(OLD_SHARED_FIELDS) == 38
    assert game.rules_from_json("pwee", OLD_SHARED_FIELDS) == base
    with pytest.raises(RulesError, match="has no rule option 'scoring'"):
        game.rules_from_json("pwee", {**OLD_SHARED_FIELDS, "scoring": "umbuk"})
    with pytest.raises(RulesError, match="balik-satu has no rule option 'chiqui'; its options: "):
        game.rules_from_json("pwee", {**OLD_SHARED_FIELDS, "chiqui": True})


def test_an_old_chaqui_record_reads_at_the_values_chaqui_fixed() -> None:
    """Chaqui fixed Balik's turned card off (no yeo, no kena, no bonuses): an old record says
    so, and now those are no fields of its rules; saying otherwise is refused."""
    game = find_game("chaqui")
    base = game.default_preset().rules
    old = {
        **OLD_SHARED_FIELDS,
        **base.to_json(),  # type: ignore[attr-defined]
        **{"kena": False, "yeo_redeal": False, "ayam_bonus": 0, "kandang_bonus": 0},
        "tan_bonus": 0,
    }
    assert game.rules_from_json("kristang", old) == base
    with pytest.raises(RulesError, match="chaqui has no rule option 'kena'"):
        game.rules_from_json("kristang", {**old, "kena": True})


@pytest.mark.parametrize("name", [n for n in sorted(GAMES) if isinstance(GAMES[n], SetsGame)])
def test_no_option_of_one_game_is_a_field_of_anothers_rules(name: str) -> None:
    """Each game of sets plays on its own rules class: the core's fields and its own, each
    declared with its source; another game's option is refused in words naming its own."""
    game = GAMES[name]
    assert isinstance(game, SetsGame)
    rules = game.default_preset().rules
    fields = {f.name for f in dataclasses.fields(rules)}  # type: ignore[arg-type]
    declared = {o.name for o in rules.declared()}
    assert fields == declared, f"{name}: every field declared, with its source"
    assert all(o.source for o in rules.declared())
    assert {o.name for o in game.options} <= fields
    others = {
        f
        for g in GAMES.values()
        if isinstance(g, SetsGame) and g.rules_type is not game.rules_type
        for f in g.default_preset().rules.to_json()  # type: ignore[attr-defined]
    }
    for foreign in sorted(others - fields):
        with pytest.raises(RulesError, match=f"{name} has no rule option '{foreign}'; its options"):
            game.rules(**{foreign: 1})


def test_a_foreign_option_on_the_command_line_is_a_clear_error() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "cherki", "play", "balik-satu", "--watch", "-o", "chiqui=true"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert run.returncode == 2
    assert "balik-satu has no rule option 'chiqui'" in run.stderr
    assert "Traceback" not in run.stderr + run.stdout


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_table_plays_for_money_by_the_money_options_its_game_declares(name: str) -> None:
    """``Option.money`` marks the options whose value is cents; with every one of them at
    nothing a table plays for points only, and any one above nothing puts money on it."""
    game = find_game(name)
    money = [o for o in game.options if o.money]
    for preset in game.presets:
        rules = preset.rules
        free = dataclasses.replace(rules, **{o.name: 0 for o in money})
        assert not plays_for_money(game.options, free)
        for o in money:
            one = dataclasses.replace(free, **{o.name: 1})
            assert plays_for_money(game.options, one), (name, o.name)
    if name in ("balik-satu", "ceki", "cholek-tiga", "chot"):
        assert money, f"{name} declares no money option"
