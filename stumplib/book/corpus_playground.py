r"""The corpus playground: a finite corpus, the corpus rule's descent, live.

An :class:`~stumplib.book.interactive.Interactive` figure (shown by
:func:`stumplib.book.interactive.show`). The browser draws a corpus of ``m`` tasks with
``n`` examples each (thresholds from U[0.1, 0.9], features uniform on a 4-decimal
grid) with a small integer generator, :func:`draw`, which this module reproduces
bit for bit; the reader sets ``m``, ``n``, the rule's level :math:`\ell` and the step (a
fraction of the descent lemma's step at the start), and the browser runs the
constant-step descent from the valley at the size-tied start
(:func:`stumplib.corpus_rule.size_start`) until the corpus's own noise ratio
(:func:`stumplib.corpus.noise_ratio`) reaches :math:`\ell` (the rule of
:func:`stumplib.pretraining.train_until_noisy`). Along the run it draws ``b``, the
noise ratio :math:`\mathcal N` against :math:`\ell` and the corpus gradient's
relative error :math:`\rho` against the population gradient (the population gradient by
Gauss-Legendre quadrature over the thresholds of the closed-form infinite-context
head), and at the freeze the frozen head's mean squared error on fresh contexts.

:func:`run` is the same computation in Python through stumplib itself
(:class:`stumplib.corpus.Corpus`, :func:`stumplib.corpus.noise_ratio`,
:func:`stumplib.training.descend`, :func:`stumplib.population.loss_and_gradient`); the
figure's ``expected`` holds its results at a few settings, rounded to
:data:`EXPECTED_DIGITS` significant digits, and the browser check compares the page's
numbers with them to 1e-9.
"""

import numpy as np
from bokeh.layouts import column, row
from bokeh.models import ColumnDataSource, CustomJS, Div, Slider, Span
from bokeh.plotting import figure
from matplotlib.figure import Figure

from .. import corpus_rule, population, tasks, training, validation
from ..corpus import Corpus, noise_ratio
from . import plotting
from .interactive import COLORS, Interactive, book_axes, note_div, on_ready

#: Largest number of tasks and context size offered.
M_MAX = 200
N_MAX = 200
#: Fresh tasks on which the frozen head's error is measured.
FRESH = 400
#: Steps allowed before a run counts as not frozen.
STEP_CAP = 2000
#: Significant digits of every number the figure carries (start, step, expected).
EXPECTED_DIGITS = 12
#: The threshold prior.
PRIOR = tasks.Uniform(0.1, 0.9)
#: Gauss-Legendre nodes per panel and panels over the prior (the browser's
#: :math:`\rho`).
NODES, PANELS = 12, 16
B_COLOR, NOISE, RHO = COLORS[0], COLORS[1], COLORS[2]

_UINT32 = 0xFFFFFFFF


def _imul(x, y):
    return (x * y) & _UINT32


def _stream(seed):
    """mulberry32: uint32 draws, as the browser's ``Math.imul`` arithmetic."""
    state = seed & _UINT32
    while True:
        state = (state + 0x6D2B79F5) & _UINT32
        t = _imul(state ^ (state >> 15), 1 | state)
        t = ((t + _imul(t ^ (t >> 7), 61 | t)) & _UINT32) ^ t
        yield (t ^ (t >> 14)) & _UINT32


def _grid(draw):
    """A uint32 draw as a point of the 4-decimal grid :math:`(k + 1/2) / 10^4`."""
    return (draw % 10000 + 0.5) / 10000


def _sizes(values):
    for name in ("m", "n"):
        if values[name] > (M_MAX if name == "m" else N_MAX):
            limit = M_MAX if name == "m" else N_MAX
            raise ValueError(f"{name} must be at most {limit} (got {values[name]})")


