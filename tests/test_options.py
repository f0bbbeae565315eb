"""Rule options declared once: each game accepts only its own, checks them strictly, and its
rules document's options table is generated from the declarations."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cherki import GAMES, find_game
from cherki.core.errors import RulesError
from cherki.core.options import Option
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


def test_an_old_record_holding_every_field_still_reads() -> None:
    """Records written before games had their own options hold every field of the family's
    rules: a field at the value the game fixes is accepted, another value refused."""
    game = find_game("balik-satu")
    base = game.default_preset().rules
    every = {f: getattr(base, f) for f in base.__dataclass_fields__}  # type: ignore[attr-defined]
    assert game.rules_from_json("pwee", every) == base
    with pytest.raises(RulesError, match="has no rule option 'scoring'"):
        game.rules_from_json("pwee", {**every, "scoring": "umbuk"})


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
