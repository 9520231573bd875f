"""Checks of numbers and arrays: real, finite, in range, shaped, counted.

Part of :mod:`stumplib.validation`, which gathers the checks.
"""

import math
import numbers

import numpy as np

_REAL_KINDS = "biuf"  # bool, signed and unsigned integers, floats
_FLOAT = np.dtype(float)
_FLOATS = (float, np.float64)


def real(value, name):
    """Return ``value`` as a float array; ``TypeError`` unless it holds real numbers.

    Parameters
    ----------
    value : object
        A real number or an array of them.
    name : str
        The argument's name, for errors.

    Returns
    -------
    ndarray
        Float array of the shape of ``value``.

    Raises
    ------
    TypeError
        If ``value`` does not hold real numbers (None, str, complex, object).
    ValueError
        If ``value`` is a ragged sequence.
    """
    if type(value) is np.ndarray and value.dtype == _FLOAT:  # the common case, fast
        return value
    if isinstance(value, numbers.Real) and not isinstance(value, np.ndarray):
        try:
            return np.asarray(float(value))
        except OverflowError:
            raise ValueError(f"{name} is a number beyond the floats") from None
    if value is None or isinstance(value, (str, bytes)):
        raise TypeError(
            f"{name} must be a real number or an array of them "
            f"(got {type(value).__name__})"
        )
    try:
        arr = np.asarray(value)
    except ValueError as err:  # ragged nested sequences
        raise ValueError(
            f"{name} must be a rectangular array of real numbers ({err})"
        ) from None
    if (
        arr.dtype == object
        and not isinstance(value, np.ndarray)
        and all(type(v) in (int, float) for v in arr.ravel().tolist())
    ):  # a list holding Python ints beyond int64 (10**30): real numbers all the same
        try:
            arr = arr.astype(float)
        except OverflowError:
            raise ValueError(f"{name} holds a number beyond the floats") from None
    if arr.dtype.kind not in _REAL_KINDS:
        raise TypeError(
            f"{name} must hold real numbers "
            f"(got {type(value).__name__} of dtype {arr.dtype})"
        )
    return arr.astype(float, copy=False)


def finite(value, name):
    """Return ``value`` as a float array, or raise if it holds NaN or inf.

    Parameters
    ----------
    value : array_like
        Real numbers.
    name : str
        The argument's name, for errors.

    Returns
    -------
    ndarray

    Raises
    ------
    TypeError
        As :func:`real`.
    ValueError
        If ``value`` holds NaN or inf.
    """
    arr = real(value, name)
    if not (math.isfinite(arr) if arr.ndim == 0 else np.isfinite(arr).all()):
        raise ValueError(f"{name} must be finite (got NaN or inf)")
    return arr


def unit_interval(value, name):
    """Return ``value`` as a finite float array with every entry in [0, 1].

    Parameters
    ----------
    value : array_like
        Real numbers.
    name : str
        The argument's name, for errors.

    Returns
    -------
    ndarray

    Raises
    ------
    TypeError
        As :func:`real`.
    ValueError
        If ``value`` is not finite or leaves [0, 1].
    """
    arr = finite(value, name)
    if arr.size and not 0 <= arr.min() <= arr.max() <= 1:
        raise ValueError(f"{name} must lie in [0, 1]")
    return arr


def labels(value, name="y"):
    """Return ``value`` as a float array of labels in {0, 1}.

    Parameters
    ----------
    value : array_like
        Labels.
    name : str
        The argument's name, for errors.

    Returns
    -------
    ndarray

    Raises
    ------
    TypeError
        As :func:`real`.
    ValueError
        If an entry is not 0 or 1.
    """
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
        raise ValueError(
            f"x and y must have the same shape (got {x.shape} and {y.shape})"
        )
    if x.ndim == 0:
        raise ValueError("x must have at least one axis (the context axis)")
    if x.shape[-1] == 0:
        raise ValueError("the context is empty: x and y need at least one example")
    return x, y


