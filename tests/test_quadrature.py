"""Tests for stumplib.quadrature: composite Gauss-Legendre rules on graded panels."""

import itertools

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
    for (lo, hi), row in zip(itertools.pairwise(breaks), per_panel):
        assert np.all((row > lo) & (row < hi))
    assert weights.sum() == pytest.approx(1.0, rel=1e-14)


def test_unsorted_duplicated_breaks_are_normalised():
    a = quadrature.gauss_legendre([1.0, 0.0, 0.5, 0.5])
    b = quadrature.gauss_legendre([0.0, 0.5, 1.0])
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)


def test_graded_panels_resolve_a_thin_layer():
    # integral of exp(-x/eps)/eps on [0, 1] = 1 - exp(-1/eps); a uniform rule with the
    # same node count would be wrong by orders of magnitude.
    eps = 1e-9
    pts = quadrature.clipped(quadrature.graded(0.0, 1e-2 * eps), 0.0, 1.0)
    nodes, weights = quadrature.gauss_legendre(pts)
    assert weights @ (np.exp(-nodes / eps) / eps) == pytest.approx(1.0, rel=1e-13)


def test_graded_points():
    pts = quadrature.graded(0.5, 0.01, largest=0.2)
    # center, then center -/+ 0.01 * 2^k for k = 0..ceil(log2(20)) = 0..5
    offsets = 0.01 * 2.0 ** np.arange(6)
    np.testing.assert_allclose(
        pts, np.concatenate([[0.5], 0.5 - offsets, 0.5 + offsets])
    )
    assert np.abs(pts - 0.5).max() >= 0.2  # reaches the requested distance


def test_graded_when_smallest_exceeds_largest():
    np.testing.assert_array_equal(
        quadrature.graded(0.0, 2.0, largest=1.0), [0.0, -2.0, 2.0]
    )


@given(st.floats(-2, 2), st.floats(1e-12, 0.1), st.floats(0.05, 1.5))
def test_graded_geometric(center, smallest, largest):
    pts = quadrature.graded(center, smallest, largest)
    assert pts[0] == center
    below, above = np.split(pts[1:], 2)
    expected = smallest * 2.0 ** np.arange(below.size)
    # center -+ offset is rounded to the spacing of center: absolute tolerance 2
    # ulp(|center|)
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


@given(st.floats(-0.95, -0.05), st.floats(0.0, 3.0))
def test_power_panel_is_exact_for_the_power_law(power, offset):
    # ∫_0^1 (c + t)^p dt = ((c + 1)^(p+1) - c^(p+1)) / (p + 1); the substitution makes
    # the integrand constant (c < 1), or the plain rule meets a singularity >= 1 away (c
    # >= 1)
    t, w = quadrature.power_panel(power, offset)
    exact = ((offset + 1) ** (power + 1) - offset ** (power + 1)) / (power + 1)
    assert w @ (offset + t) ** power == pytest.approx(exact, rel=1e-12)
    assert np.all((t > 0) & (t < 1)) and np.all(w > 0)


def test_power_panel_smooth_factor_and_plain_cases():
    # t^-0.9 e^{-3t} on [0, 1]: 10 γ(0.1, 3) 3^-0.1 / 10 = γ(0.1, 3) 3^-0.1
    from scipy import special

    t, w = quadrature.power_panel(-0.9)
    exact = special.gammainc(0.1, 3.0) * special.gamma(0.1) * 3.0**-0.1
    assert w @ (t**-0.9 * np.exp(-3 * t)) == pytest.approx(exact, rel=1e-12)
    plain = quadrature.gauss_legendre([0.0, 1.0])
    for power, offset in [(0.0, 0.0), (1.5, 0.0), (-0.5, 1.0)]:
        for u, v in zip(quadrature.power_panel(power, offset), plain):
            np.testing.assert_allclose(u, v, rtol=1e-15)
    nodes, weights = quadrature.power_panel([-0.5, 0.0], [[0.0], [0.5]])
    assert nodes.shape == weights.shape == (2, 2, quadrature.NODES_PER_PANEL)


def test_power_panel_rejects_bad_inputs():
    with pytest.raises(ValueError, match="power"):
        quadrature.power_panel(-1.0)
    with pytest.raises(ValueError, match="offset"):
        quadrature.power_panel(-0.5, -1e-3)
    with pytest.raises(TypeError, match="power"):
        quadrature.power_panel("0.5")
    with pytest.raises(ValueError, match="power"):
        quadrature.power_panel([-0.5, -0.2], [0.0, 0.1, 0.2])


def test_gauss_legendre_rows_matches_the_composite_rule():
    breaks = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    g, h, w = quadrature.gauss_legendre_rows(breaks[None, :], 1.0 - breaks[None, :])
    nodes, weights = quadrature.gauss_legendre(breaks)
    np.testing.assert_allclose(g[0], nodes, rtol=1e-15)
    np.testing.assert_allclose(h[0], 1.0 - nodes, rtol=0, atol=2.3e-16)  # one ulp at 1
    np.testing.assert_allclose(w[0], weights, rtol=1e-14)


def test_gauss_legendre_rows_rejects_bad_inputs():
    g = np.array([[0.0, 0.5, 1.0]])
    with pytest.raises(ValueError, match="sorted"):
        quadrature.gauss_legendre_rows(g[:, ::-1], 1.0 - g[:, ::-1])
    with pytest.raises(ValueError, match="h must be 1 - g"):
        quadrature.gauss_legendre_rows(g, g)
    with pytest.raises(ValueError, match="g and h"):
        quadrature.gauss_legendre_rows(g, 1.0 - g[0])
    with pytest.raises(ValueError, match="two breaks"):
        quadrature.gauss_legendre_rows([[0.5]], [[0.5]])
    with pytest.raises(TypeError, match="g"):
        quadrature.gauss_legendre_rows(None, g)
