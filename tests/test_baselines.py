"""Tests for stumplib.baselines: gap rules and Monte Carlo risks against exact risks.

Exact risks for N iid U[0, 1] features and a fixed threshold s, with R the smallest
positive (1 if none) and L the largest negative (0 if none):
  P(R - s > t) = (1 - t)^N  (t < 1 - s)       =>  E(R - s)^2 = A(s),
  A(s) = 2 [(1 - s^{N+1})/(N+1) - (1 - s^{N+2})/(N+2)],
  and by reflection E(s - L)^2 = A(1 - s);
  P(R - s > t, s - L > u) = (1 - t - u)^N    =>  E(R - s)(s - L) = C(s),
  C(s) = [1 - s^{N+2} - (1 - s)^{N+2}] / ((N+1)(N+2));
  midpoint M = (L + R)/2:  E(M - s)^2 = [A(s) + A(1 - s) - 2 C(s)] / 4.
Under s ~ U[0, 1] the gap containing s is a size-biased spacing, E(R - L)^2 =
6/((N+2)(N+3)), and the midpoint (the posterior mean) has Bayes risk E(R - L)^2/12 =
1/(2 (N+2)(N+3)).
"""

import numpy as np
import pytest

from stumplib import baselines, tasks


def risk_nearest_positive(s, n):
    return 2 * ((1 - s ** (n + 1)) / (n + 1) - (1 - s ** (n + 2)) / (n + 2))


def risk_midpoint(s, n):
    c = (1 - s ** (n + 2) - (1 - s) ** (n + 2)) / ((n + 1) * (n + 2))
    return (risk_nearest_positive(s, n) + risk_nearest_positive(1 - s, n) - 2 * c) / 4


X = np.array([0.9, 0.2, 0.55, 0.4, 0.7])
Y = np.array([1.0, 0.0, 1.0, 0.0, 1.0])


def test_gap_hand_example():
    left, right = baselines.gap(X, Y)
    assert (left, right) == (0.4, 0.55)
    assert baselines.nearest_negative(X, Y) == 0.4
    assert baselines.nearest_positive(X, Y) == 0.55
    assert baselines.midpoint(X, Y) == pytest.approx(0.475, abs=1e-16)


def test_no_positives_and_no_negatives():
    assert baselines.gap(X, np.zeros(5)) == (0.9, 1.0)  # no positive: R = 1
    assert baselines.nearest_positive(X, np.zeros(5)) == 1.0
    assert baselines.gap(X, np.ones(5)) == (0.0, 0.2)  # no negative: L = 0
    assert baselines.nearest_negative(X, np.ones(5)) == 0.0
    assert baselines.midpoint(X, np.ones(5)) == pytest.approx(0.1, abs=1e-16)
    assert baselines.midpoint(X, np.zeros(5)) == pytest.approx(0.95, abs=1e-16)


def test_batched():
    x = np.stack([X, X, X])
    y = np.stack([Y, np.zeros(5), np.ones(5)])
    np.testing.assert_array_equal(baselines.nearest_positive(x, y), [0.55, 1.0, 0.2])
    np.testing.assert_array_equal(baselines.nearest_negative(x, y), [0.4, 0.9, 0.0])
    np.testing.assert_allclose(baselines.midpoint(x, y), [0.475, 0.95, 0.1], rtol=1e-15)


def test_gap_brackets_the_threshold():
    x, y, s = tasks.sample_contexts(500, 12, rng=1)
    left, right = baselines.gap(x, y)
    assert np.all((left <= s) & (s <= right))  # y = 1{x > s}: L <= s < R (or the edges)


def test_mirror_swaps_the_two_rules():
    """Under x -> 1 - x, y -> 1 - y the nearest negative becomes 1 - the nearest
    positive."""
    x, y, _ = tasks.sample_contexts(50, 9, rng=2)
    mx, my = tasks.mirror(x, y)
    np.testing.assert_allclose(
        baselines.nearest_negative(mx, my),
        1 - baselines.nearest_positive(x, y),
        rtol=0,
        atol=1.2e-16,
    )


