r"""The infinite-context head (:math:`n \to \infty`) and the population loss.

The population loss is the limit :math:`m \to \infty` of the corpus loss.

With features of density :math:`p` on [0, 1], the head's estimate becomes

.. math::

    \hat s(s) = \frac{\int x\, e^{a y(x) - b x} p(x)\, dx}
    {\int e^{a y(x) - b x} p(x)\, dx}, \qquad y(x) = \mathbf{1}\{x > s\}.

For uniform features both classes are truncated exponential laws, so :math:`\hat s`
has a closed form, evaluated here in the log domain and as an offset from :math:`s`
(stable for :math:`|a|, |b|` up to :math:`10^6`). The population loss
:math:`L(a, b) = \mathbb{E}_{s \sim \mathrm{prior}} (\hat s(s) - s)^2` is integrated
by graded Gauss-Legendre panels that resolve the layers at the calibrated threshold
and near :math:`s = 1`.

Thresholds near 1 are carried as the pair ``(s, q)``, ``q`` holding :math:`1 - s`
exactly, so layers thinner than the float spacing near 1 are still resolved.

Feature laws with a density (``features=``) are integrated class by class over the
class interval clipped to the law's support, on panels graded toward both ends (where
the kernel peaks and where the density may be singular; no node is ever at an end),
around the law's bulk when it is narrow, and around the weight's own peak when it is
narrow (a kernel steep against a concentrated density peaks away from both). Where
the density is a singular power law :math:`t^e` (:math:`-1 < e < 0`) at the end 0 or 1
of the support, the innermost panel of each class end within reach of that point is
mapped by :math:`u = (c + t)^{e + 1}` (:func:`stumplib.quadrature.power_panel`), which
removes the singularity. Measured against ``scipy.integrate.quad`` (algebraic weights
at the singular ends) the estimate agrees to :math:`10^{-8}` relative for uniform laws
and Beta laws with exponents down to 0.05, singular ones included, and to
:math:`10^{-10}` against the closed form (Kummer's function) of the weight's mean
(``tests/test_population.py``).
"""

import functools

import numpy as np

from . import moments, quadrature, tasks, validation

#: Panels graded by 4 toward each end of a class interval, down to :math:`4^{-d}` of its
#: length, :math:`d` = ``EDGE_DEPTH``. This resolves kernels of width :math:`1/|b|`
#: down to :math:`10^{-18}` of the interval and integrable singularities of the feature
#: density at the ends (never evaluated there).
EDGE_DEPTH = 30
_TINY = 4.0**-EDGE_DEPTH
_SMALLEST = np.finfo(float).smallest_subnormal


def _bulk_offsets(width):
    """Breaks around a law's bulk in units of its ``width``.

    0, ±width/2 doubling to ±1.
    """
    steps = 0.5 * 2.0 ** np.arange(max(int(np.ceil(np.log2(2.0 / width))), 0) + 1)
    return np.concatenate([[0.0], steps, -steps])


def _unit_breaks():
    """Break pairs ``(g, 1 - g)`` on [0, 1] graded by 4 toward both ends."""
    small = np.concatenate([[0.0], 4.0 ** -np.arange(EDGE_DEPTH, 0, -1)])
    g = np.concatenate([small, [0.5], 1.0 - small[::-1]])
    return g, np.concatenate([1.0 - small, [0.5], small[::-1]])


_UNIT_G, _UNIT_H = _unit_breaks()
_UNIT_RULE = quadrature.gauss_legendre_rows(_UNIT_G, _UNIT_H)
#: Laws whose bulk (standard deviation) is narrower get panels around it.
NARROW = 0.05


def _is_uniform(features):
    return features is None or features == tasks.Uniform(0.0, 1.0)


def _shift(a, b, s, q):
    """``a - b*s`` computed from whichever of ``s``, ``q`` is exact."""
    return np.where(s <= 0.5, a - b * s, (a - b) + b * q)


