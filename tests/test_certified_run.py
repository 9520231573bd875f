"""Tests for the certified run of stumplib.certification.

The descent lemma along one corpus.
"""

import numpy as np
import pytest

from stumplib import (
    calibration,
    certified_runs,
    descent_lemma,
    population,
    tasks,
)
from stumplib.corpus import Corpus

PRIOR = tasks.Uniform(0.1, 0.9)
B0 = 2.5
A0 = float(calibration.a_star(B0, PRIOR))
ETA = certified_runs.STEP_FRACTION * descent_lemma.step_bound(A0, B0, PRIOR)


@pytest.fixture(scope="module")
def run():
    corpus = Corpus.sample(60, 60, PRIOR, rng=(7, 1))
    return certified_runs.certified_run(corpus, PRIOR, (A0, B0), ETA, b_stop=6.0)


def test_records_start_every_growth_and_last(run):
    assert run.step[0] == 0 and run.b[0] == B0 and run.a[0] == A0
    assert run.b[-1] >= 6.0 and run.b[-2] < 6.0
    assert np.all(run.b[1:-1] >= run.b[:-2] * (1 + certified_runs.RECORD_GROWTH))
    assert np.all(np.diff(run.step) > 0)


def test_rho_is_the_corpus_relative_gradient_error(run):
    corpus = Corpus.sample(60, 60, PRIOR, rng=(7, 1))
    i = run.b.size // 2
    g = np.array(population.gradient(run.a[i], run.b[i], PRIOR))
    G = np.array(corpus.gradient(run.a[i], run.b[i]))
    assert run.rho[i] == pytest.approx(
        np.linalg.norm(G - g) / np.linalg.norm(g), rel=1e-9
    )
    assert run.guaranteed[i] == pytest.approx(ETA * (g @ g) / 4, rel=1e-9)


def test_q_bounds_the_curvature_at_the_step_start(run):
    lam = [descent_lemma.curvature(a, b, PRIOR) for a, b in zip(run.a, run.b)]
    assert np.all(run.q >= ETA * np.array(lam) * (1 - 1e-12))


def test_decrease_is_the_population_loss_difference(run):
    corpus = Corpus.sample(60, 60, PRIOR, rng=(7, 1))
    i = 3
    G = np.array(corpus.gradient(run.a[i], run.b[i]))
    a1, b1 = run.a[i] - ETA * G[0], run.b[i] - ETA * G[1]
    # Simpson's rule for the line integral of the gradient along the step
    points = [
        (run.a[i], run.b[i]),
        ((run.a[i] + a1) / 2, (run.b[i] + b1) / 2),
        (a1, b1),
    ]
    grads = [np.array(population.gradient(a, b, PRIOR)) for a, b in points]
    simpson = (
        -(grads[0] + 4 * grads[1] + grads[2])
        / 6
        @ np.array([a1 - run.a[i], b1 - run.b[i]])
    )
    assert run.decrease[i] == pytest.approx(simpson, rel=1e-6)


def test_the_lemma_holds_where_its_hypotheses_do(run):
    ok = run.certified
    assert ok.any()
    assert np.all(run.held[ok])


def test_b_cert_is_the_first_failing_record():
    corpus = Corpus.sample(30, 30, PRIOR, rng=(7, 2))
    run = certified_runs.certified_run(corpus, PRIOR, (A0, B0), ETA, b_stop=8.0)
    failed = (run.rho > 0.5) | (run.q > 2 / 9)
    assert failed.any() and not run.censored
    first = np.flatnonzero(failed)[0]
    assert run.b_cert == run.b[first]
    assert np.array_equal(run.inside, np.arange(run.b.size) < first)
    assert run.ended_by in ("rho", "q", "both")
    short = certified_runs.certified_run(
        corpus, PRIOR, (A0, B0), ETA, b_stop=8.0, until_failure=True
    )
    assert short.b_cert == run.b_cert and short.b[-1] == run.b_cert


