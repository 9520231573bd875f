"""Certified freezes over a grid of corpus shapes."""

import numpy as np
import pytest

from stumplib import corpus_rule, population, pretraining, shapes, tasks

PRIOR = tasks.Uniform(0.1, 0.9)


@pytest.mark.parametrize(
    "k, ratio, shape",
    [(10, 1, (10, 10)), (10, 8, (80, 10)), (10, 1 / 8, (10, 80)), (10, 2.5, (25, 10))],
)
def test_shape_of(k, ratio, shape):
    assert shapes.shape_of(k, ratio) == shape
    assert min(shape) == k


def test_freeze_shapes_are_certified_freezes():
    out = shapes.freeze_shapes(6, [0.5, 2.0], PRIOR, 2, (3, 4), n_workers=1)
    assert out.m.tolist() == [6, 12] and out.n.tolist() == [12, 6]
    h = corpus_rule.freeze_certified(12, 6, PRIOR, pretraining.stream((3, 4), 1, 1))
    assert out.b[1, 1] == h.b and out.q_max[1, 1] == h.q_max
    assert out.rho_max[1, 1] == h.rho_max and out.b_cert[1, 1] == h.b_cert
    err = np.abs(population.residual(h.a, h.b, np.array(shapes.THRESHOLDS))[0])
    np.testing.assert_array_equal(out.error[1, 1], err)


def test_freeze_shapes_do_not_depend_on_workers():
    one = shapes.freeze_shapes(4, [1.0, 4.0], PRIOR, 2, 5, n_workers=1)
    two = shapes.freeze_shapes(4, [1.0, 4.0], PRIOR, 2, 5, n_workers=2)
    np.testing.assert_array_equal(one.b, two.b)


def test_freeze_shapes_rejects_empty_ratios():
    with pytest.raises(ValueError, match="ratios"):
        shapes.freeze_shapes(4, [], PRIOR, 1, 0, n_workers=1)


def test_corpora_of_flattens_grids_corpus_by_corpus():
    one = shapes.freeze_shapes(4, [0.5, 2.0], PRIOR, 2, 5, n_workers=1)
    two = shapes.freeze_shapes(6, [1.0], PRIOR, 3, 6, n_workers=1)
    out = shapes.corpora_of([one, two])
    assert out.k.tolist() == [4] * 4 + [6] * 3
    assert out.ratio.tolist() == [0.5, 0.5, 2.0, 2.0, 1.0, 1.0, 1.0]
    assert out.m.tolist() == [4, 4, 8, 8, 6, 6, 6]
    assert out.n.tolist() == [8, 8, 4, 4, 6, 6, 6]
    np.testing.assert_array_equal(out.b, np.concatenate([one.b.ravel(), two.b[0]]))
    np.testing.assert_array_equal(out.error[2], one.error[1, 0].mean())
    np.testing.assert_array_equal(out.inside[:4], (one.b <= one.b_cert).ravel())


def test_corpora_of_rejects_no_grid_and_other_things():
    with pytest.raises(ValueError, match="grids"):
        shapes.corpora_of([])
    with pytest.raises(TypeError, match="grids"):
        shapes.corpora_of([np.ones(3)])


def test_log_slopes_recovers_exponents_with_group_intercepts():
    rng = np.random.default_rng(0)
    x = rng.uniform(1, 100, size=(40, 2))
    groups = np.arange(40) % 3
    y = np.exp(groups) * x[:, 0] ** -1.0 * x[:, 1] ** 0.5
    fit = shapes.log_slopes(y, x, groups)
    np.testing.assert_allclose(fit.coef, [-1.0, 0.5], atol=1e-12)
    np.testing.assert_allclose(fit.se, 0.0, atol=1e-12)


def test_log_slopes_standard_error_matches_the_scatter():
    # one slope, one intercept: the textbook standard error of a regression slope
    rng = np.random.default_rng(1)
    lx = np.log(np.linspace(1, 50, 30))
    ly = 0.3 - 0.7 * lx + rng.normal(0, 0.1, size=30)
    fit = shapes.log_slopes(np.exp(ly), np.exp(lx))
    slope, intercept = np.polyfit(lx, ly, 1)
    residual = ly - (intercept + slope * lx)
    se = np.sqrt(residual @ residual / 28 / np.sum((lx - lx.mean()) ** 2))
    np.testing.assert_allclose(fit.coef, [slope], rtol=1e-10)
    np.testing.assert_allclose(fit.se, [se], rtol=1e-10)


def test_log_slopes_rejects_mismatched_shapes():
    with pytest.raises(ValueError, match="x must"):
        shapes.log_slopes([1.0, 2.0, 3.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="groups"):
        shapes.log_slopes([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], groups=[0, 1])


@pytest.mark.parametrize(
    "y, x, groups",
    [([1.0, 0.5], [1.0, 2.0], None), ([1.0, 0.5, 0.3], [1.0, 2.0, 4.0], [0, 0, 1])],
)
def test_log_slopes_needs_a_degree_of_freedom(y, x, groups):
    with pytest.raises(ValueError, match="y must hold more points"):
        shapes.log_slopes(y, x, groups)
