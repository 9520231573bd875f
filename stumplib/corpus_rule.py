"""The corpus rule: runs from a size-tied start, frozen where their noise is ``level``.

A corpus of ``m`` tasks with ``n`` examples starts on the population valley at a scale
tied to its size (:func:`size_start`) and trains until its own estimate of its relative
task-sampling error, :func:`stumplib.corpus.noise_ratio`, reaches ``level``
(:func:`freeze_by_rule`); :func:`freeze_certified` does the same with the descent
lemma's guarantee checked along the run. :func:`rule_scale_ratio` predicts the scale
reached from the slow-layer constant; :func:`pretrain_noisy` and :func:`lower_starts`
sweep many corpora per size.
"""

import time
from typing import NamedTuple

import numpy as np

from . import (
    calibration,
    descent_lemma,
    population,
    pretraining,
    sparse_corpus,
    sweep,
    training,
    validation,
)
from . import corpus as corpus_module
from .corpus import Corpus, noise_ratio

#: Start of a run frozen by the corpus rule, :math:`b_0 = \min(m/80, n/40)`
#: (``SIZE_START`` :math:`m`, ``CONTEXT_START`` :math:`n`), at least ``MIN_START``:
#: below the corpus rule's freeze at sizes from :math:`m \wedge n = 200` to 3200
#: (measured: halving the start does not move the freeze at 400 and 800). For
#: :math:`m = n` this is :math:`(m \wedge n) / 80`; contexts much shorter than the
#: corpus is wide freeze near their own limit, a fraction of :math:`n` (the
#: finite-context bias), and start at :math:`n / 40`.
SIZE_START = 1 / 80
CONTEXT_START = 1 / 40
MIN_START = 2.5


@validation.constrained(
    m=validation.Integer(), n=validation.Integer(), prior=pretraining.UNIFORM
)
def size_start(m, n, prior):
    r"""Large-resolution start tied to the corpus size: :math:`((a_0, b_0), \eta)`.

    :math:`b_0` is the larger of ``MIN_START`` and :math:`\min(m/80, n/40)`
    (``SIZE_START``, ``CONTEXT_START``), :math:`a_0 = a^*(b_0)`, :math:`\eta` the
    lemma's step there (as :func:`~stumplib.pretraining.start`).

    Parameters
    ----------
    m, n : int
        Number of tasks and context size of the corpus.
    prior : tasks.Uniform
        Threshold prior (uniform on an interior interval).

    Returns
    -------
    theta0 : tuple of float
        The start ``(a_0, b_0)``.
    eta : float
        The step size.

    Raises
    ------
    ValueError, TypeError
        If ``m`` or ``n`` is not a positive integer, or as
        :func:`~stumplib.pretraining.start`.

    Examples
    --------
    >>> from stumplib import tasks
    >>> (a0, b0), eta = size_start(400, 400, tasks.Uniform(0.1, 0.9))
    >>> b0, round(a0, 2), round(eta, 1)
    (5.0, 6.42, 31.5)
    """
    return pretraining.start(_size_scale(m, n), prior, ratio=1.0)


def _size_scale(m, n):
    """Size-tied start ``max(min(SIZE_START * m, CONTEXT_START * n), MIN_START)``."""
    return max(min(SIZE_START * m, CONTEXT_START * n), MIN_START)


