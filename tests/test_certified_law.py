"""Tests for stumplib.certified_law: C(b) along the population flow, predicted ends."""

import numpy as np
import pytest

from stumplib import calibration, certification, certified_law, population, tasks

PRIOR = tasks.Uniform(0.1, 0.9)


@pytest.fixture(scope="module")
def flow():
    return certified_law.flow_constant(200.0, PRIOR, points=12)


def test_flow_starts_on_the_valley_and_follows_the_gradient(flow):
    assert flow.b[0] == 2.5 and flow.b[-1] == pytest.approx(200.0)
    assert flow.a[0] == pytest.approx(float(calibration.a_star(2.5, PRIOR)))
    # the path's slope is the gradient's direction (da/db = g_a / g_b)
    i = 6
    h = 1e-3 * flow.b[i]
    ahead = certified_law.flow_constant(flow.b[i] + h, PRIOR, points=2).a[-1]
    behind = certified_law.flow_constant(flow.b[i] - h, PRIOR, points=2).a[-1]
    _, g_a, g_b = population.loss_and_gradient(flow.a[i], flow.b[i], PRIOR)
    assert (ahead - behind) / (2 * h) == pytest.approx(g_a / g_b, rel=1e-4)


def test_constant_is_sigma_over_root_b(flow):
    i = 4
    sigma = certification.sampling_coefficient(flow.a[i], flow.b[i], PRIOR)
    assert flow.constant[i] == pytest.approx(sigma / np.sqrt(flow.b[i]), rel=1e-12)


def test_constant_tends_to_the_slow_layer_constant_not_the_valley_one(flow):
    slow = calibration.slow_layer(PRIOR)
    assert flow.constant[-1] == pytest.approx(slow.constant, rel=0.03)
    offset = flow.a[-1] - float(calibration.a_star(flow.b[-1], PRIOR))
    assert offset == pytest.approx(slow.lag, abs=0.01)


def test_predicted_end_solves_the_equation():
    ends = certified_law.predicted_ends([400, 1600], PRIOR)
    np.testing.assert_allclose(4 * ends.constant**2 * ends.b / ends.m, 1.0, rtol=2e-3)
    assert np.all(np.diff(ends.b) > 0)


def test_predicted_end_reads_the_slow_curve_constant_at_large_m():
    ends = certified_law.predicted_ends([3200], PRIOR)
    c = calibration.slow_layer(PRIOR).constant
    assert ends.b[0] / 3200 == pytest.approx(1 / (4 * c**2), rel=0.06)


def test_bad_inputs_name_the_argument():
    with pytest.raises(ValueError, match="b_max must exceed b0"):
        certified_law.flow_constant(2.0, PRIOR)
    with pytest.raises(TypeError, match="prior"):
        certified_law.flow_constant(5.0, tasks.Beta(2.0, 2.0))
    with pytest.raises(ValueError, match="sizes"):
        certified_law.predicted_ends([0], PRIOR)


@pytest.mark.parametrize("support", [(0.1, 0.9), (0.3, 0.7)])
def test_slow_over_valley_tends_to_its_closed_form(support):
    prior = tasks.Uniform(*support)
    limit = certified_law.slow_over_valley_limit(prior)
    measured = certified_law.slow_over_valley(5000.0, prior)
    for got, want in zip(measured, limit):
        assert got == pytest.approx(want, rel=2e-3)
    # the farther scale is closer: the gap is a 1/b correction
    far = certified_law.slow_over_valley(20000.0, prior)
    assert abs(far.spread - limit.spread) < abs(measured.spread - limit.spread)


def test_the_two_factors_multiply_to_the_ratio_of_the_constants():
    limit = certified_law.slow_over_valley_limit(PRIOR)
    ratio = calibration.slow_layer(PRIOR).constant / calibration.sampling_constant(
        PRIOR
    )
    assert limit.constant == pytest.approx(ratio, rel=1e-12)
    assert limit.gradient == pytest.approx(np.sqrt(1.81), rel=1e-12)
    assert limit.leakage == pytest.approx(
        np.exp(-calibration.slow_layer(PRIOR).lag), rel=1e-12
    )


def test_the_valley_gradient_is_two_over_b_cubed_and_the_slow_one_smaller():
    b = 4000.0
    a = float(calibration.a_star(b, PRIOR))
    g = np.array(population.gradient(a, b, PRIOR))
    assert np.hypot(*g) * b**3 == pytest.approx(2.0, rel=2e-3)
    ratios = certified_law.slow_over_valley(b, PRIOR)
    assert ratios.gradient > 1.3


def test_slow_over_valley_bad_inputs_name_the_argument():
    with pytest.raises(ValueError, match="b"):
        certified_law.slow_over_valley(-1.0, PRIOR)
    with pytest.raises(TypeError, match="prior"):
        certified_law.slow_over_valley(10.0, tasks.Beta(2.0, 2.0))
    with pytest.raises(ValueError, match="prior"):
        certified_law.slow_over_valley_limit(tasks.Uniform(0.0, 1.0))
