"""Tests for stumplib.sparse_corpus: exact against its completion, and in law.

Goodness-of-fit tests run at significance ALPHA = 0.001 on fixed seeds, so they are
deterministic; a correct sampler fails one of them for a given seed with probability
0.001.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special, stats

from stumplib import (
    calibration,
    corpus_rule,
    pretraining,
    sparse_corpus,
    tasks,
    training,
)
from stumplib import corpus as corpus_module
from stumplib.corpus import Corpus
from stumplib.sparse_corpus import SparseCorpus, lowest_anchor

ALPHA = 1e-3
EPS = np.finfo(float).eps
PRIORS = [tasks.Uniform(0.1, 0.9), tasks.Uniform()]


def complete(sparse, seed):
    """A dense corpus holding the members of ``sparse`` and, for every class, the
    members not held drawn iid uniform between its last member held and the class's
    upper end."""
    rng = np.random.default_rng(seed)
    m, n = sparse.shape
    counts, x = sparse.counts, np.empty((m, n))
    for j in range(m):
        parts = []
        for c, (held, upper) in enumerate(zip(sparse.members(j), (sparse.s[j], 1.0))):
            low = held[-1] if held.size else 0.0
            parts += [held, rng.uniform(low, upper, counts[j, c] - held.size)]
        x[j] = np.concatenate(parts)
    return Corpus(x, (x > sparse.s[:, None]).astype(float), sparse.s)


def assert_same(sparse, dense, a, b):
    """Loss, gradient and per-task summaries agree to 1e-12 relative, with absolute
    floors where a derivative is near zero: 1e-12 times the quantity's largest value
    over tasks, the rounding of the completion's features (it stores ``x = leader + d``,
    so its deviations differ by about ``eps``, and a variance ``v`` by about ``2 eps
    sqrt(v)``), and what each engine leaves out (``e^{-40}`` of a task's leader: a class
    far below the leader, e.g. the negatives when the positives dominate, has its
    ``d/da`` only to that absolute accuracy)."""
    got, want = np.array(sparse.summaries(a, b)), np.array(dense.summaries(a, b))
    size = np.abs(want)
    floor = 1e-12 * size.max(axis=1, keepdims=True) + 8 * EPS * np.sqrt(size)
    floor += 2 * np.exp(-40)
    np.testing.assert_array_less(np.abs(got - want), 1e-12 * size + floor + 1e-300)
    got, want = (
        np.array(sparse.loss_and_gradient(a, b)),
        np.array(dense.loss_and_gradient(a, b)),
    )
    floor = 1e-12 * np.abs(want).max()
    np.testing.assert_array_less(np.abs(got - want), 1e-12 * np.abs(want) + floor)


@pytest.fixture(scope="module", params=PRIORS, ids=["interior", "full"])
def pair(request):
    sparse = SparseCorpus.sample(300, 5000, 300.0, prior=request.param, seed=(7, 1))
    return sparse, complete(sparse, 1)


def test_holds_few_members_and_shares_thresholds_with_the_dense_sampler(pair):
    sparse, _ = pair
    assert sparse.shape == (300, 5000)
    assert sparse.held.sum() < 0.4 * sparse.counts.sum()
    assert np.all(sparse.counts.sum(axis=1) == 5000)
    dense = Corpus.sample(300, 5, prior=tasks.Uniform(0.1, 0.9), rng=(7, 1))
    if sparse.s.min() >= 0.1:
        np.testing.assert_array_equal(sparse.s, dense.s)


@pytest.mark.parametrize("b", [300.0, 330.0, 500.0, 2000.0, 1e5])
@pytest.mark.parametrize("shift", [-20.0, 0.0, 30.0])
def test_equals_its_completion_from_b_min_up(pair, b, shift):
    sparse, dense = pair
    a = float(calibration.a_star(b, tasks.Uniform(0.1, 0.9))) + shift
    held = sparse.held
    assert_same(sparse, dense, a, b)
    np.testing.assert_array_equal(sparse.windows(a, b), dense.windows(a, b))
    np.testing.assert_array_equal(sparse.held, held)  # nothing drawn at b >= b_min


@pytest.mark.parametrize("b", [300.0, 600.0])
@pytest.mark.parametrize("a", [-100.0, 150.0, 600.0])
def test_the_left_out_weight_is_below_the_bound_from_b_min_up(pair, a, b):
    sparse, _ = pair
    assert sparse.left_out_bound(a, b).max() < np.exp(-40)


def test_follower_and_task_gradients_equal_the_completion(pair):
    sparse, dense = pair
    follow_s, follow_d = sparse.follow(), dense.follow()
    for b in (301.0, 303.5, 310.0, 340.0):
        a = float(calibration.a_star(b, tasks.Uniform(0.1, 0.9)))
        assert_same(follow_s, follow_d, a, b)
        np.testing.assert_allclose(
            corpus_module.task_gradients(sparse, a, b),
            corpus_module.task_gradients(dense, a, b),
            rtol=1e-12,
            atol=1e-12 * np.abs(corpus_module.task_gradients(dense, a, b)).max(),
        )


def test_a_run_equals_the_run_on_its_completion():
    sparse = SparseCorpus.sample(200, 4000, 190.0, seed=5)
    dense = complete(sparse, 2)
    (a0, b0), eta = pretraining._valley_start(200.0, tasks.Uniform(0.1, 0.9))
    got = pretraining.train_to_scale(sparse, (a0, b0), eta, 240.0)
    want = pretraining.train_to_scale(dense, (a0, b0), eta, 240.0)
    assert got.steps == want.steps
    assert (got.a, got.b) == pytest.approx((want.a, want.b), rel=1e-10)
    noisy_s = pretraining.train_until_noisy(sparse, (a0, b0), eta, max_steps=40)
    noisy_d = pretraining.train_until_noisy(dense, (a0, b0), eta, max_steps=40)
    assert noisy_s.steps == noisy_d.steps
    assert noisy_s.b == pytest.approx(noisy_d.b, rel=1e-10)


def test_side_by_side_stacks_sparse_corpora():
    """Runs amplify rounding along the valley's flat direction: equal step counts,
    scales and label scores to 1e-8."""
    corpora = [SparseCorpus.sample(50, 3000, 150.0, seed=(2, r)) for r in range(2)]
    dense = [complete(c, r) for r, c in enumerate(corpora)]
    theta = [(float(calibration.a_star(160.0, tasks.Uniform(0.1, 0.9))), 160.0)] * 2
    got = pretraining.train_side_by_side(
        corpora, theta, [161.0, 162.0], tasks.Uniform(0.1, 0.9)
    )
    want = pretraining.train_side_by_side(
        dense, theta, [161.0, 162.0], tasks.Uniform(0.1, 0.9)
    )
    for g, w in zip(got, want):
        for h, k in zip(g, w):
            assert h.steps == k.steps
            assert (h.a, h.b) == pytest.approx((k.a, k.b), rel=1e-8)
    with pytest.raises(ValueError, match="^corpora must be of one kind"):
        Corpus.stack([corpora[0], dense[0]])


# --- below b_min: extend, never truncate ----------------------------------------------


@pytest.mark.parametrize("prior", PRIORS, ids=["interior", "full"])
def test_an_evaluation_below_b_min_extends_and_stays_exact(prior):
    sparse = SparseCorpus.sample(200, 5000, 400.0, prior=prior, seed=8)
    held = sparse.held.sum()
    scales = (100.0, 150.0, 400.0)
    points = [(float(calibration.a_star(b, PRIORS[0])), b) for b in scales]
    for a, b in points:
        sparse.loss(a, b)
        assert sparse.left_out_bound(a, b).max() < np.exp(-40)
    assert sparse.held.sum() > 2 * held
    held = sparse.held
    dense = complete(sparse, 3)  # completed after the extensions
    for a, b in points:
        assert_same(sparse, dense, a, b)
    np.testing.assert_array_equal(sparse.held, held)


def test_extension_does_not_depend_on_the_order_of_evaluations():
    first, second = (SparseCorpus.sample(40, 3000, 300.0, seed=9) for _ in range(2))
    first.loss(100.0, 150.0)
    first.loss(40.0, 60.0)
    second.loss(40.0, 60.0)
    stacked = Corpus.stack([SparseCorpus.sample(40, 3000, 300.0, seed=9)] * 2)
    stacked.loss(40.0, 60.0)
    for j in range(40):
        held = first.members(j), second.members(j), stacked.members(j)
        for got, other, stack in zip(*held):
            np.testing.assert_array_equal(got, other)
            np.testing.assert_array_equal(got, stack)


def test_b_at_most_zero_draws_every_member():
    sparse = SparseCorpus.sample(30, 400, 200.0, seed=10)
    assert np.any(sparse.held < sparse.counts)
    value = sparse.loss_and_gradient(1.0, -2.0)
    np.testing.assert_array_equal(sparse.held, sparse.counts)
    assert_same(sparse, complete(sparse, 0), 1.0, -2.0)
    assert value == sparse.loss_and_gradient(1.0, -2.0)


def test_empty_classes():
    """s = 0 and s = 1: one class is empty in every task."""
    for s in (0.0, 1.0):
        sparse = SparseCorpus.sample(20, 500, 200.0, prior=tasks.Fixed(s), seed=11)
        assert np.all(sparse.counts[:, int(s == 0.0)] == 500)
        assert_same(sparse, complete(sparse, 0), 10.0, 250.0)


# --- law ------------------------------------------------------------------------------


def test_class_counts_are_binomial():
    """N_+ ~ Binomial(n, 1 - s) at s = 0.3: chi-squared on ten bins of about equal
    mass."""
    n, m = 400, 5000
    sparse = SparseCorpus.sample(m, n, 500.0, prior=tasks.Fixed(0.3), seed=12)
    law = stats.binom(n, 0.7)
    edges = np.unique(law.ppf(np.linspace(0, 1, 11)[1:-1]))
    bins = np.searchsorted(edges, sparse.counts[:, 1], side="left")
    observed = np.bincount(bins, minlength=edges.size + 1)
    expected = m * np.diff(np.concatenate([[0.0], law.cdf(edges), [1.0]]))
    assert stats.chisquare(observed, expected).pvalue > ALPHA


@pytest.mark.parametrize("k", [1, 2, 3, 40])
def test_order_statistics_have_their_beta_law(k):
    """The k-th smallest positive, on the unit scale of (s, 1], given N_+ = N, is
    Beta(k, N + 1 - k): its probability transform is uniform (Kolmogorov-Smirnov). Block
    0 holds about 30 members here, so k = 40 lies in an extension block."""
    n, s = 300, 0.3
    sparse = SparseCorpus.sample(4000, n, 3000.0, prior=tasks.Fixed(s), seed=(13, k))
    if k > sparse.held[:, 1].min():
        sparse.loss(0.0, 30.0)  # extends
    assert sparse.held[:, 1].min() >= k
    u = np.array([(sparse.members(j)[1][k - 1] - s) / (1 - s) for j in range(4000)])
    counts = sparse.counts[:, 1]
    assert stats.kstest(stats.beta.cdf(u, k, counts + 1 - k), "uniform").pvalue > ALPHA


def test_head_error_has_the_law_of_the_dense_sampler():
    """Per-task head errors at a fixed (a, b): sparse and dense samples of 5000 tasks
    have one law (two-sample Kolmogorov-Smirnov)."""
    prior, b = tasks.Uniform(0.1, 0.9), 60.0
    a = float(calibration.a_star(b, prior))
    sparse = SparseCorpus.sample(5000, 400, b, prior=prior, seed=14)
    dense = Corpus.sample(5000, 400, prior=prior, rng=15)
    errors = [corpus.estimates(a, b) - corpus.s for corpus in (sparse, dense)]
    assert stats.ks_2samp(*errors).pvalue > ALPHA


def test_bad_inputs():
    with pytest.raises(TypeError, match="SparseCorpus.sample"):
        SparseCorpus(np.zeros((2, 2)), np.zeros((2, 2)), np.zeros(2))
    sparse = SparseCorpus.sample(3, 10, 5.0)
    with pytest.raises(ValueError, match="^task must be below m = 3"):
        sparse.members(3)
    with pytest.raises(ValueError, match="^b must be positive"):
        sparse.left_out_bound(1.0, 0.0)


def test_a_small_first_block_is_extended_while_drawing(monkeypatch):
    """With block 0 at its expected need alone, about half the classes need a second
    block while the corpus is drawn (and its flat arrays grow past their spare room)."""
    monkeypatch.setattr(sparse_corpus, "SPREAD", 0.0)
    monkeypatch.setattr(sparse_corpus, "SLACK", 1)
    sparse = SparseCorpus.sample(200, 5000, 300.0, seed=16)
    assert np.mean(sparse._blocks[sparse.held < sparse.counts] > 1) > 0.3
    for j in range(200):
        for held in sparse.members(j):
            assert np.all(np.diff(held) > 0)
    assert sparse.left_out_bound(150.0, 300.0).max() < np.exp(-40)
    assert_same(sparse, complete(sparse, 4), 150.0, 300.0)


def test_a_run_from_above_the_lowest_anchor_draws_nothing_more():
    b0, n = 300.0, 4000
    assert lowest_anchor(b0, n) == pytest.approx(b0 - b0 / (41.0 + np.log(n)))
    assert lowest_anchor(0.5, n) == -0.5  # radius 1 below cutoff + 1
    sparse = SparseCorpus.sample(40, n, lowest_anchor(b0, n), seed=17)
    held = sparse.held
    (a0, _), eta = pretraining._valley_start(b0, PRIORS[0])
    pretraining.train_to_scale(sparse, (a0, b0), eta, 1.5 * b0)
    np.testing.assert_array_equal(sparse.held, held)


# --- the SparseFollower: term-major series, only the terms a step needs ---------------

#: Rounding of a truncated series: at most ``TERMS + 2`` products summed, each within
#: ``e^{2x} <= e^2`` of the sum it approximates (``|delta| d <= 1``), and the remainder
#: below ``e^2 / TERMS!``: the Follower's own tolerance against direct evaluation
#: (``tests/test_corpus.py``), 1e-13 relative to each quantity's largest value.
FOLLOW_RTOL = 1e-13


def assert_follows(follower, corpus, a, b):
    """Per-task summaries within FOLLOW_RTOL of each quantity's largest value, and
    what the direct evaluation's windows leave out (``e^{-40}`` of a task's leader,
    absolute: the follower's windows are wider), as :func:`assert_same`."""
    got, want = np.array(follower.summaries(a, b)), np.array(corpus.summaries(a, b))
    scale = np.abs(want).max(axis=1, keepdims=True)
    excess = np.abs(got - want) / (FOLLOW_RTOL * scale + 2 * np.exp(-40))
    assert excess.max() <= 1.0, f"off by {excess.max():.3g} tolerances"