def _uniform_summaries(a, b, s, q):
    """Class summaries (offsets from ``s``) for uniform features on [0, 1]."""
    lm_neg, d_neg, v_neg = moments.truncated_exponential.unchecked(-b, s, shift=-b * s)
    pos = moments.truncated_exponential.unchecked(b, q, shift=_shift(a, b, s, q))
    return (lm_neg, -d_neg, v_neg), pos


def _class_rule(features, lo, length, peak=None):
    """Per-row rules on ``g = (x - lo)/length`` in [0, 1].

    Graded ends, plus narrow bulks.

    A law whose bulk is narrower than :data:`NARROW` gets panels graded around its
    centre in every row, and so does the weight's own peak (``peak``: centre and width
    in ``g`` per row, from :func:`_peak`); a wider one is resolved by the shared rule
    graded toward the ends.
    """
    center, width = features.bulk
    bulks = []
    if width < NARROW:
        with np.errstate(
            over="ignore"
        ):  # a class far narrower than the bulk: clipped below
            offsets = center + width * _bulk_offsets(width) - lo[..., None]
            bulks.append(offsets / length[..., None])
    if peak is not None:
        center, width = peak
        bulks.append(center[..., None] + width[..., None] * _bulk_offsets(width.min()))
    if not bulks:
        return _UNIT_RULE
    bulk = np.clip(
        np.concatenate(bulks, axis=-1), 2.0**-20, 1.0 - 2.0**-20
    )  # never an end
    rows = (*lo.shape, _UNIT_G.size)
    g = np.concatenate([np.broadcast_to(_UNIT_G, rows), bulk], axis=-1)
    h = np.concatenate([np.broadcast_to(_UNIT_H, rows), 1.0 - bulk], axis=-1)
    order = np.lexsort((-h, g), axis=-1)
    return quadrature.gauss_legendre_rows(
        np.take_along_axis(g, order, -1), np.take_along_axis(h, order, -1)
    )


def _edge_panels(rule, length, powers, gaps):
    """The rule with its innermost panels mapped for power-law densities.

    The panels of width ``_TINY`` at ``g = 0`` and ``h = 0`` are mapped for densities
    ``~ (gap + t)^power`` there (:func:`quadrature.power_panel`).

    ``powers`` are the density's exponents at the support ends beyond the class's
    lower and upper ends (0 where it is regular), ``gaps`` the distances (per row) from
    the class ends to them.
    """
    if min(powers) >= 0:
        return rule
    n, rows = quadrature.NODES_PER_PANEL, length.shape
    with np.errstate(over="ignore"):  # an infinite offset is a far singularity
        ends = [
            quadrature.power_panel(e, gap / length / _TINY)
            for e, gap in zip(powers, gaps)
        ]
    (t_lo, w_lo), (t_hi, w_hi) = (
        (np.broadcast_to(_TINY * v, (*rows, n)) for v in e) for e in ends
    )
    g, h, w = (
        np.broadcast_to(v[..., n:-n], (*rows, v.shape[-1] - 2 * n)) for v in rule
    )
    return (
        np.concatenate([t_lo, g, 1.0 - t_hi], axis=-1),
        np.concatenate([1.0 - t_lo, h, t_hi], axis=-1),
        np.concatenate([w_lo, w, w_hi], axis=-1),
    )


def _log_weight(features, b, lo, q_lo, hi, q_hi, length, g, h):
    """Log of the weight ``exp(score(x)) p(x)`` at the nodes ``g`` (complements ``h``).

    The score is taken relative to the class end where it peaks, and every node is
    kept interior (at least the smallest positive float from 0 and 1 where
    ``lo + (hi - lo) g`` would underflow), with its complement ``1 - x`` passed to the
    density.
    """
    span = length[..., None]
    lower = g <= 0.5
    x = np.where(lower, lo[..., None] + span * g, hi[..., None] - span * h)
    q = np.where(lower, q_lo[..., None] - span * g, q_hi[..., None] + span * h)
    x, q = np.maximum(x, _SMALLEST), np.maximum(q, _SMALLEST)
    with np.errstate(divide="ignore"):
        log_p = features.log_density(x, q)
    return log_p + np.where(
        (b < 0)[..., None], b[..., None] * span * h, -b[..., None] * span * g
    )


