r"""Gradient control on a finite corpus: errors relative to the direction of progress.

At a point :math:`\theta = (a, b)` (typically on the population valley
:math:`a = a^*(b)`) the population gradient :math:`g = \nabla L(\theta)` is the
direction of progress; it shrinks like :math:`b^{-3}`. A corpus of :math:`m` tasks with
:math:`n` examples replaces it by the average of per-task gradients
:math:`G_j = 2 (\hat s(C_j) - s_j) \nabla \hat s(C_j)`. The *relative gradient error*
is

.. math::

    \rho = \frac{|\nabla L_{m,n}(\theta) - g|}{|g|}.

It splits exactly into a task-sampling part and a finite-context part, by pairing each
task with the infinite-context head on the same threshold,
:math:`G_j^{\infty} = 2 (\hat s^\infty(s_j) - s_j) \nabla \hat s^\infty(s_j)` (whose
mean over the prior is :math:`g`):

.. math::

    \nabla L_{m,n} - g = \Bigl[\operatorname{mean}_j G_j^{\infty} - g\Bigr]
    + \Bigl[\operatorname{mean}_j (G_j - G_j^{\infty})\Bigr].

The first bracket has mean zero and root-mean-square
:math:`\sigma_\infty(b) |g| / \sqrt{m}` with :math:`\sigma_\infty` computed here by
quadrature; the second has mean :math:`\beta_n(b) |g|` (the finite-context bias),
estimated by Monte Carlo with the pairing as a control variate. Training is *certified*
at the scales where :math:`\rho` stays below a stated level
(:mod:`stumplib.certified_runs`); the grid crossings here locate where a measured ratio
or bias reaches a level.
"""

import contextlib
from typing import NamedTuple

import numpy as np

from . import corpus as corpus_module
from . import population, validation

_POINT_AND_PRIOR = dict(
    a=validation.Scalar(), b=validation.Scalar(), prior=validation.DensityLaw()
)


def _sampled(values):
    """A prior to sample from as well as to integrate against."""
    validation.sampler(values["prior"], "prior")


@validation.constrained(
    a=validation.Scalar(),
    b=validation.Scalar(),
    s=validation.UnitInterval(),
    features=validation.Features(),
)
def population_task_gradients(a, b, s, features=None):
    r"""Infinite-context per-task gradients :math:`G^{\infty}(s)`, ``(len(s), 2)``.

    Parameters
    ----------
    a, b : float
        Head parameters.
    s : float or array_like, shape (k,)
        Thresholds in [0, 1].
    features : tasks.Uniform or tasks.Beta, optional
        Feature law (uniform on [0, 1] when omitted).

    Returns
    -------
    ndarray, shape (k, 2)

    Raises
    ------
    ValueError
        If ``a`` or ``b`` is not a finite scalar, or ``s`` is not 1-D in [0, 1].

    Examples
    --------
    >>> G = population_task_gradients(9.0, 10.0, [0.3, 0.5, 0.7])
    >>> G.shape, bool(np.all(G[:, 0] * G[:, 1] <= 0))
    ((3, 2), True)
    """
    s = np.atleast_1d(s)
    if s.ndim != 1:  # checked here: infinite_corpus.task_gradients passes s on
        raise ValueError(f"s must be 1-D (got shape {s.shape})")
    r, r_a, r_b = population.residual(a, b, s, features=features)
    return np.stack([2.0 * r * r_a, 2.0 * r * r_b], axis=-1)


def _population_gradient(a, b, prior):
    g = np.array(population.gradient(a, b, prior))
    norm = float(np.linalg.norm(g))
    if not norm > 0:
        raise ValueError(f"the population gradient vanishes at (a, b) = ({a}, {b})")
    return g, norm


@validation.constrained(
    corpus=validation.Instance(corpus_module.Corpus), **_POINT_AND_PRIOR
)
def relative_error(corpus, a, b, prior):
    r"""The relative gradient error of one corpus at a point :math:`(a, b)`.

    :math:`|\nabla L_{m,n}(a, b) - \nabla L(a, b)| / |\nabla L(a, b)|`.

    Parameters
    ----------
    corpus : stumplib.corpus.Corpus
        The corpus (its thresholds must be drawn from ``prior``).
    a, b : float
        The point (typically on the population valley).
    prior : tasks.Uniform or tasks.Beta
        The threshold prior defining the population loss.

    Examples
    --------
    >>> from stumplib import tasks
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> corpus = corpus_module.Corpus.sample(400, 400, prior, rng=0)
    >>> round(relative_error(corpus, 9.0, 10.0, prior), 3)
    0.293
    """
    g, norm = _population_gradient(a, b, prior)
    return float(np.linalg.norm(np.array(corpus.gradient(a, b)) - g) / norm)


