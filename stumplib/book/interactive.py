"""Interactive figures for the HTML book: Bokeh models with in-browser callbacks.

Each builder returns an :class:`Interactive`: a Bokeh layout whose controls run
``CustomJS`` callbacks (no kernel, no server, no network), the values the browser check
compares against (``expected``) and a static matplotlib figure for the PDF.
:func:`show` displays it as one output with three renderings: ``text/html`` (the
Bokeh embed script and its root element, wrapped in ``div.stumplib-interactive``, with
``expected`` in a ``<script type="application/json">`` tag beside it), ``image/png``
(the static figure, which LaTeX takes) and ``text/plain``. The HTML loads no
library: the book's Sphinx extension ``book/_ext/interactive_figures.py`` serves
BokehJS from the book's own ``_static/bokeh`` on the pages that show such a figure.

- :func:`playground`: a context drawn once at build time; sliders for ``a``, ``b``, the
  threshold ``s`` and the context size ``N`` and a switch for the mirror-averaged head.
  The browser computes the labels, the softmax weights, the estimate, the nearest
  positive and the gap midpoint live (the same arithmetic as
  :func:`stumplib.head.estimate`); ``expected`` holds :func:`stumplib.head.estimate`
  (and :func:`stumplib.symmetrization.average_estimate`) at a few settings.
- :func:`phase_portrait`: population gradient flows and the first steps of
  constant-step gradient descent, computed at build time by stumplib for every
  setting (prior, start ``b0``, step, head); the browser only selects among them.

Stored outputs must reproduce on other floating-point environments (nbval compares
the HTML): the context is drawn on a 4-decimal grid, every computed number is rounded
to the digits a figure needs (:data:`DIGITS`), and the document and element ids are
derived from the figure's name instead of random UUIDs.
"""

import base64
import io
import json
import re
from dataclasses import dataclass, field
from functools import partial

import matplotlib as mpl
import numpy as np
from bokeh.document import Document
from bokeh.embed import components
from bokeh.layouts import column, row
from bokeh.models import (
    BoxAnnotation,
    ColumnDataSource,
    CustomJS,
    Div,
    FixedTicker,
    RadioButtonGroup,
    Slider,
    Switch,
)
from bokeh.plotting import figure
from matplotlib.figure import Figure

from .. import (
    baselines,
    calibration,
    dynamics,
    head,
    population,
    sweep,
    symmetrization,
    tasks,
    training,
    validation,
)
from ..symbolic import dynamics as sd
from . import plotting

#: Significant digits kept of every number a precomputed path carries.
DIGITS = 5
#: Decimals of the expected estimates (the browser check compares to 1e-9).
EXPECTED_DECIMALS = 12
#: Colours (the book's matplotlib cycle, stumplib.book.plotting.STYLE).
COLORS = plotting.STYLE["axes.prop_cycle"].by_key()["color"]
POSITIVE, NEGATIVE, ESTIMATE, NEAREST, MIDPOINT = (
    COLORS[0],
    COLORS[1],
    COLORS[4],
    COLORS[2],
    COLORS[5],
)
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@dataclass(frozen=True)
class Interactive:
    """An interactive figure: its Bokeh model, the checked values, the static figure.

    Parameters
    ----------
    name : str
        Stem of the element ids (``stumplib-<name>``).
    model : object
        The Bokeh layout, with its controls and callbacks.
    expected : dict
        JSON-ready values the browser check compares against.
    static : callable
        ``() -> matplotlib.figure.Figure``: the static figure (the PDF's).
    alt : str
        A text description (the ``text/plain`` rendering).
    """

    name: str
    model: object
    expected: dict
    static: object = field(repr=False)
    alt: str = ""

    def html(self):
        """The ``text/html`` rendering: embed script, root element, expected values."""
        script, div = components(self.model)
        ids = {}
        for found in _UUID.findall(script + div):
            ids.setdefault(found, f"stumplib-{self.name}-{len(ids)}")
        html = script + div
        for old, new in ids.items():
            html = html.replace(old, new)
        expected = json.dumps(self.expected, sort_keys=True, separators=(",", ":"))
        return (
            f'<div class="stumplib-interactive" id="stumplib-{self.name}">'
            f"{html}"
            f'<script type="application/json" class="stumplib-expected">'
            f"{expected}</script></div>"
        )

    def png(self):
        """The static figure as PNG bytes at :data:`stumplib.book.plotting.DPI`."""
        buffer = io.BytesIO()
        with mpl.rc_context(plotting.STYLE):
            fig = self.static()
            fig.savefig(buffer, format="png", dpi=plotting.DPI)
        return buffer.getvalue()

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {
            "text/html": self.html(),
            "image/png": base64.b64encode(self.png()).decode("ascii"),
            "text/plain": self.alt,
        }


