"""The reference pages stay complete as stumplib grows."""

import pkgutil
import re
from pathlib import Path

import stumplib

BOOK = Path(__file__).resolve().parents[1] / "book"


def _documented(page):
    text = (BOOK / page).read_text()
    return set(re.findall(r"^\.\. automodule:: (\S+)$", text, re.M))


def test_reference_pages_document_every_module():
    modules = {m.name for m in pkgutil.walk_packages(stumplib.__path__, "stumplib.")}
    science = {m for m in modules if not m.startswith("stumplib.book")}
    assert _documented("api.md") == science | {"stumplib"}
    assert _documented("machinery.md") == modules - science


def test_package_docstring_lists_every_top_level_module():
    top = {m.name for m in pkgutil.iter_modules(stumplib.__path__)}
    listed = set(re.findall(r"^``(\w+)``", stumplib.__doc__, re.M))
    assert top == listed
