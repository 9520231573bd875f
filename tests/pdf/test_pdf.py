"""The book as one PDF (``make pdf``, Jupyter Book's pdflatex builder).

Run after the PDF is built (``make pdf`` builds it, then runs this): every page converts
to an image and to text (poppler's ``pdftoppm`` and ``pdftotext``), the text carries the
title of every page of the table of contents and the check line of every claim
of ``stumplib.book.claims.IDS``, and the LaTeX log reports no error and no missing glyph
and no line wider than its column by more than :data:`OVERFULL_LIMIT`. The PDF prints no
code that the HTML folds or removes (``book/_ext/print_folds.py``).
"""

import json
import os
import re
import subprocess
import unicodedata
from pathlib import Path

import pytest
import yaml

from stumplib.book import claims

ROOT = Path(__file__).resolve().parents[2]
LATEX = Path(os.environ.get("BOOK_LATEX", ROOT / "_build" / "latex"))
PDF = LATEX / "stumplib-book.pdf"
LOG = PDF.with_suffix(".log")
#: The widest overfull line allowed (pt): one digit of the 10 pt body font (FreeSerif's
#: "0" is 5 pt wide), so a line may reach into the margin by less than one character,
#: which does not show at print size; anything wider is a visible defect.
OVERFULL_LIMIT = 5.0
FOLDING_TAGS = {"hide-input", "hide-cell", "remove-input", "remove-cell"}


def toc_files(toc=ROOT / "_toc.yml"):
    """Every file of the table of contents (root first), as a path without suffix."""
    spec = yaml.safe_load(toc.read_text())
    return [spec["root"]] + [
        c["file"] for part in spec["parts"] for c in part["chapters"]
    ]


def title(stem):
    """The first level-one heading of a page (Markdown file or notebook), as plain text.

    The root page's title is the book's (``_config.yml``), on the PDF's title page.
    """
    if stem == toc_files()[0]:
        return yaml.safe_load((ROOT / "_config.yml").read_text())["title"]
    path = next(
        p for p in (ROOT / (stem + ".ipynb"), ROOT / (stem + ".md")) if p.exists()
    )
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text())["cells"]
        text = "\n".join(
            "".join(c["source"]) for c in cells if c["cell_type"] == "markdown"
        )
    else:
        text = path.read_text()
    return re.search(r"^# (.+)$", text, re.M).group(1).strip()


def normalized(text):
    """Text with ligatures and line breaks undone, so that words compare."""
    text = unicodedata.normalize("NFKC", text).replace("-\n", "")
    return " ".join(text.split())


@pytest.fixture(scope="module")
def text():
    assert PDF.exists(), f"no PDF at {PDF}: run `make pdf`"
    return normalized(
        subprocess.run(
            ["pdftotext", "-layout", str(PDF), "-"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )


def pages():
    info = subprocess.run(
        ["pdfinfo", str(PDF)], check=True, capture_output=True, text=True
    )
    return int(re.search(r"^Pages:\s+(\d+)$", info.stdout, re.M).group(1))


def test_every_page_converts_to_an_image_and_to_text(tmp_path):
    n = pages()
    assert n > 10
    subprocess.run(
        ["pdftoppm", "-r", "12", "-png", str(PDF), str(tmp_path / "page")], check=True
    )
    assert len(list(tmp_path.glob("page-*.png"))) == n
    for k in range(1, n + 1):
        subprocess.run(
            [
                "pdftotext",
                "-f",
                str(k),
                "-l",
                str(k),
                str(PDF),
                str(tmp_path / "p.txt"),
            ],
            check=True,
        )


@pytest.mark.parametrize("stem", toc_files())
def test_every_page_title_is_in_the_pdf(text, stem):
    assert normalized(title(stem)) in text


def test_every_claim_check_is_in_the_pdf(text):
    """Each claim id appears as its chapter printed it: ``claim <id>: holds``."""
    missing = [
        claim_id for claim_id in claims.IDS if f"claim {claim_id}: holds" not in text
    ]
    assert not missing


def test_latex_reports_no_error_and_no_missing_glyph():
    log = LOG.read_text(encoding="latin-1")
    problems = [
        line
        for line in log.splitlines()
        if line.startswith("! ")
        or "Missing character" in line
        or re.search(r"(LaTeX|Package \w+) Error", line)
    ]
    assert not problems, "\n".join(problems[:20])


def overfull_lines(log_text, limit=OVERFULL_LIMIT):
    """The log's overfull-hbox reports wider than ``limit`` points, with their
    context."""
    found = re.finditer(
        r"^Overfull \\hbox \(([\d.]+)pt too wide\)(.*\n.*)$", log_text, re.M
    )
    return [m.group(0) for m in found if float(m.group(1)) > limit]


def test_overfull_lines_are_found_above_the_limit_only():
    log = (
        "Overfull \\hbox (5.1pt too wide) in paragraph at lines 1--2\n[]x\n"
        "Overfull \\hbox (4.9pt too wide) in alignment at lines 3--4\n[]y\n"
    )
    assert [line.split("\n")[0] for line in overfull_lines(log)] == [
        "Overfull \\hbox (5.1pt too wide) in paragraph at lines 1--2"
    ]


def test_no_line_sticks_out_of_its_column():
    wide = overfull_lines(LOG.read_text(encoding="latin-1"))
    assert not wide, (
        f"{len(wide)} overfull hboxes over {OVERFULL_LIMIT} pt:\n"
        + "\n".join(wide[:10])
    )


def folded_import_lines(book=ROOT / "book"):
    """The import lines of code cells that the HTML folds or removes, and nowhere else.

    A line that a shown cell, the prose or an example of the library's docstrings (which
    the API page prints) also carries is left out.
    """
    folded, shown = set(), set()
    for path in sorted(book.glob("*.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            lines = {line.strip() for line in "".join(cell["source"]).splitlines()}
            tags = set(cell.get("metadata", {}).get("tags", []))
            if cell["cell_type"] == "code" and tags & FOLDING_TAGS:
                folded |= {
                    line for line in lines if re.match(r"(from \S+ )?import ", line)
                }
            else:
                shown |= lines
    for path in (book.parent / "stumplib").rglob("*.py"):  # the API page's examples
        shown |= {
            line.strip().removeprefix(">>> ")
            for line in path.read_text().splitlines()
            if line.strip().startswith(">>> ")
        }
    return sorted(folded - shown)


def test_the_pdf_prints_no_folded_code(text):
    """No import line of a folded or removed cell (say ``import numpy as np``) is
    printed."""
    lines = folded_import_lines()
    assert lines, "no folded import line to look for"
    printed = [line for line in lines if normalized(line) in text]
    assert not printed