def show(figure_):
    """Display an :class:`Interactive` as one output (HTML, PNG for the PDF, text).

    Parameters
    ----------
    figure_ : Interactive

    Returns
    -------
    None
    """
    from IPython.display import display

    if not isinstance(figure_, Interactive):
        raise TypeError(
            f"figure_ must be an Interactive (got {type(figure_).__name__})"
        )
    display(figure_)


def _rounded(values, digits=DIGITS):
    """Plain floats rounded to ``digits`` significant digits (JSON-ready, portable)."""
    return [float(f"{v:.{digits}g}") for v in np.asarray(values, dtype=float).ravel()]


# --------------------------------------------------------------------------- playground

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
marks.data = {x: [S, value, right, mid], color: ["#000000", EST, NEAR, MID],
              dash: ["dashed", "solid", "dotted", "dashdot"],
              width: [1.5, 3, 2, 2]};
const fmt = v => v.toFixed(4);
let note = `${positives} of ${N} examples positive; a/b = ${(A / B).toFixed(3)}`;
if (positives === 0) {
  note += ": <b>no positive example</b>, the head collapses toward the smallest x";
} else if (S > A / B) {
  note += ": s is above a/b, where the head's calibration ends";
}
readout.text =
  `<span style="color:${EST}">&#9473; ${sym ? "mirror average" : "estimate"} ` +
  `&#349; = <b class="stumplib-estimate" data-estimate="${value}">${fmt(value)}</b>` +
  `</span> &middot; <span>&#9476; threshold s = ${S.toFixed(3)}</span> &middot; ` +
  `<span style="color:${NEAR}">&#8943; nearest positive ${fmt(right)}</span> ` +
  `&middot; <span style="color:${MID}">&#8722;&middot; gap midpoint ${fmt(mid)}` +
  `</span><br>${note}`;
