r"""SymPy derivation of the population dynamics of the symmetrized heads.

Both heads share :math:`(a, b)`; uniform features; :math:`c = e^{a - b}`.

**Interior prior** :math:`U[l, 1 - l]` (symmetric, so the offset
:math:`a - (\mathrm{hi} + \mathrm{lo}) b` is :math:`a - b`). The mirror average's
residual is :math:`(\varepsilon(1 - s) - \varepsilon(s))/2` and, inside the prior, only
two layers of width :math:`1/b` survive. At :math:`s = \mathrm{hi} - \sigma` the head
leaks onto its negatives,
:math:`(\mathrm{hi} - \sigma) e^{-(a - b s)} = u (1 - \sigma/\mathrm{hi}) e^{-b \sigma}`
with :math:`u = \mathrm{hi}\, e^{-(a - b \mathrm{hi})}`, and its positive kernel is
truncated at 1, :math:`(l + \sigma) e^{-b(1 - s)} = v (1 + \sigma/l) e^{-b \sigma}` with
:math:`v = l e^{-b l}`; the bottom layer is the mirror image. Up to terms exponentially
smaller,

.. math::

    L = v^2 F(\rho, b), \qquad
    F = \frac{A^2 + A B/b + B^2/(2 b^2)}{4 (\mathrm{hi} - \mathrm{lo}) b},

with :math:`\rho = u/v = (\mathrm{hi}/l) e^{-(a - b)}`, :math:`A = 1 + \rho`,
:math:`B = 1/l - \rho/\mathrm{hi}`: the :math:`B` terms are the relative corrections of
order :math:`1/(b l)`. :func:`interior_laws` reduces the flow on its slow manifold
(offset constant to this order) and expands the laws to first order in :math:`1/b`.

**Full prior** :math:`U[0, 1]`. The edges never leave the prior. Near :math:`s = 1`
with :math:`x = b (1 - s)` the average's residual is :math:`-\varepsilon/2` with
:math:`\varepsilon = (1 + (c - 1) x/b) / (1 + c (e^x - 1))` (both edges alike); as
:math:`c \to \infty` it is the truncation :math:`x / (b (e^x - 1))`, so
:math:`b^3 L \to Z = \frac{1}{2} \int_0^\infty x^2/(e^x - 1)^2\, dx`
(:func:`zeta_constant`). At finite :math:`c` an inner layer :math:`x \sim 1/c` adds
:math:`\lambda/(b c)` to the loss (:func:`leakage_coefficient`), and the balance of the
two gives :func:`full_laws`.
"""

from dataclasses import dataclass

import mpmath
import sympy as sp

from .. import validation

b = sp.Symbol("b", positive=True)
rho = sp.Symbol("rho", positive=True)
lo = sp.Symbol("l", positive=True)
eps = sp.Symbol("epsilon", positive=True)  # 1/b
x, y = sp.symbols("x y", positive=True)
n = sp.Symbol("n", integer=True, positive=True)


def interior_loss(l=lo):
    r""":math:`F(\rho, b)` with :math:`L = v^2 F` for the prior :math:`U[l, 1 - l]`.

    See the module notes.

    Parameters
    ----------
    l : sympy.Expr or number
        The ``l`` of the prior (the symbol ``l`` by default).

    Returns
    -------
    sympy.Expr
    """
    hi = 1 - l
    A, B = 1 + rho, 1 / l - rho / hi
    return (A**2 + A * B / b + B**2 / (2 * b**2)) / (4 * (hi - l) * b)


def layer_loss(l=lo):
    r"""The two-layer loss derived from the layer profile, before simplification.

    :math:`\frac{1}{2 (\mathrm{hi} - \mathrm{lo})} \int_0^{\infty} e^{-2 b \sigma}
    (A + B \sigma)^2\, d\sigma` with :math:`A`, :math:`B` from the leakage
    :math:`u (1 - \sigma/\mathrm{hi})` and truncation :math:`v (1 + \sigma/l)` (in units
    of :math:`v`); equal to :func:`interior_loss`.

    Parameters
    ----------
    l : sympy.Expr or number
        The ``l`` of the prior (the symbol ``l`` by default).

    Returns
    -------
    sympy.Expr
    """
    hi = 1 - l
    sigma = sp.Symbol("sigma", positive=True)
    profile = rho * (1 - sigma / hi) + (1 + sigma / l)
    integral = sp.integrate(
        sp.exp(-2 * b * sigma) * profile**2, (sigma, 0, sp.oo), conds="none"
    )
    return integral / (2 * (hi - l))


