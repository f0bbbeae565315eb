"""Shared helpers: stacked deals written in card notation, and playing scripted actions.

The tests list Pairs, the ninth game kept outside cherki (``tests/fixtures/pairs``), the way
any game from outside is listed: ``CHERKI_GAMES`` names its folder, for this process and
every process the tests start (the terminal under tmux, the server)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

# the one registry line of the ninth game (before cherki lists its games)
os.environ["CHERKI_GAMES"] = str(Path(__file__).parent / "fixtures" / "pairs")

import pytest
from fastapi.testclient import TestClient

from cherki.core.cards import parse_cards
from cherki.core.events import Event, Result, ScoreItem
from cherki.games import find_game
from cherki.games.sets.rules import SetsRules
from cherki.games.sets.state import SetsState
from cherki.server.app import create_app
from cherki.server.store import Store
from cherki.ui.text import Voice, item_label, result_summary, table_lines

# The remembered language (typer.get_app_dir: ~/.config/cherki/language) in a folder of the
# run's own, for the tests and every program they start: a person's choice on this machine
# never changes what the tests read, and the tests never change it.
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="cherki-tests-config-")


# -- the server's tests ------------------------------------------------------------------------
@pytest.fixture
def store(tmp_path: Path) -> Store:
    """A server's store on a fresh SQLite file."""
    return Store(f"sqlite:///{tmp_path / 'server.db'}")


@pytest.fixture
def opened() -> Iterator[Callable[..., TestClient]]:
    """Clients of apps, each run as a server runs it (its start-up and shut-down: the turn
    timers' clock, one event loop for every connection), closed after the test."""
    with ExitStack() as stack:

        def open_client(store: Store, **kw: Any) -> TestClient:
            return stack.enter_context(TestClient(create_app(store, **kw)))

        yield open_client


SATU = find_game("balik-satu")
LIMA = find_game("balik-lima-belas")

#: 14 cards that are far from waiting: ranks 1-5 twice, ranks 6-9 once, no pair of one kind.
JUNK = "C1 S1 C2 S2 C3 S3 C4 S4 C5 S5 C6 C7 C8 C9"
#: Another such hand with Myriads, for a second idle seat.
JUNK2 = "M1 S1 M2 S2 M3 S3 M4 S4 M5 S5 M6 M7 M8 M9"


def make_rules(game: Any = SATU, rules: Any = None, **options: Any) -> SetsRules:
    """``rules`` may be a preset name, a SetsRules, or None (the game's default preset)."""
    if rules is None or isinstance(rules, str):
        return game.rules(rules, **options)
    return game.with_options(rules, options) if options else rules


def stacked(
    game: Any = SATU,
    hands: list[str] | None = None,
    stock: str = "",
    rules: Any = None,
    first: int = 0,
    seed: int | None = None,
    **options: Any,
) -> SetsState:
    """A hand dealt from a stacked shoe: ``hands`` in seat order (the starter's has 15
    cards), ``stock`` the top of the stock in draw order; the rest of the shoe follows."""
    assert hands is not None
    r = make_rules(game, rules, **options)
    hand_lists = [parse_cards(h) for h in hands]
    return game.new_state(
        r, len(hands), stack=(hand_lists, parse_cards(stock)), first=first, seed=seed
    )


def play(state: Any, *moves: str) -> list[Event]:
    """Play ``"SEAT: ACTION"`` moves in order, checking each is the named seat's."""
    events: list[Event] = []
    for m in moves:
        seat, _, text = m.partition(":")
        events.extend(state.apply(text.strip(), seat=int(seat)))
    return events


def snapshot(state: Any) -> tuple[Any, ...]:
    """Everything observable about a state, to check an illegal action left it untouched."""
    return (
        tuple(state.observation(s) for s in range(state.n)),
        tuple(state.history),
        tuple(state.log),
        tuple(tuple(h) for h in state.hands),
        tuple(state.stock),
        state.pos,
        state.current,
        state.phase,
        state.drawn,
        state.self_win_ok,
        tuple(state.calls),
        tuple(state.wait_sets),
    )


def whole_shoe(state: Any) -> list[int]:
    """Every card in play, from the state's own invariant view."""
    counts: list[int] = state.card_counts()
    return counts


@pytest.fixture
def satu() -> Any:
    return SATU


@pytest.fixture
def lima() -> Any:
    return LIMA


# -- the English of results, as a front end words them (ui.text) -------------------------------
def detail(result: Result) -> dict[str, Any]:
    """A result's detail as records and clients read it (``Result.to_json()["detail"]``)."""
    data: dict[str, Any] = result.to_json()["detail"]
    return data


def label(item: ScoreItem, result: Result, game: Any = None) -> str:
    """A score item's line as the terminal words it (seats named "Seat N"), by default
    as the games of sets word it."""
    voice = Voice.of(None, max(len(result.payments), 1))
    return item_label(item, result, game if game is not None else SATU, voice)


def summary(result: Result, game: Any) -> str:
    """A result's sentence as the terminal words it (seats named "Seat N")."""
    return result_summary(result, game, Voice.of(None, max(len(result.payments), 1)))


def table(obs: Any, game: Any) -> str:
    """The table one seat sees, as the terminal words it."""
    return "\n".join(table_lines(obs, game, Voice.of(None, obs.players, obs.seat)))


# -- the browser app's end-to-end tests (pytest-playwright) -------------------------------------
#: Debian's Chromium (scripts/test.sh installs it); Playwright's own download needs the internet
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium, headless. A machine without it fails these tests (the
    test script installs it), never skips them."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "headless": True}


@pytest.fixture(scope="session", autouse=True)
def _patient_expectations() -> None:
    """Playwright's assertions wait 5 s by default; on a busy two-core machine a replay worked
    out in the server's low-priority process can take longer. The assertions still fail when
    what they wait for never comes (this is patience, not a timing test)."""
    from playwright.sync_api import expect

    expect.set_options(timeout=30_000)
