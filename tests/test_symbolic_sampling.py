"""Tests for stumplib.symbolic.sampling: the task-sampling constant C_sigma.

Chapter 5.
"""

import numpy as np
import pytest
import sympy as sp

from stumplib import calibration, certification, tasks
from stumplib.symbolic import sampling as sym


@pytest.fixture(scope="module")
def derived():
    return sym.layer_constant()


def test_layer_steps(derived):
    assert derived.rho0 == 2
    assert derived.second_moment == sp.Rational(2, 3)


def test_closed_form(derived):
    expected = sp.sqrt(2 * (1 + sym.hi**2) / (3 * (sym.hi - sym.lo)))
    assert sp.simplify(derived.c_sigma - expected) == 0


@pytest.mark.parametrize("lo, hi", [(0.1, 0.9), (0.2, 0.7), (0.0, 0.5)])
def test_numeric_constant_is_the_derived_one(derived, lo, hi):
    value = float(derived.c_sigma.subs({sym.lo: lo, sym.hi: hi}))
    assert calibration.sampling_constant(tasks.Uniform(lo, hi)) == pytest.approx(
        value, rel=1e-14
    )


@pytest.mark.parametrize("lo, hi", [(0.1, 0.9), (0.2, 0.7), (0.0, 0.5)])
def test_quadrature_converges_to_the_constant_like_one_over_b(lo, hi):
    prior = tasks.Uniform(lo, hi)
    limit = calibration.sampling_constant(prior)
    gaps = []
    for b in (1e3, 1e4):
        a = float(calibration.a_star(b, prior))
        gaps.append(
            certification.sampling_coefficient(a, b, prior) / np.sqrt(b) / limit - 1
        )
    # measured: relative gaps 2.6e-3..4.5e-3 at b = 1e3, ten times smaller at 1e4
    assert 0 < gaps[1] < 1e-3
    assert 7 < gaps[0] / gaps[1] < 13


def test_constant_refuses_a_prior_reaching_one():
    with pytest.raises(ValueError, match="prior"):
        calibration.sampling_constant(tasks.Uniform(0.0, 1.0))


@pytest.fixture(scope="module")
def slow():
    return sym.slow_layer_constant()


def test_slow_curve_lag_is_the_reduced_flows(slow):
    from stumplib.symbolic import dynamics

    reduction = dynamics.reduce_flow(dynamics.interior_expansion())
    values = {sym.lo: sp.Rational(1, 10), sym.hi: sp.Rational(9, 10)}
    # two derivations: the layer's tangency condition and the b^-3 invariance equation
    assert float(slow.lag.subs(values)) == pytest.approx(
        float(reduction.lag), rel=1e-12
    )


def test_slow_curve_top_solves_the_tangency_condition(slow):
    width = sym.hi - sym.lo
    q = sym.hi * width / (1 + sym.hi**2)
    assert sp.simplify(slow.rho0 - (1 + sp.sqrt(1 + 2 * q))) == 0


@pytest.mark.parametrize("lo, hi", [(0.1, 0.9), (0.2, 0.7), (0.0, 0.5)])
def test_numeric_slow_constant_is_the_derived_one(slow, lo, hi):
    value = float(slow.c_slow.subs({sym.lo: lo, sym.hi: hi}))
    assert calibration.slow_layer(tasks.Uniform(lo, hi)).constant == pytest.approx(
        value, rel=1e-13
    )


def test_quadrature_on_the_slow_curve_converges_to_the_slow_constant():
    from stumplib import dynamics
    from stumplib.symbolic import dynamics as symbolic_dynamics

    prior = tasks.Uniform(0.1, 0.9)
    reduction = symbolic_dynamics.reduce_flow(symbolic_dynamics.interior_expansion())
    xi0, xi1 = float(reduction.xi0), float(reduction.xi1)
    limit = calibration.slow_layer(prior).constant
    gaps = []
    for b in (1e3, 1e4):
        a = float(dynamics.slow_curve(b, 0.9, 1.0, xi0, xi1))
        gaps.append(
            certification.sampling_coefficient(a, b, prior) / np.sqrt(b) / limit - 1
        )
    # measured: relative gaps 1.9e-3 at b = 1e3, ten times smaller at 1e4 (an O(1/b)
    # gap)
    assert 0 < gaps[1] < 1e-3
    assert 7 < gaps[0] / gaps[1] < 13


def test_slow_constant_refuses_a_prior_reaching_one():
    with pytest.raises(ValueError, match="prior"):
        calibration.slow_layer(tasks.Uniform(0.0, 1.0))