@validation.constrained(
    seed=validation.Integer(minimum=0, maximum=_UINT32),
    m=validation.Integer(minimum=2, maximum=max(M_MAX, FRESH)),
    n=validation.Integer(minimum=2, maximum=N_MAX),
)
def draw(seed, m, n):
    r"""The browser's corpus: ``m`` thresholds, then ``m`` rows of ``n`` features.

    Thresholds ``s = 0.1 + 0.8 u`` and features ``x = u``, ``u`` on the grid
    :math:`(k+\tfrac12)/10^4` from mulberry32 draws (the browser's generator, in integer
    arithmetic); the draws of a smaller corpus are a prefix of a larger one's only in
    the thresholds, so the figure draws the largest corpus once and takes the first
    ``m`` rows and ``n`` columns.

    Parameters
    ----------
    seed : int
        Seed of the generator, :math:`0\le\text{seed}<2^{32}`.
    m, n : int
        Tasks and examples per task, ``2 <= m <= max(M_MAX, FRESH)`` (the corpus, or
        the fresh tasks of the error) and ``2 <= n <= N_MAX``.

    Returns
    -------
    x : ndarray, shape (m, n)
    s : ndarray, shape (m,)

    Examples
    --------
    >>> x, s = draw(5, 2, 3)
    >>> x.shape, s.shape, bool(np.all((0.1 < s) & (s < 0.9)))
    ((2, 3), (2,), True)
    """
    draws = _stream(seed)
    s = np.array([0.1 + 0.8 * _grid(next(draws)) for _ in range(m)])
    x = np.array([[_grid(next(draws)) for _ in range(n)] for _ in range(m)])
    return x, s


def _stable(value):
    return float(f"{float(value):.{EXPECTED_DIGITS}g}")


def start():
    r""":math:`((a_0, b_0), \eta)`: the size-tied start, one for every offered size.

    Rounded to :data:`EXPECTED_DIGITS` digits, which the browser and :func:`run` use.

    Returns
    -------
    tuple

    Examples
    --------
    >>> (a0, b0), eta = start()
    >>> b0
    2.5
    """
    (a0, b0), eta = corpus_rule.size_start(M_MAX, N_MAX, PRIOR)
    return (_stable(a0), _stable(b0)), _stable(eta)


@validation.constrained(
    _sizes,
    seed=validation.Integer(minimum=0, maximum=_UINT32 - 1),
    m=validation.Integer(minimum=2),
    n=validation.Integer(minimum=2),
    level=validation.PositiveScalar(),
    fraction=validation.PositiveScalar(),
)
def run(seed, m, n, level, fraction):
    r"""The playground's run, computed by stumplib on the browser's corpus.

    The corpus is the first ``m`` rows and ``n`` columns of ``draw(seed, M_MAX,
    N_MAX)``; the descent starts at :func:`start` with the step
    :math:`\text{fraction}\cdot\eta` and stops at the first iterate whose noise ratio
    reaches ``level`` (or after :data:`STEP_CAP` steps, not frozen).

    Parameters
    ----------
    seed : int
        Seed of :func:`draw`, :math:`0\le\text{seed}<2^{32}-1` (the fresh tasks use
        ``seed + 1``).
    m, n : int
        Corpus size.
    level : float
        The rule's level :math:`\ell`.
    fraction : float
        Step as a fraction of the lemma's step at the start.

    Returns
    -------
    dict
        ``a``, ``b``, ``steps``, ``frozen``, ``noise`` and ``rho`` (at the last
        iterate), ``fresh`` (mean squared error of the last iterate on :data:`FRESH`
        fresh tasks of ``n`` examples, drawn by :func:`draw` from ``seed + 1``), and
        the path ``path_b``, ``path_noise``, ``path_rho`` (one entry an iterate).

    Examples
    --------
    >>> got = run(5, 20, 20, 0.5, 1.0)  # a small corpus is noisy at once
    >>> got["steps"], got["frozen"], got["noise"] >= 0.5
    (0, True, True)
    """
    x_all, s_all = draw(seed, M_MAX, N_MAX)
    x, s = x_all[:m, :n], s_all[:m]
    corpus = Corpus(x, tasks.labels(x, s), s)
    (a0, b0), eta = start()
    path = {"b": [], "noise": [], "rho": []}

    def direction(a, b, k):
        gradients = corpus.task_gradients(a, b)
        g = gradients.mean(axis=0)
        g_pop = np.array(population.loss_and_gradient(a, b, PRIOR)[1:])
        path["b"].append(float(b))
        path["noise"].append(noise_ratio(gradients))
        path["rho"].append(float(np.linalg.norm(g - g_pop) / np.linalg.norm(g_pop)))
        return None if path["noise"][-1] >= level or k == STEP_CAP else g

    a, b, k = training.descend(direction, (a0, b0), fraction * eta, STEP_CAP)
    xf, sf = draw(seed + 1, FRESH, n)
    fresh = Corpus(xf, tasks.labels(xf, sf), sf).loss(a, b)
    return {
        "a": float(a),
        "b": float(b),
        "steps": int(k),
        "frozen": bool(path["noise"][-1] >= level),
        "noise": path["noise"][-1],
        "rho": path["rho"][-1],
        "fresh": float(fresh),
        "path_b": path["b"],
        "path_noise": path["noise"],
        "path_rho": path["rho"],
    }