@validation.constrained(
    validation.head_points,
    _sampled,
    a=validation.Finite(),
    b=validation.Finite(),
    prior=validation.DensityLaw(),
    repetitions=validation.Integer(),
    m=validation.Integer(),
    n=validation.Integer(),
    rng=validation.Rng(),
)
def relative_errors(m, n, a, b, prior, repetitions, rng=None):
    """Relative gradient errors of independent corpora at several points.

    Parameters
    ----------
    m, n : int
        Corpus size.
    a, b : array_like, shape (k,)
        Points (typically along the valley).
    prior : tasks.Uniform or tasks.Beta
    repetitions : int
        Number of independent corpora.
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    ndarray, shape (repetitions, k)

    Examples
    --------
    >>> from stumplib import tasks
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> rho = relative_errors(100, 100, [9.0, 18.0], [10.0, 20.0], prior, 3, rng=0)
    >>> rho.shape, bool(np.all(rho > 0))
    ((3, 2), True)
    """
    a, b = (np.atleast_1d(np.asarray(v, dtype=float)) for v in (a, b))
    rng = np.random.default_rng(rng)
    reference = [_population_gradient(ai, bi, prior) for ai, bi in zip(a, b)]
    out = np.empty((repetitions, a.size))
    for r in range(repetitions):
        sample = corpus_module.Corpus.sample(m, n, prior, rng=rng)
        for k, (ai, bi) in enumerate(zip(a, b)):
            g, norm = reference[k]
            out[r, k] = np.linalg.norm(np.array(sample.gradient(ai, bi)) - g) / norm
    return out


def _task_gradients(a, b, prior, features=None):
    """Threshold nodes ``s``, weights ``w``, per-task gradients ``G^inf(s)``, ``g``.

    ``G^inf(s) = 2 r (r_a, r_b)`` at each node (rows) and its prior mean ``g = w @ G``,
    by the population quadrature over thresholds.
    """
    s, q, w = population.threshold_nodes(a, b, prior)
    r, r_a, r_b = population.residual(a, b, s, q, features=features)
    G = np.stack([2.0 * r * r_a, 2.0 * r * r_b], axis=-1)
    return s, w, G, w @ G


def _norm(g, a, b):
    """``|g|``, or a ``ValueError`` naming ``a`` and ``b`` where it vanishes."""
    norm = np.linalg.norm(g)
    if not norm > 0:
        raise ValueError(
            f"the population gradient vanishes to rounding at (a, b) = ({a:g}, {b:g}): "
            "a ratio to it is undefined there"
        )
    return norm


@validation.constrained(**_POINT_AND_PRIOR, features=validation.Features())
def sampling_coefficient(a, b, prior, features=None):
    r""":math:`\sigma_\infty`: RMS relative task-sampling error times :math:`\sqrt{m}`.

    :math:`\sigma_\infty ^2 = \operatorname{tr} \operatorname{Cov}_{s \sim
    \mathrm{prior}}(G^{\infty}(s)) / |g|^2`, by the population
    quadrature over thresholds. An infinite-context corpus of :math:`m` tasks has
    :math:`\mathbb E |\operatorname{mean} _j G^{\infty}(s_j) - g|^2 = \sigma_\infty ^2
    |g|^2 / m` exactly.

    Parameters
    ----------
    a, b : float
        Head parameters.
    prior : tasks.Uniform or tasks.Beta
        Threshold prior.
    features : tasks.Uniform or tasks.Beta, optional
        Feature law (uniform on [0, 1] when omitted).

    Returns
    -------
    float

    Raises
    ------
    ValueError, TypeError
        As :func:`stumplib.population.threshold_nodes`.

    Examples
    --------
    >>> from stumplib import calibration, tasks
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> b = 400.0
    >>> sigma = sampling_coefficient(float(calibration.a_star(b, prior)), b, prior)
    >>> constant = calibration.sampling_constant(prior)  # the limit of sigma / sqrt(b)
    >>> round(float(sigma / np.sqrt(b)), 2), round(constant, 2)
    (1.24, 1.23)
    """
    _, w, G, g = _task_gradients(a, b, prior, features)
    second = float(w @ np.sum(G**2, axis=-1))
    return float(np.sqrt(max(second - g @ g, 0.0)) / _norm(g, a, b))


