"""Tests for the book's Sphinx extensions (book/_ext), on a small Sphinx project."""

import sys
from io import StringIO
from pathlib import Path

import nbformat
from sphinx.application import Sphinx

import stumplib
from stumplib.book import claims

EXT = Path(__file__).resolve().parents[1] / "book" / "_ext"


def claim_output(claim_id, measured, expected, tol, statement, sides=None):
    """The output a notebook stores for one check (line and record)."""
    record = claims.make_record(
        claim_id,
        measured,
        expected,
        tol,
        statement,
        evidence="numerical",
        span="N=1..2",
        sides=sides,
    )
    return nbformat.v4.new_output(
        "display_data", data={"text/plain": claims.line(record), claims.MIME: record}
    )


#: A span of evidence as the ledger shows it: the literal its claim line prints.
SPAN_HTML = (
    '(<code class="claim-span docutils literal notranslate">'
    '<span class="pre">N=1..2</span></code>)'
)


def chapter_notebook(tol=1.0, edit=None):
    """A chapter whose stored outputs show two checks.

    The second holds when ``tol >= 0.5``.

    A third, printed line that is not a check output (a markdown code block) is no
    check.
    """
    first = claim_output(
        "rule",
        2.05 if edit is None else edit,
        2,
        0.1,
        "the rule constant $N^2 r$",
        sides=("the library's estimate", "the closed form 2"),
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
    # a statement's $...$ is typeset, and the page loads MathJax for it
    assert r'<span class="math notranslate nohighlight">\(N^2 r\)</span>' in ledger
    assert "$N^2" not in ledger and "mathjax" in ledger.lower()
    assert (
        "measured 2.05" in ledger and "expected 2 ± 0.1" in ledger and "0 ± 1" in ledger
    )
    span = SPAN_HTML  # as its claim line prints it
    assert f"evidence: numerical {span}" in ledger
    # each check's two sides, or that it declares none
    assert (
        "sides: measured by the library’s estimate; expected from the closed form 2"
        in ledger.replace("&#8217;", "’").replace("'", "’")
    )
    assert "sides: <em>not declared</em>" in ledger
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


def kinds_notebook():
    """A chapter with a resolved and an unresolved exact check, a keyed replay, an
    exercise, and a key used twice."""

    def output(kind, measured, tol, key=None, digits=4, statement="a check"):
        record = claims.make_record(
            "rule",
            measured,
            1.0,
            tol,
            statement,
            evidence=kind,
            span=None if kind == "exact" else "N=1..2",
            key=key,
            digits=digits,
        )
        return nbformat.v4.new_output(
            "display_data",
            data={"text/plain": claims.line(record), claims.MIME: record},
        )

    outputs = [
        output("numerical", 1.5, 1.0, statement="half its tolerance"),
        output("exact", 1.0, 1e-12, key="twice", statement="finer than its digits"),
        output("replay", 1.0, 0.5, key="twice", statement="data replayed"),
        output("exercise", 1.0, 0.5, statement="an exercise answer"),
    ]
    notebook = chapter_notebook()
    notebook.cells[1].outputs = outputs
    return notebook


def test_the_ledger_reads_margins_marks_replays_and_lists_exercises_apart(
    tmp_path, monkeypatch
):
    ledger, _, warnings = build(tmp_path, monkeypatch, kinds_notebook())
    # the summary's closest check is the resolved one (0.5), never the finer check
    # sitting at the bound 1; that one is counted apart
    assert "0.5 of its tolerance (1 finer than its shown digits)" in ledger
    span = SPAN_HTML  # as its claim line prints it
    assert f"evidence: replay {span} — not evidence for the claim" in ledger
    assert f"<strong>replay</strong> {span} — not evidence" in ledger
    assert (
        "ran 3 checks covering 1 of the" in ledger and "1 of them is a replay" in ledger
    )
    assert "The answers of 1 exercise are checked too" in ledger
    assert "Exercises (not claims): 1 check, 1 of 1 holds</summary>" in ledger
    assert "<code>rule</code>: 3 checks, 3 of 3 hold</summary>" in ledger
    group = ledger[ledger.index("Exercises (not claims)") :]
    assert "an exercise answer" in group and "data replayed" not in group
    assert ledger.count("key: ") == 2 and '<span class="pre">twice</span>' in ledger
    assert "the key 'twice' names 2 checks" in warnings
    for kind, text in claims.DEFINITIONS.items():
        assert kind in claims.EVIDENCE and text


def test_the_margin_plot_draws_unresolved_checks_apart(tmp_path):
    sys.path.insert(0, str(EXT))
    try:
        import claims_ledger
        from matplotlib import pyplot as plt

        drawn = []
        original = plt.Axes.scatter

        def spy(self, x, y, **kwargs):
            drawn.append((kwargs["label"], list(x), list(kwargs["facecolors"])))
            return original(self, x, y, **kwargs)

        plt.Axes.scatter = spy
        records = [
            claims.make_record("rule", 1.5, 1, 1, "s", evidence="numerical", span="x"),
            claims.make_record("rule", 1, 1, 1e-12, "s", evidence="exact"),
        ]
        claims_ledger.margin_plot(records, tmp_path / "m.png")
    finally:
        plt.Axes.scatter = original
        sys.path.remove(str(EXT))
        sys.modules.pop("claims_ledger", None)
    assert drawn[0][0] == "exact" and drawn[0][1] == [claims_ledger.FINER]
    assert drawn[0][2] == ["none"]  # hollow: finer than its shown digits
    assert drawn[1][0] == "numerical" and drawn[1][1] == [0.5]
    assert drawn[1][2] != ["none"]


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


SIDES = ("library", "closed form")

RESULTS_PAGE = """# Results

```{claims-verdicts}
```

```{evidence-kinds}
```

```{claim-verdict}
---
title: The model
main: rule-main
also: gradients: fd check
---
The *model* sentence.
```

```{claim-verdict}
---
title: Numerical only, like $t^{1/4}$
main: gradients: fd check
---
```

```{claim-verdict}
---
title: Inherits nothing
main: gradients: fd check
also: rule-main
---
```

```{claim-verdict}
---
title: Not tested
main: boundary: no such check
---
```
"""


def verdict_notebook(evidence="asymptotic", tol=1.0, extra=(), sides=SIDES):
    """A chapter with a ``rule`` check (key ``rule-main``) of kind ``evidence``, a
    numerical ``gradients`` check and ``extra`` (kind, key) checks of ``rule``, each
    declaring ``sides``."""

    def output(claim_id, kind, tol, key=None, name=None):
        record = claims.make_record(
            claim_id,
            0.5,
            0,
            tol,
            f"{name or claim_id} check",
            evidence=kind,
            span=None if kind == "exact" else "N=1..2",
            key=key,
            sides=sides,
        )
        return nbformat.v4.new_output(
            "display_data",
            data={"text/plain": claims.line(record), claims.MIME: record},
        )

    outputs = [
        output("rule", evidence, 1.0, key="rule-main"),
        output("gradients", "numerical", tol, name="fd"),
    ]
    outputs += [output("rule", kind, 1.0, key=key) for kind, key in extra]
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# Chapter"),
            nbformat.v4.new_code_cell("check()", outputs=outputs),
        ]
    )
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    return notebook


