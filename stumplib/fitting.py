r"""Least-squares fits with their own standard errors, and power laws on log-log axes.

:func:`least_squares` is the one linear fit of the package: coefficients and standard
errors from the residuals (or from given per-point standard errors). Rates
(:math:`b \sim t^{1/4}`, error :math:`\sim N^{-1}`, ...) are fitted as
:math:`\log y = \mathrm{intercept} + \mathrm{slope} \cdot \log x` by :func:`power_law`,
expansions in :math:`1/b` by :func:`inverse_expansion`, and :func:`extrapolate` takes
such an expansion to :math:`b \to \infty` with a tolerance from the fit's own
uncertainty and its truncation.
"""

from typing import NamedTuple

import numpy as np

from stumplib import validation


class LinearFit(NamedTuple):
    """Coefficients of a linear least-squares fit and their standard errors.

    Parameters
    ----------
    coef : ndarray, shape (k,)
        Fitted coefficients.
    se : ndarray, shape (k,)
        Their standard errors.
    """

    coef: np.ndarray
    se: np.ndarray


def _rows(values):
    design, y = values["design"], values["y"]
    if design.ndim != 2 or design.shape[0] <= design.shape[1]:
        raise ValueError(
            f"design must have more rows than columns, shape (n, p) with n > p "
            f"(got {design.shape})"
        )
    if y.shape != design.shape[:1]:
        raise ValueError(f"y must have one value per row of design (got {y.shape})")
    weights = values.get("weights")
    if weights is not None and weights.shape != y.shape:
        raise ValueError(
            f"weights must have one value per row of design, shape {y.shape} "
            f"(got {weights.shape})"
        )


@validation.constrained(
    _rows,
    design=validation.Finite(),
    y=validation.Finite(),
    weights=validation.Positive(optional=True),
)
def least_squares(design, y, weights=None):
    r"""Fit :math:`y \approx X \beta` by (weighted) least squares.

    :math:`X` is the ``design`` matrix and :math:`\beta` the coefficients.

    Parameters
    ----------
    design : array_like, shape (n, p)
        The columns of the model, finite, with ``n > p``.
    y : array_like, shape (n,)
        The data.
    weights : array_like, shape (n,), optional
        Inverse standard errors of ``y``. If given, the standard errors of the fit come
        from them; otherwise from the residual scatter (``n - p`` degrees of freedom).

    Returns
    -------
    LinearFit

    Raises
    ------
    ValueError
        If ``design`` is not 2-D with more rows than columns, its columns are linearly
        dependent, or ``y`` does not hold one value per row.

    Examples
    --------
    >>> x = np.array([1.0, 2.0, 3.0, 4.0])
    >>> fit = least_squares(np.column_stack([np.ones(4), x]), 1.0 + 2.0 * x)
    >>> np.round(fit.coef, 12).tolist()
    [1.0, 2.0]
    """
    design, y = np.asarray(design, dtype=float), np.asarray(y, dtype=float)
    w = np.ones_like(y) if weights is None else np.asarray(weights, dtype=float)
    return _least_squares(design, y, w, scatter=weights is None)


def _least_squares(design, y, w, scatter):
    # the columns and the data are divided by powers of two near their largest entries
    # (exact), so that columns of any scale neither overflow in the normal matrix nor
    # vanish beside each other
    weighted = design * w[:, None]
    _, columns = np.frexp(np.max(np.abs(weighted), axis=0))
    _, data = np.frexp(np.max(np.abs(y * w)))
    scaled, target = np.ldexp(weighted, -columns), np.ldexp(y * w, -data)
    rank = np.linalg.matrix_rank(scaled)
    if rank < design.shape[1]:
        raise ValueError(
            f"design must have linearly independent columns (got rank {rank} for "
            f"{design.shape[1]} columns)"
        )
    coef, *_ = np.linalg.lstsq(scaled, target, rcond=None)
    cov = np.linalg.inv(scaled.T @ scaled)
    se = np.sqrt(np.diag(cov))
    if scatter:
        residual = target - scaled @ coef
        se = np.ldexp(
            se * np.sqrt(residual @ residual / (len(y) - design.shape[1])), data
        )
    return LinearFit(np.ldexp(coef, data - columns), np.ldexp(se, -columns))


