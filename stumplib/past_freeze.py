"""Training on past the corpus rule's freeze, far beyond it, threshold by threshold.

Each corpus is frozen at ``b_T`` by the corpus rule
(:func:`stumplib.corpus_rule.pretrain_noisy`, from the size-tied start) and then trained
on from its frozen point by :func:`stumplib.pretraining.train_side_by_side` (the descent
lemma's step, restarted at every ladder point), recorded where its scale first reaches
each point of a geometric ladder ``b_T ratio^j``. The ladder of one size is long enough
for every corpus of that size to reach ``reach (m ∧ n)``. At every point the head is
evaluated on infinitely long fresh contexts, separately at each threshold
(:func:`stumplib.population.residual`), and against its own value at the freeze: does
training on help (a lower error) or hurt, and by how much.
"""

import warnings
from typing import NamedTuple

import numpy as np

from . import calibration, corpus_rule, population, pretraining, sweep, validation
from .corpus import Corpus

#: The thresholds at which the heads are evaluated (three interior ones, and one near
#: the top of the prior ``U[0.1, 0.9]``).
THRESHOLDS = (0.3, 0.5, 0.7, 0.85)

#: A corpus is counted as helped (hurt) at a ladder point only when its error there is
#: below (above) its error at the freeze by more than this factor. Training past the
#: freeze amplifies rounding: between BLAS kernels, thread counts and SIMD levels, or
#: from parameters perturbed at the level of rounding, a few corpora's error ratios up
#: to ``8 b_T`` change by up to 3% (measured at ``m = n = 12..20``), enough to move a
#: ratio near 1 across it. A factor of 1.25 (0.22 in log) keeps such a change from
#: moving a corpus between the classes; the ratios in between count as neither.
MARGIN = 1.25


class PastLadder(NamedTuple):
    """The corpora of one size, frozen by the corpus rule and trained on along a ladder.

    Point ``j = 0`` is the freeze; point ``j`` is the first iterate whose scale reaches
    ``factors[j] b_T`` (its own ``b_T`` for each corpus). Arrays are indexed
    ``[r, j]`` (corpus, point) and ``[r, j, t]`` (threshold ``t``); the summaries
    ``[j - 1, t]`` compare point ``j >= 1`` with the freeze.

    Parameters
    ----------
    shape : tuple of int
        ``(m, n)``.
    factors : ndarray, shape (J + 1,)
        ``1, ratio, ratio^2, ...``.
    a, b, offset : ndarray, shape (R, J + 1)
        Parameters, and the offset ``a - a*(b)`` from the population valley.
    error : ndarray, shape (R, J + 1, T)
        ``|s_hat_inf(s) - s|`` at each threshold.
    steps : ndarray, shape (R, J + 1)
        Steps from the start to the freeze (``j = 0``) and from the freeze to point
        ``j``. Points a corpus did not reach (see ``reached``) hold NaN here and above.
    reached : ndarray of int, shape (R,)
        Points reached, the freeze included (``J + 1`` unless a leg ran out of steps).
    last_b : ndarray, shape (R,)
        The scale where each corpus's run ended: its last point, or where a leg ran out
        of steps below its point.
    helps, hurts : ndarray of int, shape (J, T)
        Corpora whose error at point ``j`` is below (above) their error at the freeze by
        more than the factor :data:`MARGIN`.
    worst_ratio : ndarray, shape (J, T)
        The largest, over the corpora that reached point ``j``, of the error there / the
        error at the freeze (NaN if none did).
    """

    shape: tuple
    factors: np.ndarray
    a: np.ndarray
    b: np.ndarray
    offset: np.ndarray
    error: np.ndarray
    steps: np.ndarray
    reached: np.ndarray
    last_b: np.ndarray
    helps: np.ndarray
    hurts: np.ndarray
    worst_ratio: np.ndarray


