"""Tests for stumplib.symbolic.population.

The population-limit derivations of chapter 3.
"""

import itertools

import mpmath
import numpy as np
import pytest
import sympy as sp

from stumplib import calibration, population, tasks
from stumplib.symbolic import population as sym

INTERIOR, FULL = tasks.Uniform(0.1, 0.9), tasks.Uniform(0.0, 1.0)
EPS = np.finfo(float).eps


@pytest.fixture(scope="module")
def form():
    return sym.closed_form()


@pytest.fixture(scope="module")
def valley():
    return sym.interior_valley(3)


@pytest.fixture(scope="module")
def full():
    return sym.full_prior()


@pytest.fixture(scope="module")
def inner():
    return sym.inner_layer()


def test_closed_form_is_proved_and_integrals_are_right(form):
    assert form.proved
    vals = {sym.a: 1.3, sym.b: 2.7, sym.s: 0.4}
    for key, integral in form.integrals.items():
        numeric = float(integral.subs(vals).evalf(30))
        assert float(form.values[key].subs(vals)) == pytest.approx(numeric, rel=1e-13)


def test_wrong_structured_form_is_not_proved(form):
    # the check can fail: flip the sign of the negatives' bias
    wrong = (form.bias_pos - form.odds * form.bias_neg) / (1 + form.odds)
    assert not sym._is_zero(form.estimate - sym.s - wrong)


@pytest.mark.parametrize(
    "a_, b_, s_",
    list(
        itertools.product(
            [-4.0, 2.0, 40.0, 300.0], [0.5, 7.0, 60.0, 400.0], [0.01, 0.35, 0.8, 0.999]
        )
    ),
)
def test_high_precision_residual_matches_library(a_, b_, s_):
    ref = sym.residual_high_precision(a_, b_, s_)
    lib = float(population.residual(a_, b_, s_)[0])
    assert abs(lib - ref) <= 4 * EPS * (1 + abs(a_) + abs(b_))


def test_closed_form_estimate_matches_high_precision(form):
    f = sp.lambdify((sym.a, sym.b, sym.s), form.estimate, modules="mpmath")
    with mpmath.workdps(40):
        for a_, b_, s_ in [(1.0, 2.0, 0.3), (12.0, 15.0, 0.7)]:
            assert float(f(a_, b_, s_)) - s_ == pytest.approx(
                sym.residual_high_precision(a_, b_, s_), rel=1e-12
            )


def test_gradient_identities_are_proved(form):
    ident = sym.gradient_identities(form)
    assert ident.proved
    f_a = sp.lambdify((sym.a, sym.b, sym.s), ident.d_a, modules="mpmath")
    f_b = sp.lambdify((sym.a, sym.b, sym.s), ident.d_b, modules="mpmath")
    d_a, d_b = population.residual(3.0, 5.0, 0.4)[1:]
    with mpmath.workdps(40):
        assert float(f_a(3.0, 5.0, 0.4)) == pytest.approx(float(d_a), rel=1e-12)
        assert float(f_b(3.0, 5.0, 0.4)) == pytest.approx(float(d_b), rel=1e-12)


def test_interior_series_terms():
    terms = sym.interior_series(3)
    lam, eq, s, q, b = sym.lam, sym.eps_q, sym.s, sym.q, sym.b
    assert sp.simplify(terms[0] - 1 / b) == 0
    assert sp.simplify(terms[1] - (-s * lam - q * eq)) == 0
    assert sp.simplify(terms[2] - (lam - eq) * (s * lam + q * eq)) == 0


def test_interior_terms_sum_to_library_residual():
    f = sym.interior_terms_function(5)
    for s_, b_, off in itertools.product([0.3, 0.6], [60.0, 500.0], [2.0, 4.0]):
        a_ = b_ * s_ + off
        terms = f(a_, b_, s_)
        r = float(population.residual(a_, b_, s_)[0])
        lam = np.exp(-off)
        # the remainder after T3 is T4 up to a factor 1/(1 + O(lam)) (geometric series)
        assert abs((r - sum(terms[:4])) / terms[4] - 1) <= lam / (1 - lam)


