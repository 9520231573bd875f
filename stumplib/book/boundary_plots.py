"""Figures of the boundary and its symmetrizations, drawn in the book's style.

Each function takes results already computed by the science (risks, population
estimates, flows) and returns a column-wide ``matplotlib.figure.Figure``; the
caller shows it with :func:`stumplib.book.plotting.show`. Nothing here computes a
result.
"""

import numpy as np

from . import plotting


def edge_band(s, n, scaled_risk):
    r"""Heat map of :math:`\log_{10}(N^2 \cdot \mathrm{risk})`, edge distance and size.

    The axes are the distance :math:`1 - s` to the edge and :math:`N`, both logarithmic,
    so the band :math:`1 - s < 1/N` lies left of a diagonal.

    Parameters
    ----------
    s : array_like, shape (k,)
        Thresholds below 1, monotonic.
    n : array_like, shape (j,)
        Context sizes, positive.
    scaled_risk : array_like, shape (j, k)
        :math:`N^2` times the risk, positive.

    Returns
    -------
    matplotlib.figure.Figure
    """
    s, n = np.asarray(s, float), np.asarray(n, float)
    fig, ax = plotting.subplots(height=3.4)
    mesh = ax.pcolormesh(
        1 - s, n, np.log10(scaled_risk), shading="auto", cmap="viridis", rasterized=True
    )
    ax.plot(1 / n, n, "w--", linewidth=1.2, label="$1 - s = 1/N$")
    ax.set(
        xscale="log",
        yscale="log",
        xlabel="distance to the top edge, $1 - s$",
        ylabel="context size $N$",
    )
    fig.colorbar(mesh, ax=ax, label="$\\log_{10}(N^2\\,\\mathrm{risk})$")
    ax.legend(loc="lower left", frameon=True, facecolor="white")
    return fig


def collapse(s, estimates, ratios, hi):
    r"""Population estimates :math:`\hat s^\infty(s)` against ``s``, a curve per scale.

    Parameters
    ----------
    s : array_like
        Thresholds.
    estimates : dict of float to array_like
        :math:`b\mapsto\hat s^\infty(s)`.
    ratios : dict of float to float
        ``b -> a/b`` (a dotted vertical line each).
    hi : float
        Top of the prior (shaded above).

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, ax = plotting.subplots(height=3.2)
    ax.axvspan(hi, 1, color="0.9", label="above hi")
    for k, (b, estimate) in enumerate(estimates.items()):
        ax.plot(s, estimate, color=f"C{k}", label=f"$b={b:g}$")
        ax.axvline(ratios[b], color=f"C{k}", linestyle=":", linewidth=1)
    ax.plot(s, s, color="k", linewidth=0.8, label="$\\hat s = s$")
    ax.set(xlabel="threshold $s$", ylabel="$\\hat s^\\infty(s)$")
    ax.legend(loc="upper left")
    return fig


def pointwise_risks(s, scaled_risks):
    """:math:`N^2` times pointwise risks against :math:`s`, one curve per rule (log y).

    Parameters
    ----------
    s : array_like
        Thresholds.
    scaled_risks : dict of str to array_like
        a map from each rule to :math:`N^2` times its risk; a rule named ``"midpoint"``
        (the Bayes rule) is dashed.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, ax = plotting.subplots(height=3.4)
    for rule, values in scaled_risks.items():
        ax.plot(s, values, "--" if rule == "midpoint" else "-", label=rule)
    ax.set(yscale="log", xlabel="threshold $s$", ylabel="$N^2$ × risk")
    ax.legend(loc="upper center", ncols=2)
    return fig


def strategies(runs, crossings, window=1e6):
    """Loss against time of three strategies, one panel per prior (log-log).

    Parameters
    ----------
    runs : dict of str to stumplib.posthoc.Strategies
        ``prior name -> the three strategies`` (panel titles are the names).
    crossings : dict of str to float or None
        ``prior name -> time of the last crossing`` (a dotted line each).
    window : float
        A slope ``-3/4`` guide is drawn from this time on.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, axes = plotting.subplots(1, len(runs), height=3.4, sharey=True)
    for ax, (name, run) in zip(np.atleast_1d(axes), runs.items()):
        t = run.t[1:]
        ax.plot(t, run.one_head.loss[1:], color="C0", label="one head")
        ax.plot(
            t, run.symmetrized.loss[1:], "--", color="C1", label="symmetrized training"
        )
        ax.plot(t, run.posthoc[1:], color="C2", label="one head, symmetrized after")
        if crossings.get(name) is not None:
            ax.axvline(crossings[name], color="0.5", linestyle=":", linewidth=1)
        late = t >= window
        anchor = 0.3 * run.posthoc[1:][late][0]
        plotting.reference_slope(
            ax, t[late], -0.75, anchor, label="slope $-3/4$", color="C2"
        )
        ax.set(xscale="log", yscale="log", xlabel="time $t$", title=name)
        ax.set(xlim=(1e2, t[-1]), ylim=(1e-9, 2e-2))
    np.atleast_1d(axes)[0].set_ylabel("population loss")
    np.atleast_1d(axes)[0].legend(loc="lower left")
    return fig
