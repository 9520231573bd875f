r"""A ladder of certified runs as evidence for an upper bound on the error.

The bound is error :math:`= O(1/(m \wedge n))`. The runs of one freezing level at
several sizes :math:`m \wedge n`. Per size (a *rung*): the share of runs inside the
certificate with its Clopper–Pearson interval, and the error times :math:`m \wedge n`.
Over the ladder: a one-sided binomial test of the share inside against a declared
floor; the trend of :math:`\log(\mathrm{error} \cdot (m \wedge n))` in
:math:`\log (m \wedge n)` fitted to the per-size quantile of one run's error times
:math:`m \wedge n` it estimates.

A bound allows a trend of at most one logarithm (:math:`\tilde O`): :math:`\log x` has
local slope :math:`1 / \log x` in :math:`\log x`, taken at the ladder's geometric
middle.
"""

from typing import NamedTuple

import numpy as np
from scipy import stats

from . import fitting, validation

#: One-sided normal quantile of the trend test (1%).
TREND_Z = float(stats.norm.isf(0.01))


class Rung(NamedTuple):
    r"""The runs of one size.

    Parameters
    ----------
    k : float
        The size :math:`m \wedge n`.
    runs, inside : int
        Runs at this size, and those inside the certificate.
    share_lo, share_hi : float
        Clopper–Pearson 95% interval of the share inside.
    error_k, error_k_se : float
        Mean error times :math:`m \wedge n` and its standard error (``nan`` for
        one run).
    error_k_max : float
        Largest error times :math:`m \wedge n`.
    """

    k: float
    runs: int
    inside: int
    share_lo: float
    share_hi: float
    error_k: float
    error_k_se: float
    error_k_max: float

    @property
    def share(self):
        """Share of the runs inside the certificate.

        Examples
        --------
        >>> rung = ladder([10, 10, 20, 20, 40, 40], [1.0] * 6, [True] * 5 + [False])
        >>> [r.share for r in rung.rungs]
        [1.0, 1.0, 0.5]
        """
        return self.inside / self.runs


class Ladder(NamedTuple):
    r"""The ladder's summaries (see the module's description).

    Parameters
    ----------
    rungs : tuple of Rung
        One per size, ascending.
    floor : float
        The declared least share inside.
    share_p : float
        ``P(X <= inside)`` for ``X ~ Binomial(runs, floor)``: small if the share is
        below the floor.
    slope, slope_se : float
        Trend of the per-size mean of :math:`\log(\mathrm{error} \cdot (m \wedge n))`
        in :math:`\log (m \wedge n)` and its standard error from the scatter of the
        sizes about the line (``nan`` with two sizes).
    allowance : float
        One logarithm's slope, :math:`1 / \log x_{\mathrm{mid}}`
        (:math:`x_{\mathrm{mid}}` the geometric middle of the sizes).
    sup : float
        The largest error times :math:`m \wedge n` over the runs.
    """

    rungs: tuple
    floor: float
    share_p: float
    slope: float
    slope_se: float
    allowance: float
    sup: float

    @property
    def runs(self):
        """Runs over the ladder.

        Examples
        --------
        >>> ladder([10, 20, 40], [1.0, 0.5, 0.25], [True] * 3).runs
        3
        """
        return sum(r.runs for r in self.rungs)

    @property
    def inside(self):
        """Runs inside the certificate over the ladder.

        Examples
        --------
        >>> ladder([10, 20, 40], [1.0, 0.5, 0.25], [True, False, True]).inside
        2
        """
        return sum(r.inside for r in self.rungs)

    @property
    def sup_quantile(self):
        r"""The quantile of a run's error times :math:`m \wedge n` the max estimates.

        ``runs / (runs + 1)``.

        Examples
        --------
        >>> ladder([10, 20, 40], [1.0, 0.5, 0.25], [True] * 3).sup_quantile
        0.75
        """
        return self.runs / (self.runs + 1)

    @property
    def trend_bound(self):
        """One-sided 99% upper bound of the trend, ``slope + TREND_Z · slope_se``.

        Examples
        --------
        >>> k, error = [10, 10, 20, 20, 40, 40], [1, 1, 0.5, 0.5, 0.25, 0.25]
        >>> out = ladder(k, error, [1] * 6)
        >>> round(out.trend_bound, 12) + 0.0
        0.0
        """
        return self.slope + TREND_Z * self.slope_se

    @property
    def trend_floor(self):
        r"""One-sided 99% lower bound of the trend, ``slope - TREND_Z · slope_se``.

        Above :attr:`allowance`, the data show the error times :math:`m \wedge n`
        growing faster than one logarithm: the bound :math:`\tilde O(1/(m \wedge n))`
        fails.

        Examples
        --------
        >>> k, error = [10, 10, 20, 20, 40, 40], [1, 1, 1, 1, 1, 1]
        >>> out = ladder(k, error, [1] * 6)
        >>> round(out.trend_floor, 12), out.trend_floor > out.allowance
        (1.0, True)
        """
        return self.slope - TREND_Z * self.slope_se


def _ladder_inputs(values):
    k, error, inside = values["k"], values["error"], values["inside"]
    if not (k.ndim == 1 and k.shape == error.shape == inside.shape):
        raise ValueError(
            "k, error and inside must be 1-D of one length"
            f" (got {k.shape}, {error.shape} and {inside.shape})"
        )
    if np.unique(k).size < 2:
        raise ValueError("k must hold at least two distinct sizes")
    if not np.all(error > 0):
        raise ValueError("error must be positive (a threshold error in (0, 1])")


