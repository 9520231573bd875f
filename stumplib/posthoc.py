r"""Post-hoc symmetrization: a head trained alone, then averaged with its mirror.

Three ways to obtain a symmetrized estimator from the population gradient flow of
the same start, compared at equal training time :math:`t`:

- *one head*: train the head on its own loss :math:`L` and use it alone;
- *symmetrized training*: train the shared :math:`(a, b)` on the loss :math:`\bar L` of
  the combination of head and mirror (:mod:`stumplib.symmetrization`);
- *post hoc*: train the head alone, then use the combination at the trained
  parameters, with loss :math:`\bar L(\theta_1(t))`.

:func:`compare` runs the two flows on one time grid and evaluates the three losses;
:func:`crossover` finds where two loss curves cross.
"""

from functools import partial
from typing import NamedTuple

import numpy as np

from . import population, symmetrization, training, validation


class Strategies(NamedTuple):
    r"""The three strategies along one time grid.

    Parameters
    ----------
    t : numpy.ndarray
        Record times (the first is ``0``).
    one_head : training.Trajectory
        The head's own population flow, its loss :math:`L`.
    symmetrized : training.Trajectory
        The flow of the symmetrized loss :math:`\bar L`.
    posthoc : numpy.ndarray
        :math:`\bar L` at the one-head parameters, :math:`\bar L(a_1(t), b_1(t))`.
    """

    t: np.ndarray
    one_head: training.Trajectory
    symmetrized: training.Trajectory
    posthoc: np.ndarray

    def crossover(self):
        """The last time the post-hoc and symmetrized losses change order.

        :func:`crossover` of ``posthoc`` and ``symmetrized.loss`` over the records
        after ``t = 0``; ``None`` if their order never changes there.
        """
        return crossover(self.t[1:], self.posthoc[1:], self.symmetrized.loss[1:])


def _start(values):
    validation.positive_scalar(values["theta0"][1], "theta0[1] (b)")


@validation.constrained(
    _start,
    prior=validation.DensityLaw(),
    theta0=validation.Point(),
    t_max=symmetrization.T_MAX,
    points=validation.Integer(minimum=2),
    rule=symmetrization.RULE,
    rtol=validation.PositiveScalar(),
)
def compare(prior, theta0, t_max, points=60, rule="average", rtol=1e-10):
    r"""Run the one-head and the symmetrized population flows and compare the losses.

    Both flows start from ``theta0`` and are recorded at ``t = 0`` and ``points``
    log-spaced times from :math:`10^{-2}` to ``t_max`` (integrated in :math:`\log(1 +
    t)` by :func:`stumplib.training.flow`).

    Parameters
    ----------
    prior : tasks.Uniform or tasks.Beta
        Threshold prior (uniform features).
    theta0 : tuple of float
        Initial ``(a, b)``, ``b > 0``.
    t_max : float
        Final time, above :math:`10^{-2}`.
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
    times = np.concatenate([[0.0], np.geomspace(1e-2, t_max, points)])
    run = partial(
        training.flow, times=times, rtol=rtol, atol=rtol * 1e-2, log_time=True
    )
    one = run(partial(population.loss_and_gradient, prior=prior), theta0)
    symmetrized_loss = partial(symmetrization.loss_and_gradient, prior=prior, rule=rule)
    sym = run(symmetrized_loss, theta0)
    posthoc = np.array([symmetrized_loss(a, b)[0] for a, b in zip(one.a, one.b)])
    return Strategies(one.t, one, sym, posthoc)


def _one_shape(values):
    a, b = values["a"], values["b"]
    if a.shape != b.shape:
        raise ValueError(f"a and b must have one shape (got {a.shape} and {b.shape})")


#: The largest :math:`b` of :func:`cubed_loss`: :math:`b^3` stays a float (at most
#: :math:`10^{300}`) and a loss of order :math:`b^{-3}` (near the valley) a normal one.
LARGEST_SCALE = 1e100


def _scale(values):
    if not np.all(values["b"] <= LARGEST_SCALE):
        raise ValueError(
            f"b must be at most {LARGEST_SCALE:g}, where b³ and a loss of order b⁻³ "
            f"are floats (got {np.max(values['b']):g})"
        )


@validation.constrained(
    _one_shape,
    _scale,
    a=validation.Finite(),
    b=validation.Positive(),
    prior=validation.DensityLaw(),
    rule=symmetrization.RULE,
)
def cubed_loss(a, b, prior, rule="average"):
    r""":math:`b^3 \bar L(a, b)`: the scaled population loss of a symmetrized head.

    Elementwise.

    Parameters
    ----------
    a, b : array_like
        Parameters of one shape, ``0 < b <= 1e100`` (:data:`LARGEST_SCALE`: ``b³``
        stays a float, and the loss near the valley, of order ``b⁻³``, a normal one;
        beyond, ``b³`` overflows and the loss underflows).
    prior : tasks.Uniform or tasks.Beta
        Threshold prior (uniform features).
    rule : {"average", "evidence"}
        The combination of head and mirror.

    Returns
    -------
    numpy.ndarray
        :math:`b^3 \bar L` at each ``(a, b)``.

    Raises
    ------
    ValueError
        If ``a`` and ``b`` differ in shape, a ``b`` is not positive or exceeds
        ``1e100``, or ``rule`` is unknown.
    TypeError
        If ``prior`` is not a prior.
    """
    loss = [
        symmetrization.loss_and_gradient(ai, bi, prior, rule)[0]
        for ai, bi in zip(a.ravel(), b.ravel())
    ]
    return b**3 * np.reshape(loss, b.shape)


def _records(values):
    t, first, second = values["t"], values["first"], values["second"]
    if t.ndim != 1 or first.shape != t.shape or second.shape != t.shape:
        raise ValueError("t, first and second must be one-dimensional, of one shape")
    if np.any(np.diff(t) <= 0):
        raise ValueError("t must be increasing")


@validation.constrained(
    _records,
    t=validation.Positive(),
    first=validation.Positive(),
    second=validation.Positive(),
)
def crossover(t, first, second):
    r"""The last time at which two curves change order (log-log interpolation).

    Parameters
    ----------
    t : array_like
        Increasing positive times.
    first, second : array_like
        Positive values at those times (two loss curves).

    Returns
    -------
    float or None
        The time after which the order of ``first`` and ``second`` no longer changes:
        the log of ``first`` over ``second`` interpolated linearly in :math:`\log t`
        between the last two records where its sign differs (a record where it is zero
        counts with the sign of the next one); ``None`` if the order never changes.

    Raises
    ------
    ValueError
        If the arrays differ in shape, are not one-dimensional, or hold a value that is
        not positive, or if ``t`` is not increasing.
    """
    gap = np.log(first) - np.log(second)
    sign = np.sign(gap)
    for i in range(sign.size - 2, -1, -1):  # a zero takes the sign that follows it
        if sign[i] == 0:
            sign[i] = sign[i + 1]
    changes = np.flatnonzero(sign[:-1] != sign[1:])
    if changes.size == 0:
        return None
    i = changes[-1]
    w = gap[i] / (gap[i] - gap[i + 1])
    return float(np.exp(np.log(t[i]) + w * (np.log(t[i + 1]) - np.log(t[i]))))
