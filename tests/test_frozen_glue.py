"""Chapter 6's stored glue: its frozen runs are certified, all of them checked."""

import json
from pathlib import Path

CHAPTER = Path(__file__).resolve().parents[1] / "book" / "06-frozen-estimator.ipynb"
NAMES = (
    "headline_level",
    "headline_k_lo",
    "headline_k_hi",
    "headline_corpora_min",
    "headline_share_min",
    "headline_share",
    "headline_error_k_max",
    "headline_trend",
    "headline_trend_se",
    "headline_q",
    "half_share",
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


def test_the_headline_ladder_is_certified_from_320_with_8_corpora_a_size():
    glue = stored_glue(CHAPTER)
    assert float(glue["headline_level"]) == 0.25
    assert int(glue["headline_k_lo"]) <= 320
    assert int(glue["headline_k_hi"]) >= 10 * int(glue["headline_k_lo"])
    assert int(glue["headline_corpora_min"]) >= 8
    assert float(glue["headline_q"]) <= 2 / 9
    assert float(glue["headline_share_min"]) <= float(glue["headline_share"]) <= 1
    assert int(glue["rule_m_hi"]) >= 16 * int(glue["rule_m_lo"])
