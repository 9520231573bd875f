"""Tests for stumplib.claims: the printed line, the ledger record, failures."""

import json

import pytest

from stumplib import claims


@pytest.fixture(autouse=True)
def ledger(tmp_path, monkeypatch):
    monkeypatch.setenv("STUMPLIB_LEDGER", str(tmp_path))
    return tmp_path


def test_holding_claim_prints_one_line_and_records(capsys, ledger):
    value = claims.check("rule", 2.0512345, 2.0, 0.1, "constant", digits=4)
    out = capsys.readouterr().out
    assert out == "claim rule: holds | measured 2.051 | expected 2 ± 0.1\n"
    assert value == 2.051
    record = json.loads((ledger / "rule.json").read_text())["constant"]
    assert record == {"id": "rule", "statement": "constant", "measured": "2.051",
                      "expected": "2", "tol": "0.1", "holds": True}


def test_failing_claim_prints_fails_records_and_raises(capsys, ledger):
    with pytest.raises(claims.ClaimFailed, match="claim gradients fails: fd check"):
        claims.check("gradients", 0.5, 0.0, 0.1, "fd check")
    assert capsys.readouterr().out.startswith("claim gradients: FAILS | measured 0.5")
    assert claims.read_ledger(ledger)[0]["holds"] is False


def test_nan_measurement_fails():
    with pytest.raises(claims.ClaimFailed):
        claims.check("rule", float("nan"), 0.0, 1.0, "nan")


def test_rerun_replaces_the_record(ledger):
    claims.check("rule", 1.0, 1.0, 0.1, "same")
    claims.check("rule", 1.05, 1.0, 0.1, "same")
    claims.check("rule", 1.0, 1.0, 0.1, "other")
    records = claims.read_ledger(ledger)
    assert [r["statement"] for r in records] == ["same", "other"]
    assert records[0]["measured"] == "1.05"


def test_unknown_id_and_bad_tolerance_are_rejected():
    with pytest.raises(ValueError, match="claim_id"):
        claims.check("no-such-claim", 1.0, 1.0, 0.1, "x")
    with pytest.raises(ValueError, match="tol"):
        claims.check("rule", 1.0, 1.0, -0.1, "x")


def test_ids_match_the_design_ledger():
    assert len(claims.IDS) == 12 and len(set(claims.IDS)) == 12
