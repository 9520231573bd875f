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
tie) and without a normal approximation, up to a cost past which the normal
approximation with the same mean and variance takes over. Summing over strata gives
power against a shift common to the strata, not against one stratum alone.
"""

from typing import NamedTuple

import numpy as np
from scipy import stats

from stumplib import validation


class RankTest(NamedTuple):
    r"""The stratified rank-sum test of two draws.

    Parameters
    ----------
    statistic : float
        The first sample's rank sum over all strata minus its null mean (positive when
        the first draw's values are larger).
    p_value : float
        Two-sided exact p-value: the null probability of a deviation at least as large.
    z : float
        The same p-value as a two-sided normal score, :math:`\Phi^{-1}(1 - p/2)`.
    exact : bool
        Whether the p-value is exact (else the normal approximation's).
    """

    statistic: float
    p_value: float
    z: float
    exact: bool = True


def _strata_match(values):
    first, second = values["first"], values["second"]
    if len(first) != len(second):
        raise ValueError(
            f"first and second must have as many strata (got {len(first)} and "
            f"{len(second)})"
        )


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


#: The samples, one a stratum (a non-empty sequence of non-empty finite 1-D samples).
SAMPLES = validation.Constraint(
    _samples,
    (
        (None, TypeError),
        ("1", TypeError),
        ([], ValueError),
        ([[]], ValueError),
        ([[1.0, np.nan]], ValueError),
        ([[[1.0]]], ValueError),
    ),
)


@validation.constrained(_strata_match, first=SAMPLES, second=SAMPLES)
def stratified_rank_sum(first, second):
    """Stratified rank-sum test that two draws follow the same law.

    The null law is computed exactly while counting the splits costs at most
    :data:`EXACT_WORK` operations (the smaller sample of each stratum is counted: up
    to 58 values against 58 in one stratum, or 3000 against 1); past that, by its normal
    approximation, whose mean and variance are the exact law's (with ties). Which one
    was used is :attr:`RankTest.exact`.

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
    >>> round(test.p_value, 4), test.statistic, test.exact
    (0.1, -4.5, True)
    """
    strata = [
        _doubled_ranks(np.asarray(x, float), np.asarray(y, float))
        for x, y in zip(first, second)
    ]
    observed = sum(int(r[:size].sum()) - size * (r.size + 1) for r, size in strata)
    if sum(_work(r, size) for r, size in strata) > EXACT_WORK:
        return _normal(strata, observed)
    law, offset = np.ones(1), 0
    for ranks, size in strata:
        part, low = _deviation_law(ranks, size)
        law, offset = np.convolve(law, part), offset + low
    deviations = np.abs(offset + np.arange(law.size))
    p = float(min(1.0, law[deviations >= abs(observed)].sum()))
    return RankTest(observed / 2, p, float(stats.norm.isf(p / 2)), True)


EXACT_WORK = 10**8
"""Largest cost (operations counting the splits) of an exact law; the normal
approximation past it."""


def _doubled_ranks(x, y):
    """The pooled sample's doubled midranks (integers), and the first sample's size."""
    ranks = 2 * stats.rankdata(np.concatenate([x, y]))
    return np.rint(ranks).astype(np.int64), x.size


def _work(ranks, size):
    """Cost of counting the splits of one stratum by the smaller sample's rank sum."""
    small = min(size, ranks.size - size)
    return ranks.size * (small + 1) * (small * 2 * ranks.size + 1)


def _deviation_law(ranks, size):
    """Null law of the first sample's doubled rank sum minus its mean.

    Returns the probabilities and the deviation of the first; the smaller sample's sum
    is counted (the first's is the total minus it).
    """
    small = min(size, ranks.size - size)
    law, low = _rank_sum_law(ranks, small)
    mean = small * (ranks.size + 1)
    if small == size:
        return law, low - mean
    return law[::-1], mean - (low + law.size - 1)


def _rank_sum_law(ranks, size):
    """Null law of the sum of ``size`` of the integer ``ranks``, and its smallest sum.

    Counts the subsets of each size by their sum, one rank at a time (float counts:
    exact below ``2**53``, that is up to about 50 values per sample), and divides by
    their number.
    """
    ordered = np.sort(ranks)
    top, low = int(ordered[ranks.size - size :].sum()), int(ordered[:size].sum())
    ways = np.zeros((size + 1, top + 1))
    ways[0, 0] = 1.0
    for r in ranks:
        ways[1:, r:] += ways[:-1, : top + 1 - r].copy()
    return ways[size, low:] / ways[size].sum(), low


def _normal(strata, observed):
    """The normal approximation with the permutation law's mean and variance."""
    variance = 0.0
    for ranks, size in strata:
        n = ranks.size
        spread = np.sum((ranks - ranks.mean()) ** 2)
        variance += size * (n - size) / (n * (n - 1)) * float(spread)
    z = abs(observed) / np.sqrt(variance) if variance > 0 else 0.0
    return RankTest(
        observed / 2, float(min(1.0, 2 * stats.norm.sf(z))), float(z), False
    )