def build_results(tmp_path, monkeypatch, notebook, page=RESULTS_PAGE):
    """Build chapter and results page with the verdicts extension; return.

    Summary, sections, warnings.
    """
    src = tmp_path / "src"
    src.mkdir(parents=True, exist_ok=True)
    (src / "conf.py").write_text(
        "extensions = ['myst_nb', 'claims_verdicts']\nnb_execution_mode = 'off'\n"
    )
    (src / "index.rst").write_text(
        "Index\n=====\n\n.. toctree::\n\n   chapter\n   results\n"
    )
    (src / "results.md").write_text(page)
    nbformat.write(notebook, src / "chapter.ipynb")
    warnings = sphinx_build(src, tmp_path, monkeypatch, True)
    html = (tmp_path / "out" / "results.html").read_text()
    summary, *sections = html.split('<div class="claim-verdict')
    return summary, sections, warnings


def verdict_of(section):
    return section.split("Verdict: ")[1].split("</strong>")[0].rsplit(">", 1)[1]


def test_verdicts_come_from_the_checks_each_sentence_declares(tmp_path, monkeypatch):
    summary, sections, warnings = build_results(
        tmp_path, monkeypatch, verdict_notebook()
    )
    assert [verdict_of(s) for s in sections] == [
        "reproduced",
        "numerical",
        "numerical",  # an asymptotic check of its other content does not lift it
        "not tested",
    ]
    assert "<em>model</em> sentence" in sections[0]  # the content is parsed
    assert "rubric" in sections[0] and "The model</span></p>" in sections[0]
    assert r'like <span class="math notranslate nohighlight">\(t^{1/4}\)' in sections[1]
    assert "rule check" in sections[0] and "fd check" in sections[0]
    assert 'href="chapter.html#claim-check-0"' in sections[0]  # links to the output
    assert "asymptotic (<code" in sections[0] and ">main<" in sections[0]
    assert ">other<" in sections[0]
    assert "main statement has asymptotic evidence" in sections[0]
    assert "sides: measured by library; expected from closed form" in sections[0]
    # the declared checks fold under a summary, the verdict above them
    assert sections[0].index("Verdict: ") < sections[0].index("<details")
    assert "<summary>The 2 declared checks: 2 of 2 hold</summary>" in sections[0]
    assert "not exact or asymptotic" in sections[1] and "not exact" in sections[2]
    assert "no such check in this build" in sections[3]
    assert "'boundary: no such check' names no check in this build" in warnings
    table = summary[summary.index("claims-verdicts") :]
    assert all(
        w in table
        for w in (
            "The model",
            "Not tested",
            "<strong>reproduced</strong>",
            "<strong>not tested</strong>",
            '<code class="docutils literal notranslate"><span class="pre">rule</span>',
        )
    )
    for kind, text in claims.DEFINITIONS.items():  # {evidence-kinds}: one definition
        assert f"<dt>{kind}</dt>" in summary and text in summary
    assert "FAILS" not in warnings


