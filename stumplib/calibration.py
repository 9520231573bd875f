"""The calibrated valley of the population loss.

``a*(b)``, ``min_a L`` and ``L(a -> inf, b)``.

Under an interior prior ``U[lo, hi]`` (``hi < 1``) the population loss ``L(a, b)`` has,
at each resolution ``b``, a finite minimizer ``a*(b)`` in the label score: raising ``a``
suppresses the leakage of negatives into the estimate but, past ``a ≈ hi·b + log b``, no
threshold of the prior gains from it any more. Asymptotically
(:mod:`stumplib.symbolic.population`) ``a*(b) = hi·b + log b + log(hi/2) + O(1/b)``.
Under a prior that reaches ``s = 1`` (e.g. ``U[0, 1]``) the loss decreases in ``a`` at
every ``b``: there is no finite
minimizer, and the infimum is the limit ``L(∞, b)``, in which the head averages the
positive examples only.

On the valley and on the slow curve of the flow, the per-task gradients are carried by
a layer of thresholds of width ``1/b`` below ``hi``; its constants
(:func:`sampling_constant`, its corrections :func:`sampling_correction`,
:func:`slow_layer`) are derived in
:mod:`stumplib.symbolic.sampling`.

``a*(b)`` is found as the root of the population gradient ``∂L/∂a`` (computed in
closed form by :mod:`stumplib.population`, with relative accuracy even where it is
exponentially small), bracketed by steps doubling away from the asymptotic guess.
"""

from typing import NamedTuple

import numpy as np
from scipy import optimize

from . import moments, population, quadrature, tasks, validation

_SEARCH = 64.0  # how far (in a) beyond the asymptotic guess a sign change is sought
_TAIL = (
    700.0  # beyond t = b(1 - s) = 700 the positives' bias is 1/b to double precision
)


def _uniform(prior, name):
    if not isinstance(prior, tasks.Uniform):
        raise TypeError(
            f"{name} must be a tasks.Uniform prior (got {type(prior).__name__})"
        )
    return prior


def _below_one(prior, name):
    validation.instance(prior, tasks.Uniform, name)
    hi = float(prior.support[1])
    if not hi < 1.0:
        raise ValueError(
            f"{name} must lie below 1 (got hi = {hi}): no valley on a prior reaching 1"
        )
    return prior


_NOT_UNIFORM = (
    (None, TypeError),
    ("uniform", TypeError),
    (tasks.Beta(2, 2), TypeError),
)
#: A threshold prior uniform on an interval.
UNIFORM = validation.Constraint(_uniform, _NOT_UNIFORM)
#: A threshold prior uniform on an interval below 1 (a valley exists).
BELOW_ONE = validation.Constraint(
    _below_one, (*_NOT_UNIFORM, (tasks.Uniform(), ValueError))
)


@validation.constrained(b=validation.Positive(), prior=UNIFORM)
def guess(b, prior):
    """Asymptotic valley ``hi·b + log b + log(hi/2)``.

    ``log b`` replaced by 0 for ``b < 1``.

    Parameters
    ----------
    b : float or array_like
        Resolution(s), positive.
    prior : tasks.Uniform
        Threshold prior.
    """
    hi = prior.hi
    return hi * b + np.log(np.maximum(b, 1.0)) + np.log(hi / 2.0)


def _dl_da(a, b, prior, features):
    """``dL/da`` for the root search of :func:`a_star`.

    Its arguments validated there.
    """
    return population.loss_and_gradient(a, b, prior, features)[1]


def _bracket(b, prior, features):
    """An interval ``(a_lo, a_hi)``: ``∂L/∂a < 0`` at ``a_lo``, ``> 0`` at ``a_hi``."""
    a0 = float(guess(b, prior))
    g0 = _dl_da(a0, b, prior, features)
    if g0 == 0.0:
        return a0, a0
    direction = 1.0 if g0 < 0 else -1.0
    prev, step = a0, 1.0
    while step <= _SEARCH:
        a1 = a0 + direction * step
        if (_dl_da(a1, b, prior, features) > 0) == (direction > 0):
            return (prev, a1) if direction > 0 else (a1, prev)
        prev, step = a1, 2 * step
    if direction > 0:
        raise ValueError(
            f"no finite minimizer in a at b={b:g} for {prior}: dL/da < 0 up to "
            f"a = {prev:.6g} (guess + {_SEARCH:g}); the loss decreases in a, "
            "as it does for priors reaching s = 1 such as U[0, 1] "
            "(use loss_at_infinity)"
        )
    raise ValueError(
        f"no finite minimizer in a at b={b:g} for {prior}: dL/da > 0 down to "
        f"a = {prev:.6g} (guess - {_SEARCH:g}); at this low resolution the loss "
        "increases in a (the head does better on negatives alone)"
    )


