"""Every key check of chapters 1-3 and appendices A and E can fail.

Each case recomputes one claim check of a page from the library functions the check
calls and returns ``(measured, expected, tol)`` twice: as the page computes it (the
check holds) and with a perturbed input or a deliberately wrong reference (the check
must then fail, ``|measured - expected| > tol``). A check that no wrong reference could
move outside its tolerance would show up here as a case that cannot be written.
"""

import functools

import numpy as np
import pytest
import sympy as sp

from stumplib import (
    baselines,
    calibration,
    gradcheck,
    head,
    population,
    risk_checks,
    tasks,
)
from stumplib.book import contexts
from stumplib.symbolic import head as symbolic_head
from stumplib.symbolic import population as sym
from stumplib.symbolic import risks

pytestmark = pytest.mark.slow  # SymPy derivations and population losses

EPS = np.finfo(float).eps
INTERIOR, FULL = tasks.Uniform(0.1, 0.9), tasks.Uniform(0.0, 1.0)


def holds(measured, expected, tol):
    return bool(abs(measured - expected) <= tol)


@functools.cache
def exact_risks():
    exact = risks.risks()
    return exact, {k: risks.interior(v) for k, v in exact.items()}


# Chapter 1 ------------------------------------------------------------------


def interior_fraction(rule, wrong):
    """The interior risk times (N+1)(N+2) against the stated numerator."""
    n = risks.N
    interior = exact_risks()[1][rule]
    numerator = {"nearest_positive": 2.0, "midpoint": 0.5}[rule]
    rate = (n + 1) * (n + 3) if wrong else (n + 1) * (n + 2)  # wrong: a rate off
    return contexts.constant(interior * rate), numerator, 0.0


def bayes_ratio(wrong):
    averaged = {k: risks.integrated(v) for k, v in exact_risks()[0].items()}
    bayes = averaged["gap_square"] / (6 if wrong else 12)  # wrong: twice the risk
    return contexts.constant(averaged["midpoint"] / bayes), 1.0, 0.0


def monte_carlo_family(wrong):
    """Largest |z| of simulated risks against the exact ones (1.1 times, if wrong)."""
    rules = {"nearest_positive": baselines.nearest_positive}
    sizes = [10, 100]
    curves = risk_checks.risk_curves(rules, sizes, tasks.Fixed(0.3), 20_000, (7, 1))
    exact = risks.numeric(exact_risks()[0]["nearest_positive"])(0.3, curves.sizes)
    z = curves.z({"nearest_positive": exact * (1.1 if wrong else 1.0)})
    z_max = float(np.max(np.abs(z["nearest_positive"])))
    return z_max, 0.0, risk_checks.z_threshold(2, 0.01 / 3)


def monte_carlo_constant(wrong):
    """N^2 risk at N = 300 against the constant (the other rule's, if wrong)."""
    rules = {"midpoint": baselines.midpoint}
    n = 300
    curves = risk_checks.risk_curves(rules, [n], tasks.Fixed(0.3), 20_000, (7, 2))
    est = curves.risks["midpoint"]
    exact = float(risks.numeric(exact_risks()[0]["midpoint"])(0.3, n))
    constant = 2.0 if wrong else 0.5
    tol = risk_checks.z_threshold(1, 0.01 / 3) * n**2 * est.se[0]
    tol += abs(n**2 * exact - 0.5)
    return n**2 * est.value[0], constant, tol


# Chapter 2 and appendix E ---------------------------------------------------


def _context(positives):
    x = np.sort(tasks.Uniform().sample(30, (2, 0)))
    y = tasks.labels(x, 0.45) if positives else np.zeros(30)
    return x, y


def hard_limit_rate(positives, wrong):
    """Decay rate of |s_hat - limit| against the gap (the next spacing, if wrong)."""
    x, y = _context(positives)
    b = np.geomspace(1.0, 1e12, 481)
    _, bound, gap = head.hard_limit_expansion(b + 2 * np.log(b), b, x, y)
    pair = np.array([b[np.argmax(bound <= 0.05)], 0.0])
    pair[1] = pair[0] + 5 / gap
    rate, tol = head.limit_decay(pair + 2 * np.log(pair), pair, x, y)
    role = np.sort(x[y == 1] if positives else x)
    expected = (role[2] - role[1]) if wrong else gap
    return rate, expected, tol


def gradient_against_differences(wrong):
    """Largest relative error of head.gradient (scaled by 1 + 1e-4, if wrong)."""
    h = 1e-2
    rng = np.random.default_rng((2, 9))
    x, y, _ = tasks.sample_contexts(200, 30, rng=rng)
    b = 10 ** rng.uniform(-2, 2, 200)
    a = b * rng.uniform(0, 1, 200) + rng.uniform(-3, 6, 200)
    contexts_ = head.Contexts(x, y)
    gradient = np.asarray(head.gradient(a, b, contexts_)) * (1 + 1e-4 * wrong)
    differences = gradcheck.central_differences(head.estimate, a, b, h, contexts_)
    fd = gradcheck.compare(gradient, differences, a, b, h)
    return fd.relative, 0.0, np.exp(h) * h**2 / 6 + 1e-5


