"""Every public function and class of the modules a reader tries first shows an example.

The ``Examples`` sections are doctests (``--doctest-modules`` in pyproject.toml), so
they run with the library tests. Result records (``NamedTuple`` classes, returned by
the functions whose examples build them) are exempt, and so are methods: their class's
example calls them.
"""

import importlib
import inspect

import pytest

MODULES = (
    "head",
    "population",
    "tasks",
    "corpus",
    "training",
    "frozen",
    "certification",
    "certified_runs",
    "infinite_corpus",
)


def _record(obj):
    return inspect.isclass(obj) and issubclass(obj, tuple) and hasattr(obj, "_fields")


def _public(name):
    module = importlib.import_module(f"stumplib.{name}")
    return [
        (f"{name}.{key}", obj)
        for key, obj in vars(module).items()
        if not key.startswith("_")
        and (inspect.isfunction(obj) or inspect.isclass(obj))
        and obj.__module__ == module.__name__
        and not _record(obj)
    ]


@pytest.mark.parametrize("name", MODULES)
def test_every_public_function_has_an_example(name):
    missing = [
        qualified
        for qualified, obj in _public(name)
        if "\nExamples\n--------\n" not in inspect.getdoc(obj) + "\n"
    ]
    assert not missing, f"no Examples section: {missing}"
