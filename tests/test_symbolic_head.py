"""Tests for stumplib.symbolic.head: the gradient of the head as weighted moments."""

import numpy as np
import pytest
import sympy as sp

from stumplib import head, tasks
from stumplib.symbolic import head as symbolic_head


def test_identities_hold_for_symbolic_context_size():
    proof = symbolic_head.derive()
    assert proof.residual_a == 0
    assert proof.residual_b == 0
    assert proof.holds
    assert proof.estimate.has(symbolic_head.n)


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5])
def test_identities_hold_for_concrete_sizes(size):
    proof = symbolic_head.derive(size)
    assert proof.holds
    assert not proof.estimate.has(sp.Sum)


def test_derivative_is_not_trivially_zero():
    proof = symbolic_head.derive(2)
    assert sp.simplify(proof.d_a) != 0
    assert sp.simplify(proof.d_b) != 0
    # A wrong candidate must not pass: the sign of the b-derivative matters.
    assert sp.simplify(proof.d_b + proof.neg_var) != 0


def test_concrete_estimate_matches_numeric_head():
    xs, ys = symbolic_head.context_symbols(3)
    expr = symbolic_head.estimate(3)
    x = np.array([0.1, 0.5, 0.8])
    y = np.array([0.0, 1.0, 1.0])
    values = {
        symbolic_head.a: 2.0,
        symbolic_head.b: 3.0,
        **dict(zip(xs, x)),
        **dict(zip(ys, y)),
    }
    assert float(expr.subs(values)) == pytest.approx(
        float(head.estimate(2.0, 3.0, x, y)), rel=1e-13
    )


@pytest.mark.parametrize("size", [1, 2, 5, 8])
def test_lambdified_gradient_matches_library(size):
    rng = np.random.default_rng(size)
    grad = symbolic_head.gradient_function(size)
    x, y, _ = tasks.sample_contexts(50, size, rng=rng)
    b = rng.uniform(-5, 30, 50)
    a = b * rng.uniform(0, 1, 50) + rng.uniform(-2, 4, 50)
    g_a, g_b = head.gradient(a, b, x, y)
    for k in range(50):
        s_a, s_b = grad(a[k], b[k], x[k], y[k])
        assert s_a == pytest.approx(g_a[k], rel=1e-9, abs=1e-13)
        assert s_b == pytest.approx(g_b[k], rel=1e-9, abs=1e-13)


@pytest.mark.parametrize(
    "size, error",
    [
        (0, ValueError),
        (-1, ValueError),
        (2.5, ValueError),
        (True, ValueError),
        (None, TypeError),
    ],
)
def test_bad_size_raises(size, error):
    with pytest.raises(error, match="^size"):
        symbolic_head.context_symbols(size)
