"""Infinite-context corpora: the gradients, the flow to the rule's level, the law."""

import numpy as np
import pytest

from stumplib import calibration, certification, infinite_corpus, tasks
from stumplib.corpus import noise_ratio

PRIOR = tasks.Uniform(0.1, 0.9)


def test_task_gradients_are_the_population_per_task_gradients():
    s = [0.2, 0.5, 0.8]
    G = infinite_corpus.task_gradients(9.0, 10.0, s)
    np.testing.assert_array_equal(
        G, certification.population_task_gradients(9.0, 10.0, s)
    )


def test_many_tasks_average_to_the_population_gradient():
    # an infinite-context corpus's mean gradient is the Monte Carlo mean over the prior
    from stumplib import population

    s = PRIOR.sample(200_000, np.random.default_rng(3))
    G = infinite_corpus.task_gradients(9.0, 10.0, s)
    g = np.array(population.gradient(9.0, 10.0, PRIOR))
    se = G.std(axis=0, ddof=1) / np.sqrt(len(s))
    assert np.all(np.abs(G.mean(axis=0) - g) <= 4.5 * se)


@pytest.fixture(scope="module")
def run():
    return infinite_corpus.freeze_infinite(400, PRIOR, (1, 2))


def test_the_run_stops_at_the_level(run):
    s = PRIOR.sample(400, np.random.default_rng(np.random.SeedSequence((1, 2))))
    G = infinite_corpus.task_gradients(run.a, run.b, s)
    assert noise_ratio(G) == pytest.approx(0.5, abs=1e-6)
    assert run.noise == pytest.approx(0.5, abs=1e-6)
    assert run.b > run.b0 and run.b_cert <= run.b
    assert run.rho <= run.rho_max


def test_the_run_is_reproducible(run):
    again = infinite_corpus.freeze_infinite(400, PRIOR, (1, 2))
    assert again == run


def test_a_run_noisy_at_its_start_freezes_there():
    out = infinite_corpus.freeze_infinite(3, PRIOR, 0, level=0.05)
    assert out.b == out.b0 == infinite_corpus.MIN_START
    assert out.noise >= 0.05


def test_the_prediction_is_its_own_fixed_point_and_tends_to_the_slow_layer():
    small = infinite_corpus.predicted_freeze(1600, PRIOR)
    assert small.b == pytest.approx((0.5 / small.constant) ** 2 * 1600, rel=1e-8)
    large = infinite_corpus.predicted_freeze(102_400, PRIOR)
    limit = calibration.slow_layer(PRIOR).constant
    assert abs(large.constant / limit - 1) < abs(small.constant / limit - 1)
    assert large.constant == pytest.approx(limit, rel=0.01)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(m=1), "m"),
        (dict(level=1.0), "level must be below 1"),
        (dict(level=0.0), "level"),
        (dict(rtol=1.0), "rtol must be below 1"),
    ],
)
def test_freeze_infinite_rejects_bad_arguments(kwargs, message):
    args = dict(m=40, prior=PRIOR, rng=0) | kwargs
    with pytest.raises(ValueError, match=message):
        infinite_corpus.freeze_infinite(**args)


def test_predicted_freeze_rejects_a_corpus_too_small_for_its_start():
    with pytest.raises(ValueError, match="too small"):
        infinite_corpus.predicted_freeze(40, PRIOR)
    with pytest.raises(ValueError, match="level must be below 1"):
        infinite_corpus.predicted_freeze(400, PRIOR, level=2.0)


def test_the_predicted_share_at_the_levels():
    half = infinite_corpus.predicted_share(0.5)
    assert half.one_direction == pytest.approx(0.6826894921, rel=1e-9)
    assert half.isotropic == pytest.approx(1 - np.exp(-1.0), rel=1e-12)
    shares = [infinite_corpus.predicted_share(v).one_direction for v in (1 / 2, 1 / 4)]
    assert shares[0] < shares[1] < 1
    with pytest.raises(ValueError, match="level"):
        infinite_corpus.predicted_share(-1.0)
