r"""A corpus that holds only the examples that can carry weight, drawn exactly.

With uniform features a task with threshold :math:`s` has
:math:`N_+ \sim \mathrm{Binomial}(n, 1 - s)` positives, iid uniform on :math:`(s, 1]`,
and :math:`N_- = n - N_+` negatives, iid uniform on :math:`[0, s)`. At scale
:math:`b > 0` an example whose deviation :math:`d` from its class's leader (the smallest
member) exceeds :math:`c / b`, :math:`c` the cutoff, has relative weight below
:math:`e^{-c}`, so only the smallest order statistics of each class carry weight. They
are drawn directly: the :math:`K` smallest of :math:`N` iid :math:`U(0, 1)` are jointly
:math:`(S_1, \ldots, S_K) / (S_K + G)`, with :math:`S_j` the partial sums of :math:`K`
standard exponentials and :math:`G \sim \mathrm{Gamma}(N + 1 - K)` independent
(rescaled to the class's interval). Conditionally on the :math:`K`-th, the other
:math:`N - K` are iid uniform between it and the class's upper end, so a class extends
itself exactly by the same construction on what is left above its ``K``-th member.

A :class:`SparseCorpus` has exactly the law of a dense corpus with uniform features
(:meth:`Corpus.sample <stumplib.corpus.Corpus.sample>`, whose thresholds it shares for
one seed); only which examples are held differs. Other feature laws would map the same
uniform order statistics through their inverse distribution function (and measure the
deviations after the map).

**What is held.** Every class holds its smallest members up to the first whose deviation
:math:`d_K` reaches :math:`c / b_{\min}` (or all of them), in blocks: block 0 is sized
from the expected need, each later block doubles the class. An evaluation that needs a
member beyond :math:`d_K` (any evaluation at :math:`b < c / d_K`, in particular below
:math:`b_{\min}`; :math:`b \le 0` needs them all) first draws further blocks until none
is missing, so no sum is ever truncated beyond what the dense engine leaves out: with
:math:`c = 40 + \log n` the members not held weigh less than
:math:`n e^{-c} = e^{-40}` of their task's leader at every point evaluated
(:meth:`SparseCorpus.left_out_bound`).

**Streams.** The thresholds and class counts are drawn from the stream ``seed`` (the
thresholds first, as :meth:`Corpus.sample <stumplib.corpus.Corpus.sample>` draws them);
block ``k`` of class ``c`` (0 negatives, 1 positives) of task ``j`` from
``(*seed, j + 1, c + 1, k + 1)``, counted from 1 because a seed sequence ignores
trailing zeros. Block sizes depend only on the class's own draws and ``b_min``, so
the values held never depend on the order of evaluations nor on stacking.

**Sums.** The moment sums run over each class's window (its members within the cutoff,
found by one binary search over all tasks), on chunks of contiguous tasks; the engine of
:class:`~stumplib.corpus.Corpus` (summaries, loss, gradient, per-task gradients,
:class:`~stumplib.corpus.Follower`, stacking) is otherwise unchanged.
"""

import numpy as np
from scipy import special

from . import corpus as corpus_module
from . import head, tasks, validation
from .corpus import Corpus

#: Block 0 holds the expected need, plus SPREAD square roots of it, plus SLACK members.
SPREAD = 4.0
SLACK = 16
#: Share of room kept spare while a class's flat array is filled (for further blocks).
SPARE = 0.01


def _task_of(values):
    m, task = values["self"].s.size, values["task"]
    if task >= m:
        raise ValueError(f"task must be below m = {m} (got {task})")


