"""Tests for stumplib.book.argument: the figure of the whole argument (results page)."""

import json

import matplotlib.pyplot as plt
import numpy as np
import pytest

from stumplib import baselines, calibration, population, tasks
from stumplib.book import argument, plotting


def test_frozen_runs_reads_the_committed_runs_sorted_by_size():
    k, a, b = argument.frozen_runs()
    assert k.shape == a.shape == b.shape and k.size >= 2
    assert (np.diff(k) >= 0).all() and (b > 0).all()


def test_frozen_runs_refuses_a_file_without_runs(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"command": "c", "commit": "x", "date": "d"}))
    with pytest.raises(ValueError, match="holds no runs"):
        argument.frozen_runs(path)


def test_fresh_errors_at_large_scale_are_the_nearest_positives():
    """On the valley at b = 2000 the head is the nearest-positive rule to within its
    kernel width 1/b: the mean errors, on the same contexts, agree within 2/b."""
    b = 2000.0
    a = float(calibration.a_star(b, argument.PRIOR))
    sizes, contexts = (30, 100), 50
    errors, infinite = argument.fresh_errors(a, b, sizes, contexts, seed=3)
    rng = np.random.default_rng(3)
    nearest = np.zeros(len(sizes))
    for k, n in enumerate(sizes):
        for s in argument.THRESHOLDS:
            x = rng.random((contexts, n))
            rule = baselines.nearest_positive(x, tasks.labels(x, s))
            nearest[k] += np.abs(rule - s).mean() / len(argument.THRESHOLDS)
    np.testing.assert_allclose(errors, nearest, atol=2 / b)
    expected = np.mean([abs(population.estimate(a, b, s) - s) for s in (0.3, 0.5, 0.7)])
    assert infinite == pytest.approx(expected, rel=1e-12)


def test_the_figure_has_six_numbered_readable_panels():
    fig = argument.argument_figure([320, 5600], [12.6, 124.1], [12.0, 133.5])
    titles = [ax.get_title() for ax in fig.axes]
    assert [t.split()[0] for t in titles] == ["1", "2", "3", "4", "5", "6"]
    assert plotting.smallest_font(fig) >= plotting.SMALLEST_FONT
    plt.close(fig)


@pytest.mark.parametrize(
    ("k", "a", "b"),
    [([320, 560], [12.0], [12.0, 17.0]), ([], [], []), ([[320]], [[12.0]], [[12.0]])],
)
def test_the_figure_refuses_runs_of_different_lengths(k, a, b):
    with pytest.raises(ValueError, match="k, a and b must be 1-D arrays of one length"):
        argument.argument_figure(k, a, b)
