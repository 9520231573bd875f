"""Chapter 6's figures: the price of certification; frozen heads on fresh contexts."""

import numpy as np

from . import plotting

#: The colour of each freeze level ``l``.
LEVEL_COLOURS = {0.5: "C0", 1 / 3: "C1", 0.25: "C2", 0.125: "C3"}


def price_figure(runs, constant):
    """Error times ``m ∧ n`` of each frozen run against the size, by freeze level.

    Filled markers froze inside their certified interval, open ones past it; the
    dashed lines are each level's bound constant ``(C / l)²``. Runs from another start
    (``divisor != 1``) are left out.

    Parameters
    ----------
    runs : sequence of stumplib.book.frozen_data.Run
        The runs (certified ``m = n`` and infinite contexts).
    constant : float
        ``C``, the slow curve's layer constant.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, ax = plotting.subplots(1, 1, height=4.2)
    for r in runs:
        if r.divisor != 1.0:
            continue
        colour = LEVEL_COLOURS[r.level]
        marker = "o" if r.kind == "certified" else "^"
        face = colour if r.inside else "none"
        ax.plot(r.k, r.error * r.k, marker, color=colour, mfc=face, ms=4)
    for level, colour in LEVEL_COLOURS.items():
        ax.axhline((constant / level) ** 2, color=colour, ls="--", lw=0.9)
        ax.plot([], [], "s", color=colour, label=f"$\\ell={level:.3g}$")
    ax.plot([], [], "o", color="0.3", label="$m=n$, certified step")
    ax.plot([], [], "^", color="0.3", label="infinite contexts")
    ax.plot([], [], "o", color="0.3", mfc="none", label=r"frozen past $b_{\rm cert}$")
    ax.set(
        xscale="log",
        yscale="log",
        xlabel=r"$m\wedge n$ (infinite contexts: $m$)",
        ylabel=r"error $\times\,(m\wedge n)$, infinite context",
    )
    ticks = [20, 30, 50, 100, 200, 500]
    ax.set_yticks(ticks, [str(t) for t in ticks])
    ax.minorticks_off()
    fig.legend(loc="outside lower center", ncol=4)
    return fig


def fresh_figure(sizes, errors, sizes_trained, b_frozen, floor):
    """RMS error of each frozen head on fresh contexts of size ``N``, at one threshold.

    Parameters
    ----------
    sizes : ndarray, shape (p,)
        Fresh-context sizes ``N``.
    errors : stumplib.frozen.FreshErrors
        The heads' errors, shape ``(k, p)``, and the reference rules' (nearest positive,
        gap midpoint).
    sizes_trained : sequence of int, length k
        Each head's ``m ∧ n`` (for the legend).
    b_frozen : ndarray, shape (k,)
        Each head's frozen scale ``b_T``.
    floor : ndarray, shape (k,)
        Each head's infinite-context error (dotted lines).

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, ax = plotting.subplots(1, 1, height=4.4)
    for i, k in enumerate(sizes_trained):
        ax.errorbar(
            sizes,
            errors.head.rms[i],
            yerr=2 * errors.head.se[i],
            fmt="o-",
            ms=3,
            color=f"C{i}",
            label=f"$m\\wedge n={k}$ ($b_T={b_frozen[i]:.0f}$)",
        )
        ax.axhline(floor[i], color=f"C{i}", ls=":", lw=0.8)
    nearest = errors.rules["nearest positive"].rms
    ax.plot(sizes, nearest, "k--", label="nearest positive")
    ax.plot(sizes, errors.rules["midpoint"].rms, "k:", label="gap midpoint")
    ax.set(
        xscale="log",
        yscale="log",
        xlabel="fresh-context size $N$",
        ylabel="RMS threshold error at $s=0.5$",
    )
    fig.legend(loc="outside lower center", ncol=3)
    return fig


def ratio_figure(sizes, ratios, limits, sizes_trained, b_frozen):
    """Error over ``1/b_T + 1/N`` against ``N / b_T``, one panel a threshold ``s``.

    Parameters
    ----------
    sizes : ndarray, shape (p,)
        Fresh-context sizes ``N``.
    ratios : dict of float to ndarray, shape (k, p)
        For each threshold ``s``, each head's error over ``1/b_T + 1/N``.
    limits : dict of float to float
        For each ``s``, the limit ``C(s)`` (dashed line).
    sizes_trained : sequence of int, length k
        Each head's ``m ∧ n`` (for the legend).
    b_frozen : ndarray, shape (k,)
        Each head's frozen scale ``b_T``.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, axes = plotting.subplots(1, len(ratios), height=3.6, sharey=True)
    for ax, (s, ratio) in zip(np.atleast_1d(axes), ratios.items()):
        for i, k in enumerate(sizes_trained):
            ax.plot(
                sizes / b_frozen[i],
                ratio[i],
                "-",
                color=f"C{i}",
                lw=1.2,
                label=f"$m\\wedge n={k}$",
            )
        ax.axhline(limits[s], color="k", ls="--", lw=1.0, label="limit $C(s)$")
        ax.axvline(1.0, color="0.5", lw=0.8)
        ax.set(xscale="log", xlabel="$N/b_T$", title=f"$s={s}$")
    first = np.atleast_1d(axes)[0]
    first.set_ylabel(r"error $/\,(1/b_T+1/N)$")
    fig.legend(*first.get_legend_handles_labels(), loc="outside lower center", ncol=4)
    return fig
