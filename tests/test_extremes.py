"""Extreme values: |a|, |b| up to 1e12, thresholds at 0 and 1, degenerate contexts.

Every valid input gives a finite value; where an independent high-precision reference
exists (mpmath, 60 digits, from the same float inputs) the value matches it.
"""

import itertools

import mpmath as mp
import numpy as np
import pytest
from scipy import integrate

from stumplib import (
    baselines,
    calibration,
    certified_runs,
    corpus,
    head,
    population,
    symmetrization,
    tasks,
    training,
)

mp.mp.dps = 60
SCALES = [0.0, 1e-300, 1e-12, 1.0, 30.0, 1e3, 1e6, 1e12]
PARAMS = sorted(
    {
        (sa * u, sb * v)
        for u, v in itertools.product(SCALES, SCALES)
        for sa in (1, -1)
        for sb in (1, -1)
    }
)
CONTEXTS = {
    "one example": ([0.4], [1.0]),
    "all positive": ([0.2, 0.5, 0.9], [1.0, 1.0, 1.0]),
    "all negative": ([0.0, 0.3, 0.6], [0.0, 0.0, 0.0]),
    "edges": ([0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0]),
    "ties": ([0.3, 0.3, 0.7, 0.7, 0.7], [0.0, 0.0, 1.0, 1.0, 1.0]),
    "tight gap": ([0.05, 0.5 - 1e-15, 0.5, 0.95], [0.0, 0.0, 1.0, 1.0]),
    "spread": (
        [0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95],
        [0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0],
    ),
}


def mp_softmax_mean(scores, values):
    scores = [mp.mpf(z) for z in scores]
    top = max(scores)
    w = [mp.exp(z - top) for z in scores]
    return sum(wi * mp.mpf(v) for wi, v in zip(w, values)) / sum(w)


def mp_head(a, b, x, y):
    return mp_softmax_mean(
        [mp.mpf(a) * yi - mp.mpf(b) * mp.mpf(xi) for xi, yi in zip(x, y)], x
    )


def tolerance(a, b):
    """Error allowed: rounding of the scores ``a y - b x``.

    Condition ~ (|a| + |b|) eps.
    """
    return 1e-13 + 4e-16 * (abs(a) + abs(b))


@pytest.mark.parametrize("name", CONTEXTS)
def test_head_matches_mpmath(name):
    x, y = CONTEXTS[name]
    worst = 0.0
    for a, b in PARAMS:
        est = float(head.estimate(a, b, x, y))
        d_a, d_b = head.gradient(a, b, x, y)
        assert np.isfinite(est) and np.isfinite(d_a) and np.isfinite(d_b), (a, b)
        assert min(x) <= est <= max(x)
        err = abs(est - float(mp_head(a, b, x, y)))
        assert err <= tolerance(a, b), (a, b, err)
        worst = max(worst, err / tolerance(a, b))
    assert worst <= 1.0


@pytest.mark.parametrize("name", CONTEXTS)
def test_symmetrized_heads_match_mpmath(name):
    x, y = CONTEXTS[name]
    xm, ym = 1 - np.array(x), 1 - np.array(y)
    for a, b in PARAMS:
        joint = float(symmetrization.joint_estimate(a, b, x, y))
        scores = [mp.mpf(a) * yi - mp.mpf(b) * mp.mpf(xi) for xi, yi in zip(x, y)]
        scores += [mp.mpf(a) * yi - mp.mpf(b) * mp.mpf(xi) for xi, yi in zip(xm, ym)]
        assert abs(joint - float(mp_softmax_mean(scores, list(x) * 2))) <= tolerance(
            a, b
        )
        evidence = float(symmetrization.evidence_estimate(a, b, x, y))
        assert np.isfinite(evidence) and min(x) <= evidence <= max(x), (a, b)
        log_p = [mp_log_positive(a, b, x, y), mp_log_positive(a, b, xm, ym)]
        if all(mp.isinf(v) for v in log_p):
            continue
        weight = 1 / (1 + mp.exp(log_p[1] - log_p[0])) if not mp.isinf(log_p[0]) else 0
        ref = weight * mp_head(a, b, x, y) + (1 - weight) * (1 - mp_head(a, b, xm, ym))
        assert abs(evidence - float(ref)) <= tolerance(a, b), (a, b, evidence, ref)


