r"""SymPy derivation of the valley's task-sampling constant :math:`K_\sigma`.

On the valley of :math:`U[\mathrm{lo}, \mathrm{hi}]` (:math:`0 < \mathrm{lo} <
\mathrm{hi} < 1`) at large :math:`b` the infinite-context residual of a task is
:math:`r = 1/b - s/(1 + R)`, :math:`R = e^{a - bs}` the odds of a positive against a
negative (the structured form of :mod:`stumplib.symbolic.population` at leading order).
Write :math:`\rho = s b / R`. In the bulk :math:`\rho` is exponentially small and
:math:`r = 1/b`; in the layer :math:`s = \mathrm{hi} - u/b` below the top of the prior
:math:`\rho = \rho_0 e^{-u}` is of order one, with, at leading order in :math:`1/b`,

.. math::

    r = \frac{1 - \rho}{b}, \qquad
    \nabla r = (\partial_a r, \partial_b r) = \frac{\rho}{b} (1, -\mathrm{hi}),

so the per-task gradient :math:`G = 2 r \nabla r` has
:math:`|G|^2 = 4 (1 - \rho)^2 \rho^2 (1 + \mathrm{hi}^2) / b^4` there, against
:math:`|G| = O(b^{-3})` in the bulk. Along the layer :math:`ds = du / b` and
:math:`du = -d\rho / \rho`. Then:

* the valley condition :math:`\partial _a L \propto \int r \partial _a r\, ds = 0` is
  :math:`\int _0^{\rho _0} (1 - \rho )\, d\rho = 0`: :math:`\rho_0 = 2`;
* the population gradient is the bulk's :math:`v = (0, -2/b^3)` (the layer's :math:`b`
  part is the same integral, zero on the valley): :math:`\lVert v \rVert = 2/b^3`;
* :math:`\mathbb E|G|^2 = (\mathrm{hi} - \mathrm{lo} )^{-1} 4 (1 + \mathrm{hi} ^2)
  b^{-5} \int _0^{2} (1 - \rho )^2 \rho\, d\rho` and
  :math:`\sigma_\infty^2 = \operatorname{tr} \operatorname{Cov} G / \lVert v \rVert^2
  \to \mathbb E|G|^2 / \lVert v \rVert^2`, so

  .. math::

      \frac{\sigma_\infty(b)}{\sqrt{b}} \to K_\sigma
      = \sqrt{\frac{2 (1 + \mathrm{hi}^2)}{3 (\mathrm{hi} - \mathrm{lo})}},

  1.2281 for :math:`U[0.1, 0.9]`. :func:`layer_constant` carries out these steps;
  :func:`stumplib.calibration.sampling_constant` evaluates the result, and its tests
  compare it with the quadrature ``sampling_coefficient(a*(b), b)`` over
  :math:`\sqrt{b}` at large :math:`b`.

:func:`layer_correction` derives the next orders,
:math:`\sigma_\infty/\sqrt{b} = K_\sigma (1 + d_1/b + d_2/b^2 + O(b^{-3}))` with
:math:`d_1 = 3/(\mathrm{hi} - \mathrm{lo}) - (19\, \mathrm{hi}^2 + 39)/(30\, \mathrm{hi}
(1 + \mathrm{hi}^2))` (2.637 for :math:`U[0.1, 0.9]`, and :math:`d_2 = 7.842`): the
largest parts of :math:`d_1` are the valley's offset and the layer's share of the
population gradient, which the leading order drops.
"""

from dataclasses import dataclass

import sympy as sp

rho, rho0, b, lo, hi = sp.symbols("rho rho_0 b lo hi", positive=True)


@dataclass(frozen=True)
class LayerConstant:
    r"""The steps of :func:`layer_constant`.

    Parameters
    ----------
    rho0 : sympy.Expr
        :math:`\rho_0`, :math:`\rho` at the top of the prior, from the valley
        condition (2).
    second_moment : sympy.Expr
        :math:`\int _0^{\rho _0} (1 - \rho )^2 \rho\, d\rho` (2/3).
    c_sigma : sympy.Expr
        :math:`K_\sigma` in ``lo``, ``hi``.
    """

    rho0: sp.Expr
    second_moment: sp.Expr
    c_sigma: sp.Expr


