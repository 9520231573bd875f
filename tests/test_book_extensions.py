"""Tests for the book's Sphinx extensions (book/_ext), on a small Sphinx project."""

import sys
from io import StringIO
from pathlib import Path

import nbformat
from sphinx.application import Sphinx

import stumplib
from stumplib.book import claims

EXT = Path(__file__).resolve().parents[1] / "book" / "_ext"


def claim_output(claim_id, measured, expected, tol, statement):
    """The output a notebook stores for one check (line and record)."""
    record = claims.make_record(
        claim_id,
        measured,
        expected,
        tol,
        statement,
        evidence="numerical",
        span="N=1..2",
    )
    return nbformat.v4.new_output(
        "display_data", data={"text/plain": claims.line(record), claims.MIME: record}
    )


def chapter_notebook(tol=1.0, edit=None):
    """A chapter whose stored outputs show two checks.

    The second holds when ``tol >= 0.5``.

    A third, printed line that is not a check output (a markdown code block) is no
    check.
    """
    first = claim_output(
        "rule", 2.05 if edit is None else edit, 2, 0.1, "the rule constant"
    )
    second = claim_output("gradients", 0.5, 0, tol, "fd check")
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell(
                "# Chapter\n\n```text\n"
                "claim boundary: holds | measured 1 | expected 1 ± 0 "
                "| evidence exact\n```"
            ),
            nbformat.v4.new_code_cell("check()", outputs=[first, second]),
        ]
    )
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    return notebook


def make_project(src, notebook):
    src.mkdir(parents=True, exist_ok=True)
    (src / "conf.py").write_text(
        "extensions = ['myst_nb', 'claims_ledger', 'claim_checks', 'unique_scripts']\n"
        "nb_execution_mode = 'off'\n"
    )
    (src / "index.rst").write_text(
        "Index\n=====\n\n.. toctree::\n   :numbered:\n\n   chapter\n   ledger\n"
    )
    (src / "ledger.md").write_text("# Ledger\n\n```{claims-ledger}\n```\n")
    nbformat.write(notebook, src / "chapter.ipynb")


def sphinx_build(src, tmp_path, monkeypatch, fresh):
    """Build the HTML of ``src`` into ``tmp_path / "out"``; return the warnings text.

    The book's extensions are imported from book/_ext and forgotten afterwards, so
    that each build imports them afresh.
    """
    monkeypatch.syspath_prepend(str(EXT))
    warnings = StringIO()
    app = Sphinx(
        str(src),
        str(src),
        str(tmp_path / "out"),
        str(tmp_path / "doctrees"),
        "html",
        status=None,
        warning=warnings,
        freshenv=fresh,
    )
    app.build()
    for name in ("claims_ledger", "claim_checks", "claims_verdicts", "unique_scripts"):
        sys.modules.pop(name, None)
    return warnings.getvalue()


def build(tmp_path, monkeypatch, notebook=None, fresh=True):
    """Build the two-page project under ``tmp_path``.

    Returns (ledger HTML, chapter HTML, warnings).
    """
    src = tmp_path / "src"
    if notebook is not None or not src.exists():
        make_project(src, notebook or chapter_notebook())
    warnings = sphinx_build(src, tmp_path, monkeypatch, fresh)
    read = lambda name: (tmp_path / "out" / f"{name}.html").read_text()
    return read("ledger"), read("chapter"), warnings


def test_ledger_lists_each_check_with_statement_values_evidence_and_link(
    tmp_path, monkeypatch
):
    ledger, chapter, warnings = build(tmp_path, monkeypatch)
    assert "the rule constant" in ledger and "fd check" in ledger
    assert (
        "measured 2.05" in ledger and "expected 2 ± 0.1" in ledger and "0 ± 1" in ledger
    )
    assert "evidence: numerical (N=1..2)" in ledger
    assert 'href="chapter.html#claim-check-0"' in ledger and "Chapter 1" in ledger
    assert 'id="claim-check-0"' in chapter
    assert "ran 2 checks covering 2 of the" in ledger and "2 of them hold" in ledger
    assert "claims-summary" in ledger and "1 of 1 hold" in ledger
    assert '<img src="_images/claims-margins.png"' in ledger
    assert (tmp_path / "out" / "_images" / "claims-margins.png").stat().st_size > 1000
    assert (
        "boundary" not in ledger
    )  # a claim line outside an output block is not a check
    for claim_id in set(claims.IDS) - {"rule", "gradients"}:
        assert f"claim {claim_id!r} is checked by no chapter" in warnings
    assert "FAILS" not in warnings and "no matching record" not in warnings


def test_the_ledger_folds_its_checks_by_claim(tmp_path, monkeypatch):
    ledger, _, _ = build(tmp_path, monkeypatch)
    assert ledger.count('<details class="claims-ledger-group">') == 2
    assert "<code>rule</code>: 1 check, 1 of 1 holds</summary>" in ledger


