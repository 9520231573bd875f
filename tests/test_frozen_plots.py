"""Tests for stumplib.book.frozen_plots: chapter 6's figures from typed results."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from stumplib.book import frozen_plots
from stumplib.book.frozen_data import Run
from stumplib.frozen import Errors, FreshErrors

SIZES = np.array([2.0, 8.0, 32.0])


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _run(level, k, b, b_cert, kind="certified", divisor=1.0):
    nan = float("nan")
    return Run(kind, level, k, 0, divisor, b, b, 30 / k, 0.2, b_cert, 0.1, nan)


def test_price_figure_marks_inside_filled_and_past_open_and_skips_other_starts():
    runs = [
        _run(0.5, 400, 12.0, 20.0),  # inside
        _run(1 / 3, 1000, 30.0, 20.0, kind="infinite"),  # past
        _run(0.5, 400, 12.0, 20.0, divisor=2.0),  # another start: left out
    ]
    fig = frozen_plots.price_figure(runs, 2.5)
    ax = fig.axes[0]
    points = [line for line in ax.lines if len(line.get_xdata()) == 1]
    assert [p.get_marker() for p in points] == ["o", "^"]
    assert points[0].get_markerfacecolor() != "none"
    assert points[1].get_markerfacecolor() == "none"
    bounds = [line.get_ydata()[0] for line in ax.lines if line.get_linestyle() == "--"]
    assert bounds == pytest.approx(
        [(2.5 / level) ** 2 for level in (0.5, 1 / 3, 0.25, 0.125)]
    )
    assert ax.get_xscale() == ax.get_yscale() == "log"


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
