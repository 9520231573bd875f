r"""Certified runs: descent on a corpus, the descent lemma checked at its iterates.

A run of gradient descent on a corpus is *certified* at the iterates where the
hypotheses of the descent lemma (:mod:`stumplib.descent_lemma`) hold for that corpus:
its relative gradient error :math:`\rho` against the population gradient (the
decomposition of :mod:`stumplib.certification`) at most ``RHO_MAX`` and the step
against the local curvature, :math:`q = \eta \lambda_{\max}`, at most ``Q_MAX``.
:func:`certified_run` records both along one run and the end
:math:`b_{\mathrm{cert}}` of its certified interval;
:func:`certified_end_over` summarizes the ends over independent corpora and
:func:`certified_end_of_size` draws and runs them, at the scales
:func:`certified_scales` sets for a corpus size.
"""

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from . import calibration, descent_lemma, population, sweep, training, validation
from . import corpus as corpus_module

#: The step of :func:`certified_end_of_size` as a fraction of the lemma's bound at the
#: start, :math:`\eta = f \cdot 2 / (9 \lambda_{\max}(\theta_0))`, :math:`f` =
#: ``STEP_FRACTION``. At the full bound :math:`q = \eta \lambda_{\max}` rises above
#: :math:`2/9` just after the start (measured: up to 1.43 times its start value at
#: :math:`m = n = 400` from :math:`b_0 = 5`, 1.8 times from :math:`b_0 = 10`), as the
#: corpus run leaves the population valley for its own, where the population curvature
#: is larger; a third of the bound leaves room for that rise (:math:`q` is checked per
#: record).
STEP_FRACTION = 1.0 / 3.0

#: Records of :func:`certified_run` are kept where the scale has grown by this relative
#: amount since the last record (2%), at the start and at the last iterate.
RECORD_GROWTH = 0.02