def test_logistic_form():
    expected = 1 / sym.b - sym.s * sym.lam / (1 + sym.lam)
    assert sp.simplify(sym.logistic_form() - expected) == 0


@pytest.mark.parametrize("order", [0, -1, 1.5, True])
def test_bad_order(order):
    with pytest.raises(ValueError, match="order"):
        sym.interior_series(order)
    with pytest.raises(ValueError, match="order"):
        sym.interior_valley(order)


def test_inner_layer_orders_and_contribution(inner):
    b, w, nu = sym.b, sym.w, sym.nu
    assert sp.simplify(inner.orders[0] + (1 - 1 / b) / (1 + w)) == 0
    assert sp.simplify(inner.contribution - nu * (1 - 1 / b) ** 2 / b) == 0
    expected = nu / (1 - nu) - nu**2 * sp.log(1 / nu) / (1 - nu) ** 2
    assert sp.simplify(sp.expand_log(inner.squared_exact - expected, force=True)) == 0


def test_inner_layer_matches_library(inner):
    f = [sp.lambdify((sym.w, sym.b), o) for o in inner.orders]
    b_, delta = 200.0, 12.0
    nu_ = np.exp(-delta)
    w_ = np.geomspace(0.1, 10, 7)
    q_ = nu_ * w_ / b_
    r = population.residual(b_ + delta, b_, 1 - q_, q_)[0]
    predicted = f[0](w_, b_) + nu_ * f[1](w_, b_)
    np.testing.assert_allclose(r, predicted, rtol=3 * nu_**2 * 1e4)


def test_valley_constants(valley):
    hi_ = sym.hi
    assert sp.simplify(valley.offset[0] - sp.log(hi_ / 2)) == 0
    assert sp.simplify(valley.offset[1] + 2 / hi_) == 0
    assert valley.min_F[0] == -2
    assert sp.simplify(valley.min_F[1] - 2 / (3 * hi_)) == 0
    assert sp.simplify(valley.g_star[0] - 2 / hi_) == 0


def test_valley_matches_numeric_minimizer(valley):
    b_ = 1e3
    coeffs = [float(c.subs(sym.hi, 0.9)) for c in valley.offset]
    predicted = 0.9 * b_ + np.log(b_) + sum(c / b_**k for k, c in enumerate(coeffs))
    assert calibration.a_star(b_, INTERIOR) == pytest.approx(predicted, abs=1e-7)
    f = [float(c.subs(sym.hi, 0.9)) for c in valley.min_F]
    scaled = 1 + sum(fk / b_**k for k, fk in enumerate(f)) / (0.8 * b_)
    assert b_**2 * calibration.min_loss(b_, INTERIOR) == pytest.approx(
        scaled, abs=1e-12
    )


def test_full_prior_constants(full):
    assert sp.simplify(full.bias_integral + 2 * sp.zeta(3)) == 0
    assert sp.simplify(full.J - (sp.pi**2 / 6 - 1)) == 0
    assert sp.simplify(full.K - (sp.pi**2 / 6 - sp.Rational(1, 2))) == 0
    assert all(full.identities[k] == 0 for k in ("square", "kernel", "J_integrand"))
    assert (
        sp.simplify(
            full.excess - (1 - sp.pi**2 / (3 * sym.b) + sp.pi**2 / (3 * sym.b**2))
        )
        == 0
    )


def test_full_prior_constants_match_quadrature(full):
    quad = sym.quadrature_check(30)
    for key in ("bias_integral", "J", "K"):
        assert float(quad[key]) == pytest.approx(
            float(getattr(full, key)), rel=1e-20, abs=1e-25
        )


def test_full_prior_matches_library(full):
    b_ = 300.0
    scaled = b_**2 * population.loss(b_ + 300.0, b_, FULL)
    assert scaled == pytest.approx(1 + float(full.bias_integral) / b_, abs=1e-14)
    delta = 20.0
    excess = population.loss(b_ + delta, b_, FULL) - calibration.loss_at_infinity(
        b_, FULL
    )
    g = float(full.excess.subs(sym.b, b_))
    assert b_ * np.exp(delta) * excess == pytest.approx(
        g - np.exp(-delta) * (delta - 1), abs=1e-7
    )
