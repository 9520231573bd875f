r"""A fixed pretraining corpus: :math:`m` tasks with :math:`n` labelled examples each.

The empirical loss is :math:`L_{m,n}(a, b) = \frac{1}{m} \sum_j (\hat s(C_j) - s_j)^2`,
:math:`C_j` the context of task :math:`j`; its gradient is
:math:`\frac{2}{m} \sum_j (\hat s_j - s_j) \bigl(\operatorname{Cov}_w(x, y),
-\operatorname{Var}_w(x)\bigr)_j`.

**The engine: cost that falls with the scale.** At scale :math:`b > 0` an example whose
score :math:`a y - b x` lies more than ``Corpus.cutoff`` units below its task's heaviest
example (the *leader*) has relative weight below :math:`e^{-c}`, :math:`c` the cutoff.
Each task is stored sorted within its classes, negatives ascending from the left end of
its row and positives descending to the right end, so the examples that matter for a
class are a run of columns at one end of the row: its *window*. One sorted search over
keys that ascend through the whole corpus finds every window's length; the moments are
then summed over the windows only, on chunks of rows of similar window length (a class
whose leader lies below the task's leader by more than the cutoff is left out). When the
windows cover most of the corpus (small :math:`b`) it is summed densely instead, on row
blocks that stay in cache. With :math:`c = 40 + \log n` the weight left out of a task is
below :math:`n e^{-c} = e^{-40}` of its leader's, so every per-task estimate and its
derivatives in :math:`a` and :math:`b` move by less than :math:`e^{-40} < 5 \cdot
10^{-18}` in absolute terms (features lie in [0, 1]). At :math:`b < 0` (never reached by
training) the dense head evaluation is used.

**Along a run.** Gradient descent moves :math:`b` a little per step, so training
evaluates through a :class:`Follower` (:meth:`Corpus.follow`): it expands each class's
moment sums in the scale around an anchor and re-anchors only when :math:`b` leaves the
expansion's radius, so most steps cost :math:`O(m)` instead of a pass over the windows.

**Per-task gradients.** :func:`task_gradients` gives the :math:`m` per-task gradients
whose mean is the corpus gradient, and :func:`noise_ratio` the corpus's own estimate of
the relative standard error of that mean (its task-sampling noise).
"""

import numpy as np

from . import head, moments, tasks, validation


def _tasks(values):
    """Check a corpus's contexts ``x``, ``y`` (one row a task) and thresholds ``s``."""
    x, y = validation.context(values["x"], values["y"])
    s = values["s"]
    if x.ndim != 2:
        raise ValueError(f"x must have shape (m, n) (got {x.shape})")
    if s.shape != x.shape[:1]:
        raise ValueError(f"s must have shape {x.shape[:1]} (got {s.shape})")
    wrong = np.flatnonzero(np.any(y != (x > s[:, None]), axis=-1))
    if wrong.size:
        raise ValueError(
            f"y must be 1{{x > s}} in every task (task {wrong[0]} differs)"
        )


def _stackable(corpora, name):
    """Check corpora to stack: a non-empty sequence of corpora of one kind and ``n``."""
    if not isinstance(corpora, Corpus) and (
        not hasattr(corpora, "__len__") or isinstance(corpora, str)
    ):
        raise TypeError(
            f"{name} must be a non-empty sequence of Corpus "
            f"(got {type(corpora).__name__})"
        )
    if isinstance(corpora, Corpus) or not len(corpora):
        raise ValueError(f"{name} must be a non-empty sequence of Corpus")
    for corpus in corpora:
        validation.instance(corpus, Corpus, name)
    widths = {corpus.shape[1] for corpus in corpora}
    if len(widths) != 1:
        raise ValueError(f"{name} must have equal n (got {sorted(widths)})")
    kinds = sorted({type(corpus).__name__: type(corpus) for corpus in corpora}.items())
    if len(kinds) != 1:
        raise ValueError(f"{name} must be of one kind (got {[k for k, _ in kinds]})")
    return corpora


