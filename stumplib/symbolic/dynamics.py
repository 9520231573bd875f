r"""SymPy reduction of the population gradient flow to one equation for the scale.

For large :math:`b` the population loss of uniform features has a two-scale
form near the calibrated offset,

.. math::

    L(a,b)=\frac1{b^2}+\frac{\Phi(\xi)}{b^3}+\frac{\Psi(\xi)}{b^4}+\dots,\qquad
    \xi=b^m e^{-(a-p\,b)},

where the *valley coordinate* :math:`\xi` measures the leakage of negatives: under an
interior prior :math:`U[\mathrm{lo}, \mathrm{hi}]` the valley has slope
:math:`p = \mathrm{hi}` and :math:`m = 1` (:math:`\xi = b e^{-(a - \mathrm{hi} b)}`);
under the full prior :math:`U[0, 1]` it has :math:`p = 1` and :math:`m = 2`
(:math:`\xi = b^2 e^{-(a - b)}`, the weight of the inner layer at :math:`s = 1`).
:func:`interior_expansion` and :func:`full_expansion` read :math:`\Phi` and
:math:`\Psi` off the derivations in :mod:`stumplib.symbolic.population` (a change of
variables to :math:`\xi`; the series and integrals are derived there).

:func:`reduce_flow` then finds the invariant slow curve :math:`a = h(b)` of the flow
:math:`(\dot a, \dot b) = -\nabla L`, i.e. :math:`\partial L/\partial a = h'(b)\,
\partial L/\partial b` order by order in :math:`1/b`, and the one-dimensional equation
:math:`\dot b = (\kappa /4) b^{-3} (1 + e/b + O(b^{-2}))` that the flow obeys on it.
Hence :math:`b^4/t \to \kappa = 8/(1 + p^2)` with the :math:`1/b` correction
:math:`b^4/t \approx \kappa (1 + 4e/(3b))`, and the RMS threshold error
:math:`\sqrt{L}` times :math:`t^{1/4}` tends to :math:`\kappa ^{-1/4}`.
"""

from dataclasses import dataclass

import numpy as np
import sympy as sp

from .. import validation
from . import population

b = sp.Symbol("b", positive=True)
eps = sp.Symbol("epsilon", positive=True)  # 1/b
xi = sp.Symbol("xi", positive=True)


@dataclass(frozen=True)
class LossExpansion:
    r"""The expansion :math:`L = 1/b^2 + \Phi(\xi)/b^3 + \Psi(\xi)/b^4`.

    With :math:`\xi = b^m e^{-(a - p b)}`.

    Attributes
    ----------
    name : str
        Which prior.
    p, m : sympy.Expr
        Valley slope :math:`p` and power :math:`m` of :math:`b` in the valley
        coordinate.
    phi, psi : sympy.Expr
        :math:`\Phi(\xi)` and :math:`\Psi(\xi)` (functions of the symbol ``xi``).
    steps : dict
        Intermediate results of the derivation (for display), name -> expression.
    """

    name: str
    p: sp.Expr
    m: sp.Expr
    phi: sp.Expr
    psi: sp.Expr
    steps: dict

    def loss(self):
        """The expansion as a SymPy expression in ``xi`` and ``b``."""
        return 1 / b**2 + self.phi / b**3 + self.psi / b**4

    @validation.constrained(a=validation.Finite(), b_=validation.Positive())
    def coordinate(self, a, b_):
        r"""Valley coordinate :math:`\xi=b^m e^{-(a-pb)}` at real ``a``, ``b_ > 0``.

        Raises
        ------
        ValueError
            Where :math:`\xi` is beyond the floats (``a`` far below the valley
            ``p b_``, its exponent above about 709: there the expansion does not apply).
        """
        m, p = float(self.m), float(self.p)
        with np.errstate(over="ignore", invalid="ignore"):
            xi_ = np.exp(m * np.log(b_) - (a - p * b_))
        if not np.all(np.isfinite(xi_)):
            raise ValueError(
                "a and b_ put the valley coordinate xi = b_^m exp(-(a - p b_)) beyond "
                "the floats (a far below the valley p b_)"
            )
        return xi_

    def numeric_loss(self):
        """A NumPy function of ``(a, b)`` evaluating the two-term expansion of L."""
        f = sp.lambdify((xi, b), sp.N(self.loss()), modules="numpy")
        return lambda a, b_: f(self.coordinate(a, b_), b_)


