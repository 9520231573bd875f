r"""Far past the freeze at the certified constant step, and the corpus's own valley.

A small corpus is trained from the size-tied start with the abstract's constant step at
its certified size (:data:`stumplib.corpus_rule.CERTIFIED_FRACTION` of the descent
lemma's step at the start), through the corpus rule's freeze and on
(:func:`run_far`). Since :math:`b^4` grows linearly in the steps, :math:`10^5` steps
carry :math:`b` to a few tens only; beyond, the run follows the corpus's own valley, the
minimizer :math:`a_m(b)` of the corpus loss at fixed :math:`b` (:func:`corpus_valley`;
the :math:`a` direction is the fast one), which :func:`valley_errors` follows to any
scale.

Far past the freeze the valley's slope :math:`a_m(b) / b` settles at a corpus-dependent
point :math:`c`, not at the prior's top :math:`\mathrm{hi}` as the population valley
does, so the distance :math:`a - a^*(b)` from the population valley drifts like
:math:`b (c - \mathrm{hi})`. In the hard-attention limit task :math:`j` keeps its
nearest positive :math:`x^+_j` only while the positives' weight :math:`e^{a - b x^+_j}`
beats the smallest negative's :math:`e^{-b x^-_j}` (:math:`x^-_j` the task's smallest
example), that is while :math:`a > b (x^+_j - x^-_j)`; a task that loses it collapses,
at a cost of order :math:`s_j^2` that no gain elsewhere repays. Hence
(:func:`collapse_points`) :math:`c = \max_j (x^+_j - x^-_j)`. A fresh threshold on an
infinitely long context (smallest example 0) collapses when :math:`a < b s`, i.e. for
:math:`s > c`: the share of the prior lost far past the freeze is
:math:`(\mathrm{hi} - c)_+ / (\mathrm{hi} - \mathrm{lo})`.

The root mean square over the prior (:func:`rms_error`, :func:`valley_rms`) weighs that
lost stretch, where the error is of order :math:`s`, by its square.
:func:`plain_descent` continues runs by plain constant-step descent (no rule, no
certificate) at any step, to see the collapse without the valley and to test the valley
where it happens.
"""

from typing import NamedTuple

import numpy as np
from scipy.optimize import brentq

from . import (
    calibration,
    corpus_rule,
    descent_lemma,
    population,
    pretraining,
    tasks,
    training,
    validation,
)
from .corpus import Corpus, noise_ratio

#: Thresholds at which the heads are evaluated one by one.
THRESHOLDS = (0.3, 0.5, 0.7, 0.85)
#: Points of the midpoint rule over the prior for the prior-averaged error.
PRIOR_POINTS = 4000


class FarRun(NamedTuple):
    """Corpora of one size at the certified constant step, recorded along the run.

    Parameters
    ----------
    shape : tuple of int
        ``(m, n)``.
    eta : float
        The constant step.
    freeze_b, freeze_a : ndarray, shape (R,)
        Where the corpus rule froze each run.
    freeze_steps : ndarray of int, shape (R,)
        Steps to the freeze.
    steps : ndarray of int, shape (P,)
        Steps of the recorded points (from the start).
    a, b : ndarray, shape (R, P)
        Parameters there (NaN after a run stopped: see ``failed``).
    failed : ndarray of bool, shape (R,)
        Runs that stopped being finite.
    """

    shape: tuple
    eta: float
    freeze_a: np.ndarray
    freeze_b: np.ndarray
    freeze_steps: np.ndarray
    steps: np.ndarray
    a: np.ndarray
    b: np.ndarray
    failed: np.ndarray


_UNIFORM = pretraining.UNIFORM


