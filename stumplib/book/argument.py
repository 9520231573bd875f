r"""The figure of the whole argument, which opens the results page.

Six panels, one per link of the chain, each computed by the science at the book's
setting (thresholds :math:`s\sim U[0.1, 0.9]`, features :math:`x\sim U[0, 1]`):

1. a threshold in context: one context, its labels :math:`y=\mathbf 1\{x>s\}` and
   the gap;
2. the softmax head: its attention weights on that context and its estimate;
3. population flow, calibration: the slow-curve offset :math:`a-p\,b` settles on the
   slow curve, just below the valley :math:`a^*(b)`;
4. population flow, growth: the scale then grows like :math:`t^{1/4}`;
5. a finite corpus: descent frozen by the corpus's own rule at a scale :math:`b_T`
   proportional to :math:`m \wedge n` (the committed full-scale runs);
6. the frozen head's error on fresh contexts: the kernel bias :math:`\approx 1/b_T` at
   large :math:`N`, the nearest-positive error :math:`\approx 1/N` at small :math:`N`.

:func:`argument_figure` draws it; the book's Sphinx extension
``book/_ext/argument_figure.py`` calls it when the results page is read.
"""

import matplotlib as mpl
import numpy as np

from .. import baselines, calibration, head, population, tasks, training, validation
from . import full_data, plotting

#: The interior prior of the book.
PRIOR = tasks.Uniform(0.1, 0.9)
#: The committed certified runs of the frozen estimator (``make headline``: the level
#: declared before its runs).
FROZEN_RUNS = full_data.DATA / "frozen-headline.json"
#: Thresholds at which panel 6 measures the error.
THRESHOLDS = (0.3, 0.5, 0.7)
#: Context sizes of panel 6.
SIZES = (4, 10, 30, 100, 300, 1000, 3000)


def frozen_runs(path=FROZEN_RUNS):
    """``(k, a, b)`` arrays of the frozen runs of a full-scale data file.

    Parameters
    ----------
    path : str or pathlib.Path
        A data file of ``make headline`` or ``make full-corpus`` (its ``runs`` carry
        ``k = m = n`` and the frozen ``a`` and ``b``).

    Returns
    -------
    tuple of numpy.ndarray
        ``k``, ``a``, ``b``, sorted by ``k``.

    Raises
    ------
    ValueError
        If the file has no runs (or as :func:`stumplib.book.full_data.load`).

    Examples
    --------
    >>> k, a, b = frozen_runs()
    >>> bool(k.min() >= 320 and (b > 0).all())
    True
    """
    runs = full_data.load(path).get("runs") or []
    if not runs:
        raise ValueError(f"path {path} holds no runs")
    table = np.array([(r["k"], r["a"], r["b"]) for r in runs], dtype=float)
    table = table[np.argsort(table[:, 0], kind="stable")]
    return table[:, 0], table[:, 1], table[:, 2]


@validation.constrained(
    a=validation.Scalar(),
    b=validation.Scalar(),
    sizes=validation.Integers(),
    contexts=validation.Integer(),
    seed=validation.Seed(),
)
def fresh_errors(a, b, sizes=SIZES, contexts=200, seed=0):
    r"""Mean :math:`|\hat s-s|` of a head on fresh contexts of each size, and at ∞.

    Averaged over the thresholds :data:`THRESHOLDS`, ``contexts`` contexts each.

    Parameters
    ----------
    a, b : float
        The frozen head.
    sizes : sequence of int
        Context sizes ``N``.
    contexts : int
        Contexts per size and threshold.
    seed : int
        Seed of the contexts.

    Returns
    -------
    tuple
        ``(errors, infinite)``: an array of one mean error per size, and the mean
        error of the infinite-context estimate (:func:`stumplib.population.estimate`).

    Examples
    --------
    >>> errors, infinite = fresh_errors(9.0, 10.0, sizes=(10,), contexts=20)
    >>> errors.shape, bool(infinite > 0)
    ((1,), True)
    """
    sizes = np.asarray(sizes)
    rng = np.random.default_rng(seed)
    errors = np.zeros(sizes.size)
    for k, n in enumerate(sizes):
        for s in THRESHOLDS:
            x = rng.random((contexts, int(n)))
            errors[k] += np.abs(head.estimate(a, b, x, tasks.labels(x, s)) - s).mean()
    infinite = np.mean([abs(population.estimate(a, b, s) - s) for s in THRESHOLDS])
    return errors / len(THRESHOLDS), float(infinite)


def _runs(values):
    k, a, b = values["k"], values["a"], values["b"]
    if not (k.ndim == 1 and k.shape == a.shape == b.shape and k.size):
        raise ValueError(
            "k, a and b must be 1-D arrays of one length "
            f"(got shapes {k.shape}, {a.shape}, {b.shape})"
        )