_ZOOM = np.linspace(0.0, 1.0, 33)  # each zoom round narrows the bracket 16-fold
_LADDER = 2.0 ** -np.arange(1, 41)  # half-widths tried, down to 1e-12 of the class


def _peak(log_weight, g, log_terms):
    """Centre and half-width, in ``g``, of the weight's heaviest interior maximum.

    The maximum is bracketed by the neighbours of the heaviest node and located by
    six zoom rounds (to about 1e-7 of the bracket); its half-width is the first of
    :data:`_LADDER` at which the weight has fallen by a factor ``e`` on either side.
    Rows whose weight peaks at a class end (resolved there by the graded end panels),
    or is wider than :data:`NARROW`, get the width 1 (no panels of their own).
    """
    g = np.broadcast_to(g, log_terms.shape)
    last = g.shape[-1] - 1
    k = np.argmax(log_terms, axis=-1)[..., None]
    left = np.take_along_axis(g, np.maximum(k - 1, 0), -1)
    right = np.take_along_axis(g, np.minimum(k + 1, last), -1)
    for _ in range(6):
        t = left + (right - left) * _ZOOM
        j = np.argmax(log_weight(t, 1.0 - t), axis=-1)[..., None]
        left = np.take_along_axis(t, np.maximum(j - 1, 0), -1)
        right = np.take_along_axis(t, np.minimum(j + 1, _ZOOM.size - 1), -1)
    center = 0.5 * (left + right)
    steps = np.concatenate([[0.0], -_LADDER, _LADDER])
    t = np.clip(center + steps, 0.0, 1.0)
    values = log_weight(t, 1.0 - t)
    with np.errstate(invalid="ignore"):  # an empty class: -inf everywhere
        dropped = values < values[..., :1] - 1.0
    width = np.min(np.where(dropped, np.abs(steps), 1.0), axis=-1)
    center = center[..., 0]
    interior = (
        (center > 2 * width) & (1.0 - center > 2 * width) & np.isfinite(values[..., 0])
    )
    return center, np.where(interior & (width < NARROW), width, 1.0)


def _density_class(features, b, lo, q_lo, hi, q_hi, score_lo, score_hi, powers, gaps):
    """Summary of the weight ``exp(score(x)) p(x)`` on ``x`` in ``[lo, hi]``.

    The score is linear with slope ``-b`` (``score_lo``, ``score_hi`` at the ends), and
    ``q_lo``, ``q_hi`` are the exact complements ``1 - lo``, ``1 - hi``; ``powers`` and
    ``gaps`` describe the density's singular ends (see :func:`_edge_panels`). A first
    pass locates the weight's peak (:func:`_peak`); the second integrates on panels
    graded around it as well, the terms summed in the log domain (see
    :func:`_log_weight`).

    Returns
    -------
    log_mass, length, mean_g, mean_h, variance : ndarray
        Log mass (``-inf`` for an empty class), ``hi - lo``, the means of
        ``g = (x - lo)/length`` and ``h = 1 - g``, and the variance of ``x``.
    """
    length = np.where(lo > 0.5, q_lo - q_hi, hi - lo)
    empty = ~(length > 0)
    length = np.where(empty, 1.0, length)
    log_weight = functools.partial(_log_weight, features, b, lo, q_lo, hi, q_hi, length)
    g, h, w = _edge_panels(_class_rule(features, lo, length), length, powers, gaps)
    with np.errstate(divide="ignore"):
        log_terms = log_weight(g, h) + np.log(w)
    center, width = _peak(log_weight, g, log_terms)
    peak = center, np.where(empty, 1.0, width)  # an empty class has no peak of its own
    if np.any(peak[1] < 1.0):
        g, h, w = _edge_panels(
            _class_rule(features, lo, length, peak), length, powers, gaps
        )
        with np.errstate(divide="ignore"):
            log_terms = log_weight(g, h) + np.log(w)
    top = log_terms.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    terms = np.exp(log_terms - top)
    mass = terms.sum(axis=-1)
    safe = np.where(mass > 0, mass, 1.0)
    mean_g, mean_h = (terms * g).sum(axis=-1) / safe, (terms * h).sum(axis=-1) / safe
    rising = b < 0
    u = np.where(rising[..., None], h, g) - np.where(rising, mean_h, mean_g)[..., None]
    variance = (terms * u**2).sum(axis=-1) / safe * length**2
    with np.errstate(divide="ignore"):
        log_mass = np.where(
            empty | (mass == 0),
            -np.inf,
            np.where(rising, score_hi, score_lo)
            + np.log(length)
            + top[..., 0]
            + np.log(safe),
        )
    return log_mass, length, mean_g, mean_h, variance


