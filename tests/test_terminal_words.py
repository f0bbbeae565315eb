"""The terminal's action words in the reader's language (issue 39): in Malay and Indonesian
the legal actions and the heuristic bot's suggestion are written as the page writes them,
with the notation to type beside them; English stays the notation alone."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cherki.i18n import words


def _play(lang: str) -> str:
    run = subprocess.run(
        [sys.executable, "-m", "cherki", "play", "balik-satu", "--lang", lang, "--seed", "3",
         "--players", "2"],
        input="hint\nquit\n", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    return " ".join(run.stdout.split())


@pytest.mark.parametrize(("lang", "said"), [("ms", "Buang C1 [discard C1]"),
                                             ("id", "Buang C1 [discard C1]")])  # fmt: skip
def test_actions_in_the_readers_language(lang: str, said: str) -> None:
    out = _play(lang)
    assert said in out
    bot = words(lang).t("hint.bot", action="").strip()
    assert f"{bot} Buang " in out  # the heuristic bot's suggestion, in words too


def test_english_stays_the_notation() -> None:
    out = _play("en")
    assert "You may: discard C1 · discard C2" in out and "[discard" not in out