def test_claim_check_cells_fold_into_one_box(tmp_path, monkeypatch):
    notebook = chapter_notebook()
    notebook.cells[1].metadata["tags"] = ["remove-input"]
    third = claim_output("boundary", 1.0, 1.0, 0.1, "third check")
    notebook.cells.append(
        nbformat.v4.new_code_cell(
            "check()", outputs=[third], metadata={"tags": ["remove-input"]}
        )
    )
    notebook.cells.append(nbformat.v4.new_markdown_cell("Between."))
    notebook.cells.append(nbformat.v4.new_code_cell("x = 1", outputs=[]))
    ledger, chapter, warnings = build(tmp_path, monkeypatch, notebook)
    assert chapter.count('<details class="claim-checks">') == 1
    summary = "Claim checks: 3 hold (rule, gradients, boundary)</summary>"
    assert summary in chapter
    box = chapter[
        chapter.index('<details class="claim-checks">') : chapter.index("Between.")
    ]
    assert box.count("claim rule: holds") == 1 and "claim boundary: holds" in box
    assert 'id="claim-check-0"' in box and "no matching record" not in warnings
    assert 'href="chapter.html#claim-check-2"' in ledger


def test_a_cell_with_visible_code_is_not_folded(tmp_path, monkeypatch):
    _, chapter, _ = build(tmp_path, monkeypatch)
    assert "claim-checks" not in chapter and "claim rule: holds" in chapter


def test_failing_check_is_a_warning(tmp_path, monkeypatch):
    ledger, _, warnings = build(tmp_path, monkeypatch, chapter_notebook(tol=0.1))
    assert "claim 'gradients' FAILS in chapter (claim-check-1)" in warnings
    assert "<strong>FAILS</strong>" in ledger


def test_claim_line_without_its_record_is_a_warning(tmp_path, monkeypatch):
    notebook = chapter_notebook()
    output = notebook.cells[1].outputs[0]
    del output.data[claims.MIME]
    _, _, warnings = build(tmp_path, monkeypatch, notebook)
    assert (
        "the 'rule' line in chapter (claim-check-0) has no matching record" in warnings
    )


def test_an_execution_elsewhere_changes_nothing(tmp_path, monkeypatch, capsys):
    first, _, _ = build(tmp_path, monkeypatch)
    # What a reader's own run does: checks executed outside the build, with other
    # values.
    claims.check("rule", 9.0, 9.0, 0.0, "the rule constant", evidence="exact")
    claims.check("gradients", 7.0, 7.0, 0.0, "fd check", evidence="exact")
    capsys.readouterr()
    second, _, warnings = build(tmp_path, monkeypatch, fresh=False)
    assert ledger_content(second) == ledger_content(first)
    assert (
        "measured 2.05" in ledger_content(second)
        and "no matching record" not in warnings
    )


def ledger_content(html):
    """The ledger's sentence and tables, without the page's asset links."""
    return html[html.index("This build ran") : html.rindex("</table>")]


def test_an_edited_claim_output_shows_in_the_ledger(tmp_path, monkeypatch):
    build(tmp_path, monkeypatch)
    ledger, _, _ = build(
        tmp_path, monkeypatch, chapter_notebook(edit=2.07), fresh=False
    )
    assert "measured 2.07" in ledger and "measured 2.05" not in ledger


def test_each_script_is_included_once(tmp_path, monkeypatch):
    _, chapter, _ = build(tmp_path, monkeypatch)
    scripts = [line for line in chapter.splitlines() if "<script" in line]
    assert len(scripts) == len(set(scripts))


NOTEBOOK_CODE = "from fakelib import a\nprint('value', a.VALUE)\n"


def build_cached(src, tmp_path):
    """Build a one-notebook myst-nb project in cache mode; return (HTML, status log)."""
    status = StringIO()
    app = Sphinx(
        str(src),
        str(src),
        str(tmp_path / "out"),
        str(tmp_path / "doctrees"),
        "html",
        status=status,
        warning=StringIO(),
    )
    app.build()
    sys.modules.pop("library_dependencies", None)
    return (tmp_path / "out" / "nb.html").read_text(), status.getvalue()