def _density_summaries(a, b, s, q, features):
    """Class summaries (offsets from ``s``) for a feature law with a density.

    Each class is integrated over its interval clipped to the law's support:
    negatives on ``[lo_f, min(s, hi_f)]``, positives on ``[max(s, lo_f), hi_f]``.
    """
    lo_f, hi_f = (float(v) for v in features.support)
    powers = _edge_powers(features)
    inside_hi, inside_lo = s < hi_f, s > lo_f
    neg_hi = np.where(inside_hi, s, hi_f)
    q_neg = np.where(inside_hi, q, 1.0 - hi_f)
    lm_neg, len_neg, _, mean_h, v_neg = _density_class(
        features,
        b,
        np.full_like(s, lo_f),
        np.full_like(s, 1.0 - lo_f),
        neg_hi,
        q_neg,
        -b * lo_f,
        -b * neg_hi,
        powers,
        (0.0, q_neg - (1.0 - hi_f)),
    )
    d_neg = -np.where(inside_hi, 0.0, s - hi_f) - len_neg * mean_h
    pos_lo = np.where(inside_lo, s, lo_f)
    lm_pos, len_pos, mean_g, _, v_pos = _density_class(
        features,
        b,
        pos_lo,
        np.where(inside_lo, q, 1.0 - lo_f),
        np.full_like(s, hi_f),
        np.full_like(s, 1.0 - hi_f),
        np.where(inside_lo, _shift(a, b, s, q), a - b * lo_f),
        a - b * hi_f,
        powers,
        (pos_lo - lo_f, 0.0),
    )
    d_pos = np.where(inside_lo, 0.0, lo_f - s) + len_pos * mean_g
    return (lm_neg, d_neg, v_neg), (lm_pos, d_pos, v_pos)


def _edge_powers(features):
    """Exponents ``e`` of the feature density ``~ t^e`` at the support ends 0 and 1.

    0 where the density is regular there (see :func:`_edge_power`) or the support
    ends before 0 or 1.
    """
    lo_f, hi_f = (float(v) for v in features.support)
    pairs = (
        (lo_f == 0.0, lambda t: (t, 1.0 - t)),
        (hi_f == 1.0, lambda t: (1.0 - t, t)),
    )
    powers = (
        _edge_power(features, pair, EDGE_FLOOR, "features") if at else None
        for at, pair in pairs
    )
    return tuple(0.0 if p is None else p for p in powers)


def _summaries(a, b, s, q, features):
    a, b, s, q = np.broadcast_arrays(
        *(np.asarray(v, dtype=float) for v in (a, b, s, q))
    )
    if _is_uniform(features):
        return moments.combine.unchecked(*_uniform_summaries(a, b, s, q))
    return moments.combine.unchecked(*_density_summaries(a, b, s, q, features))


def _complements(values):
    validation.complements(values["s"], values["q"])


def _broadcast_a_b_s(values):
    validation.broadcastable([values[k] for k in "abs"], ("a", "b", "s"))


_LAW_OF_FEATURES = dict(features=validation.Features())
_POINT_AND_PRIOR = dict(
    a=validation.Scalar(), b=validation.Scalar(), prior=validation.DensityLaw()
)


