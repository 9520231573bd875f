r"""SymPy derivation of the loss of a head trained alone and symmetrized afterwards.

The one-head population flow follows its slow curve, on which the valley coordinate
:math:`\xi = b^m e^{-(a - p b)}` tends to ``ξ0``
(:func:`stumplib.symbolic.dynamics.reduce_flow`).
Averaging that head with its mirror at the trained ``(a, b)`` cancels the kernel
bias ``1/b`` that holds the one-head loss at ``1/b²``; what is left is set by the
leakage the one-head calibration leaves, and it is of order ``1/b³``:

- **Full prior** ``U[0, 1]`` (``p = 1``, ``m = 2``, :math:`\nu = e^{-(a - b)} = \xi
  /b^2`). The
  symmetrized loss is ``L̄ = Z/b³ + Λ ν/b + ...`` (:mod:`stumplib.symbolic.symmetrized`:
  ``Z = ζ(2) - ζ(3)`` from the truncation of the kernels at both edges, ``Λ`` the cost
  of the inner layer), so ``b³ L̄ = Z + Λ ξ → Z + Λ ξ0``.
- **Interior prior** ``U[l, 1 - l]`` (``p = hi = 1 - l``, ``m = 1``). The two-layer loss
  ``L̄ = v² F(u/v, b)`` with the leakage :math:`u = \mathrm{hi} e^{-(a - b \mathrm{hi}
  )} = \mathrm{hi} \xi /b` and the
  truncation :math:`v = l e^{-b l}`; on the one-head curve ``v`` is exponentially small
  against ``u``, and ``v → 0`` leaves ``b³ L̄ → (hi ξ0)²/(4 (hi - lo))``.
"""

from dataclasses import dataclass

import sympy as sp

from . import dynamics, symmetrized

v = sp.Symbol("v", positive=True)  # the truncation l e^{-b l}
u = sp.Symbol("u", positive=True)  # the leakage hi e^{-(a - b hi)}


@dataclass(frozen=True)
class PosthocLimits:
    r"""Limits of ``b³ L̄`` at the one-head parameters, and their ingredients.

    Attributes
    ----------
    full : sympy.Expr
        ``lim b³ L̄`` under ``U[0, 1]``, derived: ``Z + Λ ξ0``.
    full_closed : sympy.Expr
        The closed form it is compared with, ``ζ(2) - ζ(3) + 1/2``.
    interior : sympy.Expr
        ``lim b³ L̄`` under ``U[l, 1 - l]``, from the two-layer loss as ``v → 0``.
    interior_closed : sympy.Expr
        The closed form it is compared with, ``(hi ξ0)²/(4 (hi - lo))``.
    Z, Lambda : sympy.Expr
        Truncation constant and inner-layer cost of the symmetrized loss.
    xi0_full, xi0_interior : sympy.Expr
        ``ξ0`` of the one-head slow curve under each prior.
    xi1_full, xi1_interior : sympy.Expr
        Its ``1/b`` coefficient: :math:`\xi = \xi_0 + \xi_1/b + O(b^{-2})`.
    edge : sympy.Expr
        The ``l`` of the interior prior ``U[l, 1 - l]``.
    """

    full: sp.Expr
    full_closed: sp.Expr
    interior: sp.Expr
    interior_closed: sp.Expr
    Z: sp.Expr
    Lambda: sp.Expr
    xi0_full: sp.Expr
    xi0_interior: sp.Expr
    xi1_full: sp.Expr
    xi1_interior: sp.Expr
    edge: sp.Expr

    def differences(self):
        """The derived limits minus their closed forms, simplified (``0``: they agree).

        Returns
        -------
        dict of str to sympy.Expr
            ``"full"`` and ``"interior"``.
        """
        return {
            "full": sp.simplify(self.full - self.full_closed),
            "interior": sp.simplify(self.interior - self.interior_closed),
        }


def limits(edge=(1, 10), rule="average"):
    """Derive ``lim b³ L̄`` on the one-head slow curve, ``U[0, 1]`` and ``U[l, 1 - l]``.

    Parameters
    ----------
    edge : tuple of int
        The ``l`` of the interior prior as a fraction ``(numerator, denominator)``,
        ``0 < l < 1/2`` (kept exact).
    rule : {"average", "evidence"}
        The combination of head and mirror under the full prior (the interior
        two-layer loss is that of the average).

    Returns
    -------
    PosthocLimits

    Raises
    ------
    ValueError
        If ``edge`` is not a fraction in ``(0, 1/2)`` or ``rule`` is unknown.
    """
    try:
        edge = sp.Rational(*edge)
    except (TypeError, ValueError):
        raise ValueError(
            f"edge must be (numerator, denominator) (got {edge!r})"
        ) from None
    if not 0 < edge < sp.Rational(1, 2):
        raise ValueError(f"edge must be in (0, 1/2) (got {edge})")
    lam = symmetrized.leakage_coefficient(rule)  # ValueError names rule
    Z = symmetrized.zeta_constant()[0]
    hi = 1 - edge
    full = dynamics.reduce_flow(dynamics.full_expansion())
    inner = dynamics.reduce_flow(dynamics.interior_expansion(edge, hi))
    b, xi = symmetrized.b, dynamics.xi
    # U[0, 1]: nu = xi / b^2 in L = Z/b^3 + Lambda nu/b
    loss_full = Z / b**3 + lam * (xi / b**2) / b
    full_limit = sp.limit(sp.expand(b**3 * loss_full), b, sp.oo).subs(xi, full.xi0)
    # U[l, 1 - l]: L = v^2 F(u/v, b), v -> 0, then u = hi xi / b
    two_layer = sp.expand(
        v**2 * symmetrized.interior_loss(edge).subs(symmetrized.rho, u / v)
    )
    loss_int = sp.limit(two_layer, v, 0).subs(u, hi * xi / b)
    interior_limit = sp.limit(sp.expand(b**3 * loss_int), b, sp.oo).subs(xi, inner.xi0)
    return PosthocLimits(
        full=sp.simplify(full_limit),
        full_closed=sp.zeta(2) - sp.zeta(3) + sp.Rational(1, 2),
        interior=sp.simplify(interior_limit),
        interior_closed=(hi * inner.xi0) ** 2 / (4 * (hi - edge)),
        Z=Z,
        Lambda=lam,
        xi0_full=full.xi0,
        xi0_interior=inner.xi0,
        xi1_full=full.xi1,
        xi1_interior=inner.xi1,
        edge=edge,
    )
