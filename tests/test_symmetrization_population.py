"""Tests for the population side of stumplib.symmetrization: residuals, losses, flow."""

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from stumplib import population, tasks, training
from stumplib import symmetrization as sf
from stumplib.symbolic import symmetrized as S

INTERIOR = tasks.Uniform(0.1, 0.9)
FULL = tasks.Uniform()
S_GRID = np.linspace(0.0, 1.0, 21)


def masses(a, b, s):
    """Positive mass of the infinite-context head, from the two class integrals."""
    neg = -np.expm1(-b * s) / b
    pos = np.exp(a) * (np.exp(-b * s) - np.exp(-b)) / b
    return pos / (pos + neg)


def test_average_residual_matches_the_two_residuals():
    for a, b in ((25.0, 20.0), (3.0, 5.0), (-2.0, 1.5)):
        ours = sf.average_residual(a, b, S_GRID)
        head, mirror = (
            population.residual(a, b, S_GRID),
            population.residual(a, b, 1 - S_GRID),
        )
        np.testing.assert_allclose(
            ours, [(h - m) / 2 for h, m in zip(head, mirror)], atol=1e-15
        )


def test_evidence_residual_reference_value():
    a, b = 3.0, 5.0
    p, pm = masses(a, b, S_GRID), masses(a, b, 1 - S_GRID)
    est, est_m = (
        population.estimate(a, b, S_GRID),
        1 - population.estimate(a, b, 1 - S_GRID),
    )
    ref = (p * est + pm * est_m) / (p + pm) - S_GRID
    np.testing.assert_allclose(sf.evidence_residual(a, b, S_GRID)[0], ref, atol=1e-14)


@given(
    st.floats(-5.0, 60.0),
    st.floats(0.5, 60.0),
    st.sampled_from(["average", "evidence"]),
)
def test_residual_gradients_match_finite_differences(a, b, rule):
    f = sf.RESIDUALS[rule]
    s = np.linspace(0.01, 0.99, 15)
    _, r_a, r_b = f(a, b, s)
    h = 1e-6 * max(1.0, abs(a), b)
    fd_a = (f(a + h, b, s)[0] - f(a - h, b, s)[0]) / (2 * h)
    fd_b = (f(a, b + h, s)[0] - f(a, b - h, s)[0]) / (2 * h)
    np.testing.assert_allclose(r_a, fd_a, atol=1e-7)
    np.testing.assert_allclose(r_b, fd_b, atol=1e-7)


def test_loss_gradient_matches_finite_differences():
    for prior in (INTERIOR, FULL):
        for rule in ("average", "evidence"):
            a, b = 28.0, 24.0
            _, g_a, g_b = sf.loss_and_gradient(a, b, prior, rule)
            h = 1e-4
            fd_a = (
                sf.loss_and_gradient(a + h, b, prior, rule)[0]
                - sf.loss_and_gradient(a - h, b, prior, rule)[0]
            ) / (2 * h)
            fd_b = (
                sf.loss_and_gradient(a, b + h, prior, rule)[0]
                - sf.loss_and_gradient(a, b - h, prior, rule)[0]
            ) / (2 * h)
            assert g_a == pytest.approx(fd_a, rel=1e-5)
            assert g_b == pytest.approx(fd_b, rel=1e-5)


def test_average_loss_agrees_with_the_existing_quadrature():
    for prior in (INTERIOR, FULL):
        ours = sf.loss_and_gradient(25.0, 20.0, prior)
        s, q, w = sf.threshold_nodes(25.0, 20.0, prior)
        head, mirror = (
            population.residual(25.0, 20.0, s, q),
            population.residual(25.0, 20.0, q, s),
        )
        r, r_a, r_b = ((h - m) / 2 for h, m in zip(head, mirror))
        ref = (np.sum(w * r**2), 2 * np.sum(w * r * r_a), 2 * np.sum(w * r * r_b))
        np.testing.assert_allclose(ours, ref, rtol=1e-9)


@pytest.mark.parametrize("b", [60.0, 300.0])
def test_interior_loss_is_the_two_layer_model_at_tiny_loss(b):
    """The model neglects terms of relative order e^{-b lo}; at b = 300 (loss ~1e-29) it
    holds to rounding, so the quadrature keeps full relative precision there."""
    l, a = 0.1, b + 5.2
    F = sp.lambdify((S.rho, S.b), S.interior_loss(sp.Rational(1, 10)))
    model = (l * np.exp(-l * b)) ** 2 * F(9 * np.exp(-(a - b)), b)
    assert sf.loss_and_gradient(a, b, INTERIOR)[0] == pytest.approx(
        model, rel=2 * np.exp(-l * b) + 1e-9
    )


def test_full_prior_loss_tends_to_zeta_constant():
    b = 1000.0
    Z = float(S.zeta_constant()[1])
    assert b**3 * sf.loss_and_gradient(b + 40.0, b, FULL)[0] == pytest.approx(
        Z, rel=1e-9
    )


def test_evidence_equals_average_when_both_sides_have_full_mass():
    s = np.linspace(0.3, 0.7, 9)
    np.testing.assert_allclose(
        sf.evidence_residual(60.0, 40.0, s)[0],
        sf.average_residual(60.0, 40.0, s)[0],
        atol=1e-12,
    )


