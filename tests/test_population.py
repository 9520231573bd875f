"""Tests for stumplib.population: the infinite-context head and the population loss.

References are computed independently with scipy.integrate.quad: the estimate from its
defining ratio ``∫ x e^{a 1{x>s} - b x} p(x) dx / ∫ e^{a 1{x>s} - b x} p(x) dx``, the
loss from a carefully split integral over the prior (see ``reference_loss``).
"""

import itertools
import warnings

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import integrate, special

from stumplib import moments, population, tasks

INTERIOR, FULL = tasks.Uniform(0.1, 0.9), tasks.Uniform(0.0, 1.0)
QUAD = dict(limit=500, epsabs=0.0, epsrel=1e-13)


def quad(f, lo, hi, points=()):
    pts = sorted({float(p) for p in points if lo < p < hi})
    with warnings.catch_warnings():
        warnings.simplefilter(
            "error"
        )  # an IntegrationWarning would mean an unreliable reference
        return integrate.quad(f, lo, hi, points=pts or None, **QUAD)[0]


def reference_estimate(a, b, s, density=None):
    """s_hat(s) - s from the defining ratio, by quad with breakpoints at s and the 1/|b|
    layers.

    The exponent is shifted by its maximum (attained at 0, s or 1) so nothing overflows,
    and the residual is integrated as ∫ (x - s) w / ∫ w so it keeps its relative
    accuracy.
    """
    p = density or (lambda x: 1.0)
    expo = lambda x: (a if x > s else 0.0) - b * x
    top = max(expo(0.0), -b * s, a - b * s, expo(1.0))
    w = lambda x: np.exp(expo(x) - top) * p(x)
    scale = 1.0 / max(abs(b), 1.0)
    pts = (
        [s]
        + [s + k * scale for k in (-8, -2, -1, 1, 2, 8)]
        + [k * scale for k in (1, 4)]
        + [1 - k * scale for k in (1, 4)]
    )
    parts = [(0.0, s), (s, 1.0)]
    mass = sum(quad(w, lo, hi, pts) for lo, hi in parts if hi > lo)
    first = sum(
        quad(lambda x: (x - s) * w(x), lo, hi, pts) for lo, hi in parts if hi > lo
    )
    return first / mass


def reference_loss(a, b, prior):
    """E_{s ~ U[lo, hi]} (s_hat(s) - s)^2 with every layer resolved by quad.

    [lo, 0.5] is integrated in s with breakpoints at the calibrated threshold a/b +- k/b
    and at k/b near 0. The part above 0.5 is integrated in u = log q, q = 1 - s exact
    (using population.residual(a, b, 1 - q, q)), with breakpoints at the scales 1/b, k/b
    around 1 - a/b, and around the inner layer exp(-(a - b))/b; below q = 1e-10 * layer
    the integrand is constant to first order and that sliver is added as q0 * r(q0)^2.
    """
    lo, hi = prior.support
    dens = 1.0 / (hi - lo)
    bb = max(abs(b), 1.0)
    ks = [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128]
    center = a / b if b > 1 else 0.5
    total = 0.0
    if lo < 0.5:
        r_s = lambda s: population.residual(a, b, s)[0] ** 2
        pts = [center + sgn * k / bb for k in ks for sgn in (-1, 1)] + [
            k / bb for k in ks
        ]
        total += quad(r_s, lo, min(hi, 0.5), pts)
    if hi > 0.5:

        def r_q(q):
            return population.residual(a, b, 1.0 - q, q)[0] ** 2

        layer = np.exp(-max(a - b, 0.0)) / bb
        q_lo = max(1.0 - hi, 1e-10 * layer)
        q_hi = 1.0 - max(lo, 0.5)
        pts = (
            [layer * 2.0**k for k in range(-12, 13)]
            + [k / bb for k in ks]
            + [1 - center + sgn * k / bb for k in ks for sgn in (-1, 1)]
        )
        pts = [np.log(p) for p in pts if p > 0]
        total += quad(
            lambda u: r_q(np.exp(u)) * np.exp(u), np.log(q_lo), np.log(q_hi), pts
        )
        if hi == 1.0:
            total += q_lo * r_q(q_lo)
    return total * dens