"""


def playground(seed, n=24, n_max=96, b=40.0, s=0.5, prior=None):
    """The context playground: one context, the head's weights and estimate, live.

    A context of ``n_max`` features is drawn once (uniform on [0, 1], on a 4-decimal
    grid, from ``seed``); the first ``N`` of them form the context (a slider, from 2
    to ``n_max``). Sliders move ``a``, ``b`` and the threshold ``s``; a switch replaces
    the head by its mirror average ``(s_hat + 1 - s_hat(1 - x, 1 - y))/2``. The browser
    draws the labels ``y = 1{x > s}``, the attention weights (and the mirrored head's,
    with the switch), the estimate, the nearest positive and the gap midpoint.

    Parameters
    ----------
    seed : int or tuple of int
        Seed of the context (``numpy.random.default_rng(seed)``).
    n : int
        Initial context size, ``2 <= n <= n_max``.
    n_max : int
        Largest context size.
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
    """
    prior = tasks.Uniform(0.1, 0.9) if prior is None else prior
    if not isinstance(prior, tasks.Uniform):
        raise TypeError(f"prior must be a tasks.Uniform (got {type(prior).__name__})")
    n_max = validation.count(n_max, "n_max", minimum=2, maximum=10_000)
    n = validation.count(n, "n", minimum=2, maximum=n_max)
    b = validation.positive_scalar(b, "b")
    s = float(validation.unit_interval(s, "s"))
    if not 0 < s < 1:
        raise ValueError(f"s must be in (0, 1) (got {s})")
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
    symmetrized = Switch(active=False, name="playground-symmetrized")
    readout = Div(name="playground-readout", sizing_mode="stretch_width")
    sources = {
        "points": ColumnDataSource({"x": [], "y": [], "color": [], "fill": []}),
        "weights": ColumnDataSource({"x": [], "top": [], "color": []}),
        "mirror": ColumnDataSource({"x": [], "top": []}),
        "marks": ColumnDataSource({"x": [], "color": [], "dash": [], "width": []}),
    }
    for key, source in sources.items():
        source.name = f"playground-{key}"

    plot = figure(
        height=300,
        sizing_mode="stretch_width",
        x_range=(0.0, 1.0),
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
    _book_axes(plot)

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
    note = Div(
        text=(
            "Circles: the context drawn at build time (filled: positive). Live in "
            "your browser: labels, weights, estimate and baselines. Shaded: above "
            "the top of the prior "
            f"U[{prior.lo:g}, {prior.hi:g}]."
        ),
        sizing_mode="stretch_width",
        styles={"font-size": "0.85em", "color": "#444"},
    )
    switch_row = row(
        symmetrized,
        Div(text="mirror-averaged head (symmetrized)"),
        sizing_mode="stretch_width",
    )
    controls = column(*sliders.values(), switch_row, sizing_mode="stretch_width")
    layout = column(
        readout,
        plot,
        controls,
        note,
        sizing_mode="stretch_width",
        name="playground",
    )
    _on_ready(layout, callback)

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


def _on_ready(layout, callback):
    """Run ``callback`` once the page has rendered ``layout`` (its own document)."""
    document = Document()
    document.add_root(layout)
    document.js_on_event("document_ready", callback)


def _book_axes(plot):
    """The book's look on a Bokeh plot: 12 px labels, light grid, no outline."""
    plot.outline_line_color = None
    plot.min_border_right = 16  # the last tick label stays inside at phone width
    plot.background_fill_color = "#ffffff"
    plot.border_fill_color = "#ffffff"
    for axis in (*plot.xaxis, *plot.yaxis):
        axis.axis_label_text_font_size = "12px"
        axis.major_label_text_font_size = "12px"
        axis.axis_label_text_font_style = "normal"
    plot.grid.grid_line_alpha = 0.3


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
    marks = [
        (s, "k", "--", "threshold $s$"),
        (est, ESTIMATE, "-", r"estimate $\hat s$"),
        (float(baselines.nearest_positive(x, y)), NEAREST, ":", "nearest positive"),
        (float(baselines.midpoint(x, y)), MIDPOINT, "-.", "gap midpoint"),
    ]
    for value, color, style, label in marks:
        ax.axvline(value, color=color, linestyle=style, label=label)
    ax.set(
        xlim=(0, 1), ylim=(-0.09, 1.05), xlabel="feature $x$", ylabel="attention weight"
    )
    ax.legend(loc="upper left", ncols=2)
    return fig


# ----------------------------------------------------------------------- phase portrait

#: The priors of the phase portrait, by label, as (lo, hi).
PORTRAIT_PRIORS = {"U[0.1, 0.9]": (0.1, 0.9), "U[0, 1]": (0.0, 1.0)}
#: Starting scales b0 and steps (multiples of 1/lambda_max at the start).
PORTRAIT_STARTS = (10.0, 40.0)
PORTRAIT_STEPS = (0.5, 1.0, 1.8)
HEADS = ("head", "average")


