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
