"""The end of the certified interval predicted from the task-sampling constant.

A corpus of ``m`` tasks with long contexts has relative gradient error ``rho`` about
``C(b) sqrt(b / m)`` (its task-sampling part; :mod:`stumplib.certification`), with
``C(b) = sigma_inf(b) / sqrt(b)`` at the points the run passes through. A run from the
valley at ``b0`` follows the population flow onto its slow curve, where ``C(b)`` tends
to the slow layer's constant (:func:`stumplib.calibration.slow_layer`, 2.63 for
``U[0.1, 0.9]``) rather than the valley's ``C_sigma`` (1.23). The certificate's
``rho <= 1/2`` then holds while ``C(b)^2 b / m <= 1/4``: the predicted end solves
``b = m / (4 C(b)^2)``. :func:`flow_constant` evaluates ``C(b)`` along the population
flow, :func:`predicted_ends` solves for the end at each corpus size.
"""

from functools import partial
from typing import NamedTuple

import numpy as np
from scipy import integrate

from . import calibration, certification, population, validation

#: The start of the population flow along which ``C(b)`` is taken (and of the runs).
START = 2.5


class FlowConstant(NamedTuple):
    """``C(b) = sigma_inf / sqrt(b)`` along the population flow from the valley.

    Parameters
    ----------
    b : ndarray
        Scales along the flow, increasing.
    a : ndarray
        The flow's ``a`` at those scales.
    constant : ndarray
        ``C(b)`` there.
    """

    b: np.ndarray
    a: np.ndarray
    constant: np.ndarray


@validation.constrained(
    validation.exceeding("b_max", "b0"),
    prior=validation.Instance(calibration.tasks.Uniform),
    b0=validation.PositiveScalar(),
    b_max=validation.PositiveScalar(),
    points=validation.Integer(minimum=2),
)
def flow_constant(b_max, prior, b0=START, points=60):
    """``C(b)`` along the population gradient flow from ``(a*(b0), b0)`` to ``b_max``.

    The path of the flow, ``da/db = (dL/da) / (dL/db)`` (the flow's ``b`` grows), is
    integrated from ``b0`` to ``b_max`` and ``C(b) = sigma_inf(a(b), b) / sqrt(b)``
    (:func:`stumplib.certification.sampling_coefficient`) is evaluated at ``points``
    log-spaced scales of it.

    Parameters
    ----------
    b_max : float
        Largest scale, above ``b0``.
    prior : tasks.Uniform
        Interior threshold prior.
    b0 : float
        Start of the flow, on the valley.
    points : int
        Scales evaluated, at least 2.

    Returns
    -------
    FlowConstant

    Raises
    ------
    TypeError
        If ``prior`` is not a :class:`~stumplib.tasks.Uniform`.
    ValueError
        If ``b_max <= b0``, or as :func:`stumplib.calibration.a_star`.
    ArithmeticError
        If the integration of the flow fails.

    Examples
    --------
    >>> from stumplib import tasks
    >>> flow = flow_constant(400.0, tasks.Uniform(0.1, 0.9), points=3)
    >>> flow.b.round(1).tolist(), flow.constant.round(2).tolist()
    ([2.5, 31.6, 400.0], [1.95, 2.65, 2.64])
    """
    a0 = float(calibration.a_star(b0, prior))
    path = integrate.solve_ivp(
        partial(_slope, prior=prior),
        (b0, b_max),
        [a0],
        method="LSODA",  # stiff: a relaxes onto the slow curve much faster than b grows
        rtol=1e-8,
        atol=1e-10,
        dense_output=True,
    )
    if not path.success:
        raise ArithmeticError(f"the flow from b0 = {b0:g}: {path.message}")
    b = np.geomspace(b0, b_max, points)
    a = path.sol(b)[0]
    constant = np.array(
        [certification.sampling_coefficient(u, v, prior) for u, v in zip(a, b)]
    ) / np.sqrt(b)
    return FlowConstant(b, a, constant)


