"""Composite Gauss-Legendre rules on geometrically graded panels.

The population integrands have layers of width :math:`1/b` around the calibrated
threshold and of width about :math:`e^{-(a-b)}/b` near :math:`s = 1`; panels graded by
factors of two toward those points resolve them with a fixed number of nodes per
panel, whatever the scale.
"""

import numpy as np

from . import validation

NODES_PER_PANEL = 20
#: The most points :func:`graded` puts on a side of its centre.
MAX_GRADED = 10**5
_LARGEST = np.finfo(float).max
_TINY = np.finfo(float).tiny  # the smallest normal float
_GL_X, _GL_W = np.polynomial.legendre.leggauss(NODES_PER_PANEL)


@validation.constrained(breaks=validation.Finite())
def gauss_legendre(breaks):
    """Nodes and weights of the composite rule on the panels between sorted ``breaks``.

    Parameters
    ----------
    breaks : array_like
        Panel ends (sorted and deduplicated here).

    Returns
    -------
    nodes, weights : ndarray, shape (NODES_PER_PANEL * (k - 1),)
        For ``k`` distinct breaks.

    Raises
    ------
    ValueError
        If ``breaks`` holds NaN or inf.

    Examples
    --------
    >>> nodes, weights = gauss_legendre([1.0, 0.0, 0.5])
    >>> nodes.shape, float(weights.sum()), bool(np.all(np.diff(nodes) > 0))
    ((40,), 1.0, True)
    """
    breaks = np.unique(breaks)
    left, width = breaks[:-1, None], np.diff(breaks)[:, None]
    nodes = left + 0.5 * width * (_GL_X + 1.0)
    return nodes.ravel(), (0.5 * width * _GL_W).ravel()


@validation.constrained(
    center=validation.Scalar(),
    smallest=validation.PositiveScalar(),
    largest=validation.PositiveScalar(),
    ratio=validation.Exceeding(1),
)
def graded(center, smallest, largest=1.0, ratio=2.0):
    r"""Points :math:`c \pm \delta r^k` up to distance ``largest``, and :math:`c`.

    With :math:`c` the ``center``, :math:`\delta` the ``smallest`` distance and
    :math:`r` the ``ratio``, :math:`k = 0, 1, \ldots`.

    Parameters
    ----------
    center : float
        The point toward which the points are graded.
    smallest, largest : float
        Smallest and largest distance from ``center``, positive.
    ratio : float
        Growth factor between distances, above 1.

    Returns
    -------
    ndarray
        ``center``, then the points below it, then those above it (unsorted); points
        beyond the largest float are put at it.

    Raises
    ------
    ValueError
        If a distance is not positive, ``ratio <= 1``, or the grading would take more
        than :data:`MAX_GRADED` points on a side (``ratio`` too close to 1).

    Examples
    --------
    >>> graded(0.5, 0.1, 0.3).tolist()
    [0.5, 0.4, 0.3, 0.09999999999999998, 0.6, 0.7, 0.9]
    """
    steps = (
        np.ceil((np.log(largest) - np.log(smallest)) / np.log(ratio)) + 1
        if largest > smallest
        else 1
    )
    if steps > MAX_GRADED:
        raise ValueError(
            f"ratio = {ratio!r} grades {smallest:g} to {largest:g} in more than "
            f"{MAX_GRADED} points"
        )
    with np.errstate(over="ignore"):
        powers = ratio ** np.arange(int(steps))
        if np.isfinite(powers[-1]):
            offsets = smallest * powers
        else:  # the powers overflow before the smallest distance brings them back
            offsets = np.exp(np.log(smallest) + np.log(ratio) * np.arange(int(steps)))
        points = np.concatenate([[center], center - offsets, center + offsets])
    return np.clip(points, -_LARGEST, _LARGEST)


@validation.constrained(
    points=validation.Finite(), lo=validation.Scalar(), hi=validation.Scalar()
)
def clipped(points, lo, hi):
    """The points strictly inside ``(lo, hi)``, with ``lo`` and ``hi`` added.

    Parameters
    ----------
    points : array_like, 1-D
        Candidate points.
    lo, hi : float
        The interval's ends.

    Returns
    -------
    ndarray
        ``lo``, ``hi``, then the points inside (unsorted).

    Raises
    ------
    ValueError
        If ``points`` holds NaN or inf, or ``lo``, ``hi`` are not scalars.

    Examples
    --------
    >>> clipped([0.1, 0.5, 0.9], 0.2, 1.0).tolist()
    [0.2, 1.0, 0.5, 0.9]
    """
    return np.concatenate([[lo, hi], points[(points > lo) & (points < hi)]])


def _power_offset(values):
    validation.broadcastable((values["power"], values["offset"]), ("power", "offset"))