@validation.constrained(m=validation.Integer(), n=validation.Integer(), prior=_UNIFORM)
def certified_step(m, n, prior):
    """The constant step of a certified run of shape ``(m, n)``, and its start.

    ``CERTIFIED_FRACTION`` times the descent lemma's step at the size-tied start
    (:func:`stumplib.corpus_rule.size_start`), as in
    :func:`stumplib.corpus_rule.freeze_certified`.

    Parameters
    ----------
    m, n : int
        The corpus shape.
    prior : tasks.Uniform
        Threshold prior (uniform on an interior interval).

    Returns
    -------
    theta0 : tuple of float
    eta : float

    Examples
    --------
    >>> from stumplib import tasks
    >>> (a0, b0), eta = certified_step(32, 32, tasks.Uniform(0.1, 0.9))
    >>> b0, round(eta, 2)
    (2.5, 5.6)
    """
    theta0, eta = corpus_rule.size_start(m, n, prior)
    return theta0, eta * corpus_rule.CERTIFIED_FRACTION


@validation.constrained(
    sizes=validation.Rows(2, 1),
    prior=_UNIFORM,
    corpora=validation.Integer(),
    seed=validation.Seed(as_given=True),
    steps=validation.Integer(),
    points=validation.Integer(minimum=2),
    level=validation.PositiveScalar(),
)
def run_far(sizes, prior, corpora, seed, steps=100_000, points=25, level=0.5):
    """Corpora trained at the certified constant step, through the freeze and on.

    Corpus ``r`` of ``sizes[i]`` is ``Corpus.sample(m, n, prior, rng=stream(seed, i,
    r))``; it starts at :func:`certified_step` and takes ``steps`` steps of that
    constant size, the corpora of a size side by side. Where its gradient noise ratio
    first reaches ``level`` is its freeze (recorded; the run goes on).

    Parameters
    ----------
    sizes : sequence of (int, int)
        Shapes ``(m, n)``, ``m >= 2``.
    prior : tasks.Uniform
        Threshold prior.
    corpora : int
        Corpora per size.
    seed : int or tuple of int
        The experiment's seed.
    steps : int
        Steps of every run.
    points : int
        Recorded points, geometric in the steps from 1 to ``steps``.
    level : float
        The corpus rule's noise level.

    Returns
    -------
    list of FarRun

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid.

    Examples
    --------
    >>> from stumplib import tasks
    >>> run = run_far([(16, 16)], tasks.Uniform(0.1, 0.9), 2, 1, 300, 4)[0]
    >>> run.steps.tolist(), bool(np.all(run.b[:, -1] > run.freeze_b))
    ([1, 7, 45, 300], True)
    """
    at = np.unique(np.round(np.geomspace(1, steps, points)).astype(int))
    out = []
    for i, (m, n) in enumerate(sizes):
        drawn = [
            Corpus.sample(m, n, prior, rng=pretraining.stream(seed, i, r))
            for r in range(corpora)
        ]
        out.append(_run_size(drawn, prior, at, level))
    return out


def _run_size(drawn, prior, at, level):
    m, n = drawn[0].shape
    theta0, eta = certified_step(m, n, prior)
    R = len(drawn)
    follower = Corpus.stack(drawn).follow()
    a, b = np.full(R, theta0[0]), np.full(R, theta0[1])
    freeze = np.full((R, 3), np.nan)
    rec_a, rec_b = np.full((R, at.size), np.nan), np.full((R, at.size), np.nan)
    failed = np.zeros(R, bool)
    for k in range(1, at[-1] + 1):
        est, d_a, d_b = follower.summaries(np.repeat(a, m), np.repeat(b, m))
        residual = (est - follower.s).reshape(R, m)
        g_a, g_b = 2 * residual * d_a.reshape(R, m), 2 * residual * d_b.reshape(R, m)
        for r in np.flatnonzero(np.isnan(freeze[:, 0])):
            task = np.stack([g_a[r], g_b[r]], axis=1)
            if noise_ratio(task) >= level:
                freeze[r] = a[r], b[r], k - 1
        with np.errstate(over="ignore", invalid="ignore"):
            a, b = a - eta * g_a.mean(axis=1), b - eta * g_b.mean(axis=1)
        bad = ~(np.isfinite(a) & np.isfinite(b))
        failed |= bad
        a[bad], b[bad] = theta0  # a stopped run is kept finite, its records NaN
        j = np.searchsorted(at, k)
        if j < at.size and at[j] == k:
            rec_a[~failed, j], rec_b[~failed, j] = a[~failed], b[~failed]
    return FarRun(
        (m, n), float(eta), freeze[:, 0], freeze[:, 1],
        freeze[:, 2], at, rec_a, rec_b, failed,
    )  # fmt: skip


