r"""Pretraining corpora from a large-resolution start up to a freezing scale.

**The start and the step.** A run that must reach scale :math:`b_T` starts at a scale
tied to it, :math:`b_0 = b_T / 1.5` (``START_RATIO``), on the
population valley :math:`a_0 = a^*(b_0)`, with the constant step the descent lemma
allows there, :math:`\eta = 2 / (9 \lambda_{\max})`
(:func:`stumplib.descent_lemma.step_bound`; about :math:`0.044 b_0^3` at :math:`b_0 =
20` and :math:`0.025 b_0^3` from :math:`b_0 = 80` on :math:`U[0.1, 0.9]`). A corpus run
leaves the population valley for its own, where the curvature is larger, so :math:`q =
\eta \lambda_{\max}` rises above :math:`2/9` a few steps in (up to about 1.4 times); the
lemma then still guarantees a decrease, smaller
(:func:`stumplib.descent_lemma.guaranteed_decrease`), which
:func:`stumplib.certified_runs.certified_run` checks along a run. Since :math:`b^4`
grows like :math:`\kappa t`, the number of steps is about :math:`(1.5^4 - 1) b_0^4 /
(\kappa \eta)`, linear in :math:`b_T` for a step that grows like :math:`b_0^3`, instead
of :math:`b_T^4 / \eta` from a fixed start.

**Training on.** A run that must go on from a scale to several times it with one
constant step pays :math:`f^4` for a factor :math:`f`; :func:`train_side_by_side`
instead restarts the step at every target (the lemma's step at the point reached), and
trains many corpora of one size together, one stacked evaluation per step (used for
small initializations).

Every corpus is drawn from its own structured stream ``rng = (seed, i, r)`` (size ``i``,
replicate ``r``); a tuple ``seed = (SEED, e)`` puts them under experiment ``e``
(see :func:`stream`).
"""

from typing import NamedTuple

import numpy as np

from . import (
    calibration,
    descent_lemma,
    sweep,
    tasks,
    training,
    validation,
)
from .corpus import STACKABLE, Corpus, noise_ratio

#: A threshold prior uniform on an interval (the valley and the lemma's step need one).
UNIFORM = validation.Instance(tasks.Uniform)
#: The ratio :math:`b_T / b_0` of a run's target to its start.
START_RATIO = 1.5
#: The largest scale at which a float resolves the population valley. The slow-curve
#: offset :math:`a^* - p b` grows like :math:`\log b` (about 33 at :math:`b = 10^{15}`
#: under :math:`U[0.1, 0.9]`) while the spacing of floats near :math:`a^* \approx p b`
#: grows like :math:`b` (1/8 there); past about :math:`10^{16}` the valley's minimizer
#: and its curvature are rounding.
VALLEY_RESOLVED = 1e15
#: Steps allowed to a run frozen by the corpus rule, a guard against a run that never
#: freezes (not a tolerance). At :math:`m = n = 3200` the rule freezes within 3000 to
#: 13000 steps (about 1 ms each); a corpus whose task-sampling noise happens to be low
#: freezes later, and the noise ratio grows as :math:`\sqrt{b}` while :math:`b^4` grows
#: linearly in the steps: one of 40 re-drawn corpora of that size took about 120000
#: steps, to a :math:`b` 1.8 times the others'.
RULE_STEPS = 1_000_000


class Freeze(NamedTuple):
    """Parameters at the first step whose scale reaches the target; the run's cost.

    Examples
    --------
    >>> h = Freeze(a=21.2, b=21.0, t=7690.0, steps=22)
    >>> h.b, h.steps
    (21.0, 22)
    """

    a: float
    b: float
    t: float
    steps: int


