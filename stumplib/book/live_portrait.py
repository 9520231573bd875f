"""The live phase portrait of ``(a, b)``: flows and descents precomputed, selected live.

An :class:`~stumplib.book.interactive.Interactive` figure (shown by
:func:`stumplib.book.interactive.show`): population gradient flows and the first steps
of constant-step gradient descent, computed at build time by stumplib for every setting
(prior, start ``b0``, step, head), with the valley and the derived slow curve; the
browser only selects among them. Every number a path carries is rounded to
:data:`DIGITS` significant digits, so the stored output reproduces on other
floating-point environments.
"""

from functools import partial

import numpy as np
from bokeh.layouts import column, row
from bokeh.models import (
    ColumnDataSource,
    CustomJS,
    Div,
    FixedTicker,
    RadioButtonGroup,
    Switch,
)
from bokeh.plotting import figure
from matplotlib.figure import Figure

from .. import (
    calibration,
    dynamics,
    population,
    sweep,
    symmetrization,
    tasks,
    training,
    validation,
)
from ..symbolic import dynamics as sd
from . import plotting
from .interactive import COLORS, Interactive, book_axes, note_div, on_ready

#: Significant digits kept of every number a precomputed path carries.
DIGITS = 5
#: The priors of the phase portrait, by label, as (lo, hi).
PORTRAIT_PRIORS = {"U[0.1, 0.9]": (0.1, 0.9), "U[0, 1]": (0.0, 1.0)}
#: Starting scales :math:`b_0` (the figure opens at the second, the book's 20) and
#: steps (multiples of :math:`1/\lambda_{\max}` at the start: short, near the
#: quadratic stability limit :math:`2/\lambda_{\max}`, and three times that limit,
#: which overshoots the slow curve once and still decreases the loss at every step from
#: each start offered).
PORTRAIT_STARTS = (10.0, 20.0, 40.0)
PORTRAIT_STEPS = (0.5, 1.8, 6.0)
HEADS = ("head", "average")


#: Candidate tick values of the scale axes; :func:`_scale_ticks` keeps those it needs.
_TICKS = (1, 1.5, 2, 3, 4, 5, 7)


def _scale_ticks(low, high):
    """Tick values for a logarithmic axis of the scale ``b`` over ``[low, high]``.

    The 1-2-5 ticks of each decade when at least two of them fall in the range, else a
    denser set (1, 1.5, 2, 3, 4, 5, 7 per decade), else ``low`` and ``high`` rounded
    to two significant digits: the axis always shows two labelled ticks or more, even
    over a range as narrow as b = 37..40.

    Parameters
    ----------
    low, high : float
        The range, ``0 < low < high``.

    Returns
    -------
    list of float

    Examples
    --------
    >>> _scale_ticks(10.0, 400.0)
    [10.0, 20.0, 50.0, 100.0, 200.0]
    >>> _scale_ticks(37.0, 40.0)
    [37.0, 40.0]
    """
    low, high = float(low), float(high)
    if not 0 < low < high:
        raise ValueError(f"need 0 < low < high (got {low:g}, {high:g})")
    decades = range(int(np.floor(np.log10(low))), int(np.ceil(np.log10(high))) + 1)
    for mantissas in ((1, 2, 5), _TICKS):
        ticks = [
            float(f"{m * 10.0**d:.3g}")
            for d in decades
            for m in mantissas
            if low * (1 - 1e-9) <= m * 10.0**d <= high * (1 + 1e-9)
        ]
        if len(ticks) >= 2:
            return ticks
    return [float(f"{low:.2g}"), float(f"{high:.2g}")]


def _rounded(values, digits=DIGITS):
    """Plain floats rounded to ``digits`` significant digits (JSON-ready, portable)."""
    return [float(f"{v:.{digits}g}") for v in np.asarray(values, dtype=float).ravel()]


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
    r"""One precomputed piece of the phase portrait (run by :func:`stumplib.sweep.run`).

    ``("flow", lo, hi, b0, rule, t_max, points)``: the gradient flow in log time;
    ``("descent", lo, hi, b0, rule, factor, steps)``: constant-step descent with step
    ``factor`` over :math:`\lambda_{\max}` at the start; ``("curves", lo, hi,
    b_grid)``: the valley :math:`a^*(b)` (interior priors) and the slow curve derived by
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
// the valley and the slow curve are the one head's: hidden for the mirror average
const own = !symmetrized.active;
valley.data = {b: own ? c.b : [], offset: own ? c.valley : []};
slow.data = {b: own ? c.b : [], offset: own ? c.slow : []};
b_ticker.ticks = p.b_ticks;
reference.data = {t: p.ref_t, b: p.ref_b};
readout.text = `<b>${PRIORS[prior.active]}</b>, ${
  symmetrized.active ? "mirror-averaged head" : "one head"}, b0 = ${
  STARTS[start.active]}, step ${STEPS[step.active]}/&lambda;<sub>max</sub> = ${
  p.eta}: b reaches ${p.flow_b[p.flow_b.length - 1]} at t = 10<sup>${
  Math.log10(p.flow_t[p.flow_t.length - 1])}</sup>; ${p.law}${
  c.valley.length ? "" : "; no finite valley under U[0, 1]"}${
  symmetrized.active ? " (the one head's valley and slow curve hidden)" : ""}.`;
"""