def mp_log_positive(a, b, x, y):
    scores = [mp.mpf(a) * yi - mp.mpf(b) * mp.mpf(xi) for xi, yi in zip(x, y)]
    pos = [z for z, yi in zip(scores, y) if yi == 1]
    if not pos:
        return mp.ninf
    return mp.log(sum(mp.exp(z) for z in pos)) - mp.log(sum(mp.exp(z) for z in scores))


def test_issue_cases_of_evidence_estimate():
    x = np.array([0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95])
    assert symmetrization.evidence_estimate(0.0, 1e6, x, tasks.labels(x, 0.42)) == 0.05
    assert (
        abs(symmetrization.evidence_estimate(9e4, 1e5, [0.05, 0.97], [0, 1]) - 0.51)
        < 1e-11
    )


def test_joint_hard_limit_is_the_limit_of_joint_estimate_at_ties():
    for x, y in [
        ([0, 0, 1, 1], [0, 0, 1, 1]),
        ([0.0, 0.3, 0.7, 1.0], [0, 0, 1, 1]),
        ([0.3, 0.3, 0.7], [0, 0, 1]),
        ([0.2, 0.6, 0.7], [0, 1, 1]),
    ]:
        limit = symmetrization.joint_hard_limit(x, y)
        b = 1e6
        assert abs(symmetrization.joint_estimate(b + 1e3, b, x, y) - limit) < 1e-12, (
            x,
            y,
        )


def mp_population(a, b, s):
    """Uniform features: ratio of elementary integrals, in closed form (mpmath).

    Each class integral is taken from its left end ``lo`` over a length ``L``:
    ``int e^{-bx} = e^{-b lo} M``, ``int x e^{-bx} = e^{-b lo} (lo M + F)`` with
    ``M = -expm1(-bL)/b`` and ``F = (1 - e^{-bL}(1 + bL))/b^2`` (series for small
    ``bL``).
    """
    a, b, s = mp.mpf(a), mp.mpf(b), mp.mpf(s)

    def moments(lo, length):
        t = b * length
        if abs(t) < mp.mpf(10) ** -20:
            m, f = length * (1 - t / 2), length**2 * (mp.mpf(1) / 2 - t / 3)
        else:
            m = -mp.expm1(-t) / b
            f = (1 - mp.exp(-t) * (1 + t)) / b**2
        return mp.exp(-b * lo) * m, mp.exp(-b * lo) * (lo * m + f)

    (m_neg, f_neg), (m_pos, f_pos) = moments(0, s), moments(s, 1 - s)
    scale = mp.exp(a)
    return (f_neg + scale * f_pos) / (m_neg + scale * m_pos)


@pytest.mark.parametrize("s", [0.0, 1e-300, 1e-9, 0.3, 0.5, 0.9, 1 - 2**-52, 1.0])
def test_population_estimate_matches_mpmath(s):
    for a, b in PARAMS:
        est = float(population.estimate(a, b, s))
        offset, d_a, d_b = population.residual(a, b, s)
        assert np.isfinite([est, offset, d_a, d_b]).all(), (a, b, s)
        ref = float(mp_population(a, b, s))
        assert abs(est - ref) <= 1e-12 + 1e-15 * (abs(a) + abs(b)), (a, b, s, est, ref)


@pytest.mark.parametrize(
    "prior",
    [
        tasks.Uniform(),
        tasks.Uniform(0.1, 0.9),
        tasks.Beta(2.0, 2.0),
        tasks.Beta(0.5, 0.5),
        tasks.Beta(1e6, 1e6),
    ],
    ids=repr,
)
def test_population_loss_is_finite_at_extreme_parameters(prior):
    for a, b in [
        (1e12, 1e12),
        (-1e12, 1e12),
        (1e12, -1e12),
        (0.0, 1e12),
        (1e6, 0.0),
        (0.0, 0.0),
        (1e-300, 1e-300),
        (2e12, 1e12),
    ]:
        loss, d_a, d_b = population.loss_and_gradient(a, b, prior)
        assert np.isfinite([loss, d_a, d_b]).all() and 0 <= loss <= 1, (a, b)