def test_a_run_that_never_fails_is_censored_at_its_stop():
    corpus = Corpus.sample(400, 400, PRIOR, rng=(7, 3))
    run = certified_runs.certified_run(corpus, PRIOR, (A0, B0), ETA, b_stop=2.8)
    assert run.censored and run.b_cert == 2.8 and run.ended_by == ""
    assert run.b[-2] < 2.8 <= run.b[-1]
    assert run.inside.all()


def _fake(b_cert, censored=False, first=1.0):
    one = np.array([first, b_cert])
    return certified_runs.CertifiedRun(
        1.0, np.array([0, 1]), one, one, one, one, one, one, b_cert, censored
    )


def test_end_over_corpora_is_a_median_with_a_bootstrap_standard_error():
    runs = [_fake(2.0), _fake(8.0), _fake(4.0, censored=True), _fake(16.0), _fake(3.0)]
    end = certified_runs.certified_end_over(runs)
    assert end.scale == pytest.approx(4.0)
    logs = np.log([2.0, 8.0, 4.0, 16.0, 3.0])
    assert end.log_sd == pytest.approx(np.std(logs, ddof=1))
    picks = np.random.default_rng(0).integers(0, 5, (certified_runs.BOOTSTRAP, 5))
    expected = np.median(logs[picks], axis=1).std(ddof=1)
    assert end.log_se == pytest.approx(expected)
    assert 0 < end.log_se < end.log_sd
    assert (end.corpora, end.censored, end.empty) == (5, 1, 0)
    assert (
        certified_runs.certified_end_over([_fake(2.0, first=2.0), _fake(3.0)]).empty
        == 1
    )


def test_end_over_corpora_scales_with_the_ends():
    runs = [_fake(v) for v in (2.0, 5.0, 3.0, 9.0)]
    end, doubled = (
        certified_runs.certified_end_over(r)
        for r in (runs, [_fake(2 * r.b_cert) for r in runs])
    )
    assert doubled.scale == pytest.approx(2 * end.scale)
    assert doubled.log_se == pytest.approx(end.log_se)


@pytest.mark.parametrize("runs", [[_fake(2.0)], []])
def test_end_over_needs_two_runs(runs):
    with pytest.raises(ValueError, match="runs"):
        certified_runs.certified_end_over(runs)


@pytest.mark.parametrize("runs", [3, [1.0, 2.0]])
def test_end_over_needs_runs(runs):
    with pytest.raises(TypeError, match="runs"):
        certified_runs.certified_end_over(runs)


def test_end_of_size_draws_its_corpora_from_the_seed():
    end, runs = certified_runs.certified_end_of_size(
        30, 30, PRIOR, 2, (5, 9), b0=B0, b_stop=5.0, n_workers=1
    )
    again = certified_runs.certified_run(
        Corpus.sample(30, 30, PRIOR, rng=(5, 9, 30, 30, 1)),
        PRIOR,
        (A0, B0),
        ETA,
        5.0,
        until_failure=True,
    )
    assert runs[1].b_cert == again.b_cert and runs[1].eta == pytest.approx(ETA)
    assert end == certified_runs.certified_end_over(runs)


@pytest.mark.parametrize("b_stop", [2.0, 3.0])
def test_end_of_size_needs_a_stop_above_the_start(b_stop):
    # a stop at or below the start was accepted (every run censored at its start)
    with pytest.raises(ValueError, match=r"^b_stop must exceed b0 \(got [23] and 3\)"):
        certified_runs.certified_end_of_size(30, 30, PRIOR, 2, 1, b0=3.0, b_stop=b_stop)


def test_certified_scales_start_at_k_over_40_and_stop_at_three_times():
    assert certified_runs.certified_scales(400) == (10.0, 30.0)
    assert certified_runs.certified_scales(40) == (2.5, 7.5)
    with pytest.raises(ValueError, match="^k must be"):
        certified_runs.certified_scales(0)


