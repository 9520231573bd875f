"""Tests for stumplib.book.frozen_plots: chapter 6's figures from typed results."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from stumplib import ladder
from stumplib.book import frozen_plots
from stumplib.frozen import Errors, FreshErrors

SIZES = np.array([2.0, 8.0, 32.0])


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_ladder_figure_shows_shares_and_scaled_errors_per_level():
    half = ladder.ladder([320, 320, 1000, 1000], [0.1, 0.12, 0.04, 0.05], [1, 0, 1, 1])
    quarter = ladder.ladder([320, 320, 1000, 1000], [0.3, 0.3, 0.1, 0.1], [1, 1, 1, 1])
    fig = frozen_plots.ladder_figure({0.5: half, 0.25: quarter}, 2.5)
    left, right = fig.axes
    assert len(left.containers) == len(right.containers) == 2
    shares = left.containers[0][0].get_ydata()  # level 1/2 first
    assert list(shares) == [0.5, 1.0]
    means = right.containers[1][0].get_ydata()  # level 1/4
    assert list(means) == pytest.approx([96.0, 100.0])
    dashed = [
        line.get_ydata()[0]
        for line in right.lines
        if line.get_linestyle() == "--" and len(line.get_ydata())
    ]
    assert sorted(dashed) == pytest.approx([25.0, 100.0])
    floor = [line.get_ydata()[0] for line in left.lines if line.get_linestyle() == ":"]
    assert floor == [0.95]


def test_size_colours_run_light_to_dark():
    colours = frozen_plots.size_colours(4)
    brightness = [sum(c[:3]) for c in colours]
    assert brightness == sorted(brightness, reverse=True)


def test_fresh_figure_draws_a_line_per_head_and_the_two_rules():
    rms = np.array([[0.1, 0.05, 0.03], [0.08, 0.03, 0.01]])
    errors = FreshErrors(
        Errors(rms, rms / 10),
        {
            "nearest positive": Errors(np.array([0.3, 0.1, 0.03]), np.zeros(3)),
            "midpoint": Errors(np.array([0.2, 0.07, 0.02]), np.zeros(3)),
        },
    )
    fig = frozen_plots.fresh_figure(
        SIZES, errors, [400, 1000], np.array([14, 35]), [0.02, 0.01]
    )
    ax = fig.axes[0]
    assert len(ax.containers) == 2  # one error bar per head
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert sorted(labels) == sorted(
        [
            "$m\\wedge n=400$ ($b_T=14$)",
            "$m\\wedge n=1000$ ($b_T=35$)",
            "nearest positive",
            "gap midpoint",
        ]
    )


def test_ratio_figure_has_a_panel_per_threshold_with_its_limit():
    ratios = {s: np.ones((2, 3)) * s for s in (0.3, 0.5, 0.7)}
    limits = {0.3: 1.1, 0.5: 1.2, 0.7: 1.3}
    fig = frozen_plots.ratio_figure(
        SIZES, ratios, limits, [400, 1000], np.array([14.0, 35.0])
    )
    assert [ax.get_title() for ax in fig.axes] == ["$s=0.3$", "$s=0.5$", "$s=0.7$"]
    for ax, s in zip(fig.axes, ratios):
        dashed = [line for line in ax.lines if line.get_linestyle() == "--"]
        assert dashed[0].get_ydata()[0] == limits[s]
        assert np.allclose(ax.lines[0].get_xdata(), SIZES / 14.0)