def _two_or_more(values):
    if min(values["starts"].size, values["steps"].size) < 2:
        raise ValueError(
            "starts and steps must hold two values or more (the figure opens at the "
            f"second of each; got {values['starts'].size} and {values['steps'].size})"
        )


@validation.constrained(
    _two_or_more,
    starts=validation.Positive(),
    steps=validation.Positive(),
    t_max=validation.PositiveScalar(),
    points=validation.Integer(minimum=2),
    gd_steps=validation.Integer(),
    n_workers=validation.Integer(),
)
def phase_portrait(
    starts=PORTRAIT_STARTS,
    steps=PORTRAIT_STEPS,
    t_max=1e8,
    points=30,
    gd_steps=30,
    n_workers=1,
):
    r"""The (a, b) phase portrait: flows and descents precomputed for every setting.

    For each prior of :data:`PORTRAIT_PRIORS`, start :math:`b_0` in ``starts`` (with
    :math:`a_0 = p b_0` on the valley's slope, :math:`p = \mathrm{hi}`) and head (the
    one head, or the mirror average): the population gradient flow to ``t_max`` (in log
    time, ``points`` records) and, for each step factor :math:`c` in ``steps``,
    ``gd_steps`` steps of constant-step gradient descent with :math:`\eta = c /
    \lambda_{\max}` (the largest Hessian eigenvalue at the start). Also the valley
    :math:`a^*(b)` (interior priors) and the one head's derived slow curve. Left panel:
    the slow-curve offset :math:`a - p b` against :math:`b`; right panel: :math:`b`
    against :math:`t` with the growth law as a guide.

    Parameters
    ----------
    starts : sequence of float
        Starting scales ``b0``, two or more (the figure opens at the second).
    steps : sequence of float
        Step factors ``c``, two or more (for a quadratic GD is stable for ``c < 2``;
        at the uncalibrated start the loss still decreases for far larger ``c``).
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
    starts = [float(v) for v in np.ravel(starts)]
    steps = [float(v) for v in np.ravel(steps)]
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
                    else "the law is b ~ log t (no power law)"
                )
            )
            if b_end < b0:  # still calibrating: say what the plot shows
                law = (
                    f"b has not grown by t = {t_end:.0e}: it falls from {b0:g} to "
                    f"{b_end:.3g} while the offset calibrates ({law}, later)"
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
                "b_ticks": _scale_ticks(min(flow.b[keep]), max(flow.b[keep])),
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
        y_axis_label="slow-curve offset a − p·b  (p = hi)",
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
        book_axes(plot)
    left.xaxis.ticker = FixedTicker(ticks=[5, 10, 20, 50, 100, 200, 500])
    b_ticker = FixedTicker(ticks=[5, 10, 20, 50, 100, 200, 500])
    right.yaxis.ticker = b_ticker

    callback = CustomJS(
        args=dict(
            PATHS=paths,
            CURVES=curves,
            PRIORS=prior_names,
            STARTS=[f"{b:g}" for b in starts],
            STEPS=[f"{c:g}" for c in steps],
            symmetrized=symmetrized,
            readout=readout,
            b_ticker=b_ticker,
            **controls,
            **sources,
        ),
        code=_PORTRAIT_JS,
    )
    for control in controls.values():
        control.js_on_change("active", callback)
    symmetrized.js_on_change("active", callback)
    note = note_div(
        f"Precomputed when the book was built (stumplib, population loss): for "
        f"each setting, the gradient flow to t = {t_max:.0e} and the first "
        f"{gd_steps} steps of gradient descent, the valley and the derived slow "
        "curve of the one head. Live in your browser: only the choice among "
        "them."
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
    on_ready(layout, callback)
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
    left.set(xscale="log", xlabel="scale $b$", ylabel=r"slow-curve offset $a-p\,b$")
    left.legend(loc="lower right")
    right.plot(path["flow_t"], path["flow_b"], color=COLORS[0])
    right.plot(path["ref_t"], path["ref_b"], "k--", label=r"$t^{1/4}$")
    right.set(xscale="log", yscale="log", xlabel="time $t$", ylabel="scale $b$")
    right.set_yticks(path["b_ticks"], [f"{v:g}" for v in path["b_ticks"]])
    right.minorticks_off()
    right.legend(loc="upper left")
    prior, b0, step, _ = key.split("|")
    fig.suptitle(
        f"{prior}, one head, $b_0={b0}$, step $\\eta={step}/\\lambda_{{\\max}}$"
    )
    return fig
