"""Two layers, one direction: the science never depends on the book's machinery.

Every module of ``stumplib`` outside ``stumplib.book`` may import NumPy, SciPy, SymPy,
mpmath, joblib, tqdm, the standard library and other science modules, and nothing of
the book (``stumplib.book``, Sphinx, docutils, myst-nb, Jupyter, IPython, matplotlib,
Bokeh);
its docstrings say what a function computes, never where the book uses it.
"""

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "stumplib"
SCIENCE = sorted(
    p for p in PACKAGE.rglob("*.py") if "book" not in p.relative_to(PACKAGE).parts
)
FORBIDDEN = (
    "sphinx",
    "docutils",
    "myst_nb",
    "myst_parser",
    "IPython",
    "ipykernel",
    "jupyter_cache",
    "nbformat",
    "matplotlib",
    "bokeh",
)


def _imports(path):
    """Absolute names imported by a module of the package (relative ones resolved)."""
    module = ".".join(("stumplib", *path.relative_to(PACKAGE).with_suffix("").parts))
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = (
                    package.rsplit(".", node.level - 1)[0]
                    if node.level > 1
                    else package
                )
                base = f"{anchor}.{base}" if base else anchor
            names += [base] + [f"{base}.{alias.name}" for alias in node.names]
    return names


@pytest.mark.parametrize("path", SCIENCE, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_science_does_not_import_the_book(path):
    bad = [
        name
        for name in _imports(path)
        if name.startswith("stumplib.book") or name.split(".")[0] in FORBIDDEN
    ]
    assert not bad, f"{path.name} imports {bad}"


@pytest.mark.parametrize("path", SCIENCE, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_science_names_no_chapter(path):
    text = path.read_text()
    hits = re.findall(r"(?i)\bchapters?\b[^\n]*", text)
    assert not hits, f"{path.name} names a chapter: {hits[:3]}"


def test_the_import_resolver_sees_relative_imports():
    imports = _imports(PACKAGE / "book" / "claims.py")
    assert "stumplib.validation" in imports