@validation.constrained(
    corpus=validation.Instance(Corpus),
    b=validation.PositiveScalar(),
    guess=validation.Scalar(),
)
def corpus_valley(corpus, b, guess):
    r"""The minimizer in ``a`` of the corpus loss at scale ``b`` (the corpus valley).

    The root of :math:`\partial L/\partial a` nearest ``guess``, bracketed by doubling
    steps from it.

    Parameters
    ----------
    corpus : Corpus
        The corpus.
    b : float
        The scale, positive.
    guess : float
        A starting value of ``a``.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``b`` is not positive or ``guess`` not finite, or if no strict sign change
        of :math:`\partial L/\partial a` (negative, then positive) is bracketed within
        :math:`10^4` of ``guess`` (far from the valley the loss can be flat in ``a`` to
        rounding).

    Examples
    --------
    >>> from stumplib import tasks
    >>> corpus = Corpus.sample(32, 32, tasks.Uniform(0.1, 0.9), rng=1)
    >>> a = corpus_valley(corpus, 40.0, 36.0)
    >>> abs(corpus.gradient(a, 40.0)[0]) < 1e-9
    True
    """
    follower = corpus.follow()

    def slope(a):
        return follower.loss_and_gradient(a, b)[1]

    lo, hi, width = guess - 1.0, guess + 1.0, 2.0
    while slope(lo) > 0 and width < 1e4:
        lo, width = lo - width, 2 * width
    while slope(hi) < 0 and width < 1e4:
        hi, width = hi + width, 2 * width
    if not (slope(lo) < 0 < slope(hi)):  # a flat stretch (slope 0) is no valley
        raise ValueError(f"no corpus valley bracketed at b = {b} near a = {guess}")
    return float(brentq(slope, lo, hi, xtol=1e-12, rtol=1e-14))


@validation.constrained(
    m=validation.Integer(),
    n=validation.Integer(),
    prior=_UNIFORM,
    corpora=validation.Integer(),
    seed=validation.Seed(as_given=True),
    index=validation.Integer(minimum=0),
)
def collapse_points(m, n, prior, corpora, seed, index):
    r"""The point :math:`c = \max_j (x^+_j - x^-_j)` of each corpus of one size.

    The corpora of :func:`run_far`.

    The size is ``index``. :math:`x^+_j` is task :math:`j`'s smallest positive example
    and :math:`x^-_j` its smallest
    example (tasks with no positive are skipped); the corpora are redrawn from their
    streams (:func:`stumplib.tasks.sample_contexts` draws what
    :meth:`Corpus.sample <stumplib.corpus.Corpus.sample>` draws). Far past the freeze
    the corpus valley's slope :math:`a_m(b) / b` tends to :math:`c` (see the module
    notes).

    Parameters
    ----------
    m, n : int
        The shape.
    prior : tasks.Uniform
        Threshold prior.
    corpora : int
        Corpora.
    seed : int or tuple of int
        The experiment's seed.
    index : int
        The size's index.

    Returns
    -------
    ndarray, shape (corpora,)

    Raises
    ------
    ValueError
        If a corpus has no positive example at all (:math:`c` is then undefined).

    Examples
    --------
    >>> from stumplib import tasks
    >>> c = collapse_points(32, 32, tasks.Uniform(0.1, 0.9), 2, 1, 0)
    >>> c.shape, bool(np.all((0 < c) & (c < 1)))
    ((2,), True)
    """
    out = np.empty(corpora)
    for r in range(corpora):
        rng = np.random.default_rng(pretraining.stream(seed, index, r))
        x, y, _ = tasks.sample_contexts(m, n, prior, rng=rng)
        lowest_positive = np.where(y > 0, x, np.inf).min(axis=1)
        keep = np.isfinite(lowest_positive)
        if not keep.any():
            raise ValueError(
                f"corpus {r} has no positive example in any task: c is undefined "
                f"(m = {m}, n = {n})"
            )
        out[r] = np.max(lowest_positive[keep] - x[keep].min(axis=1))
    return out


