"""Tests for stumplib.corpus: the empirical loss L_{m,n} and its gradient."""

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import special

from stumplib import head, tasks
from stumplib.corpus import Corpus, Follower


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
    x, y, s = tasks.sample_contexts(
        25, 7, tasks.Uniform(0.2, 0.6), tasks.Beta(2, 3), rng=9
    )
    c = Corpus.sample(
        25, 7, prior=tasks.Uniform(0.2, 0.6), features=tasks.Beta(2, 3), rng=9
    )
    np.testing.assert_array_equal(c.s, s)
    np.testing.assert_allclose(
        c.estimates(2.0, 5.0), head.estimate(2.0, 5.0, x, y), rtol=0, atol=1e-15
    )


@pytest.mark.parametrize(
    "a, b",
    [(0.0, 0.0), (3.0, 2.0), (20.0, 20.0), (-5.0, 10.0), (2.0, -15.0), (40.0, 45.0)],
)
def test_loss_matches_naive_mean_squared_error(corpus, a, b):
    x, y, s = tasks.sample_contexts(200, 30, tasks.Uniform(0.1, 0.9), rng=11)
    np.testing.assert_array_equal(corpus.s, s)
    # O(1) terms, per-task estimates agree to ~1e-15: relative 1e-12 on a loss >= 1e-4
    assert corpus.loss(a, b) == pytest.approx(naive_loss(a, b, x, y, s), rel=1e-12)


def test_estimates_and_loss_and_gradient_agree(corpus):
    L, g_a, g_b = corpus.loss_and_gradient(7.0, 6.0)
    assert corpus.loss(7.0, 6.0) == L and (g_a, g_b) == corpus.gradient(7.0, 6.0)
    r = corpus.estimates(7.0, 6.0) - corpus.s
    assert pytest.approx(np.mean(r**2), rel=1e-15) == L


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
    assert pytest.approx(naive_loss(a, b, x, y, s), rel=1e-12, abs=1e-16) == L


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
    """b = 1e6, a - b = 2 log b: each estimate is the nearest positive.

    Or min x if none.
    """
    x, y, s = tasks.sample_contexts(100, 40, tasks.Uniform(0.1, 0.9), rng=5)
    b = 1e6
    L = Corpus(x, y, s).loss(b + 2 * np.log(b), b)
    assert pytest.approx(np.mean((head.hard_limit(x, y) - s) ** 2), rel=1e-9) == L


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


# --- the windowed engine against the dense evaluation ---------------------------------


def dense(corpus, x, y, a, b):
    """Loss, gradient and per-task summaries from the dense head evaluation."""
    est, d_a, d_b = head.Contexts(x, y).summaries(a, b)
    r = est - corpus.s
    return (np.mean(r**2), 2 * np.mean(r * d_a), 2 * np.mean(r * d_b)), np.array(
        [est, d_a, d_b]
    )


def assert_matches_dense(corpus, x, y, a, b, rtol=1e-12):
    """Loss and gradient to ``rtol`` relative (the gradient relative to its norm),
    per-task summaries to the engine's absolute guarantee. ``rtol=None``: per-task
    check only (a one-task corpus whose gradient comes from examples at the cutoff has
    a gradient of the order of the weight left out, so only the absolute guarantee is
    meaningful there)."""
    (L, g_a, g_b), per_task = dense(corpus, x, y, a, b)
    got = corpus.loss_and_gradient(a, b)
    if rtol is not None:
        norm = np.hypot(g_a, g_b)
        assert abs(got[0] - L) <= rtol * L
        assert abs(got[1] - g_a) <= rtol * norm and abs(got[2] - g_b) <= rtol * norm
    # per task: the weight left out is below e^-40 of the leader's (absolute, features
    # in [0, 1]); beyond that, rounding (another summation order) at a few ulp of O(1)
    # values
    np.testing.assert_allclose(
        np.array(corpus.summaries(a, b)), per_task, rtol=1e-13, atol=1e-15
    )


@pytest.fixture(scope="module")
def large():
    x, y, s = tasks.sample_contexts(300, 400, tasks.Uniform(0.1, 0.9), rng=21)
    return Corpus(x, y, s), x, y


@pytest.mark.parametrize("b", [0.0, 1.0, 20.0, 100.0, 400.0, 2000.0, 1e4, 1e6])
@pytest.mark.parametrize("offset", [-5.0, 0.0, "log", 10.0])
def test_engine_matches_dense_on_and_off_the_valley(large, b, offset):
    corpus, x, y = large
    a = 0.9 * b + (np.log(max(b, 1.0)) if offset == "log" else offset)
    assert_matches_dense(corpus, x, y, a, b)


@pytest.mark.parametrize("b", [-1e4, -400.0, -20.0, -1.0])
def test_engine_matches_dense_for_negative_b(large, b):
    corpus, x, y = large
    assert_matches_dense(corpus, x, y, 0.3 * b, b)