def test_notebook_reexecutes_only_when_its_library_code_changes(tmp_path, monkeypatch):
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
        "exclude_patterns = ['fakelib']\n"
    )
    (src / "index.rst").write_text("Index\n=====\n\n.. toctree::\n\n   nb\n")
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# NB"),
            nbformat.v4.new_code_cell(NOTEBOOK_CODE),
        ]
    )
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(notebook, src / "nb.ipynb")
    monkeypatch.syspath_prepend(str(EXT))
    monkeypatch.syspath_prepend(str(src))

    html, log = build_cached(src, tmp_path)
    assert "value 1" in html and "Executed" in log
    (lib / "unused.py").write_text("U = 2\n")  # not imported by the notebook
    _, log = build_cached(src, tmp_path)
    assert "Executed" not in log and "library code changed" not in log
    (lib / "b.py").write_text("B = 2\n")  # imported by a, which it imports
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
    root = Path(stumplib.__file__).parent
    tree = ast.parse(
        "import numpy as np\nfrom stumplib import symmetrization\n"
        "from stumplib.symbolic import boundary\n"
    )
    names = {
        p.relative_to(root).as_posix()
        for p in deps.dependencies([tree], root, "stumplib")
    }
    assert {
        "__init__.py",
        "symmetrization.py",
        "population.py",
        "tasks.py",
        "head.py",
        "validation/__init__.py",
        "validation/arrays.py",
        "validation/objects.py",
        "symbolic/__init__.py",
        "symbolic/boundary.py",
        "symbolic/risks.py",
    } <= names
    assert "certification.py" not in names and "frozen.py" not in names


RESULTS_PAGE = """# Results

```{claims-verdicts}
```

```{claim-verdict} rule gradients
:title: The model
The *model* sentence.
```

```{claim-verdict} gradients
:title: Numerical only
```

```{claim-verdict} rule symmetrized-dynamics
:title: With an id no chapter checks
```

```{claim-verdict} boundary
:title: Not tested
```
"""


def verdict_notebook(evidence="asymptotic", tol=1.0):
    """A chapter with a ``rule`` check of kind ``evidence`` and a numerical
    ``gradients`` check."""

    def output(claim_id, kind, tol):
        record = claims.make_record(
            claim_id,
            0.5,
            0,
            tol,
            f"{claim_id} check",
            evidence=kind,
            span=None if kind == "exact" else "N=1..2",
        )
        return nbformat.v4.new_output(
            "display_data",
            data={"text/plain": claims.line(record), claims.MIME: record},
        )

    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# Chapter"),
            nbformat.v4.new_code_cell(
                "check()",
                outputs=[
                    output("rule", evidence, 1.0),
                    output("gradients", "numerical", tol),
                ],
            ),
        ]
    )
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    return notebook


def build_results(tmp_path, monkeypatch, notebook):
    """Build chapter and results page with the verdicts extension; return.

    Sections, warnings.
    """
    src = tmp_path / "src"
    src.mkdir(parents=True, exist_ok=True)
    (src / "conf.py").write_text(
        "extensions = ['myst_nb', 'claims_verdicts']\nnb_execution_mode = 'off'\n"
    )
    (src / "index.rst").write_text(
        "Index\n=====\n\n.. toctree::\n\n   chapter\n   results\n"
    )
    (src / "results.md").write_text(RESULTS_PAGE)
    nbformat.write(notebook, src / "chapter.ipynb")
    warnings = sphinx_build(src, tmp_path, monkeypatch, True)
    html = (tmp_path / "out" / "results.html").read_text()
    summary, *sections = html.split('<div class="claim-verdict')
    return summary, sections, warnings


def verdict_of(section):
    return section.split("Verdict: ")[1].split("</strong>")[0].rsplit(">", 1)[1]


def test_verdicts_are_computed_from_the_checks_of_the_build(tmp_path, monkeypatch):
    summary, sections, warnings = build_results(
        tmp_path, monkeypatch, verdict_notebook()
    )
    assert [verdict_of(s) for s in sections] == [
        "reproduced",
        "partly",
        "partly",
        "not tested",
    ]
    assert "<em>model</em> sentence" in sections[0]  # the content is parsed
    assert (
        "rubric" in sections[0] and "The model</p>" in sections[0]
    )  # the title heads it
    assert (
        "1 of 1 hold" in sections[0]
        and "asymptotic" in sections[0]
        and "N=1..2" in sections[0]
    )
    assert "numerical only" in sections[1]
    assert "no check of symmetrized-dynamics" in sections[2]  # an id not in claims.IDS
    assert "no check in this build" in sections[3]
    table = summary[summary.index("claims-verdicts") :]
    assert [
        w in table
        for w in (
            "The model",
            "Not tested",
            "<strong>reproduced</strong>",
            "<strong>not tested</strong>",
        )
    ] == [True] * 4
    assert "FAILS" not in warnings


def test_numerical_evidence_alone_is_partly_and_a_failing_check_fails(
    tmp_path, monkeypatch
):
    _, sections, _ = build_results(tmp_path, monkeypatch, verdict_notebook("numerical"))
    assert verdict_of(sections[0]) == "partly"
    failing = verdict_notebook("exact", tol=0.1)
    _, sections, warnings = build_results(tmp_path / "b", monkeypatch, failing)
    assert [verdict_of(s) for s in sections[:3]] == ["fails", "fails", "partly"]
    assert "claim 'gradients' FAILS" in warnings
