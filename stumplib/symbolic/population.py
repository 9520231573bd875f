r"""SymPy derivations for the population limit.

With uniform features on [0, 1] and threshold :math:`s` (:math:`\upsilon = 1 - s`,
the SymPy symbol ``q`` of the expressions returned, whose edge factor
:math:`\varepsilon_\upsilon` is ``epsilon_q``), the infinite-context head is a ratio of
four elementary integrals,

.. math::

    \hat s(s)=\frac{\int_0^s x\,e^{-bx}\,dx+\int_s^1 x\,e^{a-bx}\,dx}
    {\int_0^s e^{-bx}\,dx+\int_s^1 e^{a-bx}\,dx}.

This module derives, step by step:

* :func:`closed_form` — the integrals, and the exact *structured* form
  :math:`\hat s - s = (d_+ + \rho d_-)/(1 + \rho )` (class biases :math:`d_\pm`, odds
  :math:`\rho` of a negative against a positive), proved equal to the raw ratio;
* :func:`gradient_identities` — :math:`\partial \hat s/\partial a =
  \operatorname{Cov}_w(x, y)` and :math:`\partial \hat s/\partial b =
  -\operatorname{Var}_w(x)` for
  the integral weights (the population gradient is :math:`2 \mathbb E[(\hat s - s)
  \nabla \hat s]`);
* :func:`interior_series` — the large-:math:`b` expansion at fixed interior :math:`s`
  in the leakage :math:`\lambda = e^{-(a - bs)}` and the edge factors
  :math:`e^{-b\upsilon}`, :math:`e^{-bs}`;
* :func:`inner_layer` — the layer :math:`\upsilon = e^{-(a-b)} w / b` near
  :math:`s = 1`;
* :func:`interior_valley` — :math:`a^*(b) = \mathrm{hi} \cdot b + \log b + c + c_1/b +
  c_2/b^2` and :math:`b^2 \min_a L` under :math:`U[\mathrm{lo}, \mathrm{hi}]`;
* :func:`full_prior` — :math:`b^2 L(\infty, b) = 1 - 2\zeta(3)/b` and the excess
  :math:`L(a, b) - L(\infty, b)` under :math:`U[0, 1]`, with the constants identified
  as values of :math:`\zeta`.
"""

from dataclasses import dataclass

import mpmath
import numpy as np
import sympy as sp

from .. import validation

a, b, s, q, x, t, u, w = sp.symbols("a b s q x t u w", positive=True)
v, g, h, nu, delta = sp.symbols("v g h nu delta", positive=True)
lo, hi = sp.symbols("lo hi", positive=True)
lam, eps_q, eps_s, tau = sp.symbols("lambda epsilon_q epsilon_s tau", positive=True)
n = sp.Symbol("n", integer=True, positive=True)


def _unit_scalar(value, name):
    return validation.scalar(validation.unit_interval(value, name), name)


#: One threshold in [0, 1].
_THRESHOLD = validation.Constraint(
    _unit_scalar,
    ((None, TypeError), ("0.5", TypeError), (np.nan, ValueError), (-0.5, ValueError),
     (1.5, ValueError), ([0.5, 0.5], ValueError)),
)  # fmt: skip
#: Orders of an expansion, digits of a working precision.
_ORDER, _DIGITS = validation.Integer(), validation.Integer()

# Exponentials replaced by independent symbols for algebraic identity proofs.
_U, _A, _B = sp.symbols("U A B", positive=True)  # e^{-bs}, e^{a}, e^{-b}


def _algebraic(expr):
    r"""Rewrite ``expr`` with :math:`e^{-bs}`, :math:`e^{a}`, :math:`e^{-b}` as U, A, B.

    Q = 1 - s.
    """
    expr = sp.expand(expr.subs(q, 1 - s), power_exp=True)
    return expr.subs(
        {
            sp.exp(-b * s): _U,
            sp.exp(b * s): 1 / _U,
            sp.exp(a): _A,
            sp.exp(-b): _B,
            sp.exp(b): 1 / _B,
        }
    )


def _is_zero(expr):
    """Exact zero test of an expression in ``a, b, s`` through :func:`_algebraic`."""
    return sp.simplify(sp.together(_algebraic(expr))) == 0


# --------------------------------------------------------------------------- closed
# form


