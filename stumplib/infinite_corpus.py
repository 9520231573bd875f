r"""Infinite-context corpora: the corpus rule's frozen scale with task sampling alone.

A corpus of :math:`m` tasks whose contexts are infinitely long has, for each task
:math:`j`, the population per-task gradient :math:`G^{\infty}(s_j)` of
:func:`stumplib.certification.population_task_gradients` (no finite-context bias, no
context noise). Its loss is the mean of the tasks' infinite-context squared errors, and
the corpus rule's statistic (:func:`stumplib.corpus.noise_ratio`) reads the spread of
those gradients over tasks. :func:`freeze_infinite` follows the gradient flow of that
loss (the small-step limit of the certified constant-step descent) until the statistic
reaches its level, recording along the way the corpus's relative gradient error
:math:`\rho = |G - g| / |g|` (task sampling alone): a clean test of the frozen scale's
law :math:`b_T \approx (\ell / K(b))^2 m` at sizes where finite contexts cost too much.
"""

from typing import NamedTuple

import numpy as np
from scipy import integrate, special

from . import (
    calibration,
    certification,
    descent_lemma,
    population,
    training,
    validation,
)
from .corpus import noise_ratio

#: The flow starts on the valley at this fraction of the long-context frozen scale
#: :math:`(\ell / K)^2 m` (the slow layer's constant :math:`K`), at least
#: :data:`MIN_START`.
START_FRACTION = 1 / 3
#: The smallest start scale.
MIN_START = 2.5


class InfiniteFreeze(NamedTuple):
    r"""An infinite-context corpus frozen by the corpus rule.

    Parameters
    ----------
    a, b : float
        The frozen parameters.
    b0 : float
        The start's scale (on the valley).
    noise : float
        The rule's statistic at the freeze (the level, to the solver's tolerance).
    rho : float
        The corpus's relative gradient error at the freeze.
    rho_max : float
        Largest :math:`\rho` over the solver's steps from the start to the freeze.
    b_cert : float
        Scale of the first step with :math:`\rho > 1/2` (the end of the certified
        interval), or ``b`` if none.

    Examples
    --------
    >>> from stumplib import tasks
    >>> run = freeze_infinite(100, tasks.Uniform(0.1, 0.9), (1, 2))
    >>> round(run.noise, 6), round(run.b, 3), round(run.rho, 3)
    (0.5, 2.779, 0.111)
    """

    a: float
    b: float
    b0: float
    noise: float
    rho: float
    rho_max: float
    b_cert: float


@validation.constrained(
    a=validation.Scalar(), b=validation.Scalar(), s=validation.UnitInterval()
)
def task_gradients(a, b, s):
    """Per-task gradients of an infinite-context corpus with thresholds ``s``.

    Parameters
    ----------
    a, b : float
        Head parameters.
    s : array_like, shape (m,)
        The tasks' thresholds in [0, 1].

    Returns
    -------
    ndarray, shape (m, 2)

    Raises
    ------
    ValueError
        As :func:`stumplib.certification.population_task_gradients`.

    Examples
    --------
    >>> G = task_gradients(9.0, 10.0, [0.3, 0.5, 0.7])
    >>> G.shape
    (3, 2)
    """
    return certification.population_task_gradients(a, b, s)


def _below_one(value, name):
    value = validation.positive_scalar(value, name)
    if not value < 1:
        raise ValueError(f"{name} must be below 1 (got {value})")
    return value


#: One number in (0, 1), such as a noise level or a relative tolerance.
FRACTION = validation.Constraint(
    _below_one,
    ((None, TypeError), (np.nan, ValueError), (0.0, ValueError), (1.0, ValueError)),
)


