"""SymPy reduction of the population gradient flow to one equation for the scale ``b``.

Chapter 4. For large ``b`` the population loss of uniform features has a two-scale
form near the calibrated offset,

    L(a, b) = 1/b² + Φ(ξ)/b³ + Ψ(ξ)/b⁴ + ...,      ξ = b^m e^{-(a - p b)},

where the *valley coordinate* ``ξ`` measures the leakage of negatives: under an
interior prior ``U[lo, hi]`` the valley has slope ``p = hi`` and ``m = 1``
(``ξ = b e^{-(a - hi b)}``); under the full prior ``U[0, 1]`` it has ``p = 1`` and
``m = 2`` (``ξ = b² e^{-(a - b)}``, the weight of the inner layer at ``s = 1``).
:func:`interior_expansion` and :func:`full_expansion` derive ``Φ`` and ``Ψ`` from
the exact infinite-context estimate by series and integration.

:func:`reduce_flow` then finds the invariant slow curve ``a = h(b)`` of the flow
``(ȧ, ḃ) = -∇L``, i.e. ``∂L/∂a = h'(b) ∂L/∂b`` order by order in ``1/b``, and the
one-dimensional equation ``ḃ = (κ/4) b^{-3} (1 + e/b + O(b^{-2}))`` that the flow
obeys on it. Hence ``b⁴/t → κ = 8/(1 + p²)`` with the ``1/b`` correction
``b⁴/t ≈ κ (1 + 4e/(3b))``, and the RMS threshold error ``√L`` times ``t^{1/4}``
tends to ``κ^{-1/4}``.
"""

from dataclasses import dataclass

import numpy as np
import sympy as sp

b = sp.Symbol("b", positive=True)
eps = sp.Symbol("epsilon", positive=True)  # 1/b
xi = sp.Symbol("xi", positive=True)
r = sp.Symbol("r", positive=True)  # e^{-(a - p b)} (interior) or the layer weight (full)
w = sp.Symbol("w", nonnegative=True)
Q = sp.Symbol("Q", positive=True)
u = sp.Symbol("u", positive=True)
c = sp.Symbol("c", positive=True)
k = sp.Symbol("k", integer=True, positive=True)
lo_, hi_ = sp.symbols("lo hi", positive=True)