@dataclass(frozen=True)
class CertifiedRun:
    r"""One corpus's constant-step run, the descent lemma's hypotheses at its iterates.

    The arrays hold one entry per recorded iterate :math:`\theta_k` (see
    :func:`certified_run`).

    Parameters
    ----------
    eta : float
        The constant step.
    step : ndarray of int
        Iterate numbers :math:`k`.
    a, b : ndarray
        :math:`\theta_k`.
    rho : ndarray
        The corpus's relative gradient error at :math:`\theta_k`,
        :math:`\rho = |\nabla L_{m,n}(\theta_k) - \nabla L(\theta_k)| /
        |\nabla L(\theta_k)|`.
    q : ndarray
        :math:`\eta` times the larger of :math:`\lambda_{\max}` at :math:`\theta_k`
        and at :math:`\theta_{k+1}` (the curvature over the step, from its two ends).
    decrease : ndarray
        Population-loss decrease of the step, :math:`L(\theta_k) - L(\theta_{k+1})`.
    guaranteed : ndarray
        The lemma's guarantee for the step, :math:`\eta |\nabla L(\theta_k)|^2 / 4`.
    b_cert : float
        Scale of the first recorded iterate with :math:`\rho >` ``RHO_MAX`` or
        :math:`q >` ``Q_MAX``: the
        end of this corpus's certified interval. For a run that never fails before its
        stop, the stop ``b_stop`` itself (``censored`` is then true): the end lies
        beyond it, and every such run of one stop ties there.
    censored : bool
        No recorded iterate failed: ``b_cert`` (the stop) only bounds the end from
        below.
    etas : ndarray, optional
        The step taken from each recorded iterate until the next record (``eta``
        everywhere for a constant step; see ``reset`` of :func:`certified_run`).

    Examples
    --------
    >>> b = np.array([2.5, 2.8, 3.0])
    >>> rho, q = np.array([0.1, 0.6, 0.2]), np.full(3, 0.1)
    >>> run = CertifiedRun(0.1, np.arange(3), b, b, rho, q, np.ones(3), np.zeros(3),
    ...                    b_cert=2.8, censored=False)
    >>> run.certified.tolist(), run.inside.tolist(), run.ended_by
    ([True, False, True], [True, False, False], 'rho')
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
    etas: np.ndarray = None

    @property
    def certified(self):
        r"""Recorded iterates where both hypotheses hold.

        :math:`\rho \le` ``RHO_MAX``, :math:`q \le` ``Q_MAX``.

        Examples
        --------
        >>> b, rho = np.array([2.5, 2.8, 3.0]), np.array([0.1, 0.6, 0.2])
        >>> run = CertifiedRun(0.1, np.arange(3), b, b, rho, np.full(3, 0.1),
        ...                    np.array([1.0, 0.5, 0.1]), np.full(3, 0.2), 2.8, False)
        >>> run.certified.tolist()  # rho = 0.6 fails at the second
        [True, False, True]
        """
        return (self.rho <= descent_lemma.RHO_MAX) & (self.q <= descent_lemma.Q_MAX)

    @property
    def inside(self):
        """Recorded iterates before the first failure (the certified interval).

        Examples
        --------
        >>> b, rho = np.array([2.5, 2.8, 3.0]), np.array([0.1, 0.6, 0.2])
        >>> run = CertifiedRun(0.1, np.arange(3), b, b, rho, np.full(3, 0.1),
        ...                    np.array([1.0, 0.5, 0.1]), np.full(3, 0.2), 2.8, False)
        >>> run.inside.tolist()  # b < b_cert = 2.8
        [True, False, False]
        """
        return self.b < self.b_cert if not self.censored else np.ones(self.b.size, bool)

    @property
    def ended_by(self):
        """The hypothesis that failed first.

        ``"rho"``, ``"q"``, ``"both"``; ``""`` if none.

        Examples
        --------
        >>> b, rho = np.array([2.5, 2.8, 3.0]), np.array([0.1, 0.6, 0.2])
        >>> run = CertifiedRun(0.1, np.arange(3), b, b, rho, np.full(3, 0.1),
        ...                    np.array([1.0, 0.5, 0.1]), np.full(3, 0.2), 2.8, False)
        >>> run.ended_by
        'rho'
        """
        if self.censored:
            return ""
        i = int(np.flatnonzero(self.b == self.b_cert)[0])
        rho, q = self.rho[i] > descent_lemma.RHO_MAX, self.q[i] > descent_lemma.Q_MAX
        return "both" if rho and q else "rho" if rho else "q"

    @property
    def gradient_norm(self):
        r"""The population gradient's norm :math:`|\nabla L(\theta_k)|` at the records.

        Read back from the lemma's guarantee :math:`\eta_k |\nabla L|^2 / 4` of each
        record and its step :math:`\eta_k` (``etas``; ``eta`` when ``etas`` is not
        given).

        Examples
        --------
        >>> b, rho = np.array([2.5, 2.8]), np.array([0.1, 0.6])
        >>> run = CertifiedRun(0.5, np.arange(2), b, b, rho, np.full(2, 0.1),
        ...                    np.ones(2), np.array([0.5, 2.0]), 2.8, False)
        >>> run.gradient_norm.tolist()  # sqrt(4 * 0.5 / 0.5), sqrt(4 * 2 / 0.5)
        [2.0, 4.0]
        """
        etas = self.eta if self.etas is None else self.etas
        return np.sqrt(4.0 * self.guaranteed / etas)

    @property
    def gradient_error(self):
        r"""The corpus gradient's error :math:`|\nabla L_{m,n} - \nabla L|`, per record.

        :math:`\rho` times :attr:`gradient_norm`: the noise against which :math:`\rho`
        measures the signal :math:`|\nabla L|`.

        Examples
        --------
        >>> b, rho = np.array([2.5, 2.8]), np.array([0.1, 0.6])
        >>> run = CertifiedRun(0.5, np.arange(2), b, b, rho, np.full(2, 0.1),
        ...                    np.ones(2), np.array([0.5, 2.0]), 2.8, False)
        >>> run.gradient_error.round(3).tolist()
        [0.2, 2.4]
        """
        return self.rho * self.gradient_norm

    @property
    def held(self):
        r"""Recorded steps whose loss decrease reaches :math:`\eta |\nabla L|^2 / 4`.

        Examples
        --------
        >>> b, rho = np.array([2.5, 2.8, 3.0]), np.array([0.1, 0.6, 0.2])
        >>> run = CertifiedRun(0.1, np.arange(3), b, b, rho, np.full(3, 0.1),
        ...                    np.array([1.0, 0.5, 0.1]), np.full(3, 0.2), 2.8, False)
        >>> run.held.tolist()  # decreases 1, 0.5, 0.1 against guarantees of 0.2
        [True, True, False]
        """
        return self.decrease >= self.guaranteed


@validation.constrained(
    corpus=validation.Instance(corpus_module.Corpus),
    prior=validation.DensityLaw(),
    theta0=validation.Point(),
    eta=validation.PositiveScalar(),
    b_stop=validation.PositiveScalar(),
    growth=validation.PositiveScalar(),
    max_steps=validation.Integer(),
)
def certified_run(
    corpus,
    prior,
    theta0,
    eta,
    b_stop,
    growth=RECORD_GROWTH,
    until_failure=False,
    max_steps=10**6,
    reset=False,
):
    r"""Constant-step descent on ``corpus``, checking the descent lemma at its iterates.

    From ``theta0`` the run takes steps
    :math:`\theta \leftarrow \theta - \eta \nabla L_{m,n}(\theta)`
    (:func:`stumplib.training.descend`) until the scale reaches ``b_stop``. At the
    start, at every iterate where :math:`b` has grown by the factor :math:`1 + r`
    (:math:`r` the ``growth``) since the last record, and at the last iterate it records
    the corpus's relative gradient error :math:`\rho`, the step's
    :math:`q = \eta \lambda_{\max}` (:func:`stumplib.descent_lemma.curvature` at both
    ends of the step) and the step's population-loss decrease against the lemma's
    guarantee :math:`\eta |\nabla L|^2 / 4`. Where :math:`\rho \le 1/2` and
    :math:`q \le 2/9` the lemma proves that guarantee; the first record where either
    fails ends the certified interval (a run that never fails is censored at
    ``b_stop``).

    With ``reset`` the step is constant between records only: at each record it is
    re-set to :math:`\eta \lambda_{\max}(\theta_0) / \lambda_{\max}(\theta_k)`, so
    that each segment starts at the start's :math:`q`. The path is then the corpus's
    gradient flow up to :math:`O(\eta)`, as with a constant step, at a cost that grows
    like :math:`\log b` instead of :math:`b^4`. The :math:`q` of a record is the larger
    of the previous segment's step times :math:`\lambda_{\max}(\theta_k)` (the end of
    that segment) and this segment's step times :math:`\lambda_{\max}` at both ends of
    its first step.

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
        The run stops at the first iterate with :math:`b \ge` ``b_stop``.
    growth : float
        Relative growth of ``b`` between records, positive.
    until_failure : bool
        Stop at the first failing record instead (or at ``b_stop`` if none fails first).
    max_steps : int
        Steps allowed.
    reset : bool
        Re-set the step at each record (see above).

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

    Examples
    --------
    >>> from stumplib import tasks
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> a0 = float(calibration.a_star(2.5, prior))
    >>> eta = STEP_FRACTION * descent_lemma.step_bound(a0, 2.5, prior)
    >>> corpus = corpus_module.Corpus.sample(30, 30, prior, rng=0)
    >>> run = certified_run(corpus, prior, (a0, 2.5), eta, b_stop=3.0)
    >>> run.censored == (run.b_cert == 3.0), bool(np.all(np.diff(run.b) > 0))
    (True, True)
    """
    follower = corpus.follow()
    reset = bool(reset)
    rows, state = [], {"next": -np.inf, "failed": False, "eta": eta, "lam0": None}

    def direction(a, b, k):
        if state["failed"] and until_failure:
            return None
        gradient = np.array(follower.loss_and_gradient(a, b)[1:])
        last = b >= b_stop
        if b >= state["next"] or last:
            lam = descent_lemma.curvature(a, b, prior)
            state["lam0"] = lam if state["lam0"] is None else state["lam0"]
            previous = state["eta"]
            state["eta"] = eta * state["lam0"] / lam if reset else eta
            rows.append(_record(prior, state["eta"], previous, lam, a, b, k, gradient))
            state["next"] = b * (1.0 + growth)
            failed = (
                rows[-1][3] > descent_lemma.RHO_MAX or rows[-1][4] > descent_lemma.Q_MAX
            )
            state["failed"] = state["failed"] or failed
        return None if last else state["eta"] * gradient

    training.descend(direction, theta0, 1.0, max_steps, f"b_stop={b_stop}")
    columns = [np.array(c) for c in zip(*rows)]
    step, a, b, rho, q, decrease, guaranteed, etas = columns
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
        etas,
    )


def _record(prior, eta, previous, lam, a, b, k, gradient):
    """``(k, a, b, rho, q, decrease, guaranteed, eta)`` of the step from ``(a, b)``.

    ``lam`` is ``lambda_max(a, b)``; ``previous`` the step that led to ``(a, b)``.
    """
    value, *g = population.loss_and_gradient(a, b, prior)
    g = np.array(g)
    norm_sq = float(g @ g)
    rho = float(np.linalg.norm(gradient - g) / np.sqrt(norm_sq))
    a1, b1 = a - eta * gradient[0], b - eta * gradient[1]
    q = max(previous * lam, eta * lam, eta * descent_lemma.curvature(a1, b1, prior))
    decrease = float(value - population.loss(a1, b1, prior))
    return k, a, b, rho, q, decrease, eta * norm_sq / 4.0, eta


class CertifiedEnd(NamedTuple):
    r"""The end of the certified interval over independent corpora of one size.

    Parameters
    ----------
    scale : float
        Median of :math:`b_{\mathrm{cert}}` over the corpora (a censored run counts at
        its stop, a lower bound: the median is a lower bound too if half the runs or
        more are censored).
    log_se : float
        Standard error of the log of ``scale`` from the scatter between corpora: the
        standard deviation of the log median over :data:`BOOTSTRAP` resamples of the
        corpora.
    log_sd : float
        Standard deviation of :math:`\log b_{\mathrm{cert}}` between corpora
        (``ddof=1``).
    corpora : int
        Number of corpora.
    censored : int
        How many runs never failed before their stop (their :math:`b_{\mathrm{cert}}` is
        a lower bound).
    empty : int
        How many runs failed at their first record (the start is already past the end).

    Examples
    --------
    >>> end = certified_end_of_ends([2.0, 8.0, 4.0], [False, True, False], [False] * 3)
    >>> end.scale, end.censored, end.empty
    (4.0, 1, 0)
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


