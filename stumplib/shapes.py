"""Corpora of unequal shapes frozen by the corpus rule at a certified step.

At a fixed ``k = m ∧ n`` the corpus is made wide (``m > n``: many tasks, short
contexts) or deep (``m < n``: few tasks, long contexts) by the ratio ``m / n``; each
corpus is frozen by :func:`stumplib.corpus_rule.freeze_certified` and its head is
evaluated on infinitely long fresh contexts (:func:`stumplib.population.residual`).
The slow-curve picture predicts a frozen scale ``b_T ≈ (level / C)² m``
(:func:`stumplib.corpus_rule.rule_scale_ratio`) and an error of about ``1 / b_T``
while contexts are long enough; this module measures where it holds.
"""

from typing import NamedTuple

import numpy as np

from . import corpus_rule, population, pretraining, sweep, tasks, validation

#: Interior thresholds at which the frozen heads are evaluated.
THRESHOLDS = (0.3, 0.5, 0.7)


class Shapes(NamedTuple):
    """Certified freezes over a grid of shapes ``m / n`` at one ``m ∧ n``.

    Arrays are indexed ``[i, r]`` (shape, corpus) and ``[i, r, t]`` (threshold).

    Parameters
    ----------
    ratios : ndarray, shape (I,)
        The ratios ``m / n`` asked for.
    m, n : ndarray of int, shape (I,)
        The shapes (``min(m, n) = k``).
    b : ndarray, shape (I, R)
        Frozen scales ``b_T``.
    q_max, rho_max, b_cert : ndarray, shape (I, R)
        As :class:`stumplib.corpus_rule.CertifiedFreeze`.
    error : ndarray, shape (I, R, T)
        ``|s_hat_inf(s) - s|`` of the frozen head at each threshold.
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
    """The shape ``(m, n)`` with ``m ∧ n = k`` and ``m / n`` nearest ``ratio``.

    Parameters
    ----------
    k : int
        ``m ∧ n``, positive.
    ratio : float
        ``m / n``, positive.

    Returns
    -------
    tuple of int

    Raises
    ------
    ValueError, TypeError
        If ``k`` is not a positive integer or ``ratio`` not a positive number.

    Examples
    --------
    >>> shape_of(100, 4), shape_of(100, 0.25), shape_of(100, 1)
    ((400, 100), (100, 400), (100, 100))
    """
    if ratio >= 1:
        return round(k * ratio), k
    return k, round(k / ratio)


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
    """Corpora of each shape frozen at a certified step and evaluated.

    Corpus ``r`` of ratio ``ratios[i]`` has the shape :func:`shape_of` ``(k,
    ratios[i])`` and the stream ``(seed, i, r)`` (:func:`stumplib.pretraining.stream`);
    it is frozen by :func:`stumplib.corpus_rule.freeze_certified` at ``level``.

    Parameters
    ----------
    k : int
        ``m ∧ n``, at least 2.
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
