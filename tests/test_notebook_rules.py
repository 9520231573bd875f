"""The chapters stay thin: the notebook rules of CONTRIBUTING.md, checked.

No function is defined in a notebook (no ``def``, no ``lambda``: logic goes into
stumplib, with tests); no code cell is longer than 25 lines, except a figure cell;
no cell shows a lone value left by its last expression (a stray number on the page);
at least half of a chapter's code cells show their input. And pages stand alone
(issue 51): no visible cell uses a name bound only in a hidden cell, and a hidden
cell only reports (:func:`test_hidden_cells_only_check_glue_or_print`).
"""

import ast
import builtins
import json
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parents[1] / "book"
CHAPTERS = sorted(BOOK.glob("*.ipynb"))
MAX_LINES = 25


def code_cells(path):
    """(index, cell) of every code cell of a notebook."""
    cells = json.loads(path.read_text())["cells"]
    return [(i, c) for i, c in enumerate(cells) if c["cell_type"] == "code"]


def is_figure(cell):
    """A figure cell: myst-nb figure metadata (caption, name, alt text)."""
    return "figure" in cell["metadata"].get("mystnb", {})


def lone_value(output):
    """An ``execute_result`` that shows nothing but a plain-text value."""
    return output["output_type"] == "execute_result" and set(output["data"]) == {
        "text/plain"
    }


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_function_is_defined_in_a_notebook(path):
    defined = [
        i
        for i, cell in code_cells(path)
        for node in ast.walk(ast.parse("".join(cell["source"])))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
    ]
    assert not defined, f"cells {defined} define a function"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_code_cells_are_short_except_figures(path):
    long = {
        i
        for i, cell in code_cells(path)
        if len("".join(cell["source"]).splitlines()) > MAX_LINES and not is_figure(cell)
    }
    assert not long, f"cells {sorted(long)} are longer than {MAX_LINES} lines"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_cell_shows_a_lone_value(path):
    stray = [
        i for i, cell in code_cells(path) for o in cell["outputs"] if lone_value(o)
    ]
    assert not stray, f"cells {stray} end with a stray value"


def test_a_stray_value_is_recognized():
    stray = {
        "output_type": "execute_result",
        "data": {"text/plain": "4"},
        "metadata": {},
    }
    claim = {"output_type": "display_data", "data": {"text/plain": "claim x: holds"}}
    assert lone_value(stray) and not lone_value(claim)


HIDDEN = {"remove-cell", "remove-input", "hide-input", "hide-cell"}


@pytest.mark.parametrize(
    "path", [p for p in CHAPTERS if p.stem[:2].isdigit()], ids=lambda p: p.stem
)
def test_a_chapter_shows_at_least_half_of_its_code(path):
    cells = [
        cell
        for _, cell in code_cells(path)
        if "install-stumplib" not in cell["metadata"].get("tags", [])
    ]
    shown = [c for c in cells if not HIDDEN & set(c["metadata"].get("tags", []))]
    assert 2 * len(shown) >= len(cells), f"{len(shown)} of {len(cells)} cells shown"


#: A hidden cell: its input is removed from the page (the install cell aside).
HIDDEN_INPUT = {"remove-input", "remove-cell"}
INSTALL = "install-stumplib"


def source(cell):
    """A code cell's Python source, IPython magics and shell lines blanked."""
    lines = "".join(cell["source"]).splitlines()
    return "\n".join("" if s.lstrip().startswith(("%", "!")) else s for s in lines)


def bound_names(tree):
    """The names a cell binds: assignments, loop targets, imports (top name)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            names.add(node.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def used_names(tree):
    return {
        n.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }


def hidden_names_used(cells):
    """(index, names) of each visible cell that uses names bound only in hidden cells.

    A name counts as hidden from the hidden cell that binds it until a visible cell
    binds it too; a reader who copies the visible cells in order then never meets an
    undefined name.
    """
    shown, hidden, found = set(dir(builtins)), set(), []
    for i, cell in enumerate(cells):
        tags = set(cell["metadata"].get("tags", []))
        if cell["cell_type"] != "code" or INSTALL in tags:
            continue
        tree = ast.parse(source(cell))
        names = bound_names(tree)
        if tags & HIDDEN_INPUT:
            hidden |= names - shown
            continue
        missing = sorted((used_names(tree) - shown - names) & hidden)
        if missing:
            found.append((i, missing))
        shown |= names
        hidden -= names
    return found


#: What a hidden cell may call: the claim checks and the glue (``claims.*``,
#: ``identities.*``, exact checks through claims, ``prose.*``, or a name bound to one
#: of them, ``check...``, ``glue...``), and ``print``/``display`` of a measured table.
REPORTERS = {"claims", "identities", "prose"}


def reports(node):
    """Whether ``node`` is a call that reports (see :data:`REPORTERS`)."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        return f.value.id in REPORTERS
    return isinstance(f, ast.Name) and (
        f.id.startswith(("check", "glue")) or f.id in ("print", "display")
    )


