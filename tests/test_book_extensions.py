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


NOTEBOOK_CODE = "from fakelib import a\nprint('value', a.VALUE)\n"


def build_cached(src, tmp_path):
    """Build a one-notebook myst-nb project in cache mode; return (HTML, status log)."""
    status = StringIO()
    app = Sphinx(str(src), str(src), str(tmp_path / "out"), str(tmp_path / "doctrees"),
                 "html", status=status, warning=StringIO())
    app.build()
    sys.modules.pop("library_dependencies", None)
    return (tmp_path / "out" / "nb.html").read_text(), status.getvalue()


def test_notebook_reexecutes_only_when_its_library_code_changes(tmp_path, monkeypatch):
    import nbformat
    src = tmp_path / "src"
    lib = src / "fakelib"
    lib.mkdir(parents=True)
    (lib / "__init__.py").write_text("")
    (lib / "a.py").write_text("from . import b\nVALUE = 1\n")
    (lib / "b.py").write_text("B = 1\n")
    (lib / "unused.py").write_text("U = 1\n")
    (src / "conf.py").write_text(
        "extensions = ['myst_nb', 'library_dependencies']\n"
        "nb_execution_mode = 'cache'\nlibrary_dependencies_package = 'fakelib'\n"
        "exclude_patterns = ['fakelib']\n")
    (src / "index.rst").write_text("Index\n=====\n\n.. toctree::\n\n   nb\n")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# NB"),
                                               nbformat.v4.new_code_cell(NOTEBOOK_CODE)])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    nbformat.write(notebook, src / "nb.ipynb")
    monkeypatch.syspath_prepend(str(EXT))
    monkeypatch.syspath_prepend(str(src))

    html, log = build_cached(src, tmp_path)
    assert "value 1" in html and "Executed" in log
    (lib / "unused.py").write_text("U = 2\n")              # not imported by the notebook
    _, log = build_cached(src, tmp_path)
    assert "Executed" not in log and "library code changed" not in log
    (lib / "b.py").write_text("B = 2\n")                    # imported by a, which it imports
    _, log = build_cached(src, tmp_path)
    assert "library code changed for 1 notebook(s): nb" in log and "Executed" in log
    (lib / "a.py").write_text("from . import b\nVALUE = 2\n")
    html, _ = build_cached(src, tmp_path)
    assert "value 2" in html


def test_dependencies_follow_relative_and_package_imports():
    import ast
    sys.path.insert(0, str(EXT))
    try:
        import library_dependencies as deps
    finally:
        sys.path.remove(str(EXT))
    root = Path(claims.__file__).parent
    tree = ast.parse("import numpy as np\nfrom stumplib import symmetrization\n"
                     "from stumplib.symbolic import boundary\n")
    names = {p.relative_to(root).as_posix() for p in deps.dependencies([tree], root, "stumplib")}
    assert {"__init__.py", "symmetrization.py", "population.py", "tasks.py", "head.py",
            "validation.py", "symbolic/__init__.py", "symbolic/boundary.py",
            "symbolic/risks.py"} <= names
    assert "certification.py" not in names and "frozen.py" not in names
