"""Population losses and gradient flow of the symmetrized heads, at any loss scale.

For uniform features the head's population residual has the exact
decomposition ``s_hat^inf(s) - s = 1/b - eps(s)`` with the edge terms::

    eps(s) = pi_- (s + T(s)) + pi_+ T(1 - s),      T(l) = l / (e^{b l} - 1),

(see :func:`stumplib.symmetrization.population_edge_terms`). The mirror-averaged head
has residual ``(eps(1 - s) - eps(s))/2``: the shared ``1/b`` cancels, and computing
the difference from the edge terms (not from the two residuals) keeps full relative
precision when the loss is far below ``1/b^2`` (it reaches ``1e-40`` in long runs).
The evidence-aware head weighs head and mirror by their positive masses
``P = pi_+(s)`` and ``P' = pi_+(1 - s)``; its residual is
``tanh(D/2)/b - w eps(s) + (1 - w) eps(1 - s)`` with ``w = P/(P + P')`` and
``D = log P - log P'``. Both come with exact gradients in ``(a, b)``.

:func:`flow` follows ``dtheta/dt = -grad L`` in the log-time variable
``tau = log(1 + t)`` with a stiff-capable solver, so that tens of decades of ``t`` cost
a few hundred gradient evaluations, and :func:`rates` reads the local growth rate
``db/dlog t = t b'`` and the loss exponent ``dlog L/dlog t = -t |grad L|^2 / L`` off
the gradient at each record (no differencing of the trajectory).
"""

from typing import NamedTuple

import numpy as np
from scipy import integrate, special

from . import fitting, population, quadrature, training, validation


def _tail(b, length):
    """``T = length/(e^{b length} - 1)`` (``1/b`` at 0) and ``dT/db = -T (T + length)``."""
    bl = b * length
    small = bl < 1e-12
    safe = np.where(small, 1.0, bl)
    t = np.where(small, 1.0 / b, length * np.exp(-safe) / -np.expm1(-safe))
    return t, -t * (t + length)


def _log_mass_ratio(b, s, q):
    """``log(1 - e^{-b q}) - log(1 - e^{-b s})`` (``±inf`` at an edge)."""
    with np.errstate(divide="ignore"):
        return np.log(-np.expm1(-b * q)) - np.log(-np.expm1(-b * s))


class Side(NamedTuple):
    """One head at thresholds ``s``: edge term, positive mass, their gradients."""

    eps: np.ndarray
    eps_a: np.ndarray
    eps_b: np.ndarray
    logit: np.ndarray
    logit_b: np.ndarray


def side(a, b, s, q=None):
    """Edge term ``eps`` and the logit of the positive mass, with gradients.

    Parameters
    ----------
    a, b : float
        Head parameters, ``b > 0``.
    s, q : ndarray
        Thresholds and their exact complements ``q = 1 - s`` (computed if not given).

    Returns
    -------
    Side
        ``eps``, ``d eps/da``, ``d eps/db``, ``logit(pi_+)`` and its ``b``-derivative
        (its ``a``-derivative is 1).
    """
    return _side(*_checked(a, b, s, q))


def _side(a, b, s, q):
    shift = np.where(s <= 0.5, a - b * s, (a - b) + b * q)
    logit = shift + _log_mass_ratio(b, s, q)
    t_s, dt_s = _tail(b, s)
    t_q, dt_q = _tail(b, q)
    logit_b = -s + t_q - t_s
    p_pos, p_neg = special.expit(logit), special.expit(-logit)
    jump = t_q - s - t_s
    eps = p_neg * (s + t_s) + p_pos * t_q
    eps_a = p_pos * p_neg * jump
    eps_b = eps_a * logit_b + p_neg * dt_s + p_pos * dt_q
    return Side(eps, eps_a, eps_b, logit, logit_b)


def _checked(a, b, s, q):
    a, b = validation.scalar_parameters(a, b)
    b = validation.positive_scalar(b, "b")
    return (a, b, *validation.complements(s, q))


def average_residual(a, b, s, q=None):
    """Residual of the mirror average, ``(eps(1 - s) - eps(s))/2``, and its gradient.

    Parameters
    ----------
    a, b : float
        Shared parameters, ``b > 0``.
    s : array_like
        Thresholds in [0, 1].
    q : array_like, optional
        ``1 - s`` computed exactly by the caller.

    Returns
    -------
    r, r_a, r_b : ndarray
    """
    a, b, s, q = _checked(a, b, s, q)
    head, mirror = _side(a, b, s, q), _side(a, b, q, s)
    return tuple(0.5 * (m - h) for h, m in zip(head[:3], mirror[:3]))


