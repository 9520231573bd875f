"""Exact checks of symbolic results: a derived SymPy expression against its closed form.

A derivation that proves a proposition records its result as a claim check of kind
``exact``: the simplified difference between what SymPy derived and the closed form
the page states, which must be exactly zero.
"""

import sympy as sp

from . import claims


def check(claim_id, derived, closed, what, *, key=None, sides=None):
    """Check that ``derived - closed`` simplifies to exactly zero, and show the line.

    Parameters
    ----------
    claim_id : str
        One of :data:`stumplib.book.claims.IDS`.
    derived, closed : sympy.Expr or number
        What the derivation gave, and the closed form stated on the page.
    what : str
        The quantity, in words (the statement reads ``SymPy: <what> = <closed>``).
    key : str, optional
        The check's key, as for :func:`stumplib.book.claims.check`.
    sides : tuple of str, optional
        Where the derived and the closed form come from, as for
        :func:`stumplib.book.claims.check`: the closed form must be obtained
        independently of the derivation (typed from the page, not read back from it).

    Returns
    -------
    float
        The difference as shown (``0`` when the check holds).

    Raises
    ------
    stumplib.book.claims.ClaimFailed
        If the difference does not simplify to zero
        (as :func:`stumplib.book.claims.check`).
    """
    difference = sp.simplify(sp.sympify(derived) - sp.sympify(closed))
    measured = float(difference) if difference.is_number else float("nan")
    return claims.check(
        claim_id,
        measured,
        0.0,
        0.0,
        f"SymPy: {what} = {sp.sstr(closed)} (the derived expression minus this "
        "closed form simplifies to 0)",
        evidence="exact",
        key=key,
        sides=sides,
    )