def _slope(b, y, prior):
    """``da/db`` along the population flow."""
    _, g_a, g_b = population.loss_and_gradient(y[0], b, prior)
    return [g_a / g_b]


class PredictedEnds(NamedTuple):
    """The predicted ends ``b = m / (4 C(b)^2)`` of the certified interval.

    Parameters
    ----------
    m : ndarray
        Corpus sizes (tasks).
    b : ndarray
        The predicted end at each size.
    constant : ndarray
        ``C(b)`` at that end.
    """

    m: np.ndarray
    b: np.ndarray
    constant: np.ndarray


def _some_sizes(values):
    if not len(values["sizes"]):
        raise ValueError("sizes must hold at least one size (got none)")


@validation.constrained(
    _some_sizes,
    sizes=validation.Integers(),
    prior=validation.Instance(calibration.tasks.Uniform),
    b0=validation.PositiveScalar(),
)
def predicted_ends(sizes, prior, b0=START):
    """The scale where ``C(b) sqrt(b / m)`` reaches ``1/2``, for each ``m``.

    ``C(b)`` is :func:`flow_constant` from ``b0``; the end solves
    ``log b + 2 log(2 C(b)) = log m``, found on its grid of scales up to ``max(m) / 8``
    (linear interpolation in ``log b``, the first crossing). A size whose end would lie
    below ``b0`` gets ``b0``, one beyond the grid its top.

    Parameters
    ----------
    sizes : array_like of int
        Numbers of tasks ``m``, positive.
    prior : tasks.Uniform
        Interior threshold prior.
    b0 : float
        Start of the flow (and of the runs).

    Returns
    -------
    PredictedEnds

    Raises
    ------
    TypeError, ValueError
        If an argument is invalid (as :func:`flow_constant`).

    Examples
    --------
    >>> from stumplib import tasks
    >>> ends = predicted_ends([400, 1600], tasks.Uniform(0.1, 0.9))
    >>> (ends.b / ends.m).round(3).tolist()
    [0.04, 0.034]
    """
    m = np.asarray(sizes, float).ravel()
    flow = flow_constant(max(float(m.max()) / 8.0, 2.0 * b0), prior, b0, points=200)
    excess = (
        np.log(flow.b)[None, :] + 2.0 * np.log(2.0 * flow.constant) - np.log(m)[:, None]
    )
    ends, constants = [], []
    for row in excess:
        above = np.flatnonzero(row >= 0.0)
        if above.size == 0 or above[0] == 0:
            i = flow.b.size - 1 if above.size == 0 else 0
            ends.append(flow.b[i])
            constants.append(flow.constant[i])
            continue
        j = above[0]
        w = -row[j - 1] / (row[j] - row[j - 1])
        log_b = (1 - w) * np.log(flow.b[j - 1]) + w * np.log(flow.b[j])
        ends.append(float(np.exp(log_b)))
        constants.append(float((1 - w) * flow.constant[j - 1] + w * flow.constant[j]))
    return PredictedEnds(m, np.array(ends), np.array(constants))


class SlowOverValley(NamedTuple):
    """The slow curve's noise constant over the valley's, split into two factors.

    ``C = sigma_inf / sqrt(b)`` is the per-task spread ``s = sqrt(tr Cov grad l)`` over
    the population gradient's norm ``|v|``, over ``sqrt(b)``. Between the valley and
    the slow curve a constant ``lag`` below it, the ratio of the constants is the
    product of the two ratios: ``constant = spread / gradient``.

    Parameters
    ----------
    gradient : float
        ``|v|`` on the valley over ``|v|`` on the slow curve (the signal is smaller on
        the slow curve by this factor).
    spread : float
        The per-task spread on the slow curve over that on the valley.
    constant : float
        ``C`` on the slow curve over ``C_sigma`` on the valley, ``spread * gradient``.
    leakage : float
        The negatives' leakage ``exp(-(a - b s))`` on the slow curve over that on the
        valley, ``exp(-lag)`` at every ``s``.
    """

    gradient: float
    spread: float
    constant: float
    leakage: float


