"""The descent lemma: curvature, the step it allows, the guaranteed decrease."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stumplib import calibration, descent_lemma, dynamics, population, tasks

PRIOR = tasks.Uniform(0.1, 0.9)


def valley(b):
    return float(calibration.a_star(b, PRIOR)), b


@pytest.mark.parametrize("b", [10.0, 40.0, 160.0])
def test_curvature_is_the_top_eigenvalue_at_two_difference_steps(b):
    a, b = valley(b)
    top = descent_lemma.curvature(a, b, PRIOR)
    finer = dynamics.hessian(
        lambda u, v: population.gradient(u, v, PRIOR), a, b, h=3e-5
    )
    # the lemma needs lambda_max to a few digits: 1e-3 covers truncation and rounding
    assert top == pytest.approx(np.linalg.eigvalsh(finer)[-1], rel=1e-3)


def test_step_bound_reference_values_and_large_scale_law():
    # measured reference values of 2 / (9 lambda_max) on the valley of U[0.1, 0.9]
    assert descent_lemma.step_bound(*valley(20.0), PRIOR) == pytest.approx(
        349.54, rel=1e-3
    )
    assert descent_lemma.step_bound(*valley(80.0), PRIOR) == pytest.approx(
        12942.3, rel=1e-3
    )
    # lambda_max b^3 settles (the bound grows like b^3 at large b)
    scaled = [
        descent_lemma.step_bound(*valley(b), PRIOR) / b**3 for b in (160.0, 320.0)
    ]
    assert scaled[0] == pytest.approx(scaled[1], rel=0.02)


def test_guaranteed_decrease_at_the_hypotheses_is_a_quarter():
    assert descent_lemma.guaranteed_decrease(0.5, 2 / 9) == pytest.approx(0.25)


@given(
    st.floats(0.0, 0.5),
    st.floats(0.0, 2 / 9),
    st.floats(-1.0, 1.0),
    st.floats(-1.0, 1.0),
)
def test_the_bracket_bounds_the_quadratic_model_of_a_step(rho, q, u, v):
    # a quadratic loss with curvature lambda = 1 along g = (1, 0): the exact decrease of
    # the step eta G, G = g + e with |e| <= rho |g|, is at least eta |g|^2 times the
    # bracket
    e = np.array([u, v])
    e = rho * e / max(np.linalg.norm(e), 1e-12)
    g = np.array([1.0, 0.0])
    G = g + e
    eta = q  # lambda = 1
    decrease = eta * g @ G - eta**2 * (G @ G) / 2
    assert decrease >= eta * descent_lemma.guaranteed_decrease(rho, q) - 1e-12


@pytest.mark.parametrize(
    ("rho", "q", "message"),
    [
        (-0.1, 0.1, r"^rho must lie in \[0, 1e\+100\]"),
        (1e300, 0.1, r"^rho must lie in \[0, 1e\+100\]"),  # q (1 + rho)² overflowed
        (0.1, 1e101, r"^q must lie in \[0, 1e\+100\]"),
        (0.1, np.nan, "q must be finite"),
        ("x", 0.1, "rho"),
    ],
)
def test_guaranteed_decrease_rejects_bad_inputs(rho, q, message):
    with pytest.raises((ValueError, TypeError), match=message):
        descent_lemma.guaranteed_decrease(rho, q)


def test_curvature_rejects_bad_points():
    with pytest.raises(ValueError, match="b"):
        descent_lemma.curvature(1.0, np.inf, PRIOR)
