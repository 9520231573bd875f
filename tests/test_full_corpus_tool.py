"""Tests for tools/full_corpus.py: runs saved as they end, in order, resumable."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import full_corpus


@pytest.fixture
def small(tmp_path, monkeypatch):
    """The target at two small sizes (the larger sparse), into a file of its own."""
    monkeypatch.setattr(full_corpus, "SIZES", (40, 60))
    monkeypatch.setattr(full_corpus, "CORPORA", 2)
    monkeypatch.setattr(full_corpus, "SPARSE_FROM", 60)
    monkeypatch.setattr(full_corpus, "DATA", tmp_path / "frozen-rate.json")
    monkeypatch.setattr(full_corpus, "commit", lambda: "abc")
    return full_corpus.DATA


def _runs(path):
    return json.loads(path.read_text())["runs"]


def test_two_jobs_write_every_run_in_the_targets_order(small):
    full_corpus.main(["--jobs", "2"])
    runs = _runs(small)
    keys = [(r["k"], r["corpus"], r["divisor"]) for r in runs]
    assert keys == [(k, r, d) for _, k, r, d in full_corpus.runs_to_do()]
    assert [r["corpus_kind"] for r in runs] == ["dense"] * 3 + ["sparse"] * 3
    assert all(r["b"] >= r["b0"] and r["steps"] >= 0 for r in runs)
    data = json.loads(small.read_text())
    assert (data["command"], data["commit"]) == ("make full-corpus", "abc")


def test_a_second_call_resumes_where_the_file_stops(small):
    full_corpus.main([])
    whole = _runs(small)
    data = json.loads(small.read_text())
    data["runs"] = whole[:2]
    small.write_text(json.dumps(data))
    full_corpus.main(["--jobs", "2"])
    assert _runs(small) == [
        {**r, "seconds": s["seconds"]} for r, s in zip(whole, _runs(small))
    ]
    text = small.read_text()
    full_corpus.main([])  # nothing left to run: the file is not rewritten
    assert small.read_text() == text


def test_no_time_runs_nothing_and_says_so(small, capsys):
    full_corpus.main(["--hours", "0"])
    assert not small.exists()
    assert "run again to resume" in capsys.readouterr().err


def test_jobs_must_be_positive(small):
    with pytest.raises(SystemExit):
        full_corpus.main(["--jobs", "0"])
