r"""Constant-step gradient descent and gradient flow, recorded on a log grid.

:func:`descend` is the one descent loop of the package: every run (a fixed number of
steps, a run to a scale, a run to the corpus's own noise level, the stable-step test)
is :func:`descend` with its own *direction* rule, which returns the gradient to step
along, or ``None`` where the run stops. Time is :math:`t = \eta k` after :math:`k` steps
of size :math:`\eta`; records are kept at log-spaced steps so that trajectories over
many decades stay small.
"""

from dataclasses import dataclass
from functools import partial

import numpy as np
from scipy import integrate

from . import population, progress, sweep, validation
from .corpus import Corpus


@dataclass(frozen=True)
class Trajectory:
    """Recorded parameters along a run: arrays of equal length.

    Parameters
    ----------
    t : ndarray, shape (k,)
        Record times (``eta * step`` for descent).
    a, b : ndarray, shape (k,)
        Head parameters at those times.
    loss : ndarray, shape (k,)
        Loss at those parameters.

    Examples
    --------
    >>> t, loss = np.array([0.0, 1.0]), np.array([0.02, 0.01])
    >>> run = Trajectory(t, np.array([9.0, 9.5]), np.array([10.0, 10.5]), loss)
    >>> run.offset.tolist(), run.ratio.round(6).tolist()
    ([-1.0, -1.0], [0.9, 0.904762])
    """

    t: np.ndarray
    a: np.ndarray
    b: np.ndarray
    loss: np.ndarray

    @property
    def offset(self):
        """The relative score :math:`a - b`.

        Examples
        --------
        >>> from stumplib import tasks
        >>> prior = tasks.Uniform(0.1, 0.9)
        >>> run = population_descent(prior, (9.0, 10.0), 50.0, 200, points=3)
        >>> run.t.tolist(), run.offset.round(4).tolist()
        ([0.0, 650.0, 10000.0], [-1.0, 0.8082, 0.5918])
        """
        return self.a - self.b

    @property
    def ratio(self):
        """The calibrated threshold :math:`a / b`.

        Examples
        --------
        >>> from stumplib import tasks
        >>> prior = tasks.Uniform(0.1, 0.9)
        >>> run = population_descent(prior, (9.0, 10.0), 50.0, 200, points=3)
        >>> run.ratio.round(4).tolist()
        [0.9, 1.0839, 1.0431]
        """
        return self.a / self.b


_STEPS = dict(steps=validation.Integer(minimum=0), points=validation.Integer())
_START = dict(theta0=validation.Point(), eta=validation.PositiveScalar())


@validation.constrained(**_STEPS)
def log_steps(steps, points=200):
    """About ``points`` distinct integers from 0 to ``steps``, log-spaced.

    Parameters
    ----------
    steps : int
        Last step (``>= 0``).
    points : int
        Approximate number of steps kept (``>= 1``).

    Returns
    -------
    ndarray of int
        Sorted distinct steps, always including 0 and ``steps``.

    Raises
    ------
    ValueError, TypeError
        If ``steps`` or ``points`` is not an integer in range.

    Examples
    --------
    >>> log_steps(1000, points=8).tolist()
    [0, 2, 6, 18, 51, 138, 372, 1000]
    """
    grid = np.unique(np.round(np.geomspace(1, steps + 1, points)).astype(int) - 1)
    return np.union1d(grid, [0, steps])


#: A loss this many times its starting value counts as a divergence (a stable step can
#: overshoot a little at first, as corpus descent does at the book's step sizes).
DIVERGENCE = 2.0


def _state(a, b, value=None, g_a=None, g_b=None):
    text = f"a={a:.6g}, b={b:.6g}"
    if value is not None:
        text += f", loss={value:.6g}, gradient=({g_a:.6g}, {g_b:.6g})"
    return text


