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