def gradient_in_b(wrong):
    """SymPy d s_hat/db over Var_w(x), symbolic N, against -1 (+1, if wrong)."""
    proof = symbolic_head.derive()
    ratio = contexts.constant(proof.d_b / -proof.neg_var)
    return ratio, 1.0 if wrong else -1.0, 0.0


# Chapter 3 and appendix A ---------------------------------------------------


def interior_series(wrong):
    """|remainder/T_4 - 1| against lambda/(1 + lambda) (1 - lambda, if wrong)."""
    s, b, off = (g.ravel() for g in np.meshgrid([0.3, 0.7], [50.0, 1e3], [2.0, 4.0]))
    a = b * s + off
    terms = np.array(sym.interior_terms_function(5)(a, b, s))
    residual = population.residual(a, b, s)[0]
    remainder = residual - terms[:4].sum(axis=0)
    lam = np.exp(-off)
    tail = lam / (1 - lam) if wrong else lam / (1 + lam)
    gap = np.abs(np.abs(remainder / terms[4] - 1) - tail)
    edge = np.exp(-b * np.minimum(s, 1 - s))
    tol = 2 * edge + 8 * EPS * (1 + a + b) * np.abs(residual / terms[4])
    return float(np.max(gap / tol)), 0.0, 1.0


@functools.cache
def valley():
    derived = sym.interior_valley(3)
    hi = INTERIOR.hi
    offset = [float(c.subs(sym.hi, hi)) for c in derived.offset]
    min_f = [float(c.subs(sym.hi, hi)) for c in derived.min_F]
    return offset, min_f


def valley_offset(wrong):
    """a*(b) - hi b - log b at b = 1000 against c0 + c1/b (c0 alone, if wrong)."""
    (c0, c1, c2), _ = valley()
    b = 1e3
    a = calibration.a_star(b, INTERIOR)
    expected = c0 + (0.0 if wrong else c1 / b)
    tol = 2 * abs(c2) / b**2 + 1e-12 + 4 * EPS * a
    return a - INTERIOR.hi * b - np.log(b), expected, tol


def valley_loss(wrong):
    """(b^2 min L - 1)(hi - lo) b against F0 + F1/b (F0 alone, if wrong)."""
    _, (f0, f1, f2, _) = valley()
    b = 1e3
    scaled = (b**2 * calibration.min_loss(b, INTERIOR) - 1) * 0.8 * b
    expected = f0 + (0.0 if wrong else f1 / b)
    return scaled, expected, 2 * abs(f2) / b**2 + 1e3 * b * EPS


def no_finite_minimizer(wrong):
    """Grid points with dL/da >= 0 under U[0, 1] (under U[0.1, 0.9], if wrong)."""
    prior = INTERIOR if wrong else FULL
    count = sum(
        population.gradient(b + d, b, prior)[0] >= 0
        for b in (30.0, 300.0)
        for d in (-10.0, 0.0, 10.0)
    )
    return int(count), 0, 0


def zeta_constant(wrong):
    """b (1 - b^2 L(inf, b)) at b = 1000 against 2 zeta(3) (2 zeta(2), if wrong)."""
    b = 1e3
    measured = b * (1 - b**2 * calibration.loss_at_infinity(b, FULL))
    expected = 2 * float(sp.zeta(2 if wrong else 3))
    return measured, expected, 2 * b * 4 * EPS + 2 * (b + 1) * np.exp(-b)


def full_excess(delta, wrong):
    """b e^delta (L - L_inf) against G(b) - nu (delta - 1) (without the 1/b^2 term of
    G, if wrong), tolerance as on the page."""
    b, nu = 1e3, np.exp(-delta)
    full = sym.full_prior()
    l_inf = calibration.loss_at_infinity(b, FULL)
    measured = b * np.exp(delta) * (population.loss(b + delta, b, FULL) - l_inf)
    expected = float(full.excess.subs(sym.b, b)) - nu * (delta - 1)
    if wrong:
        expected -= float(sp.pi**2 / 3) / b**2
    tol = 2 * (2 * delta) * nu / b + 2 * b * np.exp(delta) * l_inf * 4 * EPS
    return measured, expected, tol


