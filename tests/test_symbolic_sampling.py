"""Tests for stumplib.symbolic.sampling: the task-sampling constant C_sigma (chapter 5)."""

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
    assert certification.sampling_constant(tasks.Uniform(lo, hi)) == pytest.approx(
        value, rel=1e-14
    )


@pytest.mark.parametrize("lo, hi", [(0.1, 0.9), (0.2, 0.7), (0.0, 0.5)])
def test_quadrature_converges_to_the_constant_like_one_over_b(lo, hi):
    prior = tasks.Uniform(lo, hi)
    limit = certification.sampling_constant(prior)
    gaps = []
    for b in (1e3, 1e4):
        a = float(calibration.a_star(b, prior))
        gaps.append(certification.sampling_coefficient(a, b, prior) / np.sqrt(b) / limit - 1)
    # measured: relative gaps 2.6e-3..4.5e-3 at b = 1e3, ten times smaller at 1e4
    assert 0 < gaps[1] < 1e-3
    assert 7 < gaps[0] / gaps[1] < 13


def test_constant_refuses_a_prior_reaching_one():
    with pytest.raises(ValueError, match="prior"):
        certification.sampling_constant(tasks.Uniform(0.0, 1.0))