def valley(b, prior):
    """Near the loss valley: a = hi b + log b (interior prior), a = b + 2 log b.

    Full prior.
    """
    log_b = np.log(b) if b > 0 else 0.0
    return 0.9 * b + log_b if prior == INTERIOR else b + 2 * log_b


# ----------------------------------------------------------------- the estimate


@pytest.mark.parametrize(
    "a, b",
    [
        (0.0, 0.0),
        (3.0, 0.0),
        (-4.0, 0.0),
        (2.0, 5.0),
        (25.0, 20.0),
        (-3.0, -30.0),
        (190.0, 200.0),
        (9010.0, 1e4),
        (1e4 + 18.4, 1e4),
    ],
)
@pytest.mark.parametrize("s", [0.0, 0.03, 0.37, 0.5, 0.9, 0.999, 1.0])
def test_estimate_matches_defining_ratio(a, b, s):
    got = population.residual(a, b, s)[0]
    ref = reference_estimate(a, b, s)
    # quad at epsrel 1e-13 on panels split at every layer; closed form accurate to
    # ~1e-15
    assert got == pytest.approx(ref, rel=1e-10, abs=1e-15)
    assert population.estimate(a, b, s) == pytest.approx(s + ref, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize(
    "a, b", [(0.0, 0.0), (2.0, 5.0), (25.0, 20.0), (-3.0, -30.0), (210.0, 200.0)]
)
def test_estimate_with_beta_features(a, b):
    beta = tasks.Beta(2, 3)
    s = np.array([0.05, 0.3, 0.5, 0.8, 0.97])
    got = population.residual(a, b, s, features=beta)[0]
    ref = [
        reference_estimate(a, b, si, density=lambda x: float(beta.density(x)))
        for si in s
    ]
    # the library integrates the density on a fixed graded 20-node-per-panel grid
    np.testing.assert_allclose(got, ref, rtol=1e-9, atol=1e-14)
    np.testing.assert_allclose(
        population.estimate(a, b, s, features=beta),
        s + np.array(ref),
        rtol=1e-12,
        atol=1e-14,
    )


@pytest.mark.parametrize(
    "a, b", [(1.0, 3.0), (22.0, 20.0), (9010.0, 1e4), (1e6 + 27.6, 1e6), (-5.0, -200.0)]
)
def test_density_path_agrees_with_closed_form(a, b):
    """Beta(1, 1) is uniform but takes the numerical-density path: both must agree."""
    s = np.array([0.0, 1e-7, 0.2, 0.5, 0.9, 1 - 1e-7, 1.0])
    closed = population.residual(a, b, s)
    numeric = population.residual(a, b, s, features=tasks.Beta(1, 1))
    for u, v in zip(closed, numeric):
        np.testing.assert_allclose(v, u, rtol=1e-10, atol=1e-15)


def test_closed_form_at_zero_scale():
    """b = 0: weights 1 below s and e^a above.

    So s_hat = (s^2 + e^a (1 - s^2)) / 2(s + e^a (1 - s)).
    """
    s = np.linspace(0, 1, 21)
    for a in (-2.0, 0.0, 1.5):
        e = np.exp(a)
        exact = (s**2 + e * (1 - s**2)) / (2 * (s + e * (1 - s)))
        np.testing.assert_allclose(population.estimate(a, 0.0, s), exact, rtol=1e-14)
    np.testing.assert_allclose(population.estimate(0.0, 0.0, s), 0.5, rtol=1e-15)


@pytest.mark.parametrize("a", [-50.0, 0.0, 7.0, 1e6])
@pytest.mark.parametrize("b", [-20.0, 0.0, 3.0, 1e6])
def test_edges_have_a_single_class(a, b):
    """At s = 0 (all positive) and s = 1 (all negative) a is irrelevant.

    s_hat = mean of e^{-b x}.
    """
    expected = moments.mean_fraction(b)
    # at s = 1 the estimate is formed as 1 + (s_hat - 1): absolute rounding of one ulp
    # at 1
    np.testing.assert_allclose(
        population.estimate(a, b, [0.0, 1.0]),
        [expected, expected],
        rtol=1e-14,
        atol=2.3e-16,
    )
    assert population.residual(a, b, 1.0)[0] == pytest.approx(expected - 1.0, rel=1e-14)


@pytest.mark.parametrize("b", [1e3, 1e4, 1e5])
@pytest.mark.parametrize("s", [0.3, 0.7])
@pytest.mark.parametrize("offset", [6.0, 10.0])
def test_interior_expansion(b, s, offset):
    """For fixed interior s: s_hat - s = 1/b - s e^{-(a - b s)} + O(...).

    The remainder is O(e^{-2(a-bs)} + e^{-(a-bs)}/b).
    """
    a = b * s + offset
    leading = 1 / b - s * np.exp(-offset)
    remainder = population.residual(a, b, s)[0] - leading
    assert abs(remainder) <= 2 * (np.exp(-2 * offset) + np.exp(-offset) / b)


@given(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6), st.floats(0, 1))
def test_estimate_in_unit_interval_and_finite(a, b, s):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est = population.estimate(a, b, s)
        d_a, d_b = population.residual(a, b, s)[1:]
    assert 0 <= est <= 1
    # threshold labels are increasing in x: Cov_w(x, y) >= 0; -Var_w(x) in [-1/4, 0]
    assert 0 <= d_a <= 0.25 and -0.25 <= d_b <= 0