class PowerLaw(NamedTuple):
    r"""Fit of :math:`y \approx A x^{\mathrm{slope}}`, :math:`A` the prefactor.

    The ``*_se`` fields are standard errors.

    Calling the fit evaluates the curve at ``x``.

    Parameters
    ----------
    slope, slope_se : float
        The exponent and its standard error.
    log_prefactor, log_prefactor_se : float
        The log of the prefactor and its standard error.
    """

    slope: float
    slope_se: float
    log_prefactor: float
    log_prefactor_se: float

    @property
    def prefactor(self):
        r"""The prefactor :math:`A` in :math:`y \approx A x^{\mathrm{slope}}`."""
        return float(np.exp(self.log_prefactor))

    @validation.constrained(x=validation.Positive())
    def __call__(self, x):
        """The fitted curve at ``x`` (positive).

        ``inf`` where it exceeds the largest float.
        """
        return self.prefactor * x**self.slope


def _power_law_points(values):
    x, y, y_se = values["x"], values["y"], values["y_se"]
    if x.ndim != 1 or x.shape != y.shape:
        raise ValueError(
            f"x and y must be 1-D of the same length (got {x.shape} and {y.shape})"
        )
    if len(x) < 3:
        raise ValueError(f"a power-law fit needs at least 3 points (got {len(x)})")
    if np.ptp(x) == 0:
        raise ValueError("x must take at least two distinct values")
    if y_se is not None and y_se.shape != y.shape:
        raise ValueError(
            f"y_se must have the shape of y (got {y_se.shape} and {y.shape})"
        )