class SquaredErrorLaw(NamedTuple):
    r"""Mean and variance of the squared relative task-sampling error, :math:`m` tasks.

    Parameters
    ----------
    mean : float
        :math:`\mathbb E |\bar X|^2 = \sigma_\infty ^2 / m`.
    variance : float
        :math:`\operatorname{Var} |\bar X|^2`.

    Examples
    --------
    >>> from stumplib import tasks
    >>> law = squared_error_law(9.0, 10.0, tasks.Uniform(0.1, 0.9), m=100)
    >>> round(law.mean, 4), round(law.variance, 4)
    (0.0724, 0.0108)
    """

    mean: float
    variance: float


@validation.constrained(**_POINT_AND_PRIOR, m=validation.Integer())
def squared_error_law(a, b, prior, m):
    r"""Exact mean and variance of the squared relative task-sampling error.

    That is, of :math:`|\operatorname{mean}_j G^{\infty}(s_j) - g|^2 / |g|^2` over
    :math:`m` tasks. With :math:`X = (G^{\infty}(s) - g) / |g|` (mean zero, covariance
    :math:`\Sigma`) and :math:`m` independent thresholds,
    :math:`\mathbb E |\bar X|^2 = \operatorname{tr} \Sigma / m` and

    .. math::

        \mathbb E |\bar X|^4 = \frac{\mathbb E|X|^4 + (m - 1)
        \bigl((\operatorname{tr} \Sigma)^2 + 2 \operatorname{tr} \Sigma^2\bigr)}{m^3},

    all by the population quadrature over thresholds (as :func:`sampling_coefficient`).
    They give the Monte Carlo check of :func:`task_sampling_errors` its standard error
    without estimating a heavy-tailed variance from the sample.

    Parameters
    ----------
    a, b : float
        Head parameters.
    prior : tasks.Uniform or tasks.Beta
        Threshold prior.
    m : int
        Number of tasks.

    Returns
    -------
    SquaredErrorLaw

    Raises
    ------
    ValueError, TypeError
        As :func:`stumplib.population.threshold_nodes`, or if ``m`` is not a positive
        integer.

    Examples
    --------
    >>> from stumplib import tasks
    >>> law = squared_error_law(9.0, 10.0, tasks.Uniform(0.1, 0.9), m=100)
    >>> sigma = sampling_coefficient(9.0, 10.0, tasks.Uniform(0.1, 0.9))
    >>> bool(np.isclose(law.mean, sigma**2 / 100))
    True
    """
    _, w, G, g = _task_gradients(a, b, prior)
    X = (G - g) / _norm(g, a, b)
    sq = np.sum(X**2, axis=-1)
    sigma = (w[:, None] * X).T @ X
    trace, fourth = float(w @ sq), float(w @ sq**2)
    second = float(np.sum(sigma * sigma))
    moment4 = (fourth + (m - 1) * (trace**2 + 2 * second)) / m**3
    mean = trace / m
    return SquaredErrorLaw(mean, moment4 - mean**2)


@validation.constrained(
    _sampled,
    **_POINT_AND_PRIOR,
    m=validation.Integer(),
    repetitions=validation.Integer(),
    rng=validation.Rng(),
)
def task_sampling_errors(a, b, prior, m, repetitions, rng=None):
    r"""Relative errors of infinite-context corpora.

    :math:`|\operatorname{mean}_j G^{\infty}(s_j) - g| / |g|`: the task-sampling part of
    the corpus gradient error alone, :math:`m` thresholds drawn
    from ``prior``, each with the infinite-context head. Returns an array of shape
    ``(repetitions,)``; its mean square is :math:`\sigma_\infty ^2 / m`
    (see :func:`sampling_coefficient`).

    Examples
    --------
    >>> from stumplib import tasks
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> errors = task_sampling_errors(9.0, 10.0, prior, 100, 2000, rng=0)
    >>> law = squared_error_law(9.0, 10.0, prior, m=100)
    >>> bool(abs(np.mean(errors**2) - law.mean) < 4 * np.sqrt(law.variance / 2000))
    True
    """
    g, norm = _population_gradient(a, b, prior)
    s = prior.sample(m * repetitions, np.random.default_rng(rng))
    G = population_task_gradients(a, b, s).reshape(repetitions, m, 2).mean(axis=1)
    return np.linalg.norm(G - g, axis=-1) / norm


