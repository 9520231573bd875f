"""Post-hoc symmetrization: a head trained alone, then averaged with its mirror.

Three ways to obtain a symmetrized estimator from the population gradient flow of
the same start, compared at equal training time ``t``:

- *one head*: train the head on its own loss ``L`` and use it alone;
- *symmetrized training*: train the shared ``(a, b)`` on the loss ``L̄`` of the
  combination of head and mirror (:mod:`stumplib.symmetrization`);
- *post hoc*: train the head alone, then use the combination at the trained
  parameters, with loss ``L̄(θ₁(t))``.

:func:`compare` runs the two flows on one time grid and evaluates the three losses;
:func:`crossover` finds where two loss curves cross.
"""

from functools import partial
from typing import NamedTuple

import numpy as np

from . import population, symmetrization, training, validation


class Strategies(NamedTuple):
    """The three strategies along one time grid.

    Parameters
    ----------
    t : numpy.ndarray
        Record times (the first is ``0``).
    one_head : training.Trajectory
        The head's own population flow, its loss ``L``.
    symmetrized : training.Trajectory
        The flow of the symmetrized loss ``L̄``.
    posthoc : numpy.ndarray
        ``L̄`` at the one-head parameters, ``L̄(a₁(t), b₁(t))``.
    """

    t: np.ndarray
    one_head: training.Trajectory
    symmetrized: training.Trajectory
    posthoc: np.ndarray


def compare(prior, theta0, t_max, points=60, rule="average", rtol=1e-10):
    """Run the one-head and the symmetrized population flows and compare the losses.

    Both flows start from ``theta0`` and are recorded at ``t = 0`` and ``points``
    log-spaced times from ``1e-2`` to ``t_max`` (integrated in ``log(1 + t)`` by
    :func:`stumplib.training.flow`).

    Parameters
    ----------
    prior : tasks.Uniform or tasks.Beta
        Threshold prior (uniform features).
    theta0 : tuple of float
        Initial ``(a, b)``, ``b > 0``.
    t_max : float
        Final time, above ``1e-2``.
    points : int
        Number of log-spaced records (at least 2).
    rule : {"average", "evidence"}
        The combination of head and mirror.
    rtol : float
        Relative tolerance of the solver (the absolute one is ``rtol * 1e-2``).

    Returns
    -------
    Strategies

    Raises
    ------
    ValueError
        If ``t_max <= 1e-2``, ``points < 2``, ``rule`` is unknown or ``theta0`` is not a
        valid start.
    TypeError
        If ``prior`` is not a prior.
    """
    validation.density_law(prior, "prior")
    theta0 = validation.point(theta0)
    validation.positive_scalar(theta0[1], "theta0[1] (b)")
    t_max = validation.positive_scalar(t_max, "t_max")
    if t_max <= 1e-2:
        raise ValueError(f"t_max must exceed 1e-2 (got {t_max})")
    points = validation.count(points, "points", minimum=2)
    if rule not in symmetrization.RESIDUALS:
        raise ValueError(
            f"rule must be one of {tuple(symmetrization.RESIDUALS)} (got {rule!r})"
        )
    rtol = validation.positive_scalar(rtol, "rtol")
    times = np.concatenate([[0.0], np.geomspace(1e-2, t_max, points)])
    run = partial(
        training.flow, times=times, rtol=rtol, atol=rtol * 1e-2, log_time=True
    )
    one = run(partial(population.loss_and_gradient, prior=prior), theta0)
    symmetrized_loss = partial(symmetrization.loss_and_gradient, prior=prior, rule=rule)
    sym = run(symmetrized_loss, theta0)
    posthoc = np.array([symmetrized_loss(a, b)[0] for a, b in zip(one.a, one.b)])
    return Strategies(one.t, one, sym, posthoc)


def crossover(t, first, second):
    """The first time at which ``first`` falls below ``second`` (log-log interpolation).

    Parameters
    ----------
    t : array_like
        Increasing positive times.
    first, second : array_like
        Positive values at those times (two loss curves).

    Returns
    -------
    float or None
        The crossing time, interpolated linearly in ``log t`` on ``log(first/second)``
        between the last record where ``first >= second`` and the next; ``None`` if
        ``first`` never falls below ``second`` after being at or above it.

    Raises
    ------
    ValueError
        If the arrays differ in shape, are not one-dimensional, or hold a value that is
        not positive, or if ``t`` is not increasing.
    """
    t = validation.positive(t, "t")
    first = validation.positive(first, "first")
    second = validation.positive(second, "second")
    if t.ndim != 1 or first.shape != t.shape or second.shape != t.shape:
        raise ValueError("t, first and second must be one-dimensional, of one shape")
    if np.any(np.diff(t) <= 0):
        raise ValueError("t must be increasing")
    gap = np.log(first) - np.log(second)
    above = np.flatnonzero((gap[:-1] >= 0) & (gap[1:] < 0))
    if above.size == 0:
        return None
    i = above[0]
    w = gap[i] / (gap[i] - gap[i + 1])
    return float(np.exp(np.log(t[i]) + w * (np.log(t[i + 1]) - np.log(t[i]))))