def test_exact_risk_formulas_by_quadrature():
    """The closed forms above against direct integration of the survival functions."""
    from scipy import integrate

    n, s = 7, 0.35
    a_num = integrate.quad(
        lambda t: 2 * t * (1 - t) ** n, 0, 1 - s, epsabs=0, epsrel=1e-13
    )[0]
    assert risk_nearest_positive(s, n) == pytest.approx(a_num, rel=1e-12)
    c_num = integrate.dblquad(
        lambda u, t: (1 - t - u) ** n, 0, 1 - s, 0, s, epsabs=0, epsrel=1e-12
    )[0]
    c = (1 - s ** (n + 2) - (1 - s) ** (n + 2)) / ((n + 1) * (n + 2))
    assert c == pytest.approx(c_num, rel=1e-10)


RULES = {
    "positive": baselines.nearest_positive,
    "negative": baselines.nearest_negative,
    "midpoint": baselines.midpoint,
}


@pytest.mark.parametrize("s, n", [(0.3, 5), (0.5, 20), (0.85, 10)])
def test_monte_carlo_risks_match_exact_fixed_threshold(s, n):
    out = baselines.monte_carlo_risks(
        RULES, n, tasks.Fixed(s), tasks_per_batch=20_000, batches=2, rng=0
    )
    assert set(out) == set(RULES)
    exact = {
        "positive": risk_nearest_positive(s, n),
        "negative": risk_nearest_positive(1 - s, n),
        "midpoint": risk_midpoint(s, n),
    }
    for name, (risk, se) in out.items():
        # seeded, hence deterministic; 4 standard errors, and the SE itself is ~1% of
        # the risk
        assert abs(risk - exact[name]) < 4 * se, name
        assert se < 0.03 * exact[name], name
    # interior s, large N: midpoint ~ 1/(2 N^2), nearest positive ~ 2/N^2 (a factor ~4)
    assert out["midpoint"][0] < 0.4 * out["positive"][0]


def test_monte_carlo_bayes_risk_under_uniform_prior():
    n = 8
    out = baselines.monte_carlo_risks(
        RULES, n, tasks.Uniform(), tasks_per_batch=50_000, rng=2
    )
    risk, se = out["midpoint"]
    assert abs(risk - 1 / (2 * (n + 2) * (n + 3))) < 4 * se
    # the posterior mean beats both one-sided rules on the same contexts
    assert risk < out["positive"][0] and risk < out["negative"][0]


def test_monte_carlo_risks_share_contexts_and_are_deterministic():
    rules = {"m1": baselines.midpoint, "m2": baselines.midpoint}
    r1 = baselines.monte_carlo_risks(rules, 6, tasks_per_batch=1000, batches=3, rng=5)
    assert r1["m1"] == r1["m2"]  # the same contexts for every rule
    assert (
        baselines.monte_carlo_risks(rules, 6, tasks_per_batch=1000, batches=3, rng=5)
        == r1
    )
    errs = []
    rng = np.random.default_rng(5)
    for _ in range(3):
        x, y, s = tasks.sample_contexts(1000, 6, rng=rng)
        errs.append((baselines.midpoint(x, y) - s) ** 2)
    errs = np.concatenate(errs)
    assert r1["m1"][0] == pytest.approx(errs.mean(), rel=1e-14)
    assert r1["m1"][1] == pytest.approx(
        errs.std(ddof=1) / np.sqrt(errs.size), rel=1e-12
    )


def test_bad_inputs():
    for fn in (
        baselines.gap,
        baselines.nearest_positive,
        baselines.nearest_negative,
        baselines.midpoint,
    ):
        with pytest.raises(ValueError, match="x and y must have the same shape"):
            fn([0.1, 0.2], [1])
        with pytest.raises(ValueError, match=r"^x must lie in \[0, 1\]"):
            fn([0.1, 1.2], [0, 1])
        with pytest.raises(ValueError, match="^x must be finite"):
            fn([0.1, np.nan], [0, 1])
        with pytest.raises(ValueError, match=r"^y must hold labels"):
            fn([0.1, 0.2], [0, 3])
        with pytest.raises(ValueError, match="context is empty"):
            fn(np.zeros((3, 0)), np.zeros((3, 0)))
    with pytest.raises(ValueError, match="^n must be an integer"):
        baselines.monte_carlo_risks(RULES, 0)
    with pytest.raises(ValueError, match="^batches must be an integer"):
        baselines.monte_carlo_risks(RULES, 5, batches=1.5)
    with pytest.raises(ValueError, match="^tasks_per_batch must be an integer"):
        baselines.monte_carlo_risks(RULES, 5, tasks_per_batch=0)