def _a_star_scalar(b, prior, features):
    lo_a, hi_a = _bracket(b, prior, features)
    if lo_a == hi_a:
        return lo_a
    return optimize.brentq(
        _dl_da, lo_a, hi_a, args=(b, prior, features), xtol=1e-12, rtol=1e-15
    )


@validation.constrained(
    b=validation.Positive(), prior=UNIFORM, features=validation.Features()
)
def a_star(b, prior, features=None):
    """The finite minimizer ``a*(b) = argmin_a L(a, b)`` under an interior uniform law.

    Parameters
    ----------
    b : float or array_like
        Resolution(s), positive (robust from about 1 to 1e6).
    prior : tasks.Uniform
        Threshold prior ``U[lo, hi]`` with ``hi < 1``.
    features : optional
        Feature law, as in :func:`stumplib.population.loss` (default uniform; a Beta
        law costs a quadrature per gradient, and its valley has another ``log b``
        coefficient, found by the same bracketing around the uniform guess).

    Returns
    -------
    float or ndarray
        ``a*(b)``, with the shape of ``b``.

    Raises
    ------
    ValueError
        If ``b`` is not positive, the prior is not uniform, or the loss has no finite
        minimizer in ``a`` (e.g. ``U[0, 1]``, where it decreases in ``a``).
    """
    b = np.asarray(b, dtype=float)  # as given when called inside the library
    out = np.array([_a_star_scalar(float(bi), prior, features) for bi in b.ravel()])
    out = out.reshape(b.shape)
    return float(out) if out.ndim == 0 else out


@validation.constrained(b=validation.Positive(), prior=UNIFORM)
def min_loss(b, prior):
    """``min_a L(a, b) = L(a*(b), b)`` under an interior uniform prior (shape of ``b``).

    Parameters
    ----------
    b : float or array_like
        Resolution(s), positive.
    prior : tasks.Uniform
        Threshold prior, uniform on an interior interval.

    Returns
    -------
    float or ndarray
        The minimal loss at each ``b``, with the shape of ``b``.

    Raises
    ------
    ValueError
        As :func:`a_star`.
    TypeError
        If ``prior`` is not a :class:`~stumplib.tasks.Uniform`.
    """
    a, b = np.asarray(a_star(b, prior)), np.asarray(b, dtype=float)
    out = np.array(
        [population.loss(ai, bi, prior) for ai, bi in zip(a.ravel(), b.ravel())]
    )
    return float(out.reshape(b.shape)) if b.ndim == 0 else out.reshape(b.shape)


class OffValley(NamedTuple):
    """How far points ``(a, b)`` are from the valley at their own scales.

    Parameters
    ----------
    offset : ndarray
        ``a - a*(b)``.
    inefficiency : ndarray
        ``L(a, b) / min_a L(a, b) - 1``.
    """

    #: ``a - a*(b)``: the label score measured from the valley.
    offset: np.ndarray
    #: ``L(a, b) / min_a L(a, b) - 1``: the share of loss lost by being off the valley.
    inefficiency: np.ndarray