@validation.constrained(c=validation.Finite(), prior=_UNIFORM)
def lost_share(c, prior):
    r"""The prior's share above :math:`c`.

    :math:`\min((\mathrm{hi} - c)_+, \mathrm{hi} - \mathrm{lo}) / (\mathrm{hi} -
    \mathrm{lo})`: 1 for :math:`c \le \mathrm{lo}`, 0 for :math:`c \ge \mathrm{hi}`.

    Parameters
    ----------
    c : array_like
        Collapse points (:func:`collapse_points`).
    prior : tasks.Uniform
        :math:`U[\mathrm{lo}, \mathrm{hi}]`.

    Returns
    -------
    ndarray

    Examples
    --------
    >>> from stumplib import tasks
    >>> lost_share([0.86, 0.95], tasks.Uniform(0.1, 0.9)).round(3).tolist()
    [0.05, 0.0]
    >>> lost_share([0.0, -5.0], tasks.Uniform(0.1, 0.9)).tolist()
    [1.0, 1.0]
    """
    width = prior.hi - prior.lo
    return np.clip(prior.hi - np.asarray(c, dtype=float), 0.0, width) / width


def _broadcast(values):
    validation.broadcastable((values["a"], values["b"]), ("a", "b"))


@validation.constrained(
    _broadcast, a=validation.Finite(), b=validation.Positive(), prior=_UNIFORM
)
def averaged_error(a, b, prior):
    r"""Prior-averaged fresh-context error, and the share of the prior collapsed.

    On infinitely long fresh contexts: the mean of :math:`|\hat s^\infty(s) - s|` over
    the prior :math:`U[\mathrm{lo}, \mathrm{hi}]` (midpoint rule, :data:`PRIOR_POINTS`
    points), and the share of those points where the estimate has collapsed,
    :math:`|\hat s^\infty(s) - s| > s / 2`.

    Parameters
    ----------
    a, b : array_like
        Head parameters (broadcast together), ``b > 0``.
    prior : tasks.Uniform
        :math:`U[\mathrm{lo}, \mathrm{hi}]`.

    Returns
    -------
    error, lost : ndarray
        Of the broadcast shape of ``a`` and ``b``.

    Examples
    --------
    >>> from stumplib import calibration, tasks
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> error, lost = averaged_error(calibration.a_star(40.0, prior), 40.0, prior)
    >>> bool(0.02 < error < 0.03), float(lost)
    (True, 0.0)
    """
    grid, off = _prior_residuals(a, b, prior)
    off = np.abs(off)
    return off.mean(axis=-1), np.mean(off > grid / 2, axis=-1)


def _prior_residuals(a, b, prior):
    """The midpoint grid over ``U[lo, hi]`` and ``s_hat_inf(s) - s`` on it."""
    a, b = np.broadcast_arrays(np.asarray(a, dtype=float), np.asarray(b, dtype=float))
    lo, hi = prior.lo, prior.hi
    grid = lo + (hi - lo) * (np.arange(PRIOR_POINTS) + 0.5) / PRIOR_POINTS
    return grid, population.residual(a[..., None], b[..., None], grid)[0]


class ValleyErrors(NamedTuple):
    r"""Fresh-context errors along the corpus valley, and at the freeze.

    Arrays are indexed ``[r, j]`` (corpus, scale) and ``[r, j, t]`` (threshold).

    Parameters
    ----------
    shape : tuple of int
        ``(m, n)``.
    factors : ndarray, shape (J,)
        The scales as multiples of :math:`m \wedge n`: :math:`b = f_j (m \wedge n)`,
        :math:`f_j` = ``factors[j]``.
    a : ndarray, shape (R, J)
        The valley :math:`a_m(b)` (NaN where none was found: a failure).
    error : ndarray, shape (R, J, T)
        :math:`|\hat s^\infty(s) - s|` at each threshold.
    prior_error : ndarray, shape (R, J)
        The prior average of :math:`|\hat s^\infty(s) - s|` (midpoint rule,
        :data:`PRIOR_POINTS` points).
    lost : ndarray, shape (R, J)
        The prior's share where the estimate has collapsed,
        :math:`|\hat s^\infty(s) - s| > s / 2`.
    s_max : ndarray, shape (R,)
        Each corpus's largest task threshold.
    """

    shape: tuple
    factors: np.ndarray
    a: np.ndarray
    error: np.ndarray
    prior_error: np.ndarray
    lost: np.ndarray
    s_max: np.ndarray