@given(
    st.floats(-200, 200),
    st.floats(-200, 200),
    st.floats(0.001, 0.999),
    st.floats(0.01, 5),
)
def test_monotone_in_parameters(a, b, s, step):
    """s_hat is nondecreasing in a (Cov >= 0) and nonincreasing in b (-Var <= 0)."""
    base = population.estimate(a, b, s)
    assert population.estimate(a + step, b, s) >= base - 1e-15
    assert population.estimate(a, b + step, s) <= base + 1e-15


def test_vectorized_in_s_and_parameters():
    s = np.linspace(0, 1, 9)
    vec = population.estimate(3.0, 5.0, s)
    np.testing.assert_array_equal(vec, [population.estimate(3.0, 5.0, si) for si in s])
    a = np.array([[1.0], [2.0]])
    grid = population.estimate(a, 5.0, s)
    assert grid.shape == (2, 9)
    np.testing.assert_array_equal(grid[1], population.estimate(2.0, 5.0, s))


def test_exact_q_resolves_layers_beyond_float_spacing():
    """With a - b = 40 and b = 1e6 the collapse layer sits at q ~ L = e^{-40}/b ~ 4e-24,
    far below the float spacing at 1. At q = k L the positive class has mass
    ~ e^{a-b} q = k/b and the negatives ~ 1/b, so p_pos = k/(1+k) and
    s_hat - s = -(1 - 1/b)/(1 + k) + O(q)."""
    a, b = 1e6 + 40.0, 1e6
    layer = np.exp(-40.0) / b
    for k in (0.01, 1.0, 100.0):
        q = k * layer
        got = population.residual(a, b, 1.0 - q, q)[
            0
        ]  # 1 - q rounds to 1.0: q carries it
        assert got == pytest.approx(-(1 - 1 / b) / (1 + k), rel=1e-9)
    # without the exact q the layer is invisible: s = 1.0 means no positive mass at all
    assert population.residual(a, b, 1.0)[0] == pytest.approx(-(1 - 1 / b), rel=1e-12)


# ------------------------------------------------------------ gradient of the estimate


