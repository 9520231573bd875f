r"""Exact finite-N risks of threshold rules under uniform features (SymPy).

With :math:`N` uniform features and a threshold :math:`s`, write :math:`G_- = s - L`
and :math:`G_+ = R - s` for the distances from :math:`s` to the largest negative
:math:`L` (0 if none) and to the smallest positive :math:`R` (1 if none). The only event
that matters is "no feature in a window around :math:`s`", so their joint survival
function is

.. math::

    P(G_- > u, G_+ > v) = (1 - u - v)^N \quad \text{for } 0 \le u < s,\
    0 \le v < 1 - s,

and every moment follows from
:math:`\mathbb E[X Y] = \int \int P(X > u, Y > v)\, du\, dv` and
:math:`\mathbb E[X^2] = \int 2u P(X > u)\, du`.
"""

import sympy as sp

s, u, v = sp.symbols("s u v", positive=True)
N = sp.symbols("N", positive=True, integer=True)


def survival():
    r"""Joint survival function :math:`P(G_- > u, G_+ > v)` of the two gaps.

    Returns
    -------
    sympy.Expr
        :math:`(1 - u - v)^N` in the module's symbols.
    """
    return (1 - u - v) ** N


def gap_moments():
    r"""Moments :math:`\mathbb E[G_+^2]`, :math:`\mathbb E[G_-^2]`, a cross term.

    The cross term is :math:`\mathbb E[G_+ G_-]`; at a fixed threshold :math:`s`.

    Returns
    -------
    upper, lower, cross : sympy.Expr
        The three moments, factored, in :math:`s` and :math:`N`.
    """
    upper = sp.factor(sp.integrate(2 * v * survival().subs(u, 0), (v, 0, 1 - s)))
    lower = sp.factor(sp.integrate(2 * u * survival().subs(v, 0), (u, 0, s)))
    cross = sp.factor(sp.integrate(sp.integrate(survival(), (v, 0, 1 - s)), (u, 0, s)))
    return upper, lower, cross


def risks():
    r"""Exact risks at a fixed :math:`s`: nearest positive, gap midpoint, Bayes ratio.

    Returns
    -------
    dict
        ``"nearest_positive"``: :math:`\mathbb E (R - s)^2 = \mathbb E G_+^2`;
        ``"midpoint"``: :math:`\mathbb E ((L + R)/2 - s)^2 = \mathbb E (G_+ - G_-)^2 /
        4`;
        ``"gap_square"``: :math:`\mathbb E (R - L)^2 = \mathbb E (G_+ + G_-)^2`.
    """
    upper, lower, cross = gap_moments()
    return {
        "nearest_positive": upper,
        "midpoint": sp.factor(sp.expand((upper + lower - 2 * cross) / 4)),
        "gap_square": sp.factor(sp.expand(upper + lower + 2 * cross)),
    }


def integrated(expr):
    r"""Average of ``expr`` over :math:`s \sim U[0, 1]`.

    Parameters
    ----------
    expr : sympy.Expr
        An expression in :math:`s` (and :math:`N`).

    Returns
    -------
    sympy.Expr
    """
    return sp.factor(sp.simplify(sp.integrate(sp.expand(expr), (s, 0, 1))))


def interior(expr):
    """``expr`` with the edge terms :math:`s^{N+k}`, :math:`(1-s)^{N+k}` dropped.

    For a fixed interior threshold these decay geometrically in :math:`N`; what is
    left is the interior risk, a rational function of :math:`N`.

    Parameters
    ----------
    expr : sympy.Expr
        A risk in :math:`s` and :math:`N`.

    Returns
    -------
    sympy.Expr
    """
    dropped = sp.expand(expr).replace(
        lambda e: e.is_Pow and e.exp.has(N) and e.base.has(s), lambda e: sp.Integer(0)
    )
    return sp.factor(sp.simplify(dropped))


def leading_constant(expr, power=2):
    r"""The limit :math:`\lim_{N \to \infty} N^p e`, :math:`e` the ``expr``.

    For an expression free of :math:`s`; :math:`p` is the ``power``.

    Parameters
    ----------
    expr : sympy.Expr
        An expression in :math:`N`.
    power : int
        The power :math:`p` of :math:`N`.

    Returns
    -------
    sympy.Expr
    """
    return sp.limit(N**power * expr, N, sp.oo)


def numeric(expr):
    """A NumPy function ``f(s, N)`` of a risk expression.

    Parameters
    ----------
    expr : sympy.Expr
        A risk in :math:`s` and :math:`N`.

    Returns
    -------
    callable
    """
    return sp.lambdify((s, N), expr, "numpy")


s_bar = sp.Symbol(r"\bar{s}", positive=True)


def readable(expr):
    r"""``expr`` regrouped for display, with :math:`\bar s = 1 - s`.

    A rational prefactor times the interior constant plus one factored term per
    edge probability :math:`s^N` (no positive nearby) and :math:`\bar s^N` (no
    negative).

    Parameters
    ----------
    expr : sympy.Expr
        A risk in :math:`s` and :math:`N`.

    Returns
    -------
    sympy.Expr
    """
    hi, lo = sp.symbols("edge_hi edge_lo")
    num, den = sp.fraction(sp.factor(expr))
    num = sp.expand(num).subs({s**N: hi, (1 - s) ** N: lo})
    grouped = sp.collect(num, [hi, lo], evaluate=False)
    terms = []
    for key, coef in grouped.items():
        if key == hi:
            terms.append(sp.powsimp(sp.factor(coef) * s**N))
        elif key == lo:
            # A factor s_bar - 1 is -s: written in s, not as "((1 - s) - 1)".
            factors = sp.Mul.make_args(sp.factor(coef.subs(s, 1 - s_bar)))
            factored = sp.Mul(*(-s if f == s_bar - 1 else f for f in factors))
            terms.append(sp.powsimp(factored * s_bar**N))
        else:
            terms.append(coef * key)
    return sp.Add(*terms) / den