def _loss_and_gradient(lo, hi, rule):
    prior = tasks.Uniform(lo, hi)
    if rule == "head":
        return partial(population.loss_and_gradient, prior=prior)
    return partial(symmetrization.loss_and_gradient, prior=prior, rule=rule)


def _gradient(loss_and_gradient, a, b):
    return loss_and_gradient(a, b)[1:]


def _slope(hi):
    """The valley's slope p: hi under an interior prior, 1 under U[0, 1]."""
    return hi


def _portrait_item(item):
    """One precomputed piece of the phase portrait (run by :func:`stumplib.sweep.run`).

    ``("flow", lo, hi, b0, rule, t_max, points)``: the gradient flow in log time;
    ``("descent", lo, hi, b0, rule, factor, steps)``: constant-step descent with step
    ``factor / lambda_max`` at the start; ``("curves", lo, hi, b_grid)``: the valley
    ``a*(b)`` (interior priors) and the slow curve derived by
    :mod:`stumplib.symbolic.dynamics`.
    """
    kind, lo, hi, *rest = item
    if kind == "curves":
        (b_grid,) = rest
        b_grid = np.asarray(b_grid)
        if lo > 0:
            expansion = sd.interior_expansion(lo, hi)
            valley = calibration.a_star(b_grid, tasks.Uniform(lo, hi)) - hi * b_grid
        else:
            expansion = sd.full_expansion()
            valley = None
        reduction = sd.reduce_flow(expansion)
        slow = (
            dynamics.slow_curve(
                b_grid,
                p=float(expansion.p),
                m=float(expansion.m),
                xi0=float(reduction.xi0),
                xi1=float(reduction.xi1),
            )
            - float(expansion.p) * b_grid
        )
        return {"valley": valley, "slow": slow}
    b0, rule, *rest = rest
    fn = _loss_and_gradient(lo, hi, rule)
    theta0 = (_slope(hi) * b0, b0)
    if kind == "flow":
        t_max, points = rest
        return symmetrization.flow(fn, theta0, t_max, points=points, rtol=1e-6)
    factor, steps = rest
    lam = np.linalg.eigvalsh(dynamics.hessian(partial(_gradient, fn), *theta0))[-1]
    return training.gradient_descent(
        fn, theta0, factor / lam, steps, points=steps + 1, label="portrait GD"
    )


_PORTRAIT_JS = """
const key = [PRIORS[prior.active], STARTS[start.active], STEPS[step.active],
             symmetrized.active ? "average" : "head"].join("|");
const p = PATHS[key];
flow.data = {b: p.flow_b, offset: p.flow_offset, t: p.flow_t};
descent.data = {b: p.gd_b, offset: p.gd_offset, t: p.gd_t};
start_point.data = {b: [p.flow_b[0]], offset: [p.flow_offset[0]],
                    t: [p.flow_t[0]]};
const c = CURVES[PRIORS[prior.active]];
valley.data = {b: c.b, offset: c.valley};
slow.data = {b: c.b, offset: c.slow};
reference.data = {t: p.ref_t, b: p.ref_b};
readout.text = `<b>${PRIORS[prior.active]}</b>, ${
  symmetrized.active ? "mirror-averaged head" : "one head"}, b0 = ${
  STARTS[start.active]}, step ${STEPS[step.active]}/&lambda;<sub>max</sub> = ${
  p.eta}: b reaches ${p.flow_b[p.flow_b.length - 1]} at t = 10<sup>${
  Math.log10(p.flow_t[p.flow_t.length - 1])}</sup>; ${p.law}${
  c.valley.length ? "" : "; no finite valley under U[0, 1]"}${
  symmetrized.active ? " (valley and slow curve: the one head's)" : ""}.`;
"""