@validation.constrained(**_POINT_AND_PRIOR, s_max=validation.UnitInterval())
def unseen_share(a, b, prior, s_max):
    r""":math:`|g - g_{s \le s_{\max}}| / |g|`.

    The part of the population gradient from :math:`s > s_{\max}`.

    :math:`g_{s \le s_{\max}}` integrates the per-task gradients over thresholds up to
    :math:`s_{\max}` only; the ratio is the relative error of a gradient that never sees
    a threshold above :math:`s_{\max}` (as a corpus of :math:`m` tasks typically does
    not for :math:`s_{\max} = 1 - 1/m` under a prior reaching 1).

    Parameters
    ----------
    a, b : float
        Head parameters.
    prior : tasks.Uniform or tasks.Beta
        Threshold prior.
    s_max : float
        Largest threshold seen, in [0, 1].

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``a`` or ``b`` is not a finite scalar or ``s_max`` leaves [0, 1].
    TypeError
        If ``prior`` is not a law with a density.

    Examples
    --------
    >>> from stumplib import tasks
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> unseen_share(9.0, 10.0, prior, 0.9)
    0.0
    >>> round(unseen_share(9.0, 10.0, prior, 0.5), 3)
    1.036
    """
    s_max = float(s_max)
    s, w, G, g = _task_gradients(a, b, prior)
    seen = (w * (s <= s_max)) @ G
    return float(np.linalg.norm(g - seen) / _norm(g, a, b))


class ContextBias(NamedTuple):
    r"""Finite-context part of the gradient error, relative to :math:`|g|`.

    ``ratio`` is :math:`\beta_n = |\mathbb E(G - G^{\infty})| / |g|` estimated from the
    sample, ``se`` its standard error (delta method), ``spread`` the per-task spread
    :math:`\sigma_n = \sqrt{\operatorname{tr} \operatorname{Cov} G} / |g|` at this
    context size, and ``vector`` the estimated mean of :math:`(G - G^{\infty}) / |g|`.
    A corpus of :math:`m` tasks then has
    :math:`\mathbb E \rho^2 = \beta_n^2 + \sigma_n^2 / m` (up to the error of the
    estimates).

    Parameters
    ----------
    ratio : float
        :math:`\beta_n`.
    se : float
        Its standard error.
    spread : float
        :math:`\sigma_n`.
    vector : ndarray, shape (2,)
        Mean of :math:`(G - G^{\infty}) / |g|`.

    Examples
    --------
    >>> from stumplib import tasks
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> corpus = corpus_module.Corpus.sample(400, 40, prior, rng=0)
    >>> bias = context_bias(corpus, 9.0, 10.0, prior)
    >>> round(bias.ratio, 3), round(bias.se, 3), round(bias.spread, 3)
    (0.036, 0.064, 3.013)
    """

    ratio: float
    se: float
    spread: float
    vector: np.ndarray


@validation.constrained(
    corpus=validation.Instance(corpus_module.Corpus), **_POINT_AND_PRIOR
)
def context_bias(corpus, a, b, prior):
    r"""Estimate the finite-context bias :math:`\beta_n(b)` from one (large) corpus.

    Each task's gradient is paired with the infinite-context gradient at its own
    threshold; the difference has mean :math:`\mathbb E_n G - g` and a much smaller
    variance than :math:`G` itself (a control variate with known mean).

    Parameters
    ----------
    corpus : Corpus
        A corpus of at least 2 tasks.
    a, b : float
        Head parameters.
    prior : tasks.Uniform or tasks.Beta
        The threshold prior the corpus was drawn from.

    Returns
    -------
    ContextBias

    Raises
    ------
    TypeError
        If ``corpus`` is not a :class:`~stumplib.corpus.Corpus`.
    ValueError
        If ``a`` or ``b`` is not a finite scalar, or the corpus has fewer than 2 tasks.

    Examples
    --------
    >>> from stumplib import tasks
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> corpus = corpus_module.Corpus.sample(400, 40, prior, rng=0)
    >>> bias = context_bias(corpus, 9.0, 10.0, prior)
    >>> bool(bias.ratio > 0 and bias.se > 0), bias.vector.shape
    (True, (2,))
    """
    _, norm = _population_gradient(a, b, prior)
    total = corpus.task_gradients(a, b) / norm
    diff = total - population_task_gradients(a, b, corpus.s) / norm
    m = diff.shape[0]
    if m < 2:
        raise ValueError("context_bias needs a corpus of at least 2 tasks")
    mean = diff.mean(axis=0)
    cov = np.cov(diff.T) / m
    ratio = float(np.linalg.norm(mean))
    direction = mean / ratio if ratio > 0 else np.array([1.0, 0.0])
    se = float(np.sqrt(max(direction @ cov @ direction, 0.0)))
    spread = float(np.sqrt(np.trace(np.cov(total.T))))
    return ContextBias(ratio, se, spread, mean)


