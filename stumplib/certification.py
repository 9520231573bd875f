"""Gradient control on a finite corpus: errors relative to the direction of progress.

At a point ``theta = (a, b)`` (typically on the population valley ``a = a*(b)``) the
population gradient ``g = grad L(theta)`` is the direction of progress; it shrinks like
``b^{-3}``. A corpus of ``m`` tasks with ``n`` examples replaces it by the average of
per-task gradients ``G_j = 2 (s_hat(C_j) - s_j) grad s_hat(C_j)``. The *relative
gradient error* is ::

    rho = |grad L_{m,n}(theta) - g| / |g|.

It splits exactly into a task-sampling part and a finite-context part, by pairing each
task with the infinite-context head on the same threshold,
``G_j^inf = 2 (s_hat_inf(s_j) - s_j) grad s_hat_inf(s_j)`` (whose mean over the prior is
``g``)::

    grad L_{m,n} - g = [mean_j G_j^inf - g] + [mean_j (G_j - G_j^inf)].

The first bracket has mean zero and root-mean-square ``sigma_inf(b) |g| / sqrt(m)``
with ``sigma_inf`` computed here by quadrature; the second has mean
``beta_n(b) |g|`` (the finite-context bias), estimated by Monte Carlo with the pairing
as a control variate. Training is *certified* at the scales where ``rho`` stays below a
stated level.
"""

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from . import calibration, descent_lemma, population, sweep, tasks, training, validation
from . import corpus as corpus_module


def task_gradients(corpus, a, b):
    """Per-task gradients ``G_j = 2 (s_hat_j - s_j) (d/da, d/db) s_hat_j``, ``(m, 2)``.

    Their mean over tasks is the corpus gradient ``grad L_{m,n}(a, b)``. ``corpus`` may
    be a :class:`~stumplib.corpus.Follower` of the corpus (along a run).

    Parameters
    ----------
    corpus : Corpus or Follower
        The corpus of ``m`` tasks.
    a, b : float
        Head parameters.

    Returns
    -------
    ndarray, shape (m, 2)

    Raises
    ------
    TypeError
        If ``corpus`` is not a :class:`~stumplib.corpus.Corpus` or
        :class:`~stumplib.corpus.Follower`.
    ValueError
        If ``a`` or ``b`` is not a finite scalar.
    """
    validation.instance(
        corpus, (corpus_module.Corpus, corpus_module.Follower), "corpus"
    )
    return corpus.unchecked_task_gradients(*validation.scalar_parameters(a, b))


def noise_ratio(gradients):
    """The corpus's own estimate of its relative task-sampling error.

    ``sqrt(tr Cov_j(G_j) / m) / |mean_j G_j|`` for per-task gradients ``G_j`` (rows of
    ``gradients``, shape ``(m, 2)``, ``m >= 2``; see :func:`task_gradients`): the
    standard error of the corpus gradient relative to its norm. It needs no population
    quantity; its expectation is about ``sigma_n / sqrt(m)`` relative to ``|g|``, the
    sampling part of the relative gradient error, and it does not see the finite-context
    bias ``beta_n``.

    Parameters
    ----------
    gradients : array_like, shape (m, 2)
        Per-task gradients, ``m >= 2``.

    Returns
    -------
    float
        The ratio (``inf`` when the mean gradient vanishes).

    Raises
    ------
    ValueError
        If ``gradients`` is not finite of shape ``(m, 2)`` with ``m >= 2``.
    """
    gradients = validation.finite(gradients, "gradients")
    if gradients.ndim != 2 or gradients.shape[1] != 2 or gradients.shape[0] < 2:
        raise ValueError(
            f"gradients must have shape (m, 2) with m >= 2 (got {gradients.shape})"
        )
    return unchecked_noise_ratio(gradients)


def unchecked_noise_ratio(gradients):
    """:func:`noise_ratio` without its checks, for the per-task gradients of a run.

    Parameters
    ----------
    gradients : ndarray, shape (m, 2)
        Finite per-task gradients, ``m >= 2`` (as from
        :meth:`stumplib.corpus.Corpus.unchecked_task_gradients`).

    Returns
    -------
    float
        As :func:`noise_ratio`.
    """
    m = gradients.shape[0]
    # scale-free: divided by a power of two near the largest entry (exact), so that
    # neither the squares nor the sums overflow or underflow
    _, exponent = np.frexp(np.max(np.abs(gradients)))
    gradients = np.ldexp(gradients, -exponent)
    mean = gradients.mean(axis=0)
    spread = np.sum((gradients - mean) ** 2) / (
        (m - 1) * m
    )  # elementwise: no BLAS rounding
    norm = float(np.sqrt(mean[0] ** 2 + mean[1] ** 2))
    return float(np.sqrt(spread) / norm) if norm > 0 else float("inf")


