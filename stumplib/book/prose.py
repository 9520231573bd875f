"""Numbers for the prose: rounded once, written as a reader writes them, glued by name.

``glue("kappa", 4.4199, digits=3)`` rounds to three significant digits and glues the
value under ``kappa`` for ``{glue:text}`kappa``` in the page: integral values print
without ``.0``, very small or large ones as ``2.5 × 10⁻⁵``, and ``-0`` never appears.
"""

import math
import numbers

import numpy as np

from .. import validation

SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _real(value, name):
    """One finite real number, a real SymPy number (``log(2)``) included, as a float."""
    if getattr(value, "is_real", False) and not isinstance(value, numbers.Real):
        try:  # a real SymPy number
            value = float(value)
        except TypeError:
            raise TypeError(f"{name} must be a real number (got {value!r})") from None
    return validation.scalar(value, name)


def _one_rounding(values):
    if values["digits"] is not None and values["decimals"] is not None:
        raise ValueError("give digits or decimals, not both")


#: What :func:`rounded` and :func:`glue` take.
_ROUNDING = dict(
    value=validation.Constraint(
        _real,
        (
            (None, TypeError),
            ("1.5", TypeError),
            (1j, TypeError),
            (np.nan, ValueError),
            (np.inf, ValueError),
            ([1.0, 2.0], ValueError),
        ),
    ),
    digits=validation.Integer(optional=True),
    decimals=validation.Integer(minimum=0, optional=True),
)


class Shown(float):
    """A float whose ``repr`` is the text the prose shows (see :func:`text`).

    Parameters
    ----------
    x : float
        The value, as for :class:`float`.
    """

    def __repr__(self):
        """The text the prose shows."""
        return text(float(self))

    __str__ = __repr__


@validation.constrained(_one_rounding, **_ROUNDING)
def rounded(value, digits=None, decimals=None):
    """``value`` rounded to ``digits`` significant digits or ``decimals`` decimals.

    Not both.

    ``value`` is one finite real number, a real SymPy number (such as ``log(2)``)
    included.

    Parameters
    ----------
    value : float or sympy.Expr
        A finite real number.
    digits : int, optional
        Significant digits, at least 1.
    decimals : int, optional
        Decimals, at least 0.

    Returns
    -------
    float
        The rounded value (unchanged when neither ``digits`` nor ``decimals`` is given).

    Raises
    ------
    ValueError
        If both ``digits`` and ``decimals`` are given, or an argument is out of range.
    TypeError
        If ``value`` is not a real number.
    """
    if digits is not None:
        value = float(f"{value:.{digits}g}")
    elif decimals is not None:
        value = round(value, decimals)
    return value + 0.0  # -0.0 -> 0.0


@validation.constrained(value=validation.Scalar())
def text(value):
    """How a reader writes ``value`` (finite).

    ``640``, ``0.0012``, ``2.5 × 10⁻⁵``, ``3 × 10⁸``.

    Parameters
    ----------
    value : float
        A finite real scalar.

    Returns
    -------
    str

    Raises
    ------
    ValueError, TypeError
        If ``value`` is not a real scalar.
    """
    value = value + 0.0
    if value == 0:
        return "0"
    if value.is_integer() and abs(value) < 1e6:
        return str(int(value))
    exponent = math.floor(math.log10(abs(value)))
    if -4 <= exponent < 6:
        return repr(value)
    mantissa = repr(float(f"{value / 10**exponent:.12g}")).removesuffix(".0")
    power = f"10{str(exponent).translate(SUPERSCRIPT)}"
    return power if mantissa == "1" else f"{mantissa} × {power}"


@validation.constrained(_one_rounding, **_ROUNDING)
def glue(name, value, digits=None, decimals=None):
    """Round ``value`` (see :func:`rounded`) and glue it under ``name``, not displayed.

    Returns nothing, so that a cell ending in a glue call shows no output.

    Parameters
    ----------
    name : str
        The name under which ``{glue:text}`name``` finds the value in the page.
    value : real number
        The value, rounded once here.
    digits, decimals : int, optional
        Significant digits or decimals to keep (see :func:`rounded`).
    """
    from myst_nb import glue as nb_glue

    shown = Shown(rounded(value, digits, decimals))
    nb_glue(name, shown, display=False)
