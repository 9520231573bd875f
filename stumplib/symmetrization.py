r"""Reflected symmetrization of the one-head model: heads, population losses, flow.

The mirror map :math:`(x, y) \mapsto (1 - x, 1 - y)` (:func:`stumplib.tasks.mirror`)
turns positives into negatives. The *mirrored head* maps the head's estimate on the
mirrored context back, :math:`1 - \hat s(1 - x, 1 - y)`: it localizes :math:`s` from
below. Combinations:

- :func:`average_estimate`: the plain average of head and mirror;
- :func:`evidence_estimate`: weighted by the attention mass each puts on its positives;
- :func:`joint_estimate`: one softmax over both heads' scores.

Each has a hard-attention limit (:math:`b \to \infty`, :math:`a - b \to \infty`).

**Population.** For uniform features the head's population residual has the exact
decomposition :math:`\hat s^\infty(s) - s = 1/b - \varepsilon(s)` with the edge terms
:math:`\varepsilon(s) = \pi_- (s + T(s)) + \pi_+ T(1 - s)`,
:math:`T(u) = u/(e^{b u} - 1)` (:func:`edge_terms`). The mirror average has residual
:math:`(\varepsilon(1 - s) - \varepsilon(s))/2`: the shared :math:`1/b` cancels, and
computing the difference from the edge terms (not from the two residuals) keeps full
relative precision when the loss is far below :math:`1/b^2` (it reaches
:math:`10^{-40}` in long runs). The evidence-aware head weighs head and mirror by their
positive masses :math:`P = \pi_+(s)` and :math:`P' = \pi_+(1 - s)`; its residual is
:math:`\tanh(D/2)/b - w\, \varepsilon(s) + (1 - w)\, \varepsilon(1 - s)` with
:math:`w = P/(P + P')`, :math:`D = \log P - \log P'`. Both come with exact gradients in
:math:`(a, b)`, and :func:`loss_and_gradient` integrates them over a prior.

**Flow.** :func:`flow` follows :math:`d\theta/dt = -\nabla L` in the log-time variable
:math:`\tau = \log(1 + t)` with a stiff-capable solver (tens of decades of :math:`t` for
a few hundred gradient evaluations); :func:`rates` reads the growth rate
:math:`db/d\log t = t\, b'` and the loss exponent :math:`d\log L/d\log t` off the
gradient at each record (no differencing of the trajectory).
"""

from typing import NamedTuple

import numpy as np
from scipy import special

from . import (
    head,
    moments,
    population,
    quadrature,
    tasks,
    training,
    validation,
)

_POINTS = dict(a=validation.Finite(), b=validation.Finite())
_CONTEXT = dict(x=validation.UnitInterval(), y=validation.Labels())


def _complements(values):
    validation.complements(values["s"], values["q"])


_SIDE = dict(
    a=validation.Scalar(),
    b=validation.PositiveScalar(),
    s=validation.UnitInterval(),
    q=validation.UnitInterval(optional=True),
)


def _thresholds(s, q):
    s = np.asarray(s, dtype=float)
    return s, 1.0 - s if q is None else np.asarray(q, dtype=float)


@validation.constrained(validation.batched_context, **_POINTS, **_CONTEXT)
def mirrored_estimate(a, b, x, y):
    r"""The mirrored head :math:`1 - \hat s(a, b, 1 - x, 1 - y)`, shape ``(...)``.

    Parameters
    ----------
    a, b : float or array_like
        Head parameters; broadcast against the batch shape ``(...)``.
    x, y : array_like, shape (..., N)
        Features in [0, 1] and labels in {0, 1}.

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    ValueError
        If the context or the parameters are invalid (as
        :func:`stumplib.head.estimate`).
    """
    return 1.0 - head.estimate(a, b, *tasks.mirror(x, y))