@validation.constrained(
    m=validation.Integer(minimum=2),
    n=validation.Integer(),
    prior=pretraining.UNIFORM,
    rng=validation.Seed(as_given=True),
    level=validation.PositiveScalar(),
    divisor=validation.PositiveScalar(),
)
def freeze_by_rule(m, n, prior, rng, level=0.5, divisor=1.0, sparse=False):
    """One corpus drawn and trained until the corpus rule freezes it.

    The corpus is ``Corpus.sample(m, n, prior, rng=rng)``, or with ``sparse``
    :meth:`SparseCorpus.sample <stumplib.sparse_corpus.SparseCorpus.sample>` (the same
    law, only the members that can carry weight above the run's lowest anchor held); the
    run starts on the valley at :func:`size_start`'s scale divided by ``divisor``, with
    the lemma's step there, and stops by :func:`~stumplib.pretraining.train_until_noisy`
    at ``level``.

    Parameters
    ----------
    m, n : int
        Number of tasks, ``m >= 2`` (the rule's noise ratio is a standard error over
        tasks), and context size.
    prior : tasks.Uniform
        Threshold prior (uniform on an interior interval).
    rng : int or tuple of int
        The corpus's seed (a structured stream, see
        :func:`~stumplib.pretraining.stream`; not ``None``: a frozen run is
        reproducible).
    level : float
        The corpus rule's noise level.
    divisor : float
        Start below the size-tied scale by this factor (``>= 1`` in use; positive).
    sparse : bool
        Draw a sparse corpus (its memory does not grow with ``n`` at a given scale).

    Returns
    -------
    pretraining.Freeze

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid, as :func:`size_start` and
        :func:`~stumplib.pretraining.train_until_noisy`.
    RuntimeError
        If the level is not reached within :data:`~stumplib.pretraining.RULE_STEPS`
        steps.

    Examples
    --------
    >>> from stumplib import tasks
    >>> h = freeze_by_rule(200, 200, tasks.Uniform(0.1, 0.9), (1, 2))
    >>> bool(h.b >= size_start(200, 200, tasks.Uniform(0.1, 0.9))[0][1])
    True
    """
    theta0, eta = pretraining.start(_size_scale(m, n) / divisor, prior, ratio=1.0)
    if sparse:
        corpus = sparse_sample(m, n, theta0[1], prior, rng)
    else:
        corpus = Corpus.sample(m, n, prior, rng=rng)
    return pretraining.train_until_noisy(corpus, theta0, eta, level)


@validation.constrained(
    m=validation.Integer(),
    n=validation.Integer(),
    b0=validation.PositiveScalar(),
    prior=pretraining.UNIFORM,
    rng=validation.Seed(as_given=True),
)
def sparse_sample(m, n, b0, prior, rng):
    """The sparse corpus of a run from ``b0``, drawn down to its lowest anchor.

    Drawn from ``rng`` down to
    :func:`stumplib.sparse_corpus.lowest_anchor` ``(b0, n)``; in full (``b_min`` at
    the window's cutoff: every member lies within distance 1) when the first anchor
    reaches down to ``b <= 0`` (a start ``b0 <= 1``). An evaluation at a lower scale
    draws the members it needs exactly, so the corpus is the same from any start.

    Parameters
    ----------
    m, n : int
        Tasks and context size.
    b0 : float
        The start's scale, positive.
    prior : tasks.Uniform
        Threshold prior.
    rng : int or tuple of int
        Seed of the draw.

    Returns
    -------
    stumplib.sparse_corpus.SparseCorpus
        Its members drawn down to the lowest anchor.

    Raises
    ------
    ValueError, TypeError
        If an argument is outside its declared domain.

    Examples
    --------
    >>> from stumplib import tasks
    >>> sparse_sample(40, 40, 0.5, tasks.Uniform(0.1, 0.9), 1).shape
    (40, 40)
    """
    b_min = sparse_corpus.lowest_anchor(b0, n)
    if b_min <= 0:
        b_min = corpus_module.window_cutoff(n)
    return sparse_corpus.SparseCorpus.sample(m, n, b_min, prior, seed=rng)


#: The step of a certified run, as this fraction of the lemma's step at its start, so
#: that :math:`q = \eta \lambda_{\max}` stays below :math:`2/9` where the corpus's own
#: valley raises the curvature (up to 1.5-2 times the start's along the full-scale runs
#: at the full step).
CERTIFIED_FRACTION = 1 / 3
#: :math:`q` and :math:`\rho` are checked at every iterate of a certified run's first
#: ``CHECK_STEPS`` steps (where the run leaves the population valley for its own and the
#: curvature rises), then wherever :math:`b` has grown by the factor :math:`1 + g`,
#: :math:`g` = ``CHECK_GROWTH``, since the last check, and at the freeze.
CHECK_STEPS = 200
#: The relative growth of :math:`b` between two checks after the first ``CHECK_STEPS``.
CHECK_GROWTH = 1e-3


class CertifiedFreeze(NamedTuple):
    r"""A run frozen by the corpus rule at a certified step, with what its checks found.

    Parameters
    ----------
    a, b, t, steps
        As :class:`~stumplib.pretraining.Freeze`.
    eta : float
        The constant step.
    q_max : float
        Largest :math:`q = \eta \lambda_{\max}` over the checked iterates.
    q_jump : float
        Largest relative change of :math:`q` between consecutive checks: between two
        checks :math:`q` stays below ``q_max`` times (1 + ``q_jump``) wherever it varies
        no faster than between the checks that bracket it (numerical, not a proof).
    rho_max : float
        Largest relative gradient error :math:`\rho = |G - g| / |g|` over the checked
        iterates.
    b_cert : float
        Scale of the first checked iterate with :math:`\rho > 1/2` or :math:`q > 2/9`
        (the end of the certified interval), or ``b`` if none (censored at the
        freeze).
    checks : int
        Iterates checked.
    """

    a: float
    b: float
    t: float
    steps: int
    eta: float
    q_max: float
    q_jump: float
    rho_max: float
    b_cert: float
    checks: int


