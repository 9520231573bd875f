"""Each keyed check of chapters 4 and 7 and appendix D can fail.

For every check that a page can declare (its ``key``), a perturbed input or a
deliberately wrong reference moves it outside its tolerance: recomputed here where
the computation is cheap (the SymPy risks, the bias cancellation, a Monte Carlo risk,
the admissible steps), and from the stored record of the check otherwise (the flows
to t = 1e10 and the large Monte Carlo runs), against the plausible wrong value named
beside it. A check that no wrong value can move is not a test of its claim.
"""

import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from stumplib import (
    baselines,
    calibration,
    dynamics,
    fitting,
    head,
    population,
    risk_checks,
    symmetrization,
    tasks,
)
from stumplib.book import claims, identities
from stumplib.symbolic import boundary, risks

pytestmark = pytest.mark.slow

BOOK = Path(__file__).resolve().parents[1] / "book"
N = boundary.N


@cache
def stored(key):
    """The stored record of the check with ``key`` in one of the owned pages."""
    pages = (
        "04-coordinated-divergence",
        "07-boundary-and-symmetrization",
        "appendix-d-symmetrization-checks",
    )
    for page in pages:
        notebook = json.loads((BOOK / f"{page}.ipynb").read_text())
        for cell in notebook["cells"]:
            for output in cell.get("outputs", []):
                record = output.get("data", {}).get(claims.MIME)
                if record and record.get("key") == key:
                    return record
    raise LookupError(f"no stored check with key {key!r}")


def fails(measured, expected, tol):
    return not abs(measured - expected) <= tol


# --- the SymPy risks of chapter 7: a wrong closed form fails ------------------------

LAWS = {  # the closed forms of the page, and a plausible wrong one each
    "head": (N / ((N + 1) * (N + 2)), N / ((N + 1) * (N + 3))),
    "average": (1 / (2 * (N + 2)), 1 / (2 * (N + 1))),
    "evidence": (
        (N + 7) / (2 * (N + 1) * (N + 2) * (N + 3)),
        1 / (2 * (N + 2) * (N + 3)),  # "the evidence-aware head is Bayes"
    ),
    "midpoint": (1 / (2 * (N + 2) * (N + 3)), 1 / (2 * (N + 1) * (N + 2))),
}


@pytest.mark.parametrize("rule", list(LAWS))
def test_sympy_risk_checks_fail_on_a_wrong_closed_form(rule):
    derived = risks.integrated(boundary.risk(rule))
    right, wrong = LAWS[rule]
    assert identities.check("symmetrization", derived, right, "risk") == 0
    with pytest.raises(claims.ClaimFailed):
        identities.check("symmetrization", derived, wrong, "risk")


def test_interior_gain_check_fails_on_a_wrong_factor():
    interior = {
        rule: risks.interior(boundary.risk(rule)) for rule in ("head", "average")
    }
    gain = interior["head"] / interior["average"]
    assert identities.check("symmetrization", gain, 4, "gain") == 0
    with pytest.raises(claims.ClaimFailed):
        identities.check("symmetrization", gain, 2, "gain")


def test_posthoc_closed_forms_are_not_the_plausible_wrong_ones():
    full = sp.zeta(2) - sp.zeta(3) + sp.Rational(1, 2)
    interior = (1265 + 25 * sp.sqrt(2353)) / sp.Integer(1448)
    for right, wrong in (
        (full, sp.zeta(2) - sp.zeta(3)),
        (interior, sp.Rational(5, 4)),
    ):
        with pytest.raises(claims.ClaimFailed):
            identities.check("symmetrized-dynamics", right, wrong, "limit")


# --- appendix D: the cancelled bias, recomputed with a perturbed mirror -------------


def bias_sides(mirror_b_factor=1.0):
    prior, b = tasks.Uniform(0.1, 0.9), 100.0
    a = calibration.a_star(b, prior)
    s = np.linspace(0.2, 0.8, 601)
    head_p = population.estimate(a, b, s)
    mirror_p = 1 - population.estimate(a, b * mirror_b_factor, 1 - s)
    measured = b * np.max(np.abs((head_p + mirror_p) / 2 - s))
    eps_s = symmetrization.edge_terms(a, b, s)[0]
    eps_m = symmetrization.edge_terms(a, b, 1 - s)[0]
    return measured, b * float(np.max(np.abs(eps_m - eps_s))) / 2, 1e-9