@validation.constrained(
    _power_offset,
    power=validation.Exceeding(-1, scalar=False),
    offset=validation.NonNegative(),
)
def power_panel(power, offset=0.0):
    r"""Gauss-Legendre rule on [0, 1] for integrands behaving as :math:`(c + t)^p`.

    With :math:`p` the ``power`` and :math:`c` the ``offset``. For
    :math:`f(t) = (c + t)^p g(t)` with :math:`c \ge 0` and :math:`-1 < p < 0` (a
    singular but integrable power law), the substitution :math:`u = (c + t)^{p + 1}`
    turns the integral into :math:`\int g(t(u))\, du / (p + 1)`: exact when :math:`g`
    is constant, and accurate to the rule's order when :math:`g` varies little on the
    panel (as on the innermost panel of a graded rule), whether the singular point
    :math:`t = -c` is the panel's end (:math:`c = 0`) or just outside it. A bounded
    integrand (:math:`p \ge 0`) or a singularity at least a panel's width away
    (:math:`c \ge 1`) gets the plain Gauss-Legendre rule.

    Parameters
    ----------
    power : float or array_like
        Exponents :math:`p > -1` (an integrable power law).
    offset : float or array_like, optional
        Distances :math:`c \ge 0` of the singular point below :math:`t = 0` (broadcast
        against ``power``).

    Returns
    -------
    nodes, weights : ndarray, shape ``broadcast shape + (NODES_PER_PANEL,)``
        Nodes in (0, 1] and their positive weights. Near :math:`p = -1` the mapped
        nodes fall below the smallest normal float (at :math:`p = -0.999` half the
        mass of :math:`t^p` lies below :math:`10^{-300}`): they are kept at it, with
        weights such that :math:`\mathrm{weight} \cdot (c + \mathrm{node})^p` stays
        exact (the rule stays exact for :math:`(c + t)^p`; the variation of :math:`g`
        below that float is not resolved).

    Raises
    ------
    ValueError
        If :math:`p \le -1` or :math:`c < 0`.

    Examples
    --------
    >>> nodes, weights = power_panel(-0.5)  # the integral of t**-0.5 on [0, 1] is 2
    >>> round(float(np.sum(weights * nodes**-0.5)), 12)
    2.0
    """
    near = np.asarray((offset < 1) & (power < 0))[..., None]
    k = np.where(near, 1.0 / (np.asarray(power)[..., None] + 1.0), 1.0)  # t + c = u^k
    c = np.where(near, np.asarray(offset)[..., None], 0.0)
    x = 0.5 * (_GL_X + 1.0)
    with np.errstate(under="ignore", divide="ignore", invalid="ignore", over="ignore"):
        # where u1 = (c + 1)^(1/k) is within twice u0 = c^(1/k): u = u0 (1 + r x),
        # r = u1/u0 - 1, so that neither u1 - u0 nor t = u^k - c cancels; elsewhere
        # u = u0 + (u1 - u0) x
        safe = np.where(c > 0, c, 1.0)
        r = np.expm1((np.log1p(safe) - np.log(safe)) / k)
        close = (c > 0) & (r < 1.0)
        u0, u1 = c ** (1.0 / k), (c + 1.0) ** (1.0 / k)
        u = u0 + (u1 - u0) * x
        width = np.where(close, np.exp(np.log(safe) / k) * r, u1 - u0)
        nodes = np.where(close, safe * np.expm1(k * np.log1p(r * x)), u**k - c)
        weights = np.where(
            close,
            k * (safe + nodes) * r / (1.0 + r * x),
            k * u ** (k - 1.0) * (u1 - u0),
        ) * (0.5 * _GL_W)
    low = nodes < _TINY
    if low.any():  # near power -1 the mapped nodes underflow: kept at the smallest
        # normal float, with the weight that keeps weight * (c + t)^power exact
        nodes = np.maximum(nodes, _TINY)
        exact = k * width * (0.5 * _GL_W) * (c + nodes) ** (1.0 - 1.0 / k)
        weights = np.where(low, exact, weights)
    return nodes, weights


def _sorted_complement_breaks(values):
    g, h = values["g"], values["h"]
    validation.same_shape(g, h, ("g", "h"))
    if np.any(np.abs(g + h - 1.0) > 4 * np.finfo(float).eps):
        raise ValueError("h must be 1 - g (to rounding)")
    if g.ndim == 0 or g.shape[-1] < 2:
        raise ValueError(
            f"g needs at least two breaks along its last axis (got shape {g.shape})"
        )
    if np.any(np.diff(g, axis=-1) < 0):
        raise ValueError("g must be sorted along its last axis")


@validation.constrained(
    _sorted_complement_breaks,
    g=validation.UnitInterval(),
    h=validation.UnitInterval(),
)
def gauss_legendre_rows(g, h):
    """Composite rules on ``[0, 1]``, one a row, from sorted break pairs ``(g, 1 - g)``.

    ``h = 1 - g`` is given exactly, so panels near 1 keep their relative precision.

    Parameters
    ----------
    g, h : array_like, shape (rows, k)
        Breaks in [0, 1], sorted along the last axis (``k >= 2``), and their exact
        complements (``g + h = 1`` to rounding).

    Returns
    -------
    g, h, weights : ndarray, shape (rows, (k - 1) * NODES_PER_PANEL)
        Nodes, their exact complements and weights (zero on empty panels).

    Raises
    ------
    ValueError
        If ``h`` is not ``1 - g`` to rounding, or ``g`` has fewer than two breaks or is
        not sorted along its last axis.

    Examples
    --------
    >>> g, h, weights = gauss_legendre_rows([[0.0, 0.5, 1.0]], [[1.0, 0.5, 0.0]])
    >>> g.shape, bool(np.allclose(g + h, 1.0)), float(weights.sum())
    ((1, 40), True, 1.0)
    """
    left, right = g[..., :-1], g[..., 1:]
    width = np.where(left < 0.5, right - left, h[..., :-1] - h[..., 1:])
    half = 0.5 * width[..., None]
    nodes = left[..., None] + half * (_GL_X + 1.0)
    complements = h[..., 1:, None] + half * (1.0 - _GL_X)
    shape = (*g.shape[:-1], (g.shape[-1] - 1) * NODES_PER_PANEL)  # an empty batch too
    return (
        nodes.reshape(shape),
        complements.reshape(shape),
        (half * _GL_W).reshape(shape),
    )
