r"""Two-class softmax mixtures and the moments of truncated exponential laws.

With scores :math:`z = a y - b x` the softmax weights split into a negative class
(:math:`y = 0`) and a positive class (:math:`y = 1`). Each class is summarized by its
log mass, its mean (as an offset :math:`d` from a common origin) and its variance
:math:`v`; the head's estimate and gradient follow from these six numbers alone:

- estimate :math:`= \mathrm{origin} + \pi_- d_- + \pi_+ d_+`;
- :math:`\partial/\partial a = \operatorname{Cov}_w(x, y) = \pi_- \pi_+ (d_+ - d_-)`;
- :math:`\partial/\partial b = -\operatorname{Var}_w(x)
  = -\bigl(\pi_- v_- + \pi_+ v_+ + \pi_- \pi_+ (d_+ - d_-)^2\bigr)`,

where :math:`\pi_+ = \operatorname{expit}(\log M_+ - \log M_-)`, :math:`M_\pm` the
classes' masses. The same combination serves the finite-context head, the corpus and
the infinite-context (population) head.
"""

import numpy as np
from scipy import special

from . import validation

# Below these |t| the closed forms cancel; Taylor series are used instead.
_SMALL_MEAN, _SMALL_VAR = 1e-2, 1e-1


def _summary(value, name):
    """A class summary ``(log_mass, offset, variance)`` as three float arrays."""
    if not isinstance(value, (tuple, list)) or len(value) != 3:
        raise ValueError(f"{name} must be a triple (log_mass, offset, variance)")
    log_mass, offset, variance = (
        validation.real(v, f"{name}[{i}]") for i, v in enumerate(value)
    )
    if not (log_mass < np.inf).all():  # NaN or +inf
        raise ValueError(f"{name}[0] (log mass) must be finite or -inf")
    for i, v in ((1, offset), (2, variance)):
        if not np.isfinite(v).all() and np.any(~np.isfinite(v) & (log_mass > -np.inf)):
            raise ValueError(f"{name}[{i}] must be finite where the class is not empty")
    return log_mass, offset, variance


#: A class summary ``(log_mass, offset, variance)``: real arrays, the log mass finite
#: or ``-inf`` (an empty class, whose offset and variance are then ignored).
SUMMARY = validation.Constraint(
    _summary,
    (
        (None, ValueError),
        ((0.0, 0.0), ValueError),
        ((np.nan, 0.0, 0.0), ValueError),
        ((np.inf, 0.0, 0.0), ValueError),
        ((0.0, np.nan, 0.0), ValueError),
        ((0.0, 0.0, "v"), TypeError),
    ),
)


def _broadcastable(values):
    names = [f"{n}[{i}]" for n in ("neg", "pos") for i in range(3)]
    validation.broadcastable([*values["neg"], *values["pos"]], names)
    if np.any((values["neg"][0] == -np.inf) & (values["pos"][0] == -np.inf)):
        raise ValueError(
            "neg and pos are both empty (log mass -inf) somewhere: no estimate there"
        )


@validation.constrained(_broadcastable, neg=SUMMARY, pos=SUMMARY)
def combine(neg, pos):
    r"""Estimate offset and its gradient from the two class summaries.

    Parameters
    ----------
    neg, pos : tuple of ndarray
        ``(log_mass, offset, variance)`` of each class; an empty class has
        ``log_mass = -inf`` (its offset and variance are then ignored).

    Returns
    -------
    offset, d_a, d_b : ndarray
        Estimate minus the common origin, :math:`\operatorname{Cov}_w(x, y)` and
        :math:`-\operatorname{Var}_w(x)`.

    Raises
    ------
    ValueError
        If a summary is not a triple, its log mass is NaN or ``+inf``, its offset or
        variance is not finite for a non-empty class, or both classes are empty.

    Examples
    --------
    >>> offset, d_a, d_b = combine((0.0, 0.1, 0.01), (0.0, 0.5, 0.04))
    >>> round(float(offset), 6), round(float(d_a), 6), round(float(d_b), 6)
    (0.3, 0.1, -0.065)
    """
    (lm_neg, d_neg, v_neg), (lm_pos, d_pos, v_pos) = neg, pos
    with np.errstate(invalid="ignore"):
        logit = lm_pos - lm_neg
    p_pos, p_neg = special.expit(logit), special.expit(-logit)
    d_neg, v_neg = np.where(p_neg > 0, d_neg, 0.0), np.where(p_neg > 0, v_neg, 0.0)
    d_pos, v_pos = np.where(p_pos > 0, d_pos, 0.0), np.where(p_pos > 0, v_pos, 0.0)
    gap = d_pos - d_neg
    mixed = p_neg * p_pos
    offset = p_neg * d_neg + p_pos * d_pos
    return offset, mixed * gap, -(p_neg * v_neg + p_pos * v_pos + mixed * gap**2)


