r"""The corpus rule's certified freeze from other starts than the size-tied one.

:func:`stumplib.corpus_rule.freeze_certified` starts every run on the population valley
at the size-tied scale. :func:`freeze_from` runs the same rule (constant step, frozen at
the first iterate whose gradient noise ratio reaches the level,
:func:`stumplib.pretraining.train_until_noisy`) on the same corpus
(:func:`rule_corpus`) from any start :math:`(a_0, b_0)`: off the valley, lower, or from
a small initialization; the descent lemma's hypotheses :math:`q = \eta \lambda_{\max}
\le 2/9` and :math:`\rho \le 1/2` are then checked along the same path up to the freeze
(:func:`stumplib.certified_runs.certified_run`). The step is a share of the lemma's step
at the start and at the valley point of the same scale, whichever is smaller
(:func:`start_step`), so that a start above the valley, where the loss is flat in ``a``,
does not take a step too large for the valley it descends to.
"""

from typing import NamedTuple

import numpy as np

from . import (
    calibration,
    certified_runs,
    corpus_rule,
    descent_lemma,
    pretraining,
    validation,
)
from .corpus import Corpus


class StartFreeze(NamedTuple):
    r"""A corpus frozen by the rule from a given start, with the lemma's checks.

    Parameters
    ----------
    a, b : float
        The frozen parameters.
    steps : int
        Steps to the freeze.
    eta : float
        The constant step.
    q_max, rho_max : float
        The largest :math:`q = \eta \lambda_{\max}` and relative gradient error
        :math:`\rho` recorded along the run
        (:func:`stumplib.certified_runs.certified_run`'s records).
    b_cert : float
        The scale of the first record with :math:`\rho > 1/2` or :math:`q > 2/9` (``b``
        if none): the run froze inside its certified interval when
        :math:`b \le b_{\mathrm{cert}}`.
    """

    a: float
    b: float
    steps: int
    eta: float
    q_max: float
    rho_max: float
    b_cert: float


@validation.constrained(
    m=validation.Integer(minimum=2),
    n=validation.Integer(),
    prior=pretraining.UNIFORM,
    rng=validation.Seed(as_given=True),
)
def rule_corpus(m, n, prior, rng):
    """The sparse corpus that :func:`~stumplib.corpus_rule.freeze_certified` trains on.

    Drawn from ``rng`` down to the lowest anchor of the size-tied start
    (:func:`stumplib.corpus_rule.size_start`); an evaluation at a lower scale draws
    the members it needs exactly (:class:`~stumplib.sparse_corpus.SparseCorpus`), so
    the corpus is the same from any start.

    Parameters
    ----------
    m, n : int
        Tasks and context size, ``m >= 2``.
    prior : tasks.Uniform
        Threshold prior.
    rng : int or tuple of int
        The corpus's seed.

    Returns
    -------
    stumplib.sparse_corpus.SparseCorpus

    Examples
    --------
    >>> from stumplib import tasks
    >>> corpus = rule_corpus(40, 40, tasks.Uniform(0.1, 0.9), 1)
    >>> corpus.shape
    (40, 40)
    """
    (_, b0), _ = corpus_rule.size_start(m, n, prior)
    return corpus_rule.sparse_sample(m, n, b0, prior, rng)


@validation.constrained(
    theta0=validation.Point(),
    prior=pretraining.UNIFORM,
    fraction=validation.PositiveScalar(),
)
def start_step(theta0, prior, fraction=corpus_rule.CERTIFIED_FRACTION):
    """``fraction`` of the lemma's step at ``theta0`` or on the valley below it.

    ``fraction * min(step_bound(a_0, b_0), step_bound(a*(b_0), b_0))``
    (:func:`stumplib.descent_lemma.step_bound`); on the valley it is the step of
    :func:`stumplib.corpus_rule.freeze_certified`.

    Parameters
    ----------
    theta0 : tuple of float
        The start ``(a_0, b_0)``, ``b_0 > 0``.
    prior : tasks.Uniform
        Threshold prior.
    fraction : float
        Share of the lemma's step, in ``(0, 1]``.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``b_0 <= 0`` or ``fraction`` is not in ``(0, 1]``.

    Examples
    --------
    >>> from stumplib import tasks
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> a0 = float(calibration.a_star(7.0, prior))
    >>> start_step((a0, 7.0), prior) == start_step((a0 + 3, 7.0), prior)
    True
    """
    a0, b0 = theta0
    if b0 <= 0:
        raise ValueError(f"theta0 must have b_0 > 0 (got {b0})")
    if fraction > 1:
        raise ValueError(f"fraction must be in (0, 1] (got {fraction})")
    valley = float(calibration.a_star(b0, prior))
    steps = [descent_lemma.step_bound(a, b0, prior) for a in (a0, valley)]
    return float(fraction * min(steps))


@validation.constrained(
    corpus=validation.Instance(Corpus),
    prior=pretraining.UNIFORM,
    theta0=validation.Point(),
    level=validation.PositiveScalar(),
    fraction=validation.PositiveScalar(),
)
def freeze_from(
    corpus, prior, theta0, level=0.5, fraction=corpus_rule.CERTIFIED_FRACTION
):
    """The corpus rule's freeze from ``theta0`` at :func:`start_step`, checked.

    Constant-step descent on ``corpus`` from ``theta0`` until its gradient noise ratio
    reaches ``level`` (:func:`stumplib.pretraining.train_until_noisy`); then the same
    path is run again to the frozen scale with ``q`` and ``rho`` recorded
    (:func:`stumplib.certified_runs.certified_run`, recorded where ``b`` has grown
    by :data:`stumplib.corpus_rule.CHECK_GROWTH`; the size-tied runs also check each
    of their first :data:`~stumplib.corpus_rule.CHECK_STEPS` iterates).

    Parameters
    ----------
    corpus : Corpus
        The corpus (:func:`rule_corpus` for the corpus rule's own).
    prior : tasks.Uniform
        Threshold prior (of the population loss the checks compare with).
    theta0 : tuple of float
        The start, ``b_0 > 0``.
    level : float
        The rule's noise level.
    fraction : float
        Share of the lemma's step, in ``(0, 1]``.

    Returns
    -------
    StartFreeze

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid.
    FloatingPointError, RuntimeError
        As :func:`stumplib.pretraining.train_until_noisy`.

    Examples
    --------
    >>> from stumplib import tasks
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> corpus = rule_corpus(160, 160, prior, (4, 1))
    >>> run = freeze_from(corpus, prior, (5.0, 3.0))  # 2.4 below the valley
    >>> run.steps > 0, bool(run.q_max <= 2 / 9), run.b_cert <= run.b
    (True, True, True)
    """
    eta = start_step(theta0, prior, fraction)
    frozen = pretraining.train_until_noisy(corpus, theta0, eta, level)
    checked = certified_runs.certified_run(
        corpus, prior, theta0, eta, frozen.b, growth=corpus_rule.CHECK_GROWTH
    )
    return StartFreeze(
        float(frozen.a),
        float(frozen.b),
        int(frozen.steps),
        eta,
        float(np.max(checked.q)),
        float(np.max(checked.rho)),
        float(min(checked.b_cert, frozen.b)),
    )
