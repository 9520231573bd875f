import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stumplib import calibration, dynamics, fitting, population, tasks, training
from stumplib.symbolic import dynamics as sd

INTERIOR = tasks.Uniform(0.1, 0.9)


def quadratic(h11, h12, h22):
    H = np.array([[h11, h12], [h12, h22]])

    def lg(a, b):
        g = H @ np.array([a, b])
        return 0.5 * np.array([a, b]) @ g, g[0], g[1]

    return H, lg


def test_slow_curve_reference():
    assert dynamics.slow_curve(100.0, 0.9, 1.0, 2.0) == pytest.approx(
        90 + np.log(100) - np.log(2)
    )
    assert dynamics.slow_curve(10.0, 1.0, 2.0, 1.0, 5.0) == pytest.approx(
        10 + 2 * np.log(10) - np.log(1.5)
    )


def test_slow_curve_errors():
    with pytest.raises(ValueError, match="b must be positive"):
        dynamics.slow_curve(-1.0, 1, 1, 1)
    with pytest.raises(ValueError, match="xi0 must be positive"):
        dynamics.slow_curve(1.0, 1, 1, 0.0)
    with pytest.raises(ValueError, match="xi0 \\+ xi1/b"):
        dynamics.slow_curve(1.0, 1, 1, 1.0, -2.0)


def test_phase_times_synthetic():
    t = np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    b = np.array([10.0, 10.0, 10.5, 15.0, 21.0, 30.0])
    a = np.array([0.0, 5.0, 9.5, 15.0, 21.0, 30.0])  # offsets -10, -5, -1, 0, 0, 0
    phases = dynamics.phase_times(
        training.Trajectory(t, a, b, t), lambda x: x, fraction=0.1
    )
    assert phases == (2.0, 10.5, 4.0)


def test_phase_times_unreached_and_errors():
    t = np.array([0.0, 1.0])
    traj = training.Trajectory(t, np.array([0.0, 0.0]), np.array([1.0, 1.0]), t)
    phases = dynamics.phase_times(traj, lambda x: x + 5)
    assert np.isnan(phases.t_calibrated) and np.isnan(phases.t_grown)
    with pytest.raises(ValueError, match="growth must exceed 1"):
        dynamics.phase_times(traj, lambda x: x, growth=1.0)
    with pytest.raises(ValueError, match="fraction must be below 1"):
        dynamics.phase_times(traj, lambda x: x, fraction=1.0)
    with pytest.raises(ValueError, match="fraction must be positive"):
        dynamics.phase_times(traj, lambda x: x, fraction=0.0)


def test_rate_matches_gradient_and_shapes():
    a, b = np.array([90.0, 180.0]), np.array([100.0, 200.0])
    expected = [
        -4 * bi**3 * population.gradient(ai, bi, INTERIOR)[1] for ai, bi in zip(a, b)
    ]
    np.testing.assert_allclose(dynamics.rate(a, b, INTERIOR), expected)
    with pytest.raises(ValueError, match="same shape"):
        dynamics.rate(a, b[:1], INTERIOR)


def test_rate_finite_difference_of_flow():
    # d(b^4)/dt along a short flow segment equals the rate at its midpoint.
    a0 = calibration.a_star(100.0, INTERIOR)
    traj = training.gradient_flow(INTERIOR, (a0, 100.0), 1e6, points=400)
    dt = traj.t[-1] - traj.t[-2]
    fd = (traj.b[-1] ** 4 - traj.b[-2] ** 4) / dt
    mid = dynamics.rate(
        (traj.a[-1] + traj.a[-2]) / 2, (traj.b[-1] + traj.b[-2]) / 2, INTERIOR
    )
    assert fd == pytest.approx(float(mid), rel=1e-3)


def test_hessian_quadratic_and_population_fd():
    H, lg = quadratic(3.0, -1.0, 2.0)
    np.testing.assert_allclose(
        dynamics.hessian(lambda a, b: lg(a, b)[1:], 0.3, -0.7), H, atol=1e-8
    )
    # population: symmetric, and its a-column matches a difference of the loss gradient
    Hp = dynamics.hessian(lambda a, b: population.gradient(a, b, INTERIOR), 20.0, 20.0)
    assert Hp[0, 1] == Hp[1, 0]
    g = lambda a: population.gradient(a, 20.0, INTERIOR)[0]
    assert Hp[0, 0] == pytest.approx((g(20.01) - g(19.99)) / 0.02, rel=1e-4)
    with pytest.raises(ValueError, match="h must be positive"):
        dynamics.hessian(lambda a, b: (a, b), 0.0, 0.0, h=0.0)


def test_saddle_at_origin():
    # theta = 0 is a critical point of a symmetric prior with an indefinite Hessian.
    H = dynamics.hessian(lambda a, b: population.gradient(a, b, INTERIOR), 0.0, 0.0)
    assert np.abs(population.gradient(0.0, 0.0, INTERIOR)).max() < 1e-15
    low, high = np.linalg.eigvalsh(H)
    assert low < 0 < high