def evidence_residual(a, b, s, q=None):
    """Residual of the evidence-aware head at infinite context, and its gradient.

    Head and mirror are weighted by their attention masses on their own positives,
    ``P = pi_+(s)`` and ``P' = pi_+(1 - s)``; with ``w = P/(P + P')`` the residual is
    ``(2w - 1)/b - w eps(s) + (1 - w) eps(1 - s)``.

    Parameters
    ----------
    a, b : float
        Shared parameters, ``b > 0``.
    s : array_like
        Thresholds in [0, 1].
    q : array_like, optional
        ``1 - s`` computed exactly by the caller.

    Returns
    -------
    r, r_a, r_b : ndarray
    """
    a, b, s, q = _checked(a, b, s, q)
    head, mirror = _side(a, b, s, q), _side(a, b, q, s)
    gap = special.log_expit(head.logit) - special.log_expit(mirror.logit)
    gap_a = special.expit(-head.logit) - special.expit(-mirror.logit)
    gap_b = (
        special.expit(-head.logit) * head.logit_b - special.expit(-mirror.logit) * mirror.logit_b
    )
    w = special.expit(gap)
    tilt = np.tanh(0.5 * gap)  # 2w - 1
    spread = 2.0 / b - head.eps - mirror.eps  # d r / d w
    r = tilt / b - w * head.eps + (1 - w) * mirror.eps
    w_a, w_b = w * (1 - w) * gap_a, w * (1 - w) * gap_b
    r_a = w_a * spread - w * head.eps_a + (1 - w) * mirror.eps_a
    r_b = w_b * spread - tilt / b**2 - w * head.eps_b + (1 - w) * mirror.eps_b
    return r, r_a, r_b


RESIDUALS = {"average": average_residual, "evidence": evidence_residual}


def threshold_nodes(a, b, prior):
    """Quadrature nodes ``(s, q, weight)`` for the symmetrized heads' population losses.

    Panels are graded toward both edges (down to the inner layers of width
    ``e^{-(a-b)}/b``), toward the calibrated thresholds ``a/b`` and ``1 - a/b`` and
    toward the ends of the prior's support (layers of width ``1/b``).
    """
    a, b = validation.scalar_parameters(a, b)
    scale = 1.0 / max(abs(b), 1.0)
    edge = max(1e-3 * scale * np.exp(-max(a - b, -a, 0.0)), 1e-300)
    center = a / b if abs(b) > 1 else 0.5
    lo, hi = validation.density_law(prior, "prior").support
    points = [quadrature.graded(0.0, edge, 0.5)[1:]]
    points += [quadrature.graded(p, 1e-2 * scale) for p in (center, 1.0 - center, lo, 1.0 - hi)]
    points += [quadrature.graded(1.0 - p, 1e-2 * scale) for p in (lo, 1.0 - hi)]
    breaks = np.concatenate(points)
    return population.prior_nodes(prior, breaks, breaks)


def loss_and_gradient(a, b, prior, rule="average"):
    """Population loss ``E_s r(s)^2`` of a symmetrized head and its gradient.

    Parameters
    ----------
    a, b : float
        Shared parameters, ``b > 0``.
    prior : tasks.Uniform or tasks.Beta
        Threshold prior (uniform features).
    rule : {"average", "evidence"}
        Which combination of head and mirror.

    Returns
    -------
    loss, d_a, d_b : float
    """
    if rule not in RESIDUALS:
        raise ValueError(f"rule must be one of {tuple(RESIDUALS)} (got {rule!r})")
    a, b = validation.scalar_parameters(a, b)
    b = validation.positive_scalar(b, "b")
    s, q, w = threshold_nodes(a, b, prior)
    return population._squared_error(w, *RESIDUALS[rule](a, b, s, q))