def population_task_gradients(a, b, s, features=None):
    """Infinite-context per-task gradients ``G^inf(s)``, shape ``(len(s), 2)``.

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
    """
    a, b = validation.scalar_parameters(a, b)
    s = np.atleast_1d(validation.unit_interval(s, "s"))
    if s.ndim != 1:
        raise ValueError(f"s must be 1-D (got shape {s.shape})")
    r, r_a, r_b = population.residual(a, b, s, features=features)
    return np.stack([2.0 * r * r_a, 2.0 * r * r_b], axis=-1)


def _population_gradient(a, b, prior):
    g = np.array(population.gradient(a, b, prior))
    norm = float(np.linalg.norm(g))
    if not norm > 0:
        raise ValueError(f"the population gradient vanishes at (a, b) = ({a}, {b})")
    return g, norm


def relative_error(corpus, a, b, prior):
    """``|grad L_{m,n}(a, b) - grad L(a, b)| / |grad L(a, b)|`` for one corpus.

    Parameters
    ----------
    corpus : stumplib.corpus.Corpus
        The corpus (its thresholds must be drawn from ``prior``).
    a, b : float
        The point (typically on the population valley).
    prior : tasks.Uniform or tasks.Beta
        The threshold prior defining the population loss.
    """
    validation.instance(corpus, corpus_module.Corpus, "corpus")
    a, b = validation.scalar_parameters(a, b)
    g, norm = _population_gradient(a, b, prior)
    return float(np.linalg.norm(np.array(corpus.gradient(a, b)) - g) / norm)


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
    """
    a, b, repetitions = _error_points(a, b, prior, repetitions)
    m, n = validation.count(m, "m"), validation.count(n, "n")
    rng = np.random.default_rng(validation.rng(rng))
    reference = [_population_gradient(ai, bi, prior) for ai, bi in zip(a, b)]
    out = np.empty((repetitions, a.size))
    for r in range(repetitions):
        sample = corpus_module.Corpus.sample(m, n, prior, rng=rng)
        for k, (ai, bi) in enumerate(zip(a, b)):
            g, norm = reference[k]
            out[r, k] = np.linalg.norm(np.array(sample.gradient(ai, bi)) - g) / norm
    return out


def _error_points(a, b, prior, repetitions):
    """The points and the count of corpora of :func:`relative_errors`, checked.

    And the prior.
    """
    a, b = (
        np.atleast_1d(np.asarray(v, dtype=float)) for v in validation.parameters(a, b)
    )
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(
            f"a and b must be 1-D of equal length (got {a.shape} and {b.shape})"
        )
    validation.sampler(prior, "prior")
    return a, b, validation.count(repetitions, "repetitions")


def sampling_coefficient(a, b, prior, features=None):
    """``sigma_inf``: RMS relative task-sampling error times ``sqrt(m)``.

    ``sigma_inf^2 = tr Cov_{s ~ prior}(G^inf(s)) / |g|^2``, by the population
    quadrature over thresholds. An infinite-context corpus of ``m`` tasks has
    ``E |mean_j G^inf(s_j) - g|^2 = sigma_inf^2 |g|^2 / m`` exactly.

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
    """
    s, q, w = population.threshold_nodes(a, b, prior)
    r, r_a, r_b = population.residual(a, b, s, q, features=features)
    G = np.stack([2.0 * r * r_a, 2.0 * r * r_b], axis=-1)
    g = w @ G
    second = float(w @ np.sum(G**2, axis=-1))
    return float(np.sqrt(max(second - g @ g, 0.0)) / np.linalg.norm(g))


class SquaredErrorLaw(NamedTuple):
    """Mean and variance of the squared relative task-sampling error of ``m`` tasks.

    Parameters
    ----------
    mean : float
        ``E |X_bar|^2 = sigma_inf^2 / m``.
    variance : float
        ``Var |X_bar|^2``.
    """

    mean: float
    variance: float


def squared_error_law(a, b, prior, m):
    """Exact mean and variance of ``|mean_j G^inf(s_j) - g|^2 / |g|^2``, ``m`` tasks.

    With ``X = (G^inf(s) - g) / |g|`` (mean zero, covariance ``Sigma``) and ``m``
    independent thresholds, ``E |X_bar|^2 = tr Sigma / m`` and ::

        E |X_bar|^4 = [E|X|^4 + (m - 1) ((tr Sigma)^2 + 2 tr Sigma^2)] / m^3,

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
    """
    m = validation.count(m, "m")
    s, q, w = population.threshold_nodes(a, b, prior)
    r, r_a, r_b = population.residual(a, b, s, q)
    G = np.stack([2.0 * r * r_a, 2.0 * r * r_b], axis=-1)
    g = w @ G
    X = (G - g) / np.linalg.norm(g)
    sq = np.sum(X**2, axis=-1)
    sigma = (w[:, None] * X).T @ X
    trace, fourth = float(w @ sq), float(w @ sq**2)
    second = float(np.sum(sigma * sigma))
    moment4 = (fourth + (m - 1) * (trace**2 + 2 * second)) / m**3
    mean = trace / m
    return SquaredErrorLaw(mean, moment4 - mean**2)


def task_sampling_errors(a, b, prior, m, repetitions, rng=None):
    """Relative errors ``|mean_j G^inf(s_j) - g| / |g|`` of infinite-context corpora.

    The task-sampling part of the corpus gradient error alone: ``m`` thresholds drawn
    from ``prior``, each with the infinite-context head. Returns an array of shape
    ``(repetitions,)``; its mean square is ``sigma_inf^2 / m``
    (see :func:`sampling_coefficient`).
    """
    a, b = validation.scalar_parameters(a, b)
    m = validation.count(m, "m")
    repetitions = validation.count(repetitions, "repetitions")
    validation.sampler(prior, "prior")
    g, norm = _population_gradient(a, b, prior)
    s = prior.sample(m * repetitions, np.random.default_rng(validation.rng(rng)))
    G = population_task_gradients(a, b, s).reshape(repetitions, m, 2).mean(axis=1)
    return np.linalg.norm(G - g, axis=-1) / norm


def unseen_share(a, b, prior, s_max):
    """``|g - g_{s <= s_max}| / |g|``.

    The part of the population gradient from ``s > s_max``.

    ``g_{s <= s_max}`` integrates the per-task gradients over thresholds up to
    ``s_max`` only; the ratio is the relative error of a gradient that never sees a
    threshold above ``s_max`` (as a corpus of ``m`` tasks typically does not for
    ``s_max = 1 - 1/m`` under a prior reaching 1).

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
    """
    a, b = validation.scalar_parameters(a, b)
    s_max = float(validation.unit_interval(s_max, "s_max"))
    s, q, w = population.threshold_nodes(a, b, prior)
    r, r_a, r_b = population.residual(a, b, s, q)
    G = np.stack([2.0 * r * r_a, 2.0 * r * r_b], axis=-1)
    g = w @ G
    seen = (w * (s <= s_max)) @ G
    return float(np.linalg.norm(g - seen) / np.linalg.norm(g))


class ContextBias(NamedTuple):
    """Finite-context part of the gradient error, relative to ``|g|``.

    ``ratio`` is ``beta_n = |E(G - G^inf)| / |g|`` estimated from the sample, ``se`` its
    standard error (delta method), ``spread`` the per-task spread
    ``sigma_n = sqrt(tr Cov G) / |g|`` at this context size, and ``vector`` the
    estimated mean of ``(G - G^inf) / |g|``. A corpus of ``m`` tasks then has
    ``E rho^2 = beta_n^2 + sigma_n^2 / m`` (up to the error of the estimates).

    Parameters
    ----------
    ratio : float
        ``beta_n``.
    se : float
        Its standard error.
    spread : float
        ``sigma_n``.
    vector : ndarray, shape (2,)
        Mean of ``(G - G^inf) / |g|``.
    """

    ratio: float
    se: float
    spread: float
    vector: np.ndarray


def context_bias(corpus, a, b, prior):
    """Estimate the finite-context bias ``beta_n(b)`` from one (large) corpus.

    Each task's gradient is paired with the infinite-context gradient at its own
    threshold; the difference has mean ``E_n G - g`` and a much smaller variance than
    ``G`` itself (a control variate with known mean).

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
    """
    validation.instance(corpus, corpus_module.Corpus, "corpus")
    a, b = validation.scalar_parameters(a, b)
    _, norm = _population_gradient(a, b, prior)
    total = task_gradients(corpus, a, b) / norm
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


def certified_end(b, ratio, level):
    """End of the certified interval on a grid of scales.

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
        The largest ``b[i]`` such that ``ratio[:i+1] <= level`` (the interval is the
        initial run of the grid below the level); ``nan`` if ``ratio[0] > level``.

    Raises
    ------
    ValueError
        If ``ratio`` is negative, ``b`` and ``ratio`` are not 1-D of equal length, or
        ``b`` is empty or not increasing.
    """
    b = validation.finite(b, "b")
    ratio = validation.real(ratio, "ratio")  # NaN counts as above the level
    if np.any(ratio < 0):
        raise ValueError("ratio must be non-negative (NaN is allowed: above the level)")
    level = validation.positive_scalar(level, "level")
    if b.ndim != 1 or b.shape != ratio.shape:
        raise ValueError(
            f"b and ratio must be 1-D of equal length (got {b.shape} and {ratio.shape})"
        )
    if b.size == 0:
        raise ValueError("b must not be empty")
    if np.any(np.diff(b) <= 0):
        raise ValueError("b must be increasing")
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
    """

    scale: float
    index: int


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
        ``scale``, where ``log values`` crosses ``log level`` between the last grid
        point below the level and the first one at or above it, and ``index``, that
        first grid point at or above the level.

    Raises
    ------
    ValueError
        If ``values[0] >= level`` or ``values`` never reaches ``level``.
    """
    b = validation.positive(b, "b")
    values = validation.positive(values, "values")
    level = validation.positive_scalar(level, "level")
    if b.ndim != 1 or b.shape != values.shape:
        raise ValueError(
            "b and values must be 1-D of equal length "
            f"(got {b.shape} and {values.shape})"
        )
    if np.any(np.diff(b) <= 0):
        raise ValueError("b must be increasing")
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
    """

    scale: float
    se: float