def _shape(value, name):
    (m, n), = validation.count_rows([value], name, (2, 1))  # fmt: skip
    return m, n


def _increasing(values):
    factors = values["factors"]
    if factors.ndim != 1 or np.any(np.diff(factors) <= 0):
        raise ValueError("factors must be an increasing 1-D sequence")


def _factors(values):
    factors = values["factors"]
    if factors.ndim != 1 or not factors.size:
        raise ValueError(
            f"factors must be a non-empty 1-D sequence (got shape {factors.shape})"
        )


def _resolved(values):
    top = float(np.max(values["factors"])) * min(values["shape"])
    if not top <= pretraining.VALLEY_RESOLVED:
        raise ValueError(
            f"factors times m ∧ n must be at most {pretraining.VALLEY_RESOLVED:g}, "
            f"where a float still resolves the valley (got {top:g})"
        )


@validation.constrained(
    _factors,
    _increasing,
    _resolved,
    shape=validation.Constraint(
        _shape, ((None, TypeError), ((1, 1), ValueError), ((2, 0), ValueError))
    ),
    prior=_UNIFORM,
    corpora=validation.Integer(),
    seed=validation.Seed(as_given=True),
    index=validation.Integer(minimum=0),
    factors=validation.Positive(),
    thresholds=validation.UnitInterval(),
)
def valley_errors(shape, prior, corpora, seed, index, factors, thresholds=THRESHOLDS):
    r"""The corpora of :func:`run_far` (size ``index``) along their valleys.

    Corpus ``r`` is drawn from ``stream(seed, index, r)``; at each
    :math:`b = f (m \wedge n)` (:math:`f` in ``factors``, increasing) its valley
    :func:`corpus_valley` is found from the previous one (the population valley's
    :math:`a^*` at the first) and its head is evaluated on infinitely long fresh
    contexts.

    Parameters
    ----------
    shape : (int, int)
        ``(m, n)``.
    prior : tasks.Uniform
        Threshold prior, :math:`U[\mathrm{lo}, \mathrm{hi}]`.
    corpora : int
        Corpora.
    seed : int or tuple of int
        The experiment's seed (as :func:`run_far`).
    index : int
        The size's index in :func:`run_far`'s ``sizes``.
    factors : sequence of float
        Increasing positive scales over :math:`m \wedge n`, the largest scale :math:`b`
        at most :data:`stumplib.pretraining.VALLEY_RESOLVED` (:math:`10^{15}`: beyond, a
        float no longer resolves the valley).
    thresholds : sequence of float
        Thresholds in ``[0, 1]``.

    Returns
    -------
    ValleyErrors

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid, or a scale exceeds :math:`10^{15}`.

    Examples
    --------
    >>> from stumplib import tasks
    >>> out = valley_errors((32, 32), tasks.Uniform(0.1, 0.9), 1, 1, 0, [1, 4])
    >>> out.error.shape, bool(out.error[0, 1, 0] < out.error[0, 0, 0])
    ((1, 2, 4), True)
    """
    m, n = shape
    factors, s = np.asarray(factors, dtype=float), np.asarray(thresholds, dtype=float)
    scales = factors * min(m, n)
    a = np.full((corpora, scales.size), np.nan)
    s_max = np.zeros(corpora)
    for r in range(corpora):
        corpus = Corpus.sample(m, n, prior, rng=pretraining.stream(seed, index, r))
        s_max[r] = corpus.follow().s.max()
        guess = float(calibration.a_star(scales[0], prior))
        for j, b in enumerate(scales):
            try:
                a[r, j] = guess = corpus_valley(corpus, b, guess)
            except ValueError:
                break  # a failure: this corpus's later scales stay NaN
            if j + 1 < scales.size:
                guess *= scales[j + 1] / b
    ok = ~np.isnan(a)
    bb = np.broadcast_to(scales, a.shape)
    error = np.full((*a.shape, s.size), np.nan)
    error[ok] = np.abs(population.residual(a[ok][:, None], bb[ok][:, None], s)[0])
    prior_error, lost = np.full(a.shape, np.nan), np.full(a.shape, np.nan)
    prior_error[ok], lost[ok] = averaged_error(a[ok], bb[ok], prior)
    return ValleyErrors((m, n), factors, a, error, prior_error, lost, s_max)


