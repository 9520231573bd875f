"""Declared constraints: a public function states what each argument must be, once.

For example::

    @constrained(a=Finite(), b=Finite(), prior=DensityLaw(), features=Features())
    def loss_and_gradient(a, b, prior, features=None): ...

A :class:`Constraint` is a checker of :mod:`stumplib.validation` (which converts the
value, or raises a ``TypeError`` or ``ValueError`` naming the argument) with values it
rejects (the bad-input tests are generated from them). :func:`constrained` checks and
converts the declared arguments of every call. While a checked call runs, the values it
checked are held in a context variable (with the constraint each passed), and a public
function it calls skips the check of an argument only when that argument *is* one of
them (the same object) under the same constraint: a value passed through unchanged is
checked once, at the boundary, while a value a caller computes (a derived start, a new
iterate) is checked where it enters the next public function. Loops inside the library
so pay once for the data they pass on (corpora, laws, arrays) and only the cheap checks
of the numbers they compute. The library never changes a checked array in place.
A decorated function's ``unchecked`` attribute is the function itself, without checks:
the library calls it only at a few listed per-evaluation kernels (quadrature nodes and
class summaries computed from checked arguments, ``tests/test_constraints.py``), where
a check would cost a large share of an evaluation.

Part of :mod:`stumplib.validation`, which gathers the checks.
"""

import contextvars
import dataclasses
import functools
import inspect
from collections.abc import Callable

import numpy as np

from . import arrays, objects

#: The values checked by the running checked calls: ``{(id(value), key): value}`` (the
#: value is held, so that its ``id`` is not reused while the entry lives); ``None``
#: outside the library (and in a user's callback).
_CHECKED = contextvars.ContextVar("stumplib_checked_values", default=None)
_ABSENT = object()

_TINY = np.nextafter(0.0, 1.0)  # the smallest positive float
_NOT_REAL = ((None, TypeError), ("0.5", TypeError), (0.5 + 1j, TypeError))
_NOT_FINITE = ((np.nan, ValueError), (np.inf, ValueError), (-np.inf, ValueError))
_RAGGED = (([[0.1, 0.2], [0.3]], ValueError),)
_NOT_A_LAW = ((None, TypeError), ("uniform", TypeError), (0.5, TypeError))


@dataclasses.dataclass(frozen=True)
class Constraint:
    """What one argument must be.

    Parameters
    ----------
    check : callable
        ``check(value, name)`` returns the value converted (a float, a float array),
        or raises a ``TypeError`` or ``ValueError`` naming ``name``.
    bad : tuple of (object, type)
        Values the check rejects, each with the exception it raises (for the tests).
    optional : bool
        ``None`` is valid (and passed on as is).
    kind : hashable, optional
        What the constraint is, for constraints built anew by a factory
        (``("Positive", False)``): two constraints of one kind check alike, so a value
        one accepted passes the other unchecked. ``None``: the constraint is its own
        kind (a constraint built once, at import).

    Examples
    --------
    >>> Integer(minimum=2)(5.0, "m")
    5
    >>> Integer(minimum=2)(1, "m")
    Traceback (most recent call last):
    ...
    ValueError: m must be an integer >= 2 (got 1)
    """

    check: Callable
    bad: tuple = ()
    optional: bool = False
    kind: object = None

    @property
    def key(self):
        """The kind, or the constraint's own identity if it declares none."""
        return id(self) if self.kind is None else (self.kind, self.optional)

    def __call__(self, value, name):
        """``value`` checked and converted."""
        if value is None and self.optional:
            return None
        return self.check(value, name)

    def bad_values(self):
        """The rejected values with their exceptions (``None`` left out if optional)."""
        return tuple((v, e) for v, e in self.bad if not (self.optional and v is None))


def _array(checker, *bad, optional=False):
    return Constraint(
        checker, _NOT_REAL + _RAGGED + bad, optional=optional, kind=checker.__name__
    )


def Real(optional=False):
    """A real number or an array of them (:func:`~stumplib.validation.arrays.real`)."""
    return _array(arrays.real, optional=optional)


