"""The declared constraints: checked at the boundary, skipped inside the library."""

import numpy as np
import pytest

from stumplib import corpus_rule, population, sparse_corpus, tasks, training, validation
from stumplib.validation import arrays, constraints


@validation.constrained(m=validation.Integer(), s=validation.UnitInterval())
def repeat(m, s, note=None):
    return m, s, note


def test_a_call_from_outside_is_checked_and_converted():
    m, s, _ = repeat(2.0, 0.5)
    assert (m, type(m)) == (2, int)
    assert isinstance(s, np.ndarray) and s == 0.5
    with pytest.raises(ValueError, match=r"^m must be an integer >= 1 \(got 0\)$"):
        repeat(0, 0.5)


def test_a_value_computed_inside_a_checked_call_is_checked():
    """A derived value reaching a nested call is checked there (issue 50)."""

    @validation.constrained(m=validation.Integer())
    def outer(m):
        return repeat(m, 1.5)  # s out of range, computed by the caller

    with pytest.raises(ValueError, match="^s must lie in"):
        outer(3)


def _counting(calls):
    def check(value, name):
        calls.append(name)
        return validation.finite(value, name)

    return validation.Constraint(check, kind="counted finite")


def test_a_value_passed_through_unchanged_is_checked_once():
    calls = []
    counted = _counting(calls)

    @validation.constrained(x=counted)
    def inner(x):
        return x

    @validation.constrained(x=counted)
    def outer(x):
        return inner(x), inner(x + 1.0), inner(x)

    through, derived, again = outer(2.0)
    assert calls == ["x", "x"]  # the boundary, and the derived x + 1 only
    assert through is again and float(derived) == 3.0


def test_a_value_passed_on_under_another_constraint_is_checked():
    """Checked as a uniform prior, then passed to a function that needs hi < 1."""
    with pytest.raises(ValueError, match=r"^prior must lie below 1 \(got hi = 1.0\)"):
        corpus_rule.rule_scale_ratio(tasks.Uniform(0, 1))
    # and through the library: a start computed from the arguments
    assert corpus_rule.rule_scale_ratio(tasks.Uniform(0.1, 0.9)) > 0


def test_a_derived_argument_of_a_nested_library_call_is_checked():
    """The first case of issue 50: a derived lowest anchor reached a nested call."""

    @validation.constrained(b0=validation.Scalar(), n=validation.Integer())
    def draw(b0, n):
        b_min = sparse_corpus.lowest_anchor(b0, n)  # -0.375 from b0 = 0.625
        return sparse_corpus.SparseCorpus.sample(4, n, b_min, tasks.Uniform(), seed=0)

    with pytest.raises(ValueError, match="^b_min must"):
        draw(0.625, 300)


def test_the_unchecked_function_is_the_raw_one():
    assert repeat.unchecked(1, 2.0) == (1, 2.0, None)


def test_the_checks_come_back_after_an_error():
    with pytest.raises(ValueError):
        repeat(-1, 0.5)
    with pytest.raises(ValueError, match="^s must"):
        repeat(1, 2.0)


def test_a_callable_from_outside_runs_as_outside():
    """A user's callback calling public functions gets their checks."""

    def direction(a, b, k):
        population.gradient(a, b, "not a law")

    with pytest.raises(TypeError, match="^prior must be a law"):
        training.descend(direction, (1.0, 1.0), 0.1, 3)


def test_joint_checks_run_after_the_arguments():
    def ordered(values):
        if values["lo"] >= values["hi"]:
            raise ValueError("lo must be below hi")

    @validation.constrained(ordered, lo=validation.Scalar(), hi=validation.Scalar())
    def width(lo, hi):
        return hi - lo

    assert width(1, 3) == 2.0
    with pytest.raises(ValueError, match="^lo must be below hi$"):
        width(3, 1)
    with pytest.raises(TypeError, match="^hi must"):
        width(3, None)


def test_an_unknown_name_is_a_type_error():
    with pytest.raises(TypeError, match="has no argument q"):
        validation.constrained(q=validation.Real())(lambda s: s)


def test_the_declared_constraints_are_recorded():
    assert set(repeat.__constraints__) == {"m", "s"}
    assert repeat.__wrapped__(1, 2, 3) == (1, 2, 3)


FACTORIES = {
    "Real()": validation.Real(),
    "Finite()": validation.Finite(),
    "Positive()": validation.Positive(),
    "NonNegative()": validation.NonNegative(),
    "UnitInterval()": validation.UnitInterval(),
    "Labels()": validation.Labels(),
    "Scalar()": validation.Scalar(),
    "PositiveScalar()": validation.PositiveScalar(),
    "Exceeding(1)": validation.Exceeding(1),
    "Exceeding(-1, scalar=False)": validation.Exceeding(-1, scalar=False),
    "Within(-1e8, 1e8)": validation.Within(-1e8, 1e8),
    "Within(1e-300, 1e300, scalar=True)": validation.Within(1e-300, 1e300, scalar=True),
    "Integer()": validation.Integer(),
    "Integer(minimum=0, maximum=None)": validation.Integer(minimum=0, maximum=None),
    "Integers()": validation.Integers(),
    "Rows(1, 1, 0)": validation.Rows(1, 1, 0),
    "Point()": validation.Point(),
    "Law('sample')": validation.Law("sample"),
    "DensityLaw()": validation.DensityLaw(),
    "Features()": validation.Features(),
    "Sampler()": validation.Sampler(),
    "Instance(tasks.Uniform)": validation.Instance(tasks.Uniform),
    "Function()": validation.Function(),
    "Rules()": validation.Rules(),
    "Seed()": validation.Seed(),
    "Rng()": validation.Rng(),
    "Trajectory()": validation.Trajectory(),
}