@validation.constrained(
    _broadcast, a=validation.Finite(), b=validation.Finite(), prior=_UNIFORM
)
def rms_error(a, b, prior):
    r"""Root-mean-square fresh-context error over the prior.

    On infinitely long fresh contexts: the square root of the mean of
    :math:`(\hat s^\infty(s) - s)^2` over the prior :math:`U[\mathrm{lo}, \mathrm{hi}]`
    (midpoint rule, :data:`PRIOR_POINTS` points). Unlike the mean of
    :math:`|\hat s^\infty(s) - s|` (:func:`averaged_error`) it weighs a collapsed
    stretch of the prior, where the error is of order :math:`s`, by its square.

    Parameters
    ----------
    a, b : array_like
        Head parameters (broadcast together), ``b > 0``.
    prior : tasks.Uniform
        :math:`U[\mathrm{lo}, \mathrm{hi}]`.

    Returns
    -------
    ndarray
        Of the broadcast shape of ``a`` and ``b``.

    Examples
    --------
    >>> from stumplib import calibration, tasks
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> a = calibration.a_star(40.0, prior)
    >>> rms = rms_error(a, 40.0, prior)
    >>> bool(averaged_error(a, 40.0, prior)[0] <= rms < 0.04)
    True
    """
    off = _prior_residuals(a, b, prior)[1]
    return np.sqrt(np.mean(off**2, axis=-1))


@validation.constrained(
    valley=validation.Instance(ValleyErrors), prior=_UNIFORM
)  # fmt: skip
def valley_rms(valley, prior):
    """:func:`rms_error` along the valleys of :func:`valley_errors`, shape ``(R, J)``.

    NaN where the valley was not found (as ``valley.prior_error``).

    Parameters
    ----------
    valley : ValleyErrors
        The valleys.
    prior : tasks.Uniform
        The prior they were drawn from.

    Returns
    -------
    ndarray, shape (R, J)

    Examples
    --------
    >>> from stumplib import tasks
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> out = valley_errors((32, 32), prior, 1, 1, 0, [1, 4])
    >>> rms = valley_rms(out, prior)
    >>> rms.shape, bool(np.all(rms >= out.prior_error))
    ((1, 2), True)
    """
    b = np.broadcast_to(valley.factors * min(valley.shape), valley.a.shape)
    ok = ~np.isnan(valley.a)
    out = np.full(valley.a.shape, np.nan)
    out[ok] = rms_error(valley.a[ok], b[ok], prior)
    return out


class PlainRuns(NamedTuple):
    r"""Plain constant-step gradient descent on corpora of one shape.

    Parameters
    ----------
    shape : tuple of int
        ``(m, n)``.
    eta : float
        The constant step.
    q_start : ndarray, shape (R,)
        :math:`q = \eta \lambda_{\max}`, the step times the population Hessian's
        largest eigenvalue at each start (:func:`stumplib.descent_lemma.curvature`);
        the descent lemma certifies :math:`q \le 2/9` only.
    steps : ndarray of int, shape (P,)
        Steps of the recorded points (``training.log_steps``; 0 is the start).
    a, b : ndarray, shape (R, P)
        Parameters there (NaN for a run that failed).
    failed : ndarray of bool, shape (R,)
        Runs stopped by a non-finite state or a divergence
        (:func:`stumplib.training.gradient_descent`).
    """

    shape: tuple
    eta: float
    q_start: np.ndarray
    steps: np.ndarray
    a: np.ndarray
    b: np.ndarray
    failed: np.ndarray


