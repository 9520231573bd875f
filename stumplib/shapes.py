r"""Corpora of unequal shapes frozen by the corpus rule at a certified step.

At a fixed size :math:`m \wedge n` the corpus is made wide (:math:`m > n`: many
tasks, short contexts) or deep (:math:`m < n`: few tasks, long contexts) by the ratio
:math:`m / n`; each
corpus is frozen by :func:`stumplib.corpus_rule.freeze_certified` and its head is
evaluated on infinitely long fresh contexts (:func:`stumplib.population.residual`).
The slow-curve picture predicts a frozen scale :math:`b_T \approx (\ell / K)^2 m`,
:math:`\ell` the rule's level (:func:`stumplib.corpus_rule.rule_scale_ratio`), and an
error of about :math:`1 / b_T` while contexts are long enough; this module measures
where it holds, and :func:`corpora_of` and :func:`log_slopes` compare the grids of
several :math:`m \wedge n`.
"""

from typing import NamedTuple

import numpy as np

from . import (
    corpus_rule,
    fitting,
    population,
    pretraining,
    sweep,
    tasks,
    validation,
)

#: Interior thresholds at which the frozen heads are evaluated.
THRESHOLDS = (0.3, 0.5, 0.7)


class Shapes(NamedTuple):
    r"""Certified freezes over a grid of shapes :math:`m / n` at one :math:`m \wedge n`.

    Arrays are indexed ``[i, r]`` (shape, corpus) and ``[i, r, t]`` (threshold).

    Parameters
    ----------
    ratios : ndarray, shape (I,)
        The ratios :math:`m / n` asked for.
    m, n : ndarray of int, shape (I,)
        The shapes (:math:`m \wedge n` = ``k``).
    b : ndarray, shape (I, R)
        Frozen scales :math:`b_T`.
    q_max, rho_max, b_cert : ndarray, shape (I, R)
        As :class:`stumplib.corpus_rule.CertifiedFreeze`.
    error : ndarray, shape (I, R, T)
        :math:`|\hat s^\infty(s) - s|` of the frozen head at each threshold.
    thresholds : ndarray, shape (T,)
        The thresholds.
    """

    ratios: np.ndarray
    m: np.ndarray
    n: np.ndarray
    b: np.ndarray
    q_max: np.ndarray
    rho_max: np.ndarray
    b_cert: np.ndarray
    error: np.ndarray
    thresholds: np.ndarray


@validation.constrained(k=validation.Integer(), ratio=validation.PositiveScalar())
def shape_of(k, ratio):
    r"""The shape :math:`(m, n)` of size ``k`` whose :math:`m / n` is nearest ``ratio``.

    Its size :math:`m \wedge n` is ``k``.

    Parameters
    ----------
    k : int
        :math:`m \wedge n`, positive.
    ratio : float
        :math:`m / n`, positive, such that the larger side
        :math:`k \max(r, 1/r)`, :math:`r` the ratio, is a count (at most
        :math:`2^{53}`, the largest count the library takes).

    Returns
    -------
    tuple of int

    Raises
    ------
    ValueError, TypeError
        If ``k`` is not a positive integer, ``ratio`` not a positive number, or the
        larger side exceeds :math:`2^{53}`.

    Examples
    --------
    >>> shape_of(100, 4), shape_of(100, 0.25), shape_of(100, 1)
    ((400, 100), (100, 400), (100, 100))
    """
    with np.errstate(over="ignore"):
        side = k * ratio if ratio >= 1 else k / ratio
    if not side <= validation.LARGEST_COUNT:
        raise ValueError(
            f"ratio must keep the larger side k * max(ratio, 1/ratio) at most 2**53 "
            f"(got k = {k}, ratio = {ratio:g})"
        )
    return (round(side), k) if ratio >= 1 else (k, round(side))


def _ratios(values):
    ratios = values["ratios"]
    if ratios.ndim != 1 or not ratios.size:
        raise ValueError(f"ratios must be a non-empty 1-D sequence (got {ratios!r})")


