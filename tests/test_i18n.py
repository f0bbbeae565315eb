"""The languages (issue 24): one catalogue per language with the same keys and the same
placeholders, every key the sources use present, the server's words in Malay and
Indonesian (no English left in them), each connection's view in its own language, and
the terminal's ``--lang``, remembered."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cherki.core.cards import parse_card
from cherki.core.events import Event, EventKind
from cherki.games import GAMES
from cherki.i18n import ENV as ENV_NAME
from cherki.i18n import LANGUAGES, catalogue_path, for_pages, normalise, placeholders, words
from cherki.server import present
from cherki.server.app import create_app
from cherki.server.store import Store
from cherki.ui import text
from cherki.ui.text import Voice, event_line

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "cherki"
STATIC = SRC / "server" / "static"


def _catalogue(lang: str) -> dict[str, str]:
    """A language's catalogue as a reader gets it: cherki's file and the words of the games
    listed from outside cherki (the tests list Pairs, ``tests/fixtures/pairs``)."""
    data = json.loads(catalogue_path(lang).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    added = dict(words(lang).catalogue)
    assert {k: v for k, v in added.items() if k in data} == data  # the file, all of it
    return added


def test_every_language_has_every_key_with_the_same_placeholders() -> None:
    en = _catalogue("en")
    for lang in LANGUAGES:
        other = _catalogue(lang)
        assert set(other) == set(en), (lang, set(en) ^ set(other))
        for key, value in other.items():
            assert isinstance(value, str) and value.strip(), (lang, key)
            assert placeholders(value) == placeholders(en[key]), (lang, key, value)
            value.format(**{p: "x" for p in placeholders(value)})  # well formed


def test_malay_and_indonesian_are_written_not_copied() -> None:
    """Most texts differ from the English (the games' own terms and card codes aside),
    and Malay and Indonesian are not one language: kad/kartu, anda/Anda."""
    en, ms, id_ = _catalogue("en"), _catalogue("ms"), _catalogue("id")
    same = [k for k in en if ms[k] == en[k] and re.search(r"[a-z]{4,}", en[k])]
    assert len(same) < len(en) // 10, same
    assert ms["log.a_card"] != id_["log.a_card"] and "kad" in ms["log.a_card"]
    assert "kartu" in id_["log.a_card"]
    assert ms["status.your_turn"].startswith("Giliran anda")
    assert id_["status.your_turn"].startswith("Giliran Anda")


# -- every key the sources use is in the catalogues ----------------------------------------
_PY_KEY = re.compile(r"""\b(?:t|say|count|has)\(\s*f?"([a-z_][\w.\-]*)["{]""")
_JS_KEY = re.compile(r"""\b(tr|t|tn)\(\s*["'`]([a-z_][\w.\-]*)["'`$]""")
_HTML_KEY = re.compile(r"""data-t(?:-[\w-]+)?="([^"]+)\"""")


def _need(found: set[str], key: str, kind: str) -> None:
    if kind in ("count", "tn"):
        found |= {f"{key}.one", f"{key}.other"}
    elif kind == "say":
        found |= {key, f"{key}.you"}
    else:
        found.add(key)


def _used_keys() -> tuple[set[str], set[str]]:
    """The keys the sources name in full, and the prefixes of those they build."""
    full: set[str] = set()
    prefixes: set[str] = set()
    for path in SRC.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        pattern = (
            r"""\b(t|say|count|has|Refused|\w+Error|Phrase\.of)\(\s*(f?)"([a-z_][\w.\-]*)(["{])"""
        )
        for m in re.finditer(pattern, source):
            kind, is_f, key, end = m.groups()
            if is_f and end == "{":
                prefixes.add(key)
            elif kind != "has":
                _need(full, key, kind)
    for path in STATIC.glob("*.js"):
        source = path.read_text(encoding="utf-8")
        for m in _JS_KEY.finditer(source):
            kind, key = m.groups()
            end = source[m.end() - 1]
            if end in "`$" and source[m.end() - 1 : m.end() + 1] == "${":
                prefixes.add(key)
            else:
                _need(full, key, kind)
    for path in STATIC.glob("*.html"):
        full |= set(_HTML_KEY.findall(path.read_text(encoding="utf-8")))
    return full, prefixes


def test_every_key_the_sources_use_is_in_the_catalogues() -> None:
    en = _catalogue("en")
    full, prefixes = _used_keys()
    assert len(full) > 300  # the scan finds the keys (a broken pattern finds none)
    assert not full - set(en), sorted(full - set(en))
    for prefix in prefixes:  # a key built at run time: some key has the prefix
        assert any(k.startswith(prefix) for k in en), prefix


def test_the_keys_built_at_run_time_are_there() -> None:
    en = _catalogue("en")
    for kind in text._ITEM_PARAMS:
        assert f"item.{kind}" in en, kind
    for phase in (*present._PHASES, "other"):
        assert f"status.yours.{phase}" in en and f"status.theirs.{phase}" in en
    for verb in ("won", "lead", "leads"):
        assert f"sheet.match_{verb}" in en
    for what in ("stock", "pile"):
        assert f"page.table.{what}" in en and f"page.table.cards_in_{what}" in en
        assert f"status.yours.draw_only_{what}" in en
    for what in ("red_one", "red_pair", "red_three", "red_four", "three", "four"):
        assert f"item.captured.{what}" in en
    for level in ("random", "heuristic", "variant", "search"):
        assert f"page.lobby.bot.{level}" in en


def test_the_names_cherki_gives_are_in_the_readers_language() -> None:
    names = ["Seat 0", "Bot 1 (heuristic)", "Bot 2 (search)", "Seat Ann"]
    assert Voice.of(names, 4, None, "ms").names == (
        "Pemain 0", "Bot 1 (heuristik)", "Bot 2 (carian)", "Seat Ann"
    )  # fmt: skip
    assert Voice.of(names, 4, None, "id").names[2] == "Bot 2 (pencarian)"
    assert Voice.of(names, 4, None, "en").names == tuple(names)


def test_only_the_languages_spoken_are_chosen() -> None:
    assert normalise("ms-MY") == "ms" and normalise("in") == "id" and normalise("id_ID") == "id"
    assert normalise("EN-gb") == "en"
    assert normalise("fr") is None and normalise("") is None and normalise(None) is None
    assert words("fr").lang == "en" and words("../en").lang == "en"


# -- the server's words in Malay and Indonesian --------------------------------------------
@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_draw_with_no_discard_to_take_is_not_offered_one_in_words(name: str) -> None:
    """The status line of a seat to draw offers "take the discard" only when one of its
    legal actions takes it (Ceki's first draws come before any discard)."""
    import random

    game = GAMES[name]
    rng = random.Random(3)
    seen: set[bool] = set()
    for seed in range(6):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            seat = state.current
            obs = state.observation(seat)
            if obs.phase == "draw":
                can_take = any(game.action_text(a).startswith("take") for a in obs.legal)
                line = present.status_line(obs, game, _voice("en"), seat)
                assert line.startswith("Your turn"), line
                assert ("take" in line) == can_take, (line, can_take)
                assert f"draw from the {game.stock_word}" in line or "draw" not in line, line
                seen.add(can_take)
            state.apply(rng.choice(state.legal_actions()))
    if name == "ceki":
        assert seen == {True, False}  # both cases met


def _voice(lang: str) -> Voice:
    return Voice.of(["Ann", "Budi", "Chen", "Dewi"], 4, 0, lang)


def test_the_log_in_malay_and_indonesian() -> None:
    game = GAMES["balik-satu"]
    ceki = GAMES["ceki"]
    s7, ot = parse_card("S7"), parse_card("OT")
    cases: list[tuple[Event, Any, str, str, str]] = [
        (Event(EventKind.DRAW, 0, s7), game,
         "You draw S7 from the stock", "Anda mencabut S7 dari stok", "Anda menarik S7 dari stok"),
        (Event(EventKind.DRAW, 1, None), game,
         "Budi draws a card from the stock", "Budi mencabut sekeping kad dari stok",
         "Budi menarik sebuah kartu dari stok"),
        (Event(EventKind.DISCARD, 2, ot), game,
         "Chen discards OT", "Chen membuang OT", "Chen membuang OT"),
        (Event(EventKind.TAKE, 0, s7), game, "You take the discard S7",
         "Anda mengambil kad buangan S7", "Anda mengambil kartu buangan S7"),
        (Event(EventKind.CALL, 3, None, call="tan"), game,
         "Dewi calls tan!", "Dewi memanggil tan!", "Dewi memanggil tan!"),
        (Event(EventKind.SAMPEI, 0, s7), game,
         "You: sampei! (S7)", "Anda: sampei! (S7)", "Anda: sampei! (S7)"),
        (Event(EventKind.DRAW, 1, s7), ceki,
         "Budi draws S7 from the pile", "Budi mencabut S7 dari longgokan",
         "Budi menarik S7 dari tumpukan"),
        (Event(EventKind.END), game, "The hand is over.", "Pusingan ini tamat.",
         "Ronde ini selesai."),
    ]  # fmt: skip
    for event, g, en, ms, id_ in cases:
        assert event_line(event, g, _voice("en")) == en
        assert event_line(event, g, _voice("ms")) == ms
        assert event_line(event, g, _voice("id")) == id_


_ENGLISH = re.compile(r"\b(the|you|your|draws?|discards?|takes?|cards?|from|with|and|pays?)\b")


def _english_in(line: str) -> list[str]:
    return _ENGLISH.findall(line)


@pytest.mark.parametrize("lang", ["ms", "id"])
def test_whole_hands_are_told_without_english(lang: str) -> None:
    """Every line of a few whole hands of each game (the log, the status line, the result,
    its items and the score sheet) holds no common English word."""
    from cherki.bots import make_bot
    from cherki.play.session import Seat, Session

    for name in ("balik-satu", "ceki", "cholek-tiga", "chot"):
        game = GAMES[name]
        n = game.default_players
        seats = [Seat(f"P{i}", make_bot(name, "heuristic")) for i in range(n)]
        session = Session(game, game.rules(None), seats, 5, hands=2)
        for _ in session.run(lambda state, seat: 0):
            state = session.state
            if state is not None:
                view = present.seat_view(session, 0, lang=lang)
                lines = [*view["log"], view["status"]]
                for a in view["actions"]:
                    lines.append(a["label"])
        view = present.seat_view(session, 0, lang=lang)
        result, sheet = view["result"], view["sheet"]
        assert result is not None and sheet is not None
        lines += [result["summary"], *(i["label"] for i in result["items"]), *sheet["lines"]]
        lines += [r["how"] for r in sheet["rows"]]
        assert lines
        for line in lines:
            assert not _english_in(line), (name, lang, line)


# -- the server: each connection reads its own language ----------------------------------
def test_the_words_are_served_and_each_connection_reads_its_language(store: Store) -> None:
    with TestClient(create_app(store, rate=1000)) as client:
        assert client.get("/api/words").json() == LANGUAGES
        ms = client.get("/api/words/ms")
        # the courses' prose aside: the learn pages' API sends it in the reader's language
        sent = {k: v for k, v in _catalogue("ms").items() if for_pages(k)}
        assert ms.status_code == 200 and ms.json() == sent
        assert "learn.ui.right" in sent and "learn.balik.yeo.explain" not in sent
        assert "max-age" in ms.headers["cache-control"]
        bad = client.get("/api/words/xx")
        assert bad.status_code == 404 and "en, ms, id" in bad.json()["detail"]
        seats = [{"kind": "human"}, {"kind": "human"}]
        # hints on: a table that plays for money has them off unless its host says
        body = {"game": "balik-satu", "seats": seats, "hints": True}
        made = client.post("/api/tables", json=body).json()
        token = made["seats"]["0"]
        with (
            client.websocket_connect(f"/ws/seat/{token}?lang=ms") as malay,
            client.websocket_connect(f"/ws/seat/{token}?lang=id") as indonesian,
            client.websocket_connect(f"/ws/seat/{token}?lang=klingon") as other,
            client.websocket_connect(f"/ws/watch/{made['table']}?lang=id") as watcher,
        ):
            first = [ws.receive_json() for ws in (malay, indonesian, other, watcher)]
            assert first[0]["ui"]["log"][0].startswith("Anda bermula")
            assert first[1]["ui"]["log"][0].startswith("Anda mulai")
            assert first[2]["ui"]["log"][0].startswith("You start")
            assert first[3]["ui"]["log"][0].startswith("Pemain 1 mulai")  # a spectator
            # the names cherki gave, in each reader's language (the seats' boxes, the chat)
            assert first[1]["names"] == first[3]["names"] == ["Pemain 1", "Pemain 2"]
            assert first[2]["names"] == ["Seat 1", "Seat 2"]
            assert first[0]["ui"]["status"].startswith("Giliran anda")
            labels = {a["label"] for a in first[1]["ui"]["actions"]}
            assert any(x.startswith("Buang ") for x in labels), labels
            # an action: every connection is told, each in its language
            act = next(a for a in first[0]["ui"]["actions"] if a["kind"] == "discard")
            malay.send_json({"type": "act", "action": act["id"], "version": first[0]["version"]})
            told = [ws.receive_json() for ws in (malay, indonesian, other, watcher)]
            assert told[0]["ui"]["log"][-1] == f"Anda membuang {act['card']}"
            assert told[1]["ui"]["log"][-1] == f"Anda membuang {act['card']}"
            assert told[2]["ui"]["log"][-1] == f"You discard {act['card']}"
            assert (
                told[3]["ui"]["status"] == "Pemain 2 sedang menarik atau mengambil kartu buangan…"
            )
            assert told[2]["ui"]["status"] == "Seat 2 is drawing or taking the discard…"
            # a refusal in the person's language (a spectator; a seat out of turn)
            watcher.send_json({"type": "act", "action": act["id"], "version": 1})
            assert watcher.receive_json()["message"] == "penonton tidak bisa bermain"
            malay.send_json({"type": "act", "action": act["id"], "version": told[0]["version"]})
            while (msg := malay.receive_json())["type"] != "error":
                pass
            assert msg["message"] == "belum giliran anda"
            # what a returning person missed, in their language
            with client.websocket_connect(f"/ws/seat/{token}?lang=ms&since=0") as back:
                missed = back.receive_json()["missed"]
            assert missed == ["Pusingan 1:", f"Anda membuang {act['card']}"], missed
            indonesian.send_json({"type": "hint"})
            while (msg := indonesian.receive_json())["type"] not in ("hint", "error"):
                pass
            assert msg["type"] == "hint", msg
            assert msg["lines"] and not any(_english_in(x) for x in msg["lines"]), msg


# -- the terminal ------------------------------------------------------------------------------
def _play(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cherki", "play", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        input="",
    )


def test_the_terminal_speaks_the_language_chosen_and_remembers_it(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "LANG": "C.UTF-8",
        "COLUMNS": "120",
    }
    env.pop(ENV_NAME, None)
    watch = ("balik-satu", "--watch", "--seed", "7", "--delay", "0")
    run = _play(*watch, "--lang", "ms", env=env)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "pemain, peraturan:" in out and "Bayaran" in out and "Markah" in out
    assert "membuang" in out and "discards" not in out and "Payments" not in out
    assert "pusingan 1" in out
    # remembered for the next game, in the user's config folder
    assert (tmp_path / "config" / "cherki" / "language").read_text().strip() == "ms"
    again = _play(*watch, env=env)
    assert "membuang" in again.stdout
    # $CHERKI_LANG over the one remembered; --lang over both
    indonesian = _play(*watch, env={**env, ENV_NAME: "id"})
    assert "kartu" in indonesian.stdout and "Pembayaran" in indonesian.stdout
    english = _play(*watch, "--lang", "en", env={**env, ENV_NAME: "id"})
    assert "discards" in english.stdout and "Payments" in english.stdout
    bad = _play(*watch, "--lang", "fr", env=env)
    assert bad.returncode != 0 and "--lang must be en, ms or id" in bad.stderr + bad.stdout
    assert "Traceback" not in bad.stderr


def test_a_replay_is_worded_in_the_language_asked(store: Store) -> None:
    from cherki.bots import make_bot
    from cherki.play.session import Seat, Session

    game = GAMES["balik-satu"]
    seats = [Seat(f"P{i}", make_bot(game.name, "random")) for i in range(4)]
    session = Session(game, game.rules(None), seats, 3, hands=1)
    for _ in session.run(lambda state, seat: 0):
        pass
    text = session.record().dumps()
    with TestClient(create_app(store, rate=1000)) as client:
        frames = {}
        for lang in ("en", "id", "xx"):
            r = client.post(f"/api/replay?lang={lang}", content=text)
            assert r.status_code == 200, r.text
            frames[lang] = r.json()["frames"]
    assert frames["en"][0]["action"] == "Hand 1 dealt"
    assert frames["id"][0]["action"] == "Ronde 1 dibagikan"
    assert frames["xx"] == frames["en"]  # a language cherki does not speak: English
    assert frames["id"][1]["log"][0].startswith("P0 membuang")
    assert frames["id"][-1]["result"]["summary"] != frames["en"][-1]["result"]["summary"]


# -- the games' presets and rule options (the lobby, the terminal's first line) ------------------
def test_every_games_presets_and_options_have_their_words() -> None:
    """Every registered game's every preset and option has a title and a description in
    every language, found by the keys the lobby and the terminal build
    (:func:`cherki.i18n.option_key`), and the English of each key is the declaration's own
    (a declaration changed without its catalogue entry fails here)."""
    from cherki.i18n import choice_key, option_key, preset_key

    cats = {lang: _catalogue(lang) for lang in LANGUAGES}
    seen = 0
    for game in GAMES.values():
        for p in game.presets:
            for field, english in (("title", p.title), ("about", p.description)):
                key = preset_key(game.name, p.name, field)
                assert all(key in c for c in cats.values()), key
                assert cats["en"][key] == english, (key, english)
                seen += 1
        for o in game.options:
            for field, english in (("title", o.title), ("about", o.help)):
                key = option_key(game.name, o.name, field)
                assert all(key in c for c in cats.values()), key
                assert cats["en"][key] == english, (game.name, key, english)
                seen += 1
            for c in o.choices:
                key = choice_key(o.name, c)
                assert all(key in c_ for c_ in cats.values()), key
                seen += 1
    assert seen > 200
    # no key of these kinds that no game uses (a preset or option renamed, its words left)
    used = {
        k
        for g in GAMES.values()
        for k in (
            *(preset_key(g.name, p.name, f) for p in g.presets for f in ("title", "about")),
            *(option_key(g.name, o.name, f) for o in g.options for f in ("title", "about")),
            *(choice_key(o.name, c) for o in g.options for c in o.choices),
        )
    }
    stale = {k for k in cats["en"] if k.startswith(("preset.", "option.", "choice."))} - used
    assert not stale, sorted(stale)


_LOBBY_ENGLISH = re.compile(r"\b(the|a|an|is|when|who|each|with|points?|cards?|hands?|of)\b")


@pytest.mark.parametrize("lang", ["ms", "id"])
def test_the_lobby_offers_presets_and_options_in_the_readers_language(
    store: Store, lang: str
) -> None:
    with TestClient(create_app(store, rate=1000)) as client:
        english = {g["name"]: g for g in client.get("/api/games").json()}
        there = {g["name"]: g for g in client.get(f"/api/games?lang={lang}").json()}
        assert client.get("/api/games?lang=xx").json() == list(english.values())
    texts = 0
    differ = 0
    for name, g in there.items():
        e = english[name]
        assert g["title"] == e["title"]  # the games' names stay
        for mine, theirs in (
            *zip(g["presets"], e["presets"], strict=True),
            *zip(g["options"], e["options"], strict=True),
        ):
            assert mine["name"] == theirs["name"]  # identifiers stay
            assert mine.get("choices") == theirs.get("choices")
            labels = mine.get("labels", [])
            assert len(labels) == len(mine.get("choices", []))
            for label in labels:
                assert not _LOBBY_ENGLISH.search(label), (name, label)
            for field in ("title", "summary"):
                texts += 1
                differ += mine[field] != theirs[field]
                # the choices' identifiers, "(each)", and the source's words quoted stay
                words_ = re.sub(r"\([a-z0-9-]+\)|'[^']*'", "", mine[field])
                assert not _LOBBY_ENGLISH.search(words_), (name, mine[field])
    assert differ > texts * 0.9, (differ, texts)
    satu = there["balik-satu"]
    word = {"ms": "markah", "id": "poin"}[lang]
    assert word in satu["presets"][0]["summary"]


# -- refusals at the table: the chat's limits, why a connection is closed -------------------------
@pytest.mark.parametrize(
    ("lang", "empty", "emote", "spectator", "full"),
    [
        ("ms", "tulis sesuatu: mesej itu kosong", "reaksi mestilah salah satu daripada",
         "penonton tidak boleh menulis dalam sembang", "sembang meja ini sudah penuh (1 baris)"),
        ("id", "tulis sesuatu: pesannya kosong", "reaksi harus salah satu dari",
         "penonton tidak bisa menulis di obrolan", "obrolan meja ini sudah penuh (1 baris)"),
        ("en", "say something: the message is empty", "an emote is one of",
         "spectators cannot write in the chat", "this table's chat is full (1 lines)"),
    ],
)  # fmt: skip
def test_the_chats_refusals_are_in_the_readers_language(
    store: Store, lang: str, empty: str, emote: str, spectator: str, full: str
) -> None:
    from cherki.server.limits import Limits

    def refused(ws: Any) -> str:
        while (msg := ws.receive_json())["type"] != "error":
            pass
        text: str = msg["message"]
        return text

    app = create_app(store, rate=1000, limits=Limits(chat_chars=10, chat_lines=1))
    with TestClient(app) as client:
        seats = [{"kind": "human"}, {"kind": "human"}]
        made = client.post("/api/tables", json={"game": "balik-satu", "seats": seats}).json()
        token = made["seats"]["0"]
        with (
            client.websocket_connect(f"/ws/seat/{token}?lang={lang}") as ws,
            client.websocket_connect(f"/ws/watch/{made['table']}?lang={lang}") as watcher,
        ):
            ws.send_json({"type": "chat", "text": "  "})
            assert refused(ws) == empty
            ws.send_json({"type": "emote", "emote": "💩"})
            assert refused(ws).startswith(emote)
            ws.send_json({"type": "chat", "text": "x" * 11})
            too_long = refused(ws)
            assert "10" in too_long and too_long.endswith(("bukan 11", "not 11")), too_long
            ws.send_json({"type": "chat", "text": "a\tb"})
            assert refused(ws).endswith("(U+0009)")
            watcher.send_json({"type": "chat", "text": "hello"})
            assert refused(watcher) == spectator
            ws.send_json({"type": "chat", "text": "hi"})
            while ws.receive_json()["type"] != "chat":
                pass
            ws.send_json({"type": "chat", "text": "again"})
            assert refused(ws) == full


def test_why_a_connection_is_closed_is_said_in_the_readers_language() -> None:
    from cherki.server.words import Refused, refusal, said

    assert refusal("this table has 40 connections already: try again later", "ms") == (
        "meja ini sudah mempunyai 40 sambungan: cuba lagi nanti"
    )
    assert refusal("3 connections from your address already: close some", "id") == (
        "sudah ada 3 koneksi dari alamat Anda: tutup sebagian"
    )
    assert refusal("the host gave this seat a new link: ask them for it", "id").startswith(
        "tuan rumah memberi kursi ini tautan baru"
    )
    assert refusal("you fell too far behind the table: connect again", "ms").startswith(
        "anda sudah ketinggalan"
    )
    assert refusal("this server is full: try again later", "en") == (
        "this server is full: try again later"
    )
    # a rules core's explanation has no key: it stays as it is
    assert refusal("the winning card must come from the stock", "ms") == (
        "the winning card must come from the stock"
    )
    err = Refused("error.chat.too_many", n=5, s="10")
    assert str(err) == "too many chat messages: at most 5 every 10 seconds"
    assert said(err, "id") == "terlalu banyak pesan obrolan: paling banyak 5 setiap 10 detik"
    # every pattern's key is in the catalogues, its groups its placeholders
    from cherki.server.words import _REFUSALS

    en = _catalogue("en")
    for pattern, key, names in _REFUSALS:
        assert key in en and placeholders(en[key]) == set(names), key
        assert pattern.groups == len(names), key


# -- the terminal's record saver -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "cannot", "again"),
    [("ms", "Rekod tidak dapat ditulis", "Rekod ditulis semula"),
     ("id", "Rekaman tidak dapat ditulis", "Rekaman kembali ditulis")],
)  # fmt: skip
def test_the_record_saver_speaks_the_readers_language(
    tmp_path: Path, lang: str, cannot: str, again: str
) -> None:
    from cherki.bots import make_bot
    from cherki.play.session import Seat, Session
    from cherki.ui.table import RecordSaver
    from cherki.ui.terminal import console

    game = GAMES["balik-satu"]
    seats = [Seat(f"P{i}", make_bot(game.name, "random")) for i in range(4)]
    session = Session(game, game.rules(None), seats, 3, hands=1)
    for _ in session.run(lambda state, seat: 0):
        pass
    blocked = tmp_path / "blocked"
    blocked.mkdir()
    saver = RecordSaver(blocked / "no" / "game.json", lang)  # a folder that is not there
    with console.capture() as capture:
        saver(session.record())
        saver.path = tmp_path / "game.json"
        saver(session.record())
    out = capture.get()
    assert cannot in out and again in out, out
    assert not _english_in(out.replace(str(tmp_path), "")), out


# -- another match, the next hand, a stand-in's words (the lifecycle) ------------------------
@pytest.mark.parametrize(
    ("lang", "yours", "theirs"),
    [
        ("en", "Your stand-in bot discards OT", "Budi's stand-in bot discards OT"),
        ("ms", "Bot pengganti anda membuang OT", "Bot pengganti Budi membuang OT"),
        ("id", "Bot pengganti Anda membuang OT", "Bot pengganti Budi membuang OT"),
    ],
)
def test_a_stand_ins_actions_are_worded_as_the_bots_in_each_language(
    lang: str, yours: str, theirs: str
) -> None:
    from cherki.server.views import stand_in_voice
    from cherki.server.words import Refused, said

    game, ot = GAMES["balik-satu"], parse_card("OT")
    voice = _voice(lang)
    assert event_line(Event(EventKind.DISCARD, 0, ot), game, stand_in_voice(voice, 0)) == yours
    assert event_line(Event(EventKind.DISCARD, 1, ot), game, stand_in_voice(voice, 1)) == theirs
    if lang != "en":  # the refusals a person meets at a table, in their language
        for key in ("error.hints_off", "error.not_over"):
            assert not _english_in(said(Refused(key), lang)), key


def test_the_next_hand_and_another_match_are_worded_in_malay_and_indonesian() -> None:
    en, ms, id_ = _catalogue("en"), _catalogue("ms"), _catalogue("id")
    assert ms["page.table.play_again"] == "Main perlawanan lagi"
    assert id_["page.table.play_again"] == "Main pertandingan lagi"
    assert "Pusingan seterusnya" in ms["page.table.waiting_next"]
    assert "Ronde berikutnya" in id_["page.table.waiting_next"]
    assert "Pusingan seterusnya" in words("ms").t("status.next_hand_wait", n=2)
    for key in ("page.host.deal_now", "page.host.again_now", "page.table.matches"):
        assert ms[key] != en[key] and id_[key] != en[key] and ms[key] != id_[key], key


def test_the_names_cherki_gives_bots_read_in_the_readers_language() -> None:
    """``Bot 2 (heuristic)`` and a policy seat's ``Bot 3 (policy:ppo)`` are cherki's own
    names: read in Malay and Indonesian they are translated, level and all; a name a
    person chose is kept as it is."""
    names = ["Nenek", "Bot 2 (heuristic)", "Bot 3 (policy:ppo)", "Bot 4 (policy:my-net_2)"]
    assert Voice.of(names, 4, lang="en").names == tuple(names)
    assert Voice.of(names, 4, lang="ms").names == (
        "Nenek",
        "Bot 2 (heuristik)",
        "Bot 3 (polisi ppo)",
        "Bot 4 (polisi my-net_2)",
    )
    assert Voice.of(names, 4, lang="id").names == (
        "Nenek",
        "Bot 2 (heuristik)",
        "Bot 3 (kebijakan ppo)",
        "Bot 4 (kebijakan my-net_2)",
    )
    assert Voice.of(["Bot 1 (policy:)"], 1, lang="ms").names == ("Bot 1 (policy:)",)