_CORPUS_JS = """
const M = Math.round(m.value), N = Math.round(n.value);
const LEVEL = level.value, FRACTION = fraction.value;
// mulberry32 on the 4-decimal grid (k + 1/2) / 10^4, as corpus_playground.draw
function draw(seed, rows, cols) {
  let state = seed >>> 0;
  function next() {
    state = (state + 0x6D2B79F5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state) >>> 0;
    t = (((t + Math.imul(t ^ (t >>> 7), 61 | t)) >>> 0) ^ t) >>> 0;
    return ((t ^ (t >>> 14)) >>> 0) % 10000;
  }
  const s = [], x = [];
  for (let j = 0; j < rows; j++) s.push(0.1 + 0.8 * ((next() + 0.5) / 10000));
  for (let j = 0; j < rows; j++) {
    const r = new Float64Array(cols);
    for (let i = 0; i < cols; i++) r[i] = (next() + 0.5) / 10000;
    x.push(r);
  }
  return [x, s];
}
if (!cache.corpus) cache.corpus = draw(SEED, M_MAX, N_MAX);
const [XA, SA] = cache.corpus;
// one task: the head's estimate and its derivatives (Cov_w(x, y), -Var_w(x))
function task(a, b, x, s, cols) {
  let top = -Infinity;
  for (let i = 0; i < cols; i++) top = Math.max(top, (x[i] > s ? a : 0) - b * x[i]);
  // one pass over the weights, moments taken about s (d = x - s)
  let z = 0, sd = 0, sdd = 0, sy = 0, syd = 0;
  for (let i = 0; i < cols; i++) {
    const pos = x[i] > s, d = x[i] - s;
    const e = Math.exp((pos ? a : 0) - b * x[i] - top);
    z += e; sd += e * d; sdd += e * d * d;
    if (pos) { sy += e; syd += e * d; }
  }
  const md = sd / z, my = sy / z;
  return [s + md, syd / z - md * my, -(sdd / z - md * md)];
}
function taskGradients(a, b) {
  const G = [];
  for (let j = 0; j < M; j++) {
    const [e, da, db] = task(a, b, XA[j], SA[j], N);
    const r = 2 * (e - SA[j]);
    G.push([r * da, r * db]);
  }
  return G;
}
function noiseRatio(G) {
  let ga = 0, gb = 0;
  for (const g of G) { ga += g[0]; gb += g[1]; }
  ga /= G.length; gb /= G.length;
  let spread = 0;
  for (const g of G) spread += (g[0] - ga) ** 2 + (g[1] - gb) ** 2;
  spread /= (G.length - 1) * G.length;
  const norm = Math.hypot(ga, gb);
  return [norm > 0 ? Math.sqrt(spread) / norm : Infinity, ga, gb];
}
// the population gradient: the infinite-context head (uniform features) in closed
// form, Gauss-Legendre over the thresholds
function moments(c, L) {
  const e = Math.exp(c * L), i0 = Math.expm1(c * L) / c, i1 = (L * e - i0) / c;
  return [i0, i1, (L * L * e - 2 * i1) / c];
}
function populationGradient(a, b) {
  let ga = 0, gb = 0;
  for (let k = 0; k < QS.length; k++) {
    const s = QS[k], q = 1 - s;
    const [n0, n1, n2] = moments(b, s);
    const [p0, p1, p2] = moments(-b, q).map(v => v * Math.exp(a));
    const z = n0 + p0, d = (p1 - n1) / z, ey = p0 / z;
    const est = s + d, cov = (p1 / z) - d * ey, vr = (n2 + p2) / z - d * d;
    const r = 2 * (est - s) * QW[k];
    ga += r * cov; gb -= r * vr;
  }
  return [ga, gb];
}
let a = A0, b = B0, k = 0, noise, ga, gb;
const eta = FRACTION * ETA, pb = [], pn = [], pr = [], steps = [];
while (true) {
  [noise, ga, gb] = noiseRatio(taskGradients(a, b));
  const [ha, hb] = populationGradient(a, b);
  const rho = Math.hypot(ga - ha, gb - hb) / Math.hypot(ha, hb);
  steps.push(k); pb.push(b); pn.push(noise); pr.push(rho);
  if (noise >= LEVEL || k === CAP) break;
  a = a - eta * ga; b = b - eta * gb; k += 1;
}
const frozen = noise >= LEVEL;
const [XF, SF] = draw(SEED + 1, FRESH, N);
let fresh = 0;
for (let j = 0; j < FRESH; j++) fresh += (task(a, b, XF[j], SF[j], N)[0] - SF[j]) ** 2;
fresh /= FRESH;
path.data = {step: steps, b: pb, noise: pn, rho: pr};
end.data = {step: [k], b: [b], noise: [noise], rho: [pr[pr.length - 1]]};
level_span.location = LEVEL;
const rho_end = pr[pr.length - 1];
const tag = (name, v) => `<b class="stumplib-${name}" data-value="${v}">`;
readout.text =
  `${M} tasks &times; ${N} examples, step ${FRACTION.toFixed(2)} &times; ` +
  "the lemma's: " +
  (frozen ? `<b>frozen</b> at step ${tag("steps", k)}${k}</b>`
          : `<b>not frozen</b> within ${tag("steps", k)}${k}</b> steps`) +
  `, b = ${tag("b", b)}${b.toFixed(3)}</b>, ` +
  `<span style="color:${NOISE}">noise ratio <i>N</i> = ${tag("noise", noise)}` +
  `${noise.toFixed(3)}</b></span> (&#8467; = ${LEVEL.toFixed(2)}), ` +
  `<span style="color:${RHO}">&rho; = ${tag("rho", rho_end)}${rho_end.toFixed(3)}` +
  `</b></span> (&rho; &le; &frac12; certifies the step)<br>` +
  `frozen head's squared error on ${FRESH} fresh tasks: ` +
  `${tag("fresh", fresh)}${fresh.toFixed(5)}</b>` +
  (rho_end > 0.5 ? " &middot; <b>&rho; passed &frac12;: the lemma no longer " +
   "certifies the last steps</b>" : "");
"""