@validation.constrained(
    b_target=validation.PositiveScalar(),
    prior=UNIFORM,
    ratio=validation.Scalar(),
)
def start(b_target, prior, ratio=START_RATIO):
    r"""Large-resolution start for a run to ``b_target``: :math:`((a_0, b_0), \eta)`.

    :math:`b_0` is ``b_target`` over ``ratio``, :math:`a_0 = a^*(b_0)` and :math:`\eta`
    the descent lemma's step there (:func:`stumplib.descent_lemma.step_bound`).

    Parameters
    ----------
    b_target : float
        Scale the run is to reach, positive, with :math:`b_0` = ``b_target / ratio`` at
        most :data:`VALLEY_RESOLVED` (:math:`10^{15}`: beyond, a float no longer
        resolves the valley's :math:`a^* - p b`).
    prior : tasks.Uniform
        Threshold prior (uniform on an interior interval).
    ratio : float
        ``b_target`` over :math:`b_0`, at least 1.

    Returns
    -------
    theta0 : tuple of float
        The start :math:`(a_0, b_0)`.
    eta : float
        The step size.

    Raises
    ------
    ValueError
        If ``b_target`` is not positive, ``ratio < 1``, ``b_0`` exceeds
        :data:`VALLEY_RESOLVED`, or the valley has no finite point, or the population
        Hessian no positive eigenvalue, at ``b_0``.
    TypeError
        If ``prior`` is not a :class:`~stumplib.tasks.Uniform`.

    Examples
    --------
    >>> from stumplib import tasks
    >>> (a0, b0), eta = start(30.0, tasks.Uniform(0.1, 0.9))
    >>> b0, round(a0, 2), round(eta)
    (20.0, 20.41, 350)
    """
    if not ratio >= 1:
        raise ValueError(f"ratio must be >= 1 (got {ratio})")
    if not b_target / ratio <= VALLEY_RESOLVED:
        raise ValueError(
            f"b_target / ratio must be at most {VALLEY_RESOLVED:g}, where a float "
            f"still resolves the valley (got b_target = {b_target:g})"
        )
    try:
        return _valley_start(b_target / ratio, prior)
    except ValueError as err:  # no valley point, or no curvature, at b_0
        raise ValueError(
            f"b_target = {b_target:g} gives no start: at b_0 = b_target / ratio = "
            f"{b_target / ratio:g}, {err}"
        ) from err


def _valley_start(b0, prior):
    """``((a*(b_0), b_0), eta)``: on the valley, with the lemma's step there."""
    a0 = float(calibration.a_star(b0, prior))
    return (a0, b0), descent_lemma.step_bound(a0, b0, prior)


@validation.constrained(
    corpus=validation.Instance(Corpus),
    theta0=validation.Point(),
    eta=validation.PositiveScalar(),
    b_target=validation.PositiveScalar(),
    max_steps=validation.Integer(minimum=0),
)
def train_to_scale(corpus, theta0, eta, b_target, max_steps=100_000):
    r"""Constant-step gradient descent on ``corpus`` until the scale is ``b_target``.

    Returns
    -------
    Freeze
        :math:`(a, b)` at the first iterate with :math:`b \ge` ``b_target``, its time
        :math:`t = \eta k` and the number of steps :math:`k`.

    Raises
    ------
    FloatingPointError
        If the parameters stop being finite.
    RuntimeError
        If ``b_target`` is not reached within ``max_steps`` steps.

    Examples
    --------
    >>> from stumplib import tasks
    >>> from stumplib.corpus import Corpus
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> corpus = Corpus.sample(40, 40, prior, rng=1)
    >>> theta0, eta = start(21.0, prior, ratio=1.05)
    >>> h = train_to_scale(corpus, theta0, eta, 21.0)
    >>> bool(h.b >= 21.0), h.steps > 0
    (True, True)
    """
    follower = corpus.follow()

    def direction(a, b, k):
        return None if b >= b_target else follower.loss_and_gradient(a, b)[1:]

    return _frozen(direction, theta0, eta, max_steps, f"b_target={b_target}")


