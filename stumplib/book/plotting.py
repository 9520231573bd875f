"""The book's figure style and a few plotting helpers.

Figures are drawn for the text column: :func:`subplots` with ``height=`` makes a
figure :data:`COLUMN_WIDTH` inches wide, and :func:`show` refuses such a figure if
any of its text is smaller than :data:`SMALLEST_FONT` points. Shown at the column
width of the rendered page (about 620-720 px), one inch of figure is about 100 px
on screen, so the smallest text is at least 12 px there. Inline figures are stored
as plain PNG at :data:`DPI` dots per inch, with no width or height attached, so the
page scales them without changing their aspect ratio.
"""

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np

from .. import dynamics, validation

#: Width in inches of every column figure.
COLUMN_WIDTH = 6.4
#: The smallest text, in points, that a column figure may hold.
SMALLEST_FONT = 9.0
#: Dots per inch of the stored PNG.
DPI = 200
STYLE = {
    "figure.figsize": (COLUMN_WIDTH, 3.8),
    "figure.dpi": DPI,
    "savefig.dpi": DPI,
    "figure.constrained_layout.use": True,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 10,
    "axes.labelsize": 10,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 9,
    "legend.title_fontsize": 9,
    "figure.titlesize": 10,
    "legend.frameon": False,
    "lines.linewidth": 1.8,
    "font.size": 10,
    "axes.prop_cycle": mpl.cycler(
        color=[
            "#1f5aa6",
            "#d1495b",
            "#2e933c",
            "#edae49",
            "#6a4c93",
            "#00798c",
            "#8d6a9f",
            "#555555",
        ]
    ),
}


def _matplotlib(cls, what):
    """A constraint: an instance of the matplotlib class ``cls``, named ``what``."""

    def check(value, name):
        if not isinstance(value, cls):
            raise TypeError(
                f"{name} must be a matplotlib {what} (got {type(value).__name__})"
            )
        return value

    return validation.Constraint(
        check, ((None, TypeError), ("fig", TypeError), (0.5, TypeError))
    )


#: A matplotlib ``Axes`` to draw on.
AXES = _matplotlib(mpl.axes.Axes, "Axes")
#: A matplotlib ``Figure``.
FIGURE = _matplotlib(mpl.figure.Figure, "Figure")


def use_book_style():
    """Apply the book's matplotlib style; inline figures as PNG at :data:`DPI`.

    Returns
    -------
    None
        The style is set in ``matplotlib.rcParams``.
    """
    mpl.rcParams.update(STYLE)
    try:
        from matplotlib_inline.backend_inline import set_matplotlib_formats

        set_matplotlib_formats("png")
    except ImportError:  # outside IPython the rcParams alone apply
        pass


@validation.constrained(
    nrows=validation.Integer(),
    ncols=validation.Integer(),
    height=validation.PositiveScalar(optional=True),
)
def subplots(nrows=1, ncols=1, *, height=None, **kwargs):
    """``plt.subplots`` under the book style.

    Parameters
    ----------
    nrows, ncols : int
        The grid of axes, as for ``plt.subplots``.
    height : float, optional
        Height in inches of a column figure, :data:`COLUMN_WIDTH` wide, whose text
        :func:`show` checks. Without it ``figsize`` is taken as given (chapters not
        yet drawn for the column).
    **kwargs
        Passed to ``plt.subplots``; ``figsize`` only without ``height``.

    Raises
    ------
    ValueError
        If both ``height`` and ``figsize`` are given.
    """
    use_book_style()
    if height is None:
        return plt.subplots(nrows, ncols, **kwargs)
    if "figsize" in kwargs:
        raise ValueError("give height or figsize, not both")
    fig, axes = plt.subplots(nrows, ncols, figsize=(COLUMN_WIDTH, height), **kwargs)
    fig.column = True
    return fig, axes


@validation.constrained(fig=FIGURE)
def smallest_font(fig):
    """The smallest font size, in points, of the visible text drawn in ``fig``.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure (drawn here).

    Returns
    -------
    float
        ``inf`` when the figure shows no text.

    Raises
    ------
    TypeError
        If ``fig`` is not a matplotlib Figure.
    """
    fig.canvas.draw()  # legends, ticks and colorbars create their text when drawn
    sizes = [
        t.get_fontsize()
        for t in fig.findobj(mpl.text.Text)
        if t.get_visible() and t.get_text().strip()
    ]
    return min(sizes, default=np.inf)


