"""stumplib.gradcheck: central differences and their rounding-aware comparison."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stumplib import gradcheck, head, tasks


def product(a, b):
    return a**2 * b


def test_central_differences_of_a_quadratic_are_exact_in_a():
    d_a, d_b = gradcheck.central_differences(product, 3.0, 2.0, 0.5)
    assert d_a == pytest.approx(12.0, rel=1e-15)
    assert d_b == pytest.approx(9.0, rel=1e-15)


@given(st.floats(-5, 5), st.floats(0.1, 5))
def test_central_differences_pass_extra_arguments(a, b):
    d_a, _ = gradcheck.central_differences(np.add, a, b, 1e-3)
    assert d_a == pytest.approx(1.0, abs=1e-9)


def test_compare_counts_resolved_and_measures_relative_error():
    a, b = np.array([1.0, 2.0]), np.array([1.0, 10.0])
    gradient = (np.array([1.0, 2.0]), np.array([4.0, 1e-20]))
    differences = (np.array([1.0 + 1e-6, 2.0]), np.array([4.0, 0.0]))
    result = gradcheck.compare(gradient, differences, a, b, 1e-2)
    assert result.compared == 4
    assert result.resolved == 3  # the 1e-20 entry is below rounding
    assert result.relative == pytest.approx(1e-6)
    assert result.noise == pytest.approx(1e-20 * 1e-2 / (2.220446049250313e-16 * 13))
    assert result.b_max == 10.0


def test_compare_of_the_head_gradient_is_within_truncation():
    rng = np.random.default_rng((14, 0))
    x, y, _ = tasks.sample_contexts(50, 20, rng=rng)
    contexts = head.Contexts(x, y)
    b = 10 ** rng.uniform(-1, 2, 50)
    a = b * rng.uniform(0, 1, 50)
    h = 1e-2
    differences = gradcheck.central_differences(head.estimate, a, b, h, contexts)
    result = gradcheck.compare(head.gradient(a, b, contexts), differences, a, b, h)
    assert 0 < result.resolved <= result.compared == 100
    assert result.relative <= np.exp(h) * h**2 / 6 + 1e-5


def test_compare_detects_a_wrong_gradient():
    a = b = np.ones(3)
    differences = gradcheck.central_differences(product, a, b, 1e-3)
    wrong = (2 * differences[0], differences[1])
    assert gradcheck.compare(wrong, differences, a, b, 1e-3).relative >= 0.49


@pytest.mark.parametrize("h", [0.0, -1.0, np.nan])
def test_step_must_be_positive(h):
    with pytest.raises(ValueError, match="h"):
        gradcheck.central_differences(product, 1.0, 1.0, h)


def test_shapes_must_match():
    with pytest.raises(ValueError, match="gradient and differences"):
        gradcheck.compare((np.ones(2), np.ones(2)), (np.ones(2),), np.ones(2), 1.0, 0.1)


def test_non_finite_gradient_is_named():
    with pytest.raises(ValueError, match="gradient"):
        gradcheck.compare((np.array([np.nan]),) * 2, (np.ones(1),) * 2, 1.0, 1.0, 0.1)