def bias_crossing(b, biases, level):
    """Scale at which the finite-context bias ``beta_n`` first reaches ``level``.

    The crossing is interpolated log-linearly (:func:`crossing`); its standard error
    comes from the standard error of ``beta_n`` at the first grid point at or above the
    level, carried through the local slope ``d log beta_n / d log b`` of that grid
    interval (delta method).

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
    """
    beta, se, _ = _measurements(biases)
    scale, i = crossing(b, beta, level)
    b = np.asarray(b, dtype=float)
    slope = np.log(beta[i] / beta[i - 1]) / np.log(b[i] / b[i - 1])
    if not slope > 0:
        raise ValueError("the bias must grow across the crossing interval")
    return Crossing(scale, float(scale * (se[i] / beta[i]) / slope))


# ----------------------------------------------------------------- the certified run

#: The step of :func:`certified_end_of_size` as a fraction of the lemma's bound at the
#: start, ``eta = STEP_FRACTION * 2 / (9 lambda_max(theta_0))``. At the full bound
#: ``q = eta lambda_max`` rises above ``2/9`` just after the start (measured: up to 1.43
#: times its start value at ``m = n = 400`` from ``b_0 = 5``, 1.8 times from
#: ``b_0 = 10``), as the corpus run leaves the population valley for its own, where the
#: population curvature is larger; a third of the bound leaves room for that rise (``q``
#: is checked per record).
STEP_FRACTION = 1.0 / 3.0