def _one_dimensional(values):
    x = values["x"]
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"x must be a non-empty 1-D array (got shape {x.shape})")


@validation.constrained(
    _one_dimensional,
    ax=AXES,
    x=validation.Positive(),
    slope=validation.Scalar(),
    anchor=validation.PositiveScalar(),
)
def reference_slope(ax, x, slope, anchor, label=None, **kwargs):
    r"""Draw :math:`y = y_0 (x / x_0)^{\mathrm{slope}}` on log-log axes, a dashed guide.

    :math:`y_0` is the ``anchor`` and :math:`x_0` the first ``x``.

    ``x`` is a non-empty 1-D array of positive abscissae, ``slope`` a finite number and
    ``anchor > 0`` the guide's value at ``x[0]``.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes to draw on.
    x : array_like, shape (k,)
        Positive abscissae.
    slope : float
        The guide's slope.
    anchor : float
        The guide's value at ``x[0]``, positive.
    label : str, optional
        Legend label (``"slope <slope>"`` by default).
    **kwargs
        Passed to ``ax.plot``.

    Returns
    -------
    None

    Raises
    ------
    ValueError
        If ``x`` is not a non-empty 1-D positive array, or ``slope`` or ``anchor`` is
        invalid.
    TypeError
        If ``ax`` is not a matplotlib Axes.
    """
    kwargs = {"color": "0.4", "linestyle": "--", "linewidth": 1.0, **kwargs}
    label = label or f"slope {slope:g}"
    ax.plot(x, anchor * (x / x[0]) ** slope, label=label, **kwargs)


@validation.constrained(fig=FIGURE)
def show(fig):
    """Display ``fig`` once and close it (no stray ``<Figure ...>`` text in outputs).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure to show.

    Returns
    -------
    None

    Raises
    ------
    ValueError
        If ``fig`` is a column figure (see :func:`subplots`) holding text smaller
        than :data:`SMALLEST_FONT`.
    TypeError
        If ``fig`` is not a matplotlib Figure.
    """
    if getattr(fig, "column", False):
        size = smallest_font(fig)
        if size < SMALLEST_FONT:
            plt.close(fig)
            raise ValueError(
                f"fig has {size:g} pt text, below the smallest readable "
                f"{SMALLEST_FONT:g} pt at column width"
            )
    plt.show()
    plt.close(fig)


@validation.constrained(
    ax=AXES,
    portrait=validation.Instance(dynamics.Portrait),
    vmax=validation.PositiveScalar(),
)
def excess_mesh(ax, portrait, vmax=4.0):
    """Colour ``ax`` by a portrait's scaled excess loss ``b (b² L - 1)``.

    On a diverging scale centred at 0 and clipped at ``±vmax``, over the plotted
    coordinates: the offset ``a - p b`` and ``log10 b``.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where the mesh is drawn.
    portrait : stumplib.dynamics.Portrait
        The landscape.
    vmax : float
        The colour scale runs from ``-vmax`` to ``vmax``.

    Returns
    -------
    matplotlib.collections.QuadMesh
        The mesh, for a colour bar.

    Raises
    ------
    TypeError
        If ``ax`` or ``portrait`` is of another type.
    ValueError
        If ``vmax <= 0``.
    """
    return ax.pcolormesh(
        portrait.offset,
        np.log10(portrait.b),
        portrait.excess,
        shading="gouraud",
        cmap="RdBu_r",
        vmin=-vmax,
        vmax=vmax,
        rasterized=True,
    )


@validation.constrained(portrait=validation.Instance(dynamics.Portrait))
def flow_directions(portrait):
    """The flow's directions in a portrait's plotted coordinates, of equal length.

    The velocity ``(da/dt - p db/dt, d log10 b / dt)`` in units of each axis's span is
    normalized to length 1 (0 where it vanishes) and scaled back by the spans, so that
    every arrow or streamline segment has one length on the page whatever the speed.

    Parameters
    ----------
    portrait : stumplib.dynamics.Portrait
        The grid and its flow field.

    Returns
    -------
    u, v : ndarray
        The components along the offset and along ``log10 b``, of the grid's shape.

    Raises
    ------
    TypeError
        If ``portrait`` is not a ``Portrait``.
    """
    span_x, span_y = np.ptp(portrait.offset), np.ptp(np.log10(portrait.b))
    u = portrait.velocity[..., 0] / span_x
    v = portrait.velocity[..., 1] / (np.log(10.0) * span_y)
    norm = np.hypot(u, v)
    norm[norm == 0] = 1.0
    return u / norm * span_x, v / norm * span_y


