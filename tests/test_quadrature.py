"""Tests for stumplib.quadrature: composite Gauss-Legendre rules on graded panels."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stumplib import quadrature


def test_exact_for_polynomials_up_to_degree_2n_minus_1():
    # 20 nodes per panel: exact through degree 39 on each panel.
    nodes, weights = quadrature.gauss_legendre([0.0, 0.3, 1.0])
    assert nodes.shape == weights.shape == (2 * quadrature.NODES_PER_PANEL,)
    for k in (0, 1, 5, 17, 39):
        assert weights @ nodes**k == pytest.approx(1 / (k + 1), rel=1e-13)


def test_nodes_inside_their_panels_and_weights_positive():
    breaks = [0.0, 1e-9, 1e-3, 0.5, 1.0]
    nodes, weights = quadrature.gauss_legendre(breaks)
    assert np.all(weights > 0)
    per_panel = nodes.reshape(len(breaks) - 1, -1)
    for (lo, hi), row in zip(zip(breaks[:-1], breaks[1:]), per_panel):
        assert np.all((row > lo) & (row < hi))
    assert weights.sum() == pytest.approx(1.0, rel=1e-14)


def test_unsorted_duplicated_breaks_are_normalised():
    a = quadrature.gauss_legendre([1.0, 0.0, 0.5, 0.5])
    b = quadrature.gauss_legendre([0.0, 0.5, 1.0])
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)


def test_graded_panels_resolve_a_thin_layer():
    # integral of exp(-x/eps)/eps on [0, 1] = 1 - exp(-1/eps); a uniform rule with the same
    # node count would be wrong by orders of magnitude.
    eps = 1e-9
    pts = quadrature.clipped(quadrature.graded(0.0, 1e-2 * eps), 0.0, 1.0)
    nodes, weights = quadrature.gauss_legendre(pts)
    assert weights @ (np.exp(-nodes / eps) / eps) == pytest.approx(1.0, rel=1e-13)


def test_graded_points():
    pts = quadrature.graded(0.5, 0.01, largest=0.2)
    # center, then center -/+ 0.01 * 2^k for k = 0..ceil(log2(20)) = 0..5
    offsets = 0.01 * 2.0 ** np.arange(6)
    np.testing.assert_allclose(pts, np.concatenate([[0.5], 0.5 - offsets, 0.5 + offsets]))
    assert np.abs(pts - 0.5).max() >= 0.2  # reaches the requested distance


def test_graded_when_smallest_exceeds_largest():
    np.testing.assert_array_equal(quadrature.graded(0.0, 2.0, largest=1.0), [0.0, -2.0, 2.0])


@given(st.floats(-2, 2), st.floats(1e-12, 0.1), st.floats(0.05, 1.5))
def test_graded_geometric(center, smallest, largest):
    pts = quadrature.graded(center, smallest, largest)
    assert pts[0] == center
    below, above = np.split(pts[1:], 2)
    expected = smallest * 2.0 ** np.arange(below.size)
    # center -+ offset is rounded to the spacing of center: absolute tolerance 2 ulp(|center|)
    tol = 4e-16 * max(abs(center), smallest)
    np.testing.assert_allclose(center - below, expected, rtol=1e-15, atol=tol)
    np.testing.assert_allclose(above - center, expected, rtol=1e-15, atol=tol)
    assert expected[-1] >= largest * (1 - 1e-12)  # reaches the requested distance ...
    assert below.size == 1 or expected[-2] < largest  # ... and stops there


def test_clipped():
    out = quadrature.clipped([-1.0, 0.2, 0.5, 0.9, 1.0, 3.0], 0.1, 0.9)
    np.testing.assert_array_equal(np.sort(out), [0.1, 0.2, 0.5, 0.9])


@given(st.floats(0.0, 1.0), st.floats(1e-6, 1.0), st.floats(1e-3, 50.0))
def test_integrates_exponential_on_random_panels(lo, width, rate):
    hi = lo + width
    pts = quadrature.clipped(quadrature.graded(lo, width / rate * 1e-2, width), lo, hi)
    nodes, weights = quadrature.gauss_legendre(pts)
    exact = (np.exp(-rate * lo) - np.exp(-rate * hi)) / rate
    assert weights @ np.exp(-rate * nodes) == pytest.approx(exact, rel=1e-12)
