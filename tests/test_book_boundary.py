"""stumplib.book.boundary_plots and stumplib.book.identities."""

import numpy as np
import pytest
import sympy as sp

from stumplib import posthoc, tasks
from stumplib.book import boundary_plots, claims, identities, plotting


def test_identity_check_holds_and_fails(capsys):
    n = sp.Symbol("N", positive=True)
    assert identities.check("boundary", n / (n * (n + 1)), 1 / (n + 1), "a ratio") == 0
    assert "evidence exact" in capsys.readouterr().out
    with pytest.raises(claims.ClaimFailed):
        identities.check("boundary", 1 / n, 1 / (n + 1), "a wrong ratio")


def test_figures_are_column_figures_with_labelled_axes():
    s = np.linspace(0, 1, 11)
    n = np.array([2.0, 10.0, 100.0])
    figs = [
        boundary_plots.edge_band(s, n, 1 + np.outer(n, s)),
        boundary_plots.collapse(
            s, {10.0: s / 2, 100.0: s}, {10.0: 0.9, 100.0: 0.95}, 0.9
        ),
        boundary_plots.pointwise_risks(s[1:], {"head": 2 + s[1:], "midpoint": s[1:]}),
    ]
    runs = {"U[0,1]": posthoc.compare(tasks.Uniform(), (20.0, 20.0), 1e3, points=5)}
    figs.append(boundary_plots.strategies(runs, {"U[0,1]": 1.0}, window=1.0))
    for fig in figs:
        assert fig.get_size_inches()[0] == plotting.COLUMN_WIDTH
        assert all(ax.get_xlabel() for ax in fig.axes if ax.get_label() != "<colorbar>")
        plotting.show(fig)