#: Records of :func:`certified_run` are kept where the scale has grown by this relative
#: amount since the last record (2%), at the start and at the last iterate.
RECORD_GROWTH = 0.02


@dataclass(frozen=True)
class CertifiedRun:
    """One corpus's constant-step run, the descent lemma's hypotheses at its iterates.

    The arrays hold one entry per recorded iterate ``theta_k`` (see
    :func:`certified_run`).

    Parameters
    ----------
    eta : float
        The constant step.
    step : ndarray of int
        Iterate numbers ``k``.
    a, b : ndarray
        ``theta_k``.
    rho : ndarray
        The corpus's relative gradient error at ``theta_k``,
        ``|grad L_{m,n}(theta_k) - grad L(theta_k)| / |grad L(theta_k)|``.
    q : ndarray
        ``eta`` times the larger of ``lambda_max`` at ``theta_k`` and at ``theta_{k+1}``
        (the curvature over the step, from its two ends).
    decrease : ndarray
        Population-loss decrease of the step, ``L(theta_k) - L(theta_{k+1})``.
    guaranteed : ndarray
        The lemma's guarantee for the step, ``eta |grad L(theta_k)|^2 / 4``.
    b_cert : float
        Scale of the first recorded iterate with ``rho > RHO_MAX`` or ``q > Q_MAX``: the
        end of this corpus's certified interval. For a run that never fails before its
        stop, the stop ``b_stop`` itself (``censored`` is then true): the end lies
        beyond it, and every such run of one stop ties there.
    censored : bool
        No recorded iterate failed: ``b_cert`` (the stop) only bounds the end from
        below.
    """

    eta: float
    step: np.ndarray
    a: np.ndarray
    b: np.ndarray
    rho: np.ndarray
    q: np.ndarray
    decrease: np.ndarray
    guaranteed: np.ndarray
    b_cert: float
    censored: bool

    @property
    def certified(self):
        """Recorded iterates where both hypotheses hold.

        ``rho <= RHO_MAX``, ``q <= Q_MAX``.
        """
        return (self.rho <= descent_lemma.RHO_MAX) & (self.q <= descent_lemma.Q_MAX)

    @property
    def inside(self):
        """Recorded iterates before the first failure (the certified interval)."""
        return self.b < self.b_cert if not self.censored else np.ones(self.b.size, bool)

    @property
    def ended_by(self):
        """The hypothesis that failed first.

        ``"rho"``, ``"q"``, ``"both"``; ``""`` if none.
        """
        if self.censored:
            return ""
        i = int(np.flatnonzero(self.b == self.b_cert)[0])
        rho, q = self.rho[i] > descent_lemma.RHO_MAX, self.q[i] > descent_lemma.Q_MAX
        return "both" if rho and q else "rho" if rho else "q"

    @property
    def held(self):
        """Recorded steps whose population decrease reaches ``eta |grad L|^2 / 4``."""
        return self.decrease >= self.guaranteed