@validation.constrained(
    _ratios,
    k=validation.Integer(minimum=2),
    ratios=validation.Positive(),
    prior=validation.Instance(tasks.Uniform),
    corpora=validation.Integer(),
    seed=validation.Seed(as_given=True),
    level=validation.PositiveScalar(),
    n_workers=validation.Integer(optional=True),
)
def freeze_shapes(k, ratios, prior, corpora, seed, level=0.5, n_workers=None):
    r"""Corpora of each shape frozen at a certified step and evaluated.

    Corpus ``r`` of ratio ``ratios[i]`` has the shape :func:`shape_of` ``(k,
    ratios[i])`` and the stream ``(seed, i, r)`` (:func:`stumplib.pretraining.stream`);
    it is frozen by :func:`stumplib.corpus_rule.freeze_certified` at ``level``.

    Parameters
    ----------
    k : int
        :math:`m \wedge n`, at least 2.
    ratios : sequence of float
        Positive ratios ``m / n``.
    prior : tasks.Uniform
        Threshold prior (uniform on an interior interval).
    corpora : int
        Corpora per shape.
    seed : int or tuple of int
        The experiment's seed.
    level : float
        The corpus rule's noise level.
    n_workers : int, optional
        Local processes (:func:`stumplib.sweep.run`); the results do not depend on it.

    Returns
    -------
    Shapes

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid.

    Examples
    --------
    >>> from stumplib import tasks
    >>> out = freeze_shapes(8, [0.5, 2], tasks.Uniform(0.1, 0.9), 1, 3, n_workers=1)
    >>> out.m.tolist(), out.n.tolist(), bool(np.all(out.q_max <= 2 / 9))
    ([8, 16], [16, 8], True)
    """
    shapes = [shape_of(k, float(v)) for v in ratios]
    items = [
        (m, n, prior, pretraining.stream(seed, i, r), level)
        for i, (m, n) in enumerate(shapes)
        for r in range(corpora)
    ]
    done = sweep.run(
        _freeze_one, items, n_workers, desc="shapes", cost=lambda it: it[0] * it[1]
    )
    runs = np.array([tuple(h) for h in done], dtype=object)
    runs = runs.reshape(len(shapes), corpora, -1)
    field = {name: i for i, name in enumerate(corpus_rule.CertifiedFreeze._fields)}

    def grid(name):
        return runs[:, :, field[name]].astype(float)

    s = np.array(THRESHOLDS)
    a, b = grid("a"), grid("b")
    error = np.abs(population.residual(a[..., None], b[..., None], s)[0])
    m, n = (np.array(v) for v in zip(*shapes))
    return Shapes(
        ratios, m, n, b, grid("q_max"), grid("rho_max"), grid("b_cert"), error, s
    )


def _freeze_one(item):
    m, n, prior, rng, level = item
    return corpus_rule.freeze_certified(m, n, prior, rng, level)


class Corpora(NamedTuple):
    r"""Every corpus of several grids, one entry a corpus.

    Parameters
    ----------
    k, ratio, m, n : ndarray, shape (N,)
        The corpus's :math:`m \wedge n`, ratio :math:`m / n` and shape.
    b : ndarray, shape (N,)
        Its frozen scale ``b_T``.
    error : ndarray, shape (N,)
        Its error, the mean of ``|s_hat_inf(s) - s|`` over the thresholds.
    inside : ndarray of bool, shape (N,)
        Whether it froze inside its certified interval (``b_T <= b_cert``).
    """

    k: np.ndarray
    ratio: np.ndarray
    m: np.ndarray
    n: np.ndarray
    b: np.ndarray
    error: np.ndarray
    inside: np.ndarray


