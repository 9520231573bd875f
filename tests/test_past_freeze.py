"""Far past the freeze: constant-step runs, corpus valleys and collapse points."""

import numpy as np
import pytest

from stumplib import (
    calibration,
    corpus_rule,
    past_freeze,
    population,
    pretraining,
    tasks,
)
from stumplib.corpus import Corpus

PRIOR = tasks.Uniform(0.1, 0.9)


@pytest.fixture(scope="module")
def runs():
    return past_freeze.run_far([(8, 8), (12, 12)], PRIOR, 3, (5, 1), 400, 6)


def test_certified_step_is_a_third_of_the_lemma_step_at_the_start():
    theta0, eta = past_freeze.certified_step(32, 32, PRIOR)
    start, full = corpus_rule.size_start(32, 32, PRIOR)
    assert theta0 == start
    assert eta == pytest.approx(full * corpus_rule.CERTIFIED_FRACTION, rel=1e-15)


def test_runs_are_constant_step_descent_on_their_corpora(runs):
    """Each stored run is plain descent at the certified step on its own corpus."""
    run = runs[1]
    corpus = Corpus.sample(12, 12, PRIOR, rng=pretraining.stream((5, 1), 1, 2))
    theta0, eta = past_freeze.certified_step(12, 12, PRIOR)
    follower, (a, b) = corpus.follow(), theta0
    for _ in range(run.steps[-1]):
        _, g_a, g_b = follower.loss_and_gradient(a, b)
        a, b = a - eta * g_a, b - eta * g_b
    assert run.eta == eta
    np.testing.assert_allclose([run.a[2, -1], run.b[2, -1]], [a, b], rtol=1e-9)


def test_freeze_is_the_corpus_rule_at_the_same_step(runs):
    for i, (m, run) in enumerate(zip((8, 12), runs)):
        theta0, eta = past_freeze.certified_step(m, m, PRIOR)
        for r in range(3):
            corpus = Corpus.sample(m, m, PRIOR, rng=pretraining.stream((5, 1), i, r))
            h = pretraining.train_until_noisy(corpus, theta0, eta)
            assert run.freeze_steps[r] == h.steps
            assert run.freeze_b[r] == pytest.approx(h.b, rel=1e-9)


def test_records_are_geometric_and_finite(runs):
    """(b need not grow at m = n = 8: such a corpus can pull b down, even below 0.)"""
    run = runs[0]
    assert run.steps[0] == 1 and run.steps[-1] == 400
    assert np.all(np.diff(run.steps) > 0)
    assert np.all(np.isfinite(run.b)) and not run.failed.any()


def test_corpus_valley_is_a_minimum_in_a():
    corpus = Corpus.sample(16, 16, PRIOR, rng=3)
    for b in (5.0, 50.0, 500.0):
        a = past_freeze.corpus_valley(corpus, b, float(calibration.a_star(b, PRIOR)))
        loss = [corpus.loss(a + d, b) for d in (-1e-3, 0.0, 1e-3)]
        assert loss[1] <= min(loss[0], loss[2])
        assert abs(corpus.gradient(a, b)[0]) < 1e-9


def test_collapse_point_is_the_largest_gap_to_the_smallest_example():
    x, y, _ = tasks.sample_contexts(
        5, 7, PRIOR, rng=np.random.default_rng(pretraining.stream((2, 3), 1, 0))
    )
    expected = max(
        row[lab > 0].min() - row.min() for row, lab in zip(x, y) if lab.any()
    )
    got = past_freeze.collapse_points(5, 7, PRIOR, 1, (2, 3), 1)
    assert got[0] == expected


def test_collapse_point_predicts_the_valley_slope_far_past_the_freeze():
    """The derived limit a_m(b)/b -> c, and the lost share (hi - c)+/(hi - lo)."""
    out = past_freeze.valley_errors((16, 16), PRIOR, 4, 7, 0, 2.0 ** np.arange(13))
    c = past_freeze.collapse_points(16, 16, PRIOR, 4, 7, 0)
    b = 4096.0 * 16
    np.testing.assert_allclose(out.a[:, -1] / b, c, atol=2 * np.log(b) / b)
    lost = past_freeze.lost_share(c, PRIOR)
    assert np.max(np.abs(out.lost[:, -1] - lost)) <= np.log(b) / (0.8 * b) + 1 / 4000


def test_a_flat_stretch_is_no_valley():
    corpus = Corpus.sample(16, 16, PRIOR, rng=3)
    with pytest.raises(ValueError, match="no corpus valley"):
        past_freeze.corpus_valley(corpus, 4096.0, 1e6)


def test_lost_share_and_averaged_error():
    np.testing.assert_allclose(
        past_freeze.lost_share([0.5, 0.9, 1.2], PRIOR), [0.5, 0.0, 0.0]
    )
    a, b = 30.0, 40.0
    grid = 0.1 + 0.8 * (np.arange(past_freeze.PRIOR_POINTS) + 0.5) / 4000
    off = np.abs(population.residual(a, b, grid)[0])
    error, lost = past_freeze.averaged_error(a, b, PRIOR)
    assert error == pytest.approx(off.mean(), rel=1e-12)
    assert lost == np.mean(off > grid / 2)
    error2, _ = past_freeze.averaged_error([a, a], b, PRIOR)
    assert error2.shape == (2,)


