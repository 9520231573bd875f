r"""Exact risks with an empty side: the edge failure and reflected symmetrization.

SymPy.

:mod:`stumplib.symbolic.risks` derives the risks of the nearest-positive and midpoint
rules under the conventions :math:`R = 1` (no positive) and :math:`L = 0` (no negative).
The softmax head and its symmetrizations behave differently exactly on those events, so
their risks are the risks of :mod:`~stumplib.symbolic.risks` with the two *edge terms*
replaced.

**No positive.** With :math:`N` uniform features and threshold :math:`s`, every feature
lies in :math:`[0, s]` with probability :math:`s^N`. On that event write the two gaps as
the SymPy symbols ``C`` :math:`= s - \max_i x_i` and ``D`` :math:`= \min_i x_i`. The
event that ``C`` exceeds :math:`u`, ``D`` exceeds :math:`v` and no feature is positive
says that every feature lies in :math:`(v, s - u]`, so its probability is

.. math::

    (s - u - v)^N \quad \text{for } u, v \ge 0,\ u + v < s,

the gap law of :mod:`~stumplib.symbolic.risks` with the unit interval replaced by
:math:`[0, s]`; all moments restricted to the event follow as in
:mod:`~stumplib.symbolic.risks`.

**No negative.** The mirror :math:`x \mapsto 1 - x`, :math:`s \mapsto 1 - s` maps it
onto the first event: there ``C'`` :math:`= \min_i x_i - s` (the gap to the nearest
positive) and ``D'`` :math:`= 1 - \max_i x_i`, and its moments are those above with
:math:`s \mapsto 1 - s`.

A rule's error on each event is a polynomial in ``C``, ``D`` (or ``C'``, ``D'``) and
:math:`s`; its risk is the :mod:`~stumplib.symbolic.risks` risk of the convention rule,
minus the convention's edge terms, plus the rule's own.
"""

from functools import cache

import sympy as sp

from . import risks

s, u, v, N = risks.s, risks.u, risks.v, risks.N
C, D = sp.symbols("C D", nonnegative=True)


def empty_side_survival():
    r""":math:`P(C > u, D > v, \text{no positive}) = (s - u - v)^N`.

    Returns
    -------
    sympy.Expr
        In the module's symbols ``s``, ``u``, ``v`` and ``N``.
    """
    return (s - u - v) ** N


@cache
def empty_side_moments():
    r"""Moments of ``C`` and ``D`` restricted to the event "no positive example".

    Returns
    -------
    dict
        Keys ``1, C, D, C**2, D**2, C*D``; values are the key's expectations
        restricted to the event, as functions of :math:`s` and :math:`N`, each
        obtained by integrating the survival function (:math:`\mathbb E[X] = \int P(X >
        u) du`, :math:`\mathbb E[X^2] = \int 2u P(X > u) du`, :math:`\mathbb E[XY] =
        \int \int P(X > u, Y > v) du dv`).
    """
    surv = empty_side_survival()
    moments = {
        sp.Integer(1): surv.subs({u: 0, v: 0}),
        C: sp.integrate(surv.subs(v, 0), (u, 0, s)),
        D: sp.integrate(surv.subs(u, 0), (v, 0, s)),
        C**2: sp.integrate(2 * u * surv.subs(v, 0), (u, 0, s)),
        D**2: sp.integrate(2 * v * surv.subs(u, 0), (v, 0, s)),
        C * D: sp.integrate(sp.integrate(surv, (v, 0, s - u)), (u, 0, s)),
    }
    return {key: sp.factor(sp.simplify(value)) for key, value in moments.items()}


def edge_term(error):
    r"""The edge term :math:`\mathbb E[e^2;\ \text{no positive}]`, :math:`e` the error.

    For an error polynomial in ``C``, ``D`` and :math:`s`.

    Parameters
    ----------
    error : sympy.Expr
        The rule's estimate minus ``s`` on the event, of degree at most 1 in ``C``,
        ``D``.

    Raises
    ------
    ValueError
        If ``error`` depends on symbols other than ``C``, ``D`` and ``s``, or is of
        degree above 1 in ``C`` and ``D``.
    """
    error = sp.sympify(error)
    if not error.free_symbols <= {C, D, s}:
        raise ValueError(
            f"error may depend on C, D and s only (got {error.free_symbols})"
        )
    square = sp.Poly(sp.expand(error**2), C, D)
    if square.total_degree() > 2:
        raise ValueError("error must be of degree at most 1 in C and D")
    moments = empty_side_moments()  # cached: returned dict must not be mutated
    total = sum(coef * moments[C**i * D**j] for (i, j), coef in square.terms())
    return sp.factor(sp.simplify(sp.expand(total)))


