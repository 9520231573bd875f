"""Power-law fits on log-log axes, with the fit's own standard errors.

Rates in the book (``b ~ t^{1/4}``, error ``~ N^{-1}``, ...) are checked by fitting
``log y = intercept + slope * log x`` by (weighted) least squares. The standard errors
come from the residuals (or from given per-point standard errors of ``y``), so a
claim's tolerance can be a multiple of the fit's own uncertainty.
"""

from typing import NamedTuple

import numpy as np

from stumplib import validation


class PowerLaw(NamedTuple):
    """Fit of ``y ≈ prefactor * x**slope``; ``*_se`` are standard errors."""

    slope: float
    slope_se: float
    log_prefactor: float
    log_prefactor_se: float

    @property
    def prefactor(self):
        """The constant ``C`` in ``y ≈ C x^slope``."""
        return float(np.exp(self.log_prefactor))

    def __call__(self, x):
        """The fitted curve at ``x`` (positive)."""
        return self.prefactor * validation.positive(x, "x") ** self.slope


def power_law(x, y, y_se=None):
    """Fit ``log y = log C + slope log x`` by least squares.

    Parameters
    ----------
    x, y : array_like
        Positive abscissae and ordinates, one-dimensional, same length (at least 3).
    y_se : array_like, optional
        Standard errors of ``y``. If given, points are weighted by ``y / y_se`` (the
        inverse standard error of ``log y``) and the standard errors of the fit come
        from them; otherwise from the residual scatter.

    Returns
    -------
    PowerLaw
    """
    x = validation.positive(x, "x")
    y = validation.positive(y, "y")
    if x.ndim != 1 or x.shape != y.shape:
        raise ValueError(f"x and y must be 1-D of the same length (got {x.shape} and {y.shape})")
    if len(x) < 3:
        raise ValueError(f"a power-law fit needs at least 3 points (got {len(x)})")
    if np.ptp(x) == 0:
        raise ValueError("x must take at least two distinct values")
    design = np.column_stack([np.ones_like(x), np.log(x)])
    target = np.log(y)
    if y_se is None:
        weights = np.ones_like(x)
    else:
        y_se = validation.positive(y_se, "y_se")
        if y_se.shape != y.shape:
            raise ValueError(f"y_se must have the shape of y (got {y_se.shape} and {y.shape})")
        weights = y / y_se
    coef, *_ = np.linalg.lstsq(design * weights[:, None], target * weights, rcond=None)
    cov = np.linalg.inv((design * weights[:, None] ** 2).T @ design)
    if y_se is None:
        residual = target - design @ coef
        cov *= residual @ residual / (len(x) - 2)
    se = np.sqrt(np.diag(cov))
    return PowerLaw(float(coef[1]), float(se[1]), float(coef[0]), float(se[0]))


class Pooled(NamedTuple):
    """An inverse-variance weighted mean and its standard error."""

    value: float
    se: float


def pooled(values, se):
    """Pool independent estimates of one quantity by inverse-variance weights.

    Parameters
    ----------
    values : array_like
        Independent estimates, one-dimensional, at least one.
    se : array_like
        Their standard errors, positive, same shape.

    Returns
    -------
    Pooled
        ``value = sum(w_i values_i) / sum(w_i)`` with ``w_i = se_i^-2``, and
        ``se = sum(w_i)^-1/2``, the standard error of that mean.
    """
    values = validation.finite(values, "values")
    se = validation.positive(se, "se")
    if values.ndim != 1 or values.size == 0:
        raise ValueError(f"values must be 1-D and not empty (got shape {values.shape})")
    validation.same_shape(values, se, ("values", "se"))
    weights = se**-2.0
    total = float(weights.sum())
    # elementwise products and a plain sum, not a BLAS dot: the same bits on every machine
    return Pooled(float(np.sum(weights * values) / total), total**-0.5)
