"""Tests for stumplib.frozen: frozen heads and reference rules on shared fresh contexts."""

import numpy as np
import pytest

from stumplib import baselines, frozen, head, tasks


def test_reference_values_against_direct_computation():
    out = frozen.fresh_errors(
        [5.0, 50.0], [10.0, 40.0], [20, 50], tasks.Fixed(0.5), contexts=300, rng=3
    )
    rng = np.random.default_rng(3)
    for j, size in enumerate((20, 50)):
        x, y, s = tasks.sample_contexts(300, size, tasks.Fixed(0.5), rng=rng)
        for i, (a, b) in enumerate(((5.0, 10.0), (50.0, 40.0))):
            sq = (head.estimate(a, b, x, y) - s) ** 2
            assert out["head"][0][i, j] == pytest.approx(np.sqrt(sq.mean()), rel=1e-10)
            se = sq.std(ddof=1) / np.sqrt(300) / (2 * np.sqrt(sq.mean()))
            assert out["head"][1][i, j] == pytest.approx(se, rel=1e-10)
        mid = (baselines.midpoint(x, y) - s) ** 2
        assert out["midpoint"][0][j] == pytest.approx(np.sqrt(mid.mean()), rel=1e-10)
    assert set(out) == {"head", "nearest positive", "midpoint"}
    assert out["head"][0].shape == (2, 2)


def test_nearest_positive_rate_matches_exact_risk():
    # P(R - s > t) = (1 - t)^N for t < 1 - s, so E (R - s)^2 = 2/((N+1)(N+2)) up to O(s^N)
    n = 200
    out = frozen.fresh_errors([1.0], [1.0], [n], tasks.Fixed(0.3), contexts=20000, rng=1)
    rms, se = out["nearest positive"]
    exact = np.sqrt(2 / ((n + 1) * (n + 2)) - 2 * 0.7 ** (n + 1) / (n + 1))  # tail term negligible
    assert abs(rms[0] - exact) < 4 * se[0]


def test_large_scale_calibrated_head_is_nearest_positive():
    n = 100
    b = 1e5
    out = frozen.fresh_errors([b + 3 * np.log(b)], [b], [n], tasks.Fixed(0.4), contexts=500, rng=2)
    np.testing.assert_allclose(out["head"][0][0], out["nearest positive"][0], rtol=1e-3)


def test_custom_rules_and_determinism():
    rules = {"zero": lambda x, y: np.zeros(x.shape[0])}
    o1 = frozen.fresh_errors([1.0], [1.0], [5], contexts=50, rng=4, rules=rules)
    o2 = frozen.fresh_errors([1.0], [1.0], [5], contexts=50, rng=4, rules=rules)
    assert set(o1) == {"head", "zero"}
    np.testing.assert_array_equal(o1["head"][0], o2["head"][0])


def test_errors():
    with pytest.raises(ValueError, match="equal length"):
        frozen.fresh_errors([1.0, 2.0], [1.0], [5])
    with pytest.raises(ValueError, match="sizes"):
        frozen.fresh_errors([1.0], [1.0], [0])
    with pytest.raises(ValueError, match="contexts"):
        frozen.fresh_errors([1.0], [1.0], [5], contexts=1)
    with pytest.raises(ValueError, match="b must be finite"):
        frozen.fresh_errors([1.0], [np.inf], [5])


def test_pooled_slope():
    from stumplib.fitting import PowerLaw

    fits = [PowerLaw(-1.0, 0.1, 0.0, 0.1), PowerLaw(-0.5, 0.2, 0.0, 0.1)]
    slope, se = frozen.pooled_slope(fits)
    assert slope == pytest.approx((-1.0 / 0.01 - 0.5 / 0.04) / (1 / 0.01 + 1 / 0.04), rel=1e-14)
    assert se == pytest.approx((1 / 0.01 + 1 / 0.04) ** -0.5, rel=1e-14)
    assert frozen.pooled_slope(iter(fits[:1])) == (-1.0, 0.1)
    with pytest.raises(ValueError, match="fits must not be empty"):
        frozen.pooled_slope([])
    with pytest.raises(ValueError, match="positive slope standard errors"):
        frozen.pooled_slope([PowerLaw(-1.0, 0.0, 0.0, 0.1)])