def _runs(runs, name):
    try:
        runs = list(runs)
    except TypeError:
        runs = None
    if runs is None or not all(isinstance(r, CertifiedRun) for r in runs):
        raise TypeError(f"{name} must be a sequence of CertifiedRun")
    _at_least_two(len(runs))
    return runs


def _at_least_two(size, name="runs"):
    if size < 2:
        raise ValueError(f"{name} must hold at least two (got {size})")


#: Two or more :class:`CertifiedRun`.
RUNS = validation.Constraint(
    _runs, ((None, TypeError), ([1.0, 2.0], TypeError), ([], ValueError))
)


@validation.constrained(runs=RUNS)
def certified_end_over(runs):
    r""":class:`CertifiedEnd` of several :class:`CertifiedRun`.

    Independent corpora of one size.

    The centre is the median of :math:`b_{\mathrm{cert}}` (robust to the runs censored
    at their stop), its standard error on the log scale the bootstrap one over corpora.

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

    Examples
    --------
    >>> one = np.ones(2)
    >>> runs = [CertifiedRun(1.0, np.arange(2), one, one, one, one, one, one, b, False)
    ...         for b in (2.0, 8.0, 4.0)]
    >>> end = certified_end_over(runs)
    >>> end.scale, end.corpora, round(end.log_sd, 6)  # the median; sd of the logs
    (4.0, 3, 0.693147)
    """
    return certified_end_of_ends(
        [r.b_cert for r in runs],
        [r.censored for r in runs],
        [r.b_cert == r.b[0] and not r.censored for r in runs],
    )


