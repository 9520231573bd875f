"""Figures and displays of a context, of threshold rules and of the one-head model.

Page machinery: each function draws one figure, in the book style
(:mod:`stumplib.book.plotting`), from results the library computed, or shows a SymPy
result as a display formula. Nothing here computes a result the pages check, except
:func:`residual`, which turns a SymPy difference into the number a claim check
compares with zero.
"""

import numpy as np
import sympy as sp
from IPython.display import Math, display
from matplotlib.lines import Line2D

from .. import baselines, head
from ..symbolic import risks
from . import plotting

# Marker and colour of each class of example.
_CLASSES = ((0, "o", "C1", "negative ($y=0$)"), (1, "s", "C0", "positive ($y=1$)"))


def equation(lhs, expr, limit=None, symbol_names=None):
    r"""Show ``lhs = expr`` (and ``-> limit``) as a display formula.

    Parameters
    ----------
    lhs : str
        LaTeX of the left-hand side.
    expr : sympy.Expr
        The right-hand side.
    limit : sympy.Expr, optional
        What ``expr`` tends to, shown on a second line.
    symbol_names : dict, optional
        Passed to ``sympy.latex`` (the book's name of a symbol).
    """
    names = {"symbol_names": symbol_names} if symbol_names else {}
    rhs = sp.latex(expr, **names)
    if limit is None:
        display(Math(f"{lhs} = {rhs}"))
        return
    then = sp.latex(limit, **names)
    display(
        Math(
            rf"\begin{{aligned}}{lhs} &= {rhs}\\&\longrightarrow {then}\end{{aligned}}"
        )
    )


def residual(difference):
    """The size of a SymPy difference after simplification: 0 for an identity.

    Parameters
    ----------
    difference : sympy.Expr
        ``lhs - rhs`` of an identity to check.

    Returns
    -------
    float
        ``0.0`` if it simplifies to zero, its absolute value if it simplifies to
        another number, ``inf`` if it keeps a free symbol (not an identity).
    """
    simplified = sp.simplify(difference)
    if simplified == 0:
        return 0.0
    return float(abs(simplified)) if simplified.is_number else float("inf")


def constant(expr):
    """The number a SymPy expression simplifies to, ``inf`` if it keeps a symbol.

    Parameters
    ----------
    expr : sympy.Expr
        For instance an exact risk times the rate it is claimed to have.

    Returns
    -------
    float
        ``float(simplify(expr))`` if that is a number, ``inf`` otherwise (the
        expression is not a constant: a claim check against a number fails).

    Examples
    --------
    >>> n = sp.Symbol("n", positive=True)
    >>> constant(2 / ((n + 1) * (n + 2)) * (n + 1) * (n + 2)), constant(1 / n)
    (2.0, inf)
    """
    simplified = sp.simplify(expr)
    return float(simplified) if simplified.is_number else float("inf")


def context_figure(x, y, s):
    """One context on the unit interval and zoomed on its gap.

    Parameters
    ----------
    x, y : numpy.ndarray, shape (N,)
        Features and labels.
    s : float
        The true threshold.

    Returns
    -------
    matplotlib.figure.Figure
    """
    left, right = (float(v) for v in baselines.gap(x, y))
    middle = float(baselines.midpoint(x, y))
    pad = 2.0 * (right - left)
    views = {
        "the unit interval": (0.0, 1.0),
        "zoom on the gap": (left - pad, right + pad),
    }
    fig, axes = plotting.subplots(2, 1, height=4.2)
    for ax, (title, xlim) in zip(axes, views.items()):
        ax.axvspan(left, right, color="0.5", alpha=0.35, label="gap")
        for label, marker, color, name in _CLASSES:
            keep = y == label
            ax.scatter(x[keep], y[keep], marker=marker, color=color, label=name)
        ax.axvline(s, color="k", linestyle=":", label="true threshold $s$")
        ax.axvline(middle, color="C2", label="gap midpoint")
        ax.set(xlim=xlim, ylim=(-0.4, 1.4), yticks=[0, 1], ylabel="label $y$")
        ax.set_title(title)
    axes[1].set_xlabel("feature $x$")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=3)
    return fig


