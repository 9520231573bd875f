r"""The end of the certified interval predicted from the task-sampling constant.

A corpus of :math:`m` tasks with long contexts has relative gradient error
:math:`\rho` about :math:`K(b) \sqrt{b / m}` (its task-sampling part;
:mod:`stumplib.certification`), with :math:`K(b) = \sigma_\infty(b) / \sqrt{b}` at the
points the run passes through. A run from the valley at :math:`b_0` follows the
population flow onto its slow curve, where :math:`K(b)` tends to the slow layer's
constant :math:`K` (:func:`stumplib.calibration.slow_layer`, 2.63 for
:math:`U[0.1, 0.9]`) rather than the valley's :math:`K_\sigma` (1.23). The
certificate's :math:`\rho \le 1/2` then holds while :math:`K(b)^2 b / m \le 1/4`: the
predicted end solves :math:`b = m / (4 K(b)^2)`. :func:`flow_constant` evaluates
:math:`K(b)` along the population flow, :func:`predicted_ends` solves for the end at
each corpus size.
"""

from functools import partial
from typing import NamedTuple

import numpy as np
from scipy import integrate

from . import calibration, certification, population, validation

#: The start of the population flow along which :math:`K(b)` is taken (and of the runs).
START = 2.5


class FlowConstant(NamedTuple):
    r""":math:`K(b) = \sigma_\infty / \sqrt{b}` along the population flow.

    From the valley.

    Parameters
    ----------
    b : ndarray
        Scales along the flow, increasing.
    a : ndarray
        The flow's :math:`a` at those scales.
    constant : ndarray
        :math:`K(b)` there.
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
    r""":math:`K(b)` along the population gradient flow from the valley to ``b_max``.

    The flow starts at :math:`(a^*(b_0), b_0)`. Its path,
    :math:`da/db = (\partial L/\partial a) / (\partial L/\partial b)` (the flow's
    :math:`b` grows), is integrated from :math:`b_0` to ``b_max`` and
    :math:`K(b) = \sigma_\infty(a(b), b) / \sqrt{b}`
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
        If ``b_max`` is not above ``b0``, or as :func:`stumplib.calibration.a_star`.
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
    """The slope da/db along the population flow."""
    _, g_a, g_b = population.loss_and_gradient(y[0], b, prior)
    return [g_a / g_b]


class PredictedEnds(NamedTuple):
    """The predicted ends :math:`b = m / (4 K(b)^2)` of the certified interval.

    Parameters
    ----------
    m : ndarray
        Corpus sizes (tasks).
    b : ndarray
        The predicted end at each size.
    constant : ndarray
        :math:`K(b)` at that end.
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
    r"""The scale where :math:`K(b) \sqrt{b / m}` reaches :math:`1/2`, each :math:`m`.

    :math:`K(b)` is :func:`flow_constant` from :math:`b_0`; the end solves
    :math:`\log b + 2 \log(2 K(b)) = \log m`, found on its grid of scales up to
    :math:`\max(m) / 8` (linear interpolation in :math:`\log b`, the first crossing). A
    size whose end would lie below :math:`b_0` gets :math:`b_0`, one beyond the grid its
    top.

    Parameters
    ----------
    sizes : array_like of int
        Numbers of tasks :math:`m`, positive.
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
    r"""The slow curve's noise constant over the valley's, split into two factors.

    The constant :math:`\sigma_\infty / \sqrt{b}` is the per-task spread
    :math:`\sqrt{\operatorname{tr} \operatorname{Cov} \nabla L_j}` over the population
    gradient's norm :math:`\lVert v \rVert`, over :math:`\sqrt{b}`. Between the valley
    and the slow curve a constant ``lag`` below it, the ratio of the constants
    (:math:`K / K_\sigma` as :math:`b` grows) is the product of the two ratios:
    ``constant`` = ``spread`` :math:`\times` ``gradient``.

    Parameters
    ----------
    gradient : float
        :math:`\lVert v \rVert` on the valley over :math:`\lVert v \rVert` on the slow
        curve (the signal is smaller on the slow curve by this factor).
    spread : float
        The per-task spread on the slow curve over that on the valley.
    constant : float
        The constant on the slow curve over that on the valley,
        ``spread`` :math:`\times` ``gradient``.
    leakage : float
        The negatives' leakage :math:`e^{-(a - b s)}` on the slow curve over that on
        the valley, :math:`e^{-\mathrm{lag}}` at every :math:`s`.
    """

    gradient: float
    spread: float
    constant: float
    leakage: float


@validation.constrained(
    b=validation.PositiveScalar(), prior=validation.Instance(calibration.tasks.Uniform)
)
def slow_over_valley(b, prior):
    r""":class:`SlowOverValley` measured by quadrature at the scale ``b``.

    The valley point is :math:`(a^*(b), b)`, the slow-curve point
    :math:`(a^*(b) + \mathrm{lag}, b)` with the asymptotic ``lag`` of
    :func:`stumplib.calibration.slow_layer`; :math:`\lVert v \rVert` is
    :func:`stumplib.population.gradient`, the spread :math:`\sigma_\infty \lVert v
    \rVert` (:func:`stumplib.certification.sampling_coefficient`). As :math:`b` grows
    the ratios
    tend to :func:`slow_over_valley_limit`.

    Parameters
    ----------
    b : float
        The scale, positive.
    prior : tasks.Uniform
        Interior threshold prior, :math:`\mathrm{hi} < 1`.

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
    r""":class:`SlowOverValley` as :math:`b` grows, in closed form (asymptotic).

    In the layer of width :math:`1/b` below :math:`\mathrm{hi}` a task's gradient is
    :math:`(r/b)(1 - r)` times :math:`(1, -\mathrm{hi})`, with
    :math:`r = s b e^{b s - a}` the leakage of the negatives; its squared spread is
    proportional to :math:`M(r_{\mathrm{top}}) = \int_0^{r_{\mathrm{top}}} r (1 - r)^2
    dr`, with :math:`r_{\mathrm{top}} = 2` on the valley and :math:`2 e^{-\mathrm{lag}}`
    on the slow curve. The population gradient is :math:`v = (0, -2/b^3)` on the valley
    and, on the slow curve, tangent to it:
    :math:`\lVert v \rVert = 2 / (\sqrt{1 + \mathrm{hi}^2}\, b^3)`. So ``gradient``
    :math:`= \sqrt{1 + \mathrm{hi}^2}`, ``spread``
    :math:`= \sqrt{M(2 e^{-\mathrm{lag}}) / M(2)}` and their product is
    :math:`K / K_\sigma` of :func:`stumplib.calibration.slow_layer` and
    :func:`stumplib.calibration.sampling_constant`.

    Parameters
    ----------
    prior : tasks.Uniform
        Interior threshold prior, :math:`\mathrm{hi} < 1`.

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