def phase_portrait(
    starts=PORTRAIT_STARTS,
    steps=PORTRAIT_STEPS,
    t_max=1e8,
    points=30,
    gd_steps=30,
    n_workers=1,
):
    """The (a, b) phase portrait: flows and descents precomputed for every setting.

    For each prior of :data:`PORTRAIT_PRIORS`, start ``b0`` in ``starts`` (with
    ``a0 = p b0`` on the valley's slope, ``p = hi``) and head (the one head, or the
    mirror average): the population gradient flow to ``t_max`` (in log time,
    ``points`` records) and, for each step factor ``c`` in ``steps``, ``gd_steps``
    steps of constant-step gradient descent with ``eta = c / lambda_max`` (the largest
    Hessian eigenvalue at the start). Also the valley ``a*(b)`` (interior priors) and
    the one head's derived slow curve. Left panel: the offset ``a - p b`` against
    ``b``; right panel: ``b`` against ``t`` with the growth law as a guide.

    Parameters
    ----------
    starts : sequence of float
        Starting scales ``b0``.
    steps : sequence of float
        Step factors ``c`` (GD is stable for ``c < 2`` near the start).
    t_max : float
        End of the flows.
    points : int
        Records per flow.
    gd_steps : int
        Steps of each descent.
    n_workers : int
        Processes for the precomputation (:func:`stumplib.sweep.run`); one by default,
        since starting workers costs more than the pieces on two cores.

    Returns
    -------
    Interactive
        ``expected`` holds the settings' keys and each path's last ``b``.
    """
    starts = [float(v) for v in validation.positive(starts, "starts").ravel()]
    steps = [float(v) for v in validation.positive(steps, "steps").ravel()]
    t_max = validation.positive_scalar(t_max, "t_max")
    points = validation.count(points, "points", minimum=2)
    gd_steps = validation.count(gd_steps, "gd_steps")
    n_workers = validation.count(n_workers, "n_workers")
    if not starts or not steps:
        raise ValueError("starts and steps must not be empty")
    b_grid = np.geomspace(min(starts) / 1.5, 400.0, 40)
    items = [("curves", lo, hi, b_grid) for lo, hi in PORTRAIT_PRIORS.values()]
    flows = [
        ("flow", lo, hi, b0, rule, float(t_max), int(points))
        for lo, hi in PORTRAIT_PRIORS.values()
        for b0 in starts
        for rule in HEADS
    ]
    descents = [
        ("descent", lo, hi, b0, rule, c, int(gd_steps))
        for lo, hi in PORTRAIT_PRIORS.values()
        for b0 in starts
        for rule in HEADS
        for c in steps
    ]
    results = sweep.run(
        _portrait_item,
        items + flows + descents,
        n_workers,
        desc="phase portrait",
        cost=lambda item: {"curves": 3, "flow": 2, "descent": 1}[item[0]],
    )
    labels = {v: k for k, v in PORTRAIT_PRIORS.items()}
    curves = {}
    for (_, lo, hi, _), got in zip(items, results):
        valley = got["valley"]
        curves[labels[(lo, hi)]] = {
            "b": _rounded(b_grid),
            "valley": _rounded(valley) if valley is not None else [],
            "slow": _rounded(got["slow"]),
        }
    paths = {}
    for (_, lo, hi, b0, rule, *_), flow in zip(flows, results[len(items) :]):
        p = _slope(hi)
        keep = flow.t > 0
        for c in steps:
            index = descents.index(("descent", lo, hi, b0, rule, c, int(gd_steps)))
            gd = results[len(items) + len(flows) + index]
            t_end, b_end = float(flow.t[-1]), float(flow.b[-1])
            exponent = 0.25 if rule == "head" else (0.2 if lo == 0 else None)
            ref_t = np.geomspace(t_end / 1e4, t_end, 2)
            ref_b = b_end * (ref_t / t_end) ** exponent if exponent else ref_t * np.nan
            law = (
                "b grows like t^(1/4) (guide: dashed)"
                if rule == "head"
                else (
                    "b grows like t^(1/5) (guide: dashed)"
                    if lo == 0
                    else "b grows like log t: no power law"
                )
            )
            key = "|".join([labels[(lo, hi)], f"{b0:g}", f"{c:g}", rule])
            paths[key] = {
                "flow_b": _rounded(flow.b[keep]),
                "flow_offset": _rounded(flow.a[keep] - p * flow.b[keep]),
                "flow_t": _rounded(flow.t[keep]),
                "gd_b": _rounded(gd.b[1:]),
                "gd_offset": _rounded(gd.a[1:] - p * gd.b[1:]),
                "gd_t": _rounded(gd.t[1:]),
                "eta": _rounded([gd.t[1]], 3)[0],
                "ref_t": _rounded(ref_t) if exponent else [],
                "ref_b": _rounded(ref_b) if exponent else [],
                "law": law,
            }
    return _portrait_figure(paths, curves, starts, steps, gd_steps, t_max)


