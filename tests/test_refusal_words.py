"""The rules' refusals in the reader's language (issue 39, item 6): the rules core raises a
catalogue key and its values, not English (:class:`cherki.core.errors.CherkiError`), and
every front end words it through :func:`cherki.play.refusals.refusal`: the terminal's table,
the web table's refusal of an action, the lessons. For every game, illegal actions and
malformed notation are refused in Malay and Indonesian with no English word (the list of
``tests/test_web_no_english.py``), and in English as before."""

from __future__ import annotations

import os
import pickle
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_web_no_english import ENGLISH

from cherki.core.contract import Game, State
from cherki.core.errors import CherkiError, IllegalActionError, NotationError, Phrase
from cherki.games import GAMES
from cherki.i18n import words
from cherki.play.lessons import judge, position
from cherki.play.refusals import refusal
from cherki.server.app import create_app
from cherki.server.store import Store

#: what people type that is no action of any game (no English word in it: a refusal quotes it)
MALFORMED = ["xyzzy", "discard QQ", "M99", "discard M7 lompat", "Q9"]


def english_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[A-Za-z]+", text) if w.lower() in ENGLISH]


def states(game: Game, count: int = 6) -> list[State]:
    """A few positions of a hand of ``game`` reached by random play (its first among them)."""
    rng = random.Random(7)
    state = game.new_state(game.rules(), game.default_players, seed=3)
    out = [state.clone()]
    for _ in range(200):
        if state.is_terminal or len(out) >= count:
            break
        state.apply(rng.choice(state.legal_actions()))
        if rng.random() < 0.3:
            out.append(state.clone())
    return out