@validation.constrained(
    corpus=validation.Instance(Corpus),
    theta0=validation.Point(),
    eta=validation.PositiveScalar(),
    level=validation.PositiveScalar(),
    max_steps=validation.Integer(minimum=0),
)
def train_until_noisy(corpus, theta0, eta, level=0.5, max_steps=RULE_STEPS):
    """Constant-step descent until the corpus's own gradient noise reaches ``level``.

    A freezing rule computed from the corpus alone: at every iterate the per-task
    gradients give both the step and :func:`stumplib.corpus.noise_ratio`, the
    standard error of the corpus gradient relative to its norm; the run freezes at the
    first iterate where it reaches ``level``.

    Returns
    -------
    Freeze

    Raises
    ------
    FloatingPointError, RuntimeError
        As :func:`train_to_scale` (``RuntimeError`` if the level is not reached).

    Examples
    --------
    >>> from stumplib import tasks
    >>> from stumplib.corpus import Corpus
    >>> from stumplib.corpus_rule import size_start
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> corpus = Corpus.sample(200, 200, prior, rng=1)
    >>> theta0, eta = size_start(200, 200, prior)
    >>> h = train_until_noisy(corpus, theta0, eta)
    >>> bool(h.b > theta0[1]), h.steps > 0
    (True, True)
    """
    follower = corpus.follow()

    def direction(a, b, k):
        gradients = follower.task_gradients(a, b)
        noisy = noise_ratio(gradients) >= level
        return None if noisy else gradients.mean(axis=0)

    return _frozen(direction, theta0, eta, max_steps, f"level={level}")


def _frozen(direction, theta0, eta, max_steps, goal):
    """:func:`stumplib.training.descend` from ``theta0``, as a :class:`Freeze` point."""
    a, b, k = training.descend(
        direction, validation.point(theta0), eta, max_steps, goal
    )
    return Freeze(float(a), float(b), float(eta * k), int(k))


@validation.constrained(
    corpus=validation.Instance(Corpus),
    b_target=validation.PositiveScalar(),
    prior=UNIFORM,
    ratio=validation.Scalar(),
    shift=validation.Scalar(),
)
def train_from_start(corpus, b_target, prior, ratio=START_RATIO, shift=0.0):
    r""":func:`train_to_scale` from :func:`start`, the label score moved by ``shift``.

    The run starts at :math:`(a^*(b_0) + \mathrm{shift}, b_0)`, :math:`b_0` the
    ``b_target`` over ``ratio``, with the step of :func:`start`: on the valley for
    ``shift = 0``, above it for ``shift > 0`` and below it for ``shift < 0``.

    Returns
    -------
    Freeze

    Examples
    --------
    >>> from stumplib import tasks
    >>> from stumplib.corpus import Corpus
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> h = train_from_start(Corpus.sample(40, 40, prior, rng=1), 6.0, prior)
    >>> bool(6.0 <= h.b < 6.1)
    True
    """
    (a0, b0), eta = start(b_target, prior, ratio)
    return train_to_scale(corpus, (a0 + shift, b0), eta, b_target)


@validation.constrained(
    corpora=STACKABLE,
    prior=UNIFORM,
    max_steps=validation.Integer(minimum=0),
)
def train_side_by_side(
    corpora, theta0, targets, prior, max_steps=100_000, stop_late=False
):
    """Corpora of one size trained side by side, recorded where each reaches a target.

    Each run's step restarts at every target.

    Corpus ``r`` starts at ``theta0[r]``. On its way from one target to the next (a
    *leg*) its step is constant, the descent lemma's step at the point where the leg
    began (:func:`stumplib.descent_lemma.step_bound`, which grows like :math:`b^3`): the
    rule of :func:`start`, applied afresh at every target. A leg from :math:`b` to
    :math:`f b` then costs a number of steps proportional to :math:`(f^4 - 1) b`,
    instead of :math:`f^4` times more with the first leg's step kept throughout. The
    corpora still being trained are evaluated together, as one :meth:`Corpus.stack
    <stumplib.corpus.Corpus.stack>`, at every step.

    Parameters
    ----------
    corpora : sequence of Corpus
        Corpora of one shape ``(m, n)``.
    theta0 : array_like, shape (R, 2)
        Start :math:`(a, b)` of each corpus, :math:`b > 0`.
    targets : array_like, shape (k,) or (R, k)
        Non-decreasing positive scales (shared, or one row per corpus).
    prior : tasks.Uniform or tasks.Beta
        The threshold prior whose population curvature sets each leg's step.
    max_steps : int
        Steps allowed per leg.
    stop_late : bool
        What a leg that does not reach its target within ``max_steps`` steps does: stop
        that corpus there (``True``; its row then ends with the point where it stopped,
        below its target) or raise (``False``). The same for a leg whose start has no
        positive population curvature (no step the lemma allows).

    Returns
    -------
    list of list of Freeze
        ``[r][j]``: corpus ``r`` at target ``j``; times and step counts from ``theta0``.

    Raises
    ------
    FloatingPointError
        If the parameters of a corpus stop being finite.
    RuntimeError
        If a leg does not reach its target within ``max_steps`` steps and ``stop_late``
        is false.

    Examples
    --------
    >>> from stumplib import tasks
    >>> from stumplib.corpus import Corpus
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> corpora = [Corpus.sample(40, 40, prior, rng=r) for r in (1, 2)]
    >>> (a0, b0), _ = start(30.0, prior)
    >>> runs = train_side_by_side(corpora, [(a0, b0)] * 2, [21.0, 22.0], prior)
    >>> [[bool(h.b >= target) for h, target in zip(run, (21.0, 22.0))] for run in runs]
    [[True, True], [True, True]]
    """
    stacked, m = _stackable(corpora)
    theta = validation.finite(theta0, "theta0")
    if theta.shape != (len(corpora), 2) or np.any(theta[:, 1] <= 0):
        raise ValueError(
            f"theta0 must hold one point (a, b) with b > 0 per corpus, shape "
            f"({len(corpora)}, 2) (got {theta0!r})"
        )
    targets = validation.positive(targets, "targets")
    if targets.ndim not in (1, 2) or np.any(np.diff(targets, axis=-1) < 0):
        raise ValueError("targets must be non-decreasing scales, shape (k,) or (R, k)")
    targets = validation.batch(targets, "targets", (len(corpora), targets.shape[-1]))
    return _side_by_side(
        corpora, stacked, m, theta.copy(), targets, max_steps, prior, bool(stop_late)
    )


