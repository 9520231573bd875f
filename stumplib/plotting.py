"""The book's figure style and a few plotting helpers."""

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np

STYLE = {
    "figure.figsize": (6.4, 3.8),
    "figure.dpi": 110,
    "savefig.dpi": 200,
    "figure.constrained_layout.use": True,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "legend.fontsize": 9,
    "legend.frameon": False,
    "lines.linewidth": 1.8,
    "font.size": 10,
    "axes.prop_cycle": mpl.cycler(color=["#1f5aa6", "#d1495b", "#2e933c", "#edae49",
                                         "#6a4c93", "#00798c", "#8d6a9f", "#555555"]),
}


def use_book_style():
    """Apply the book's matplotlib style, with high-resolution inline figures."""
    mpl.rcParams.update(STYLE)
    try:
        from matplotlib_inline.backend_inline import set_matplotlib_formats
        set_matplotlib_formats("retina")
    except ImportError:  # outside IPython the rcParams alone apply
        pass


def subplots(*args, **kwargs):
    """``plt.subplots`` under the book style."""
    use_book_style()
    return plt.subplots(*args, **kwargs)


def reference_slope(ax, x, slope, anchor, label=None, **kwargs):
    """Draw ``y = anchor * (x / x[0])**slope`` on log-log axes as a dashed guide."""
    x = np.asarray(x, dtype=float)
    kwargs = {"color": "0.4", "linestyle": "--", "linewidth": 1.0, **kwargs}
    ax.plot(x, anchor * (x / x[0]) ** slope, label=label or f"slope {slope:g}", **kwargs)


def show(fig):
    """Display ``fig`` once and close it (no stray ``<Figure ...>`` text in outputs)."""
    plt.show()
    plt.close(fig)