def _measurements(biases):
    """``ratio, se, spread`` of a sequence of :class:`ContextBias`, as finite arrays."""
    try:
        items = list(biases)
    except TypeError:
        items = None
    if items is None or not all(isinstance(r, ContextBias) for r in items):
        raise TypeError(
            f"biases must be a sequence of ContextBias (got {type(biases).__name__})"
        )
    return (
        validation.finite([getattr(r, k) for r in items], f"biases.{k}")
        for k in ("ratio", "se", "spread")
    )


def _non_negative_or_nan(value, name):
    value = validation.real(value, name)  # NaN counts as above the level
    if np.any(value < 0):
        raise ValueError(
            f"{name} must be non-negative (NaN is allowed: above the level)"
        )
    return value


def _grid(values):
    b, ratio = values["b"], values["ratio"]
    if b.ndim != 1 or b.shape != ratio.shape:
        raise ValueError(
            f"b and ratio must be 1-D of equal length (got {b.shape} and {ratio.shape})"
        )
    if b.size == 0:
        raise ValueError("b must not be empty")
    if np.any(np.diff(b) <= 0):
        raise ValueError("b must be increasing")


@validation.constrained(
    _grid,
    b=validation.Finite(),
    ratio=validation.Constraint(
        _non_negative_or_nan,
        ((-1.0, ValueError), ("0.1", TypeError), (None, TypeError)),
    ),
    level=validation.PositiveScalar(),
)
def certified_end(b, ratio, level):
    r"""End of the certified interval on a grid of scales.

    Parameters
    ----------
    b : array_like, shape (k,)
        Increasing scales.
    ratio : array_like, shape (k,)
        Relative gradient error at each scale (e.g. a root-mean-square over corpora),
        non-negative; ``NaN`` (a failed measurement) and ``inf`` count as above the
        level.
    level : float
        Certification level.

    Returns
    -------
    float
        The largest :math:`b_i` such that :math:`\rho_k \le \ell` for every
        :math:`k \le i`, :math:`\rho` the ``ratio`` and :math:`\ell` the ``level``
        (the interval is the initial run of the grid below the level); ``nan`` if
        :math:`\rho_0 > \ell`.

    Raises
    ------
    ValueError
        If ``ratio`` is negative, ``b`` and ``ratio`` are not 1-D of equal length, or
        ``b`` is empty or not increasing.

    Examples
    --------
    >>> certified_end([10.0, 20.0, 40.0, 80.0], [0.1, 0.2, 0.6, 0.9], level=0.5)
    20.0
    """
    above = np.flatnonzero(~(ratio <= level))
    stop = above[0] if above.size else b.size
    return float(b[stop - 1]) if stop > 0 else float("nan")


class GridCrossing(NamedTuple):
    """Where values on a grid of scales first reach a level.

    ``scale`` is the crossing, interpolated log-linearly; ``index`` the first grid
    point at or above the level.

    Parameters
    ----------
    scale : float
        The interpolated crossing.
    index : int
        The first grid point at or above the level.

    Examples
    --------
    >>> found = crossing([10.0, 20.0, 40.0], [0.1, 0.2, 0.8], level=0.4)
    >>> round(found.scale, 4), found.index  # 20 sqrt(2), between grid points 1 and 2
    (28.2843, 2)
    """

    scale: float
    index: int


def _increasing_grid(values):
    b, on_grid = values["b"], values["values"]
    if b.ndim != 1 or b.shape != on_grid.shape:
        raise ValueError(
            "b and values must be 1-D of equal length "
            f"(got {b.shape} and {on_grid.shape})"
        )
    if np.any(np.diff(b) <= 0):
        raise ValueError("b must be increasing")


