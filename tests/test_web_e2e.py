"""The browser app end to end: a real server (uvicorn in a process, a temporary SQLite
database) and Debian's Chromium driven by Playwright. Tables are created from the lobby
and whole hands played by clicking (Balik Satu, Cholek Tiga); a seat reloaded mid-hand is
back with what it missed; a spectator sees no hand; one action is played from the
keyboard; a phone-sized screen never scrolls sideways.

Set ``CHERKI_WEB_SHOTS=docs/img`` to write the screenshots the docs show (web-*.png)."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from serverutil import next_settled, wait_serving
from websockets.sync.client import connect

from cherki.bots import make_bot
from cherki.bots.shipped import shipped_players
from cherki.games import find_game
from cherki.play.session import Seat, Session

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server on a free port of 127.0.0.1; its base URL."""
    db = tmp_path_factory.mktemp("web") / "web.db"
    port = _port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "cherki.server.app:app_from_env",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        env={**os.environ, "CHERKI_DATABASE_URL": f"sqlite:///{db}"},
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_serving(base)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture
def shots(tmp_path: Path) -> Iterator[Path]:
    """Where screenshots go: a temporary folder, copied to ``$CHERKI_WEB_SHOTS`` after."""
    yield tmp_path
    target = os.environ.get("CHERKI_WEB_SHOTS")
    if target:
        for png in tmp_path.glob("web-*.png"):
            shutil.copy(png, Path(target) / png.name)


def _page(browser: Browser, viewport: dict[str, int] = DESKTOP) -> Page:
    page = browser.new_page(viewport=viewport)  # type: ignore[arg-type]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def _state(page: Page) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate("window.cherki && window.cherki.state()")
    return data


def _wait_state(page: Page, timeout: float = 15_000) -> dict[str, Any]:
    page.wait_for_function("window.cherki && window.cherki.state() !== null", timeout=timeout)
    return _state(page)


def _wait_change(page: Page, version: int) -> None:
    """Until the page shows a state after ``version`` (or the result of the hand)."""
    page.wait_for_function(
        "v => { const s = window.cherki.state(); return s.version !== v ||"
        " document.querySelector('#result').open }",
        arg=version,
        timeout=15_000,
    )


def _sit(page: Page, url: str, name: str) -> dict[str, Any]:
    """Open a seat's link, give a name the first time, and wait for the table."""
    page.goto(url)
    page.wait_for_function(
        "!document.querySelector('#name-page').classList.contains('hidden') || "
        "(window.cherki && window.cherki.state() !== null)"
    )
    if page.locator("#name-page").is_visible():
        page.fill("#name", name)
        page.click("#name-form button[type=submit]")
    return _wait_state(page)


def _create_from_lobby(
    page: Page, base: str, game: str, seats: list[str], hands: int = 1, pace: float = 0
) -> tuple[str, str]:
    """Create a table from the lobby: ``seats`` as ``human`` or ``bot:LEVEL``, the bots'
    pace ``pace`` seconds (0: the tests' bots play at once); the first person's link and
    the spectator link."""
    page.goto(base + "/")
    page.wait_for_selector(f"#game option[value='{game}']", state="attached")
    page.select_option("#game", game)
    page.fill("#players", str(len(seats)))
    page.dispatch_event("#players", "change")
    for i, who in enumerate(seats):
        page.select_option(f"#seat-{i}", who)
    page.fill("#hands", str(hands))
    page.fill("#bot-pace", str(pace))
    expect(page.locator("#options .option").first).to_be_attached()
    page.click("#create-btn")
    expect(page.locator("#links .link-row").first).to_be_visible()
    rows = page.locator("#links .link-row code")
    links = [rows.nth(i).inner_text() for i in range(rows.count())]
    # the host's first, one per person, then the spectators'
    assert len(links) == seats.count("human") + 2
    assert "/host/" in links[0] and "/watch/" in links[-1]
    return links[1], links[-1]


def _host_link(page: Page) -> str:
    """The host's link of the table the lobby has just made."""
    text: str = page.locator("#links .link-row code").first.inner_text()
    return text


