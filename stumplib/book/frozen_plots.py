"""Chapter 6's figures: the certified ladders, frozen heads on fresh contexts."""

import numpy as np
from matplotlib import colormaps

from . import plotting

#: The colour of each freeze level ``l``.
LEVEL_COLOURS = {0.5: "C0", 1 / 3: "C1", 0.25: "C2", 0.125: "C3"}


def size_colours(count):
    """One colour a corpus size, light to dark along a sequential map (sizes ascending).

    Examples
    --------
    >>> colours = size_colours(3)
    >>> len(colours), colours[0] != colours[-1]
    (3, True)
    """
    return [colormaps["viridis"](x) for x in np.linspace(0.85, 0.0, count)]


def ladder_figure(ladders, constant, floor=0.95):
    r"""Two certified ladders: the share inside, and the error times :math:`m \wedge n`.

    Left, each size's share of corpora inside the certificate with its 95%
    Clopper–Pearson interval, against the declared floor; right, the mean of the error
    times :math:`m \wedge n` (:math:`\pm 2` standard errors) and its largest value
    (crosses), with each level's long-context constant :math:`(K / \ell)^2` dashed.

    Parameters
    ----------
    ladders : dict of float to stumplib.ladder.Ladder
        The ladder of each level ``l``.
    constant : float
        ``K``, the slow curve's noise constant.
    floor : float
        The declared least share inside (dotted).

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, (left, right) = plotting.subplots(1, 2, height=3.8)
    for i, (level, out) in enumerate(sorted(ladders.items(), reverse=True)):
        colour, shift = LEVEL_COLOURS[level], 1.0 + 0.06 * (i - 0.5)
        k = np.array([r.k for r in out.rungs])
        share = np.array([r.share for r in out.rungs])
        low = share - np.array([r.share_lo for r in out.rungs])
        high = np.array([r.share_hi for r in out.rungs]) - share
        name = f"$\\ell={level:.3g}$"
        left.errorbar(k * shift, share, yerr=[low, high], fmt="o", color=colour, ms=4)
        mean = np.array([r.error_k for r in out.rungs])
        se = np.nan_to_num([r.error_k_se for r in out.rungs])
        right.errorbar(k, mean, yerr=2 * se, fmt="o-", color=colour, ms=4, label=name)
        right.plot(k, [r.error_k_max for r in out.rungs], "x", color=colour, ms=5)
        right.axhline((constant / level) ** 2, color=colour, ls="--", lw=0.9)
    left.axhline(floor, color="0.4", ls=":", lw=1.0)
    left.set(
        xscale="log",
        ylim=(0, 1.05),
        xlabel=r"$m\wedge n$",
        ylabel="share inside the certificate",
    )
    right.plot([], [], "x", color="0.3", label="largest corpus")
    right.plot([], [], "--", color="0.3", label=r"$(K/\ell)^2$")
    right.set(
        xscale="log",
        yscale="log",
        xlabel=r"$m\wedge n$",
        ylabel=r"error $\times\,(m\wedge n)$",
    )
    ticks = [20, 50, 100, 200]
    right.set_yticks(ticks, [str(t) for t in ticks])
    right.minorticks_off()
    fig.legend(*right.get_legend_handles_labels(), loc="outside lower center", ncol=4)
    return fig


def fresh_figure(sizes, errors, sizes_trained, b_frozen, floor):
    r"""RMS error of each frozen head on fresh contexts of size ``N``, at one threshold.

    Parameters
    ----------
    sizes : ndarray, shape (p,)
        Fresh-context sizes ``N``.
    errors : stumplib.frozen.FreshErrors
        The heads' errors, shape ``(k, p)``, and the reference rules' (nearest positive,
        gap midpoint).
    sizes_trained : sequence of int, length k
        Each head's :math:`m \wedge n` (for the legend).
    b_frozen : ndarray, shape (k,)
        Each head's frozen scale ``b_T``.
    floor : ndarray, shape (k,)
        Each head's infinite-context error (dotted lines).

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, ax = plotting.subplots(1, 1, height=4.4)
    colours = size_colours(len(sizes_trained))
    for i, k in enumerate(sizes_trained):
        ax.errorbar(
            sizes,
            errors.head.rms[i],
            yerr=2 * errors.head.se[i],
            fmt="o-",
            ms=3,
            color=colours[i],
            label=f"$m\\wedge n={k}$ ($b_T={b_frozen[i]:.0f}$)",
        )
        ax.axhline(floor[i], color=colours[i], ls=":", lw=0.8)
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
    r"""Error over ``1/b_T + 1/N`` against ``N / b_T``, one panel a threshold ``s``.

    Parameters
    ----------
    sizes : ndarray, shape (p,)
        Fresh-context sizes ``N``.
    ratios : dict of float to ndarray, shape (k, p)
        For each threshold ``s``, each head's error over ``1/b_T + 1/N``.
    limits : dict of float to float
        For each ``s``, the limit :math:`\Gamma(s)` (dashed line).
    sizes_trained : sequence of int, length k
        Each head's :math:`m \wedge n` (for the legend).
    b_frozen : ndarray, shape (k,)
        Each head's frozen scale ``b_T``.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, axes = plotting.subplots(1, len(ratios), height=3.6, sharey=True)
    colours = size_colours(len(sizes_trained))
    for ax, (s, ratio) in zip(np.atleast_1d(axes), ratios.items()):
        for i, k in enumerate(sizes_trained):
            ax.plot(
                sizes / b_frozen[i],
                ratio[i],
                "-",
                color=colours[i],
                lw=1.2,
                label=f"$m\\wedge n={k}$",
            )
        ax.axhline(limits[s], color="k", ls="--", lw=1.0, label=r"limit $\Gamma(s)$")
        ax.axvline(1.0, color="0.5", lw=0.8)
        ax.set(xscale="log", xlabel="$N/b_T$", title=f"$s={s}$")
    first = np.atleast_1d(axes)[0]
    first.set_ylabel(r"error $/\,(1/b_T+1/N)$")
    fig.legend(*first.get_legend_handles_labels(), loc="outside lower center", ncol=4)
    return fig