@dataclass(frozen=True)
class LossExpansion:
    """``L = 1/b² + Φ(ξ)/b³ + Ψ(ξ)/b⁴`` with ``ξ = b^m e^{-(a - p b)}``.

    Attributes
    ----------
    name : str
        Which prior.
    p, m : sympy.Expr
        Valley slope and power of ``b`` in the valley coordinate.
    phi, psi : sympy.Expr
        ``Φ(ξ)`` and ``Ψ(ξ)`` (functions of :data:`xi`).
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
        """The expansion as a SymPy expression in :data:`xi` and :data:`b`."""
        return 1 / b**2 + self.phi / b**3 + self.psi / b**4

    def coordinate(self, a, b_):
        """The valley coordinate ``ξ = b^m e^{-(a - p b)}`` (SymPy or NumPy arguments)."""
        m, p = float(self.m), float(self.p)
        return np.exp(m * np.log(b_) - (np.asarray(a, dtype=float) - p * np.asarray(b_)))

    def numeric_loss(self):
        """A NumPy function ``(a, b) -> L`` evaluating the two-term expansion."""
        f = sp.lambdify((xi, b), sp.N(self.loss()), modules="numpy")
        return lambda a, b_: f(self.coordinate(a, b_), b_)


def _check_interior(lo, hi):
    lo, hi = sp.nsimplify(lo), sp.nsimplify(hi)
    if not (0 < lo < hi < 1):
        raise ValueError(f"an interior prior needs 0 < lo < hi < 1 (got lo={lo}, hi={hi})")
    return lo, hi


def interior_expansion(lo=sp.Rational(1, 10), hi=sp.Rational(9, 10)):
    """Derive ``Φ`` and ``Ψ`` for the interior prior ``U[lo, hi]`` (uniform features).

    For ``s`` in ``[lo, hi]`` the estimate is ``ŝ - s = 1/b - s σ(-(a - b s))`` up to
    terms exponentially small in ``b`` (chapter 3). With ``w = b (hi - s)`` and
    ``r = e^{-(a - hi b)}`` the leakage is ``σ = r e^{-w}/(1 + r e^{-w})``, expanded to
    third order in ``r``; the ``w``-integrals run to ``b (hi - lo) → ∞`` (exponentially
    small error); finally ``r = ξ/b`` and the result is expanded in ``1/b``.

    Parameters
    ----------
    lo, hi : number
        Prior bounds, ``0 < lo < hi < 1`` (kept exact as rationals).

    Returns
    -------
    LossExpansion
    """
    lo, hi = _check_interior(lo, hi)
    s_of_w = hi - w / b
    leak = sum((-1) ** (j + 1) * r**j * sp.exp(-j * w) for j in range(1, 4))
    integrand = (-2 * s_of_w * leak / b + s_of_w**2 * leak**2) / b
    integrand = sp.expand(sp.series(integrand, r, 0, 4).removeO())
    integral = sp.integrate(integrand, (w, 0, sp.oo))
    excess = sp.expand(integral.subs(r, xi * eps).subs(b, 1 / eps) / (hi - lo))
    excess = sp.series(excess, eps, 0, 5).removeO()
    phi = sp.factor(excess.coeff(eps, 3))
    psi = sp.factor(excess.coeff(eps, 4))
    steps = {"leakage series": leak, "integrand": integrand,
             "integral over w": sp.collect(sp.expand(integral), r)}
    return LossExpansion(f"U[{lo}, {hi}]", hi, sp.Integer(1), phi, psi, steps)


def full_expansion():
    """Derive ``Φ`` and ``Ψ`` for the full prior ``U[0, 1]`` (uniform features).

    Near ``s = 1`` write ``Q = b (1 - s)``. The positives' kernel bias is
    ``g(Q)/b`` with ``g = 1 - Q/(e^Q - 1)``, and the share of the negatives is
    ``1 - π = 1/(1 + (e^Q - 1)/r)`` with ``r = e^{-(a - b)}``. Then

        ŝ - s = g/b - (1 - π)(s - 1/b + g/b),

    and the loss is assembled from three integrals over ``Q``: the bias deficit
    ``∫ (g² - 1) = -2 ζ(3)``, the cross term ``∫ g/(e^Q - 1) = π²/6 - 1`` and the
    inner layer ``∫ (1 - π)² = r + O(r² log r)``. With ``r = ξ/b²`` this gives
    ``L = 1/b² + (ξ - 2ζ(3))/b³ - (π²/3) ξ/b⁴ + O(log b / b⁵)``.

    Returns
    -------
    LossExpansion
    """
    # (A) bias deficit: Q/(e^Q-1) = sum_k Q e^{-kQ}, (Q/(e^Q-1))^2 = sum_{k>=2} (k-1) Q^2 e^{-kQ}
    term1 = -2 * sp.Sum(sp.integrate(Q * sp.exp(-k * Q), (Q, 0, sp.oo)), (k, 1, sp.oo))
    term2 = sp.Sum((k - 1) * sp.integrate(Q**2 * sp.exp(-k * Q), (Q, 0, sp.oo)), (k, 2, sp.oo))
    deficit = sp.simplify(term1.doit() + term2.doit())
    # (B) cross term: g/(e^Q-1) = d/dQ[Q/(e^Q-1)] + Q/(e^Q-1)
    g = 1 - Q / (sp.exp(Q) - 1)
    antider = Q / (sp.exp(Q) - 1)
    identity = sp.simplify(g / (sp.exp(Q) - 1) - sp.diff(antider, Q) - antider)
    boundary = sp.limit(antider, Q, sp.oo) - sp.limit(antider, Q, 0)
    bose = sp.Sum(sp.integrate(Q * sp.exp(-k * Q), (Q, 0, sp.oo)), (k, 1, sp.oo)).doit()
    cross = boundary + bose
    # (C) inner layer: with u = e^Q, ∫ dQ/(1 + (e^Q-1)/r)^2 = r^2 ∫_1^∞ du/(u (u - c)^2), c = 1 - r
    parts = sp.apart(1 / (u * (u - c) ** 2), u)
    anti = sp.integrate(parts, u)
    layer = sp.simplify(r**2 * (sp.limit(anti, u, sp.oo) - anti.subs(u, 1)).subs(c, 1 - r))
    layer_series = sp.series(layer, r, 0, 2).removeO()
    # Assemble: (1/b)∫dQ [g²/b² - 2 g (1-π)/b² · (1 + O(1/b)) + (1-π)² (1 - 2(Q + Q/(e^Q-1))/b)]
    # where Q + Q/(e^Q-1) -> 1 in the layer (Q ~ r), and 1 - π ≈ r/(e^Q - 1) outside it.
    lead = sp.Symbol("r")
    loss = (eps**2 * (1 / eps + deficit) * eps           # (1/b^3) ∫ g^2 over Q in [0, b]
            - 2 * eps**2 * cross * lead                   # cross term
            + eps * layer_series.subs(r, lead)            # layer
            - 2 * eps**2 * lead)                          # layer times -2/b
    loss = sp.expand(loss.subs(lead, xi * eps**2))
    loss = sp.series(loss, eps, 0, 5).removeO()
    phi = sp.simplify(loss.coeff(eps, 3))
    psi = sp.simplify(loss.coeff(eps, 4))
    steps = {"bias deficit": deficit, "cross identity residual": identity,
             "cross term": sp.simplify(cross), "layer": layer, "layer series": layer_series}
    return LossExpansion("U[0, 1]", sp.Integer(1), sp.Integer(2), phi, psi, steps)


@dataclass(frozen=True)
class Reduction:
    """The slow curve and the one-dimensional equation for ``b``.

    Attributes
    ----------
    xi0, xi1 : sympy.Expr
        The slow curve ``ξ(b) = ξ0 + ξ1/b + O(b^{-2})`` (``a = p b + m log b - log ξ``).
    xi_valley : sympy.Expr or None
        The valley ``∂L/∂a = 0`` at leading order (``None`` if the loss decreases in
        ``a``, as under the full prior).
    kappa : sympy.Expr
        ``b⁴/t → κ``.
    e : sympy.Expr
        ``ḃ = (κ/4) b^{-3} (1 + e/b + ...)``.
    phi0 : sympy.Expr
        ``Φ(ξ0)``: the loss along the slow curve is ``(1 + Φ0/b)/b²``.
    invariance : dict
        The invariance equations at orders ``b^{-3}`` and ``b^{-4}``.
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
        """``d`` in ``b⁴/t = κ (1 + d/b + O(b^{-2}))``, i.e. ``4e/3``."""
        return sp.Rational(4, 3) * self.e

    @property
    def rms_constant(self):
        """``lim √L · t^{1/4} = κ^{-1/4}``."""
        return self.kappa ** sp.Rational(-1, 4)

    @property
    def rms_correction(self):
        """``d`` in ``√L · t^{1/4} = κ^{-1/4} (1 + d/b + ...)``, i.e. ``Φ0/2 - e/3``."""
        return self.phi0 / 2 - self.e / 3

    @property
    def lag(self):
        """Offset of the slow curve from the valley in ``a``: ``-log(ξ0/ξ_valley)``."""
        return None if self.xi_valley is None else -sp.log(self.xi0 / self.xi_valley)


