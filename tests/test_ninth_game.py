"""The ninth game (issue 25): Pairs, kept outside cherki in ``tests/fixtures/pairs`` and
listed by ``CHERKI_GAMES`` (``tests/conftest.py``), gets what a game of cherki gets with
nothing in ``src/`` naming it: its words in every language, its bots, the terminal (played
under tmux), the browser (a whole hand clicked in Chromium, then its replay) and the
research adapters' and conformance suite's checks (``test_contract.py``,
``test_pettingzoo.py``, ``test_gymnasium.py``, ``test_openspiel.py`` run over every listed
game, Pairs included)."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from test_web_e2e import (
    DESKTOP,
    PHONE,
    _check_shown,
    _create_from_lobby,
    _no_sideways_scroll,
    _page,
    _sit,
    _state,
    _wait_change,
    server,  # noqa: F401  (the fixture: a real server in its own process)
    shots,  # noqa: F401
)

from cherki.bots import levels_for, make_bot
from cherki.core.errors import RulesError
from cherki.games import ENV, GAMES, find_game, load_games, register
from cherki.i18n import LANGUAGES, add_words, words
from cherki.play.session import Seat, Session
from cherki.server import present
from cherki.ui.text import Voice, event_line, result_summary, table_lines

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "pairs"
PAIRS = find_game("pairs")


# -- listed from outside ----------------------------------------------------------------------
def test_it_is_listed_from_outside_and_nothing_in_cherki_names_it() -> None:
    assert GAMES["pairs"] is PAIRS and os.environ[ENV] == str(FIXTURE)
    assert Path(sys.modules[type(PAIRS).__module__].__file__ or "").is_relative_to(FIXTURE)
    named = subprocess.run(
        ["grep", "-rniE", r"\bpairs\b|Pairs(Game|View)", str(ROOT / "src" / "cherki")],
        capture_output=True,
        text=True,
    )
    # the English word "pairs" in prose is fine; no name of the game, its classes or its id
    hits = [line for line in named.stdout.splitlines() if '"pairs"' in line or "Pairs" in line]
    assert hits == [], hits


def test_listing_it_again_is_refused_and_a_path_that_is_not_there_is_said() -> None:
    assert load_games(str(FIXTURE)) == ["cherki_game_pairs"]  # imported once only
    with pytest.raises(RulesError, match="there is a game 'pairs' already"):
        register(PAIRS)
    with pytest.raises(RulesError, match="does not exist"):
        load_games(str(FIXTURE.parent / "nowhere"))
    with pytest.raises(ValueError, match="cherki's already"):
        add_words("en", {"log.draw": "something else"}, source="pairs")


def test_its_words_are_in_every_language_and_its_bots_registered() -> None:
    en = PAIRS.words("en")
    for lang in LANGUAGES:
        own = PAIRS.words(lang)
        assert own.keys() == en.keys()
        for key, text in own.items():
            assert words(lang).t(key, **dict.fromkeys(re.findall(r"{(\w+)}", text), "x"))
    assert levels_for("pairs") == ["random", "heuristic", "search"]
    assert PAIRS.view().help_key == "pairs.help"


def test_a_match_of_bots_is_worded_in_each_language() -> None:
    for lang in LANGUAGES:
        seats = [Seat(f"P{i}", make_bot("pairs", "heuristic")) for i in range(2)]
        session = Session(PAIRS, PAIRS.rules(), seats, seed=3, hands=2)
        for _ in session.run(lambda state, seat: 0):
            state = session.state
            if state is not None and not state.is_terminal:
                voice = Voice.of(session.names, 2, 0, lang)
                lines = table_lines(state.observation(0), PAIRS, voice)
                assert lines[0] == words(lang).t("table.stock", n=state.observation(0).stock_left)
                assert all(event_line(e, PAIRS, voice) for e in state.log)
        result = session.match.results[-1]
        assert result_summary(result, PAIRS, Voice.of(None, 2, None, lang))
        view = present.seat_view(session, 0, lang=lang)
        assert view["result"] is not None and view["result"]["items"]


# -- the terminal, under tmux -------------------------------------------------------------------
def _pane(name: str) -> str:
    out = subprocess.run(
        ["tmux", "capture-pane", "-p", "-J", "-S", "-200", "-t", name],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout


def _wait_pane(name: str, pattern: str, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while True:
        text = _pane(name)
        if re.search(pattern, text):
            return text
        assert time.monotonic() < deadline, f"{pattern!r} never showed:\n{text}"
        time.sleep(0.3)


@pytest.mark.slow
def test_pairs_is_played_in_the_terminal_under_tmux(tmp_path: Path) -> None:
    """``cherki play pairs`` in a terminal: the table, the hand, help, a hint, a draw and a
    discard typed, the game's own words in the log, then quitting keeps the record."""
    assert shutil.which("tmux"), "tmux is needed for the terminal test"
    name = f"cherki-pairs-{os.getpid()}"
    record = tmp_path / "pairs.json"
    cherki = Path(sys.executable).parent / "cherki"  # the command `uv run cherki` runs
    # the session's environment is the tmux server's: the listing goes on the command line
    command = (
        f"env CHERKI_GAMES={FIXTURE} COLUMNS=110 {cherki} play pairs --seed 4 "
        f"--bots heuristic --record {record} --lang en; sleep 30"
    )
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", name, "-x", "110", "-y", "50", command], check=True
    )
    try:
        _wait_pane(name, r"> ?$|You may")
        text = _wait_pane(name, r"Stock: \d+ cards")
        assert "Your hand" in text and "Pairs laid:" in text
        for keys in ("help", "draw"):
            subprocess.run(["tmux", "send-keys", "-t", name, keys, "Enter"], check=True)
            time.sleep(0.5)
        text = _wait_pane(name, r"You draw \w\w from the stock")
        assert "pair C3" in text  # the game's own help
        subprocess.run(["tmux", "send-keys", "-t", name, "hint", "Enter"], check=True)
        text = _wait_pane(name, r"The heuristic bot would")
        hand = re.findall(r"discard (\w\w)", text.split("You may")[-1])
        assert hand, text
        subprocess.run(["tmux", "send-keys", "-t", name, hand[0], "Enter"], check=True)
        _wait_pane(name, rf"You discard {hand[0]}")
        subprocess.run(["tmux", "send-keys", "-t", name, "quit", "Enter"], check=True)
        _wait_pane(name, r"--resume")
        assert record.exists() and '"game": "pairs"' in record.read_text()
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], check=False)