def test_reset_keeps_q_at_its_start_value_at_each_record():
    corpus = Corpus.sample(60, 60, PRIOR, rng=(7, 1))
    run = certified_runs.certified_run(
        corpus, PRIOR, (A0, B0), ETA, b_stop=8.0, reset=True
    )
    lam = np.array([descent_lemma.curvature(a, b, PRIOR) for a, b in zip(run.a, run.b)])
    np.testing.assert_allclose(run.etas * lam, ETA * lam[0], rtol=1e-12)
    # q: the previous segment's step at this record, and this step's at both ends
    assert np.all(run.q[1:] >= run.etas[:-1] * lam[1:] * (1 - 1e-12))
    assert np.all(run.q >= run.etas * lam * (1 - 1e-12))


def test_reset_follows_the_constant_step_path():
    corpus = Corpus.sample(60, 60, PRIOR, rng=(7, 1))
    fixed = certified_runs.certified_run(corpus, PRIOR, (A0, B0), ETA, b_stop=5.0)
    reset = certified_runs.certified_run(
        corpus, PRIOR, (A0, B0), ETA, b_stop=5.0, reset=True
    )
    # both follow the corpus's gradient flow up to O(eta): a at equal b agrees
    a_fixed = np.interp(reset.b, fixed.b, fixed.a)
    np.testing.assert_allclose(reset.a, a_fixed, atol=0.05)
    assert np.all(fixed.etas == ETA)


def test_end_of_ends_matches_the_end_over_runs():
    one = np.ones(2)
    runs = [
        certified_runs.CertifiedRun(
            1.0, np.arange(2), one, one, one, one, one, one, b, c
        )
        for b, c in ((2.0, False), (8.0, True), (1.0, False))
    ]
    over = certified_runs.certified_end_over(runs)
    ends = certified_runs.certified_end_of_ends(
        [2.0, 8.0, 1.0], [False, True, False], [False, False, True]
    )
    assert over == ends and ends.censored == 1 and ends.empty == 1


def test_end_of_ends_rejects_mismatched_flags():
    with pytest.raises(ValueError, match="match b_cert"):
        certified_runs.certified_end_of_ends([2.0, 3.0], [False], [False, False])
    with pytest.raises(ValueError, match="at least two"):
        certified_runs.certified_end_of_ends([2.0], [False], [False])


def test_law_data_file_reads_typed():
    from stumplib.book import certified_data

    law = certified_data.load()
    sizes = [s.size for s in law.sizes]
    assert sizes == sorted(sizes) and law.start == 2.5 and law.stop_ratio == 0.25
    for s in law.sizes:
        assert s.q_max <= descent_lemma.Q_MAX
        assert s.end.corpora == s.b_cert.size >= 4
        assert np.all(s.b_cert[~s.censored] < s.size * law.stop_ratio)


def test_gradient_norm_and_error_are_the_signal_and_the_noise(run):
    corpus = Corpus.sample(60, 60, PRIOR, rng=(7, 1))
    i = run.b.size // 2
    g = np.array(population.gradient(run.a[i], run.b[i], PRIOR))
    G = np.array(corpus.gradient(run.a[i], run.b[i]))
    assert run.gradient_norm[i] == pytest.approx(np.linalg.norm(g), rel=1e-9)
    assert run.gradient_error[i] == pytest.approx(np.linalg.norm(G - g), rel=1e-9)


def test_gradient_norm_reads_the_reset_steps():
    corpus = Corpus.sample(40, 40, PRIOR, rng=(7, 2))
    run = certified_runs.certified_run(
        corpus, PRIOR, (A0, B0), ETA, b_stop=4.0, reset=True
    )
    norms = [np.hypot(*population.gradient(a, b, PRIOR)) for a, b in zip(run.a, run.b)]
    np.testing.assert_allclose(run.gradient_norm, norms, rtol=1e-9)