def test_term_reach_is_the_remainder_bound():
    reach = sparse_corpus.SparseFollower.REACH
    terms = np.arange(1, reach.size + 1)
    assert np.all(np.diff(reach) > 0) and reach[-1] == 1.0
    bound = 2.0 - special.gammaln(reach.size + 1.0)

    def log_rest(x, j):
        return j * np.log(x) - special.gammaln(j + 1.0) + 2 * x

    assert np.all(log_rest(reach, terms) <= bound)  # J terms suffice up to x_J ...
    above = log_rest(reach[:-1] * (1 + 1e-9) + 2.0**-58, terms[:-1])
    assert np.all(above > bound)  # ... and no further


@pytest.fixture(scope="module")
def followed():
    """A corpus and a follower anchored at b = 40 (on the valley)."""
    corpus = SparseCorpus.sample(60, 800, 30.0, seed=(21, 0))
    follower = corpus.follow()
    follower.summaries(float(calibration.a_star(40.0, PRIORS[0])), 40.0)
    return corpus, follower


@given(shift=st.floats(-30.0, 30.0), move=st.floats(-0.9, 1.0))
@settings(max_examples=30, deadline=None)
def test_sparse_follower_equals_direct_evaluation_at_random_points(
    followed, shift, move
):
    corpus, follower = followed
    radius = max(40.0 / (corpus.cutoff + 1.0), 1.0)
    b = 40.0 + move * radius
    a = float(calibration.a_star(b, PRIORS[0])) + shift
    assert_follows(follower, corpus, a, b)
    assert follower.anchors == 1  # within the radius: the anchor held


