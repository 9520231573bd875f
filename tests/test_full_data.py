"""Tests for stumplib.book.full_data: committed full-scale results with provenance."""

import json
import tomllib
from pathlib import Path

import pytest

from stumplib.book import full_data

ROOT = Path(__file__).resolve().parents[1]
GOOD = {
    "command": "make full-corpus",
    "commit": "abc",
    "date": "2026-12-03",
    "runs": [1],
}


def test_save_then_load_round_trips(tmp_path):
    path = tmp_path / "data" / "x.json"
    full_data.save(path, GOOD)
    assert full_data.load(path) == GOOD
    assert not path.with_suffix(".partial").exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ([1, 2], "must hold a JSON object"),
        ({"command": "c", "commit": "", "date": "d"}, "lacks its provenance: commit"),
        ({"runs": []}, "lacks its provenance: command, commit, date"),
    ],
)
def test_load_rejects_files_without_provenance(tmp_path, content, message):
    path = tmp_path / "x.json"
    path.write_text(json.dumps(content))
    with pytest.raises(ValueError, match=f"^path .* {message}"):
        full_data.load(path)


def test_save_refuses_data_without_provenance(tmp_path):
    with pytest.raises(ValueError, match="^data lacks its provenance: date"):
        full_data.save(tmp_path / "x.json", {"command": "c", "commit": "x"})


def test_a_missing_file_says_so(tmp_path):
    with pytest.raises(FileNotFoundError):
        full_data.load(tmp_path / "missing.json")


def test_the_data_files_ship_with_the_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["stumplib.book"]
    package = full_data.DATA.parent
    files = sorted(full_data.DATA.glob("*.json"))  # checkpoints/: runs in progress
    assert files, "no data files"
    for path in files:
        assert any(path.relative_to(package).match(p) for p in patterns), path
        full_data.load(path)
