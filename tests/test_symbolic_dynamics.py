import numpy as np
import pytest
import sympy as sp

from stumplib import population, tasks
from stumplib.symbolic import dynamics as sd


@pytest.fixture(scope="module")
def interior():
    return sd.interior_expansion()


@pytest.fixture(scope="module")
def full():
    return sd.full_expansion()


def test_interior_expansion_reference(interior):
    x = sd.xi
    hi, delta = sp.Rational(9, 10), sp.Rational(8, 10)
    assert sp.simplify(interior.phi - (hi**2 * x**2 / 2 - 2 * hi * x) / delta) == 0
    assert (
        sp.simplify(
            interior.psi
            - (2 * x + hi * x**2 / 2 - sp.Rational(2, 3) * hi**2 * x**3) / delta
        )
        == 0
    )


def test_full_expansion_special_constants(full):
    assert full.steps["bias integral"] == -2 * sp.zeta(3)
    assert sp.simplify(full.steps["J"] - (sp.pi**2 / 6 - 1)) == 0
    assert sp.simplify(full.phi - (sd.xi - 2 * sp.zeta(3))) == 0
    assert sp.simplify(full.psi + sp.pi**2 * sd.xi / 3) == 0


@pytest.mark.parametrize(
    "which,prior",
    [("interior", tasks.Uniform(0.1, 0.9)), ("full", tasks.Uniform(0.0, 1.0))],
)
def test_expansion_matches_population_loss(which, prior, interior, full):
    ex = interior if which == "interior" else full
    phi, psi = (sp.lambdify(sd.xi, f) for f in (ex.phi, ex.psi))
    for b in (300.0, 3000.0):
        for x in (0.5, 2.0):
            a = float(ex.p) * b + float(ex.m) * np.log(b) - np.log(x)
            L = population.loss(a, b, prior)
            # the remainder after the Psi term is O(log b / b) relative to Psi
            assert b**4 * (L - 1 / b**2 - phi(x) / b**3) == pytest.approx(
                psi(x), rel=0.2 * 300 / b
            )
    model = ex.numeric_loss()
    a = float(ex.p) * 1000 + float(ex.m) * np.log(1000) - np.log(2.0)
    assert model(a, 1000.0) == pytest.approx(
        population.loss(a, 1000.0, prior), rel=1e-8
    )


def test_reduction_interior(interior):
    red = sd.reduce_flow(interior)
    assert red.kappa == sp.Rational(800, 181)
    assert red.kappa == sd.shared_descent_kappa(sp.Rational(9, 10))
    assert red.xi_valley == sp.Rational(20, 9)
    assert float(red.xi0) == pytest.approx(2.59999175, rel=1e-7)
    assert float(red.e) == pytest.approx(-4.63610487, rel=1e-7)
    assert float(red.lag) == pytest.approx(-0.15700058, rel=1e-6)
    # the slow curve is tangent to the flow: order-3 equation vanishes at xi0
    assert (
        sp.simplify(
            red.invariance["order 3"].subs(sp.Symbol("xi_0", positive=True), red.xi0)
        )
        == 0
    )


def test_reduction_full(full):
    red = sd.reduce_flow(full)
    assert red.kappa == 4 and red.xi0 == 1 and red.xi_valley is None and red.lag is None
    assert sp.simplify(red.e - (-3 * sp.zeta(3) - sp.Rational(1, 2))) == 0
    assert red.rms_constant == 1 / sp.sqrt(2)
    assert sp.simplify(red.rms_correction - sp.Rational(2, 3)) == 0
    assert sp.simplify(red.ratio_correction - sp.Rational(4, 3) * red.e) == 0


def test_interior_expansion_errors():
    with pytest.raises(ValueError, match="0 < lo < hi < 1"):
        sd.interior_expansion(0, sp.Rational(9, 10))
    with pytest.raises(ValueError, match="0 < lo < hi < 1"):
        sd.interior_expansion(sp.Rational(1, 2), sp.Rational(1, 4))


@pytest.mark.parametrize(
    "lo,hi",
    [(sp.Rational(1, 5), sp.Rational(3, 5)), (sp.Rational(1, 4), sp.Rational(1, 2))],
)
def test_kappa_is_universal_in_the_valley_slope(lo, hi):
    # kappa = 8/(1 + hi^2) whatever the prior's width; e and the lag depend on it
    red = sd.reduce_flow(sd.interior_expansion(lo, hi))
    assert sp.simplify(red.kappa - 8 / (1 + hi**2)) == 0
    assert red.xi_valley == 2 / hi
    assert float(red.lag) < 0  # the flow runs below the valley


def test_reduce_flow_needs_one_positive_root():
    bad = sd.LossExpansion(
        "no root", sp.Integer(1), sp.Integer(1), -sd.xi, sp.Integer(0), {}
    )
    with pytest.raises(ValueError, match="one positive slow-curve root"):
        sd.reduce_flow(bad)