@validation.constrained(
    _complements,
    _broadcast_a_b_s,
    a=validation.Finite(),
    b=validation.Finite(),
    s=validation.UnitInterval(),
    q=validation.UnitInterval(optional=True),
    **_LAW_OF_FEATURES,
)
def residual(a, b, s, q=None, features=None):
    r"""The residual :math:`\hat s(s) - s` and its gradient in :math:`(a, b)`.

    Accurate near both edges.

    Parameters
    ----------
    a, b : float or array_like
        Label and feature scores (broadcast against ``s``).
    s : array_like
        Thresholds in [0, 1].
    q : array_like, optional
        :math:`1 - s` computed exactly by the caller (resolves :math:`s` within
        :math:`10^{-16}` of 1).
    features : tasks.Uniform or tasks.Beta, optional
        Feature law; uniform on [0, 1] (closed form) when omitted.

    Returns
    -------
    offset, d_a, d_b : ndarray

    Examples
    --------
    >>> r, r_a, r_b = residual(2.0, 5.0, [0.3, 0.5])
    >>> r.round(6).tolist()
    [0.059058, -0.155942]
    >>> bool(np.allclose(r, estimate(2.0, 5.0, [0.3, 0.5]) - [0.3, 0.5]))
    True
    """
    return _summaries(a, b, s, 1.0 - s if q is None else q, features)


@validation.constrained(
    _broadcast_a_b_s,
    a=validation.Finite(),
    b=validation.Finite(),
    s=validation.UnitInterval(),
    **_LAW_OF_FEATURES,
)
def estimate(a, b, s, features=None):
    r"""The infinite-context estimate :math:`\hat s(s)`, vectorized in ``s``.

    And ``a``, ``b``.

    Parameters
    ----------
    a, b : float or array_like
        Label and feature scores (broadcast against ``s``).
    s : float or array_like
        Thresholds in [0, 1].
    features : tasks.Uniform or tasks.Beta, optional
        Feature law; uniform on [0, 1] (closed form) when omitted.

    Returns
    -------
    ndarray
        The estimate, of the broadcast shape of ``a``, ``b`` and ``s``.

    Raises
    ------
    ValueError
        If ``s`` leaves [0, 1], the inputs do not broadcast, or the feature density is
        not integrable at an end of its support.
    TypeError
        If ``features`` is not a law with a density.

    Examples
    --------
    >>> from stumplib import population
    >>> population.estimate(20.0, 40.0, [0.25, 0.5, 0.75]).round(6).tolist()
    [0.274989, 0.275, 0.025034]
    """
    offset, _, _ = residual(a, b, s, features=features)
    return s + offset


@validation.constrained(**_POINT_AND_PRIOR)
def threshold_nodes(a, b, prior):
    """Quadrature over the prior: exact pairs ``(s, q)`` and weights ``density * dw``.

    Panels are graded toward the calibrated threshold ``a/b`` (scale ``1/b``) and
    toward the edges 0 and 1 down to the inner layers there.

    Parameters
    ----------
    a, b : float
        Head parameters.
    prior : tasks.Uniform or tasks.Beta
        Threshold prior (any law with ``support``, ``density``, ``log_density``,
        ``bulk``).

    Returns
    -------
    s, q, weight : ndarray, shape (k,)
        Nodes, their exact complements ``1 - s`` and the weights ``density * dw``.

    Raises
    ------
    ValueError
        If ``a`` or ``b`` is not a finite scalar, or the prior's density is not
        integrable at an edge.
    TypeError
        If ``prior`` is not a law with a density.

    Examples
    --------
    >>> s, q, weight = threshold_nodes(9.0, 10.0, tasks.Uniform(0.1, 0.9))
    >>> round(float(weight.sum()), 12), bool(np.all(s + q == 1.0))
    (1.0, True)
    """
    scale = 1.0 / max(abs(b), 1.0)
    s_edge = max(1e-3 * scale * np.exp(-max(-a, 0.0)), 1e-300)
    q_edge = max(1e-3 * scale * np.exp(-max(a - b, 0.0)), 1e-300)
    center = a / b if abs(b) > 1 else 0.5
    near = np.concatenate(
        [
            quadrature.graded.unchecked(0.0, s_edge, 0.5)[1:],
            quadrature.graded.unchecked(center, 1e-2 * scale),
        ]
    )
    far = np.concatenate(
        [
            quadrature.graded.unchecked(0.0, q_edge, 0.5)[1:],
            quadrature.graded.unchecked(1.0 - center, 1e-2 * scale),
        ]
    )
    return prior_nodes.unchecked(prior, near, far)