# ---- density features: against scipy.integrate.quad ----------------------------------


def quad_estimate(a, b, s, law):
    lo, hi = law.support

    def integral(fun, left, right):
        if right <= left:
            return 0.0
        inner = [p for p in (law.bulk[0],) if left < p < right]
        return integrate.quad(
            fun, left, right, points=inner or None, limit=500, epsabs=0, epsrel=1e-13
        )[0]

    pdf = law.density
    neg = [
        integral(lambda x, k=k: x**k * np.exp(-b * x) * pdf(x), lo, min(s, hi))
        for k in (0, 1)
    ]
    pos = [
        integral(lambda x, k=k: x**k * np.exp(a - b * x) * pdf(x), max(s, lo), hi)
        for k in (0, 1)
    ]
    return (neg[1] + pos[1]) / (neg[0] + pos[0])


LAWS = [
    tasks.Uniform(0.2, 0.8),
    tasks.Beta(0.5, 0.5),
    tasks.Beta(2.0, 0.7),
    tasks.Beta(1e4, 1e4),
    tasks.Beta(2.0, 2.0),
    tasks.Beta(5.0, 1.0),
]


@pytest.mark.filterwarnings("ignore::scipy.integrate.IntegrationWarning")
@pytest.mark.parametrize("law", LAWS, ids=repr)
def test_density_features_match_quad(law):
    for (a, b), s in itertools.product(
        [(5.0, 10.0), (0.0, 1.0), (-3.0, 2.0), (20.0, 30.0), (3.0, -4.0)],
        [0.0, 0.1, 0.3, 0.5, 0.7, 0.95, 1.0],
    ):
        est = float(population.estimate(a, b, s, features=law))
        ref = quad_estimate(a, b, s, law)
        assert abs(est - ref) <= 1e-8 * abs(ref), (a, b, s, est, ref)


def test_density_features_issue_cases():
    assert (
        abs(population.estimate(5, 10, 0.7, features=tasks.Uniform(0.2, 0.8)) - 0.46975)
        < 1e-5
    )
    assert (
        abs(population.estimate(5, 10, 0.1, features=tasks.Beta(1e4, 1e4)) - 0.49988)
        < 1e-5
    )
    for law in (tasks.Beta(0.5, 0.5), tasks.Beta(2.0, 0.7)):
        loss, d_a, d_b = population.loss_and_gradient(5.0, 10.0, tasks.Uniform(), law)
        assert np.isfinite([loss, d_a, d_b]).all()


def test_density_features_at_extreme_parameters():
    for law in (tasks.Beta(0.5, 0.5), tasks.Beta(1e4, 1e4), tasks.Uniform(0.2, 0.8)):
        for a, b in [(1e12, 1e12), (-1e12, 1e12), (0.0, -1e12), (1e6, 0.0), (1e4, 1e4)]:
            est = population.estimate(
                a, b, np.array([0.0, 0.3, 0.5, 0.99, 1.0]), features=law
            )
            assert np.all(np.isfinite(est)) and np.all((est >= 0) & (est <= 1)), (
                law,
                a,
                b,
            )


# ---- prior quadrature ----------------------------------------------------------------


@pytest.mark.parametrize(
    "alpha, beta",
    [
        (1e6, 1e6),
        (1e4, 1e4),
        (1e5, 1e5),
        (1e8, 1e8),
        (0.5, 0.5),
        (0.05, 0.05),
        (0.01, 3.0),
        (3.0, 0.01),
        (2.0, 0.7),
        (1.5, 1e6),
        (1e6, 0.3),
        (1.0, 1.0),
        (2.5, 2.5),
        (7.0, 1e9),
    ],
)
def test_prior_weights_sum_to_one_for_any_beta(alpha, beta):
    prior = tasks.Beta(alpha, beta)
    for a, b in [(40.0, 20.0), (0.0, 1.0), (-60.0, 5.0), (1e6, 1e6), (0.0, 0.0)]:
        for nodes in (population.threshold_nodes, symmetrization.threshold_nodes):
            s, q, w = nodes(a, b, prior)
            assert abs(w.sum() - 1.0) <= 1e-12, (a, b, w.sum() - 1)
            assert np.all((s > 0) & (q > 0))  # never at an edge