def test_windows_shrink_with_the_scale_and_skip_classes(large):
    corpus, _, _ = large
    n = corpus.shape[1]
    counts = [
        corpus.windows(0.9 * b + np.log(b), b).sum()
        for b in (20.0, 100.0, 400.0, 2000.0)
    ]
    assert counts[0] == corpus.shape[0] * n and counts == sorted(counts, reverse=True)
    w = corpus.windows(0.9 * 400 + np.log(400), 400.0)
    assert np.all(
        w[:, 1] >= 1
    )  # the positive leader of each task with positives is kept
    # negatives matter only for thresholds near the top of the range (positive leader
    # low)
    assert 0 < np.count_nonzero(w[:, 0]) < corpus.shape[0]
    assert np.all(corpus.s[w[:, 0] > 0] > 0.6)


def test_tasks_whose_negatives_matter():
    """a far below the valley: the negatives lead; both classes inside the cutoff."""
    x, y, s = tasks.sample_contexts(50, 200, tasks.Uniform(0.1, 0.9), rng=4)
    c = Corpus(x, y, s)
    for a, b in [(0.2 * 300, 300.0), (0.5 * 300, 300.0), (0.9 * 300 - 30, 300.0)]:
        w = c.windows(a, b)
        assert np.count_nonzero(w[:, 0]) > 10
        assert_matches_dense(c, x, y, a, b)


def test_window_boundary_is_inclusive_and_exact():
    """Examples at score distance just inside / outside the cutoff of the leader."""
    b = 100.0
    n = 5
    c0 = Corpus(np.zeros((1, n)) + 0.5, np.ones((1, n)), [0.2])
    cut = c0.cutoff
    x = np.array(
        [[0.3, 0.3 + cut / b * (1 - 1e-9), 0.3 + cut / b * (1 + 1e-9), 0.9, 0.95]]
    )
    y = np.ones_like(x)
    c = Corpus(x, y, [0.25])
    assert c.windows(5.0, b).tolist() == [[0, 2]]
    assert_matches_dense(c, x, y, 5.0, b, rtol=None)
    # the negative class: leader at 0.05, positives far above in score
    x = np.array(
        [[0.05, 0.05 + cut / b * (1 - 1e-9), 0.05 + cut / b * (1 + 1e-9), 0.9, 0.95]]
    )
    y = np.array([[0, 0, 0, 1, 1]])
    c = Corpus(x, y, [0.8])
    a = b * 0.9 - 10  # positive leader score -10, below the negative leader's -5
    assert c.windows(a, b).tolist() == [[2, 2]]
    assert_matches_dense(c, x, y, a, b, rtol=None)


def test_class_boundaries_and_empty_classes():
    """Windows wider than a class must not reach into the other class; empty classes."""
    rng = np.random.default_rng(8)
    x = rng.random((6, 50))
    # no positives, no negatives, few positives, few negatives, half and half, one
    # positive
    s = np.array([1.0, 0.0, 0.97, 0.02, 0.5, np.sort(x[5])[-2]])
    y = (x > s[:, None]).astype(float)
    c = Corpus(x, y, s)
    for a, b in [
        (10.0, 20.0),
        (50.0, 400.0),
        (400.0, 400.0),
        (-50.0, 400.0),
        (90.0, 100.0),
    ]:
        assert_matches_dense(c, x, y, a, b)


@pytest.mark.parametrize("block", [1, 7, 64, 1 << 15])
def test_chunk_and_block_boundaries(large, block, monkeypatch):
    """Chunks of one row, odd sizes and the default agree with the dense evaluation."""
    corpus, x, y = large
    monkeypatch.setattr(Corpus, "BLOCK", block)
    for b in (20.0, 150.0, 400.0):
        assert_matches_dense(corpus, x, y, 0.9 * b + np.log(b), b)


def test_layout_blocks_and_sampling_blocks(monkeypatch):
    """Laying out / sampling in row blocks gives the same corpus as one block."""
    whole = Corpus.sample(37, 11, features=tasks.Beta(2, 3), rng=5)
    x, y, s = tasks.sample_contexts(
        37, 11, tasks.Uniform(0.1, 0.9), tasks.Beta(2, 3), rng=5
    )
    monkeypatch.setattr(Corpus, "LAYOUT_BLOCK", 30)
    blocked = Corpus.sample(37, 11, features=tasks.Beta(2, 3), rng=5)
    built = Corpus(x, y, s)
    for c in (blocked, built):
        np.testing.assert_array_equal(c.s, whole.s)
        assert c.loss_and_gradient(3.0, 4.0) == whole.loss_and_gradient(3.0, 4.0)
        assert c.loss_and_gradient(300.0, 350.0) == whole.loss_and_gradient(
            300.0, 350.0
        )


