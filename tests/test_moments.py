"""Tests for stumplib.moments against mpmath (50 digits) and direct moment sums.

Reference formulas, for the law with density proportional to exp(-t u) on u in [0, 1]:
``phi(t) = (1 - e^{-t}) / t`` (mass), mean ``1/t - 1/expm1(t)``, variance
``1/t^2 - 1/(4 sinh^2(t/2))``.
"""

import warnings

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stumplib import moments

mp.mp.dps = 50


def _ref(fn):
    return np.vectorize(lambda t: float(fn(mp.mpf(float(t)))), otypes=[float])


ref_mean = _ref(lambda t: mp.mpf(1) / 2 if t == 0 else 1 / t - 1 / mp.expm1(t))
ref_var = _ref(
    lambda t: mp.mpf(1) / 12 if t == 0 else 1 / t**2 - 1 / (4 * mp.sinh(t / 2) ** 2)
)
ref_log_phi = _ref(lambda t: mp.mpf(0) if t == 0 else mp.log(-mp.expm1(-t) / t))


def _grid():
    """|t| from 1e-12 to 800, both signs, plus both sides of the series switch
    points."""
    mag = np.geomspace(1e-12, 800, 400)
    switches = []
    for point in (moments._SMALL_MEAN, moments._SMALL_VAR):
        switches += [
            point,
            np.nextafter(point, 0),
            np.nextafter(point, 1),
            point * (1 - 1e-9),
            point * (1 + 1e-9),
            0.5 * point,
            2 * point,
        ]
    mag = np.concatenate([mag, switches, [1.0, 10.0, 100.0, 700.0, 800.0]])
    return np.concatenate([mag, -mag, [0.0]])


T = _grid()


def test_switch_points_are_the_documented_ones():
    # The grid above straddles these; if they move, the grid follows automatically.
    assert (moments._SMALL_MEAN, moments._SMALL_VAR) == (1e-2, 1e-1)


def test_mean_fraction_vs_mpmath():
    # Worst case is just above the series switch 1e-2, where 1/t - 1/expm1(t) cancels
    # (1/t ~ 100 vs result 0.5: ~200 eps = 4e-14); 1e-13 leaves a margin of ~2.5.
    np.testing.assert_allclose(
        moments.mean_fraction(T), ref_mean(T), rtol=1e-13, atol=0
    )


def test_variance_fraction_vs_mpmath():
    # Just above the switch 0.1, 1/t^2 = 100 cancels down to 1/12: a condition number of
    # 1200, i.e. ~1200 eps = 2.7e-13 is the inherent error of the closed form there
    # (measured: 2.1e-13). Elsewhere the error is ~1e-15.
    rel = np.abs(moments._variance_fraction(T) / ref_var(T) - 1)
    assert rel.max() < 4e-13
    far = np.abs(T) > 1.0
    assert rel[far].max() < 1e-14
    below = np.abs(T) < moments._SMALL_VAR  # series branch
    assert rel[below].max() < 1e-15


def test_log_phi_vs_mpmath():
    # log_phi is a log mass: its absolute error is the relative error of the mass phi,
    # which is what enters the softmax. Near t = 0 the value is ~ -t/2, and the closed
    # form log(-expm1(-t)) - log(t) loses relative (not absolute) accuracy there, so the
    # check is absolute for |value| <= 1 and relative (1e-15) for large |t|.
    ref = ref_log_phi(T)
    err = np.abs(moments._log_phi(T) - ref)
    assert np.all(err <= 1e-14 * np.maximum(1.0, np.abs(ref)))
    # phi itself, to 1e-13 relative, where it is representable
    ok = ref < 700
    np.testing.assert_allclose(
        np.exp(moments._log_phi(T[ok])), np.exp(ref[ok]), rtol=1e-13
    )


def test_exact_zero():
    assert moments.mean_fraction(0.0) == 0.5
    assert moments._variance_fraction(0.0) == 1 / 12
    assert moments._log_phi(0.0) == 0.0


@pytest.mark.parametrize("t", [-800.0, -50.0, -1.0, -1e-3, 1e-3, 1.0, 50.0, 800.0])
def test_against_direct_sums(t):
    """Moments of exp(-t u) by a fine Gauss-Legendre sum.

    Independent of the closed forms.
    """
    u, w = np.polynomial.legendre.leggauss(200)
    # split [0, 1] into graded panels toward the heavy end so the exponential is
    # resolved
    edges = np.unique(
        np.concatenate(
            [np.geomspace(1e-6, 1, 60), 1 - np.geomspace(1e-6, 1, 60), [0, 1]]
        )
    )
    nodes = (edges[:-1, None] + 0.5 * np.diff(edges)[:, None] * (u + 1)).ravel()
    weights = (0.5 * np.diff(edges)[:, None] * w).ravel()
    logw = -t * nodes
    top = logw.max()
    f = weights * np.exp(logw - top)
    mass = f.sum()
    mean = (f * nodes).sum() / mass
    var = (f * (nodes - mean) ** 2).sum() / mass
    assert moments._log_phi(t) == pytest.approx(
        top + np.log(mass), rel=1e-12, abs=1e-12
    )
    assert moments.mean_fraction(t) == pytest.approx(mean, rel=1e-11)
    assert moments._variance_fraction(t) == pytest.approx(var, rel=1e-9)