@validation.constrained(
    _power_law_points,
    x=validation.Positive(),
    y=validation.Positive(),
    y_se=validation.Positive(optional=True),
)
def power_law(x, y, y_se=None):
    r"""Fit :math:`\log y = \log A + \mathrm{slope} \log x` by least squares.

    Parameters
    ----------
    x, y : array_like
        Positive abscissae and ordinates, one-dimensional, same length (at least 3).
    y_se : array_like, optional
        Standard errors of ``y``. If given, points are weighted by ``y / y_se`` (the
        inverse standard error of :math:`\log y`) and the standard errors of the fit
        come from them; otherwise from the residual scatter.

    Returns
    -------
    PowerLaw

    Raises
    ------
    ValueError
        If ``x`` and ``y`` are not 1-D of the same length, hold fewer than 3 points or a
        single distinct ``x``, or ``y_se`` does not have the shape of ``y``.
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    design = np.column_stack([np.ones_like(x), np.log(x)])
    weights = np.ones_like(x) if y_se is None else y / np.asarray(y_se, dtype=float)
    coef, se = _least_squares(design, np.log(y), weights, scatter=y_se is None)
    return PowerLaw(float(coef[1]), float(se[1]), float(coef[0]), float(se[0]))


class Pooled(NamedTuple):
    """An inverse-variance weighted mean and its standard error.

    Parameters
    ----------
    value : float
        The weighted mean.
    se : float
        Its standard error.
    """

    value: float
    se: float


def _one_axis(values):
    if values["values"].ndim != 1 or values["values"].size == 0:
        raise ValueError(
            f"values must be 1-D and not empty (got shape {values['values'].shape})"
        )
    validation.same_shape(values["values"], values["se"], ("values", "se"))


@validation.constrained(_one_axis, values=validation.Finite(), se=validation.Positive())
def pooled(values, se):
    r"""Pool independent estimates of one quantity by inverse-variance weights.

    Parameters
    ----------
    values : array_like
        Independent estimates, one-dimensional, at least one.
    se : array_like
        Their standard errors, positive, same shape.

    Returns
    -------
    Pooled
        ``value`` :math:`= \sum_i w_i v_i / \sum_i w_i`, :math:`v_i` the ``values``,
        with :math:`w_i = \mathrm{se}_i^{-2}`, and
        :math:`\mathrm{se} = (\sum_i w_i)^{-1/2}`, the standard error of that mean.

    Raises
    ------
    ValueError
        If ``values`` is not 1-D and non-empty.
    """
    values, se = np.asarray(values, dtype=float), np.asarray(se, dtype=float)
    # the errors divided by a power of two near the smallest (exact), so that the
    # weights neither overflow nor all vanish
    _, exponent = np.frexp(np.min(se))
    with np.errstate(over="ignore"):  # an error far above the smallest: weight 0
        weights = np.ldexp(se, -exponent) ** -2.0
    total = float(weights.sum())
    # the values divided by a power of two near the largest (exact), so that the sum
    # of the weighted values stays a float; elementwise products and a plain sum, not
    # a BLAS dot: the same bits on every machine
    _, top = np.frexp(np.max(np.abs(values)))
    value = float(np.ldexp(np.sum(weights * np.ldexp(values, -top)) / total, top))
    return Pooled(value, float(np.ldexp(total**-0.5, exponent)))


class BoundTrend(NamedTuple):
    r"""An upper bound :math:`y \le A x^{-1}` examined as a bound, by :math:`y x`.

    Over the range of :math:`x`.

    Parameters
    ----------
    lo, hi : float
        The range of :math:`x`.
    sup : float
        The largest :math:`y x`: the constant the data need.
    slope, slope_se : float
        Trend of :math:`\log(y x)` against :math:`\log x` (least squares over the
        points, each point one independent measurement) and its standard error from the
        scatter of the points about the line, so it includes their spread at each ``x``.
    """

    lo: float
    hi: float
    sup: float
    slope: float
    slope_se: float

    def log_power(self):
        r"""The power of :math:`\log x` whose local slope mid-range is the trend.

        :math:`\mathrm{slope} \cdot \log \sqrt{\mathrm{lo}\, \mathrm{hi}}`: the local
        slope of :math:`\log^p x` is :math:`p / \log x`.

        Returns
        -------
        float
        """
        return self.slope * np.log(np.sqrt(self.lo * self.hi))


def _sizes(values):
    x, y = values["x"], values["y"]
    if x.ndim != 1 or x.shape != y.shape:
        raise ValueError(
            f"x and y must be 1-D of one length (got {x.shape} and {y.shape})"
        )
    if x.size < 3 or np.unique(x).size < 2:
        raise ValueError(
            "x must hold at least three points at two or more distinct sizes"
        )


@validation.constrained(_sizes, x=validation.Positive(), y=validation.Positive())
def bound_trend(x, y):
    r"""Sup and trend of :math:`y x`, for a bound :math:`y = O(x^{-1})`, finite range.

    A bound fails only if :math:`y x` grows without limit: over a finite range the data
    give the constant it needs (``sup``) and the trend of :math:`\log(y x)` in
    :math:`\log x`.

    Parameters
    ----------
    x : array_like, shape (k,)
        Positive sizes, at least two distinct, one per measurement (repeat ``x`` for
        independent measurements at one size).
    y : array_like, shape (k,)
        Positive measurements.

    Returns
    -------
    BoundTrend

    Raises
    ------
    ValueError
        If ``x`` or ``y`` is not positive and finite, their shapes differ, there are
        fewer than three points, or ``x`` holds fewer than two distinct values.

    Examples
    --------
    >>> trend = bound_trend([10.0, 10.0, 100.0, 100.0], [0.3, 0.5, 0.03, 0.05])
    >>> round(trend.sup, 12), round(trend.slope, 12) + 0.0
    (5.0, 0.0)
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    scaled = y * x
    fit = least_squares(np.column_stack([np.ones_like(x), np.log(x)]), np.log(scaled))
    return BoundTrend(
        float(x.min()),
        float(x.max()),
        float(scaled.max()),
        float(fit.coef[1]),
        float(fit.se[1]),
    )


