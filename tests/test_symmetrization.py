"""Tests for stumplib.symmetrization: mirror equivariance, hard limits, gradients."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from stumplib import baselines, head, population, tasks
from stumplib import symmetrization as sym

# one context with both sides present, one with no positive, one with no negative
X = np.array(
    [
        [0.05, 0.2, 0.35, 0.6, 0.8],
        [0.05, 0.2, 0.35, 0.6, 0.8],
        [0.05, 0.2, 0.35, 0.6, 0.8],
    ]
)
Y = np.array(
    [[0.0, 0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0]]
)


def contexts(max_n=8):
    """Hypothesis strategy: one context (x, y) with features in [0, 1]."""
    return st.integers(1, max_n).flatmap(
        lambda n: st.tuples(
            hnp.arrays(float, n, elements=st.floats(0.0, 1.0)),
            hnp.arrays(float, n, elements=st.sampled_from([0.0, 1.0])),
        )
    )


params = st.tuples(st.floats(-30.0, 60.0), st.floats(-30.0, 60.0))


# --- reference values ---------------------------------------------------------------


def test_mirrored_estimate_reference_value():
    a, b = 2.0, 3.0
    xm, ym = 1.0 - X[0], 1.0 - Y[0]
    w = np.exp(a * ym - b * xm)
    expected = 1.0 - np.sum(w * xm) / np.sum(w)
    assert sym.mirrored_estimate(a, b, X[0], Y[0]) == pytest.approx(expected, rel=1e-12)


def test_evidence_and_joint_reference_values():
    a, b = 2.0, 3.0
    x, y = X[0], Y[0]
    w, wm = np.exp(a * y - b * x), np.exp(a * (1 - y) - b * (1 - x))
    p, pm = np.sum(w * y) / w.sum(), np.sum(wm * (1 - y)) / wm.sum()
    s1, s2 = np.sum(w * x) / w.sum(), np.sum(wm * x) / wm.sum()
    assert sym.positive_mass(a, b, x, y) == pytest.approx(p, rel=1e-12)
    assert sym.evidence_estimate(a, b, x, y) == pytest.approx(
        (p * s1 + pm * s2) / (p + pm), rel=1e-12
    )
    joint = (w.sum() * s1 + wm.sum() * s2) / (w.sum() + wm.sum())
    assert sym.joint_estimate(a, b, x, y) == pytest.approx(joint, rel=1e-12)


def test_hard_limit_reference_values():
    np.testing.assert_allclose(sym.mirrored_hard_limit(X, Y), [0.35, 0.8, 0.8])
    np.testing.assert_allclose(sym.average_hard_limit(X, Y), [0.475, 0.425, 0.425])
    np.testing.assert_allclose(sym.evidence_hard_limit(X, Y), [0.475, 0.8, 0.05])
    # R = 0.6 < 1 - L = 0.65 so the joint softmax keeps R; empty sides fall back
    np.testing.assert_allclose(sym.joint_hard_limit(X, Y), [0.6, 0.8, 0.05])


def test_positive_mass_is_exactly_zero_without_positives():
    assert sym.positive_mass(5.0, 10.0, X[1], Y[1]) == 0.0
    assert sym.positive_mass(5.0, 10.0, X[2], Y[2]) == pytest.approx(1.0)


# --- hard limits: the finite models converge to them --------------------------------


@pytest.mark.parametrize(
    "model, limit",
    [
        (sym.mirrored_estimate, sym.mirrored_hard_limit),
        (sym.average_estimate, sym.average_hard_limit),
        (sym.evidence_estimate, sym.evidence_hard_limit),
        (sym.joint_estimate, sym.joint_hard_limit),
    ],
)
def test_models_tend_to_their_hard_limits(model, limit):
    x, y, _ = tasks.sample_contexts(200, 12, rng=5)
    gaps = []
    for b in (1e2, 1e3, 1e4):
        gaps.append(np.max(np.abs(model(b + 2 * np.log(b), b, x, y) - limit(x, y))))
    assert gaps[-1] < 1e-3
    assert gaps[0] > gaps[-1]


def test_evidence_hard_limit_is_midpoint_when_both_sides_present():
    x, y, _ = tasks.sample_contexts(500, 30, tasks.Uniform(0.3, 0.7), rng=2)
    both = y.any(axis=1) & (y == 0).any(axis=1)
    np.testing.assert_allclose(
        sym.evidence_hard_limit(x, y)[both], baselines.midpoint(x, y)[both]
    )


# --- mirror equivariance (hypothesis) -----------------------------------------------


@given(contexts(), params)
def test_mirrored_head_on_the_mirrored_context_is_the_reflected_head(ctx, theta):
    x, y = ctx
    a, b = theta
    xm, ym = tasks.mirror(x, y)
    assert sym.mirrored_estimate(a, b, xm, ym) == pytest.approx(
        1.0 - float(head.estimate(a, b, x, y)), abs=1e-9
    )


@given(contexts(), params)
def test_symmetrized_models_are_mirror_equivariant(ctx, theta):
    x, y = ctx
    a, b = theta
    xm, ym = tasks.mirror(x, y)
    for model in (sym.average_estimate, sym.evidence_estimate, sym.joint_estimate):
        assert model(a, b, xm, ym) == pytest.approx(
            1.0 - float(model(a, b, x, y)), abs=1e-9
        )


@given(contexts())
def test_hard_limits_are_mirror_equivariant(ctx):
    x, y = ctx
    xm, ym = tasks.mirror(x, y)
    for limit in (sym.average_hard_limit, sym.evidence_hard_limit):
        assert limit(xm, ym) == pytest.approx(1.0 - float(limit(x, y)), abs=1e-12)
    assert sym.mirrored_hard_limit(xm, ym) == pytest.approx(
        1.0 - float(head.hard_limit(x, y)), abs=1e-12
    )


@given(contexts(), params)
def test_estimates_lie_in_the_feature_range(ctx, theta):
    x, y = ctx
    a, b = theta
    for model in (
        sym.mirrored_estimate,
        sym.average_estimate,
        sym.evidence_estimate,
        sym.joint_estimate,
    ):
        value = float(model(a, b, x, y))
        assert x.min() - 1e-9 <= value <= x.max() + 1e-9


# --- gradients ----------------------------------------------------------------------


def test_average_gradient_matches_finite_differences():
    x, y, _ = tasks.sample_contexts(4, 9, rng=3)
    a, b, h = 4.0, 6.0, 1e-6
    _, d_a, d_b = sym.average_estimate_and_gradient(a, b, x, y)
    fd_a = (
        sym.average_estimate(a + h, b, x, y) - sym.average_estimate(a - h, b, x, y)
    ) / (2 * h)
    fd_b = (
        sym.average_estimate(a, b + h, x, y) - sym.average_estimate(a, b - h, x, y)
    ) / (2 * h)
    np.testing.assert_allclose(d_a, fd_a, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(d_b, fd_b, rtol=1e-6, atol=1e-9)


# --- population ---------------------------------------------------------------------


def test_mirrored_population_estimate_is_the_limit_of_large_contexts():
    a, b, s = 5.0, 8.0, 0.4
    x = np.linspace(0.0, 1.0, 200_001)
    y = tasks.labels(x, s)
    assert sym.mirrored_estimate(a, b, x, y) == pytest.approx(
        1.0 - float(population.estimate(a, b, 1.0 - s)), abs=1e-5
    )


@pytest.mark.parametrize(
    "a, b", [(20.0, 20.0), (185.0, 200.0), (3.0, 2.0), (-4.0, 7.0)]
)
def test_edge_terms_decompose_the_population_residual(a, b):
    s = np.linspace(0.0, 1.0, 401)
    eps, pi_pos = sym.edge_terms(a, b, s)
    np.testing.assert_allclose(
        population.estimate(a, b, s) - s, 1.0 / b - eps, atol=1e-13
    )
    mirrored_eps = sym.edge_terms(a, b, 1.0 - s)[0]
    np.testing.assert_allclose(
        sym.average_residual(a, b, s)[0], (mirrored_eps - eps) / 2, atol=1e-13
    )
    assert np.all((pi_pos >= 0) & (pi_pos <= 1))


def test_average_population_bias_has_no_one_over_b_term():
    a, b = 120.0, 100.0
    s = np.linspace(0.2, 0.8, 61)
    assert np.max(np.abs(sym.average_residual(a, b, s)[0])) < 1e-6
    assert np.min(population.estimate(a, b, s) - s) == pytest.approx(1.0 / b, rel=1e-6)


def test_population_loss_matches_dense_quadrature():
    prior = tasks.Uniform(0.1, 0.9)
    a, b = 40.0, 35.0
    s = np.linspace(0.1, 0.9, 400_001)
    r = sym.average_residual(a, b, s)[0]
    dense = np.trapezoid(r**2, s) / 0.8
    assert sym.loss_and_gradient(a, b, prior)[0] == pytest.approx(dense, rel=1e-6)


def test_population_loss_full_prior_resolves_edge_layers():
    prior = tasks.Uniform(0.0, 1.0)
    a, b = 30.0, 25.0
    s = np.concatenate(
        [np.geomspace(1e-12, 0.5, 200_001), 1 - np.geomspace(0.5, 1e-12, 200_001)[1:]]
    )
    r = sym.average_residual(a, b, s)[0]
    dense = np.trapezoid(r**2, s)
    assert sym.loss_and_gradient(a, b, prior)[0] == pytest.approx(dense, rel=1e-5)


# --- error messages -----------------------------------------------------------------


def test_error_messages():
    with pytest.raises(ValueError, match="x must lie in"):
        sym.average_estimate(1.0, 1.0, [1.5], [1.0])
    with pytest.raises(ValueError, match="labels"):
        sym.evidence_estimate(1.0, 1.0, [0.5], [0.5])
    with pytest.raises(ValueError, match="same shape"):
        sym.joint_estimate(1.0, 1.0, [0.5, 0.2], [1.0])
    with pytest.raises(ValueError, match="empty"):
        sym.mirrored_hard_limit(np.zeros(0), np.zeros(0))
    with pytest.raises(ValueError, match="a must be finite"):
        sym.loss_and_gradient(np.nan, 1.0, tasks.Uniform())
    with pytest.raises(ValueError, match="b must be positive"):
        sym.edge_terms(1.0, -1.0, 0.5)
    with pytest.raises(ValueError, match="s must lie in"):
        sym.average_residual(1.0, 1.0, 1.2)
