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
