"""Tests for stumplib.calibration.

The valley a*(b), min_a L and the limit L(a -> inf, b).

References: a bounded scalar minimization of population.loss (independent of the
gradient root search), population.loss at a label score so large that no negative
leaks, and scipy.integrate.quad of the positives-only bias ``1/b - q/(e^{bq} - 1)``.
"""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import integrate, optimize, special

from stumplib import calibration, population, tasks

INTERIOR, FULL = tasks.Uniform(0.1, 0.9), tasks.Uniform(0.0, 1.0)


@pytest.mark.parametrize("b", [1.0, 5.0, 50.0, 400.0])
def test_a_star_matches_bounded_minimization(b):
    a = calibration.a_star(b, INTERIOR)
    guess = calibration.guess(b, INTERIOR)
    ref = optimize.minimize_scalar(
        lambda x: population.loss(x, b, INTERIOR),
        bounds=(guess - 5, guess + 5),
        method="bounded",
        options=dict(xatol=1e-9),
    )
    # the loss is flat to second order at the minimum: its argmin is known to ~sqrt(eps)
    assert abs(a - ref.x) < 1e-5 * max(1.0, abs(a))
    assert population.loss(a, b, INTERIOR) <= ref.fun * (1 + 1e-14)


@pytest.mark.parametrize("b", [1.0, 30.0, 1e3, 1e6])
def test_a_star_is_a_root_and_a_minimum(b):
    a = calibration.a_star(b, INTERIOR)
    assert isinstance(a, float)
    loss = population.loss(a, b, INTERIOR)
    _, g_lo, _ = population.loss_and_gradient(a - 0.01, b, INTERIOR)
    _, g_hi, _ = population.loss_and_gradient(a + 0.01, b, INTERIOR)
    assert g_lo < 0 < g_hi
    assert loss <= population.loss(a - 0.01, b, INTERIOR)
    assert loss <= population.loss(a + 0.01, b, INTERIOR)


def test_a_star_vectorized_keeps_shape():
    b = np.array([[2.0, 20.0], [200.0, 2000.0]])
    a = calibration.a_star(b, INTERIOR)
    assert a.shape == b.shape
    assert a[1, 1] == calibration.a_star(2000.0, INTERIOR)


def test_a_star_asymptotics_reference_values():
    # a* = hi b + log b + log(hi/2) - 2/(hi b) + O(1/b^2)  (derived in chapter 3)
    for b in (1e3, 1e4, 1e5):
        off = calibration.a_star(b, INTERIOR) - calibration.guess(b, INTERIOR)
        assert off * b == pytest.approx(-2 / 0.9, abs=20 / b)


def test_min_loss_scaled_tends_to_one_with_derived_correction():
    b = np.array([1e3, 1e4])
    scaled = b**2 * calibration.min_loss(b, INTERIOR)
    assert scaled.shape == b.shape
    np.testing.assert_allclose((scaled - 1) * b * 0.8, -2.0, atol=20 / b[0])


def test_min_loss_scalar_is_loss_at_a_star():
    a = calibration.a_star(40.0, INTERIOR)
    assert calibration.min_loss(40.0, INTERIOR) == population.loss(a, 40.0, INTERIOR)


@pytest.mark.parametrize(
    "prior", [FULL, INTERIOR, tasks.Uniform(0.5, 1.0), tasks.Uniform(0.0, 0.3)]
)
@pytest.mark.parametrize("b", [0.5, 3.0, 100.0, 1e4])
def test_loss_at_infinity_matches_population_at_huge_a(prior, b):
    # at a = b + 300 the leaked weight is below e^-300: population.loss equals L(inf, b)
    ref = population.loss(b + 300.0, b, prior)
    assert calibration.loss_at_infinity(b, prior) == pytest.approx(ref, rel=1e-11)


def test_loss_at_infinity_matches_quad_of_positive_bias():
    b = 7.0
    bias = lambda q: 1 / b - q / np.expm1(b * q) if q > 0 else 1 / b - 1 / b
    ref = integrate.quad(lambda q: bias(q) ** 2, 0.0, 1.0, epsabs=0, epsrel=1e-13)[0]
    assert calibration.loss_at_infinity(b, FULL) == pytest.approx(ref, rel=1e-12)


