"""stumplib.book.plotting: the style applies, column figures are sized and checked."""

import matplotlib
import numpy as np
import pytest

from stumplib.book import plotting


def test_subplots_apply_the_book_style():
    fig, _ax = plotting.subplots()
    assert matplotlib.rcParams["axes.spines.top"] is False
    assert matplotlib.rcParams["savefig.dpi"] == plotting.DPI
    plotting.show(fig)


def test_column_figures_are_column_wide():
    fig, axes = plotting.subplots(1, 2, height=2.5)
    assert tuple(fig.get_size_inches()) == (plotting.COLUMN_WIDTH, 2.5)
    assert len(axes) == 2
    plotting.show(fig)


def test_style_text_is_readable_at_column_width():
    fig, ax = plotting.subplots(height=3.0)
    ax.plot([1, 2], [1, 2], label="a line")
    ax.set(title="title", xlabel="x", ylabel="y")
    ax.legend()
    assert plotting.smallest_font(fig) == plotting.SMALLEST_FONT
    plotting.show(fig)


def test_show_refuses_small_text_in_a_column_figure():
    fig, ax = plotting.subplots(height=3.0)
    ax.plot([1, 2], [1, 2], label="tiny")
    ax.legend(fontsize=7)
    with pytest.raises(ValueError, match="fig has 7 pt text"):
        plotting.show(fig)


def test_invisible_and_empty_text_do_not_count():
    fig, ax = plotting.subplots(height=3.0)
    ax.text(0.5, 0.5, "hidden", fontsize=5, visible=False)
    ax.text(0.5, 0.5, " ", fontsize=5)
    assert plotting.smallest_font(fig) == plotting.SMALLEST_FONT
    plotting.show(fig)


@pytest.mark.parametrize("height", [0.0, -1.0, np.inf])
def test_height_must_be_positive(height):
    with pytest.raises(ValueError, match="height"):
        plotting.subplots(height=height)


def test_height_and_figsize_exclude_each_other():
    with pytest.raises(ValueError, match="height or figsize"):
        plotting.subplots(height=2.0, figsize=(3, 2))


def test_reference_slope_draws_the_power_law():
    fig, ax = plotting.subplots()
    x = np.array([1.0, 10.0, 100.0])
    plotting.reference_slope(ax, x, -2, 3.0)
    line = ax.get_lines()[-1]
    np.testing.assert_allclose(line.get_ydata(), [3.0, 0.03, 0.0003])
    assert line.get_label() == "slope -2"
    plotting.show(fig)


def test_phase_portrait_draws_the_grid_curves_and_path():
    from stumplib import dynamics, tasks

    grid = dynamics.portrait(
        tasks.Uniform(0.1, 0.9), [10.0, 30.0, 100.0], [0.0, 2.0, 4.0], p=0.9
    )
    fig, ax = plotting.subplots(height=3.0)
    b = np.array([10.0, 100.0])
    mesh = plotting.phase_portrait(
        ax, grid, (0.9 * b + 1.0, b), (0.9 * b + 2.0, b), (0.9 * b, b)
    )
    assert mesh.get_clim() == (-4.0, 4.0)
    labels = ax.get_legend_handles_labels()[1]
    assert labels == ["valley $a^*(b)$", "slow curve", "path from $(p\\,b_0,b_0)$"]
    line = ax.get_lines()[0]  # the valley, in sheared coordinates
    assert np.allclose(line.get_xdata(), [2.0, 2.0])
    assert np.allclose(line.get_ydata(), [1.0, 2.0])
    assert ax.get_ylim() == pytest.approx((1.0, 2.0))
    with pytest.raises(ValueError, match="vmax"):
        plotting.phase_portrait(ax, grid, vmax=0.0)
    with pytest.raises(TypeError, match="ax"):
        plotting.phase_portrait(None, grid)
    matplotlib.pyplot.close(fig)


def test_excess_mesh_is_clipped_and_centred():
    from stumplib import dynamics, tasks

    grid = dynamics.portrait(tasks.Uniform(0.1, 0.9), [10.0, 30.0], [0.0, 2.0], p=0.9)
    fig, ax = plotting.subplots(height=3.0)
    mesh = plotting.excess_mesh(ax, grid, vmax=2.5)
    assert mesh.get_clim() == (-2.5, 2.5)
    np.testing.assert_array_equal(mesh.get_array().ravel(), grid.excess.ravel())
    with pytest.raises(ValueError, match="vmax"):
        plotting.excess_mesh(ax, grid, vmax=-1.0)
    with pytest.raises(TypeError, match="portrait"):
        plotting.excess_mesh(ax, "grid")
    matplotlib.pyplot.close(fig)


def test_flow_directions_have_one_length_in_axis_spans():
    from stumplib import dynamics, tasks

    grid = dynamics.portrait(
        tasks.Uniform(0.1, 0.9), [10.0, 30.0, 100.0], [0.0, 2.0, 4.0], p=0.9
    )
    u, v = plotting.flow_directions(grid)
    span_x, span_y = np.ptp(grid.offset), np.ptp(np.log10(grid.b))
    assert u.shape == v.shape == grid.excess.shape
    length = np.hypot(u / span_x, v / span_y)
    moving = np.hypot(*np.moveaxis(grid.velocity, -1, 0)) > 0
    np.testing.assert_allclose(length[moving], 1.0, rtol=1e-12)
    # along the velocity in the plotted coordinates (offset, log10 b)
    dx, dy = grid.velocity[..., 0], grid.velocity[..., 1] / np.log(10.0)
    np.testing.assert_allclose((u * dy - v * dx)[moving], 0.0, atol=1e-12)
    assert np.all(u * dx + v * dy >= 0)
    with pytest.raises(TypeError, match="portrait"):
        plotting.flow_directions(None)
