"""One vocabulary of score items: each scoring method of the games of sets declares the kinds
of item its results hold (``ScoringMethod.items``); the words of every language, the records'
documentation and the batched simulator follow that declaration (the simulator's columns are
derived from it, and ``tests/test_vector_exact.py`` checks every result against it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cherki.core.events import Result, ScoreItem
from cherki.games import GAMES
from cherki.games.sets.game import SetsGame
from cherki.games.sets.rules import SCORING, score_items
from cherki.i18n import LANGUAGES
from cherki.ui.text import Voice, item_label
from cherki.vector.declare import METHODS
from cherki.vector.finished import ITEMS

RECORDS = Path(__file__).resolve().parent.parent / "docs" / "records.md"


def test_every_method_declares_its_items() -> None:
    for name, method in SCORING.items():
        assert method.items, f"scoring method {name} declares no score items"
        assert len(set(method.items)) == len(method.items)


def test_the_simulator_keeps_the_items_of_the_methods_it_plays() -> None:
    assert score_items(METHODS) == ITEMS
    assert set(ITEMS) == set(score_items())  # it plays every method registered today


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_item_is_worded_in_every_language(lang: str) -> None:
    voice = Voice.of(None, 4, lang=lang)
    result = Result(0, "self-draw", payments=(3, -1, -1, -1), detail={"exposed_olo": 1})
    sets_games = [g for g in GAMES.values() if isinstance(g, SetsGame)]
    for name, method in SCORING.items():
        # the game that scores by it words its items (its view first, the shared words after)
        game = next(g for g in sets_games if issubclass(g.rules_type, method.rules))
        for kind in method.items:
            item = ScoreItem(kind, 2, count=1, cards=(0,), among=15, seat=1)
            label = item_label(item, result, game, voice)
            worded = voice.words.has(f"item.{kind}") or kind == "olo"  # olo: in figures
            assert label and worded, f"{lang}: {name}: no words for the score item {kind}"
            assert "{" not in label, f"{lang}: {kind}: {label}"


def test_the_records_document_lists_every_item() -> None:
    text = RECORDS.read_text(encoding="utf-8")
    table = text[text.index("| Games | Kinds |") :]
    listed = set(re.findall(r"`([a-z-]+)`", table[: table.index("\n\n")]))
    missing = [k for k in score_items() if k not in listed]
    assert not missing, f"docs/records.md does not list the score items {missing}"
