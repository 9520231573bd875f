r"""The calibrated valley of the population loss.

:math:`a^*(b)`, :math:`\min_a L` and :math:`L(\infty, b) = \lim_{a \to \infty} L(a, b)`.

Under an interior prior :math:`U[\mathrm{lo}, \mathrm{hi}]` (:math:`\mathrm{hi} < 1`)
the population loss :math:`L(a, b)` has, at each resolution :math:`b`, a finite
minimizer :math:`a^*(b)` in the label score: raising :math:`a` suppresses the leakage of
negatives into the estimate but, past :math:`a \approx \mathrm{hi}\, b + \log b`, no
threshold of the prior gains from it any more. Asymptotically
(:mod:`stumplib.symbolic.population`)
:math:`a^*(b) = \mathrm{hi}\, b + \log b + \log(\mathrm{hi}/2) + O(1/b)`. Under a
prior that reaches :math:`s = 1` (e.g. :math:`U[0, 1]`) the loss decreases in :math:`a`
at every :math:`b`: there is no finite minimizer, and the infimum is the limit
:math:`L(\infty, b)`, in which the head averages the positive examples only.

On the valley and on the slow curve of the flow, the per-task gradients are carried by
a layer of thresholds of width :math:`1/b` below :math:`\mathrm{hi}`; its constants
(:func:`sampling_constant`, its corrections :func:`sampling_correction`,
:func:`slow_layer`) are derived in
:mod:`stumplib.symbolic.sampling`.

:math:`a^*(b)` is found as the root of the population gradient
:math:`\partial L/\partial a` (computed in
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
    r"""Asymptotic valley :math:`\mathrm{hi}\, b + \log b + \log(\mathrm{hi}/2)`.

    :math:`\log b` replaced by 0 for :math:`b < 1`.

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
    r"""The finite minimizer :math:`a^*(b) = \arg\min_a L(a, b)` under a uniform prior.

    The prior is interior (:math:`\mathrm{hi} < 1`).

    Parameters
    ----------
    b : float or array_like
        Resolution(s), positive (robust from about 1 to :math:`10^6`).
    prior : tasks.Uniform
        Threshold prior :math:`U[\mathrm{lo}, \mathrm{hi}]`, :math:`\mathrm{hi} < 1`.
    features : optional
        Feature law, as in :func:`stumplib.population.loss` (default uniform; a Beta
        law costs a quadrature per gradient, and its valley has another :math:`\log b`
        coefficient, found by the same bracketing around the uniform guess).

    Returns
    -------
    float or ndarray
        :math:`a^*(b)`, with the shape of ``b``.

    Raises
    ------
    ValueError
        If ``b`` is not positive, the prior is not uniform, or the loss has no finite
        minimizer in :math:`a` (e.g. :math:`U[0, 1]`, where it decreases in :math:`a`).
    """
    b = np.asarray(b, dtype=float)  # as given when called inside the library
    out = np.array([_a_star_scalar(float(bi), prior, features) for bi in b.ravel()])
    out = out.reshape(b.shape)
    return float(out) if out.ndim == 0 else out