def Finite(optional=False):
    """Finite real numbers (:func:`~stumplib.validation.arrays.finite`)."""
    return _array(arrays.finite, *_NOT_FINITE, optional=optional)


def Positive(optional=False):
    """Finite numbers ``> 0`` (:func:`~stumplib.validation.arrays.positive`)."""
    bad = (*_NOT_FINITE, (0.0, ValueError), (-_TINY, ValueError))
    return _array(arrays.positive, *bad, optional=optional)


def NonNegative(optional=False):
    """Finite numbers ``>= 0`` (:func:`~stumplib.validation.arrays.non_negative`)."""
    bad = (*_NOT_FINITE, (-_TINY, ValueError))
    return _array(arrays.non_negative, *bad, optional=optional)


def UnitInterval(optional=False):
    """Numbers in [0, 1] (:func:`~stumplib.validation.arrays.unit_interval`)."""
    bad = (*_NOT_FINITE, (-_TINY, ValueError), (np.nextafter(1.0, 2.0), ValueError))
    return _array(arrays.unit_interval, *bad, optional=optional)


def Labels(optional=False):
    """Labels in {0, 1} (:func:`~stumplib.validation.arrays.labels`)."""
    bad = (*_NOT_FINITE, (0.5, ValueError), (2.0, ValueError))
    return _array(arrays.labels, *bad, optional=optional)


def Scalar(optional=False):
    """One finite number (:func:`~stumplib.validation.arrays.scalar`)."""
    bad = _NOT_REAL + _NOT_FINITE + (([0.5, 0.5], ValueError),)
    return Constraint(arrays.scalar, bad, optional=optional, kind="scalar")


def PositiveScalar(optional=False):
    """One finite number ``> 0``.

    See :func:`~stumplib.validation.arrays.positive_scalar`.
    """
    bad = _NOT_REAL + _NOT_FINITE + ((0.0, ValueError), ([1.0, 1.0], ValueError))
    return Constraint(
        arrays.positive_scalar, bad, optional=optional, kind="positive_scalar"
    )


def Exceeding(bound, scalar=True, optional=False):
    """Finite numbers ``> bound`` (one number when ``scalar``; else any shape)."""

    def check(value, name):
        value = (arrays.scalar if scalar else arrays.finite)(value, name)
        if np.any(value <= bound):
            got = f" (got {value:g})" if scalar else ""
            raise ValueError(f"{name} must exceed {bound:g}{got}")
        return value

    bad = _NOT_REAL + _NOT_FINITE + ((bound, ValueError),)
    if scalar:
        bad += (([bound + 1, bound + 1], ValueError),)
    return Constraint(check, bad, optional=optional, kind=("Exceeding", bound, scalar))


def Within(lo, hi, scalar=False, optional=False):
    """Finite numbers in ``[lo, hi]`` (one number when ``scalar``; else any shape).

    For an argument whose meaningful range is narrower than the floats (a scale the
    computation resolves, a slope): the declaration says where the function serves.
    """

    def check(value, name):
        value = (arrays.scalar if scalar else arrays.finite)(value, name)
        if np.size(value) and not (lo <= np.min(value) and np.max(value) <= hi):
            got = f" (got {value:g})" if scalar else ""
            raise ValueError(f"{name} must lie in [{lo:g}, {hi:g}]{got}")
        return value

    bad = (
        _NOT_REAL
        + _NOT_FINITE
        + (
            (np.nextafter(lo, -np.inf), ValueError),
            (np.nextafter(hi, np.inf), ValueError),
        )
    )
    bad += (([lo, lo], ValueError),) if scalar else _RAGGED
    return Constraint(check, bad, optional=optional, kind=("Within", lo, hi, scalar))


def Integer(minimum=1, maximum=arrays.LARGEST_COUNT, optional=False):
    """One integer in ``[minimum, maximum]``.

    See :func:`~stumplib.validation.arrays.count`.
    """
    bad = (
        (minimum - 1, ValueError),
        (True, ValueError),
        (minimum + 0.5, ValueError),
        (np.nan, ValueError),
        (np.inf, ValueError),
        ("3", TypeError),
        (None, TypeError),
        ([minimum, minimum], ValueError),
    )
    if maximum is not None:
        bad += ((maximum + 1, ValueError),)
    return Constraint(
        lambda v, name: arrays.count(v, name, minimum, maximum),
        bad,
        optional=optional,
        kind=("Integer", minimum, maximum),
    )


