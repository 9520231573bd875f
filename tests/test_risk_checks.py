"""Tests for stumplib.risk_checks: risk profiles over thresholds and their comparisons.

Reference: the nearest-positive rule has the exact risk
A(s) = 2 [(1 - s^{N+1})/(N+1) - (1 - s^{N+2})/(N+2)] at threshold s
(tests/test_baselines).
"""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from stumplib import baselines, risk_checks, tasks

RULES = {"positive": baselines.nearest_positive, "midpoint": baselines.midpoint}


def risk_nearest_positive(s, n):
    return 2 * ((1 - s ** (n + 1)) / (n + 1) - (1 - s ** (n + 2)) / (n + 2))


def test_profile_matches_exact_risk():
    s = np.array([0.1, 0.5, 0.95])
    profile = risk_checks.pointwise_risks(
        RULES, 8, s, seed=(7, 1), tasks_per_batch=20000
    )
    risk, se = profile["positive"]
    assert risk.shape == se.shape == (3,)
    z = risk_checks.largest_z(risk, se, risk_nearest_positive(s, 8))
    assert z < 4.5


def test_profile_streams_are_per_threshold():
    # the j-th threshold uses the stream (*seed, j): the same as a direct call
    s = np.array([0.3, 0.6])
    profile = risk_checks.pointwise_risks(RULES, 5, s, seed=(7, 2), tasks_per_batch=50)
    direct = baselines.monte_carlo_risks(
        RULES, 5, tasks.Fixed(0.6), tasks_per_batch=50, rng=(7, 2, 1)
    )
    assert profile["midpoint"][0][1] == direct["midpoint"][0]
    assert profile["midpoint"][1][1] == direct["midpoint"][1]
    # and a profile over a sub-grid is the matching part of the full one
    first = risk_checks.pointwise_risks(
        RULES, 5, s[:1], seed=(7, 2), tasks_per_batch=50
    )
    assert first["positive"][0][0] == profile["positive"][0][0]


def test_int_seed_is_a_tuple_of_one():
    a = risk_checks.pointwise_risks(RULES, 4, [0.5], seed=3, tasks_per_batch=40)
    b = risk_checks.pointwise_risks(RULES, 4, [0.5], seed=(3,), tasks_per_batch=40)
    assert a["positive"][0][0] == b["positive"][0][0]


def test_largest_z_reference():
    assert (
        risk_checks.largest_z([1.0, 2.0, 3.0], [0.5, 1.0, 2.0], [1.0, 1.0, 1.0]) == 1.0
    )
    assert risk_checks.largest_z([0.3], [0.1], 0.0) == pytest.approx(3.0)


@given(
    st.floats(0.01, 10),
    st.floats(0.0, 1.0),
    st.floats(0.01, 10),
    st.floats(0.0, 1.0),
)
def test_ratio_propagates_relative_errors(r1, f1, r2, f2):
    value, se = risk_checks.ratio((r1, f1 * r1), (r2, f2 * r2))
    assert value == pytest.approx(r1 / r2)
    assert se == pytest.approx(value * np.hypot(f1, f2))
    inverse, inverse_se = risk_checks.ratio((r2, f2 * r2), (r1, f1 * r1))
    assert inverse_se / inverse == pytest.approx(se / value)  # same relative error


def test_ratio_reference():
    assert risk_checks.ratio((4.0, 0.3), (2.0, 0.4)) == pytest.approx(
        (2.0, 2.0 * np.hypot(0.075, 0.2))
    )


@pytest.mark.parametrize(
    "call, error, name",
    [
        (
            lambda: risk_checks.pointwise_risks(RULES, 4, [[0.5]], seed=1),
            ValueError,
            "thresholds",
        ),
        (
            lambda: risk_checks.pointwise_risks(RULES, 4, [1.5], seed=1),
            ValueError,
            "thresholds",
        ),
        (
            lambda: risk_checks.pointwise_risks(RULES, 4, ["a"], seed=1),
            TypeError,
            "thresholds",
        ),
        (
            lambda: risk_checks.pointwise_risks(RULES, 4, [0.5], seed=(1, -2)),
            ValueError,
            "seed",
        ),
        (
            lambda: risk_checks.pointwise_risks(RULES, 4, [0.5], seed=()),
            ValueError,
            "seed",
        ),
        (
            lambda: risk_checks.pointwise_risks(RULES, 4, [0.5], seed="x"),
            TypeError,
            "seed",
        ),
        (lambda: risk_checks.pointwise_risks(RULES, 0, [0.5], seed=1), ValueError, "n"),
        (
            lambda: risk_checks.pointwise_risks([1], 4, [0.5], seed=1),
            TypeError,
            "rules",
        ),
        (lambda: risk_checks.largest_z([1.0], [0.0], [1.0]), ValueError, "errors"),
        (lambda: risk_checks.largest_z([np.nan], [1.0], [1.0]), ValueError, "measured"),
        (
            lambda: risk_checks.largest_z([1.0, 2.0], [1.0], [1.0, 2.0, 3.0]),
            ValueError,
            "exact",
        ),
        (lambda: risk_checks.largest_z([], [], []), ValueError, "measured"),
        (lambda: risk_checks.ratio((1.0,), (1.0, 0.1)), ValueError, "numerator"),
        (lambda: risk_checks.ratio((1.0, 0.1), (0.0, 0.1)), ValueError, "denominator"),
        (lambda: risk_checks.ratio((1.0, -0.1), (1.0, 0.1)), ValueError, "numerator"),
        (lambda: risk_checks.ratio(("a", 0.1), (1.0, 0.1)), TypeError, "numerator"),
    ],
)
def test_errors_name_the_argument(call, error, name):
    with pytest.raises(error, match=name):
        call()


