"""The frozen estimator on fresh contexts.

Error surfaces over parameters and context size.

After pretraining, ``theta_T = (a_T, b_T)`` is frozen and the head is applied to fresh
contexts of size ``N`` with fresh thresholds. Every parameter value (and every
reference rule) is evaluated on the *same* fresh contexts, so differences between them
are not blurred by independent sampling noise.
"""

from typing import NamedTuple

import numpy as np

from . import baselines, fitting, head, population, progress, tasks, validation

#: The reference rules evaluated beside the frozen heads.
RULES = {"nearest positive": baselines.nearest_positive, "midpoint": baselines.midpoint}
#: Fixed interior thresholds at which the pretraining term is measured.
INTERIOR = (0.3, 0.5, 0.7)


def _interior(values):
    validation.broadcastable([values["a"], values["b"]], ["a", "b"])
    s = values["thresholds"]
    if s.ndim != 1 or not s.size:
        raise ValueError(
            f"thresholds must be a non-empty 1-D sequence (got shape {s.shape})"
        )


@validation.constrained(
    _interior,
    a=validation.Finite(),
    b=validation.Finite(),
    thresholds=validation.UnitInterval(),
)
def interior_error(a, b, thresholds=INTERIOR):
    """The interior error of heads ``(a, b)`` on infinitely long fresh contexts.

    The root-mean-square over ``thresholds`` of ``s_hat_inf(s) - s`` (the closed form of
    :func:`stumplib.population.residual`): the floor that the fresh-context error
    reaches at large ``N``. ``a`` and ``b`` broadcast against each other; the result has
    their shape.

    Parameters
    ----------
    a, b : float or array_like
        Head parameters (broadcast together).
    thresholds : array_like, shape (k,)
        Thresholds in [0, 1] to average over (default :data:`INTERIOR`).

    Returns
    -------
    ndarray
        RMS of ``s_hat_inf(s) - s`` over the thresholds, of the broadcast shape of
        ``a``, ``b``.

    Raises
    ------
    ValueError
        If ``a`` and ``b`` do not broadcast, or ``thresholds`` is not a non-empty 1-D
        sequence in [0, 1].

    Examples
    --------
    >>> interior_error([36.0, 360.0], [40.0, 400.0]).round(6).tolist()
    [0.024921, 0.0025]
    """
    a, b, s = (np.asarray(v, dtype=float) for v in (a, b, thresholds))
    offset, _, _ = population.residual(a[..., None], b[..., None], s)
    return np.sqrt(np.mean(offset**2, axis=-1))


class Errors(NamedTuple):
    """RMS threshold errors and their standard errors (delta method), of one shape.

    Parameters
    ----------
    rms : ndarray
        Root-mean-square threshold errors.
    se : ndarray
        Their standard errors.

    Examples
    --------
    >>> errors = fresh_errors([365.0], [400.0], [8, 32], contexts=500, rng=0)
    >>> errors.head.rms.round(3).tolist(), errors.head.se.round(3).tolist()
    ([[0.26, 0.071]], [[0.014, 0.014]])
    """

    rms: np.ndarray
    se: np.ndarray


class FreshErrors(NamedTuple):
    """Errors of frozen heads and of reference rules on the same fresh contexts.

    ``head`` has shape ``(k, p)`` (head ``i`` at context size ``j``); ``rules`` maps
    each rule's name to its :class:`Errors` of shape ``(p,)``.

    Parameters
    ----------
    head : Errors
        Errors of the frozen heads, shape ``(k, p)``.
    rules : dict of str to Errors
        Errors of the reference rules, each of shape ``(p,)``.

    Examples
    --------
    >>> errors = fresh_errors([365.0], [400.0], [8, 32], contexts=500, rng=0)
    >>> errors.head.rms.shape, sorted(errors.rules)
    ((1, 2), ['midpoint', 'nearest positive'])
    >>> errors.rules["midpoint"].rms.round(3).tolist()
    [0.069, 0.019]
    """

    head: Errors
    rules: dict