def _resume(state, name):
    """A state handed to ``save`` by :func:`freeze_certified`, its numbers checked."""
    keys = {*_CertifiedState.FIELDS.split(), "a", "b", "steps", "follower"}
    if not isinstance(state, dict) or not keys <= set(state):
        got = sorted(state) if isinstance(state, dict) else type(state).__name__
        raise ValueError(
            f"{name} must be a state dict with keys {sorted(keys)} ({got})"
        )
    for key in ("a", "b", "q_max", "q_jump", "rho_max"):
        validation.scalar(state[key], f"{name}[{key!r}]")
    for key in ("b_cert", "q_last"):
        if state[key] is not None:
            validation.scalar(state[key], f"{name}[{key!r}]")
    if not (state["b_next"] == -np.inf or np.isfinite(state["b_next"])):
        raise ValueError(f"{name}['b_next'] must be finite or -inf")
    for key in ("steps", "checks"):
        validation.count(state[key], f"{name}[{key!r}]", minimum=0)
    return state


#: A resume state of :func:`freeze_certified` (or ``None``).
RESUME = validation.Constraint(
    _resume, (({}, ValueError), ("state", ValueError)), optional=True
)


@validation.constrained(
    m=validation.Integer(minimum=2),
    n=validation.Integer(),
    prior=pretraining.UNIFORM,
    rng=validation.Seed(as_given=True),
    level=validation.PositiveScalar(),
    divisor=validation.PositiveScalar(),
    fraction=validation.PositiveScalar(),
    resume=RESUME,
    every=validation.Scalar(),
    save=validation.Function(optional=True),
)
def freeze_certified(
    m,
    n,
    prior,
    rng,
    level=0.5,
    divisor=1.0,
    fraction=CERTIFIED_FRACTION,
    resume=None,
    save=None,
    every=300.0,
):
    r"""A sparse corpus frozen by the corpus rule at a certified constant step.

    As :func:`freeze_by_rule` with ``sparse``, at the step ``fraction`` times the
    lemma's step at the start (:math:`\eta = f \cdot 2 / (9 \lambda_{\max}(\theta_0))`,
    :math:`f` the ``fraction``), checking :math:`q` and :math:`\rho` along the run
    (:data:`CHECK_STEPS`, :data:`CHECK_GROWTH`). The run can be cut and resumed: every
    ``every`` seconds it hands ``save`` its state (a dict of plain numbers), and a call
    with that state as ``resume`` continues from there, bit-identically to the run that
    was not cut.

    Parameters
    ----------
    m, n : int
        Number of tasks and context size, ``m >= 2``.
    prior : tasks.Uniform
        Threshold prior (uniform on an interior interval).
    rng : int or tuple of int
        The corpus's seed.
    level : float
        The corpus rule's noise level.
    divisor : float
        Start below the size-tied scale by this factor.
    fraction : float
        Share of the start's lemma step, in ``(0, 1]``.
    resume : dict, optional
        A state handed to ``save`` by a run with the same other arguments.
    save : callable, optional
        Called with the run's state every ``every`` seconds (at an iterate).
    every : float
        Seconds between states handed to ``save``, ``>= 0``.

    Returns
    -------
    CertifiedFreeze

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid.
    RuntimeError
        If the level is not reached within :data:`~stumplib.pretraining.RULE_STEPS`
        steps.

    Examples
    --------
    >>> from stumplib import tasks
    >>> run = freeze_certified(160, 160, tasks.Uniform(0.1, 0.9), (4, 1))
    >>> bool(run.q_max <= 2 / 9), run.steps > 0, run.b_cert <= run.b
    (True, True, True)
    """
    if fraction > 1:
        raise ValueError(f"fraction must be in (0, 1] (got {fraction})")
    if not every >= 0:
        raise ValueError(f"every must be >= 0 (got {every})")
    theta0, eta = pretraining.start(_size_scale(m, n) / divisor, prior, ratio=1.0)
    eta *= fraction
    corpus = sparse_sample(m, n, theta0[1], prior, rng)
    follower = corpus.follow()
    state = _CertifiedState(prior, eta, resume)
    if resume is not None:
        follower.restore(resume["follower"])
        theta0 = (resume["a"], resume["b"])
    done, clock = state.steps, {"saved": time.monotonic()}

    def direction(a, b, k):
        if save is not None and time.monotonic() - clock["saved"] >= every:
            save(state.as_dict(a, b, done + k, follower.state()))
            clock["saved"] = time.monotonic()
        gradients = follower.task_gradients(a, b)
        gradient = gradients.mean(axis=0)
        noisy = noise_ratio(gradients) >= level
        state.check(a, b, done + k, gradient, noisy)
        return None if noisy else gradient

    a, b, k = training.descend(
        direction, theta0, eta, pretraining.RULE_STEPS - done, f"level={level}"
    )
    return state.result(a, b, done + k)