def certified_run(
    corpus,
    prior,
    theta0,
    eta,
    b_stop,
    growth=RECORD_GROWTH,
    until_failure=False,
    max_steps=10**6,
):
    """Constant-step descent on ``corpus``, checking the descent lemma at its iterates.

    From ``theta0`` the run takes steps ``theta <- theta - eta grad L_{m,n}(theta)``
    (:func:`stumplib.training.descend`) until the scale reaches ``b_stop``. At the
    start, at every iterate where ``b`` has grown by the factor ``1 + growth`` since the
    last record, and at the last iterate it records the corpus's relative gradient error
    ``rho``, the step's ``q = eta lambda_max`` (:func:`stumplib.descent_lemma.curvature`
    at both ends of the step) and the step's population-loss decrease against the
    lemma's guarantee ``eta |grad L|^2 / 4``. Where ``rho <= 1/2`` and ``q <= 2/9`` the
    lemma proves that guarantee; the first record where either fails ends the certified
    interval (a run that never fails is censored at ``b_stop``).

    Parameters
    ----------
    corpus : Corpus
        The training corpus (drawn from ``prior``).
    prior : tasks.Uniform or tasks.Beta
        The threshold prior of the population loss.
    theta0 : tuple of float
        Start ``(a, b)``.
    eta : float
        Constant step, positive (typically :func:`stumplib.descent_lemma.step_bound` at
        ``theta0``).
    b_stop : float
        The run stops at the first iterate with ``b >= b_stop``.
    growth : float
        Relative growth of ``b`` between records, positive.
    until_failure : bool
        Stop at the first failing record instead (or at ``b_stop`` if none fails first).
    max_steps : int
        Steps allowed.

    Returns
    -------
    CertifiedRun

    Raises
    ------
    TypeError
        If ``corpus`` is not a :class:`~stumplib.corpus.Corpus`.
    ValueError
        If an argument is invalid.
    FloatingPointError, RuntimeError
        As :func:`stumplib.training.descend` (``b_stop`` not reached in ``max_steps``).
    """
    validation.instance(corpus, corpus_module.Corpus, "corpus")
    validation.density_law(prior, "prior")
    theta0 = validation.point(theta0)
    eta = validation.positive_scalar(eta, "eta")
    b_stop = validation.positive_scalar(b_stop, "b_stop")
    growth = validation.positive_scalar(growth, "growth")
    max_steps = validation.count(max_steps, "max_steps")
    follower = corpus.follow()
    rows, state = [], {"next": -np.inf, "failed": False}

    def direction(a, b, k):
        if state["failed"] and until_failure:
            return None
        gradient = np.array(follower.unchecked_loss_and_gradient(a, b)[1:])
        last = b >= b_stop
        if b >= state["next"] or last:
            rows.append(_record(prior, eta, a, b, k, gradient))
            state["next"] = b * (1.0 + growth)
            failed = (
                rows[-1][3] > descent_lemma.RHO_MAX or rows[-1][4] > descent_lemma.Q_MAX
            )
            state["failed"] = state["failed"] or failed
        return None if last else gradient

    training.unchecked_descend(direction, theta0, eta, max_steps, f"b_stop={b_stop}")
    columns = [np.array(c) for c in zip(*rows)]
    step, a, b, rho, q, decrease, guaranteed = columns
    failing = np.flatnonzero((rho > descent_lemma.RHO_MAX) | (q > descent_lemma.Q_MAX))
    censored = failing.size == 0
    b_cert = b_stop if censored else float(b[failing[0]])
    return CertifiedRun(
        eta,
        step.astype(int),
        a,
        b,
        rho,
        q,
        decrease,
        guaranteed,
        b_cert,
        bool(censored),
    )