def test_numerical_main_evidence_is_numerical_and_a_failing_check_fails(
    tmp_path, monkeypatch
):
    _, sections, _ = build_results(tmp_path, monkeypatch, verdict_notebook("numerical"))
    assert verdict_of(sections[0]) == "numerical"
    failing = verdict_notebook("exact", tol=0.1)
    _, sections, warnings = build_results(tmp_path / "b", monkeypatch, failing)
    assert [verdict_of(s) for s in sections] == [
        "fails",
        "fails",
        "fails",
        "not tested",
    ]
    assert "claim 'gradients' FAILS" in warnings


def test_a_strong_check_without_sides_makes_no_sentence_reproduced(
    tmp_path, monkeypatch
):
    _, sections, _ = build_results(
        tmp_path, monkeypatch, verdict_notebook("exact", sides=None)
    )
    assert verdict_of(sections[0]) == "numerical"
    assert "declares its two sides" in sections[0]
    assert "sides: <em>not declared</em>" in sections[0]


def test_replays_never_count_and_bad_declarations_warn(tmp_path, monkeypatch):
    page = RESULTS_PAGE.replace("main: rule-main", "main: rule-replay; rule-dup")
    notebook = verdict_notebook(
        "numerical", extra=[("replay", "rule-replay"), ("exact", "rule-dup")] * 1
    )
    notebook.cells[1].outputs += (
        verdict_notebook("numerical", extra=[("exact", "rule-dup")])
        .cells[1]
        .outputs[2:]
    )
    _, sections, warnings = build_results(tmp_path, monkeypatch, notebook, page)
    assert "'rule-replay' is a replay check" in warnings
    assert "the key 'rule-dup' names 2 checks" in warnings
    # the duplicated key's checks are exact: the page still computes a verdict
    assert verdict_of(sections[0]) == "reproduced"
    only_replay = RESULTS_PAGE.replace("main: rule-main", "main: rule-replay")
    _, sections, _ = build_results(tmp_path / "b", monkeypatch, notebook, only_replay)
    assert verdict_of(sections[0]) == "numerical"


