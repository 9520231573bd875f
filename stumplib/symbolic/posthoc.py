r"""SymPy derivation of the loss of a head trained alone and symmetrized afterwards.

The one-head population flow follows its slow curve, on which the valley coordinate
:math:`\xi = b^m e^{-(a - p b)}` tends to :math:`\xi_0`
(:func:`stumplib.symbolic.dynamics.reduce_flow`). Averaging that head with its mirror
at the trained :math:`(a, b)` cancels the kernel bias :math:`1/b` that holds the
one-head loss at :math:`1/b^2`; what is left is set by the leakage the one-head
calibration leaves, and it is of order :math:`1/b^3`:

- **Full prior** :math:`U[0, 1]` (:math:`p = 1`, :math:`m = 2`,
  :math:`\nu = e^{-(a - b)} = \xi /b^2`). The symmetrized loss is
  :math:`\bar L = Z/b^3 + \Lambda \nu/b + \ldots` (:mod:`stumplib.symbolic.symmetrized`:
  :math:`Z = \zeta(2) - \zeta(3)` from the truncation of the kernels at both edges,
  :math:`\Lambda` the cost of the inner layer), so
  :math:`b^3 \bar L = Z + \Lambda \xi \to Z + \Lambda \xi_0`.
- **Interior prior** :math:`U[l, 1 - l]` (:math:`p = \mathrm{hi} = 1 - l`,
  :math:`m = 1`). The two-layer loss :math:`\bar L = v^2 F(u/v, b)` with the leakage
  :math:`u = \mathrm{hi}\, e^{-(a - b \mathrm{hi})} = \mathrm{hi}\, \xi /b` and the
  truncation :math:`v = l e^{-b l}`; on the one-head curve :math:`v` is exponentially
  small against :math:`u`, and :math:`v \to 0` leaves
  :math:`b^3 \bar L \to (\mathrm{hi}\, \xi_0)^2/(4 (\mathrm{hi} - \mathrm{lo}))`.
"""

from dataclasses import dataclass

import sympy as sp

from . import dynamics, symmetrized

v = sp.Symbol("v", positive=True)  # the truncation l e^{-b l}
u = sp.Symbol("u", positive=True)  # the leakage hi e^{-(a - b hi)}


@dataclass(frozen=True)
class PosthocLimits:
    r"""Limits of :math:`b^3 \bar L` at the one-head parameters, and their ingredients.

    Attributes
    ----------
    full : sympy.Expr
        :math:`\lim b^3 \bar L` under :math:`U[0, 1]`, derived:
        :math:`Z + \Lambda \xi_0`.
    full_closed : sympy.Expr
        The closed form it is compared with, :math:`\zeta(2) - \zeta(3) + 1/2`.
    interior : sympy.Expr
        :math:`\lim b^3 \bar L` under :math:`U[l, 1 - l]`, from the two-layer loss as
        :math:`v \to 0`.
    interior_closed : sympy.Expr
        The closed form it is compared with,
        :math:`(\mathrm{hi}\, \xi_0)^2/(4 (\mathrm{hi} - \mathrm{lo}))`.
    Z, Lambda : sympy.Expr
        Truncation constant and inner-layer cost of the symmetrized loss.
    xi0_full, xi0_interior : sympy.Expr
        :math:`\xi_0` of the one-head slow curve under each prior.
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
    r"""Derive :math:`\lim b^3 \bar L` on the one-head slow curve, two priors.

    Under :math:`U[0, 1]` and :math:`U[l, 1 - l]`.

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
