"""Tests for stumplib.frozen.

Frozen heads and reference rules on shared fresh contexts.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stumplib import baselines, calibration, fitting, frozen, head, population, tasks


def test_reference_values_against_direct_computation():
    out = frozen.fresh_errors(
        [5.0, 50.0], [10.0, 40.0], [20, 50], tasks.Fixed(0.5), contexts=300, rng=3
    )
    rng = np.random.default_rng(3)
    for j, size in enumerate((20, 50)):
        x, y, s = tasks.sample_contexts(300, size, tasks.Fixed(0.5), rng=rng)
        for i, (a, b) in enumerate(((5.0, 10.0), (50.0, 40.0))):
            sq = (head.estimate(a, b, x, y) - s) ** 2
            assert out.head.rms[i, j] == pytest.approx(np.sqrt(sq.mean()), rel=1e-10)
            se = sq.std(ddof=1) / np.sqrt(300) / (2 * np.sqrt(sq.mean()))
            assert out.head.se[i, j] == pytest.approx(se, rel=1e-10)
        mid = (baselines.midpoint(x, y) - s) ** 2
        assert out.rules["midpoint"].rms[j] == pytest.approx(
            np.sqrt(mid.mean()), rel=1e-10
        )
    assert set(out.rules) == {"nearest positive", "midpoint"}
    assert out.head.rms.shape == (2, 2)


def test_nearest_positive_rate_matches_exact_risk():
    # P(R - s > t) = (1 - t)^N for t < 1 - s, so E (R - s)^2 = 2/((N+1)(N+2)) up to
    # O(s^N)
    n = 200
    out = frozen.fresh_errors(
        [1.0], [1.0], [n], tasks.Fixed(0.3), contexts=20000, rng=1
    )
    rms, se = out.rules["nearest positive"]
    exact = np.sqrt(
        2 / ((n + 1) * (n + 2)) - 2 * 0.7 ** (n + 1) / (n + 1)
    )  # tail term negligible
    assert abs(rms[0] - exact) < 4 * se[0]


def test_large_scale_calibrated_head_is_nearest_positive():
    n = 100
    b = 1e5
    out = frozen.fresh_errors(
        [b + 3 * np.log(b)], [b], [n], tasks.Fixed(0.4), contexts=500, rng=2
    )
    np.testing.assert_allclose(
        out.head.rms[0], out.rules["nearest positive"].rms, rtol=1e-3
    )


def test_custom_rules_and_determinism():
    rules = {"zero": lambda x, y: np.zeros(x.shape[0])}
    o1 = frozen.fresh_errors([1.0], [1.0], [5], contexts=50, rng=4, rules=rules)
    o2 = frozen.fresh_errors([1.0], [1.0], [5], contexts=50, rng=4, rules=rules)
    assert set(o1.rules) == {"zero"}
    np.testing.assert_array_equal(o1.head.rms, o2.head.rms)


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
    assert slope == pytest.approx(
        (-1.0 / 0.01 - 0.5 / 0.04) / (1 / 0.01 + 1 / 0.04), rel=1e-14
    )
    assert se == pytest.approx((1 / 0.01 + 1 / 0.04) ** -0.5, rel=1e-14)
    assert frozen.pooled_slope(iter(fits[:1])) == (-1.0, 0.1)
    with pytest.raises(ValueError, match="fits must not be empty"):
        frozen.pooled_slope([])
    with pytest.raises(ValueError, match="positive slope standard errors"):
        frozen.pooled_slope([PowerLaw(-1.0, 0.0, 0.0, 0.1)])


def test_local_sizes_reference_values():
    sizes = [2, 4, 8, 12, 16, 24, 32, 64]
    mask = frozen.local_sizes(sizes, 50.0, 0.5)  # N <= 25 and 0.5^N <= 1e-3 (N >= 10)
    assert [n for n, keep in zip(sizes, mask) if keep] == [12, 16, 24]
    assert frozen.local_sizes(sizes, 50.0, 0.0).tolist() == [n <= 25 for n in sizes]
    assert not frozen.local_sizes(sizes, 1000.0, 1.0).any()  # s = 1: never a positive


def test_local_sizes_errors_name_the_argument():
    with pytest.raises(ValueError, match="^sizes must be an integer"):
        frozen.local_sizes([0, 4], 10.0, 0.5)
    with pytest.raises(ValueError, match="^b must be positive"):
        frozen.local_sizes([4], 0.0, 0.5)
    with pytest.raises(ValueError, match=r"^s must lie in \[0, 1\]"):
        frozen.local_sizes([4], 10.0, 1.5)
    with pytest.raises(ValueError, match="^edge must be positive"):
        frozen.local_sizes([4], 10.0, 0.5, edge=0.0)


def test_scaled_difference_reference_values():
    # |1.1 / 1 - 1| = 0.1 against 0.05 + 3 (0.011 / 1.1 + 0.02 / 1) = 0.14
    out = frozen.scaled_difference(1.1, 0.011, 1.0, 0.02, 0.05)
    assert float(out) == pytest.approx(0.1 / 0.14, rel=1e-12)
    exact = frozen.scaled_difference([2.0, 2.0], [0.0, 0.0], 2.0, 0.0, 0.0)
    assert exact.tolist() == [0.0, 0.0]  # nothing allowed, and equal
    assert frozen.scaled_difference(2.1, 0.0, 2.0, 0.0, 0.0) == np.inf
    assert frozen.scaled_difference(
        [1.0, 3.0], 0.0, 2.0, 0.0, [0.5, 0.25]
    ).tolist() == [1.0, 2.0]


@given(
    st.floats(0.01, 10.0),
    st.floats(0.01, 10.0),
    st.floats(0.0, 1.0),
    st.floats(0.0, 1.0),
    st.floats(0.001, 1.0),
)
@settings(max_examples=50, deadline=None)
def test_property_scaled_difference_agrees_iff_within_the_allowance(
    v, r, v_se, r_se, allow
):
    out = float(frozen.scaled_difference(v, v_se, r, r_se, allow))
    bound = allow + 3 * (v_se / v + r_se / r)
    assert np.isfinite(out) and out >= 0
    assert (out <= 1) == (abs(v / r - 1) <= bound * (1 + 1e-12)) or abs(out - 1) < 1e-9
    # more allowance never makes agreement worse
    assert float(frozen.scaled_difference(v, v_se, r, r_se, 2 * allow)) <= out


def test_scaled_difference_errors_name_the_argument():
    with pytest.raises(ValueError, match="^value must be positive"):
        frozen.scaled_difference(0.0, 0.1, 1.0, 0.1, 0.1)
    with pytest.raises(ValueError, match="^reference_se must be non-negative"):
        frozen.scaled_difference(1.0, 0.1, 1.0, -0.1, 0.1)
    with pytest.raises(ValueError, match="^allowance must be finite"):
        frozen.scaled_difference(1.0, 0.1, 1.0, 0.1, np.nan)
    with pytest.raises(ValueError, match="^width must be non-negative"):
        frozen.scaled_difference(1.0, 0.1, 1.0, 0.1, 0.1, width=-1.0)
    with pytest.raises(ValueError, match="^value, .* must broadcast"):
        frozen.scaled_difference([1.0, 2.0], 0.1, [1.0, 2.0, 3.0], 0.1, 0.1)


def test_interior_error_reference_values_and_shapes():
    a, b = np.array([11.0, 40.0]), np.array([10.0, 40.0])
    got = frozen.interior_error(a, b)
    want = [
        np.sqrt(
            np.mean(
                [(population.estimate(ai, bi, s) - s) ** 2 for s in (0.3, 0.5, 0.7)]
            )
        )
        for ai, bi in zip(a, b)
    ]
    np.testing.assert_allclose(got, want, rtol=1e-13)
    assert got.shape == (2,) and frozen.interior_error(a[:, None], b).shape == (2, 2)
    # one threshold: the absolute kernel bias there; on the valley at large b about 1/b
    one = frozen.interior_error(40.0, 40.0, [0.5])
    assert one == pytest.approx(
        abs(population.estimate(40.0, 40.0, 0.5) - 0.5), rel=1e-12
    )
    b_big = 400.0
    a_big = float(calibration.a_star(b_big, tasks.Uniform(0.1, 0.9)))
    assert frozen.interior_error(a_big, b_big) * b_big == pytest.approx(1.0, abs=0.01)


def test_interior_error_errors_name_the_argument():
    with pytest.raises(ValueError, match="^thresholds must lie in"):
        frozen.interior_error(1.0, 2.0, [0.5, 1.5])
    with pytest.raises(ValueError, match="^thresholds must be a non-empty 1-D"):
        frozen.interior_error(1.0, 2.0, [])
    with pytest.raises(ValueError, match="^a must be finite"):
        frozen.interior_error(np.nan, 2.0)
    with pytest.raises(
        ValueError,
        match=r"^a and b must broadcast to one shape \(got a \(2,\), b \(3,\)",
    ):
        frozen.interior_error([1.0, 2.0], [1.0, 2.0, 3.0])


def test_excess_tilt_reference_values_and_errors():
    # an excess of e - 1 over one decade: log(e) / log(10)
    assert frozen.excess_tilt(np.e - 1, 1.0) == pytest.approx(1 / np.log(10), rel=1e-15)
    assert frozen.excess_tilt(0.0, 2.0) == 0.0
    # the tilt of a fit: log(1 + e) spread evenly over the window moves the slope so
    # much
    n = np.geomspace(10, 1000, 9)
    excess = 0.3
    ratio = (1 + excess) ** (np.log(n / n[0]) / np.log(n[-1] / n[0]))
    slope = np.polyfit(np.log(n), np.log(ratio), 1)[0]
    assert frozen.excess_tilt(excess, 2.0) == pytest.approx(slope, rel=1e-12)
    with pytest.raises(ValueError, match="^excess must be non-negative"):
        frozen.excess_tilt(-0.1, 1.0)
    with pytest.raises(ValueError, match="^decades must be positive"):
        frozen.excess_tilt(0.1, 0.0)
    with pytest.raises(TypeError, match="^excess"):
        frozen.excess_tilt("0.1", 1.0)


class TestLocalizationRate:
    SIZES = (4, 6, 8, 12, 16, 24, 32, 48, 64)

    def test_pools_the_per_threshold_fits_of_fresh_errors(self):
        got = frozen.localization_rate(
            120.0, 150.0, self.SIZES, (0.3, 0.5), 200, seed=(4, 1)
        )
        fits = {"head": [], "rule": []}
        n = np.array(self.SIZES, float)
        for j, s in enumerate((0.3, 0.5)):
            w = frozen.local_sizes(self.SIZES, 150.0, s)
            np.testing.assert_array_equal(got.windows[s], w)
            out = frozen.fresh_errors(
                [120.0], [150.0], self.SIZES, tasks.Fixed(s), 200, rng=(4, 1, j)
            )
            fits["head"].append(
                fitting.power_law(n[w], out.head.rms[0, w], out.head.se[0, w])
            )
            rule = out.rules["nearest positive"]
            fits["rule"].append(fitting.power_law(n[w], rule.rms[w], rule.se[w]))
        assert got.head == frozen.pooled_slope(fits["head"])
        assert got.rule == frozen.pooled_slope(fits["rule"])
        windows = [n[w] for w in got.windows.values()]
        assert got.decades == pytest.approx(
            min(np.log10(v[-1] / v[0]) for v in windows)
        )
        top = max(v[-1] for v in windows)
        assert got.tilt == pytest.approx(frozen.excess_tilt(top / 150.0, got.decades))
        # a head of large scale localizes like the nearest positive: exponent near -1
        assert got.head.value == pytest.approx(-1.0, abs=0.25)

    def test_a_window_of_fewer_than_three_sizes_is_refused(self):
        with pytest.raises(ValueError, match=r"^sizes must hold three or more sizes"):
            frozen.localization_rate(20.0, 20.0, self.SIZES, (0.5,), 50)