class Expansion(NamedTuple):
    r"""Fit :math:`y \approx e_0 + e_1/b + e_2/b^2 + \ldots`, and its standard errors.

    Calling the fit evaluates the expansion at ``b``.

    Parameters
    ----------
    coef : ndarray, shape (k,)
        Coefficients :math:`e_0, e_1, \ldots`, then those of the :math:`\log (b)/b^j`
        terms.
    se : ndarray, shape (k,)
        Their standard errors.
    """

    coef: np.ndarray
    se: np.ndarray

    @validation.constrained(b=validation.Positive())
    def __call__(self, b):
        """The fitted power series at ``b`` (positive; without its log terms).

        ``±inf`` where a term exceeds the largest float (at ``b`` near 0).
        """
        inv = 1.0 / b
        return sum(c * inv**j for j, c in enumerate(self.coef))


def _design(b, degree, log, log_from):
    columns = [b**-j for j in range(degree + 1)]
    if log:
        columns += [np.log(b) * b**-j for j in range(log_from, degree + 1)]
    return np.column_stack(columns)


def _fit_points(b, y, degree, log, log_from):
    """Check that ``b``, ``y`` determine the expansion of ``degree``."""
    if b.ndim != 1 or b.shape != y.shape:
        raise ValueError(
            f"b and y must be 1-D of the same length (got {b.shape} and {y.shape})"
        )
    columns = _design(b, degree, log, log_from).shape[1]
    if len(b) < columns + 1:
        raise ValueError(f"this fit needs at least {columns + 1} points (got {len(b)})")
    if np.unique(b).size < columns + 1:
        raise ValueError(
            f"b must hold at least {columns + 1} distinct scales for this fit "
            f"(got {np.unique(b).size}: repeated scales do not determine the expansion)"
        )


def _expansion_points(values):
    _fit_points(*(values[k] for k in ("b", "y", "degree", "log", "log_from")))


_EXPANSION = dict(
    b=validation.Positive(), y=validation.Finite(), log_from=validation.Integer()
)


@validation.constrained(
    _expansion_points, degree=validation.Integer(minimum=0), **_EXPANSION
)
def inverse_expansion(b, y, degree=1, log=False, log_from=2):
    r"""Least-squares fit of ``y`` by a polynomial in ``1/b``, with standard errors.

    The standard errors come from the residual scatter (the data's own deviation from
    the truncated expansion), as in :func:`power_law`.

    Parameters
    ----------
    b, y : array_like
        One-dimensional, same length, ``b`` positive; at least ``degree + 2`` points.
    degree : int
        Highest power of ``1/b``.
    log : bool
        Also fit :math:`\log (b)/b^j` for ``log_from <= j <= degree`` (expansions whose
        next
        terms carry a logarithm). Their coefficients follow the powers in ``coef``.
    log_from : int
        The lowest power with a logarithm (``>= 1``).

    Returns
    -------
    Expansion

    Raises
    ------
    ValueError
        If ``b`` and ``y`` are not 1-D of the same length, or hold too few points or
        distinct scales for the fit.

    Examples
    --------
    >>> b = np.array([10.0, 20.0, 40.0, 80.0])
    >>> fit = inverse_expansion(b, 3.0 - 2.0 / b)
    >>> np.round(fit.coef, 10).tolist()
    [3.0, -2.0]
    """
    design = _design(np.asarray(b, dtype=float), degree, log, log_from)
    return Expansion(*least_squares(design, y))


class Limit(NamedTuple):
    """Extrapolation ``y → limit + slope/b``, with tolerances from the fit itself.

    Parameters
    ----------
    limit, limit_tol : float
        The limit ``c0`` and its tolerance.
    slope, slope_tol : float
        The ``1/b`` coefficient ``c1`` and its tolerance.
    """

    limit: float
    limit_tol: float
    slope: float
    slope_tol: float