@pytest.mark.parametrize("curv", [(3.0, -1.0, 2.0), (10.0, 0.0, 1.0), (1.0, 0.5, 1.0)])
def test_largest_stable_step_quadratic_is_two_over_lambda(curv):
    H, lg = quadratic(*curv)
    lam = np.linalg.eigvalsh(H)[-1]
    eta = dynamics.largest_stable_step(
        lg, (1.0, 1.0), 1.0 / lam, steps=40, iterations=20
    )
    assert eta == pytest.approx(2 / lam, rel=2e-3)
    assert dynamics.descends(lg, (1.0, 1.0), 0.99 * eta, 40)


def test_largest_stable_step_errors():
    _, lg = quadratic(1.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="raise guess"):
        dynamics.largest_stable_step(lg, (1.0, 1.0), 1e-4)
    with pytest.raises(ValueError, match="does not descend"):
        dynamics.largest_stable_step(lg, (1.0, 1.0), 1e4)
    with pytest.raises(ValueError, match=r"^guess must lie in \[1e-300, 1e\+300\]"):
        dynamics.largest_stable_step(lg, (1.0, 1.0), -1.0)
    with pytest.raises(ValueError, match=r"^guess must lie in"):  # guess/64 is 0
        dynamics.largest_stable_step(lg, (1.0, 1.0), 5e-324)
    # a loss that overflows at the bracket's steps: no descent, an error naming guess
    with pytest.raises(ValueError, match=r"^gradient descent does not .* lower guess"):
        dynamics.largest_stable_step(lg, (1.0, 1.0), 1e300)


@settings(max_examples=30, deadline=None)
@given(
    st.floats(0.1, 10),
    st.floats(-3, 3),
    st.floats(0.1, 10),
    st.floats(-5, 5),
    st.floats(-5, 5),
)
def test_hessian_recovers_random_quadratics(h11, h12, h22, a, b):
    H, lg = quadratic(h11, h12, h22)
    np.testing.assert_allclose(
        dynamics.hessian(lambda x, y: lg(x, y)[1:], a, b), H, atol=1e-7 * (1 + abs(h12))
    )


@given(st.floats(5.0, 100.0), st.floats(0.1, 10.0), st.floats(-4.0, 4.0))
def test_reduced_time_is_the_integral_of_the_reduced_rate(b0, kappa, e):
    from scipy import integrate

    expected = integrate.quad(lambda b: 4 * b**3 / (kappa * (1 + e / b)), b0, 2 * b0)[0]
    assert dynamics.reduced_time(b0, 2 * b0, kappa, e) == pytest.approx(
        expected, rel=1e-9
    )


def test_reduced_time_without_correction_is_b4_over_kappa():
    assert dynamics.reduced_time(1.0, 2.0, 3.0, 0.0) == pytest.approx(
        15.0 / 3.0, rel=1e-14
    )


@pytest.mark.parametrize(
    ("args", "name"),
    [
        ((0.0, 2.0, 1.0, 0.0), "b_start"),
        ((1.0, 2.0, -1.0, 0.0), "kappa"),
        ((1.0, 2.0, 1.0, np.nan), "e"),
        ((1.0, 2.0, 1.0, -1.5), "b \\+ e"),
    ],
)
def test_reduced_time_names_bad_arguments(args, name):
    with pytest.raises(ValueError, match=name):
        dynamics.reduced_time(*args)


def test_aligned_points_lie_on_the_slow_curve_with_the_derived_lag_and_rate():
    prior = tasks.Uniform(0.1, 0.9)
    reduction = sd.reduce_flow(sd.interior_expansion())
    b = np.array([250.0, 500.0, 1000.0, 2000.0, 4000.0])
    a = dynamics.aligned(b, prior)
    # the flow is along (p, 1) there: dL/da = p dL/db to the root's precision
    for ai, bi in zip(a, b):
        grad = population.gradient(ai, bi, prior)
        assert abs(grad[0] - 0.9 * grad[1]) <= 1e-9 * abs(grad[1])
    # its offset from the valley is the flow's derived lag, up to O(1/b)
    lag = float(reduction.lag)
    offset = a - calibration.a_star(b, prior)
    assert np.all(np.abs(offset - lag) <= 10 / b)
    # and the rate there extrapolates to kappa (tolerance: the fit's own)
    limit = fitting.extrapolate(b, dynamics.rate(a, b, prior))
    assert abs(limit.limit - float(reduction.kappa)) <= limit.limit_tol
    assert isinstance(dynamics.aligned(300.0, prior), float)


def test_aligned_needs_an_interior_prior_and_positive_scales():
    with pytest.raises(ValueError, match="b"):
        dynamics.aligned(-1.0, tasks.Uniform(0.1, 0.9))
    with pytest.raises(ValueError, match="minimizer"):
        dynamics.aligned(100.0, tasks.Uniform(0.0, 1.0))


# --------------------------------------------------------------- phase portrait


