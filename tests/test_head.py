"""Tests for stumplib.head: the one-head softmax model on a finite context.

The reference is the naive definition: ``w = scipy.special.softmax(a*y - b*x)``,
``s_hat = w @ x``, ``d/da = Cov_w(x, y)``, ``d/db = -Var_w(x)`` (two-pass moments).
"""

import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import special

from stumplib import head, population, tasks

# ----------------------------------------------------------------------------- helpers


def naive(a, b, x, y):
    """Estimate and gradient from the definition (batched over leading axes)."""
    a, b = np.asarray(a, float)[..., None], np.asarray(b, float)[..., None]
    w = special.softmax(a * y - b * x, axis=-1)
    est = (w * x).sum(-1)
    dx = x - est[..., None]
    dy = y - (w * y).sum(-1)[..., None]
    return est, (w * dx * dy).sum(-1), -(w * dx**2).sum(-1)


def central(f, theta, h):
    return (f(theta + h) - f(theta - h)) / (2 * h)


@st.composite
def contexts(draw, max_batch=3, max_n=8):
    """A batch of contexts with arbitrary (not necessarily threshold-consistent)
    labels."""
    batch = draw(st.integers(1, max_batch))
    n = draw(st.integers(1, max_n))
    x = draw(hnp.arrays(float, (batch, n), elements=st.floats(0, 1)))
    y = draw(hnp.arrays(float, (batch, n), elements=st.sampled_from([0.0, 1.0])))
    return x, y


moderate = st.floats(-40, 40)
extreme = st.floats(-1e6, 1e6)


@pytest.fixture(scope="module")
def sample():
    x, y, s = tasks.sample_contexts(64, 25, rng=2024)
    return x, y, s


# ------------------------------------------------------------------- reference values


@pytest.mark.parametrize(
    "a, b",
    [
        (0.0, 0.0),
        (2.0, 5.0),
        (-3.0, 1.5),
        (12.0, 10.0),
        (25.0, 30.0),
        (5.0, -8.0),
        (-20.0, -40.0),
    ],
)
def test_matches_naive_softmax(sample, a, b):
    x, y, _ = sample
    est, d_a, d_b = head.estimate_and_gradient(a, b, x, y)
    ref = naive(a, b, x, y)
    # x in [0, 1]: all three are O(1) sums of O(1) terms, rounding ~ N eps; atol 1e-14.
    np.testing.assert_allclose(est, ref[0], rtol=0, atol=1e-14)
    np.testing.assert_allclose(d_a, ref[1], rtol=0, atol=1e-14)
    np.testing.assert_allclose(d_b, ref[2], rtol=0, atol=1e-14)
    np.testing.assert_array_equal(head.estimate(a, b, x, y), est)
    for u, v in zip(head.gradient(a, b, x, y), (d_a, d_b)):
        np.testing.assert_array_equal(u, v)


def test_hand_example_two_points():
    # x = (0.2, 0.6), y = (0, 1), a = log 3, b = 0: weights (1/4, 3/4).
    est, d_a, d_b = head.estimate_and_gradient(np.log(3.0), 0.0, [0.2, 0.6], [0, 1])
    assert est == pytest.approx(0.25 * 0.2 + 0.75 * 0.6, rel=1e-15)
    assert d_a == pytest.approx(0.25 * 0.75 * 0.4, rel=1e-14)  # Cov = p(1-p)(x1 - x0)
    assert d_b == pytest.approx(
        -0.25 * 0.75 * 0.16, rel=1e-14
    )  # -Var = -p(1-p)(x1 - x0)^2


def test_uniform_weights_at_zero_parameters(sample):
    x, y, _ = sample
    np.testing.assert_allclose(
        head.estimate(0.0, 0.0, x, y), x.mean(-1), rtol=0, atol=1e-15
    )
    np.testing.assert_allclose(
        head.gradient(0.0, 0.0, x, y)[1], -x.var(-1), rtol=0, atol=1e-15
    )