# -- the browser --------------------------------------------------------------------------------
def _choose(state: dict[str, Any]) -> dict[str, Any]:
    """Lay a pair when there is one, else draw, else discard a card of the hand."""
    acts = state["ui"]["actions"]
    for kind in ("pair", "draw", "discard"):
        for a in acts:
            if a["kind"] == kind:
                return a
    return acts[0]


def _click(page: Page, action: dict[str, Any]) -> None:
    """Draw by clicking the stock; lay a pair or discard by picking the card, then its
    button."""
    if action["zone"] == "stock":
        page.click("#stock")
        return
    page.locator(f"#hand .card-btn[data-code='{action['card']}']").first.click()
    page.click(f"#actions button[data-action='{action['id']}']")


#: the most hands the browser test plays for one in which the person lays a pair
MATCH_HANDS = 3


def test_a_whole_hand_of_pairs_in_the_browser(
    server: str,  # noqa: F811
    browser: Browser,
    shots: Path,  # noqa: F811
) -> None:
    page = _page(browser, DESKTOP)
    # up to three hands: the deal is the server's secret shuffle, and in one hand in a few
    # dozen the person is never dealt a pair to lay before the bot goes out; the hands go
    # on only until one has laid a pair through the page
    seat_url, watch_url = _create_from_lobby(
        page, server, "pairs", ["human", "bot:heuristic"], hands=MATCH_HANDS
    )
    state = _sit(page, seat_url, "Mei Ling")
    assert state["game"] == "pairs"
    expect(page.locator("#stock")).to_be_visible()
    expect(page.locator("#pile")).to_be_visible()
    laid = False
    n = 0
    for hand in range(MATCH_HANDS):
        for _ in range(200):
            if page.locator("#result").evaluate("d => d.open"):
                break
            state = _state(page)
            obs = state["observation"]
            if state["over"] or obs is None or obs["current"] != state["seat"] or not obs["legal"]:
                _wait_change(page, state["version"])
                continue
            if n % 5 == 0:
                _check_shown(page, state)
            if n == 6:
                page.screenshot(path=str(shots / "web-pairs-desktop.png"))
                lines = page.locator(".seat .what").all_inner_texts()
                assert [t.split(":")[0] for t in lines] == ["Pairs laid", "Pairs laid"], lines
                expect(page.locator("#status-text")).to_have_text(
                    re.compile(r"^Your turn: (draw|lay)")
                )
                _watch_on_a_phone(browser, watch_url, shots)
                assert page.locator("#keys [data-game-key]").count() == 0  # none of its own
            action = _choose(state)
            laid |= action["kind"] == "pair"
            _click(page, action)
            _wait_change(page, state["version"])
            n += 1
        else:
            raise AssertionError("the hand did not end")
        dialog = page.locator("#result")
        expect(dialog.locator(".summary").first).to_contain_text(re.compile(r"points"))
        expect(dialog.locator("table.payments tbody tr")).to_have_count(2)
        if laid or hand == MATCH_HANDS - 1:
            break
        expect(page.locator("#result-close")).to_have_text("Next hand")
        page.click("#result-close")
        expect(dialog).not_to_be_visible()
    page.screenshot(path=str(shots / "web-pairs-result.png"))
    assert laid, f"no pair was laid in {MATCH_HANDS} whole hands"
    assert not page.errors  # type: ignore[attr-defined]


