"""Chapter 6's stored glue: its frozen runs are certified, all of them checked."""

import json
from pathlib import Path

CHAPTER = Path(__file__).resolve().parents[1] / "book" / "06-frozen-estimator.ipynb"
NAMES = (
    "q_max",
    "runs_checked",
    "runs_total",
    "cert_share",
    "freeze_levels",
    "headline_level",
    "rule_m_lo",
    "rule_m_hi",
)


def stored_glue(path):
    """``{name: text}`` of the glue in a stored notebook's outputs."""
    found = {}
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        for output in cell.get("outputs", []):
            book = output.get("metadata", {}).get("scrapbook")
            if book:
                found[book["name"]] = output["data"][book["mime_prefix"] + "text/plain"]
    return found


def test_chapter_6_glues_its_certification_numbers():
    glue = stored_glue(CHAPTER)
    assert set(NAMES) <= set(glue)


def test_every_frozen_run_is_certified_and_checked():
    glue = stored_glue(CHAPTER)
    assert float(glue["q_max"]) <= 2 / 9
    assert int(glue["runs_checked"]) == int(glue["runs_total"]) > 0
    assert 0 <= float(glue["cert_share"]) <= 1
    assert int(glue["freeze_levels"]) >= 3
    assert int(glue["rule_m_hi"]) >= 16 * int(glue["rule_m_lo"])