@validation.constrained(validation.batched_context, **_POINTS, **_CONTEXT)
def average_estimate_and_gradient(a, b, x, y):
    r"""The average :math:`\bar s` of head and mirror, its gradient in :math:`(a, b)`.

    The mirrored head's gradient is minus the head's gradient on the mirrored
    context, so :math:`\partial \bar s/\partial a = (\operatorname{Cov}_w(x, y) -
    \operatorname{Cov}_{w'}(x', y'))/2` and likewise for :math:`b`.

    Parameters
    ----------
    a, b : float or array_like
        Head parameters; broadcast against the batch shape ``(...)``.
    x, y : array_like, shape (..., N)
        Features in [0, 1] and labels in {0, 1}.

    Returns
    -------
    s_bar, d_a, d_b : ndarray, shape (...)

    Raises
    ------
    ValueError
        As :func:`stumplib.head.estimate`.
    """
    est, d_a, d_b = head.estimate_and_gradient(a, b, x, y)
    est_m, d_am, d_bm = head.estimate_and_gradient(a, b, *tasks.mirror(x, y))
    return 0.5 * (est + 1.0 - est_m), 0.5 * (d_a - d_am), 0.5 * (d_b - d_bm)


@validation.constrained(validation.batched_context, **_POINTS, **_CONTEXT)
def average_estimate(a, b, x, y):
    r"""The average :math:`(\hat s + \hat s') / 2` of head and mirror, shape ``(...)``.

    Parameters
    ----------
    a, b : float or array_like
        Head parameters; broadcast against the batch shape ``(...)``.
    x, y : array_like, shape (..., N)
        Features in [0, 1] and labels in {0, 1}.

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    ValueError
        As :func:`stumplib.head.estimate`.
    """
    return average_estimate_and_gradient(a, b, x, y)[0]


@validation.constrained(validation.batched_context, **_POINTS, **_CONTEXT)
def log_positive_mass(a, b, x, y):
    r"""Log of the attention mass :math:`\sum_i w_i y_i` the head puts on positives.

    Exact in ratios when the mass itself underflows (see
    :meth:`stumplib.head.Contexts.log_positive_share`); ``-inf`` when the context has
    no positive example.

    Parameters
    ----------
    a, b : float or array_like
        Head parameters; broadcast against the batch shape ``(...)``.
    x, y : array_like, shape (..., N)
        Features in [0, 1] and labels in {0, 1}.

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    ValueError
        As :func:`stumplib.head.estimate`.
    """
    return head.Contexts(x, y).log_positive_share(a, b)


@validation.constrained(validation.batched_context, **_POINTS, **_CONTEXT)
def positive_mass(a, b, x, y):
    r"""Attention mass :math:`\sum_i w_i y_i` that the head puts on positive examples.

    Exactly zero when the context has no positive example; close to one when the
    head attends to a positive (:math:`a - b x_+` well above the negatives' scores).

    Parameters
    ----------
    a, b : float or array_like
        Head parameters; broadcast against the batch shape ``(...)``.
    x, y : array_like, shape (..., N)
        Features in [0, 1] and labels in {0, 1}.

    Returns
    -------
    ndarray, shape (...)
        Masses in [0, 1].

    Raises
    ------
    ValueError
        As :func:`stumplib.head.estimate`.
    """
    return np.exp(log_positive_mass(a, b, x, y))


@validation.constrained(validation.batched_context, **_POINTS, **_CONTEXT)
def evidence_estimate(a, b, x, y):
    r"""Head and mirror weighted by the evidence each has on its own side.

    :math:`(p \hat s + p' \hat s') / (p + p')` with :math:`p` the head's attention mass
    on positives and :math:`p'` the mirrored head's mass on its positives (the original
    negatives). The weight :math:`p / (p + p')` is computed from the log masses, so it
    is exact when both masses underflow. A head whose side is empty gets weight exactly
    zero, so the combination falls back on the other side; with both sides present it
    tends to the gap midpoint.

    Parameters
    ----------
    a, b : float or array_like
        Head parameters; broadcast against the batch shape ``(...)``.
    x, y : array_like, shape (..., N)
        Features in [0, 1] and labels in {0, 1}.

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    ValueError
        As :func:`stumplib.head.estimate`.
    """
    sides = head.Contexts(x, y), head.Contexts(*tasks.mirror(x, y))
    (est, log_p), (est_m, log_p_m) = (
        (c.summaries(a, b)[0], c.log_positive_share(a, b)) for c in sides
    )
    weight = special.expit(log_p - log_p_m)
    return weight * est + (1.0 - weight) * (1.0 - est_m)