def _rms(squared):
    """Root-mean-square of squared errors along the last axis and its standard error."""
    mse = squared.mean(axis=-1)
    se_mse = squared.std(axis=-1, ddof=1) / np.sqrt(squared.shape[-1])
    rms = np.sqrt(mse)
    return rms, se_mse / (2.0 * np.where(rms > 0, rms, 1.0))


def _heads_and_sizes(values):
    validation.head_points(values)
    if not values["sizes"]:
        raise ValueError("sizes must hold at least one context size")


@validation.constrained(
    _heads_and_sizes,
    a=validation.Finite(),
    b=validation.Finite(),
    sizes=validation.Integers(),
    contexts=validation.Integer(minimum=2),
    prior=validation.Sampler(),
    rules=validation.Rules(optional=True),
    rng=validation.Rng(),
)
def fresh_errors(
    a, b, sizes, prior=tasks.Uniform(0.1, 0.9), contexts=2000, rng=None, rules=None
):
    """RMS threshold error of frozen heads (and reference rules) on fresh contexts.

    Parameters
    ----------
    a, b : array_like, shape (k,)
        Frozen parameters (one head per entry).
    sizes : array_like of int, shape (p,)
        Fresh-context sizes ``N``.
    prior : tasks.Uniform, tasks.Beta or tasks.Fixed
        Law of the fresh thresholds (``tasks.Fixed(s)`` for one threshold).
    contexts : int
        Fresh contexts per size (shared by every head and rule).
    rng : numpy.random.Generator or int, optional
    rules : dict of str to callable, optional
        Reference rules ``(x, y) -> estimate``; default :data:`RULES`.

    Returns
    -------
    FreshErrors
        ``head``: :class:`Errors` of shape ``(k, p)``; ``rules``: each rule's
        :class:`Errors` of shape ``(p,)``. ``se`` is the standard error of the RMS
        error (delta method).

    Raises
    ------
    ValueError
        If ``a`` and ``b`` are not 1-D of equal length, or ``sizes`` is empty.

    Examples
    --------
    >>> errors = fresh_errors([365.0], [400.0], [8, 32], contexts=500, rng=0)
    >>> errors.head.rms.shape, sorted(errors.rules)
    ((1, 2), ['midpoint', 'nearest positive'])
    >>> midpoint = errors.rules["midpoint"]
    >>> errors.head.rms.round(3).tolist(), midpoint.rms.round(3).tolist()
    ([[0.26, 0.071]], [0.069, 0.019])
    """
    a, b = (np.atleast_1d(np.asarray(v, dtype=float)) for v in (a, b))
    rules = RULES if rules is None else rules
    rng = np.random.default_rng(rng)
    heads = np.empty((2, a.size, len(sizes)))
    out = {name: np.empty((2, len(sizes))) for name in rules}
    for j, size in enumerate(progress.bar(sizes, desc="fresh contexts")):
        x, y, s = tasks.sample_contexts(contexts, size, prior, rng=rng)
        prepared = head.Contexts(x, y)
        for i in range(a.size):
            est = prepared.summaries(a[i], b[i])[0]
            heads[:, i, j] = _rms((est - s) ** 2)
        for name, rule in rules.items():
            estimate = np.asarray(rule(x, y))
            if estimate.shape != s.shape:
                raise ValueError(
                    f"rules[{name!r}] must return one estimate per context, shape "
                    f"{s.shape} (got {estimate.shape})"
                )
            out[name][:, j] = _rms((estimate - s) ** 2)
    return FreshErrors(Errors(*heads), {name: Errors(*v) for name, v in out.items()})


