r"""The task-sampling error of infinite-context corpora, by Monte Carlo and exactly.

A corpus of :math:`m` tasks with infinitely long contexts averages :math:`m` per-task
population gradients :math:`G^\infty(s_j)`; its relative error
:math:`|\bar G - g| / |g|` has mean square :math:`\sigma_\infty(b)^2 / m`
(:func:`stumplib.certification.sampling_coefficient`). :func:`monte_carlo` draws such
corpora along the population valley :math:`a = a^*(b)` and sets their mean squared
error beside the exact law (:func:`stumplib.certification.squared_error_law`), whose
variance gives the Monte Carlo its standard error without estimating a heavy-tailed
variance from the sample.
"""

from typing import NamedTuple

import numpy as np

from . import calibration, certification, progress, validation


class SamplingStudy(NamedTuple):
    r"""Monte Carlo mean squared task-sampling errors beside their exact law.

    Parameters
    ----------
    m : ndarray of int, shape (p,)
        Tasks a corpus.
    b : ndarray, shape (r,)
        Scales on the valley.
    repetitions : int
        Corpora a point.
    mean_sq : ndarray, shape (p, r)
        Monte Carlo mean of the squared relative error.
    law_mean, law_variance : ndarray, shape (p, r)
        Its exact mean :math:`\sigma_\infty^2 / m` and the exact variance of one
        squared error.
    ratio : float
        Mean over the points of ``mean_sq / law_mean`` (1 in expectation).
    ratio_se : float
        Its standard error, from the exact variances.
    """

    m: np.ndarray
    b: np.ndarray
    repetitions: int
    mean_sq: np.ndarray
    law_mean: np.ndarray
    law_variance: np.ndarray
    ratio: float
    ratio_se: float


@validation.constrained(
    prior=validation.Sampler(),
    m=validation.Integers(),
    b=validation.Positive(),
    repetitions=validation.Integer(),
    stream=validation.Seed(),
)
def monte_carlo(prior, m, b, repetitions, stream=0):
    """Mean squared task-sampling error of corpora on the valley, and its exact law.

    Parameters
    ----------
    prior : tasks.Uniform or tasks.Beta
        Threshold prior.
    m : array_like of int, shape (p,)
        Tasks a corpus.
    b : array_like, shape (r,)
        Scales, each at its valley offset :func:`stumplib.calibration.a_star`.
    repetitions : int
        Corpora a point.
    stream : int or tuple of int
        Seed; the corpora of ``m[i]`` at ``b[j]`` draw from ``(*stream, i, j)``.

    Returns
    -------
    SamplingStudy

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid (its name is in the message).

    Examples
    --------
    >>> from stumplib import tasks
    >>> study = monte_carlo(tasks.Uniform(0.1, 0.9), [100], [20.0], 400, stream=0)
    >>> study.mean_sq.shape, bool(abs(study.ratio - 1) < 4 * study.ratio_se)
    ((1, 1), True)
    """
    m, b = np.asarray(m), np.asarray(b, dtype=float)
    a = calibration.a_star(b, prior)
    mean_sq = np.array(
        [
            [
                np.mean(
                    certification.task_sampling_errors(
                        a_j, b_j, prior, m_i, repetitions, rng=(*stream, i, j)
                    )
                    ** 2
                )
                for j, (a_j, b_j) in enumerate(zip(a, b))
            ]
            for i, m_i in enumerate(progress.bar(m, desc="sampling"))
        ]
    )
    laws = [
        [
            certification.squared_error_law(a_j, b_j, prior, m_i)
            for a_j, b_j in zip(a, b)
        ]
        for m_i in m
    ]
    mu = np.array([[law.mean for law in row] for row in laws])
    variance = np.array([[law.variance for law in row] for row in laws])
    ratio = np.mean(mean_sq / mu)
    ratio_se = np.sqrt(np.sum(variance / repetitions / mu**2)) / mu.size
    return SamplingStudy(
        m, b, repetitions, mean_sq, mu, variance, float(ratio), float(ratio_se)
    )