def test_concentrated_prior_loss_matches_its_point_mass():
    # Beta(n, n) concentrates at 1/2: its loss tends to (s_hat(1/2) - 1/2)^2 + O(1/n)
    point = float(population.residual(5.0, 10.0, 0.5)[0]) ** 2
    for n in (1e4, 1e5, 1e6):
        loss = population.loss(5.0, 10.0, tasks.Beta(n, n))
        assert abs(loss - point) <= 30.0 / n * point, (n, loss, point)


# ---- calibration and laws ------------------------------------------------------------


@pytest.mark.parametrize(
    "b", [1e-300, 1e-100, 1e-12, 1e-3, 0.5, 1.0, 1.0 + 1e-9, 2.0, 1e3, 1e12]
)
def test_loss_at_infinity_matches_mpmath(b):
    for prior in (tasks.Uniform(), tasks.Uniform(0.1, 0.9)):
        lo, hi = mp.mpf(prior.lo), mp.mpf(prior.hi)
        B = mp.mpf(b)

        def r2(q, B=B):
            t = B * q
            mean = (
                1 / t - 1 / mp.expm1(t)
                if t > mp.mpf(10) ** -30
                else mp.mpf(1) / 2 - t / 12
            )
            return (q * mean) ** 2

        points = [1 - hi] + [
            1 - hi + (hi - lo) * mp.mpf(2) ** -k for k in range(60, 0, -4)
        ]
        ref = mp.quad(r2, [*points, 1 - lo]) / (hi - lo)
        value = calibration.loss_at_infinity(b, prior)
        assert np.isfinite(value) and abs(value - float(ref)) <= 1e-10 * float(ref), (
            b,
            value,
            ref,
        )


def test_beta_log_density_matches_mpmath():
    for alpha, beta in [
        (0.5, 0.5),
        (2.0, 0.7),
        (1e4, 1e4),
        (1e8, 1e8),
        (1.5, 1e6),
        (7.0, 1e9),
    ]:
        law = tasks.Beta(alpha, beta)
        m, sd = law.bulk
        for s in [1e-30, 0.01, 0.3, m, m + sd, m - 2 * sd, 0.999999]:
            if not 0 < s < 1:
                continue
            S = mp.mpf(s)
            ref = (
                (alpha - 1) * mp.log(S)
                + (beta - 1) * mp.log(1 - S)
                - (mp.loggamma(alpha) + mp.loggamma(beta) - mp.loggamma(alpha + beta))
            )
            if ref < -700:
                continue
            err = abs(float(law.log_density(s)) - float(ref))
            tol = 1e-13 * max(1.0, abs(float(ref))) + 1e-20 * (alpha + beta)
            assert err <= tol, (alpha, beta, s, err)


@pytest.mark.parametrize(
    "call",
    [
        lambda: corpus.Corpus.sample(10**30, 10, tasks.Uniform(0.1, 0.9), rng=1),
        lambda: corpus.Corpus.sample(10, 10**30, tasks.Uniform(0.1, 0.9), rng=1),
        lambda: certified_runs.certified_scales(10**30),
        lambda: baselines.monte_carlo_risks(
            {"positive": baselines.nearest_positive}, 10**30, tasks.Fixed(0.5), rng=1
        ),
        lambda: training.descend(lambda a, b, k: (0.0, 0.0), (1.0, 1.0), 0.1, 10**30),
    ],
    ids=["corpus m", "corpus n", "certified_scales k", "monte_carlo n", "descend"],
)
def test_counts_past_the_exact_floats_are_named(call):
    # counts of 1e30 hung or overflowed; every count is used in float arithmetic
    with pytest.raises(ValueError, match=r"must be at most 9007199254740992"):
        call()