def Integers(minimum=1):
    """An integer or an array of them, each ``>= minimum`` (a list of ints)."""
    bad = (
        ([minimum, minimum - 1], ValueError),
        ([minimum, True], ValueError),
        ([minimum + 0.5], ValueError),
        ([np.nan], ValueError),
        ("3", TypeError),
        (None, TypeError),
    )
    return Constraint(
        lambda v, name: arrays.counts(v, name, minimum), bad, kind=("Integers", minimum)
    )


def Rows(*minima):
    """Rows of ``len(minima)`` integers, column ``j`` at least ``minima[j]``."""
    width = len(minima)
    bad = (
        ([[*minima[:-1], minima[-1] - 1]], ValueError),
        ([[*minima, minima[-1]]], ValueError),
        ([[True] * width], ValueError),
        ("3", TypeError),
        (None, TypeError),
    )
    return Constraint(
        lambda v, name: arrays.count_rows(v, name, minima), bad, kind=("Rows", minima)
    )


def Point():
    """A pair ``(a, b)`` of finite numbers.

    See :func:`~stumplib.validation.arrays.point`.
    """
    bad = (((1.0,), ValueError), ((1.0, np.nan), ValueError), ((1.0, "b"), TypeError))
    return Constraint(arrays.point, bad, kind="Point")


def _object(checker, bad, optional=False, kind=None):
    """A constraint on an object that is checked, never converted."""

    def check(value, name):
        checker(value, name)
        return value

    return Constraint(check, bad, optional=optional, kind=kind)


def Law(*methods, optional=False):
    """An object providing ``methods`` (:func:`~stumplib.validation.objects.law`)."""
    return _object(
        lambda v, name: objects.law(v, name, methods),
        _NOT_A_LAW,
        optional,
        ("Law", methods),
    )


def DensityLaw(optional=False):
    """A law to integrate against (:func:`~stumplib.validation.objects.density_law`)."""
    return _object(objects.density_law, _NOT_A_LAW, optional, "DensityLaw")


def Features():
    """A feature law, ``None`` for uniform features (``validation.features``)."""
    return DensityLaw(optional=True)


def Sampler(optional=False):
    """A law to sample from (:func:`~stumplib.validation.objects.sampler`)."""
    return _object(objects.sampler, _NOT_A_LAW, optional, "Sampler")


def Instance(cls, optional=False):
    """An instance of ``cls`` (:func:`~stumplib.validation.objects.instance`)."""
    return _object(
        lambda v, name: objects.instance(v, cls, name),
        ((None, TypeError), ("x", TypeError), (0.5, TypeError)),
        optional,
        ("Instance", cls),
    )


def _outside(func):
    """``func`` called as from outside the library: the calls it makes are checked."""

    @functools.wraps(func)
    def call(*args, **kwargs):
        token = _CHECKED.set(None)
        try:
            return func(*args, **kwargs)
        finally:
            _CHECKED.reset(token)

    return call


def _callable(value, name):
    return _outside(objects.function(value, name))


def Function(optional=False):
    """A callable (:func:`~stumplib.validation.objects.function`).

    One passed from outside the library runs as outside it: the public functions it
    calls check their input.
    """
    return Constraint(
        _callable,
        ((None, TypeError), (0.5, TypeError)),
        optional=optional,
        kind="Function",
    )


def Rules(optional=False):
    """A dict of named rules (:func:`~stumplib.validation.objects.rules`)."""
    return _object(
        objects.rules, ((None, TypeError), ([len], TypeError)), optional, "Rules"
    )


def Seed(as_given=False):
    """A structured seed, a tuple of integers ``>= 0`` (``validation.seed``).

    ``as_given``: passed on as given (an int stays an int), not as the tuple.
    """
    bad = (((), ValueError), (-1, ValueError), (0.5, ValueError), ("0", TypeError))
    if as_given:
        return _object(objects.seed, bad, kind="Seed as given")
    return Constraint(objects.seed, bad, kind="Seed")