@dataclass(frozen=True)
class ClosedForm:
    r"""The infinite-context estimate for uniform features, derived by integration.

    Attributes
    ----------
    integrals : dict
        ``neg_mass, neg_first, pos_mass, pos_first``: the unevaluated integrals
        (``sympy.Integral``) of :math:`e^{z(x)}` and :math:`x e^{z(x)}` over each class.
    values : dict
        The same four integrals evaluated by SymPy.
    estimate : sympy.Expr
        :math:`\hat s` as the ratio of the evaluated integrals.
    bias_pos, bias_neg, odds : sympy.Expr
        :math:`d_+(\upsilon) = 1/b - \upsilon/(e^{b\upsilon} - 1)` (mean offset of the
        positives from :math:`s`), :math:`d_-(s) = 1/b - s/(1 - e^{-bs})` (that of the
        negatives) and :math:`\rho = e^{-(a - bs)} (1 - e^{-bs}) / (1 - e^{-b\upsilon})`
        (their mass ratio).
    structured : sympy.Expr
        :math:`(d_+ + \rho d_-)/(1 + \rho)` in ``a, b, s, q``.
    proved : bool
        ``True`` if ``estimate - s - structured`` simplifies to 0 (with
        :math:`\upsilon = 1 - s`).
    """

    integrals: dict
    values: dict
    estimate: sp.Expr
    bias_pos: sp.Expr
    bias_neg: sp.Expr
    odds: sp.Expr
    structured: sp.Expr
    proved: bool


def closed_form():
    """Integrate the softmax weights against the uniform density.

    See :class:`ClosedForm`.

    Returns
    -------
    ClosedForm
    """
    z_neg, z_pos = -b * x, a - b * x
    integrals = {
        "neg_mass": sp.Integral(sp.exp(z_neg), (x, 0, s)),
        "neg_first": sp.Integral(x * sp.exp(z_neg), (x, 0, s)),
        "pos_mass": sp.Integral(sp.exp(z_pos), (x, s, 1)),
        "pos_first": sp.Integral(x * sp.exp(z_pos), (x, s, 1)),
    }
    values = {k: sp.simplify(i.doit()) for k, i in integrals.items()}
    estimate = (values["neg_first"] + values["pos_first"]) / (
        values["neg_mass"] + values["pos_mass"]
    )
    bias_pos = 1 / b - q / (sp.exp(b * q) - 1)
    bias_neg = 1 / b - s / (1 - sp.exp(-b * s))
    odds = sp.exp(-(a - b * s)) * (1 - sp.exp(-b * s)) / (1 - sp.exp(-b * q))
    structured = (bias_pos + odds * bias_neg) / (1 + odds)
    return ClosedForm(
        integrals,
        values,
        estimate,
        bias_pos,
        bias_neg,
        odds,
        structured,
        _is_zero(estimate - s - structured),
    )


@validation.constrained(
    a_=validation.Scalar(), b_=validation.Scalar(), s_=_THRESHOLD, dps=_DIGITS
)
def residual_high_precision(a_, b_, s_, dps=50):
    r"""The residual :math:`\hat s - s` from the raw closed form, by mpmath.

    At ``dps`` digits.

    An independent reference for :func:`stumplib.population.residual` (valid while
    :math:`e^{|a|+|b|}` fits mpmath's exponent range, i.e. any practical value). At
    small ``|b|`` the working precision grows by the digits the closed form cancels; at
    ``b = 0`` it is its limit, each class weighing its features uniformly.

    Parameters
    ----------
    a_, b_ : float
        Head parameters.
    s_ : float
        Threshold in [0, 1].
    dps : int
        Decimal digits of the working precision.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If an argument is not a scalar, ``s_`` leaves [0, 1] or ``dps`` is below 1.
    """
    a_, b_, s_ = (mpmath.mpf(val) for val in (a_, b_, s_))
    if b_ == 0:  # the limit b -> 0: each class weighs its features uniformly
        with mpmath.workdps(dps):
            odds = mpmath.exp(a_)
            first = (s_**2 + odds * (1 - s_**2)) / 2
            return float(first / (s_ + odds * (1 - s_)) - s_)
    with mpmath.workdps(dps + _lost_digits(b_, s_)):
        neg_mass = -mpmath.expm1(-b_ * s_) / b_
        neg_first = (1 - (1 + b_ * s_) * mpmath.exp(-b_ * s_)) / b_**2
        pos_mass = mpmath.exp(a_ - b_ * s_) * (-mpmath.expm1(-b_ * (1 - s_))) / b_
        pos_first = (
            (1 + b_ * s_) * mpmath.exp(a_ - b_ * s_) - (1 + b_) * mpmath.exp(a_ - b_)
        ) / b_**2
        return float((neg_first + pos_first) / (neg_mass + pos_mass) - s_)