def test_scaled_loss_at_infinity_full_prior_has_zeta3_correction():
    # b^2 L(inf, b) = 1 - 2 zeta(3)/b + O(b e^-b): exact up to exponentially small terms
    for b in (60.0, 1e3, 1e6):
        expected = 1 - 2 * special.zeta(3) / b
        assert calibration.scaled_loss_at_infinity(b, FULL) == pytest.approx(
            expected, abs=1e-14
        )


@given(st.floats(0.0, 0.8), st.floats(0.05, 0.95), st.floats(1.0, 1e4))
@settings(max_examples=15)
def test_property_gradient_changes_sign_at_a_star(lo, width, b):
    hi = min(lo + width, 0.99)
    assume(hi * b >= 10)  # at low resolution the minimizer may run off to a = -inf
    prior = tasks.Uniform(lo, hi)
    a = calibration.a_star(b, prior)
    step = 1e-3
    assert (
        population.gradient(a - step, b, prior)[0]
        < 0
        < population.gradient(a + step, b, prior)[0]
    )


@given(st.floats(0.5, 1e5))
@settings(max_examples=20)
def test_property_loss_at_infinity_between_zero_and_bias_squared(b):
    # the positives' bias lies in [0, 1/b], so 0 <= b^2 L(inf, b) <= 1
    assert 0.0 <= calibration.scaled_loss_at_infinity(b, FULL) <= 1.0


@pytest.mark.parametrize("b", [1.0, 10.0, 1e3])
def test_full_prior_has_no_finite_minimizer(b):
    with pytest.raises(ValueError, match="no finite minimizer"):
        calibration.a_star(b, FULL)
    with pytest.raises(ValueError, match="no finite minimizer"):
        calibration.min_loss(b, tasks.Uniform(0.3, 1.0))


def test_low_resolution_minimizer_at_minus_infinity_is_reported():
    # U[0, 0.5] at b = 1: the loss increases in a (negatives alone do better)
    prior = tasks.Uniform(0.0, 0.5)
    assert population.loss(-60.0, 1.0, prior) < population.loss(0.0, 1.0, prior)
    with pytest.raises(ValueError, match="no finite minimizer.*increases in a"):
        calibration.a_star(1.0, prior)


@pytest.mark.parametrize(
    "func",
    [
        calibration.a_star,
        calibration.min_loss,
        calibration.loss_at_infinity,
        calibration.guess,
        calibration.scaled_loss_at_infinity,
    ],
)
def test_bad_inputs(func):
    with pytest.raises(ValueError, match="b must be positive"):
        func(0.0, INTERIOR)
    with pytest.raises(ValueError, match="b must be finite"):
        func(np.nan, INTERIOR)
    with pytest.raises(TypeError, match="^prior must be a tasks.Uniform prior"):
        func(10.0, tasks.Beta(2, 2))


def test_a_star_with_beta_features_minimizes_the_loss():
    b, features = 50.0, tasks.Beta(2.0, 2.0)
    a = calibration.a_star(b, INTERIOR, features)
    res = optimize.minimize_scalar(
        lambda x: population.loss(x, b, INTERIOR, features),
        bounds=(a - 2, a + 2),
        method="bounded",
        options={"xatol": 1e-7},
    )
    assert a == pytest.approx(res.x, abs=1e-4)
    assert abs(population.gradient(a, b, INTERIOR, features)[0]) < 1e-12


def test_off_valley_reference_values():
    b = np.array([20.0, 80.0])
    valley = calibration.a_star(b, INTERIOR)
    a = valley + np.array([0.0, -1.0])
    result = calibration.off_valley(a, b, INTERIOR)
    assert result.offset == pytest.approx([0.0, -1.0], abs=1e-12)
    assert result.inefficiency[0] == 0.0
    expected = (
        population.loss(a[1], 80.0, INTERIOR) / calibration.min_loss(80.0, INTERIOR) - 1
    )
    assert result.inefficiency[1] == pytest.approx(expected, rel=1e-12)
    assert result.inefficiency[1] > 0  # one unit below the valley costs loss


@settings(max_examples=25, deadline=None)
@given(st.floats(2.0, 500.0), st.floats(-3.0, 3.0))
def test_property_off_valley_inefficiency_is_nonnegative(b, shift):
    a = calibration.a_star(b, INTERIOR) + shift
    result = calibration.off_valley([a], [b], INTERIOR)
    assert result.offset[0] == pytest.approx(shift, abs=1e-9)
    assert result.inefficiency[0] >= -1e-12  # a* minimizes the loss (to rounding)


