"""Finite-difference gradient checks of ``f(a, b)`` at rounding-aware tolerances."""

from typing import NamedTuple

import numpy as np

from . import validation

EPS = np.finfo(float).eps
RESOLVED = 1e6  # |gradient| >= RESOLVED * phi is compared relatively


class Comparison(NamedTuple):
    """Gradient entries against central differences (see :func:`compare`).

    Parameters
    ----------
    relative : float
        Largest relative error over the resolved entries.
    noise : float
        Largest error relative to the noise floor ``phi`` over the unresolved entries.
    compared : int
        Number of gradient entries.
    resolved : int
        Number of resolved entries.
    b_max : float
        Largest ``b`` at which some entry is resolved; ``-inf`` (the largest of none)
        when no entry is resolved.
    """

    relative: (
        float  #: max ``|difference - gradient| / |gradient|`` over resolved entries
    )
    noise: float  #: max ``|difference - gradient| / phi`` where ``|gradient| < phi``
    compared: int  #: number of gradient entries
    resolved: int  #: number of entries with ``|gradient| >= RESOLVED * phi``
    b_max: float  #: largest b at which some entry is resolved (-inf if none is)


@validation.constrained(
    f=validation.Function(),
    a=validation.Finite(),
    b=validation.Finite(),
    h=validation.PositiveScalar(),
)
def central_differences(f, a, b, h, *args):
    r"""Central differences of ``f`` in ``a`` and ``b``, with step ``h``.

    They estimate :math:`\partial f/\partial a` and :math:`\partial f/\partial b`, of
    ``f(a, b, *args)``.

    Parameters
    ----------
    f : callable
        ``f(a, b, *args)``, vectorized as the caller needs.
    a, b : float or array_like
        Point(s) of evaluation.
    h : float
        Step, positive.
    *args
        Further arguments of ``f``.

    Returns
    -------
    d_a, d_b
        The two differences, of the type and shape ``f`` returns.

    Raises
    ------
    TypeError
        If ``f`` is not callable.
    ValueError
        If ``h`` is not positive, ``a``, ``b`` are not real, or ``f`` is not finite
        at the four points ``(a ± h, b)``, ``(a, b ± h)`` (where ``f`` itself leaves the
        floats, no difference of its values is defined).

    Examples
    --------
    >>> [float(d) for d in central_differences(np.multiply, 3.0, 2.0, 0.5)]
    [2.0, 3.0]
    >>> # values near the largest float, their difference beyond it
    >>> [float(d) for d in central_differences(np.add, 1.0, 2.0, 1e308)]
    [1.0, 1.0]
    """
    # each value halved before the difference (exact for normal floats): the
    # difference of two values of f then stays a float, and the result is that of
    # (f(+) - f(-)) / (2 h)
    differences = []
    for plus, minus in (((a + h, b), (a - h, b)), ((a, b + h), (a, b - h))):
        values = f(*plus, *args), f(*minus, *args)
        if not all(np.all(np.isfinite(v)) for v in values):
            raise ValueError(
                f"f must be finite at (a ± h, b) and (a, b ± h) (h = {h:g}): it is "
                "not, so no central difference of its values is defined"
            )
        differences.append((values[0] / 2 - values[1] / 2) / h)
    return tuple(differences)


def _pairs(values):
    validation.broadcastable((values["a"], values["b"]), ("a", "b"))
    g, d = values["gradient"], values["differences"]
    if g.size != d.size or g.size != 2 * np.broadcast(values["a"], values["b"]).size:
        raise ValueError("gradient and differences must hold one pair per (a, b)")


@validation.constrained(
    _pairs,
    gradient=validation.Finite(),
    differences=validation.Finite(),
    a=validation.Finite(),
    b=validation.Finite(),
    h=validation.PositiveScalar(),
)
def compare(gradient, differences, a, b, h):
    r"""Compare gradient entries with central differences of step ``h``.

    A difference of values near 1 carries rounding of about
    :math:`\phi = \varepsilon (1 + |a| + |b|) / h`, :math:`\varepsilon` the machine
    epsilon. Entries with :math:`|g| \ge 10^6 \phi`, :math:`g` the gradient entry, are
    compared relatively; entries with :math:`|g| < \phi` are measured in units of
    :math:`\phi`.

    Parameters
    ----------
    gradient, differences : pair of arrays
        ``(d/da, d/db)`` from the gradient and from :func:`central_differences`.
    a, b : array_like
        Where they were evaluated (same shape as each entry).
    h : float
        The step of the differences.

    Returns
    -------
    Comparison

    Raises
    ------
    ValueError
        If the gradient and the differences do not hold one pair per ``(a, b)``.
    """
    a, b = np.broadcast_arrays(a, b)
    g, d = np.ravel(gradient), np.ravel(differences)
    phi = np.tile(EPS * (1 + np.abs(a) + np.abs(b)).ravel() / h, 2)
    scale = np.tile(b.ravel(), 2)
    error = np.abs(d - g)
    resolved = np.abs(g) >= RESOLVED * phi
    tiny = np.abs(g) < phi
    return Comparison(
        relative=float(np.max(error[resolved] / np.abs(g[resolved]), initial=0.0)),
        noise=float(np.max(error[tiny] / phi[tiny], initial=0.0)),
        compared=int(g.size),
        resolved=int(resolved.sum()),
        b_max=float(np.max(scale[resolved], initial=-np.inf)),
    )