def _watch_on_a_phone(browser: Browser, url: str, folder: Path) -> None:
    """A spectator on a phone, mid-hand: both seats and the table, no hand, nothing
    sideways."""
    phone = _page(browser, PHONE)
    phone.goto(url)
    phone.wait_for_function("window.cherki && window.cherki.state() !== null")
    expect(phone.locator(".seat")).to_have_count(2)
    expect(phone.locator("#stock")).to_be_visible()
    assert phone.locator("#hand").count() == 0
    _no_sideways_scroll(phone)
    phone.screenshot(path=str(folder / "web-pairs-phone.png"), full_page=True)
    assert not phone.errors  # type: ignore[attr-defined]
    phone.close()


# -- the front ends switch on no game ---------------------------------------------------------
#: the modules that show games to people (and the bots' registration): none may test a
#: game's name, its observation's class or a key of one game's observation
FRONT_ENDS = [
    "ui/text.py",
    "ui/table.py",
    "server/present.py",
    "server/words.py",
    "server/pages.py",
    "server/messages.py",
    "server/learn.py",
    "server/static/learn.js",
    "ui/learn.py",
    "server/static/table.js",
    "server/static/replay.js",
    "server/static/motion.js",
    "server/static/lobby.js",
    "server/static/table.html",
    "bots/balik.py",
    "bots/variant.py",
    "bots/ceki.py",
    "bots/cholek.py",
]
#: keys of one game's observation (docs/observations.md) a page might have read
GAME_KEYS = r"\.(pool|melds|captured|laid_count|called|calls|claim|bonus_money_cents|active)\b"


@pytest.mark.parametrize("path", FRONT_ENDS)
def test_no_front_end_switches_on_a_game(path: str) -> None:
    """No game's name or alias (``"ceki"`` aside where it is the core's call word, which
    every game of sets shares), no observation class (a family's bots narrow to their own
    family's, as they must), no key of one game's observation read by a page."""
    from cherki.games import ALIASES

    text = (ROOT / "src" / "cherki" / path).read_text(encoding="utf-8")
    for name in [*GAMES, *ALIASES]:
        if name == "ceki" and path == "ui/text.py":
            assert text.count('"ceki"') == 1 and 'if call == "ceki":' in text
            continue
        assert f'"{name}"' not in text and f"'{name}'" not in text, name
    if not path.startswith("bots/"):
        assert not re.search(r"\b(Sets|Ceki|Cholek|Pairs)Observation\b", text)
    if path.endswith(".js") and "motion" not in path:  # motion.js names its own rects
        code = re.sub(r'"[^"\n]*"|`[^`]*`', '""', text)  # the words' keys aside
        assert not re.search(GAME_KEYS, code), re.findall(GAME_KEYS, code)