def test_off_valley_keeps_shape_and_accepts_empty():
    b = np.array([[10.0, 20.0], [40.0, 80.0]])
    result = calibration.off_valley(calibration.a_star(b, INTERIOR) + 0.5, b, INTERIOR)
    assert result.offset.shape == result.inefficiency.shape == (2, 2)
    empty = calibration.off_valley([], [], INTERIOR)
    assert empty.offset.shape == empty.inefficiency.shape == (0,)


@pytest.mark.parametrize(
    "a, b, prior, error, message",
    [
        ([1.0, 2.0], [10.0], INTERIOR, ValueError, "a and b must have the same shape"),
        ([1.0], [0.0], INTERIOR, ValueError, "b must be positive"),
        ([np.nan], [10.0], INTERIOR, ValueError, "a must be finite"),
        (["x"], [10.0], INTERIOR, TypeError, "a must hold real numbers"),
        ([10.0], [10.0], FULL, ValueError, "no finite minimizer"),
        ([10.0], [10.0], tasks.Beta(2, 2), TypeError, "prior must be a tasks.Uniform"),
    ],
)
def test_off_valley_bad_inputs(a, b, prior, error, message):
    with pytest.raises(error, match=message):
        calibration.off_valley(a, b, prior)


def test_offset_is_the_distance_from_the_valley():
    prior = tasks.Uniform(0.1, 0.9)
    b = np.array([5.0, 40.0])
    a = calibration.a_star(b, prior) + np.array([0.25, -1.5])
    np.testing.assert_allclose(
        calibration.offset(a, b, prior), [0.25, -1.5], atol=1e-12
    )
    assert (
        calibration.offset(float(calibration.a_star(10.0, prior)), 10.0, prior) == 0.0
    )
    # broadcasting: one scale, several label scores
    out = calibration.offset([1.0, 2.0], 10.0, prior)
    np.testing.assert_allclose(np.diff(out), [1.0], rtol=1e-14)


@given(st.floats(3.0, 300.0), st.floats(-5.0, 5.0))
@settings(max_examples=25, deadline=None)
def test_property_offset_shifts_with_a(b, shift):
    prior = tasks.Uniform(0.1, 0.9)
    a = calibration.a_star(b, prior) + shift
    assert calibration.offset(a, b, prior) == pytest.approx(shift, abs=1e-9)


def test_offset_errors_name_the_argument():
    prior = tasks.Uniform(0.1, 0.9)
    with pytest.raises(ValueError, match="^a must be finite"):
        calibration.offset(np.nan, 10.0, prior)
    with pytest.raises(ValueError, match="^b must be positive"):
        calibration.offset(1.0, -1.0, prior)
    with pytest.raises(ValueError, match="^a .*must broadcast"):
        calibration.offset([1.0, 2.0], [1.0, 2.0, 3.0], prior)
    with pytest.raises(TypeError, match="prior must be a tasks.Uniform"):
        calibration.offset(1.0, 10.0, tasks.Beta(2.0, 2.0))


@settings(max_examples=40, deadline=None)
@given(st.floats(-5.0, 5.0, allow_nan=False))
def test_layer_moment_is_the_integral(top):
    ref = integrate.quad(lambda r: r * (1.0 - r) ** 2, 0.0, top)[0]
    assert calibration.layer_moment(top) == pytest.approx(ref, rel=1e-12, abs=1e-14)


def test_layer_moment_reference_values():
    # int_0^2 r (1 - r)^2 dr = 2 - 16/3 + 4 = 2/3; at top = 1, 1/2 - 2/3 + 1/4 = 1/12
    assert calibration.layer_moment(2.0) == pytest.approx(2.0 / 3.0, rel=1e-15)
    assert calibration.layer_moment(1.0) == pytest.approx(1.0 / 12.0, rel=1e-14)
    assert calibration.layer_moment(0.0) == 0.0
    with pytest.raises(ValueError, match="top"):
        calibration.layer_moment(np.inf)
    with pytest.raises(ValueError, match="top"):
        calibration.layer_moment(-1e76)
    with pytest.raises(TypeError, match="top"):
        calibration.layer_moment("1.0")