@pytest.mark.parametrize("constraint", FACTORIES.values(), ids=list(FACTORIES))
def test_every_bad_value_is_rejected_naming_the_argument(constraint):
    assert constraint.bad_values()
    # a point's entries are named a and b
    named = r"^(arg|a|b)\b" if constraint.check is arrays.point else r"^arg\b"
    for value, error in constraint.bad_values():
        with pytest.raises(error, match=named):
            constraint(value, "arg")


def test_an_optional_constraint_passes_none():
    assert validation.Features()(None, "features") is None
    assert all(v is not None for v, _ in validation.Features().bad_values())


def test_the_context_is_private_to_the_module():
    assert constraints._CHECKED.get() is None


def test_one_context_checks_x_and_y_together():
    @validation.constrained(
        validation.one_context, x=validation.UnitInterval(), y=validation.Labels()
    )
    def size(x, y):
        return x.shape

    assert size([[0.1, 0.9]], [[0, 1]]) == (1, 2)
    with pytest.raises(ValueError, match=r"^x and y must have the same shape"):
        size([0.1, 0.9], [0, 1, 1])
    with pytest.raises(ValueError, match="^the context is empty"):
        size(np.zeros((2, 0)), np.zeros((2, 0)))
    with pytest.raises(ValueError, match="^y must"):
        size([0.1], [0.5])  # each argument first, then the joint check


def test_exceeding_asks_for_a_strict_order_naming_both():
    @validation.constrained(
        validation.exceeding("b_max", "b0"),
        b0=validation.PositiveScalar(),
        b_max=validation.PositiveScalar(),
    )
    def span(b0, b_max):
        return b_max - b0

    assert span(2.5, 10.0) == 7.5
    for b_max in (2.5, 1.0):  # equal is not beyond
        with pytest.raises(
            ValueError, match=r"^b_max must exceed b0 \(got .* and 2\.5\)"
        ):
            span(2.5, b_max)


def test_batched_context_fits_a_and_b_to_the_batch():
    @validation.constrained(
        validation.batched_context,
        a=validation.Finite(),
        b=validation.Finite(),
        x=validation.UnitInterval(),
        y=validation.Labels(),
    )
    def shapes(a, b, x, y):
        return np.shape(a), x.shape

    assert shapes(1.0, [1.0, 2.0], [[0.1], [0.9]], [[0], [1]]) == ((), (2, 1))
    with pytest.raises(ValueError, match=r"^b of shape \(3,\) does not broadcast"):
        shapes(1.0, [1.0, 2.0, 3.0], [[0.1], [0.9]], [[0], [1]])
    with pytest.raises(ValueError, match="^x and y must have the same shape"):
        shapes(1.0, 1.0, [[0.1], [0.9]], [[0, 1]])


#: Where the library skips a check on a value it computed (``f.unchecked``): only the
#: per-evaluation kernels of the population and corpus losses, on nodes, weights and
#: class summaries computed from checked arguments (checked, they cost 10-50% of an
#: evaluation; bench/run_checks.py). A new site is a decision: add it here.
UNCHECKED_SITES = {
    "corpus.py": {"moments.combine"},
    "population.py": {
        "moments.combine",
        "moments.truncated_exponential",
        "quadrature.graded",
        "quadrature.clipped",
        "quadrature.gauss_legendre",
        "prior_nodes",
        "squared_error",
    },
    "symmetrization.py": {
        "moments.truncated_exponential",
        "quadrature.graded",
        "population.prior_nodes",
        "population.squared_error",
        "RESIDUALS[rule]",
    },
}


def test_values_go_unchecked_only_at_the_listed_kernel_calls():
    import pathlib
    import re

    root = pathlib.Path(constraints.__file__).parents[1]
    found = {}
    for path in sorted(root.rglob("*.py")):
        for callee in re.findall(
            r"(\w[\w.]*(?:\[\w+\])?)\.unchecked\(", path.read_text()
        ):
            found.setdefault(path.name, set()).add(callee)
    assert found == UNCHECKED_SITES


def test_within_declares_a_closed_range_naming_the_argument():
    within = validation.Within(-1e8, 1e8)
    assert within([-1e8, 0.0, 1e8], "b").tolist() == [-1e8, 0.0, 1e8]
    assert within(np.zeros(0), "b").shape == (0,)  # an empty batch is valid
    with pytest.raises(ValueError, match=r"^b must lie in \[-1e\+08, 1e\+08\]$"):
        within([0.0, 2e8], "b")
    one = validation.Within(1e-300, 1e300, scalar=True)
    assert one(1.0, "guess") == 1.0
    with pytest.raises(
        ValueError,
        match=r"^guess must lie in \[1e-300, 1e\+300\] \(got 4.94066e-324\)$",
    ):
        one(5e-324, "guess")
