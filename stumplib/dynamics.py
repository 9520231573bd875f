r"""Population training dynamics.

Slow curve, phase timing, rates and step-size stability.

Under population gradient flow from a large-resolution initialization the
label score first settles onto a slow curve :math:`a = h(b)` (phase 1, calibration),
then :math:`a` and :math:`b` grow together with :math:`b^4 \approx \kappa t` (phase 2).
This module measures that: the distance to the slow curve and the phase times of a
:class:`stumplib.training.Trajectory`, the instantaneous rate :math:`d(b^4)/dt` from the
population gradient (its limit is extrapolated by :func:`stumplib.fitting.extrapolate`),
a finite-difference Hessian of the population loss, and the largest constant step for
which gradient descent decreases the loss monotonically.
"""

from typing import NamedTuple

import numpy as np
from scipy import optimize

from . import calibration, population, training, validation

#: The scales (and scores) the dynamics functions serve: the population loss is
#: resolved there (beyond about 1e11 its valley loses digits to rounding, 13% of
#: ``b² L`` at 1e15, and ``b³`` overflows at 1e103).
_SCALE = 1e8


@validation.constrained(
    b=validation.Positive(),
    p=validation.Scalar(),
    m=validation.Scalar(),
    xi0=validation.PositiveScalar(),
    xi1=validation.Scalar(),
)
def slow_curve(b, p, m, xi0, xi1=0.0):
    r"""The slow curve :math:`h(b) = p b + m \log b - \log(\xi_0 + \xi_1/b)`.

    See :mod:`stumplib.symbolic.dynamics`.

    Parameters
    ----------
    b : float or array_like
        Scales, positive.
    p, m : float
        Valley slope :math:`p` and power :math:`m` of :math:`b` in the valley
        coordinate.
    xi0, xi1 : float
        Slow-curve coordinate :math:`\xi(b) = \xi_0 + \xi_1/b` (:math:`\xi_0 > 0`).

    Raises
    ------
    ValueError
        If :math:`\xi_0 + \xi_1/b` is not positive at the given scales, or the curve is
        beyond the floats there (:math:`|p b|` or :math:`|m \log b|` above about
        :math:`10^{308}`).
    """
    b = np.asarray(b, dtype=float)
    xi = xi0 + xi1 / b
    if np.any(xi <= 0):
        raise ValueError("xi0 + xi1/b must be positive on the given scales")
    with np.errstate(over="ignore", invalid="ignore"):
        curve = p * b + m * np.log(b) - np.log(xi)
    if not np.all(np.isfinite(curve)):
        raise ValueError(
            f"the slow curve is beyond the floats at these p, m and b (got p = {p:g}, "
            f"m = {m:g}, b up to {np.max(b):g})"
        )
    return curve


def _positive_shift(values):
    if values["b_start"] + values["e"] <= 0 or values["b_end"] + values["e"] <= 0:
        raise ValueError("b + e must be positive on [b_start, b_end]")


