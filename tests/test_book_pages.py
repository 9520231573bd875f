"""The reference pages stay complete as stumplib grows."""

import pkgutil
import re
from pathlib import Path

import stumplib

BOOK = Path(__file__).resolve().parents[1] / "book"


def test_api_reference_documents_every_module():
    documented = set(re.findall(r"^\.\. automodule:: (\S+)$", (BOOK / "api.md").read_text(), re.M))
    modules = {m.name for m in pkgutil.walk_packages(stumplib.__path__, "stumplib.")}
    assert modules | {"stumplib"} == documented


def test_package_docstring_lists_every_top_level_module():
    top = {m.name for m in pkgutil.iter_modules(stumplib.__path__)}
    listed = set(re.findall(r"^``(\w+)``", stumplib.__doc__, re.M))
    assert top == listed