def _fits(fits, name):
    if not np.iterable(fits):
        raise TypeError(
            f"{name} must be a sequence of fits (got {type(fits).__name__})"
        )
    fits = [validation.law(f, name, ("slope", "slope_se")) for f in fits]
    if not fits:
        raise ValueError(f"{name} must not be empty")
    validation.finite([f.slope for f in fits], f"{name}.slope")
    se = validation.finite([f.slope_se for f in fits], f"{name}.slope_se")
    if not np.all(se > 0):
        raise ValueError(f"{name} must have positive slope standard errors")
    return fits


@validation.constrained(
    fits=validation.Constraint(
        _fits, ((None, TypeError), ([], ValueError), ([0.5], TypeError))
    )
)
def pooled_slope(fits):
    """Inverse-variance weighted mean of the slopes of independent power-law fits.

    Parameters
    ----------
    fits : iterable of stumplib.fitting.PowerLaw
        Fits with positive slope standard errors.

    Returns
    -------
    stumplib.fitting.Pooled
        The pooled slope and its standard error.

    Raises
    ------
    TypeError
        If ``fits`` is not a sequence.
    ValueError
        If ``fits`` is empty or a slope standard error is not positive.

    Examples
    --------
    >>> fits = [fitting.PowerLaw(c, 0.1, 0.0, 0.1) for c in (-1.1, -0.9)]
    >>> slope = pooled_slope(fits)
    >>> round(slope.value, 12), round(slope.se, 12)
    (-1.0, 0.070710678119)
    """
    slope, se = (np.array([getattr(f, k) for f in fits], float) for k in _SLOPE)
    return fitting.pooled(slope, se)


_SLOPE = ("slope", "slope_se")


def _unit_scalar(value, name):
    return float(validation.unit_interval(validation.scalar(value, name), name))


def _non_negative_scalar(value, name):
    return float(validation.non_negative(validation.scalar(value, name), name))


_NOT_ONE_NUMBER = ((None, TypeError), (np.nan, ValueError), ([0.5, 0.5], ValueError))
#: One number in [0, 1].
UNIT_SCALAR = validation.Constraint(
    _unit_scalar, (*_NOT_ONE_NUMBER, (-0.5, ValueError), (1.5, ValueError))
)
#: One finite number ``>= 0``.
NON_NEGATIVE_SCALAR = validation.Constraint(
    _non_negative_scalar, (*_NOT_ONE_NUMBER, (-0.5, ValueError))
)


@validation.constrained(
    sizes=validation.Integers(),
    b=validation.PositiveScalar(),
    s=UNIT_SCALAR,
    edge=validation.PositiveScalar(),
)
def local_sizes(sizes, b, s, edge=1e-3):
    r"""Context sizes where a head of scale ``b`` localizes like the nearest positive.

    ``N <= b / 2`` (the kernel, of width ``1/b``, is narrower than half the spacing
    ``1/N`` of the examples) and :math:`s^N \le \mathrm{edge}` (a context with no
    positive example,
    of probability :math:`s^N` at the threshold ``s``, is rare).

    Parameters
    ----------
    sizes : array_like of int, shape (p,)
        Fresh-context sizes ``N``.
    b : float
        Scale of the frozen head.
    s : float
        Threshold, in ``[0, 1]``.
    edge : float
        Largest probability of a context without positive example.

    Returns
    -------
    ndarray of bool, shape (p,)

    Examples
    --------
    >>> local_sizes([4, 16, 64, 256], b=200.0, s=0.5).tolist()
    [False, True, True, False]
    """
    sizes = np.array(sizes, float)
    return (sizes <= b / 2) & (s**sizes <= edge)


