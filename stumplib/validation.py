"""Input checks shared by every public entry point, each naming the argument it checks.

- ``TypeError``: not a real number (complex, str, None, object arrays), not a law
  (a threshold prior or feature law without the methods it must provide);
- ``ValueError``: a bad value, shape, range, size or count.

Batches: an *empty batch* (a leading axis of length 0) is valid and gives an empty
result of the batch shape, everywhere in stumplib; an *empty context* (``N = 0``
examples) is a ``ValueError``.
"""

import numbers

import numpy as np

_REAL_KINDS = "biuf"  # bool, signed and unsigned integers, floats


def real(value, name):
    """Return ``value`` as a float array, raising ``TypeError`` unless it holds real numbers."""
    if isinstance(value, numbers.Real) and not isinstance(value, np.ndarray):
        return np.asarray(float(value))
    if value is None or isinstance(value, (str, bytes)):
        raise TypeError(
            f"{name} must be a real number or an array of them (got {type(value).__name__})"
        )
    try:
        arr = np.asarray(value)
    except ValueError as err:  # ragged nested sequences
        raise ValueError(f"{name} must be a rectangular array of real numbers ({err})") from None
    if arr.dtype.kind not in _REAL_KINDS:
        raise TypeError(
            f"{name} must hold real numbers (got {type(value).__name__} of dtype {arr.dtype})"
        )
    return arr.astype(float, copy=False)


def finite(value, name):
    """Return ``value`` as a float array, or raise if it holds NaN or inf."""
    arr = real(value, name)
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
        Float arrays of the common shape ``(..., N)`` with ``N >= 1`` (the batch
        ``...`` may be empty).
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


def complements(s, q=None):
    """Thresholds ``s`` and their complements ``q = 1 - s`` (computed if not given).

    A given ``q`` must have the shape of ``s`` and agree with ``1 - s`` to rounding.
    """
    s = unit_interval(s, "s")
    if q is None:
        return s, 1.0 - s
    q = unit_interval(q, "q")
    same_shape(s, q, ("s", "q"))
    if np.any(np.abs(s + q - 1.0) > 4 * np.finfo(float).eps):
        raise ValueError("q must be 1 - s (to rounding)")
    return s, q


def batch(value, name, shape):
    """Return ``value`` broadcast to the batch ``shape``, naming it if it does not fit."""
    try:
        return np.broadcast_to(value, shape)
    except ValueError:
        raise ValueError(
            f"{name} of shape {np.shape(value)} does not broadcast against the batch shape {shape}"
        ) from None


def broadcastable(values, names):
    """The common broadcast shape of ``values``, or a ``ValueError`` naming them."""
    try:
        return np.broadcast_shapes(*(np.shape(v) for v in values))
    except ValueError:
        shapes = ", ".join(f"{n} {np.shape(v)}" for n, v in zip(names, values))
        raise ValueError(f"shapes do not broadcast: {shapes}") from None


def parameters(a, b):
    """Return the head parameters ``a, b`` as finite float arrays."""
    return finite(a, "a"), finite(b, "b")


def scalar_parameters(a, b):
    """Return the head parameters ``a, b`` as finite floats (one point)."""
    return scalar(a, "a"), scalar(b, "b")


def scalar(value, name):
    """Return ``value`` as a finite float, raising if it is not one real number."""
    arr = finite(value, name)
    if arr.ndim:
        raise ValueError(f"{name} must be a scalar (got shape {arr.shape})")
    return float(arr)


def point(theta, name="theta0"):
    """A parameter point ``(a, b)`` as two finite floats."""
    if isinstance(theta, (str, bytes)) or np.ndim(theta) != 1 or len(theta) != 2:
        raise ValueError(f"{name} must be a pair (a, b) (got {theta!r})")
    return scalar_parameters(*theta)


def same_shape(first, second, names):
    """Raise unless two arrays have the same shape (``names`` is a pair of names)."""
    if np.shape(first) != np.shape(second):
        raise ValueError(
            f"{names[0]} and {names[1]} must have the same shape "
            f"(got {np.shape(first)} and {np.shape(second)})"
        )


def positive(value, name):
    """Return ``value`` as a finite float array of strictly positive entries."""
    arr = finite(value, name)
    if np.any(arr <= 0):
        raise ValueError(f"{name} must be positive")
    return arr


def positive_scalar(value, name):
    """Return ``value`` as a finite positive float."""
    value = scalar(value, name)
    if value <= 0:
        raise ValueError(f"{name} must be positive (got {value:g})")
    return value