def reporting_statement(stmt):
    """An import, an assignment, a reporting call, or a for loop of these."""
    if isinstance(stmt, ast.Import | ast.ImportFrom | ast.Assign | ast.AugAssign):
        return True
    if isinstance(stmt, ast.AnnAssign):
        return True
    if isinstance(stmt, ast.Expr):
        return reports(stmt.value)
    if isinstance(stmt, ast.For):
        return not stmt.orelse and all(reporting_statement(s) for s in stmt.body)
    return False


def plumbing(cells):
    """(index, why) of each hidden cell that holds more than checks and glue."""
    found = []
    for i, cell in enumerate(cells):
        tags = set(cell["metadata"].get("tags", []))
        if cell["cell_type"] != "code" or INSTALL in tags or not tags & HIDDEN_INPUT:
            continue
        tree = ast.parse(source(cell))
        other = [
            ast.unparse(s).splitlines()[0][:60]
            for s in tree.body
            if not reporting_statement(s)
        ]
        if other:
            found.append((i, other))
        elif not any(reports(n) for n in ast.walk(tree)):
            found.append((i, "computes without checking or glueing"))
    return found


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem) for p in CHAPTERS])
def test_no_visible_cell_uses_a_name_bound_only_in_a_hidden_cell(path):
    """Copying a page's visible cells in order runs: no NameError."""
    leaks = hidden_names_used(json.loads(path.read_text())["cells"])
    assert not leaks, f"visible cells use names bound only in hidden cells: {leaks}"


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem) for p in CHAPTERS])
def test_hidden_cells_only_check_glue_or_print(path):
    """A hidden cell shows the reader nothing of its code, so it may only report.

    The rule: each top-level statement of a hidden cell (``remove-input`` or
    ``remove-cell``, the install cell aside) is an import, an assignment (the values it
    reports), a call of a claim check or of the glue (``claims.*``, ``prose.*``, a
    name bound to one, ``check...``/``glue...``), a ``print`` or ``display`` of a
    measured table, or a ``for`` loop of these; and the cell makes at least one such
    call. Glue stays hidden: its code is bookkeeping whose result is the number in
    the prose. Anything else (a computation with no report, a condition, an
    assertion, a call of the library for its effect) is plumbing: it belongs in a
    visible cell or in stumplib.
    """
    found = plumbing(json.loads(path.read_text())["cells"])
    assert not found, f"hidden cells hold more than checks and glue: {found}"


def _cell(text, tags=()):
    return {"cell_type": "code", "source": [text], "metadata": {"tags": list(tags)}}


def test_the_rules_recognize_a_hidden_name_and_plumbing():
    cells = [
        _cell("%pip install x\nimport stumplib", [INSTALL, "remove-cell"]),
        _cell("from stumplib import head\nx = 1", ["remove-input"]),
        _cell("y = head.estimate(x)\nprint(y)"),
        _cell("x = 2\nz = x + len([])"),
        _cell(
            "w = x\nclaims.check('rule', w, 2, 0, 's', evidence='exact')",
            ["remove-input"],
        ),
        _cell("v = 3", ["remove-input"]),
        _cell("if v:\n    prose.glue('v', v)", ["remove-cell"]),
        _cell("for k in range(2):\n    glue_it(k)", ["remove-input"]),
    ]
    assert hidden_names_used(cells) == [(2, ["head", "x"])]
    assert plumbing(cells) == [
        (1, "computes without checking or glueing"),  # a hidden import is set-up
        (5, "computes without checking or glueing"),
        (6, ["if v:"]),
    ]