def quadrature():
    """Gauss-Legendre nodes and weights over the prior (density included), rounded.

    :data:`PANELS` equal panels of :data:`NODES` nodes on [0.1, 0.9]; the browser's
    population gradient integrates over them.

    Returns
    -------
    nodes, weights : list of float

    Examples
    --------
    >>> nodes, weights = quadrature()
    >>> len(nodes), round(sum(weights), 9)
    (192, 1.0)
    """
    t, w = np.polynomial.legendre.leggauss(NODES)
    edges = np.linspace(PRIOR.lo, PRIOR.hi, PANELS + 1)
    half = 0.5 * np.diff(edges)
    nodes = (0.5 * (edges[:-1] + edges[1:]))[:, None] + half[:, None] * t
    weights = half[:, None] * w / (PRIOR.hi - PRIOR.lo)
    return [_stable(v) for v in nodes.ravel()], [_stable(v) for v in weights.ravel()]


#: The settings whose results the browser test compares, as (m, n, level, fraction).
SETTINGS = (
    (200, 200, 0.5, 1.0),
    (200, 200, 0.5, 0.35),
    (100, 150, 1.0, 1.0),
    (40, 60, 2.0, 0.5),
)


def _settings(values):
    m, n, level, fraction = (
        values["m"],
        values["n"],
        values["level"],
        values["fraction"],
    )
    if m > M_MAX or n > N_MAX:
        raise ValueError(f"m and n must be at most {M_MAX}, {N_MAX} (got {m}, {n})")
    if not (0.1 <= level <= 2.0 and 0.05 <= fraction <= 1.5):
        raise ValueError(
            f"level must be in [0.1, 2] and fraction in [0.05, 1.5] (got {level}, "
            f"{fraction})"
        )


