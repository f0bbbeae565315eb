"""The words of cherki in each language it speaks: English (``en``), Bahasa Melayu
(``ms``) and Bahasa Indonesia (``id``).

One catalogue per language, ``<lang>.json`` beside this module: a flat object of keys
(``log.draw``, ``page.lobby.create``) to text with ``{name}``-style placeholders. The
browser's pages read the same catalogues (served at ``/api/words/{lang}``), so the
terminal, the server's words and the pages agree. Every key is in every catalogue, with
the same placeholders (``tests/test_i18n.py`` checks it): there is no silent fallback
to English in a shipped catalogue.

The games' own terms (tan, ceki, mata, sampei, kena, ayam, kandang, olo, the games' and
cards' names) are the players' words and stay as they are in every language; see
``docs/glossary.md``.

Keys for the first and third person: where a sentence's verb agrees with the seat
("You draw" / "Ann draws"), the key holds the third person (with ``{name}``) and
``<key>.you`` the second (see :meth:`cherki.ui.text.Voice.say`).
"""

from __future__ import annotations

import json
import os
import string
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path

#: the languages, in the order a picker lists them, with each one's own name
LANGUAGES: dict[str, str] = {"en": "English", "ms": "Bahasa Melayu", "id": "Bahasa Indonesia"}
DEFAULT = "en"
#: the environment variable that chooses the terminal's language
ENV = "CHERKI_LANG"


class Words:
    """One language's catalogue: ``t(key, **params)`` gives its text with the
    placeholders filled in. A key the catalogue lacks is an error (a bug: the tests
    check every key used)."""

    def __init__(self, lang: str, catalogue: dict[str, str]) -> None:
        self.lang = lang
        self.catalogue = catalogue

    def __repr__(self) -> str:
        return f"Words({self.lang!r})"

    def has(self, key: str) -> bool:
        return key in self.catalogue

    def t(self, key: str, /, **params: object) -> str:
        text = self.catalogue[key]
        return text.format(**params) if params else text

    def count(self, key: str, n: int, /, **params: object) -> str:
        """A counted phrase: ``key.one`` for one, else ``key.other`` (``{n}`` is the
        count): "1 card", "3 cards"."""
        form = "one" if n == 1 else "other"
        return self.t(f"{key}.{form}", n=n, **params)


def normalise(lang: str | None) -> str | None:
    """A language code as cherki knows it (``ms-MY`` → ``ms``, ``in`` → ``id``), or None
    for a language it does not speak."""
    if not lang:
        return None
    code = lang.strip().lower().replace("_", "-").split("-")[0]
    if code == "in":  # Java's old code for Indonesian
        code = "id"
    if code == "zsm":
        code = "ms"
    return code if code in LANGUAGES else None


def catalogue_path(lang: str) -> Path:
    return Path(str(resources.files("cherki.i18n").joinpath(f"{lang}.json")))


#: words that games listed outside cherki bring with them (:func:`add_words`), by language
_ADDED: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}


def add_words(lang: str, entries: Mapping[str, str], *, source: str) -> None:
    """Add a game's own words in ``lang`` to cherki's catalogue of that language (a game
    listed from outside cherki brings its words this way: ``Game.words``, called by
    :mod:`cherki.games` when it lists the game). A key cherki's catalogue or another game
    already words differently is refused (:class:`ValueError` naming ``source``)."""
    if lang not in LANGUAGES:
        raise ValueError(f"{source}: cherki speaks no language {lang!r} ({', '.join(LANGUAGES)})")
    base = _base(lang)
    added = _ADDED[lang]
    for key, text in entries.items():
        held = base.get(key, added.get(key))
        if held is not None and held != text:
            raise ValueError(f"{source}: the word {key!r} is cherki's already, as {held!r}")
    added.update(entries)
    words.cache_clear()
    catalogue_text.cache_clear()


@cache
def _base(lang: str) -> dict[str, str]:
    data = json.loads(catalogue_path(lang).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    # the courses' words (issue 37), a block of their own: learn/<part>.<lang>.json
    learn = resources.files("cherki.i18n").joinpath("learn")
    for part in sorted(learn.iterdir(), key=lambda f: f.name):
        if part.name.endswith(f".{lang}.json"):
            block = json.loads(part.read_text(encoding="utf-8"))
            assert isinstance(block, dict) and not block.keys() & data.keys(), part.name
            data.update(block)
    return {str(k): str(v) for k, v in data.items()}


@cache
def words(lang: str | None = None) -> Words:
    """The words of ``lang`` (anything cherki does not speak: English): cherki's catalogue
    and the words of the games listed from outside it (:func:`add_words`)."""
    code = normalise(lang) or DEFAULT
    return Words(code, {**_base(code), **_ADDED[code]})


@cache
def catalogue_text(lang: str) -> str:
    """A catalogue as the browser is sent it (compact JSON): the courses' prose aside (the
    learn pages' API sends each lesson's words already in the reader's language), their
    page's own words (``learn.ui.*``, ``learn.common.*``) kept."""
    sent = {k: v for k, v in words(lang).catalogue.items() if for_pages(k)}
    return json.dumps(sent, ensure_ascii=False, separators=(",", ":"))


def for_pages(key: str) -> bool:
    """Whether the pages are sent ``key`` (:func:`catalogue_text`)."""
    return not key.startswith("learn.") or key.startswith(("learn.ui.", "learn.common."))


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders of a catalogue's text."""
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


# -- the games' rule options and presets, for people ------------------------------------------
def preset_key(game: str, preset: str, field: str) -> str:
    """A preset's ``title`` or ``about`` (its description): ``preset.<game>.<preset>.<field>``."""
    return f"preset.{game}.{preset}.{field}"


def option_key(game: str, option: str, field: str) -> str:
    """A rule option's ``title`` or ``about`` (its help): ``option.<game>.<option>.<field>``
    where that game words the option its own way (Ceki's honours), else
    ``option.<option>.<field>``, the words every game shares. ``tests/test_i18n.py`` checks,
    for every game's every option, that the key found holds the option's own English."""
    own = f"option.{game}.{option}.{field}"
    return own if words(DEFAULT).has(own) else f"option.{option}.{field}"


def choice_key(option: str, value: str) -> str:
    """The words for one of a rule option's choices (``rounds`` → "in packets, in turn"):
    ``choice.<option>.<value>``; the lobby shows them, the identifier beside."""
    return f"choice.{option}.{value}"


# -- the terminal's choice, remembered ------------------------------------------------------------
def config_file() -> Path:
    """Where the terminal remembers the person's language (the user's config folder)."""
    import typer

    return Path(typer.get_app_dir("cherki")) / "language"


def remembered() -> str | None:
    try:
        return normalise(config_file().read_text(encoding="utf-8").strip())
    except OSError:
        return None


def remember(lang: str) -> None:
    """Keep ``lang`` for the next ``cherki play`` (quietly not, where the folder cannot
    be written)."""
    path = config_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(lang + "\n", encoding="utf-8")
    except OSError:
        pass


def chosen(option: str | None) -> str:
    """The terminal's language: ``--lang``, else ``CHERKI_LANG``, else the one remembered,
    else the system's (``LANG``), else English."""
    for candidate in (option, os.environ.get(ENV), remembered(), os.environ.get("LANG")):
        code = normalise(candidate)
        if code is not None:
            return code
    return DEFAULT