def count(value, name, minimum=1):
    """Return ``value`` as an int, checking it is an integer ``>= minimum``."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be an integer (got {type(value).__name__})")
    try:  # int() raises OverflowError on inf, ValueError on NaN
        ok = not isinstance(value, bool) and int(value) == value and value >= minimum
    except (ValueError, OverflowError):
        ok = False
    if not ok:
        raise ValueError(f"{name} must be an integer >= {minimum} (got {value!r})")
    return int(value)


def counts(value, name, minimum=1):
    """Return ``value`` (an integer or an array of them) as a flat list of ints ``>= minimum``."""
    real(value, name)
    return [count(v, name, minimum) for v in np.ravel(value).tolist()]


def count_rows(value, name, minima):
    """``value`` as a list of tuples of integers, entry ``j`` of each at least ``minima[j]``.

    For tables of counts such as corpus sizes ``(m, n)``: a 2-D sequence whose rows have
    ``len(minima)`` entries.
    """
    flat = counts(value, name, minimum=min(minima))
    width = len(minima)
    if np.ndim(value) != 2 or np.shape(value)[1] != width:
        raise ValueError(f"{name} must be a sequence of rows of {width} integers (got {value!r})")
    rows = [tuple(flat[i : i + width]) for i in range(0, len(flat), width)]
    if any(v < lo for row in rows for v, lo in zip(row, minima)):
        raise ValueError(f"{name} must have entries >= {tuple(minima)} (got {value!r})")
    return rows


def seed(value, name="seed"):
    """A structured seed as a tuple of integers ``>= 0`` (an int is a tuple of one)."""
    prefix = value if isinstance(value, tuple) else (value,)
    if not prefix:
        raise ValueError(f"{name} must hold at least one integer")
    return tuple(count(v, name, minimum=0) for v in prefix)


def instance(value, cls, name):
    """Check that ``value`` is an instance of ``cls``; ``TypeError`` naming it if not.

    ``cls`` is a class (e.g. a corpus) or a tuple of classes.
    """
    if not isinstance(value, cls):
        names = " or ".join(c.__name__ for c in (cls if isinstance(cls, tuple) else (cls,)))
        raise TypeError(f"{name} must be a {names} (got {type(value).__name__})")
    return value


def trajectory(value, name="trajectory"):
    """Check a recorded run: finite 1-D ``t``, ``a``, ``b`` of equal length; returns them."""
    law(value, name, ("t", "a", "b"))
    t, a, b = (finite(getattr(value, k), f"{name}.{k}") for k in "tab")
    if t.ndim != 1 or a.shape != t.shape or b.shape != t.shape:
        raise ValueError(
            f"{name}.t, .a and .b must be 1-D of equal length (got {t.shape}, "
            f"{a.shape} and {b.shape})"
        )
    return t, a, b


def law(value, name, methods):
    """Check that ``value`` provides ``methods`` (attribute names); ``TypeError`` if not.

    Threshold priors and feature laws are checked by what they must provide, not by
    their class: a law used for sampling needs ``sample``; one integrated against
    needs ``support``, ``density``, ``log_density`` and ``bulk`` (see
    :class:`stumplib.tasks.Uniform`).
    """
    missing = [m for m in methods if not hasattr(value, m)]
    if missing:
        raise TypeError(
            f"{name} must be a law providing {', '.join(methods)} "
            f"(got {type(value).__name__} without {', '.join(missing)})"
        )
    return value


def density_law(value, name):
    """Check a law to integrate against: support in [0, 1], density, log_density, bulk."""
    law(value, name, ("support", "density", "log_density", "bulk"))
    try:
        lo, hi = (float(v) for v in value.support)
    except (TypeError, ValueError):
        raise TypeError(f"{name}.support must be a pair of real numbers") from None
    if not 0.0 <= lo < hi <= 1.0:
        raise ValueError(f"{name}.support must satisfy 0 <= lo < hi <= 1 (got {lo}, {hi})")
    for method in ("density", "log_density"):
        if not callable(getattr(value, method)):
            raise TypeError(f"{name}.{method} must be callable")
    return value


def features(value, name="features"):
    """A feature law (``None`` stands for uniform features on [0, 1])."""
    return None if value is None else density_law(value, name)


def sampler(value, name="prior"):
    """Check a law used for sampling: it must provide a callable ``sample``."""
    law(value, name, ("sample",))
    if not callable(value.sample):
        raise TypeError(f"{name}.sample must be callable")
    return value


def function(value, name):
    """Check that ``value`` is callable (a loss, a gradient, a rule)."""
    if not callable(value):
        raise TypeError(f"{name} must be callable (got {type(value).__name__})")
    return value


def rules(value, name="rules"):
    """Check a dict of named rules ``(x, y) -> estimate``."""
    if not isinstance(value, dict):
        raise TypeError(f"{name} must be a dict of name -> callable (got {type(value).__name__})")
    for key, rule in value.items():
        function(rule, f"{name}[{key!r}]")
    return value
