"""The simulation's figures against hand-computed cases (issue 26): the winner's own items,
factors counted as what they add, money beside points, the pot's share, every ending, the
details labelled, exact figures beside simulated ones, and the compare and resume rules."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from cherki.core.events import Result, ScoreItem
from cherki.games import find_game
from cherki.play.simulate import (
    HandSummary,
    exact_figures,
    make_setup,
    same_deals,
    simulate,
    statistics,
    win_items,
)
from cherki.ui.report import sections, shared_edges

ENV = {**os.environ, "COLUMNS": "200", "XDG_DATA_HOME": "/tmp/cherki-sim-data"}


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cherki", *args],
        capture_output=True, text=True, timeout=300, env=ENV, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def hand(index: int, **kw: object) -> HandSummary:
    base: dict[str, object] = dict(
        index=index, how="claim", winner=0, score=0, items={}, actions=10, turns=5,
        calls={}, winner_call=None, payments=(0, 0, 0, 0), events={},
    )  # fmt: skip
    return HandSummary(**{**base, **kw})  # type: ignore[arg-type]


# -- the winner's items --------------------------------------------------------------------
def test_cholek_tiga_counts_only_the_winners_items_and_its_ang_pow_in_money() -> None:
    """Three seats' captures: seat 1 wins with 40 points (25 + 15) and one ang pow of 100
    cents from each of the two others; seat 0's 30 points and seat 2's ang pow are theirs."""
    items = (
        ScoreItem("captured", 30, count=3, cards=(0,), seat=0),
        ScoreItem("captured", 25, count=3, cards=(1,), seat=1),
        ScoreItem("captured", 15, count=3, cards=(2,), seat=1),
        ScoreItem("ang-pow", 0, count=100, cards=(20,), seat=1),
        ScoreItem("ang-pow-besar", 0, count=200, cards=(29,), seat=2),
    )
    res = Result(1, "score", items, 40, (-10, 30, -20), scores=(30, 40, 20))
    points, money = win_items(res, 3, find_game("cholek-tiga").money_items)
    assert points == {"captured": 40, "ang-pow": 0}
    assert money == {"ang-pow": 200}  # 100 cents from each of two seats
    assert sum(points.values()) == res.total


def test_a_factor_is_given_what_it_adds_so_items_add_up_to_the_score() -> None:
    """Ceki: sets of 9 and 6 points won by a triple: 15 × 3 = 45, the triple adds 30."""
    items = (ScoreItem("set", 9), ScoreItem("set", 6), ScoreItem("triple", 0, 3))
    points, money = win_items(Result(0, "triple", items, 45), 4)
    assert points == {"set": 15, "triple": 30} and money == {}
    # kandang tangan doubling a Balik Satu win of 7: it adds 7
    items = (ScoreItem("turned", 5), ScoreItem("mata", 2), ScoreItem("kandang-tangan", 0, 2))
    points, _ = win_items(Result(2, "kandang-tangan", items, 14), 4)
    assert points == {"turned": 5, "mata": 2, "kandang-tangan": 7}


def test_a_cekens_side_bets_stay_the_winners() -> None:
    """A Cekèn item's seat is the other party of the bet, not another seat's item."""
    items = (ScoreItem("ceken-bet", 10, seat=1), ScoreItem("ceken-bet", 5, seat=3))
    points, _ = win_items(Result(0, "claim", items, 15, (15, -10, 0, -5)), 4)
    assert points == {"ceken-bet": 15}


def test_played_cholek_and_ceki_wins_items_add_up_to_their_score() -> None:
    for name in ("cholek-tiga", "ceki"):
        setup = make_setup(find_game(name), None, {}, None, "heuristic", 3)
        for h in simulate(setup, 25):
            if h.winner is not None:
                assert sum(h.items.values()) == h.score, (name, h)
                assert len(h.money) == setup.players


# -- payments, money and the pot -----------------------------------------------------------
def test_the_pot_gets_its_row_and_payments_with_it_add_up_to_zero() -> None:
    """Two umbuk hands of four seats staking 10: a half-pot win of 20 (seat 0: +10, the others
    −10, 20 left in the pot) and a whole-pot win of 40 (+30, −10 each, none left)."""
    hands = [
        hand(0, payments=(10, -10, -10, -10), money=(100, -100, -100, -100)),
        hand(1, payments=(-10, 30, -10, -10), money=(-100, 300, -100, -100), winner=1),
    ]
    st = statistics(hands, 4)
    assert st["left_in_pot"]["mean"] == 10.0  # (20 + 0) / 2
    means = [p["mean"] for p in st["payment_by_position"]]
    assert means == [0.0, 10.0, -10.0, -10.0]
    assert sum(means) + st["left_in_pot"]["mean"] == 0
    assert [m["mean"] for m in st["money_by_position"]] == [0.0, 100.0, -100.0, -100.0]
    rows = {r[0]: r[1] for s in sections(["umbuk"], [st]) for r in s.rows}
    assert rows["1"].startswith("+10.00") and "+100.00" in rows["1"] and "cents" in rows["1"]
    pot = next(k for k in rows if k.startswith("left in the pot"))
    assert rows[pot].startswith("+10.00")


def test_a_played_umbuk_runs_accounts_balance_with_the_pot() -> None:
    setup = make_setup(find_game("gonggong"), "umbuk", {}, None, "heuristic", 2)
    st = statistics(simulate(setup, 60), 4, setup.endings())
    total = sum(p["mean"] for p in st["payment_by_position"]) + st["left_in_pot"]["mean"]
    assert total == pytest.approx(0.0, abs=1e-9)
    assert st["left_in_pot"]["mean"] > 0


# -- endings and details -------------------------------------------------------------------
def test_an_ending_that_never_happened_gets_a_row_at_zero_with_its_interval() -> None:
    hands = [hand(i) for i in range(40)]
    st = statistics(hands, 4, ("claim", "self-draw", "yeo"))
    assert st["ends"]["yeo"]["mean"] == 0 and st["ends"]["yeo"]["low"] == 0
    # Wilson's upper bound for none in 40: 1.96² / (40 + 1.96²) = 8.76%
    assert st["ends"]["yeo"]["high"] == pytest.approx(1.96**2 / (40 + 1.96**2))
    setup = make_setup(find_game("balik-satu"), None, {}, None, "heuristic", 1)
    assert {"kandang-tangan", "stock-out", "yeo"} <= set(setup.endings())
    ceki = make_setup(find_game("ceki"), None, {}, None, "heuristic", 1)
    assert ceki.endings() == ("plain", "double", "triple", "pile-out")


def test_kena_is_a_share_of_wins_and_mata_a_mean_in_the_wins_with_it() -> None:
    """Three wins: kena in one; mata 1, 2 and 0 (absent): 2 of 3 wins, mean 1.5 there."""
    hands = [
        hand(0, detail={"kena": 1.0, "mata": 1.0}),
        hand(1, detail={"mata": 2.0}),
        hand(2, detail={}),
    ]
    st = statistics(hands, 4)
    kena, mata = st["detail_in_wins"]["kena"], st["detail_in_wins"]["mata"]
    assert kena["in_wins"]["mean"] == pytest.approx(1 / 3) and kena["flag"]
    assert mata["in_wins"]["mean"] == pytest.approx(2 / 3) and not mata["flag"]
    assert mata["mean_where_present"]["mean"] == 1.5
    rows = {r[0]: r[1] for s in sections(["x"], [st]) for r in s.rows}
    assert rows["kena"].startswith("33.3% [") and rows["kena"].endswith("of wins")
    assert rows["mata"].startswith("in 66.7% [") and "mean there 1.50" in rows["mata"]


# -- exact figures -------------------------------------------------------------------------
def test_yeo_and_the_turned_card_are_exact_and_the_simulation_agrees() -> None:
    """A yeo card (C1, S1, M1, WF) is turned in 4/30 of the hands that come to a win; a win
    that stands turns one of the 26 other kinds, points 2–9 three times, 10 (S9) twice
    counting C9 and M9 at 9... computed here from the table by hand."""
    setup = make_setup(find_game("balik-satu"), None, {}, None, "heuristic", 11)
    hands = simulate(setup, 700)
    figures = {f["figure"].split(":")[0]: f for f in exact_figures(setup, hands)}
    yeo, turned = figures["yeo"], figures["the turned card's points in a win"]
    assert Fraction(yeo["exact"]).limit_denominator(100) == Fraction(4, 30)
    # ranks 2-8 in three suits, C9 and M9 (9), S9 (10), RF (11), OT (12): WF is yeo
    by_hand = Fraction(3 * sum(range(2, 9)) + 9 + 9 + 10 + 11 + 12, 26)
    assert turned["exact"] == pytest.approx(float(by_hand))
    for f in (yeo, turned):
        sim = f["simulated"]
        assert sim["low"] <= f["exact"] <= sim["high"], f


# -- plots ---------------------------------------------------------------------------------
def test_variants_share_bin_edges() -> None:
    edges, width = shared_edges([[3, 5, 9], [4, 20]])
    assert width == 1 and edges[0] == 2.5 and edges[-1] >= 20.5
    edges, width = shared_edges([[0, 100], [51]], most=40)
    assert width == 3  # 101 values in at most 40 bins
    assert len(edges) - 1 <= 40 and edges[0] == -0.5 and edges[-1] >= 100.5


def test_bins_follow_the_lattice_of_the_values() -> None:
    """Hand lengths that are always odd (Balik Satu): bins 2 wide centred on them, or a
    multiple of 2, each holding the same number of possible values (no sawtooth)."""
    odd = [[float(x) for x in range(3, 40, 2)]]
    edges, width = shared_edges(odd)
    assert width == 2 and edges[0] == 2.0 and all(e % 2 == 0 for e in edges)
    many = [[float(x) for x in range(3, 402, 2)]]  # 200 possible values, at most 40 bins
    edges, width = shared_edges(many)
    assert width == 10 and len(edges) - 1 <= 40  # 5 possible values a bin, every bin
    centres = {int(x) for x in range(3, 402, 2)}
    per_bin = {sum(1 for c in centres if lo < c < lo + width) for lo in edges[:-1]}
    assert per_bin == {5}


def test_the_plot_labels_shares_and_sums_each_variant_to_one(tmp_path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from cherki.ui import report

    setup = make_setup(find_game("cholek-tiga"), None, {}, None, "random", 1)
    runs = [simulate(setup, 30)]
    st = [statistics(runs[0], 3)]
    saved: list[object] = []
    real = plt.close
    plt.close = lambda fig=None: saved.append(fig)  # type: ignore[assignment]
    try:
        report.plot(tmp_path / "p.png", ["a"], st, runs, "t")
    finally:
        plt.close = real  # type: ignore[assignment]
    fig = saved[0]
    ax = fig.axes[1]  # type: ignore[attr-defined]
    assert ax.get_ylabel().startswith("share of wins (bins")
    # a step histogram is one polygon, (x0, 0), (x0, h0), (x1, h0), (x1, h1)…: its bars
    # are shares of the wins, adding up to 1
    ys = ax.patches[0].get_xy()[1:-1:2, 1]
    assert sum(ys) == pytest.approx(1.0)
    real(fig)


def test_a_panel_of_one_value_is_a_sentence(tmp_path: Path) -> None:
    """Every hand of the same length (Cholek Tiga's fixed turns): no panel of one bar with
    decimal ticks, but a sentence saying so."""
    import dataclasses

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from cherki.ui import report

    setup = make_setup(find_game("cholek-tiga"), None, {}, None, "random", 1)
    run = [dataclasses.replace(h, actions=40) for h in simulate(setup, 12)]
    saved: list[object] = []
    real = plt.close
    plt.close = lambda fig=None: saved.append(fig)  # type: ignore[assignment]
    try:
        report.plot(tmp_path / "p.png", ["a"], [statistics(run, 3)], [run], "t")
    finally:
        plt.close = real  # type: ignore[assignment]
    fig = saved[0]
    ax = fig.axes[2]  # type: ignore[attr-defined]
    assert not ax.axison and not ax.patches
    assert [t.get_text() for t in ax.texts] == ["Every one of the hands: 40 actions in the hand."]
    real(fig)


# -- same deals, compare, resume and CSV ---------------------------------------------------
def test_same_deals_only_when_the_variants_deal_alike() -> None:
    game = find_game("balik-satu")
    pwee = make_setup(game, "pwee", {}, None, "heuristic", 1)
    rescored = make_setup(game, "pwee", {"tan_bonus": "0"}, None, "heuristic", 1)
    other_shoe = make_setup(game, "pwee", {"half_packs": "7"}, None, "heuristic", 1)
    more = make_setup(game, "pwee", {}, 5, "heuristic", 1)
    assert same_deals([pwee, rescored])
    assert not same_deals([pwee, other_shoe])
    assert not same_deals([pwee, more])


def test_vary_applies_on_top_of_rules(tmp_path: Path) -> None:
    js = tmp_path / "c.json"
    run = cli("compare", "balik-satu", "--rules", "babas", "--vary", "tan_bonus=1",
              "--hands", "20", "--json", str(js))  # fmt: skip
    assert run.returncode == 0, run.stderr
    variants = json.loads(js.read_text())["variants"]
    assert [v["setup"]["preset"] for v in variants] == ["babas", "babas"]
    assert variants[1]["setup"]["options"] == {"tan_bonus": "1"}
    assert [v["label"] for v in variants] == ["babas", "babas, tan_bonus=1"]
    assert "on the same deals" in run.stdout


def test_a_smaller_hands_is_refused_and_the_file_kept(tmp_path: Path) -> None:
    js = tmp_path / "run.json"
    args = ["simulate", "ceki", "--bots", "random", "--json", str(js)]
    assert cli(*args, "--hands", "30").returncode == 0
    before = js.read_bytes()
    again = cli(*args, "--hands", "10")
    assert again.returncode == 2
    assert "already holds 30 hands, more than --hands 10" in again.stderr
    assert js.read_bytes() == before


def test_compare_resumes_keeps_its_hands_and_compares_player_counts(tmp_path: Path) -> None:
    js, table = tmp_path / "c.json", tmp_path / "hands.csv"
    args = ["compare", "ceki", "--players", "2,4", "--bots", "random", "--json", str(js)]
    first = cli(*args, "--hands", "15")
    assert first.returncode == 0, first.stderr
    assert "the deals differ" in first.stdout and "2, 4 players" in first.stdout
    second = cli(*args, "--hands", "30", "--csv", str(table))
    assert second.returncode == 0, second.stderr
    assert "Going on from 15 hands of each variant" in second.stdout
    data = json.loads(js.read_text())
    assert [len(v["hands"]) for v in data["variants"]] == [30, 30]
    assert data["same_deals"] is False
    fresh = tmp_path / "fresh.json"
    assert cli(*args[:-1], str(fresh), "--hands", "30").returncode == 0
    assert [v["stats"] for v in data["variants"]] == [
        v["stats"] for v in json.loads(fresh.read_text())["variants"]
    ]
    smaller = cli(*args, "--hands", "10")
    assert smaller.returncode == 2 and "more than --hands 10" in smaller.stderr
    with table.open() as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    assert len(rows) == 60 and len({r["variant"] for r in rows}) == 2
    assert rows[0]["variant"].endswith(", 2 players")
    assert rows[0]["hand"] == "0" and "payment_0" in rows[0] and "money_0" in rows[0]
    figures = tmp_path / "hands.figures.csv"
    with figures.open() as f:
        figs = list(csv.DictReader(line for line in f if not line.startswith("#")))
    won = [r for r in figs if r["figure"] == "won by someone" and r["section"].startswith("How")]
    assert len(won) == 2 and all(0 <= float(r["value"]) <= 1 for r in won)


def test_a_report_stands_alone(tmp_path: Path) -> None:
    md = tmp_path / "r.md"
    run = cli("simulate", "balik-satu", "--hands", "20", "--option", "tan_bonus=2",
              "--report", str(md))  # fmt: skip
    assert run.returncode == 0, run.stderr
    text = md.read_text()
    assert (
        "cherki 0." in text
        and "rules fingerprint" in text
        and "Command: cherki simulate balik-satu --hands 20" in text
    )
    assert "Bots: heuristic" in text and "does not read the scoring values" in text
    assert "## The rules in force" in text
    assert "| tan_bonus | 2 (given) |" in text and "R-TAN-BONUS" in text
    assert "## The game's terms" in text and "| yeo |" in text
    assert "## Exact figures beside the simulated ones" in text


def test_a_kandang_tangan_deal_is_exact_and_the_deals_agree() -> None:
    """Balik Satu's three packs: 1 in 25,700.8 (the issue's audit dealt 2,048,000 hands and
    found 1 in 25,701). Tantanan's pairs, with kandang tangan on, make it common enough to
    check here against the engine's own deals: 12,000 starters' hands, the exact chance
    inside the Wilson interval of the share that could go out at once."""
    from cherki.games.sets.figures import kandang_tangan_deal
    from cherki.play.arena import wilson

    balik = find_game("balik-satu").rules()
    assert float(1 / kandang_tangan_deal(balik, 4)) == pytest.approx(25_700.77, abs=0.01)
    game = find_game("tantanan")
    rules = game.rules(None, kandang_tangan="true", starter_extra="true")
    p = kandang_tangan_deal(rules, 4)
    assert p == Fraction(16193, 2503193)
    n = 12_000
    hits = sum(game.new_state(rules, 4, seed=i, first=i % 4).self_win_ok for i in range(n))
    share = wilson(hits, n)
    assert share.low <= p <= share.high, (hits, share, float(p))


def test_a_share_of_all_or_none_lies_in_its_interval() -> None:
    """Wilson's bounds for 6 in 6 rounded to 0.9999999999999999 (the plot then refused a
    negative error bar): every share lies within its own interval."""
    from cherki.play.arena import wilson

    for n in range(1, 400):
        for k in (0, 1, n - 1, n):
            w = wilson(k, n)
            assert w.low <= w.mean <= w.high, (k, n, w)
    assert wilson(6, 6).high == 1.0
