"""Unit tests for stumplib.validation.

Every check raises ValueError naming the argument.
"""

import numpy as np
import pytest

from stumplib import validation


class TestFinite:
    def test_returns_float_array(self):
        out = validation.finite([1, 2, 3], "v")
        assert out.dtype == float
        np.testing.assert_array_equal(out, [1.0, 2.0, 3.0])

    @pytest.mark.parametrize(
        "bad", [np.nan, np.inf, -np.inf, [0.0, np.nan], [[1.0], [np.inf]]]
    )
    def test_rejects_nonfinite(self, bad):
        with pytest.raises(ValueError, match="^velocity must be finite"):
            validation.finite(bad, "velocity")


class TestUnitInterval:
    def test_accepts_closed_interval(self):
        np.testing.assert_array_equal(
            validation.unit_interval([0.0, 0.5, 1.0], "s"), [0, 0.5, 1]
        )

    @pytest.mark.parametrize("bad", [-1e-300, 1.0 + 1e-15, [0.2, 2.0], -0.0 - 1e-12])
    def test_rejects_outside(self, bad):
        with pytest.raises(ValueError, match=r"^s must lie in \[0, 1\]"):
            validation.unit_interval(bad, "s")

    def test_nan_reported_as_nonfinite(self):
        with pytest.raises(ValueError, match="^s must be finite"):
            validation.unit_interval([0.5, np.nan], "s")


class TestLabels:
    def test_accepts_binary_and_bool(self):
        np.testing.assert_array_equal(
            validation.labels([True, False, 1, 0.0]), [1, 0, 1, 0]
        )

    @pytest.mark.parametrize("bad", [[0, 2], [0.5], [-1, 1], [1 + 1e-12]])
    def test_rejects_nonbinary(self, bad):
        with pytest.raises(ValueError, match=r"^y must hold labels in \{0, 1\}"):
            validation.labels(bad)

    def test_custom_name(self):
        with pytest.raises(ValueError, match="^flags must hold labels"):
            validation.labels([3], "flags")


class TestContext:
    def test_shapes_preserved(self):
        x, y = validation.context(np.full((2, 3, 4), 0.5), np.ones((2, 3, 4)))
        assert x.shape == y.shape == (2, 3, 4)

    def test_shape_mismatch(self):
        with pytest.raises(
            ValueError,
            match=r"x and y must have the same shape \(got \(3,\) and \(4,\)\)",
        ):
            validation.context([0.1, 0.2, 0.3], [0, 1, 1, 0])

    def test_no_context_axis(self):
        with pytest.raises(ValueError, match="x must have at least one axis"):
            validation.context(0.5, 1)

    @pytest.mark.parametrize("shape", [(0,), (3, 0)])
    def test_empty_context(self, shape):
        with pytest.raises(ValueError, match="context is empty"):
            validation.context(np.zeros(shape), np.zeros(shape))

    def test_feature_out_of_range_names_x(self):
        with pytest.raises(ValueError, match=r"^x must lie in \[0, 1\]"):
            validation.context([0.1, 1.5], [0, 1])

    def test_bad_label_names_y(self):
        with pytest.raises(ValueError, match="^y must hold labels"):
            validation.context([0.1, 0.5], [0, 2])