def _log_phi(t):
    at = np.abs(t)
    small = at < _SMALL_MEAN
    safe = np.where(small, 1.0, at)
    direct = np.maximum(-t, 0.0) + np.log(-np.expm1(-safe)) - np.log(safe)
    series = -t / 2 + t**2 / 24 - t**4 / 2880
    return np.where(small, series, direct)


@validation.constrained(t=validation.Finite())
def mean_fraction(t):
    r"""Mean of the law with density :math:`\propto e^{-t u}` on :math:`[0, 1]`.

    :math:`1/t - 1/(e^t - 1)`.

    By a Taylor series where the closed form cancels (:math:`|t| < 10^{-2}`).

    Parameters
    ----------
    t : float or ndarray
        Rate times the interval's length (any sign).

    Returns
    -------
    float or ndarray
        The mean, in :math:`(0, 1)` (:math:`1/2` at :math:`t = 0`).

    Examples
    --------
    >>> float(mean_fraction(0.0)), round(float(mean_fraction(1.0)), 6)
    (0.5, 0.418023)
    """
    return _mean_fraction(t)


def _mean_fraction(t):
    small = np.abs(t) < _SMALL_MEAN
    safe = np.where(small, 1.0, t)
    with np.errstate(over="ignore"):
        direct = 1.0 / safe - 1.0 / np.expm1(safe)
    series = 0.5 - t / 12 + t**3 / 720 - t**5 / 30240
    return np.where(small, series, direct)


def _variance_fraction(t):
    at = np.abs(t)
    small = at < _SMALL_VAR
    safe = np.where(small, 1.0, at)
    direct = 1.0 / safe**2 - np.exp(-safe) / np.expm1(-safe) ** 2
    series = 1 / 12 - t**2 / 240 + t**4 / 6048 - t**6 / 172800 + t**8 / 5322240
    return np.where(small, series, direct)


def _rate_length_shift(values):
    validation.broadcastable(
        [values[k] for k in ("rate", "length", "shift")], ("rate", "length", "shift")
    )
    with np.errstate(over="ignore"):
        growth = -values["rate"] * values["length"]
    if np.any(growth == np.inf):
        raise ValueError(
            "rate * length must be a float where rate < 0 (the log mass is about "
            "-rate * length)"
        )


@validation.constrained(
    _rate_length_shift,
    rate=validation.Finite(),
    length=validation.NonNegative(),
    shift=validation.Finite(),
)
def truncated_exponential(rate, length, shift=0.0):
    r"""Class summary of the weight :math:`e^{s - r u}` on :math:`u \in [0, L]`.

    With :math:`r` the ``rate``, :math:`L` the ``length`` and :math:`s` the ``shift``.

    Parameters
    ----------
    rate : float or ndarray
        Decay rate of the weight (any sign).
    length : float or ndarray
        The interval's length, ``>= 0`` (broadcast against ``rate``).
    shift : float or ndarray, optional
        Log weight at ``u = 0``.

    Returns
    -------
    log_mass, offset, variance : ndarray
        Log of the total weight (``-inf`` for an empty interval), the weighted mean of
        ``u`` and its weighted variance (the summary :func:`combine` takes).

    Examples
    --------
    >>> [round(float(v), 6) for v in truncated_exponential(0.0, 2.0)]  # uniform
    [0.693147, 1.0, 0.333333]
    >>> [float(v) for v in truncated_exponential(1e300, 1e300)]  # rate u overflows
    [-690.7755278982137, 1e-300, 0.0]

    Notes
    -----
    Write :math:`t = r L`. Where
    :math:`|t| > 1` the summary is taken in units of :math:`1/r` (log mass
    :math:`\max(-t, 0) + \log(1 - e^{-|t|}) - \log|r|`, mean :math:`1/r - L/(e^t - 1)`,
    variance :math:`r^{-2} \bigl(1 - t^2 e^{|t|} / (e^{|t|} - 1)^2\bigr)`), so that
    :math:`t` may overflow where :math:`r > 0`. Where :math:`r < 0` the log mass is
    about :math:`-t`: :math:`-r L` must be a float.
    """
    with np.errstate(over="ignore"):
        t = rate * length
    at = np.abs(t)
    far = at > 1.0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        inverse = 1.0 / np.where(far, rate, 1.0)
        log_mass = np.where(
            far,
            np.maximum(-t, 0.0)
            + np.log(-np.expm1(-np.where(far, at, 1.0)))
            + np.log(np.abs(inverse)),
            np.log(length) + _log_phi(np.where(far, 0.0, t)),
        )
        tail = np.where(at > 1500.0, 0.0, t * np.exp(-at / 2) / np.expm1(-at))
        mean = np.where(
            far,
            inverse - length / np.expm1(np.where(far, t, 1.0)),
            length * _mean_fraction(np.where(far, 0.0, t)),
        )
        variance = np.where(
            far,
            inverse**2 * (1.0 - tail**2),
            length**2 * _variance_fraction(np.where(far, 0.0, t)),
        )
    return shift + log_mass, mean, variance
