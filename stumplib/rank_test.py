"""An exact two-sample rank test, stratified by groups: do two draws follow one law.

Two independent draws of the same random experiment (say, a measurement repeated on
corpora from two seeds) give, per stratum (say, a corpus size), two samples of one law.
:func:`stratified_rank_sum` tests that from the ranks alone: within each stratum the
first sample's sum of midranks in the pooled sample (Wilcoxon's rank sum, ties at their
mean rank), summed over strata. Its null law is the permutation law: every split of each
stratum's pooled values into the two samples is equally likely, independently between
strata, which holds exactly when the two samples of a stratum are exchangeable. The law
is computed exactly (counting the splits by their rank sum, then convolving strata), so
the p-value holds at any sample size, with ties (a value censored at a common stop is a
tie) and without a normal approximation. Summing over strata gives power against a shift
common to the strata, not against one stratum alone.
"""

from typing import NamedTuple

import numpy as np
from scipy import stats

from stumplib import validation


class RankTest(NamedTuple):
    """The stratified rank-sum test of two draws.

    Parameters
    ----------
    statistic : float
        The first sample's rank sum over all strata minus its null mean (positive when
        the first draw's values are larger).
    p_value : float
        Two-sided exact p-value: the null probability of a deviation at least as large.
    z : float
        The same p-value as a two-sided normal score, ``Phi^{-1}(1 - p/2)``.
    """

    statistic: float
    p_value: float
    z: float


def stratified_rank_sum(first, second):
    """Exact stratified rank-sum test that two draws follow the same law.

    Parameters
    ----------
    first, second : sequence of array_like
        Per stratum, the two draws' samples (1-D, finite, at least one value each),
        the same number of strata in both.

    Returns
    -------
    RankTest

    Raises
    ------
    ValueError, TypeError
        If the strata do not match or a sample is empty, not 1-D or not finite.

    Examples
    --------
    >>> test = stratified_rank_sum([[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]])
    >>> round(test.p_value, 4), test.statistic
    (0.1, -4.5)
    """
    pairs = _strata(first, second)
    law, observed, mean = np.ones(1), 0, 0
    for x, y in pairs:
        ranks = 2 * stats.rankdata(np.concatenate([x, y]))  # integers: doubled midranks
        ranks = np.rint(ranks).astype(int)
        law = np.convolve(law, _rank_sum_law(ranks, x.size))
        observed += int(ranks[: x.size].sum())
        mean += x.size * (ranks.size + 1)
    deviation = abs(observed - mean)
    sums = np.arange(law.size)
    p = float(min(1.0, law[np.abs(sums - mean) >= deviation].sum()))
    return RankTest((observed - mean) / 2, p, float(stats.norm.isf(p / 2)))


def _rank_sum_law(ranks, size):
    """Null law of the sum of ``size`` of the integer ``ranks``, index = the sum.

    Counts the subsets of each size by their sum, one rank at a time (float counts:
    exact below ``2**53``, that is up to about 50 values per sample), and divides by
    their number.
    """
    top = int(np.sort(ranks)[-size:].sum())
    ways = np.zeros((size + 1, top + 1))
    ways[0, 0] = 1.0
    for r in ranks:
        ways[1:, r:] += ways[:-1, : top + 1 - r].copy()
    return ways[size] / ways[size].sum()


def _strata(first, second):
    """The strata as pairs of finite 1-D float arrays, each non-empty."""
    first, second = _samples(first, "first"), _samples(second, "second")
    if len(first) != len(second):
        raise ValueError(
            f"first and second must have as many strata (got {len(first)} and "
            f"{len(second)})"
        )
    return list(zip(first, second))


def _samples(value, name):
    """``value`` as a non-empty list of non-empty finite 1-D float arrays."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
        raise TypeError(
            f"{name} must be a sequence of samples, one per stratum "
            f"(got {type(value).__name__})"
        )
    if len(value) == 0:
        raise ValueError(f"{name} must hold at least one stratum")
    samples = []
    for i, sample in enumerate(value):
        x = validation.finite(sample, f"{name}[{i}]")
        if x.ndim != 1 or x.size == 0:
            raise ValueError(
                f"{name}[{i}] must be a non-empty 1-D sample (got shape {x.shape})"
            )
        samples.append(x)
    return samples