class TestParametersPositiveCount:
    @pytest.mark.parametrize(
        "a, b, name",
        [(np.nan, 1.0, "a"), (1.0, np.inf, "b"), ([1.0, -np.inf], 2.0, "a")],
    )
    def test_parameters_nonfinite(self, a, b, name):
        with pytest.raises(ValueError, match=f"^{name} must be finite"):
            validation.parameters(a, b)

    def test_parameters_pass_through(self):
        a, b = validation.parameters(2, [1, 3])
        assert float(a) == 2.0 and b.tolist() == [1.0, 3.0]

    @pytest.mark.parametrize("bad", [0.0, -1.0, [1.0, 0.0]])
    def test_positive(self, bad):
        with pytest.raises(ValueError, match="^alpha must be positive"):
            validation.positive(bad, "alpha")

    @pytest.mark.parametrize(
        "good, expected", [(1, 1), (7, 7), (3.0, 3), (np.int64(5), 5)]
    )
    def test_count_accepts_integers(self, good, expected):
        out = validation.count(good, "m")
        assert out == expected and type(out) is int

    @pytest.mark.parametrize("bad", [0, -2, 2.5, True, np.inf, np.nan])
    def test_count_rejects(self, bad):
        with pytest.raises(ValueError, match="^m must be an integer >= 1"):
            validation.count(bad, "m")

    @pytest.mark.parametrize("bad", ["3", None, 2j, [3j], ["3"]])
    def test_count_rejects_non_numbers(self, bad):
        with pytest.raises(TypeError, match="^m must be an integer"):
            validation.count(bad, "m")

    def test_count_rows(self):
        assert validation.count_rows([(2, 3, 0), [4.0, 5, 1]], "keys", (1, 1, 0)) == [
            (2, 3, 0),
            (4, 5, 1),
        ]
        for bad in ([(2, 3)], [2, 3, 0], [], [[2, 3, 0], [1, 2]]):
            with pytest.raises(ValueError, match="^keys must be"):
                validation.count_rows(bad, "keys", (1, 1, 0))
        with pytest.raises(ValueError, match=r"^keys must have entries >= \(1, 1, 0\)"):
            validation.count_rows([(0, 3, 0)], "keys", (1, 1, 0))
        with pytest.raises(TypeError, match="^keys must hold real numbers"):
            validation.count_rows([("2", 3, 0)], "keys", (1, 1, 0))

    def test_counts(self):
        assert validation.counts([[2, 3], [4.0, 5]], "sizes") == [2, 3, 4, 5]
        assert validation.counts(0, "k", minimum=0) == [0]

    @pytest.mark.parametrize(
        "bad, error",
        [
            ([3, 0], ValueError),
            ([2, 2.5], ValueError),
            ([True], ValueError),
            ("3", TypeError),
            ([3, None], TypeError),
            ([[2, 3], [4]], ValueError),
        ],
    )
    def test_counts_rejects(self, bad, error):
        with pytest.raises(error, match="^sizes must"):
            validation.counts(bad, "sizes")

    def test_seed(self):
        assert validation.seed(3) == (3,) and validation.seed((1, 2.0)) == (1, 2)
        with pytest.raises(ValueError, match="^seed must hold at least one integer"):
            validation.seed(())
        with pytest.raises(ValueError, match="^seed must be an integer >= 0"):
            validation.seed((1, -1))

    def test_instance(self):
        assert validation.instance(3, int, "n") == 3
        with pytest.raises(TypeError, match="^corpus must be a dict"):
            validation.instance([], dict, "corpus")

    def test_trajectory(self):
        from types import SimpleNamespace

        run = SimpleNamespace(t=[0, 1], a=[1.0, 2.0], b=[3.0, 4.0])
        t, a, b = validation.trajectory(run)
        assert (
            t.dtype == float and a.tolist() == [1.0, 2.0] and b.tolist() == [3.0, 4.0]
        )
        with pytest.raises(TypeError, match="^run must be a law providing t, a, b"):
            validation.trajectory(SimpleNamespace(t=[0.0]), "run")
        with pytest.raises(ValueError, match=r"^trajectory\.b must be finite"):
            validation.trajectory(SimpleNamespace(t=[0, 1], a=[1, 2], b=[1, np.nan]))
        with pytest.raises(
            ValueError, match=r"^trajectory\.t, \.a and \.b must be 1-D"
        ):
            validation.trajectory(SimpleNamespace(t=[0, 1], a=[1, 2], b=[1]))

    @pytest.mark.parametrize("big", [2**53 + 1, 10**30, 1e30, 10**400])
    def test_count_above_the_exact_floats_is_named(self, big):
        # counts are used in float arithmetic: 1e30 hung or overflowed downstream
        assert validation.count(2**53, "m") == 2**53
        with pytest.raises(ValueError, match="^m must be at most 9007199254740992"):
            validation.count(big, "m")
        assert validation.count(big, "m", maximum=None) == int(big)

    def test_count_minimum(self):
        assert validation.count(0, "k", minimum=0) == 0
        with pytest.raises(ValueError, match="^k must be an integer >= 2"):
            validation.count(1, "k", minimum=2)