def _lost_digits(b_, s_):
    """Digits the first moments of :func:`residual_high_precision` cancel.

    At small ``|b|``, ``1 - (1 + x) e^{-x}`` is about ``x²/2`` (``x = b s``), and the
    positives' difference about ``b² (1 - s²) / 2`` (``(1 - s) b e^{-b}`` at larger
    ``|b|``).
    """
    lost = [-mpmath.log10(abs(b_) * s_) * 2 if s_ > 0 else 0]
    if s_ < 1:
        lost.append(-mpmath.log10(abs(b_)) * 2 - mpmath.log10(1 - s_))
    most = max(lost)
    return int(mpmath.ceil(most)) + 5 if most > 0 else 0


# --------------------------------------------------------------------------- gradient


@dataclass(frozen=True)
class GradientIdentities:
    r"""The gradient identities' two differences, for the integral weights.

    :math:`\partial \hat s/\partial a - \operatorname{Cov}_w(x, y)` and
    :math:`\partial \hat s/\partial b + \operatorname{Var}_w(x)`.

    Attributes
    ----------
    d_a, d_b : sympy.Expr
        Derivatives of the closed form.
    cov, neg_var : sympy.Expr
        :math:`\operatorname{Cov}_w(x, y)` and :math:`-\operatorname{Var}_w(x)` from
        integrals of :math:`x y`, :math:`y`, :math:`x^2` against the weights.
    proved : bool
        ``True`` if both differences simplify to 0.
    """

    d_a: sp.Expr
    d_b: sp.Expr
    cov: sp.Expr
    neg_var: sp.Expr
    proved: bool


def gradient_identities(form=None):
    """Differentiate the closed form and compare with the weighted moments.

    Parameters
    ----------
    form : ClosedForm, optional
        The closed form (derived by :func:`closed_form` when omitted).

    Returns
    -------
    GradientIdentities
    """
    form = form or closed_form()
    val = form.values
    mass = val["neg_mass"] + val["pos_mass"]
    second = sp.integrate(x**2 * sp.exp(-b * x), (x, 0, s)) + sp.integrate(
        x**2 * sp.exp(a - b * x), (x, s, 1)
    )
    mean_x = form.estimate
    mean_y = val["pos_mass"] / mass
    cov = val["pos_first"] / mass - mean_x * mean_y  # E_w[x y] - E_w[x] E_w[y]
    neg_var = -(second / mass - mean_x**2)
    d_a, d_b = sp.diff(form.estimate, a), sp.diff(form.estimate, b)
    return GradientIdentities(
        d_a, d_b, cov, neg_var, _is_zero(d_a - cov) and _is_zero(d_b - neg_var)
    )


# --------------------------------------------------------------------------- interior s


@validation.constrained(order=_ORDER)
def interior_series(order=4):
    r"""Terms :math:`T_0, ..., T_{\mathrm{order}-1}` of :math:`\hat s - s`.

    In :math:`\lambda = e^{-(a-bs)}`, :math:`\varepsilon_\upsilon = e^{-b\upsilon}`,
    :math:`\varepsilon_s = e^{-bs}`.

    :math:`T_k` collects the products of :math:`k` of the three small factors (a
    bookkeeping parameter :math:`\tau` multiplies each); all three are exponentially
    small in :math:`b` at fixed interior :math:`s` once :math:`a - bs \to \infty`.

    Returns
    -------
    list of sympy.Expr
        :math:`T_0 = 1/b`, :math:`T_1 = -s\lambda - \upsilon \varepsilon_\upsilon`,
        :math:`T_2 = (\lambda - \varepsilon_\upsilon)(s\lambda + \upsilon
        \varepsilon_\upsilon)`, ...
    """
    d_pos = 1 / b - q * eps_q / (1 - eps_q)
    d_neg = 1 / b - s / (1 - eps_s)
    rho = lam * (1 - eps_s) / (1 - eps_q)
    r = ((d_pos + rho * d_neg) / (1 + rho)).subs(
        {lam: tau * lam, eps_q: tau * eps_q, eps_s: tau * eps_s}
    )
    ser = sp.expand(sp.series(r, tau, 0, order).removeO())
    return [sp.factor(ser.coeff(tau, k)) for k in range(order)]


