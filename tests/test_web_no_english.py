"""Every word in the reader's language (issue 39): a whole hand of every game played in
Debian's Chromium on a Malay or an Indonesian page, and after every action the page's text,
its tooltips and its screen-reader labels are searched for English words. Names (the people's
and the bots'), card codes and the games' own terms (sampei, tan, ceki...) are not English
words; the list below is of everyday English the pages' catalogues use."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page
from test_web_e2e import _choose, _click, _page, _sit, _state, _wait_change
from test_web_e2e import server as server  # a fixture

from cherki.games import GAMES

#: English words that have no place on a Malay or Indonesian page
ENGLISH = frozenset(
    {
        "the",
        "of",
        "and",
        "your",
        "you",
        "with",
        "hand",
        "hands",
        "draw",
        "take",
        "discard",
        "pass",
        "turn",
        "capture",
        "win",
        "wins",
        "won",
        "score",
        "points",
        "seat",
        "next",
        "pile",
        "stock",
        "left",
        "cards",
        "card",
        "coins",
        "strings",
        "myriads",
        "flower",
        "thousand",
        "nobody",
        "waiting",
        "play",
        "plays",
        "played",
        "result",
        "total",
        "money",
        "match",
        "call",
        "calls",
        "called",
        "loading",
        "connecting",
        "hint",
        "keys",
        "what",
        "happened",
        "pick",
        "close",
    }
)  # fmt: skip
WORD = re.compile(r"[A-Za-z]+")

#: the text a page shows anyone: its words, tooltips and screen-reader labels
TEXT = """() => {
  const out = [document.body.innerText];
  for (const e of document.querySelectorAll('[title],[aria-label],[alt],[placeholder]')) {
    for (const a of ['title', 'aria-label', 'alt', 'placeholder']) {
      if (e.getAttribute(a)) out.push(e.getAttribute(a));
    }
  }
  return out.join('\\n');
}"""


#: words that are English and also the language's own ("total" is Indonesian too)
ALSO = {"ms": set(), "id": {"total"}}


def english_words(text: str, names: list[str], lang: str) -> set[str]:
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return {w for w in WORD.findall(text) if w.lower() in ENGLISH and w.lower() not in ALSO[lang]}


def _play_checking(page: Page, names: list[str], lang: str, limit: int = 600) -> set[str]:
    found: set[str] = set()
    for n in range(limit):
        found |= english_words(page.evaluate(TEXT), names, lang)
        if page.locator("#result").evaluate("d => d.open"):
            return found
        state = _state(page)
        obs = state["observation"]
        if state["over"] or obs is None or obs["current"] != state["seat"] or not obs["legal"]:
            _wait_change(page, state["version"])
            continue
        _click(page, _choose(state), n)
        _wait_change(page, state["version"])
    raise AssertionError("the hand did not end")


GAME_NAMES = [g for g in GAMES if g != "pairs"]


@pytest.mark.slow
@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_whole_hand_in_malay_or_indonesian_has_no_english(
    server: str, browser: Browser, game: str
) -> None:
    lang = "ms" if GAME_NAMES.index(game) % 2 == 0 else "id"
    players = GAMES[game].default_players
    made: dict[str, Any] = httpx.post(f"{server}/api/tables?lang={lang}", json={
        "game": game, "seats": [{"kind": "human"}]
        + [{"kind": "bot", "level": "heuristic"}] * (players - 1), "bot_pace": 0,
    }, timeout=30).json()  # fmt: skip
    page = _page(browser)
    page.goto(server + "/")
    page.evaluate(f"localStorage.setItem('cherki:lang', '{lang}')")
    state = _sit(page, server + made["links"]["0"], "Nenek")
    names = list(state["names"])
    found = _play_checking(page, names, lang)
    found |= english_words(page.evaluate(TEXT), names, lang)  # the result
    assert not found, f"{game} in {lang}: English left: {sorted(found)}"
    assert not page.errors  # type: ignore[attr-defined]


def test_the_check_sees_english() -> None:
    assert english_words("Bot 2 (heuristic) — Hand 1: draw", ["Bot 2 (heuristic)"], "ms") == {
        "Hand", "draw",
    }  # fmt: skip
    assert english_words("Total 5", [], "id") == set()