def test_bias_cancellation_fails_with_a_mirror_at_another_scale():
    assert not fails(*bias_sides())
    assert fails(*bias_sides(mirror_b_factor=1.01))  # 1% off: a 1/b term is left


# --- a Monte Carlo risk against a wrong exact law -----------------------------------


def test_monte_carlo_risk_check_fails_against_a_wrong_law():
    n = 16
    got = baselines.monte_carlo_risks(
        {"head": head.hard_limit}, n, tasks.Uniform(), 20_000, batches=4, rng=(7, 1)
    )["head"]
    exact = n / ((n + 1) * (n + 2))
    assert risk_checks.largest_z([got[0]], [got[1]], [exact]) <= 4.0
    assert risk_checks.largest_z([got[0]], [got[1]], [exact * 1.2]) > 4.0


# --- chapter 4: the admissible step at the uncalibrated start -----------------------


def test_steps_at_start_check_fails_for_the_other_step_sizes():
    prior, b0 = tasks.Uniform(0.1, 0.9), np.array([20.0, 40.0, 80.0])
    at_start = dynamics.stable_steps(prior, 0.9 * b0, b0)
    fit = fitting.power_law(b0, at_start.largest)
    assert not fails(fit.slope, 2.0, 1.0 - 3 * fit.slope_se)
    # 2/lambda_max at the start (exponent about 0.8) is not in (1, 3)
    critical = fitting.power_law(b0, at_start.critical)
    assert fails(critical.slope, 2.0, 1.0 - 3 * fit.slope_se)


# --- stored records: a plausible wrong reference or input fails ---------------------

Z = float(sp.zeta(2) - sp.zeta(3))
WRONG = {  # key: (what is wrong, the wrong value of the compared side)
    "posthoc-limit-full-fit": ("limit without the leakage's 1/2", lambda r: Z),
    "posthoc-limit-interior-fit": ("valley xi0 = 2/hi: 1/(hi - lo)", lambda r: 1.25),
    "sym-interior-gain-monte-carlo": ("a gain of 2", lambda r: 2.0),
    "sym-average-edge-factor": ("the interior gain 4", lambda r: 4.0),
    "sym-average-order-n": ("the Bayes order N^-2", lambda r: -2.0),
    "boundary-order-n-finite": ("the Bayes order N^-2", lambda r: -2.0),
    "ranking-full": ("the order flipped", lambda r: -float(r["measured"])),
    "ranking-interior": ("the order flipped", lambda r: -float(r["measured"])),
    "separation-interior": ("calibration slower", lambda r: -float(r["measured"])),
    "separation-full": ("calibration slower", lambda r: -float(r["measured"])),
}
MEASURED_SIDE = {
    "ranking-full",
    "ranking-interior",
    "separation-interior",
    "separation-full",
}


@pytest.mark.parametrize("key", list(WRONG))
def test_stored_check_fails_against_a_wrong_value(key):
    record = stored(key)
    measured, expected, tol = (
        float(record[k]) for k in ("measured", "expected", "tol")
    )
    assert record["holds"] and record.get("sides")
    wrong = WRONG[key][1](record)
    if key in MEASURED_SIDE:
        assert fails(wrong, expected, tol), WRONG[key][0]
    else:
        assert fails(measured, wrong, tol), WRONG[key][0]


def test_the_replay_is_labelled_a_replay():
    notebook = json.loads((BOOK / "appendix-d-symmetrization-checks.ipynb").read_text())
    records = [
        output["data"][claims.MIME]
        for cell in notebook["cells"]
        for output in cell.get("outputs", [])
        if claims.MIME in output.get("data", {})
    ]
    replays = [r for r in records if "average_residual equals" in r["statement"]]
    assert [r["evidence"] for r in replays] == ["replay"]
    assert stored("sym-bias-cancels")["evidence"] == "exact"