def _ends(values):
    b_cert = np.ravel(values["b_cert"])
    _at_least_two(b_cert.size, "b_cert")
    flags = [np.ravel(np.asarray(values[k], bool)) for k in ("censored", "at_start")]
    if any(f.shape != b_cert.shape for f in flags):
        raise ValueError("censored and at_start must match b_cert")


@validation.constrained(_ends, b_cert=validation.Positive())
def certified_end_of_ends(b_cert, censored, at_start):
    r""":class:`CertifiedEnd` of the ends :math:`b_{\mathrm{cert}}` of several corpora.

    As :func:`certified_end_over`, from the ends alone (a data file's, say).

    Parameters
    ----------
    b_cert : array_like
        The ends, positive, at least two.
    censored, at_start : array_like of bool
        Which runs never failed, and which failed at their first record.

    Returns
    -------
    CertifiedEnd

    Raises
    ------
    ValueError, TypeError
        If ``b_cert`` is not positive or holds fewer than two ends, or the flags do
        not match it.

    Examples
    --------
    >>> end = certified_end_of_ends([2.0, 8.0, 4.0], [False] * 3, [False] * 3)
    >>> end.scale, end.corpora, round(end.log_sd, 6)
    (4.0, 3, 0.693147)
    """
    b_cert = np.ravel(b_cert)
    flags = [np.ravel(np.asarray(v, bool)) for v in (censored, at_start)]
    logs = np.log(b_cert)
    picks = np.random.default_rng(0).integers(0, logs.size, (BOOTSTRAP, logs.size))
    medians = np.median(logs[picks], axis=1)
    return CertifiedEnd(
        float(np.exp(np.median(logs))),
        float(medians.std(ddof=1)),
        float(logs.std(ddof=1)),
        int(b_cert.size),
        int(flags[0].sum()),
        int(flags[1].sum()),
    )