def test_portrait_reference_values():
    grid = dynamics.portrait(INTERIOR, [20.0, 50.0], [0.0, 3.0, 6.0], p=0.9)
    assert grid.excess.shape == (2, 3) and grid.velocity.shape == (2, 3, 2)
    for i, b in enumerate((20.0, 50.0)):
        for j, x in enumerate((0.0, 3.0, 6.0)):
            loss, d_a, d_b = population.loss_and_gradient(0.9 * b + x, b, INTERIOR)
            assert grid.excess[i, j] == pytest.approx(b * (b**2 * loss - 1), rel=1e-12)
            assert grid.velocity[i, j, 0] == pytest.approx(-d_a + 0.9 * d_b, rel=1e-12)
            assert grid.velocity[i, j, 1] == pytest.approx(-d_b / b, rel=1e-12)


def test_portrait_velocity_matches_finite_differences_of_the_loss():
    # dx/dt = -(dL/da) + p dL/db with x = a - p b: central differences of L.
    b, x, p, h = 40.0, 2.0, 0.9, 1e-4
    grid = dynamics.portrait(INTERIOR, [b], [x], p=p)

    def loss(a, b_):
        return population.loss(a, b_, INTERIOR)

    a = p * b + x
    d_a = (loss(a + h, b) - loss(a - h, b)) / (2 * h)
    d_b = (loss(a, b + h) - loss(a, b - h)) / (2 * h)
    scale = abs(d_a) + abs(d_b)
    assert grid.velocity[0, 0, 0] == pytest.approx(-d_a + p * d_b, abs=1e-6 * scale)
    assert grid.velocity[0, 0, 1] == pytest.approx(-d_b / b, abs=1e-6 * scale / b)


def test_portrait_has_a_trough_at_the_valley():
    # Along a row, the excess is smallest next to the valley a*(b) (interior prior).
    b = 200.0
    offsets = np.linspace(0.0, 12.0, 121)
    grid = dynamics.portrait(INTERIOR, [b], offsets, p=0.9)
    best = offsets[np.argmin(grid.excess[0])]
    assert best == pytest.approx(calibration.a_star(b, INTERIOR) - 0.9 * b, abs=0.1)
    # The trough's depth is -2/(hi - lo) to leading order (prop. calibrated valley).
    assert grid.excess[0].min() == pytest.approx(-2 / 0.8, abs=3 / b)


@settings(max_examples=20, deadline=None)
@given(
    b=st.floats(5.0, 500.0),
    x=st.floats(-5.0, 20.0),
    p=st.floats(0.0, 1.0),
)
def test_portrait_flow_decreases_the_loss(b, x, p):
    # Along the flow dL/dt = -|grad L|^2 <= 0, whatever the shear.
    grid = dynamics.portrait(INTERIOR, [b], [x], p=p)
    _, d_a, d_b = population.loss_and_gradient(p * b + x, b, INTERIOR)
    dx, dlogb = grid.velocity[0, 0]
    da = dx + p * b * dlogb  # a = x + p b
    assert d_a * da + d_b * (b * dlogb) <= 0
    assert np.all(np.isfinite(grid.excess))


def test_portrait_errors():
    with pytest.raises(ValueError, match="b must be one-dimensional"):
        dynamics.portrait(INTERIOR, [[10.0]], [0.0], p=0.9)
    with pytest.raises(ValueError, match="offset must be one-dimensional"):
        dynamics.portrait(INTERIOR, [10.0], [[0.0]], p=0.9)
    with pytest.raises(ValueError, match=r"^b must lie in \[1e-300, 1e\+08\]"):
        dynamics.portrait(INTERIOR, [-1.0], [0.0], p=0.9)
    with pytest.raises(ValueError, match=r"^b must lie in"):  # beyond the resolved
        dynamics.portrait(INTERIOR, [10.0, 2e8], [0.0], p=0.9)
    with pytest.raises(ValueError, match=r"^p must lie in \[-1e\+08, 1e\+08\]"):
        dynamics.portrait(INTERIOR, [10.0], [0.0], p=1e300)  # a = p b overflowed
    with pytest.raises(TypeError, match="prior"):
        dynamics.portrait("U[0,1]", [10.0], [0.0], p=0.9)


# ----------------------------------------------------------------- stable steps


def test_stable_steps_on_the_population_loss():
    out = dynamics.stable_steps(INTERIOR, [18.0], [20.0], steps=10, iterations=4)
    lam = np.linalg.eigvalsh(
        dynamics.hessian(lambda a, b: population.gradient(a, b, INTERIOR), 18.0, 20.0)
    )[-1]
    assert out.critical[0] == pytest.approx(2 / lam, rel=1e-9)
    assert dynamics.descends(
        lambda a, b: population.loss_and_gradient(a, b, INTERIOR),
        (18.0, 20.0),
        out.largest[0],
        10,
    )
    assert out.ratio[0] == pytest.approx(out.largest[0] / out.critical[0])


def test_stable_steps_errors():
    with pytest.raises(ValueError, match="a0"):
        dynamics.stable_steps(INTERIOR, [1.0, 2.0], [10.0], steps=2)
    with pytest.raises(TypeError, match="prior"):
        dynamics.stable_steps(object(), [9.0], [10.0], steps=2)