def _record(prior, eta, a, b, k, gradient):
    """``(k, a, b, rho, q, decrease, guaranteed)`` of the step from ``(a, b)``."""
    value, *g = population.loss_and_gradient(a, b, prior)
    g = np.array(g)
    norm_sq = float(g @ g)
    rho = float(np.linalg.norm(gradient - g) / np.sqrt(norm_sq))
    a1, b1 = a - eta * gradient[0], b - eta * gradient[1]
    lam = max(
        descent_lemma.curvature(a, b, prior), descent_lemma.curvature(a1, b1, prior)
    )
    decrease = float(value - population.loss(a1, b1, prior))
    return k, a, b, rho, eta * lam, decrease, eta * norm_sq / 4.0


class CertifiedEnd(NamedTuple):
    """The end of the certified interval over independent corpora of one size.

    Parameters
    ----------
    scale : float
        Median of ``b_cert`` over the corpora (a censored run counts at its stop, a
        lower bound: the median is a lower bound too if half the runs or more are
        censored).
    log_se : float
        Standard error of ``log scale`` from the scatter between corpora: the standard
        deviation of the log median over :data:`BOOTSTRAP` resamples of the corpora.
    log_sd : float
        Standard deviation of ``log b_cert`` between corpora (``ddof=1``).
    corpora : int
        Number of corpora.
    censored : int
        How many runs never failed before their stop (their ``b_cert`` is a lower
        bound).
    empty : int
        How many runs failed at their first record (the start is already past the end).
    """

    scale: float
    log_se: float
    log_sd: float
    corpora: int
    censored: int
    empty: int


#: Resamples of the bootstrap of :func:`certified_end_over` (drawn from a fixed stream,
#: so the result is a function of the runs alone).
BOOTSTRAP = 2000


def certified_end_over(runs):
    """:class:`CertifiedEnd` of several :class:`CertifiedRun`.

    Independent corpora of one size.

    The centre is the median of ``b_cert`` (robust to the runs censored at their stop),
    its standard error on the log scale the bootstrap one over corpora.

    Parameters
    ----------
    runs : sequence of CertifiedRun
        At least two runs.

    Returns
    -------
    CertifiedEnd

    Raises
    ------
    TypeError
        If ``runs`` is not a sequence of :class:`CertifiedRun`.
    ValueError
        If it holds fewer than two runs.
    """
    try:
        runs = list(runs)
    except TypeError:
        runs = None
    if runs is None or not all(isinstance(r, CertifiedRun) for r in runs):
        raise TypeError("runs must be a sequence of CertifiedRun")
    if len(runs) < 2:
        raise ValueError(f"runs must hold at least two runs (got {len(runs)})")
    logs = np.log([r.b_cert for r in runs])
    picks = np.random.default_rng(0).integers(0, logs.size, (BOOTSTRAP, logs.size))
    medians = np.median(logs[picks], axis=1)
    return CertifiedEnd(
        float(np.exp(np.median(logs))),
        float(medians.std(ddof=1)),
        float(logs.std(ddof=1)),
        len(runs),
        int(sum(r.censored for r in runs)),
        int(sum(r.b_cert == r.b[0] and not r.censored for r in runs)),
    )


