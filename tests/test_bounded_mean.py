"""A mean's interval respects the quantity's range (issue 40): a count that cannot be
negative, mostly zeros, no longer gets ``0.54 [−0.52, 1.60]``."""

from __future__ import annotations

import pytest

from cherki.play.arena import mean_interval
from cherki.play.simulate import SMALL_SAMPLE, bounded_mean


def test_a_small_skewed_count_stays_in_its_range() -> None:
    xs = [0.0] * 12 + [6.5]  # 13 hands, one with a count: the normal interval goes below 0
    assert mean_interval(xs).low < 0
    iv = bounded_mean(xs)
    assert iv["mean"] == pytest.approx(0.5)
    assert 0.0 <= iv["low"] <= iv["mean"] <= iv["high"] <= 6.5
    assert bounded_mean(xs) == iv  # seeded by the sample: the same figures every time


def test_a_large_sample_inside_its_range_keeps_the_normal_interval() -> None:
    xs = [float(i % 7) for i in range(500)]
    normal = mean_interval(xs)
    assert bounded_mean(xs) == {"mean": normal.mean, "low": normal.low, "high": normal.high}


def test_a_large_rare_count_uses_the_bootstrap_where_the_normal_passes_zero() -> None:
    xs = [0.0] * 999 + [40.0]
    assert mean_interval(xs).low < 0
    iv = bounded_mean(xs)
    assert iv["low"] >= 0.0 and iv["high"] <= 40.0 and iv["low"] <= 0.04 <= iv["high"]
    assert len(xs) >= SMALL_SAMPLE


def test_all_alike_and_tiny_samples() -> None:
    assert bounded_mean([3.0] * 5) == {"mean": 3.0, "low": 3.0, "high": 3.0}
    assert bounded_mean([2.0]) == {"mean": 2.0, "low": 2.0, "high": 2.0}
    assert bounded_mean([]) == {"mean": 0.0, "low": 0.0, "high": 0.0}