def _check_shown(page: Page, state: dict[str, Any]) -> None:
    """What the seat is shown matches its observation: as many cards in the hand, and only
    its legal actions offered (buttons and playable cards)."""
    obs = state["observation"]
    assert page.locator("#hand .card-btn").count() == len(obs["hand"])
    shown = sorted(page.locator("#hand .card-btn img").evaluate_all("ns => ns.map(n => n.alt)"))
    assert shown == sorted(obs["hand"])
    legal = {a["id"] for a in obs["legal"]}
    buttons = page.locator("#actions button[data-action]").evaluate_all(
        "ns => ns.filter(n => !n.disabled).map(n => Number(n.dataset.action))"
    )
    assert set(buttons) <= legal
    playable = set(
        page.locator("#hand .card-btn.playable").evaluate_all("ns => ns.map(n => n.dataset.code)")
    )
    acts = state["ui"]["actions"]
    assert playable == {a["card"] for a in acts if a["kind"] in ("discard", "call")}


def _choose(state: dict[str, Any]) -> dict[str, Any]:
    """A sensible move: go out when possible, capture when possible, call when a discard
    leaves a waiting hand, discard a card outside the hand's sets, draw rather than take."""
    acts = state["ui"]["actions"]
    by = {k: [a for a in acts if a["kind"] == k] for k in {a["kind"] for a in acts}}
    for kind in ("sampei", "win", "capture", "call", "draw", "turn"):
        if by.get(kind):
            return by[kind][0]
    if by.get("discard"):
        hand = state["ui"]["hand"]
        spare = set(hand["leftover"])
        for a in by["discard"]:
            if a["card"] in spare:
                return a
        return by["discard"][0]
    return acts[0]


def _click(page: Page, action: dict[str, Any], n: int) -> None:
    """Play ``action`` by clicking, as a person would: the stock to draw, the top discard to
    take, a card then its button to discard (or the picked card again)."""
    kind = action["kind"]
    if kind in ("draw", "turn"):
        page.click("#stock")
    elif kind == "take":
        page.click("#pile .card-btn.top")
    elif action["card"] and kind in ("discard", "call"):
        page.locator(f"#hand .card-btn[data-code='{action['card']}']").first.click()
        if kind == "discard" and n % 2:
            page.locator("#hand .card-btn.selected").click()  # the picked card again
        else:
            page.click(f"#actions button[data-action='{action['id']}']")
    else:
        page.click(f"#actions button[data-action='{action['id']}']")


def _play_hand(page: Page, limit: int = 400, check_every: int = 7, *, end: bool = True) -> int:
    """Play the seat's turns by clicking until the hand's result shows (``end``: it must,
    within ``limit`` steps); the steps taken."""
    for n in range(limit):
        if page.locator("#result").evaluate("d => d.open"):
            return n
        state = _state(page)
        obs = state["observation"]
        if state["over"] or obs is None or obs["current"] != state["seat"] or not obs["legal"]:
            _wait_change(page, state["version"])
            continue
        if n % check_every == 0:
            _check_shown(page, state)
        _click(page, _choose(state), n)
        _wait_change(page, state["version"])
    assert not end, "the hand did not end"
    return limit


def _play_match(page: Page, check_every: int = 7) -> None:
    """Play hands until the match is over (a void hand, Balik Satu's yeo, is dealt again)."""
    for _ in range(5):
        _play_hand(page, check_every=check_every)
        if _state(page)["over"]:
            return
        expect(page.locator("#result-close")).to_have_text("Next hand")
        page.click("#result-close")
    raise AssertionError("the match did not end")


def _no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px screen"


