"""Tests for stumplib.corpus: the empirical loss L_{m,n} and its gradient."""

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import special

from stumplib import head, tasks
from stumplib.corpus import Corpus


def naive_loss(a, b, x, y, s):
    w = special.softmax(a * y - b * x, axis=-1)
    return np.mean(((w * x).sum(-1) - s) ** 2)


@pytest.fixture(scope="module")
def corpus():
    return Corpus.sample(200, 30, rng=11)


def test_sample_defaults_and_shape(corpus):
    assert corpus.shape == (200, 30)
    assert corpus.s.shape == (200,)
    # default prior U[0.1, 0.9]
    assert corpus.s.min() >= 0.1 and corpus.s.max() <= 0.9


def test_sample_is_deterministic():
    c1, c2 = Corpus.sample(20, 5, rng=3), Corpus.sample(20, 5, rng=3)
    np.testing.assert_array_equal(c1.s, c2.s)
    assert c1.loss(4.0, 3.0) == c2.loss(4.0, 3.0)
    assert Corpus.sample(20, 5, rng=4).loss(4.0, 3.0) != c1.loss(4.0, 3.0)


def test_sample_matches_sample_contexts():
    x, y, s = tasks.sample_contexts(25, 7, tasks.Uniform(0.2, 0.6), tasks.Beta(2, 3), rng=9)
    c = Corpus.sample(25, 7, prior=tasks.Uniform(0.2, 0.6), features=tasks.Beta(2, 3), rng=9)
    np.testing.assert_array_equal(c.s, s)
    np.testing.assert_allclose(
        c.estimates(2.0, 5.0), head.estimate(2.0, 5.0, x, y), rtol=0, atol=1e-16
    )


@pytest.mark.parametrize(
    "a, b", [(0.0, 0.0), (3.0, 2.0), (20.0, 20.0), (-5.0, 10.0), (2.0, -15.0), (40.0, 45.0)]
)
def test_loss_matches_naive_mean_squared_error(corpus, a, b):
    x, y, s = tasks.sample_contexts(200, 30, tasks.Uniform(0.1, 0.9), rng=11)
    np.testing.assert_array_equal(corpus.s, s)
    # O(1) terms, per-task estimates agree to ~1e-15: relative 1e-12 on a loss >= 1e-4
    assert corpus.loss(a, b) == pytest.approx(naive_loss(a, b, x, y, s), rel=1e-12)


def test_estimates_and_loss_and_gradient_agree(corpus):
    L, g_a, g_b = corpus.loss_and_gradient(7.0, 6.0)
    assert L == corpus.loss(7.0, 6.0) and (g_a, g_b) == corpus.gradient(7.0, 6.0)
    r = corpus.estimates(7.0, 6.0) - corpus.s
    assert L == pytest.approx(np.mean(r**2), rel=1e-15)


@pytest.mark.parametrize(
    "a, b", [(1.0, 2.0), (18.0, 20.0), (-3.0, 4.0), (60.0, 60.0), (3.0, -5.0)]
)
def test_gradient_central_differences(corpus, a, b):
    g_a, g_b = corpus.gradient(a, b)
    ha, hb = 1e-6 * max(1.0, abs(a)), 1e-6 * max(1.0, abs(b))
    fd_a = (corpus.loss(a + ha, b) - corpus.loss(a - ha, b)) / (2 * ha)
    fd_b = (corpus.loss(a, b + hb) - corpus.loss(a, b - hb)) / (2 * hb)
    # L ~ 1e-2 is smooth on the O(1) offset scale: truncation ~ h^2 ~ 4e-9 relative,
    # rounding ~ eps L / h ~ 1e-11; compare on the scale |g| + L.
    assert abs(fd_a - g_a) <= 1e-6 * (abs(g_a) + corpus.loss(a, b))
    assert abs(fd_b - g_b) <= 1e-6 * (abs(g_b) + corpus.loss(a, b))


@given(
    st.integers(1, 8),
    st.integers(1, 6),
    st.floats(-50, 50),
    st.floats(-50, 50),
    st.integers(0, 2**16),
)
def test_loss_matches_naive_property(m, n, a, b, seed):
    x, y, s = tasks.sample_contexts(m, n, tasks.Uniform(), rng=seed)
    L = Corpus(x, y, s).loss(a, b)
    assert L == pytest.approx(naive_loss(a, b, x, y, s), rel=1e-12, abs=1e-16)


def test_repeated_evaluation_is_stateless(corpus):
    """The prepared layout caches deviations per sign of b and reuses work buffers."""
    first = corpus.loss_and_gradient(5.0, 4.0)
    corpus.loss_and_gradient(-2.0, -7.0)
    corpus.loss_and_gradient(1e6, 1e6)
    assert corpus.loss_and_gradient(5.0, 4.0) == first


def test_extreme_scales_finite_without_warnings(corpus):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for a in (-1e6, 0.0, 1e6, 1e6 + 27.6):
            for b in (-1e6, 0.0, 1e6):
                assert np.all(np.isfinite(corpus.loss_and_gradient(a, b))), (a, b)


def test_hard_limit_loss():
    """b = 1e6, a - b = 2 log b: each estimate is the nearest positive (or min x if none)."""
    x, y, s = tasks.sample_contexts(100, 40, tasks.Uniform(0.1, 0.9), rng=5)
    b = 1e6
    L = Corpus(x, y, s).loss(b + 2 * np.log(b), b)
    assert L == pytest.approx(np.mean((head.hard_limit(x, y) - s) ** 2), rel=1e-9)


def test_bad_inputs():
    x, y, s = tasks.sample_contexts(4, 3, rng=0)
    with pytest.raises(ValueError, match=r"s must have shape \(4,\) \(got \(3,\)\)"):
        Corpus(x, y, s[:3])
    with pytest.raises(ValueError, match=r"s must have shape \(4,\) \(got \(4, 1\)\)"):
        Corpus(x, y, s[:, None])
    with pytest.raises(ValueError, match=r"^s must lie in \[0, 1\]"):
        Corpus(x, y, s + 2)
    with pytest.raises(ValueError, match="^s must be finite"):
        Corpus(x, y, np.where(np.arange(4) == 1, np.nan, s))
    with pytest.raises(ValueError, match="x and y must have the same shape"):
        Corpus(x, y[:, :2], s)
    with pytest.raises(ValueError, match=r"^y must hold labels in \{0, 1\}"):
        Corpus(x, y * 0.5 + 0.25, s)
    with pytest.raises(ValueError, match="context is empty"):
        Corpus(np.zeros((3, 0)), np.zeros((3, 0)), np.zeros(3))
    c = Corpus(x, y, s)
    with pytest.raises(ValueError, match="^a must be finite"):
        c.loss(np.nan, 1.0)
    with pytest.raises(ValueError, match="^b must be finite"):
        c.gradient(1.0, np.inf)
    with pytest.raises(ValueError, match="^m must be an integer"):
        Corpus.sample(2.5, 3)