@validation.constrained(
    ax=AXES,
    portrait=validation.Instance(dynamics.Portrait),
    vmax=validation.PositiveScalar(),
)
def phase_portrait(ax, portrait, slow_curve=None, valley=None, path=None, vmax=4.0):
    r"""Draw a :class:`stumplib.dynamics.Portrait` on ``ax``.

    The colour is the scaled excess loss :math:`b (b^2 L - 1)` on a diverging scale
    centred at 0 and clipped at ``±vmax`` (so that a valley at
    :math:`-2/(\mathrm{hi} - \mathrm{lo})` shows as a trough), with its integer
    contours; arrows give the direction of the gradient flow in the plotted coordinates
    (of uniform length: the speed varies by orders of magnitude). The vertical axis is
    ``log10 b``, labelled in ``b``.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes to draw on.
    portrait : stumplib.dynamics.Portrait
        The grid to draw.
    slow_curve, valley : tuple of array_like, optional
        ``(a, b)`` of the slow curve (dashed) and of the valley (solid black).
    path : tuple of array_like, optional
        ``(a, b)`` of a trajectory, drawn as points with its start starred.
    vmax : float
        Clip of the colour scale.

    Returns
    -------
    matplotlib.collections.QuadMesh
        The colour mesh (for a colour bar).

    Raises
    ------
    TypeError
        If ``ax`` is not a matplotlib Axes or ``portrait`` not a ``Portrait``.
    ValueError
        If ``vmax`` is not positive.
    """
    x, y, p = portrait.offset, np.log10(portrait.b), portrait.p
    mesh = excess_mesh(ax, portrait, vmax)
    ax.contour(
        x,
        y,
        portrait.excess,
        levels=np.arange(-3.0, 4.0),
        colors="0.3",
        linewidths=0.5,
        alpha=0.6,
    )
    beyond = vmax * 4.0 ** np.arange(1, 7)  # the clipped region keeps its relief
    if np.nanmax(portrait.excess) > beyond[0]:
        ax.contour(x, y, portrait.excess, levels=beyond, colors="white",
                   linewidths=0.5, alpha=0.8)  # fmt: skip
    u, v = flow_directions(portrait)
    step_x, step_y = max(1, x.size // 12), max(1, y.size // 10)
    gx, gy = np.meshgrid(x, y)
    pick = (slice(None, None, step_y), slice(None, None, step_x))
    length = 0.035  # of the axes' extent
    ax.quiver(
        gx[pick],
        gy[pick],
        (u * length)[pick],
        (v * length)[pick],
        angles="xy",
        scale_units="xy",
        scale=1.0,
        width=0.004,
        headwidth=4.0,
        color="0.15",
        edgecolor="white",  # visible on the darkest colours too
        linewidth=0.5,
        pivot="mid",
    )

    def sheared(curve):
        a, b = (np.asarray(c, dtype=float) for c in curve)
        return a - p * b, np.log10(b)

    if valley is not None:
        ax.plot(*sheared(valley), color="k", linewidth=2.2, label="valley $a^*(b)$")
    if slow_curve is not None:
        ax.plot(
            *sheared(slow_curve),
            color="#edae49",
            linestyle="--",
            linewidth=2.2,
            label="slow curve",
        )
    if path is not None:
        px, py = sheared(path)
        ax.plot(
            px,
            py,
            "o",
            color="#2e933c",
            markersize=3.5,
            mec="k",
            mew=0.4,
            label="path from $(p\\,b_0,b_0)$",
        )
        ax.plot(px[0], py[0], "*", color="#2e933c", markersize=12, mec="k", mew=0.6)
    ticks = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000]
    ticks = [t for t in ticks if y[0] <= np.log10(t) <= y[-1]]
    ax.set(
        xlim=(x[0], x[-1]),
        ylim=(y[0], y[-1]),
        yticks=np.log10(ticks),
        yticklabels=[f"{t:g}" for t in ticks],
        xlabel="offset $a - b$" if p == 1 else f"slow-curve offset $a - {p:g}\\,b$",
        ylabel="scale $b$",
    )
    ax.grid(False)
    return mesh