def test_no_warnings_or_nonfinite_at_extremes():
    # The population head calls these with t = +-b*s, |b| <= 1e6 in scope; 1e12 leaves
    # margin. (Far beyond, |t| > ~1e61, the unused series branch overflows in t**5: out
    # of scope.)
    t = np.array([-1e12, -1e6, -800.0, -1e-300, 0.0, 5e-324, 1e-300, 800.0, 1e6, 1e12])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for fn in (
            moments.mean_fraction,
            moments._variance_fraction,
            moments._log_phi,
        ):
            assert np.all(np.isfinite(fn(t)))
    # limits: mean -> 1/t (t -> inf), 1 - 1/|t| (t -> -inf); variance -> 1/t^2
    assert moments.mean_fraction(1e6) == pytest.approx(1e-6, rel=1e-15)
    assert moments.mean_fraction(-1e6) == pytest.approx(1 - 1e-6, rel=1e-15)
    assert moments._variance_fraction(1e6) == pytest.approx(1e-12, rel=1e-15)


@given(st.floats(-700, 700))
def test_reflection_identities(t):
    """u -> 1 - u maps exp(-t u) to exp(-(-t) u): mean(-t) = 1 - mean(t), var(-t) =
    var(t), and log_phi(-t) = log_phi(t) + t."""
    assert moments.mean_fraction(-t) == pytest.approx(
        1 - moments.mean_fraction(t), abs=2e-15
    )
    assert moments._variance_fraction(-t) == pytest.approx(
        moments._variance_fraction(t), rel=1e-15, abs=0
    )
    assert moments._log_phi(-t) == pytest.approx(
        moments._log_phi(t) + t, abs=1e-13 * max(1, abs(t))
    )


@given(st.floats(-700, 700), st.floats(-700, 700))
def test_monotone_and_bounded(t1, t2):
    """The mean of exp(-t u) on [0, 1] decreases in t and lies in (0, 1).

    The variance <= 1/12.
    """
    lo, hi = min(t1, t2), max(t1, t2)
    assert moments.mean_fraction(hi) <= moments.mean_fraction(lo) + 1e-15
    assert 0 < moments.mean_fraction(t1) < 1
    assert 0 < moments._variance_fraction(t1) <= 1 / 12 * (1 + 1e-15)


class TestTruncatedExponential:
    @pytest.mark.parametrize(
        "rate, length, shift",
        [(3.0, 0.4, 0.0), (-20.0, 0.7, 1.5), (0.0, 0.25, -2.0), (1e5, 0.3, 7.0)],
    )
    def test_vs_mpmath_quadrature(self, rate, length, shift):
        r, L, c = mp.mpf(rate), mp.mpf(length), mp.mpf(shift)
        f = lambda u, k: u**k * mp.exp(c - r * u)
        pts = [0, min(L, 1 / max(abs(r), 1)), L] if abs(rate) > 1 else [0, L]
        m0, m1, m2 = (mp.quad(lambda u, k=k: f(u, k), pts) for k in range(3))
        mean = m1 / m0
        log_mass, got_mean, got_var = moments.truncated_exponential(rate, length, shift)
        assert float(log_mass) == pytest.approx(float(mp.log(m0)), rel=1e-13, abs=1e-13)
        assert float(got_mean) == pytest.approx(float(mean), rel=1e-12)
        assert float(got_var) == pytest.approx(float(m2 / m0 - mean**2), rel=1e-10)

    def test_zero_length(self):
        log_mass, mean, var = moments.truncated_exponential(5.0, 0.0)
        assert log_mass == -np.inf and mean == 0 and var == 0


class TestCombine:
    def test_matches_explicit_two_point_mixture(self):
        # Two classes: negatives at x=0.2 (weight 1), positives at x=0.7 (weight e^1)
        neg = (np.array(0.0), np.array(0.2), np.array(0.0))
        pos = (np.array(1.0), np.array(0.7), np.array(0.0))
        offset, d_a, d_b = moments.combine(neg, pos)
        p = np.exp(1) / (1 + np.exp(1))
        assert offset == pytest.approx((1 - p) * 0.2 + p * 0.7, rel=1e-15)
        assert d_a == pytest.approx(p * (1 - p) * 0.5, rel=1e-14)
        assert d_b == pytest.approx(-p * (1 - p) * 0.25, rel=1e-14)

    def test_adds_within_class_variance(self):
        neg = (np.array(np.log(2.0)), np.array(-0.1), np.array(0.03))
        pos = (np.array(np.log(6.0)), np.array(0.4), np.array(0.01))
        offset, d_a, d_b = moments.combine(neg, pos)
        pn, pp = 0.25, 0.75
        assert offset == pytest.approx(pn * -0.1 + pp * 0.4, rel=1e-14)
        assert d_a == pytest.approx(pn * pp * 0.5, rel=1e-14)
        assert d_b == pytest.approx(
            -(pn * 0.03 + pp * 0.01 + pn * pp * 0.25), rel=1e-14
        )

    @pytest.mark.parametrize("empty", ["neg", "pos"])
    def test_empty_class_ignores_its_garbage(self, empty):
        full = (np.array(3.0), np.array(0.4), np.array(0.02))
        void = (np.array(-np.inf), np.array(np.nan), np.array(np.inf))
        neg, pos = (void, full) if empty == "neg" else (full, void)
        offset, d_a, d_b = moments.combine(neg, pos)
        assert (offset, d_a, d_b) == (0.4, 0.0, -0.02)