def _starts(values):
    starts = values["starts"]
    if starts.ndim != 2 or starts.shape[1] != 2 or not starts.shape[0]:
        raise ValueError(
            f"starts must be of shape (R, 2), one (a, b) a corpus (got {starts.shape})"
        )
    if np.any(starts[:, 1] <= 0):
        raise ValueError("starts must have b > 0 in every row")


@validation.constrained(
    _starts,
    shape=validation.Constraint(
        _shape, ((None, TypeError), ((1, 1), ValueError), ((2, 0), ValueError))
    ),
    prior=_UNIFORM,
    seed=validation.Seed(as_given=True),
    index=validation.Integer(minimum=0),
    starts=validation.Finite(),
    eta=validation.PositiveScalar(),
    steps=validation.Integer(),
    points=validation.Integer(minimum=2),
)
def plain_descent(shape, prior, seed, index, starts, eta, steps, points=25):
    """Plain constant-step gradient descent on the corpora of :func:`run_far`.

    Corpus ``r`` of size ``index`` is drawn from ``stream(seed, index, r)``, ``r <
    len(starts)``, and descends from ``starts[r]`` with the constant step ``eta`` for
    ``steps`` steps (:func:`stumplib.training.corpus_descent`: one corpus at a time,
    no noise rule, no certificate), recorded at ``training.log_steps(steps,
    points)``. A run the descent stops (non-finite, or its loss above twice its
    start's) is marked failed and kept as NaN, not dropped.

    Parameters
    ----------
    shape : (int, int)
        ``(m, n)``.
    prior : tasks.Uniform
        Threshold prior.
    seed : int or tuple of int
        The experiment's seed (as :func:`run_far`).
    index : int
        The size's index in :func:`run_far`'s ``sizes``.
    starts : array_like, shape (R, 2)
        ``(a, b)`` of each corpus's start, ``b > 0``, where the population Hessian has
        a positive eigenvalue (near the valley; ``q_start`` needs it).
    eta : float
        The constant step.
    steps : int
        Steps of every run.
    points : int
        Records, about (log-spaced).

    Returns
    -------
    PlainRuns
        A run the descent stops (a step far above the lemma's diverges) is flagged
        in ``failed``, its ``a`` and ``b`` NaN.

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid, or the population Hessian has no positive
        eigenvalue at a start.

    Examples
    --------
    >>> from stumplib import tasks
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> out = plain_descent((16, 16), prior, 1, 0, [[20.0, 20.0]], 100.0, 50, 3)
    >>> out.steps.tolist(), bool(out.b[0, -1] > 20.0), bool(out.failed[0])
    ([0, 6, 50], True, False)
    """
    m, n = shape
    at = training.log_steps(steps, points)
    R = starts.shape[0]
    a, b = np.full((R, at.size), np.nan), np.full((R, at.size), np.nan)
    failed = np.zeros(R, bool)
    q = np.empty(R)
    for r, (a0, b0) in enumerate(starts):
        try:
            q[r] = eta * descent_lemma.curvature(a0, b0, prior)
        except ValueError as err:  # no curvature there: q_start is undefined
            raise ValueError(
                f"starts must lie where the population Hessian has a positive "
                f"eigenvalue (row {r}, (a, b) = ({a0:g}, {b0:g}): {err})"
            ) from err
    for r, (a0, b0) in enumerate(starts):
        corpus = Corpus.sample(m, n, prior, rng=pretraining.stream(seed, index, r))
        try:
            run = training.corpus_descent(corpus, (a0, b0), eta, steps, points)
        except FloatingPointError:
            failed[r] = True
            continue
        a[r], b[r] = run.a, run.b
    return PlainRuns((m, n), float(eta), q, at, a, b, failed)
