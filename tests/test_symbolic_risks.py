"""Tests for stumplib.symbolic.risks against brute-force sums and Monte Carlo."""

import numpy as np
import pytest
import sympy as sp

from stumplib import baselines, tasks
from stumplib.symbolic import risks


def _at(expr, s, n):
    return float(expr.subs({risks.s: sp.Rational(s), risks.N: n}))


def test_nearest_positive_risk_matches_order_statistics_sum():
    # For N = 3 the smallest positive is the min of Binomial-many uniforms on (s, 1];
    # integrate the exact survival function on a fine grid as an independent check.
    n, s = 3, 0.4
    v = np.linspace(0, 1 - s, 200_001)
    brute = np.trapezoid(2 * v * (1 - v) ** n, v)
    assert _at(risks.risks()["nearest_positive"], "0.4", n) == pytest.approx(
        brute, rel=1e-9
    )


def test_interior_and_integrated_closed_forms():
    exact = risks.risks()
    n = risks.N
    assert (
        sp.simplify(risks.interior(exact["nearest_positive"]) - 2 / ((n + 1) * (n + 2)))
        == 0
    )
    assert (
        sp.simplify(risks.interior(exact["midpoint"]) - 1 / (2 * (n + 1) * (n + 2)))
        == 0
    )
    assert (
        sp.simplify(
            risks.integrated(exact["nearest_positive"]) - 2 / ((n + 2) * (n + 3))
        )
        == 0
    )
    assert (
        sp.simplify(
            risks.integrated(exact["midpoint"])
            - risks.integrated(exact["gap_square"]) / 12
        )
        == 0
    )
    assert risks.leading_constant(risks.interior(exact["midpoint"])) == sp.Rational(
        1, 2
    )


def test_readable_form_writes_no_s_bar_minus_one():
    """The edge term of the midpoint risk reads -s (1-s)^(N+1) (N+2), not
    (1-s)^(N+1) (N+2) ((1-s) - 1) (issue 41)."""
    for expr in risks.risks().values():
        shown = risks.readable(expr)
        assert not shown.has(risks.s_bar - 1), shown
        assert not shown.has(1 - risks.s_bar), shown


def test_readable_form_is_the_same_function():
    for expr in risks.risks().values():
        shown = risks.readable(expr).subs(risks.s_bar, 1 - risks.s)
        for s in ("0.2", "0.7"):
            for n in (1, 4, 9):
                assert _at(shown, s, n) == pytest.approx(
                    _at(expr, s, n), rel=1e-12, abs=1e-15
                )


@pytest.mark.parametrize(
    "rule, name",
    [
        (baselines.midpoint, "midpoint"),
        (baselines.nearest_positive, "nearest_positive"),
    ],
)
def test_monte_carlo_agrees_with_exact_risk(rule, name):
    n, s = 5, "0.25"
    mc = baselines.monte_carlo_risks(
        {name: rule}, n, tasks.Fixed(float(s)), tasks_per_batch=200_000, rng=11
    )[name]
    assert abs(mc[0] - _at(risks.risks()[name], s, n)) < 4 * mc[1]


def test_numeric_function_evaluates_vectorized():
    f = risks.numeric(risks.risks()["midpoint"])
    values = f(np.array([0.2, 0.5]), 10)
    assert values.shape == (2,)
    assert values[0] == pytest.approx(
        _at(risks.risks()["midpoint"], "0.2", 10), rel=1e-12
    )