class PastFreeze(NamedTuple):
    """:func:`train_past` for every size.

    The thresholds and one :class:`PastLadder` each.

    Parameters
    ----------
    thresholds : ndarray, shape (T,)
        The thresholds.
    ladders : list of PastLadder
        One per size.
    b_over_k : float
        The largest ``b / (m ∧ n)`` reached by any corpus.
    """

    thresholds: np.ndarray
    ladders: list
    b_over_k: float


def train_past(
    sizes,
    prior,
    corpora,
    seed,
    reach=2.0,
    ratio=2.0,
    thresholds=THRESHOLDS,
    level=0.5,
    max_steps=100_000,
    n_workers=None,
):
    """Corpora frozen by the corpus rule, trained on to ``reach (m ∧ n)`` and evaluated.

    Corpus ``r`` of size ``sizes[i]`` is the corpus of
    :func:`stumplib.corpus_rule.pretrain_noisy` with the same ``seed`` (stream
    ``(seed, i, r)``), frozen at ``b_T`` where its gradient noise ratio reaches
    ``level``. It is then trained on, side by side with the others of its size, to
    ``b_T ratio^j`` for ``j = 1 .. J``, ``J`` the smallest integer with
    ``ratio^J min_r b_T >= reach (m ∧ n)``, each leg with the descent lemma's step at
    its start.

    Parameters
    ----------
    sizes : sequence of (int, int)
        Corpus sizes ``(m, n)``.
    prior : tasks.Uniform
        Threshold prior of the corpora and of the population valley.
    corpora : int
        Independent corpora per size.
    seed : int or tuple of int
        The experiment's seed.
    reach : float
        Every corpus is trained to at least ``reach (m ∧ n)``, positive.
    ratio : float
        Ratio of successive ladder points, above 1.
    thresholds : sequence of float
        Thresholds in [0, 1] at which the heads are evaluated.
    level : float
        The corpus rule's noise level.
    max_steps : int
        Steps allowed per leg of the ladder; a corpus whose leg runs out of them stops
        there (``PastLadder.reached``, ``PastLadder.last_b``).
    n_workers : int, optional
        Local processes (see :func:`stumplib.sweep.run`); the results do not depend on
        it.

    Returns
    -------
    PastFreeze

    Raises
    ------
    ValueError
        If ``ratio <= 1``, or ``thresholds`` is not a non-empty 1-D sequence in [0, 1].
    """
    sizes = validation.count_rows(sizes, "sizes", (1, 1))
    corpora = validation.count(corpora, "corpora")
    reach = validation.positive_scalar(reach, "reach")
    ratio = validation.positive_scalar(ratio, "ratio")
    if not ratio > 1:
        raise ValueError(f"ratio must be > 1 (got {ratio})")
    s = validation.unit_interval(thresholds, "thresholds")
    if s.ndim != 1 or not s.size:
        raise ValueError(
            f"thresholds must be a non-empty 1-D sequence (got shape {s.shape})"
        )
    max_steps = validation.count(max_steps, "max_steps", minimum=0)
    frozen = corpus_rule.pretrain_noisy(sizes, prior, corpora, seed, level, n_workers)
    factors = [
        ratio ** np.arange(_rungs(min(shape), [h.b for h in runs], reach, ratio) + 1)
        for shape, runs in zip(sizes, frozen)
    ]
    groups = [
        (i, range(r, min(corpora, r + SIDE_BY_SIDE)))
        for i in range(len(sizes))
        for r in range(0, corpora, SIDE_BY_SIDE)
    ]
    items = [
        (sizes[i], prior, [pretraining.stream(seed, i, r) for r in rs],
         [frozen[i][r] for r in rs], factors[i][1:], max_steps)
        for i, rs in groups
    ]  # fmt: skip
    done = sweep.run(
        _ladder_group, items, n_workers, desc="past the freeze", cost=_cost
    )
    runs = [[] for _ in sizes]
    for (i, rs), on in zip(groups, done):
        runs[i].extend([frozen[i][r], *later] for r, later in zip(rs, on))
    ladders = [
        _ladder(shape, f, rows, s, prior)
        for shape, f, rows in zip(sizes, factors, runs)
    ]
    b_over_k = max(float(np.nanmax(ladder.b)) / min(ladder.shape) for ladder in ladders)
    return PastFreeze(s, ladders, b_over_k)