def _stackable(corpora):
    """``(Corpus.stack(corpora), m)`` for a non-empty sequence of same-shape corpora."""
    stacked = Corpus.stack(corpora)
    shapes = {corpus.shape for corpus in corpora}
    if len(shapes) != 1:
        raise ValueError(f"corpora must have one shape (got {sorted(shapes)})")
    return stacked, corpora[0].shape[0]


def _side_by_side(
    corpora, stacked, m, theta, targets, max_steps, prior, stop_late=False
):
    R, k = targets.shape
    follower = stacked.follow()
    a, b = theta[:, 0], theta[:, 1]
    leg, taken = np.zeros(R, int), np.zeros(R, int)  # current target, steps in the leg
    eta = np.array([_leg_step(a[r], b[r], prior, stop_late) for r in range(R)])
    taken[np.isnan(eta)] = max_steps  # no step from the start: stops there
    t0, steps0 = np.zeros(R), np.zeros(R, int)
    out, live = [[] for _ in range(R)], np.arange(R)
    while True:
        for r in live:
            while leg[r] < k and b[r] >= targets[r, leg[r]]:
                t0[r], steps0[r] = t0[r] + eta[r] * taken[r], steps0[r] + taken[r]
                out[r].append(
                    Freeze(float(a[r]), float(b[r]), float(t0[r]), int(steps0[r]))
                )
                leg[r], taken[r] = leg[r] + 1, 0
                if leg[r] < k:
                    eta[r] = _leg_step(a[r], b[r], prior, stop_late)
                    taken[r] = max_steps if np.isnan(eta[r]) else 0  # no step: stops
        if not np.array_equal(np.flatnonzero(leg < k), live):
            live = np.flatnonzero(leg < k)
            if not live.size:
                return out
            follower = Corpus.stack([corpora[r] for r in live]).follow()
        late = live[taken[live] >= max_steps]
        if late.size and stop_late:
            for r in late:
                ran = 0 if np.isnan(eta[r]) else taken[r]
                t0[r], steps0[r] = (
                    t0[r] + (eta[r] * ran if ran else 0.0),
                    steps0[r] + ran,
                )
                out[r].append(
                    Freeze(float(a[r]), float(b[r]), float(t0[r]), int(steps0[r]))
                )
                leg[r] = k
            continue
        if late.size:
            r = late[0]
            raise RuntimeError(
                f"corpus {r}: target {targets[r, leg[r]]} not reached in max_steps="
                f"{max_steps} steps (b = {b[r]:.4g})"
            )
        est, d_a, d_b = follower.summaries(np.repeat(a[live], m), np.repeat(b[live], m))
        residual = (est - follower.s).reshape(-1, m)
        g_a = 2 * np.mean(residual * d_a.reshape(-1, m), axis=1)
        g_b = 2 * np.mean(residual * d_b.reshape(-1, m), axis=1)
        with np.errstate(over="ignore"):
            a[live], b[live] = a[live] - eta[live] * g_a, b[live] - eta[live] * g_b
        bad = live[~(np.isfinite(a[live]) & np.isfinite(b[live]))]
        if bad.size:
            r = bad[0]
            raise FloatingPointError(
                f"descent of corpus {r} diverged at step {taken[r]} of leg {leg[r]} "
                f"(eta={eta[r]:.4g} too large?)"
            )
        taken[live] += 1


