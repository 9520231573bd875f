"""The corpus playground (stumplib.book.corpus_playground).

What the build writes (the expected values, portable HTML, the PDF's figure) and, where
``node`` is installed, the browser's code itself run against stumplib: the corpus drawn
bit for bit, and the descent's freeze, scale, noise ratio, rho and fresh error to 1e-9.
The rendered page is driven by tests/browser.
"""

import json
import re
import shutil
import subprocess

import numpy as np
import pytest

from stumplib import corpus_rule, tasks
from stumplib.book import corpus_playground as cp

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
NODE = shutil.which("node")
#: Runs the figure's callback in node on stand-ins of its Bokeh models.
HARNESS = """
const args = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = [];
for (const st of args.settings) {
  const ctx = {...args.consts, cache: {}, path: {}, end: {}, level_span: {},
    readout: {}, m: {value: st[0]}, n: {value: st[1]}, level: {value: st[2]},
    fraction: {value: st[3]}};
  new Function(...Object.keys(ctx), args.code)(...Object.values(ctx));
  const e = ctx.end.data, read = name => Number(new RegExp(
    `stumplib-${name}" data-value="([^"]+)"`).exec(ctx.readout.text)[1]);
  out.push({steps: read("steps"), b: read("b"), noise: read("noise"),
            rho: read("rho"), fresh: read("fresh"), path_b: ctx.path.data.b,
            corpus: args.draw ? [Array.from(ctx.cache.corpus[0][1].slice(0, 5)),
                                 ctx.cache.corpus[1].slice(0, 5)] : null});
}
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def built():
    return cp.corpus_playground(seed=11)


def node_runs(seed, settings):
    (a0, b0), eta = cp.start()
    nodes, weights = cp.quadrature()
    consts = dict(
        SEED=seed, M_MAX=cp.M_MAX, N_MAX=cp.N_MAX, FRESH=cp.FRESH, CAP=cp.STEP_CAP,
        A0=a0, B0=b0, ETA=eta, QS=nodes, QW=weights, NOISE="", RHO="",
    )  # fmt: skip
    args = dict(consts=consts, code=cp._CORPUS_JS, settings=settings, draw=True)
    done = subprocess.run(
        [NODE, "-e", HARNESS],
        input=json.dumps(args),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_browsers_code_is_stumplibs_run():
    settings = [list(s) for s in cp.SETTINGS] + [[20, 20, 2.0, 1.5]]
    for setting, js in zip(settings, node_runs(7, settings)):
        py = cp.run(7, *setting)
        assert js["steps"] == py["steps"], setting
        for key in ("b", "noise", "rho", "fresh"):
            assert js[key] == pytest.approx(py[key], rel=1e-9, abs=0), (setting, key)
        np.testing.assert_allclose(js["path_b"], py["path_b"], rtol=1e-12)
    x, s = cp.draw(7, cp.M_MAX, cp.N_MAX)
    assert js["corpus"] == [x[1, :5].tolist(), s[:5].tolist()]  # bit for bit


def test_the_corpus_is_on_the_grid_and_nested():
    x, s = cp.draw(3, 30, 40)
    k = x * 1e4 - 0.5
    assert np.all(np.abs(k - np.round(k)) < 1e-9)
    assert np.all((s > 0.1) & (s < 0.9))
    _, s2 = cp.draw(3, 30, 20)
    np.testing.assert_array_equal(s2, s)  # the thresholds come first
    assert x.std() == pytest.approx(12**-0.5, rel=0.05)


def test_start_is_the_size_tied_start_of_every_offered_size():
    (a0, b0), eta = cp.start()
    for m in (20, cp.M_MAX):
        for n in (20, cp.N_MAX):
            (a, b), e = corpus_rule.size_start(m, n, cp.PRIOR)
            assert (a, b, e) == pytest.approx((a0, b0, eta), rel=1e-11)


def test_quadrature_integrates_the_prior():
    nodes, weights = cp.quadrature()
    assert sum(weights) == pytest.approx(1.0, abs=1e-11)
    mean = sum(w * s for s, w in zip(nodes, weights))
    assert mean == pytest.approx(0.5, abs=1e-11)


def test_run_freezes_at_the_rules_level():
    got = cp.run(11, 200, 200, 0.5, 1.0)
    assert got["frozen"] and got["noise"] >= 0.5 > got["path_noise"][-2]
    assert got["steps"] == len(got["path_b"]) - 1
    assert got["b"] > cp.start()[0][1]
    assert 0 < got["rho"] < 1 and 0 < got["fresh"] < 0.1


def test_expected_values_are_rounded_stumplib_runs(built):
    checks = built.expected["checks"]
    assert built.expected["seed"] == 11 and len(checks) == len(cp.SETTINGS)
    keys = {"m", "n", "level", "fraction", "a", "b", "steps", "frozen", "noise"}
    for c in checks:
        assert set(c) == keys | {"rho", "fresh"}
        got = cp.run(11, c["m"], c["n"], c["level"], c["fraction"])
        assert c["steps"] == got["steps"] and c["frozen"] == got["frozen"]
        for key in ("a", "b", "noise", "rho", "fresh"):
            assert c[key] == float(f"{got[key]:.12g}")


def test_html_is_portable_and_carries_the_expected_values(built):
    html = built.html()
    assert not UUID.search(html)
    assert 'id="stumplib-corpus"' in html and "cdn.bokeh.org" not in html
    found = re.search(r'class="stumplib-expected">(.*?)</script></div>$', html, re.S)
    assert json.loads(found.group(1)) == json.loads(json.dumps(built.expected))
    assert len(html) < 60_000, "the corpus is drawn in the browser, not embedded"


def test_static_figure_for_the_pdf(built):
    assert built.png()[:4] == b"\x89PNG"
    assert "Corpus playground" in built.alt


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"m": 10}, ValueError),
        ({"n": 400}, ValueError),
        ({"level": 3.0}, ValueError),
        ({"fraction": 0.0}, ValueError),
        ({"seed": -1}, ValueError),
        ({"seed": "1"}, TypeError),
    ],
)
def test_bad_settings_are_rejected(kwargs, error):
    with pytest.raises(error):
        cp.corpus_playground(**({"seed": 1} | kwargs))


def test_playground_rejects_every_declared_bad_value():
    """Generated from its declared constraints, as tests/test_bad_inputs.py does for
    the functions whose valid call is quick."""
    for name, constraint in cp.corpus_playground.__constraints__.items():
        for value, error in constraint.bad_values():
            with pytest.raises(error, match=f"^{name}"):
                cp.corpus_playground(**({"seed": 1} | {name: value}))


def test_draw_rejects_sizes_beyond_the_figure():
    with pytest.raises(ValueError, match="m must be at most"):
        cp.draw(1, max(cp.M_MAX, cp.FRESH) + 1, 2)
    with pytest.raises(ValueError, match="m must be at most"):
        cp.run(1, cp.M_MAX + 10, 20, 0.5, 1.0)
    with pytest.raises(ValueError, match="n"):
        cp.run(1, 20, cp.N_MAX + 10, 0.5, 1.0)
    assert tasks.Uniform(0.1, 0.9) == cp.PRIOR