def test_sparse_follower_combines_only_the_tasks_where_both_classes_weigh():
    """At b = 300 over contexts of 30 the tasks where one class alone carries weight
    (r beyond the cutoff, or the other class empty) are both ends of the sorted tasks:
    the follower still equals direct evaluation, and its per-task gradients are those
    of its summaries exactly."""
    corpus = SparseCorpus.sample(400, 30, 250.0, tasks.Uniform(0.01, 0.99), (21, 2))
    follower = corpus.follow()
    assert (corpus.counts == 0).any(axis=0).all()  # empty classes of either kind
    for b in (300.0, 304.0, 296.0):
        a = 0.5 * b
        lo, hi = follower._ends(a, b)
        assert 0 < lo < hi < 400  # both ends and a middle
        assert_follows(follower, corpus, a, b)
        est, d_a, d_b = follower.summaries(a, b)
        r = 2.0 * (est - corpus.s)
        np.testing.assert_array_equal(
            follower.task_gradients(a, b), np.column_stack([r * d_a, r * d_b])
        )
    assert follower.anchors == 1


def test_sparse_follower_equals_direct_evaluation_along_a_run():
    corpus = SparseCorpus.sample(200, 2000, 8.0, seed=(21, 1))
    follower = corpus.follow()
    b = np.geomspace(10.0, 60.0, 60)
    for a_b in zip(0.9 * b + np.log(b), b):
        assert_follows(follower, corpus, *a_b)
    assert 5 < follower.anchors < 60  # it re-anchored, though not at every point
    per_task = np.full(200, 20.0), np.linspace(15.0, 25.0, 200)  # one point per task
    assert_follows(follower, corpus, *per_task)


