r"""The one-head softmax model on a finite context.

Scores :math:`z_i = a y_i - b x_i`, weights :math:`w = \operatorname{softmax}(z)` and
estimate :math:`\hat s = \sum_i w_i x_i`. Functions are batched over leading axes:
``x`` and ``y`` have shape ``(..., N)`` and ``a``, ``b`` broadcast against ``(...)``.

The weights of each class (negatives, positives) are exponentials in :math:`x` taken
relative to the class's heaviest example, so nothing overflows for :math:`|a|, |b|` up
to :math:`10^6` and beyond; the estimate and gradient then follow from the two class
summaries (:func:`stumplib.moments.combine`). An empty batch (``x`` of shape
``(0, N)``) gives empty results.
"""

import numpy as np
from scipy import special

from . import moments, validation

_CONTEXT = dict(x=validation.UnitInterval(), y=validation.Labels())
_POINTS = dict(a=validation.Finite(), b=validation.Finite())
#: The log of the largest float: an exponent beyond it overflows.
_LOG_MAX = float(np.log(np.finfo(float).max))


def _batch(values, shape):
    for name in ("a", "b"):
        validation.batch(values[name], name, shape)


def _prepared_batch(values):
    _batch(values, values["self"].batch_shape)


class Contexts:
    """A batch of contexts laid out for fast repeated evaluation of the head.

    Each context is reordered (negatives first; the order does not matter to the
    head) and flattened, so per-class sums are segment sums (``np.add.reduceat``).

    Parameters
    ----------
    x, y : array_like, shape (..., N)
        Features in [0, 1] and labels in {0, 1}.

    Examples
    --------
    >>> x, y = [[0.1, 0.4, 0.6, 0.9]], [[0, 0, 1, 1]]
    >>> prepared = Contexts(x, y)
    >>> prepared.batch_shape
    (1,)
    >>> bool(np.allclose(estimate(2.0, 5.0, prepared), estimate(2.0, 5.0, x, y)))
    True
    """

    @validation.constrained(validation.one_context, **_CONTEXT)
    def __init__(self, x, y):
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        self.batch_shape, n = x.shape[:-1], x.shape[-1]
        x, y = x.reshape(-1, n), y.reshape(-1, n)
        order = np.argsort(y.astype(np.int8), axis=-1, kind="stable")
        self.x = np.take_along_axis(x, order, axis=-1)
        self.n_neg = n - y.sum(axis=-1).astype(int)
        rows = np.arange(self.x.shape[0]) * n
        self._starts = np.append(
            np.column_stack([rows, rows + self.n_neg]).ravel(), x.size
        )
        self._empty = np.column_stack([self.n_neg == 0, self.n_neg == n])
        self._deviations = {}

    def _refs(self, sign):
        """Per-class reference points: the lightest class member is weight 1."""
        reduce = np.minimum if sign >= 0 else np.maximum
        refs = reduce.reduceat(np.append(self.x.ravel(), 0.0), self._starts)[:-1]
        return np.where(self._empty.ravel(), 0.0, refs).reshape(-1, 2)

    def _deviation(self, sign):
        """Flat ``x - ref(class)`` with a trailing zero slot, cached per sign of b."""
        if sign not in self._deviations:
            refs = self._refs(sign)
            cls = np.arange(self.x.shape[1]) >= self.n_neg[:, None]
            dev = self.x - np.where(cls, refs[:, 1:], refs[:, :1])
            self._deviations[sign] = (refs, np.append(dev.ravel(), 0.0))
        return self._deviations[sign]

    # Elements per block in :meth:`_class_sums`: three float64 work arrays of this
    # length stay in a core's L2 cache, so the seven passes of a gradient evaluation
    # cost about one trip to main memory instead of seven.
    BLOCK = 1 << 15

    def _blocks(self):
        """Row blocks ``(lo, hi, first, last, starts)`` of about :attr:`BLOCK` elements.

        ``starts`` are the block's segment starts relative to ``lo``, followed by the
        start of the next block (so the block's last segment ends at ``hi``);
        ``first:last`` indexes the block's segments among all ``2 m`` of them.
        """
        if getattr(self, "_plan", None) is None:
            rows, n = self.x.shape
            per = max(1, self.BLOCK // n)
            self._plan = [
                (
                    r * n,
                    min(rows, r + per) * n,
                    2 * r,
                    2 * min(rows, r + per),
                    self._starts[2 * r : 2 * min(rows, r + per) + 1] - r * n,
                )
                for r in range(0, rows, per)
            ]
            size = min(rows, per) * n + 1
            self._work = np.empty((2, size))
        return self._plan

    def _class_sums(self, dev, rate):
        """``sum w``, ``sum w d``, ``sum w d^2`` per class, with ``w = exp(-rate * d)``.

        Shape ``(3, 2 * rows)``. Empty classes hold garbage (masked by the caller).
        """
        plan = self._blocks()
        weight, weighted = self._work
        # one spare column: each block's reduceat also writes the sum from the next
        # block's first start, which that block then overwrites
        sums = np.empty((3, 2 * self.x.shape[0] + 1))
        scale = -rate if np.ndim(rate) == 0 else None
        for lo, hi, first, last, starts in plan:
            d = dev[lo : hi + 1]
            w, v = weight[: d.size], weighted[: d.size]
            np.multiply(d, scale if scale is not None else -rate[lo : hi + 1], out=w)
            np.exp(w, out=w)
            np.add.reduceat(w, starts, out=sums[0, first : last + 1])
            np.multiply(w, d, out=v)
            np.add.reduceat(v, starts, out=sums[1, first : last + 1])
            v *= d
            np.add.reduceat(v, starts, out=sums[2, first : last + 1])
        return sums[:, :-1]

    @validation.constrained(_prepared_batch, **_POINTS)
    def summaries(self, a, b):
        r"""Estimate and its derivatives in :math:`a` and :math:`b`, per context.

        Each of the batch shape.

        Examples
        --------
        >>> prepared = Contexts([[0.1, 0.4, 0.6, 0.9]], [[0, 0, 1, 1]])
        >>> [v.round(6).tolist() for v in prepared.summaries(2.0, 5.0)]
        [[0.343498], [0.117502], [-0.072174]]
        """
        return tuple(
            v.reshape(self.batch_shape) for v in moments.combine(*self._classes(a, b))
        )

    @validation.constrained(_prepared_batch, **_POINTS)
    def log_positive_share(self, a, b):
        r"""Log attention mass on positives, :math:`\log \sum_i w_i y_i`, per context.

        From the class log masses, so it is exact in ratios when the mass underflows;
        ``-inf`` for a context with no positive example.

        Examples
        --------
        >>> x = [0.1, 0.4, 0.6, 0.9]
        >>> prepared = Contexts([x, x], [[0, 0, 1, 1], [0, 0, 0, 0]])
        >>> share = prepared.log_positive_share(2.0, 5.0)
        >>> round(float(np.exp(share[0])), 4), float(share[1])
        (0.3775, -inf)
        """
        (lm_neg, _, _), (lm_pos, _, _) = self._classes(a, b)
        with np.errstate(invalid="ignore"):
            share = -np.logaddexp(0.0, lm_neg - lm_pos)
        return np.where(np.isneginf(lm_pos), -np.inf, share).reshape(self.batch_shape)

    def _classes(self, a, b):
        """Flat class summaries ``(log_mass, mean, variance)`` of both classes."""
        a, b = (
            np.broadcast_to(np.asarray(v, dtype=float), self.batch_shape).ravel()
            for v in (a, b)
        )
        if a.size == 0:
            return tuple((np.zeros(0), np.zeros(0), np.zeros(0)) for _ in range(2))
        sign = 1 if np.all(b >= 0) else -1 if np.all(b < 0) else 0
        if sign == 0:  # mixed signs across the batch: evaluate each group apart
            return self._mixed(a, b)
        refs, dev = self._deviation(sign)
        rate = (
            b[0] if np.all(b == b[0]) else np.append(np.repeat(b, self.x.shape[1]), 0.0)
        )
        sums = self._class_sums(dev, rate)
        mass, first, second = (v.reshape(-1, 2) for v in sums)
        safe = np.where(self._empty, 1.0, mass)
        mean = first / safe
        var = np.maximum(second / safe - mean**2, 0.0)
        with np.errstate(divide="ignore"):
            log_mass = np.where(self._empty, -np.inf, np.log(safe) - b[:, None] * refs)
        log_mass[:, 1] += a
        return tuple(
            (log_mass[:, k], refs[:, k] + mean[:, k], var[:, k]) for k in (0, 1)
        )

    def _mixed(self, a, b):
        out = np.empty((2, 3, a.size))
        for group in (b >= 0, b < 0):
            sub = Contexts(
                self.x[group], (np.arange(self.x.shape[1]) >= self.n_neg[group, None])
            )
            out[:, :, group] = np.array(sub._classes(a[group], b[group]))
        return tuple(tuple(cls) for cls in out)


def _contexts_or_features(value, name):
    if isinstance(value, Contexts):
        return value
    return validation.unit_interval(value, name)


def _prepared_or_context(values):
    x, y = values["x"], values["y"]
    if isinstance(x, Contexts):
        if y is not None:
            raise ValueError(
                "y must be omitted when x is a prepared Contexts (it holds the labels)"
            )
        _batch(values, x.batch_shape)
    else:
        values["y"] = validation.labels(y, "y")  # required with features
        validation.batched_context(values)


#: Features in [0, 1], or a prepared :class:`Contexts`.
FEATURES_OR_CONTEXTS = validation.Constraint(
    _contexts_or_features,
    (*validation.UnitInterval().bad, (object(), TypeError)),
)
_PREPARED = dict(**_POINTS, x=FEATURES_OR_CONTEXTS, y=validation.Labels(optional=True))


def _contexts(x, y):
    if isinstance(x, Contexts):
        if y is not None:
            raise ValueError(
                "y must be omitted when x is a prepared Contexts (it holds the labels)"
            )
        return x
    return Contexts(x, y)


@validation.constrained(validation.batched_context, **_POINTS, **_CONTEXT)
def scores(a, b, x, y):
    """Attention scores ``a*y - b*x``, shape ``(..., N)``.

    Parameters
    ----------
    a, b : float or array_like
        Label score and feature score; broadcast against the batch shape ``(...)``.
    x, y : array_like, shape (..., N)
        Features in [0, 1] and labels in {0, 1}.

    Returns
    -------
    ndarray, shape (..., N)

    Raises
    ------
    ValueError
        If ``x`` and ``y`` differ in shape, are empty or out of range, or ``a``, ``b``
        do not broadcast against the batch shape.

    Examples
    --------
    >>> scores(2.0, 5.0, [0.1, 0.4, 0.6, 0.9], [0, 0, 1, 1]).round(6).tolist()
    [-0.5, -2.0, -1.0, -2.5]
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    a, b = (np.broadcast_to(v, x.shape[:-1]) for v in (a, b))
    return a[..., None] * y - b[..., None] * x


@validation.constrained(validation.batched_context, **_POINTS, **_CONTEXT)
def weights(a, b, x, y):
    """Softmax attention weights over the context axis, shape ``(..., N)``.

    Parameters
    ----------
    a, b : float or array_like
        Label score and feature score; broadcast against the batch shape ``(...)``.
    x, y : array_like, shape (..., N)
        Features in [0, 1] and labels in {0, 1}.

    Returns
    -------
    ndarray, shape (..., N)
        Non-negative weights summing to 1 along the last axis.

    Raises
    ------
    ValueError
        As :func:`scores`.

    Examples
    --------
    >>> w = weights(2.0, 5.0, [0.1, 0.4, 0.6, 0.9], [0, 0, 1, 1])
    >>> w.round(4).tolist(), round(float(w.sum()), 12)
    ([0.5089, 0.1136, 0.3087, 0.0689], 1.0)
    """
    return special.softmax(scores(a, b, x, y), axis=-1)


@validation.constrained(_prepared_or_context, **_PREPARED)
def estimate_and_gradient(a, b, x, y=None):
    r"""The estimate :math:`\hat s` and its gradient in :math:`(a, b)` in one pass.

    ``x`` may be a prepared :class:`Contexts` (then ``y`` is omitted).

    Parameters
    ----------
    a, b : float or array_like
        Label score and feature score; broadcast against the batch shape ``(...)``.
    x : array_like, shape (..., N), or Contexts
        Features in [0, 1], or a prepared :class:`Contexts`.
    y : array_like, shape (..., N), optional
        Labels in {0, 1}; omitted when ``x`` is a :class:`Contexts`.

    Returns
    -------
    s_hat, d_a, d_b : ndarray, shape (...)
        The estimate and its partial derivatives in ``a`` and ``b``.

    Raises
    ------
    ValueError
        If the inputs are invalid (as :func:`scores`), or ``y`` is given with a
        prepared :class:`Contexts`.

    Examples
    --------
    >>> x, y = [0.1, 0.4, 0.6, 0.9], [0, 0, 1, 1]
    >>> s_hat, d_a, d_b = estimate_and_gradient(2.0, 5.0, x, y)
    >>> round(float(s_hat), 6), round(float(d_a), 6), round(float(d_b), 6)
    (0.343498, 0.117502, -0.072174)
    """
    return _contexts(x, y).summaries(a, b)


@validation.constrained(_prepared_or_context, **_PREPARED)
def estimate(a, b, x, y=None):
    r"""The head's threshold estimate :math:`\hat s = \sum_i w_i x_i`.

    Parameters
    ----------
    a, b : float or array_like
        Label score and feature score (attention scale); broadcast over the batch.
    x, y : array_like, shape (..., N)
        Features in [0, 1] and labels in {0, 1} (or a prepared :class:`Contexts`).

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    ValueError
        As :func:`estimate_and_gradient`.

    Examples
    --------
    >>> from stumplib import head
    >>> x, y = [0.1, 0.4, 0.6, 0.9], [0, 0, 1, 1]
    >>> round(float(head.estimate(2.0, 5.0, x, y)), 6)
    0.343498
    >>> head.estimate([1.0, 2.0], 5.0, [x, x], [y, y]).round(6).tolist()
    [0.24594, 0.343498]
    """
    return estimate_and_gradient(a, b, x, y)[0]


@validation.constrained(_prepared_or_context, **_PREPARED)
def gradient(a, b, x, y=None):
    r"""Gradient of the estimate in :math:`(a, b)`, each entry of shape ``(...)``.

    The entries are :math:`\partial \hat s/\partial a = \operatorname{Cov}_w(x, y)`
    and :math:`\partial \hat s/\partial b = -\operatorname{Var}_w(x)`.

    Parameters
    ----------
    a, b : float or array_like
        Label score and feature score; broadcast against the batch shape ``(...)``.
    x : array_like, shape (..., N), or Contexts
        Features in [0, 1], or a prepared :class:`Contexts`.
    y : array_like, shape (..., N), optional
        Labels in {0, 1}; omitted when ``x`` is a :class:`Contexts`.

    Returns
    -------
    d_a, d_b : ndarray, shape (...)
        Partial derivatives of the estimate in ``a`` and ``b``.

    Raises
    ------
    ValueError
        As :func:`estimate_and_gradient`.

    Examples
    --------
    >>> from stumplib import head
    >>> d_a, d_b = head.gradient(2.0, 5.0, [0.1, 0.4, 0.6, 0.9], [0, 0, 1, 1])
    >>> round(float(d_a), 6), round(float(d_b), 6)
    (0.117502, -0.072174)
    """
    _, d_a, d_b = estimate_and_gradient(a, b, x, y)
    return d_a, d_b


@validation.constrained(validation.one_context, **_CONTEXT)
def hard_limit(x, y):
    r"""Limit of the estimate as :math:`b \to \infty` with :math:`a - b \to \infty`.

    The smallest positive example; with no positive, the smallest example (the
    head collapses toward the bottom of the context).

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
        If ``x`` and ``y`` differ in shape, are empty or out of range.

    Examples
    --------
    >>> hard_limit([0.1, 0.4, 0.6, 0.9], [0, 0, 1, 1]).tolist()
    0.6
    >>> hard_limit([[0.3, 0.2], [0.5, 0.7]], [[0, 0], [1, 1]]).tolist()
    [0.2, 0.5]
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    nearest = np.where(y == 1, x, np.inf).min(axis=-1)
    return np.where(np.isfinite(nearest), nearest, x.min(axis=-1))


def _path_and_context(values):
    validation.broadcastable((values["a"], values["b"]), ("a", "b"))
    validation.one_context(values)
    if values["x"].ndim != 1:
        raise ValueError("x and y must be one context (1-D)")


@validation.constrained(_path_and_context, **_POINTS, **_CONTEXT)
def distance_to_limit(a, b, x, y):
    r""":math:`|\hat s - x_1|` along a path of parameters, :math:`x_1` the hard limit.

    For one context; :math:`x_1` is :func:`hard_limit`.

    Parameters
    ----------
    a, b : array_like, shape (k,)
        Parameter values along a path.
    x, y : array_like, shape (N,)
        One context.

    Returns
    -------
    ndarray, shape (k,)

    Raises
    ------
    ValueError
        If ``x`` and ``y`` are not one 1-D context, or ``a`` and ``b`` do not broadcast.

    Examples
    --------
    >>> x, y = [0.1, 0.4, 0.6, 0.9], [0, 0, 1, 1]
    >>> distance_to_limit([40.0, 80.0], [20.0, 40.0], x, y).round(6).tolist()
    [0.000742, 2e-06]
    """
    a, b = np.broadcast_arrays(*(np.atleast_1d(np.asarray(v, float)) for v in (a, b)))
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    batch = (a.size, x.size)
    s_hat = estimate(a, b, np.broadcast_to(x, batch), np.broadcast_to(y, batch))
    return np.abs(s_hat - hard_limit(x, y))


@validation.constrained(validation.one_context, **_POINTS, **_CONTEXT)
def hard_limit_expansion(a, b, x, y):
    r"""Leading term of :math:`\hat s - x_1` and a bound on the rest, for one context.

    Let :math:`x_1 < x_2` be the two smallest positives (all examples when there is no
    positive; :math:`x_1` is :func:`hard_limit`), :math:`g = x_2 - x_1` the gap and
    :math:`t_i = e^{z_i - z_1}` the weights relative to :math:`x_1`. Exactly,
    :math:`\hat s - x_1 = w_1 (r + \delta)` with :math:`r = g e^{-b g}` and
    :math:`\delta = \sum_{i \ne 1, 2} (x_i - x_1) t_i`, hence

    .. math::

        \left|\frac{\hat s - x_1}{r} - 1\right|
        \le \frac{|\delta|}{r} + \sum_{i \ne 1} t_i =: B.

    Parameters
    ----------
    a, b : array_like, shape (k,)
        Parameter values along a path (e.g. growing scales).
    x, y : array_like, shape (N,)
        One context with at least two examples in the role of positives.

    Returns
    -------
    leading, bound : ndarray, shape (k,)
        :math:`r` and :math:`B` at each parameter value (:math:`B` is ``inf`` where it
        is beyond the floats: no bound there).
    gap : float
        The gap :math:`g = x_2 - x_1`.

    Raises
    ------
    ValueError
        If fewer than two examples are in the role of positives, the two smallest
        are tied (:math:`g = 0`: the leading term vanishes), or :math:`r` is beyond the
        floats (:math:`b g` below about :math:`-709`).

    Examples
    --------
    >>> x, y = [0.1, 0.4, 0.6, 0.9], [0, 0, 1, 1]
    >>> leading, bound, gap = hard_limit_expansion([80.0], [40.0], x, y)
    >>> round(gap, 12), bool(bound[0] < 1e-3)
    (0.3, True)
    """
    a, b, x, y, first, second, gap = _limit_path(a, b, x, y)
    if np.any(-b * gap > _LOG_MAX):
        raise ValueError(
            f"b = {np.min(b):g} puts the leading term gap exp(-b gap) beyond the floats"
        )
    a, b = a[:, None], b[:, None]
    relative = a * (y - y[first]) - b * (x - x[first])
    others = np.ones(x.size, dtype=bool)
    others[[first, second]] = False
    with np.errstate(over="ignore", invalid="ignore"):
        exponents = relative[:, others] + b * gap
        rest = np.abs(np.sum((x[others] - x[first]) / gap * np.exp(exponents), axis=1))
        mass = np.sum(np.exp(np.delete(relative, first, axis=1)), axis=1)
        far = ~np.isfinite(rest)  # terms beyond the floats: the sum in log space
        if np.any(far):
            log_rest = special.logsumexp(
                exponents[far], b=(x[others] - x[first]) / gap, axis=1, return_sign=True
            )[0]
            rest[far] = np.exp(log_rest)
    return gap * np.exp(-b[:, 0] * gap), rest + mass, float(gap)


def _limit_path(a, b, x, y):
    """Checked path ``a, b`` (1-D, equal length), one context, its two nearest examples.

    Returns ``a, b, x, y, first, second, gap`` with ``x[first] < x[second]`` the two
    smallest examples in the role of positives (all examples when there is no positive).
    """
    a, b = (np.atleast_1d(np.asarray(v, dtype=float)) for v in (a, b))
    if a.ndim != 1 or a.shape != b.shape:
        raise ValueError(
            f"a and b must be 1-D of equal length (got {a.shape} and {b.shape})"
        )
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.ndim != 1:
        raise ValueError(f"x and y must be one context of shape (N,) (got {x.shape})")
    role = y if y.any() else np.ones_like(y)
    if role.sum() < 2:
        raise ValueError("x, y need at least two examples in the role of positives")
    order = np.argsort(np.where(role == 1, x, np.inf), kind="stable")
    first, second = order[0], order[1]
    gap = x[second] - x[first]
    if gap == 0:
        raise ValueError(
            "x must not tie its two smallest examples in the role of positives "
            f"(both at {x[first]:g}): the gap is 0 and the leading term vanishes"
        )
    return a, b, x, y, first, second, float(gap)


@validation.constrained(validation.one_context, **_POINTS, **_CONTEXT)
def limit_ratio(a, b, x, y):
    r""":math:`(\hat s-x_1)/(g\,e^{-bg})` on a path, :math:`g` the gap, in exact ratios.

    With :math:`x_1 < x_2` the two smallest examples in the role of positives (all
    examples when there is no positive, as in :func:`hard_limit_expansion`),
    :math:`\hat s-x_1=\sum_i w_i(x_i-x_1)`. Dividing by the leading term
    :math:`r=g\,e^{-bg}`, with :math:`g` the gap,

    .. math::

        \frac{\hat s-x_1}{r}=\frac{\sum_{i\ne1}e^{z_i-z_2}(x_i-x_1)/g}
        {\sum_i e^{z_i-z_1}},

    with scores :math:`z = a y - b x`. Both sums are taken in log space from the score
    differences (:math:`a (y_i - y_k) - b (x_i - x_k)`), so the ratio is accurate to a
    few ulps at every scale, where :math:`\hat s - x_1` itself underflows or is lost to
    the rounding of :math:`\hat s` (:func:`distance_to_limit` resolves it only while
    :math:`r` is well above :math:`\varepsilon (a + b)`, :math:`\varepsilon` the machine
    epsilon). :func:`hard_limit_expansion` bounds :math:`|\mathrm{ratio} - 1|` by
    :math:`B`.

    Parameters
    ----------
    a, b : array_like, shape (k,)
        Parameter values along a path.
    x, y : array_like, shape (N,)
        One context, with two distinct smallest examples in the role of positives.

    Returns
    -------
    ndarray, shape (k,)

    Raises
    ------
    ValueError
        As :func:`hard_limit_expansion`, or where the ratio is beyond the floats (an
        example below ``x1`` dominates the weights: ``a`` and ``b`` far from the
        limit).

    Examples
    --------
    >>> x, y = [0.1, 0.4, 0.6, 0.9], [0, 0, 1, 1]
    >>> ratio = limit_ratio([80.0, 800.0], [40.0, 400.0], x, y)
    >>> bound = hard_limit_expansion([80.0, 800.0], [40.0, 400.0], x, y)[1]
    >>> bool(np.all(np.abs(ratio - 1) <= bound)), round(float(ratio[1]), 6)
    (True, 1.0)
    """
    a, b, x, y, first, second, gap = _limit_path(a, b, x, y)
    a, b = a[:, None], b[:, None]
    others = np.ones(x.size, dtype=bool)
    others[first] = False
    to_second = a * (y[others] - y[second]) - b * (x[others] - x[second])
    numerator, sign = special.logsumexp(
        to_second, b=(x[others] - x[first]) / gap, axis=1, return_sign=True
    )
    denominator = special.logsumexp(a * (y - y[first]) - b * (x - x[first]), axis=1)
    if np.any(numerator - denominator > _LOG_MAX):
        raise ValueError(
            "a and b put the ratio beyond the floats (its log reaches "
            f"{np.max(numerator - denominator):.3g}): an example below x1 dominates"
        )
    return sign * np.exp(numerator - denominator)


def _two_growing_scales(values):
    b = np.asarray(values["b"], dtype=float)
    if np.shape(values["a"]) != (2,) or b.shape != (2,) or not b[1] > b[0]:
        raise ValueError(
            "a and b must be two points of a path, shape (2,), with b[1] > b[0] "
            f"(got a of shape {np.shape(values['a'])} and b = {b.tolist()})"
        )


@validation.constrained(
    validation.one_context, _two_growing_scales, **_POINTS, **_CONTEXT
)
def limit_decay(a, b, x, y):
    r"""Decay rate of :math:`|\hat s - x_1|` between two scales, and its bound.

    The rate :math:`\lambda = -(\log d(b_2) - \log d(b_1)) / (b_2 - b_1)` of the
    distance :math:`d = |\hat s - x_1|` to the hard limit (:func:`distance_to_limit`,
    from the estimate itself) tends to the gap :math:`g = x_2 - x_1` of
    :func:`hard_limit_expansion`. With :math:`B` its bound, :math:`d = r (1 + e)`,
    :math:`|e| \le B` and :math:`r = g e^{-b g}`, so

    .. math::

        |\lambda - g| \le \frac{|\log(1 - B_1)| + |\log(1 - B_2)|}{b_2 - b_1},

    to which the bound adds the rounding of :math:`d` (:math:`4 \varepsilon (1 + |a| +
    |b|) / d` relative at each end, :math:`\varepsilon` the machine epsilon).

    Parameters
    ----------
    a, b : array_like, shape (2,)
        Two points of a path, ``b[1] > b[0]``.
    x, y : array_like, shape (N,)
        One context, with two distinct smallest examples in the role of positives.

    Returns
    -------
    rate, bound : float
        The measured rate :math:`\lambda` and the bound on :math:`|\lambda - g|`
        (``inf`` unless :math:`B < 1` and the distance is resolved at both ends).

    Raises
    ------
    ValueError
        If ``a``, ``b`` are not two points with growing ``b``, or as
        :func:`hard_limit_expansion`.

    Examples
    --------
    >>> x, y = [0.1, 0.4, 0.6, 0.9], [0, 0, 1, 1]
    >>> rate, bound = limit_decay([70.0, 100.0], [35.0, 50.0], x, y)
    >>> bool(abs(rate - 0.3) <= bound < 0.01)
    True
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    d = distance_to_limit(a, b, x, y)
    bound = hard_limit_expansion(a, b, x, y)[1]
    rounding = 4 * np.finfo(float).eps * (1 + np.abs(a) + np.abs(b))
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = -(np.log(d[1]) - np.log(d[0])) / (b[1] - b[0])
        relative = bound + rounding / d
        below = relative < 1
        error = np.where(below, -np.log1p(-np.where(below, relative, 0.0)), np.inf)
    total = float(np.sum(error) / (b[1] - b[0]))
    return float(rate), (total if np.isfinite(rate) else float("inf"))
