"""Reflected symmetrization of the one-head model.

The mirror map ``x -> 1 - x``, ``y -> 1 - y`` (:func:`stumplib.tasks.mirror`) turns
positives into negatives. The *mirrored head* applies the same head ``(a, b)`` to the
mirrored context and maps its estimate back, ``1 - s_hat(1 - x, 1 - y)``: it weighs
negatives near the threshold and localizes ``s`` from below. Combinations:

- :func:`average_estimate`: the plain average of head and mirror;
- :func:`evidence_estimate`: head and mirror weighted by the attention mass each
  puts on its own positives (zero for a head whose side of the threshold is empty);
- :func:`joint_estimate`: one softmax over both heads' scores (the two heads
  weighted by their softmax normalizers).

Each has a hard-attention limit (``b -> inf``, ``a - b -> inf``), and the average has
a population version (infinite context) with its loss and gradient for training.
"""

import numpy as np
from scipy import special

from . import head, population, quadrature, tasks, validation


def mirrored_estimate(a, b, x, y):
    """The mirrored head ``1 - s_hat(a, b, 1 - x, 1 - y)``, shape ``(...)``."""
    return 1.0 - head.estimate(a, b, *tasks.mirror(x, y))


def average_estimate_and_gradient(a, b, x, y):
    """The average of head and mirror and its gradient ``(s_bar, d/da, d/db)``.

    The mirrored head's gradient is minus the head's gradient on the mirrored
    context, so ``d s_bar/da = (Cov_w(x, y) - Cov_w'(x', y'))/2`` and likewise for ``b``.
    """
    est, d_a, d_b = head.estimate_and_gradient(a, b, x, y)
    est_m, d_am, d_bm = head.estimate_and_gradient(a, b, *tasks.mirror(x, y))
    return 0.5 * (est + 1.0 - est_m), 0.5 * (d_a - d_am), 0.5 * (d_b - d_bm)


def average_estimate(a, b, x, y):
    """``(s_hat + mirrored s_hat) / 2``, shape ``(...)``."""
    return average_estimate_and_gradient(a, b, x, y)[0]


def log_positive_mass(a, b, x, y):
    """Log of the attention mass ``sum_i w_i y_i`` the head puts on positive examples.

    Exact in ratios when the mass itself underflows (see
    :meth:`stumplib.head.Contexts.log_positive_share`); ``-inf`` when the context has
    no positive example.
    """
    return head.Contexts(x, y).log_positive_share(a, b)


def positive_mass(a, b, x, y):
    """Attention mass ``sum_i w_i y_i`` that the head puts on positive examples.

    Exactly zero when the context has no positive example; close to one when the
    head attends to a positive (``a - b*x_+`` well above the negatives' scores).
    """
    return np.exp(log_positive_mass(a, b, x, y))


def evidence_estimate(a, b, x, y):
    """Head and mirror weighted by the evidence each has on its own side.

    ``(p s_hat + p' s_hat') / (p + p')`` with ``p`` the head's attention mass on
    positives and ``p'`` the mirrored head's mass on its positives (the original
    negatives). The weight ``p / (p + p')`` is computed from the log masses, so it is
    exact when both masses underflow. A head whose side is empty gets weight exactly
    zero, so the combination falls back on the other side; with both sides present it
    tends to the gap midpoint.
    """
    sides = head.Contexts(x, y), head.Contexts(*tasks.mirror(x, y))
    (est, log_p), (est_m, log_p_m) = (
        (c.summaries(a, b)[0], c.log_positive_share(a, b)) for c in sides
    )
    weight = special.expit(log_p - log_p_m)
    return weight * est + (1.0 - weight) * (1.0 - est_m)


def joint_estimate(a, b, x, y):
    """One softmax over the head's and the mirrored head's scores.

    The ``2N`` scores ``a*y_i - b*x_i`` and ``a*(1 - y_i) - b*(1 - x_i)`` share one
    softmax and both carry the value ``x_i``; equivalently, head and mirror are
    averaged with weights proportional to their softmax normalizers. The softmax is
    taken relative to the largest score (no overflow or underflow of the total).
    """
    a, b = validation.parameters(a, b)
    x, y = validation.context(x, y)
    a = validation.batch(a, "a", x.shape[:-1])[..., None]
    b = validation.batch(b, "b", x.shape[:-1])[..., None]
    scores = np.concatenate([a * y - b * x, a * (1 - y) - b * (1 - x)], axis=-1)
    return np.sum(special.softmax(scores, axis=-1) * np.concatenate([x, x], axis=-1), axis=-1)


def mirrored_hard_limit(x, y):
    """Hard limit of the mirrored head: the largest negative; with none, the largest ``x``."""
    return 1.0 - head.hard_limit(*tasks.mirror(x, y))


def average_hard_limit(x, y):
    """Hard limit of the average: the gap midpoint, or the midrange of an empty side."""
    return 0.5 * (head.hard_limit(x, y) + mirrored_hard_limit(x, y))


def evidence_hard_limit(x, y):
    """Hard limit of :func:`evidence_estimate`: the gap midpoint, or the present side."""
    x, y = validation.context(x, y)
    has_pos, has_neg = y.any(axis=-1), (y == 0).any(axis=-1)
    mid = average_hard_limit(x, y)
    return np.where(
        has_pos & has_neg, mid, np.where(has_pos, head.hard_limit(x, y), mirrored_hard_limit(x, y))
    )


