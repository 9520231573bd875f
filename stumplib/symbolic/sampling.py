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
* the population gradient is the bulk's ``v = (0, -2/b³)`` (the layer's ``b`` part is
  the same integral, zero on the valley): ``|v| = 2/b³``;
* ``E|G|² = (hi - lo)^{-1} 4 (1 + hi²) b^{-5} ∫_0^{2} (1 - ρ)² ρ dρ`` and
  ``σ_∞² = tr Cov G / |v|² → E|G|² / |v|²``, so

      σ_∞(b) / √b → C_σ = √(2 (1 + hi²) / (3 (hi - lo))),

  1.2281 for ``U[0.1, 0.9]``. :func:`layer_constant` carries out these steps;
  :func:`stumplib.calibration.sampling_constant` evaluates the result, and its tests
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
    g_layer, second_moment = _layer(rho0)
    valley = [r for r in sp.solve(sp.simplify(g_layer[0] * b**3), rho0) if r != 0]
    if len(valley) != 1:
        raise ArithmeticError(
            f"the valley condition has no unique nonzero root ({valley})"
        )
    top = valley[0]
    c_sigma = sp.sqrt(sp.simplify(second_moment.subs(rho0, top) / (2 / b**3) ** 2 / b))
    second = sp.integrate((1 - rho) ** 2 * rho, (rho, 0, top))
    return LayerConstant(top, second, sp.simplify(c_sigma))


@dataclass(frozen=True)
class SlowLayerConstant:
    """The steps of :func:`slow_layer_constant`.

    Parameters
    ----------
    rho0 : sympy.Expr
        ``ρ`` at the top of the prior on the slow curve, from the tangency condition.
    lag : sympy.Expr
        ``-log(ρ_0 / 2)``: the offset of the slow curve from the valley in ``a``
        (negative: below it; ``ρ_0 = 2`` on the valley).
    c_slow : sympy.Expr
        ``lim σ_∞(b) / √b`` along the slow curve, in ``lo``, ``hi``.
    """

    rho0: sp.Expr
    lag: sp.Expr
    c_slow: sp.Expr


def slow_layer_constant():
    """Derive ``lim σ_∞(b) / √b`` along the slow curve of gradient flow (asymptotic).

    Off the valley the layer's own gradient no longer vanishes: with ``ρ_0`` at the top
    of the prior, the population gradient is the bulk's ``(0, -2/b³)`` plus the layer's
    ``(2/b³) J (1, -hi) / (hi - lo)``, ``J = ∫_0^{ρ_0} (1 - ρ) dρ``. Gradient flow
    settles on the curve whose tangent it follows, slope ``hi`` at leading order, so
    ``g_a = hi g_b`` fixes ``ρ_0``; then ``σ_∞² / b = E|G|² / (b |g|²)`` as in
    :func:`layer_constant`. For ``U[0.1, 0.9]``: ``ρ_0 = 2.340``, a lag of 0.157 below
    the valley (the slow curve of :func:`stumplib.symbolic.dynamics.reduce_flow`) and
    ``C = 2.632``, more than twice the valley's ``C_σ``.

    Returns
    -------
    SlowLayerConstant

    Examples
    --------
    >>> result = slow_layer_constant()
    >>> values = {lo: sp.Rational(1, 10), hi: sp.Rational(9, 10)}
    >>> [sp.N(v.subs(values), 4) for v in (result.rho0, result.lag, result.c_slow)]
    [2.340, -0.1570, 2.632]
    """
    g_layer, second_moment = _layer(rho0)
    g = sp.Matrix([0, -2 / b**3]) + g_layer
    # the roots are 1 ± √(1 + 2 hi (hi - lo) / (1 + hi²)): keep the positive one (hi >
    # lo)
    interior = {lo: sp.Rational(1, 10), hi: sp.Rational(9, 10)}
    tangency = sp.solve(sp.simplify((g[0] - hi * g[1]) * b**3), rho0)
    roots = [r for r in tangency if r.subs(interior) > 0]
    if len(roots) != 1:
        raise ArithmeticError(
            f"the tangency condition has no unique positive root ({roots})"
        )
    top = roots[0]
    norm_sq = sp.simplify((g.T * g)[0].subs(rho0, top))
    c_slow = sp.sqrt(sp.simplify(second_moment.subs(rho0, top) / norm_sq / b))
    return SlowLayerConstant(top, -sp.log(top / 2), sp.simplify(c_slow))


def _layer(top):
    """The layer's population gradient and ``E|G|²``, ``ρ`` to ``top``, at ``s = hi``.

    ``(g_layer, second_moment)``: the integrals of ``G = 2 r ∇r`` and of ``|G|²``
    against the prior's density ``1/(hi - lo)`` over the layer, at leading order in
    ``1/b``.
    """
    residual = (1 - rho) / b
    grad = sp.Matrix([rho / b, -hi * rho / b])
    measure = 1 / (b * rho) / (hi - lo)  # ds = du / b, du = -dρ / ρ, prior density
    g_layer = (2 * residual * grad * measure).applyfunc(
        lambda e: sp.integrate(sp.expand(e), (rho, 0, top))
    )
    square = sp.expand(4 * residual**2 * (grad.T * grad)[0] * measure)
    return g_layer, sp.integrate(square, (rho, 0, top))
