"""cherki simulate and compare (cherki.play.simulate, cherki.ui.report): figures that
reproduce whatever the number of processes, runs that resume, variants on the same deals,
and the report a person reads."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cherki.core.errors import RulesError
from cherki.games import find_game
from cherki.play.simulate import (
    compare,
    differences,
    load_run,
    local_runner,
    make_setup,
    run_json,
    simulate,
    statistics,
    summarise,
)

ENV = {**os.environ, "COLUMNS": "160", "XDG_DATA_HOME": "/tmp/cherki-sim-data"}


def cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cherki", *args],
        capture_output=True, text=True, timeout=timeout, env=ENV, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def test_same_seed_same_figures_whatever_the_processes() -> None:
    game = find_game("balik-satu")
    setup = make_setup(game, None, {}, None, "heuristic", 5)
    one = simulate(setup, 120)
    two = simulate(setup, 120, runner=local_runner(2))
    assert one == two
    assert statistics(one, 4) == statistics(two, 4)
    other = simulate(make_setup(game, None, {}, None, "heuristic", 6), 120)
    assert statistics(other, 4) != statistics(one, 4)


def test_a_hands_summary_is_its_result() -> None:
    game = find_game("gonggong")
    state = game.new_state(seed=3, first=2)
    import random

    from cherki.bots import make_bot

    bot, rng = make_bot("gonggong", "heuristic"), random.Random(0)
    while not state.is_terminal:
        state.apply(bot.act(state.observation(state.current), rng))
    s = summarise(state, 9)
    res = state.result
    assert s.index == 9 and s.how == res.how and s.actions == len(state.history)
    assert res.winner is not None and s.winner == (res.winner - 2) % 4
    assert s.score == res.total and sum(s.items.values()) == res.total
    # payments by position from the starter (seat 2)
    assert s.payments == tuple(res.payments[(2 + p) % 4] for p in range(4))
    assert sum(s.payments) == sum(res.payments)
    assert s.events["discard"] == sum(1 for e in state.log if e.kind == "discard")
    assert 0 < s.turns <= s.actions


def test_statistics_shares_and_intervals() -> None:
    game = find_game("tantanan")
    setup = make_setup(game, None, {}, None, "heuristic", 1)
    hands = simulate(setup, 200)
    st = statistics(hands, setup.players)
    assert st["hands"] == 200
    assert sum(v["mean"] for v in st["ends"].values()) == pytest.approx(1.0)
    for v in [*st["ends"].values(), *st["winner_position"]]:
        assert 0.0 <= v["low"] <= v["mean"] <= v["high"] <= 1.0
    won = [h for h in hands if h.winner is not None]
    assert sum(v["mean"] for v in st["winner_position"]) == pytest.approx(1.0 if won else 0.0)
    assert st["winning_score"]["median"] <= st["winning_score"]["max"]


def test_variants_play_the_same_deals_and_differences_are_paired() -> None:
    game = find_game("balik-satu")
    a = make_setup(game, "pwee", {}, None, "heuristic", 2)
    b = make_setup(game, "babas", {}, None, "heuristic", 2)
    runs = compare([a, a, b], 80)
    assert runs[0] == runs[1]
    same = differences(runs[0], runs[1])
    assert all(
        same[k]["mean"] == 0 == same[k]["low"] == same[k]["high"] for k in ("won", "actions")
    )
    d = differences(runs[0], runs[2])
    # babas pays 5/10 bonuses against pwee's 10/20 and no tan point: smaller scores
    assert d["winning_score"]["high"] < 0
    with pytest.raises(RulesError, match="same hands"):
        differences(runs[0], runs[2][:10])


def test_a_run_resumes_from_its_file_and_refuses_another_runs() -> None:
    game = find_game("chaqui")
    setup = make_setup(game, None, {}, 3, "heuristic", 4)
    whole = simulate(setup, 90)
    cut = json.dumps(run_json(setup, 90, whole[:37]))
    done = load_run(cut, setup)
    assert len(done) == 37
    assert simulate(setup, 90, done=done) == whole
    other = make_setup(game, None, {}, 3, "random", 4)
    with pytest.raises(RulesError, match="other arguments"):
        load_run(cut, other)
    with pytest.raises(RulesError, match="not a cherki simulation"):
        load_run('{"format": "cherki-record"}', setup)
    with pytest.raises(RulesError, match="not JSON"):
        load_run("{", setup)


def test_bad_setups_are_clear_errors() -> None:
    game = find_game("ceki")
    for args, message in [
        ((None, {}, 9, "heuristic", 1), "played by"),
        ((None, {}, 4, "heuristic,random", 1), "one per seat"),
        ((None, {}, 4, "wizard", 1), "no 'wizard' bot"),
        ((None, {"nonsense": "1"}, 4, "heuristic", 1), "nonsense"),
    ]:
        with pytest.raises(RulesError, match=message):
            make_setup(game, *args)
    with pytest.raises(RulesError, match="--jobs"):
        local_runner(0)


def test_simulate_command_writes_json_plot_and_reports(tmp_path: Path) -> None:
    js, png, md, page = (tmp_path / n for n in ("run.json", "p.png", "r.md", "r.html"))
    run = cli("simulate", "cholek-tiga", "--hands", "60", "--seed", "3", "--json", str(js),
              "--plot", str(png), "--report", str(md))  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "How hands end" in run.stdout and "Who wins, by seat position" in run.stdout
    data = json.loads(js.read_text())
    assert data["format"] == "cherki-simulation" and len(data["hands"]) == 60
    assert data["stats"]["hands"] == 60
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = md.read_text()
    assert text.startswith("# Cholek Tiga: 60 hands") and "![The figures as plots](r.png)" in text
    assert (tmp_path / "r.png").exists()
    html = cli("simulate", "cholek-tiga", "--hands", "20", "--report", str(page))
    assert html.returncode == 0, html.stderr
    assert "data:image/png;base64," in page.read_text() and "<table>" in page.read_text()
    bad = cli("simulate", "ceki", "--hands", "5", "--report", str(tmp_path / "r.pdf"))
    assert bad.returncode == 2 and "name it .md" in bad.stderr


def test_compare_command(tmp_path: Path) -> None:
    js = tmp_path / "c.json"
    run = cli("compare", "balik-satu", "--rules", "pwee", "--vary", "ayam_bonus=0",
              "--hands", "40", "--json", str(js))  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "on the same deals" in run.stdout and "ayam_bonus=0" in run.stdout
    data = json.loads(js.read_text())
    assert [v["label"] for v in data["variants"]] == ["pwee", "pwee, ayam_bonus=0"]
    assert len(data["differences_from_first"]) == 1
    one = cli("compare", "balik-satu", "--rules", "pwee", "--hands", "5")
    assert one.returncode == 2 and "two variants or more" in one.stderr


def test_a_killed_simulation_goes_on_where_it_stopped(tmp_path: Path) -> None:
    js = tmp_path / "run.json"
    args = ["simulate", "balik-satu", "--hands", "1500", "--seed", "8", "--json", str(js)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "cherki", *args],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        time.sleep(0.1)
        if js.exists() and js.stat().st_size and len(json.loads(js.read_text())["hands"]) >= 100:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    part = len(json.loads(js.read_text())["hands"])
    assert 100 <= part < 1500
    again = cli(*args)
    assert again.returncode == 0, again.stderr
    assert f"Going on from {part} hands" in again.stdout
    resumed = json.loads(js.read_text())
    fresh = tmp_path / "fresh.json"
    whole = cli(*args[:-1], str(fresh))
    assert whole.returncode == 0
    assert resumed["stats"] == json.loads(fresh.read_text())["stats"]


# -- Ray, on a local instance bound to 127.0.0.1 ---------------------------------------------
@pytest.fixture(scope="module")
def local_ray():  # type: ignore[no-untyped-def]
    import ray

    ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1",
             log_to_driver=False)  # fmt: skip
    try:
        yield ray
    finally:
        ray.shutdown()


def test_a_ray_cluster_gives_the_serial_figures(local_ray: object) -> None:
    from cherki.play.simulate import ray_runner

    game = find_game("gonggong")
    setup = make_setup(game, "umbuk", {}, 5, "heuristic", 7)
    serial = simulate(setup, 260)
    assert simulate(setup, 260, runner=ray_runner("auto")) == serial
    a = make_setup(game, None, {}, None, "heuristic", 7)
    runs = compare([a, setup.__class__(**{**a.__dict__, "preset": "bak-bakan"})], 60,
                   runner=ray_runner("auto"))  # fmt: skip
    assert runs[0] == simulate(a, 60)


def test_simulate_command_on_a_local_ray_instance(tmp_path: Path) -> None:
    js, ray_js = tmp_path / "serial.json", tmp_path / "ray.json"
    args = ["simulate", "tantanan", "--hands", "120", "--seed", "2"]
    assert cli(*args, "--json", str(js)).returncode == 0
    run = cli(*args, "--ray", "local", "--json", str(ray_js))
    assert run.returncode == 0, run.stderr
    assert json.loads(ray_js.read_text())["stats"] == json.loads(js.read_text())["stats"]
    both = cli(*args, "--ray", "local", "--jobs", "2")
    assert both.returncode == 2 and "not both" in both.stderr


def test_chot_bangkong_and_settlement_are_the_ledgers_own() -> None:
    """The hands' summaries, run through Chot's ledger, give what the hands' own results
    give it: the same bangkong and the same money per match."""
    import random

    from cherki.bots import make_bot
    from cherki.core.contract import play_out
    from cherki.play.simulate import match_statistics

    game = find_game("chot")
    setup = make_setup(game, None, {}, None, "heuristic", 3)
    hands = simulate(setup, 240)
    game_, rules = setup.table()
    figures = match_statistics(game_, rules, 4, hands)
    assert figures is not None and figures["matches"] >= 1
    shown = {f["key"]: f["value"] for f in figures["figures"]}
    assert figures["title"].startswith("Matches: bangkong")
    assert list(shown) == [
        "bangkong",
        "hands_per_bangkong",
        "excess_per_bangkong",
        "bangkong_won_by_seats_0_and_2",
    ]
    assert isinstance(shown["bangkong"], int) and shown["bangkong"] > 5
    # the same hands, played here as the module's notes say they are dealt and seeded
    ledger = game.match_ledger(rules, 4)
    assert ledger is not None
    bangkong, moneys, lengths, excess, first_side, since = 0, [], [], [], 0, 0
    for i in range(240):
        bots = [make_bot("chot", "heuristic") for _ in range(4)]
        rngs = [random.Random(3 * 1_000_003 + i * 101 + s) for s in range(4)]
        state = game.new_state(rules, 4, seed=3 + i, first=i % 4)
        play_out(state, lambda s, obs: bots[s].act(obs, rngs[s]))  # noqa: B023
        since += 1
        for note in ledger.add(state.result):
            bangkong += 1
            lengths.append(since)
            since = 0
            excess.append(note.to_json()["excess"])
            first_side += note.to_json()["winner"] == 0
        if ledger.is_over():
            moneys.append(ledger.money())
            ledger = game.match_ledger(rules, 4)
            assert ledger is not None
    assert shown["bangkong"] == bangkong and figures["matches"] == len(moneys)
    per, over, won = (
        shown["hands_per_bangkong"],
        shown["excess_per_bangkong"],
        shown["bangkong_won_by_seats_0_and_2"],
    )
    assert not isinstance(per, int) and per["mean"] == pytest.approx(sum(lengths) / bangkong)
    assert not isinstance(over, int) and over["mean"] == pytest.approx(sum(excess) / bangkong)
    assert not isinstance(won, int) and won["mean"] == pytest.approx(first_side / bangkong)
    assert figures["money_per_match_by_seat"][0]["mean"] == pytest.approx(
        sum(m[0] for m in moneys) / len(moneys)
    )
    assert match_statistics(*make_setup(find_game("ceki"), None, {}, None, "random", 1).table(),
                            4, []) is None  # fmt: skip