_INTERIOR = "an interior prior needs 0 < lo < hi < 1"


def _bound(value, name):
    """A prior bound in (0, 1), as an exact SymPy number."""
    if isinstance(value, sp.Basic):
        if not (value.is_number and value.is_real):
            raise TypeError(f"{name} must be a real number (got {value})")
    else:
        value = validation.scalar(value, name)
    exact = sp.nsimplify(value)
    if not 0 < exact < 1:
        raise ValueError(f"{name} must lie in (0, 1): {_INTERIOR} (got {exact})")
    return exact


#: A bound of an interior prior, kept exact.
_BOUND = validation.Constraint(
    _bound,
    ((None, TypeError), ("0.5", TypeError), (sp.I, TypeError), (np.nan, ValueError),
     (0, ValueError), (1.0, ValueError), ([0.5, 0.5], ValueError)),
)  # fmt: skip


def _ordered(values):
    if not values["lo"] < values["hi"]:
        raise ValueError(
            f"lo must be below hi: {_INTERIOR} (got lo={values['lo']}, "
            f"hi={values['hi']})"
        )


_TENTH, _NINE_TENTHS = sp.Rational(1, 10), sp.Rational(9, 10)


@validation.constrained(_ordered, lo=_BOUND, hi=_BOUND)
def interior_expansion(lo=_TENTH, hi=_NINE_TENTHS):
    r""":math:`\Phi` and :math:`\Psi` for the interior prior (uniform features).

    The prior is :math:`U[\mathrm{lo}, \mathrm{hi}]`.
    :func:`stumplib.symbolic.population.interior_valley` derives, with
    :math:`a = \mathrm{hi}\, b + \log b - \log g` and exactly up to terms exponentially
    small in :math:`b`, :math:`(\mathrm{hi} - \mathrm{lo})\, b^2 L = (\mathrm{hi} -
    \mathrm{lo}) + F(g, 1/b)/b`, where :math:`F` integrates the leakage over the layer
    :math:`s = \mathrm{hi} - v/b` below the top of the prior. Its valley coordinate
    :math:`g` is this module's :math:`\xi` (:math:`m = 1`), so :math:`\Phi` and
    :math:`\Psi` are the first two coefficients of :math:`F` in :math:`1/b`, divided by
    :math:`\mathrm{hi} - \mathrm{lo}`.

    Parameters
    ----------
    lo, hi : number
        Prior bounds, :math:`0 < \mathrm{lo} < \mathrm{hi} < 1` (kept exact as
        rationals).

    Returns
    -------
    LossExpansion

    Raises
    ------
    ValueError, TypeError
        If ``lo`` or ``hi`` is not a real number, or not
        :math:`0 < \mathrm{lo} < \mathrm{hi} < 1`.
    """
    lo, hi = sp.nsimplify(lo), sp.nsimplify(hi)  # exact, from inside the library too
    valley = population.interior_valley(order=1)
    F = sp.expand(valley.F.subs({population.hi: hi, population.g: xi}))
    phi = sp.factor(F.coeff(population.h, 0) / (hi - lo))
    psi = sp.factor(F.coeff(population.h, 1) / (hi - lo))
    steps = {"layer integrand": valley.layer_integrand, "F": valley.F}
    return LossExpansion(f"U[{lo}, {hi}]", hi, sp.Integer(1), phi, psi, steps)


