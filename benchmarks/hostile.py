"""Hostile request bodies: what an outside client may send to the JSON routes that no
Python client would (numbers JSON does not have, numbers past a float, the wrong kinds).
``bench_attack.py --attack hostile-bodies`` sends them while people play, and the tests
(``tests/test_server_hostile.py``) check that each is answered in words, never with a 5xx.

Each is (method, path, body): ``{host}`` in a path is a host's link of a table made first,
``{table}`` its table."""

from __future__ import annotations

_SEATS = '[{"kind": "human"}, {"kind": "bot", "level": "heuristic"}]'

BODIES: list[tuple[str, str, str]] = [
    ("POST", "/api/tables", '{"game": "balik-satu", "seats": ' + _SEATS + ', "hands": 1e400}'),
    ("POST", "/api/tables", '{"game": "balik-satu", "seats": ' + _SEATS + ', "timer": NaN}'),
    (
        "POST",
        "/api/tables",
        '{"game": "balik-satu", "seats": ' + _SEATS + ', "bot_pace": Infinity}',
    ),
    (
        "POST",
        "/api/tables",
        '{"game": "balik-satu", "seats": ' + _SEATS + ', "bot_pace": -Infinity}',
    ),
    ("POST", "/api/tables", '{"game": "balik-satu", "seats": ' + _SEATS + ', "bot_pace": NaN}'),
    ("POST", "/api/tables", '{"game": "balik-satu", "seats": ' + _SEATS + ', "hands": -1e400}'),
    ("POST", "/api/tables", '{"game": NaN, "seats": NaN}'),
    (
        "POST",
        "/api/tables",
        '{"game": "balik-satu", "seats": ' + _SEATS + ', "options": {"x": 1e400}}',
    ),
    ("POST", "/api/tables", "NaN"),
    ("POST", "/api/tables", "[1e400]"),
    (
        "POST",
        "/api/tables",
        '{"game": "balik-satu", "seats": ' + _SEATS + ', "hands": 1' + "0" * 5000 + "}",
    ),
    ("POST", "/api/tables", "{" * 5000),
    ("POST", "/api/tables", '{"game": "\\ud800", "seats": ' + _SEATS + "}"),
    ("POST", "/api/host/{host}/settings", '{"bot_pace": NaN}'),
    ("POST", "/api/host/{host}/settings", '{"bot_pace": Infinity}'),
    ("POST", "/api/host/{host}/settings", '{"timer": 1e400}'),
    ("POST", "/api/host/{host}/settings", '{"hints": NaN}'),
    ("POST", "/api/host/{host}/chat", '{"spectators": Infinity}'),
    ("POST", "/api/seats", '{"token": NaN, "name": Infinity}'),
    ("POST", "/api/replay", '{"format": "cherki-record", "version": NaN, "hands": [1e400]}'),
    ("POST", "/api/replay", "NaN"),
]