def mirrored(expr):
    r"""``expr`` with :math:`s \mapsto 1 - s` (the same quantity on the mirrored event).

    Parameters
    ----------
    expr : sympy.Expr or str
        An expression in ``s`` (sympified).

    Returns
    -------
    sympy.Expr
    """
    return sp.sympify(expr).subs(s, 1 - s)


# Each rule's error on the event "no positive" (in C, D) and, in the mirrored
# coordinates C', D', s' = 1 - s, on the event "no negative" (written again with C, D,
# s). The convention rules of stumplib.symbolic.risks are listed with their names there.
EDGE_ERRORS = {
    # nearest positive with R = 1 when there is none; R = s + C' on "no negative"
    "nearest_positive": (1 - s, C),
    # midpoint with L = 0, R = 1 conventions: (L + R)/2 - s; equivariant under the
    # mirror
    "midpoint": ((1 - s - C) / 2, (1 - s - C) / 2),
    # the head's hard limit: min x = D when there is no positive
    "head": (D - s, C),
    # the mirrored head: L = s - C, and max x = 1 - D' when there is no negative
    "mirror": (-C, D - s),
    # the average of head and mirror: (min + max)/2 on an empty side
    "average": ((D - C - s) / 2, (D - C - s) / 2),
    # the evidence-aware combination: the side that has evidence
    "evidence": (-C, C),
}
CONVENTION = {
    "head": "nearest_positive",
    "mirror": "nearest_positive",
    "average": "midpoint",
    "evidence": "midpoint",
    "midpoint": "midpoint",
    "nearest_positive": "nearest_positive",
}


@cache
def risk(rule):
    r"""Exact risk :math:`\mathbb E(\hat s-s)^2` of a rule at fixed ``s`` and ``N``.

    Parameters
    ----------
    rule : str
        ``"head"`` (hard limit of the head), ``"mirror"`` (hard limit of the mirrored
        head), ``"average"`` (their average), ``"evidence"`` (the evidence-aware
        combination's hard limit) or the convention rules ``"nearest_positive"`` and
        ``"midpoint"`` (Bayes under a uniform prior).

    Returns
    -------
    sympy.Expr

    Raises
    ------
    ValueError
        If ``rule`` is not one of the rules of ``EDGE_ERRORS``.
    """
    if rule not in EDGE_ERRORS:
        raise ValueError(f"rule must be one of {tuple(EDGE_ERRORS)} (got {rule!r})")
    if rule == "mirror":
        return sp.factor(mirrored(risk("head")))
    base = CONVENTION[rule]
    conv_hi, conv_lo = EDGE_ERRORS[base]
    rule_hi, rule_lo = EDGE_ERRORS[rule]
    change = (
        edge_term(rule_hi)
        - edge_term(conv_hi)
        + mirrored(edge_term(rule_lo) - edge_term(conv_lo))
    )
    return sp.factor(sp.simplify(sp.expand(risks.risks()[base] + change)))


def integrated_leading(expr):
    r"""The leading order :math:`(p, c)` of the integrated risk.

    :math:`\int_0^1 r\, ds \sim c / N^p` as :math:`N \to \infty`, :math:`r` the
    ``expr`` (:math:`p` in 1, 2, 3).

    Parameters
    ----------
    expr : sympy.Expr
        A risk in :math:`s` and :math:`N`.

    Returns
    -------
    p : int
        The leading power of :math:`1/N`.
    c : sympy.Expr
        Its constant.

    Raises
    ------
    ValueError
        If the integrated risk decays faster than :math:`1/N^3`.
    """
    avg = risks.integrated(expr)
    for power in (1, 2, 3):
        c = risks.leading_constant(avg, power)
        if c != 0:
            return power, c
    raise ValueError("the integrated risk decays faster than 1/N^3")
