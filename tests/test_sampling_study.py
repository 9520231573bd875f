"""The task-sampling Monte Carlo beside its exact law (stumplib.sampling_study)."""

import numpy as np
import pytest

from stumplib import calibration, certification, sampling_study, tasks

PRIOR = tasks.Uniform(0.1, 0.9)


def test_each_point_is_the_mean_square_of_its_own_stream():
    study = sampling_study.monte_carlo(PRIOR, [50, 200], [20.0, 80.0], 30, (7, 1))
    a = calibration.a_star(80.0, PRIOR)
    direct = certification.task_sampling_errors(
        a, 80.0, PRIOR, 200, 30, rng=(7, 1, 1, 1)
    )
    assert study.mean_sq[1, 1] == pytest.approx(np.mean(direct**2), rel=1e-12)
    assert study.mean_sq.shape == study.law_mean.shape == (2, 2)


def test_the_exact_mean_is_sigma_squared_over_m():
    study = sampling_study.monte_carlo(PRIOR, [100, 1000], [40.0], 2, 0)
    a = float(calibration.a_star(40.0, PRIOR))
    sigma = certification.sampling_coefficient(a, 40.0, PRIOR)
    assert study.law_mean[:, 0] == pytest.approx(sigma**2 / np.array([100, 1000]))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_ratio_is_one_within_its_standard_error(seed):
    # z = 4: a false failure once in about 16,000 draws
    study = sampling_study.monte_carlo(PRIOR, [100, 400], [20.0, 160.0], 300, seed)
    assert abs(study.ratio - 1) < 4 * study.ratio_se


def test_the_standard_error_falls_like_one_over_root_repetitions():
    few = sampling_study.monte_carlo(PRIOR, [100], [40.0], 100, 0)
    many = sampling_study.monte_carlo(PRIOR, [100], [40.0], 400, 0)
    assert few.ratio_se / many.ratio_se == pytest.approx(2.0, rel=1e-12)


@pytest.mark.parametrize(
    ("change", "error", "match"),
    [
        (dict(m=[0]), ValueError, "m"),
        (dict(b=[-1.0]), ValueError, "b"),
        (dict(repetitions=0), ValueError, "repetitions"),
        (dict(stream=-1), ValueError, "stream"),
        (dict(prior="uniform"), TypeError, "prior"),
    ],
)
def test_bad_inputs_are_named(change, error, match):
    args = dict(prior=PRIOR, m=[10], b=[20.0], repetitions=2, stream=0)
    with pytest.raises(error, match=match):
        sampling_study.monte_carlo(**{**args, **change})