@validation.constrained(order=_ORDER)
def interior_terms_function(order=4):
    r"""NumPy function, the terms :math:`T_k` of :func:`interior_series`.

    Parameters
    ----------
    order : int
        Number of terms.

    Returns
    -------
    callable
        ``(a, b, s) -> list`` of the terms, vectorized by NumPy.
    """
    terms = interior_series(order)
    subs = {
        lam: sp.exp(-(a - b * s)),
        eps_q: sp.exp(-b * (1 - s)),
        eps_s: sp.exp(-b * s),
        q: 1 - s,
    }
    f = sp.lambdify((a, b, s), [term.subs(subs) for term in terms], modules="numpy")
    return lambda a_, b_, s_: f(a_, b_, s_)


def logistic_form():
    r"""The residual :math:`\hat s - s` with both edge factors exactly 0.

    That is, :math:`\varepsilon_\upsilon = \varepsilon_s = 0`.

    :math:`1/b - s \lambda/(1 + \lambda) = 1/b - s\, \sigma(bs - a)`, :math:`\sigma` the
    logistic function.

    Returns
    -------
    sympy.Expr
        In :math:`b`, :math:`s` and :math:`\lambda`.
    """
    d_pos, d_neg, rho = 1 / b, 1 / b - s, lam
    return sp.simplify((d_pos + rho * d_neg) / (1 + rho))


# --------------------------------------------------------------------------- inner
# layer


@dataclass(frozen=True)
class InnerLayer:
    r"""Layer near :math:`s = 1` at large :math:`\delta = a - b`.

    In :math:`\upsilon = \nu w / b`, :math:`\nu = e^{-\delta}`. In these variables
    :math:`b\upsilon = \nu w` and the odds of a negative against a positive are
    :math:`\rho = \nu e^{-\nu w} / (1 - e^{-\nu w})`; terms of relative size
    :math:`e^{-b}` (the factor :math:`1 - e^{-bs}`) are dropped.

    Attributes
    ----------
    residual : sympy.Expr
        :math:`\hat s - s` in :math:`w`, :math:`\nu`, :math:`b`.
    orders : list of sympy.Expr
        Coefficients of :math:`\nu^0, \nu^1, \nu^2` at fixed :math:`w`: the leading
        inner solution :math:`-(1 - 1/b)/(1 + w)` and its corrections.
    contribution : sympy.Expr
        :math:`\int_0^{\infty} \mathrm{orders}[0]^2\, d\upsilon = \nu (1 - 1/b)^2/b`:
        the layer's share of the loss.
    squared_exact : sympy.Expr
        :math:`\int_0^{\infty} [\nu/(e^t - 1 + \nu)]^2\, dt` (in :math:`t =
        b\upsilon`): the leakage squared through the layer to all orders in :math:`\nu`,
        :math:`\nu/(1-\nu) - \nu^2 \log(1/\nu)/(1-\nu)^2`.
    """

    residual: sp.Expr
    orders: list
    contribution: sp.Expr
    squared_exact: sp.Expr


def inner_layer():
    """Derive the inner layer near ``s = 1`` (see :class:`InnerLayer`).

    Returns
    -------
    InnerLayer
    """
    bq = nu * w
    d_pos = 1 / b - (bq / b) / (sp.exp(bq) - 1)
    d_neg = 1 / b - (1 - bq / b)
    rho = nu * sp.exp(-bq) / (1 - sp.exp(-bq))
    r = (d_pos + rho * d_neg) / (1 + rho)
    ser = sp.series(r, nu, 0, 3).removeO()
    orders = [sp.factor(ser.coeff(nu, k)) for k in range(3)]
    contribution = sp.factor(sp.integrate(orders[0] ** 2, (w, 0, sp.oo)) * nu / b)
    # ∫ [η/(e^t - 1 + η)]² dt with u = e^t - 1, dt = du/(1 + u)
    squared = sp.integrate(
        sp.apart(nu**2 / ((u + nu) ** 2 * (1 + u)), u), (u, 0, sp.oo)
    )
    return InnerLayer(r, orders, contribution, sp.simplify(squared))


# --------------------------------------------------------------------------- interior
# prior