def _portrait_figure(paths, curves, starts, steps, gd_steps, t_max):
    """The Bokeh layout and the static figure of :func:`phase_portrait`."""
    prior_names = list(PORTRAIT_PRIORS)
    controls = {
        "prior": RadioButtonGroup(labels=prior_names, active=0),
        "start": RadioButtonGroup(labels=[f"b0 = {b:g}" for b in starts], active=1),
        "step": RadioButtonGroup(labels=[f"{c:g}/λmax" for c in steps], active=1),
    }
    for key, control in controls.items():
        control.name = f"portrait-{key}"
    symmetrized = Switch(active=False, name="portrait-symmetrized")
    readout = Div(name="portrait-readout", sizing_mode="stretch_width")
    names = ("flow", "descent", "start_point", "valley", "slow", "reference")
    sources = {k: ColumnDataSource(name=f"portrait-{k}") for k in names}
    for key in ("flow", "descent", "start_point"):
        sources[key].data = {"b": [], "offset": [], "t": []}
    for key in ("valley", "slow"):
        sources[key].data = {"b": [], "offset": []}
    sources["reference"].data = {"t": [], "b": []}

    left = figure(
        height=280,
        sizing_mode="stretch_width",
        x_axis_type="log",
        x_axis_label="scale b",
        y_axis_label="offset a − p·b  (p = hi)",
        tools="",
        toolbar_location=None,
        name="portrait-offset",
    )
    left.line(
        "b",
        "offset",
        source=sources["valley"],
        color=COLORS[3],
        line_width=4,
        alpha=0.8,
    )
    left.line(
        "b",
        "offset",
        source=sources["slow"],
        color="#000000",
        line_dash="dashed",
    )
    left.line(
        "b",
        "offset",
        source=sources["flow"],
        color=COLORS[0],
        line_width=2.5,
    )
    left.scatter(
        "b",
        "offset",
        source=sources["descent"],
        color=COLORS[1],
        size=4,
    )
    left.scatter(
        "b",
        "offset",
        source=sources["start_point"],
        color="#000000",
        size=8,
        marker="square",
    )
    right = figure(
        height=240,
        sizing_mode="stretch_width",
        x_axis_type="log",
        y_axis_type="log",
        x_axis_label="time t",
        y_axis_label="scale b",
        tools="",
        toolbar_location=None,
        name="portrait-growth",
    )
    right.line("t", "b", source=sources["flow"], color=COLORS[0], line_width=2.5)
    right.scatter("t", "b", source=sources["descent"], color=COLORS[1], size=4)
    right.line(
        "t", "b", source=sources["reference"], color="#000000", line_dash="dashed"
    )
    for plot in (left, right):
        _book_axes(plot)
    left.xaxis.ticker = FixedTicker(ticks=[5, 10, 20, 50, 100, 200, 500])
    right.yaxis.ticker = FixedTicker(ticks=[5, 10, 20, 50, 100, 200, 500])

    callback = CustomJS(
        args=dict(
            PATHS=paths,
            CURVES=curves,
            PRIORS=prior_names,
            STARTS=[f"{b:g}" for b in starts],
            STEPS=[f"{c:g}" for c in steps],
            symmetrized=symmetrized,
            readout=readout,
            **controls,
            **sources,
        ),
        code=_PORTRAIT_JS,
    )
    for control in controls.values():
        control.js_on_change("active", callback)
    symmetrized.js_on_change("active", callback)
    note = Div(
        text=(
            f"Precomputed when the book was built (stumplib, population loss): for "
            f"each setting, the gradient flow to t = {t_max:.0e} and the first "
            f"{gd_steps} steps of gradient descent, the valley and the derived slow "
            "curve of the one head. Live in your browser: only the choice among "
            "them."
        ),
        sizing_mode="stretch_width",
        styles={"font-size": "0.85em", "color": "#444"},
    )
    labelled = [
        row(Div(text=text, width=62), control, sizing_mode="stretch_width")
        for text, control in zip(("prior", "start", "step"), controls.values())
    ]
    key = Div(
        text=(
            f'<span style="color:{COLORS[3]}">&#9473; valley a*(b)</span> &middot; '
            "&#9476; slow curve (derived) &middot; "
            f'<span style="color:{COLORS[0]}">&#9473; flow</span> &middot; '
            f'<span style="color:{COLORS[1]}">&#9679; gradient-descent steps</span>'
            " &middot; &#9632; start"
        ),
        sizing_mode="stretch_width",
        styles={"font-size": "0.9em"},
    )
    layout = column(
        readout,
        key,
        left,
        right,
        *labelled,
        row(
            symmetrized,
            Div(text="mirror-averaged head (symmetrized)"),
            sizing_mode="stretch_width",
        ),
        note,
        sizing_mode="stretch_width",
        name="portrait",
    )
    _on_ready(layout, callback)
    first = "|".join([prior_names[0], f"{starts[1]:g}", f"{steps[1]:g}", "head"])

    def static():
        return _static_portrait(paths[first], curves[prior_names[0]], first)

    return Interactive(
        "portrait",
        layout,
        {
            "keys": sorted(paths),
            "b_end": {k: v["flow_b"][-1] for k, v in paths.items()},
        },
        static,
        alt=(
            "Phase portrait of (a, b) under population training: the valley, the slow "
            "curve and the path (interactive in the HTML book)."
        ),
    )