@validation.constrained(
    _runs,
    k=validation.Positive(),
    a=validation.Finite(),
    b=validation.Positive(),
    seed=validation.Seed(),
)
def argument_figure(k, a, b, seed=0):
    """The chain of the argument in six panels (see the module's description).

    Parameters
    ----------
    k, a, b : array_like, shape (r,)
        Frozen runs: size ``m = n = k`` and frozen parameters (:func:`frozen_runs`).
    seed : int
        Seed of the context of panels 1-2 and of panel 6's fresh contexts.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ValueError
        If ``k``, ``a`` and ``b`` are not positive arrays of one length (``a``
        finite), or ``seed`` is not a seed.

    Examples
    --------
    >>> fig = argument_figure([320, 5600], [12.6, 124.1], [12.0, 133.5])
    >>> len(fig.axes)
    6
    """
    fig, axes = plotting.subplots(3, 2, height=6.6)
    axes = axes.ravel()
    x, y, s = _context(seed)
    _context_panel(axes[0], x, y, s)
    _head_panel(axes[1], x, y, s)
    run = training.gradient_flow(PRIOR, (PRIOR.hi * 20.0, 20.0), 1e8, points=40)
    _valley_panel(axes[2], run)
    _growth_panel(axes[3], run)
    _frozen_panel(axes[4], k, b)
    _error_panel(axes[5], k, a, b, seed)
    return fig


def _context(seed, n=12, s=0.5):
    x = np.sort(np.random.default_rng(seed).random(n))
    return x, tasks.labels(x, s), s


def _context_panel(ax, x, y, s):
    left, right = baselines.gap(x, y)
    ax.axvspan(left, right, color="0.5", alpha=0.3)
    ax.scatter(x, y, c=np.where(y == 1, "C0", "C1"), s=18, zorder=3)
    ax.axvline(s, color="k", linestyle=":")
    ax.set(title="1 threshold in context", xlabel="$x$", ylabel="label $y$")
    ax.set(xlim=(0, 1), ylim=(-0.4, 1.4), yticks=[0, 1])


def _head_panel(ax, x, y, s, b=20.0):
    a = float(calibration.a_star(b, PRIOR))
    w = head.weights(a, b, x, y)
    ax.vlines(x, 0, w, colors=np.where(y == 1, "C0", "C1"))
    ax.axvline(s, color="k", linestyle=":")
    estimate = float(head.estimate(a, b, x, y))
    ax.axvline(estimate, color="C4", linestyle="--", linewidth=1.0, label=r"$\hat s$")
    ax.set(title="2 softmax head", xlabel="$x$", ylabel="weight $w_i$", xlim=(0, 1))
    ax.legend(loc="upper left")


def _valley_panel(ax, run):
    p = PRIOR.hi
    grid = np.geomspace(run.b[0], run.b[-1], 40)
    valley = calibration.a_star(grid, PRIOR) - p * grid
    ax.plot(grid, valley, color="k", linewidth=1.0, label="valley")
    ax.plot(run.b, run.a - p * run.b, "o-", color="C0", markersize=3, label="flow")
    ax.set(xscale="log", title="3 calibration", xlabel="$b$", ylabel="$a - p\\,b$")
    _plain_log_ticks(ax.xaxis, (20, 50, 100))
    ax.legend(loc="lower right")


def _growth_panel(ax, run):
    r"""The flow's scale, and the quarter law :math:`b=(\kappa t)^{1/4}` where it holds.

    Drawn on ``ax`` from ``run``.
    """
    keep = run.t > 0
    t, b = run.t[keep], run.b[keep]
    kappa = 8 / (1 + PRIOR.hi**2)
    late = t[t >= b[0] ** 4 / kappa]
    ax.plot(t, b, color="C0", label="flow")
    ax.plot(late, (kappa * late) ** 0.25, color="0.4", linestyle="--", linewidth=1.0,
            label="$(\\kappa t)^{1/4}$")  # fmt: skip
    ax.set(xscale="log", yscale="log", title="4 growth", xlabel="$t$", ylabel="$b$")
    _plain_log_ticks(ax.yaxis, (20, 50, 100))
    ax.legend(loc="upper left")


def _plain_log_ticks(axis, ticks):
    """Ticks at ``ticks``, written plainly, and no labels on the minor ticks."""
    axis.set_ticks(ticks, [f"{t:g}" for t in ticks])
    axis.set_minor_formatter(mpl.ticker.NullFormatter())


def _frozen_panel(ax, k, b):
    ratio = float(np.median(b / k))
    ax.scatter(k, b, color="C2", s=14, zorder=3)
    ax.plot(
        k,
        ratio * k,
        color="0.4",
        linestyle="--",
        linewidth=1.0,
        label=r"$\propto m\wedge n$",
    )
    ax.set(xscale="log", yscale="log", title="5 frozen corpus")
    ax.xaxis.set_minor_formatter(mpl.ticker.NullFormatter())  # 10^3 alone labelled
    ax.set(xlabel="$m\\wedge n$", ylabel="$b_T$")
    ax.legend(loc="upper left")


def _error_panel(ax, k, a, b, seed):
    sizes = np.array(SIZES)
    for index, color in ((0, "C2"), (-1, "C4")):
        errors, infinite = fresh_errors(a[index], b[index], seed=seed)
        ax.plot(
            sizes,
            errors,
            "o-",
            color=color,
            markersize=3,
            label=f"$m\\wedge n={k[index]:.0f}$",
        )
        ax.axhline(infinite, color=color, linestyle=":", linewidth=1.0)
    plotting.reference_slope(ax, sizes, -1.0, 1.0 / sizes[0], "$1/N$")
    ax.set(xscale="log", yscale="log", title="6 error", xlabel="$N$")
    ax.set(ylabel="$|\\hat s - s|$")
    ax.legend(loc="lower left")