@validation.constrained(
    direction=validation.Function(),
    **_START,
    max_steps=validation.Integer(minimum=0),
)
def descend(direction, theta0, eta, max_steps, goal="the stop", label=None):
    r"""Constant-step descent :math:`\theta \leftarrow \theta - \eta g`, until stopped.

    ``direction`` gives :math:`g` and stops the run.

    Parameters
    ----------
    direction : callable
        ``(a, b, k) -> (g_a, g_b)``, the gradient at iterate ``k``, or ``None`` to stop
        there. It may raise to end the run (a divergence it detects).
    theta0 : tuple of float
        Initial ``(a, b)``.
    eta : float
        Step size, positive.
    max_steps : int
        Steps allowed before ``direction`` must have stopped the run.
    goal : str
        What stops the run, for the error when it is not reached.
    label : str, optional
        Name of the run in errors and on its progress bar (no bar without it).

    Returns
    -------
    tuple
        ``(a, b, k)``: the iterate at which ``direction`` returned ``None``.

    Raises
    ------
    FloatingPointError
        If a step leaves the parameters non-finite.
    RuntimeError
        If ``direction`` has not stopped the run after ``max_steps`` steps.

    Examples
    --------
    >>> def direction(a, b, k):  # grad (a^2 + b^2) / 2, until |theta| < 0.01
    ...     return None if np.hypot(a, b) < 0.01 else (a, b)
    >>> a, b, k = descend(direction, (3.0, 4.0), 0.5, max_steps=100)
    >>> k, round(a, 6), round(b, 6)
    (9, 0.005859, 0.007812)
    """
    a, b = theta0
    name = label or "descent"
    steps = range(max_steps + 1)
    for k in steps if label is None else progress.bar(steps, desc=label):
        g = direction(a, b, k)
        if g is None:
            return a, b, k
        with np.errstate(over="ignore", invalid="ignore"):
            a, b = a - eta * g[0], b - eta * g[1]
        if not (np.isfinite(a) and np.isfinite(b)):
            raise FloatingPointError(
                f"{name} diverged at step {k}: non-finite state ({_state(a, b)}; "
                f"eta={eta:g} too large?)"
            )
    raise RuntimeError(
        f"{goal} not reached in max_steps={max_steps} steps (b = {b:.4g})"
    )


@validation.constrained(loss_and_gradient=validation.Function(), **_START, **_STEPS)
def gradient_descent(loss_and_gradient, theta0, eta, steps, points=200, label="GD"):
    r"""Constant-step descent :math:`\theta \leftarrow \theta - \eta \nabla L(\theta)`.

    The run stops with ``FloatingPointError`` naming the step and the state when the
    loss, the gradient or the next state is not finite (or ``loss_and_gradient``
    raises ``OverflowError``), or when the loss exceeds :data:`DIVERGENCE` times its
    starting value (a divergence).

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
    points : int
        Approximate number of log-spaced records (``>= 1``).
    label : str
        Progress-bar label (and the name of the run in errors).

    Returns
    -------
    Trajectory
        Records at log-spaced steps, with :math:`t = \eta k`.

    Raises
    ------
    FloatingPointError
        On a non-finite (or overflowing) loss, gradient or state, or a divergence.
    ValueError, TypeError
        If ``theta0``, ``eta``, ``steps`` or ``points`` is invalid, or
        ``loss_and_gradient`` is not callable.

    Examples
    --------
    >>> from stumplib import training
    >>> def bowl(a, b):
    ...     return (a - 1) ** 2 + (b - 2) ** 2, 2 * (a - 1), 2 * (b - 2)
    >>> run = training.gradient_descent(bowl, (0.0, 0.0), 0.25, 10, points=5)
    >>> run.t.tolist()
    [0.0, 0.25, 0.5, 1.25, 2.5]
    >>> run.a.round(6).tolist(), run.b.round(6).tolist()
    ([0.0, 0.5, 0.75, 0.96875, 0.999023], [0.0, 1.0, 1.5, 1.9375, 1.998047])
    """
    keep = set(log_steps(steps, points).tolist())
    label = str(label)
    rows = []

    def direction(a, b, k):
        try:
            value, g_a, g_b = (float(v) for v in loss_and_gradient(a, b))
        except OverflowError as err:  # Python's float arithmetic raises, numpy's: inf
            raise FloatingPointError(
                f"{label}: the loss or gradient overflowed at step {k} "
                f"({_state(a, b)}): {err}"
            ) from err
        if not np.all(np.isfinite([value, g_a, g_b])):
            raise FloatingPointError(
                f"{label}: non-finite loss or gradient at step {k} "
                f"({_state(a, b, value, g_a, g_b)})"
            )
        start = rows[0][3] if rows else value
        if value > DIVERGENCE * start:
            raise FloatingPointError(
                f"{label} diverged at step {k}: the loss rose from "
                f"{start:.6g} to {value:.6g} ({_state(a, b)}; eta={eta:g} "
                "too large?)"
            )
        if k in keep:
            rows.append((eta * k, a, b, value))
        return None if k == steps else (g_a, g_b)

    descend(direction, theta0, eta, steps, label=label)
    return Trajectory(*map(np.array, zip(*rows)))