def _leg_step(a, b, prior, stop_late):
    """The lemma's step at ``(a, b)``; NaN where it allows none and ``stop_late``."""
    try:
        return descent_lemma.step_bound(a, b, prior)
    except ValueError:
        if not stop_late:
            raise
        return np.nan


@validation.constrained(seed=validation.Seed(as_given=True))
def stream(seed, *index):
    """The structured stream ``(*seed, *index)``; ``seed`` is an int or a tuple of ints.

    A tuple seed gives one experiment its own streams, e.g.
    ``stream((SEED, 2), i, r) == (SEED, 2, i, r)``.

    Parameters
    ----------
    seed : int or tuple of int
        The experiment's seed.
    *index : int
        Indices appended to the seed.

    Returns
    -------
    tuple of int

    Raises
    ------
    ValueError, TypeError
        If ``seed`` is not an integer or a non-empty tuple of integers.

    Examples
    --------
    >>> stream((7, 2), 0, 3)
    (7, 2, 0, 3)
    >>> stream(5, 1)
    (5, 1)
    """
    return (*validation.seed(seed), *index)


def _pretrain_one(item):
    """One corpus of a sweep.

    ``(m, n, target, prior, ratio, rng)`` -> :class:`Freeze`.
    """
    m, n, target, prior, ratio, rng = item
    return train_from_start(Corpus.sample(m, n, prior, rng=rng), target, prior, ratio)


@validation.constrained(
    sizes=validation.Rows(1, 1),
    targets=validation.Positive(),
    prior=UNIFORM,
    corpora=validation.Integer(),
    seed=validation.Seed(as_given=True),
    ratio=validation.Scalar(),
)
def pretrain(
    sizes,
    targets,
    prior,
    corpora,
    seed,
    ratio=START_RATIO,
    n_workers=None,
    backend=None,
):
    """Train independent corpora of each size from large-resolution starts to targets.

    Parameters
    ----------
    sizes : sequence of (int, int)
        Corpus sizes ``(m, n)``.
    targets : sequence of float
        Freezing scale for each size.
    prior : tasks.Uniform
        Threshold prior of the corpora (and of the valley of the start).
    corpora : int
        Independent corpora per size.
    seed : int or tuple of int
        Corpus ``r`` of size ``i`` is drawn with ``rng = stream(seed, i, r)``.
    ratio : float
        Start at :math:`b_0` = ``target`` over ``ratio`` (see :func:`start`).
    n_workers, backend
        Parallel execution (see :func:`stumplib.sweep.run`); the results do not depend
        on it.

    Returns
    -------
    list of list of Freeze
        ``[i][r]`` for size ``i``, corpus ``r``.

    Raises
    ------
    ValueError
        If ``sizes`` and ``targets`` differ in length.

    Examples
    --------
    >>> from stumplib import tasks
    >>> out = pretrain([(40, 40)], [6.0], tasks.Uniform(0.1, 0.9), 2, 1, n_workers=1)
    >>> [bool(h.b >= 6.0) for h in out[0]]
    [True, True]
    """
    if targets.shape != (len(sizes),):
        raise ValueError(
            f"sizes and targets must have equal lengths (got {len(sizes)} and shape "
            f"{targets.shape})"
        )
    items = [
        (m, n, float(target), prior, ratio, stream(seed, i, r))
        for i, ((m, n), target) in enumerate(zip(sizes, targets))
        for r in range(corpora)
    ]
    done = sweep.run(_pretrain_one, items, n_workers, backend, desc="pretraining")
    return [done[i * corpora : (i + 1) * corpora] for i in range(len(sizes))]