@given(
    st.integers(1, 6),
    st.integers(1, 12),
    st.floats(-300, 300),
    st.floats(0.5, 3000),
    st.integers(0, 2**16),
)
def test_engine_matches_dense_property(m, n, offset, b, seed):
    x, y, s = tasks.sample_contexts(m, n, tasks.Uniform(), rng=seed)
    c = Corpus(x, y, s)
    a = 0.9 * b + offset
    (L, _g_a, _g_b), per_task = dense(c, x, y, a, b)
    got = c.loss_and_gradient(a, b)
    assert got[0] == pytest.approx(L, rel=1e-12, abs=1e-300)
    np.testing.assert_allclose(
        np.array(c.summaries(a, b)), per_task, rtol=1e-13, atol=1e-15
    )


def test_engine_bad_inputs():
    c = Corpus.sample(3, 4, rng=0)
    with pytest.raises(ValueError, match=r"^b must be positive"):
        c.windows(1.0, 0.0)
    with pytest.raises(ValueError, match="^a must be finite"):
        c.windows(np.nan, 1.0)
    with pytest.raises(ValueError, match=r"x must have shape \(m, n\)"):
        Corpus(np.zeros(3), np.zeros(3), 0.5)


# --- one point per task, and corpora stacked ------------------------------------------