def test_balik_satu_from_the_lobby_a_whole_hand_by_clicking(
    server: str, browser: Browser, shots: Path
) -> None:
    page = _page(browser)
    seat_url, _ = _create_from_lobby(
        page, server, "balik-satu", ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]
    )
    page.screenshot(path=shots / "web-lobby.png")
    page.set_viewport_size(PHONE)  # type: ignore[arg-type]
    _no_sideways_scroll(page)
    page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]
    state = _sit(page, seat_url, "Mei Ling")
    assert state["seat"] == 0 and state["game"] == "balik-satu"
    assert page.locator(".seat").count() == 4
    # mid-hand, a card picked: the desktop and the phone
    _play_hand(page, limit=6, end=False)
    # the seat's turn (or the end): nothing moves until it acts, so the page and the state
    # read one after the other agree (bots at once could otherwise move in between)
    page.wait_for_function(
        "() => { const s = window.cherki.state();"
        " return s && (s.over || s.observation.legal.length > 0); }"
    )
    state = _state(page)
    if not state["over"]:
        _check_shown(page, state)
        playable = page.locator("#hand .card-btn.playable")
        if playable.count():
            playable.first.click()
        page.set_viewport_size(PHONE)  # type: ignore[arg-type]
        _no_sideways_scroll(page)  # the table's screenshots: test_web_motion.py
        page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]
        page.keyboard.press("Escape")
    _play_match(page)
    dialog = page.locator("#result")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".summary").first).not_to_be_empty()
    expect(dialog.locator("table.payments tbody tr")).to_have_count(4)
    expect(dialog.locator("table.sheet")).to_be_visible()
    expect(dialog.locator(".final-hand")).to_have_count(4)  # every hand face up
    final = _state(page)
    assert final["over"]
    result = final["ui"]["result"]
    if result["items"]:  # a win: the score item by item, and its total
        rows = dialog.locator("table.score-items tbody tr")
        expect(rows).to_have_count(len(result["items"]) + 1)
        expect(rows.last).to_contain_text(str(result["total"]))
    page.screenshot(path=shots / "web-score.png")
    # the replay: every hand face up, step by step
    dialog.locator("#result-replay").click()
    expect(page.locator("#viewer")).to_be_visible(timeout=30_000)  # the heavy process starts
    expect(page.locator(".replay-seat")).to_have_count(4)
    start = page.locator("#where").inner_text()
    page.keyboard.press("ArrowRight")
    page.click("#next")
    assert page.locator("#where").inner_text() != start
    page.click("#prev")
    page.keyboard.press("End")
    expect(page.locator("#result .summary")).to_be_visible()
    faces = page.locator(".replay-seat img.card").evaluate_all("ns => ns.map(n => n.dataset.code)")
    assert faces and "back" not in faces
    page.screenshot(path=shots / "web-replay.png")
    assert not page.errors  # type: ignore[attr-defined]


def test_a_record_opened_from_disk_is_replayed(
    server: str, browser: Browser, tmp_path: Path
) -> None:
    game = find_game("cholek-tiga")
    seats = [Seat(f"P{i}", make_bot(game.name, "heuristic")) for i in range(3)]
    session = Session(game, game.rules(None), seats, seed=3, hands=1)
    for _ in session.run():
        pass
    good = tmp_path / "good.json"
    good.write_text(session.record().dumps())
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "cherki-record", "version": 7}')
    page = _page(browser)
    page.goto(f"{server}/replay")
    page.set_input_files("#file", bad)
    expect(page.locator("#open-error")).to_contain_text('"version" 7 is not supported')
    page.set_input_files("#file", good)
    expect(page.locator("#viewer")).to_be_visible(timeout=30_000)  # the heavy process starts
    expect(page.locator(".replay-seat")).to_have_count(3)
    page.keyboard.press("End")
    expect(page.locator("#result .summary")).to_contain_text("points")
    page.set_viewport_size(PHONE)  # type: ignore[arg-type]
    _no_sideways_scroll(page)
    assert not page.errors  # type: ignore[attr-defined]


def test_cholek_tiga_from_the_lobby_a_whole_hand_by_clicking(server: str, browser: Browser) -> None:
    page = _page(browser)
    seat_url, _ = _create_from_lobby(page, server, "cholek-tiga", ["human", "bot:heuristic"])
    state = _sit(page, seat_url, "Kok Leong")
    assert state["game"] == "cholek-tiga"
    expect(page.locator("#pool")).to_be_visible()
    _play_match(page, check_every=5)
    dialog = page.locator("#result")
    # a win ("… wins with 65 points …") or, as the deal falls, a tie ("Top score 65 shared
    # by you and Bot 2 …"): either way the result says the top score
    expect(dialog.locator(".summary").first).to_contain_text(
        re.compile(r"(wins? with \d+ points|Top score \d+ shared by)")
    )
    expect(dialog.locator("table.payments tbody tr")).to_have_count(2)
    assert _state(page)["over"]
    assert not page.errors  # type: ignore[attr-defined]


def _act_over_socket(base: str, token: str) -> None:
    """Another person plays their turns over their own WebSocket until it is not theirs."""
    url = base.replace("http://", "ws://") + f"/ws/seat/{token}"
    with connect(url) as ws:

        def receive() -> dict[str, Any]:
            data: dict[str, Any] = json.loads(ws.recv(timeout=15))
            return data

        msg = next_settled(receive)
        while msg["observation"] and msg["observation"]["current"] == msg["seat"]:
            legal = {a["text"]: a["id"] for a in msg["observation"]["legal"]}
            pick = next(
                (legal[t] for t in ("sampei", "draw") if t in legal),
                next((i for t, i in legal.items() if t.startswith("discard")), None),
            )
            action = pick if pick is not None else next(iter(legal.values()))
            time.sleep(0.12)  # at a person's pace
            ws.send(json.dumps({"type": "act", "action": action, "version": msg["version"]}))
            msg = next_settled(receive)
            assert msg["type"] == "state", msg


