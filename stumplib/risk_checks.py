"""Monte Carlo risks across thresholds, and how they are compared with exact risks.

:func:`stumplib.baselines.monte_carlo_risks` simulates the risks of several rules at
one threshold law. A *risk profile* repeats it at each threshold of a grid, with one
random stream per threshold (``(*seed, j)`` for the ``j``-th threshold), so that the
profile does not depend on how the grid is traversed. The two comparisons made with a
Monte Carlo risk ``r ± se`` are its largest ``z``-score against an exact value and the
ratio of two risks with its first-order standard error. :func:`z_threshold` is the
threshold a largest ``|z|`` over many comparisons is checked against, for a stated
false-failure probability. :func:`risk_curves` repeats it over context sizes with the
same number of tasks at every size.
"""

import math
from typing import NamedTuple

import numpy as np
from scipy import special, stats

from . import baselines, tasks, validation


def _one_dimensional(values):
    thresholds = values["thresholds"]
    if thresholds.ndim != 1:
        raise ValueError(
            f"thresholds must be one-dimensional (got shape {thresholds.shape})"
        )


@validation.constrained(
    _one_dimensional,
    rules=validation.Rules(),
    n=validation.Integer(),
    thresholds=validation.UnitInterval(),
    seed=validation.Seed(),
    tasks_per_batch=validation.Integer(minimum=2),
)
def pointwise_risks(rules, n, thresholds, seed, tasks_per_batch=20000):
    """Monte Carlo risks of several rules at each threshold of a grid.

    Parameters
    ----------
    rules : dict of str to callable
        Each rule maps ``(x, y)`` of shape ``(tasks, n)`` to estimates ``(tasks,)``.
    n : int
        Context size (features uniform on [0, 1]).
    thresholds : array_like of float
        The thresholds ``s``, each in [0, 1] (one-dimensional).
    seed : int or tuple of int
        The stream of the ``j``-th threshold is ``(*seed, j)``.
    tasks_per_batch : int
        Simulated contexts per threshold.

    Returns
    -------
    dict of str to (numpy.ndarray, numpy.ndarray)
        For each rule, its risks and their standard errors, one per threshold.

    Raises
    ------
    ValueError
        If ``thresholds`` is not 1-D.
    """
    runs = [
        baselines.monte_carlo_risks(
            rules,
            n,
            tasks.Fixed(float(s)),
            tasks_per_batch=tasks_per_batch,
            rng=(*seed, j),
        )
        for j, s in enumerate(thresholds)
    ]
    return {
        name: tuple(
            np.array([run[name][k] for run in runs]).reshape(thresholds.shape)
            for k in (0, 1)
        )
        for name in rules
    }


class RiskCurves(NamedTuple):
    """Monte Carlo risks of several rules at several context sizes, one prior.

    Parameters
    ----------
    sizes : ndarray
        The context sizes ``N`` (integers).
    risks : dict
        For each rule (by name), a :class:`stumplib.baselines.Estimate` of arrays over
        ``sizes``: its risks and their standard errors.
    tasks : ndarray
        Simulated tasks at each size (``tasks_per_size`` rounded down to whole
        batches).
    """

    sizes: np.ndarray
    risks: dict
    tasks: np.ndarray

    def z(self, exact):
        """``(risk - exact) / se`` for each rule.

        Parameters
        ----------
        exact : dict of str to array_like
            The exact risk of each rule at ``sizes``.

        Returns
        -------
        dict of str to numpy.ndarray

        Raises
        ------
        TypeError, ValueError
            If ``exact`` is not a dict giving every rule finite risks, one per size.
        """
        if not isinstance(exact, dict):
            raise TypeError(
                f"exact must be a dict of risks (got {type(exact).__name__})"
            )
        missing = sorted(set(self.risks) - set(exact))
        if missing:
            raise ValueError(
                f"exact must give the risk of every rule (missing {missing})"
            )
        out = {}
        for name, est in self.risks.items():
            risk = validation.finite(exact[name], f"exact[{name!r}]")
            if risk.shape != np.shape(est.value):
                raise ValueError(
                    f"exact[{name!r}] must hold one risk per size, shape "
                    f"{np.shape(est.value)} (got {risk.shape})"
                )
            out[name] = (est.value - risk) / est.se
        return out