def test_scores_and_weights(sample):
    x, y, _ = sample
    z = head.scores(1.5, 4.0, x, y)
    np.testing.assert_array_equal(z, 1.5 * y - 4.0 * x)
    w = head.weights(1.5, 4.0, x, y)
    np.testing.assert_allclose(w.sum(-1), 1.0, rtol=1e-15)
    np.testing.assert_allclose(
        (w * x).sum(-1), head.estimate(1.5, 4.0, x, y), atol=1e-15
    )
    # per-row parameters broadcast over the batch axis
    a = np.linspace(-1, 1, x.shape[0])
    np.testing.assert_array_equal(head.scores(a, 2.0, x, y), a[:, None] * y - 2.0 * x)


# ------------------------------------------------------------------ gradient checks


@pytest.mark.parametrize(
    "a, b", [(1.0, 3.0), (8.0, 12.0), (-2.0, 0.5), (30.0, 25.0), (4.0, -6.0)]
)
def test_gradient_matches_central_differences(sample, a, b):
    x, y, _ = sample
    d_a, d_b = head.gradient(a, b, x, y)
    ha, hb = 1e-6 * max(1.0, abs(a)), 1e-6 * max(1.0, abs(b))
    fd_a = central(lambda t: head.estimate(t, b, x, y), a, ha)
    fd_b = central(lambda t: head.estimate(a, t, x, y), b, hb)
    # truncation h^2 |f'''| / 6 <~ 1e-12 * 30^3 / 6 ~ 5e-9; rounding eps / h ~ 2e-10.
    np.testing.assert_allclose(d_a, fd_a, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(d_b, fd_b, rtol=1e-6, atol=1e-8)


@given(contexts(), moderate, moderate)
def test_gradient_is_covariance_and_variance(ctx, a, b):
    x, y = ctx
    got = head.estimate_and_gradient(a, b, x, y)
    ref = naive(a, b, x, y)
    for g, r in zip(got, ref):
        np.testing.assert_allclose(g, r, rtol=0, atol=5e-14)
    # |Cov_w(x, y)| <= sd(x) sd(y) <= 1/4 and 0 <= Var_w(x) <= 1/4 for x in [0, 1]
    assert np.all(np.abs(got[1]) <= 0.25 + 1e-15)
    assert np.all((got[2] <= 0) & (got[2] >= -0.25 - 1e-15))


# ------------------------------------------------------------------------ hard limit


HAND_X = np.array([0.15, 0.32, 0.47, 0.58, 0.71, 0.93])
HAND_Y = np.array([0.0, 0.0, 0.0, 1.0, 1.0, 1.0])


def leakage_bound(a, b, x, y, winner):
    """|s_hat - x_p| <= sum_{i != p} e^{z_i - z_p} |x_i - x_p|, since w_i <= e^{z_i -
    z_p}."""
    z = a * y - b * x
    return np.sum(np.exp(z - z[winner]) * np.abs(x - x[winner]))


def test_hard_limit_values():
    assert head.hard_limit(HAND_X, HAND_Y) == 0.58
    assert head.hard_limit(HAND_X, np.zeros(6)) == 0.15  # no positive: smallest x
    np.testing.assert_array_equal(
        head.hard_limit(
            np.array([[0.3, 0.1, 0.9], [0.3, 0.1, 0.9]]),
            np.array([[1, 0, 1], [0, 0, 0]]),
        ),
        [0.3, 0.1],
    )


@pytest.mark.parametrize("b", [10.0, 30.0, 100.0, 1e3, 1e4, 1e5, 1e6])
def test_converges_to_nearest_positive(b):
    a = b + 2 * np.log(b)  # offset a - b = 2 log b -> inf: positives outweigh negatives
    est = head.estimate(a, b, HAND_X, HAND_Y)
    bound = leakage_bound(a, b, HAND_X, HAND_Y, winner=3)
    assert abs(est - 0.58) <= bound * (1 + 1e-12) + 1e-16
    if b >= 1e3:
        assert est == pytest.approx(head.hard_limit(HAND_X, HAND_Y), abs=1e-16)


def test_convergence_is_monotone_in_scale():
    bs = np.array([3.0, 10.0, 30.0, 100.0])
    err = np.abs(
        head.estimate(
            bs + 2 * np.log(bs), bs, np.tile(HAND_X, (4, 1)), np.tile(HAND_Y, (4, 1))
        )
        - 0.58
    )
    assert np.all(np.diff(err) < 0) and err[0] > 1e-3


@pytest.mark.parametrize("b", [10.0, 100.0, 1e3, 1e6])
@pytest.mark.parametrize("a", [-1e6, 0.0, 5.0, 1e6])
def test_no_positive_collapses_to_smallest_x(a, b):
    y = np.zeros_like(HAND_X)
    est = head.estimate(a, b, HAND_X, y)
    # without positives a is irrelevant and the lightest x wins: bound from its
    # neighbours
    assert (
        abs(est - 0.15)
        <= leakage_bound(a, b, HAND_X, y, winner=0) * (1 + 1e-12) + 1e-16
    )
    assert est == head.estimate(0.0, b, HAND_X, y)
    assert head.gradient(a, b, HAND_X, y)[0] == 0.0


@pytest.mark.parametrize("b", [1e3, 1e4, 1e6])
def test_small_offset_does_not_reach_nearest_positive(b):
    # The limit needs a - b x_pos_min > -b x_neg_min. a = 0.5 b: the positive at 0.58
    # scores -0.08 b > -0.15 b (smallest negative), so it still wins. a = 0.3 b: it
    # scores -0.28 b < -0.15 b and the estimate collapses onto the smallest negative
    # instead.
    assert head.estimate(0.5 * b, b, HAND_X, HAND_Y) == pytest.approx(0.58, abs=1e-12)
    assert head.estimate(0.3 * b, b, HAND_X, HAND_Y) == pytest.approx(0.15, abs=1e-12)


# ------------------------------------------------------------------ property tests


@given(contexts(), extreme, extreme)
def test_estimate_within_feature_range(ctx, a, b):
    x, y = ctx
    est = head.estimate(a, b, x, y)
    assert np.all(est >= x.min(-1) - 1e-15) and np.all(est <= x.max(-1) + 1e-15)


@given(contexts(), moderate, moderate, st.randoms(use_true_random=False))
def test_permutation_invariance(ctx, a, b, rnd):
    x, y = ctx
    perm = list(range(x.shape[-1]))
    rnd.shuffle(perm)
    for u, v in zip(
        head.estimate_and_gradient(a, b, x, y),
        head.estimate_and_gradient(a, b, x[:, perm], y[:, perm]),
    ):
        np.testing.assert_allclose(u, v, rtol=0, atol=1e-14)


@given(contexts(), extreme, extreme)
def test_mirror_equivariance(ctx, a, b):
    """Mirrored scores a(1-y) - b(1-x) = -a y + b x + (a - b): the weights of (-a, -b)
    on the
    original context. Hence s_hat(a, b; mirror) = 1 - s_hat(-a, -b), and the gradient
    (Cov, -Var) is unchanged: grad(a, b; mirror) = grad(-a, -b)."""
    x, y = ctx
    mx, my = tasks.mirror(x, y)
    est, d_a, d_b = head.estimate_and_gradient(a, b, mx, my)
    ref, r_a, r_b = head.estimate_and_gradient(-a, -b, x, y)
    # 1 - x is exact to eps/2; with |b| up to 1e6 the weights (e^{-b x}) are perturbed
    # by a relative 1e6 * 1e-16: the tolerance allows for that amplification.
    tol = 1e-14 + 4e-16 * abs(b)
    np.testing.assert_allclose(est, 1 - ref, rtol=0, atol=tol)
    np.testing.assert_allclose(d_a, r_a, rtol=0, atol=tol)
    np.testing.assert_allclose(d_b, r_b, rtol=0, atol=tol)


@given(contexts(), moderate, moderate, st.floats(0, 1))
def test_translation(ctx, a, b, frac):
    """Translating x by c (keeping [0, 1]) shifts every score by -b c: the weights are
    unchanged, so s_hat(x + c) = c + s_hat(x) and (Cov, -Var) are unchanged."""
    x, y = ctx
    c = frac * (1 - x.max())
    est, d_a, d_b = head.estimate_and_gradient(a, b, x + c, y)
    ref, r_a, r_b = head.estimate_and_gradient(a, b, x, y)
    tol = 1e-14 + 4e-16 * abs(b)  # x + c rounds by eps/2, amplified by b in the weights
    np.testing.assert_allclose(est, c + ref, rtol=0, atol=tol)
    np.testing.assert_allclose(d_a, r_a, rtol=0, atol=tol)
    np.testing.assert_allclose(d_b, r_b, rtol=0, atol=tol)


@given(
    contexts(max_batch=5),
    st.lists(extreme, min_size=5, max_size=5),
    st.lists(extreme, min_size=5, max_size=5),
)
def test_batch_consistency(ctx, a_list, b_list):
    """Batched evaluation with per-row parameters (mixed signs of b included) equals row
    by row."""
    x, y = ctx
    k = x.shape[0]
    a, b = np.array(a_list[:k]), np.array(b_list[:k])
    batched = head.estimate_and_gradient(a, b, x, y)
    for i in range(k):
        single = head.estimate_and_gradient(a[i], b[i], x[i], y[i])
        for u, v in zip(batched, single):
            assert u.shape == (k,) and np.shape(v) == ()
            assert u[i] == pytest.approx(float(v), abs=1e-15)


def test_batch_shapes_and_broadcasting(sample):
    x, y, _ = sample
    x3, y3 = x.reshape(4, 16, 25), y.reshape(4, 16, 25)
    est = head.estimate(3.0, 2.0, x3, y3)
    assert est.shape == (4, 16)
    np.testing.assert_array_equal(est.ravel(), head.estimate(3.0, 2.0, x, y))
    b = np.array([1.0, -2.0, 3.0, 0.0])[:, None]  # broadcast against the batch (4, 16)
    est = head.estimate(1.0, b, x3, y3)
    for i in range(4):
        np.testing.assert_allclose(
            est[i], head.estimate(1.0, b[i, 0], x3[i], y3[i]), rtol=0, atol=1e-15
        )
    single = head.estimate(1.0, 2.0, x[0], y[0])
    assert np.shape(single) == ()


def test_prepared_contexts_reuse(sample):
    """A prepared Contexts (cached layout and buffers) gives fresh results on every call
    and does not overwrite results it returned before."""
    x, y, _ = sample
    ctx = head.Contexts(x, y)
    params = [
        (3.0, 2.0),
        (-1.0, -5.0),
        (7.0, 0.0),
        (2.0, np.linspace(-3, 3, 64)),
        (3.0, 2.0),
    ]
    outs = [head.estimate_and_gradient(a, b, ctx) for a, b in params]
    for (a, b), out in zip(params, outs):
        for u, v in zip(out, naive(a, np.broadcast_to(b, (64,)), x, y)):
            np.testing.assert_allclose(u, v, rtol=0, atol=1e-14)
    for u, v in zip(outs[0], outs[-1]):
        np.testing.assert_array_equal(u, v)


@given(st.integers(1, 30), st.floats(0.02, 0.98), moderate, st.floats(0, 40))
def test_monotone_in_parameters_for_threshold_labels(n, s, a, b):
    """With threshold labels y = 1{x > s}, y is increasing in x, so Cov_w(x, y) >= 0:
    s_hat is nondecreasing in a and (always) nonincreasing in b."""
    x = np.random.default_rng(n).random(n)
    y = (x > s).astype(float)
    d_a, d_b = head.gradient(a, b, x, y)
    assert d_a >= 0 and d_b <= 0
    assert head.estimate(a + 1.0, b, x, y) >= head.estimate(a, b, x, y) - 1e-15
    assert head.estimate(a, b + 1.0, x, y) <= head.estimate(a, b, x, y) + 1e-15


# ------------------------------------------------------------- extreme scales


def test_extreme_scales_finite_without_warnings(sample):
    x, y, _ = sample
    vals = [-1e6, -3e5, -1.0, 0.0, 1e-300, 1.0, 3e5, 1e6]
    cases = [(x, y), (x, np.zeros_like(y)), (x, np.ones_like(y)), (x[:, :1], y[:, :1])]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for (xx, yy), a, b in itertools.product(cases, vals, vals):
            est, d_a, d_b = head.estimate_and_gradient(a, b, xx, yy)
            assert np.all(np.isfinite(est) & np.isfinite(d_a) & np.isfinite(d_b)), (
                a,
                b,
            )
            assert np.all((est >= xx.min(-1) - 1e-15) & (est <= xx.max(-1) + 1e-15)), (
                a,
                b,
            )
        mixed = np.where(np.arange(64) % 2, 1e6, -1e6)
        est = head.estimate(1e6, mixed, x, y)
        assert np.all(np.isfinite(est))


def test_extreme_scales_match_naive_where_naive_is_exact(sample):
    # scipy's softmax subtracts the max score, so the naive estimate is accurate for any
    # scale.
    x, y, _ = sample
    for a, b in [(1e6, 1e6), (1e6 + 27.6, 1e6), (-1e6, 1e6), (1e5, -1e6), (-1e6, -1e6)]:
        np.testing.assert_allclose(
            head.estimate(a, b, x, y), naive(a, b, x, y)[0], rtol=0, atol=1e-12
        )


# ------------------------------------------------------------- n -> inf consistency


@pytest.mark.parametrize(
    "a, b, s", [(2.0, 5.0, 0.3), (12.0, 10.0, 0.75), (-1.0, 3.0, 0.5)]
)
def test_dense_grid_approaches_population(a, b, s):
    """On the midpoint grid x_i = (i + 1/2)/N with s on a grid line, the head is the
    midpoint rule for the population integrals: error O((b/N)^2) ~ 1e-6 here
    (b <= 12, N = 2e4)."""
    n = 20_000
    x = (np.arange(n) + 0.5) / n
    y = (x > s).astype(float)
    assert head.estimate(a, b, x, y) == pytest.approx(
        population.estimate(a, b, s), abs=2e-8
    )
    for u, v in zip(head.gradient(a, b, x, y), population.residual(a, b, s)[1:]):
        assert u == pytest.approx(v, abs=2e-8)


# ------------------------------------------------------------------ bad inputs


@pytest.mark.parametrize(
    "fn",
    [
        head.estimate,
        head.gradient,
        head.estimate_and_gradient,
        head.scores,
        head.weights,
    ],
)
def test_bad_inputs(fn):
    x, y = np.array([[0.1, 0.6, 0.8]]), np.array([[0.0, 1.0, 1.0]])
    with pytest.raises(ValueError, match="x and y must have the same shape"):
        fn(1.0, 1.0, x, y[:, :2])
    with pytest.raises(ValueError, match="^a must be finite"):
        fn(np.nan, 1.0, x, y)
    with pytest.raises(ValueError, match="^b must be finite"):
        fn(1.0, np.inf, x, y)
    with pytest.raises(ValueError, match="^x must be finite"):
        fn(1.0, 1.0, [[0.1, np.nan, 0.8]], y)
    with pytest.raises(ValueError, match=r"^x must lie in \[0, 1\]"):
        fn(1.0, 1.0, [[0.1, 1.2, 0.8]], y)
    with pytest.raises(ValueError, match=r"^x must lie in \[0, 1\]"):
        fn(1.0, 1.0, [[-0.1, 0.2, 0.8]], y)
    with pytest.raises(ValueError, match="^y must be finite"):
        fn(1.0, 1.0, x, [[0.0, np.inf, 1.0]])
    with pytest.raises(ValueError, match=r"^y must hold labels in \{0, 1\}"):
        fn(1.0, 1.0, x, [[0.0, 0.5, 1.0]])
    with pytest.raises(ValueError, match="context is empty"):
        fn(1.0, 1.0, np.zeros((3, 0)), np.zeros((3, 0)))


def test_hard_limit_bad_inputs():
    with pytest.raises(ValueError, match="same shape"):
        head.hard_limit([0.1, 0.2], [1])
    with pytest.raises(ValueError, match="context is empty"):
        head.hard_limit(np.zeros((3, 0)), np.zeros((3, 0)))


class TestHardLimitExpansion:
    """The leading term and remainder bound of s_hat - hard_limit (chapter 2)."""

    @staticmethod
    def _context(seed, n=12, s=0.4):
        x = np.random.default_rng(seed).random(n)
        return x, (x > s).astype(float)

    @given(seed=st.integers(0, 10_000), log_b=st.floats(0.5, 3.0))
    def test_bound_holds(self, seed, log_b):
        x, y = self._context(seed)
        if y.sum() < 2:
            return
        b = np.array([10.0**log_b])
        a = b + 2 * np.log(b)
        leading, bound, _gap = head.hard_limit_expansion(a, b, x, y)
        error = head.estimate(
            a, b, np.broadcast_to(x, (1, x.size)), np.broadcast_to(y, (1, y.size))
        ) - head.hard_limit(x, y)
        rounding = 10 * np.finfo(float).eps * (1 + a[0] + b[0]) / leading[0]
        if rounding < 1e-3:  # the error is resolved in floating point
            assert abs(error[0] / leading[0] - 1) <= bound[0] * (1 + 1e-9) + rounding

    def test_gap_is_between_two_smallest_positives(self):
        x = np.array([0.1, 0.5, 0.45, 0.9, 0.2])
        y = (x > 0.3).astype(float)
        _, _, gap = head.hard_limit_expansion([10.0], [5.0], x, y)
        assert gap == pytest.approx(0.05)

    def test_no_positive_uses_all_examples(self):
        x = np.array([0.3, 0.1, 0.6])
        _, _, gap = head.hard_limit_expansion([0.0], [5.0], x, np.zeros(3))
        assert gap == pytest.approx(0.2)

    def test_bound_shrinks_as_scale_grows(self):
        x, y = self._context(5, n=30)
        b = np.geomspace(10, 300, 20)
        _, bound, _ = head.hard_limit_expansion(b + 2 * np.log(b), b, x, y)
        assert bound[-1] < 1e-3 * bound[0]

    def test_needs_two_positives(self):
        with pytest.raises(ValueError, match="two examples"):
            head.hard_limit_expansion([1.0], [1.0], [0.2, 0.7], [0.0, 1.0])


class TestLimitRatio:
    """(s_hat - hard_limit) / (gap exp(-b gap)), exact in ratios at every scale.

    Chapter 2.
    """

    @staticmethod
    def _context(seed, n=30, s=0.45):
        x = np.random.default_rng(seed).random(n)
        return x, (x > s).astype(float)

    @pytest.mark.parametrize("seed", range(8))
    def test_matches_the_estimate_where_rounding_is_small(self, seed):
        x, y = self._context(seed)
        for labels in (y, np.zeros_like(y)):
            b = np.geomspace(1.0, 300.0, 40)
            a = b + 2 * np.log(b)
            leading, _, _ = head.hard_limit_expansion(a, b, x, labels)
            resolved = leading > 1e-6
            direct = (
                head.distance_to_limit(a, b, x, labels)[resolved] / leading[resolved]
            )
            ratio = head.limit_ratio(a, b, x, labels)[resolved]
            np.testing.assert_allclose(ratio, direct, rtol=1e-8)

    @given(seed=st.integers(0, 10_000), log_b=st.floats(0.0, 8.0))
    def test_within_the_bound_at_every_scale(self, seed, log_b):
        x, y = self._context(seed, n=12, s=0.4)
        for labels in (y, np.zeros_like(y)):
            if labels.any() and labels.sum() < 2:
                continue
            b = np.array([10.0**log_b])
            a = b + 2 * np.log(b)
            ratio = head.limit_ratio(a, b, x, labels)
            _, bound, _ = head.hard_limit_expansion(a, b, x, labels)
            assert np.isfinite(ratio[0])
            assert abs(ratio[0] - 1) <= bound[0] * (1 + 1e-9) + 1e-12

    def test_hand_example(self):
        # x1 = 0.2, x2 = 0.5 (positives), one negative at 0.1; b = 2, a = 3
        x, y, a, b = np.array([0.1, 0.2, 0.5]), np.array([0.0, 1.0, 1.0]), 3.0, 2.0
        w = special.softmax(a * y - b * x)
        expected = (w @ x - 0.2) / (0.3 * np.exp(-b * 0.3))
        assert head.limit_ratio([a], [b], x, y)[0] == pytest.approx(expected, rel=1e-13)

    def test_no_underflow_at_huge_scales(self):
        x, y = self._context(3)
        b = np.array([1e6, 1e9, 1e12])
        ratio = head.limit_ratio(b + 2 * np.log(b), b, x, y)
        np.testing.assert_allclose(ratio, 1.0, rtol=0, atol=1e-12)

    @pytest.mark.parametrize(
        "kwargs, match",
        [
            ({"x": [0.2, 0.2, 0.7], "y": [1.0, 1.0, 1.0]}, "^x"),
            ({"x": [0.2, 0.7], "y": [0.0, 1.0]}, "^x, y"),
            ({"x": np.ones((2, 3)) / 2, "y": np.ones((2, 3))}, "^x"),
            ({"a": [[1.0]], "b": [[1.0]]}, "^a"),
            ({"a": [1.0, 2.0], "b": [1.0]}, "^a"),
        ],
    )
    def test_bad_inputs(self, kwargs, match):
        args = dict(a=[1.0], b=[1.0], x=[0.1, 0.3, 0.7], y=[0.0, 1.0, 1.0]) | kwargs
        with pytest.raises(ValueError, match=match):
            head.limit_ratio(**args)

    def test_tied_gap_is_an_error_in_the_expansion_too(self):
        with pytest.raises(ValueError, match="^x"):
            head.hard_limit_expansion([1.0], [1.0], [0.2, 0.2, 0.7], [1.0, 1.0, 1.0])


def test_contexts_blocks_cover_every_row_and_empty_class():
    # Small blocks force many block boundaries, with empty classes at block ends.
    rng = np.random.default_rng(12)
    x = rng.random((37, 9))
    s = rng.random(37)
    s[[0, 8, 9, 17, 36]] = 1.0  # no positive example
    s[[1, 7, 18, 35]] = 0.0  # no negative example
    y = tasks.labels(x, s)
    reference = head.Contexts(x, y).summaries(3.0, 7.0)
    for block in (1, 9, 10, 27, 1000):
        prepared = head.Contexts(x, y)
        prepared.BLOCK = block
        got = prepared.summaries(3.0, 7.0)
        for g, r in zip(got, reference):
            np.testing.assert_array_equal(g, r)
    w = special.softmax(3.0 * y - 7.0 * x, axis=-1)
    np.testing.assert_allclose(reference[0], (w * x).sum(-1), rtol=1e-12)


def test_distance_to_limit_is_the_naive_distance():
    a, b = np.array([1.0, 50.0]), np.array([2.0, 40.0])
    naive = [
        abs(special.softmax(a_ * HAND_Y - b_ * HAND_X) @ HAND_X - 0.58)
        for a_, b_ in zip(a, b)
    ]
    # s_hat is accurate to a few eps absolutely; the difference s_hat - 0.58 is not
    # relatively
    np.testing.assert_allclose(
        head.distance_to_limit(a, b, HAND_X, HAND_Y), naive, atol=4e-16
    )


def test_distance_to_limit_wants_one_context():
    with pytest.raises(ValueError, match="one context"):
        head.distance_to_limit(1.0, 1.0, np.ones((2, 3)) / 2, np.ones((2, 3)))


def test_limit_decay_measures_the_gap_within_its_bound():
    x, y = [0.1, 0.4, 0.6, 0.65, 0.9], [0, 0, 1, 1, 1]
    b = np.array([60.0, 160.0])
    rate, bound = head.limit_decay(b + 2 * np.log(b), b, x, y)
    assert abs(rate - 0.05) <= bound < 0.05 * 0.05
    # the next spacing (0.25) is far outside: a wrong leading term fails
    assert abs(rate - 0.25) > 100 * bound
    # where the bound is not below 1 (small scales), the tolerance is infinite
    small = np.array([1.0, 2.0])
    assert head.limit_decay(small, small, x, y)[1] == np.inf


@pytest.mark.parametrize(
    "a, b", [([1.0], [2.0]), ([1.0, 2.0], [3.0, 3.0]), ([1.0, 2.0], [4.0, 3.0])]
)
def test_limit_decay_needs_two_growing_scales(a, b):
    with pytest.raises(ValueError, match="a and b must be two points"):
        head.limit_decay(a, b, [0.1, 0.4, 0.6, 0.9], [0, 0, 1, 1])
