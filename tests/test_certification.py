"""Tests for stumplib.certification.

Relative gradient errors and the certified interval.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stumplib import calibration, certification, population, tasks
from stumplib import corpus as corpus_module
from stumplib.corpus import Corpus

PRIOR = tasks.Uniform(0.1, 0.9)


@pytest.fixture(scope="module")
def point():
    b = 30.0
    return float(calibration.a_star(b, PRIOR)), b


def test_task_gradients_average_to_corpus_gradient(point):
    corpus = Corpus.sample(300, 50, PRIOR, rng=1)
    G = corpus_module.task_gradients(corpus, *point)
    assert G.shape == (300, 2)
    np.testing.assert_allclose(G.mean(axis=0), corpus.gradient(*point), rtol=1e-12)


def test_task_gradients_match_finite_differences(point):
    corpus = Corpus.sample(40, 20, PRIOR, rng=2)
    a, b = point
    h = 1e-5
    G = corpus_module.task_gradients(corpus, a, b)
    for k, (da, db) in enumerate(((h, 0.0), (0.0, h))):
        plus = (corpus.estimates(a + da, b + db) - corpus.s) ** 2
        minus = (corpus.estimates(a - da, b - db) - corpus.s) ** 2
        np.testing.assert_allclose(
            G[:, k], (plus - minus) / (2 * h), rtol=1e-5, atol=1e-7 * np.abs(G).max()
        )


def test_population_task_gradients_integrate_to_population_gradient(point):
    a, b = point
    s, _q, w = population.threshold_nodes(a, b, PRIOR)
    G = certification.population_task_gradients(a, b, s)
    g = np.array(
        population.gradient(a, b, PRIOR)
    )  # on the valley d/da is ~0: compare to |g|
    np.testing.assert_allclose(w @ G, g, rtol=0, atol=1e-10 * np.linalg.norm(g))


def test_relative_error_of_a_huge_context_corpus_is_task_sampling_only(point):
    # with n large the corpus gradient is the infinite-context one at the same
    # thresholds
    a, b = point
    corpus = Corpus.sample(50, 20000, PRIOR, rng=3)
    g = np.array(population.gradient(a, b, PRIOR))
    inf = certification.population_task_gradients(a, b, corpus.s).mean(axis=0)
    expected = np.linalg.norm(inf - g) / np.linalg.norm(g)
    assert certification.relative_error(corpus, a, b, PRIOR) == pytest.approx(
        expected, rel=0.1
    )


def test_relative_errors_shape_and_determinism(point):
    a, b = point
    r1 = certification.relative_errors(20, 10, [a, a + 1], [b, b], PRIOR, 3, rng=5)
    r2 = certification.relative_errors(20, 10, [a, a + 1], [b, b], PRIOR, 3, rng=5)
    assert r1.shape == (3, 2)
    np.testing.assert_array_equal(r1, r2)
    assert np.all(r1 >= 0)


def test_sampling_coefficient_matches_monte_carlo(point):
    a, b = point
    sigma = certification.sampling_coefficient(a, b, PRIOR)
    err = certification.task_sampling_errors(a, b, PRIOR, 200, 2000, rng=4)
    assert np.sqrt(np.mean(err**2)) * np.sqrt(200) == pytest.approx(sigma, rel=0.1)


def test_sampling_coefficient_grows_like_sqrt_b():
    b = np.array([1000.0, 4000.0])
    a = calibration.a_star(b, PRIOR)
    sigma = [certification.sampling_coefficient(ai, bi, PRIOR) for ai, bi in zip(a, b)]
    assert np.log(sigma[1] / sigma[0]) / np.log(4) == pytest.approx(0.5, abs=0.01)


def test_context_bias_vanishes_for_long_contexts_and_grows_with_b_over_n():
    corpus = Corpus.sample(2000, 400, PRIOR, rng=6)
    small, large = (
        certification.context_bias(
            corpus, float(calibration.a_star(b, PRIOR)), b, PRIOR
        )
        for b in (8.0, 160.0)
    )
    assert small.ratio < 0.1
    assert large.ratio > 1.0
    assert small.se > 0 and small.spread > 0
    assert small.vector.shape == (2,)
    np.testing.assert_allclose(np.linalg.norm(small.vector), small.ratio)


def test_context_bias_is_unbiased_against_the_corpus_gradient(point):
    # mean of G - G_inf plus the exact mean of G_inf is the corpus gradient
    a, b = point
    corpus = Corpus.sample(500, 30, PRIOR, rng=7)
    bias = certification.context_bias(corpus, a, b, PRIOR)
    g = np.array(population.gradient(a, b, PRIOR))
    inf = certification.population_task_gradients(a, b, corpus.s).mean(axis=0)
    np.testing.assert_allclose(
        bias.vector * np.linalg.norm(g) + inf,
        corpus.gradient(a, b),
        rtol=1e-9,
        atol=1e-15,
    )


def test_unseen_share_limits(point):
    a, b = point
    assert certification.unseen_share(a, b, PRIOR, 1.0) == pytest.approx(0.0, abs=1e-12)
    assert certification.unseen_share(a, b, PRIOR, 0.0) == pytest.approx(1.0, rel=1e-10)
    full = tasks.Uniform(0.0, 1.0)
    b = 100.0
    assert certification.unseen_share(b + 2 * np.log(b), b, full, 1 - 10 / b**3) > 0.5


@given(st.lists(st.floats(0, 2), min_size=1, max_size=12), st.floats(0.1, 1.5))
def test_certified_end_is_last_point_of_initial_run_below_level(ratios, level):
    b = np.arange(1.0, len(ratios) + 1)
    end = certification.certified_end(b, ratios, level)
    below = np.asarray(ratios) <= level
    if not below[0]:
        assert np.isnan(end)
    else:
        k = int(end) - 1
        assert below[: k + 1].all()
        assert k == len(ratios) - 1 or not below[k + 1]


def test_certified_end_reference():
    assert certification.certified_end([1, 2, 3, 4], [0.1, 0.4, 0.6, 0.2], 0.5) == 2.0
    assert certification.certified_end([1, 2], [0.1, 0.2], 0.5) == 2.0
    assert np.isnan(certification.certified_end([1, 2], [0.9, 0.2], 0.5))
    # NaN ratios count as above the level
    assert certification.certified_end([1, 2, 3], [0.1, np.nan, 0.1], 0.5) == 1.0


def test_errors():
    corpus = Corpus.sample(5, 4, PRIOR, rng=0)
    with pytest.raises(ValueError, match="increasing"):
        certification.certified_end([2, 1], [0.1, 0.1], 0.5)
    with pytest.raises(ValueError, match="equal length"):
        certification.certified_end([1, 2], [0.1], 0.5)
    with pytest.raises(ValueError, match="level must be positive"):
        certification.certified_end([1, 2], [0.1, 0.1], 0.0)
    with pytest.raises(ValueError, match="empty"):
        certification.certified_end([], [], 0.5)
    with pytest.raises(ValueError, match="a must be finite"):
        certification.relative_error(corpus, np.nan, 1.0, PRIOR)
    with pytest.raises(ValueError, match="equal length"):
        certification.relative_errors(5, 4, [1.0, 2.0], [1.0], PRIOR, 2)
    with pytest.raises(ValueError, match="repetitions"):
        certification.relative_errors(5, 4, [1.0], [1.0], PRIOR, 0)
    with pytest.raises(ValueError, match="m must be"):
        certification.task_sampling_errors(1.0, 1.0, PRIOR, 0, 2)
    with pytest.raises(ValueError, match="s_max"):
        certification.unseen_share(1.0, 1.0, PRIOR, 1.5)
    with pytest.raises(ValueError, match="at least 2 tasks"):
        certification.context_bias(Corpus.sample(1, 4, PRIOR, rng=0), 1.0, 1.0, PRIOR)


def test_crossing_reference_and_power_law():
    b = np.array([1.0, 2.0, 4.0, 8.0])
    value, i = certification.crossing(b, b**2 / 16, 1.0)  # reaches 1 exactly at b = 4
    assert i == 2 and value == pytest.approx(4.0)
    value, i = certification.crossing(
        b, b / 8, 0.35
    )  # a power law is interpolated exactly
    assert i == 2 and value == pytest.approx(2.8)


@given(st.floats(0.5, 3.0), st.floats(0.01, 0.99))
def test_crossing_inverts_power_laws(slope, frac):
    b = np.geomspace(1.0, 100.0, 9)
    values = (b / 100.0) ** slope
    level = float(np.exp(frac * np.log(values[0]) * 0.999))
    value, _ = certification.crossing(b, values, level)
    assert (value / 100.0) ** slope == pytest.approx(level, rel=1e-9)


def test_crossing_errors():
    with pytest.raises(ValueError, match="start below"):
        certification.crossing([1, 2], [2.0, 3.0], 1.0)
    with pytest.raises(ValueError, match="start below"):
        certification.crossing([1, 2], [0.1, 0.2], 1.0)
    with pytest.raises(ValueError, match="increasing"):
        certification.crossing([2, 1], [0.1, 2.0], 1.0)
    with pytest.raises(ValueError, match="values must be positive"):
        certification.crossing([1, 2], [0.0, 2.0], 1.0)


def _biases(ratio, se, spread):
    return [
        certification.ContextBias(r, e, p, np.zeros(2))
        for r, e, p in zip(ratio, se, spread)
    ]


def test_noise_ratio_reference_and_scaling():
    G = np.array([[1.0, 2.0], [3.0, 2.0], [2.0, 5.0]])
    expected = np.sqrt(
        (np.var(G[:, 0], ddof=1) + np.var(G[:, 1], ddof=1)) / 3
    ) / np.linalg.norm(G.mean(0))
    assert corpus_module.noise_ratio(G) == pytest.approx(expected, rel=1e-14)
    # invariant under scaling of the gradients; falls like 1/sqrt(m) for repeated rows
    assert corpus_module.noise_ratio(7.0 * G) == pytest.approx(expected, rel=1e-14)
    assert corpus_module.noise_ratio(np.zeros((4, 2))) == float("inf")


@pytest.mark.parametrize("scale", [1e-300, 1e-200, 1e200, 1e300, 2.0**-1074])
def test_noise_ratio_is_scale_free_at_extreme_scales(scale):
    # rows (1, 0), (0, 1), (2, 2): mean (1, 1), squared deviations 4 / (2 * 3), ratio
    # sqrt(2 / 3) / sqrt(2) = 1 / sqrt(3)
    # (once NaN at 1e200 and inf at 1e-200: the squares overflowed or underflowed)
    G = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]])
    ratio = corpus_module.noise_ratio(G)
    assert ratio == pytest.approx(3**-0.5, rel=1e-15)
    assert corpus_module.noise_ratio(scale * G) == pytest.approx(ratio, rel=1e-14)


def test_noise_ratio_estimates_the_sampling_part():
    """On a corpus with long contexts the noise ratio matches the RMS error over
    corpora."""
    a, b = float(calibration.a_star(10.0, PRIOR)), 10.0
    rho = certification.relative_errors(400, 400, [a], [b], PRIOR, 24, rng=12)[:, 0]
    noise = [
        corpus_module.noise_ratio(
            corpus_module.task_gradients(
                Corpus.sample(400, 400, PRIOR, rng=(12, r)), a, b
            )
        )
        for r in range(6)
    ]
    rms = np.sqrt(np.mean(rho**2))
    # 24 corpora: the RMS is known to about 1/sqrt(2*24) = 15 %; the noise estimates
    # scatter less
    assert 0.6 * rms < np.mean(noise) < 1.4 * rms


def test_noise_ratio_bad_inputs():
    with pytest.raises(
        ValueError, match=r"gradients must have shape \(m, 2\) with m >= 2"
    ):
        corpus_module.noise_ratio(np.ones((1, 2)))
    with pytest.raises(ValueError, match=r"gradients must have shape"):
        corpus_module.noise_ratio(np.ones((3, 3)))
    with pytest.raises(ValueError, match="^gradients must be finite"):
        corpus_module.noise_ratio(np.full((3, 2), np.nan))


def test_bias_crossing_reference_power_law():
    # beta = (b / 8)^2 with 10% standard errors reaches 1/4 at b = 4; a crossing of a
    # power law of exponent 2 moves by (10% / 2) of itself when beta moves by 10%
    b = np.array([1.0, 2.0, 4.0, 8.0])
    beta = (b / 8) ** 2
    result = certification.bias_crossing(b, _biases(beta, 0.1 * beta, np.ones(4)), 0.3)
    assert result.scale == pytest.approx(8 * np.sqrt(0.3))
    assert result.se == pytest.approx(0.05 * result.scale)


@settings(max_examples=40, deadline=None)
@given(st.floats(0.3, 3.0), st.floats(0.01, 0.5), st.floats(0.05, 0.95))
def test_bias_crossing_se_matches_a_moved_bias(slope, rel_se, frac):
    # moving beta by a small multiple of its se moves the crossing by that multiple of
    # se
    b = np.geomspace(1.0, 100.0, 7)
    beta = (b / 100.0) ** slope
    level = float(np.exp(frac * np.log(beta[0])))
    result = certification.bias_crossing(b, _biases(beta, rel_se * beta, beta), level)
    eps = 1e-6
    moved, _ = certification.crossing(b, beta * (1 + eps * rel_se), level)
    assert (result.scale - moved) / eps == pytest.approx(result.se, rel=1e-4)


def test_bias_crossing_errors():
    with pytest.raises(TypeError, match="biases must be a sequence of ContextBias"):
        certification.bias_crossing([1.0, 2.0], [0.1, 0.9], 0.5)
    for bad in (None, _biases([0.1], [0.01], [1.0])[0]):
        with pytest.raises(
            TypeError, match="^biases must be a sequence of ContextBias"
        ):
            certification.bias_crossing([1.0, 2.0], bad, 0.5)
    nan_se = _biases([0.1, 0.9], [0.01, np.nan], [1, 1])
    with pytest.raises(ValueError, match=r"^biases\.se must be finite"):
        certification.bias_crossing([1.0, 2.0], nan_se, 0.5)
    with pytest.raises(ValueError, match="start below"):
        certification.bias_crossing(
            [1.0, 2.0], _biases([0.6, 0.9], [0.1, 0.1], [1, 1]), 0.5
        )
    with pytest.raises(ValueError, match="level must be positive"):
        certification.bias_crossing(
            [1.0, 2.0], _biases([0.1, 0.9], [0.1, 0.1], [1, 1]), 0
        )


def test_squared_error_law_matches_monte_carlo(point):
    law = certification.squared_error_law(*point, PRIOR, 50)
    sigma = certification.sampling_coefficient(*point, PRIOR)
    assert law.mean == pytest.approx(sigma**2 / 50, rel=1e-12)
    e = certification.task_sampling_errors(*point, PRIOR, 50, 20000, rng=4) ** 2
    # 20000 draws: the mean within 4 of its exact standard errors, the variance within
    # 15%
    assert abs(e.mean() - law.mean) < 4 * np.sqrt(law.variance / e.size)
    assert e.var() == pytest.approx(law.variance, rel=0.15)


def test_squared_error_law_of_one_task_is_the_fourth_moment(point):
    law = certification.squared_error_law(*point, PRIOR, 1)
    e = certification.task_sampling_errors(*point, PRIOR, 1, 40000, rng=5) ** 2
    assert e.var() == pytest.approx(law.variance, rel=0.2)
