"""Tests for the book's Sphinx extensions (book/_ext), on a small Sphinx project."""

import sys
from io import StringIO
from pathlib import Path

import pytest
from sphinx.application import Sphinx

from stumplib import claims

EXT = Path(__file__).resolve().parents[1] / "book" / "_ext"
CHAPTER = """Chapter
=======

.. code-block:: text
   :class: output

   claim rule: holds | measured 2.05 | expected 2 ± 0.1
   claim gradients: {status} | measured 0.5 | expected 0 ± {tol}

Not an output:

.. code-block:: text

   claim boundary: holds | measured 1 | expected 1 ± 0
"""
LEDGER = """Ledger
======

.. claims-ledger::
"""


def build(tmp_path, monkeypatch, tol=1.0, record=True):
    """Build a two-page project; return (ledger HTML, chapter HTML, warnings).

    The chapter shows two checks as a notebook output would (the second holds when
    ``tol >= 0.5``); with ``record`` they are also recorded, as a notebook run does.
    """
    status = "holds" if tol >= 0.5 else "FAILS"
    src = tmp_path / "src"
    src.mkdir(parents=True)
    (src / "conf.py").write_text("extensions = ['claims_ledger', 'unique_scripts']\n")
    (src / "index.rst").write_text("Index\n=====\n\n.. toctree::\n   :numbered:\n\n   chapter\n   ledger\n")
    (src / "chapter.rst").write_text(CHAPTER.format(status=status, tol=f"{tol:g}"))
    (src / "ledger.rst").write_text(LEDGER)
    monkeypatch.syspath_prepend(str(EXT))
    monkeypatch.setenv("STUMPLIB_LEDGER", str(tmp_path / "records"))
    if record:
        claims.check("rule", 2.05, 2, 0.1, "the rule constant")
        try:
            claims.check("gradients", 0.5, 0, tol, "fd check")
        except claims.ClaimFailed:
            pass
    warnings = StringIO()
    app = Sphinx(str(src), str(src), str(tmp_path / "out"), str(tmp_path / "doctrees"),
                 "html", status=None, warning=warnings, freshenv=True)
    app.build()
    for name in ("claims_ledger", "unique_scripts"):
        sys.modules.pop(name, None)
    read = lambda name: (tmp_path / "out" / f"{name}.html").read_text()  # noqa: E731
    return read("ledger"), read("chapter"), warnings.getvalue()


def test_ledger_lists_each_check_with_statement_values_and_link(tmp_path, monkeypatch):
    ledger, chapter, warnings = build(tmp_path, monkeypatch)
    assert "the rule constant" in ledger and "fd check" in ledger
    assert "measured 2.05" in ledger and "expected 2 ± 0.1" in ledger and "0 ± 1" in ledger
    assert 'href="chapter.html#claim-check-0"' in ledger and "Chapter 1" in ledger
    assert 'id="claim-check-0"' in chapter
    assert "ran 2 checks covering 2 of the 12 claims; 2 of them hold" in ledger
    assert "boundary" not in ledger  # a claim line outside an output block is not a check
    for claim_id in set(claims.IDS) - {"rule", "gradients"}:
        assert f"claim {claim_id!r} is checked by no chapter" in warnings
    assert "FAILS" not in warnings


def test_failing_check_and_missing_record_are_warnings(tmp_path, monkeypatch):
    ledger, _, warnings = build(tmp_path, monkeypatch, tol=0.1)
    assert "claim 'gradients' FAILS in chapter (claim-check-0)" in warnings
    assert "<strong>FAILS</strong>" in ledger
    _, _, warnings = build(tmp_path / "again", monkeypatch, record=False)
    assert "no recorded statement for the 'rule' check" in warnings


def test_each_script_is_included_once(tmp_path, monkeypatch):
    _, chapter, _ = build(tmp_path, monkeypatch)
    scripts = [line for line in chapter.splitlines() if "<script" in line]
    assert len(scripts) == len(set(scripts))