def _rungs(k, b_frozen, reach, ratio):
    """The smallest ``J >= 1`` with ``ratio^J min(b_frozen) >= reach k``."""
    need = np.log(reach * k / min(b_frozen)) / np.log(ratio)
    return max(1, int(np.ceil(need - 1e-9)))


def _cost(item):
    """A ladder group's cost: examples times the ladder's top factor."""
    (m, n), factors = item[0], item[4]
    return m * n * len(item[2]) * factors[-1]


def _ladder_group(item):
    """Corpora of one size trained side by side from their freezes along the ladder."""
    (m, n), prior, rngs, frozen, factors, max_steps = item
    drawn = [Corpus.sample(m, n, prior, rng=rng) for rng in rngs]
    theta = [(h.a, h.b) for h in frozen]
    targets = np.outer([h.b for h in frozen], factors)
    return pretraining.train_side_by_side(drawn, theta, targets, prior, max_steps, True)


def _ladder(shape, factors, rows, s, prior):
    """A :class:`PastLadder` from the recorded points ``rows[r][j]``."""
    R, points = len(rows), len(factors)
    a, b, steps = (np.full((R, points), np.nan) for _ in range(3))
    reached, last_b = np.zeros(R, int), np.zeros(R)
    for r, row in enumerate(rows):
        on = row if row[-1].b >= factors[len(row) - 1] * row[0].b else row[:-1]
        reached[r], last_b[r] = len(on), row[-1].b
        a[r, : len(on)] = [h.a for h in on]
        b[r, : len(on)] = [h.b for h in on]
        steps[r, : len(on)] = [h.steps for h in on]
    error = np.full((R, points, len(s)), np.nan)
    offset = np.full((R, points), np.nan)
    ok = ~np.isnan(b)
    error[ok] = np.abs(population.residual(a[ok][:, None], b[ok][:, None], s)[0])
    offset[ok] = calibration.offset(a[ok], b[ok], prior)
    change = error[:, 1:] / error[:, :1]
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a point no corpus reached
        worst = np.nanmax(change, axis=0)
    return PastLadder(
        tuple(int(v) for v in shape),
        factors,
        a,
        b,
        offset,
        error,
        steps,
        reached,
        last_b,
        np.sum(change < 1 / MARGIN, axis=0),
        np.sum(change > MARGIN, axis=0),
        worst,
    )


def share_lowered(past, rung=1, thresholds=(0.3, 0.5)):
    """Share of (corpus, threshold) pairs helped by training on to point ``rung``.

    A pair is helped if its error there is below its error at the freeze; the share is
    over every size and the given thresholds.

    Parameters
    ----------
    past : PastFreeze
        As returned by :func:`train_past`.
    rung : int
        The ladder point (``1``: the first doubling), at least 1.
    thresholds : sequence of float
        Thresholds among ``past.thresholds``.

    Returns
    -------
    share : float
        The share, over the pairs whose corpus reached ``rung``.
    pairs : int
        Their number.

    Raises
    ------
    TypeError
        If ``past`` is not a :class:`PastFreeze`.
    ValueError
        If ``rung`` is below 1 or beyond a ladder, a threshold is not among
        ``past.thresholds``, or no corpus reached ``rung``.
    """
    if not isinstance(past, PastFreeze):
        raise TypeError(f"past must be a PastFreeze (got {type(past).__name__})")
    rung = validation.count(rung, "rung")
    if any(rung >= len(ladder.factors) for ladder in past.ladders):
        raise ValueError(f"rung must be within every ladder (got {rung})")
    where = [np.flatnonzero(np.isclose(past.thresholds, t)) for t in thresholds]
    if not thresholds or any(w.size != 1 for w in where):
        raise ValueError(
            f"thresholds must be among {tuple(past.thresholds)} (got {thresholds})"
        )
    t = np.concatenate(where)
    ratio = np.concatenate(
        [(ld.error[:, rung, t] / ld.error[:, 0, t]).ravel() for ld in past.ladders]
    )
    ratio = ratio[~np.isnan(ratio)]
    if not ratio.size:
        raise ValueError(f"no corpus reached rung {rung}")
    return float(np.mean(ratio < 1)), int(ratio.size)