@validation.constrained(
    _positive_shift,
    b_start=validation.PositiveScalar(),
    b_end=validation.PositiveScalar(),
    kappa=validation.PositiveScalar(),
    e=validation.Scalar(),
)
def reduced_time(b_start, b_end, kappa, e):
    r"""Time for the reduced flow :math:`d(b^4)/dt = \kappa (1 + e/b)` to move ``b``.

    From ``b_start`` to ``b_end``.

    :math:`\int 4 b^3 / (\kappa (1 + e/b))\, db` in closed form: :math:`4/\kappa` times
    the antiderivative :math:`b^4/4 - e b^3/3 + e^2 b^2/2 - e^3 b + e^4 \log(b + e)` of
    :math:`b^4 / (b + e)`.

    Parameters
    ----------
    b_start, b_end : float
        Scales, with :math:`b + e > 0` between them.
    kappa : float
        The rate constant :math:`\kappa`, positive.
    e : float
        The :math:`1/b` coefficient :math:`e` of the rate.

    Raises
    ------
    ValueError
        If :math:`b + e` is not positive between ``b_start`` and ``b_end``, or the
        time is beyond the floats (:math:`b^4/\kappa` above about :math:`10^{308}`).

    Notes
    -----
    The antiderivative is taken as
    :math:`b^4/4 - e b^3/3 + e^2 b^2/2 - e^3 b + e^4 \log|1 + b/e|` (the one above less
    the constant :math:`e^4 \log|e|`), and where :math:`0 < b/e < 1/2` (:math:`e \gg b`,
    where its terms cancel) as its series
    :math:`b^4 \sum_j (-b/e)^{j+1} / (j + 5)` (up to sign:
    :math:`b^5/(5e) - b^6/(6e^2) + \ldots`), so that it keeps its relative accuracy for
    every :math:`e`.

    Examples
    --------
    >>> round(reduced_time(1.0, 2.0, 1.0, 0.0), 12)  # (2⁴ - 1⁴) / 1
    15.0
    >>> round(reduced_time(1.0, 2.0, 1.0, 1e4), 9)  # ≈ 4 (2⁵ - 1)/(5 e)
    0.00247958
    """
    b = np.array([b_start, b_end], dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        if e == 0:
            antiderivative = b**4 / 4
        else:
            antiderivative = np.array([_antiderivative(v, e) for v in b])
        time = 4 / kappa * (antiderivative[1] - antiderivative[0])
    if not np.isfinite(time):
        raise ValueError(
            f"the time from b_start = {b_start:g} to b_end = {b_end:g} at kappa = "
            f"{kappa:g} (about b⁴/kappa) is beyond the floats"
        )
    return float(time)


#: Terms of the series of :func:`_antiderivative` (``0.5**60`` is below rounding).
_SERIES_TERMS = np.arange(60)


def _antiderivative(b, e):
    """``∫ b⁴ / (b + e) db`` at ``b`` (``e ≠ 0``, ``b + e > 0``), see reduced_time."""
    x = b / e if abs(e) > b * 1e-300 else np.inf
    if 0 < x < 0.5:
        ratio = -x
        return b**4 * float(
            np.sum(-(ratio ** (_SERIES_TERMS + 1)) / (_SERIES_TERMS + 5))
        )
    log_ratio = np.log(b + e) - np.log(abs(e))  # log|1 + b/e|, also where b/e overflows
    return b**4 / 4 - e * b**3 / 3 + e**2 * b**2 / 2 - e**3 * b + e**4 * log_ratio


class Phases(NamedTuple):
    """Phase times of a trajectory (``nan`` when a phase is not reached).

    Parameters
    ----------
    t_calibrated : float
        Time at which the label score has calibrated (phase 1 ends).
    b_calibrated : float
        ``b`` at that time.
    t_grown : float
        Time at which ``b`` has grown by the requested factor (phase 2).
    """

    t_calibrated: float
    b_calibrated: float
    t_grown: float


def _phases(values):
    if values["fraction"] >= 1:
        raise ValueError(f"fraction must be below 1 (got {values['fraction']})")
    if values["growth"] <= 1:
        raise ValueError(f"growth must exceed 1 (got {values['growth']})")
    if len(values["trajectory"].t) < 2:
        raise ValueError("the trajectory needs at least two records")


@validation.constrained(
    _phases,
    fraction=validation.PositiveScalar(),
    growth=validation.PositiveScalar(),
    trajectory=validation.Trajectory(),
    curve=validation.Function(),
)
def phase_times(trajectory, curve, fraction=0.1, growth=2.0):
    r"""When the label score has calibrated, and when ``b`` has grown by ``growth``.

    Parameters
    ----------
    trajectory : training.Trajectory
        A recorded run.
    curve : callable
        :math:`b \mapsto h(b)`, the slow curve (or the valley) in :math:`a`.
    fraction : float
        Phase 1 ends at the first record where :math:`|a - h(b)|` is at most
        ``fraction`` times its initial value (``fraction = 0.1``: 90% of the distance
        removed).
    growth : float
        Phase 2 is timed by the first record with :math:`b \ge g\, b(0)`, :math:`g`
        the ``growth``.

    Returns
    -------
    Phases
        ``t_calibrated``, ``b`` at that time, and ``t_grown`` (``nan`` if not reached).

    Raises
    ------
    ValueError
        If ``fraction`` is not in (0, 1), ``growth <= 1``, the trajectory has fewer than
        two records, or ``curve`` is not finite at its ``b``.
    """
    t, a, b = (np.asarray(getattr(trajectory, k), dtype=float) for k in "tab")
    distance = np.abs(a - curve(b))
    if not np.all(np.isfinite(distance)):
        raise ValueError(
            "curve must return finite values at the trajectory's b (got NaN or inf)"
        )
    settled = np.flatnonzero(distance <= fraction * distance[0])
    grown = np.flatnonzero(b >= growth * b[0])
    t_cal, b_cal = (
        (float(t[settled[0]]), float(b[settled[0]]))
        if settled.size
        else (np.nan, np.nan)
    )
    return Phases(t_cal, b_cal, float(t[grown[0]]) if grown.size else np.nan)


def _misalignment(a, b, prior, features, slope):
    """``∂L/∂a - slope ∂L/∂b`` at ``(a, b)``, for the root search of :func:`aligned`."""
    grad = population.loss_and_gradient(a, b, prior, features)
    return grad[1] - slope * grad[2]


@validation.constrained(
    b=validation.Positive(), prior=calibration.UNIFORM, features=validation.Features()
)
def aligned(b, prior, features=None):
    r"""The point below the valley where the flow runs along the valley's slope.

    Under an interior prior :math:`U[\mathrm{lo}, \mathrm{hi}]` the valley
    :math:`a^*(b)` has slope :math:`p = \mathrm{hi}` to leading order, and the slow
    curve is where the flow :math:`-\nabla L` is tangent to a curve of that slope:
    :math:`\partial L/\partial a = p\, \partial L/\partial b`. This finds that
    :math:`a` for each :math:`b`, between :math:`a^*(b)` (where
    :math:`\partial L/\partial a = 0`) and the first of
    :math:`a^*(b) - 1, a^*(b) - 2, a^*(b) - 4, \ldots` where the sign has changed. It
    needs no flow, for any feature law; the slow curve's :math:`1/b` slope term is left
    out, so the point is on the slow curve to
    leading order (its offset from the valley tends to the flow's lag).

    Parameters
    ----------
    b : float or array_like
        Scales, positive (large: the construction is asymptotic).
    prior : tasks.Uniform
        An interior prior :math:`U[\mathrm{lo}, \mathrm{hi}]`, :math:`\mathrm{hi} < 1`.
    features : optional
        Feature law, as in :func:`stumplib.population.gradient`.

    Returns
    -------
    float or ndarray
        :math:`a`, with the shape of ``b``.

    Raises
    ------
    ValueError
        If ``b`` is not positive, the prior is not an interior uniform law, or no
        sign change is found within :math:`a^*(b) - 64`.
    """
    valley = calibration.a_star(b, prior, features)
    b = np.asarray(b, dtype=float)
    slope = float(prior.hi)
    out = []
    for bi, top in zip(b.ravel(), np.ravel(valley)):
        args = (float(bi), prior, features, slope)
        step = 1.0
        while _misalignment(top - step, *args) >= 0:
            step *= 2
            if step > 64:
                raise ValueError(
                    f"no point below the valley at b={bi:g} where the flow runs "
                    f"along slope {slope:g} (searched to a*(b) - 64)"
                )
        out.append(
            optimize.brentq(
                _misalignment, top - step, top, args=args, xtol=1e-12, rtol=1e-15
            )
        )
    out = np.array(out).reshape(b.shape)
    return float(out) if out.ndim == 0 else out


def _one_shape(values):
    validation.same_shape(values["a"], values["b"], ("a", "b"))


@validation.constrained(
    _one_shape,
    a=validation.Finite(),
    b=validation.Within(-_SCALE, _SCALE),
    prior=validation.DensityLaw(),
    features=validation.Features(),
)
def rate(a, b, prior, features=None):
    r"""The instantaneous rate :math:`d(b^4)/dt` of the population flow at a point.

    :math:`d(b^4)/dt = -4 b^3\, \partial L/\partial b`.

    Parameters
    ----------
    a, b : array_like
        Points (e.g. the records of a trajectory), same shape; ``|b| <= 1e8``, the
        scales where the population loss is resolved (beyond, ``b³ ∂L/∂b`` is lost to
        rounding and then overflows).
    prior, features
        As in :func:`stumplib.population.gradient`.
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    out = [
        -4 * bi**3 * population.gradient(ai, bi, prior, features)[1]
        for ai, bi in zip(a.ravel(), b.ravel())
    ]
    return np.array(out).reshape(a.shape)


def _stencil(values):
    a, b, h = values["a"], values["b"], values["h"]
    step = h * max(1.0, abs(a), abs(b))
    if not all(np.isfinite([step, abs(a) + step, abs(b) + step])):
        raise ValueError(
            f"a and b at the step h put the stencil a ± {step:g}, b ± {step:g} beyond "
            f"the floats (got a = {a:g}, b = {b:g}, h = {h:g})"
        )


@validation.constrained(
    _stencil,
    gradient=validation.Function(),
    a=validation.Scalar(),
    b=validation.Scalar(),
    h=validation.PositiveScalar(),
)
def hessian(gradient, a, b, h=1e-4):
    r"""Hessian of a loss from central differences of its gradient, symmetrized.

    Parameters
    ----------
    gradient : callable
        :math:`(a, b) \mapsto (\partial L/\partial a, \partial L/\partial b)`.
    a, b : float
        Point.
    h : float
        Step, relative to :math:`\max(1, |a|, |b|)`.

    Returns
    -------
    ndarray, shape (2, 2)

    Raises
    ------
    ValueError
        If the points ``a ± step``, ``b ± step`` are beyond the floats.
    """
    step = h * max(1.0, abs(a), abs(b))
    cols = []
    for da, db in ((step, 0.0), (0.0, step)):
        up, down = (
            np.array(gradient(a + da, b + db)),
            np.array(gradient(a - da, b - db)),
        )
        cols.append((up - down) / (2 * step))
    H = np.column_stack(cols)
    return (H + H.T) / 2


@validation.constrained(
    loss_and_gradient=validation.Function(),
    theta0=validation.Point(),
    eta=validation.PositiveScalar(),
    steps=validation.Integer(minimum=0),
)
def descends(loss_and_gradient, theta0, eta, steps):
    r"""``True`` if ``steps`` steps of size ``eta`` never increase the loss.

    A step that makes the loss, the gradient or the state non-finite (or makes
    ``loss_and_gradient`` raise ``OverflowError``) counts as not descending.

    Parameters
    ----------
    loss_and_gradient : callable
        :math:`(a, b) \mapsto (L, \partial L/\partial a, \partial L/\partial b)`.
    theta0 : tuple of float
        Initial ``(a, b)``.
    eta : float
        Step size, positive.
    steps : int
        Number of steps (``>= 0``).

    Returns
    -------
    bool

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid.
    """
    a, b = theta0
    return _descends(loss_and_gradient, a, b, eta, steps)


class _Ascent(Exception):
    """The loss rose, or stopped being finite, during a stable-step test."""


def _descends(loss_and_gradient, a, b, eta, steps):
    last = []

    def direction(a, b, k):
        value, g_a, g_b = loss_and_gradient(a, b)
        if not np.all(np.isfinite([value, g_a, g_b])) or (last and value > last[-1]):
            raise _Ascent
        last.append(value)
        return None if k == steps else (g_a, g_b)

    try:
        training.descend(direction, (a, b), eta, steps)
    except (_Ascent, FloatingPointError, OverflowError):
        return False
    return True


@validation.constrained(
    loss_and_gradient=validation.Function(),
    theta0=validation.Point(),
    guess=validation.Within(1e-300, 1e300, scalar=True),
    steps=validation.Integer(),
    iterations=validation.Integer(),
)
def largest_stable_step(loss_and_gradient, theta0, guess, steps=50, iterations=12):
    r"""Largest constant step at which descent decreases the loss monotonically.

    For a quadratic with largest curvature :math:`\lambda` the loss decreases at every
    step iff :math:`\eta < 2/\lambda`; for the population loss the threshold is measured
    by bisection in :math:`\log \eta` between :math:`g/64` and :math:`64 g`, :math:`g`
    the ``guess``.

    Parameters
    ----------
    loss_and_gradient : callable
        :math:`(a, b) \mapsto (L, \partial L/\partial a, \partial L/\partial b)`.
    theta0 : tuple of float
        Initial ``(a, b)``.
    guess : float
        Order of magnitude of the answer (e.g. :math:`2/\lambda_{\max}` of the Hessian
        at ``theta0``), in :math:`[10^{-300}, 10^{300}]` (so that the bracket is of
        positive floats).
    steps : int
        Number of steps that must each decrease the loss.
    iterations : int
        Bisection steps :math:`k` (relative resolution :math:`(64^2)^{2^{-k}}`).

    Returns
    -------
    float
        The largest step found to descend (the lower end of the final bracket).

    Raises
    ------
    ValueError
        If descent fails even at ``guess / 64`` or still descends at ``guess * 64``.
    """
    a, b = theta0

    def ok(log_eta):
        return _descends(loss_and_gradient, a, b, float(np.exp(log_eta)), steps)

    lo, hi = np.log(guess / 64), np.log(guess * 64)
    if not ok(lo):
        raise ValueError(
            f"gradient descent does not descend even at eta = guess/64 = "
            f"{np.exp(lo):.3g}; lower guess"
        )
    if ok(hi):
        raise ValueError(
            f"gradient descent still descends at eta = 64 guess = {np.exp(hi):.3g}; "
            "raise guess"
        )
    for _ in range(iterations):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return float(np.exp(lo))


class Portrait(NamedTuple):
    r"""The population loss and flow on a grid of slow-curve offset and scale.

    The grid is in the coordinates of the valley: the slow-curve offset
    :math:`x = a - p b` (:math:`p` the valley slope) and the scale :math:`b`.

    Parameters
    ----------
    offset : ndarray, shape (nx,)
        Slow-curve offsets :math:`x = a - p b`.
    b : ndarray, shape (nb,)
        Scales.
    p : float
        The slope of the shear :math:`a = p b + x`.
    excess : ndarray, shape (nb, nx)
        :math:`b (b^2 L - 1)`: the loss beyond the kernel bias :math:`1/b^2`, in units
        of :math:`1/b^3`.
    velocity : ndarray, shape (nb, nx, 2)
        The gradient flow (minus the gradient of :math:`L`) in these coordinates:
        :math:`(dx/dt, d(\log b)/dt) = (-\partial_a L + p\, \partial_b L,
        -\partial_b L / b)`.
    """

    offset: np.ndarray
    b: np.ndarray
    p: float
    excess: np.ndarray
    velocity: np.ndarray


def _grids(values):
    for name in ("b", "offset"):
        grid = values[name]
        if grid.ndim != 1:
            raise ValueError(f"{name} must be one-dimensional (got shape {grid.shape})")


@validation.constrained(
    _grids,
    b=validation.Within(1e-300, _SCALE),
    offset=validation.Finite(),
    p=validation.Within(-_SCALE, _SCALE, scalar=True),
    prior=validation.DensityLaw(),
    features=validation.Features(),
)
def portrait(prior, b, offset, p, features=None):
    r"""Population loss and gradient-flow field on a grid of :math:`(a - p b, b)`.

    Parameters
    ----------
    prior : tasks.Uniform or tasks.Beta
        Threshold prior.
    b : array_like
        Scales in ``[1e-300, 1e8]``, one-dimensional (the population loss is resolved
        up to 1e8, and ``∂L/∂b / b`` overflows below 1e-300).
    offset : array_like
        Slow-curve offsets :math:`a - p b`, finite, one-dimensional.
    p : float
        Slope of the shear (the valley slope: :math:`\mathrm{hi}` for
        :math:`U[\mathrm{lo}, \mathrm{hi}]`), :math:`|p| \le 10^8`.
    features : tasks.Uniform or tasks.Beta, optional
        Feature law (uniform on [0, 1] when omitted).

    Returns
    -------
    Portrait
        The grid, the scaled excess loss :math:`b (b^2 L - 1)` and the flow's velocity.

    Raises
    ------
    ValueError
        If ``b`` or ``p`` leaves its range, ``offset`` is not finite, either grid is
        not one-dimensional, or ``a = p b + offset`` is beyond the floats.
    TypeError
        If ``prior`` or ``features`` is not a law with a density.

    Examples
    --------
    >>> from stumplib import dynamics, tasks
    >>> grid = dynamics.portrait(tasks.Uniform(0.1, 0.9), [20.0], [0.0, 5.0], 0.9)
    >>> grid.excess.shape, grid.velocity.shape
    ((1, 2), (1, 2, 2))
    """
    b, offset = np.asarray(b, dtype=float), np.asarray(offset, dtype=float)
    values = np.array(
        [
            [
                population.loss_and_gradient(p * bi + xi, bi, prior, features)
                for xi in offset
            ]
            for bi in b
        ]
    ).reshape(b.size, offset.size, 3)
    loss, d_a, d_b = values[..., 0], values[..., 1], values[..., 2]
    scale = b[:, None]
    excess = scale * (scale**2 * loss - 1)
    velocity = np.stack([-d_a + p * d_b, -d_b / scale], axis=-1)
    return Portrait(offset, b, float(p), excess, velocity)


class StableSteps(NamedTuple):
    r"""Constant steps of gradient descent at a set of starts.

    Parameters
    ----------
    a0, b0 : ndarray
        The starts.
    critical : ndarray
        :math:`2/\lambda_{\max}` of the Hessian at each start: the stability limit of
        a quadratic (``inf`` where :math:`\lambda_{\max}` is 0, a flat start; negative
        where :math:`\lambda_{\max} < 0`).
    largest : ndarray
        The largest step at which the loss decreases at each of the first ``steps``
        steps (``nan`` where that threshold lies outside
        :math:`[2/(64 \lambda_{\max}), 128/\lambda_{\max}]`, the bracket searched, and
        where ``critical`` is not a positive float, so that there is no bracket).
    """

    a0: np.ndarray
    b0: np.ndarray
    critical: np.ndarray
    largest: np.ndarray

    @property
    def ratio(self):
        """The ratio ``largest / critical``: how far the quadratic picture is off."""
        return self.largest / self.critical


def _one_shape_of_starts(values):
    validation.same_shape(values["a0"], values["b0"], ("a0", "b0"))
    if values["a0"].ndim > 1:
        raise ValueError(
            f"a0 and b0 must be one start or a 1-D sequence of them (got shape "
            f"{values['a0'].shape})"
        )


@validation.constrained(
    _one_shape_of_starts,
    a0=validation.Within(-_SCALE, _SCALE),
    b0=validation.Within(-_SCALE, _SCALE),
    prior=validation.DensityLaw(),
    steps=validation.Integer(),
    iterations=validation.Integer(),
)
def stable_steps(prior, a0, b0, steps=50, iterations=8):
    r""":math:`2/\lambda_{\max}` and the largest monotone constant step at each start.

    The starts are ``(a0, b0)``.

    Parameters
    ----------
    prior : tasks.Uniform or tasks.Beta
        Threshold prior.
    a0, b0 : array_like
        Starts, same shape (one-dimensional), each within ``±1e8`` (the scales where
        the population loss and its finite-difference Hessian are resolved).
    steps, iterations : int
        As in :func:`largest_stable_step`.

    Returns
    -------
    StableSteps

    Raises
    ------
    ValueError
        If a start leaves ``±1e8``, or ``a0`` and ``b0`` differ in shape or are not
        one-dimensional.
    TypeError
        If ``prior`` is not a law with a density.

    Examples
    --------
    >>> from stumplib import dynamics, tasks
    >>> out = dynamics.stable_steps(tasks.Uniform(0.1, 0.9), [18.0], [20.0], steps=5)
    >>> bool(out.largest[0] > out.critical[0] / 64)
    True
    """
    a0, b0 = (np.atleast_1d(np.asarray(v, dtype=float)).ravel() for v in (a0, b0))

    def gradient(a, b):
        return population.loss_and_gradient(a, b, prior, None)[1:]

    def loss_and_gradient(a, b):
        return population.loss_and_gradient(a, b, prior, None)

    critical, largest = [], []
    for a, b in zip(a0, b0):
        lam = np.linalg.eigvalsh(hessian(gradient, a, b))[-1]
        critical.append(2 / lam)
        try:
            largest.append(
                largest_stable_step(
                    loss_and_gradient, (a, b), 2 / lam, steps, iterations
                )
            )
        except ValueError:  # no threshold in the bracket searched
            largest.append(np.nan)
    return StableSteps(a0, b0, np.array(critical), np.array(largest))
