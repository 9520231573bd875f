"""Chapter 6's committed frozen runs, read as typed records, and their summaries."""

import json

import numpy as np
import pytest

from stumplib.book import frozen_data, full_data


def test_the_certified_file_reads_as_runs_with_a_certified_step():
    data = frozen_data.certified_runs()
    assert data.runs and data.commit and data.date
    assert all(r.kind == "certified" and r.level == 0.5 for r in data.runs)
    assert max(r.q_max for r in data.runs) <= 2 / 9  # make full-corpus's promise
    assert all(r.b_cert <= r.b for r in data.runs)


def test_the_levels_file_reads_as_runs():
    data = frozen_data.level_runs()
    kinds = {r.kind for r in data.runs}
    assert kinds <= {"certified", "infinite"} and "infinite" in kinds
    infinite = [r for r in data.runs if r.kind == "infinite"]
    assert all(np.isfinite(r.predicted_b) and np.isnan(r.q_max) for r in infinite)


def _run(kind, level, k, b, b_cert, error, predicted=np.nan, divisor=1.0):
    """A run that left its certificate (rho > 1/2) where ``b_cert < b``."""
    rho = 0.1 if b_cert >= b else 0.6
    return frozen_data.Run(
        kind, level, k, 0, divisor, 1.0, b, error, rho, b_cert, 0.1, predicted
    )


def test_inside_means_rho_and_q_within_the_lemma_all_along():
    run = _run("certified", 0.5, 100, 10.0, 10.0, 0.2)
    assert run.inside
    assert not run._replace(rho_max=0.51).inside
    assert not run._replace(q_max=0.23).inside
    assert run._replace(q_max=np.nan).inside  # the flow has no step


def test_the_headline_file_reads_as_runs_of_its_declared_level():
    data = frozen_data.headline_runs()
    declared = frozen_data.headline_declaration()
    assert {r.level for r in data.runs} == {declared["level"]} == {0.25}
    assert {r.k for r in data.runs} <= set(declared["sizes"])
    assert max(r.q_max for r in data.runs) <= 2 / 9


def test_by_level_counts_the_share_inside_and_the_scaled_error():
    runs = [
        _run("certified", 0.5, 100, 10.0, 10.0, 0.2),
        _run("certified", 0.5, 100, 10.0, 8.0, 0.4),
        _run("certified", 0.25, 100, 5.0, 5.0, 0.8),
        _run("certified", 0.25, 100, 5.0, 5.0, 1.0, divisor=2.0),  # a half start
        _run("infinite", 0.5, 100, 5.0, 5.0, 1.0),
    ]
    half, quarter = frozen_data.by_level(runs, "certified")
    assert (half.level, half.corpora, half.share_inside) == (0.5, 2, 0.5)
    assert half.error_k == pytest.approx(30.0)
    assert half.error_k_se == pytest.approx(10.0)
    assert half.error_k_max == pytest.approx(40.0)
    assert (quarter.corpora, quarter.share_inside) == (1, 1.0)
    assert np.isnan(quarter.error_k_se)


def test_law_rows_compare_the_frozen_scale_with_its_prediction():
    runs = [
        _run("infinite", 0.5, 400, 16.0, 16.0, 0.1, predicted=16.0),
        _run("infinite", 0.5, 400, 16.0 * np.e**2, 16.0, 0.1, predicted=16.0),
        _run("infinite", 0.5, 1600, 64.0, 64.0, 0.1, predicted=64.0),
        _run("infinite", 0.5, 1600, 64.0, 64.0, 0.1, predicted=64.0),
        _run("infinite", 0.25, 400, 4.0, 4.0, 0.1, predicted=4.0),
    ]
    small, large = frozen_data.law_rows(runs)
    assert (small.m, small.corpora) == (400, 2)
    assert small.gap == pytest.approx(1.0)
    assert small.ratio == pytest.approx(16.0 * np.e / 400)
    assert small.predicted == pytest.approx(0.04)
    # pooled spread: deviations 1, 1, 0, 0 over 4 - 2 degrees of freedom
    assert small.gap_se == pytest.approx(1.0 / np.sqrt(2))
    assert large.gap_se == small.gap_se and large.gap == 0.0


def test_a_file_without_provenance_is_refused(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"runs": []}))
    with pytest.raises(ValueError, match="provenance"):
        frozen_data.level_runs(path)
    assert frozen_data.LEVELS.parent == full_data.DATA
