"""The declared constraints: checked at the boundary, skipped inside the library."""

import numpy as np
import pytest

from stumplib import population, tasks, training, validation
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


def test_a_call_from_inside_a_checked_call_is_not_checked():
    @validation.constrained(m=validation.Integer())
    def outer(m):
        return repeat(m, 1.5)  # s out of range: only the boundary would see it

    assert outer(3) == (3, 1.5, None)  # passed as is, unconverted
    with pytest.raises(ValueError, match="^s must lie in"):
        repeat(3, 1.5)  # after the checked call, checks are back


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
    assert not constraints._INSIDE.get()


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
