"""The stored past-freeze and shapes appendices carry the glue the issue asks for."""

import json
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parents[1] / "book"
RECORD = "application/papermill.record/text/plain"


def glued(page):
    """``{name: shown text}`` of every value glued in a stored notebook."""
    cells = json.loads((BOOK / page).read_text())["cells"]
    return {
        output["metadata"]["scrapbook"]["name"]: output["data"][RECORD]
        for cell in cells
        if cell["cell_type"] == "code"
        for output in cell["outputs"]
        if "scrapbook" in output.get("metadata", {})
    }


def test_past_freeze_reaches_far_past_the_freeze():
    values = glued("appendix-past-freeze.ipynb")
    assert int(values["past_far_k"]) >= 64
    assert float(values["past_far_b_over_k"]) >= 50


@pytest.mark.parametrize(
    "name, bound", [("shape_ratio_lo", 1 / 8), ("shape_ratio_hi", 8)]
)
def test_shapes_grid_spans_one_eighth_to_eight(name, bound):
    value = float(glued("appendix-shapes.ipynb")[name])
    assert value <= bound if name.endswith("lo") else value >= bound


def test_shape_ratios_are_ordered():
    values = glued("appendix-shapes.ipynb")
    assert float(values["shape_ratio_lo"]) < 1 < float(values["shape_ratio_hi"])


def test_shapes_wide_side_rises_and_deep_test_is_start_free():
    values = glued("appendix-shapes.ipynb")
    slope, se = float(values["shape_wide_k_slope"]), float(values["shape_wide_k_se"])
    assert slope > 2 * se > 0  # error*(m∧n) rises at a fixed m/n > 1: not 1/(m∧n)
    assert "shape_n_free_slope" in values and "shape_n_free_se" in values


def test_past_freeze_glues_rms_and_plain_descent():
    values = glued("appendix-past-freeze.ipynb")
    assert 0 < float(values["past_rms_max_64"]) < float(values["past_rms_max_32"]) < 1
    assert int(values["past_gd_steps"]) >= 100_000
    assert (
        int(values["past_at_start_32"]) >= 1
    )  # at these sizes the freeze is the start


def test_starts_compare_the_rules_freeze_from_each_start():
    values = glued("appendix-starts.ipynb")
    assert int(values["start_k"]) == 560
    assert float(values["start_q_max"]) <= 2 / 9
    assert float(values["start_b_gap"]) <= 2 * float(values["start_step_db"])
