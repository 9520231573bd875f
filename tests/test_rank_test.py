"""Tests for stumplib.rank_test: the exact stratified rank-sum test."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from stumplib import rank_test


def brute_force(first, second):
    """The stratified test by enumerating every split of every stratum."""
    pooled = [np.concatenate([x, y]) for x, y in zip(first, second)]
    ranks = [stats.rankdata(v) for v in pooled]
    splits = [
        [r[list(c)].sum() for c in itertools.combinations(range(r.size), len(x))]
        for r, x in zip(ranks, first)
    ]
    mean = sum(len(x) * (r.size + 1) / 2 for r, x in zip(ranks, first))
    observed = sum(r[: len(x)].sum() for r, x in zip(ranks, first)) - mean
    totals = np.array([sum(t) for t in itertools.product(*splits)]) - mean
    return observed, np.mean(np.abs(totals) >= abs(observed) - 1e-9)


def test_one_stratum_without_ties_is_the_exact_mann_whitney_test():
    rng = np.random.default_rng(1)
    for n1, n2 in ((3, 4), (6, 6), (8, 5), (16, 16)):
        x, y = rng.normal(size=n1), rng.normal(0.8, size=n2)
        test = rank_test.stratified_rank_sum([x], [y])
        exact = stats.mannwhitneyu(x, y, method="exact")
        assert test.p_value == pytest.approx(exact.pvalue, rel=1e-12)
        assert test.statistic == pytest.approx(exact.statistic - n1 * n2 / 2)
        assert test.z == pytest.approx(stats.norm.isf(exact.pvalue / 2))


def test_ties_and_strata_match_the_enumeration_of_every_split():
    first = [[1.0, 3.0, 3.0, 7.0], [2.0, 2.0, 5.0]]
    second = [[3.0, 4.0, 9.0, 9.0, 9.0], [2.0, 6.0, 8.0]]
    test = rank_test.stratified_rank_sum(first, second)
    observed, p = brute_force(first, second)
    assert test.statistic == pytest.approx(observed)
    assert test.p_value == pytest.approx(p, rel=1e-12)


def test_smallest_p_value_of_completely_separated_strata():
    # 6 against 6, three strata, the first draw below in each: one split in 924 per
    # stratum, and its mirror image, 2 / 924**3 in all
    low, high = [np.arange(6.0)] * 3, [np.arange(6.0, 12.0)] * 3
    test = rank_test.stratified_rank_sum(low, high)
    assert test.p_value == pytest.approx(2 / 924**3, rel=1e-9)
    assert test.statistic == -3 * 18
    assert test.z > 5


def test_a_common_stop_is_a_tie_and_identical_draws_have_p_one():
    stop = [[2.0, 4.0, 6.0, 6.0], [1.0, 6.0, 6.0]]
    assert rank_test.stratified_rank_sum(stop, stop).p_value == 1.0
    assert rank_test.stratified_rank_sum(stop, stop).z == 0.0


def test_doctest_value():
    test = rank_test.stratified_rank_sum([[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]])
    assert test.p_value == pytest.approx(0.1)  # 2 of the 20 splits
    assert test.statistic == -4.5


samples = st.lists(
    st.integers(0, 5).map(float), min_size=1, max_size=5
)  # small integers: many ties


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(samples, samples), min_size=1, max_size=2))
def test_property_agrees_with_enumeration_and_is_symmetric(strata):
    first = [x for x, _ in strata]
    second = [y for _, y in strata]
    test = rank_test.stratified_rank_sum(first, second)
    observed, p = brute_force(first, second)
    assert 0 < test.p_value <= 1
    assert test.p_value == pytest.approx(p, rel=1e-9)
    assert test.statistic == pytest.approx(observed)
    swapped = rank_test.stratified_rank_sum(second, first)
    assert swapped.p_value == pytest.approx(test.p_value, rel=1e-9)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3), min_size=2, max_size=8), st.integers(1, 7))
def test_property_invariant_under_a_monotone_transform(values, split):
    split = min(split, len(values) - 1)
    x, y = values[:split], values[split:]
    plain = rank_test.stratified_rank_sum([x], [y])
    moved = rank_test.stratified_rank_sum([np.arctan(x)], [np.arctan(y)])
    if np.unique(np.arctan(values)).size == np.unique(values).size:
        assert moved.p_value == pytest.approx(plain.p_value, rel=1e-12)


@pytest.mark.parametrize(
    ("first", "second", "error", "match"),
    [
        ([[1.0]], [[1.0], [2.0]], ValueError, "as many strata"),
        ([], [], ValueError, "first must hold at least one stratum"),
        ([[]], [[1.0]], ValueError, r"first\[0\] must be a non-empty 1-D sample"),
        ([[1.0]], [[[1.0, 2.0]]], ValueError, r"second\[0\] must be a non-empty 1-D"),
        ([[1.0, np.nan]], [[1.0]], ValueError, r"first\[0\] must be finite"),
        ([["a"]], [[1.0]], TypeError, r"first\[0\] must hold real numbers"),
        (None, [[1.0]], TypeError, "first must be a sequence of samples"),
        ("ab", [[1.0]], TypeError, "first must be a sequence of samples"),
        ([[1.0]], 3.0, TypeError, "second must be a sequence of samples"),
    ],
)
def test_bad_inputs_name_the_argument(first, second, error, match):
    with pytest.raises(error, match=match):
        rank_test.stratified_rank_sum(first, second)


def test_many_values_against_one_count_the_smaller_sample():
    # 3000 values against 1: the splits are counted by the single value's rank (it
    # once tried to count subsets of 3000), exactly: rank r of 3001 has p = P(|R - 1501|
    # >= |r - 1501|)
    x = np.arange(3000.0)
    for value, rank in ((-1.0, 1), (1000.5, 1002), (5000.0, 3001)):
        test = rank_test.stratified_rank_sum([x], [[value]])
        swapped = rank_test.stratified_rank_sum([[value]], [x])
        assert test.exact and swapped.exact
        expected = np.mean(np.abs(np.arange(1, 3002) - 1501) >= abs(rank - 1501))
        assert test.p_value == pytest.approx(expected, rel=1e-12)
        assert swapped.p_value == pytest.approx(expected, rel=1e-12)
        assert swapped.statistic == -test.statistic == rank - 1501


def test_the_normal_approximation_has_the_exact_laws_mean_and_variance(monkeypatch):
    # with ties, two strata: the normal approximation's z is the observed deviation over
    # the standard deviation of the exact law, that law enumerated split by split
    first = [[1.0, 3.0, 3.0, 7.0], [2.0, 2.0, 5.0]]
    second = [[3.0, 4.0, 9.0, 9.0, 9.0], [2.0, 6.0, 8.0]]
    pooled = [stats.rankdata(np.concatenate([x, y])) for x, y in zip(first, second)]
    splits = [
        [r[list(c)].sum() for c in itertools.combinations(range(r.size), len(x))]
        for r, x in zip(pooled, first)
    ]
    totals = np.array([sum(t) for t in itertools.product(*splits)])
    exact = rank_test.stratified_rank_sum(first, second)
    monkeypatch.setattr(rank_test, "EXACT_WORK", 0)
    normal = rank_test.stratified_rank_sum(first, second)
    assert exact.exact and not normal.exact
    assert normal.statistic == exact.statistic
    assert totals.mean() - exact.statistic == pytest.approx(
        sum(r[: len(x)].sum() for r, x in zip(pooled, first)) - 2 * exact.statistic
    )
    assert normal.z == pytest.approx(abs(exact.statistic) / totals.std(), rel=1e-12)
    assert normal.p_value == pytest.approx(2 * stats.norm.sf(normal.z), rel=1e-12)


def test_large_samples_use_the_normal_approximation():
    # 200 against 200 (once 26 s, its cost growing like n^4) is past the exact cost: the
    # Mann-Whitney normal approximation without continuity correction
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=200), rng.normal(0.3, size=200)
    test = rank_test.stratified_rank_sum([a], [b])
    assert not test.exact
    mw = stats.mannwhitneyu(a, b, method="asymptotic", use_continuity=False)
    assert test.p_value == pytest.approx(mw.pvalue, rel=1e-9)
    assert test.statistic == pytest.approx(mw.statistic - 200 * 200 / 2)


def test_exact_and_normal_p_values_agree_better_as_samples_grow(monkeypatch):
    # where both apply: the largest gap between the exact and the normal p-value over
    # every split (k against k, no ties) shrinks as k doubles (the rank sum's normal
    # limit)
    gaps = []
    for k in (6, 12, 24):
        pooled = np.arange(2.0 * k)
        gap = 0.0
        for shift in range(k * k // 2 + 1):
            x = _sample_with_rank_excess(pooled, k, shift)
            y = np.setdiff1d(pooled, x)
            monkeypatch.setattr(rank_test, "EXACT_WORK", 10**8)
            exact = rank_test.stratified_rank_sum([x], [y])
            monkeypatch.setattr(rank_test, "EXACT_WORK", 0)
            normal = rank_test.stratified_rank_sum([x], [y])
            gap = max(gap, abs(exact.p_value - normal.p_value))
        gaps.append(gap)
    assert gaps[0] > gaps[1] > gaps[2]


def _sample_with_rank_excess(pooled, k, excess):
    """``k`` of ``pooled`` (ranks 1..2k), rank sum ``k (k + 1) / 2 + excess``.

    The largest ranks move up first, each by at most ``k``: the ranks stay distinct.
    """
    ranks = list(range(1, k + 1))
    for i in reversed(range(k)):  # move the largest ranks up first
        step = min(excess, k)
        ranks[i] += step
        excess -= step
    return pooled[np.array(ranks) - 1]