@validation.constrained(b=validation.Positive(), prior=UNIFORM)
def min_loss(b, prior):
    r""":math:`\min_a L(a, b) = L(a^*(b), b)` under an interior uniform prior.

    Of the shape of ``b``.

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
    r"""How far points :math:`(a, b)` are from the valley at their own scales.

    Parameters
    ----------
    offset : ndarray
        :math:`a - a^*(b)`.
    inefficiency : ndarray
        :math:`L(a, b) / \min_a L(a, b) - 1`.
    """

    #: :math:`a - a^*(b)`: the label score measured from the valley.
    offset: np.ndarray
    #: :math:`L(a, b) / \min_a L(a, b) - 1`: the share of loss lost by being off the
    #: valley.
    inefficiency: np.ndarray


@validation.constrained(a=validation.Finite(), b=validation.Positive(), prior=UNIFORM)
def off_valley(a, b, prior):
    r"""Offset from the valley and population inefficiency of points :math:`(a, b)`.

    Along a training run the scale :math:`b` is whatever the run reached; both measures
    compare the run with the best label score at that scale, :math:`a^*(b)`
    (:func:`a_star`, computed once per point).

    Parameters
    ----------
    a, b : array_like
        Label scores and scales (``b`` positive), of the same shape.
    prior : tasks.Uniform
        Threshold prior :math:`U[\mathrm{lo}, \mathrm{hi}]` with :math:`\mathrm{hi} < 1`
        (one with a finite valley).

    Returns
    -------
    OffValley
        ``offset`` :math:`= a - a^*(b)` and ``inefficiency``
        :math:`= L(a, b) / L(a^*(b), b) - 1`, arrays of the shape of ``a``. The
        inefficiency is :math:`\ge 0` up to rounding, and 0 on the valley.
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
    r""":math:`b^2 L(\infty, b)`: the loss when only positive examples carry weight.

    As :math:`a \to \infty` at fixed :math:`b` the estimate is the mean of the
    positives, :math:`\hat s - s = 1/b - \upsilon/(e^{b \upsilon} - 1)` with
    :math:`\upsilon = 1 - s`, so with :math:`t = b \upsilon`

    .. math::

        b^2 L(\infty, b) = 1 - \frac{1}{b (\mathrm{hi} - \mathrm{lo})}
        \int \left[1 - \left(1 - \frac{t}{e^t - 1}\right)^2\right] dt

    over :math:`t \in [b(1 - \mathrm{hi}), b(1 - \mathrm{lo})]` (evaluated by
    Gauss-Legendre panels; the integrand is below :math:`10^{-300}` past
    :math:`t = 700`). For :math:`b \le 1`, where that difference cancels,
    :math:`L(\infty, b)` is integrated directly in :math:`\upsilon`.

    Parameters
    ----------
    b : float or array_like
        Resolution(s), positive.
    prior : tasks.Uniform
        Threshold prior (any :math:`U[\mathrm{lo}, \mathrm{hi}]`).
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
    r"""The limit loss :math:`L(\infty, b) = \lim_{a \to \infty} L(a, b)`.

    See :func:`scaled_loss_at_infinity`.

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
    """The distance :math:`a - a^*(b)` of the label score from the valley.

    Parameters
    ----------
    a, b : float or array_like
        Parameters (broadcast against each other); ``b`` positive.
    prior : tasks.Uniform
        Interior threshold prior defining the valley (see :func:`a_star`).

    Returns
    -------
    float or ndarray
        :math:`a - a^*(b)`, with the broadcast shape of ``a`` and ``b``.
    """
    shape = validation.broadcastable((a, b), ("a", "b"))
    out = np.broadcast_to(a, shape) - np.asarray(
        a_star(np.broadcast_to(b, shape), prior)
    )
    return float(out) if out.ndim == 0 else out


@validation.constrained(prior=BELOW_ONE)
def sampling_constant(prior):
    r"""The valley's noise-ratio constant :math:`K_\sigma`.

    :math:`K_\sigma = \lim_{b \to \infty} \sigma_\infty(b)/\sqrt{b}`.

    On the valley, :math:`K_\sigma = \sqrt{2(1 + \mathrm{hi}^2) / (3(\mathrm{hi} -
    \mathrm{lo}))}`, derived in :mod:`stumplib.symbolic.sampling` (asymptotic, large
    :math:`b`) from the layer of width :math:`1/b` below :math:`\mathrm{hi}` that
    carries the per-task gradients; 1.2281 for :math:`U[0.1, 0.9]`.
    :func:`stumplib.certification.sampling_coefficient` gives :math:`\sigma_\infty(b)`
    at finite :math:`b`.

    Parameters
    ----------
    prior : tasks.Uniform
        Interior threshold prior, :math:`\mathrm{hi} < 1`.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        If ``prior`` is not a :class:`~stumplib.tasks.Uniform`.
    ValueError
        If ``prior`` reaches 1 (no valley: the full-prior regime, where
        :math:`\sigma_\infty` grows like :math:`b^{3/2}`).

    Examples
    --------
    >>> from stumplib import tasks
    >>> round(sampling_constant(tasks.Uniform(0.1, 0.9)), 4)
    1.2281
    """
    lo, hi = (float(v) for v in prior.support)
    return float(np.sqrt(2.0 * (1.0 + hi**2) / (3.0 * (hi - lo))))