class _CertifiedState:
    """The checks of :func:`freeze_certified` along a run, and what a resume needs."""

    FIELDS = "q_max q_jump rho_max b_cert checks q_last b_next"

    def __init__(self, prior, eta, resume):
        self.prior, self.eta = prior, eta
        self.q_max = self.q_jump = self.rho_max = 0.0
        self.b_cert, self.checks, self.q_last, self.b_next = None, 0, None, -np.inf
        self.steps = 0
        if resume is not None:
            for name in self.FIELDS.split():
                setattr(self, name, resume[name])
            self.b_next = float(self.b_next)
            self.steps = resume["steps"]

    def check(self, a, b, k, gradient, last):
        """Check ``q`` and ``rho`` at iterate ``k`` if asked for.

        Where :data:`CHECK_STEPS` and :data:`CHECK_GROWTH` ask for it, and at the
        ``last``.
        """
        if not (k < CHECK_STEPS or b >= self.b_next or last):
            return
        self.b_next = b * (1.0 + CHECK_GROWTH)
        g = np.array(population.gradient(a, b, self.prior))
        rho = float(np.linalg.norm(gradient - g) / np.linalg.norm(g))
        q = self.eta * descent_lemma.curvature(a, b, self.prior)
        if self.q_last is not None:
            self.q_jump = max(self.q_jump, abs(q - self.q_last) / self.q_last)
        self.q_last, self.checks = q, self.checks + 1
        self.q_max, self.rho_max = max(self.q_max, q), max(self.rho_max, rho)
        failed = rho > descent_lemma.RHO_MAX or q > descent_lemma.Q_MAX
        if failed and self.b_cert is None:
            self.b_cert = float(b)

    def as_dict(self, a, b, k, follower):
        """The run's state at iterate ``k``, ``(a, b)``, before its gradient."""
        fields = {name: getattr(self, name) for name in self.FIELDS.split()}
        fields["b_next"] = float(fields["b_next"])  # -inf: JSON keeps it as -Infinity
        return dict(fields, a=float(a), b=float(b), steps=int(k), follower=follower)

    def result(self, a, b, k):
        b_cert = float(b) if self.b_cert is None else self.b_cert
        return CertifiedFreeze(
            float(a),
            float(b),
            float(self.eta * k),
            int(k),
            float(self.eta),
            float(self.q_max),
            float(self.q_jump),
            float(self.rho_max),
            b_cert,
            int(self.checks),
        )


@validation.constrained(prior=pretraining.UNIFORM, level=validation.PositiveScalar())
def rule_scale_ratio(prior, level=0.5):
    r"""The ratio :math:`b_T / m` at which the corpus rule freezes a long-context run.

    Asymptotic. :func:`~stumplib.pretraining.train_until_noisy` stops where the corpus's
    noise ratio reaches the ``level`` :math:`\ell`. With contexts much longer than the
    corpus has tasks (:math:`n / m \to \infty`) only task sampling is left; the run
    follows the slow curve, where the noise ratio is about :math:`K \sqrt{b / m}` with
    :math:`K` the constant of :func:`~stumplib.calibration.slow_layer`, so the rule
    freezes near :math:`b_T = (\ell / K)^2 m`: :math:`0.0361\, m` for
    :math:`U[0.1, 0.9]` at :math:`\ell = 1/2`. Finite contexts add noise
    of their own, so they can only freeze earlier.

    Parameters
    ----------
    prior : tasks.Uniform
        Interior threshold prior, ``hi < 1``.
    level : float
        The rule's noise level, positive.

    Returns
    -------
    float

    Raises
    ------
    TypeError, ValueError
        As constant of :func:`~stumplib.calibration.slow_layer`, or if ``level`` is
        not positive.

    Examples
    --------
    >>> from stumplib import tasks
    >>> round(rule_scale_ratio(tasks.Uniform(0.1, 0.9)), 4)
    0.0361
    """
    ratio = level / calibration.slow_layer(prior).constant
    if not ratio < 1e154:
        raise ValueError(
            f"level = {level:g} puts b_T / m = (level / C)² beyond the floats"
        )
    return ratio**2