def test_reload_mid_hand_keyboard_hint_and_a_spectator(server: str, browser: Browser) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}] + [{"kind": "bot", "level": "heuristic"}] * 2
    made = httpx.post(
        f"{server}/api/tables",
        json={"game": "balik-satu", "seats": seats, "hints": True, "bot_pace": 0},
        timeout=30,
    ).json()
    url = f"{server}/seat/{made['seats']['0']}"
    page = _page(browser)
    state = _sit(page, url, "Ann")
    assert state["observation"]["current"] == 0 and state["observation"]["phase"] == "discard"
    # the list of keys names the game's own (its view's): sampei and pass, no other game's
    keys = page.locator("#keys dt[data-game-key]").evaluate_all("ns => ns.map(n => n.innerText)")
    assert keys == ["s", "p"]
    expect(page.locator("#keys dd[data-game-key='s']")).to_have_text("Sampei!")
    # the keyboard: pick the first card, discard it with Enter
    first = page.locator("#hand .card-btn").first.get_attribute("data-code")
    page.locator("body").press("ArrowRight")
    expect(page.locator("#hand .card-btn.selected")).to_have_count(1)
    page.keyboard.press("Enter")
    _wait_change(page, state["version"])
    state = _state(page)
    assert state["observation"]["pile"] == [first]
    assert state["observation"]["current"] == 1
    hand = state["observation"]["hand"]
    version = state["version"]
    # away: the page closed while the other person and the bots play
    page.goto("about:blank")
    _act_over_socket(server, made["seats"]["1"])
    back = _sit(page, url, "Ann")
    assert back["seat"] == 0 and back["table"] == made["table"]
    assert back["version"] > version
    assert back["missed"], "the lines missed while away"
    expect(page.locator("#missed")).to_be_visible()
    expect(page.locator("#missed li").first).to_be_visible()
    if not back["over"] and back["hand_number"] == state["hand_number"]:
        assert back["observation"]["hand"] == hand  # the same hand: seat 0 has not moved
        _check_shown(page, back)
        # a hint from the keyboard
        page.keyboard.press("h")
        expect(page.locator("#hint p").first).to_be_visible()
        # the index labels off, kept across a reload
        page.uncheck("#index-labels")
        first_card = page.locator("#hand img.card").first
        expect(first_card).to_have_attribute("src", re.compile("index=0"))
        page.reload()
        _wait_state(page)
        expect(page.locator("#index-labels")).not_to_be_checked()
        expect(first_card).to_have_attribute("src", re.compile("index=0"))
    # a spectator sees every seat and no face-up hand
    watch = _page(browser)
    watch.goto(f"{server}/watch/{made['table']}")
    seen = _wait_state(watch)
    assert seen["seat"] is None and seen["observation"]["hand"] == []
    assert seen["ui"]["hand"] is None and seen["ui"]["actions"] == []
    expect(watch.locator(".seat")).to_have_count(4)
    assert watch.locator("#hand").count() == 0
    public = set(seen["observation"]["pile"])
    for s in seen["ui"]["seats"]:
        public |= {c for line in s["lines"] for c in line["cards"] or ()}
    if seen["observation"]["claim"]:
        public.add(seen["observation"]["claim"]["card"])
    faces = watch.locator("img.card").evaluate_all("ns => ns.map(n => n.dataset.code)")
    assert set(faces) - {"back"} <= public
    assert not page.errors and not watch.errors  # type: ignore[attr-defined]


def test_turn_timer_away_and_back(server: str, browser: Browser) -> None:
    """With a turn timer the countdown shows; when it runs out a bot plays the seat, the
    page says so, and "I'm back" takes the seat back."""
    seats = [{"kind": "human"}, {"kind": "human"}] + [{"kind": "bot", "level": "heuristic"}] * 2
    body = {"game": "balik-satu", "seats": seats, "timer": 5, "bot_pace": 0}
    made = httpx.post(f"{server}/api/tables", json=body, timeout=30).json()
    page = _page(browser)
    state = _sit(page, f"{server}/seat/{made['seats']['0']}", "Siew")
    assert state["timer"]["seconds"] == 5
    expect(page.locator("#timer")).to_contain_text(" s")
    expect(page.locator("#away")).to_be_visible(timeout=15_000)
    assert 0 in _state(page)["away"]
    expect(page.locator(".seat[data-seat='0'] .badge.grey")).to_contain_text("away")
    page.click("#back-btn")
    expect(page.locator("#away")).to_be_hidden()
    assert 0 not in _state(page)["away"]
    assert not page.errors  # type: ignore[attr-defined]