@validation.constrained(
    b=validation.PositiveScalar(), prior=validation.Instance(calibration.tasks.Uniform)
)
def slow_over_valley(b, prior):
    """:class:`SlowOverValley` measured by quadrature at the scale ``b``.

    The valley point is ``(a*(b), b)``, the slow-curve point ``(a*(b) + lag, b)`` with
    the asymptotic ``lag`` of :func:`stumplib.calibration.slow_layer`; ``|v|`` is
    :func:`stumplib.population.gradient`, the spread ``sigma_inf |v|``
    (:func:`stumplib.certification.sampling_coefficient`). As ``b`` grows the ratios
    tend to :func:`slow_over_valley_limit`.

    Parameters
    ----------
    b : float
        The scale, positive.
    prior : tasks.Uniform
        Interior threshold prior, ``hi < 1``.

    Returns
    -------
    SlowOverValley

    Raises
    ------
    TypeError
        If ``prior`` is not a :class:`~stumplib.tasks.Uniform`.
    ValueError
        If ``b`` is not positive or ``prior`` reaches 1.

    Examples
    --------
    >>> from stumplib import tasks
    >>> ratios = slow_over_valley(2000.0, tasks.Uniform(0.1, 0.9))
    >>> [round(v, 2) for v in ratios]
    [1.35, 1.59, 2.14, 1.17]
    """
    lag = calibration.slow_layer(prior).lag
    valley = float(calibration.a_star(b, prior))
    norms, spreads = [], []
    for a in (valley, valley + lag):
        norm = float(np.hypot(*population.gradient(a, b, prior)))
        norms.append(norm)
        spreads.append(certification.sampling_coefficient(a, b, prior) * norm)
    gradient, spread = norms[0] / norms[1], spreads[1] / spreads[0]
    return SlowOverValley(gradient, spread, gradient * spread, float(np.exp(-lag)))


@validation.constrained(prior=calibration.BELOW_ONE)
def slow_over_valley_limit(prior):
    """:class:`SlowOverValley` as ``b`` grows, in closed form (asymptotic).

    In the layer of width ``1/b`` below ``hi`` a task's gradient is ``(r/b)(1 - r)``
    times ``(1, -hi)``, with ``r = s b exp(b s - a)`` the leakage of the negatives;
    its squared spread is proportional to ``int_0^{r_top} r (1 - r)^2 dr``, with
    ``r_top = 2`` on the valley and ``2 exp(-lag)`` on the slow curve. The population
    gradient is ``(0, -2/b^3)`` on the valley and, on the slow curve, tangent to it:
    ``|v| = 2 / (sqrt(1 + hi^2) b^3)``. So ``gradient = sqrt(1 + hi^2)``,
    ``spread = sqrt(M(2 exp(-lag)) / M(2))`` (``M`` the integral) and their product is
    ``C / C_sigma`` of :func:`stumplib.calibration.slow_layer` and
    :func:`stumplib.calibration.sampling_constant`.

    Parameters
    ----------
    prior : tasks.Uniform
        Interior threshold prior, ``hi < 1``.

    Returns
    -------
    SlowOverValley

    Raises
    ------
    TypeError
        If ``prior`` is not a :class:`~stumplib.tasks.Uniform`.
    ValueError
        If ``prior`` reaches 1.

    Examples
    --------
    >>> from stumplib import tasks
    >>> [round(v, 4) for v in slow_over_valley_limit(tasks.Uniform(0.1, 0.9))]
    [1.3454, 1.5928, 2.1429, 1.17]
    """
    hi = float(prior.support[1])
    leakage = float(np.exp(-calibration.slow_layer(prior).lag))
    gradient = float(np.sqrt(1.0 + hi**2))
    moment = calibration.layer_moment
    spread = float(np.sqrt(moment(2.0 * leakage) / moment(2.0)))
    return SlowOverValley(gradient, spread, gradient * spread, leakage)
