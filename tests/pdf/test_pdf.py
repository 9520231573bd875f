"""The book as one PDF (``make pdf``, Jupyter Book's pdflatex builder).

Run after the PDF is built (``make pdf`` builds it, then runs this): every page converts
to an image and to text (poppler's ``pdftoppm`` and ``pdftotext``), the text carries the
title of every page of the table of contents and the check line of every claim
of ``stumplib.book.claims.IDS``, and the LaTeX log reports no error and no missing glyph.
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


def toc_files(toc=ROOT / "_toc.yml"):
    """Every file of the table of contents (root first), as a path without suffix."""
    spec = yaml.safe_load(toc.read_text())
    return [spec["root"]] + [c["file"] for part in spec["parts"] for c in part["chapters"]]


def title(stem):
    """The first level-one heading of a page (Markdown file or notebook), as plain text.

    The root page's title is the book's (``_config.yml``), on the PDF's title page.
    """
    if stem == toc_files()[0]:
        return yaml.safe_load((ROOT / "_config.yml").read_text())["title"]
    path = next(p for p in (ROOT / (stem + ".ipynb"), ROOT / (stem + ".md")) if p.exists())
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text())["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
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
            ["pdftotext", "-layout", str(PDF), "-"], check=True, capture_output=True, text=True
        ).stdout
    )


def pages():
    info = subprocess.run(["pdfinfo", str(PDF)], check=True, capture_output=True, text=True)
    return int(re.search(r"^Pages:\s+(\d+)$", info.stdout, re.M).group(1))


def test_every_page_converts_to_an_image_and_to_text(tmp_path):
    n = pages()
    assert n > 10
    subprocess.run(["pdftoppm", "-r", "12", "-png", str(PDF), str(tmp_path / "page")], check=True)
    assert len(list(tmp_path.glob("page-*.png"))) == n
    for k in range(1, n + 1):
        subprocess.run(
            ["pdftotext", "-f", str(k), "-l", str(k), str(PDF), str(tmp_path / "p.txt")],
            check=True,
        )


@pytest.mark.parametrize("stem", toc_files())
def test_every_page_title_is_in_the_pdf(text, stem):
    assert normalized(title(stem)) in text


def test_every_claim_check_is_in_the_pdf(text):
    """Each claim id appears as its chapter printed it: ``claim <id>: holds``."""
    missing = [claim_id for claim_id in claims.IDS if f"claim {claim_id}: holds" not in text]
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