class Localization(NamedTuple):
    """A head's rate in ``N`` against the nearest positive's, where it should localize.

    Parameters
    ----------
    sizes : ndarray, shape (p,)
        The fresh-context sizes ``N``.
    windows : dict of float to ndarray of bool
        For each threshold, the sizes of :func:`local_sizes`.
    head, rule : stumplib.fitting.Pooled
        Exponent in ``N`` of the head's RMS error and of the nearest-positive rule's on
        the same contexts, each pooled over the thresholds (inverse-variance weights).
    decades : float
        Width of the narrowest window, ``log10(N_max / N_min)``.
    tilt : float
        :func:`excess_tilt` of the declared model of the head's excess over the rule, a
        relative ``N / b`` at the top of the widest-reaching window, over ``decades``.

    Examples
    --------
    >>> rate = localization_rate(365.0, 400.0, [24, 48, 96, 192], contexts=400)
    >>> rate.windows[0.5].tolist(), round(rate.decades, 4)  # log10(192 / 24)
    ([True, True, True, True], 0.9031)
    >>> round(rate.head.value, 2), round(rate.head.se, 2)
    (-0.93, 0.02)
    """

    sizes: np.ndarray
    windows: dict
    head: fitting.Pooled
    rule: fitting.Pooled
    decades: float
    tilt: float


def _thresholds(values):
    thresholds = values["thresholds"]
    if thresholds.ndim > 1 or not thresholds.size:
        raise ValueError(
            f"thresholds must be one threshold or a non-empty 1-D sequence (got shape "
            f"{thresholds.shape})"
        )


@validation.constrained(
    _thresholds,
    a=validation.Scalar(),
    b=validation.Scalar(),
    seed=validation.Seed(),
    thresholds=validation.UnitInterval(),
    sizes=validation.Integers(),
    contexts=validation.Integer(minimum=2),
    edge=validation.PositiveScalar(),
)
def localization_rate(
    a, b, sizes, thresholds=INTERIOR, contexts=2000, seed=0, edge=1e-3
):
    r"""Exponent in ``N`` of a head and of the nearest-positive rule where it localizes.

    For each threshold ``s`` (fresh contexts from the stream ``(*seed, j)`` for the
    ``j``-th), the head and the rule are evaluated by :func:`fresh_errors` and fitted by
    :func:`stumplib.fitting.power_law` over :func:`local_sizes` (``N <= b / 2``,
    :math:`s^N \le \mathrm{edge}`); the exponents are pooled over the thresholds.

    Parameters
    ----------
    a, b : float
        The head.
    sizes : array_like of int
        Fresh-context sizes ``N``.
    thresholds : array_like
        Fixed thresholds in ``[0, 1]``.
    contexts : int
        Fresh contexts per size.
    seed : int or tuple of int
        Structured seed of the fresh contexts.
    edge : float
        Largest probability of a context without positive example.

    Returns
    -------
    Localization

    Raises
    ------
    ValueError
        If a threshold's window holds fewer than three sizes (no rate), or an argument
        is invalid.

    Examples
    --------
    >>> rate = localization_rate(365.0, 400.0, [24, 48, 96, 192], contexts=400)
    >>> round(rate.head.value, 2), round(rate.rule.value, 2)
    (-0.93, -0.97)
    """
    n = np.array(sizes, float)
    windows = {
        float(s): local_sizes(n.astype(int), b, float(s), edge)
        for s in np.ravel(thresholds)
    }
    short = [s for s, w in windows.items() if w.sum() < 3]
    if short:
        raise ValueError(
            f"sizes must hold three or more sizes in the window at s = {short}"
        )
    head_fits, rule_fits = [], []
    for j, (s, w) in enumerate(windows.items()):
        out = fresh_errors(
            [a], [b], n.astype(int), tasks.Fixed(s), contexts, (*seed, j)
        )
        head_fits.append(fitting.power_law(n[w], out.head.rms[0, w], out.head.se[0, w]))
        rule = out.rules["nearest positive"]
        rule_fits.append(fitting.power_law(n[w], rule.rms[w], rule.se[w]))
    decades = min(float(np.log10(n[w][-1] / n[w][0])) for w in windows.values())
    top = max(n[w][-1] for w in windows.values())
    return Localization(
        n,
        windows,
        pooled_slope(head_fits),
        pooled_slope(rule_fits),
        decades,
        excess_tilt(top / b, decades),
    )