class TestRealNumbers:
    @pytest.mark.parametrize(
        "bad",
        [
            1 + 1j,
            "0.5",
            None,
            b"1",
            np.array([1.0], dtype=object),
            [0.1, None],
            np.array([1j]),
            ["0.1", "0.2"],
        ],
    )
    def test_not_real_is_type_error(self, bad):
        with pytest.raises(TypeError, match="^speed must"):
            validation.real(bad, "speed")

    def test_ragged_is_value_error(self):
        with pytest.raises(ValueError, match="^speed must be a rectangular array"):
            validation.real([[1.0], [1.0, 2.0]], "speed")

    @pytest.mark.parametrize(
        "good", [1, 2.5, True, np.float32(1.5), np.int64(3), [1, 2], np.arange(3)]
    )
    def test_real_numbers_pass(self, good):
        assert validation.real(good, "v").dtype == float


class TestLaws:
    @pytest.mark.parametrize("bad", [None, "U", 0.5, object()])
    def test_density_law(self, bad):
        with pytest.raises(
            TypeError,
            match="^prior must be a law providing support, density, log_density, bulk",
        ):
            validation.density_law(bad, "prior")

    def test_sampler_accepts_a_point_mass(self):
        from stumplib import tasks

        validation.sampler(tasks.Fixed(0.3))
        with pytest.raises(TypeError, match="^prior must be a law"):
            validation.density_law(tasks.Fixed(0.3), "prior")

    def test_features_default(self):
        assert validation.features(None) is None


class TestShapesAndPoints:
    def test_batch(self):
        assert validation.batch(1.0, "a", (2, 3)).shape == (2, 3)
        with pytest.raises(ValueError, match=r"^a of shape \(4,\) does not broadcast"):
            validation.batch(np.zeros(4), "a", (2, 3))

    def test_complements(self):
        _s, q = validation.complements([0.25, 1.0])
        assert q.tolist() == [0.75, 0.0]
        with pytest.raises(ValueError, match="^q must be 1 - s"):
            validation.complements(0.25, 0.5)

    @pytest.mark.parametrize("bad", [(1.0,), (1.0, 2.0, 3.0), "ab", 3.0])
    def test_point(self, bad):
        with pytest.raises(ValueError, match="^theta0 must be a pair"):
            validation.point(bad)

    def test_scalars(self):
        assert validation.positive_scalar(2, "eta") == 2.0
        with pytest.raises(ValueError, match="^eta must be a scalar"):
            validation.positive_scalar([1.0, 2.0], "eta")
        with pytest.raises(ValueError, match="^eta must be positive"):
            validation.positive_scalar(0.0, "eta")


def test_non_negative_accepts_zero_and_names_the_argument():
    np.testing.assert_array_equal(validation.non_negative([0.0, 2.0], "w"), [0.0, 2.0])
    with pytest.raises(ValueError, match="^w must be non-negative"):
        validation.non_negative([-1.0], "w")
    with pytest.raises(ValueError, match="^w must be finite"):
        validation.non_negative([np.nan], "w")


def test_head_points_takes_one_dimensional_points_of_one_length():
    validation.head_points({"a": np.array([1.0, 2.0]), "b": np.array([3.0, 4.0])})
    validation.head_points({"a": 1.0, "b": 2.0})  # a scalar is one point
    with pytest.raises(ValueError, match=r"a and b must be 1-D .* \(2,\) and \(1,\)"):
        validation.head_points({"a": [1.0, 2.0], "b": [3.0]})
    with pytest.raises(ValueError, match=r"1-D of equal length \(got \(1, 2\)"):
        validation.head_points({"a": [[1.0, 2.0]], "b": [[3.0, 4.0]]})