def test_the_lobby_offers_a_learned_bot_only_at_a_table_size_with_a_model(
    server: str, browser: Browser
) -> None:
    """Balik Satu ships models for some table sizes: at one of them "a learned bot" is
    offered and chosen; at a size without one it is not offered, and a seat that had it
    falls back to the heuristic."""
    sizes = shipped_players("balik-satu")
    with_model, without = sizes[-1], next(n for n in range(3, 9) if n not in sizes)
    page = _page(browser)
    page.goto(server + "/")
    page.wait_for_selector("#game option[value='balik-satu']", state="attached")
    page.select_option("#game", "balik-satu")
    page.fill("#players", str(with_model))
    page.dispatch_event("#players", "change")
    expect(page.locator("#seat-1 option[value='bot:learned']")).to_be_attached()
    page.select_option("#seat-1", "bot:learned")
    page.fill("#players", str(without))
    page.dispatch_event("#players", "change")
    expect(page.locator("#seat-1 option[value='bot:learned']")).to_have_count(0)
    expect(page.locator("#seat-1")).to_have_value("bot:heuristic")
    page.fill("#players", str(with_model))
    page.dispatch_event("#players", "change")
    page.select_option("#seat-1", "bot:learned")
    expect(page.locator("#seat-1")).to_have_value("bot:learned")
    # a game without a model offers none at any size
    page.select_option("#game", "cholek-tiga")
    page.dispatch_event("#players", "change")
    expect(page.locator("#seats option[value='bot:learned']")).to_have_count(0)
    assert not page.errors  # type: ignore[attr-defined]


def test_a_wrong_link_says_so(server: str, browser: Browser) -> None:
    page = _page(browser)
    page.goto(f"{server}/seat/no-such-seat-token-at-all")
    expect(page.locator("#fatal")).to_contain_text("holds no seat")
    page.goto(f"{server}/watch/nosuchtable")
    expect(page.locator("#fatal")).to_contain_text("no such table")
    page.goto(f"{server}/replay/nosuchtable")
    expect(page.locator("#fatal")).to_contain_text("no table")


def test_the_hosts_page_gives_links_again_names_and_replaces_one(
    server: str, browser: Browser, shots: Path
) -> None:
    page = _page(browser)
    seat_url, _ = _create_from_lobby(
        page, server, "ceki", ["human", "human", "bot:heuristic"], hands=2
    )
    host_url = _host_link(page)
    other_url = page.locator("#links .link-row code").nth(2).inner_text()
    assert "/host/" in host_url
    host = _page(browser, PHONE)
    host.goto(host_url)
    rows = host.locator("#seats .host-seat")
    expect(rows).to_have_count(2)  # the two people's seats; the bot has no link
    expect(host.locator("#seats")).to_contain_text("a heuristic bot")
    shown = [rows.nth(i).locator("code").inner_text() for i in range(2)]
    assert shown == [seat_url, other_url]
    host.screenshot(path=str(shots / "web-host-phone.png"), full_page=True)
    _no_sideways_scroll(host)
    # a person at seat 1 is renamed by the host, and replaced: their page says so
    other = _page(browser)
    _sit(other, other_url, "Someone")
    rows.nth(1).locator("input").fill("Auntie Lim")
    rows.nth(1).get_by_role("button", name="Rename").click()
    other.wait_for_function("window.cherki.state().names[1] === 'Auntie Lim'", timeout=15_000)
    host.on("dialog", lambda d: d.accept())
    rows.nth(1).get_by_role("button", name="New link").click()
    expect(other.locator("#fatal")).to_contain_text("the host gave this seat a new link")
    expect(rows.nth(1).locator("code")).not_to_have_text(other_url)
    fresh = rows.nth(1).locator("code").inner_text()
    assert _sit(other, fresh, "Auntie Lim")["seat"] == 1
    other.goto(other_url)
    expect(other.locator("#fatal")).to_contain_text("holds no seat")
    host.goto(f"{server}/host/not-a-host-link-at-all")
    expect(host.locator("#fatal")).to_contain_text("not a host link")
    assert not host.errors and not page.errors  # type: ignore[attr-defined]
