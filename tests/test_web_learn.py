"""The learn pages end to end in Debian's Chromium (issue 37): a fresh browser profile at
phone size goes from the lobby's "How to play" to ``/learn/balik-satu`` and completes every
Balik Satu lesson by clicking the table's own controls, a wrong answer first (explained),
then the right one (explained, the source quoted); the progress is remembered; one lesson of
every other game with a course; the pages in Malay and Indonesian with no English left; a
table links to its game's course; no page errors. ``CHERKI_WEB_SHOTS=docs/img`` keeps the
screenshots (web-learn-*.png)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect
from test_web_e2e import DESKTOP, PHONE, _create_from_lobby, _page, _sit, server, shots

from cherki.core.contract import Game
from cherki.core.lessons import Lesson
from cherki.games import GAMES
from cherki.i18n import words

__all__ = ["server", "shots"]  # the fixtures, shared with the other browser tests

BALIK = GAMES["balik-satu"]


def _click(page: Page, game: Game, lesson: Lesson, answer: str) -> None:
    """Answer with the table's own controls: a button, or a card of the hand then its
    button (a discard, a discard and call)."""
    page.locator("#actions").wait_for()  # the lesson is drawn
    action = game.parse_action(answer)
    button = page.locator(f"#actions button[data-action='{action}']")
    if not button.count():  # a card's action: pick the card first
        code = answer.split()[1].upper()
        page.locator(f"#hand button[data-code='{code}']").first.click()
    button.click()


def _legal_wrong(game: Game, lesson: Lesson) -> tuple[str, str] | None:
    """The lesson's first wrong answer the table's controls offer (a legal one)."""
    from cherki.play.lessons import position

    legal = position(game, lesson).legal_actions(lesson.seat)
    for w in lesson.wrong:
        if game.parse_action(w.action) in legal:
            return w.action, w.why
    return None


def _lesson(page: Page, game: Game, lesson: Lesson, lang: str = "en") -> None:
    """Answer one lesson wrong (where a wrong answer is offered), then right."""
    w = words(lang)
    expect(page.locator("#lesson-title")).to_have_text(w.t(lesson.key("title")))
    wrong = _legal_wrong(game, lesson)
    if wrong is not None:
        _click(page, game, lesson, wrong[0])
        expect(page.locator("#feedback.wrong .why")).to_have_text(w.t(wrong[1]))
        expect(page.locator("#feedback.wrong .verdict")).to_have_text(w.t("learn.ui.wrong"))
    _click(page, game, lesson, lesson.right[0])
    expect(page.locator("#feedback.right .why")).to_have_text(w.t(lesson.key("explain")))
    first = lesson.teaches[0]
    expect(page.locator("#feedback.right blockquote").first).to_have_text(
        w.t(f"learn.statement.{first}")
    )


def _no_english(page: Page, lang: str) -> None:
    """No sentence of the English catalogue that the language words otherwise is on the page."""
    text = " ".join(page.evaluate("document.body.innerText").split())
    en, other = words("en"), words(lang)
    left = [
        v
        for k, v in en.catalogue.items()
        if other.t(k) != v
        and "{" not in v
        and len(re.findall(r"[A-Za-z]{4,}", v)) >= 2
        and v in text
    ]
    assert left == [], left


def test_a_phone_learns_balik_satu_from_the_lobby(
    browser: Browser, server: str, shots: Path
) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-GB")  # a fresh profile
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.click("#learn-link")
    expect(page).to_have_url(server + "/learn")
    page.click("#game-list a[href='/learn/balik-satu']")
    expect(page.locator("#course-title")).to_have_text("Balik Satu")
    lessons = BALIK.lessons().lessons
    for n, lesson in enumerate(lessons):
        expect(page.locator("#lesson-n")).to_have_text(
            words("en").t("learn.ui.lesson_n", n=n + 1, total=len(lessons))
        )
        if lesson.id == "balik.call-ceki":  # the lesson as a phone first shows it
            page.locator("#hand button[data-code='WF']").click()
            page.screenshot(path=str(shots / "web-learn-lesson-phone.png"))
        _lesson(page, BALIK, lesson)
        if lesson.id == "balik.ayam":
            expect(page.locator("#feedback .result-body")).to_contain_text("ayam")
        if n + 1 < len(lessons):
            page.click("#next-lesson")
    expect(page.locator("#course-done")).to_have_text(words("en").t("learn.ui.done"))
    wide = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert wide <= 0, wide
    # the progress is remembered in this browser: every lesson ticked after a reload
    page.goto(server + "/learn/balik-satu")
    expect(page.locator("#lesson-list li.done")).to_have_count(len(lessons))
    assert errors == []
    context.close()


def test_one_lesson_of_every_other_game(browser: Browser, server: str, shots: Path) -> None:
    page = _page(browser, DESKTOP)
    others = [g for g in GAMES.values() if g.lessons().lessons and g is not BALIK]
    assert len(others) >= 2  # Balik Lima Belas and the fixture's ninth game at least
    for game in others:
        lesson = game.lessons().lessons[-1]
        page.goto(f"{server}/learn/{game.name}?lesson={lesson.id}")
        _lesson(page, game, lesson)
    page.goto(f"{server}/learn/balik-satu?lesson=balik.ayam")
    _click(page, BALIK, BALIK.lessons().lesson("balik.ayam"), "pass")  # type: ignore[arg-type]
    expect(page.locator("#feedback.wrong")).to_be_visible()
    page.screenshot(path=str(shots / "web-learn-lesson.png"), full_page=True)
    assert not page.errors  # type: ignore[attr-defined]
    page.close()


def test_the_course_in_malay_and_indonesian(browser: Browser, server: str) -> None:
    for lang in ("ms", "id"):
        page = _page(browser, PHONE)
        page.goto(server + "/learn")
        page.evaluate(f"localStorage.setItem('cherki:lang', '{lang}')")
        page.reload()
        expect(page.locator("#game-list a").first).to_be_visible()
        _no_english(page, lang)
        for lesson in BALIK.lessons().lessons[:8]:
            page.goto(f"{server}/learn/balik-satu?lesson={lesson.id}")
            _lesson(page, BALIK, lesson, lang)
            _no_english(page, lang)
        assert not page.errors  # type: ignore[attr-defined]
        page.close()


def test_a_table_links_to_its_game_s_course(browser: Browser, server: str) -> None:
    page = _page(browser)
    seat, _ = _create_from_lobby(page, server, "balik-satu", ["human", "bot:heuristic"])
    _sit(page, seat, "Mei")
    expect(page.locator("#learn-link")).to_have_attribute("href", "/learn/balik-satu")
    assert not page.errors  # type: ignore[attr-defined]
    page.close()


def test_practice_starts_a_table_against_bots_with_hints_for_nothing(
    browser: Browser, server: str
) -> None:
    page = _page(browser)
    page.goto(server + "/learn/balik-satu")
    page.click("#practice")
    page.wait_for_url(re.compile(r"/seat/"))
    page.fill("#name", "Mei")
    page.click("#name-form button[type=submit]")
    page.wait_for_function("window.cherki && window.cherki.state() !== null")
    st = page.evaluate("window.cherki.state()")
    assert st["settings"]["hints"] is True
    expect(page.locator("#hint-btn")).to_be_enabled()
    assert not page.errors  # type: ignore[attr-defined]
    page.close()