@validation.constrained(
    rules=validation.Rules(),
    sizes=validation.Integers(),
    prior=validation.Sampler(),
    tasks_per_size=validation.Integer(minimum=2),
    seed=validation.Seed(),
    batch=validation.Integer(),
)
def risk_curves(rules, sizes, prior, tasks_per_size, seed, batch=2_000_000):
    """Monte Carlo risks of several rules over context sizes, the same tasks count each.

    Every size gets ``tasks_per_size`` simulated tasks (in batches of at most ``batch``
    features), so that each risk's standard error rests on as many squared errors at a
    large size as at a small one: squared errors are skewed, and the normal reference of
    a ``z``-score needs a large sample (about :math:`10^4` or more) at every size.

    Parameters
    ----------
    rules : dict of str to callable
        Each rule maps ``(x, y)`` of shape ``(tasks, n)`` to estimates ``(tasks,)``.
    sizes : sequence of int
        Context sizes ``N`` (each at least 1).
    prior : tasks.Uniform, tasks.Beta or tasks.Fixed
        Threshold law.
    tasks_per_size : int
        Simulated tasks at each size (at least 2).
    seed : int or tuple of int
        The ``k``-th size uses the stream ``(*seed, k)``.
    batch : int
        Largest number of features simulated at once (memory).

    Returns
    -------
    RiskCurves
    """
    runs, counts = [], []
    for k, n in enumerate(sizes):
        per_batch = max(2, min(tasks_per_size, batch // n))
        batches = -(-tasks_per_size // per_batch)
        counts.append(tasks_per_size // batches * batches)
        runs.append(
            baselines.monte_carlo_risks(
                rules,
                n,
                prior,
                tasks_per_batch=tasks_per_size // batches,
                batches=batches,
                rng=(*seed, k),
            )
        )
    risks = {
        name: baselines.Estimate(
            np.array([run[name].value for run in runs]),
            np.array([run[name].se for run in runs]),
        )
        for name in rules
    }
    return RiskCurves(np.array(sizes), risks, np.array(counts))


def _not_empty(values):
    names = ("measured", "errors", "exact")
    shape = validation.broadcastable([values[n] for n in names], names)
    if 0 in shape:
        raise ValueError("measured must not be empty")


@validation.constrained(
    _not_empty,
    measured=validation.Finite(),
    errors=validation.Positive(),
    exact=validation.Finite(),
)
def largest_z(measured, errors, exact):
    """The largest ``|measured - exact| / errors`` over a set of Monte Carlo risks.

    Parameters
    ----------
    measured, errors, exact : array_like of float
        Monte Carlo values, their standard errors (positive) and the exact values;
        broadcastable to one shape, not empty.

    Returns
    -------
    float
        ``inf`` where a ``z`` exceeds the largest float (its float rounding).

    Raises
    ------
    ValueError
        If ``measured`` is empty.

    Examples
    --------
    >>> largest_z([0.1, 0.2], [0.01, 0.02], [0.1, 0.23])
    1.5
    >>> largest_z(1e308, 1e300, -1e308)  # the difference beyond the floats
    200000000.0
    """
    # halves before the difference (exact for normal floats): a difference of two
    # floats stays a float, and z is that of |measured - exact| / errors
    half = np.abs(np.subtract(np.divide(measured, 2), np.divide(exact, 2)))
    with np.errstate(over="ignore"):
        z = half / errors * 2
    return float(np.max(z))


def _level(alpha, name):
    alpha = validation.scalar(alpha, name)
    if not 0 < alpha < 1:
        raise ValueError(f"{name} must lie in (0, 1) (got {alpha:g})")
    return alpha


#: A false-failure probability, one number in (0, 1).
PROBABILITY = validation.Constraint(
    _level,
    ((0.0, ValueError), (1.0, ValueError), (np.nan, ValueError), ("0.1", TypeError)),
)


@validation.constrained(comparisons=validation.Integer(maximum=None), alpha=PROBABILITY)
def z_threshold(comparisons, alpha):
    r"""Bonferroni threshold of :math:`\max |z|` over :math:`J` scores, level ``alpha``.

    :math:`J` is ``comparisons`` and :math:`\alpha` the ``alpha``. If each :math:`z` is
    standard normal (a Monte Carlo mean and its standard error, by the central limit
    theorem), then :math:`P(\max |z| > t) \le J\, P(|W| > t)`, :math:`W` standard
    normal, whatever their dependence (Bonferroni), so the threshold
    :math:`t = \Phi^{-1}(1 - \alpha / (2 J))` is exceeded with probability at most
    :math:`\alpha` when the compared values are right. A set of :math:`c` such checks
    that must all hold gives each :math:`\alpha = 0.01 / c`, so that together they fail
    with probability at most 1%.

    Parameters
    ----------
    comparisons : int
        The number of ``z``-scores whose largest absolute value is checked (``>= 1``).
    alpha : float
        The false-failure probability allowed, in (0, 1).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``alpha`` is not in (0, 1).
    """
    log_tail = math.log(alpha) - math.log(2) - math.log(comparisons)
    if log_tail > math.log(np.finfo(float).tiny):
        return float(stats.norm.isf(alpha / (2 * comparisons)))
    # a tail probability below the smallest normal float (or a count past the floats):
    # the quantile from its logarithm
    return float(-special.ndtri_exp(log_tail))


def _risk(pair, name):
    pair = validation.finite(pair, name)
    if pair.shape != (2,):
        raise ValueError(
            f"{name} must be a pair (risk, standard error) (got shape {pair.shape})"
        )
    risk, error = (float(v) for v in pair)
    if risk <= 0 or error < 0:
        raise ValueError(
            f"{name} must hold a positive risk and a non-negative standard error"
        )
    return risk, error


_NOT_A_RISK = (
    ((1.0,), ValueError),
    ((-1.0, 0.1), ValueError),
    ((1.0, -0.1), ValueError),
    ((1.0, np.nan), ValueError),
    (None, TypeError),
)


@validation.constrained(
    numerator=validation.Constraint(_risk, _NOT_A_RISK),
    denominator=validation.Constraint(_risk, _NOT_A_RISK),
)
def ratio(numerator, denominator):
    """The ratio of two Monte Carlo risks and its first-order standard error.

    Parameters
    ----------
    numerator, denominator : (float, float)
        Each a risk (positive) and its standard error (non-negative), as returned by
        :func:`stumplib.baselines.monte_carlo_risks`.

    Returns
    -------
    (float, float)
        ``r = r1 / r2`` and ``r * hypot(se1 / r1, se2 / r2)`` (errors independent).
    """
    (r1, se1), (r2, se2) = numerator, denominator
    value = r1 / r2
    return value, value * float(np.hypot(se1 / r1, se2 / r2))
