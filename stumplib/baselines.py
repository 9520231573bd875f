"""Classical threshold rules and Monte Carlo risk helpers.

For a context ``(x, y)`` let ``L`` be the largest negative example (0 if none) and
``R`` the smallest positive example (1 if none). Under uniform features and a
uniform prior on [0, 1], the posterior of ``s`` given the context is uniform on
``[L, R]``: the Bayes rule for squared error is the gap midpoint ``(L + R) / 2``.
"""

from typing import NamedTuple

import numpy as np

from . import tasks, validation


class Estimate(NamedTuple):
    """A Monte Carlo mean and its standard error.

    A pair, so ``risk, se = estimate`` unpacks it.

    Parameters
    ----------
    value : float or ndarray
        The estimate.
    se : float or ndarray
        Its standard error (same shape).
    """

    value: float
    se: float


@validation.constrained(
    validation.one_context, x=validation.UnitInterval(), y=validation.Labels()
)
def gap(x, y):
    """The gap ``(L, R)`` around the threshold: largest negative, smallest positive.

    Parameters
    ----------
    x, y : array_like, shape (..., N)
        Features in [0, 1] and labels in {0, 1}.

    Returns
    -------
    left, right : ndarray, shape (...)
        ``L`` (0 with no negative) and ``R`` (1 with no positive).

    Raises
    ------
    ValueError
        If ``x`` and ``y`` differ in shape, are empty or out of range.
    """
    left = np.where(y == 0, x, 0.0).max(axis=-1)
    right = np.where(y == 1, x, 1.0).min(axis=-1)
    return left, right


@validation.constrained(
    validation.one_context, x=validation.UnitInterval(), y=validation.Labels()
)
def nearest_positive(x, y):
    """The smallest positive example ``R`` (1 when the context has no positive).

    Parameters
    ----------
    x, y : array_like, shape (..., N)
        Features in [0, 1] and labels in {0, 1}.

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    ValueError
        As :func:`gap`.

    Examples
    --------
    >>> from stumplib import baselines
    >>> x = [[0.1, 0.4, 0.6, 0.9], [0.2, 0.3, 0.5, 0.7]]
    >>> y = [[0, 0, 1, 1], [0, 0, 0, 0]]
    >>> baselines.nearest_positive(x, y).tolist()
    [0.6, 1.0]
    """
    return gap(x, y)[1]


@validation.constrained(
    validation.one_context, x=validation.UnitInterval(), y=validation.Labels()
)
def nearest_negative(x, y):
    """The largest negative example ``L`` (0 when the context has no negative).

    Parameters
    ----------
    x, y : array_like, shape (..., N)
        Features in [0, 1] and labels in {0, 1}.

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    ValueError
        As :func:`gap`.
    """
    return gap(x, y)[0]


@validation.constrained(
    validation.one_context, x=validation.UnitInterval(), y=validation.Labels()
)
def midpoint(x, y):
    """The gap midpoint ``(L + R) / 2``: Bayes under uniform prior and features.

    Parameters
    ----------
    x, y : array_like, shape (..., N)
        Features in [0, 1] and labels in {0, 1}.

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    ValueError
        As :func:`gap`.

    Examples
    --------
    >>> from stumplib import baselines
    >>> x = [[0.1, 0.4, 0.6, 0.9], [0.2, 0.3, 0.5, 0.7]]
    >>> y = [[0, 0, 1, 1], [0, 0, 0, 0]]
    >>> baselines.midpoint(x, y).round(6).tolist()
    [0.5, 0.85]
    """
    left, right = gap(x, y)
    return 0.5 * (left + right)


@validation.constrained(
    rules=validation.Rules(),
    n=validation.Integer(),
    prior=validation.Sampler(),
    tasks_per_batch=validation.Integer(minimum=2),
    batches=validation.Integer(),
    rng=validation.Rng(),
)
def monte_carlo_risks(
    rules, n, prior=tasks.Uniform(), tasks_per_batch=20000, batches=1, rng=None
):
    """Monte Carlo squared-error risks of several rules on the same contexts.

    Parameters
    ----------
    rules : dict of str to callable
        Each rule maps ``(x, y)`` of shape ``(tasks, n)`` to estimates ``(tasks,)``.
    n : int
        Context size (features are uniform on [0, 1]).
    prior : tasks.Uniform, tasks.Beta or tasks.Fixed
        Threshold prior (``tasks.Fixed(s)`` for a fixed threshold).
    tasks_per_batch, batches : int
        The number of simulated tasks is their product.
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    dict of str to Estimate
        Risk and its standard error for each rule.
    """
    rng = np.random.default_rng(rng)
    errors = {name: [] for name in rules}
    for _ in range(batches):
        x, y, s = tasks.sample_contexts(tasks_per_batch, n, prior, rng=rng)
        for name, rule in rules.items():
            errors[name].append((rule(x, y) - s) ** 2)
    return {name: _mean_and_error(np.concatenate(e)) for name, e in errors.items()}


def _mean_and_error(values):
    return Estimate(
        float(values.mean()), float(values.std(ddof=1) / np.sqrt(values.size))
    )