def test_z_threshold_is_the_normal_quantile_for_one_comparison():
    from scipy import stats

    assert risk_checks.z_threshold(1, 0.05) == pytest.approx(
        stats.norm.isf(0.025), rel=1e-12
    )


def test_z_threshold_bounds_the_family_error_of_many_comparisons():
    from scipy import stats

    for comparisons, alpha in ((16, 0.01 / 3), (100, 0.01), (1, 1e-6)):
        z = risk_checks.z_threshold(comparisons, alpha)
        # Bonferroni: each two-sided tail at alpha / comparisons, whatever the
        # dependence
        assert comparisons * 2 * stats.norm.sf(z) == pytest.approx(alpha, rel=1e-10)
    # more comparisons need a higher threshold
    assert risk_checks.z_threshold(16, 0.01) > risk_checks.z_threshold(4, 0.01)


@pytest.mark.parametrize(
    ("comparisons", "alpha", "log_tail"),
    [
        (3, 5e-324, math.log(5e-324) - math.log(6)),  # once inf; 10**400 overflowed
        (10**400, 0.01, math.log(0.01) - math.log(2) - 400 * math.log(10)),
        (10**300, 1e-300, math.log(1e-300) - math.log(2) - 300 * math.log(10)),
    ],
    ids=["alpha-5e-324", "comparisons-1e400", "both-far"],
)
def test_z_threshold_past_the_floats_solves_the_log_tail(comparisons, alpha, log_tail):
    # the threshold t has log P(Z > t) = log(alpha / (2 comparisons)); 38.51 for the
    # first row
    z = risk_checks.z_threshold(comparisons, alpha)
    assert np.isfinite(z)
    assert stats.norm.logsf(z) == pytest.approx(log_tail, rel=1e-12)


def test_z_threshold_is_continuous_where_the_tail_leaves_the_floats():
    tiny = np.finfo(float).tiny
    below, above = (risk_checks.z_threshold(1, 2 * tiny * f) for f in (0.999, 1.001))
    assert 0 < below - above < 1e-3


def test_z_threshold_false_failure_rate_by_simulation():
    rng = np.random.default_rng(3)
    z = np.abs(rng.standard_normal((200_000, 16))).max(axis=1)
    rate = np.mean(z > risk_checks.z_threshold(16, 0.01))
    assert rate <= 0.01 + 3 * np.sqrt(0.01 / 200_000)


@pytest.mark.parametrize(
    "comparisons, alpha, error, match",
    [
        (0, 0.01, ValueError, "^comparisons"),
        (2.5, 0.01, ValueError, "^comparisons"),
        (None, 0.01, TypeError, "^comparisons"),
        (np.array([3]), 0.01, ValueError, "^comparisons"),
        (3, 0.0, ValueError, "^alpha"),
        (3, 1.0, ValueError, "^alpha"),
        (3, float("nan"), ValueError, "^alpha"),
        (3, "0.1", TypeError, "^alpha"),
    ],
)
def test_z_threshold_rejects_bad_arguments(comparisons, alpha, error, match):
    with pytest.raises(error, match=match):
        risk_checks.z_threshold(comparisons, alpha)


def test_risk_curves_match_exact_risk_with_equal_tasks_at_every_size():
    sizes = [4, 40]
    curves = risk_checks.risk_curves(
        RULES, sizes, tasks.Fixed(0.3), 20000, seed=(7, 3), batch=100_000
    )
    assert list(curves.sizes) == sizes and list(curves.tasks) == [20000, 20000]
    exact = [risk_nearest_positive(0.3, n) for n in sizes]
    z = curves.z({"positive": exact, "midpoint": curves.risks["midpoint"].value})
    assert np.max(np.abs(z["positive"])) < 4.5
    assert np.all(z["midpoint"] == 0)


def test_risk_curves_streams_are_per_size():
    curves = risk_checks.risk_curves(RULES, [3, 5], tasks.Fixed(0.6), 50, seed=(7, 4))
    direct = baselines.monte_carlo_risks(
        RULES, 5, tasks.Fixed(0.6), tasks_per_batch=50, rng=(7, 4, 1)
    )
    assert curves.risks["midpoint"].value[1] == direct["midpoint"].value
    assert curves.risks["midpoint"].se[1] == direct["midpoint"].se


def test_risk_curves_name_their_bad_arguments():
    with pytest.raises(ValueError, match="sizes"):
        risk_checks.risk_curves(RULES, [0, 3], tasks.Fixed(0.5), 10, seed=1)
    with pytest.raises(ValueError, match="tasks_per_size"):
        risk_checks.risk_curves(RULES, [3], tasks.Fixed(0.5), 1, seed=1)
