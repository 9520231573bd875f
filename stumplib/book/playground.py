"""The context playground: one context, the head's weights and estimate, live.

An :class:`~stumplib.book.interactive.Interactive` figure (shown by
:func:`stumplib.book.interactive.show`): a context drawn once at build time; sliders
for ``a``, ``b``, the threshold ``s`` and the context size ``N`` and a switch for the
mirror-averaged head. The browser computes the labels, the softmax weights, the
estimate, the nearest positive and the gap midpoint live (the same arithmetic as
:func:`stumplib.head.estimate`); ``expected`` holds :func:`stumplib.head.estimate` (and
:func:`stumplib.symmetrization.average_estimate`) at a few settings. The context is
drawn on a 4-decimal grid and the expected estimates are rounded to
:data:`EXPECTED_DECIMALS`, so the stored output reproduces on other floating-point
environments.
"""

import numpy as np
from bokeh.layouts import column
from bokeh.models import BoxAnnotation, ColumnDataSource, CustomJS, Div, Slider, Toggle
from bokeh.plotting import figure
from matplotlib.figure import Figure

from .. import baselines, calibration, head, symmetrization, tasks, validation
from . import plotting
from .interactive import COLORS, Interactive, book_axes, note_div, on_ready

#: Largest context of the playground.
N_MAX = 10_000
#: Decimals of the expected estimates (the browser check compares to 1e-9).
EXPECTED_DECIMALS = 12
POSITIVE, NEGATIVE, ESTIMATE, NEAREST, MIDPOINT = (
    COLORS[0],
    COLORS[1],
    COLORS[4],
    COLORS[2],
    COLORS[5],
)

_PLAYGROUND_JS = """
const N = Math.round(n.value), A = a.value, B = b.value, S = s.value;
const sym = symmetrized.active;
const xs = X.slice(0, N);
const ys = xs.map(v => (v > S ? 1 : 0));
// The head: z_i = a y_i - b x_i, w = softmax(z), s_hat = sum_i w_i x_i.
function attend(px, py) {
  const z = px.map((v, i) => A * py[i] - B * v);
  const top = Math.max(...z);
  const e = z.map(v => Math.exp(v - top));
  const total = e.reduce((p, q) => p + q, 0);
  const w = e.map(v => v / total);
  return [w, w.reduce((p, q, i) => p + q * px[i], 0)];
}
const [w, est] = attend(xs, ys);
// The mirrored head: the same head on (1 - x, 1 - y), mapped back.
const [wm, estm] = attend(xs.map(v => 1 - v), ys.map(v => 1 - v));
const value = sym ? 0.5 * (est + 1 - estm) : est;
let right = 1, left = 0, positives = 0;
xs.forEach((v, i) => {
  if (ys[i] === 1) { right = Math.min(right, v); positives += 1; }
  else { left = Math.max(left, v); }
});
const mid = 0.5 * (left + right);
const color = ys.map(v => (v === 1 ? POS : NEG));
points.data = {x: xs, y: xs.map(() => -0.04), color: color,
               fill: ys.map(v => (v === 1 ? 1 : 0))};
weights.data = {x: xs, top: w, color: color};
mirror.data = {x: xs, top: sym ? wm : xs.map(() => 0)};
// Full-height lines: the threshold and the estimate. The gap, its nearest
// positive and its midpoint: a bracket with two markers along the top.
marks.data = {x: [S, value], color: ["#000000", EST], dash: ["dashed", "solid"],
              width: [1.5, 3]};
gap.data = {x0: [left], x1: [right]};
rules.data = {x: [right, mid], color: [NEAR, MID],
              marker: ["inverted_triangle", "diamond"]};
symmetrized.label = `mirror-averaged head (symmetrized): ${sym ? "on" : "off"}`;
const fmt = v => v.toFixed(4);
// The warning compares the estimate with the rule it should reach: the nearest
// positive (the mirror average: the gap midpoint), in widths of the gap.
const ref = sym ? mid : right, width = right - left;
const name = sym ? "the gap midpoint" : "the nearest positive";
let note = `${positives} of ${N} examples positive`;
if (positives === 0) {
  note += ": <b>no positive example</b>, the head collapses toward the smallest x";
} else if (value < ref - width) {
  note += `: <b>&#349; is more than a gap width below ${name}</b> ` +
          "(the negatives outweigh the positives: raise a)";
} else if (value > ref + width) {
  note += `: <b>&#349; is more than a gap width above ${name}</b> ` +
          "(the kernel 1/b spans several positives: raise b)";
} else {
  note += `: &#349; is within a gap width of ${name}`;
}
readout.text =
  `<span style="color:${EST}">&#9473; ${sym ? "mirror average" : "estimate"} ` +
  `&#349; = <b class="stumplib-estimate" data-estimate="${value}">${fmt(value)}</b>` +
  `</span> &middot; <span>&#9476; threshold s = ${S.toFixed(3)}</span> &middot; ` +
  `<span style="color:${NEAR}">&#9660; nearest positive ${fmt(right)}</span> ` +
  `&middot; <span style="color:${MID}">&#9670; gap midpoint ${fmt(mid)}` +
  `</span><br>${note}`;
"""


