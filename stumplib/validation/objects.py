"""Checks of seeds, random generators, instances, trajectories, laws and callables.

Part of :mod:`stumplib.validation`, which gathers the checks.
"""

import numbers

import numpy as np

from .arrays import count, finite


def seed(value, name="seed"):
    """A structured seed as a tuple of integers ``>= 0`` (an int is a tuple of one).

    Parameters
    ----------
    value : int or tuple of int
        The seed.
    name : str
        The argument's name, for errors.

    Returns
    -------
    tuple of int

    Raises
    ------
    TypeError
        If an entry is not a number.
    ValueError
        If ``value`` is an empty tuple or an entry is not an integer ``>= 0``.
    """
    prefix = value if isinstance(value, tuple) else (value,)
    if not prefix:
        raise ValueError(f"{name} must hold at least one integer")
    return tuple(count(v, name, minimum=0, maximum=None) for v in prefix)


def rng(value, name="rng"):
    """Check a random source.

    ``None``, a numpy ``Generator``, ``BitGenerator`` or ``SeedSequence``, or a seed (an
    integer ``>= 0``, or a sequence of them).

    Returns ``value`` itself (for ``numpy.random.default_rng``), so a valid seed draws
    exactly what it drew before; ``ValueError`` for a negative, fractional or non-finite
    seed, ``TypeError`` for anything else, naming the argument.
    """
    if value is None or isinstance(
        value, (np.random.Generator, np.random.BitGenerator, np.random.SeedSequence)
    ):
        return value
    if isinstance(value, (str, bytes)) or not (
        isinstance(value, (numbers.Real, tuple, list, np.ndarray))
    ):
        raise TypeError(
            f"{name} must be a seed (an integer >= 0 or a tuple of them) "
            f"or a numpy Generator (got {type(value).__name__})"
        )
    if isinstance(value, (list, np.ndarray)) and np.ndim(value) > 0:
        seed(tuple(np.ravel(np.asarray(value, dtype=object)).tolist()), name)
    else:
        seed(value, name)
    return value


def instance(value, cls, name):
    """Check that ``value`` is an instance of ``cls``; ``TypeError`` naming it if not.

    ``cls`` is a class (e.g. a corpus) or a tuple of classes.

    Parameters
    ----------
    value : object
        The value to check.
    cls : type or tuple of type
        The accepted classes.
    name : str
        The argument's name, for errors.

    Returns
    -------
    object
        ``value`` itself.

    Raises
    ------
    TypeError
        If ``value`` is not an instance of ``cls``.
    """
    if not isinstance(value, cls):
        names = " or ".join(
            c.__name__ for c in (cls if isinstance(cls, tuple) else (cls,))
        )
        raise TypeError(f"{name} must be a {names} (got {type(value).__name__})")
    return value


def trajectory(value, name="trajectory"):
    """Check a recorded run: finite 1-D ``t``, ``a``, ``b`` of equal length.

    Returns them.

    Parameters
    ----------
    value : training.Trajectory
        Any object with ``t``, ``a`` and ``b``.
    name : str
        The argument's name, for errors.

    Returns
    -------
    t, a, b : ndarray

    Raises
    ------
    TypeError
        If ``value`` lacks ``t``, ``a`` or ``b``, or they are not real.
    ValueError
        If they are not finite, 1-D and of equal length.
    """
    law(value, name, ("t", "a", "b"))
    t, a, b = (finite(getattr(value, k), f"{name}.{k}") for k in "tab")
    if t.ndim != 1 or a.shape != t.shape or b.shape != t.shape:
        raise ValueError(
            f"{name}.t, .a and .b must be 1-D of equal length (got {t.shape}, "
            f"{a.shape} and {b.shape})"
        )
    return t, a, b


def law(value, name, methods):
    """Check that ``value`` provides ``methods`` (attribute names).

    ``TypeError`` if not.

    Threshold priors and feature laws are checked by what they must provide, not by
    their class: a law used for sampling needs ``sample``; one integrated against
    needs ``support``, ``density``, ``log_density`` and ``bulk`` (see
    :class:`stumplib.tasks.Uniform`).

    Parameters
    ----------
    value : object
        The law.
    name : str
        The argument's name, for errors.
    methods : sequence of str
        Attribute names it must provide.

    Returns
    -------
    object
        ``value`` itself.

    Raises
    ------
    TypeError
        If an attribute is missing.
    """
    missing = [m for m in methods if not hasattr(value, m)]
    if missing:
        raise TypeError(
            f"{name} must be a law providing {', '.join(methods)} "
            f"(got {type(value).__name__} without {', '.join(missing)})"
        )
    return value


def density_law(value, name):
    r"""Check a law to integrate against: its support, density, log-density and bulk.

    Parameters
    ----------
    value : object
        The law, e.g. :class:`stumplib.tasks.Uniform`.
    name : str
        The argument's name, for errors.

    Returns
    -------
    object
        ``value`` itself.

    Raises
    ------
    TypeError
        If an attribute is missing, ``support`` is not a pair of real numbers, or
        ``density`` or ``log_density`` is not callable.
    ValueError
        If ``support`` is not :math:`0 \le \mathrm{lo} < \mathrm{hi} \le 1`.
    """
    law(value, name, ("support", "density", "log_density", "bulk"))
    try:
        lo, hi = (float(v) for v in value.support)
    except (TypeError, ValueError):
        raise TypeError(f"{name}.support must be a pair of real numbers") from None
    if not 0.0 <= lo < hi <= 1.0:
        raise ValueError(
            f"{name}.support must satisfy 0 <= lo < hi <= 1 (got {lo}, {hi})"
        )
    for method in ("density", "log_density"):
        if not callable(getattr(value, method)):
            raise TypeError(f"{name}.{method} must be callable")
    return value


def features(value, name="features"):
    """A feature law (``None`` stands for uniform features on [0, 1]).

    Parameters
    ----------
    value : object or None
        The feature law.
    name : str
        The argument's name, for errors.

    Returns
    -------
    object or None
        ``value`` itself.

    Raises
    ------
    TypeError, ValueError
        As :func:`density_law`.
    """
    return None if value is None else density_law(value, name)


def sampler(value, name="prior"):
    """Check a law used for sampling: it must provide a callable ``sample``.

    Parameters
    ----------
    value : object
        The law.
    name : str
        The argument's name, for errors.

    Returns
    -------
    object
        ``value`` itself.

    Raises
    ------
    TypeError
        If ``value`` has no callable ``sample``.
    """
    law(value, name, ("sample",))
    if not callable(value.sample):
        raise TypeError(f"{name}.sample must be callable")
    return value


def function(value, name):
    """Check that ``value`` is callable (a loss, a gradient, a rule).

    Parameters
    ----------
    value : object
        The value to check.
    name : str
        The argument's name, for errors.

    Returns
    -------
    callable
        ``value`` itself.

    Raises
    ------
    TypeError
        If ``value`` is not callable.
    """
    if not callable(value):
        raise TypeError(f"{name} must be callable (got {type(value).__name__})")
    return value


def rules(value, name="rules"):
    """Check a dict of named rules ``(x, y) -> estimate``.

    Parameters
    ----------
    value : dict of str to callable
        The rules.
    name : str
        The argument's name, for errors.

    Returns
    -------
    dict
        ``value`` itself.

    Raises
    ------
    TypeError
        If ``value`` is not a dict or a rule is not callable.
    """
    if not isinstance(value, dict):
        raise TypeError(
            f"{name} must be a dict of name -> callable (got {type(value).__name__})"
        )
    for key, rule in value.items():
        function(rule, f"{name}[{key!r}]")
    return value
