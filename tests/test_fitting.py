"""Tests for stumplib.fitting: power-law fits and their standard errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stumplib import fitting


def test_exact_power_law_is_recovered_with_zero_error():
    x = np.geomspace(1.0, 1e4, 9)
    fit = fitting.power_law(x, 3.0 * x**-0.25)
    assert fit.slope == pytest.approx(-0.25, abs=1e-12)
    assert fit.prefactor == pytest.approx(3.0, rel=1e-12)
    assert fit.slope_se == pytest.approx(0.0, abs=1e-12)
    assert fit(16.0) == pytest.approx(1.5)


def test_reference_values_of_an_unweighted_fit():
    # log y = [0, 1, 1, 2] at log x = [0, 1, 2, 3]: OLS slope 0.6, intercept 0.1,
    # residual variance 0.2/2 = 0.1, var(slope) = 0.1 / 5, var(intercept) = 0.1 * 14 /
    # 20.
    x = np.exp([0.0, 1.0, 2.0, 3.0])
    fit = fitting.power_law(x, np.exp([0.0, 1.0, 1.0, 2.0]))
    assert fit.slope == pytest.approx(0.6)
    assert fit.log_prefactor == pytest.approx(0.1)
    assert fit.slope_se == pytest.approx(np.sqrt(0.02))
    assert fit.log_prefactor_se == pytest.approx(np.sqrt(0.07))


def test_weighted_standard_errors_match_monte_carlo_scatter():
    rng = np.random.default_rng(0)
    x = np.geomspace(10, 1e4, 12)
    rel = 0.05 * np.ones_like(x)
    slopes, ses = [], []
    for _ in range(2000):
        y = 2.0 / x * np.exp(rel * rng.standard_normal(x.size))
        fit = fitting.power_law(x, y, y_se=rel * y)
        slopes.append(fit.slope)
        ses.append(fit.slope_se)
    assert np.mean(slopes) == pytest.approx(
        -1.0, abs=3 * np.std(slopes) / np.sqrt(2000)
    )
    assert np.std(slopes) == pytest.approx(np.mean(ses), rel=0.05)


@settings(max_examples=50, deadline=None)
@given(slope=st.floats(-3, 3), log_c=st.floats(-5, 5), shift=st.floats(0.1, 10))
def test_fit_is_equivariant_under_rescaling_x(slope, log_c, shift):
    rng = np.random.default_rng(1)
    x = np.geomspace(1, 100, 7)
    y = np.exp(log_c + slope * np.log(x) + 0.1 * rng.standard_normal(7))
    base, scaled = fitting.power_law(x, y), fitting.power_law(shift * x, y)
    assert scaled.slope == pytest.approx(base.slope, abs=1e-9)
    assert scaled.slope_se == pytest.approx(base.slope_se, rel=1e-6, abs=1e-12)
    assert scaled.log_prefactor == pytest.approx(
        base.log_prefactor - base.slope * np.log(shift), abs=1e-8
    )


@pytest.mark.parametrize(
    "x, y, y_se, message",
    [
        ([1, 2, 3], [1, 2], None, "same length"),
        ([1, 2], [1, 2], None, "at least 3 points"),
        ([1, 2, -3], [1, 2, 3], None, "x must be positive"),
        ([1, 2, 3], [1, 0, 3], None, "y must be positive"),
        ([2, 2, 2], [1, 2, 3], None, "two distinct"),
        ([1, 2, 3], [1, 2, 3], [1, 1], "y_se must have the shape"),
        ([1, 2, 3], [1, 2, 3], [1, np.nan, 1], "y_se must be finite"),
    ],
)
def test_bad_input_is_rejected(x, y, y_se, message):
    with pytest.raises(ValueError, match=message):
        fitting.power_law(x, y, y_se)


def test_pooled_reference_values():
    # weights 1/0.1^2 = 100 and 1/0.2^2 = 25: mean (100 + 25 * 2) / 125 = 1.2, se
    # 125^-1/2
    result = fitting.pooled([1.0, 2.0], [0.1, 0.2])
    assert result.value == pytest.approx(1.2)
    assert result.se == pytest.approx(125**-0.5)
    assert fitting.pooled([3.0], [0.5]) == (3.0, 0.5)


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.tuples(st.floats(-10, 10), st.floats(1e-3, 10)), min_size=1, max_size=8)
)
def test_pooled_lies_within_the_values_and_beats_every_se(pairs):
    values, se = (np.array(v) for v in zip(*pairs))
    result = fitting.pooled(values, se)
    assert values.min() - 1e-9 <= result.value <= values.max() + 1e-9
    assert result.se <= se.min() * (1 + 1e-12)
    # order does not matter
    again = fitting.pooled(values[::-1], se[::-1])
    assert again.value == pytest.approx(result.value, abs=1e-9)


def test_pooled_standard_error_matches_monte_carlo_scatter():
    rng = np.random.default_rng((5, 0))
    se = np.array([0.1, 0.3, 0.5])
    draws = rng.normal(2.0, se, size=(20000, 3))
    pooled = np.array([fitting.pooled(d, se).value for d in draws])
    # the scatter of 20000 pooled means estimates se to about 0.5%
    assert pooled.std() == pytest.approx(fitting.pooled([0, 0, 0], se).se, rel=0.03)
    assert pooled.mean() == pytest.approx(2.0, abs=5 * pooled.std() / np.sqrt(20000))


@pytest.mark.parametrize(
    "values, se, error, message",
    [
        ([1.0, 2.0], [0.1], ValueError, "values and se must have the same shape"),
        ([], [], ValueError, "values must be 1-D and not empty"),
        ([[1.0]], [[1.0]], ValueError, "values must be 1-D"),
        ([1.0, np.nan], [0.1, 0.1], ValueError, "values must be finite"),
        ([1.0, 2.0], [0.1, 0.0], ValueError, "se must be positive"),
        (["a"], [0.1], TypeError, "values must"),
    ],
)
def test_pooled_bad_input(values, se, error, message):
    with pytest.raises(error, match=message):
        fitting.pooled(values, se)


def test_least_squares_recovers_a_polynomial_exactly():
    x = np.linspace(1.0, 3.0, 7)
    design = np.column_stack([np.ones_like(x), x, x**2])
    fit = fitting.least_squares(design, 2.0 - x + 0.5 * x**2)
    np.testing.assert_allclose(fit.coef, [2.0, -1.0, 0.5], rtol=1e-12)
    np.testing.assert_allclose(fit.se, 0.0, atol=1e-12)


def test_least_squares_standard_errors_from_residuals_and_from_weights():
    rng = np.random.default_rng(3)
    x = np.linspace(0.0, 1.0, 400)
    design = np.column_stack([np.ones_like(x), x])
    y = 1.0 + 2.0 * x + 0.1 * rng.standard_normal(x.size)
    scatter = fitting.least_squares(design, y)
    known = fitting.least_squares(design, y, weights=np.full(x.size, 10.0))
    # the residual scatter estimates the noise level 0.1 that the weights state
    np.testing.assert_allclose(scatter.se, known.se, rtol=0.1)
    np.testing.assert_allclose(scatter.coef, known.coef, rtol=1e-12)
    # the textbook intercept error sigma sqrt(1/n + mean(x)^2 / Sxx)
    sxx = np.sum((x - x.mean()) ** 2)
    assert known.se[0] == pytest.approx(0.1 * np.sqrt(1 / x.size + x.mean() ** 2 / sxx))


def test_least_squares_needs_more_points_than_coefficients():
    design = np.column_stack([np.ones(2), [1.0, 2.0]])
    with pytest.raises(ValueError, match="^design must have more rows"):
        fitting.least_squares(design, [1.0, 2.0])
    with pytest.raises(ValueError, match="^y must"):
        fitting.least_squares(np.ones((3, 1)), [1.0, 2.0])


@pytest.mark.parametrize(
    "scales", [(1e100, 1e-100), (1e-100, 1e100), (1.0, 1e200), (1e-200, 1.0)]
)
def test_least_squares_is_equivariant_under_column_scales(scales):
    # a column scaled by c has its coefficient and standard error divided by c (once:
    # 1.5e-299 for 1.99e100, and coefficient 0 with se NaN for a column at 1e200)
    rng = np.random.default_rng(4)
    x = np.linspace(0.0, 1.0, 30)
    design = np.column_stack([np.ones_like(x), x])
    y = 1.0 + 2.0 * x + 0.1 * rng.standard_normal(x.size)
    plain = fitting.least_squares(design, y)
    scaled = fitting.least_squares(design * np.array(scales), y)
    np.testing.assert_allclose(scaled.coef * scales, plain.coef, rtol=1e-12)
    np.testing.assert_allclose(scaled.se * scales, plain.se, rtol=1e-12)
    weights = np.full(30, 10.0)
    known = fitting.least_squares(design, y, weights)
    weighted = fitting.least_squares(design * np.array(scales), y, weights)
    np.testing.assert_allclose(weighted.coef * scales, known.coef, rtol=1e-12)
    np.testing.assert_allclose(weighted.se * scales, known.se, rtol=1e-12)


@pytest.mark.parametrize("scale", [1e-300, 1e-150, 1e150, 1e300])
def test_least_squares_is_equivariant_under_the_data_scale(scale):
    x = np.linspace(0.0, 1.0, 12)
    design = np.column_stack([np.ones_like(x), x])
    y = 1.0 + 2.0 * x + np.sin(7 * x) / 10
    plain, scaled = (fitting.least_squares(design, c * y) for c in (1.0, scale))
    np.testing.assert_allclose(scaled.coef / scale, plain.coef, rtol=1e-12)
    np.testing.assert_allclose(scaled.se / scale, plain.se, rtol=1e-12)


def test_least_squares_names_linearly_dependent_columns():
    x = np.linspace(0.0, 1.0, 6)
    for design in (
        np.column_stack([x, 2 * x]),
        np.column_stack([np.ones_like(x), x, 1 - x]),
        np.column_stack([np.ones_like(x), np.zeros_like(x)]),
    ):
        with pytest.raises(ValueError, match="^design must have linearly independent"):
            fitting.least_squares(design, x)


@pytest.mark.parametrize("scale", [1e-300, 1e-160, 1e200, 1e300])
def test_pooled_is_equivariant_under_the_error_scale(scale):
    # se of 1e-300 or 1e-160 once gave NaN (the weights overflowed), 1e200 a
    # ZeroDivisionError (they vanished)
    plain = fitting.pooled([1.0, 2.0], [1.0, 2.0])
    scaled = fitting.pooled([1.0, 2.0], [scale, 2 * scale])
    assert scaled.value == pytest.approx(plain.value, rel=1e-15)
    assert scaled.se / scale == pytest.approx(plain.se, rel=1e-15)


def test_pooled_errors_far_apart_give_the_precise_value():
    result = fitting.pooled([1.0, 2.0, 3.0], [1e-300, 1.0, 1e200])
    assert result == (1.0, 1e-300)


class TestBoundTrend:
    def test_a_bound_with_no_log_factor_is_flat(self):
        rng = np.random.default_rng(0)
        x = np.repeat([100.0, 300.0, 1000.0, 3000.0], 8)
        y = 30.0 / x * np.exp(0.1 * rng.standard_normal(x.size))
        trend = fitting.bound_trend(x, y)
        assert (trend.lo, trend.hi) == (100.0, 3000.0)
        assert trend.sup == pytest.approx(np.max(x * y), rel=1e-15)
        assert abs(trend.slope) < 3 * trend.slope_se
        # the standard error is the least-squares one of log(y x) on log x
        fit = np.polyfit(np.log(x), np.log(x * y), 1, cov=True)
        assert trend.slope == pytest.approx(fit[0][0], rel=1e-10)
        assert trend.slope_se == pytest.approx(np.sqrt(fit[1][0, 0]), rel=1e-10)

    def test_one_log_factor_has_log_power_one(self):
        x = np.geomspace(1e3, 1e4, 7)
        trend = fitting.bound_trend(x, np.log(x) / x)
        # local slope of log(log x) is 1/log x: about one power at the middle
        assert trend.log_power() == pytest.approx(1.0, rel=0.01)

    @pytest.mark.parametrize(
        ("x", "y", "message"),
        [
            ([1.0, 2.0], [1.0, 1.0], "x must hold at least three points"),
            ([1.0, 1.0, 1.0], [1.0, 2.0, 3.0], "x must hold at least three points"),
            ([1.0, 2.0, 3.0], [1.0, 2.0], "x and y must be 1-D of one length"),
            ([1.0, -2.0, 3.0], [1.0, 2.0, 3.0], "x must be positive"),
            ([1.0, 2.0, 3.0], [1.0, 0.0, 3.0], "y must be positive"),
        ],
    )
    def test_errors_name_the_argument(self, x, y, message):
        with pytest.raises(ValueError, match=f"^{message}"):
            fitting.bound_trend(x, y)


def test_inverse_expansion_exact_polynomial():
    b = np.geomspace(10, 1000, 20)
    fit = fitting.inverse_expansion(b, 4.0 - 3.0 / b + 2.0 / b**2, degree=2)
    np.testing.assert_allclose(fit.coef, [4.0, -3.0, 2.0], atol=1e-9)
    assert np.all(fit.se < 1e-8)
    assert fit(50.0) == pytest.approx(4 - 3 / 50 + 2 / 2500)


@settings(max_examples=25, deadline=None)
@given(st.floats(-5, 5), st.floats(-50, 50), st.integers(0, 2))
def test_inverse_expansion_recovers_linear(c0, c1, seed):
    rng = np.random.default_rng(seed)
    b = np.geomspace(5, 500, 30)
    noise = 1e-6 * rng.standard_normal(30)
    fit = fitting.inverse_expansion(b, c0 + c1 / b + noise, degree=1)
    assert abs(fit.coef[0] - c0) <= 6 * fit.se[0] + 1e-12
    assert abs(fit.coef[1] - c1) <= 6 * fit.se[1] + 1e-10


def test_inverse_expansion_errors():
    with pytest.raises(ValueError, match="at least 4 points"):
        fitting.inverse_expansion([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], degree=2)
    with pytest.raises(ValueError, match="same length"):
        fitting.inverse_expansion([1.0, 2.0, 3.0], [1.0, 2.0], degree=0)
    with pytest.raises(ValueError, match="b must be positive"):
        fitting.inverse_expansion([0.0, 2.0, 3.0], [1.0, 2.0, 3.0], degree=0)


def test_extrapolate_tolerance_covers_truncation():
    b = np.geomspace(50, 500, 30)
    y = 2.0 + 1.0 / b + 30.0 / b**3  # a cubic term the degree-1 fit omits
    lim = fitting.extrapolate(b, y, degree=1)
    assert abs(lim.limit - 2.0) <= lim.limit_tol
    assert abs(lim.slope - 1.0) <= lim.slope_tol
    with pytest.raises(ValueError, match="degree must be an integer >= 1"):
        fitting.extrapolate(b, y, degree=0)


def test_extrapolate_log_terms():
    b = np.geomspace(50, 500, 30)
    y = 2.0 + 1.0 / b + 40.0 * np.log(b) / b**2
    plain = fitting.extrapolate(b, y, degree=2)
    with_log = fitting.extrapolate(b, y, degree=2, log=True)
    assert abs(with_log.limit - 2.0) < 1e-9 and abs(with_log.slope - 1.0) < 1e-6
    assert abs(plain.limit - 2.0) > 1e-6  # a pure power series misses the logarithm
    fit = fitting.inverse_expansion(b, y, degree=2, log=True)
    np.testing.assert_allclose(fit.coef, [2.0, 1.0, 0.0, 40.0], atol=1e-6)


def test_extrapolate_with_log_terms_from_the_first_power():
    b = np.geomspace(50, 2000, 30)
    y = -0.3 + (2.0 * np.log(b) - 1.0) / b + 5.0 / b**2
    limit, tol, *_ = fitting.extrapolate(b, y, log=True, log_from=1, truncation="last")
    assert abs(limit + 0.3) <= tol and tol < 1e-3


def test_extrapolate_errors():
    b = np.geomspace(50, 2000, 8)
    with pytest.raises(ValueError, match="^truncation must be 'next' or 'last'"):
        fitting.extrapolate(b, np.ones(8), truncation="previous")
    with pytest.raises(ValueError, match="^degree must be an integer >= 2"):
        fitting.extrapolate(b, np.ones(8), degree=1, truncation="last")
    with pytest.raises(ValueError, match="^this fit needs at least 6 points"):
        fitting.extrapolate(b[:5], np.ones(5), log=True, log_from=1, truncation="last")
    with pytest.raises(ValueError, match="^y must be finite"):
        fitting.extrapolate(b, [1, 2, np.nan, 4, 5, 6, 7, 8])
    # repeated scales were a LinAlgError naming nothing
    with pytest.raises(ValueError, match="^b must hold at least 6 distinct scales"):
        fitting.extrapolate(
            [2, 2, 2, 3, 3, 3, 4, 4, 5, 5],
            np.arange(10.0),
            log=True,
            log_from=1,
            truncation="last",
        )