def _open_unit(value, name):
    value = validation.scalar(validation.unit_interval(value, name), name)
    if not 0 < value < 1:
        raise ValueError(f"{name} must be in (0, 1) (got {value})")
    return value


def _context_sizes(values):
    if values["n"] > values["n_max"]:
        raise ValueError(
            f"n must be at most n_max = {values['n_max']} (got {values['n']})"
        )


@validation.constrained(
    _context_sizes,
    seed=validation.Seed(as_given=True),
    n=validation.Integer(minimum=2),
    n_max=validation.Integer(minimum=2, maximum=N_MAX),
    b=validation.PositiveScalar(),
    s=validation.Constraint(
        _open_unit,
        (
            (0.0, ValueError),
            (1.0, ValueError),
            (np.nan, ValueError),
            ([0.5, 0.5], ValueError),
            (None, TypeError),
            ("0.5", TypeError),
        ),
    ),
    prior=validation.Instance(tasks.Uniform, optional=True),
)
def playground(seed, n=24, n_max=96, b=40.0, s=0.5, prior=None):
    r"""The context playground: one context, the head's weights and estimate, live.

    A context of ``n_max`` features is drawn once (uniform on [0, 1], on a 4-decimal
    grid, from ``seed``); the first ``N`` of them form the context (a slider, from 2
    to ``n_max``). Sliders move ``a``, ``b`` and the threshold ``s``; a switch replaces
    the head by its mirror average :math:`(\hat s(x,y)+1-\hat s(1-x,1-y))/2`. The
    browser draws the labels :math:`y=\mathbf 1\{x>s\}`, the attention weights (and
    the mirrored head's, with the switch), the estimate, the nearest positive and the
    gap midpoint.

    Parameters
    ----------
    seed : int or tuple of int
        Seed of the context (``numpy.random.default_rng(seed)``).
    n : int
        Initial context size, ``2 <= n <= n_max``.
    n_max : int
        Largest context size, at most :data:`N_MAX`.
    b : float
        Initial scale; ``a`` starts calibrated, ``a*(b)`` for ``prior``.
    s : float
        Initial threshold.
    prior : tasks.Uniform, optional
        The interior prior whose top the figure shades (``U[0.1, 0.9]`` by default).

    Returns
    -------
    Interactive
        ``expected`` holds the context and, at a few settings (the initial one, the
        mirror average, a threshold near the top of the prior, a small scale), the
        estimate of :func:`stumplib.head.estimate` or
        :func:`stumplib.symmetrization.average_estimate`.

    Raises
    ------
    ValueError, TypeError
        If ``seed`` is not a seed, ``n`` or ``n_max`` not a count in range, ``b`` not
        positive, ``s`` not in (0, 1) or ``prior`` not a ``tasks.Uniform``.
    """
    prior = tasks.Uniform(0.1, 0.9) if prior is None else prior
    rng = np.random.default_rng(seed)
    x = np.round(rng.uniform(size=n_max), 4)
    a = round(float(calibration.a_star(float(b), prior)), 1)
    settings = [
        (a, b, s, n, False),
        (a, b, s, n, True),
        (a, b, 0.97, n, False),
        (a, b, 0.97, n, True),
        (4.5, 5.0, 0.3, n_max, False),
        (a, b, prior.hi, n_max, True),
    ]
    checks = []
    for a_, b_, s_, n_, sym in settings:
        xs = x[:n_]
        ys = tasks.labels(xs, s_)
        rule = symmetrization.average_estimate if sym else head.estimate
        checks.append(
            {
                "a": a_,
                "b": b_,
                "s": s_,
                "n": n_,
                "symmetrized": sym,
                "estimate": round(float(rule(a_, b_, xs, ys)), EXPECTED_DECIMALS),
                "nearest_positive": float(baselines.nearest_positive(xs, ys)),
                "midpoint": float(baselines.midpoint(xs, ys)),
            }
        )

    sliders = {
        "a": Slider(start=0.0, end=250.0, value=a, step=0.1, title="label score a"),
        "b": Slider(start=1.0, end=200.0, value=b, step=0.5, title="scale b"),
        "s": Slider(start=0.0, end=1.0, value=s, step=0.005, title="threshold s"),
        "n": Slider(start=2, end=n_max, value=n, step=1, title="context size N"),
    }
    for key, slider in sliders.items():
        slider.name = f"playground-{key}"
        slider.sizing_mode = "stretch_width"
    symmetrized = Toggle(
        active=False,
        label="mirror-averaged head (symmetrized): off",
        name="playground-symmetrized",
    )
    readout = Div(name="playground-readout", sizing_mode="stretch_width")
    sources = {
        "points": ColumnDataSource({"x": [], "y": [], "color": [], "fill": []}),
        "weights": ColumnDataSource({"x": [], "top": [], "color": []}),
        "mirror": ColumnDataSource({"x": [], "top": []}),
        "marks": ColumnDataSource({"x": [], "color": [], "dash": [], "width": []}),
        "gap": ColumnDataSource({"x0": [], "x1": []}),
        "rules": ColumnDataSource({"x": [], "color": [], "marker": []}),
    }
    for key, source in sources.items():
        source.name = f"playground-{key}"

    plot = figure(
        height=300,
        sizing_mode="stretch_width",
        x_range=(-0.03, 1.03),
        y_range=(-0.09, 1.05),
        x_axis_label="feature x  (filled: positive, y = 1)",
        y_axis_label="attention weight",
        tools="",
        toolbar_location=None,
        name="playground-plot",
    )
    plot.add_layout(BoxAnnotation(left=prior.hi, fill_color="#888888", fill_alpha=0.15))
    plot.vbar(
        "x",
        top="top",
        width=0.004,
        color="#6a4c93",
        alpha=0.35,
        source=sources["mirror"],
    )
    plot.vbar("x", top="top", width=0.004, color="color", source=sources["weights"])
    plot.scatter(
        "x",
        "y",
        size=7,
        line_color="color",
        fill_color="color",
        fill_alpha="fill",
        line_width=1.5,
        source=sources["points"],
    )
    plot.segment(
        x0="x",
        x1="x",
        y0=-0.09,
        y1=1.05,
        line_color="color",
        line_dash="dash",
        line_width="width",
        source=sources["marks"],
    )
    plot.segment(
        x0="x0", x1="x1", y0=0.97, y1=0.97, line_color=MIDPOINT, line_width=2,
        source=sources["gap"],
    )  # fmt: skip
    plot.scatter(
        "x", 0.97, marker="marker", size=11, fill_color="color",
        line_color="color", source=sources["rules"],
    )  # fmt: skip
    book_axes(plot)

    callback = CustomJS(
        args=dict(
            X=[float(v) for v in x],
            POS=POSITIVE,
            NEG=NEGATIVE,
            EST=ESTIMATE,
            NEAR=NEAREST,
            MID=MIDPOINT,
            symmetrized=symmetrized,
            readout=readout,
            **sliders,
            **sources,
        ),
        code=_PLAYGROUND_JS,
    )
    for slider in sliders.values():
        slider.js_on_change("value", callback)
    symmetrized.js_on_change("active", callback)
    note = note_div(
        "Circles: the context drawn at build time (filled: positive). Live in "
        "your browser: labels, weights, estimate and baselines. Along the top: "
        "the gap between the largest negative and the nearest positive "
        "(&#9660;), and its midpoint (&#9670;). Shaded: above the top of the "
        "prior "
        f"U[{prior.lo:g}, {prior.hi:g}]."
    )
    controls = column(*sliders.values(), symmetrized, sizing_mode="stretch_width")
    layout = column(
        readout,
        plot,
        controls,
        note,
        sizing_mode="stretch_width",
        name="playground",
    )
    on_ready(layout, callback)

    def static():
        return _static_playground(x[:n], a, b, s, prior)

    return Interactive(
        "playground",
        layout,
        {"x": [float(v) for v in x], "checks": checks},
        static,
        alt=(
            f"Context playground: {n} examples, a = {a}, b = {b}, s = {s}; "
            "the head's attention weights and its estimate (interactive in the HTML "
            "book)."
        ),
    )