@dataclass(frozen=True)
class Law:
    r"""A quantity along the flow: limit :math:`+` correction :math:`/b + O(b^{-2})`.

    Parameters
    ----------
    limit : sympy.Expr
        The limit, in :math:`l`.
    correction : sympy.Expr
        The :math:`1/b` coefficient, in :math:`l`.
    """

    limit: sp.Expr
    correction: sp.Expr

    @validation.constrained(
        l=validation.Scalar(), b_=validation.Positive(optional=True)
    )
    def at(self, l, b_=None):
        r"""Value of the limit (``b_`` omitted) or of both terms at ``b_ > 0`` (array).

        ``l`` is one real number, the :math:`l` of the prior :math:`U[l, 1 - l]`. Where
        :math:`c / b` (``correction / b_``) exceeds the largest float (``b_`` near 0)
        the value is :math:`\pm\infty`.
        """
        limit = float(sp.N(sp.sympify(self.limit).subs(lo, l)))
        if b_ is None:
            return limit
        return limit + float(sp.N(sp.sympify(self.correction).subs(lo, l))) / b_


def _series(expr, order=2):
    """Coefficients ``(c0, c1)`` of ``expr`` in ``epsilon = 1/b``."""
    e = sp.cancel(sp.together(expr.subs(b, 1 / eps)))
    return [
        sp.factor(sp.cancel(sp.diff(e, eps, k).subs(eps, 0) / sp.factorial(k)))
        for k in range(order)
    ]


def interior_laws(l=lo):
    r"""Laws of the averaged head's flow on :math:`U[l, 1 - l]`, to order :math:`1/b`.

    On the slow manifold :math:`a' = b'` (the offset is constant to this order), i.e.
    :math:`2 \rho F_\rho - 2 l F + F_b = 0`, solved as :math:`\rho = \rho_0 +
    \rho_1/b`. There :math:`b' = v^2 H` with :math:`H = \rho F_\rho`, and
    :math:`t = \int db/(v^2 H)` expanded by parts (:math:`v^2 = l^2 e^{-2 l b}`) gives
    :math:`db/d\log t = 1/(2l) + H'/(4 l^2 H)`,
    :math:`L t = F/(2 l H) + F H'/(4 l^2 H^2)` and the loss exponent
    :math:`d\log L/d\log t = -(db/d\log t)\, 2H/F`.

    Returns
    -------
    dict
        ``rho``, ``offset`` (:math:`a - b`), ``db_dlog_t``, ``loss_times_t``,
        ``loss_exponent``: each a :class:`Law` in ``l``.
    """
    F = interior_loss(l)
    balance = sp.cancel((2 * rho * sp.diff(F, rho) - 2 * l * F + sp.diff(F, b)) * b)
    r0, r1 = sp.symbols("r0 r1")
    c0, c1 = _series(balance.subs(rho, r0 + r1 / b))
    root0 = sp.solve(c0, r0)
    root0 = next(r for r in root0 if r.subs(l, sp.Rational(1, 10)).is_positive)
    root1 = sp.factor(sp.solve(c1.subs(r0, root0), r1)[0])
    star = root0 + root1 / b
    H = sp.cancel((rho * sp.diff(F, rho)).subs(rho, star))
    Fs = sp.cancel(F.subs(rho, star))
    dH = sp.diff(H, b)
    rate = 1 / (2 * l) + dH / (4 * l**2 * H)
    lt = Fs / (2 * l * H) + Fs * dH / (4 * l**2 * H**2)
    exponent = -rate * 2 * H / Fs
    hi = 1 - l
    offset = sp.log(hi / (l * root0)) - sp.log(1 + root1 / (root0 * b))
    out = {"rho": Law(root0, root1)}
    for name, expr in (
        ("offset", offset),
        ("db_dlog_t", rate),
        ("loss_times_t", lt),
        ("loss_exponent", exponent),
    ):
        out[name] = Law(*_series(expr))
    return out