@validation.constrained(
    prior=validation.DensityLaw(), **_START, **_STEPS, features=validation.Features()
)
def population_descent(prior, theta0, eta, steps, features=None, points=200):
    """Gradient descent on the population loss (see :func:`gradient_descent`).

    Parameters
    ----------
    prior : tasks.Uniform or tasks.Beta
        Threshold prior.
    theta0 : tuple of float
        Initial ``(a, b)``.
    eta : float
        Step size, positive.
    steps : int
        Number of steps (``>= 0``).
    features : tasks.Uniform or tasks.Beta, optional
        Feature law (uniform on [0, 1] when omitted).
    points : int
        Approximate number of log-spaced records.

    Returns
    -------
    Trajectory

    Raises
    ------
    FloatingPointError, ValueError, TypeError
        As :func:`gradient_descent`, and for an invalid ``prior`` or ``features``.

    Examples
    --------
    >>> from stumplib import tasks
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> run = population_descent(prior, (9.0, 10.0), 50.0, 200, points=5)
    >>> run.t.tolist(), bool(np.all(np.diff(run.loss) < 0))
    ([0.0, 150.0, 650.0, 2600.0, 10000.0], True)
    """
    return gradient_descent(
        lambda a, b: population.loss_and_gradient(a, b, prior, features),
        theta0,
        eta,
        steps,
        points,
        label="population GD",
    )


@validation.constrained(corpus=validation.Instance(Corpus), **_START, **_STEPS)
def corpus_descent(corpus, theta0, eta, steps, points=200):
    """Gradient descent on a corpus's empirical loss (see :func:`gradient_descent`).

    Parameters
    ----------
    corpus : Corpus
        The training corpus.
    theta0 : tuple of float
        Initial ``(a, b)``.
    eta : float
        Step size, positive.
    steps : int
        Number of steps (``>= 0``).
    points : int
        Approximate number of log-spaced records.

    Returns
    -------
    Trajectory

    Raises
    ------
    FloatingPointError, ValueError
        As :func:`gradient_descent`.
    TypeError
        If ``corpus`` is not a :class:`~stumplib.corpus.Corpus`.

    Examples
    --------
    >>> from stumplib import tasks
    >>> corpus = Corpus.sample(100, 40, tasks.Uniform(0.1, 0.9), rng=0)
    >>> run = corpus_descent(corpus, (9.0, 10.0), 50.0, 100, points=4)
    >>> run.t.tolist(), bool(run.loss[-1] < run.loss[0])
    ([0.0, 200.0, 1050.0, 5000.0], True)
    """
    return gradient_descent(
        corpus.follow().loss_and_gradient,
        theta0,
        eta,
        steps,
        points,
        label="corpus GD",
    )


@validation.constrained(
    keys=validation.Rows(1, 1, 0),  # (m, n, copy)
    prior=validation.Sampler(),
    **_START,
    **_STEPS,
    seed=validation.Seed(),
)
def corpus_descents(keys, prior, theta0, eta, steps, seed, points=200, n_workers=None):
    """:func:`corpus_descent` on one corpus per key ``(m, n, copy)``, in parallel.

    Corpus ``(m, n, copy)`` is drawn from ``prior`` with ``rng = (*seed, m, n, copy)``,
    and every run starts at ``theta0`` with the step ``eta``. The runs are independent,
    so the result does not depend on ``n_workers`` (see :func:`stumplib.sweep.run`).

    Returns
    -------
    dict
        ``{key: Trajectory}`` in the order of ``keys``.

    Examples
    --------
    >>> from stumplib import tasks
    >>> runs = corpus_descents([(50, 20, 0), (50, 20, 1)], tasks.Uniform(0.1, 0.9),
    ...                        (9.0, 10.0), 50.0, 20, seed=1, points=3, n_workers=1)
    >>> list(runs), runs[50, 20, 0].t.tolist()
    ([(50, 20, 0), (50, 20, 1)], [0.0, 200.0, 1000.0])
    """
    items = [(key, prior, theta0, eta, steps, (*seed, *key), points) for key in keys]
    return dict(zip(keys, sweep.run(_corpus_run, items, n_workers, desc="corpus GD")))


def _corpus_run(item):
    """One run of :func:`corpus_descents`.

    ``(key, prior, theta0, eta, steps, rng, points)``.
    """
    (m, n, _), prior, theta0, eta, steps, rng, points = item
    return corpus_descent(
        Corpus.sample(m, n, prior, rng=rng), theta0, eta, steps, points
    )


def _relative_tolerance(value, name):
    value = validation.positive_scalar(value, name)
    if value >= 1:
        raise ValueError(f"{name} must be below 1 (got {value:g})")
    return value


#: A solver's relative tolerance, in (0, 1).
RELATIVE_TOLERANCE = validation.Constraint(
    _relative_tolerance,
    ((0.0, ValueError), (1.0, ValueError), (np.nan, ValueError), (None, TypeError)),
)


def _increasing_times(values):
    times = values["times"]
    if (
        times.ndim != 1
        or times.size < 2
        or times[0] != 0
        or np.any(np.diff(times) <= 0)
    ):
        raise ValueError("times must be increasing from 0, at least two of them")