#: Corpora trained side by side in one item of :func:`train_past_freeze`'s sweep.
SIDE_BY_SIDE = 8


def train_past_freeze(sizes, prior, corpora, seed, factors, level=0.5, n_workers=None):
    """Corpora frozen by the corpus rule, trained on to multiples of their frozen scale.

    Corpus ``r`` of size ``sizes[i]`` (the corpus of
    :func:`~stumplib.corpus_rule.pretrain_noisy` with the same ``seed``) is frozen at
    ``b_T`` by :func:`~stumplib.pretraining.train_until_noisy` from
    :func:`~stumplib.corpus_rule.size_start`, then trained on from there by
    :func:`~stumplib.pretraining.train_side_by_side` (in groups of ``SIDE_BY_SIDE``
    corpora of one size), recorded where its scale first reaches each ``f * b_T``, ``f``
    in ``factors``. The groups, largest sizes first, are spread over the sweep's
    workers; the result does not depend on them.

    Returns
    -------
    list of list of list of pretraining.Freeze
        ``[i][r][j]``: size ``i``, corpus ``r``, at the freeze (``j = 0``, its time and
        steps from the start) and at ``factors[j - 1] * b_T`` (time and steps from the
        freeze).

    Raises
    ------
    ValueError
        If ``factors`` is not a 1-D non-decreasing sequence of numbers ``>= 1``.

    Examples
    --------
    >>> from stumplib import tasks
    >>> out = train_past_freeze([(40, 40)], tasks.Uniform(0.1, 0.9), 1, 1, [1.5],
    ...                         n_workers=1)
    >>> frozen, later = out[0][0]
    >>> bool(later.b >= 1.5 * frozen.b)
    True
    """
    sizes = validation.count_rows(sizes, "sizes", (1, 1))
    corpora = validation.count(corpora, "corpora")
    factors = validation.positive(factors, "factors")
    if factors.ndim != 1 or np.any(np.diff(factors) < 0) or np.any(factors < 1):
        raise ValueError(
            "factors must be a 1-D non-decreasing sequence of numbers >= 1"
        )
    level = validation.positive_scalar(level, "level")
    groups = [
        (i, range(r, min(corpora, r + SIDE_BY_SIDE)))
        for i in range(len(sizes))
        for r in range(0, corpora, SIDE_BY_SIDE)
    ]
    items = [
        (sizes[i], prior, rs, pretraining.stream(seed, i), factors, level)
        for i, rs in groups
    ]
    done = sweep.run(
        _past_freeze_group,
        items,
        n_workers,
        desc="training past the freeze",
        cost=sweep.examples,
    )
    out = [[] for _ in sizes]
    for (i, _), runs in zip(groups, done):
        out[i].extend(runs)
    return out


def _past_freeze_group(item):
    """One group of corpora of one size in :func:`train_past_freeze`."""
    (m, n), prior, rs, seed, factors, level = item
    theta0, eta = corpus_rule.size_start(m, n, prior)
    drawn = [Corpus.sample(m, n, prior, rng=pretraining.stream(seed, r)) for r in rs]
    frozen = [
        pretraining.train_until_noisy(corpus, theta0, eta, level) for corpus in drawn
    ]
    theta = [(h.a, h.b) for h in frozen]
    targets = np.outer([h.b for h in frozen], factors)
    on = pretraining.train_side_by_side(drawn, theta, targets, prior)
    return [[h, *later] for h, later in zip(frozen, on)]
