"""Tests for stumplib.training: recording grid, GD against hand steps, gradient flow."""

import numpy as np
import pytest

from stumplib import population, tasks, training
from stumplib.corpus import Corpus

PRIOR = tasks.Uniform(0.1, 0.9)


def test_log_steps_covers_ends_and_is_sorted():
    grid = training.log_steps(10_000, points=50)
    assert grid[0] == 0 and grid[-1] == 10_000
    assert np.all(np.diff(grid) > 0)
    assert 30 <= grid.size <= 60


def test_log_steps_rejects_negative():
    with pytest.raises(ValueError, match="steps"):
        training.log_steps(-1)


def test_gradient_descent_matches_hand_iteration_on_a_quadratic():
    def quadratic(a, b):
        return a**2 + 3 * b**2, 2 * a, 6 * b

    traj = training.gradient_descent(
        quadratic, (1.0, 1.0), eta=0.1, steps=20, points=100
    )
    k = np.round(traj.t / 0.1).astype(int)
    np.testing.assert_allclose(traj.a, 0.8**k, rtol=1e-12)
    np.testing.assert_allclose(traj.b, 0.4**k, rtol=1e-12)
    np.testing.assert_allclose(traj.loss, traj.a**2 + 3 * traj.b**2, rtol=1e-12)


def test_gradient_descent_reports_divergence():
    def unstable(a, b):
        with np.errstate(over="ignore"):
            return np.float64(a) ** 2, 2 * a, 0.0

    with pytest.raises(FloatingPointError, match="diverged"):
        training.gradient_descent(unstable, (1.0, 0.0), eta=5.0, steps=2000)


def test_gradient_descent_rejects_bad_step():
    with pytest.raises(ValueError, match="eta"):
        training.gradient_descent(
            lambda a, b: (0.0, 0.0, 0.0), (0.0, 0.0), eta=0.0, steps=1
        )
    with pytest.raises(ValueError, match="a must be finite"):
        training.gradient_descent(
            lambda a, b: (0.0, 0.0, 0.0), (np.nan, 0.0), eta=1.0, steps=1
        )


def test_population_descent_first_step():
    theta0 = (0.9 * 20 + np.log(20), 20.0)
    traj = training.population_descent(PRIOR, theta0, eta=2.0, steps=1)
    _, g_a, g_b = population.loss_and_gradient(*theta0, PRIOR)
    assert traj.a[-1] == pytest.approx(theta0[0] - 2.0 * g_a, rel=1e-14)
    assert traj.b[-1] == pytest.approx(theta0[1] - 2.0 * g_b, rel=1e-14)


def test_population_descent_decreases_the_loss():
    traj = training.population_descent(
        PRIOR, (0.9 * 20 + np.log(20), 20.0), eta=20.0, steps=300
    )
    assert np.all(np.diff(traj.loss) <= 1e-15)
    assert traj.loss[-1] < traj.loss[0]


def test_corpus_descent_decreases_the_loss():
    corpus = Corpus.sample(200, 100, rng=3)
    traj = training.corpus_descent(
        corpus, (0.9 * 10 + np.log(10), 10.0), eta=5.0, steps=200
    )
    assert traj.loss[-1] < traj.loss[0]
    assert traj.loss[-1] == pytest.approx(
        corpus.loss(traj.a[-1], traj.b[-1]), rel=1e-12
    )


def test_gradient_flow_agrees_with_small_step_descent():
    theta0 = (0.9 * 20 + np.log(20), 20.0)
    flow = training.gradient_flow(PRIOR, theta0, t_max=2000.0, points=20)
    descent = training.population_descent(PRIOR, theta0, eta=2.0, steps=1000, points=20)
    assert flow.t[-1] == pytest.approx(2000.0)
    # Euler with step 2 against the exact flow: the difference is O(eta) along the path.
    assert flow.a[-1] == pytest.approx(descent.a[-1], abs=2e-3)
    assert flow.b[-1] == pytest.approx(descent.b[-1], abs=2e-3)