def test_flow_solves_a_quadratic_exactly():
    def lg(a, b):
        return 0.5 * (a**2 + 4 * b**2), a, 4 * b

    traj = sf.flow(lg, (1.0, 2.0), 3.0, points=10, rtol=1e-10)
    np.testing.assert_allclose(traj.a, np.exp(-traj.t), rtol=1e-7)
    np.testing.assert_allclose(traj.b, 2 * np.exp(-4 * traj.t), rtol=1e-6, atol=1e-12)
    assert traj.t[0] == 0.0 and traj.t[-1] == pytest.approx(3.0)


def test_rates_of_a_known_trajectory():
    def lg(a, b):
        return np.exp(-b) + a**2, 2 * a, -np.exp(-b)

    traj = training.Trajectory(
        np.array([0.0, 2.0]),
        np.array([0.0, 1.0]),
        np.array([1.0, 3.0]),
        np.array([0.0, 0.0]),
    )
    rates = sf.rates(lg, traj)
    np.testing.assert_allclose(rates.db_dlog_t, [0.0, 2 * np.exp(-3.0)])
    np.testing.assert_allclose(
        rates.loss_exponent[1], -2 * (4 + np.exp(-6.0)) / (np.exp(-3.0) + 1)
    )


def test_errors_name_the_argument():
    with pytest.raises(ValueError, match="b must be positive"):
        sf.average_residual(1.0, 0.0, S_GRID)
    with pytest.raises(ValueError, match="s must lie in"):
        sf.evidence_residual(1.0, 2.0, [1.5])
    with pytest.raises(ValueError, match="a must be finite"):
        sf.loss_and_gradient(np.nan, 2.0, FULL)
    with pytest.raises(ValueError, match="rule must be one of"):
        sf.loss_and_gradient(1.0, 2.0, FULL, rule="joint")
    with pytest.raises(ValueError, match="s and q must have the same shape"):
        sf.average_residual(1.0, 2.0, [0.1, 0.2], [0.9])
    with pytest.raises(ValueError, match="t_max must exceed"):
        sf.flow(lambda a, b: (0.0, 0.0, 0.0), (1.0, 1.0), 1e-3)
    with pytest.raises(ValueError, match="points"):
        sf.flow(lambda a, b: (0.0, 0.0, 0.0), (1.0, 1.0), 1.0, points=1)
    traj = training.Trajectory(
        np.array([-1.0]), np.array([0.0]), np.array([1.0]), np.array([1.0])
    )
    with pytest.raises(ValueError, match="trajectory.t must be non-negative"):
        sf.rates(lambda a, b: (1.0, 0.0, 0.0), traj)


def _reference(a, b, s, dps=360):
    """Residuals of both rules and ``d eps/da`` at ``(a, b, s)``, in mpmath at ``dps``.

    From the defining formulas (no rearrangement): ``T(l) = l/(e^{bl} - 1)``, the
    head's logit ``a - bs + log(1 - e^{-bq}) - log(1 - e^{-bs})``, ``eps``, and the two
    rules' residuals; derivatives by mpmath's own differentiation.
    """
    import mpmath

    mp = mpmath.mp
    with mpmath.workdps(dps):
        a_, b_, s_ = mp.mpf(a), mp.mpf(b), mp.mpf(s)

        def tail(b, length):
            return length / mp.expm1(b * length) if length > 0 else 1 / b

        def logit(a, b, s):
            return (
                a - b * s + mp.log(-mp.expm1(-b * (1 - s))) - mp.log(-mp.expm1(-b * s))
            )

        def eps(a, b, s):
            p = 1 / (1 + mp.exp(-logit(a, b, s)))
            return (1 - p) * (s + tail(b, s)) + p * tail(b, 1 - s)

        def average(a, b):
            return (eps(a, b, 1 - s_) - eps(a, b, s_)) / 2

        def evidence(a, b):
            p, p_m = (1 / (1 + mp.exp(-logit(a, b, t))) for t in (s_, 1 - s_))
            w = p / (p + p_m)
            return (2 * w - 1) / b - w * eps(a, b, s_) + (1 - w) * eps(a, b, 1 - s_)

        out = {}
        for name, f in (("average", average), ("evidence", evidence)):
            out[name] = [
                float(f(a_, b_)),
                float(mp.diff(lambda x, f=f: f(x, b_), a_)),
                float(mp.diff(lambda x, f=f: f(a_, x), b_, h=b_ / mp.mpf(10) ** 40)),
            ]
        out["eps_a"] = float(mp.diff(lambda x: eps(x, b_, s_), a_))
        return out


@pytest.mark.parametrize("b", [5e-324, 1e-300, 1e-8, 0.3, 0.999, 1.0, 3.0])
@pytest.mark.parametrize("a", [1.0, -2.0])
def test_residuals_at_small_scales_match_high_precision(a, b):
    # at b = 5e-324 the residuals were NaN, at 1e-300 0 and -3e284 (0.5 expected), at
    # 1e-8 off by 1.4e-8 and 2.2e-8, side(...).eps_a by 3.5e-9: the 1/b in each edge
    # term cancels. Tolerance: 64 rounding errors of an O(1) value.
    tol = 64 * np.finfo(float).eps
    s = np.array([0.05, 0.3, 0.8])
    for k, sk in enumerate(s):
        ref = _reference(a, b, sk)
        for name, rule in sf.RESIDUALS.items():
            got = [float(v[k]) for v in rule(a, b, s)]
            for g, r in zip(got, ref[name]):  # values and gradients of order one
                assert g == pytest.approx(r, rel=tol, abs=tol)
        eps_a = float(sf.side(a, b, s).eps_a[k])
        assert eps_a == pytest.approx(ref["eps_a"], rel=tol, abs=tol)