def full_expansion():
    r"""The functions :math:`\Phi`, :math:`\Psi` for the full prior :math:`U[0, 1]`.

    :func:`stumplib.symbolic.population.full_prior` derives
    :math:`b^2 L(\infty, b) = 1 - 2\zeta(3)/b` (up to :math:`e^{-b}`) and, to first
    order in :math:`\nu = e^{-(a - b)}`, the excess
    :math:`L(a, b) - L(\infty, b) = (\nu/b)\, G(b)` with
    :math:`G = 1 - (\pi^2/3)/b + \ldots` from the inner layer at :math:`s = 1`. With
    :math:`\nu = \xi/b^2` (:math:`m = 2`) the terms of order :math:`\nu^2` are
    :math:`O(\log b / b^5)`, so :math:`\Phi = \xi - 2\zeta(3)` and
    :math:`\Psi = -(\pi^2/3)\, \xi`.

    Returns
    -------
    LossExpansion
    """
    full = population.full_prior()
    excess = sp.expand(full.excess.subs(population.b, 1 / eps))
    phi = xi + full.bias_integral
    psi = sp.simplify(xi * excess.coeff(eps, 1))
    steps = {
        "bias integral": full.bias_integral,
        "J": full.J,
        "K": full.K,
        "excess G(b)": full.excess,
    }
    return LossExpansion("U[0, 1]", sp.Integer(1), sp.Integer(2), phi, psi, steps)


@dataclass(frozen=True)
class Reduction:
    r"""The slow curve and the one-dimensional equation for :math:`b`.

    Attributes
    ----------
    xi0, xi1 : sympy.Expr
        The slow curve :math:`\xi (b) = \xi_0 + \xi_1/b + O(b^{-2})`
        (:math:`a = p b + m \log b - \log \xi`).
    xi_valley : sympy.Expr or None
        The valley :math:`\partial L/\partial a = 0` at leading order (``None`` if the
        loss decreases in :math:`a`, as under the full prior).
    kappa : sympy.Expr
        :math:`\kappa = \lim b^4/t`.
    e : sympy.Expr
        :math:`\dot b = (\kappa /4) b^{-3} (1 + e/b + ...)`.
    phi0 : sympy.Expr
        :math:`\Phi_0 = \Phi(\xi_0)`: the loss along the slow curve is
        :math:`(1 + \Phi_0/b)/b^2`.
    invariance : dict
        The invariance equations at orders :math:`b^{-3}` and :math:`b^{-4}`.
    """

    xi0: sp.Expr
    xi1: sp.Expr
    xi_valley: object
    kappa: sp.Expr
    e: sp.Expr
    phi0: sp.Expr
    invariance: dict

    @property
    def ratio_correction(self):
        r"""The :math:`d` of :math:`b^4/t = \kappa (1 + d/b + \ldots)`: :math:`4e/3`."""
        return sp.Rational(4, 3) * self.e

    @property
    def rms_constant(self):
        r""":math:`\lim \sqrt L \cdot t^{1/4} = \kappa ^{-1/4}`."""
        return self.kappa ** sp.Rational(-1, 4)

    @property
    def rms_correction(self):
        r""":math:`d=\Phi_0/2-e/3` in :math:`\sqrt L\,t^{1/4}=\kappa^{-1/4}(1+d/b)`."""
        return self.phi0 / 2 - self.e / 3

    @property
    def lag(self):
        r"""Lag of the slow curve behind the valley, :math:`-\log(\xi_0/\xi_v)` in a.

        :math:`\xi_v` is the valley's coordinate ``xi_valley``.
        """
        return None if self.xi_valley is None else -sp.log(self.xi0 / self.xi_valley)


_EXPANSION = validation.Instance(LossExpansion)


