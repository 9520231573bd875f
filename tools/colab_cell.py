"""The first cell of every chapter notebook: install stumplib where it is missing.

A chapter opened on Colab runs in a kernel without stumplib. Its first cell installs
stumplib from the book's repository, with myst-nb (the chapters glue numbers with it).
Where stumplib is installed (a local kernel, Binder, nbval, the book build) the cell
does nothing and prints nothing. It is tagged ``remove-cell``, so the rendered book
leaves it out.

The repository's address is never typed by hand: it is given with ``--repository``
(``make colab-cells REPOSITORY_URL=...``; the GitHub workflow passes its own). With an
empty address the cell says how to install stumplib instead of naming a guessed one.

Run it again after editing notebooks: it replaces the cell it finds by its id, so it is
idempotent::

    python tools/colab_cell.py --repository URL book/NN-*.ipynb
"""

import argparse
import re
from pathlib import Path

import nbformat

CELL_ID = "install-stumplib"
TAGS = ["remove-cell", CELL_ID]
CONSTRAINTS = Path(__file__).resolve().parents[1] / "constraints.txt"
HEADER = """\
# Colab, or any kernel without stumplib: install it from the book's repository.
# (Written by tools/colab_cell.py; not shown in the rendered book.)
import importlib.util
import subprocess
import sys

if importlib.util.find_spec("stumplib") is None:
"""
INSTALL = """\
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet",
                    "stumplib @ git+{repository}", "myst-nb=={myst_nb}"], check=True)"""
# The cell's own lines (wider than this file's), joined by implicit concatenation.
_ALIGN = " " * 30
NO_ADDRESS = (
    '    raise ModuleNotFoundError("stumplib is not installed: pip install it from the '
    "book's \"\n"
    f'{_ALIGN}"repository (make colab-cells REPOSITORY_URL=... writes the "\n'
    f'{_ALIGN}"install command here)")'
)


def pinned(package, constraints=CONSTRAINTS):
    """The version of ``package`` pinned in constraints.txt."""
    match = re.search(
        rf"^{re.escape(package)}==(\S+)$", Path(constraints).read_text(), re.M
    )
    if match is None:
        raise ValueError(f"package {package!r} is not pinned in {constraints}")
    return match.group(1)


def cell_source(repository):
    """The code of the cell, installing from ``repository``. Or explaining, if empty."""
    repository = repository.strip().rstrip("/")
    if repository and not re.fullmatch(r"https://[^\s\"'@]+", repository):
        raise ValueError(f"repository must be an https address, got {repository!r}")
    body = (
        INSTALL.format(repository=repository, myst_nb=pinned("myst-nb"))
        if repository
        else NO_ADDRESS
    )
    return HEADER + body


def with_install_cell(notebook, repository):
    """``notebook`` with the install cell first.

    An earlier one with other code replaced.
    """
    source = cell_source(repository)
    earlier = [
        c for c in notebook.cells if c.get("id") == CELL_ID and c.source == source
    ]
    cell = earlier[0] if earlier else nbformat.v4.new_code_cell(source, id=CELL_ID)
    cell.metadata["tags"] = list(TAGS)
    notebook.cells = [cell] + [c for c in notebook.cells if c.get("id") != CELL_ID]
    return notebook


def main(argv=None):
    """Write the install cell into each notebook named."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repository", default="", help="https address of the repository"
    )
    parser.add_argument("notebooks", nargs="+", type=Path)
    args = parser.parse_args(argv)
    for path in args.notebooks:
        before = path.read_text(encoding="utf-8")
        notebook = with_install_cell(
            nbformat.reads(before, as_version=4), args.repository
        )
        after = nbformat.writes(notebook) + "\n"
        if after != before:
            path.write_text(after, encoding="utf-8")
            print(f"{path}: install cell written")


if __name__ == "__main__":
    main()