@validation.constrained(
    _settings,
    seed=validation.Integer(minimum=0, maximum=_UINT32 - 1),
    m=validation.Integer(minimum=20),
    n=validation.Integer(minimum=20),
    level=validation.PositiveScalar(),
    fraction=validation.PositiveScalar(),
)
def corpus_playground(seed, m=200, n=200, level=0.5, fraction=0.35):
    r"""The corpus playground: a finite corpus and the corpus rule's descent, live.

    Sliders set ``m`` and ``n`` (20 to 200), the level :math:`\ell` (0.1 to 2) and the
    step (0.05 to 1.5 times the lemma's step at the start); the browser draws the corpus
    (:func:`draw`), runs the descent, and draws :math:`b`, :math:`\mathcal N` and
    :math:`\rho` against the steps, with the freeze and the frozen head's error on fresh
    tasks.

    Parameters
    ----------
    seed : int
        Seed of the corpus (the fresh tasks use ``seed + 1``).
    m, n : int
        Initial corpus size.
    level : float
        Initial level, in [0.1, 2].
    fraction : float
        Initial step, a fraction of the lemma's step, in [0.05, 1.5].

    Returns
    -------
    Interactive
        ``expected`` holds :func:`run` (without its path) at the initial setting and
        at :data:`SETTINGS`, each number rounded to :data:`EXPECTED_DIGITS` digits.

    Raises
    ------
    ValueError, TypeError
        If an argument is not a count or a value in range.
    """
    (a0, b0), eta = start()
    nodes, weights = quadrature()
    checks = []
    initial = (m, n, level, fraction)
    settings = SETTINGS if initial in SETTINGS else (initial, *SETTINGS)
    for m_, n_, level_, fraction_ in settings:
        got = run(seed, m_, n_, level_, fraction_)
        checks.append(
            {"m": m_, "n": n_, "level": level_, "fraction": fraction_}
            | {
                key: got[key] if key in ("steps", "frozen") else _stable(got[key])
                for key in ("a", "b", "steps", "frozen", "noise", "rho", "fresh")
            }
        )
    sliders = {
        "m": Slider(start=20, end=M_MAX, value=m, step=10, title="tasks m"),
        "n": Slider(start=20, end=N_MAX, value=n, step=10, title="examples n"),
        "level": Slider(start=0.1, end=2.0, value=level, step=0.05, title="level ℓ"),
        "fraction": Slider(
            start=0.05,
            end=1.5,
            value=fraction,
            step=0.05,
            title="step (× the lemma's)",
        ),
    }
    for key, slider in sliders.items():
        slider.name = f"corpus-{key}"
        slider.sizing_mode = "stretch_width"
    readout = Div(name="corpus-readout", sizing_mode="stretch_width")
    path = ColumnDataSource({"step": [], "b": [], "noise": [], "rho": []})
    end = ColumnDataSource({"step": [], "b": [], "noise": [], "rho": []})
    path.name, end.name = "corpus-path", "corpus-end"
    top = figure(
        height=220, sizing_mode="stretch_width", x_axis_label="step k",
        y_axis_label="scale b", tools="", toolbar_location=None,
    )  # fmt: skip
    top.line("step", "b", source=path, color=B_COLOR, line_width=2)
    top.scatter("step", "b", source=end, color=B_COLOR, size=9, marker="diamond")
    bottom = figure(
        height=250, sizing_mode="stretch_width", x_range=top.x_range,
        x_axis_label="step k", y_axis_label="relative errors N, ρ",
        tools="", toolbar_location=None,
    )  # fmt: skip
    bottom.line("step", "noise", source=path, color=NOISE, line_width=2,
                legend_label="noise ratio N (the rule)")  # fmt: skip
    bottom.line("step", "rho", source=path, color=RHO, line_width=2,
                line_dash="dashed",
                legend_label="ρ (against the population)")  # fmt: skip
    bottom.scatter("step", "noise", source=end, color=NOISE, size=9, marker="diamond")
    level_span = Span(location=level, dimension="width", line_color=NOISE,
                      line_dash="dotted", line_width=1.5)  # fmt: skip
    half = Span(location=0.5, dimension="width", line_color=RHO, line_dash="dotted",
                line_width=1.5)  # fmt: skip
    bottom.add_layout(level_span)
    bottom.add_layout(half)
    bottom.legend.orientation = "horizontal"
    bottom.legend.label_text_font_size = "12px"
    bottom.add_layout(bottom.legend[0], "above")
    for plot in (top, bottom):
        book_axes(plot)
    callback = CustomJS(
        args=dict(
            SEED=seed, M_MAX=M_MAX, N_MAX=N_MAX, FRESH=FRESH, CAP=STEP_CAP,
            A0=a0, B0=b0, ETA=eta, QS=nodes, QW=weights, NOISE=NOISE, RHO=RHO,
            cache={}, path=path, end=end, level_span=level_span, readout=readout,
            **sliders,
        ),
        code=_CORPUS_JS,
    )  # fmt: skip
    for slider in sliders.values():
        slider.js_on_change("value_throttled", callback)
    note = note_div(
        "Drawn and run in your browser: the corpus (thresholds from U[0.1, 0.9], "
        "features uniform), the descent from the valley at b&#8320; = 2.5 until "
        "the corpus rule's noise ratio <i>N</i> reaches &#8467; (dotted), and "
        "&rho;, the corpus gradient's relative error against the population "
        "gradient (dotted: &frac12;). Diamonds: the freeze."
    )
    controls = column(
        row(sliders["m"], sliders["n"], sizing_mode="stretch_width"),
        row(sliders["level"], sliders["fraction"], sizing_mode="stretch_width"),
        sizing_mode="stretch_width",
    )
    layout = column(
        readout, top, bottom, controls, note, sizing_mode="stretch_width",
        name="corpus",
    )  # fmt: skip
    on_ready(layout, callback)

    def static():
        return _static(run(seed, m, n, level, fraction), m, n, level, fraction)

    return Interactive(
        "corpus",
        layout,
        {"seed": seed, "checks": checks},
        static,
        alt=(
            f"Corpus playground: {m} tasks of {n} examples, level {level}, step "
            f"{fraction} of the lemma's; b, the noise ratio and rho along the "
            "descent, frozen by the corpus rule (interactive in the HTML book)."
        ),
    )