@validation.constrained(a=validation.Finite(), b=validation.Positive(), prior=UNIFORM)
def off_valley(a, b, prior):
    """Offset from the valley and population inefficiency of points ``(a, b)``.

    Along a training run the scale ``b`` is whatever the run reached; both measures
    compare the run with the best label score at that scale, ``a*(b)``
    (:func:`a_star`, computed once per point).

    Parameters
    ----------
    a, b : array_like
        Label scores and scales (``b`` positive), of the same shape.
    prior : tasks.Uniform
        Threshold prior ``U[lo, hi]`` with ``hi < 1`` (one with a finite valley).

    Returns
    -------
    OffValley
        ``offset = a - a*(b)`` and ``inefficiency = L(a, b) / L(a*(b), b) - 1``, arrays
        of the shape of ``a``. The inefficiency is ``>= 0`` up to rounding, and 0 on
        the valley.
    """
    validation.same_shape(a, b, ("a", "b"))
    valley = np.asarray(a_star(b, prior))
    loss = np.array(
        [population.loss(x, y, prior) for x, y in zip(a.ravel(), b.ravel())]
    )
    best = np.array(
        [population.loss(x, y, prior) for x, y in zip(valley.ravel(), b.ravel())]
    )
    return OffValley(a - valley, (loss / best - 1.0).reshape(b.shape))


def _bias_deficit(t0, t1):
    """``∫_{t0}^{t1} [1 - (1 - t/(e^t - 1))^2] dt``.

    The integrand decays like ``2 t e^{-t}``.
    """
    top = min(t1, _TAIL)
    if top <= t0:
        return 0.0
    breaks = quadrature.clipped(
        np.concatenate([[0.0], 2.0 ** np.arange(-4, 10)]), t0, top
    )
    t, w = quadrature.gauss_legendre(breaks)
    phi = np.where(t > 0, t / np.expm1(np.where(t > 0, t, 1.0)), 1.0)
    return float(w @ (2 * phi - phi**2))


def _loss_at_infinity(b, lo, hi):
    """``L(∞, b)`` for one ``b``.

    By ``t = b q`` for ``b > 1``, directly in ``q`` below.
    """
    if b > 1:
        return (1.0 - _bias_deficit(b * (1 - hi), b * (1 - lo)) / (b * (hi - lo))) / (
            b * b if b < 1e150 else np.inf
        )  # b² overflows: the loss is 0 there
    q, w = quadrature.gauss_legendre(np.linspace(1 - hi, 1 - lo, 9))
    return float(w @ (q * moments.mean_fraction(b * q)) ** 2) / (hi - lo)


@validation.constrained(b=validation.Positive(), prior=UNIFORM)
def scaled_loss_at_infinity(b, prior):
    """``b²·L(∞, b)``: the loss when only positive examples carry weight.

    As ``a → ∞`` at fixed ``b`` the estimate is the mean of the positives,
    ``ŝ - s = 1/b - q/(e^{bq} - 1)`` with ``q = 1 - s``, so with ``t = b q``
    ``b²·L(∞, b) = 1 - ∫ [1 - (1 - t/(e^t - 1))²] dt / (b (hi - lo))`` over
    ``t ∈ [b(1 - hi), b(1 - lo)]`` (evaluated by Gauss-Legendre panels; the
    integrand is below 1e-300 past ``t = 700``). For ``b <= 1``, where that
    difference cancels, ``L(∞, b)`` is integrated directly in ``q``.

    Parameters
    ----------
    b : float or array_like
        Resolution(s), positive.
    prior : tasks.Uniform
        Threshold prior (any ``U[lo, hi]``).
    """
    b = np.asarray(b, dtype=float)
    lo, hi = prior.lo, prior.hi
    out = np.asarray(loss_at_infinity(b, prior)) * np.where(b < 1e150, b, 1.0) ** 2
    far = b >= 1e150  # b² overflows: the scaled form directly (1 to rounding there)
    if np.any(far):
        out = np.where(far, 1.0, out)
        out[far] = [_scaled_far(float(bi), lo, hi) for bi in b[far]]
    return float(out) if out.ndim == 0 else out


def _scaled_far(b, lo, hi):
    """``b²·L(∞, b)`` for ``b > 1`` (see :func:`scaled_loss_at_infinity`)."""
    return 1.0 - _bias_deficit(b * (1 - hi), b * (1 - lo)) / (b * (hi - lo))