def zeta_constant():
    r"""The constant :math:`Z`, summed exactly, and an mpmath quadrature.

    :math:`Z = \frac{1}{2} \int_0^\infty x^2/(e^x - 1)^2\, dx`. As
    :math:`1/(e^x - 1)^2 = \sum_{n \ge 2} (n - 1) e^{-n x}` and
    :math:`\int x^2 e^{-n x}\, dx = 2/n^3`,
    :math:`Z = \sum_{n \ge 2} (n - 1)/n^3 = \zeta(2) - \zeta(3)`.

    Returns
    -------
    exact : sympy.Expr
        :math:`\zeta(2) - \zeta(3)` as SymPy sums it.
    quadrature : sympy.Float
        The integral evaluated by mpmath (30 digits), for comparison.
    """
    exact = sp.simplify(sp.summation((n - 1) / n**3, (n, 2, sp.oo)))
    with mpmath.workdps(30):
        quad = (
            mpmath.quad(lambda t: t**2 / mpmath.expm1(t) ** 2, [0, 1, mpmath.inf]) / 2
        )
        quad = sp.Float(mpmath.nstr(quad, 30), 30)
    return exact, quad


def inner_profiles():
    r"""Residual profiles in the inner layer :math:`y = c x` at each edge.

    As :math:`c \to \infty`.

    Average: :math:`-1/(2 (1 + y))` (the head's positive mass is :math:`p = y/(1 + y)`
    and it errs by :math:`1 - p` toward its negatives; the mirror is exact there).
    Evidence: :math:`-p (1 - p)/(1 + p) = -y/((1 + y)(1 + 2y))` (the head's weight
    :math:`p/(p + 1)`).

    Returns
    -------
    dict of str to sympy.Expr
        The profiles ``"average"`` and ``"evidence"``, in :math:`y`.
    """
    p = y / (1 + y)
    return {"average": -(1 - p) / 2, "evidence": sp.simplify(-p * (1 - p) / (1 + p))}


def leakage_coefficient(rule):
    r"""The coefficient :math:`\lambda` in :math:`L = Z/b^3 + \lambda/(b c) + \ldots`.

    :math:`\lambda = 2 \int_0^\infty r(y)^2\, dy`, :math:`r` the rule's profile
    (:func:`inner_profiles`).

    The two edges each contribute :math:`\int r^2 d(1 - s) = \int r^2 dy / (b c)`.

    Parameters
    ----------
    rule : str
        ``"average"`` or ``"evidence"``.

    Returns
    -------
    sympy.Expr

    Raises
    ------
    ValueError
        If ``rule`` is not one of those.
    """
    profiles = inner_profiles()
    if rule not in profiles:
        raise ValueError(f"rule must be one of {tuple(profiles)} (got {rule!r})")
    profile = profiles[rule]
    return sp.simplify(2 * sp.integrate(sp.expand(profile**2), (y, 0, sp.oo)))


def full_laws(rule="average"):
    r"""Leading-order laws of the flow under :math:`U[0, 1]` for a symmetrized head.

    With :math:`L = Z/b^3 + \lambda/(b c)`, :math:`c = e^{a - b}`:
    :math:`a' = \lambda/(b c)`, :math:`b' = 3Z/b^4 - \lambda/(b c)`. The offset settles
    when :math:`a' = b'` at this order, :math:`c = 2 \lambda b^3/(3 Z)`; then
    :math:`b' = 3Z/(2 b^4)`, so :math:`b^5/t \to 15Z/2`, :math:`b^3 L \to Z` and
    :math:`L \propto t^{-3/5}`.

    Returns
    -------
    dict
        ``Z``, ``lambda``, ``offset_constant`` (limit of :math:`a - b - 3 \log b`),
        ``growth`` (limit of :math:`b^5/t`), ``loss_exponent``, ``loss_prefactor``
        (limit of :math:`L t^{3/5}`), as SymPy numbers.
    """
    Z = zeta_constant()[0]
    lam = leakage_coefficient(rule)
    c = sp.Symbol("c", positive=True)
    a_dot, b_dot = lam / (b * c), 3 * Z / b**4 - lam / (b * c)
    c_star = sp.solve(sp.Eq(a_dot, b_dot), c)[0]
    rate = sp.simplify(b_dot.subs(c, c_star) * b**4)  # b' = rate / b^4
    growth = 5 * rate
    return {
        "Z": Z,
        "lambda": lam,
        "offset_constant": sp.simplify(sp.log(c_star / b**3)),
        "growth": growth,
        "loss_exponent": sp.Rational(-3, 5),
        "loss_prefactor": sp.simplify(Z * growth ** sp.Rational(-3, 5)),
    }
