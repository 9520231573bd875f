"""Tests for stumplib.posthoc and stumplib.symbolic.posthoc."""

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from stumplib import dynamics, population, posthoc, symmetrization, tasks
from stumplib.symbolic import posthoc as S

FULL = tasks.Uniform()
INTERIOR = tasks.Uniform(0.1, 0.9)


@pytest.fixture(scope="module")
def derived():
    return S.limits()


# --- the derivation -------------------------------------------------------------------


def test_limits_reference_values(derived):
    # Z + 1/2 = zeta(2) - zeta(3) + 1/2; (hi xi0)^2 / (4 (hi - lo)) with
    # xi0 = 10/9 + 50 sqrt(2353)/1629 (chapter 4's slow curve under U[0.1, 0.9])
    assert float(derived.full) == pytest.approx(0.9428771636886322, rel=1e-14)
    xi0 = sp.Rational(10, 9) + 50 * sp.sqrt(2353) / 1629
    closed = (sp.Rational(9, 10) * xi0) ** 2 / (4 * sp.Rational(8, 10))
    assert sp.simplify(derived.interior - closed) == 0
    assert float(derived.interior) == pytest.approx(1.7111141461073829, rel=1e-14)
    assert derived.differences() == {"full": 0, "interior": 0}
    assert derived.xi0_full == 1 and derived.Lambda == sp.Rational(1, 2)


def test_limits_bad_arguments():
    with pytest.raises(ValueError, match="edge must be in"):
        S.limits(edge=(1, 2))
    with pytest.raises(ValueError, match="edge must be"):
        S.limits(edge=0.1)
    with pytest.raises(ValueError, match="rule"):
        S.limits(rule="joint")


@pytest.mark.parametrize("prior", ["full", "interior"])
def test_slow_curve_approaches_the_limit(derived, prior):
    """b^3 L_bar on the leading-order slow curve approaches the limit like 1/b."""
    law, p, m = {
        "full": (FULL, 1.0, 2.0),
        "interior": (INTERIOR, 0.9, 1.0),
    }[prior]
    xi0 = float(getattr(derived, f"xi0_{prior}"))
    limit = float(getattr(derived, prior))
    gaps = []
    for b in (1e3, 1e4):
        a = float(dynamics.slow_curve(b, p, m, xi0))
        gaps.append(abs(b**3 * symmetrization.loss_and_gradient(a, b, law)[0] - limit))
    assert gaps[1] < gaps[0] / 5  # an O(1/b) (or O(log b / b)) remainder


# --- the comparison -------------------------------------------------------------------


def test_compare_starts_from_the_losses_at_theta0():
    res = posthoc.compare(FULL, (20.0, 20.0), 1.0, points=3)
    assert res.t[0] == 0 and res.t[-1] == pytest.approx(1.0)
    assert res.posthoc[0] == pytest.approx(
        symmetrization.loss_and_gradient(20.0, 20.0, FULL)[0], rel=1e-12
    )
    assert res.symmetrized.loss[0] == pytest.approx(res.posthoc[0], rel=1e-12)
    assert res.one_head.loss[0] == pytest.approx(
        population.loss(20.0, 20.0, FULL), rel=1e-12
    )
    assert res.crossover() == posthoc.crossover(
        res.t[1:], res.posthoc[1:], res.symmetrized.loss[1:]
    )
    # the posthoc loss is the symmetrized loss at the one-head parameters
    a, b = res.one_head.a[-1], res.one_head.b[-1]
    assert res.posthoc[-1] == pytest.approx(
        symmetrization.loss_and_gradient(a, b, FULL)[0], rel=1e-12
    )


def test_compare_bad_arguments():
    with pytest.raises(ValueError, match="t_max"):
        posthoc.compare(FULL, (20.0, 20.0), 1e-3)
    with pytest.raises(ValueError, match="points"):
        posthoc.compare(FULL, (20.0, 20.0), 1.0, points=1)
    with pytest.raises(ValueError, match="rule"):
        posthoc.compare(FULL, (20.0, 20.0), 1.0, rule="joint")
    with pytest.raises(ValueError, match="b"):
        posthoc.compare(FULL, (20.0, -1.0), 1.0)
    with pytest.raises(TypeError, match="prior"):
        posthoc.compare("U[0,1]", (20.0, 20.0), 1.0)


def test_cubed_loss_reference_and_errors():
    a, b = np.array([[22.0, 30.0]]), np.array([[20.0, 25.0]])
    ours = posthoc.cubed_loss(a, b, FULL)
    assert ours.shape == (1, 2)
    for k in range(2):
        ref = symmetrization.loss_and_gradient(a[0, k], b[0, k], FULL)[0]
        assert ours[0, k] == pytest.approx(b[0, k] ** 3 * ref, rel=1e-14)
    with pytest.raises(ValueError, match="one shape"):
        posthoc.cubed_loss(a, b[0, :1], FULL)
    with pytest.raises(ValueError, match="b"):
        posthoc.cubed_loss(a, -b, FULL)
    with pytest.raises(ValueError, match="rule"):
        posthoc.cubed_loss(a, b, FULL, rule="joint")


# --- crossover ------------------------------------------------------------------------


def test_crossover_of_two_power_laws_is_exact():
    t = np.geomspace(1.0, 1e8, 17)
    # 100/t falls below t^{-1/2} at t = 1e4; log-log interpolation is exact here
    assert posthoc.crossover(t, 100 / t, t**-0.5) == pytest.approx(1e4, rel=1e-12)
    assert posthoc.crossover(t, t**-0.5, 100 / t) == pytest.approx(1e4, rel=1e-12)
    assert posthoc.crossover(t, 2 * t**-0.5, t**-0.5) is None
    # two changes of order: the last one counts
    wave = np.where(t < 1e2, 2.0, np.where(t < 1e5, 0.5, 2.0))
    assert 1e4 < posthoc.crossover(t, wave, np.ones_like(t)) < 1e6


@given(
    st.floats(0.5, 5.0),
    st.floats(-3.0, 3.0),
    st.floats(1e-3, 1e3),
)
def test_crossover_is_bracketed_and_scale_free(slope, log_c, scale):
    t = np.geomspace(1.0, 1e6, 13)
    first, second = np.exp(log_c) * t**-slope, t ** (-slope / 2)
    cross = posthoc.crossover(t, first, second)
    again = posthoc.crossover(t, scale * first, scale * second)
    if cross is None:
        assert again is None
    else:
        assert again == pytest.approx(cross, rel=1e-9)
        i = np.searchsorted(t, cross * (1 + 1e-12), side="right") - 1
        i = min(i, t.size - 2)
        assert first[i] >= second[i] and first[i + 1] < second[i + 1]


def test_crossover_bad_arguments():
    t = np.array([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="first"):
        posthoc.crossover(t, [1.0, -1.0, 1.0], t)
    with pytest.raises(ValueError, match="one shape"):
        posthoc.crossover(t, t[:2], t)
    with pytest.raises(ValueError, match="increasing"):
        posthoc.crossover(t[::-1], t, t)