class CertifiedScales(NamedTuple):
    """Where the certified runs of a corpus size start and stop.

    Parameters
    ----------
    b0 : float
        The start, ``max(k / 40, 2.5)``.
    b_stop : float
        The stop, ``3 b0``.
    """

    b0: float
    b_stop: float


def certified_scales(k):
    """The start and stop of the certified runs on corpora of ``m = n = k``.

    Every measurement of ``b_cert(k, k)`` with :func:`certified_end_of_size` uses them,
    so that measurements on independent draws estimate the same quantity.

    Parameters
    ----------
    k : int
        ``m = n``.

    Returns
    -------
    CertifiedScales

    Raises
    ------
    ValueError, TypeError
        If ``k`` is not a positive integer.

    Examples
    --------
    >>> certified_scales(400)
    CertifiedScales(b0=10.0, b_stop=30.0)
    """
    b0 = max(validation.count(k, "k") / 40, 2.5)
    return CertifiedScales(b0, 3 * b0)


def certified_end_of_size(
    m,
    n,
    prior,
    corpora,
    seed,
    b0,
    b_stop,
    growth=RECORD_GROWTH,
    until_failure=True,
    n_workers=None,
    backend=None,
):
    """The end of the certified interval of corpora of size ``(m, n)``.

    THE ``b_cert(m, n)``.

    Draws ``corpora`` independent corpora (corpus ``r`` from the stream ``(*seed, m, n,
    r)``), runs :func:`certified_run` on each from the valley point
    ``(a*(b0), b0)`` with :data:`STEP_FRACTION` of the lemma's step there
    (:func:`stumplib.descent_lemma.step_bound`) until its first failure (or ``b_stop``;
    to ``b_stop`` in any case with ``until_failure=False``), and summarizes the ends
    (:func:`certified_end_over`). Cost per corpus: about ``(b^4 - b0^4) / (8 eta)``
    steps to reach ``b`` on ``U[0.1, 0.9]`` (``b^4`` grows like ``8 t``), each of cost
    ``O(m)`` (about 1 ms at ``m = n = 400``, 6 ms at 3200), e.g. about ``1200 b0`` steps
    to ``b = 3 b0`` for ``b0 >= 10``; and ``log(b / b0) / growth`` records of about
    20 ms.

    Parameters
    ----------
    m, n : int
        Corpus size.
    prior : tasks.Uniform
        Interior threshold prior.
    corpora : int
        Number of independent corpora, at least 2.
    seed : int or tuple of int
        The experiment's seed.
    b0 : float
        Start scale, below the end (a run that fails at its start is counted in
        ``CertifiedEnd.empty``).
    b_stop : float
        Largest scale run to, above ``b0`` (a run that reaches it is counted in
        ``censored``).
    growth : float
        Relative growth of ``b`` between records.
    until_failure : bool
        Stop each run at its first failing record.
    n_workers, backend
        Parallel execution over corpora (see :func:`stumplib.sweep.run`).

    Returns
    -------
    end : CertifiedEnd
    runs : list of CertifiedRun

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid.
    """
    m, n = validation.count(m, "m"), validation.count(n, "n")
    validation.density_law(prior, "prior")
    corpora = validation.count(corpora, "corpora", minimum=2)
    seed = validation.seed(seed)
    b0 = validation.positive_scalar(b0, "b0")
    b_stop = validation.positive_scalar(b_stop, "b_stop")
    if not b_stop > b0:
        raise ValueError(f"b_stop must exceed b0 (got {b_stop:g} and {b0:g})")
    growth = validation.positive_scalar(growth, "growth")
    a0 = float(calibration.a_star(b0, prior))
    eta = STEP_FRACTION * descent_lemma.step_bound(a0, b0, prior)
    until_failure = bool(until_failure)
    items = [
        ((m, n), prior, (a0, b0), eta, b_stop, growth, until_failure, (*seed, m, n, r))
        for r in range(corpora)
    ]
    runs = sweep.run(_certified_one, items, n_workers, backend, desc="certified runs")
    return certified_end_over(runs), runs


