"""Ray's failures are one line (issue 40): a start that fails in any of Ray's ways, and a
cluster that fails during the run, each a RulesError of one line (the command line's exit 2)."""

from __future__ import annotations

from typing import Any

import pytest
import ray

from cherki.core.errors import RulesError
from cherki.games import find_game
from cherki.play.simulate import make_setup, ray_runner


def test_a_failed_start_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def init(**_: Any) -> None:
        raise TimeoutError(
            "Timed out after 30 seconds waiting for the GCS to start.\n" + "  at frame\n" * 50
        )

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", init)
    with pytest.raises(RulesError) as err:
        ray_runner("local")
    text = str(err.value)
    assert "\n" not in text
    assert text.startswith("--ray local: cannot start or reach a Ray cluster (Timed out after")
    assert text.endswith("--jobs N plays the same hands in local processes")


def test_a_failure_during_the_run_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    class Task:
        def remote(self, *_: Any) -> str:
            return "ref"

    def wait(*_: Any, **__: Any) -> None:
        raise ray.exceptions.WorkerCrashedError()

    monkeypatch.setattr(ray, "is_initialized", lambda: True)
    monkeypatch.setattr(ray, "remote", lambda f: Task())
    monkeypatch.setattr(ray, "wait", wait)
    run = ray_runner("auto")
    setup = make_setup(find_game("ceki"), None, {}, None, "random", 1)
    with pytest.raises(RulesError) as err:
        list(run(setup, [range(0, 5)]))
    text = str(err.value)
    assert "\n" not in text and text.startswith("--ray auto: the cluster failed during the run")
