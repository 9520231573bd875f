"""The first cell of every chapter notebook: install stumplib where it is missing.

A chapter opened on Colab runs in a kernel without stumplib. Its first cell installs
stumplib from the book's repository, with myst-nb (the chapters glue numbers with it).
Where stumplib is installed (a local kernel, Binder, nbval, the book build) the cell
does nothing and prints nothing. It is tagged ``remove-cell``, so the rendered book
leaves it out.

The repository's address is never typed by hand: it is given with ``--repository``
(``make colab-cells REPOSITORY_URL=...``; the GitHub workflow passes its own). With an
empty address the cell stops with the commands that install stumplib from a clone,
instead of naming a guessed repository.

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
# Without an address the cell imports only what it uses, laid out as ruff formats it
# (the notebooks are formatted: the cell must come out of `ruff format` unchanged).
NO_ADDRESS_HEADER = """\
# Colab, or any kernel without stumplib: install it from the book's repository.
# (Written by tools/colab_cell.py; not shown in the rendered book.)
import importlib.util

if importlib.util.find_spec("stumplib") is None:
"""
NO_ADDRESS = """\
    raise ModuleNotFoundError(
        "stumplib is not installed in this kernel. Install it from a clone "
        "of the book's repository, in this kernel's environment: git clone "
        "<the repository's address> stumplib-book && cd stumplib-book && "
        "python -m pip install -c constraints.txt -e . myst-nb; then "
        "restart the kernel (the book's page Run and modify has the details)"
    )"""


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
    if not repository:
        return NO_ADDRESS_HEADER + NO_ADDRESS
    return HEADER + INSTALL.format(repository=repository, myst_nb=pinned("myst-nb"))


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
    # it runs first and shows nothing where stumplib is installed: stored as executed
    cell.execution_count = cell.execution_count or 1
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