#: The largest ``|y|`` :func:`extrapolate` takes: half the largest float.
_HEADROOM = 2.0**1023


def _truncation(value, name):
    if value not in ("next", "last"):
        raise ValueError(f"{name} must be 'next' or 'last' (got {value!r})")
    return value


def _limit_points(values):
    degree, truncation = values["degree"], values["truncation"]
    if truncation == "last":
        validation.count(degree, "degree", minimum=2)
    other = degree + 1 if truncation == "next" else degree - 1
    for d in (degree, other):
        _fit_points(values["b"], values["y"], d, values["log"], values["log_from"])
    if not np.all(np.abs(values["y"]) < _HEADROOM):
        raise ValueError(
            "y must lie within ±2^1023, half the largest float (got "
            f"{np.max(np.abs(values['y'])):g}): a limit fitted to data at the largest "
            "float can round past it"
        )


@validation.constrained(
    _limit_points,
    truncation=validation.Constraint(
        _truncation, (("first", ValueError), (None, ValueError))
    ),
    degree=validation.Integer(),
    **_EXPANSION,
)
def extrapolate(b, y, degree=2, log=False, log_from=2, truncation="next"):
    r"""Extrapolate :math:`y(b)` to :math:`b \to \infty` by a polynomial in :math:`1/b`.

    The tolerance of each coefficient is three standard errors of the degree-``degree``
    fit plus its change under a change of truncation (the truncation uncertainty of the
    expansion, measured on the data): when the next power of ``1/b`` is fitted too
    (``truncation="next"``) or when the last one is dropped (``"last"``), each with its
    :math:`\log (b)/b^j` partner if ``log``.

    Parameters
    ----------
    b, y : array_like
        Scales and values (see :func:`inverse_expansion`), :math:`|y| < 2^{1023}`
        (half the largest float: the fitted limit, within rounding of the data, and
        the tolerance built from two fits need that room).
    degree : int
        Degree of the fit (at least 1; at least 2 with ``truncation="last"``).
    log : bool
        Include :math:`\log (b)/b^j` terms for ``j >= log_from`` (see
        :func:`inverse_expansion`).
    log_from : int
        The lowest power with a logarithm.
    truncation : {"next", "last"}
        Which neighbouring fit measures the truncation uncertainty.

    Returns
    -------
    Limit
        Limit ``c0`` and ``1/b`` coefficient ``c1``, each with its tolerance.

    Raises
    ------
    ValueError
        If ``degree`` or ``truncation`` is invalid, a :math:`|y|` reaches
        :math:`2^{1023}`, or the data cannot carry both fits (see
        :func:`inverse_expansion`).

    Examples
    --------
    >>> b = np.geomspace(10.0, 1000.0, 12)
    >>> lim = extrapolate(b, 0.5 + 3.0 / b - 4.0 / b**2)
    >>> round(lim.limit, 9), round(lim.slope, 6), lim.limit_tol < 1e-9
    (0.5, 3.0, True)
    >>> b = np.geomspace(50.0, 2000.0, 30)
    >>> y = 2.0 + (np.log(b) - 1.0) / b + 5.0 / b**2
    >>> lim = extrapolate(b, y, log=True, log_from=1, truncation="last")
    >>> round(lim.limit, 6), lim.limit_tol < 1e-3
    (2.0, True)
    """
    other = degree + 1 if truncation == "next" else degree - 1
    fit = inverse_expansion(b, y, degree, log, log_from)
    neighbour = inverse_expansion(b, y, other, log, log_from)
    tol = 3 * fit.se[:2] + np.abs(fit.coef[:2] - neighbour.coef[:2])
    return Limit(float(fit.coef[0]), float(tol[0]), float(fit.coef[1]), float(tol[1]))
