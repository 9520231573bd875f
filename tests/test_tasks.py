"""Tests for stumplib.tasks.

Priors, feature laws, context sampling and the mirror map.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import stats

from stumplib import tasks


class TestUniform:
    def test_defaults_and_support(self):
        u = tasks.Uniform()
        assert (u.lo, u.hi) == (0.0, 1.0) and u.support == (0.0, 1.0)

    def test_density_and_cdf(self):
        u = tasks.Uniform(0.1, 0.9)
        s = np.array([0.0, 0.1, 0.5, 0.9, 0.95])
        np.testing.assert_allclose(u.density(s), [0, 1.25, 1.25, 1.25, 0], rtol=1e-15)
        np.testing.assert_allclose(u.cdf(s), [0, 0, 0.5, 1, 1], rtol=1e-15, atol=1e-16)

    def test_sample_range_and_moments(self):
        draws = tasks.Uniform(0.2, 0.6).sample(200_000, 0)
        assert draws.min() >= 0.2 and draws.max() < 0.6
        # mean 0.4, sd 0.4/sqrt(12) = 0.115; 5 standard errors of the mean = 1.3e-3
        assert abs(draws.mean() - 0.4) < 5 * 0.4 / np.sqrt(12) / np.sqrt(draws.size)

    @pytest.mark.parametrize(
        "lo, hi", [(0.5, 0.2), (0.3, 0.3), (-0.1, 0.5), (0.2, 1.1)]
    )
    def test_bad_bounds(self, lo, hi):
        with pytest.raises(ValueError, match="lo and hi need 0 <= lo < hi <= 1"):
            tasks.Uniform(lo, hi)

    @pytest.mark.parametrize("lo, hi, name", [(np.nan, 0.5, "lo"), (0.1, np.inf, "hi")])
    def test_nonfinite_bounds(self, lo, hi, name):
        with pytest.raises(ValueError, match=f"^{name} must be finite"):
            tasks.Uniform(lo, hi)

    def test_equality_used_by_population(self):
        # population treats Uniform(0, 1) features as the closed-form case via ==.
        assert tasks.Uniform(0, 1) == tasks.Uniform()
        assert tasks.Uniform(0, 0.5) != tasks.Uniform()


class TestBeta:
    @pytest.mark.parametrize(
        "alpha, beta", [(2.0, 3.0), (0.5, 0.5), (1.0, 1.0), (5.0, 1.5)]
    )
    def test_density_matches_scipy(self, alpha, beta):
        s = np.linspace(0.01, 0.99, 99)
        np.testing.assert_allclose(
            tasks.Beta(alpha, beta).density(s),
            stats.beta.pdf(s, alpha, beta),
            rtol=1e-12,
        )

    def test_cdf_matches_scipy(self):
        s = np.linspace(0, 1, 11)
        np.testing.assert_allclose(
            tasks.Beta(2, 3).cdf(s), stats.beta.cdf(s, 2, 3), rtol=1e-14
        )

    def test_density_uses_exact_q_near_one(self):
        # Beta(2, 3) density 12 s (1-s)^2; s = 1 - 1e-20 rounds to 1.0 but q carries it.
        q = np.array([1e-20, 1e-10])
        np.testing.assert_allclose(
            tasks.Beta(2, 3).density(1.0 - q, q), 12 * (1 - q) * q**2, rtol=1e-12
        )

    def test_density_zero_outside(self):
        np.testing.assert_array_equal(tasks.Beta(2, 3).density([-0.1, 1.1]), [0.0, 0.0])

    def test_sample_moments(self):
        draws = tasks.Beta(2, 3).sample(200_000, 1)
        assert draws.min() >= 0 and draws.max() <= 1
        sd = np.sqrt(2 * 3 / (5**2 * 6))
        assert abs(draws.mean() - 0.4) < 5 * sd / np.sqrt(draws.size)

    @pytest.mark.parametrize(
        "alpha, beta, name", [(0, 1, "alpha"), (1, -2, "beta"), (np.nan, 1, "alpha")]
    )
    def test_bad_parameters(self, alpha, beta, name):
        with pytest.raises(ValueError, match=f"^{name} must be"):
            tasks.Beta(alpha, beta)


class TestFixed:
    def test_sample_and_support(self):
        f = tasks.Fixed(0.3)
        np.testing.assert_array_equal(f.sample(4, 123), np.full(4, 0.3))
        assert f.support == (0.3, 0.3)

    @pytest.mark.parametrize("bad", [-0.1, 1.5])
    def test_out_of_range(self, bad):
        with pytest.raises(ValueError, match=r"^s must lie in \[0, 1\]"):
            tasks.Fixed(bad)

    def test_nan(self):
        with pytest.raises(ValueError, match="^s must be finite"):
            tasks.Fixed(np.nan)

    def test_contexts_with_fixed_threshold(self):
        x, y, s = tasks.sample_contexts(50, 8, tasks.Fixed(0.25), rng=3)
        np.testing.assert_array_equal(s, 0.25)
        np.testing.assert_array_equal(y, x > 0.25)


class TestLabels:
    def test_hand_example(self):
        x = np.array([[0.1, 0.5, 0.9], [0.1, 0.5, 0.9]])
        np.testing.assert_array_equal(
            tasks.labels(x, np.array([0.5, 0.05])), [[0, 0, 1], [1, 1, 1]]
        )

    def test_bad_inputs(self):
        with pytest.raises(ValueError, match=r"^x must lie in \[0, 1\]"):
            tasks.labels([[1.2]], [0.5])
        with pytest.raises(ValueError, match=r"^s must lie in \[0, 1\]"):
            tasks.labels([[0.2]], [-0.5])
        with pytest.raises(ValueError, match="^s must be finite"):
            tasks.labels([[0.2]], [np.nan])


class TestSampleContexts:
    @pytest.mark.parametrize(
        "prior, features",
        [
            (tasks.Uniform(), tasks.Uniform()),
            (tasks.Uniform(0.1, 0.9), tasks.Beta(2, 3)),
            (tasks.Beta(2, 2), tasks.Uniform(0.2, 0.7)),
        ],
    )
    def test_shapes_and_consistency(self, prior, features):
        x, y, s = tasks.sample_contexts(40, 13, prior, features, rng=0)
        assert x.shape == y.shape == (40, 13) and s.shape == (40,)
        lo, hi = prior.support
        assert np.all((s >= lo) & (s <= hi))
        flo, fhi = features.support
        assert np.all((x >= flo) & (x <= fhi))
        np.testing.assert_array_equal(y, (x > s[:, None]).astype(float))
        assert set(np.unique(y)) <= {0.0, 1.0}

    def test_determinism_from_seed_and_generator(self):
        first = tasks.sample_contexts(5, 6, rng=42)
        again = tasks.sample_contexts(5, 6, rng=42)
        via_gen = tasks.sample_contexts(5, 6, rng=np.random.default_rng(42))
        other = tasks.sample_contexts(5, 6, rng=43)
        for u, v, w in zip(first, again, via_gen):
            np.testing.assert_array_equal(u, v)
            np.testing.assert_array_equal(u, w)
        assert not np.array_equal(first[0], other[0])

    def test_generator_advances(self):
        rng = np.random.default_rng(0)
        a = tasks.sample_contexts(3, 4, rng=rng)[0]
        b = tasks.sample_contexts(3, 4, rng=rng)[0]
        assert not np.array_equal(a, b)

    def test_label_frequency(self):
        # P(y = 1) = E(1 - s) = 1/2 under U[0, 1] prior and features. Task-level
        # variation dominates: sd of the mean ~ sqrt(Var(s) / m) = sqrt(1/12/1000) =
        # 0.009; bound = 4 sd.
        _, y, _ = tasks.sample_contexts(1000, 100, rng=7)
        assert abs(y.mean() - 0.5) < 0.037

    @pytest.mark.parametrize(
        "m, n, name",
        [(2.5, 3, "m"), (3, 0, "n"), (3, 1.5, "n"), (0, 3, "m"), (True, 3, "m")],
    )
    def test_bad_counts(self, m, n, name):
        with pytest.raises(ValueError, match=f"^{name} must be an integer"):
            tasks.sample_contexts(m, n, rng=0)

    @pytest.mark.parametrize(
        "m, n, name", [("4", 3, "m"), (3, None, "n"), (3 + 0j, 3, "m")]
    )
    def test_counts_of_wrong_type(self, m, n, name):
        with pytest.raises(TypeError, match=f"^{name} must be an integer"):
            tasks.sample_contexts(m, n, rng=0)


contexts = st.integers(1, 6).flatmap(
    lambda n: st.tuples(
        hnp.arrays(float, (3, n), elements=st.floats(0, 1)),
        hnp.arrays(float, (3, n), elements=st.sampled_from([0.0, 1.0])),
        hnp.arrays(float, (3,), elements=st.floats(0, 1)),
    )
)


class TestMirror:
    @given(contexts)
    def test_involution_and_values(self, ctx):
        x, y, s = ctx
        mx, my, ms = tasks.mirror(x, y, s)
        np.testing.assert_array_equal(mx, 1 - x)
        np.testing.assert_array_equal(my, 1 - y)
        np.testing.assert_array_equal(ms, 1 - s)
        back = tasks.mirror(mx, my)
        np.testing.assert_allclose(
            back[0], x, atol=1e-16
        )  # 1 - (1 - x) rounds by <= eps/2
        np.testing.assert_array_equal(back[1], y)

    def test_mirror_of_consistent_labels(self):
        # y = 1{x > s}  becomes  y' = 1{x' < s'}: positives turn into negatives.
        x, y, s = tasks.sample_contexts(20, 9, rng=5)
        mx, my, ms = tasks.mirror(x, y, s)
        np.testing.assert_array_equal(my, (mx >= ms[:, None]).astype(float))

    def test_bad_inputs(self):
        with pytest.raises(ValueError, match="same shape"):
            tasks.mirror([0.1, 0.2], [1])
        with pytest.raises(ValueError, match=r"^s must lie in \[0, 1\]"):
            tasks.mirror([0.1], [1], 2.0)
