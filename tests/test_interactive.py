"""The interactive figures (stumplib.book.interactive, .playground, .live_portrait).

Their builders and their extension.

What runs in the browser (the callbacks, every control, the playground's estimate
against stumplib's to 1e-9) is checked on the built page by tests/browser; these
check what the build writes: the expected values, portable HTML, the PDF's rendering.
"""

import base64
import functools
import importlib.util
import json
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from stumplib import dynamics, head, symmetrization, tasks, training
from stumplib.book import interactive, live_portrait, playground
from stumplib.symbolic import dynamics as sd

EXT = Path(__file__).resolve().parents[1] / "book" / "_ext"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@pytest.fixture(scope="module")
def built():
    """The playground as chapter 2 builds it (another seed)."""
    return playground.playground(seed=(42, 1))


def expected_json(html, name):
    found = re.search(
        rf'id="stumplib-{name}".*<script type="application/json" '
        r'class="stumplib-expected">(.*?)</script></div>$',
        html,
        re.S,
    )
    assert found, "no expected values next to the figure"
    return json.loads(found.group(1))


def test_playground_expects_stumplibs_estimates(built):
    x_all = np.array(built.expected["x"])
    assert np.all(np.round(x_all, 4) == x_all), "the context is on a 4-decimal grid"
    checks = built.expected["checks"]
    assert {c["symmetrized"] for c in checks} == {False, True}
    assert any(c["nearest_positive"] == 1.0 for c in checks), "no edge setting"
    for c in checks:
        x = x_all[: c["n"]]
        y = tasks.labels(x, c["s"])
        rule = symmetrization.average_estimate if c["symmetrized"] else head.estimate
        assert abs(c["estimate"] - float(rule(c["a"], c["b"], x, y))) < 1e-11


def test_html_is_portable_and_carries_the_expected_values(built):
    html = built.html()
    assert not UUID.search(html), "a random id would make the stored output volatile"
    assert 'class="stumplib-interactive"' in html
    assert "stumplib-playground-0" in html
    assert expected_json(html, "playground") == json.loads(json.dumps(built.expected))
    assert "cdn.bokeh.org" not in html and "<script src" not in html


def test_mime_bundle_has_a_static_figure_for_the_pdf(built):
    bundle = built._repr_mimebundle_()
    assert set(bundle) == {"text/html", "image/png", "text/plain"}
    assert base64.b64decode(bundle["image/png"])[:8] == b"\x89PNG\r\n\x1a\n"
    assert bundle["text/plain"]


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"n": 1}, ValueError),
        ({"n": 200}, ValueError),
        ({"s": 1.0}, ValueError),
        ({"prior": tasks.Beta(2.0, 2.0)}, TypeError),
    ],
)
def test_playground_rejects_bad_settings(kwargs, error):
    with pytest.raises(error):
        playground.playground(seed=1, **kwargs)


@pytest.mark.parametrize(
    "kwargs, error, name",
    [
        (dict(starts=[]), ValueError, "starts"),
        (dict(steps=[1.0]), ValueError, "steps"),
        (dict(starts=[-1.0]), ValueError, "starts"),
        (dict(steps=[0.0]), ValueError, "steps"),
        (dict(t_max=float("nan")), ValueError, "t_max"),
        (dict(points=1), ValueError, "points"),
        (dict(gd_steps=0), ValueError, "gd_steps"),
        (dict(n_workers=1.5), ValueError, "n_workers"),
        (dict(t_max="1e8"), TypeError, "t_max"),
    ],
)
def test_phase_portrait_rejects_bad_settings(kwargs, error, name):
    with pytest.raises(error, match=name):
        live_portrait.phase_portrait(**kwargs)


def test_phase_portrait_rejects_every_declared_bad_value():
    """Generated from its declared constraints, as tests/test_bad_inputs.py does for
    the functions whose valid call is quick (each bad value raises before any path is
    computed)."""
    for name, constraint in live_portrait.phase_portrait.__constraints__.items():
        for value, error in constraint.bad_values():
            with pytest.raises(error, match=f"^{name}"):
                live_portrait.phase_portrait(**{name: value})


def test_show_rejects_other_objects():
    with pytest.raises(TypeError, match="figure_"):
        interactive.show("not a figure")


def test_portrait_descent_is_training_gradient_descent():
    got = live_portrait._portrait_item(("descent", 0.1, 0.9, 20.0, "head", 1.0, 3))
    assert len(got.t) == 4
    assert got.a[0] == pytest.approx(0.9 * 20.0) and got.b[0] == 20.0
    eta = got.t[1]
    again = training.gradient_descent(
        live_portrait._loss_and_gradient(0.1, 0.9, "head"), (18.0, 20.0), eta, 3, 4
    )
    np.testing.assert_array_equal(got.b, again.b)


