"""Chapter 5's figures: signal and noise along runs, the end, the landscape."""

import numpy as np
from matplotlib import ticker

from .. import descent_lemma
from . import plotting


def law_figure(data, predicted, valley_constant):
    r"""Each corpus's ``b_cert`` against ``m = n``, the medians, the predicted ends.

    Parameters
    ----------
    data : stumplib.book.certified_data.LawData
        The runs.
    predicted : stumplib.certified_law.PredictedEnds
        The predicted ends on a grid of sizes (a line).
    valley_constant : float
        :math:`K_\sigma`: the dotted line :math:`m / (4 K_\sigma^2)` of the valley's
        constant.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, ax = plotting.subplots(1, 1, height=3.6)
    for i, size in enumerate(data.sizes):
        x = size.size * np.exp(np.linspace(-0.08, 0.08, size.b_cert.size))
        for mask, marker, colour, label in (
            (~size.censored, "o", "C0", "one corpus"),
            (size.censored, "^", "C1", "never failed (its stop)"),
        ):
            ax.plot(
                x[mask],
                size.b_cert[mask],
                marker,
                color=colour,
                markersize=4,
                alpha=0.8,
                label=label if i == 0 else None,
            )
    k = np.array([s.size for s in data.sizes], float)
    median = np.array([s.end.scale for s in data.sizes])
    se = np.array([s.end.log_se for s in data.sizes])
    ax.errorbar(
        k,
        median,
        yerr=[median * (1 - np.exp(-2 * se)), median * (np.exp(2 * se) - 1)],
        fmt="s",
        color="k",
        markerfacecolor="none",
        markersize=8,
        capsize=3,
        label="median ±2 s.e.",
    )
    ax.plot(predicted.m, predicted.b, color="C3", label=r"predicted $m/(4K(b)^2)$")
    ax.plot(
        predicted.m,
        predicted.m / (4 * valley_constant**2),
        ":",
        color="0.4",
        label=r"valley's $m/(4K_\sigma^2)$",
    )
    ax.axhline(data.start, color="0.6", linewidth=0.8)
    ax.set(
        xscale="log",
        yscale="log",
        xlabel=r"$m=n$",
        ylabel=r"$b_{\mathrm{cert}}$",
        title=f"end of the certified interval (runs from $b_0={data.start:g}$)",
    )
    ax.set_xticks(k, [str(int(v)) for v in k])
    ax.xaxis.set_minor_formatter(ticker.NullFormatter())
    ax.legend(loc="upper left", fontsize=9)
    return fig


def signal_noise_figure(runs, flow, size, predicted_end):
    r"""The key picture: signal and noise along a run, :math:`\rho` rising to one half.

    Top: along ``runs[0]``, the signal :math:`|\nabla L|` (black), its noise
    :math:`|\nabla L_{m,n} - \nabla L|` (blue), half the signal (grey, dotted: the
    interval ends where the noise crosses it), the predicted noise
    :math:`K(b) \sqrt{b/m}\, |\nabla L|` (red, dashed; :math:`K(b)` along the
    population flow) and the guide :math:`2/b^3`. Bottom: :math:`\rho` along every run
    (the first thick), the predicted :math:`K(b) \sqrt{b/m}`, the level :math:`1/2`,
    each run's end (a dot; a triangle at the stop of a run that never failed) and the
    predicted end (a vertical line).

    Parameters
    ----------
    runs : sequence of stumplib.certified_runs.CertifiedRun
        Runs of corpora of one size.
    flow : stumplib.certified_law.FlowConstant
        :math:`K(b)` along the population flow, over at least the runs' scales.
    size : int
        :math:`m = n`.
    predicted_end : float
        The predicted end :math:`b = m / (4 K(b)^2)`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, (top, bottom) = plotting.subplots(
        2, 1, height=4.8, sharex=True, height_ratios=(1.15, 1)
    )
    first = runs[0]
    b_hi = max(r.b[-1] for r in runs)
    constant = np.interp(np.log(first.b), np.log(flow.b), flow.constant)
    top.plot(first.b, first.gradient_norm, color="k", label=r"signal $\|\nabla L\|$")
    top.plot(
        first.b,
        first.gradient_error,
        color="C0",
        label=r"noise $\|\nabla L_{m,n}-\nabla L\|$",
    )
    top.plot(
        first.b,
        constant * np.sqrt(first.b / size) * first.gradient_norm,
        "--",
        color="C1",
        label=r"predicted noise $K(b)\sqrt{b/m}\,\|\nabla L\|$",
    )
    top.plot(
        first.b, first.gradient_norm / 2, ":", color="0.45", label="half the signal"
    )
    top.plot(
        first.b,
        2 / first.b**3,
        color="0.6",
        linewidth=0.8,
        label=r"$2/b^3$ (large $b$)",
    )
    top.set(yscale="log", ylim=(3e-5, 3.0), ylabel="gradient norm")
    top.set_title(f"one corpus, $m=n={size}$")
    top.legend(loc="upper right", fontsize=9, ncols=2)
    grid = np.geomspace(flow.b[0], b_hi, 100)
    bottom.plot(
        grid,
        np.interp(np.log(grid), np.log(flow.b), flow.constant) * np.sqrt(grid / size),
        "--",
        color="C1",
        label=r"predicted $K(b)\sqrt{b/m}$",
    )
    for i, r in enumerate(runs):
        colour = "C0" if i == 0 else f"C{i + 2}"
        bottom.plot(r.b, r.rho, color=colour, linewidth=1.8 if i == 0 else 0.9)
        end = -1 if r.censored else int(np.flatnonzero(r.b == r.b_cert)[0])
        for ax in (top, bottom) if i == 0 else (bottom,):
            y = (r.gradient_error if ax is top else r.rho)[end]
            ax.plot(r.b[end], y, "^" if r.censored else "o", color=colour, ms=6)
    for ax in (top, bottom):
        ax.axvline(predicted_end, color="C1", linestyle=":", linewidth=1.0)
    bottom.axhline(descent_lemma.RHO_MAX, color="k", linestyle=":", linewidth=0.9)
    bottom.plot([], [], ":", color="C1", label="predicted end")
    bottom.plot([], [], "o", color="0.3", label=r"$b_{\mathrm{cert}}$ of a run")
    bottom.set(
        xscale="log",
        ylim=(0, 1.0),
        xlabel="scale $b$ along the run",
        ylabel=r"$\rho$ = noise / signal",
        title=f"relative gradient error of {len(runs)} corpora; level $1/2$ dotted",
    )
    ticks = [v for v in (2.5, 3, 5, 10, 20, 30, 50, 100) if v <= b_hi]
    bottom.set_xticks(ticks, [f"{v:g}" for v in ticks])
    bottom.xaxis.set_minor_formatter(ticker.NullFormatter())
    bottom.legend(loc="upper left", fontsize=9, ncols=3)
    return fig