#: Closest approach to an edge where the prior's density is a non-integer power law
#: (singular or not smooth): below it the prior's mass is the power law's, in closed
#: form.
EDGE_FLOOR = 1e-24
_DEEP = 4.0 ** -np.arange(
    1, 41
)  # panels graded by 4 toward such an edge, to EDGE_FLOOR


def _edge_power(law, pair, floor, name="prior"):
    """Exponent ``e`` of the density ``~ C t^e`` of ``law`` at ``t -> 0`` from an edge.

    ``None`` when the density is analytic there (``e`` an integer, e.g. uniform or
    Beta with integer exponents) or vanishes to rounding.
    """
    octaves = min(
        100.0, np.floor(np.log2(floor / 1e-307))
    )  # a wide ratio: well conditioned
    log_p = law.log_density(*pair(np.array([floor, floor * 2.0**-octaves])))
    if not np.isfinite(log_p[0]) or octaves < 1:
        return None
    power = (log_p[0] - log_p[1]) / (octaves * np.log(2.0))
    if abs(power - np.round(power)) < 1e-6:
        return None
    if power <= -1:
        raise ValueError(
            f"{name} density is not integrable at an edge (~ t^{power:.3g})"
        )
    return power


#: The closest approach to a singular edge (below it, the power law in closed form):
#: a break nearer the edge is not followed (the density there overflows).
_DEEPEST = 1e-300


def _side(prior, breaks, lo, hi, pair):
    """Nodes ``(s, q, weight)``, ``t`` in ``[lo, hi]`` the distance from one edge."""
    breaks = quadrature.clipped.unchecked(breaks, lo, hi)
    floor = max(min(EDGE_FLOOR, breaks[breaks > 0].min()), _DEEPEST)
    power = _edge_power(prior, pair, floor) if lo == 0 else None
    if power is not None:
        deep = _DEEP
        if floor < _DEEP[-1] / 4:  # a break below EDGE_FLOOR: grade on down to it
            deep = 4.0 ** -np.arange(1, np.log(1.0 / floor) / np.log(4.0))
        breaks = quadrature.clipped.unchecked(np.concatenate([breaks, deep]), floor, hi)
    t, w = quadrature.gauss_legendre.unchecked(breaks)
    s, q = pair(t)
    weight = w * prior.density(s, q)
    if power is None:
        return s, q, weight
    s0, q0 = pair(np.array([floor / 2]))
    edge_mass = (
        floor * np.exp(prior.log_density(*pair(np.array([floor])))) / (power + 1)
    )
    return np.append(s, s0), np.append(q, q0), np.append(weight, edge_mass)


#: A prior narrower than this many float spacings at its centre cannot be resolved by
#: nodes in :math:`s`; it is a point mass at its centre to relative
#: :math:`O(\mathrm{width}^2)`, far below rounding (e.g. Beta(alpha, beta) with
#: alpha + beta above about :math:`10^{26}`).
UNRESOLVED = 1e3