def _noisy_one(item):
    """One corpus of a sweep.

    ``((m, n), prior, level, rng, divisor)`` -> :class:`~stumplib.pretraining.Freeze`.
    """
    (m, n), prior, level, rng, divisor = item
    return freeze_by_rule(m, n, prior, rng, level, divisor)


@validation.constrained(
    sizes=validation.Rows(1, 1),
    prior=pretraining.UNIFORM,
    corpora=validation.Integer(),
    seed=validation.Seed(as_given=True),
    level=validation.PositiveScalar(),
)
def pretrain_noisy(
    sizes, prior, corpora, seed, level=0.5, n_workers=None, backend=None
):
    """:func:`~stumplib.pretraining.pretrain` from :func:`size_start`, by the rule.

    Each run is frozen by :func:`~stumplib.pretraining.train_until_noisy`. Corpus ``r``
    of size ``i`` is drawn with ``rng = stream(seed, i, r)`` (the same corpora as
    :func:`~stumplib.pretraining.pretrain` with the same ``seed``). Returns ``[i][r]``
    of :class:`~stumplib.pretraining.Freeze`.

    Examples
    --------
    >>> from stumplib import tasks
    >>> out = pretrain_noisy([(40, 40), (60, 60)], tasks.Uniform(0.1, 0.9), 2, 1,
    ...                      n_workers=1)
    >>> [len(row) for row in out]
    [2, 2]
    """
    indices = range(len(sizes))
    return _noisy_sweep(
        sizes, indices, prior, corpora, seed, level, 1.0, n_workers, backend
    )


@validation.constrained(
    sizes=validation.Rows(1, 1),
    indices=validation.Integers(minimum=0),
    prior=pretraining.UNIFORM,
    corpora=validation.Integer(),
    seed=validation.Seed(as_given=True),
    level=validation.PositiveScalar(),
    divisor=validation.PositiveScalar(),
)
def lower_starts(
    sizes,
    indices,
    prior,
    corpora,
    seed,
    level=0.5,
    divisor=2.0,
    n_workers=None,
    backend=None,
):
    """The corpus rule from lower starts, to see if the frozen scale depends on them.

    Trains the first ``corpora`` corpora of each size ``sizes[i]``, ``i`` in ``indices``
    (the same corpora as :func:`pretrain_noisy` with the same ``seed``), from the
    size-tied start divided by ``divisor``, with that start's own step. A frozen scale
    equal to :func:`pretrain_noisy`'s is the rule's own; a lower one means the size-tied
    start was already past the point where the corpus's noise reaches ``level``. Returns
    ``[j][r]`` of :class:`~stumplib.pretraining.Freeze` for ``i = indices[j]``.

    Raises
    ------
    ValueError
        If an index is not below ``len(sizes)``.

    Examples
    --------
    >>> from stumplib import tasks
    >>> out = lower_starts([(40, 40)], [0], tasks.Uniform(0.1, 0.9), 1, 1, n_workers=1)
    >>> bool(out[0][0].b >= 1.25)
    True
    """
    if any(i >= len(sizes) for i in indices):
        raise ValueError(
            f"indices must be below len(sizes) = {len(sizes)} (got {indices})"
        )
    return _noisy_sweep(
        sizes, indices, prior, corpora, seed, level, divisor, n_workers, backend
    )


def _noisy_sweep(
    sizes, indices, prior, corpora, seed, level, divisor, n_workers, backend
):
    items = [
        (sizes[i], prior, level, pretraining.stream(seed, i, r), divisor)
        for i in indices
        for r in range(corpora)
    ]
    done = sweep.run(
        _noisy_one,
        items,
        n_workers,
        backend,
        desc="pretraining (corpus rule)",
        cost=sweep.examples,
    )
    return [done[j * corpora : (j + 1) * corpora] for j in range(len(indices))]
