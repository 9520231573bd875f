"""Tests for stumplib.ladder: reference values, the clustered trend, properties and
error messages."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stumplib import ladder


def _binomial_cdf(x, n, p):
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(x + 1))


def test_clopper_pearson_at_the_edges_has_a_closed_form():
    """All inside: lo = (tail)^(1/n); none inside: hi = 1 - tail^(1/n)."""
    for n in (1, 8, 16, 40):
        lo, hi = ladder.clopper_pearson(n, n)
        assert hi == 1.0 and lo == pytest.approx(0.025 ** (1 / n), rel=1e-12)
        lo, hi = ladder.clopper_pearson(0, n)
        assert lo == 0.0 and hi == pytest.approx(1 - 0.025 ** (1 / n), rel=1e-12)


@given(st.integers(1, 60).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_the_interval_holds_the_share_and_its_tails_are_the_confidence(case):
    x, n = case
    lo, hi = ladder.clopper_pearson(x, n)
    assert 0 <= lo <= x / n <= hi <= 1
    if x:  # P(X >= x | lo) = 2.5%, summed directly
        assert 1 - _binomial_cdf(x - 1, n, lo) == pytest.approx(0.025, abs=1e-9)
    if x < n:  # P(X <= x | hi) = 2.5%
        assert _binomial_cdf(x, n, hi) == pytest.approx(0.025, abs=1e-9)


def test_the_share_test_is_the_binomial_lower_tail():
    k = [320] * 16 + [1000] * 16 + [3200] * 8
    inside = [True] * 37 + [False] * 3
    out = ladder.ladder(k, np.ones(40), inside)
    assert out.inside == 37 and out.runs == 40
    assert out.share_p == pytest.approx(_binomial_cdf(37, 40, 0.95), rel=1e-12)


def test_an_error_falling_as_one_over_k_has_no_trend_and_its_constant_is_the_sup():
    k = np.repeat([100.0, 1000.0, 10000.0], 4)
    spread = np.tile([1.0, 2.0, 3.0, 4.0], 3)
    out = ladder.ladder(k, spread / k, np.ones(12, bool))
    assert out.slope == pytest.approx(0.0, abs=1e-12)
    assert out.slope_se == pytest.approx(0.0, abs=1e-12)
    assert out.sup == pytest.approx(4.0) and out.sup_quantile == 12 / 13
    assert [r.error_k for r in out.rungs] == pytest.approx([2.5, 2.5, 2.5])
    assert out.allowance == pytest.approx(1 / math.log(1000.0))


def test_the_trend_is_clustered_by_size():
    """More runs at each size leave the trend's error unchanged: it comes from the
    scatter between the sizes' means, not from the runs' number."""
    sizes = np.array([100.0, 300.0, 1000.0, 3000.0])
    means = np.array([1.0, 1.3, 1.1, 1.5])  # error * k at each size
    few = ladder.ladder(np.repeat(sizes, 2), np.repeat(means / sizes, 2), [1] * 8)
    many = ladder.ladder(np.repeat(sizes, 20), np.repeat(means / sizes, 20), [1] * 80)
    assert many.slope == pytest.approx(few.slope, rel=1e-12)
    assert many.slope_se == pytest.approx(few.slope_se, rel=1e-12)
    x, y = np.log(sizes), np.log(means)
    slope = np.polyfit(x, y, 1)[0]
    residual = y - np.polyval(np.polyfit(x, y, 1), x)
    se = math.sqrt(residual @ residual / 2 / np.sum((x - x.mean()) ** 2))
    assert few.slope == pytest.approx(slope, rel=1e-10)
    assert few.slope_se == pytest.approx(se, rel=1e-10)
    assert few.trend_bound == pytest.approx(slope + 2.3263478740 * se, rel=1e-9)
    assert few.trend_floor == pytest.approx(slope - 2.3263478740 * se, rel=1e-9)


def test_a_growing_error_k_fails_the_allowance():
    k = np.repeat([320.0, 1000.0, 3200.0, 10000.0], 3)
    out = ladder.ladder(k, k**-0.5 * np.tile([1.0, 1.1, 0.9], 4), [1] * 12)
    assert out.slope == pytest.approx(0.5) and out.trend_floor > out.allowance


def test_two_sizes_give_a_slope_without_an_error():
    out = ladder.ladder([10, 100], [0.1, 0.01], [1, 1])
    assert out.slope == pytest.approx(0.0, abs=1e-12) and math.isnan(out.slope_se)


@pytest.mark.parametrize(
    "args, match",
    [
        (([10, 10], [1.0, 1.0], [1, 1]), "two distinct sizes"),
        (([10, 20], [1.0], [1, 1]), "one length"),
        (([10, 20], [1.0, -1.0], [1, 1]), "error"),
        (([10, 20], [1.0, 1.0], [1, 2]), "inside"),
        (([0, 20], [1.0, 1.0], [1, 1]), "k"),
    ],
)
def test_bad_ladders_name_the_argument(args, match):
    with pytest.raises(ValueError, match=match):
        ladder.ladder(*args)


def test_bad_floors_and_intervals():
    with pytest.raises(ValueError, match="floor"):
        ladder.ladder([10, 20], [1.0, 1.0], [1, 1], floor=1.0)
    with pytest.raises(ValueError, match="inside"):
        ladder.clopper_pearson(5, 4)
    with pytest.raises(ValueError, match="confidence"):
        ladder.clopper_pearson(1, 4, confidence=1.5)
    with pytest.raises(TypeError, match="runs"):
        ladder.clopper_pearson(1, "4")


def test_price_is_the_ratio_of_the_mean_scaled_errors_at_shared_sizes():
    certified = ladder.ladder([10, 10, 100, 100], [0.3, 0.5, 0.03, 0.05], [1] * 4)
    edge = ladder.ladder([10, 10, 50, 50, 100], [0.1, 0.1, 0.02, 0.02, 0.01], [1] * 5)
    # at 10: mean of 3 and 5 over 1; at 100: mean of 3 and 5 over 1
    assert ladder.price(certified, edge) == pytest.approx({10.0: 4.0, 100.0: 4.0})
    assert ladder.price(certified, ladder.ladder([20, 40], [0.1, 0.1], [1, 1])) == {}


def test_price_takes_ladders_only():
    out = ladder.ladder([10, 100], [0.1, 0.01], [1, 1])
    with pytest.raises(TypeError, match="edge"):
        ladder.price(out, {10.0: 1.0})
