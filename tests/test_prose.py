"""Tests for stumplib.book.prose: rounding and the text of glued numbers."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stumplib.book import prose


@pytest.mark.parametrize(
    "value, expected",
    [
        (0.0, "0"),
        (-0.0, "0"),
        (640.0, "640"),
        (-3.0, "-3"),
        (0.0012, "0.0012"),
        (2.5e-5, "2.5 × 10⁻⁵"),
        (1e7, "10⁷"),
        (4e8, "4 × 10⁸"),
        (-1.5e-12, "-1.5 × 10⁻¹²"),
        (123456.5, "123456.5"),
        (1e-4, "0.0001"),
    ],
)
def test_text_is_written_as_a_reader_writes(value, expected):
    assert prose.text(value) == expected


def test_rounding_by_digits_or_decimals_never_gives_negative_zero():
    assert (
        prose.rounded(-1e-9, decimals=3) == 0
        and str(prose.rounded(-1e-9, decimals=3)) == "0.0"
    )
    assert prose.rounded(0.123456, digits=2) == 0.12
    assert prose.rounded(3.14159, decimals=2) == 3.14
    assert repr(prose.Shown(prose.rounded(-1e-9, decimals=3))) == "0"


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"value": float("nan")}, ValueError, "value"),
        ({"value": 1.0, "digits": 2, "decimals": 1}, ValueError, "not both"),
        ({"value": 1.0, "digits": 0}, ValueError, "digits"),
        ({"value": 1.0, "decimals": -1}, ValueError, "decimals"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        prose.rounded(**kwargs)


def test_sympy_numbers_are_accepted_and_non_numbers_rejected():
    import sympy as sp

    assert prose.rounded(sp.log(2), digits=3) == 0.693
    for bad in ("1.5", 1 + 2j, None, sp.Symbol("x", real=True)):
        with pytest.raises(TypeError, match="^value must"):
            prose.rounded(bad)
    with pytest.raises(ValueError, match="^value must be a scalar"):
        prose.rounded([1.0, 2.0])


def test_glue_records_the_shown_text(monkeypatch):
    glued = {}
    monkeypatch.setattr(
        "myst_nb.glue", lambda name, value, display: glued.update({name: value})
    )
    assert prose.glue("x", -0.00001234, digits=2) is None  # no stray output in a cell
    assert repr(glued["x"]) == "-1.2 × 10⁻⁵" and glued["x"] == -1.2e-5


@given(
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300)
)
def test_text_never_shows_negative_zero_or_a_trailing_point_zero(value):
    shown = prose.text(value)
    assert shown != "-0" and not shown.endswith(".0")
