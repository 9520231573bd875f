"""The maths of the library's docstrings typesets in MathJax and in LaTeX (the PDF).

The API and machinery pages render every docstring of ``stumplib`` (Sphinx autodoc):
their formulas are ``:math:`` roles and ``.. math::`` directives. MathJax accepts more
than LaTeX does, so a formula that renders in the HTML can still stop the PDF build.
This test reads every module's source and checks each formula for what LaTeX refuses
or prints wrongly: a character outside ASCII (the PDF's maths fonts lack most of them;
write ``\\upsilon``, not ``υ``), an operator as a subscript or superscript without
braces (``s_\\max`` stops LaTeX; ``s_{\\max}`` does not) and unbalanced braces.
"""

import pathlib
import re

import pytest

import stumplib

ROOT = pathlib.Path(stumplib.__file__).parent
MODULES = sorted(ROOT.rglob("*.py"))
# :math:`...` (possibly over several lines, with the comment marks of ``#:`` lines)
ROLE = re.compile(r":math:`([^`]*)`")
# .. math:: followed by its indented block
DIRECTIVE = re.compile(r"^([ \t]*)\.\. math::\n((?:\1[ \t]+.*\n|[ \t]*\n)+)", re.M)
# An operator name (a macro of several tokens) as a subscript or superscript without
# braces: ``s_\max`` stops LaTeX, ``s^\infty`` (one symbol) is fine.
OPERATORS = "|".join(
    [
        *("max", "min", "sup", "inf", "lim", "liminf", "limsup", "log", "ln", "exp"),
        *("det", "arg", "dim", "ker", "Pr", "gcd", "sin", "cos", "tan"),
        *("operatorname", "mathrm", "mathbf", "mathbb", "text"),
    ]
)
UNBRACED_SCRIPT = re.compile(rf"[_^]\\(?:{OPERATORS})\b")


def _formulas(path):
    text = path.read_text()
    text = re.sub(r"\n\s*#:", "\n", text)  # attribute comments joined like prose
    found = [m.group(1) for m in ROLE.finditer(text)]
    found += [m.group(2) for m in DIRECTIVE.finditer(text)]
    return found


def _problems(formula):
    problems = []
    if any(ord(c) > 127 for c in formula):
        problems.append("a character outside ASCII")
    if UNBRACED_SCRIPT.search(formula):
        problems.append("an unbraced operator as a subscript or superscript")
    depth = 0
    for c in re.sub(r"\\[{}]", "", formula):
        depth += {"{": 1, "}": -1}.get(c, 0)
        if depth < 0:
            break
    if depth:
        problems.append("unbalanced braces")
    return problems


def test_formulas_are_found():
    assert sum(len(_formulas(p)) for p in MODULES) > 500


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_docstring_maths_is_latex_safe(path):
    bad = [
        f"{formula.strip()!r}: {', '.join(problems)}"
        for formula in _formulas(path)
        if (problems := _problems(formula))
    ]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        (r"s_{\max}", []),
        (r"s_\max", ["an unbraced operator as a subscript or superscript"]),
        (r"\hat s^\infty", []),
        ("\u03c5 = 1 - s", ["a character outside ASCII"]),
        (r"\frac{1}{2", ["unbalanced braces"]),
        (r"\{x > s\}", []),
    ],
)
def test_the_check_catches_what_latex_refuses(formula, expected):
    assert _problems(formula) == expected