@pytest.mark.parametrize("b", [3.0, 40.0, 400.0])
def test_one_point_per_task_matches_the_dense_evaluation(large, b):
    corpus, x, y = large
    m = corpus.shape[0]
    rng = np.random.default_rng(5)
    bs = b * rng.uniform(0.5, 2.0, m)
    a_s = 0.5 * bs + rng.normal(0.0, 2.0, m)
    est, d_a, d_b = head.Contexts(x, y).summaries(a_s, bs)
    np.testing.assert_allclose(
        np.array(corpus.summaries(a_s, bs)), [est, d_a, d_b], rtol=1e-13, atol=1e-15
    )
    windows = corpus.windows(a_s, bs)
    for j in (0, m // 2, m - 1):  # each row's window is its own point's
        assert windows[j].tolist() == corpus.windows(a_s[j], bs[j])[j].tolist()


def test_one_point_per_task_with_some_scales_not_positive(large):
    corpus, x, y = large
    bs = np.linspace(-20.0, 20.0, corpus.shape[0])
    est = head.Contexts(x, y).summaries(3.0, bs)[0]
    np.testing.assert_allclose(
        corpus.summaries(3.0, bs)[0], est, rtol=1e-13, atol=1e-15
    )
    with pytest.raises(ValueError, match="^b must be positive"):
        corpus.windows(3.0, bs)
    with pytest.raises(ValueError, match="^b of shape \\(3,\\) does not broadcast"):
        corpus.summaries(3.0, [1.0, 2.0, 3.0])


def test_stack_holds_the_corpora_in_order():
    parts = [Corpus.sample(30, 20, rng=r) for r in range(3)]
    stacked = Corpus.stack(parts)
    assert stacked.shape == (90, 20)
    np.testing.assert_array_equal(stacked.s, np.concatenate([c.s for c in parts]))
    points = [(4.0, 6.0), (9.0, 15.0), (60.0, 100.0)]  # dense, windowed, narrow windows
    a, b = np.repeat(points, 30, axis=0).T
    got = stacked.summaries(a, b)
    want = np.concatenate(
        [np.array(c.summaries(*p)) for c, p in zip(parts, points)], axis=1
    )
    np.testing.assert_allclose(np.array(got), want, rtol=1e-15, atol=1e-17)


def test_stack_bad_inputs():
    corpus = Corpus.sample(3, 4, rng=0)
    with pytest.raises(ValueError, match="^corpora must be a non-empty sequence"):
        Corpus.stack([])
    with pytest.raises(ValueError, match="^corpora must be a non-empty sequence"):
        Corpus.stack(corpus)
    with pytest.raises(TypeError, match="^corpora must be a Corpus"):
        Corpus.stack([corpus, "corpus"])
    with pytest.raises(
        ValueError, match=r"^corpora must have equal n \(got \[4, 5\]\)"
    ):
        Corpus.stack([corpus, Corpus.sample(3, 5, rng=0)])


# --- the Follower: expansions in the scale along a run --------------------------------


def walk(b_start, b_stop, steps, offset):
    """Points of a run along the valley's shape ``a = 0.9 b + log b + offset``."""
    b = np.geomspace(b_start, b_stop, steps)
    return list(zip(0.9 * b + np.log(b) + offset, b))


@pytest.mark.parametrize(
    "offset", [-5.0, 0.0, 40.0]
)  # -5: negatives matter; 40: they don't
def test_follower_matches_the_dense_evaluation_along_a_run(large, offset):
    corpus, x, y = large
    follower = corpus.follow()
    for a, b in walk(0.2, 600.0, 120, offset):  # dense, windowed and narrow windows
        (L, g_a, g_b), per_task = dense(corpus, x, y, a, b)
        np.testing.assert_allclose(
            np.array(follower.summaries(a, b)), per_task, rtol=1e-13, atol=1e-15
        )
        got = follower.loss_and_gradient(a, b)
        assert abs(got[0] - L) <= 1e-12 * L
        assert np.hypot(got[1] - g_a, got[2] - g_b) <= 1e-12 * np.hypot(g_a, g_b)
    assert 20 < follower.anchors < 120  # the anchor moved, though not at every point


def test_follower_matches_its_corpus_where_windows_are_short():
    """Scales far past the cutoff (radius up to 5000 / 46.3 = 108) and points on window
    boundaries."""
    corpus = Corpus.sample(40, 200, rng=4)
    follower = corpus.follow()
    for a, b in walk(500.0, 5000.0, 60, 0.0) + walk(5000.0, 500.0, 60, 3.0):
        np.testing.assert_allclose(
            np.array(follower.summaries(a, b)),
            np.array(corpus.summaries(a, b)),
            rtol=1e-13,
            atol=1e-15,
        )


def test_follower_anchor_moves_when_the_scale_leaves_its_radius():
    corpus = Corpus.sample(30, 400, rng=6)  # cutoff 40 + log 400 = 46.0
    follower = corpus.follow()
    for b in (10.0, 10.6, 9.01, 10.99):  # radius 1 below cutoff + 1
        follower.summaries(b, b)
    assert follower.anchors == 1
    for b in (11.01, 12.8):  # moving up: anchored ahead, at 11.01 + 0.9
        follower.summaries(b, b)
    assert follower.anchors == 2
    # radius 200 / 47 = 4.26: anchored at 200 + 0.9 * 4.26 = 203.83, radius 4.34
    for b in (200.0, 208.1, 199.6):
        follower.summaries(b, b)
    assert follower.anchors == 3
    follower.summaries(208.3, 208.3)
    assert follower.anchors == 4
    for b in (
        100.0,
        98.0,
        102.0,
    ):  # moving down: anchored at 100 (radius 100 / 47 = 2.13)
        follower.summaries(b, b)
    assert follower.anchors == 5


def test_follower_one_point_per_task_and_scales_not_positive(large):
    corpus, x, y = large
    m = corpus.shape[0]
    rng = np.random.default_rng(8)
    follower = corpus.follow()
    bs = 30.0 * rng.uniform(0.5, 2.0, m)
    for _step in range(30):
        a_s = 0.9 * bs + np.log(bs) + rng.normal(0.0, 2.0, m)
        np.testing.assert_allclose(
            np.array(follower.summaries(a_s, bs)),
            np.array(head.Contexts(x, y).summaries(a_s, bs)),
            rtol=1e-13,
            atol=1e-15,
        )
        bs = bs + rng.uniform(0.0, 0.3, m)
    assert 1 < follower.anchors < 30
    anchors = follower.anchors
    bs = np.linspace(-20.0, 20.0, m)  # some b <= 0: the corpus evaluates, no anchor
    np.testing.assert_array_equal(
        follower.summaries(3.0, bs), corpus.summaries(3.0, bs)
    )
    assert follower.anchors == anchors


@given(
    st.integers(1, 6),
    st.integers(1, 12),
    st.floats(-300, 300),
    st.floats(0.5, 3000),
    st.floats(-0.99, 0.99),
    st.integers(0, 2**16),
)
def test_follower_matches_dense_property(m, n, offset, b, move, seed):
    x, y, s = tasks.sample_contexts(m, n, tasks.Uniform(), rng=seed)
    follower = Corpus(x, y, s).follow()
    follower.summaries(0.9 * b + offset, b)  # the anchor
    b = b + move  # within its radius (>= 1)
    a = 0.9 * b + offset
    (L, _, _), per_task = dense(follower.corpus, x, y, a, b)
    assert follower.loss(a, b) == pytest.approx(L, rel=1e-12, abs=1e-300)
    np.testing.assert_allclose(
        np.array(follower.summaries(a, b)), per_task, rtol=1e-13, atol=1e-15
    )
    assert follower.anchors == 1


def test_follower_bad_inputs():
    with pytest.raises(TypeError, match="^corpus must be a Corpus"):
        Follower("corpus")
    follower = Corpus.sample(3, 4, rng=0).follow()
    with pytest.raises(ValueError, match="^b of shape \\(2,\\) does not broadcast"):
        follower.summaries(3.0, [1.0, 2.0])
    with pytest.raises(ValueError, match="^a must be finite"):
        follower.summaries(np.nan, 1.0)