def joint_hard_limit(x, y):
    """Hard limit of :func:`joint_estimate`: the side whose top score is higher.

    The softmax keeps the highest scores: ``a - b R`` for the head's nearest positives
    (``-b min x`` with no positive) and ``a - b (1 - L)`` for the mirror's (``-b (1 - max
    x)`` with no negative). With both sides present it keeps ``R`` if ``R < 1 - L`` and
    ``L`` if ``R > 1 - L``; at a tie it averages the tied examples, ``(n_R R + n_L L) /
    (n_R + n_L)`` with ``n_R`` positives at ``R`` and ``n_L`` negatives at ``L``.
    """
    x, y = validation.context(x, y)
    has_pos, has_neg = y.any(axis=-1), (y == 0).any(axis=-1)
    xm, ym = tasks.mirror(x, y)
    right, right_m = head.hard_limit(x, y), head.hard_limit(xm, ym)  # compared as scored
    left = 1.0 - right_m
    n_right = np.sum((y == 1) & (x == right[..., None]), axis=-1)
    at_left = (ym == 1) & (xm == right_m[..., None])
    n_left = np.sum(at_left, axis=-1)
    value_left = np.where(at_left, x, 0.0).max(axis=-1)
    tie = has_pos & has_neg & (right == right_m)
    mixed = (n_right * right + n_left * value_left) / np.maximum(n_right + n_left, 1)
    take_right = has_pos & (~has_neg | (right < right_m))
    return np.where(tie, mixed, np.where(take_right, right, left))


def mirrored_population_estimate(a, b, s):
    """Infinite-context mirrored head ``1 - s_hat^inf(1 - s)`` (uniform features)."""
    s = validation.unit_interval(s, "s")
    return 1.0 - population.estimate(a, b, 1.0 - s)


def average_population_residual(a, b, s, q=None):
    """``s_bar^inf(s) - s`` and its gradient for the average of head and mirror.

    With ``r(s) = s_hat^inf(s) - s`` the head's residual, the mirror's residual is
    ``-r(1 - s)`` and the average's is ``(r(s) - r(1 - s)) / 2``. ``q = 1 - s`` may be
    given exactly (resolves thresholds within float spacing of 1).
    """
    s, q = validation.complements(s, q)
    r, r_a, r_b = population.residual(a, b, s, q)
    m, m_a, m_b = population.residual(a, b, q, s)
    return 0.5 * (r - m), 0.5 * (r_a - m_a), 0.5 * (r_b - m_b)


def threshold_nodes(a, b, prior):
    """Quadrature nodes ``(s, q, weight)`` for the symmetrized population loss.

    Like :func:`stumplib.population.threshold_nodes`, but graded toward both
    calibrated thresholds ``a/b`` (head) and ``1 - a/b`` (mirror) as well as toward
    both edges, in ``s`` below 1/2 and in ``q = 1 - s`` above.
    """
    a, b = validation.scalar_parameters(a, b)
    validation.density_law(prior, "prior")
    scale = 1.0 / max(abs(b), 1.0)
    edge = max(1e-3 * scale * np.exp(-max(a - b, -a, 0.0)), 1e-300)
    center = a / b if abs(b) > 1 else 0.5
    breaks = np.concatenate(
        [
            quadrature._graded(0.0, edge, 0.5)[1:],
            quadrature._graded(center, 1e-2 * scale),
            quadrature._graded(1.0 - center, 1e-2 * scale),
        ]
    )
    return population._prior_nodes(prior, breaks, breaks)


def average_population_loss_and_gradient(a, b, prior):
    """Population loss ``E_s (s_bar^inf(s) - s)^2`` of the average and its gradient.

    Parameters
    ----------
    a, b : float
        Shared parameters of the head and its mirror.
    prior : tasks.Uniform or tasks.Beta
        Threshold prior (uniform features).

    Returns
    -------
    loss, d_a, d_b : float
    """
    s, q, w = threshold_nodes(a, b, prior)
    return population._squared_error(w, *average_population_residual(a, b, s, q))


def _tail(b, length):
    """``length / (exp(b*length) - 1)`` (``1/b`` at ``length = 0``), overflow-free."""
    bl = b * length
    safe = np.where(bl > 1e-12, bl, 1.0)
    return np.where(bl > 1e-12, length * np.exp(-safe) / -np.expm1(-safe), 1.0 / b)


def population_edge_terms(a, b, s):
    """``eps(s)`` in the exact decomposition ``s_hat^inf(s) - s = 1/b - eps(s)``.

    For uniform features the negatives form a kernel ``e^{-bx}`` on ``[0, s]`` with
    mean ``1/b - s/(e^{bs} - 1)`` and the positives one on ``[s, 1]`` with mean
    ``s + 1/b - (1-s)/(e^{b(1-s)} - 1)``; mixing them with the class probabilities
    ``pi_-``, ``pi_+`` gives ``eps = pi_- (s + s/(e^{bs}-1)) + pi_+ (1-s)/(e^{b(1-s)}-1)``:
    leakage onto the negatives plus truncation of the positive kernel at 1. The head
    and its mirror share the ``1/b``, so the average's residual is
    ``(eps(1 - s) - eps(s)) / 2``.

    Parameters
    ----------
    a, b : float
        Head parameters, ``b > 0``.
    s : array_like
        Thresholds in [0, 1].

    Returns
    -------
    eps, pi_pos : ndarray
        The edge terms and the positive-class probability.
    """
    a, b = validation.scalar_parameters(a, b)
    b = validation.positive_scalar(b, "b")
    s = validation.unit_interval(s, "s")
    q = 1.0 - s
    with np.errstate(divide="ignore"):
        logit = (a - b * s) + np.log(-np.expm1(-b * q)) - np.log(-np.expm1(-b * s))
    pi_pos = special.expit(logit)
    eps = (1.0 - pi_pos) * (s + _tail(b, s)) + pi_pos * _tail(b, q)
    return eps, pi_pos