def Rng():
    """A random source: ``None``, a numpy generator or a seed (``validation.rng``)."""
    bad = ((-1, ValueError), (0.5, ValueError), ("0", TypeError))
    return _object(objects.rng, bad, kind="Rng")


def Trajectory():
    """A recorded run (:func:`~stumplib.validation.objects.trajectory`)."""
    return _object(
        objects.trajectory, ((None, TypeError), (0.5, TypeError)), kind="Trajectory"
    )


def exceeding(upper, lower):
    """A joint check: argument ``upper`` exceeds argument ``lower`` (an order).

    Parameters
    ----------
    upper, lower : str
        The arguments' names.

    Returns
    -------
    callable
        The check, called with the dict of converted arguments; it raises a
        ``ValueError`` naming both.

    Examples
    --------
    >>> @constrained(exceeding("b_stop", "b0"), b0=Scalar(), b_stop=Scalar())
    ... def span(b0, b_stop):
    ...     return b_stop - b0
    >>> span(2.0, 5.0)
    3.0
    >>> span(5.0, 2.0)
    Traceback (most recent call last):
    ...
    ValueError: b_stop must exceed b0 (got 2 and 5)
    """

    def check(values):
        if not values[upper] > values[lower]:
            raise ValueError(
                f"{upper} must exceed {lower} "
                f"(got {values[upper]:g} and {values[lower]:g})"
            )

    return check


def one_context(values):
    """A joint check: ``x`` and ``y`` are one (batched) context.

    Of one shape ``(..., N)``, ``N >= 1`` (:func:`~stumplib.validation.arrays.context`).

    Parameters
    ----------
    values : dict
        The converted arguments, with ``x`` and ``y``.

    Raises
    ------
    ValueError
        If ``x`` and ``y`` differ in shape or hold no example.

    Examples
    --------
    >>> @constrained(one_context, x=UnitInterval(), y=Labels())
    ... def count(x, y):
    ...     return int(y.sum())
    >>> count([0.2, 0.7], [0, 1])
    1
    >>> count([0.2, 0.7], [1])
    Traceback (most recent call last):
    ...
    ValueError: x and y must have the same shape (got (2,) and (1,))
    """
    arrays.context(values["x"], values["y"])


def batched_context(values):
    """A joint check: a context ``x``, ``y``, and ``a``, ``b`` that fit its batch.

    :func:`one_context`, then ``a`` and ``b`` broadcast to the batch shape ``(...)``
    of ``x`` (:func:`~stumplib.validation.arrays.batch`).

    Parameters
    ----------
    values : dict
        The converted arguments, with ``a``, ``b``, ``x`` and ``y``.

    Raises
    ------
    ValueError
        If the context is not one, or ``a`` or ``b`` does not fit its batch.

    Examples
    --------
    >>> @constrained(batched_context, a=Finite(), b=Finite(), x=UnitInterval(),
    ...              y=Labels())
    ... def scores(a, b, x, y):
    ...     return a[..., None] * y - b[..., None] * x
    >>> scores([1.0, 2.0], 0.0, [[0.2], [0.7]], [[0], [1]]).tolist()
    [[0.0], [2.0]]
    >>> scores([1.0, 2.0, 3.0], 0.0, [[0.2], [0.7]], [[0], [1]])
    Traceback (most recent call last):
    ...
    ValueError: a of shape (3,) does not broadcast against the batch shape (2,)
    """
    one_context(values)
    for name in ("a", "b"):
        arrays.batch(values[name], name, values["x"].shape[:-1])


def head_points(values):
    """A joint check: ``a`` and ``b`` are one-dimensional and of one length.

    Parameters
    ----------
    values : dict
        The converted arguments, with ``a`` and ``b`` (a scalar counts as one point).

    Raises
    ------
    ValueError
        If ``a`` and ``b`` differ in shape or are not one-dimensional.

    Examples
    --------
    >>> @constrained(head_points, a=Finite(), b=Finite())
    ... def count(a, b):
    ...     return len(np.atleast_1d(a))
    >>> count([1.0, 2.0], [3.0, 4.0]), count(1.0, 2.0)
    (2, 1)
    >>> count([1.0, 2.0], [3.0])
    Traceback (most recent call last):
    ...
    ValueError: a and b must be 1-D of equal length (got (2,) and (1,))
    """
    a, b = (np.atleast_1d(values[k]) for k in ("a", "b"))
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(
            f"a and b must be 1-D of equal length (got {a.shape} and {b.shape})"
        )


