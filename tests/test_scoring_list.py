"""The scoring list a tap away at every table (issue 37, item 4): what each score item
pays under the preset and options in force, computed from the rules (not written out),
in the reader's language; in the terminal (``scoring``) and the page
(``/api/tables/ID/scoring``)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import SATU

from cherki.games import GAMES, find_game
from cherki.i18n import words
from cherki.i18n.voice import Voice
from cherki.server.store import Store


def lines(name: str, rules: Any, lang: str = "en") -> list[str]:
    voice = Voice((), words=words(lang))
    return [line.plain() for line in find_game(name).view().scoring_lines(rules, voice)]


def test_balik_satus_list_follows_the_preset_and_options_in_force() -> None:
    pwee = lines("balik-satu", SATU.rules("pwee"))
    assert "Ayam: ceki won on another's card (a discard or a card shown): +10" in pwee
    assert "Kandang: ceki won on your own draw: +20" in pwee
    assert "Won after calling tan: +1" in pwee
    assert "Money a point is worth: 10¢" in pwee
    assert any(line.startswith("The card turned after a win: its points (1–9") for line in pwee)
    babas = lines("balik-satu", SATU.rules("babas"))
    assert "Ayam: ceki won on another's card (a discard or a card shown): +5" in babas
    assert not any(line.startswith("Won after calling tan") for line in babas)  # no tan point
    assert "Money a point is worth: 5¢" in babas
    # an option changed at the table changes its line, and an item turned off goes
    mine = lines(
        "balik-satu", SATU.rules("pwee", ayam_bonus=7, yeo_redeal=False, kandang_tangan=False)
    )
    assert "Ayam: ceki won on another's card (a discard or a card shown): +7" in mine
    assert not any(line.startswith(("Yeo", "Kandang tangan")) for line in mine)


def test_ceki_and_cholek_tiga_declare_their_own_lists() -> None:
    ceki = find_game("ceki")
    text = lines("ceki", ceki.rules(None))
    assert "A triple win (the winning card drawn from the pile): ×3" in text
    assert "Each other player pays the winner the whole score" in text
    shared = lines("ceki", ceki.rules(None, payment="total"))
    assert "The other players share the score between them" in shared
    cholek = find_game("cholek-tiga")
    text = lines("cholek-tiga", cholek.rules(None, ang_pow_cents=150))
    assert "Ang pow (three red alike), from each player: $1.50" in text
    assert "Four alike captured: +8" in text


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("lang", ["ms", "id"])
def test_every_game_has_a_list_in_every_language(name: str, lang: str) -> None:
    game = find_game(name)
    for preset in game.presets:
        en = lines(name, preset.rules)
        other = lines(name, preset.rules, lang)
        assert en and len(en) == len(other), (name, preset.name)
        english = ("Each ", "Won ", "Money a point", "winning hand", "from each player", " win")
        for line in other:
            assert not any(word in line for word in english), (lang, line)


def test_the_table_page_gets_the_list_of_the_rules_in_force(store: Store, opened: Any) -> None:
    client = opened(store)
    body = {
        "game": "balik-satu",
        "preset": "babas",
        "options": {"ayam_bonus": 6},
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "heuristic"}],
        "bot_pace": 0,
    }
    made = client.post("/api/tables", json=body)
    assert made.status_code == 200, made.text
    table = made.json()["table"]
    got = client.get(f"/api/tables/{table}/scoring", params={"lang": "ms"}).json()
    assert got["game"] == "balik-satu"
    texts = [line["text"] for line in got["lines"]]
    assert (
        "Ayam: ceki menang dengan kad orang lain (buangan atau kad yang ditunjukkan): +6" in texts
    )
    assert client.get("/api/tables/nosuch/scoring").status_code == 404
    preset = client.get("/api/scoring/balik-satu", params={"preset": "gateway"}).json()
    assert any(
        line["text"].endswith("+1") and line["label"].startswith("Ayam") for line in preset["lines"]
    )


def test_a_ninth_game_brings_its_scoring_list() -> None:
    """The fixture game declares its list in its own view and words: the front ends show it."""
    pairs = find_game("pairs")
    assert lines("pairs", pairs.rules(None)) == [
        "Each pair laid: +1",
        "Going out: +1",
        "Money a point is worth: 10¢",
    ]


def test_cherki_rules_ends_with_each_presets_scoring_list() -> None:
    from cherki.ui.cli import scoring_markdown

    text = scoring_markdown(SATU)
    assert "## What each item pays" in text and "### The Babas" in text
    babas = text[text.index("### The Babas") :]
    assert "- Ayam: ceki won on another's card (a discard or a card shown): +5" in babas