@validation.constrained(
    _ladder_inputs,
    k=validation.Positive(),
    error=validation.UnitInterval(),
    inside=validation.Labels(),
    floor=validation.Exceeding(0.0),
)
def ladder(k, error, inside, floor=0.95):
    r"""The summaries of a ladder of runs: per size, and over the ladder.

    Parameters
    ----------
    k : array_like, shape (runs,)
        Each run's size :math:`m \wedge n` (at least two distinct).
    error : array_like, shape (runs,)
        Each run's threshold error, in ``(0, 1]``.
    inside : array_like of bool or {0, 1}, shape (runs,)
        Whether each run stayed inside its certificate.
    floor : float
        The declared least share inside, in ``(0, 1)``.

    Returns
    -------
    Ladder

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid, the shapes differ, ``k`` holds one size only, or
        ``floor`` is not below 1.

    Examples
    --------
    >>> out = ladder([10, 10, 100, 100], [0.3, 0.5, 0.03, 0.05], [1, 1, 1, 0])
    >>> [r.error_k for r in out.rungs], out.inside, round(out.share_p, 4)
    ([4.0, 4.0], 3, 0.1855)
    """
    if floor >= 1:
        raise ValueError(f"floor must be in (0, 1) (got {floor})")
    k, error = np.asarray(k, dtype=float), np.asarray(error, dtype=float)
    inside = np.asarray(inside).astype(bool)
    scaled = error * k
    rungs = tuple(
        _rung(size, scaled[k == size], inside[k == size]) for size in np.unique(k)
    )
    sizes = np.array([r.k for r in rungs])
    means = np.array([np.mean(np.log(scaled[k == size])) for size in sizes])
    slope, slope_se = _trend(np.log(sizes), means)
    return Ladder(
        rungs,
        float(floor),
        float(stats.binom.cdf(int(inside.sum()), inside.size, floor)),
        slope,
        slope_se,
        float(1.0 / np.log(np.sqrt(sizes[0] * sizes[-1]))),
        float(scaled.max()),
    )


def _rung(k, scaled, inside):
    n, x = scaled.size, int(inside.sum())
    lo, hi = clopper_pearson(x, n)
    se = float(np.std(scaled, ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    return Rung(float(k), n, x, lo, hi, float(scaled.mean()), se, float(scaled.max()))


def _trend(x, y):
    """Slope of ``y`` in ``x`` and its standard error from the scatter.

    The error is ``nan`` for two points, which leave no scatter.
    """
    design = np.column_stack([np.ones_like(x), x])
    if x.size == 2:
        return float((y[1] - y[0]) / (x[1] - x[0])), float("nan")
    fit = fitting.least_squares(design, y)
    return float(fit.coef[1]), float(fit.se[1])


@validation.constrained(
    inside=validation.Integer(minimum=0),
    runs=validation.Integer(minimum=1),
    confidence=validation.PositiveScalar(),
)
def clopper_pearson(inside, runs, confidence=0.95):
    """The Clopper–Pearson (exact binomial) interval of a share ``inside / runs``.

    Parameters
    ----------
    inside : int
        Successes, ``0 <= inside <= runs``.
    runs : int
        Trials, positive.
    confidence : float
        Coverage of the interval, in ``(0, 1)``.

    Returns
    -------
    tuple of float
        ``(lo, hi)``; ``lo = 0`` when ``inside = 0`` and ``hi = 1`` when ``inside =
        runs``.

    Raises
    ------
    ValueError, TypeError
        If ``inside`` exceeds ``runs`` or an argument is invalid.

    Examples
    --------
    >>> lo, hi = clopper_pearson(8, 8)
    >>> round(lo, 4), hi
    (0.6306, 1.0)
    """
    if inside > runs:
        raise ValueError(f"inside must be at most runs (got {inside} > {runs})")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1) (got {confidence})")
    tail = (1 - confidence) / 2
    lo = float(stats.beta.ppf(tail, inside, runs - inside + 1)) if inside else 0.0
    hi = (
        float(stats.beta.isf(tail, inside + 1, runs - inside)) if inside < runs else 1.0
    )
    return lo, hi


@validation.constrained(
    certified=validation.Instance(Ladder), edge=validation.Instance(Ladder)
)
def price(certified, edge):
    """The price of certification: the ratio of ``error · k`` of two ladders by size.

    Parameters
    ----------
    certified, edge : Ladder
        The ladders at a certified level and at the certificate's edge.

    Returns
    -------
    dict of float to float
        For each size the two ladders share (ascending), the mean ``error · k`` of
        ``certified`` over that of ``edge``; empty if they share none.

    Raises
    ------
    TypeError
        If an argument is not a :class:`Ladder`.

    Examples
    --------
    >>> low = ladder([10, 10, 100, 100], [0.4, 0.4, 0.04, 0.04], [1, 1, 1, 1])
    >>> high = ladder([10, 10, 30, 30], [0.1, 0.1, 0.1, 0.1], [1, 1, 1, 1])
    >>> price(low, high)
    {10.0: 4.0}
    """
    edge_k = {r.k: r.error_k for r in edge.rungs}
    return {r.k: r.error_k / edge_k[r.k] for r in certified.rungs if r.k in edge_k}