def complements(s, q=None):
    """Thresholds ``s`` and their complements ``q = 1 - s`` (computed if not given).

    A given ``q`` must have the shape of ``s`` and agree with ``1 - s`` to rounding.

    Parameters
    ----------
    s : array_like
        Thresholds in [0, 1].
    q : array_like, optional
        Their exact complements.

    Returns
    -------
    s, q : ndarray

    Raises
    ------
    ValueError
        If ``s`` or ``q`` leaves [0, 1], or ``q`` differs from ``1 - s`` in shape or
        beyond rounding.
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
    """Return ``value`` broadcast to the batch ``shape``, naming it if it does not fit.

    Parameters
    ----------
    value : array_like
        The value to broadcast.
    name : str
        The argument's name, for errors.
    shape : tuple of int
        The batch shape.

    Returns
    -------
    ndarray
        A read-only broadcast view of shape ``shape``.

    Raises
    ------
    ValueError
        If ``value`` does not broadcast to ``shape``.
    """
    try:
        return np.broadcast_to(value, shape)
    except ValueError:
        raise ValueError(
            f"{name} of shape {np.shape(value)} does not broadcast against the batch "
            f"shape {shape}"
        ) from None


def broadcastable(values, names):
    """The common broadcast shape of ``values``, or a ``ValueError`` naming them.

    Parameters
    ----------
    values : sequence of array_like
        The values.
    names : sequence of str
        Their names, for errors.

    Returns
    -------
    tuple of int

    Raises
    ------
    ValueError
        If the values do not broadcast together.
    """
    shapes = [np.shape(v) for v in values]
    if shapes.count(shapes[0]) == len(shapes):  # one shape: nothing to broadcast
        return shapes[0]
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        shapes = ", ".join(f"{n} {np.shape(v)}" for n, v in zip(names, values))
        together = (
            ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
        )
        raise ValueError(
            f"{together} must broadcast to one shape (got {shapes})"
        ) from None


def parameters(a, b):
    """Return the head parameters ``a, b`` as finite float arrays.

    Parameters
    ----------
    a, b : float or array_like
        Head parameters.

    Returns
    -------
    a, b : ndarray

    Raises
    ------
    TypeError
        If ``a`` or ``b`` is not real.
    ValueError
        If ``a`` or ``b`` holds NaN or inf.
    """
    return finite(a, "a"), finite(b, "b")


def scalar_parameters(a, b):
    """Return the head parameters ``a, b`` as finite floats (one point).

    Parameters
    ----------
    a, b : float
        Head parameters.

    Returns
    -------
    a, b : float

    Raises
    ------
    TypeError
        If ``a`` or ``b`` is not real.
    ValueError
        If ``a`` or ``b`` is not one finite number.
    """
    return scalar(a, "a"), scalar(b, "b")


def scalar(value, name):
    """Return ``value`` as a finite float, raising if it is not one real number.

    Parameters
    ----------
    value : float
        One real number (or a 0-d array).
    name : str
        The argument's name, for errors.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        As :func:`real`.
    ValueError
        If ``value`` is not finite or not a scalar.
    """
    if type(value) in _FLOATS and math.isfinite(value):  # the common case, fast
        return float(value)
    arr = finite(value, name)
    if arr.ndim:
        raise ValueError(f"{name} must be a scalar (got shape {arr.shape})")
    return float(arr)


def point(theta, name="theta0"):
    """A parameter point ``(a, b)`` as two finite floats.

    Parameters
    ----------
    theta : sequence
        A pair ``(a, b)``.
    name : str
        The argument's name, for errors.

    Returns
    -------
    a, b : float

    Raises
    ------
    TypeError
        If an entry is not real.
    ValueError
        If ``theta`` is not a pair of finite numbers.
    """
    if isinstance(theta, (str, bytes)) or np.ndim(theta) != 1 or len(theta) != 2:
        raise ValueError(f"{name} must be a pair (a, b) (got {theta!r})")
    return scalar_parameters(*theta)


def same_shape(first, second, names):
    """Raise unless two arrays have the same shape (``names`` is a pair of names).

    Parameters
    ----------
    first, second : array_like
        The two arrays.
    names : tuple of str
        Their names, for errors.

    Returns
    -------
    None

    Raises
    ------
    ValueError
        If the shapes differ.
    """
    if np.shape(first) != np.shape(second):
        raise ValueError(
            f"{names[0]} and {names[1]} must have the same shape "
            f"(got {np.shape(first)} and {np.shape(second)})"
        )


def positive(value, name):
    """Return ``value`` as a finite float array of strictly positive entries.

    Parameters
    ----------
    value : array_like
        Real numbers.
    name : str
        The argument's name, for errors.

    Returns
    -------
    ndarray

    Raises
    ------
    TypeError
        As :func:`real`.
    ValueError
        If an entry is not finite or not positive.
    """
    arr = finite(value, name)
    if arr.size and not arr.min() > 0:
        raise ValueError(f"{name} must be positive")
    return arr


def non_negative(value, name):
    """Return ``value`` as a finite float array of entries ``>= 0``.

    Parameters
    ----------
    value : array_like
        Real numbers.
    name : str
        The argument's name, for errors.

    Returns
    -------
    ndarray

    Raises
    ------
    TypeError
        As :func:`real`.
    ValueError
        If an entry is not finite or is negative.
    """
    arr = finite(value, name)
    if arr.size and not arr.min() >= 0:
        raise ValueError(f"{name} must be non-negative")
    return arr


def positive_scalar(value, name):
    """Return ``value`` as a finite positive float.

    Parameters
    ----------
    value : float
        One real number.
    name : str
        The argument's name, for errors.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        As :func:`real`.
    ValueError
        If ``value`` is not one finite positive number.
    """
    value = scalar(value, name)
    if value <= 0:
        raise ValueError(f"{name} must be positive (got {value:g})")
    return value


#: The largest count accepted. Every count is used in floating-point arithmetic (sizes,
#: means, ``1/m``), where an integer above ``2**53`` is no longer exact.
LARGEST_COUNT = 2**53


def count(value, name, minimum=1, maximum=LARGEST_COUNT):
    """Return ``value`` as an int, checking it is an integer ``>= minimum``.

    Parameters
    ----------
    value : int
        The count (an integral float or a 0-d array is accepted).
    name : str
        The argument's name, for errors.
    minimum : int
        Smallest valid value.
    maximum : int or None
        Largest valid value (``2**53`` unless stated; ``None``: no limit,
        for a count that is never a size or a float).

    Returns
    -------
    int

    Raises
    ------
    TypeError
        If ``value`` is not a number (or is a ragged sequence).
    ValueError
        If ``value`` is an array, a boolean, not integral, below ``minimum`` or above
        ``maximum``.
    """
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, (list, tuple)):
        try:
            value = np.asarray(value)
        except ValueError:  # ragged
            raise TypeError(
                f"{name} must be an integer (got a ragged {type(value).__name__})"
            ) from None
    if isinstance(value, np.ndarray) and value.dtype.kind in _REAL_KINDS:
        raise ValueError(
            f"{name} must be a single integer (got an array of shape {value.shape})"
        )
    if not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be an integer (got {type(value).__name__})")
    try:  # int() raises OverflowError on inf, ValueError on NaN
        ok = not isinstance(value, bool) and int(value) == value and value >= minimum
    except (ValueError, OverflowError):
        ok = False
    if not ok:
        raise ValueError(f"{name} must be an integer >= {minimum} (got {value!r})")
    if maximum is not None and value > maximum:
        got = (
            repr(value)
            if len(repr(value)) <= 20
            else f"an integer of {len(str(int(value)))} digits"
        )
        raise ValueError(f"{name} must be at most {maximum} (got {got})")
    return int(value)


def counts(value, name, minimum=1):
    """Return ``value`` (an integer or array of them) as a list of ints ``>= minimum``.

    Booleans are not counts, also inside a sequence (``[5, True]`` is a ``ValueError``).

    Parameters
    ----------
    value : int or array_like of int
        The counts.
    name : str
        The argument's name, for errors.
    minimum : int
        Smallest valid value.

    Returns
    -------
    list of int

    Raises
    ------
    TypeError
        If ``value`` does not hold real numbers.
    ValueError
        If an entry is a boolean, not integral or below ``minimum``.
    """
    arr = real(value, name)
    flat = np.ravel(np.asarray(value, dtype=object)) if arr.size else []
    if arr.dtype == bool or any(isinstance(v, (bool, np.bool_)) for v in flat):
        raise ValueError(f"{name} must hold integers, not booleans (got {value!r})")
    return [count(v, name, minimum) for v in np.ravel(value).tolist()]


def count_rows(value, name, minima):
    """``value`` as a list of integer tuples, entry ``j`` of each ``>= minima[j]``.

    For tables of counts such as corpus sizes ``(m, n)``: a 2-D sequence whose rows have
    ``len(minima)`` entries.

    Parameters
    ----------
    value : sequence of sequence of int
        The table, one row per item.
    name : str
        The argument's name, for errors.
    minima : sequence of int
        Smallest valid value of each column.

    Returns
    -------
    list of tuple of int

    Raises
    ------
    TypeError
        If ``value`` does not hold real numbers.
    ValueError
        If ``value`` is not 2-D with ``len(minima)`` columns of integers at least
        ``minima``.
    """
    flat = counts(value, name, minimum=min(minima))
    width = len(minima)
    if np.ndim(value) != 2 or np.shape(value)[1] != width:
        raise ValueError(
            f"{name} must be a sequence of rows of {width} integers (got {value!r})"
        )
    rows = [tuple(flat[i : i + width]) for i in range(0, len(flat), width)]
    if any(v < lo for row in rows for v, lo in zip(row, minima)):
        raise ValueError(f"{name} must have entries >= {tuple(minima)} (got {value!r})")
    return rows