@validation.constrained(validation.batched_context, **_POINTS, **_CONTEXT)
def joint_estimate(a, b, x, y):
    """One softmax over the head's and the mirrored head's scores.

    The :math:`2N` scores :math:`a y_i - b x_i` and :math:`a (1 - y_i) - b (1 - x_i)`
    share one softmax and both carry the value :math:`x_i`; equivalently, head and
    mirror are averaged with weights proportional to their softmax normalizers, taken
    relative to the largest score (no overflow or underflow of the total).

    Parameters
    ----------
    a, b : float or array_like
        Head parameters; broadcast against the batch shape ``(...)``.
    x, y : array_like, shape (..., N)
        Features in [0, 1] and labels in {0, 1}.

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    ValueError
        As :func:`stumplib.head.estimate`.
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    a, b = (np.broadcast_to(v, x.shape[:-1])[..., None] for v in (a, b))
    scores = np.concatenate([a * y - b * x, a * (1 - y) - b * (1 - x)], axis=-1)
    return np.sum(
        special.softmax(scores, axis=-1) * np.concatenate([x, x], axis=-1), axis=-1
    )


@validation.constrained(validation.one_context, **_CONTEXT)
def mirrored_hard_limit(x, y):
    """Hard limit of the mirrored head: the largest negative (with none, the largest x).

    Parameters
    ----------
    x, y : array_like, shape (..., N)
        Features in [0, 1] and labels in {0, 1}.

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    ValueError
        If the context is invalid.
    """
    return 1.0 - head.hard_limit(*tasks.mirror(x, y))


@validation.constrained(validation.one_context, **_CONTEXT)
def average_hard_limit(x, y):
    """Hard limit of the average: the gap midpoint, or the midrange of an empty side.

    Parameters
    ----------
    x, y : array_like, shape (..., N)
        Features in [0, 1] and labels in {0, 1}.

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    ValueError
        If the context is invalid.
    """
    return 0.5 * (head.hard_limit(x, y) + mirrored_hard_limit(x, y))


@validation.constrained(validation.one_context, **_CONTEXT)
def evidence_hard_limit(x, y):
    """Hard limit of :func:`evidence_estimate`: the gap midpoint, or the present side.

    Parameters
    ----------
    x, y : array_like, shape (..., N)
        Features in [0, 1] and labels in {0, 1}.

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    ValueError
        If the context is invalid.
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    has_pos, has_neg = y.any(axis=-1), (y == 0).any(axis=-1)
    mid = average_hard_limit(x, y)
    return np.where(
        has_pos & has_neg,
        mid,
        np.where(has_pos, head.hard_limit(x, y), mirrored_hard_limit(x, y)),
    )