def nu_coefficient(wrong):
    """The coefficient of nu at a - b = 12 against a - b - 1 (0, if wrong)."""
    b, delta = 1e3, 12.0
    nu = np.exp(-delta)
    full = sym.full_prior()
    l_inf = calibration.loss_at_infinity(b, FULL)
    excess = population.loss(b + delta, b, FULL) - l_inf
    y = (float(full.excess.subs(sym.b, b)) - b * np.exp(delta) * excess) / nu
    tol = 2 * (2 * delta) / b + 2 * b * np.exp(delta) * l_inf * 4 * EPS / nu
    return y, 0.0 if wrong else delta - 1, tol


def inner_layer(wrong):
    """Residual in the inner layer against its two orders (the first alone, if wrong):
    the largest deviation over its tolerance, against 0 +- 1."""
    inner = sym.inner_layer()
    order = [sp.lambdify((sym.w, sym.b), o, modules="numpy") for o in inner.orders]
    w, b, d = (g.ravel() for g in np.meshgrid([0.3, 3.0], [1e2, 1e3], [10.0, 15.0]))
    nu = np.exp(-d)
    ups = nu * w / b
    r = population.residual(b + d, b, 1.0 - ups, ups)[0]
    r0, r1, r2 = (f(w, b) for f in order)
    first = 0.0 if wrong else nu * r1
    deviation = np.abs((r - r0 - first) / (nu * r1))
    tol = 2 * nu * np.abs(r2 / r1) + 4 * EPS * (1 + 2 * b + d) / np.abs(nu * r1)
    return float(np.max(deviation / tol)), 0.0, 1.0


def valley_coefficients(wrong):
    """SymPy valley coefficients against log(hi/2), -2/hi (log hi, if wrong)."""
    derived = sym.interior_valley(3)
    stated = sp.log(sym.hi) if wrong else sp.log(sym.hi / 2)
    differences = (derived.offset[0] - stated, derived.offset[1] + 2 / sym.hi)
    return sum(float(sp.simplify(d) != 0) for d in differences), 0, 0


def zeta_coefficient(wrong):
    """The SymPy bias integral against -2 zeta(3) (-2 zeta(2), if wrong)."""
    stated = -2 * sp.zeta(2 if wrong else 3)
    full = sym.full_prior()
    return float(sp.simplify(full.bias_integral - stated) != 0), 0, 0


def library_against_closed_form(wrong):
    """population.residual against the 50-digit closed form, in units of
    eps (1 + |a| + |b|) (at a shifted by 1e-9, if wrong), against 0 +- 4."""
    units = []
    for a, b, s in ((3.0, 30.0, 0.3), (95.0, 100.0, 0.95), (20.0, 3.0, 0.5)):
        reference = sym.residual_high_precision(a + 1e-9 * wrong, b, s)
        library = float(population.residual(a, b, s)[0])
        units.append(abs(library - reference) / (EPS * (1 + abs(a) + abs(b))))
    return max(units), 0.0, 4.0


CASES = {
    "ch1 interior risk, nearest positive": functools.partial(
        interior_fraction, "nearest_positive"
    ),
    "ch1 interior risk, midpoint": functools.partial(interior_fraction, "midpoint"),
    "ch1 midpoint equals the Bayes risk": bayes_ratio,
    "ch1 Monte Carlo risks": monte_carlo_family,
    "ch1 Monte Carlo constant": monte_carlo_constant,
    "ch2 hard limit, nearest positive": functools.partial(hard_limit_rate, True),
    "ch2 hard limit, smallest feature": functools.partial(hard_limit_rate, False),
    "ch2 gradient in b (SymPy)": gradient_in_b,
    "appendix E gradient": gradient_against_differences,
    "ch3 interior series": interior_series,
    "ch3 valley offset": valley_offset,
    "ch3 valley loss": valley_loss,
    "ch3 no finite minimizer": no_finite_minimizer,
    "ch3 2 zeta(3)": zeta_constant,
    "ch3 excess at a - b = 22": functools.partial(full_excess, 22.0),
    "ch3 inner layer": inner_layer,
    "appendix A nu term": nu_coefficient,
    "ch3 valley coefficients (SymPy)": valley_coefficients,
    "ch3 2 zeta(3) (SymPy)": zeta_coefficient,
    "appendix A library against the closed form": library_against_closed_form,
}


@pytest.mark.parametrize("name", CASES)
def test_the_check_holds_and_a_wrong_reference_fails_it(name):
    case = CASES[name]
    assert holds(*case(wrong=False)), f"{name}: the check as the page makes it"
    assert not holds(*case(wrong=True)), f"{name}: a wrong reference still passes"


def test_the_chapter_2_rate_tolerance_is_below_the_effect():
    """The rate check's tolerance is about 1% of the gap, far below the spacing to the
    next example (what a wrong leading term would give)."""
    for positives in (True, False):
        _, gap, tol = hard_limit_rate(positives, wrong=False)
        assert tol < 0.02 * gap