def _certified_one(item):
    """One corpus of :func:`certified_end_of_size`."""
    (m, n), prior, theta0, eta, b_stop, growth, until_failure, rng = item
    sample = corpus_module.Corpus.sample(m, n, prior, rng=rng)
    return certified_run(sample, prior, theta0, eta, b_stop, growth, until_failure)


def sampling_constant(prior):
    """``C_σ = lim σ_∞(b) / √b = √(2(1 + hi²) / (3(hi - lo)))`` on the valley.

    Derived in :mod:`stumplib.symbolic.sampling` (asymptotic, large ``b``) from the
    layer of width ``1/b`` below ``hi`` that carries the per-task gradients; 1.2281 for
    ``U[0.1, 0.9]``. :func:`sampling_coefficient` gives ``σ_∞(b)`` at finite ``b``.

    Parameters
    ----------
    prior : tasks.Uniform
        Interior threshold prior, ``hi < 1``.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        If ``prior`` is not a :class:`~stumplib.tasks.Uniform`.
    ValueError
        If ``prior`` reaches 1 (no valley: the full-prior regime, where ``σ_∞`` grows
        like ``b^{3/2}``).

    Examples
    --------
    >>> from stumplib import tasks
    >>> round(sampling_constant(tasks.Uniform(0.1, 0.9)), 4)
    1.2281
    """
    lo, hi = _interior_support(prior)
    return float(np.sqrt(2.0 * (1.0 + hi**2) / (3.0 * (hi - lo))))


class SlowLayer(NamedTuple):
    """The layer of tasks below ``hi`` on the slow curve of gradient flow (asymptotic).

    Parameters
    ----------
    constant : float
        ``C = lim σ_∞(b) / √b`` along the slow curve.
    lag : float
        The slow curve's offset from the valley in ``a``, ``-log(ρ_0 / 2)`` (negative).
    """

    constant: float
    lag: float


def slow_layer(prior):
    """``lim σ_∞(b) / √b`` on the slow curve of the flow on ``U[lo, hi]``, and its lag.

    Derived in :func:`stumplib.symbolic.sampling.slow_layer_constant` (asymptotic, large
    ``b``): with ``w = hi - lo``, ``q = hi w / (1 + hi²)`` and ``ρ_0 = 1 + √(1 + 2q)``,
    ``C² = (1 + hi²)² (ρ_0²/2 - 2ρ_0³/3 + ρ_0⁴/4) / w``; 2.6318 for ``U[0.1, 0.9]``,
    where the valley's :func:`sampling_constant` is 1.2281. The slow curve lies
    ``log(ρ_0 / 2)`` (0.1570) below the valley in ``a``.

    Parameters
    ----------
    prior : tasks.Uniform
        Interior threshold prior, ``hi < 1``.

    Returns
    -------
    SlowLayer

    Raises
    ------
    TypeError
        If ``prior`` is not a :class:`~stumplib.tasks.Uniform`.
    ValueError
        If ``prior`` reaches 1 (no valley, hence no slow curve a constant below it).

    Examples
    --------
    >>> from stumplib import tasks
    >>> layer = slow_layer(tasks.Uniform(0.1, 0.9))
    >>> round(layer.constant, 4), round(layer.lag, 4)
    (2.6318, -0.157)
    """
    lo, hi = _interior_support(prior)
    width = hi - lo
    top = 1.0 + np.sqrt(1.0 + 2.0 * hi * width / (1.0 + hi**2))
    moment = top**2 / 2.0 - 2.0 * top**3 / 3.0 + top**4 / 4.0
    return SlowLayer(
        float(np.sqrt((1.0 + hi**2) ** 2 * moment / width)), float(-np.log(top / 2))
    )


def _interior_support(prior):
    """``(lo, hi)`` of a uniform prior below 1, or the error that says why not."""
    validation.instance(prior, tasks.Uniform, "prior")
    lo, hi = (float(v) for v in prior.support)
    if not hi < 1.0:
        raise ValueError(
            f"prior must lie below 1 (got hi = {hi}): no valley on a prior reaching 1"
        )
    return lo, hi