@validation.constrained(validation.one_context, **_CONTEXT)
def joint_hard_limit(x, y):
    r"""Hard limit of :func:`joint_estimate`: the side whose top score is higher.

    The softmax keeps the highest scores: :math:`a - b R` for the head's nearest
    positives :math:`R` (:math:`-b \min x` with no positive) and :math:`a - b (1 - L)`
    for the mirror's, :math:`L` the largest negative (:math:`-b (1 - \max x)` with no
    negative). With both sides present it keeps :math:`R` if :math:`R < 1 - L` and
    :math:`L` if :math:`R > 1 - L`; at a tie it averages the tied examples,
    :math:`(n_R R + n_L L) / (n_R + n_L)` with :math:`n_R` positives at :math:`R` and
    :math:`n_L` negatives at :math:`L`.

    Parameters
    ----------
    x, y : array_like, shape (..., N)
        Features in [0, 1] and labels in {0, 1}.

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    ValueError
        If the context is invalid.
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    has_pos, has_neg = y.any(axis=-1), (y == 0).any(axis=-1)
    xm, ym = tasks.mirror(x, y)
    right, right_m = (
        head.hard_limit(x, y),
        head.hard_limit(xm, ym),
    )  # compared as scored
    left = 1.0 - right_m
    n_right = np.sum((y == 1) & (x == right[..., None]), axis=-1)
    at_left = (ym == 1) & (xm == right_m[..., None])
    n_left = np.sum(at_left, axis=-1)
    value_left = np.where(at_left, x, 0.0).max(axis=-1)
    tie = has_pos & has_neg & (right == right_m)
    mixed = (n_right * right + n_left * value_left) / np.maximum(n_right + n_left, 1)
    take_right = has_pos & (~has_neg | (right < right_m))
    return np.where(tie, mixed, np.where(take_right, right, left))


def _tail(b, length):
    """``T = length/(e^{b length} - 1)`` (``1/b`` at 0), ``dT/db = -T (T + length)``."""
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
    r"""One head at thresholds ``s``: edge term, positive mass, their gradients.

    Parameters
    ----------
    eps : ndarray
        The edge term :math:`\varepsilon(s)` at each threshold.
    eps_a, eps_b : ndarray
        Its derivatives in ``a`` and ``b``.
    logit : ndarray
        The logit of the head's attention mass on positives.
    logit_b : ndarray
        Its derivative in ``b``.
    """

    eps: np.ndarray
    eps_a: np.ndarray
    eps_b: np.ndarray
    logit: np.ndarray
    logit_b: np.ndarray


@validation.constrained(_complements, **_SIDE)
def side(a, b, s, q=None):
    r"""Edge term :math:`\varepsilon` and the positive mass's logit, with gradients.

    Parameters
    ----------
    a, b : float
        Head parameters, ``b > 0``.
    s, q : ndarray
        Thresholds and their exact complements :math:`1 - s` (computed if not given).

    Returns
    -------
    Side
        :math:`\varepsilon`, its derivatives in :math:`a` and :math:`b`,
        :math:`\operatorname{logit}(\pi_+)` and its derivative in :math:`b` (its
        derivative in :math:`a` is 1). :math:`\varepsilon = 1/b + O(1)` and
        :math:`\partial\varepsilon/\partial b = -1/b^2 + O(1)`: ``inf`` and ``-inf``
        where those exceed the largest float (:math:`b` near 0).
    """
    s, q = _thresholds(s, q)
    if b >= 1:
        return _side(a, b, s, q)
    excess = _small_side(a, b, s, q)
    with np.errstate(over="ignore", divide="ignore"):  # 1/b past the floats: inf
        inverse = np.float64(b) ** -1.0
        return excess._replace(
            eps=inverse + excess.eps, eps_b=excess.eps_b - inverse**2
        )


def _small_side(a, b, s, q):
    """:func:`_side` for ``b < 1``; its ``eps``, ``eps_b`` less ``1/b`` and ``-1/b²``.

    Where ``b l`` is small the tails ``T(l) = 1/b - l M(b l)`` (``M`` the mean fraction
    of the law ``∝ e^{-b u}`` on ``[0, l]``, whose ``b``-derivative gives
    ``dT/db = -1/b² + l² V(b l)``) are ``1/b`` plus a term of order ``l``: written
    without the ``1/b``, which cancels from every residual, the terms keep full
    precision down to the smallest ``b``.
    """
    lm_neg, mean_s, var_s = moments.truncated_exponential.unchecked(b, s)
    lm_pos, mean_q, var_q = moments.truncated_exponential.unchecked(b, q)
    with np.errstate(invalid="ignore"):  # an empty class at an edge: logit ±inf
        logit = np.where(s <= 0.5, a - b * s, (a - b) + b * q) + lm_pos - lm_neg
    logit_b = -s + mean_s - mean_q
    p_pos, p_neg = special.expit(logit), special.expit(-logit)
    jump = mean_s - s - mean_q
    excess = p_neg * (s - mean_s) - p_pos * mean_q
    eps_a = p_pos * p_neg * jump
    excess_b = eps_a * logit_b + p_neg * var_s + p_pos * var_q
    return Side(excess, eps_a, excess_b, logit, logit_b)


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


@validation.constrained(
    a=validation.Scalar(), b=validation.PositiveScalar(), s=validation.UnitInterval()
)
def edge_terms(a, b, s):
    r"""The edge term :math:`\varepsilon(s)` of the population residual.

    In the exact decomposition :math:`\hat s^\infty(s) - s = 1/b - \varepsilon(s)`.
    For uniform features the negatives form a kernel :math:`e^{-bx}` on :math:`[0, s]`
    with mean :math:`1/b - s/(e^{bs} - 1)` and the positives one on :math:`[s, 1]` with
    mean :math:`s + 1/b - (1-s)/(e^{b(1-s)} - 1)`; mixed with the class probabilities,
    :math:`\varepsilon = \pi_- (s + s/(e^{bs}-1)) + \pi_+ (1-s)/(e^{b(1-s)}-1)`:
    leakage onto the negatives plus truncation of the positive kernel at 1. The head and
    its mirror share the :math:`1/b`, so the average's residual is
    :math:`(\varepsilon(1 - s) - \varepsilon(s)) / 2` (:func:`average_residual`).

    Parameters
    ----------
    a, b : float
        Head parameters, ``b > 0``.
    s : array_like
        Thresholds in [0, 1].

    Returns
    -------
    eps, pi_pos : ndarray
        The edge terms and the positive-class probability; ``eps = 1/b + O(1)`` is
        ``inf`` where ``1/b`` exceeds the largest float.
    """
    one = side(a, b, s)
    return one.eps, special.expit(one.logit)


@validation.constrained(_complements, **_SIDE)
def average_residual(a, b, s, q=None):
    r"""Residual :math:`(\varepsilon(1 - s) - \varepsilon(s))/2` of the mirror average.

    With its gradient.

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
    s, q = _thresholds(s, q)
    one = _side if b >= 1 else _small_side  # the 1/b cancels: excesses below 1
    head, mirror = one(a, b, s, q), one(a, b, q, s)
    return tuple(0.5 * (m - h) for h, m in zip(head[:3], mirror[:3]))