@validation.constrained(
    m=validation.Integer(minimum=2),
    rng=validation.Seed(as_given=True),
    level=FRACTION,
    rtol=FRACTION,
    prior=calibration.BELOW_ONE,
)
def freeze_infinite(m, prior, rng, level=0.5, rtol=1e-8):
    r"""Draw :math:`m` thresholds, follow the corpus's flow to the rule's level.

    The flow starts on the population valley at :math:`b_0` = :data:`START_FRACTION`
    :math:`\times (\ell / K)^2 m`, :math:`\ell` the ``level`` (at least
    :data:`MIN_START`; :math:`K` of :func:`stumplib.calibration.slow_layer`) and stops
    where :func:`stumplib.corpus.noise_ratio` of the tasks' gradients first reaches
    :math:`\ell` (an event of ``scipy.integrate.solve_ivp``, LSODA, integrated in
    :math:`\log(1 + t)`). :math:`\rho` is evaluated at every step of the solver.

    Parameters
    ----------
    m : int
        Number of tasks, ``m >= 2``.
    prior : tasks.Uniform
        Interior threshold prior.
    rng : int or tuple of int
        The thresholds' seed (not ``None``: a frozen run is reproducible).
    level : float
        The rule's level, in ``(0, 1)``.
    rtol : float
        Relative tolerance of the solver, in ``(0, 1)``.

    Returns
    -------
    InfiniteFreeze

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid.
    RuntimeError
        If the flow does not reach the level.

    Notes
    -----
    A corpus whose statistic is at the level at the start is frozen there (as
    :func:`stumplib.pretraining.train_until_noisy` stops at once).

    Examples
    --------
    >>> from stumplib import tasks
    >>> run = freeze_infinite(400, tasks.Uniform(0.1, 0.9), (1, 2))
    >>> round(run.noise, 6), bool(run.b > run.b0)
    (0.5, True)
    """
    constant = calibration.slow_layer(prior).constant
    s = prior.sample(m, np.random.default_rng(rng))
    b0 = max(START_FRACTION * (level / constant) ** 2 * m, MIN_START)
    a0 = float(calibration.a_star(b0, prior))

    def rhs(u, theta):
        return -np.exp(u) * task_gradients(theta[0], theta[1], s).mean(axis=0)

    def noisy(u, theta):
        return noise_ratio(task_gradients(theta[0], theta[1], s)) - level

    noisy.terminal, noisy.direction = True, 1.0
    if noisy(0.0, (a0, b0)) >= 0:  # frozen at the start, as the rule of a descent
        rho = _rho(a0, b0, s, prior)
        noise = level + noisy(0.0, (a0, b0))
        return InfiniteFreeze(a0, b0, b0, noise, rho, rho, b0)
    # the flow takes time ~ b^4 to reach b: far beyond the predicted freeze
    horizon = np.log1p(1e3 * (b0 / START_FRACTION) ** 4)
    sol = integrate.solve_ivp(
        rhs, (0.0, horizon), [a0, b0], "LSODA", events=noisy, rtol=rtol, atol=1e-12
    )
    if sol.status != 1:
        raise RuntimeError(f"the flow did not reach the level {level}: {sol.message}")
    a, b = (float(v) for v in sol.y_events[0][0])
    path = np.column_stack([sol.y[:, :-1], [a, b]])
    rho = np.array([_rho(ai, bi, s, prior) for ai, bi in path.T])
    failed = rho > descent_lemma.RHO_MAX
    b_cert = float(path[1][np.argmax(failed)]) if failed.any() else b
    noise = noise_ratio(task_gradients(a, b, s))
    return InfiniteFreeze(a, b, b0, noise, float(rho[-1]), float(rho.max()), b_cert)


def _rho(a, b, s, prior):
    """The relative gradient error of the infinite-context corpus ``s`` at a point."""
    g = np.array(population.gradient(a, b, prior))
    return float(
        np.linalg.norm(task_gradients(a, b, s).mean(axis=0) - g) / np.linalg.norm(g)
    )


class Prediction(NamedTuple):
    r"""The frozen scale predicted from the slow curve's layer at finite ``b``.

    Parameters
    ----------
    b : float
        :math:`b_T`, the solution of :math:`b = (\ell / K(b))^2 m`, :math:`\ell` the
        level.
    constant : float
        :math:`K(b_T) = \sigma_\infty(a(b_T), b_T) / \sqrt{b_T}` on the population
        flow's path.
    """

    b: float
    constant: float