#: Corpora to stack (:meth:`Corpus.stack`): non-empty, of one kind and one ``n``.
STACKABLE = validation.Constraint(
    _stackable,
    ((None, TypeError), ([], ValueError), ([None], TypeError), (0.5, TypeError)),
)


class _Empirical:
    """The empirical loss and its gradient, from per-task summaries and thresholds s.

    Subclasses define ``_points`` (validation) and ``_summaries`` (on validated points).
    """

    def summaries(self, a, b):
        """Estimate and its derivatives in :math:`a`, :math:`b`, every task: ``(m,)``.

        ``a`` and ``b`` are one point or one point per task (shape ``(m,)``).

        Examples
        --------
        >>> summaries = Corpus.sample(200, 50, rng=0).summaries(9.0, 10.0)
        >>> np.round(summaries, 4)[:, 0].tolist()  # estimate, d/da, d/db of task 0
        [0.6851, 0.0302, -0.0248]
        """
        return self._summaries(*self._points(a, b))

    def estimates(self, a, b):
        """The head's estimate on each task, shape ``(m,)``.

        Examples
        --------
        >>> Corpus.sample(200, 50, rng=0).estimates(9.0, 10.0)[:3].round(4).tolist()
        [0.6851, 0.4053, 0.2317]
        """
        return self.summaries(a, b)[0]

    @validation.constrained(a=validation.Scalar(), b=validation.Scalar())
    def loss_and_gradient(self, a, b):
        r"""Empirical loss and its gradient at one point.

        Parameters
        ----------
        a, b : float
            Head parameters.

        Returns
        -------
        tuple of float
            :math:`(L, \partial L/\partial a, \partial L/\partial b)`.

        Examples
        --------
        >>> np.round(Corpus.sample(200, 50, rng=0).loss_and_gradient(9, 10), 4).tolist()
        [0.03, -0.0226, 0.0181]
        """
        est, d_a, d_b = self._summaries(a, b)
        r = est - self.s
        return (
            float(np.mean(r**2)),
            float(2 * np.mean(r * d_a)),
            float(2 * np.mean(r * d_b)),
        )

    def loss(self, a, b):
        """Empirical loss :math:`L_{m,n}(a, b)`.

        Examples
        --------
        >>> round(Corpus.sample(200, 50, rng=0).loss(9.0, 10.0), 4)
        0.03
        """
        return self.loss_and_gradient(a, b)[0]

    def gradient(self, a, b):
        r"""Empirical gradient :math:`(\partial L/\partial a, \partial L/\partial b)`.

        Examples
        --------
        >>> np.round(Corpus.sample(200, 50, rng=0).gradient(9.0, 10.0), 4).tolist()
        [-0.0226, 0.0181]
        """
        return self.loss_and_gradient(a, b)[1:]

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
            As :func:`stumplib.corpus.task_gradients`.

        Examples
        --------
        >>> G = Corpus.sample(200, 50, rng=0).task_gradients(9.0, 10.0)
        >>> G.shape, np.round(G.mean(axis=0), 4).tolist()  # their mean is the gradient
        ((200, 2), [-0.0226, 0.0181])
        """
        est, d_a, d_b = self._summaries(a, b)
        r = 2.0 * (est - self.s)
        return np.stack([r * d_a, r * d_b], axis=-1)


class Corpus(_Empirical):
    r"""Labelled contexts with their true thresholds, ready for gradient descent.

    Parameters
    ----------
    x, y : array_like, shape (m, n)
        Features and labels of each task.
    s : array_like, shape (m,)
        True thresholds; the labels must be :math:`y = \mathbf{1}\{x > s\}`.

    Examples
    --------
    >>> corpus = Corpus.sample(200, 50, tasks.Uniform(0.1, 0.9), rng=0)
    >>> corpus.shape
    (200, 50)
    >>> errors = corpus.estimates(9.0, 10.0) - corpus.s
    >>> bool(np.isclose(corpus.loss(9.0, 10.0), np.mean(errors**2)))
    True
    """

    #: Elements per row block of the moment sums (three float64 work arrays stay in L2).
    BLOCK = 1 << 15
    #: Elements per row block when a corpus is laid out (sorted) or sampled.
    LAYOUT_BLOCK = 1 << 20
    #: The corpus is summed densely when its windows cover more than this share of it.
    DENSE_SHARE = 0.6
    _LABELS = np.array([0.0, 1.0])  # the label of each class, negatives then positives

    @validation.constrained(
        _tasks,
        x=validation.UnitInterval(),
        y=validation.Labels(),
        s=validation.UnitInterval(),
    )
    def __init__(self, x, y, s):
        per = max(1, self.LAYOUT_BLOCK // x.shape[1])
        self._build(
            s,
            x.shape,
            ((x[r : r + per], y[r : r + per]) for r in range(0, x.shape[0], per)),
        )

    def _build(self, s, shape, blocks):
        """Lay out the corpus from its thresholds and its row blocks ``(x, y)``, in
        order.
        """
        self.s = validation.unit_interval(s, "s")
        if self.s.shape != shape[:1]:
            raise ValueError(f"s must have shape {shape[:1]} (got {self.s.shape})")
        self._x = np.empty(shape)
        self.n_neg = np.empty(shape[0], dtype=np.int64)
        r = 0
        for x, y in blocks:
            self._layout(x, y, slice(r, r + x.shape[0]))
            r += x.shape[0]
        self._finish()

    def _layout(self, x, y, rows):
        """Sort a row block into the layout.

        Negatives ascending, then positives descending.

        The labels are ``1{x > s}``, so a row sorted ascending holds its negatives
        first; its positives are then read backwards into place (cheaper than sorting by
        class).
        """
        n = x.shape[1]
        n_neg = n - np.count_nonzero(y, axis=1)
        cols = np.arange(n)
        place = np.where(cols < n_neg[:, None], cols, n_neg[:, None] + (n - 1) - cols)
        self._x[rows] = np.take_along_axis(np.sort(x, axis=1), place, axis=1)
        self.n_neg[rows] = n_neg

    def _finish(self):
        """Class leaders, deviations from them and the search keys of the windows."""
        m, n = self._x.shape
        self.cutoff = window_cutoff(n)
        self._empty = np.column_stack([self.n_neg == 0, self.n_neg == n])
        self._sizes = np.column_stack([self.n_neg, n - self.n_neg])
        self._lead = np.where(self._empty, 0.0, self._x[:, [0, n - 1]])
        self._lead_by_class = np.ascontiguousarray(self._lead.T)
        self._dev = np.empty_like(self._x)
        # keys ascend over the whole corpus: row j's negatives 4j + d, its positives
        # 4j + 3 - d
        self._keys = np.empty(m * n)
        keys = self._keys.reshape(m, n)
        cols = np.arange(n)
        per = max(1, self.LAYOUT_BLOCK // n)
        for r in range(0, m, per):
            rows = slice(r, r + per)
            pos = cols >= self.n_neg[rows, None]
            np.subtract(
                self._x[rows],
                np.where(pos, self._lead[rows, 1:], self._lead[rows, :1]),
                out=self._dev[rows],
            )
            base = 4.0 * np.arange(r, min(m, r + per))[:, None]
            keys[rows] = np.where(
                pos, base + 3.0 - self._dev[rows], base + self._dev[rows]
            )
        self._dense = None

    @classmethod
    @validation.constrained(
        m=validation.Integer(),
        n=validation.Integer(),
        prior=validation.Law("sample"),
        features=validation.Law("sample"),
        rng=validation.Rng(),
    )
    def sample(
        cls, m, n, prior=tasks.Uniform(0.1, 0.9), features=tasks.Uniform(), rng=None
    ):
        """Draw a corpus of ``m`` tasks with ``n`` examples.

        See :func:`stumplib.tasks.sample_contexts`.

        The features are drawn and laid out in row blocks (the same draws as one call of
        :func:`stumplib.tasks.sample_contexts` with the same ``rng``), so a corpus of
        :math:`m n = 10^8` examples needs about 2.4 GB (features, deviations and search
        keys) besides one row block.

        Examples
        --------
        >>> Corpus.sample(3, 4, tasks.Uniform(0.1, 0.9), rng=0).s.round(4).tolist()
        [0.6096, 0.3158, 0.1328]
        """
        rng = np.random.default_rng(rng)
        s = prior.sample(m, rng)
        per = max(1, cls.LAYOUT_BLOCK // n)

        def blocks():
            for r in range(0, m, per):
                x = features.sample((min(m, r + per) - r, n), rng)
                yield x, tasks.labels(x, s[r : r + per])

        corpus = cls.__new__(cls)
        corpus._build(s, (m, n), blocks())
        return corpus

    @classmethod
    @validation.constrained(corpora=STACKABLE)
    def stack(cls, corpora):
        """One corpus holding the tasks of ``corpora``, in order.

        All with ``n`` examples.

        Its per-task summaries at one point per task are those of the corpora it holds,
        so many corpora of one size can be trained side by side in one evaluation per
        step. The corpora must be of one class (all dense, or all
        :class:`~stumplib.sparse_corpus.SparseCorpus`); so is the stack.

        Examples
        --------
        >>> corpus = Corpus.sample(3, 4, rng=0)
        >>> Corpus.stack([corpus, corpus]).s.round(4).tolist()  # its tasks, in order
        [0.6096, 0.3158, 0.1328, 0.6096, 0.3158, 0.1328]
        """
        kinds = {type(corpus) for corpus in corpora}
        return kinds.pop()._stack(corpora)

    @classmethod
    def _stack(cls, corpora):
        """:meth:`stack` of validated corpora of this class."""
        stacked = cls.__new__(cls)
        stacked.s = np.concatenate([corpus.s for corpus in corpora])
        stacked._x = np.concatenate([corpus._x for corpus in corpora])
        stacked.n_neg = np.concatenate([corpus.n_neg for corpus in corpora])
        stacked._finish()
        return stacked

    @property
    def shape(self):
        """``(m, n)``.

        Examples
        --------
        >>> Corpus.sample(3, 4, rng=0).shape
        (3, 4)
        """
        return self._x.shape

    def follow(self):
        """A :class:`Follower` of this corpus.

        The same summaries, much cheaper along a run.

        Examples
        --------
        >>> round(Corpus.sample(200, 50, rng=0).follow().loss(9.0, 10.0), 4)
        0.03
        """
        return Follower(self)

    @validation.constrained(a=validation.Finite(), b=validation.Finite())
    def windows(self, a, b):
        """Numbers of examples of each class that carry weight at :math:`(a, b)`, for
        :math:`b > 0`.

        An example counts when its score is within ``cutoff`` units of its task's
        leader; within a class these are the smallest features. ``a`` and ``b`` are one
        point or one point per task (shape ``(m,)``).

        Returns
        -------
        ndarray of int, shape (m, 2)
            Counts of negatives and of positives.

        Examples
        --------
        >>> corpus = Corpus.sample(3, 10, rng=0)
        >>> corpus.windows(9.0, 10.0).tolist(), corpus.windows(9.0, 1000.0).tolist()
        ([[4, 6], [5, 5], [0, 10]], [[2, 0], [2, 0], [0, 1]])
        """
        a, b = self._points(a, b)
        if not np.all(b > 0):
            raise ValueError(f"b must be positive (got {np.min(b)})")
        return self._windows(a, b)

    def _points(self, a, b):
        """``a`` and ``b`` as two floats (one point) or two arrays of shape ``(m,)``
        (one point per task).
        """
        a, b = validation.parameters(a, b)
        if a.ndim == b.ndim == 0:
            return float(a), float(b)  # the scalar path: no per-task broadcasting
        m = self.shape[0]
        return validation.batch(a, "a", (m,)), validation.batch(b, "b", (m,))

    def _windows(self, a, b):
        return self._within(self._gaps(a, b), b)

    def _within(self, gaps, b):
        """:meth:`windows` from the leaders' score ``gaps`` (see :meth:`_gaps`)."""
        with np.errstate(over="ignore"):  # tiny b: every example counts (d <= 1 < 2)
            limit = (self.cutoff - gaps) / np.reshape(b, (-1, 1))
        return self._lengths(np.minimum(limit, 2.0))

    def _left_out(self, gaps):
        """The classes left out at the leaders' score ``gaps``: empty, or led by a
        member more than ``cutoff`` below its task's leader (none within the cutoff).
        """
        return self._empty | (gaps > self.cutoff)

    def _gaps(self, a, b):
        """How far each class leader's score lies below its task's leader, shape
        ``(m, 2)`` (``inf`` for an empty class).
        """
        score = (
            self._LABELS * np.reshape(a, (-1, 1)) - np.reshape(b, (-1, 1)) * self._lead
        )
        score[self._empty] = -np.inf
        return np.maximum(score[:, :1], score[:, 1:]) - score

    def _lengths(self, limit):
        """Numbers of each class's members within ``limit`` of their leader, shape
        ``(m, 2)`` (``limit`` of shape ``(m, 2)``).
        """
        m, n = self._x.shape
        base = 4.0 * np.arange(m)
        start = np.arange(m) * n
        neg = np.searchsorted(self._keys, base + limit[:, 0], side="right") - start
        pos = (
            start
            + n
            - np.searchsorted(self._keys, base + 3.0 - limit[:, 1], side="left")
        )
        return np.clip(np.column_stack([neg, pos]), 0, self._sizes)

    def _window_sums(self, rate, lengths, sizes, right, powers=3):
        """Moment sums ``sum w d^p``, ``p < powers``, of one class over its windows,
        shape ``(powers, m)`` (``rate`` per task).

        Each task's run of ``width = max(lengths)`` columns at its class's end of the
        row is summed; members of the class beyond the window are kept (their weight is
        negligible, and keeping them is exact), members of the other class are masked.
        """
        out = np.zeros((powers, lengths.size))
        n = self._x.shape[1]
        # rows by window length, in chunks of about BLOCK elements each padded to its
        # longest
        order = np.argsort(lengths, kind="stable")
        order = order[np.searchsorted(lengths[order], 1) :]
        sorted_lengths = lengths[order]
        lo = 0
        while lo < order.size:
            padded = np.arange(1, order.size - lo + 1) * sorted_lengths[lo:]
            stop = lo + max(1, int(np.searchsorted(padded, self.BLOCK, side="right")))
            rows, width = order[lo:stop], int(sorted_lengths[stop - 1])
            lo = stop
            cols = slice(n - width, n) if right else slice(0, width)
            d = self._dev[rows, cols]
            w = d * -_per_row(rate, rows)
            short = sizes[rows] < width
            if short.any():
                place = np.arange(width)[::-1] if right else np.arange(width)
                w[short] = np.where(place < sizes[rows[short], None], w[short], -np.inf)
            np.exp(w, out=w)
            out[0, rows] = w.sum(axis=1)
            for p in range(1, powers):
                w *= d
                out[p, rows] = w.sum(axis=1)
        return out

    def _dense_sums(self, rate, powers=3):
        """Moment sums ``sum w d^p``, ``p < powers``, of every class over all its
        members, shape ``(powers, 2, m)`` (``rate`` per task).
        """
        m, n = self._x.shape
        per = max(1, self.BLOCK // n)
        out = np.empty((powers, 2 * m))
        buf = np.empty(per * n + 1)  # a trailing zero ends the last segment of a block
        for r in range(0, m, per):
            rows = slice(r, min(m, r + per))
            d = self._dev[rows]
            k = d.shape[0]
            flat = buf[: k * n + 1]
            flat[-1] = 0.0
            w = flat[:-1].reshape(k, n)
            np.multiply(d, -_per_row(rate, rows), out=w)
            np.exp(w, out=w)
            starts = np.column_stack(
                [np.arange(k) * n, np.arange(k) * n + self.n_neg[rows]]
            ).ravel()
            segments = slice(2 * r, 2 * r + 2 * k)
            np.add.reduceat(flat, starts, out=out[0, segments])
            for p in range(1, powers):
                w *= d
                np.add.reduceat(flat, starts, out=out[p, segments])
        # an empty class gets the element at its start: masked by the caller
        return out.reshape(powers, m, 2).transpose(0, 2, 1)

    def _sums(self, a, b):
        """Moment sums ``(sum w, sum w d, sum w d^2)`` per class, shape ``(3, 2, m)``,
        with ``w = exp(-b d)``, and the mask of classes left out (empty or negligible);
        ``a`` and ``b`` as from :meth:`_points`, ``b > 0``.
        """
        gaps = self._gaps(a, b)
        return self._class_sums(b, self._within(gaps, b)), self._left_out(gaps)

    def _class_sums(self, rate, lengths, powers=3):
        """Moment sums ``sum w d^p``, ``p < powers``, of each class over its window of
        ``lengths`` members (shape ``(m, 2)``), shape ``(powers, 2, m)``; summed densely
        when the windows cover most of the corpus.
        """
        if lengths.sum() > self.DENSE_SHARE * self._x.size:
            return self._dense_sums(rate, powers)
        return np.stack(
            [
                self._window_sums(
                    rate, lengths[:, k], self._sizes[:, k], k == 1, powers
                )
                for k in (0, 1)
            ],
            axis=1,
        )

    def _summaries(self, a, b):
        """:meth:`summaries` at points as from :meth:`_points`."""
        if not np.all(b > 0):
            if self._dense is None:
                cols = np.arange(self._x.shape[1])
                self._dense = head.Contexts(
                    self._x, (cols >= self.n_neg[:, None]).astype(float)
                )
            return self._dense.summaries(a, b)
        return self._summarize(*self._sums(a, b), a, b)

    def _summarize(self, sums, skipped, a, b):
        """:meth:`summaries` from the moment sums per class (shape ``(3, 2, m)``) and
        the mask of classes left out (shape ``(m, 2)``), class by class (unchecked).
        """
        mass, first, second = sums
        skipped, lead = skipped.T, self._lead_by_class
        safe = np.where(skipped, 1.0, mass)
        mean = first / safe
        var = np.maximum(second / safe - mean**2, 0.0)
        with np.errstate(divide="ignore"):
            log_mass = np.where(skipped, -np.inf, np.log(safe) - b * lead)
        log_mass[1] += a
        return moments.combine.unchecked(
            *[(log_mass[k], lead[k] + mean[k], var[k]) for k in (0, 1)]
        )


class Follower(_Empirical):
    r"""A corpus's summaries along a run that moves a little per step (descent).

    Around an anchor scale :math:`b_0` each class's moment sums are series in
    :math:`\delta = b - b_0`, :math:`\sum_i e^{-b d_i} d_i^k = \sum_j (-\delta)^j
    S_{k+j} / j!` with :math:`S_p = \sum_i e^{-b_0 d_i} d_i^p`, :math:`d_i` an example's
    distance from its class leader. With :math:`T` = ``TERMS``, the anchor holds
    :math:`S_0, \ldots, S_{T+1}` over windows that keep every example carrying weight
    anywhere in :math:`|\delta| \le R`, with :math:`R = \max(b_0 / (c + 1), 1)`,
    :math:`c` the cutoff, so that :math:`|\delta| d \le 1` on them (the radius grows
    with the scale: a run that moves up from :math:`b` to :math:`2 b` needs about
    :math:`0.36 (c + 1)` anchors whatever :math:`b`, 18 at :math:`n = 10^4`): :math:`T`
    terms then leave a relative error below :math:`e^2 / T! < 4 \cdot 10^{-18}`, and the
    values are those of ``Corpus.summaries`` to rounding. One anchor costs about as much
    as three evaluations of the corpus; an evaluation within its radius costs :math:`O(m
    T)`. The anchor moves (for every task) as soon as one task leaves its radius, ahead
    of the run where it moves up; at :math:`b \le 0` and past :math:`10^{15}` (its
    terms' :math:`R^{19} / 19!` overflow at :math:`R \approx 10^{17}`) the corpus
    evaluates directly.

    Parameters
    ----------
    corpus : Corpus

    Examples
    --------
    >>> corpus = Corpus.sample(200, 50, tasks.Uniform(0.1, 0.9), rng=0)
    >>> follower = corpus.follow()
    >>> along = [follower.loss_and_gradient(9.0, b) for b in (10.0, 10.01, 10.02)]
    >>> direct = [corpus.loss_and_gradient(9.0, b) for b in (10.0, 10.01, 10.02)]
    >>> bool(np.allclose(along, direct, rtol=1e-12, atol=0)), follower.anchors
    (True, 1)
    """

    TERMS, LARGEST_SCALE = 20, 1e15

    @validation.constrained(corpus=validation.Instance(Corpus))
    def __init__(self, corpus):
        self.corpus, self.s = corpus, corpus.s
        self.anchors = 0  # how many anchors the run has needed
        self._anchor = self._last = None
        orders = np.arange(self.TERMS)
        # shaped against the anchor's series, (moment, term, class, task)
        self._orders = orders.reshape(1, -1, 1, 1)
        self._factorials = np.cumprod(np.maximum(orders, 1), dtype=float).reshape(
            1, -1, 1, 1
        )

    def _points(self, a, b):
        """The corpus's validated points (see :meth:`Corpus._points`)."""
        return self.corpus._points(a, b)

    def _summaries(self, a, b):
        """``Corpus.summaries`` at points as from ``Corpus._points``."""
        corpus = self.corpus
        if not np.all((b > 0) & (b <= self.LARGEST_SCALE)):
            return corpus._summaries(a, b)
        if self._anchor is None or np.any(
            np.abs(b - self._anchor[0]) > self._anchor[1]
        ):
            self._anchor = self._expand(b, self._last)
        self._last = b
        b0, _, series = self._anchor
        coef = np.reshape(-(b - b0), (1, 1, 1, -1)) ** self._orders / self._factorials
        sums = (coef * series).sum(axis=1)
        return corpus._summarize(sums, corpus._left_out(corpus._gaps(a, b)), a, b)

    def _expand(self, b, last):
        """The anchor for a run now at ``b`` (before at ``last``): ``(b_0, R, series)``,
        the series of the moment sums ``sum w d^k``, ``k < 3``, shape
        ``(3, TERMS, 2, m)`` (``S_{k+j}`` at ``[k, j]``). Where the run moves up,
        ``b_0 = b + 0.9 R(b)``, so that the anchor lasts about twice as long
        (``R`` grows with ``b``: ``b`` stays within ``R(b_0)``); elsewhere ``b_0 = b``.
        """
        up = 0.0 if last is None else np.where(b > last, 0.9, 0.0)
        b = b + up * self._radius(b)
        radius = self._radius(b)
        corpus = self.corpus
        low = np.reshape(b - radius, (-1, 1))
        with np.errstate(divide="ignore"):
            limit = np.where(low > 0, corpus.cutoff / low, 2.0)
        limit = np.broadcast_to(np.minimum(limit, 2.0), corpus._sizes.shape)
        self.anchors += 1
        sums = corpus._class_sums(b, corpus._lengths(limit), self.TERMS + 2)
        return b, radius, np.stack([sums[k : k + self.TERMS] for k in range(3)])

    def _radius(self, b):
        """``R(b)`` (see :func:`expansion_radius`)."""
        return expansion_radius(b, self.corpus.cutoff)


@validation.constrained(n=validation.Integer())
def window_cutoff(n):
    r"""The windows' cutoff :math:`c = 40 + \log n`, :math:`n` the examples per task.

    The examples left out of a task weigh less than :math:`n e^{-c} = e^{-40}` of its
    leader.

    Parameters
    ----------
    n : int
        Examples per task, positive.

    Returns
    -------
    float

    Examples
    --------
    >>> round(float(window_cutoff(10**4)), 6)  # 40 + log(10^4)
    49.21034
    """
    return 40.0 + np.log(n)


@validation.constrained(b=validation.Finite(), cutoff=validation.PositiveScalar())
def expansion_radius(b, cutoff):
    r"""The radius :math:`R(b) = \max(b / (c + 1), 1)` of a :class:`Follower`'s series.

    Parameters
    ----------
    b : float or ndarray
        Scale of the anchor.
    cutoff : float
        The corpus's window cutoff :math:`c` (:func:`window_cutoff`).

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> expansion_radius(np.array([10.0, 450.0]), 44.0).tolist()
    [1.0, 10.0]
    """
    return np.maximum(b / (cutoff + 1.0), 1.0)


def _per_row(rate, rows):
    """The rate of each row in ``rows`` as a column, or the one rate of every row."""
    return rate if np.ndim(rate) == 0 else rate[rows, None]


@validation.constrained(
    corpus=validation.Instance((Corpus, Follower)),
    a=validation.Scalar(),
    b=validation.Scalar(),
)
def task_gradients(corpus, a, b):
    r"""Per-task gradients :math:`G_j = 2 (\hat s_j - s_j) \nabla \hat s_j`, ``(m, 2)``.

    :math:`\nabla` in :math:`(a, b)`. Their mean over tasks is the corpus gradient
    :math:`\nabla L_{m,n}(a, b)`. ``corpus`` may be a :class:`Follower` (along a run).

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
    TypeError, ValueError
        If ``corpus`` is not a :class:`Corpus` or :class:`Follower`, or ``a`` or ``b``
        is not a finite scalar.

    Examples
    --------
    >>> corpus = Corpus.sample(200, 50, tasks.Uniform(0.1, 0.9), rng=0)
    >>> G = task_gradients(corpus, 9.0, 10.0)
    >>> G.shape, bool(np.allclose(G.mean(axis=0), corpus.gradient(9.0, 10.0)))
    ((200, 2), True)
    """
    return corpus.task_gradients(a, b)


def _task_rows(values):
    gradients = values["gradients"]
    if gradients.ndim != 2 or gradients.shape[1] != 2 or gradients.shape[0] < 2:
        raise ValueError(
            f"gradients must have shape (m, 2) with m >= 2 (got {gradients.shape})"
        )


@validation.constrained(_task_rows, gradients=validation.Finite())
def noise_ratio(gradients):
    r"""The corpus's own estimate of its relative task-sampling error.

    :math:`\sqrt{\operatorname{tr} \operatorname{Cov}_j(G_j) / m} \,/\,
    |\operatorname{mean}_j G_j|` for per-task gradients :math:`G_j`: the standard error
    of the corpus gradient relative to its norm, with no population quantity. Its
    expectation is about :math:`\sigma_n / \sqrt{m}` relative to :math:`|g|`, the
    sampling part of the relative gradient error (blind to the bias :math:`\beta_n`).

    Parameters
    ----------
    gradients : array_like, shape (m, 2)
        Per-task gradients (:func:`task_gradients`), :math:`m \ge 2`.

    Returns
    -------
    float
        The ratio (``inf`` when the mean gradient vanishes).

    Raises
    ------
    ValueError
        If ``gradients`` is not finite of shape ``(m, 2)`` with :math:`m \ge 2`.

    Examples
    --------
    >>> G = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]])
    >>> round(noise_ratio(G), 12), round(3**-0.5, 12)
    (0.57735026919, 0.57735026919)
    >>> round(noise_ratio(1e200 * G), 12)  # scale-free
    0.57735026919
    """
    m = gradients.shape[0]
    # scale-free: divided by a power of two near the largest entry (exact), so that
    # neither the squares nor the sums overflow or underflow (in one copy, in place)
    _, exponent = np.frexp(max(np.max(gradients), -np.min(gradients)))
    scaled = np.ldexp(gradients, -exponent)
    mean = scaled.mean(axis=0)
    scaled -= mean
    spread = np.sum(np.square(scaled, out=scaled)) / ((m - 1) * m)  # no BLAS rounding
    norm = float(np.sqrt(mean[0] ** 2 + mean[1] ** 2))
    return float(np.sqrt(spread) / norm) if norm > 0 else float("inf")