#: the Python modules of the front ends and the play around a game: the terminal and its
#: commands, the server, matches, simulation, the arena. None may narrow a game, its rules,
#: state or observation to one game's or family's class, import a game's package (only the
#: registry, ``cherki.games``), or hold a game's name as a value (the call word ``ceki``
#: aside, which every game of sets shares); a game declares what they need through hooks
#: (``Game.analyse_hand``, ``Game.exact_figures``, ``Game.view``...).
PLAY_MODULES = sorted(
    str(p.relative_to(ROOT / "src" / "cherki"))
    for folder in ("ui", "server", "play")
    for p in (ROOT / "src" / "cherki" / folder).rglob("*.py")
    if "migrations" not in p.parts
)
#: ``isinstance(x, SetsGame)``, ``isinstance(r, BalikRules)``... (the contract's own
#: ``Game``, ``Rules``, ``State`` and ``Observation`` are every game's)
FAMILY_CHECK = re.compile(r"isinstance\([\w\s.,(|\[\]]*?\b[A-Z]\w*(Game|Rules|State|Observation)\b")


def test_the_checks_catch_a_front_end_that_narrows_to_a_family() -> None:
    assert FAMILY_CHECK.search("if not isinstance(game, SetsGame):")
    assert FAMILY_CHECK.search("isinstance(r, (BalikRules, ChotRules))")
    assert FAMILY_CHECK.search(
        "isinstance(\n    obs, cherki.games.sets.observation.SetsObservation\n)"
    )
    assert not FAMILY_CHECK.search("isinstance(x, int) or y(SetsGame)")
    assert not FAMILY_CHECK.search("isinstance(rules, Rules) and isinstance(game, Game)")
    assert len(PLAY_MODULES) > 20 and "ui/cli.py" in PLAY_MODULES


@pytest.mark.parametrize("path", PLAY_MODULES)
def test_no_front_end_narrows_to_a_game_or_family(path: str) -> None:
    import ast

    from cherki.games import ALIASES

    text = (ROOT / "src" / "cherki" / path).read_text(encoding="utf-8")
    assert not FAMILY_CHECK.search(text), FAMILY_CHECK.findall(text)
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            assert not node.module.startswith("cherki.games."), node.module
        elif isinstance(node, ast.Import):
            assert not any(a.name.startswith("cherki.games.") for a in node.names)
    docstrings = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
    }
    names = ({*GAMES, *ALIASES} | {PAIRS.name}) - {"ceki"}
    held = [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and id(n) not in docstrings and n.value in names
    ]
    assert not held, held


def test_a_game_that_offers_no_hand_analysis_says_so() -> None:
    """``Game.analyse_hand``'s default: a clear refusal naming the game, which ``cherki
    hand`` words (the games of sets offer it, in their own call words)."""
    with pytest.raises(RulesError, match="hand analysis is not offered for Pairs"):
        PAIRS.analyse_hand([0] * 30, PAIRS.rules())
    from cherki.core.cards import parse_hand

    tantanan = find_game("tantanan")
    got = tantanan.analyse_hand(parse_hand("S2 M2 C5 C5 OT"), tantanan.rules())
    assert got.data["cards"] == 5 and got.data["call"] == "kowah"
    assert got.lines[-1].parts[1] == ("kowah", "strong")


def test_the_default_view_shows_a_game_that_declares_nothing() -> None:
    """A game with no view of its own (Pairs shown by the plain ``GameView``) is still shown
    whole, in every language: the table, every action, help, the status and the result."""
    from cherki.core.view import GameView

    plain = GameView(PAIRS)
    state = PAIRS.new_state(seed=8)
    bot = make_bot("pairs", "heuristic")
    rng = random.Random(8)
    for lang in LANGUAGES:
        voice = Voice.of(None, 2, 0, lang)
        assert plain.help(voice) and plain.keys(voice) == []
        assert plain.table_lines(state.observation(0), voice)[0] == voice.t("table.stock", n=50)
    while not state.is_terminal:
        obs = state.observation(state.current)
        for lang in LANGUAGES:
            voice = Voice.of(None, 2, state.current, lang)
            for a in obs.legal:
                view = plain.action(a, obs, voice)
                assert view["label"] and view["id"] == a
            assert [z["kind"] for z in plain.zones(obs, voice)] == ["stock"]
        state.apply(bot.act(obs, rng))
    assert plain.result_summary(state.result, Voice.of(None, 2, None))
