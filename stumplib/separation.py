r"""The abstract's two terms apart, on the errors of frozen heads on fresh contexts.

The error of a frozen head of scale :math:`b_T` on a fresh context of :math:`N`
examples is about :math:`1/b_T + 1/N`. Each term is isolated where the other is small:

- **far** (:math:`N` large): at the largest :math:`N` the frozen head's error is its
  infinite-context error (the pretraining term); the kernel's own noise adds about
  :math:`1/(b_T N)` to the squared error;
- **near** (:math:`N \le b_T / 2`, :func:`stumplib.frozen.local_sizes`): the largest
  corpus's head localizes like the nearest-positive rule (the localization term), up
  to the kernel's width against the spacing of the examples, :math:`N / b_T`.

Each comparison is :func:`stumplib.frozen.scaled_difference`: the relative difference
in units of its allowance plus a Bonferroni number of standard errors
(:func:`stumplib.risk_checks.z_threshold`), so that the terms separate when the worst
value is at most 1.
"""

from typing import NamedTuple

import numpy as np

from . import frozen, risk_checks, validation


class Separation(NamedTuple):
    r"""The two terms apart, each the worst comparison in units of its allowance.

    Parameters
    ----------
    far : float
        At the largest :math:`N`: every head against its infinite-context error.
    near : float
        At :math:`N \le b_T / 2` (and :math:`s^N` at most ``edge``): the largest
        corpus's head against the nearest-positive rule on the same contexts; 0 where
        no size qualifies.
    """

    far: float
    near: float


def _errors(values):
    errors, floors = values["errors"], values["floors"]
    if not isinstance(errors, dict) or not errors:
        raise TypeError("errors must be a non-empty dict of threshold to FreshErrors")
    if not isinstance(floors, dict) or set(floors) != set(errors):
        raise ValueError("floors must be a dict with the thresholds of errors")
    shape = (np.size(values["b"]), np.size(values["sizes"]))
    for s, e in errors.items():
        validation.unit_interval(s, "errors' thresholds")
        if not isinstance(e, frozen.FreshErrors) or "nearest positive" not in e.rules:
            raise TypeError(
                "errors must map thresholds to FreshErrors with the nearest-positive "
                "rule"
            )
        if np.shape(e.head.rms) != shape:
            got = np.shape(e.head.rms)
            raise ValueError(f"errors[{s}] must hold heads x sizes {shape} (got {got})")
        floor = validation.positive(floors[s], f"floors[{s}]")
        if floor.shape != shape[:1]:
            raise ValueError(f"floors[{s}] must hold one error a head {shape[:1]}")


@validation.constrained(
    _errors,
    sizes=validation.Integers(),
    b=validation.Exceeding(1.0, scalar=False),
    alpha=risk_checks.PROBABILITY,
    edge=validation.PositiveScalar(),
)
def separation(errors, floors, sizes, b, alpha, edge=1e-3):
    """The abstract's two terms apart, each in units of its allowance.

    Parameters
    ----------
    errors : dict of float to FreshErrors
        For each threshold ``s``, the heads' (and the nearest-positive rule's) errors
        on the same fresh contexts (:func:`stumplib.frozen.fresh_errors`), heads in
        the order of ``b``, the largest corpus last.
    floors : dict of float to array_like, shape (k,)
        For each threshold, each head's infinite-context error (positive).
    sizes : array_like of int, shape (p,)
        Fresh-context sizes :math:`N`, ascending.
    b : array_like, shape (k,)
        The heads' scales :math:`b_T`, above 1 (a kernel narrower than the unit
        interval).
    alpha : float
        False-failure probability of each of the two comparisons, in (0, 1).
    edge : float
        Largest probability of a context without a positive example.

    Returns
    -------
    Separation

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid (its name is in the message).

    Examples
    --------
    One head of scale 40 at the threshold 0.5, on fresh contexts of 4 and 1024
    examples:

    >>> from stumplib import tasks
    >>> at_half = tasks.Fixed(0.5)
    >>> errors = {0.5: frozen.fresh_errors([36.0], [40.0], [4, 1024], at_half, rng=0)}
    >>> floors = {0.5: frozen.interior_error([36.0], [40.0], [0.5])}
    >>> apart = separation(errors, floors, [4, 1024], [40.0], alpha=0.01)
    >>> bool(apart.far <= 1 and apart.near <= 1)
    True
    """
    sizes, b = np.asarray(sizes), np.asarray(b, dtype=float)
    z_far = risk_checks.z_threshold(b.size * len(errors), alpha)
    far = max(
        np.max(
            frozen.scaled_difference(
                e.head.rms[:, -1],
                e.head.se[:, -1],
                floors[s],
                0.0,
                b / sizes[-1] / np.minimum(1.0, (b * floors[s]) ** 2),
                z_far,
            )
        )
        for s, e in errors.items()
    )
    local = {s: frozen.local_sizes(sizes, b[-1], s, edge) for s in errors}
    z_near = risk_checks.z_threshold(
        max(1, sum(int(w.sum()) for w in local.values())), alpha
    )
    near = max(
        np.max(
            frozen.scaled_difference(
                errors[s].head.rms[-1, w],
                errors[s].head.se[-1, w],
                errors[s].rules["nearest positive"].rms[w],
                errors[s].rules["nearest positive"].se[w],
                sizes[w] / b[-1],
                z_near,
            ),
            initial=0.0,
        )
        for s, w in local.items()
    )
    return Separation(float(far), float(near))