@dataclass(frozen=True)
class Valley:
    r"""Asymptotics of the population loss under an interior uniform prior.

    The prior is :math:`U[\mathrm{lo}, \mathrm{hi}]`, :math:`\mathrm{hi} < 1`.

    With :math:`a = \mathrm{hi}\, b + \log b - \log g` and :math:`h = 1/b`, exactly up
    to terms exponentially small in :math:`b`,
    :math:`(\mathrm{hi} - \mathrm{lo})\, b^2 L = (\mathrm{hi} - \mathrm{lo}) + h F(g,
    h)` where :math:`F = \int_0^{\infty} [(1 - X)^2 - 1]\, dv`, :math:`X = (\mathrm{hi}
    - h v) g e^{-v}/(1 + h g e^{-v})` (:math:`s = \mathrm{hi} - v/b`).

    Attributes
    ----------
    layer_integrand : sympy.Expr
        :math:`(1 - X)^2 - 1`.
    F : sympy.Expr
        Its integral, expanded to order :math:`h^{\mathrm{order}}`.
    g_star : list
        Coefficients of the minimizer :math:`g^*(h) = g_0 + g_1 h + \ldots`.
    offset : list
        :math:`[c, c_1, c_2]`: :math:`a^* = \mathrm{hi}\, b + \log b + c + c_1/b +
        c_2/b^2`.
    min_F : list
        :math:`[F_0, F_1, \ldots]`: :math:`b^2 \min_a L = 1 + (F_0 + F_1/b + \ldots)/
        ((\mathrm{hi} - \mathrm{lo}) b)`.
    """

    layer_integrand: sp.Expr
    F: sp.Expr
    g_star: list
    offset: list
    min_F: list


@validation.constrained(order=_ORDER)
def interior_valley(order=3):
    r"""Derive :math:`a^*(b)` and :math:`\min_a L` to ``order`` in :math:`1/b`.

    Under :math:`U[\mathrm{lo}, \mathrm{hi}]`.

    Parameters
    ----------
    order : int
        Order of the expansion in :math:`h = 1/b`, at least 1.

    Returns
    -------
    Valley

    Raises
    ------
    ValueError, TypeError
        If ``order`` is not a positive integer.
    """
    big_x = (hi - h * v) * g * sp.exp(-v) / (1 + h * g * sp.exp(-v))
    integrand = (1 - big_x) ** 2 - 1
    expanded = sp.expand(sp.series(integrand, h, 0, order + 1).removeO())
    F = sp.expand(sp.integrate(expanded, (v, 0, sp.oo)))
    coeffs = sp.symbols(f"g0:{order}")
    g_series = sum(c * h**k for k, c in enumerate(coeffs))
    stationarity = sp.expand(
        sp.series(sp.diff(F, g).subs(g, g_series), h, 0, order).removeO()
    )
    solution = {}
    for k, c in enumerate(coeffs):
        eq = stationarity.coeff(h, k).subs(solution)
        roots = [r for r in sp.solve(eq, c) if r != 0]
        solution[c] = sp.simplify(roots[0])
    g_star = [solution[c] for c in coeffs]
    g_full = sum(gk * h**k for k, gk in enumerate(g_star))
    offset_series = sp.expand(sp.series(-sp.log(g_full), h, 0, order).removeO())
    offset = [
        sp.simplify(sp.expand_log(offset_series.coeff(h, k), force=True))
        for k in range(order)
    ]
    min_series = sp.expand(sp.series(F.subs(g, g_full), h, 0, order + 1).removeO())
    min_F = [sp.simplify(min_series.coeff(h, k)) for k in range(order + 1)]
    return Valley(integrand, F, g_star, offset, min_F)


# --------------------------------------------------------------------------- full prior


@dataclass(frozen=True)
class FullPrior:
    r"""Constants of the population loss under :math:`U[0, 1]`.

    With :math:`\varphi(t) = t/(e^t - 1)`.

    Attributes
    ----------
    bias_integral : sympy.Expr
        :math:`\int _0^{\infty} [(1 - \varphi )^2 - 1] dt = -2\zeta (3)`:
        :math:`b^2 L(\infty, b) = 1 + I/b`, :math:`I` this integral.
    zeta_sums : dict
        The termwise steps: :math:`\int t/(e^t-1) = \sum 1/n^2` and
        :math:`\int t^2/(e^t-1)^2 = \sum 2(n-1)/n^3`.
    J, K : sympy.Expr
        :math:`J = \int _0^{\infty} (1 - \varphi )/(e^t - 1) dt = \zeta (2) - 1` and
        :math:`J_2 = \int _0^{\infty} (1 - \varphi ) t e^t/(e^t - 1)^2 dt = \zeta (2) -
        1/2` (the attribute ``K``).
    excess : sympy.Expr
        :math:`G(b) = (1 - 1/b)^2 - 2J/b + 2J_2/b^2`:
        :math:`L(a, b) - L(\infty , b) = (e^{-(a-b)}/b) \cdot G(b)` to first order in
        :math:`e^{-(a-b)}`
        (and up to :math:`e^{-b}`).
    identities : dict
        The derivative identities used (each simplifies to 0) and the boundary limits.
    """

    bias_integral: sp.Expr
    zeta_sums: dict
    J: sp.Expr
    K: sp.Expr
    excess: sp.Expr
    identities: dict


