r"""SymPy derivation of the head's gradient as weighted moments (claim ``gradients``).

The head's estimate on a context of ``n`` examples is

.. math::

    \hat s=\frac{\sum_i x_i\,e^{a y_i-b x_i}}{\sum_i e^{a y_i-b x_i}},

and differentiating the quotient gives
:math:`\partial\hat s/\partial a=\operatorname{Cov}_w(x,y)` and
:math:`\partial\hat s/\partial b=-\operatorname{Var}_w(x)` with ``w`` the softmax
weights. This module builds the
estimate either for a *symbolic* context size (``IndexedBase`` features and labels
inside unevaluated ``Sum`` objects, so the identity is proved for every ``n`` at
once) or for a concrete ``n`` (explicit symbols ``x_1, ..., x_n``), differentiates
it, and checks both identities by simplifying the differences to zero.
"""

from dataclasses import dataclass

import sympy as sp

from .. import validation

a, b = sp.symbols("a b", real=True)
n = sp.Symbol("n", integer=True, positive=True)
i = sp.Symbol("i", integer=True, positive=True)
x, y = sp.IndexedBase("x"), sp.IndexedBase("y")

#: A concrete context size; ``None`` (where allowed) for a symbolic size ``n``.
_SIZE = validation.Integer()
_SIZE_OR_SYMBOLIC = validation.Integer(optional=True)


@dataclass(frozen=True)
class Derivation:
    r"""The steps of the gradient derivation for one context size.

    Attributes
    ----------
    estimate : sympy.Expr
        :math:`\hat s` as a quotient of sums.
    d_a, d_b : sympy.Expr
        :math:`d \hat s / da` and :math:`d \hat s / db` as SymPy computes them.
    cov, neg_var : sympy.Expr
        :math:`\operatorname{Cov}_w(x, y)` and :math:`-\operatorname{Var}_w(x)` written
        with the softmax weights.
    residual_a, residual_b : sympy.Expr
        The simplified differences ``d_a - cov`` and ``d_b - neg_var`` (zero when
        the identities hold).
    """

    estimate: sp.Expr
    d_a: sp.Expr
    d_b: sp.Expr
    cov: sp.Expr
    neg_var: sp.Expr
    residual_a: sp.Expr
    residual_b: sp.Expr

    @property
    def holds(self):
        """``True`` if both residuals simplify to exactly zero."""
        return self.residual_a == 0 and self.residual_b == 0


@validation.constrained(size=_SIZE)
def context_symbols(size):
    """Explicit feature and label symbols ``(x_1..x_size), (y_1..y_size)``.

    Parameters
    ----------
    size : int
        Context size, at least 1.
    """
    xs = sp.symbols(f"x_1:{size + 1}", real=True)
    ys = sp.symbols(f"y_1:{size + 1}", real=True)
    return xs, ys


def _summer(size):
    r"""A map ``f(x_i, y_i) -> sum_i f`` for a symbolic (None) or concrete size."""
    if size is None:
        return lambda f: sp.Sum(f(x[i], y[i]), (i, 1, n))
    xs, ys = context_symbols(size)
    return lambda f: sp.Add(*(f(xk, yk) for xk, yk in zip(xs, ys)))


def score_weight(xi, yi):
    """The unnormalized attention weight :math:`e^{a y_i - b x_i}`.

    Parameters
    ----------
    xi, yi : sympy.Expr
        Feature and label of one example.

    Returns
    -------
    sympy.Expr
    """
    return sp.exp(a * yi - b * xi)


@validation.constrained(size=_SIZE_OR_SYMBOLIC)
def estimate(size=None):
    r"""The estimate :math:`\hat s` as a SymPy quotient of sums.

    Parameters
    ----------
    size : int or None
        Context size; ``None`` for a symbolic size ``n`` (unevaluated ``Sum``).
    """
    total = _summer(size)
    return total(lambda xi, yi: xi * score_weight(xi, yi)) / total(score_weight)


@validation.constrained(size=_SIZE_OR_SYMBOLIC)
def weighted_moments(size=None):
    r"""The gradient's two weighted moments under the softmax weights, in SymPy.

    :math:`\operatorname{Cov}_w(x, y)` and :math:`-\operatorname{Var}_w(x)`.

    Parameters
    ----------
    size : int or None
        Context size; ``None`` for a symbolic size ``n`` (unevaluated ``Sum``).

    Returns
    -------
    cov, neg_var : sympy.Expr
    """
    total = _summer(size)
    mass = total(score_weight)

    def mean(f):
        return total(lambda xi, yi: f(xi, yi) * score_weight(xi, yi)) / mass

    mean_x, mean_y = mean(lambda xi, yi: xi), mean(lambda xi, yi: yi)
    cov = mean(lambda xi, yi: xi * yi) - mean_x * mean_y
    neg_var = -(mean(lambda xi, yi: xi**2) - mean_x**2)
    return cov, neg_var


@validation.constrained(size=_SIZE_OR_SYMBOLIC)
def derive(size=None):
    r"""Differentiate :math:`\hat s` in ``a``, ``b``; compare with the weighted moments.

    Parameters
    ----------
    size : int or None
        Context size; ``None`` proves the identities for a symbolic size ``n``.

    Returns
    -------
    Derivation
    """
    s_hat = estimate(size)
    d_a, d_b = sp.diff(s_hat, a).doit(), sp.diff(s_hat, b).doit()
    cov, neg_var = weighted_moments(size)
    return Derivation(
        s_hat,
        d_a,
        d_b,
        cov,
        neg_var,
        sp.simplify(d_a - cov),
        sp.simplify(d_b - neg_var),
    )


@validation.constrained(size=_SIZE)
def gradient_function(size):
    r"""A NumPy function of ``(a, b, x, y)`` lambdified from the derivative.

    It returns :math:`(\partial \hat s/\partial a, \partial \hat s/\partial b)`.

    Used to test :func:`stumplib.head.gradient` against the symbolic derivative
    (at moderate scales; the lambdified quotient is not overflow-safe).

    Parameters
    ----------
    size : int
        Context size.
    """
    xs, ys = context_symbols(size)
    s_hat = estimate(size)
    derivs = [sp.diff(s_hat, a), sp.diff(s_hat, b)]
    f = sp.lambdify((a, b, xs, ys), derivs, modules="numpy")
    return lambda a_, b_, x_, y_: tuple(f(a_, b_, list(x_), list(y_)))