class SparseCorpus(Corpus):
    """A corpus with uniform features that holds only the members that carry weight.

    Drawn by :meth:`sample`; evaluated as a :class:`~stumplib.corpus.Corpus`.

    Examples
    --------
    >>> corpus = SparseCorpus.sample(50, 1000, 10.0, seed=3)
    >>> corpus.shape
    (50, 1000)
    >>> bool(corpus.loss(12.0, 12.0) >= 0)
    True
    """

    #: Members per chunk of the moment sums.
    SUM_BLOCK = 1 << 15

    def __init__(self, *args, **kwargs):
        raise TypeError("a SparseCorpus is drawn by SparseCorpus.sample")

    MAX_HELD = 2**32  #: The most members a corpus draws (32 GiB of deviations).

    @classmethod
    @validation.constrained(
        m=validation.Integer(),
        n=validation.Integer(),
        b_min=validation.PositiveScalar(),
        prior=validation.Law("sample"),
        seed=validation.Seed(as_given=True),
    )
    def sample(cls, m, n, b_min, prior=tasks.Uniform(0.1, 0.9), seed=0):
        """Draw a corpus of ``m`` tasks with ``n`` uniform features each.

        Parameters
        ----------
        m, n : int
            Tasks and examples per task.
        b_min : float
            Lowest scale evaluated without drawing more members (the lowest anchor of a
            run, ``b_0 - R(b_0)`` for a :class:`~stumplib.corpus.Follower` from
            ``b_0``).
        prior : law
            Threshold prior (provides ``sample``).
        seed : int or tuple of int
            The corpus's structured seed.

        Returns
        -------
        SparseCorpus

        Examples
        --------
        >>> corpus = SparseCorpus.sample(50, 1000, 10.0, seed=3)
        >>> bool((corpus.held <= corpus.counts).all())
        True
        """
        seed = validation.seed(seed)  # its tuple form, for a seed passed on as given
        rng = np.random.default_rng(seed)
        s = validation.unit_interval(prior.sample(m, rng), "prior")
        positives = rng.binomial(n, 1.0 - s)
        corpus = cls.__new__(cls)
        corpus._draw(s, n, np.column_stack([n - positives, positives]), b_min, seed)
        return corpus

    def _draw(self, s, n, counts, b_min, seed):
        """Draw every class up to the first member at ``cutoff / b_min`` from its leader
        (or all of them), task by task into one flat array per class.
        """
        m = counts.shape[0]
        self.s, self.b_min, self._n = s, b_min, n
        self.cutoff = corpus_module.window_cutoff(n)
        self._streams = [(*seed, j + 1) for j in range(m)]
        self._counts, self._empty = counts, counts == 0
        self._length = np.column_stack([s, 1.0 - s])  # each class's interval
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            mu = np.where(counts > 0, counts * self.cutoff / (b_min * self._length), 0)
        first = np.minimum(counts, np.ceil(mu + SPREAD * np.sqrt(mu) + SLACK))
        if (held := first.sum()) > self.MAX_HELD:
            raise ValueError(
                f"n = {n} at b_min = {b_min:g} would hold {held:.3g} members (at most "
                f"{self.MAX_HELD:.3g}): raise b_min or lower n"
            )
        first = first.astype(np.int64)
        self._sizes = np.zeros((m, 2), dtype=np.int64)
        self._blocks = np.zeros((m, 2), dtype=np.int64)
        self._lead, self._rest = np.zeros((m, 2)), np.zeros((m, 2))
        self._reach = np.full((m, 2), np.inf)  # deviation of the last member held
        self._dev, self._starts = [], []
        for c in (0, 1):
            flat = np.empty(int(first[:, c].sum() * (1 + SPARE)) + 1)
            starts, at = np.zeros(m + 1, dtype=np.int64), 0
            for j in range(m):
                if first[j, c]:
                    dev = self._fill(j, c, first[j, c])
                    if at + dev.size > flat.size:  # rare: grow by half
                        room = np.empty(flat.size // 2 + dev.size)
                        flat = np.concatenate([flat[:at], room])
                    flat[at : at + dev.size] = dev
                    at += dev.size
                starts[j + 1] = at
            flat.resize(at, refcheck=False)
            self._dev.append(flat)
            self._starts.append(starts)
        self._lead_by_class = np.ascontiguousarray(self._lead.T)
        self._dense = None

    def _fill(self, j, c, first):
        """Deviations of the members of class ``c`` of task ``j`` from block 0 (of size
        ``first``) up to the first at ``cutoff / b_min`` from the leader, or all.
        """
        dev = [self._next_block(j, c, first)]
        reach = self.cutoff / self.b_min if self.b_min > 1e-300 else np.inf
        while self._reach[j, c] < reach:
            dev.append(self._next_block(j, c))
        return np.concatenate(dev)

    def _next_block(self, j, c, size=None):
        """Draw the next block of class ``c`` of task ``j``, record what it holds and
        return its members' deviations. ``size``: of block 0; a later block doubles the
        class (or completes it).
        """
        held, count = self._sizes[j, c], self._counts[j, c]
        if held:
            size = min(count - held, held)
        key = (*self._streams[j], c + 1, self._blocks[j, c] + 1)
        v, tail = _block(key, size, count - held)
        if held:
            dev = self._reach[j, c] + self._rest[j, c] * v
            self._rest[j, c] *= tail
        else:
            width = self._length[j, c]
            self._lead[j, c] = (0.0 if c == 0 else self.s[j]) + width * v[0]
            dev = width * (v - v[0])
            self._rest[j, c] = width * tail
        self._sizes[j, c] += size
        self._blocks[j, c] += 1
        self._reach[j, c] = np.inf if self._sizes[j, c] == count else dev[-1]
        return dev

    def follow(self):
        """A :class:`SparseFollower` of this corpus: the same summaries, much cheaper
        along a run.

        Returns
        -------
        SparseFollower

        Examples
        --------
        >>> corpus = SparseCorpus.sample(50, 200, 10.0, seed=(1, 2))
        >>> follower = corpus.follow()
        >>> est, d_a, d_b = follower.summaries(12.0, 12.0)
        >>> bool(np.allclose(est, corpus.estimates(12.0, 12.0), rtol=1e-13, atol=0))
        True
        """
        return SparseFollower(self)

    @classmethod
    def _stack(cls, corpora):
        """:meth:`Corpus.stack <stumplib.corpus.Corpus.stack>` of sparse corpora."""
        stacked = cls.__new__(cls)
        per_task = "s _counts _empty _length _sizes _blocks _lead _rest _reach"
        for name in per_task.split():
            setattr(stacked, name, np.concatenate([getattr(c, name) for c in corpora]))
        stacked._streams = [key for corpus in corpora for key in corpus._streams]
        flats = zip(*(corpus._dev for corpus in corpora))  # per class
        stacked._dev = [np.concatenate(flat) for flat in flats]
        stacked._starts = [_offsets(stacked._sizes[:, c]) for c in (0, 1)]
        stacked.b_min = max(corpus.b_min for corpus in corpora)
        stacked._n, stacked.cutoff = corpora[0]._n, corpora[0].cutoff
        stacked._lead_by_class = np.ascontiguousarray(stacked._lead.T)
        stacked._dense = None
        return stacked

    @property
    def shape(self):
        """``(m, n)``.

        Examples
        --------
        >>> SparseCorpus.sample(5, 100, 10.0).shape
        (5, 100)
        """
        return self.s.size, self._n

    @property
    def counts(self):
        """Members of each class, negatives then positives, shape ``(m, 2)``.

        Examples
        --------
        >>> corpus = SparseCorpus.sample(5, 100, 10.0)
        >>> corpus.counts.shape, bool((corpus.counts.sum(axis=1) == 100).all())
        ((5, 2), True)
        """
        return self._counts.copy()

    @property
    def held(self):
        """Members held of each class, negatives then positives, shape ``(m, 2)``.

        Examples
        --------
        >>> corpus = SparseCorpus.sample(5, 10**5, 5000.0, seed=3)
        >>> bool(corpus.held.sum() < corpus.counts.sum() / 10)
        True
        """
        return self._sizes.copy()

    @validation.constrained(_task_of, task=validation.Integer(minimum=0))
    def members(self, task):
        """The features held of task ``task``: ``(negatives, positives)``, each
        ascending (the smallest members of each class).

        Examples
        --------
        >>> corpus = SparseCorpus.sample(5, 100, 10.0)
        >>> negatives, positives = corpus.members(0)
        >>> bool(negatives.max() < corpus.s[0] < positives.min())
        True
        """
        return tuple(
            self._lead[task, c] + self._dev[c][start[task] : start[task + 1]]
            for c, start in enumerate(self._starts)
        )

    @validation.constrained(a=validation.Scalar(), b=validation.PositiveScalar())
    def left_out_bound(self, a, b):
        r"""Bound on the weight of the members not held, relative to their task leader,
        at one point :math:`(a, b)` with :math:`b > 0`: the sum over classes of
        :math:`(N - K) e^{-\mathrm{gap} - b d_K}` (gap: how far the class leader's
        score lies below the task's leader; :math:`d_K`: the last member held), shape
        ``(m,)``. Below :math:`n e^{-c} = e^{-40}`, :math:`c` the cutoff, at every
        :math:`b \ge b_{\min}`.

        Examples
        --------
        >>> corpus = SparseCorpus.sample(50, 1000, 10.0, seed=3)
        >>> bool(corpus.left_out_bound(12.0, 12.0).max() < np.exp(-40))
        True
        """
        with np.errstate(invalid="ignore"):  # a complete or empty class: 0 e^{-inf}
            weight = np.exp(-self._gaps(a, b) - b * self._reach)
            bound = (self._counts - self._sizes) * weight
        return np.nan_to_num(bound, nan=0.0).sum(axis=1)

    def _extend(self, limit):
        """Draw blocks until every class holds all its members within ``limit`` of its
        leader (``limit`` broadcasts against ``(m, 2)``).
        """
        while True:
            need = np.argwhere(self._reach < limit)
            if not need.size:
                return
            drawn = ([], []), ([], [])  # per class: insertion points, deviations
            for j, c in need:
                dev = self._next_block(j, c)
                drawn[c][0].append(np.full(dev.size, self._starts[c][j + 1]))
                drawn[c][1].append(dev)
            for c in (0, 1):
                if drawn[c][0]:
                    where, values = (np.concatenate(part) for part in drawn[c])
                    self._dev[c] = np.insert(self._dev[c], where, values)
                    self._starts[c] = _offsets(self._sizes[:, c])

    def _lengths(self, limit):
        """Numbers of each class's members within ``limit`` of their leader, shape
        ``(m, 2)``, after drawing every member needed for them.
        """
        self._extend(limit)
        return np.column_stack(
            [_count_within(self._dev[c], self._starts[c], limit[:, c]) for c in (0, 1)]
        )

    def _class_sums(self, rate, lengths, powers=3):
        r"""Moment sums :math:`\sum w d^p`, ``p < powers``, of each class over its
        window of
        ``lengths`` members (shape ``(m, 2)``, held: :meth:`_lengths` drew them), shape
        ``(powers, 2, m)`` (``rate`` per task).
        """
        sums = [self._held_sums(rate, c, powers, lengths[:, c]) for c in (0, 1)]
        return np.stack(sums, axis=1)

    def _held_sums(self, rate, c, powers, lengths):
        """Moment sums of class ``c`` over the first ``lengths`` members held of each
        task, shape ``(powers, m)``, on chunks of contiguous tasks of about
        ``SUM_BLOCK`` members.
        """
        flat, starts, windows = self._dev[c], self._starts[c], _offsets(lengths)
        m = starts.size - 1
        out = np.zeros((powers, m))
        r = 0
        while r < m:
            end = np.searchsorted(windows, windows[r] + self.SUM_BLOCK, side="right")
            stop = min(m, max(r + 1, int(end) - 1))
            sizes = lengths[r:stop]
            rows = np.flatnonzero(sizes)
            if rows.size:
                if windows[stop] - windows[r] == starts[stop] - starts[r]:  # all held
                    d = flat[starts[r] : starts[stop]]
                else:
                    d = flat[_window_index(starts[r:stop], sizes)]
                scale = rate if np.ndim(rate) == 0 else np.repeat(rate[r:stop], sizes)
                w = np.exp(d * -scale)
                at = windows[r:stop][rows] - windows[r]
                out[0, r + rows] = np.add.reduceat(w, at)
                for p in range(1, powers):
                    w *= d
                    out[p, r + rows] = np.add.reduceat(w, at)
            r = stop
        return out

    def _summaries(self, a, b):
        """:meth:`summaries` at validated points; at ``b <= 0`` every member is drawn
        and the dense head evaluates.
        """
        if not np.all(b > 0) and self._dense is None:
            self._extend(np.inf)
            self._dense = head.Contexts(*self._complete_layout())
        return super()._summaries(a, b)

    def _complete_layout(self):
        """Features and labels ``(x, y)``, shape ``(m, n)``, of a corpus holding every
        member: negatives ascending, then positives ascending.
        """
        m, n = self.shape
        cols = np.arange(n)
        negative = cols < self._counts[:, :1]
        x = np.empty((m, n))
        for c, mask in enumerate((negative, ~negative)):
            x[mask] = np.repeat(self._lead[:, c], self._sizes[:, c]) + self._dev[c]
        return x, (~negative).astype(float)


def _term_reach(terms):
    r"""``x_J``, ``J = 1 .. terms``: the largest ``x = |delta| / R`` in ``[0, 1]`` at
    which ``J`` terms of a :class:`~stumplib.corpus.Follower`'s series keep the relative
    remainder :math:`x^J / J! e^{2x}` within the bound of all ``terms`` at the radius,
    :math:`e^2 / \mathrm{terms}!` (by bisection; ``x_terms = 1``).
    """
    order = np.arange(1, terms + 1, dtype=float)
    bound = 2.0 - special.gammaln(terms + 1.0)
    lo, hi = np.zeros(terms), np.ones(terms)
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        fits = order * np.log(mid) - special.gammaln(order + 1.0) + 2.0 * mid <= bound
        lo, hi = np.where(fits, mid, lo), np.where(fits, hi, mid)
    lo[-1] = 1.0
    return lo


class SparseFollower(corpus_module.Follower):
    r"""The :class:`~stumplib.corpus.Follower` of a :class:`SparseCorpus`, costing
    one pass over the terms a step needs, for the classes that carry weight.

    The anchor (the same scales, radius and windows as the Follower's) holds the moment
    sums :math:`S_p` of each class once, :math:`p < T + 2` (:math:`T` = ``TERMS``),
    term-major (shape ``(TERMS + 2, 2 m)``): the three series
    :math:`\sum_j c_j S_{k+j}`, :math:`k < 3`, with :math:`c_j = (-\delta)^j / j!`, are
    three products of the :math:`J` coefficients with rows :math:`k, \ldots, k + J - 1`
    (matrix-vector passes over :math:`J + 2` rows, no temporary of the series' size;
    faster than one product with a banded matrix). :math:`J` is the fewest terms whose
    remainder at :math:`x = |\delta| / R`, :math:`x^J / J! \, e^{2x}`, stays within the
    bound of all :math:`T` terms at the radius, :math:`e^2 / T! < 4 \cdot 10^{-18}`
    (relative, for every class sum: every term is positive and :math:`|\delta| d \le x`
    on the windows); near the anchor a few terms suffice.

    The tasks are held sorted by ``rise``, how far the positives' leader lies above the
    negatives' (a class that is empty puts its task at an end). At one point
    :math:`(a, b)` the positives' leader's score over the negatives',
    :math:`r = a - b \cdot \mathrm{rise}`, then falls
    along the tasks, so the tasks where a class lies more than ``cutoff`` below the
    other (the other class alone carries weight) are the two ends, found by bisection:
    only the middle is combined from both classes (``_combine``); at the ends only
    the leading class's series is evaluated. With one scale per task (stacked corpora)
    every task is combined and the sums are taken term by term. The values are those of
    ``SparseCorpus.summaries`` to rounding (the ends exactly as the combination gives
    them, where the class left out weighs 0).

    A run can be cut and resumed bit-identically: :meth:`state` gives the anchor's
    scale, the last scale evaluated and the anchor count, :meth:`restore` rebuilds the
    same anchor from them (an anchor depends only on its scale).

    Parameters
    ----------
    corpus : SparseCorpus

    Examples
    --------
    >>> corpus = SparseCorpus.sample(40, 100, 5.0, seed=(3,))
    >>> follower = SparseFollower(corpus)
    >>> loss, g_a, g_b = follower.loss_and_gradient(6.0, 6.5)
    >>> bool(np.isclose(loss, corpus.loss(6.0, 6.5), rtol=1e-12, atol=0))
    True
    >>> follower.anchors
    1
    """

    #: ``x_J`` of the term count's reach (``_term_reach``) for ``J = 1 .. TERMS``.
    REACH = _term_reach(corpus_module.Follower.TERMS)

    @validation.constrained(corpus=validation.Instance(SparseCorpus))
    def __init__(self, corpus):
        super().__init__(corpus)
        lead, empty = corpus._lead_by_class, corpus._empty.T
        rise = lead[1] - lead[0]  # a - b * rise: the positives' score above
        key = np.where(empty[0], -np.inf, np.where(empty[1], np.inf, rise))
        self._order = np.argsort(key, kind="stable")  # sorted task -> task
        self._inverse = np.argsort(self._order)  # task -> sorted task
        self._key, self._rise = key[self._order], rise[self._order]
        self._lead, self._s = lead[:, self._order], corpus.s[self._order]
        self._alone = [np.flatnonzero(empty[1 - c, self._order]) for c in (0, 1)]
        m = key.size
        # work arrays of every step (fresh arrays of this size cost page faults)
        self._sums = np.empty((3, 2, m))
        self._out = np.empty((3, m))  # estimate, d/da, d/db of the sorted tasks
        self._pairs = np.empty((4, 2, m))  # inverse mass, mean, variance, weights
        self._single = np.empty((4, m))  # rise, up, down, gap
        self._mask = np.empty(m, dtype=bool)

    def state(self):
        """What a checkpoint keeps: the anchor's scale, the last scale evaluated and the
        anchors so far, as plain numbers (``None`` before the first evaluation).

        Returns
        -------
        dict
            ``{"anchor": b0, "last": b, "anchors": count}``.

        Examples
        --------
        >>> follower = SparseCorpus.sample(20, 50, 4.0, seed=(5,)).follow()
        >>> follower.state()
        {'anchor': None, 'last': None, 'anchors': 0}
        >>> _ = follower.summaries(5.0, 5.0)
        >>> follower.state()["anchor"] == 5.0
        True
        """
        anchor = None if self._anchor is None else _plain(self._anchor[0])
        return {"anchor": anchor, "last": _plain(self._last), "anchors": self.anchors}

    def restore(self, state):
        """Continue from :meth:`state` of a follower of the same corpus: the next
        evaluations are bit-identical to that follower's.

        Parameters
        ----------
        state : dict
            As :meth:`state` returned it.

        Examples
        --------
        >>> corpus = SparseCorpus.sample(20, 50, 4.0, seed=(5,))
        >>> first = corpus.follow()
        >>> _ = first.summaries(5.0, 5.0)
        >>> again = corpus.follow()
        >>> again.restore(first.state())
        >>> first.loss(5.1, 5.2) == again.loss(5.1, 5.2)
        True
        """
        if not isinstance(state, dict) or set(state) != {"anchor", "last", "anchors"}:
            raise ValueError(
                f"state must be a dict with keys anchor, last, anchors (got {state!r})"
            )
        anchor, last = (
            None if state[k] is None else validation.finite(state[k], f"state[{k!r}]")
            for k in ("anchor", "last")
        )
        self._anchor = None if anchor is None else self._term_major(anchor, None)
        self._last = None if last is None else np.asarray(last, dtype=float)[()]
        self.anchors = validation.count(state["anchors"], "state['anchors']", minimum=0)

    def _term_major(self, b, last):
        """The Follower's anchor for a run at ``b`` (before at ``last``) as
        ``(b_0, R, S)``, ``S_p`` at row ``p`` with the tasks sorted: shape
        ``(TERMS + 2, 2 m)``.
        """
        b0, radius, series = self._expand(b, last)  # S_{k+j} at [k, j]
        terms = self.TERMS
        rows = np.concatenate([series[0], series[2, terms - 2 :]])
        return b0, radius, rows[..., self._order].reshape(terms + 2, -1)

    def _summaries(self, a, b):
        """``SparseCorpus.summaries`` at points as from ``Corpus._points``."""
        if not np.all((b > 0) & (b <= self.LARGEST_SCALE)):
            return self.corpus._summaries(a, b)
        return tuple(np.take(row, self._inverse) for row in self._sorted(a, b))

    @validation.constrained(a=validation.Scalar(), b=validation.Scalar())
    def task_gradients(self, a, b):
        """Per-task gradients at one point (:func:`stumplib.corpus.task_gradients`).

        Parameters
        ----------
        a, b : float
            Head parameters.

        Returns
        -------
        ndarray, shape (m, 2)
            As :func:`stumplib.corpus.task_gradients` (a view of a ``(2, m)`` array).

        Examples
        --------
        >>> corpus = SparseCorpus.sample(40, 100, 5.0, seed=(3,))
        >>> G = corpus.follow().task_gradients(6.0, 6.5)
        >>> bool(np.allclose(G, corpus.task_gradients(6.0, 6.5), rtol=1e-12, atol=0))
        True
        """
        if not 0 < b <= self.LARGEST_SCALE:
            return super().task_gradients(a, b)
        est, d_a, d_b = self._sorted(a, b)
        r = np.subtract(est, self._s, out=est)
        r *= 2.0
        gradients = np.empty((2, r.size))
        for row, d in zip(gradients, (d_a, d_b)):
            np.multiply(r, d, out=d)
            np.take(d, self._inverse, out=row, mode="clip")  # clip: not buffered
        return gradients.T

    def _sorted(self, a, b):
        """Estimate, ``d/da`` and ``d/db`` of the sorted tasks at ``b > 0``, the rows of
        a work array of shape ``(3, m)``.
        """
        if self._anchor is None or np.any(
            np.abs(b - self._anchor[0]) > self._anchor[1]
        ):
            self._anchor = self._term_major(b, self._last)
        self._last = b
        b0, radius, rows = self._anchor
        delta = b - b0
        terms = 1 + int(np.searchsorted(self.REACH, np.max(np.abs(delta) / radius)))
        steps = -np.divide.outer(delta, np.arange(1, terms))  # (-delta) / j
        m = self._key.size
        if np.ndim(delta) == 0:
            coef = np.cumprod(np.concatenate([[1.0], steps]))
            rows = rows[: terms + 2].reshape(terms + 2, 2, m)
            lo, hi = self._ends(a, b)
            self._alone_class(coef, rows, 1, slice(0, lo))
            self._alone_class(coef, rows, 0, slice(hi, m))
            for c in (0, 1):
                self._series(coef, rows, c, slice(lo, hi))
            self._combine(self._sums[:, :, lo:hi], a, b, slice(lo, hi))
        else:  # one scale per task: the same sums, term by term, every task combined
            a, b, steps = a[self._order], b[self._order], steps[self._order]
            coef = np.cumprod(np.column_stack([np.ones(m), steps]), axis=1)
            coef = np.tile(coef.T, (1, 2))  # (terms, 2 m), per task of each class
            sums = self._sums.reshape(3, -1)
            for k in range(3):
                np.einsum("jt,jt->t", coef, rows[k : k + terms], out=sums[k])
            self._combine(self._sums, a, b, slice(0, m))
        return self._out

    def _ends(self, a, b):
        """``(lo, hi)``: the sorted tasks below ``lo`` are their positives alone
        (``r > cutoff``, or no negatives), those from ``hi`` their negatives alone
        (``r < -cutoff``, or no positives); ``r`` as :meth:`_combine` computes it.
        """
        cutoff, key = self.corpus.cutoff, self._key

        def prefix(holds, guess):  # the prefix where holds(r) (it falls along tasks)
            while guess > 0 and not holds(key[guess - 1] * -b + a):
                guess -= 1
            while guess < key.size and holds(key[guess] * -b + a):
                guess += 1
            return guess

        lo = prefix(lambda r: r > cutoff, np.searchsorted(key, (a - cutoff) / b))
        hi = prefix(lambda r: r >= -cutoff, np.searchsorted(key, (a + cutoff) / b))
        return lo, max(lo, hi)

    def _series(self, coef, rows, c, part):
        """The moment sums of class ``c`` of the sorted tasks ``part`` from the
        coefficients ``coef`` and the anchor's ``rows`` (shape ``(J + 2, 2, m)``), into
        the work array; returned (shape ``(3, h)``).
        """
        sums, terms = self._sums[:, c, part], coef.size
        for k in range(3):
            np.matmul(coef, rows[k : k + terms, c, part], out=sums[k])
        return sums

    def _alone_class(self, coef, rows, c, part):
        """The summaries of the sorted tasks ``part`` from class ``c`` alone: its
        leader plus its mean deviation, ``d/da = 0`` and minus its variance, as
        :meth:`_combine` gives them with the other class's weight 0.
        """
        mass, first, second = self._series(coef, rows, c, part)
        est, d_a, d_b = self._out[:, part]
        np.divide(1.0, mass, out=mass)  # no empty class leads
        np.multiply(first, mass, out=est)
        np.multiply(second, mass, out=d_b)
        np.multiply(est, est, out=first)
        np.subtract(first, d_b, out=d_b)  # minus the variance, at most 0
        np.minimum(d_b, 0.0, out=d_b)
        est += self._lead[c, part]
        d_a.fill(0.0)

    def _combine(self, sums, a, b, part):
        r"""The summaries of the sorted tasks ``part`` from the moment sums of each
        class, shape ``(3, 2, h)``, into the rows of the work array.

        Each class's mass ``M``, mean deviation and variance, mixed with the weights of
        :func:`stumplib.moments.combine`: with ``r`` the positives' leader's score over
        the negatives' and :math:`\mathbb E = e^r`, the classes weigh ``M_0 min(1/E,
        1)`` and
        ``M_1 min(E, 1)`` (one exponential, no logarithm, as exact as the softmax of the
        log masses), a class more than ``cutoff`` below its task's leader weighs 0; a
        task with an empty class is its other class alone. The work is done in place,
        in the follower's work arrays.
        """
        h = sums.shape[-1]
        if not h:
            return
        mass, first, second = sums
        inv, mean, var, p = self._pairs[..., :h]
        rise, up, down, gap = self._single[:, :h]
        mask, cutoff = self._mask[:h], self.corpus.cutoff
        alone = [
            k[(k >= part.start) & (k < part.stop)] - part.start for k in self._alone
        ]
        with np.errstate(divide="ignore"):  # an empty class: no mass
            np.divide(1.0, mass, out=inv)
        for c in (0, 1):
            inv[1 - c, alone[c]] = 0.0
        np.multiply(first, inv, out=mean)
        np.multiply(second, inv, out=var)
        np.multiply(mean, mean, out=p)  # p as scratch
        var -= p
        np.maximum(var, 0.0, out=var)
        np.multiply(self._rise[part], -b, out=rise)  # the positives' leader's score
        rise += a  # over the negatives': a - b (lead_1 - lead_0)
        with np.errstate(over="ignore", divide="ignore"):
            np.exp(rise, out=up)
            np.divide(1.0, up, out=down)
        np.minimum(up, 1.0, out=up)
        np.minimum(down, 1.0, out=down)
        up *= np.greater_equal(rise, -cutoff, out=mask)  # more than cutoff below: out
        down *= np.less_equal(rise, cutoff, out=mask)
        np.multiply(mass[0], down, out=p[0])  # the classes' weights
        np.multiply(mass[1], up, out=p[1])
        np.add(p[0], p[1], out=gap)
        with np.errstate(invalid="ignore"):  # 0/0: a class alone, left out; set below
            p /= gap
        for c in (0, 1):
            p[c, alone[c]], p[1 - c, alone[c]] = 1.0, 0.0
        mean += self._lead[:, part]
        np.subtract(mean[1], mean[0], out=gap)
        np.multiply(p[0], p[1], out=up)  # mixed
        estimate, d_a, d_b = self._out[:, part]
        np.multiply(p[0], mean[0], out=estimate)
        estimate += np.multiply(p[1], mean[1], out=down)
        np.multiply(p[0], var[0], out=d_b)
        d_b += np.multiply(p[1], var[1], out=down)
        np.multiply(up, gap, out=d_a)
        d_b += np.multiply(d_a, gap, out=down)
        np.negative(d_b, out=d_b)


def _plain(value):
    """A scale as a float (a per-task scale as a list), ``None`` kept."""
    if value is None:
        return None
    value = np.asarray(value, dtype=float)
    return float(value) if value.ndim == 0 else value.tolist()


@validation.constrained(b0=validation.PositiveScalar(), n=validation.Integer())
def lowest_anchor(b0, n):
    r"""The lowest scale a :class:`~stumplib.corpus.Follower` evaluates on a run from
    :math:`b_0` over contexts of :math:`n` examples: :math:`b_0 - R(b_0)`, with
    :math:`R` the radius of its first anchor, :math:`\max(b_0 / (c + 1), 1)`, :math:`c`
    the cutoff. A corpus drawn with ``b_min`` at most this draws no further member along
    a run that stays above ``b0``.

    Parameters
    ----------
    b0 : float
        Start of the run, ``b0 > 0``.
    n : int
        Examples per task.

    Returns
    -------
    float
        :math:`b_0 - R(b_0)` (not positive when :math:`b_0 \le R(b_0)`).

    Examples
    --------
    >>> round(lowest_anchor(100.0, 1000), 3)
    97.913
    """
    cutoff = corpus_module.window_cutoff(n)
    return float(b0 - corpus_module.expansion_radius(b0, cutoff))


def _block(key, size, remaining):
    """The ``size`` smallest of ``remaining`` iid ``U(0, 1)``, drawn from the stream
    ``key``: ``(v, tail)``, ``v`` ascending and ``tail = 1 - v[-1]`` computed
    directly.
    """
    rng = np.random.default_rng(key)
    partial = np.cumsum(rng.standard_exponential(size))
    gap = rng.gamma(remaining + 1 - size)
    total = partial[-1] + gap
    return partial / total, gap / total


def _offsets(sizes):
    """Start of each task's members in a class's flat array, then the end, shape
    ``(m + 1,)``.
    """
    return np.concatenate([[0], np.cumsum(sizes)])


def _window_index(starts, lengths):
    """Indices of the first ``lengths[j]`` members from ``starts[j]``, one task after
    another.
    """
    shift = np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)
    return shift + np.arange(lengths.sum())


def _count_within(flat, starts, limit):
    """Members with deviation ``<= limit`` of each task (its members ascending from
    ``starts[j]``), by a binary search over all tasks at once.
    """
    lo, hi = np.zeros(starts.size - 1, dtype=np.int64), np.diff(starts)
    active = lo < hi
    while active.any():
        mid = (lo + hi) // 2
        inside = np.zeros_like(active)
        inside[active] = flat[starts[:-1][active] + mid[active]] <= limit[active]
        lo = np.where(active & inside, mid + 1, lo)
        hi = np.where(active & ~inside, mid, hi)
        active = lo < hi
    return lo