@validation.constrained(expansion=_EXPANSION)
def partials(expansion):
    r"""The partials of the expansion as functions of :math:`\xi` and :math:`1/b`.

    :math:`(\partial L/\partial a, \partial L/\partial b)`, with
    :math:`\xi = b^m e^{-(a - p b)}`: :math:`\partial \xi/\partial a = -\xi` and
    :math:`\partial \xi/\partial b = \xi (p + m/b)`.

    Parameters
    ----------
    expansion : LossExpansion
        The loss expansion to differentiate.

    Returns
    -------
    l_a, l_b : sympy.Expr
        The partials, expanded, in ``xi`` and ``eps``.
    """
    loss = expansion.loss()
    l_xi = sp.diff(loss, xi)
    l_a = -xi * l_xi
    l_b = sp.diff(loss, b) + xi * (expansion.p + expansion.m / b) * l_xi
    return sp.expand(l_a.subs(b, 1 / eps)), sp.expand(l_b.subs(b, 1 / eps))


@validation.constrained(expansion=_EXPANSION)
def reduce_flow(expansion):
    r"""Reduce the gradient flow on its slow curve to one equation for :math:`b`.

    That is, :math:`\dot b = (\kappa/4) b^{-3} (1 + e/b)`.

    The slow curve :math:`a = h(b) = p b + m \log b - \log \xi(b)` is invariant when
    the flow is tangent to it: :math:`-\partial L/\partial a = h'(b)
    (-\partial L/\partial b)`, with :math:`h' = p + m/b + O(b^{-2})`. Writing
    :math:`\xi = \xi_0 + \xi_1/b` and expanding in :math:`1/b`, order :math:`b^{-3}`
    fixes :math:`\xi_0` and order :math:`b^{-4}` fixes :math:`\xi_1`; then
    :math:`\dot b = -\partial L/\partial b` on the curve.

    Parameters
    ----------
    expansion : LossExpansion

    Returns
    -------
    Reduction

    Raises
    ------
    TypeError
        If ``expansion`` is not a :class:`LossExpansion`.
    ValueError
        If the slow curve has no single positive root.
    """
    x0 = sp.Symbol("xi_0", positive=True)
    x1 = sp.Symbol("xi_1", real=True)
    l_a, l_b = partials(expansion)
    h_prime = expansion.p + expansion.m * eps
    on_curve = {xi: x0 + x1 * eps}
    tangency = sp.series((l_a - h_prime * l_b).subs(on_curve), eps, 0, 5).removeO()
    order3, order4 = (
        sp.expand(tangency.coeff(eps, 3)),
        sp.expand(tangency.coeff(eps, 4)),
    )
    roots = [z for z in sp.solve(order3, x0) if z.is_positive]
    if len(roots) != 1:
        raise ValueError(f"expected one positive slow-curve root, got {roots}")
    xi0 = sp.simplify(roots[0])
    xi1 = sp.simplify(sp.solve(order4.subs(x0, xi0), x1)[0])
    rate = sp.series((-l_b).subs(on_curve), eps, 0, 5).removeO()
    c3 = sp.simplify(rate.coeff(eps, 3).subs(x0, xi0))
    c4 = sp.simplify(rate.coeff(eps, 4).subs({x0: xi0, x1: xi1}))
    valley = [z for z in sp.solve(sp.diff(expansion.phi, xi), xi) if z.is_positive]
    return Reduction(
        xi0,
        xi1,
        valley[0] if valley else None,
        sp.simplify(4 * c3),
        sp.simplify(c4 / c3),
        sp.simplify(expansion.phi.subs(xi, xi0)),
        {"order 3": order3, "order 4": order4},
    )


def shared_descent_kappa(p, c=1):
    r"""The shared-descent formula :math:`\kappa = 8c/(1 + p^2)`.

    For a loss :math:`L \approx c/b^2` along slope :math:`p`.

    Parameters
    ----------
    p : number or sympy.Expr
        Slope of the valley :math:`a \approx p b`.
    c : number or sympy.Expr
        The constant :math:`c` of the loss along the valley.

    Returns
    -------
    sympy.Expr
    """
    return sp.Rational(8) * sp.nsimplify(c) / (1 + sp.nsimplify(p) ** 2)