@validation.constrained(
    prior=validation.DensityLaw(), near=validation.Finite(), far=validation.Finite()
)
def prior_nodes(prior, near, far):
    """Composite Gauss-Legendre rule on the prior's support, as exact pairs ``(s, q)``.

    ``q`` holds :math:`1 - s` exactly.

    Besides ``near`` and ``far``, panels are graded around the prior's bulk when it
    is narrower than :data:`NARROW` (so a concentrated prior is resolved whatever its
    width) and, at an edge where the
    density is a non-integer power law :math:`t^e`, toward that edge down to
    :data:`EDGE_FLOOR`, below which the power law is integrated in closed form.

    Parameters
    ----------
    prior : tasks.Uniform or tasks.Beta
        Threshold prior (any law with ``support``, ``density``, ``log_density``,
        ``bulk``).
    near, far : array_like
        Panel breaks in :math:`s` (used below 1/2) and in :math:`1 - s` (used above
        1/2).

    Returns
    -------
    s, q, weight : ndarray
        Nodes, their exact complements and the weights (density times rule weight).

    Examples
    --------
    >>> s, q, weight = prior_nodes(tasks.Uniform(0.1, 0.9), [0.1, 0.5], [0.1, 0.5])
    >>> round(float(weight.sum()), 12), round(float(weight @ s), 12)
    (1.0, 0.5)
    """
    near, far = near.ravel(), far.ravel()

    lo, hi = (float(v) for v in prior.support)
    center, width = prior.bulk
    if width < UNRESOLVED * np.spacing(min(center, 1.0 - center)):
        return np.array([center]), np.array([1.0 - center]), np.array([1.0])
    bulk = width * _bulk_offsets(width) if width < NARROW else np.zeros(0)
    parts = []
    if lo < 0.5:
        parts.append(
            _side(
                prior,
                np.concatenate([near, center + bulk]),
                lo,
                min(hi, 0.5),
                lambda t: (t, 1.0 - t),
            )
        )
    if hi > 0.5:
        parts.append(
            _side(
                prior,
                np.concatenate([far, (1.0 - center) - bulk]),
                1.0 - hi,
                1.0 - max(lo, 0.5),
                lambda t: (1.0 - t, t),
            )
        )
    return tuple(np.concatenate(p) for p in zip(*parts))


@validation.constrained(**_POINT_AND_PRIOR, **_LAW_OF_FEATURES)
def loss_and_gradient(a, b, prior, features=None):
    r"""Population loss :math:`L = \mathbb{E} (\hat s - s)^2` and its gradient.

    The gradient is in :math:`(a, b)`.

    Parameters
    ----------
    a, b : float
        Head parameters.
    prior : tasks.Uniform or tasks.Beta
        Threshold prior.
    features : tasks.Uniform or tasks.Beta, optional
        Feature law (uniform on [0, 1] when omitted).

    Returns
    -------
    loss, d_a, d_b : float

    Raises
    ------
    ValueError
        If ``a`` or ``b`` is not a finite scalar, or a density is not integrable at an
        edge.
    TypeError
        If ``prior`` or ``features`` is not a law with a density.

    Examples
    --------
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> value, d_a, d_b = loss_and_gradient(9.0, 10.0, prior)
    >>> round(value, 8), round(d_a, 8), round(d_b, 8)
    (0.01914836, -0.01636747, 0.01275951)
    >>> value == loss(9.0, 10.0, prior)
    True
    >>> (d_a, d_b) == tuple(gradient(9.0, 10.0, prior))
    True
    """
    s, q, w = threshold_nodes(a, b, prior)
    return squared_error.unchecked(w, *_summaries(a, b, s, q, features))


def _nodes_of_one_length(values):
    names = ("weights", "r", "r_a", "r_b")
    for name in names:
        if np.ndim(values[name]) != 1:
            raise ValueError(
                f"{name} must be one-dimensional, one value per node "
                f"(got shape {np.shape(values[name])})"
            )
    lengths = [len(values[name]) for name in names]
    if len(set(lengths)) > 1:
        got = ", ".join(f"{n} {k}" for n, k in zip(names, lengths))
        raise ValueError(f"weights, r, r_a and r_b must have one length (got {got})")