@validation.constrained(b=validation.Positive(), prior=UNIFORM)
def loss_at_infinity(b, prior):
    """``L(∞, b) = lim_{a→∞} L(a, b)`` (see :func:`scaled_loss_at_infinity`).

    Parameters
    ----------
    b : float or array_like
        Resolution(s), positive.
    prior : tasks.Uniform
        Threshold prior.

    Returns
    -------
    float or ndarray
        The limit loss, with the shape of ``b``.

    Raises
    ------
    ValueError
        If ``b`` is not positive.
    TypeError
        If ``prior`` is not a :class:`~stumplib.tasks.Uniform`.
    """
    lo, hi, b = prior.lo, prior.hi, np.asarray(b, dtype=float)
    out = np.array([_loss_at_infinity(float(bi), lo, hi) for bi in b.ravel()]).reshape(
        b.shape
    )
    return float(out) if out.ndim == 0 else out


@validation.constrained(a=validation.Finite(), b=validation.Positive(), prior=UNIFORM)
def offset(a, b, prior):
    """The distance ``a - a*(b)`` of the label score from the valley.

    Parameters
    ----------
    a, b : float or array_like
        Parameters (broadcast against each other); ``b`` positive.
    prior : tasks.Uniform
        Interior threshold prior defining the valley (see :func:`a_star`).

    Returns
    -------
    float or ndarray
        ``a - a*(b)``, with the broadcast shape of ``a`` and ``b``.
    """
    shape = validation.broadcastable((a, b), ("a", "b"))
    out = np.broadcast_to(a, shape) - np.asarray(
        a_star(np.broadcast_to(b, shape), prior)
    )
    return float(out) if out.ndim == 0 else out


@validation.constrained(prior=BELOW_ONE)
def sampling_constant(prior):
    """``C_σ = lim σ_∞(b) / √b = √(2(1 + hi²) / (3(hi - lo)))`` on the valley.

    Derived in :mod:`stumplib.symbolic.sampling` (asymptotic, large ``b``) from the
    layer of width ``1/b`` below ``hi`` that carries the per-task gradients; 1.2281 for
    ``U[0.1, 0.9]``. :func:`stumplib.certification.sampling_coefficient` gives
    ``σ_∞(b)`` at finite ``b``.

    Parameters
    ----------
    prior : tasks.Uniform
        Interior threshold prior, ``hi < 1``.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        If ``prior`` is not a :class:`~stumplib.tasks.Uniform`.
    ValueError
        If ``prior`` reaches 1 (no valley: the full-prior regime, where ``σ_∞`` grows
        like ``b^{3/2}``).

    Examples
    --------
    >>> from stumplib import tasks
    >>> round(sampling_constant(tasks.Uniform(0.1, 0.9)), 4)
    1.2281
    """
    lo, hi = (float(v) for v in prior.support)
    return float(np.sqrt(2.0 * (1.0 + hi**2) / (3.0 * (hi - lo))))


class SamplingCorrection(NamedTuple):
    """``σ_∞(b)/√b = C_σ (1 + c1/b + c2/b² + O(b⁻³))`` on the valley (asymptotic).

    Parameters
    ----------
    c1, c2 : float
        The relative corrections of order ``1/b`` and ``1/b²``.
    """

    c1: float
    c2: float


@validation.constrained(prior=BELOW_ONE)
def sampling_correction(prior):
    """The ``1/b`` and ``1/b²`` corrections to :func:`sampling_constant` on the valley.

    Derived in :func:`stumplib.symbolic.sampling.layer_correction` (asymptotic, large
    ``b``): with ``w = hi - lo``, ``c1 = 3/w - (19 hi² + 39)/(30 hi (1 + hi²))``, the
    layer's share of the population gradient (``3/w``) and the layer's own next order;
    ``c2`` is that function's polynomial. 2.637 and 7.842 for ``U[0.1, 0.9]``.

    Parameters
    ----------
    prior : tasks.Uniform
        Interior threshold prior, ``hi < 1``.

    Returns
    -------
    SamplingCorrection

    Raises
    ------
    TypeError
        If ``prior`` is not a :class:`~stumplib.tasks.Uniform`.
    ValueError
        If ``prior`` reaches 1 (no valley), or is so narrow (``hi - lo`` below about
        1e-154) that ``c2`` overflows.

    Examples
    --------
    >>> from stumplib import tasks
    >>> correction = sampling_correction(tasks.Uniform(0.1, 0.9))
    >>> round(correction.c1, 4), round(correction.c2, 4)
    (2.637, 7.8417)
    """
    lo, hi = (float(v) for v in prior.support)
    width, top, ratio = hi - lo, 1.0 + hi**2, lo / hi
    # in units of the width, with the numerator over hi² (so that neither underflows
    # on a narrow prior near 0)
    c1 = (3.0 - (19.0 * hi**2 + 39.0) * (1.0 - ratio) / (30.0 * top)) / width
    numerator = (
        12052 * hi**4
        + 2476 * hi**3 * lo
        + 1672 * hi**2 * lo**2
        + 17183 * hi**2
        + 15194 * hi * lo
        + 23 * lo**2
        + 4731
        + 13518 * ratio
        - 2049 * ratio**2
    )
    c2 = numerator / (1800.0 * top**2) / width / width
    if not np.isfinite(c2):
        raise ValueError(
            f"prior is too narrow (hi - lo = {width:g}): c2 ~ 2.6/(hi - lo)² overflows"
        )
    return SamplingCorrection(float(c1), float(c2))