def corpora_of(grids):
    r"""The corpora of several :class:`Shapes` grids, one entry a corpus.

    Parameters
    ----------
    grids : sequence of Shapes
        Grids, typically one an :math:`m \wedge n`.

    Returns
    -------
    Corpora

    Raises
    ------
    ValueError, TypeError
        If ``grids`` is empty or holds something else than a :class:`Shapes`.

    Examples
    --------
    >>> from stumplib import tasks
    >>> grid = freeze_shapes(8, [0.5, 2], tasks.Uniform(0.1, 0.9), 2, 3, n_workers=1)
    >>> out = corpora_of([grid])
    >>> out.k.tolist(), out.m.tolist()
    ([8, 8, 8, 8], [8, 8, 16, 16])
    """
    if not len(grids):
        raise ValueError("grids must hold at least one Shapes grid (got none)")
    for grid in grids:
        validation.instance(grid, Shapes, "grids")

    def flat(grid, values):
        return np.broadcast_to(np.asarray(values)[:, None], grid.b.shape).ravel()

    parts = [
        (
            flat(grid, np.minimum(grid.m, grid.n)),
            flat(grid, grid.m / grid.n),
            flat(grid, grid.m),
            flat(grid, grid.n),
            np.asarray(grid.b, float).ravel(),
            np.asarray(grid.error, float).mean(axis=-1).ravel(),
            (np.asarray(grid.b) <= np.asarray(grid.b_cert)).ravel(),
        )
        for grid in grids
    ]
    return Corpora(*(np.concatenate(column) for column in zip(*parts)))


def _points(values):
    """``y`` (N,) and ``x`` (N,) or (N, J), one label a point, a degree of freedom."""
    y, x, groups = values["y"], values["x"], values["groups"]
    if y.ndim != 1 or x.shape[:1] != y.shape or x.ndim > 2:
        raise ValueError(
            f"x must be of shape (N,) or (N, J) with y of shape (N,) "
            f"(got {x.shape} and {y.shape})"
        )
    if groups is not None and groups.shape != y.shape:
        raise ValueError(
            f"groups must hold one label per point (got {groups.shape} for {y.shape})"
        )
    fitted = (1 if groups is None else np.unique(groups).size) + x[0].size
    if y.size <= fitted:
        raise ValueError(
            f"y must hold more points than the fit's {fitted} intercepts and slopes, "
            f"to leave a degree of freedom for the standard errors (got {y.size})"
        )


@validation.constrained(
    _points,
    y=validation.Positive(),
    x=validation.Positive(),
    groups=validation.Finite(optional=True),
)
def log_slopes(y, x, groups=None):
    r"""Slopes of :math:`\log y` in :math:`\log x`, with one intercept a group.

    Fits :math:`\log y_i = A_{g(i)} + \sum_j \mathrm{slope}_j \log x_{ij}` by least
    squares
    (:func:`stumplib.fitting.least_squares`); the standard errors come from the
    scatter of the points, each point one independent measurement (a corpus).

    Parameters
    ----------
    y : array_like, shape (N,)
        Positive measurements.
    x : array_like, shape (N,) or (N, J)
        Positive regressors, one column a slope.
    groups : array_like, shape (N,), optional
        Numeric labels; each distinct label has its own intercept (one intercept if
        omitted).

    Returns
    -------
    stumplib.fitting.LinearFit
        The slopes and their standard errors (the intercepts are left out).

    Raises
    ------
    ValueError
        If the shapes do not match, or the fit has no degree of freedom or linearly
        dependent columns (``x`` constant within every group, or one column of
        ``log x`` a combination of the others and the intercepts).

    Examples
    --------
    >>> x = np.array([1.0, 2.0, 4.0, 1.0, 2.0, 4.0])
    >>> y = np.array([1.0, 0.5, 0.25, 3.0, 1.5, 0.75])
    >>> fit = log_slopes(y, x, groups=[0, 0, 0, 1, 1, 1])
    >>> round(float(fit.coef[0]), 12)
    -1.0
    """
    labels = np.zeros(y.shape) if groups is None else groups
    slopes = np.log(x.reshape(len(y), -1))
    design = np.column_stack(
        [labels == label for label in np.unique(labels)] + [slopes]
    ).astype(float)
    try:
        fit = fitting.least_squares(design, np.log(y))
    except ValueError as err:  # the one error left: columns dependent through x
        raise ValueError(
            "x must determine the slopes: log x is constant within the groups, or a "
            f"column of it a combination of the others and the intercepts ({err})"
        ) from err
    J = slopes.shape[1]
    return fitting.LinearFit(fit.coef[-J:], fit.se[-J:])
