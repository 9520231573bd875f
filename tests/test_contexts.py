"""Tests for stumplib.book.contexts: the figures of contexts, rules and the head, and
the residual of a SymPy identity."""

import matplotlib.pyplot as plt
import numpy as np
import sympy as sp

from stumplib import baselines, head, risk_checks, tasks
from stumplib.book import contexts
from stumplib.symbolic import risks

X = np.array([0.05, 0.2, 0.41, 0.5, 0.62, 0.9])
Y = tasks.labels(X, 0.45)


def test_constant_is_the_number_an_expression_simplifies_to():
    n = sp.Symbol("n", positive=True)
    assert contexts.constant((n + 1) * (n + 2) / (2 * (n + 1) * (n + 2))) == 0.5
    assert contexts.constant(1 / (n + 1)) == float("inf")


def test_residual_is_zero_for_an_identity_and_positive_otherwise():
    x = sp.Symbol("x")
    assert contexts.residual((x + 1) ** 2 - (x**2 + 2 * x + 1)) == 0.0
    assert contexts.residual(sp.Rational(1, 3) - sp.Rational(1, 4)) == 1 / 12
    assert contexts.residual(x - 1) == float("inf")


def test_context_figure_marks_the_gap():
    fig = contexts.context_figure(X, Y, 0.45)
    left, right = baselines.gap(X, Y)
    assert len(fig.axes) == 2 and fig.axes[1].get_xlabel() == "feature $x$"
    assert fig.axes[1].get_xlim()[0] < left < right < fig.axes[1].get_xlim()[1]
    plt.close(fig)


def test_risk_rates_figure_draws_each_rule_and_law():
    rules = {"nearest_positive": baselines.nearest_positive}
    curves = {
        "s = 0.3": risk_checks.risk_curves(rules, [5, 10], tasks.Fixed(0.3), 50, 1)
    }
    formulas = {"s = 0.3": risks.risks()}
    fig = contexts.risk_rates_figure(curves, formulas, 0.3, np.array([5.0, 10.0]))
    (ax,) = fig.axes
    assert ax.get_ylabel() == "$N^2$ × risk"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "nearest positive, s = 0.3"
    ]
    plt.close(fig)


def test_attention_and_hard_limit_figures():
    settings = [(0.0, 0.0, "a"), (1.0, 1.0, "b"), (3.0, 2.0, "c"), (1.0, 5.0, "d")]
    fig = contexts.attention_figure(X, Y, 0.45, settings)
    assert len(fig.axes) == 4
    plt.close(fig)
    b = np.geomspace(1.0, 1e3, 20)
    distance = head.distance_to_limit(b + 2 * np.log(b), b, X, Y)
    leading = head.hard_limit_expansion(b + 2 * np.log(b), b, X, Y)[0]
    fig = contexts.hard_limit_figure(
        b, [("with positives", distance, leading), ("grey", distance, None)],
        [(b[[5, 9]], distance[[5, 9]]), None],
    )  # fmt: skip
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels == ["with positives", "grey", "leading term",
                      "rate checked between the dots"]  # fmt: skip
    plt.close(fig)