@validation.constrained(
    _nodes_of_one_length,
    weights=validation.Finite(),
    r=validation.Finite(),
    r_a=validation.Finite(),
    r_b=validation.Finite(),
)
def squared_error(weights, r, r_a, r_b):
    r"""A quadrature of the squared residual and its gradient over the thresholds.

    Parameters
    ----------
    weights : ndarray, shape (k,)
        Quadrature weights of the threshold nodes (the prior's mass).
    r, r_a, r_b : ndarray, shape (k,)
        Residual :math:`r = \hat s(s) - s` at the nodes and its derivatives in
        :math:`a` and :math:`b`.

    Returns
    -------
    tuple of float
        :math:`(\sum w r^2, 2 \sum w r r_a, 2 \sum w r r_b)`: the loss and its
        derivatives :math:`\partial L/\partial a`, :math:`\partial L/\partial b`.

    Examples
    --------
    >>> squared_error(
    ...     np.array([0.5, 0.5]), np.array([0.1, -0.2]), np.ones(2), np.zeros(2)
    ... )  # 0.5 (0.01 + 0.04), 2 * 0.5 (0.1 - 0.2), 0
    (0.025000000000000005, -0.1, 0.0)

    Where a square or a product overflows (or a square underflows to a zero sum), the
    weights apply before the squares (:math:`(\sqrt{w}\, r)^2`), so that a residual
    whose square overflows still counts at a weight that brings it back:

    >>> squared_error(np.array([5e-324]), np.array([1e160]), np.ones(1), np.ones(1))[0]
    0.0004940656458412465
    """
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        loss = weights @ r**2
        sums = (loss, 2 * weights @ (r * r_a), 2 * weights @ (r * r_b))
    if np.isfinite(sums).all() and (loss != 0 or not r.any()):
        return tuple(float(v) for v in sums)
    root = np.sqrt(np.abs(weights))
    sign = np.sign(weights)
    rw = root * r
    with np.errstate(over="ignore", invalid="ignore"):
        sums = (
            sign @ rw**2,
            2 * sign @ (rw * (root * r_a)),
            2 * sign @ (rw * (root * r_b)),
        )
    if not np.isfinite(sums).all():
        raise ValueError("r with weights: the weighted sums are beyond the floats")
    return tuple(float(v) for v in sums)


@validation.constrained(**_POINT_AND_PRIOR, **_LAW_OF_FEATURES)
def loss(a, b, prior, features=None):
    r"""Population loss :math:`L(a, b) = \mathbb{E}_s (\hat s(s) - s)^2` over the prior.

    Parameters
    ----------
    a, b : float
        Head parameters.
    prior : tasks.Uniform or tasks.Beta
        Threshold prior.
    features : tasks.Uniform or tasks.Beta, optional
        Feature law (uniform on [0, 1] when omitted).

    Returns
    -------
    float

    Raises
    ------
    ValueError, TypeError
        As :func:`loss_and_gradient`.

    Examples
    --------
    >>> from stumplib import population, tasks
    >>> round(population.loss(20.0, 40.0, tasks.Uniform()), 6)
    0.266264
    >>> beta = tasks.Beta(2, 2)
    >>> round(population.loss(20.0, 40.0, tasks.Uniform(), features=beta), 6)
    0.235359
    """
    return loss_and_gradient(a, b, prior, features)[0]


@validation.constrained(**_POINT_AND_PRIOR, **_LAW_OF_FEATURES)
def gradient(a, b, prior, features=None):
    """Population gradient ``(dL/da, dL/db)``.

    Parameters
    ----------
    a, b : float
        Head parameters.
    prior : tasks.Uniform or tasks.Beta
        Threshold prior.
    features : tasks.Uniform or tasks.Beta, optional
        Feature law (uniform on [0, 1] when omitted).

    Returns
    -------
    d_a, d_b : float

    Raises
    ------
    ValueError, TypeError
        As :func:`loss_and_gradient`.

    Examples
    --------
    >>> from stumplib import population, tasks
    >>> d_a, d_b = population.gradient(20.0, 40.0, tasks.Uniform())
    >>> round(d_a, 6), round(d_b, 6)
    (-0.006301, 0.003796)
    """
    return loss_and_gradient(a, b, prior, features)[1:]