def _static_portrait(path, curve, key):
    """One setting of the phase portrait, drawn with matplotlib (the PDF's figure)."""
    fig = Figure(figsize=(plotting.COLUMN_WIDTH, 3.4), layout="constrained")
    left, right = fig.subplots(1, 2)
    if curve["valley"]:
        left.plot(
            curve["b"],
            curve["valley"],
            color=COLORS[3],
            linewidth=3,
            label="valley $a^*(b)$",
        )
    left.plot(curve["b"], curve["slow"], "k--", label="slow curve")
    left.plot(path["flow_b"], path["flow_offset"], color=COLORS[0], label="flow")
    left.plot(
        path["gd_b"],
        path["gd_offset"],
        "o",
        color=COLORS[1],
        markersize=2.5,
        label="GD steps",
    )
    left.set(xscale="log", xlabel="scale $b$", ylabel=r"offset $a-p\,b$")
    left.legend(loc="lower right")
    right.plot(path["flow_t"], path["flow_b"], color=COLORS[0])
    right.plot(path["ref_t"], path["ref_b"], "k--", label=r"$t^{1/4}$")
    right.set(xscale="log", yscale="log", xlabel="time $t$", ylabel="scale $b$")
    right.legend(loc="upper left")
    prior, b0, step, _ = key.split("|")
    fig.suptitle(
        f"{prior}, one head, $b_0={b0}$, step $\\eta={step}/\\lambda_{{\\max}}$"
    )
    return fig
