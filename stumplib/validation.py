"""Input checks shared by every module; each raises ``ValueError`` naming the argument."""

import numpy as np


def finite(value, name):
    """Return ``value`` as a float array, or raise if it holds NaN or inf."""
    arr = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite (got NaN or inf)")
    return arr


def unit_interval(value, name):
    """Return ``value`` as a finite float array with every entry in [0, 1]."""
    arr = finite(value, name)
    if np.any((arr < 0) | (arr > 1)):
        raise ValueError(f"{name} must lie in [0, 1]")
    return arr


def labels(value, name="y"):
    """Return ``value`` as a float array of labels in {0, 1}."""
    arr = finite(value, name)
    if np.any((arr != 0) & (arr != 1)):
        raise ValueError(f"{name} must hold labels in {{0, 1}}")
    return arr


def context(x, y):
    """Check a (batched) context: features in [0, 1], labels in {0, 1}, same shape.

    Returns
    -------
    x, y : ndarray
        Float arrays of the common shape ``(..., N)`` with ``N >= 1``.
    """
    x = unit_interval(x, "x")
    y = labels(y, "y")
    if x.shape != y.shape:
        raise ValueError(f"x and y must have the same shape (got {x.shape} and {y.shape})")
    if x.ndim == 0:
        raise ValueError("x must have at least one axis (the context axis)")
    if x.shape[-1] == 0:
        raise ValueError("the context is empty: x and y need at least one example")
    return x, y


def parameters(a, b):
    """Return the head parameters ``a, b`` as finite float arrays."""
    return finite(a, "a"), finite(b, "b")


def positive(value, name):
    """Return ``value`` as a finite float array of strictly positive entries."""
    arr = finite(value, name)
    if np.any(arr <= 0):
        raise ValueError(f"{name} must be positive")
    return arr


def count(value, name, minimum=1):
    """Return ``value`` as an int, checking it is an integer ``>= minimum``."""
    try:  # int() raises OverflowError on inf, ValueError on NaN, TypeError on None
        ok = not isinstance(value, bool) and int(value) == value and value >= minimum
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        raise ValueError(f"{name} must be an integer >= {minimum} (got {value!r})")
    return int(value)