def flow(loss_and_gradient, theta0, t_max, points=120, rtol=1e-8):
    """Gradient flow ``dtheta/dt = -grad L`` from ``t = 0``, integrated in log time.

    With ``tau = log(1 + t)`` the flow reads ``dtheta/dtau = -(1 + t) grad L``; LSODA
    (stiff when needed) integrates it to ``t_max``. Records at ``t = 0`` and at
    ``points`` log-spaced times from ``1e-2`` to ``t_max``.

    Parameters
    ----------
    loss_and_gradient : callable
        ``(a, b) -> (L, dL/da, dL/db)``.
    theta0 : tuple of float
        Initial ``(a, b)``.
    t_max : float
        Final time, above ``1e-2``.
    points : int
        Number of log-spaced records.
    rtol : float
        Relative tolerance of the solver (the absolute one is ``rtol * 1e-2``).

    Returns
    -------
    training.Trajectory
    """
    t_max = validation.positive_scalar(t_max, "t_max")
    if t_max <= 1e-2:
        raise ValueError(f"t_max must exceed 1e-2 (got {t_max})")
    points = validation.count(points, "points", minimum=2)
    rtol = validation.positive_scalar(rtol, "rtol")
    theta0 = np.array(validation.point(theta0))
    t_eval = np.concatenate([[0.0], np.geomspace(1e-2, t_max, points)])

    def rhs(tau, theta):
        return -np.exp(tau) * np.array(loss_and_gradient(theta[0], theta[1])[1:])

    sol = integrate.solve_ivp(
        rhs,
        (0.0, np.log1p(t_max)),
        theta0,
        method="LSODA",
        t_eval=np.log1p(t_eval),
        rtol=rtol,
        atol=rtol * 1e-2,
    )
    if not sol.success:
        raise RuntimeError(f"gradient flow failed: {sol.message}")
    a, b = sol.y
    loss = np.array([loss_and_gradient(ai, bi)[0] for ai, bi in zip(a, b)])
    return training.Trajectory(np.expm1(sol.t), a, b, loss)


class Rates(NamedTuple):
    """Local rates along a trajectory, read off the gradient at each record."""

    db_dlog_t: np.ndarray
    loss_exponent: np.ndarray


def rates(loss_and_gradient, trajectory):
    """``db/dlog t = -t dL/db`` and ``dlog L/dlog t = -t |grad L|^2 / L`` at each record.

    Parameters
    ----------
    loss_and_gradient : callable
        ``(a, b) -> (L, dL/da, dL/db)``, the loss the trajectory follows.
    trajectory : training.Trajectory
        Records with ``t > 0`` (a record at ``t = 0`` gives zeros).

    Returns
    -------
    Rates
    """
    validation.function(loss_and_gradient, "loss_and_gradient")
    t, a, b = validation.trajectory(trajectory)
    if np.any(t < 0):
        raise ValueError("trajectory.t must be non-negative")
    values = np.array([loss_and_gradient(ai, bi) for ai, bi in zip(a, b)])
    loss, g_a, g_b = values.T
    if np.any(loss <= 0):
        raise ValueError("the loss must be positive along the trajectory")
    return Rates(-t * g_b, -t * (g_a**2 + g_b**2) / loss)


def log_limit(b, y):
    """Extrapolate ``y = c0 + (c1 log b + c2)/b + (c3 log b + c4)/b^2`` to ``b -> inf``.

    For the offsets under ``U[0, 1]``, whose corrections carry ``log b``. The limit is
    ``c0`` of the five-term fit; its tolerance is three standard errors of that fit
    plus the change of ``c0`` when the ``1/b^2`` terms are dropped (the truncation
    uncertainty, measured on the data).

    Parameters
    ----------
    b, y : array_like
        One-dimensional, same length (at least 7), ``b > 1``.

    Returns
    -------
    limit, tol : float
    """
    b = validation.positive(b, "b")
    y = validation.finite(y, "y")
    if b.ndim != 1 or b.shape != y.shape or len(b) < 7:
        raise ValueError(
            f"b and y must be 1-D of the same length >= 7 (got {b.shape} and {y.shape})"
        )
    if np.any(b <= 1):
        raise ValueError("b must exceed 1")
    columns = [np.ones_like(b), np.log(b) / b, 1 / b, np.log(b) / b**2, b**-2.0]
    fits = []
    for k in (3, 5):
        fit = fitting.least_squares(np.column_stack(columns[:k]), y)
        fits.append((fit.coef[0], fit.se[0]))
    (c0_less, _), (c0, se) = fits
    return float(c0), float(3 * se + abs(c0 - c0_less))
