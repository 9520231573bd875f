"""Tests for stumplib.claims: the printed line, the ledger record, failures."""

import contextlib
import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
    assert len(claims.IDS) == 13 and len(set(claims.IDS)) == 13


def test_printed_lines_parse_back(capsys):
    claims.check("rule", 2.0512345, 2.0, 0.1, "constant")
    with pytest.raises(claims.ClaimFailed):
        claims.check("boundary", 1e-7, -3.5e3, 0.25, "edge")
    text = "noise\n" + capsys.readouterr().out + "claim rule holds\n"
    assert claims.parse_lines(text) == [
        {"id": "rule", "holds": True, "measured": "2.051", "expected": "2", "tol": "0.1"},
        {"id": "boundary", "holds": False, "measured": "1e-07", "expected": "-3500",
         "tol": "0.25"},
    ]


# The ledger fixture (one temporary folder) is shared by all examples, which is fine.
@settings(max_examples=50, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(claim_id=st.sampled_from(claims.IDS),
       measured=st.floats(allow_nan=False, allow_infinity=False),
       tol=st.floats(0, 1e6))
def test_every_printed_line_parses(claim_id, measured, tol):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(claims.ClaimFailed):
        claims.check(claim_id, measured, 0.0, tol, "any")
    (parsed,) = claims.parse_lines(out.getvalue())
    assert parsed["id"] == claim_id and parsed["holds"] == (abs(measured) <= tol)