def test_numeric_slow_lag_is_the_derived_one(slow):
    value = float(slow.lag.subs({sym.lo: 0.1, sym.hi: 0.9}))
    assert calibration.slow_layer(tasks.Uniform(0.1, 0.9)).lag == pytest.approx(
        value, rel=1e-13
    )


# ----------------------------------------------------------- the 1/b correction c_1


@pytest.fixture(scope="module")
def correction():
    return sym.layer_correction()


def test_correction_valley_is_the_interior_valleys_offset(correction):
    from stumplib.symbolic import population as sym_population

    # two derivations of a*(b) = hi b + log b + c + c_1/b: the valley condition on the
    # per-task gradients here, the minimum of the layer's loss there
    valley = sym_population.interior_valley(2)
    top, shift, _ = correction.valley
    c0, c1 = (sp.sympify(v).subs({sym_population.hi: sym.hi}) for v in valley.offset)
    assert sp.simplify(-sp.log(top) - c0) == 0
    assert sp.simplify(-shift / top - c1) == 0


def test_correction_leading_moment_is_the_layer_constants(derived, correction):
    leading = correction.moments[0] / (sym.hi - sym.lo)
    assert sp.simplify(leading - derived.c_sigma**2) == 0


def test_correction_sources_add_up(correction):
    assert set(correction.sources) == {*sym.SOURCES, "population gradient"}
    assert sp.simplify(sum(correction.sources.values()) - correction.c1) == 0
    assert correction.gradient[0] == 3


def test_correction_closed_form(correction):
    expected = 3 / (sym.hi - sym.lo) - (19 * sym.hi**2 + 39) / (
        30 * sym.hi * (1 + sym.hi**2)
    )
    assert sp.simplify(correction.c1 - expected) == 0


def _relative_gap(prior, b):
    a = float(calibration.a_star(b, prior))
    limit = calibration.sampling_constant(prior)
    return certification.sampling_coefficient(a, b, prior) / np.sqrt(b) / limit - 1


@pytest.mark.parametrize("lo, hi", [(0.1, 0.9), (0.2, 0.7), (0.0, 0.5)])
def test_quadrature_minus_two_terms_falls_like_one_over_b_squared(correction, lo, hi):
    c1 = float(correction.c1.subs({sym.lo: lo, sym.hi: hi}))
    prior = tasks.Uniform(lo, hi)
    scaled = [(_relative_gap(prior, b) - c1 / b) * b**2 for b in (1e3, 1e4)]
    # measured b² (gap - c_1/b): 7.86, 7.84 (U[0.1, 0.9]); 22.18, 22.10; 13.93, 13.91.
    # A wrong c_1 (by δ) would make these grow tenfold (δ b); 10% allows a third order
    # up to 100 c_2 / b at b = 1e3.
    assert scaled[0] == pytest.approx(scaled[1], rel=0.1)


@pytest.mark.parametrize("lo, hi", [(0.1, 0.9), (0.2, 0.7), (0.0, 0.5)])
def test_quadrature_b_squared_residual_is_the_derived_c2(correction, lo, hi):
    values = {sym.lo: lo, sym.hi: hi}
    c1, c2 = (float(c.subs(values)) for c in (correction.c1, correction.c2))
    b = 1e4
    scaled = (_relative_gap(tasks.Uniform(lo, hi), b) - c1 / b) * b**2
    # derived c_2: 7.8417, 22.091, 13.909; measured 7.8431, 22.100, 13.911 at b = 1e4.
    # The gap is the third order, c_3 / b: 1% allows |c_3| up to 100 c_2 (the quadrature
    # contributes ~1e-10 b² = 0.01 here)
    assert scaled == pytest.approx(c2, rel=0.01)


@pytest.mark.parametrize("lo, hi", [(0.1, 0.9), (0.2, 0.7), (0.0, 0.5)])
def test_numeric_correction_is_the_derived_one(correction, lo, hi):
    values = {sym.lo: lo, sym.hi: hi}
    numeric = calibration.sampling_correction(tasks.Uniform(lo, hi))
    assert numeric.c1 == pytest.approx(float(correction.c1.subs(values)), rel=1e-13)
    assert numeric.c2 == pytest.approx(float(correction.c2.subs(values)), rel=1e-13)


def test_correction_refuses_a_prior_reaching_one():
    with pytest.raises(ValueError, match="prior"):
        calibration.sampling_correction(tasks.Uniform(0.0, 1.0))