def _binder(signature):
    """``bind(args, kwargs)``: ``(values, bound)``, every argument by name, defaults in.

    ``bound`` is ``None`` when the function can be called as ``func(**values)``, else
    the :class:`inspect.BoundArguments` whose ``arguments`` are ``values``.

    A function whose arguments can all be passed by name (no ``*args``, ``**kwargs``
    or positional-only arguments) is bound by a fast path; any other call, and any call
    the fast path cannot bind, goes through :meth:`inspect.Signature.bind`, which
    raises the usual ``TypeError``.
    """
    parameters = signature.parameters.values()
    by_name = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)

    def slow(args, kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return bound.arguments, bound

    if any(p.kind not in by_name for p in parameters):
        return slow
    positional = tuple(
        p.name for p in parameters if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    )
    names = frozenset(signature.parameters)
    defaults = {p.name: p.default for p in parameters if p.default is not p.empty}
    size = len(names)

    def fast(args, kwargs):
        if len(args) > len(positional):
            return slow(args, kwargs)
        values = dict(zip(positional, args))
        if kwargs:
            if not values.keys().isdisjoint(kwargs) or not names.issuperset(kwargs):
                return slow(args, kwargs)
            values.update(kwargs)
        if len(values) < size:
            values = {**defaults, **values}
            if len(values) < size:  # a required argument is missing
                return slow(args, kwargs)
        return values, None

    return fast


def constrained(*joint, **constraints):
    """Declare the constraints of a public function's arguments (a decorator).

    A call checks and converts the declared arguments (their defaults too), then runs
    the ``joint`` checks, before the function runs. Inside another checked call, an
    argument that *is* a value a running checked call has already checked under the
    same constraint (passed through unchanged) is not checked again; any other value,
    such as one the caller computed, is. The declared constraints are the function's
    ``__constraints__``.

    Parameters
    ----------
    *joint : callable
        Checks of several arguments together (shapes that must agree, an order), each
        called with the dict of converted arguments; each raises naming them. They run
        on every call.
    **constraints : Constraint
        One per argument name.

    Returns
    -------
    callable
        The decorator.

    Raises
    ------
    TypeError
        If a name is not an argument of the decorated function.

    Examples
    --------
    >>> @constrained(m=Integer(), s=UnitInterval())
    ... def repeat(m, s):
    ...     return m * [float(s)]
    >>> repeat(2.0, 0.5)
    [0.5, 0.5]
    >>> repeat(2, 1.5)
    Traceback (most recent call last):
    ...
    ValueError: s must lie in [0, 1]
    """

    def decorate(func):
        signature = inspect.signature(func)
        unknown = set(constraints) - set(signature.parameters)
        if unknown:
            raise TypeError(
                f"{func.__qualname__} has no argument {', '.join(sorted(unknown))}"
            )
        declared = tuple((name, c, c.key) for name, c in constraints.items())
        bind = _binder(signature)

        @functools.wraps(func)
        def checked(*args, **kwargs):
            trusted = _CHECKED.get()
            values, bound = bind(args, kwargs)
            mine = {} if trusted is None else trusted.copy()
            for name, constraint, key in declared:
                value = values[name]
                if (
                    trusted is None
                    or trusted.get((id(value), key), _ABSENT) is not value
                ):
                    value = values[name] = constraint(value, name)
                mine[id(value), key] = value
            for check in joint:
                check(values)
            token = _CHECKED.set(mine)
            try:
                if bound is None:
                    return func(**values)
                return func(*bound.args, **bound.kwargs)
            finally:
                _CHECKED.reset(token)

        checked.__constraints__ = dict(constraints)
        checked.unchecked = func
        return checked

    return decorate
