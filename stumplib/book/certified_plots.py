"""Chapter 5's figures: the certified end against the size, rho along runs."""

import numpy as np
from matplotlib import ticker

from .. import descent_lemma
from . import plotting


def law_figure(data, predicted, valley_constant):
    """Each corpus's ``b_cert`` against ``m = n``, the medians, the predicted ends.

    Parameters
    ----------
    data : stumplib.book.certified_data.LawData
        The runs.
    predicted : stumplib.certified_law.PredictedEnds
        The predicted ends on a grid of sizes (a line).
    valley_constant : float
        ``C_sigma``: the dotted line ``m / (4 C_sigma^2)`` of the valley's constant.

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
    ax.plot(predicted.m, predicted.b, color="C3", label=r"predicted $m/(4C(b)^2)$")
    ax.plot(
        predicted.m,
        predicted.m / (4 * valley_constant**2),
        ":",
        color="0.4",
        label=r"valley's $m/(4C_\sigma^2)$",
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


def rho_figure(runs, size):
    """``rho`` along certified runs, each run's end marked where it is.

    A dot at ``(b_cert, rho)`` of the record that failed; a triangle at the stop of a
    run that never failed.

    Parameters
    ----------
    runs : sequence of stumplib.certified_runs.CertifiedRun
        The runs.
    size : int
        ``m = n``, for the title.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, ax = plotting.subplots(1, 1, height=3.2)
    for i, r in enumerate(runs):
        ax.plot(r.b, r.rho, color=f"C{i}", linewidth=1.0)
        end = int(np.flatnonzero(r.b == r.b_cert)[0]) if not r.censored else -1
        ax.plot(
            r.b[end],
            r.rho[end],
            "^" if r.censored else "o",
            color=f"C{i}",
            markersize=5,
        )
    ax.axhline(descent_lemma.RHO_MAX, color="k", linestyle=":", linewidth=0.8)
    ax.set(
        xscale="log",
        xlabel="scale $b$ along the run",
        ylabel=r"$\rho$ at the records",
        title=f"relative gradient error along runs, $m=n={size}$",
    )
    ticks = [
        v for v in (2.5, 3, 5, 10, 20, 30, 50, 100) if v <= max(r.b[-1] for r in runs)
    ]
    ax.set_xticks(ticks, [f"{v:g}" for v in ticks])
    ax.xaxis.set_minor_formatter(ticker.NullFormatter())
    return fig


def portrait_figure(portrait, flow, runs):
    """Corpus runs on the population's phase portrait, each run's end marked.

    Parameters
    ----------
    portrait : stumplib.dynamics.Portrait
        The population landscape and flow field (sheared by ``portrait.p``).
    flow : stumplib.certified_law.FlowConstant
        The population flow from the runs' start (dashed).
    runs : sequence of stumplib.certified_runs.CertifiedRun
        The corpus runs (their records, a line each; a dot at ``b_cert``).

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, ax = plotting.subplots(1, 1, height=4.0)
    mesh = plotting.phase_portrait(ax, portrait)
    ax.plot(
        flow.a - portrait.p * flow.b,
        np.log10(flow.b),
        "--",
        color="#edae49",
        linewidth=2.2,
        label="population flow from $b_0$",
    )
    for i, r in enumerate(runs):
        x, y = r.a - portrait.p * r.b, np.log10(r.b)
        ax.plot(x, y, color=f"C{i}", linewidth=1.6)
        end = -1 if r.censored else int(np.flatnonzero(r.b == r.b_cert)[0])
        ax.plot(x[end], y[end], "o", color=f"C{i}", markersize=6, mec="k", mew=0.5)
    ticks = [v for v in (2.5, 5, 10, 20, 40) if portrait.b[0] <= v <= portrait.b[-1]]
    ax.set_yticks(np.log10(ticks), [f"{v:g}" for v in ticks])
    ax.set_title("corpus runs on the population landscape, to their ends")
    fig.colorbar(mesh, ax=ax, label=r"$b\,(b^2L-1)$", extend="both")
    ax.legend(loc="lower right", fontsize=9)
    return fig
