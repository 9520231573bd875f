"""Tests for stumplib.symbolic.boundary: edge moments and exact risks."""

import numpy as np
import pytest
import sympy as sp

from stumplib import baselines, head, symmetrization, tasks
from stumplib.symbolic import boundary, risks

N, s = boundary.N, boundary.s


def _at(expr, s_value, n):
    return float(expr.subs({s: sp.Rational(s_value), N: n}))


def test_empty_side_moments_match_order_statistics():
    # On "no positive" the features are N uniforms on [0, s]: E[min] = s/(N+1), etc.
    m = boundary.empty_side_moments()
    C, D = boundary.C, boundary.D
    assert sp.simplify(m[sp.Integer(1)] - s**N) == 0
    assert sp.simplify(m[D] - s**N * s / (N + 1)) == 0
    assert sp.simplify(m[D**2] - s**N * 2 * s**2 / ((N + 1) * (N + 2))) == 0
    assert sp.simplify(m[C * D] - s**N * s**2 / ((N + 1) * (N + 2))) == 0
    assert sp.simplify(m[C**2] - m[D**2]) == 0


def test_closed_forms():
    n = N
    head_risk = boundary.risk("head")
    assert sp.simplify(risks.interior(head_risk) - 2 / ((n + 1) * (n + 2))) == 0
    assert sp.simplify(risks.integrated(head_risk) - n / ((n + 1) * (n + 2))) == 0
    assert (
        sp.simplify(risks.integrated(boundary.risk("average")) - 1 / (2 * (n + 2))) == 0
    )
    assert (
        sp.simplify(
            risks.integrated(boundary.risk("evidence"))
            - (n + 7) / (2 * (n + 1) * (n + 2) * (n + 3))
        )
        == 0
    )
    assert sp.simplify(boundary.risk("midpoint") - risks.risks()["midpoint"]) == 0
    for s_value in ("0.1", "0.7"):
        for n_value in (1, 5, 12):
            assert _at(boundary.risk("mirror"), s_value, n_value) == pytest.approx(
                _at(head_risk, str(1 - float(s_value)), n_value), rel=1e-12
            )
    assert boundary.integrated_leading(head_risk) == (1, 1)
    assert boundary.integrated_leading(boundary.risk("evidence")) == (
        2,
        sp.Rational(1, 2),
    )


def test_edge_term_of_the_head_brute_force():
    # E[(min x - s)^2; all x <= s] for N = 3, s = 0.6 by integrating the density of min
    n, sv = 3, 0.6
    v = np.linspace(0, sv, 200_001)
    density = n * (sv - v) ** (n - 1)  # density of min on the event (mass s^N)
    brute = np.trapezoid((v - sv) ** 2 * density, v)
    assert _at(boundary.edge_term(boundary.D - s), "0.6", n) == pytest.approx(
        brute, rel=1e-8
    )


@pytest.mark.parametrize(
    "rule, limit",
    [
        ("head", head.hard_limit),
        ("average", symmetrization.average_hard_limit),
        ("evidence", symmetrization.evidence_hard_limit),
        ("mirror", symmetrization.mirrored_hard_limit),
    ],
)
@pytest.mark.parametrize("s_value", ["0.9", "0.15"])
def test_monte_carlo_agrees_with_exact_risk(rule, limit, s_value):
    n = 6
    mc = baselines.monte_carlo_risks(
        {rule: limit}, n, tasks.Fixed(float(s_value)), tasks_per_batch=200_000, rng=4
    )[rule]
    assert abs(mc[0] - _at(boundary.risk(rule), s_value, n)) < 4 * mc[1]


def test_error_messages():
    with pytest.raises(ValueError, match="rule must be one of"):
        boundary.risk("bayes")
    with pytest.raises(ValueError, match="depend on C, D and s only"):
        boundary.edge_term(boundary.C + N)
    with pytest.raises(ValueError, match="degree at most 1"):
        boundary.edge_term(boundary.C * boundary.D)
    with pytest.raises(ValueError, match="faster than"):
        boundary.integrated_leading(s ** (N + 4) * 0 + 1 / (N + 1) ** 4)