def test_valley_errors_shapes_and_ordering():
    out = past_freeze.valley_errors((12, 12), PRIOR, 2, 1, 0, [0.5, 2.0, 8.0])
    assert out.a.shape == (2, 3) and out.error.shape == (2, 3, 4)
    # 1/b at interior thresholds (at m = n = 12 the top one, 0.85, can collapse)
    assert np.all(out.error[:, -1, :2] < out.error[:, 0, :2])
    with pytest.raises(ValueError, match="factors must be an increasing"):
        past_freeze.valley_errors((12, 12), PRIOR, 1, 1, 0, [2.0, 1.0])


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(sizes=[(1, 4)]), "sizes"),
        (dict(steps=0), "steps"),
        (dict(points=1), "points"),
    ],
)
def test_run_far_rejects(kwargs, match):
    args = dict(sizes=[(4, 4)], prior=PRIOR, corpora=1, seed=0, steps=2, points=2)
    with pytest.raises(ValueError, match=match):
        past_freeze.run_far(**dict(args, **kwargs))


def test_rms_error_is_the_root_mean_square_over_the_prior():
    a, b = calibration.a_star(30.0, PRIOR), 30.0
    grid = PRIOR.lo + (PRIOR.hi - PRIOR.lo) * (np.arange(20_000) + 0.5) / 20_000
    off = population.residual(a, b, grid)[0]
    assert past_freeze.rms_error(a, b, PRIOR) == pytest.approx(
        np.sqrt(np.mean(off**2)), rel=1e-6
    )
    mean = past_freeze.averaged_error(a, b, PRIOR)[0]
    assert mean <= past_freeze.rms_error(a, b, PRIOR)  # Jensen
    # broadcasting: one value per (a, b)
    assert past_freeze.rms_error([a, a], [b, b], PRIOR).shape == (2,)


def test_rms_error_weighs_a_collapse_by_its_square():
    """A head that has lost the prior above c: RMS ~ sqrt((hi^3 - c^3)/(3(hi-lo)))."""
    b, c = 4000.0, 0.8
    rms = float(past_freeze.rms_error(b * c, b, PRIOR))
    floor = np.sqrt((PRIOR.hi**3 - c**3) / (3 * (PRIOR.hi - PRIOR.lo)))
    assert rms == pytest.approx(floor, rel=0.05)
    assert rms > 2 * float(past_freeze.averaged_error(b * c, b, PRIOR)[0])


def test_valley_rms_matches_rms_error_along_the_valley():
    out = past_freeze.valley_errors((16, 16), PRIOR, 2, (5, 2), 0, [1.0, 8.0])
    rms = past_freeze.valley_rms(out, PRIOR)
    b = out.factors * 16
    assert rms.shape == (2, 2)
    np.testing.assert_allclose(
        rms[1], past_freeze.rms_error(out.a[1], b, PRIOR), rtol=1e-15
    )
    assert np.all(rms >= out.prior_error)


def test_plain_descent_is_corpus_descent_from_each_start():
    starts = np.array([[20.0, 21.0], [18.0, 19.0]])
    out = past_freeze.plain_descent((12, 12), PRIOR, (5, 3), 1, starts, 50.0, 300, 5)
    assert out.steps[0] == 0 and out.steps[-1] == 300
    np.testing.assert_array_equal(out.a[:, 0], starts[:, 0])
    corpus = Corpus.sample(12, 12, PRIOR, rng=pretraining.stream((5, 3), 1, 1))
    follower, (a, b) = corpus.follow(), starts[1]
    for _ in range(300):
        _, g_a, g_b = follower.loss_and_gradient(a, b)
        a, b = a - 50.0 * g_a, b - 50.0 * g_b
    assert out.a[1, -1] == pytest.approx(a, rel=1e-12)
    assert out.b[1, -1] == pytest.approx(b, rel=1e-12)
    assert not out.failed.any() and np.all(out.q_start > 0)


def test_plain_descent_keeps_a_failed_run_as_nan():
    """A step far too large at a small scale diverges: marked, not dropped."""
    out = past_freeze.plain_descent(
        (8, 8), PRIOR, 1, 0, [[3.0, 2.5], [60.0, 60.0]], 3000.0, 50, 3
    )
    assert out.failed.tolist() == [True, False]
    assert np.all(np.isnan(out.b[0])) and np.all(np.isfinite(out.b[1]))


@pytest.mark.parametrize(
    "starts, match",
    [([[1.0, 2.0, 3.0]], "shape"), ([[1.0, -2.0]], "b > 0"), ([1.0, 2.0], "shape")],
)
def test_plain_descent_rejects_bad_starts(starts, match):
    with pytest.raises(ValueError, match=match):
        past_freeze.plain_descent((8, 8), PRIOR, 1, 0, starts, 1.0, 2, 2)