def refusals(game: Game) -> list[CherkiError]:
    """Refusals of ``game``: illegal actions (ids, their notation, out of turn, out of
    range) and malformed notation."""
    out: list[CherkiError] = []
    for state in states(game):
        legal = set(state.legal_actions())
        illegal = [a for a in range(game.num_actions) if a not in legal]
        for action in [*illegal[:: max(1, len(illegal) // 8)], game.num_actions + 5]:
            with pytest.raises(CherkiError) as err:
                state.check(action)
            out.append(err.value)
        with pytest.raises(IllegalActionError) as err:
            state.check(state.legal_actions()[0], seat=(state.current + 1) % state.n)
        out.append(err.value)
        for text in MALFORMED:
            with pytest.raises(CherkiError) as err:
                state.check(text)
            out.append(err.value)
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_games_refusals_are_worded_in_malay_and_indonesian(name: str) -> None:
    game = GAMES[name]
    found = refusals(game)
    keys = {err.key for err in found}
    assert len(keys) >= 4, keys  # several kinds of refusal, not one
    for err in found:
        assert err.key, (name, str(err))  # every refusal a key, no sentence
        english = str(err)
        assert english and not english.startswith("refuse."), english
        assert refusal(err, "en", game) == english
        assert refusal(err, None) == english  # a language cherki does not speak: English
        for lang in ("ms", "id"):
            assert words(lang).has(err.key), (lang, err.key)
            said = refusal(err, lang, game)
            assert said != english, (lang, said)
            mine = said
            for text in MALFORMED:  # what the person typed, quoted back, is theirs
                mine = mine.replace(repr(text), "")
            assert not english_words(mine), (name, lang, said, english)


def test_the_english_is_as_before_and_survives_pickling() -> None:
    """``str(err)`` is the English (tests, logs and Python users read it); an error sent
    to another process keeps its key and values."""
    balik = GAMES["balik-satu"]
    state = balik.new_state(balik.rules(), 4, seed=7)
    with pytest.raises(NotationError) as bad:
        state.check("discard Q9")
    assert str(bad.value).startswith("'Q9' is not a card: use C1-C9 (Coins)")
    with pytest.raises(IllegalActionError) as early:
        state.check("draw")
    assert str(early.value) == (
        "you start with fifteen cards: discard one (no draw on the first turn)"
    )
    assert refusal(early.value, "ms", balik) == (
        "anda bermula dengan lima belas keping kad: buang sekeping (tiada cabutan pada giliran "
        "pertama)"
    )
    held = next(a for a in range(4, 4 + 30) if a not in state.legal_actions())
    with pytest.raises(IllegalActionError) as none:
        state.check(held)
    assert re.fullmatch(r"you have no \w+ to discard", str(none.value))
    again = pickle.loads(pickle.dumps(none.value))
    assert type(again) is IllegalActionError and again.key == none.value.key
    assert str(again) == str(none.value) and again.values == none.value.values
    # a sentence raised as it was (a game from outside cherki may) has no key and stays
    plain = IllegalActionError("you may not do that")
    assert plain.key == "" and str(plain) == "you may not do that"
    assert refusal(plain, "ms") == "you may not do that"
    assert str(CherkiError("refuse.number.3")) == "three"
    assert Phrase.of("refuse.no_card", card="M9").values == {"card": "M9"}


def test_an_action_inside_a_refusal_is_labelled_as_the_buttons_are() -> None:
    """ "discard M7 is not allowed now" says the action in notation in English, and as the
    table's button says it in Malay ("Buang M7")."""
    ceki = GAMES["ceki"]
    state = ceki.new_state(ceki.rules(), 4, seed=2)
    state.apply("draw")
    with pytest.raises(IllegalActionError) as err:
        state.check("take")
    assert str(err.value) == "you have already drawn this turn: discard a card (take not allowed)"
    assert refusal(err.value, "ms", ceki) == (
        "anda sudah mencabut pada giliran ini: buang sekeping kad («Ambil kad buangan» tidak "
        "dibenarkan)"
    )


def test_the_lessons_say_the_rules_refusal_in_the_readers_language() -> None:
    """An answer the rules refuse that a lesson does not explain: the verdict carries the
    refusal, worded in the reader's language (``cherki learn``, the ``/learn`` pages)."""
    seen = 0
    for game in GAMES.values():
        for lesson in game.lessons().lessons[:3]:
            state = position(game, lesson)
            legal = set(state.legal_actions(lesson.seat))
            for action in range(game.num_actions):
                if action in legal:
                    continue
                verdict = judge(game, lesson, state, action)
                if verdict.key or verdict.refused is None:
                    continue
                seen += 1
                assert verdict.reason == str(verdict.refused)
                for lang in ("ms", "id"):
                    said = refusal(verdict.refused, lang, game)
                    assert not english_words(said), (game.name, lesson.id, said)
                break
    assert seen >= 3


def test_the_web_table_and_the_lessons_page_refuse_in_the_readers_language(
    tmp_path: Path,
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'server.db'}")
    with TestClient(create_app(store, rate=1000)) as client:
        seats = [{"kind": "human"}, {"kind": "human"}]
        made = client.post("/api/tables", json={"game": "balik-satu", "seats": seats}).json()
        with client.websocket_connect(f"/ws/seat/{made['seats']['0']}?lang=id") as ws:
            first = ws.receive_json()
            held = {a["id"] for a in first["ui"]["actions"]}
            bad = next(a for a in range(4, 4 + 30) if a not in held)  # a card not held
            ws.send_json({"type": "act", "action": bad, "version": first["version"]})
            while (msg := ws.receive_json())["type"] != "error":
                pass
            assert msg["message"].startswith("Anda tidak punya "), msg
            assert not english_words(msg["message"]), msg
        # the lessons' page: an answer the rules refuse, in Malay
        game = GAMES["balik-satu"]
        lesson = game.lessons().lessons[0]
        state = position(game, lesson)
        legal = set(state.legal_actions(lesson.seat))
        refused = next(
            a
            for a in range(game.num_actions)
            if a not in legal and (v := judge(game, lesson, state, a)).refused and not v.key
        )
        url = f"/api/learn/balik-satu/{lesson.id}/answer?lang=ms"
        out = client.post(url, json={"action": refused}).json()
        assert out["right"] is False and out["text"], out
        assert not english_words(out["text"]), out


def test_the_terminal_refuses_in_the_readers_language(tmp_path: Path) -> None:
    """``cherki play --lang ms``: a card that is none, and a draw on the first turn, are
    refused in Malay."""
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path), "HOME": str(tmp_path)}
    env.pop("CHERKI_LANG", None)
    run = subprocess.run(
        [sys.executable, "-m", "cherki", "play", "balik-satu", "--seed", "7", "--lang", "ms"],
        input="Q9\ndraw\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "'Q9' bukan kad" in out, out
    assert "anda bermula dengan lima belas keping kad" in out, out
    lines = [x for x in out.splitlines() if "bukan kad" in x or "bermula dengan lima" in x]
    for line in lines:
        assert not english_words(line), line


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_rules_refusals_a_host_meets_are_worded_too(name: str) -> None:
    """An unknown preset or option, a player count the game is not played by, an option's
    value out of its range or of the wrong kind: keys, worded in ms and id."""
    game = GAMES[name]
    lo, hi = game.players
    tries: list[Callable[[], object]] = [
        lambda: game.rules("zzz"),
        lambda: game.rules(zzz=1),
        lambda: game.new_state(game.rules(), hi + 1),
        lambda: game.new_state(game.rules(), lo, first=lo),
    ]
    for option in game.options:
        tries.append(lambda o=option.name: game.rules(**{o: "zzz lompat"}))  # type: ignore[misc]
        if option.kind is int:
            tries.append(lambda o=option.name: game.rules(**{o: 10**9}))  # type: ignore[misc]
    for attempt in tries:
        with pytest.raises(CherkiError) as err:
            attempt()
        assert err.value.key, str(err.value)
        # the options' and presets' names are identifiers a host types (must_call_to_win,
        # hands): the words around them are what is worded
        words_only = type(err.value)(
            err.value.key,
            **{k: ("" if k in ("name", "names") else v) for k, v in err.value.values.items()},
        )
        for lang in ("ms", "id"):
            said = refusal(words_only, lang, game).replace("'zzz lompat'", "")
            assert not english_words(said), (name, lang, said, str(err.value))
