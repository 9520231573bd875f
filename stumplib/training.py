"""Constant-step gradient descent and gradient flow, recorded on a log grid.

Time is ``t = eta * k`` after ``k`` steps of size ``eta``; records are kept at
log-spaced steps so that trajectories over many decades stay small.
"""

from dataclasses import dataclass

import numpy as np
from scipy import integrate

from . import experiments, population, validation


@dataclass(frozen=True)
class Trajectory:
    """Recorded parameters along a run: arrays of equal length."""

    t: np.ndarray
    a: np.ndarray
    b: np.ndarray
    loss: np.ndarray

    @property
    def offset(self):
        """The relative score ``a - b``."""
        return self.a - self.b

    @property
    def ratio(self):
        """The calibrated threshold ``a / b``."""
        return self.a / self.b


def log_steps(steps, points=200):
    """About ``points`` distinct integers from 0 to ``steps``, log-spaced."""
    steps = validation.count(steps, "steps", minimum=0)
    grid = np.unique(np.round(np.geomspace(1, steps + 1, points)).astype(int) - 1)
    return np.union1d(grid, [0, steps])


def gradient_descent(loss_and_gradient, theta0, eta, steps, points=200, label="GD"):
    """Constant-step gradient descent ``theta <- theta - eta * grad L(theta)``.

    Parameters
    ----------
    loss_and_gradient : callable
        ``(a, b) -> (L, dL/da, dL/db)``.
    theta0 : tuple of float
        Initial ``(a, b)``.
    eta : float
        Step size.
    steps : int
        Number of steps.
    points : int
        Approximate number of log-spaced records.
    label : str
        Progress-bar label.

    Returns
    -------
    Trajectory
        Records at log-spaced steps, with ``t = eta * k``.
    """
    eta = float(validation.positive(eta, "eta"))
    a, b = (float(v) for v in validation.parameters(*theta0))
    keep = set(log_steps(steps, points).tolist())
    rows = []
    for k in experiments.progress(range(steps + 1), desc=label):
        value, g_a, g_b = loss_and_gradient(a, b)
        if not np.isfinite(value):
            raise FloatingPointError(f"{label} diverged at step {k} (eta={eta} too large?)")
        if k in keep:
            rows.append((eta * k, a, b, value))
        a, b = a - eta * g_a, b - eta * g_b
    return Trajectory(*map(np.array, zip(*rows)))


def population_descent(prior, theta0, eta, steps, features=None, points=200):
    """Gradient descent on the population loss (see :func:`gradient_descent`)."""
    return gradient_descent(
        lambda a, b: population.loss_and_gradient(a, b, prior, features),
        theta0,
        eta,
        steps,
        points,
        label="population GD",
    )


def corpus_descent(corpus, theta0, eta, steps, points=200):
    """Gradient descent on a corpus's empirical loss (see :func:`gradient_descent`)."""
    return gradient_descent(
        corpus.loss_and_gradient, theta0, eta, steps, points, label="corpus GD"
    )


def gradient_flow(prior, theta0, t_max, points=200, features=None, rtol=1e-9):
    """Population gradient flow ``dtheta/dt = -grad L(theta)`` up to ``t_max``.

    Integrated with ``scipy.integrate.solve_ivp`` (LSODA, which switches to a stiff
    method during the fast calibration phase) and recorded at ``t = 0`` and
    log-spaced times from ``1e-3`` to ``t_max``.
    """
    t_max = float(validation.positive(t_max, "t_max"))
    theta0 = np.array([float(v) for v in validation.parameters(*theta0)])
    t_eval = np.concatenate([[0.0], np.geomspace(min(1e-3, t_max), t_max, points)])

    def rhs(_, theta):
        return -np.array(population.gradient(theta[0], theta[1], prior, features))

    sol = integrate.solve_ivp(
        rhs, (0.0, t_max), theta0, method="LSODA", t_eval=t_eval, rtol=rtol, atol=1e-12
    )
    if not sol.success:
        raise RuntimeError(f"gradient flow failed: {sol.message}")
    a, b = sol.y
    loss = np.array([population.loss(ai, bi, prior, features) for ai, bi in zip(a, b)])
    return Trajectory(sol.t, a, b, loss)
