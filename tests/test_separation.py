"""The abstract's two terms apart (stumplib.separation)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stumplib import frozen, separation

NEAREST = "nearest positive"


def _fresh(rms, se, rule_rms, rule_se):
    """FreshErrors of heads x sizes ``rms``/``se`` and a nearest-positive rule."""
    rule = frozen.Errors(np.asarray(rule_rms, float), np.asarray(rule_se, float))
    return frozen.FreshErrors(
        frozen.Errors(np.asarray(rms, float), np.asarray(se, float)), {NEAREST: rule}
    )


def test_far_is_the_relative_excess_over_its_allowance_by_hand():
    # one head, b = 40, floor 0.05 at the largest N = 100: allowance (b/N) / min(1,
    # (b e)^2) = 0.4 / 1 = 0.4, no standard error; a 10% excess is 0.25 of it.
    # At N = 4 <= b/2 (0.5^4 > 1e-3, so no size is local): near = 0.
    errors = {0.5: _fresh([[0.3, 0.055]], [[0.0, 0.0]], [0.2, 0.01], [0.0, 0.0])}
    apart = separation.separation(errors, {0.5: [0.05]}, [4, 100], [40.0], 0.01)
    assert apart.far == pytest.approx(0.1 / 0.4, rel=1e-12)
    assert apart.near == 0.0


def test_near_is_the_difference_from_the_nearest_positive_over_n_over_b():
    # b = 400, s = 0.1 at N = 16 and 64: both <= b/2 and 0.1^N <= 1e-3; the head is
    # 2% above the rule at N = 16 (allowance 16/400 = 0.04) and equal at 64.
    errors = {0.1: _fresh([[0.102, 0.01]], [[0.0, 0.0]], [0.1, 0.01], [0.0, 0.0])}
    apart = separation.separation(errors, {0.1: [0.01]}, [16, 64], [400.0], 0.01)
    assert apart.near == pytest.approx(0.02 / 0.04, rel=1e-9)
    assert apart.far == 0.0


@settings(max_examples=30, deadline=None)
@given(
    st.floats(0.01, 0.3),
    st.floats(5.0, 500.0),
    st.floats(0.0, 0.01),
)
def test_heads_at_their_floor_and_equal_to_the_rule_are_apart(floor, b, se):
    sizes = [4, 16, 64, 1024]
    rms = np.full((1, 4), floor)
    errors = {0.3: _fresh(rms, np.full((1, 4), se), rms[0], np.full(4, se))}
    apart = separation.separation(errors, {0.3: [floor]}, sizes, [b], 0.01)
    assert apart == (0.0, 0.0)


def test_more_standard_errors_only_shrink_the_scaled_values():
    errors = {0.5: _fresh([[0.3, 0.07]], [[0.0, 0.0]], [0.2, 0.01], [0.0, 0.0])}
    noisy = {0.5: _fresh([[0.3, 0.07]], [[0.0, 0.01]], [0.2, 0.01], [0.0, 0.0])}
    args = ({0.5: [0.05]}, [4, 100], [40.0], 0.01)
    assert (
        separation.separation(noisy, *args).far
        < separation.separation(errors, *args).far
    )


@pytest.mark.parametrize(
    ("change", "error", "match"),
    [
        (dict(errors={}), TypeError, "errors"),
        (dict(floors={0.3: [0.05]}), ValueError, "floors"),
        (dict(b=[40.0, 50.0]), ValueError, r"errors\[0.5\]"),
        (dict(floors={0.5: [0.05, 0.06]}), ValueError, r"floors\[0.5\]"),
        (dict(alpha=1.0), ValueError, "alpha"),
        (dict(alpha=0.0), ValueError, "alpha"),
        (dict(b=[1.0]), ValueError, "b must exceed 1"),
        (dict(floors={0.5: [0.0]}), ValueError, r"floors\[0.5\]"),
        (dict(sizes=[4, 0]), ValueError, "sizes"),
    ],
)
def test_bad_inputs_are_named(change, error, match):
    args = dict(
        errors={0.5: _fresh([[0.3, 0.055]], [[0.0, 0.0]], [0.2, 0.01], [0.0, 0.0])},
        floors={0.5: [0.05]},
        sizes=[4, 100],
        b=[40.0],
        alpha=0.01,
    )
    with pytest.raises(error, match=match):
        separation.separation(**{**args, **change})


def test_errors_without_the_nearest_positive_rule_are_refused():
    fresh = _fresh([[0.3, 0.055]], [[0.0, 0.0]], [0.2, 0.01], [0.0, 0.0])
    errors = {0.5: fresh._replace(rules={})}
    with pytest.raises(TypeError, match="nearest-positive"):
        separation.separation(errors, {0.5: [0.05]}, [4, 100], [40.0], 0.01)