def test_a_verdict_without_its_main_checks_or_with_a_bad_reference_is_an_error(
    tmp_path, monkeypatch
):
    page = "# R\n\n```{claim-verdict}\n:title: T\n```\n"
    _, _, warnings = build_results(tmp_path, monkeypatch, verdict_notebook(), page)
    assert "needs a :main:" in warnings
    page = "# R\n\n```{claim-verdict}\n:title: T\n:main: nonsense: words\n```\n"
    _, _, warnings = build_results(
        tmp_path / "b", monkeypatch, verdict_notebook(), page
    )
    assert "reference must be a key" in warnings


def test_lettered_appendices_number_their_results_with_their_letter(
    tmp_path, monkeypatch
):
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        "extensions = ['myst_nb', 'sphinx_proof', 'appendix_numbers']\n"
        "nb_execution_mode = 'off'\n"
    )
    (src / "index.rst").write_text(
        "Index\n=====\n\n.. toctree::\n   :numbered:\n\n   chapter\n\n"
        ".. toctree::\n\n   appendix\n   other\n"
    )
    proposition = "```{{prf:proposition}} {title}\n:label: {label}\n\nText.\n```\n\n"
    (src / "chapter.md").write_text(
        "# Chapter\n\n"
        + proposition.format(title="In the chapter", label="prop-c")
        + "See {prf:ref}`prop-e2` and {numref}`fig-e1`.\n"
    )
    figure = "```{{figure}} {image}\n:name: {label}\n\nA caption.\n```\n\n"
    for name in ("one.png", "two.png"):
        (src / name).write_bytes(b"")
    (src / "appendix.md").write_text(
        "# Appendix E: checks\n\n"
        + figure.format(image="one.png", label="fig-e1")
        + proposition.format(title="First", label="prop-e1")
        + "```{prf:definition} A definition\n:label: def-e1\n\nText.\n```\n\n"
        + proposition.format(title="Second", label="prop-e2")
    )
    (src / "other.md").write_text(
        "# Appendix: unlettered\n\n"
        + proposition.format(title="X", label="prop-x")
        + figure.format(image="two.png", label="fig-x")
    )
    warnings = sphinx_build(src, tmp_path, monkeypatch, True)
    sys.modules.pop("appendix_numbers", None)
    read = lambda name: (tmp_path / "out" / f"{name}.html").read_text()
    appendix, chapter = read("appendix"), read("chapter")
    assert "Proposition E.1" in appendix and "Proposition E.2" in appendix
    assert "Definition E.1" in appendix  # each kind counts on its own
    assert "Fig. E.1" in appendix  # figures too
    assert "Proposition 1.1" in chapter and "Proposition E.2" in chapter  # the refs
    assert "Fig. E.1" in chapter
    assert "E." not in read("other")  # no letter, Sphinx's own numbers
    problems = [
        w for w in warnings.splitlines() if "WARNING" in w and "registered" not in w
    ]
    assert not problems  # (a node class registered again by another test's build)


def test_the_pdf_gathers_the_introduction_into_one_chapter():
    sys.path.insert(0, str(EXT))
    import intro_chapter
    from docutils import nodes
    from docutils.utils import new_document
    from sphinx import addnodes

    def section(title, *body):
        node = nodes.section()
        node += nodes.title(text=title)
        node += list(body)
        return node

    document = new_document("intro")
    chapters = nodes.compound(classes=["toctree-wrapper"])
    chapters += addnodes.start_of_file(docname="chapter")
    document += section(
        "The book",
        nodes.paragraph(text="Opening words."),
        section("What the paper claims"),
        section("The model"),
        chapters,
    )
    gathered = intro_chapter.gather_introduction(document)
    root = document.children[0]
    # the title, then one section (LaTeX: one chapter), then the chapters as before
    assert [type(n) for n in root.children] == [
        nodes.title,
        nodes.section,
        nodes.compound,
    ]
    assert root.children[1] is gathered and gathered[0].astext() == "Introduction"
    assert [n.astext().split("\n")[0] for n in gathered.children[1:]] == [
        "Opening words.",
        "What the paper claims",
        "The model",
    ]
    # nothing to gather: unchanged
    plain = new_document("plain")
    plain += section("Only a title", nodes.paragraph(text="words"))
    assert intro_chapter.gather_introduction(plain) is None