class SlowLayer(NamedTuple):
    """The layer of tasks below ``hi`` on the slow curve of gradient flow (asymptotic).

    Parameters
    ----------
    constant : float
        ``C = lim σ_∞(b) / √b`` along the slow curve.
    lag : float
        The slow curve's offset from the valley in ``a``, ``-log(ρ_0 / 2)`` (negative).
    """

    constant: float
    lag: float


@validation.constrained(prior=BELOW_ONE)
def slow_layer(prior):
    """``lim σ_∞(b) / √b`` on the slow curve of the flow on ``U[lo, hi]``, and its lag.

    Derived in :func:`stumplib.symbolic.sampling.slow_layer_constant` (asymptotic, large
    ``b``): with ``w = hi - lo``, ``q = hi w / (1 + hi²)`` and ``ρ_0 = 1 + √(1 + 2q)``,
    ``C² = (1 + hi²)² (ρ_0²/2 - 2ρ_0³/3 + ρ_0⁴/4) / w``; 2.6318 for ``U[0.1, 0.9]``,
    where the valley's :func:`sampling_constant` is 1.2281. The slow curve lies
    ``log(ρ_0 / 2)`` (0.1570) below the valley in ``a``.

    Parameters
    ----------
    prior : tasks.Uniform
        Interior threshold prior, ``hi < 1``.

    Returns
    -------
    SlowLayer

    Raises
    ------
    TypeError
        If ``prior`` is not a :class:`~stumplib.tasks.Uniform`.
    ValueError
        If ``prior`` reaches 1 (no valley, hence no slow curve a constant below it).

    Examples
    --------
    >>> from stumplib import tasks
    >>> layer = slow_layer(tasks.Uniform(0.1, 0.9))
    >>> round(layer.constant, 4), round(layer.lag, 4)
    (2.6318, -0.157)
    """
    lo, hi = (float(v) for v in prior.support)
    width = hi - lo
    top = 1.0 + np.sqrt(1.0 + 2.0 * hi * width / (1.0 + hi**2))
    moment = layer_moment(top)
    return SlowLayer(
        float(np.sqrt((1.0 + hi**2) ** 2 * moment / width)), float(-np.log(top / 2))
    )


@validation.constrained(top=validation.Scalar())
def layer_moment(top):
    """``∫_0^top r (1 - r)² dr = top²/2 - 2 top³/3 + top⁴/4``.

    The squared spread of the per-task gradients in the layer below ``hi``, up to
    the leakage ``r = top`` of the negatives, in units that cancel in a ratio (see
    :func:`slow_layer`).

    Parameters
    ----------
    top : float
        The upper end of the integral.

    Returns
    -------
    float
        The integral.

    Raises
    ------
    ValueError, TypeError
        If ``top`` is not a finite real scalar, or exceeds ``1e75`` in size (where
        ``top⁴`` overflows).

    Examples
    --------
    >>> layer_moment(1.0), layer_moment(2.0)  # 1/2 - 2/3 + 1/4, 2 - 16/3 + 4
    (0.08333333333333337, 0.666666666666667)
    """
    if abs(top) > 1e75:  # top**4 would overflow
        raise ValueError(f"top must be at most 1e75 in size (got {top:g})")
    return top**2 / 2.0 - 2.0 * top**3 / 3.0 + top**4 / 4.0