def _static(got, m, n, level, fraction):
    """One setting of the playground, drawn with matplotlib (the PDF's figure)."""
    fig = Figure(figsize=(plotting.COLUMN_WIDTH, 4.2), layout="constrained")
    top, bottom = fig.subplots(2, 1, sharex=True)
    steps = np.arange(len(got["path_b"]))
    top.plot(steps, got["path_b"], color=B_COLOR)
    top.plot(steps[-1], got["b"], "D", color=B_COLOR)
    top.set(ylabel="scale $b$")
    bottom.plot(steps, got["path_noise"], color=NOISE, label=r"$\mathcal{N}$ (rule)")
    bottom.plot(steps, got["path_rho"], "--", color=RHO, label=r"$\rho$")
    bottom.axhline(level, color=NOISE, linestyle=":")
    bottom.axhline(0.5, color=RHO, linestyle=":")
    bottom.set(xlabel="step $k$", ylabel="relative errors")
    bottom.legend(loc="lower right")
    state = "frozen" if got["frozen"] else "not frozen"
    top.set_title(
        f"$m={m}$, $n={n}$, $\\ell={level:g}$, step {fraction:g}× the lemma's\n"
        f"{state} at step {got['steps']}, $b={got['b']:.3f}$; error on fresh tasks "
        f"{got['fresh']:.4f}",
        fontsize=10,
    )
    return fig