def layer_constant():
    r"""Derive :math:`K_\sigma = \lim \sigma_\infty(b) / \sqrt{b}` on the valley.

    Of :math:`U[\mathrm{lo}, \mathrm{hi}]` (see the module notes).

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
    r"""The steps of :func:`slow_layer_constant`.

    Parameters
    ----------
    rho0 : sympy.Expr
        :math:`\rho_0`, :math:`\rho` at the top of the prior on the slow curve, from
        the tangency condition.
    lag : sympy.Expr
        :math:`-\log(\rho_0 / 2)`: the distance of the slow curve from the valley in
        :math:`a` (negative: below it; :math:`\rho_0 = 2` on the valley).
    c_slow : sympy.Expr
        The slow curve's :math:`K = \lim \sigma_\infty(b) / \sqrt{b}`, in ``lo``,
        ``hi``.
    """

    rho0: sp.Expr
    lag: sp.Expr
    c_slow: sp.Expr


def slow_layer_constant():
    r"""Derive :math:`K = \lim \sigma_\infty(b) / \sqrt{b}` along the slow curve.

    Asymptotic. Off the valley the layer's own gradient no longer vanishes: with
    :math:`\rho_0` at the top of the prior, the population gradient is the bulk's
    :math:`(0, -2/b^3)` plus the layer's :math:`(2/b^3) J (1, -\mathrm{hi}) /
    (\mathrm{hi} - \mathrm{lo})`, :math:`J = \int _0^{\rho _0} (1 - \rho )\, d\rho`.
    Gradient flow settles on the curve whose tangent it follows, slope
    :math:`\mathrm{hi}` at leading order, so :math:`g_a = \mathrm{hi}\, g_b` fixes
    :math:`\rho_0`; then :math:`\sigma_\infty^2 / b = \mathbb E|G|^2 / (b |g|^2)` as in
    :func:`layer_constant`. For :math:`U[0.1, 0.9]`: :math:`\rho_0 = 2.340`, a lag of
    0.157 below the valley (the slow curve of
    :func:`stumplib.symbolic.dynamics.reduce_flow`) and :math:`K = 2.632`, more than
    twice the valley's :math:`K_\sigma`.

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


# ------------------------------------------------------------------- next order in 1/b

h, u, decay = sp.symbols("h u E", positive=True)
_G = sp.symbols("g_0:3", positive=True)
_D = sp.symbols("D_0:3")
_B = sp.symbols("B_1:3")

#: The sources of the :math:`1/b` correction, each a bookkeeping factor on one
#: :math:`1/b` term of the exact per-task gradient (see :func:`layer_correction`).
SOURCES = (
    "threshold across the layer",
    "odds denominator",
    "saturation",
    "bulk d_b r",
    "valley offset",
)
_MARKS = sp.symbols("e_1:6")


@dataclass(frozen=True)
class LayerCorrection:
    r"""The steps of :func:`layer_correction`.

    Parameters
    ----------
    valley : tuple of sympy.Expr
        :math:`(g_0, g_1, g_2)`: :math:`a^*(b) = \mathrm{hi}\, b + \log b - \log(g_0 +
        g_1/b + g_2/b^2)` up to :math:`O(b^{-3})`, from the valley condition
        :math:`\int G_a\, du = 0` order by order.
    moments : tuple of sympy.Expr
        :math:`(M_0, M_1, M_2)`: :math:`\mathbb E|G|^2 = 4/b^6 + (4/(w b^5))(M_0 +
        M_1/b + M_2/b^2)` up to :math:`O(b^{-8})`, :math:`w = \mathrm{hi} -
        \mathrm{lo}`, the layer's second moment beside the bulk's :math:`4/b^6`.
    gradient : tuple of sympy.Expr
        :math:`(P_1, P_2)`: the population gradient is :math:`(0, -(2/b^3)(1 - (P_1/b +
        P_2/b^2)/w))` up to :math:`O(b^{-6})`; :math:`P_1 = \int (\rho + u \rho (1 -
        \rho ))\, du = 3` is the layer's share, which the leading order drops.
    sources : dict
        The contribution of each source to :math:`d_1`, keyed by :data:`SOURCES` and
        ``"population gradient"`` (:math:`P_1 / w`); they add up to :math:`d_1`.
    c1, c2 : sympy.Expr
        The sampling coefficients :math:`d_1`, :math:`d_2` of
        :math:`\sigma_\infty(b)/\sqrt{b} = K_\sigma (1 + d_1/b + d_2/b^2 +
        O(b^{-3}))`, in ``lo``, ``hi``.
    """

    valley: tuple
    moments: tuple
    gradient: tuple
    sources: dict
    c1: sp.Expr
    c2: sp.Expr


def layer_correction():
    r"""Derive the corrections :math:`d_1`, :math:`d_2` of the valley's constant.

    Of :math:`\sigma_\infty(b)/\sqrt{b}` on the valley; asymptotic (formal) in
    :math:`1/b`. Up to terms exponentially small in :math:`b` (:math:`e^{-b(1 -
    \mathrm{hi} )}`, :math:`e^{-b(\mathrm{hi} - \mathrm{lo})}`) the structured residual
    of :mod:`stumplib.symbolic.population` is, in :math:`s = \mathrm{hi} - u/b` and
    :math:`\mathcal E = e^{-u}`, with :math:`a = \mathrm{hi}\, b + \log b - \log g`,

    .. math::

        r = \frac{1 - X}{b}, \quad \partial_a r = \frac{X (1 - Y/b)}{b}, \quad
        \partial_b r = -\frac{1}{b^2} - \frac{s X (1 - Y/b)}{b},

    :math:`X = s g \mathcal E / (1 + g \mathcal E/b)` and
    :math:`Y = g \mathcal E / (1 + g \mathcal E/b)`, exactly. Leading order
    (:func:`layer_constant`) is :math:`X = \rho = \mathrm{hi}\, g \mathcal E`. For
    :math:`d_1` each :math:`1/b` carries a mark: the threshold
    :math:`s = \mathrm{hi} - u/b` across the layer, the odds' denominator
    :math:`1 + g \mathcal E/b`, the saturation :math:`1 - Y/b` of
    :math:`\partial \hat s`, the bulk's :math:`\partial_b r = -1/b^2` (the cross term of
    the bulk with the layer in :math:`|G|^2`) and the valley's offset :math:`g_1`. With
    :math:`w = \mathrm{hi} - \mathrm{lo}` the prior's width and the bulk's
    :math:`|G| = 2/b^3`:

    * the valley condition :math:`\int X (1 - X)(1 - Y/b)\, du = 0` gives
      :math:`g = 2/\mathrm{hi} + 4/(\mathrm{hi}^2 b) + \ldots`;
    * :math:`\mathbb E|G|^2 = 4/b^6 + (4/(w b^5))(M_0 + M_1/b + \ldots)`,
      :math:`M_0 = 2(1 + \mathrm{hi}^2)/3`;
    * the population gradient is :math:`(0, -(2/b^3)(1 - P_1/(w b) - \ldots))`: the
      layer's part of :math:`\partial_b L` does not vanish at next order,
      :math:`P_1 = 3`;
    * :math:`\operatorname{tr} \operatorname{Cov} G = \mathbb E|G|^2 - |g|^2`: the
      bulk's :math:`4/b^6` cancels :math:`|g|^2` to :math:`O(b^{-7})`, so
      :math:`\sigma_\infty^2/b = (M_0 + M_1/b)(1 + 2P_1/(w b))/w + O(b^{-2})` and
      :math:`d_1 = M_1/(2 M_0) + P_1/w`; :math:`d_2` follows from the same expansion one
      order further (there :math:`|g|^2` no longer cancels the bulk's :math:`4/b^6`).

    Returns
    -------
    LayerCorrection

    Examples
    --------
    >>> result = layer_correction()
    >>> result.valley[:2], result.gradient[0]
    ((2/hi, 4/hi**2), 3)
    >>> stated = 3 / (hi - lo) - (19 * hi**2 + 39) / (30 * hi * (1 + hi**2))
    >>> sp.simplify(result.c1 - stated), result.sources["population gradient"]
    (0, 3/(hi - lo))
    >>> values = {lo: sp.Rational(1, 10), hi: sp.Rational(9, 10)}
    >>> [sp.N(c.subs(values), 5) for c in (result.c1, result.c2)]
    [2.6370, 7.8417]
    """
    marks = dict(zip(SOURCES, _MARKS))
    g = _G[0] + marks["valley offset"] * h * (_G[1] + _G[2] * h)
    s = hi - marks["threshold across the layer"] * h * u
    odds = 1 + marks["odds denominator"] * h * g * decay
    x, y = s * g * decay / odds, g * decay / odds
    slope = x * (1 - marks["saturation"] * h * y)  # b ∂_a r
    g_a = (1 - x) * slope  # b² G_a / 2
    g_b = (1 - x) * (marks["bulk d_b r"] * h + s * slope)  # -b³ G_b / 2 (h = 1/b)
    unmarked = {e: 1 for e in _MARKS}
    valley = _valley(g_a.subs(unmarked))
    square = g_a**2 + g_b**2 - (marks["bulk d_b r"] * h) ** 2
    first = _laplace(_order(square, 1)).subs(valley)  # marked: split by source
    plain = square.subs(unmarked)
    moments = [sp.factor(_laplace(_order(plain, k)).subs(valley)) for k in range(3)]
    share = [
        sp.factor(-_laplace(_order((g_b - h).subs(unmarked), k)).subs(valley))
        for k in (1, 2)
    ]
    width = hi - lo
    sources = {
        name: sp.factor(
            sp.diff(first, e).subs({k: 0 for k in _MARKS}) / (2 * moments[0])
        )
        for name, e in marks.items()
    }
    sources["population gradient"] = share[0] / width
    c1, c2 = _relative_series(moments, share, width)
    return LayerCorrection(
        tuple(valley[c] for c in _G), tuple(moments), tuple(share), sources, c1, c2
    )


def _valley(g_a):
    r"""``{g_k: value}`` solving :math:`\int g_a du = 0` order by order in ``h``."""
    solution = {}
    for k, coefficient in enumerate(_G):
        condition = _laplace(_order(g_a, k)).subs(solution)
        roots = [r for r in sp.solve(condition, coefficient) if r != 0]
        if len(roots) != 1:
            raise ArithmeticError(f"the valley condition at order {k} gives {roots}")
        solution[coefficient] = sp.simplify(roots[0])
    return solution


def _relative_series(moments, share, width):
    r"""``(c_1, c_2)`` of ``σ_∞/(C_σ √b)`` from ``M_0..M_2`` and ``K_1, K_2``.

    ``σ_∞²/b = [M/W + h (1 - (1 - κ)²)]/(1 - κ)²`` with :math:`M = \sum M_k h^k` and
    ``κ = (K_1 h + K_2 h²)/W`` (``h = 1/b``; the bulk's ``4 h⁶`` less ``|g|²``).
    """
    moment = _D[0] + _D[1] * h + _D[2] * h**2
    kappa = (_B[0] * h + _B[1] * h**2) / width
    ratio = (moment / width + h * (1 - (1 - kappa) ** 2)) / (1 - kappa) ** 2
    relative = sp.series(sp.sqrt(ratio * width / _D[0]), h, 0, 3).removeO()
    values = dict(zip(_D, moments)) | dict(zip(_B, share))
    return tuple(sp.factor(relative.coeff(h, k).subs(values)) for k in (1, 2))


def _order(expr, k):
    """The coefficient of ``h**k`` of ``expr`` at ``h = 0``, expanded."""
    return sp.expand(sp.diff(expr, h, k).subs(h, 0) / sp.factorial(k))


def _laplace(poly):
    r"""``∫_0^∞ poly du``, ``poly`` a polynomial in ``u`` and ``E = e^{-u}``.

    Each term must carry a power of ``E``.
    """
    total = sp.Integer(0)
    for (power, n), coefficient in sp.Poly(poly, u, decay).terms():
        if n == 0:
            raise ArithmeticError(f"a term u^{power} does not decay with u")
        total += coefficient * sp.factorial(power) / sp.Integer(n) ** (power + 1)
    return sp.expand(total)