def test_portrait_figure_selects_among_precomputed_paths():
    path = {
        "flow_b": [20.0, 30.0],
        "flow_offset": [0.0, 2.0],
        "flow_t": [1.0, 10.0],
        "gd_b": [20.0],
        "gd_offset": [0.5],
        "gd_t": [1.0],
        "eta": 1.0,
        "ref_t": [1.0, 10.0],
        "ref_b": [20.0, 30.0],
        "law": "law",
        "b_ticks": [20.0, 30.0],
    }
    keys = [
        f"{p}|{b0:g}|{c:g}|{rule}"
        for p in live_portrait.PORTRAIT_PRIORS
        for b0 in (10.0, 40.0)
        for c in (0.5, 1.0)
        for rule in live_portrait.HEADS
    ]
    curve = {"b": [10.0, 20.0], "valley": [], "slow": [1.0, 2.0]}
    figure_ = live_portrait._portrait_figure(
        dict.fromkeys(keys, path),
        dict.fromkeys(live_portrait.PORTRAIT_PRIORS, curve),
        (10.0, 40.0),
        (0.5, 1.0),
        3,
        1e3,
    )
    html = figure_.html()
    assert expected_json(html, "portrait")["keys"] == sorted(keys)
    assert all(k in html for k in keys)
    assert "Precomputed when the book was built" in html
    assert figure_.png()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("low", "high", "ticks"),
    [
        (10.0, 400.0, [10.0, 20.0, 50.0, 100.0, 200.0]),
        (20.0, 80.0, [20.0, 50.0]),
        (25.0, 45.0, [30.0, 40.0]),
        (37.0, 40.0, [37.0, 40.0]),
    ],
)
def test_scale_ticks_label_every_range(low, high, ticks):
    got = live_portrait._scale_ticks(low, high)
    assert got == ticks
    assert len(got) >= 2 and all(low * 0.95 <= t <= high * 1.05 for t in got)


def test_scale_ticks_reject_an_empty_range():
    with pytest.raises(ValueError, match="low < high"):
        live_portrait._scale_ticks(40.0, 37.0)


def test_portrait_hides_the_one_heads_curves_for_the_mirror_average():
    js = live_portrait._PORTRAIT_JS
    assert "own ? c.valley : []" in js and "own ? c.slow : []" in js
    assert "b_ticker.ticks = p.b_ticks" in js


def test_portrait_offers_the_books_start():
    assert live_portrait.PORTRAIT_STARTS[1] == 20.0


def load_extension():
    spec = importlib.util.spec_from_file_location(
        "interactive_figures", EXT / "interactive_figures.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_extension_loads_bokehjs_only_where_a_figure_is():
    ext = load_extension()
    added = []
    app = SimpleNamespace(add_js_file=lambda name, **kw: added.append(name))
    ext.add_bokeh(app, "p", "page.html", {"body": "<p>no figure</p>"}, None)
    assert added == []
    body = '<div class="stumplib-interactive" id="stumplib-x"></div>'
    ext.add_bokeh(app, "p", "page.html", {"body": body}, None)
    assert [Path(a).name for a in added] == [n for _, n in ext.bokeh_assets()]
    assert all(source.exists() for source, _ in ext.bokeh_assets())


def test_extension_copies_bokehjs_into_static(tmp_path):
    ext = load_extension()
    app = SimpleNamespace(outdir=str(tmp_path), builder=SimpleNamespace(format="html"))
    ext.copy_bokeh(app, None)
    names = sorted(p.name for p in (tmp_path / "_static" / "bokeh").iterdir())
    assert names == sorted(n for _, n in ext.bokeh_assets())


@functools.cache
def _slow_curve(lo, hi):
    expansion = sd.interior_expansion(lo, hi) if lo > 0 else sd.full_expansion()
    reduction = sd.reduce_flow(expansion)
    return functools.partial(
        dynamics.slow_curve,
        p=float(expansion.p),
        m=float(expansion.m),
        xi0=float(reduction.xi0),
        xi1=float(reduction.xi1),
    )


@pytest.mark.slow
@pytest.mark.parametrize("b0", live_portrait.PORTRAIT_STARTS)
@pytest.mark.parametrize("rule", live_portrait.HEADS)
@pytest.mark.parametrize("prior", list(live_portrait.PORTRAIT_PRIORS.values()))
def test_portrait_largest_step_decreases_the_loss_without_zigzag(prior, rule, b0):
    # what chapter 4 says of the largest step offered: the loss decreases at every
    # step, and the iterates cross the one head's slow curve at most once
    lo, hi = prior
    c = max(live_portrait.PORTRAIT_STEPS)
    gd = live_portrait._portrait_item(("descent", lo, hi, b0, rule, c, 30))
    assert np.all(np.diff(gd.loss) <= 1e-15 * gd.loss[:-1])
    if rule == "head":
        offset = gd.a - _slow_curve(lo, hi)(gd.b)
        # beyond 0.05, the two-term curve's accuracy at b ~ 10 (it settles within)
        side = np.sign(offset[np.abs(offset) > 0.05])
        assert np.sum(side[1:] != side[:-1]) <= 1


def test_note_div_is_the_figures_small_grey_note():
    note = interactive.note_div("Drawn at build time.")
    assert note.text == "Drawn at build time."
    assert note.sizing_mode == "stretch_width"
    assert note.styles == {"font-size": "0.85em", "color": "#444"}