@validation.constrained(
    _increasing_grid,
    b=validation.Positive(),
    values=validation.Positive(),
    level=validation.PositiveScalar(),
)
def crossing(b, values, level):
    """First scale at which ``values`` reaches ``level``, interpolated log-linearly.

    Parameters
    ----------
    b : array_like, shape (k,)
        Increasing positive scales.
    values : array_like, shape (k,)
        Positive values (e.g. a bias or an RMS error) on the scales.
    level : float
        The level to reach.

    Returns
    -------
    GridCrossing
        ``scale``, where the log of ``values`` crosses the log of ``level`` between the
        last grid point below the level and the first one at or above it, and ``index``,
        that first grid point at or above the level.

    Raises
    ------
    ValueError
        If ``values[0] >= level`` or ``values`` never reaches ``level``.

    Examples
    --------
    >>> scale, i = crossing([10.0, 20.0, 40.0], [0.1, 0.2, 0.8], level=0.4)
    >>> round(scale, 6), i  # 20 * 2 ** (log 2 / log 4) = 20 * sqrt(2)
    (28.284271, 2)
    """
    b, values = np.asarray(b, dtype=float), np.asarray(values, dtype=float)
    reached = np.flatnonzero(values >= level)
    if reached.size == 0 or reached[0] == 0:
        raise ValueError("values must start below level and reach it on the grid")
    i = int(reached[0])
    t = np.log(level / values[i - 1]) / np.log(values[i] / values[i - 1])
    return GridCrossing(
        float(np.exp(np.log(b[i - 1]) + t * np.log(b[i] / b[i - 1]))), i
    )


class Crossing(NamedTuple):
    """The scale at which a measured bias reaches a level, and its standard error.

    Parameters
    ----------
    scale : float
        The crossing scale.
    se : float
        Its standard error.

    Examples
    --------
    >>> biases = [ContextBias(r, 0.01, 1.0, np.zeros(2)) for r in (0.1, 0.2, 0.8)]
    >>> crossed = bias_crossing([10.0, 20.0, 40.0], biases, level=0.4)
    >>> round(crossed.scale, 4), round(crossed.se, 4)
    (28.2843, 0.1768)
    """

    scale: float
    se: float


def _biases(value, name):
    with contextlib.suppress(TypeError):  # not iterable: named by _measurements
        value = list(value)  # read once
    tuple(_measurements(value))  # each a finite array
    return value


def _bias_grid(values):
    beta = next(_measurements(values["biases"]))
    _increasing_grid(dict(b=values["b"], values=validation.positive(beta, "values")))


@validation.constrained(
    _bias_grid,
    biases=validation.Constraint(
        _biases, ((None, TypeError), ([0.1], TypeError), ("x", TypeError))
    ),
    b=validation.Positive(),
    level=validation.PositiveScalar(),
)
def bias_crossing(b, biases, level):
    r"""Scale at which the finite-context bias :math:`\beta_n` first reaches ``level``.

    The crossing is interpolated log-linearly (:func:`crossing`); its standard error
    comes from the standard error of :math:`\beta_n` at the first grid point at or
    above the level, carried through the local slope
    :math:`d \log \beta_n / d \log b` of that grid interval (delta method).

    Parameters
    ----------
    b : array_like, shape (k,)
        Increasing positive scales at which the bias was measured.
    biases : sequence of ContextBias
        The measurements at those scales (one context size ``n``).
    level : float
        The level to reach.

    Returns
    -------
    Crossing

    Raises
    ------
    ValueError
        If the bias does not start below ``level`` and reach it on the grid, or does
        not grow across the crossing interval (no local slope to carry the error).

    Examples
    --------
    >>> biases = [ContextBias(r, 0.01, 1.0, np.zeros(2)) for r in (0.1, 0.2, 0.8)]
    >>> crossed = bias_crossing([10.0, 20.0, 40.0], biases, level=0.4)
    >>> round(crossed.scale, 4), round(crossed.se, 4)
    (28.2843, 0.1768)
    """
    beta, se, _ = _measurements(biases)
    scale, i = crossing(b, beta, level)
    b = np.asarray(b, dtype=float)
    slope = np.log(beta[i] / beta[i - 1]) / np.log(b[i] / b[i - 1])
    if not slope > 0:
        raise ValueError("the bias must grow across the crossing interval")
    return Crossing(scale, float(scale * (se[i] / beta[i]) / slope))