class SamplingCorrection(NamedTuple):
    r"""The corrections :math:`d_1`, :math:`d_2` to the valley's :math:`K_\sigma`.

    On the valley, :math:`\sigma_\infty(b)/\sqrt{b} = K_\sigma (1 + d_1/b + d_2/b^2 +
    \ldots)`.

    Asymptotic, large :math:`b`: the rest is :math:`O(b^{-3})`.

    Parameters
    ----------
    c1, c2 : float
        The relative corrections :math:`d_1`, :math:`d_2` (the sampling coefficients)
        of order :math:`1/b` and :math:`1/b^2`.
    """

    c1: float
    c2: float


@validation.constrained(prior=BELOW_ONE)
def sampling_correction(prior):
    r"""The :math:`1/b` and :math:`1/b^2` corrections to :func:`sampling_constant`.

    On the valley.

    Derived in :func:`stumplib.symbolic.sampling.layer_correction` (asymptotic, large
    :math:`b`): with :math:`w = \mathrm{hi} - \mathrm{lo}`,
    :math:`d_1 = 3/w - (19\, \mathrm{hi}^2 + 39)/(30\, \mathrm{hi} (1 + \mathrm{hi}^2))`
    (the record's ``c1``), the layer's share of the population gradient (:math:`3/w`)
    and the layer's own next order; :math:`d_2` (``c2``) is that function's polynomial.
    2.637 and 7.842 for :math:`U[0.1, 0.9]`.

    Parameters
    ----------
    prior : tasks.Uniform
        Interior threshold prior, :math:`\mathrm{hi} < 1`.

    Returns
    -------
    SamplingCorrection

    Raises
    ------
    TypeError
        If ``prior`` is not a :class:`~stumplib.tasks.Uniform`.
    ValueError
        If ``prior`` reaches 1 (no valley), or is so narrow (:math:`\mathrm{hi} -
        \mathrm{lo}` below about :math:`10^{-154}`) that :math:`d_2` overflows.

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
    r"""The layer of tasks below :math:`\mathrm{hi}` on the slow curve of gradient flow.

    Asymptotic, large :math:`b`.

    Parameters
    ----------
    constant : float
        The noise-ratio constant :math:`K = \lim \sigma_\infty(b) / \sqrt{b}` along
        the slow curve.
    lag : float
        The slow curve's offset from the valley in :math:`a`, :math:`-\log(\rho_0 / 2)`
        (negative).
    """

    constant: float
    lag: float


@validation.constrained(prior=BELOW_ONE)
def slow_layer(prior):
    r"""The slow curve's noise-ratio constant :math:`K` and its lag.

    :math:`K = \lim \sigma_\infty(b)/\sqrt{b}` on the slow curve of the flow.

    Derived in :func:`stumplib.symbolic.sampling.slow_layer_constant` (asymptotic, large
    :math:`b`) for a prior :math:`U[\mathrm{lo}, \mathrm{hi}]`: with
    :math:`w = \mathrm{hi} - \mathrm{lo}` and
    :math:`\rho_0 = 1 + \sqrt{1 + 2\, \mathrm{hi}\, w / (1 + \mathrm{hi}^2)}`,

    .. math::

        K^2 = \frac{(1 + \mathrm{hi}^2)^2}{w}
        \left(\frac{\rho_0^2}{2} - \frac{2\rho_0^3}{3} + \frac{\rho_0^4}{4}\right);

    2.6318 for :math:`U[0.1, 0.9]`, where the valley's :func:`sampling_constant`
    :math:`K_\sigma` is 1.2281. The slow curve lies :math:`\log(\rho_0 / 2)` (0.1570)
    below the valley in :math:`a`.

    Parameters
    ----------
    prior : tasks.Uniform
        Interior threshold prior, :math:`\mathrm{hi} < 1`.

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
    r"""The layer's moment :math:`\int_0^t r (1 - r)^2 \, dr`, :math:`t` = ``top``.

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
        The integral, :math:`t^2/2 - 2 t^3/3 + t^4/4`.

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
