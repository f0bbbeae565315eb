"""The table's chat in the browser, end to end (a real server, Debian's Chromium): a line
typed by one person reaches the other's page as text (an XSS attempt stays words), an
emote shows on its seat and in the chat, a person mutes another seat (remembered over a
reload, which neither loses nor repeats a line), and a spectator reads the chat only once
the host allows it."""

from __future__ import annotations

from pathlib import Path

import httpx
from playwright.sync_api import Browser, expect
from test_web_e2e import PHONE, _page, _sit, server, shots

__all__ = ["server", "shots"]  # the fixtures, shared with the other browser tests

XSS = 'Hi Ben <img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'


def test_chat_emotes_mute_and_spectators(server: str, browser: Browser, shots: Path) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "heuristic"}, {"kind": "human"}]
    made = httpx.post(f"{server}/api/tables", json={"game": "ceki", "seats": seats, "hands": 3})
    assert made.status_code == 200, made.text
    links, host, table = made.json()["links"], made.json()["host"], made.json()["table"]
    ann, ben = _page(browser), _page(browser, PHONE)
    _sit(ann, server + links["0"], "Ann")
    _sit(ben, server + links["2"], "Ben")

    # a line typed by one person reaches the other's page, as text
    ann.fill("#chat-input", XSS)
    ann.press("#chat-input", "Enter")
    line = ben.locator("#log li.chat").filter(has_text="Hi Ben")
    expect(line).to_have_count(1)
    expect(line.locator(".chat-words")).to_have_text(XSS)
    expect(line.locator(".chat-who")).to_have_text("Ann")
    assert ben.locator("#log img[src='x'], #log script").count() == 0
    assert ben.evaluate("window.pwned") is None and ann.evaluate("window.pwned") is None
    expect(ann.locator("#chat-input")).to_have_value("")
    expect(ann.locator("#log li.chat.mine")).to_have_count(1)

    # an emote: one tap, shown on the sender's seat and in the chat
    ben.get_by_role("button", name="React 😄").click()
    expect(ann.locator('#seats .seat[data-seat="2"] .emote-bubble')).to_have_text("😄")
    expect(ann.locator("#log li.chat.emote")).to_contain_text("Ben reacts 😄")
    ben.fill("#chat-input", "Good luck, Auntie!")
    ben.press("#chat-input", "Enter")
    expect(ann.locator("#log li.chat")).to_have_count(3)
    ann.screenshot(path=str(shots / "web-chat.png"))
    ben.screenshot(path=str(shots / "web-chat-phone.png"), full_page=True)

    # Ann mutes Ben: his lines and emotes are hidden on her page, and stay so after a reload
    ann.locator('#seats .seat[data-seat="2"] .btn.mute').click()
    expect(ann.locator('#log li.chat[data-seat="2"]')).to_have_count(0)
    expect(ann.locator('#seats .seat[data-seat="2"] .btn.mute')).to_have_text("🔇 Muted")
    ben.fill("#chat-input", "Ann, can you hear me?")
    ben.press("#chat-input", "Enter")
    expect(ben.locator("#log li.chat")).to_have_count(4)
    ann.reload()
    ann.wait_for_function("window.cherki && window.cherki.state() !== null")
    expect(ann.locator("#log li.chat")).to_have_count(1)  # her own line, once
    expect(ann.locator('#log li.chat[data-seat="2"]')).to_have_count(0)
    ann.locator('#seats .seat[data-seat="2"] .btn.mute').click()  # unmute
    expect(ann.locator("#log li.chat")).to_have_count(4)  # each line once, in order
    texts = ann.locator("#log li.chat").all_inner_texts()
    assert texts[0].startswith("Ann (you)")
    assert "Ann, can you hear me?" in texts[-1]
    # Ben's page does not offer to mute himself; Ann's seat has the button on his
    expect(ben.locator('#seats .seat[data-seat="2"] .btn.mute')).to_have_count(0)
    expect(ben.locator('#seats .seat[data-seat="1"] .btn.mute')).to_have_count(0)  # a bot

    # a spectator reads nothing until the host allows it, and never writes
    watch = _page(browser)
    watch.goto(f"{server}/watch/{table}")
    watch.wait_for_function("window.cherki && window.cherki.state() !== null")
    expect(watch.locator("#chat")).to_be_hidden()
    assert watch.locator("#log li.chat").count() == 0
    hostpage = _page(browser)
    hostpage.goto(f"{server}/host/{host}")
    box = hostpage.locator("#chat-spectators")
    expect(box).not_to_be_checked()
    box.check()
    expect(watch.locator("#log li.chat")).to_have_count(4)
    expect(watch.locator("#chat")).to_contain_text("you can read the players' chat")
    assert watch.locator("#chat-input").count() == 0
    hostpage.reload()
    expect(hostpage.locator("#chat-spectators")).to_be_checked()
    hostpage.locator("#chat-spectators").uncheck()
    expect(watch.locator("#log li.chat")).to_have_count(0)
    for page in (ann, ben, watch, hostpage):
        assert not page.errors, page.errors  # type: ignore[attr-defined]