class CertifiedScales(NamedTuple):
    r"""Where the certified runs of a corpus size start and stop.

    Parameters
    ----------
    b0 : float
        The start, :math:`b_0 = \max(k / 40, 2.5)`.
    b_stop : float
        The stop, :math:`3 b_0`.

    Examples
    --------
    >>> scales = certified_scales(400)
    >>> scales.b0, scales.b_stop
    (10.0, 30.0)
    """

    b0: float
    b_stop: float


@validation.constrained(k=validation.Integer())
def certified_scales(k):
    r"""The start and stop of the certified runs on corpora of :math:`m = n = k`.

    Every measurement of :math:`b_{\mathrm{cert}}(k, k)` with
    :func:`certified_end_of_size` uses them, so that measurements on independent draws
    estimate the same quantity.

    Parameters
    ----------
    k : int
        :math:`m = n`.

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
    b0 = max(k / 40, 2.5)
    return CertifiedScales(b0, 3 * b0)


# n_workers and backend are checked by sweep.run
@validation.constrained(
    validation.exceeding("b_stop", "b0"),
    m=validation.Integer(),
    n=validation.Integer(),
    prior=calibration.UNIFORM,
    corpora=validation.Integer(minimum=2),
    seed=validation.Seed(),
    b0=validation.PositiveScalar(),
    b_stop=validation.PositiveScalar(),
    growth=validation.PositiveScalar(),
)
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
    reset=False,
):
    r"""The end of the certified interval of corpora of size :math:`(m, n)`.

    The :math:`b_{\mathrm{cert}}(m, n)`.

    Draws ``corpora`` independent corpora (corpus :math:`r` from the stream
    ``(*seed, m, n, r)``), runs :func:`certified_run` on each from the valley point
    :math:`(a^*(b_0), b_0)` with :data:`STEP_FRACTION` of the lemma's step there
    (:func:`stumplib.descent_lemma.step_bound`) until its first failure (or ``b_stop``;
    to ``b_stop`` in any case with ``until_failure=False``), and summarizes the ends
    (:func:`certified_end_over`). Cost per corpus: about
    :math:`(b^4 - b_0^4) / (8 \eta)` steps to reach :math:`b` on :math:`U[0.1, 0.9]`
    (:math:`b^4` grows like :math:`8 t`), each of cost :math:`O(m)` (about 1 ms at
    :math:`m = n = 400`, 6 ms at 3200), e.g. about :math:`1200 b_0` steps to
    :math:`b = 3 b_0` for :math:`b_0 \ge 10`; and :math:`\log(b / b_0) / r` records
    (:math:`r` the ``growth``) of about 20 ms.

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
    reset : bool
        Re-set the step at each record (as :func:`certified_run`), for runs over a
        wide range of scales.

    Returns
    -------
    end : CertifiedEnd
    runs : list of CertifiedRun

    Raises
    ------
    ValueError, TypeError
        If an argument is invalid.

    Examples
    --------
    >>> from stumplib import tasks
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> end, runs = certified_end_of_size(30, 30, prior, 2, 1, 2.5, 3.0, n_workers=1)
    >>> end.corpora, len(runs), bool(2.5 <= end.scale <= 3.0)
    (2, 2, True)
    """
    a0 = float(calibration.a_star(b0, prior))
    eta = STEP_FRACTION * descent_lemma.step_bound(a0, b0, prior)
    flags = (bool(until_failure), bool(reset))
    items = [
        ((m, n), prior, (a0, b0), eta, b_stop, growth, flags, (*seed, m, n, r))
        for r in range(corpora)
    ]
    runs = sweep.run(_certified_one, items, n_workers, backend, desc="certified runs")
    return certified_end_over(runs), runs


def _certified_one(item):
    """One corpus of :func:`certified_end_of_size`."""
    (m, n), prior, theta0, eta, b_stop, growth, (until_failure, reset), rng = item
    sample = corpus_module.Corpus.sample(m, n, prior, rng=rng)
    return certified_run(
        sample, prior, theta0, eta, b_stop, growth, until_failure, reset=reset
    )
