"""A bibliography in every report (issue 40): what [000]-[003] are, every identifier a rule
row cites explained by the source's section, and each rate's source the right one."""

from __future__ import annotations

from cherki.core.options import find_option
from cherki.games import GAMES
from cherki.play.fingerprint import own_games
from cherki.play.simulate import make_setup
from cherki.ui.bibliography import IDENTIFIERS, SOURCES, cited, explain
from cherki.ui.report import SOURCES_TITLE, figures_rows, rules_section, sources_section


def test_every_identifier_a_rule_cites_is_explained() -> None:
    for name in own_games():
        game = GAMES[name]
        keys, ids = cited([o.source for o in game.options])
        assert set(keys) <= {s.key for s in SOURCES}, name
        for key, ident in ids:
            assert (key, ident) in IDENTIFIERS, (name, key, ident)
            assert explain(key, ident).startswith(f'[{key}] section "')


def test_each_rate_cites_the_source_of_its_currency() -> None:
    def source(game: str) -> str:
        opt = find_option(GAMES[game].options, "cents_per_point")
        assert opt is not None
        return opt.source

    # Gonggong's 2 cents a point: [001]'s Netherlands-Indies cents of the 1940s, not [000]
    assert source("gonggong").startswith("[001] G-PAY") and "Netherlands-Indies" in source(
        "gonggong"
    )
    assert "[000]" not in source("gonggong")
    assert "G-PAY" in source("tantanan") and "G-PAY" in source("ceken")
    assert source("balik-satu").startswith("[000] R-PAY (Singapore cents")
    assert source("cholek-tiga").startswith("[002] R-PAY (Singapore cents")
    assert source("ceki").startswith("ours: [003] names no rate")


def test_a_report_names_its_sources_and_leaves_them_out_of_the_figures() -> None:
    game = GAMES["gonggong"]
    setup = make_setup(game, None, {}, None, "random", 1)
    rules = rules_section(["toh-bayaran"], [setup])
    sec = sources_section([rules])
    assert sec.title == SOURCES_TITLE and not sec.terminal
    rows = {r[0]: r[1] for r in sec.rows}
    assert "[001]" in rows and "Javaanse Kaartspelen" in rows["[001]"]
    assert "Author:" in rows["[001]"] and "Date:" in rows["[001]"] and "Where:" in rows["[001]"]
    assert "1940s" in rows["[001] G-PAY"] and "Netherlands-Indies" in rows["[001] G-PAY"]
    assert "[002]" not in rows  # only the sources the report cites
    assert rows["ours"].startswith("our specification")
    assert figures_rows([sec]) == []