def test_gradient_flow_is_monotone_in_loss_and_grows_b():
    flow = training.gradient_flow(
        tasks.Uniform(0.0, 1.0), (20 + 2 * np.log(20), 20.0), t_max=1e8, points=40
    )
    assert np.all(np.diff(flow.loss) <= 1e-15)
    assert flow.b[-1] > 3 * flow.b[0]
    np.testing.assert_allclose(flow.offset, flow.a - flow.b)
    np.testing.assert_allclose(flow.ratio, flow.a / flow.b)


def test_gradient_flow_rejects_bad_horizon():
    with pytest.raises(ValueError, match="t_max"):
        training.gradient_flow(PRIOR, (1.0, 1.0), t_max=-1.0)


def test_corpus_descents_are_the_serial_runs_on_their_streams():
    keys = [(30, 20, 0), (30, 20, 1), (40, 10, 0)]
    theta0, eta, steps = (9.0, 10.0), 50.0, 40
    runs = training.corpus_descents(
        keys, PRIOR, theta0, eta, steps, (7, 4), points=5, n_workers=2
    )
    assert list(runs) == keys
    for key, run in runs.items():
        corpus = Corpus.sample(key[0], key[1], PRIOR, rng=(7, 4, *key))
        serial = training.corpus_descent(corpus, theta0, eta, steps, points=5)
        for field in ("t", "a", "b", "loss"):
            np.testing.assert_array_equal(getattr(run, field), getattr(serial, field))
    assert not np.array_equal(runs[keys[0]].b, runs[keys[1]].b)  # independent copies


@pytest.mark.parametrize("keys", [[(30, 20)], [(0, 20, 0)], [(30, 20, -1)]])
def test_corpus_descents_keys_are_m_n_copy(keys):
    with pytest.raises(ValueError, match="^keys must"):
        training.corpus_descents(keys, PRIOR, (9.0, 10.0), 50.0, 4, 7)


def test_descend_stops_where_its_direction_says():
    def halfway(a, b, k):  # the gradient of (a^2 + b^2)/2 until b falls below 1
        return None if b < 1.0 else (a, b)

    a, b, k = training.descend(halfway, (4.0, 8.0), 0.5, max_steps=10)
    assert (a, b, k) == (0.25, 0.5, 4)  # each step halves both coordinates


def test_descend_raises_when_its_goal_is_not_reached():
    with pytest.raises(RuntimeError, match=r"^b < 0 not reached in max_steps=3 steps"):
        training.descend(lambda a, b, k: (0.0, 1.0), (0.0, 10.0), 1.0, 3, goal="b < 0")


def test_descend_names_the_run_and_step_of_a_divergence():
    with pytest.raises(
        FloatingPointError, match=r"^probe diverged at step 0: non-finite"
    ):
        training.descend(
            lambda a, b, k: (0.0, -1e308), (0.0, 1e308), 1.0, 5, label="probe"
        )


@pytest.mark.parametrize("log_time", [False, True])
def test_flow_solves_a_quadratic_exactly_in_either_clock(log_time):
    def bowl(a, b):  # L = a^2 + b^2: theta(t) = theta0 e^{-2t}
        return a**2 + b**2, 2 * a, 2 * b

    times = np.array([0.0, 0.1, 1.0, 3.0])
    flow = training.flow(bowl, (1.0, -2.0), times, rtol=1e-10, log_time=log_time)
    np.testing.assert_allclose(flow.t, times, rtol=1e-12)
    np.testing.assert_allclose(flow.a, np.exp(-2 * times), rtol=1e-7, atol=1e-12)
    np.testing.assert_allclose(flow.b, -2 * np.exp(-2 * times), rtol=1e-7, atol=1e-12)
    np.testing.assert_allclose(flow.loss, 5 * np.exp(-4 * times), rtol=1e-6, atol=1e-12)


def test_flow_times_start_at_zero_and_increase():
    for times in ([0.5, 1.0], [0.0, 1.0, 1.0], [0.0]):
        with pytest.raises(ValueError, match="^times must be increasing from 0"):
            training.flow(lambda a, b: (0.0, 0.0, 0.0), (1.0, 1.0), times)