def _static_playground(x, a, b, s, prior):
    """The playground's initial state, drawn with matplotlib (the PDF's figure)."""
    y = tasks.labels(x, s)
    w = head.weights(a, b, x, y)
    est = float(head.estimate(a, b, x, y))
    fig = Figure(figsize=(plotting.COLUMN_WIDTH, 3.2), layout="constrained")
    ax = fig.add_subplot()
    ax.axvspan(prior.hi, 1.0, color="0.9")
    colors = np.where(y == 1, POSITIVE, NEGATIVE)
    ax.vlines(x, 0.0, w, colors=colors, linewidth=2.5)
    ax.scatter(x, np.full_like(x, -0.04), s=18, c=colors)
    ax.axvline(s, color="k", linestyle="--", label="threshold $s$")
    ax.axvline(est, color=ESTIMATE, linewidth=2.5, label=r"estimate $\hat s$")
    left, right = baselines.gap(x, y)
    ax.plot([left, right], [0.97, 0.97], color=MIDPOINT, linewidth=2)
    ax.plot(right, 0.97, "v", color=NEAREST, markersize=8, label="nearest positive")
    ax.plot(0.5 * (left + right), 0.97, "D", color=MIDPOINT, markersize=7,
            label="gap midpoint")  # fmt: skip
    ax.set(
        xlim=(-0.03, 1.03),
        ylim=(-0.09, 1.05),
        xlabel="feature $x$",
        ylabel="attention weight",
    )
    fig.legend(loc="outside upper center", ncols=4)
    return fig
