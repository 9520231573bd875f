"""Smoke tests for stumplib.plotting: the style applies and helpers draw."""

import matplotlib
import numpy as np

from stumplib import plotting


def test_subplots_apply_the_book_style():
    fig, ax = plotting.subplots()
    assert matplotlib.rcParams["axes.spines.top"] is False
    assert matplotlib.rcParams["savefig.dpi"] >= 200
    plotting.show(fig)


def test_reference_slope_draws_the_power_law():
    fig, ax = plotting.subplots()
    x = np.array([1.0, 10.0, 100.0])
    plotting.reference_slope(ax, x, -2, 3.0)
    line = ax.get_lines()[-1]
    np.testing.assert_allclose(line.get_ydata(), [3.0, 0.03, 0.0003])
    assert line.get_label() == "slope -2"
    plotting.show(fig)
