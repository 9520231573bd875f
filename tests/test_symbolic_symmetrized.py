"""Tests for stumplib.symbolic.symmetrized: the two-layer loss and the derived laws."""

import mpmath
import pytest
import sympy as sp

from stumplib.symbolic import symmetrized as S

L10 = sp.Rational(1, 10)


def test_layer_integral_is_the_two_layer_loss():
    assert sp.simplify(S.layer_loss() - S.interior_loss()) == 0


@pytest.fixture(scope="module")
def laws():
    return S.interior_laws()


def test_interior_limits(laws):
    l = S.lo
    assert sp.simplify(laws["rho"].limit - l / (2 - l)) == 0
    assert sp.simplify(laws["db_dlog_t"].limit - 1 / (2 * l)) == 0
    assert sp.simplify(laws["db_dlog_t"].correction + 1 / (4 * l**2)) == 0
    assert sp.simplify(laws["loss_times_t"].limit - 1 / (2 * l**2)) == 0
    assert laws["loss_exponent"].limit == -1 and laws["loss_exponent"].correction == 0
    assert laws["offset"].at(0.1) == pytest.approx(float(sp.log(171)), rel=1e-14)


def test_interior_slow_manifold_solves_the_balance_to_second_order(laws):
    F = S.interior_loss(L10)
    balance = 2 * S.rho * sp.diff(F, S.rho) - 2 * L10 * F + sp.diff(F, S.b)
    star = (laws["rho"].limit + laws["rho"].correction / S.b).subs(S.lo, L10)
    for b in (1e3, 1e4):
        value = float(balance.subs(S.rho, star).subs(S.b, b))
        scale = float(F.subs(S.rho, star).subs(S.b, b))
        assert abs(value) / scale < 50 / b**2


def test_interior_laws_numeric_at_rational_l(laws):
    fast = S.interior_laws(L10)
    for key, law in laws.items():
        assert law.at(0.1, 200.0) == pytest.approx(fast[key].at(0.1, 200.0), rel=1e-12)


def test_zeta_constant():
    exact, quad = S.zeta_constant()
    assert sp.simplify(exact - (sp.pi**2 / 6 - sp.zeta(3))) == 0
    assert abs(sp.N(exact, 30) - quad) < 1e-25


def test_leakage_coefficients():
    assert S.leakage_coefficient("average") == sp.Rational(1, 2)
    ev = S.leakage_coefficient("evidence")
    assert sp.simplify(ev - (3 - 4 * sp.log(2))) == 0
    quad = 2 * mpmath.quad(
        lambda t: t**2 / ((1 + t) ** 2 * (1 + 2 * t) ** 2), [0, 1, mpmath.inf]
    )
    assert float(ev) == pytest.approx(float(quad), rel=1e-12)


def test_full_laws():
    for rule in ("average", "evidence"):
        law = S.full_laws(rule)
        Z = sp.pi**2 / 6 - sp.zeta(3)
        assert sp.simplify(law["growth"] - 15 * Z / 2) == 0
        assert (
            sp.simplify(law["offset_constant"] - sp.log(2 * law["lambda"] / (3 * Z)))
            == 0
        )
        assert float(law["loss_prefactor"]) == pytest.approx(
            float(Z * (15 * Z / 2) ** -0.6)
        )
    for func in (S.full_laws, S.leakage_coefficient):
        with pytest.raises(ValueError, match="^rule must be one of"):
            func("joint")


def test_law_evaluates_on_arrays():
    law = S.Law(1 / (2 * S.lo), -1 / (4 * S.lo**2))
    assert law.at(0.1) == pytest.approx(5.0)
    values = law.at(0.1, [25.0, 100.0])
    assert values == pytest.approx([4.0, 4.75])
