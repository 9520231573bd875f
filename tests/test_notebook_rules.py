"""The chapters stay thin: the notebook rules of CONTRIBUTING.md, checked.

No function is defined in a notebook (no ``def``, no ``lambda``: logic goes into
stumplib, with tests); no code cell is longer than 25 lines, except a figure cell;
no cell shows a lone value left by its last expression (a stray number on the page).
"""

import ast
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