@validation.constrained(excess=NON_NEGATIVE_SCALAR, decades=validation.PositiveScalar())
def excess_tilt(excess, decades):
    r"""How far an excess at a fitting window's top tilts a fitted power law's slope.

    A head whose error exceeds a reference's by a relative amount that grows across the
    window (for a head of scale ``b``, of order ``N / b``: the kernel's width against
    the spacing of the examples) and reaches :math:`x` = ``excess`` at its top changes
    the log of the error by :math:`\log(1 + x)` over :math:`D` = ``decades`` decades of
    :math:`N`: the exponent fitted over the window moves by about
    :math:`\log(1 + x) / (D \log 10)`.

    Parameters
    ----------
    excess : float
        Relative excess at the top of the window, non-negative.
    decades : float
        Width of the window, ``log10(N_max / N_min)``, positive.

    Returns
    -------
    float
        ``inf`` where the tilt exceeds the largest float (a window of width near 0).

    Examples
    --------
    >>> round(excess_tilt(0.1, 1.0), 6)  # log(1.1) / log(10)
    0.041393
    """
    return float(np.log1p(excess) / (decades * np.log(10)))


_COMPARED = ("value", "value_se", "reference", "reference_se", "allowance")


def _broadcast(values):
    validation.broadcastable([values[n] for n in _COMPARED], _COMPARED)


@validation.constrained(
    _broadcast,
    value=validation.Positive(),
    reference=validation.Positive(),
    value_se=validation.NonNegative(),
    reference_se=validation.NonNegative(),
    allowance=validation.NonNegative(),
    width=NON_NEGATIVE_SCALAR,
)
def scaled_difference(value, value_se, reference, reference_se, allowance, width=3.0):
    """``|value / reference - 1|`` in units of its allowance (agreement when ``<= 1``).

    The allowance is ``allowance`` (a bound on the relative difference that the model
    permits) plus ``width`` standard errors of the ratio, each bounded by the sum
    ``value_se / value + reference_se / reference`` of the relative standard errors
    (valid for estimates on the same contexts, whatever their correlation).

    Parameters
    ----------
    value, reference : array_like
        Positive estimates (broadcast together).
    value_se, reference_se : array_like
        Their standard errors, non-negative (``0`` for an exact reference).
    allowance : array_like
        Non-negative relative difference permitted by the model.
    width : float
        Standard errors allowed.

    Returns
    -------
    ndarray
        The broadcast shape of the inputs; where nothing is allowed (zero allowance and
        standard errors), ``0`` if the two are equal and ``inf`` otherwise; ``inf``
        also where the scaled difference exceeds the largest float.

    Examples
    --------
    >>> round(float(scaled_difference(1.05, 0.0, 1.0, 0.0, allowance=0.1)), 12)
    0.5
    >>> # 0.05 against three relative standard errors, 3 * 0.01 / 1.05
    >>> round(float(scaled_difference(1.05, 0.01, 1.0, 0.0, allowance=0.0)), 6)
    1.75
    """
    value, value_se, reference, reference_se, allowance = (
        np.asarray(v, dtype=float)
        for v in (value, value_se, reference, reference_se, allowance)
    )
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        noise = width * (value_se / value + reference_se / reference)
        diff, bound = np.broadcast_arrays(
            np.abs(value / reference - 1), allowance + noise
        )
        exact = np.where(diff > 0, np.inf, 0.0)  # nothing allowed: equal or not
        out = np.divide(diff, bound, out=exact, where=bound > 0)
        # where value / reference overflows, the same ratio times the reference
        scaled = np.abs(value - reference) / (
            allowance * reference
            + width * (value_se * reference / value + reference_se)
        )
    return np.where(np.isnan(out), scaled, out)