def partials(expansion):
    """``(∂L/∂a, ∂L/∂b)`` of the expansion as functions of ``ξ`` and ``ε = 1/b``.

    With ``ξ = b^m e^{-(a - p b)}``: ``∂ξ/∂a = -ξ`` and ``∂ξ/∂b = ξ (p + m/b)``.
    """
    loss = expansion.loss()
    l_xi = sp.diff(loss, xi)
    l_a = -xi * l_xi
    l_b = sp.diff(loss, b) + xi * (expansion.p + expansion.m / b) * l_xi
    return sp.expand(l_a.subs(b, 1 / eps)), sp.expand(l_b.subs(b, 1 / eps))


def reduce_flow(expansion):
    """Reduce the gradient flow to ``ḃ = (κ/4) b^{-3} (1 + e/b)`` on its slow curve.

    The slow curve ``a = h(b) = p b + m log b - log ξ(b)`` is invariant when the
    flow is tangent to it: ``-∂L/∂a = h'(b) (-∂L/∂b)``, with
    ``h' = p + m/b + O(b^{-2})``. Writing ``ξ = ξ0 + ξ1/b`` and expanding in ``1/b``,
    order ``b^{-3}`` fixes ``ξ0`` and order ``b^{-4}`` fixes ``ξ1``; then
    ``ḃ = -∂L/∂b`` on the curve.

    Parameters
    ----------
    expansion : LossExpansion

    Returns
    -------
    Reduction
    """
    x0 = sp.Symbol("xi_0", positive=True)
    x1 = sp.Symbol("xi_1", real=True)
    l_a, l_b = partials(expansion)
    h_prime = expansion.p + expansion.m * eps
    on_curve = {xi: x0 + x1 * eps}
    tangency = sp.series((l_a - h_prime * l_b).subs(on_curve), eps, 0, 5).removeO()
    order3, order4 = sp.expand(tangency.coeff(eps, 3)), sp.expand(tangency.coeff(eps, 4))
    roots = [z for z in sp.solve(order3, x0) if z.is_positive]
    if len(roots) != 1:
        raise ValueError(f"expected one positive slow-curve root, got {roots}")
    xi0 = sp.simplify(roots[0])
    xi1 = sp.simplify(sp.solve(order4.subs(x0, xi0), x1)[0])
    rate = sp.series((-l_b).subs(on_curve), eps, 0, 5).removeO()
    c3 = sp.simplify(rate.coeff(eps, 3).subs(x0, xi0))
    c4 = sp.simplify(rate.coeff(eps, 4).subs({x0: xi0, x1: xi1}))
    valley = [z for z in sp.solve(sp.diff(expansion.phi, xi), xi) if z.is_positive]
    return Reduction(xi0, xi1, valley[0] if valley else None, sp.simplify(4 * c3),
                     sp.simplify(c4 / c3), sp.simplify(expansion.phi.subs(xi, xi0)),
                     {"order 3": order3, "order 4": order4})


def shared_descent_kappa(p, c=1):
    """The shared-descent formula ``κ = 8C/(1 + p²)`` (``L ≈ C/b²`` along slope ``p``)."""
    return sp.Rational(8) * sp.nsimplify(c) / (1 + sp.nsimplify(p) ** 2)
