"""SymPy derivation of the task-sampling constant ``C_σ`` (asymptotic).

On the valley of ``U[lo, hi]`` (``0 < lo < hi < 1``) at large ``b`` the infinite-context
residual of a task is ``r = 1/b - s/(1 + R)``, ``R = e^{a - bs}`` the odds of a positive
against a negative (the structured form of :mod:`stumplib.symbolic.population` at
leading order). Write ``ρ = s b / R``. In the bulk ``ρ`` is exponentially small and
``r = 1/b``; in the layer ``s = hi - u/b`` below the top of the prior ``ρ = ρ_0 e^{-u}``
is of order one, with, at leading order in ``1/b``,

    r = (1 - ρ) / b,        ∇r = (∂_a r, ∂_b r) = (ρ / b) (1, -hi),

so the per-task gradient ``G = 2 r ∇r`` has ``|G|² = 4 (1 - ρ)² ρ² (1 + hi²) / b⁴``
there, against ``|G| = O(b^{-3})`` in the bulk. Along the layer ``ds = du / b`` and
``du = -dρ / ρ``. Then:

* the valley condition ``∂_a L ∝ ∫ r ∂_a r ds = 0`` is ``∫_0^{ρ_0} (1 - ρ) dρ = 0``:
  ``ρ_0 = 2``;
* the population gradient is the bulk's ``v = (0, -2/b³)`` (the layer's ``b`` part is the
  same integral, zero on the valley): ``|v| = 2/b³``;
* ``E|G|² = (hi - lo)^{-1} 4 (1 + hi²) b^{-5} ∫_0^{2} (1 - ρ)² ρ dρ`` and
  ``σ_∞² = tr Cov G / |v|² → E|G|² / |v|²``, so

      σ_∞(b) / √b → C_σ = √(2 (1 + hi²) / (3 (hi - lo))),

  1.2281 for ``U[0.1, 0.9]``. :func:`layer_constant` carries out these steps;
  :func:`stumplib.certification.sampling_constant` evaluates the result, and its tests
  compare it with the quadrature ``sampling_coefficient(a*(b), b) / √b`` at large ``b``.
"""

from dataclasses import dataclass

import sympy as sp

rho, rho0, b, lo, hi = sp.symbols("rho rho_0 b lo hi", positive=True)


@dataclass(frozen=True)
class LayerConstant:
    """The steps of :func:`layer_constant`.

    Parameters
    ----------
    rho0 : sympy.Expr
        ``ρ`` at the top of the prior, from the valley condition (2).
    second_moment : sympy.Expr
        ``∫_0^{ρ_0} (1 - ρ)² ρ dρ`` (2/3).
    c_sigma : sympy.Expr
        ``C_σ`` in ``lo``, ``hi``.
    """

    rho0: sp.Expr
    second_moment: sp.Expr
    c_sigma: sp.Expr


def layer_constant():
    """Derive ``C_σ = lim σ_∞(b) / √b`` on the valley of ``U[lo, hi]`` (see the module).

    Returns
    -------
    LayerConstant

    Examples
    --------
    >>> result = layer_constant()
    >>> result.rho0, result.second_moment
    (2, 2/3)
    >>> sp.N(result.c_sigma.subs({lo: sp.Rational(1, 10), hi: sp.Rational(9, 10)}), 5)
    1.2281
    """
    residual = (1 - rho) / b
    grad = sp.Matrix([rho / b, -hi * rho / b])
    measure = 1 / (b * rho)  # ds = du / b, du = -dρ / ρ (ρ from 0 deep in the bulk to ρ_0)
    valley = sp.integrate(residual * grad[0] * measure, (rho, 0, rho0))
    top = [r for r in sp.solve(sp.simplify(valley * b**3), rho0) if r != 0]
    if len(top) != 1:
        raise ArithmeticError(f"the valley condition has no unique nonzero root ({top})")
    square = sp.expand(4 * residual**2 * (grad.T * grad)[0])
    layer = sp.integrate(square * measure, (rho, 0, top[0])) / (hi - lo)
    v_norm = 2 / b**3
    sigma_sq = sp.simplify(layer / v_norm**2)
    c_sigma = sp.sqrt(sp.simplify(sigma_sq / b))
    second = sp.integrate((1 - rho) ** 2 * rho, (rho, 0, top[0]))
    return LayerConstant(top[0], second, sp.simplify(c_sigma))
