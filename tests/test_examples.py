"""Every public function and class of the modules a reader tries first shows an example.

The ``Examples`` sections are doctests (``--doctest-modules`` in pyproject.toml), so
they run with the library tests. In the modules of :data:`EVERY_MEMBER` the rule also
covers the result records (``NamedTuple`` classes) and every public method, property,
class method and static method of a class, inherited ones from the library included
(``Corpus.loss`` is defined on a private base); in the others records and methods are
exempt (their class's example calls them).
"""

import importlib
import inspect

import pytest

#: Modules whose every public function, class, record and member shows an example.
EVERY_MEMBER = (
    "head",
    "population",
    "tasks",
    "corpus",
    "sparse_corpus",
    "training",
    "pretraining",
    "frozen",
    "certification",
    "certified_runs",
)
#: Modules whose public functions and (non-record) classes show an example
#: (``infinite_corpus.Prediction`` has none: its one maker takes about a second).
FUNCTIONS_AND_CLASSES = ("infinite_corpus",)


def _record(obj):
    return inspect.isclass(obj) and issubclass(obj, tuple) and hasattr(obj, "_fields")


def _members(cls):
    """The public methods, properties, class and static methods of ``cls``.

    With those it inherits from library classes (not ``tuple.count`` and the like).
    """
    for key in dir(cls):
        if key.startswith("_"):
            continue
        owner = next(c for c in cls.__mro__ if key in vars(c))
        if not owner.__module__.startswith("stumplib."):
            continue
        attr = vars(owner)[key]
        function = attr.fget if isinstance(attr, property) else attr
        function = getattr(function, "__func__", function)  # classmethod, staticmethod
        if callable(function) and not inspect.isclass(function):
            yield f"{cls.__name__}.{key}", function


def _public(name, every_member):
    module = importlib.import_module(f"stumplib.{name}")
    for key, obj in vars(module).items():
        if (
            key.startswith("_")
            or not (inspect.isfunction(obj) or inspect.isclass(obj))
            or obj.__module__ != module.__name__
            or (_record(obj) and not every_member)
        ):
            continue
        yield f"{name}.{key}", obj
        if every_member and inspect.isclass(obj):
            for qualified, member in _members(obj):
                yield f"{name}.{qualified}", member


def _has_example(obj):
    doc = inspect.cleandoc(obj.__doc__ or "")  # its own docstring, not an inherited one
    return "\nExamples\n--------\n" in doc + "\n"


@pytest.mark.parametrize(
    ("name", "every_member"),
    [(name, True) for name in EVERY_MEMBER]
    + [(name, False) for name in FUNCTIONS_AND_CLASSES],
)
def test_every_public_function_has_an_example(name, every_member):
    missing = [q for q, obj in _public(name, every_member) if not _has_example(obj)]
    assert not missing, f"no Examples section: {missing}"


def test_the_rule_sees_records_properties_and_inherited_methods():
    seen = dict(_public("corpus", True)) | dict(_public("frozen", True))
    for qualified in (
        "corpus.Corpus.sample",  # a class method
        "corpus.Corpus.shape",  # a property
        "corpus.Corpus.loss",  # inherited from the private base
        "corpus.Follower.loss",
        "frozen.Errors",  # a result record
    ):
        assert qualified in seen
    assert "frozen.Errors.count" not in seen  # tuple's methods: not the library's


def test_a_docstring_without_its_section_is_caught():
    def bare():
        """A summary.

        Returns
        -------
        int
        """

    def shown():
        """A summary.

        Examples
        --------
        >>> shown()
        """

    assert not _has_example(bare) and _has_example(shown)
    assert not _has_example(lambda: None)