@pytest.mark.parametrize(
    "a, b", [(0.5, 0.0), (2.0, 5.0), (25.0, 20.0), (-3.0, -30.0), (205.0, 200.0)]
)
def test_gradient_of_estimate_central_differences(a, b):
    s = np.array([0.05, 0.3, 0.6, 0.95])
    d_a, d_b = population.residual(a, b, s)[1:]
    h = 1e-6 * max(1.0, abs(a)), 1e-6 * max(1.0, abs(b))
    fd_a = (
        population.estimate(a + h[0], b, s) - population.estimate(a - h[0], b, s)
    ) / (2 * h[0])
    fd_b = (
        population.estimate(a, b + h[1], s) - population.estimate(a, b - h[1], s)
    ) / (2 * h[1])
    # truncation ~ h^2 * (scale of variation)^3 <~ 4e-8 * 1e-2; rounding ~ eps / h ~
    # 1e-12
    np.testing.assert_allclose(d_a, fd_a, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(d_b, fd_b, rtol=1e-6, atol=1e-9)


def test_gradient_of_estimate_with_beta_features():
    beta, s, a, b = tasks.Beta(2, 3), np.array([0.2, 0.6]), 12.0, 10.0
    d_a, d_b = population.residual(a, b, s, features=beta)[1:]
    h = 1e-6 * 12
    fd_a = (
        population.estimate(a + h, b, s, beta) - population.estimate(a - h, b, s, beta)
    ) / (2 * h)
    fd_b = (
        population.estimate(a, b + h, s, beta) - population.estimate(a, b - h, s, beta)
    ) / (2 * h)
    np.testing.assert_allclose(d_a, fd_a, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(d_b, fd_b, rtol=1e-6, atol=1e-9)


# ------------------------------------------- singular Beta features, against quad


def _alg_quad(f, lo, hi, power):
    """∫_lo^hi f(t) t^power dt by quad, with the algebraic weight on a piece from t =
    0."""
    opts = dict(limit=200, epsabs=0.0, epsrel=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter(
            "error"
        )  # an IntegrationWarning would mean an unreliable reference
        if lo == 0.0 and power != 0.0:
            return integrate.quad(f, lo, hi, weight="alg", wvar=(power, 0.0), **opts)[0]
        return integrate.quad(lambda t: f(t) * t**power, lo, hi, **opts)[0]


def beta_feature_moments(a, b, s, law):
    """Moments of ``w(x) = e^{a 1{x>s} - b x} p(x)`` for Beta features, by quad.

    Returns ``(∫ w, ∫ (x-s) w, ∫ (x-s)^2 w, ∫_{x>s} w, ∫_{x>s} (x-s) w)`` up to a common
    factor. Each piece of [0, 1/2] is integrated in ``t = x`` and each piece of [1/2, 1]
    in ``t = 1 - x`` (exact distances to the ends), the singular factor ``t^(alpha-1)``
    or ``t^(beta-1)`` of a piece touching 0 or 1 as quad's algebraic weight, with breaks
    at the kernel layers ``k/|b|`` and graded toward a singular point just outside a
    piece.
    """
    alpha, beta = law.alpha, law.beta
    top = max(0.0, -b * s, a - b * s, a - b) + special.betaln(alpha, beta)
    scale = 1.0 / max(abs(b), 1.0)
    layers = [s + k * scale for k in (-16, -4, -1, 1, 4, 16)] + [
        k * scale for k in (1, 4, 16)
    ]
    out = np.zeros(5)
    pieces = [
        (0.0, min(s, 0.5)),
        (min(s, 0.5), 0.5),
        (0.5, max(s, 0.5)),
        (max(s, 0.5), 1.0),
    ]
    for x_lo, x_hi in (p for p in pieces if p[1] > p[0]):
        positive, lower = x_lo >= s, x_hi <= 0.5
        offset = (a if positive else 0.0) - top
        if lower:
            t_lo, t_hi, near, far, inner = x_lo, x_hi, alpha - 1, beta - 1, layers
            x_minus_s = lambda t: t - s
            score = lambda t, c=offset: c - b * t
        else:
            t_lo, t_hi, near, far = 1.0 - x_hi, 1.0 - x_lo, beta - 1, alpha - 1
            inner = [1.0 - p for p in layers]
            x_minus_s = lambda t: ((1.0 - s) - t) if s >= 0.5 else ((1.0 - t) - s)
            score = lambda t, c=offset: c - b * (1.0 - t)
        graded = t_lo * 4.0 ** np.arange(1, 40) if t_lo > 0 else []
        cuts = sorted({t_lo, t_hi, *(p for p in (*inner, *graded) if t_lo < p < t_hi)})
        for left, right in itertools.pairwise(cuts):
            m = [
                _alg_quad(
                    # the loop's functions bound as defaults (called in this iteration)
                    lambda t, k=k, xs=x_minus_s, sc=score, fr=far: (
                        xs(t) ** k * np.exp(sc(t)) * (1.0 - t) ** fr
                    ),
                    left,
                    right,
                    near,
                )
                for k in (0, 1, 2)
            ]
            out[:3] += m
            out[3:] += m[:2] if positive else 0.0
    return out


def beta_feature_residual(a, b, s, law):
    """``(s_hat - s, d/da, d/db) = (E_w[x - s], Cov_w(x, y), -Var_w(x))`` from the
    moments."""
    mass, first, second, pos, pos_first = beta_feature_moments(a, b, s, law)
    r = first / mass
    return r, pos_first / mass - r * pos / mass, -(second / mass - r**2)


SINGULAR_BETAS = [
    (0.5, 0.5),
    (0.3, 3.0),
    (0.2, 0.2),
    (2.0, 0.3),
    (0.1, 0.1),
    (0.05, 2.0),
]


@pytest.mark.parametrize("alpha, beta", SINGULAR_BETAS)
@pytest.mark.parametrize("a, b", [(5.0, 10.0), (0.0, 1.0), (3.0, -4.0), (210.0, 200.0)])
def test_singular_beta_features_match_quad(alpha, beta, a, b):
    """Estimate and its gradient to 1e-8 relative for exponents down to 0.05.

    The gradient is compared on the scale of the weight's spread (``Cov_w(x, y)``
    vanishes at s = 0 and 1).
    """
    law = tasks.Beta(alpha, beta)
    for s in (0.0, 1e-12, 1e-3, 0.3, 0.5, 0.95, 1 - 1e-3, 1.0):
        _r, r_a, r_b = population.residual(a, b, s, features=law)
        ref, ref_a, ref_b = beta_feature_residual(a, b, s, law)
        assert float(population.estimate(a, b, s, features=law)) == pytest.approx(
            s + ref, rel=1e-8
        ), s
        assert r_a == pytest.approx(ref_a, abs=1e-8 * np.sqrt(-ref_b)), s
        assert r_b == pytest.approx(ref_b, rel=1e-8), s


@pytest.mark.parametrize(
    "alpha, beta", [(0.3, 3.0), (0.2, 0.2), (2.0, 0.3), (0.1, 0.1)]
)
@pytest.mark.parametrize("prior", [INTERIOR, tasks.Beta(2.0, 3.0)])
def test_loss_with_singular_beta_features_matches_quad(alpha, beta, prior):
    """``E_s (r^2, 2 r r_a, 2 r r_b)`` by adaptive quad over s of the quad residual."""
    law, a, b = tasks.Beta(alpha, beta), 4.0, 6.0
    lo, hi = prior.support

    def integrand(s):
        r, r_a, r_b = beta_feature_residual(a, b, s, law)
        return float(prior.density(s)) * np.array([r**2, 2 * r * r_a, 2 * r * r_b])

    ref = integrate.quad_vec(integrand, lo, hi, epsabs=0.0, epsrel=1e-11, limit=200)[0]
    got = population.loss_and_gradient(a, b, prior, features=law)
    np.testing.assert_allclose(got, ref, rtol=1e-8)


# ------------------------------------- Beta features against Kummer's function

KUMMER_LAWS = [
    (0.05, 2.0),
    (0.5, 0.5),
    (0.5, 1e3),
    (1e3, 0.5),
    (3.0, 3e3),
    (300.0, 300.0),
]


def kummer_moments(b, law):
    """Mean and variance of ``x`` under ``x^(alpha-1) (1-x)^(beta-1) e^(-b x)``,
    exactly.

    ``E[x^k] = (alpha)_k / (alpha+beta)_k * M(alpha+k, alpha+beta+k, -b) / M(alpha,
    alpha+beta, -b)`` with Kummer's function ``M`` (mpmath, 40 digits).
    """
    with mpmath.workdps(40):
        alpha, total, z = (
            mpmath.mpf(law.alpha),
            mpmath.mpf(law.alpha + law.beta),
            -mpmath.mpf(b),
        )
        base = mpmath.hyp1f1(alpha, total, z)
        m1 = alpha / total * mpmath.hyp1f1(alpha + 1, total + 1, z) / base
        m2 = (
            alpha
            * (alpha + 1)
            / (total * (total + 1))
            * mpmath.hyp1f1(alpha + 2, total + 2, z)
        )
        return float(m1), float(m2 / base - m1**2)


@pytest.mark.parametrize("alpha, beta", KUMMER_LAWS)
@pytest.mark.parametrize("b", [-1e4, -30.0, 1.0, 300.0, 1e5])
def test_beta_features_match_kummer(alpha, beta, b):
    """With ``a = 0`` the label plays no part, so at every threshold the estimate is the
    weight's mean and ``d/db`` minus its variance, in closed form; the classes are still
    integrated apart, so this checks their quadrature, peaks away from the law's bulk
    and the class ends included (Beta(0.5, 1000) at b = -1e4 peaks near x = 0.9), to
    1e-10 relative (plus the rounding of ``s + offset``)."""
    law = tasks.Beta(alpha, beta)
    s = np.array([0.0, 1e-9, 0.3, 0.5, 0.9, 1 - 1e-9, 1.0])
    mean, variance = kummer_moments(b, law)
    offset, _, d_b = population.residual(0.0, b, s, features=law)
    rounding = 4 * np.finfo(float).eps * s  # of the sum s + offset
    assert np.all(np.abs(s + offset - mean) <= 1e-10 * mean + rounding), (
        s + offset - mean
    )
    np.testing.assert_allclose(d_b, -variance, rtol=1e-8)


# -------------------------------------------------------------------- the loss

SCALES = [0.0, 2.0, 20.0, 200.0, 1e4, 1e6]
LOSS_CASES = [
    (prior, b, da)
    for prior, b, da in itertools.product(
        (INTERIOR, FULL), SCALES, ("valley", "-3", "+3", "far")
    )
]


@pytest.mark.parametrize(
    "prior, b, where",
    LOSS_CASES,
    ids=[
        f"{'interior' if p == INTERIOR else 'full'}-b{b:g}-{w}"
        for p, b, w in LOSS_CASES
    ],
)
def test_loss_matches_careful_quadrature(prior, b, where):
    a = (
        valley(b, prior)
        + {"valley": 0.0, "-3": -3.0, "+3": 3.0, "far": -0.2 * b - 1.0}[where]
    )
    got = population.loss(a, b, prior)
    ref = reference_loss(a, b, prior)
    # Both resolve the 1/b layer and (full prior) the inner layer at q ~ e^{-(a-b)}/b,
    # whose share of the loss is ~ b e^{-(a-b)} (2e-5 at b = 1e6, a - b = 2 log b - 3).
    # Measured agreement: <= 1e-14 in every case; a rule without the inner-layer grading
    # is off by 5e-8 to 2e-3 in the full-prior cases, so 1e-11 separates the two with a
    # wide margin.
    assert got == pytest.approx(ref, rel=1e-11, abs=0)


def test_loss_with_beta_prior():
    prior = tasks.Beta(2, 2)
    a, b = 20.0, 20.0
    s_pts = [a / b - k / b for k in (1, 2, 4, 8)] + [k / b for k in (1, 4)]
    ref = quad(
        lambda s: population.residual(a, b, s)[0] ** 2 * float(prior.density(s)),
        0.0,
        1.0,
        s_pts,
    )
    assert population.loss(a, b, prior) == pytest.approx(ref, rel=1e-10)


@pytest.mark.parametrize(
    "prior", [INTERIOR, FULL, tasks.Uniform(0.3, 0.4), tasks.Beta(2, 5)]
)
@pytest.mark.parametrize(
    "a, b", [(0.0, 0.0), (25.0, 20.0), (1e6 + 27.0, 1e6), (-5.0, -100.0)]
)
def test_threshold_nodes_integrate_the_prior(prior, a, b):
    s, q, w = population.threshold_nodes(a, b, prior)
    assert w.sum() == pytest.approx(1.0, rel=1e-12)  # the prior density integrates to 1
    lo, hi = prior.support
    assert np.all((s >= lo) & (s <= hi)) and np.all(w >= 0)
    np.testing.assert_allclose(s + q, 1.0, rtol=0, atol=1.2e-16)
    if isinstance(prior, tasks.Uniform):  # and its mean
        assert w @ s == pytest.approx(0.5 * (lo + hi), rel=1e-12)


def test_loss_limits():
    # b = 0, a = 0: s_hat = 1/2, so L = E(s - 1/2)^2 = Var(s) (+ 0 bias for symmetric
    # priors)
    assert population.loss(0.0, 0.0, FULL) == pytest.approx(1 / 12, rel=1e-13)
    assert population.loss(0.0, 0.0, INTERIOR) == pytest.approx(0.8**2 / 12, rel=1e-13)
    # claim 'calibration': b^2 min_a L -> 1 (interior), b^2 L(inf, b) -> 1 (full)
    for b in (1e4, 1e6):
        assert b**2 * population.loss(
            valley(b, INTERIOR), b, INTERIOR
        ) == pytest.approx(1.0, abs=1e-3)
        assert b**2 * population.loss(b + 60.0, b, FULL) == pytest.approx(1.0, abs=1e-3)


# ---------------------------------------------------------------- loss gradient


GRAD_CASES = [
    (prior, b, where)
    for prior, b, where in itertools.product(
        (INTERIOR, FULL), [0.0, 2.0, 20.0, 200.0, 1e4, 1e6], ("valley", "+3", "far")
    )
]


@pytest.mark.parametrize(
    "prior, b, where",
    GRAD_CASES,
    ids=[
        f"{'interior' if p == INTERIOR else 'full'}-b{b:g}-{w}"
        for p, b, w in GRAD_CASES
    ],
)
def test_loss_gradient_central_differences(prior, b, where):
    """Central differences with h = 1e-4 in both a and b: the parameters enter through
    the scores, whose natural scale is the offset a - b (O(1)) at every b, so a relative
    step (1e-6 |b| = 1 at b = 1e6) would be far too coarse. Measured FD error <= 3e-10
    (|g| +
    L);
    the loss varies by O(L) per unit change of a or b, hence the scale |g| + L."""
    a = valley(b, prior) + {"valley": 0.0, "+3": 3.0, "far": -0.2 * b - 1.0}[where]
    L, g_a, g_b = population.loss_and_gradient(a, b, prior)
    assert (g_a, g_b) == population.gradient(a, b, prior) and population.loss(
        a, b, prior
    ) == L
    h = 1e-4
    fd_a = (population.loss(a + h, b, prior) - population.loss(a - h, b, prior)) / (
        2 * h
    )
    fd_b = (population.loss(a, b + h, prior) - population.loss(a, b - h, prior)) / (
        2 * h
    )
    assert abs(fd_a - g_a) <= 1e-7 * (abs(g_a) + L)
    assert abs(fd_b - g_b) <= 1e-7 * (abs(g_b) + L)


def test_loss_gradient_with_beta_features():
    a, b, feats = 22.0, 20.0, tasks.Beta(2, 3)
    L, g_a, g_b = population.loss_and_gradient(a, b, INTERIOR, feats)
    h = 1e-4
    fd_a = (
        population.loss(a + h, b, INTERIOR, feats)
        - population.loss(a - h, b, INTERIOR, feats)
    ) / (2 * h)
    fd_b = (
        population.loss(a, b + h, INTERIOR, feats)
        - population.loss(a, b - h, INTERIOR, feats)
    ) / (2 * h)
    assert abs(fd_a - g_a) <= 1e-7 * (abs(g_a) + L)
    assert abs(fd_b - g_b) <= 1e-7 * (abs(g_b) + L)


def test_interior_prior_has_finite_minimizer_full_prior_does_not():
    """Under U[0.1, 0.9] dL/da changes sign along a at fixed b; under U[0, 1] not."""
    b = 200.0
    g_int = [
        population.gradient(a, b, INTERIOR)[0]
        for a in (0.9 * b, 0.9 * b + 2 * np.log(b))
    ]
    assert g_int[0] < 0 < g_int[1]
    g_full = [
        population.gradient(a, b, FULL)[0]
        for a in b + np.array([0.0, 10.0, 30.0, 60.0])
    ]
    assert all(g < 0 for g in g_full)


# ---------------------------------------------------------------- extremes & inputs


def test_extreme_scales_finite_without_warnings():
    vals = [-1e6, -1e3, 0.0, 1e-300, 1.0, 1e3, 1e6 - 5.0, 1e6, 1e6 + 27.6]
    s = np.array([0.0, 1e-300, 1e-9, 0.3, 0.5, 0.9, 1 - 1e-9, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for a, b in itertools.product(vals, vals):
            for out in population.residual(a, b, s):
                assert np.all(np.isfinite(out)), (a, b)
            assert np.all(
                np.isfinite(
                    population.residual(a, b, s[2:-2], features=tasks.Beta(2, 3))
                )
            )
            for prior in (INTERIOR, FULL):
                assert np.all(np.isfinite(population.loss_and_gradient(a, b, prior))), (
                    a,
                    b,
                    prior,
                )


def test_bad_inputs():
    with pytest.raises(ValueError, match="^a must be finite"):
        population.estimate(np.nan, 1.0, 0.5)
    with pytest.raises(ValueError, match="^b must be finite"):
        population.estimate(1.0, np.inf, 0.5)
    with pytest.raises(ValueError, match="^s must be finite"):
        population.estimate(1.0, 1.0, [0.5, np.nan])
    with pytest.raises(ValueError, match=r"^s must lie in \[0, 1\]"):
        population.estimate(1.0, 1.0, [0.5, 1.5])
    with pytest.raises(ValueError, match=r"^s must lie in \[0, 1\]"):
        population.residual(1.0, 1.0, -0.1)
    with pytest.raises(ValueError, match=r"^q must lie in \[0, 1\]"):
        population.residual(1.0, 1.0, 0.5, q=-0.5)
    with pytest.raises(ValueError, match="^a must be finite"):
        population.loss(np.nan, 1.0, INTERIOR)
    with pytest.raises(ValueError, match="^b must be finite"):
        population.gradient(1.0, -np.inf, FULL)
    for lo, hi in [(0.5, 0.2), (-0.1, 0.5)]:
        with pytest.raises(ValueError, match="lo and hi need"):
            population.loss(1.0, 1.0, tasks.Uniform(lo, hi))
    with pytest.raises(ValueError, match="^alpha must be positive"):
        population.loss(1.0, 1.0, tasks.Beta(0, 1))


def test_prior_nodes_integrate_the_prior():
    prior = tasks.Uniform(0.2, 0.9)
    breaks = np.array([0.0, 0.1, 0.3, 0.45])
    s, q, w = population.prior_nodes(prior, breaks, breaks)
    assert np.sum(w) == pytest.approx(1.0, rel=1e-12)
    assert np.sum(w * s) == pytest.approx(0.55, rel=1e-12)
    assert np.sum(w * s**3) == pytest.approx((0.9**4 - 0.2**4) / (4 * 0.7), rel=1e-12)
    np.testing.assert_allclose(q, 1.0 - s, atol=1e-15)  # q exact, s = 1 - q rounded
    assert np.all((s >= 0.2) & (s <= 0.9))


def test_squared_error_reference():
    w = np.array([0.5, 0.25])
    r, r_a, r_b = np.array([1.0, -2.0]), np.array([3.0, 1.0]), np.array([0.0, 4.0])
    assert population.squared_error(w, r, r_a, r_b) == (1.5, 2.0, -4.0)
