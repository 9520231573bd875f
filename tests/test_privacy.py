"""Private means private to a module: no module of ``stumplib`` reaches into another's.

A name with a leading underscore belongs to the module that defines it. What counts as
reaching in, in any module of the package (the book's included):

* ``from .m import _name`` (or ``from stumplib.m import _name``);
* ``m._name`` with ``m`` a name bound to another module of the package by an import;
* ``obj._name`` on anything but ``self``, ``cls`` or ``super()`` where no class of this
  module defines ``_name`` (as a method, a class attribute or an attribute assigned on
  ``self``): the member of an object made in another module.

What does not count: an object's own members (``self._x``, ``cls._x``, ``super()._x``,
also the hooks a subclass inherits from or overrides for a base class of another module,
as :class:`~stumplib.sparse_corpus.SparseCorpus` does for
:class:`~stumplib.corpus.Corpus`); the members of any object of a class of the same
module (the module is the unit of privacy, so :class:`~stumplib.corpus.Follower` runs
the engine of :class:`~stumplib.corpus.Corpus` beside it); and the public members the
standard library names with an underscore (``namedtuple._replace``).

A function that several modules share is a plain name in the module whose concept it
belongs to. Its checks (declared with :func:`stumplib.validation.constrained`) run once,
at the public boundary: the calls it makes inside the library skip them.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "stumplib"
MODULES = sorted(PACKAGE.rglob("*.py"))
#: Public API of the standard library spelled with a leading underscore.
PUBLIC_UNDERSCORED = {"_replace", "_asdict", "_fields", "_make", "_field_defaults"}
OWN = {"self", "cls"}


def _private(name):
    return (
        name.startswith("_")
        and not name.startswith("__")
        and name not in PUBLIC_UNDERSCORED
    )


def _package_modules(tree):
    """Names this module binds to modules of the package by an import."""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (
            node.level or node.module == "stumplib"
        ):
            bound |= {alias.asname or alias.name for alias in node.names}
        elif isinstance(node, ast.Import):
            bound |= {
                alias.asname or alias.name
                for alias in node.names
                if alias.name.split(".")[0] == "stumplib"
            }
    return bound


def _members(cls):
    """Private names a class defines.

    Methods, class attributes, attributes set on self.
    """
    names = set()
    for node in ast.walk(cls):
        if (
            isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node in cls.body
        ):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node in cls.body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id in OWN
        ):
            names.add(node.attr)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", None) == "setattr"
            and isinstance(node.args[1], ast.Constant)  # setattr(obj, "name", ...)
        ):
            names.add(node.args[1].value)
    return {name for name in names if _private(name)}


def _is_own(node):
    """``self``, ``cls`` or ``super()``."""
    if isinstance(node, ast.Name):
        return node.id in OWN
    return isinstance(node, ast.Call) and getattr(node.func, "id", None) == "super"


def reaches(path):
    """Every access of this module to another's private names, as ``(line, text)``."""
    tree = ast.parse(path.read_text())
    modules = _package_modules(tree)
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    defined = set().union(*map(_members, classes))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (
            node.level or node.module == "stumplib"
        ):
            bad = [alias.name for alias in node.names if _private(alias.name)]
            source = "." * node.level + (node.module or "")
            found.extend((node.lineno, f"from {source} import {name}") for name in bad)
        if (
            isinstance(node, ast.Attribute)
            and _private(node.attr)
            and not _is_own(node.value)
        ):
            module = isinstance(node.value, ast.Name) and node.value.id in modules
            if module or node.attr not in defined:
                found.append((node.lineno, ast.unparse(node)))
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_reaches_into_another(path):
    found = reaches(path)
    assert not found, (
        f"{path.name} uses private names of another module or class: {found}"
    )


def test_the_checker_sees_each_kind_of_reach(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(
        "from . import other\n"
        "from .other import _helper\n"
        "class A:\n"
        "    def __init__(self):\n"
        "        self._mine = 1\n"
        "    def f(self, b, o):\n"
        "        return other._g(), o._theirs, b._only_b, self._mine, o._replace()\n"
        "class B:\n"
        "    def __init__(self):\n"
        "        self._only_b = 2\n"
        "class C(A):\n"
        "    def g(self, a):\n"
        "        return a._mine, super()._mine, self._inherited\n"
    )
    texts = sorted(text for _, text in reaches(path))
    assert texts == ["from .other import _helper", "o._theirs", "other._g"]