@validation.constrained(
    _increasing_times,
    loss_and_gradient=validation.Function(),
    theta0=validation.Point(),
    times=validation.Finite(),
    rtol=RELATIVE_TOLERANCE,
    atol=validation.PositiveScalar(),
)
def flow(loss_and_gradient, theta0, times, rtol=1e-9, atol=1e-12, log_time=False):
    r"""Gradient flow :math:`d\theta/dt = -\nabla L(\theta)`, recorded at ``times``.

    Integrated with ``scipy.integrate.solve_ivp`` (LSODA, which switches to a stiff
    method during a fast calibration phase). With ``log_time`` the flow is integrated in
    :math:`\tau = \log(1 + t)`, :math:`d\theta/d\tau = -(1 + t) \nabla L`: evenly paced
    over many decades of time.

    Parameters
    ----------
    loss_and_gradient : callable
        :math:`(a, b) \mapsto (L, \partial L/\partial a, \partial L/\partial b)`.
    theta0 : tuple of float
        Initial ``(a, b)`` at ``t = 0``.
    times : array_like
        Increasing record times from ``0``; the last is the end of the flow.
    rtol, atol : float
        Tolerances of the solver (``0 < rtol < 1``, ``atol > 0``).
    log_time : bool
        Integrate in :math:`\log(1 + t)` instead of :math:`t`.

    Returns
    -------
    Trajectory

    Raises
    ------
    FloatingPointError
        If the gradient becomes non-finite (naming the time and the state).
    RuntimeError
        If the integrator fails.

    Examples
    --------
    >>> def quadratic(a, b):  # L = (a^2 + b^2) / 2: theta(t) = theta0 e^{-t}
    ...     return (a * a + b * b) / 2, a, b
    >>> run = flow(quadratic, (1.0, 2.0), [0.0, 1.0, 2.0])
    >>> bool(np.allclose(run.a, np.exp(-run.t), rtol=1e-6)), run.b.round(6).tolist()
    (True, [2.0, 0.735759, 0.270671])
    """
    clock = (np.log1p, np.expm1) if log_time else (np.asarray, np.asarray)

    def rhs(u, theta):
        grad = np.array(loss_and_gradient(theta[0], theta[1])[1:])
        if not np.all(np.isfinite(grad)):
            raise FloatingPointError(
                "gradient flow: non-finite gradient at "
                f"t={clock[1](u):.6g} ({_state(*theta)})"
            )
        return -np.exp(u) * grad if log_time else -grad

    ticks = clock[0](times)
    sol = integrate.solve_ivp(
        rhs,
        (0.0, ticks[-1]),
        np.array(theta0),
        method="LSODA",
        t_eval=ticks,
        rtol=rtol,
        atol=atol,
    )
    if not sol.success:
        raise RuntimeError(
            f"gradient flow failed at t={clock[1](sol.t[-1]):.6g}: {sol.message}"
        )
    a, b = sol.y
    loss = np.array([loss_and_gradient(ai, bi)[0] for ai, bi in zip(a, b)])
    return Trajectory(clock[1](sol.t), a, b, loss)


@validation.constrained(
    prior=validation.DensityLaw(),
    theta0=validation.Point(),
    t_max=validation.PositiveScalar(),
    points=validation.Integer(),
    features=validation.Features(),
    rtol=RELATIVE_TOLERANCE,
)
def gradient_flow(prior, theta0, t_max, points=200, features=None, rtol=1e-9):
    """Population gradient flow up to ``t_max`` (see :func:`flow`).

    Recorded at ``t = 0`` and ``points`` log-spaced times ending at ``t_max``, from
    ``1e-3`` (from ``t_max / 1000`` when ``t_max <= 1e-3``; ``t_max`` alone when
    ``points = 1``).

    Parameters
    ----------
    prior : tasks.Uniform or tasks.Beta
        Threshold prior.
    theta0 : tuple of float
        Initial ``(a, b)``.
    t_max : float
        End time, positive.
    points : int
        Number of log-spaced record times after ``t = 0``.
    features : tasks.Uniform or tasks.Beta, optional
        Feature law (uniform on [0, 1] when omitted).
    rtol : float
        Relative tolerance of the solver.

    Returns
    -------
    Trajectory

    Raises
    ------
    FloatingPointError, RuntimeError
        As :func:`flow`.
    ValueError, TypeError
        For invalid arguments.

    Examples
    --------
    >>> from stumplib import tasks
    >>> run = gradient_flow(tasks.Uniform(0.1, 0.9), (9.0, 10.0), 1e4, points=4)
    >>> run.t.round(6).tolist(), bool(run.b[-1] > run.b[0])
    ([0.0, 0.001, 0.215443, 46.415888, 10000.0], True)
    """
    first = 1e-3 if t_max > 1e-3 else 1e-3 * t_max
    t_eval = np.concatenate(
        [[0.0], np.geomspace(first, t_max, points) if points > 1 else [t_max]]
    )
    t_eval[-1] = t_max
    return flow(
        partial(population.loss_and_gradient, prior=prior, features=features),
        theta0,
        t_eval,
        rtol=rtol,
    )