def risk_rates_figure(curves, formulas, s_fixed, grid):
    """:math:`N^2` times the risk of each rule: exact lines, Monte Carlo points, ±2 s.e.

    Parameters
    ----------
    curves : dict of str to stumplib.risk_checks.RiskCurves
        Monte Carlo risks, one entry per threshold law (its label).
    formulas : dict of str to dict of str to sympy.Expr
        The exact risk of each rule under each law, in ``s`` and ``N``.
    s_fixed : float
        The threshold at which a risk in ``s`` is evaluated (averaged risks are free
        of ``s``).
    grid : numpy.ndarray
        Context sizes of the exact lines.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, ax = plotting.subplots(height=3.6)
    for (label, study), linestyle, fill in zip(curves.items(), "-:", (None, "white")):
        for k, (name, est) in enumerate(study.risks.items()):
            exact = risks.numeric(formulas[label][name])(s_fixed, grid)
            n2 = study.sizes.astype(float) ** 2
            ax.plot(grid, grid**2 * exact, color=f"C{k}", linestyle=linestyle)
            ax.errorbar(
                study.sizes, n2 * est.value, yerr=2 * n2 * est.se, fmt="o",
                color=f"C{k}", mfc=fill, label=f"{name.replace('_', ' ')}, {label}",
            )  # fmt: skip
    ax.set(
        xscale="log",
        xlabel="context size $N$",
        ylabel="$N^2$ × risk",
        ylim=(0, None),
    )
    ax.legend(loc="center right", title="lines exact, points Monte Carlo")
    return fig


def attention_figure(x, y, s, settings):
    """Attention weights of the head on one context, one panel per ``(a, b)``.

    Parameters
    ----------
    x, y : numpy.ndarray, shape (N,)
        Features and labels.
    s : float
        The threshold.
    settings : sequence of (float, float, str)
        ``(a, b, title)`` of each panel (four).

    Returns
    -------
    matplotlib.figure.Figure
    """
    nearest = float(head.hard_limit(x, y))
    fig, axes = plotting.subplots(2, 2, height=5.2, sharex=True)
    for ax, (a, b, title) in zip(axes.ravel(), settings):
        w = head.weights(a, b, x, y)
        s_hat = float(head.estimate(a, b, x, y))
        for label, marker, color, name in _CLASSES:
            keep = y == label
            ax.vlines(x[keep], 0, w[keep], color=color, linewidth=1.2)
            ax.plot(x[keep], w[keep], marker, color=color, markersize=4, label=name)
        ax.axvline(s, color="k", linestyle=":", label="threshold $s$")
        ax.axvline(nearest, color="C2", linestyle="--", label="nearest positive")
        ax.axvline(
            s_hat, color="C4", linewidth=2.0, alpha=0.7, label=r"estimate $\hat s$"
        )
        ax.set_title(f"{title}\n$a={a:.1f}$, $b={b:.0f}$, $\\hat s={s_hat:.3f}$")
        ax.set_ylim(bottom=0)
    for ax in axes[1]:
        ax.set_xlabel("feature $x_i$")
    for ax in axes[:, 0]:
        ax.set_ylabel("attention weight $w_i$")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=3)
    return fig


def hard_limit_figure(b, curves, checked):
    """Distance of the head to its hard limit along a path of scales, log-log.

    Parameters
    ----------
    b : numpy.ndarray
        The scales.
    curves : sequence of (str, numpy.ndarray, numpy.ndarray or None)
        ``(label, distance, leading term)`` of each context; a curve without a
        leading term (``None``) is drawn grey and dotted.
    checked : sequence of (numpy.ndarray, numpy.ndarray) or None
        For each curve, the scales where a check measures it and the distances there
        (marked with dots), or ``None``.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, ax = plotting.subplots(height=4.2)
    marked = False
    for k, ((label, distance, leading), check) in enumerate(zip(curves, checked)):
        color = f"C{k}" if leading is not None else "0.45"
        drawn = np.where(distance > 0, distance, np.nan)  # 0: equal in floats
        ax.plot(b, drawn, color=color, label=label,
                linestyle="-" if leading is not None else ":")  # fmt: skip
        if leading is not None:
            ax.plot(b, leading, color=color, linestyle="--", linewidth=1.0)
        if check is not None:
            ax.plot(*check, "o", color=color, markersize=5, zorder=3)
            marked = True
    plotting.reference_slope(ax, b[b <= 100], -1, 1.0, label="_nolegend_")
    ax.text(1.3, 2e-3, "kernel bias $1/b$", color="0.3")
    handles, labels = ax.get_legend_handles_labels()
    handles.append(Line2D([], [], color="0.3", linestyle="--", linewidth=1.0))
    labels.append("leading term")
    if marked:
        handles.append(Line2D([], [], color="0.3", marker="o", linestyle=""))
        labels.append("rate checked between the dots")
    ax.set(xscale="log", yscale="log", ylim=(1e-16, 20.0))
    ax.set(xlabel="attention scale $b$  (with $a=b+2\\log b$)")
    ax.set_ylabel(r"$|\hat s-\mathrm{hard\ limit}|$")
    ax.legend(handles, labels, loc="lower left")
    return fig