def test_a_run_of_the_sparse_follower_equals_the_direct_run():
    """Rounding differences add at most linearly over a descent along the valley: the
    frozen point within steps * FOLLOW_RTOL relative."""
    corpus = SparseCorpus.sample(200, 2000, 4.0, seed=(21, 2))
    (a0, b0), eta = corpus_rule.size_start(200, 2000, PRIORS[0])
    got = pretraining.train_until_noisy(corpus, (a0, b0), eta)
    a, b, k = training.descend(
        lambda a, b, k: (
            None
            if corpus_module.noise_ratio(
                g := corpus_module.task_gradients(corpus, a, b)
            )
            >= 0.5
            else g.mean(axis=0)
        ),
        (a0, b0),
        eta,
        max_steps=10**5,
    )
    assert got.steps == k
    assert (got.a, got.b) == pytest.approx((a, b), rel=k * FOLLOW_RTOL)


@pytest.mark.parametrize("s", [0.0, 1.0])
@pytest.mark.parametrize("a", [-60.0, 10.0, 80.0])
def test_sparse_follower_with_empty_classes(s, a):
    """s = 0 and s = 1: one class is empty in every task, whatever the scores."""
    sparse = SparseCorpus.sample(20, 500, 200.0, prior=tasks.Fixed(s), seed=11)
    follower = sparse.follow()
    for b in (250.0, 252.0):
        assert_follows(follower, sparse, a, b)


def test_sparse_follower_resumes_bit_identically():
    corpus = SparseCorpus.sample(100, 1000, 10.0, seed=(21, 3))
    b = np.geomspace(12.0, 40.0, 60)
    points = list(zip(0.9 * b, b))
    first = corpus.follow()
    for point in points[:30]:
        first.summaries(*point)
    again = corpus.follow()
    again.restore(first.state())
    for point in points[30:]:
        want = np.array(first.summaries(*point))
        np.testing.assert_array_equal(np.array(again.summaries(*point)), want)
    assert again.state() == first.state()


def test_sparse_follower_bad_inputs():
    with pytest.raises(TypeError, match="^corpus must be"):
        sparse_corpus.SparseFollower(Corpus.sample(3, 4, rng=0))
    follower = SparseCorpus.sample(3, 10, 5.0).follow()
    with pytest.raises(ValueError, match="^state must be a dict"):
        follower.restore({"anchor": 5.0})
    with pytest.raises(ValueError, match="anchors"):
        follower.restore({"anchor": 5.0, "last": 5.0, "anchors": -1})
