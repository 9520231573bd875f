"""Tests for stumplib.book.certified_plots: chapter 5's figures draw, readable."""

import numpy as np
import pytest

from stumplib import (
    calibration,
    certified_law,
    certified_runs,
    descent_lemma,
    dynamics,
    tasks,
)
from stumplib.book import certified_plots, plotting
from stumplib.corpus import Corpus

PRIOR = tasks.Uniform(0.1, 0.9)
B0 = 2.5


@pytest.fixture(scope="module")
def runs():
    a0 = float(calibration.a_star(B0, PRIOR))
    eta = certified_runs.STEP_FRACTION * descent_lemma.step_bound(a0, B0, PRIOR)
    out = []
    for j in range(2):
        corpus = Corpus.sample(60, 60, PRIOR, rng=(3, j))
        out.append(
            certified_runs.certified_run(
                corpus, PRIOR, (a0, B0), eta, 6.0, until_failure=True, reset=True
            )
        )
    return out


@pytest.fixture(scope="module")
def flow():
    return certified_law.flow_constant(8.0, PRIOR, B0, points=8)


def test_signal_noise_figure_has_two_readable_panels(runs, flow):
    plotting.use_book_style()
    fig = certified_plots.signal_noise_figure(runs, flow, 60, 4.0)
    assert len(fig.axes) == 2
    assert plotting.smallest_font(fig) >= plotting.SMALLEST_FONT
    # the first run's noise is drawn: rho times the signal
    top = fig.axes[0]
    noise = top.lines[1].get_ydata()
    np.testing.assert_allclose(noise, runs[0].rho * runs[0].gradient_norm)


def test_portrait_figure_draws_streamlines(runs, flow):
    plotting.use_book_style()
    grid = dynamics.portrait(
        PRIOR, np.geomspace(B0, 8.0, 9), np.linspace(0.5, 3.5, 7), PRIOR.hi
    )
    fig = certified_plots.portrait_figure(grid, flow, runs)
    assert plotting.smallest_font(fig) >= plotting.SMALLEST_FONT
    ax = fig.axes[0]
    assert any(
        type(c).__name__ == "LineCollection" for c in ax.collections
    )  # streamplot's lines
    assert not any(type(c).__name__ == "Quiver" for c in ax.collections)


def test_task_sampling_figure_draws_each_size():
    plotting.use_book_style()
    b = np.geomspace(5.0, 100.0, 5)
    fig = certified_plots.task_sampling_figure(
        b, np.full(5, 1.2), 1.2281, [20.0, 40.0], [100, 1000], np.full((2, 2), 0.1)
    )
    assert plotting.smallest_font(fig) >= plotting.SMALLEST_FONT
    points = [line for line in fig.axes[0].lines if line.get_marker() == "o"]
    assert len(points) == 2
    np.testing.assert_allclose(
        points[1].get_ydata(), np.sqrt(0.1 * 1000 / np.array([20.0, 40.0]))
    )