def portrait_figure(portrait, flow, runs, vmax=4.0):
    r"""Corpus runs on the population's landscape, with the flow's streamlines.

    The colour is the scaled excess loss :math:`b (b^2 L - 1)` (clipped at ``vmax``),
    the grey lines are streamlines of the population flow in the plotted coordinates
    (the slow-curve offset :math:`a - p b` and :math:`\log_{10} b`), which show the flow
    rushing across to the trough and turning up along it.

    Parameters
    ----------
    portrait : stumplib.dynamics.Portrait
        The population landscape and flow field (sheared by ``portrait.p``), on a grid
        even in the offset and in :math:`\log b`.
    flow : stumplib.certified_law.FlowConstant
        The population flow from the runs' start (dashed).
    runs : sequence of stumplib.certified_runs.CertifiedRun
        The corpus runs (their records, a line each; a dot at ``b_cert``).
    vmax : float
        Clip of the colour scale.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, ax = plotting.subplots(1, 1, height=4.0)
    x, y, p = portrait.offset, np.log10(portrait.b), portrait.p
    mesh = plotting.excess_mesh(ax, portrait, vmax)
    ax.streamplot(
        x,
        np.linspace(y[0], y[-1], y.size),
        *plotting.flow_directions(portrait),
        color="0.25",
        linewidth=0.6,
        density=0.9,
        arrowsize=1.1,
    )
    ax.plot(
        flow.a - p * flow.b,
        np.log10(flow.b),
        "--",
        color="#edae49",
        linewidth=2.2,
        label="population flow from $b_0$",
    )
    for i, r in enumerate(runs):
        xr, yr = r.a - p * r.b, np.log10(r.b)
        colour = "C0" if i == 0 else f"C{i + 2}"
        ax.plot(xr, yr, color=colour, linewidth=1.6)
        end = -1 if r.censored else int(np.flatnonzero(r.b == r.b_cert)[0])
        ax.plot(xr[end], yr[end], "o", color=colour, markersize=6, mec="k", mew=0.5)
    ticks = [v for v in (2.5, 5, 10, 20, 40) if portrait.b[0] <= v <= portrait.b[-1]]
    ax.set(
        xlim=(x[0], x[-1]),
        ylim=(y[0], y[-1]),
        xlabel=f"offset $a-{p:g}\\,b$",
        ylabel="scale $b$",
    )
    ax.set_yticks(np.log10(ticks), [f"{v:g}" for v in ticks])
    ax.set_title("corpus runs on the population landscape, to their ends")
    fig.colorbar(mesh, ax=ax, label=r"$b\,(b^2L-1)$", extend="both")
    ax.legend(loc="lower right", fontsize=9)
    return fig


def task_sampling_figure(b, constant, valley_constant, b_mc, sizes, mean_sq):
    r"""The task-sampling constant on the valley: quadrature, limit and Monte Carlo.

    Parameters
    ----------
    b, constant : array_like
        Scales and the quadrature :math:`\sigma_\infty(b) / \sqrt{b}` there (a line).
    valley_constant : float
        The derived limit :math:`K_\sigma` (dashed).
    b_mc : array_like
        Scales of the Monte Carlo.
    sizes : array_like of int
        Tasks ``m`` of the Monte Carlo corpora, one row of ``mean_sq`` each.
    mean_sq : array_like
        Mean squared task-sampling error, shape ``(len(sizes), len(b_mc))``; drawn as
        :math:`\sqrt{\bar e\, m / b}`, :math:`\bar e` the ``mean_sq`` (points).

    Returns
    -------
    matplotlib.figure.Figure
    """
    b_mc, mean_sq = np.asarray(b_mc, float), np.asarray(mean_sq, float)
    fig, ax = plotting.subplots(1, 1, height=3.3)
    ax.plot(b, constant, "k", label=r"quadrature $\sigma_\infty(b)/\sqrt{b}$")
    ax.axhline(valley_constant, color="C1", ls="--", label=r"derived $K_\sigma$")
    for i, m in enumerate(sizes):
        ax.plot(
            b_mc,
            np.sqrt(mean_sq[i] * m / b_mc),
            "o",
            color=f"C{i + 2}",
            markersize=4,
            label=f"Monte Carlo, $m={m}$",
        )
    ax.set(
        xscale="log",
        xlabel="scale $b$ on the valley",
        ylabel=r"$\sigma_\infty(b)/\sqrt{b}$",
        title="the task-sampling constant",
    )
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncols=3)
    return fig