def full_prior():
    """Derive the constants of the full-prior loss (see :class:`FullPrior`).

    Returns
    -------
    FullPrior
    """
    phi = t / (sp.exp(t) - 1)
    # (1 - φ)² - 1 = -2φ + φ², φ = Σ_{n≥1} t e^{-nt}, φ² = Σ_{n≥2} (n-1) t² e^{-nt}
    first = sp.summation(sp.integrate(t * sp.exp(-n * t), (t, 0, sp.oo)), (n, 1, sp.oo))
    second = sp.summation(
        (n - 1) * sp.integrate(t**2 * sp.exp(-n * t), (t, 0, sp.oo)), (n, 2, sp.oo)
    )
    bias_integral = sp.simplify(-2 * first + second)
    # J: 1/(e^t-1)² = -d/dt[1/(e^t-1)] - 1/(e^t-1), integrate t/(e^t-1)² by parts on [ε,
    # ∞): J(ε) = ∫_ε 1/(e^t-1) - ∫_ε t/(e^t-1)² = -ε/(e^ε - 1) + ∫_ε t/(e^t-1)  ->  ζ(2)
    # - 1
    id_square = sp.simplify(
        sp.diff(-1 / (sp.exp(t) - 1), t)
        - 1 / (sp.exp(t) - 1)
        - 1 / (sp.exp(t) - 1) ** 2
    )
    boundary = sp.limit(phi, t, 0)
    J = first - boundary
    # K: t e^t/(e^t-1)² = φ/t - φ', so K = ∫ (1-φ)φ/t - ∫ (1-φ)φ' = J + [φ²/2 - φ]_0^∞
    id_kernel = sp.simplify(
        t * sp.exp(t) / (sp.exp(t) - 1) ** 2 - (phi / t - sp.diff(phi, t))
    )
    id_j = sp.simplify((1 - phi) / (sp.exp(t) - 1) - (1 - phi) * phi / t)
    bracket = sp.limit(phi**2 / 2 - phi, t, sp.oo) - sp.limit(phi**2 / 2 - phi, t, 0)
    K = J + bracket
    excess = sp.expand((1 - 1 / b) ** 2 - 2 * J / b + 2 * K / b**2)
    identities = {
        "square": id_square,
        "kernel": id_kernel,
        "J_integrand": id_j,
        "phi_at_0": boundary,
        "bracket": bracket,
    }
    return FullPrior(
        bias_integral,
        {"first": first, "second": second},
        sp.nsimplify(J),
        sp.nsimplify(K),
        excess,
        identities,
    )


@validation.constrained(dps=_DIGITS)
def quadrature_check(dps=30):
    """The three full-prior integrals by mpmath quadrature (independent of the series).

    Returns
    -------
    dict
        ``bias_integral``, ``J``, ``K`` as mpmath numbers at ``dps`` digits.
    """
    with mpmath.workdps(dps):
        phi = lambda t_: t_ / mpmath.expm1(t_) if t_ else mpmath.mpf(1)  # noqa: E731
        pts = [0, 1, 10, 100, mpmath.inf]
        return {
            "bias_integral": mpmath.quad(
                lambda t_: (1 - phi(t_)) ** 2 - 1 if t_ else -1, pts
            ),
            "J": mpmath.quad(
                lambda t_: (1 - phi(t_)) / mpmath.expm1(t_) if t_ else 0.5, pts
            ),
            "K": mpmath.quad(
                lambda t_: (
                    (1 - phi(t_)) * t_ * mpmath.exp(t_) / mpmath.expm1(t_) ** 2
                    if t_
                    else 0.5
                ),
                pts,
            ),
        }