@validation.constrained(
    m=validation.Integer(minimum=2), level=FRACTION, prior=calibration.BELOW_ONE
)
def predicted_freeze(m, prior, level=0.5):
    r"""The freeze :math:`b_T = (\ell / K(b_T))^2 m`, :math:`K` at finite :math:`b`.

    With the finite-:math:`b` constant of the flow's path.

    :math:`K(b) = \sigma_\infty(a(b), b) / \sqrt{b}`
    (:func:`stumplib.certification.sampling_coefficient`) at the point :math:`(a(b), b)`
    of the population gradient flow from the start of :func:`freeze_infinite` (which
    relaxes onto the slow curve below the valley); :math:`\ell` is the ``level``; the
    fixed point is found by iteration. Mean-field: the rule's statistic replaced by its
    population value :math:`\sigma_\infty / \sqrt{m}`. As :math:`m \to \infty`,
    :math:`K(b)` tends to :func:`stumplib.calibration.slow_layer`'s constant :math:`K`.

    Parameters
    ----------
    m : int
        Number of tasks, ``m >= 2``.
    prior : tasks.Uniform
        Interior threshold prior.
    level : float
        The rule's level, in ``(0, 1)``.

    Returns
    -------
    Prediction

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid, or :math:`m` is so small that the long-context
        freeze :math:`(\ell / K)^2 m` lies below the start.

    Examples
    --------
    >>> from stumplib import tasks
    >>> out = predicted_freeze(6400, tasks.Uniform(0.1, 0.9))
    >>> law = (0.5 / out.constant) ** 2 * 6400
    >>> 2.4 < out.constant < 2.9, bool(abs(out.b - law) < 1e-6 * out.b)
    (True, True)
    """
    constant = calibration.slow_layer(prior).constant
    b0 = max(START_FRACTION * (level / constant) ** 2 * m, MIN_START)
    # the flow takes a time of about b^4 to reach b: to about 3 times the freeze
    path = training.gradient_flow(
        prior,
        (float(calibration.a_star(b0, prior)), b0),
        20.0 * (b0 / START_FRACTION) ** 4,
        points=400,
        rtol=1e-8,
    )
    keep = np.concatenate([[True], np.diff(np.maximum.accumulate(path.b)) > 0])
    b_path, a_path = path.b[keep], path.a[keep]

    if (level / constant) ** 2 * m <= b0:
        raise ValueError(
            f"m = {m} is too small: the freeze at level {level} lies below the start "
            f"b_0 = {b0:g}"
        )

    def c_of(b):
        if not b_path[0] <= b <= b_path[-1]:
            raise RuntimeError(f"the flow's path does not reach b = {b:.4g}")
        a = float(np.interp(b, b_path, a_path))
        return certification.sampling_coefficient(a, b, prior) / np.sqrt(b)

    b = (level / constant) ** 2 * m
    for _ in range(100):
        c = c_of(b)
        b_next = (level / c) ** 2 * m
        if abs(b_next - b) <= 1e-9 * b:
            break
        b = b_next
    return Prediction(float(b_next), float(c_of(b_next)))


class ShareRange(NamedTuple):
    r"""Predicted share of corpora with :math:`\rho \le 1/2` at the freeze, two models.

    Parameters
    ----------
    one_direction : float
        The sampling error along one direction: :math:`\rho = \ell |W|`, :math:`W`
        standard normal, :math:`P(|W| \le 1 / (2 \ell))`, :math:`\ell` the level.
    isotropic : float
        The sampling error isotropic in the plane: :math:`\rho^2 = \ell^2 E`,
        :math:`E` standard exponential, :math:`1 - e^{-1 / (4 \ell^2)}`.

    Examples
    --------
    >>> share = predicted_share(0.25)
    >>> round(share.one_direction, 4), round(share.isotropic, 4)
    (0.9545, 0.9817)
    """

    one_direction: float
    isotropic: float


@validation.constrained(level=validation.PositiveScalar())
def predicted_share(level):
    r"""The share of corpora frozen with :math:`\rho \le 1/2`, task sampling alone.

    At the freeze the rule's statistic :math:`\mathcal N` is the ``level``
    :math:`\ell` and, at leading order, it is the RMS of the sampling part of
    :math:`\rho` (:math:`\mathbb E \mathcal N^2 = \mathbb E |G - g|^2 / |g|^2` up to
    the ratio of :math:`|G|` to :math:`|g|`: the sample covariance is unbiased). With
    :math:`\rho` the norm of a normal vector of mean square :math:`\ell^2`, the share
    with :math:`\rho \le 1/2` lies between the one-direction and the isotropic cases
    (:class:`ShareRange`). The bias :math:`\beta_n` of finite contexts and the maximum
    along the run (not only at the freeze) can only lower it.

    Parameters
    ----------
    level : float
        The rule's level, positive.

    Returns
    -------
    ShareRange

    Raises
    ------
    ValueError, TypeError
        If ``level`` is not a positive number.

    Examples
    --------
    >>> out = predicted_share(0.5)
    >>> round(out.one_direction, 3), round(out.isotropic, 3)
    (0.683, 0.632)
    """
    edge = 0.5 / level  # inf where level < 1e-308: both shares are then 1
    with np.errstate(over="ignore"):
        return ShareRange(
            float(special.erf(edge / np.sqrt(2.0))), float(-np.expm1(-np.square(edge)))
        )