@validation.constrained(_complements, **_SIDE)
def evidence_residual(a, b, s, q=None):
    r"""Residual of the evidence-aware head at infinite context, and its gradient.

    Head and mirror are weighted by their attention masses on their own positives,
    :math:`P = \pi_+(s)` and :math:`P' = \pi_+(1 - s)`; with :math:`w = P/(P + P')` the
    residual is :math:`(2w - 1)/b - w\, \varepsilon(s) + (1 - w)\, \varepsilon(1 - s)`.

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
    s, q = _thresholds(s, q)
    if b >= 1:
        head, mirror = _side(a, b, s, q), _side(a, b, q, s)
    else:  # the terms in 1/b (w/b - (1 - w)/b = tilt/b) cancel: excesses below 1
        head, mirror = _small_side(a, b, s, q), _small_side(a, b, q, s)
    gap = special.log_expit(head.logit) - special.log_expit(mirror.logit)
    gap_a = special.expit(-head.logit) - special.expit(-mirror.logit)
    gap_b = (
        special.expit(-head.logit) * head.logit_b
        - special.expit(-mirror.logit) * mirror.logit_b
    )
    w = special.expit(gap)
    w_a, w_b = w * (1 - w) * gap_a, w * (1 - w) * gap_b
    if b >= 1:
        tilt = np.tanh(0.5 * gap)  # 2w - 1
        spread = 2.0 / b - head.eps - mirror.eps  # d r / d w
        r = tilt / b - w * head.eps + (1 - w) * mirror.eps
        with np.errstate(over="ignore"):  # b² beyond the floats: the term is 0
            r_b = (
                w_b * spread - tilt / (b * b) - w * head.eps_b + (1 - w) * mirror.eps_b
            )
    else:
        spread = -head.eps - mirror.eps
        r = -w * head.eps + (1 - w) * mirror.eps
        r_b = w_b * spread - w * head.eps_b + (1 - w) * mirror.eps_b
    r_a = w_a * spread - w * head.eps_a + (1 - w) * mirror.eps_a
    return r, r_a, r_b


RESIDUALS = {"average": average_residual, "evidence": evidence_residual}


def _rule(value, name):
    if not isinstance(value, str) or value not in RESIDUALS:
        raise ValueError(f"{name} must be one of {tuple(RESIDUALS)} (got {value!r})")
    return value


def _t_max(value, name):
    value = validation.positive_scalar(value, name)
    if value <= 1e-2:
        raise ValueError(f"{name} must exceed 1e-2 (got {value})")
    return value


#: A combination of head and mirror, one of the keys of ``RESIDUALS``.
RULE = validation.Constraint(_rule, (("joint", ValueError), (None, ValueError)))
#: The end of a flow recorded from :math:`t = 10^{-2}` on: a number above
#: :math:`10^{-2}`.
T_MAX = validation.Constraint(
    _t_max,
    ((None, TypeError), ("1", TypeError), (np.nan, ValueError), (1e-2, ValueError)),
)


@validation.constrained(
    a=validation.Scalar(), b=validation.Scalar(), prior=validation.DensityLaw()
)
def threshold_nodes(a, b, prior):
    """Quadrature nodes ``(s, q, weight)`` for the symmetrized heads' population losses.

    ``q`` holds :math:`1 - s` exactly. Panels are graded toward both edges (down to the
    inner layers of width :math:`e^{-(a-b)}/b`), toward the calibrated thresholds
    :math:`a/b` and :math:`1 - a/b` and toward the ends of the prior's support (layers
    of width :math:`1/b`).

    Parameters
    ----------
    a, b : float
        Head parameters.
    prior : tasks.Uniform or tasks.Beta
        Threshold prior.

    Returns
    -------
    s, q, weight : ndarray, shape (k,)
        Nodes, their exact complements and the weights (density times rule weight).

    Raises
    ------
    ValueError
        If ``a`` or ``b`` is not a finite scalar.
    TypeError
        If ``prior`` is not a law with a density.
    """
    scale = 1.0 / max(abs(b), 1.0)
    edge = max(1e-3 * scale * np.exp(-max(a - b, -a, 0.0)), 1e-300)
    center = a / b if abs(b) > 1 else 0.5
    lo, hi = prior.support
    points = [quadrature.graded.unchecked(0.0, edge, 0.5)[1:]]
    points += [
        quadrature.graded.unchecked(p, 1e-2 * scale)
        for p in (center, 1.0 - center, lo, 1.0 - hi)
    ]
    points += [
        quadrature.graded.unchecked(1.0 - p, 1e-2 * scale) for p in (lo, 1.0 - hi)
    ]
    breaks = np.concatenate(points)
    return population.prior_nodes.unchecked(prior, breaks, breaks)


@validation.constrained(
    rule=RULE,
    a=validation.Scalar(),
    b=validation.PositiveScalar(),
    prior=validation.DensityLaw(),
)
def loss_and_gradient(a, b, prior, rule="average"):
    r"""Population loss :math:`\mathbb{E}_s r(s)^2` of a symmetrized head, its gradient.

    :math:`r(s)` is the head's residual at threshold :math:`s`.

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

    Raises
    ------
    ValueError
        If ``rule`` is not one of ``"average"`` or ``"evidence"``.
    """
    s, q, w = threshold_nodes(a, b, prior)
    return population.squared_error.unchecked(w, *RESIDUALS[rule].unchecked(a, b, s, q))


def _relative_tolerance(values):
    if not values["rtol"] < 1:
        raise ValueError(f"rtol must lie in (0, 1) (got {values['rtol']:g})")


@validation.constrained(
    _relative_tolerance,
    t_max=T_MAX,
    points=validation.Integer(minimum=2),
    rtol=validation.PositiveScalar(),
    loss_and_gradient=validation.Function(),
    theta0=validation.Point(),
)
def flow(loss_and_gradient, theta0, t_max, points=120, rtol=1e-8):
    r"""Gradient flow of a symmetrized loss from :math:`t = 0`, integrated in log time.

    :func:`stumplib.training.flow` in :math:`\tau = \log(1 + t)`, with records at
    :math:`t = 0` and at ``points`` log-spaced times from :math:`10^{-2}` to ``t_max``.

    Parameters
    ----------
    loss_and_gradient : callable
        :math:`(a, b) \mapsto (L, \partial L/\partial a, \partial L/\partial b)`.
    theta0 : tuple of float
        Initial :math:`(a, b)`.
    t_max : float
        Final time, above :math:`10^{-2}`.
    points : int
        Number of log-spaced records.
    rtol : float
        Relative tolerance of the solver (the absolute one is ``rtol`` times
        :math:`10^{-2}`).

    Returns
    -------
    training.Trajectory

    Raises
    ------
    ValueError
        If ``t_max`` is not above :math:`10^{-2}`.
    """
    times = np.concatenate([[0.0], np.geomspace(1e-2, t_max, points)])
    return training.flow(
        loss_and_gradient, theta0, times, rtol=rtol, atol=rtol * 1e-2, log_time=True
    )


class Rates(NamedTuple):
    r"""Local rates along a trajectory, read off the gradient at each record.

    Parameters
    ----------
    db_dlog_t : ndarray
        :math:`db / d\log t` along the flow, :math:`-t\, \partial L/\partial b`.
    loss_exponent : ndarray
        :math:`-d\log L / d\log t`, :math:`t |\nabla L|^2 / L`.
    """

    db_dlog_t: np.ndarray
    loss_exponent: np.ndarray


def _from_zero(values):
    if np.any(np.asarray(values["trajectory"].t, dtype=float) < 0):
        raise ValueError("trajectory.t must be non-negative")


@validation.constrained(
    _from_zero,
    loss_and_gradient=validation.Function(),
    trajectory=validation.Trajectory(),
)
def rates(loss_and_gradient, trajectory):
    r"""The rates :math:`db/d\log t` and :math:`d\log L/d\log t` at each record.

    :math:`db/d\log t = -t\, \partial L/\partial b` and
    :math:`d\log L/d\log t = -t |\nabla L|^2 / L`.

    Parameters
    ----------
    loss_and_gradient : callable
        :math:`(a, b) \mapsto (L, \partial L/\partial a, \partial L/\partial b)`, the
        loss the trajectory follows.
    trajectory : training.Trajectory
        Records with ``t > 0`` (a record at ``t = 0`` gives zeros).

    Returns
    -------
    Rates

    Raises
    ------
    ValueError
        If ``trajectory.t`` is negative or the loss is not positive along the
        trajectory.
    """
    t, a, b = (np.asarray(getattr(trajectory, k), dtype=float) for k in "tab")
    values = np.array([loss_and_gradient(ai, bi) for ai, bi in zip(a, b)])
    loss, g_a, g_b = values.T
    if np.any(loss <= 0):
        raise ValueError("the loss must be positive along the trajectory")
    return Rates(-t * g_b, -t * (g_a**2 + g_b**2) / loss)
