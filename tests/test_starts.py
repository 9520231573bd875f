"""The corpus rule's certified freeze from other starts."""

import numpy as np
import pytest

from stumplib import (
    calibration,
    corpus_rule,
    descent_lemma,
    pretraining,
    starts,
    tasks,
)

PRIOR = tasks.Uniform(0.1, 0.9)


def test_rule_corpus_is_the_certified_runs_corpus():
    """From the size-tied start, freeze_from is freeze_certified, step for step."""
    rng = (4, 2)
    reference = corpus_rule.freeze_certified(80, 80, PRIOR, rng)
    corpus = starts.rule_corpus(80, 80, PRIOR, rng)
    theta0, eta = corpus_rule.size_start(80, 80, PRIOR)
    run = starts.freeze_from(corpus, PRIOR, theta0)
    assert run.eta == pytest.approx(eta * corpus_rule.CERTIFIED_FRACTION, rel=1e-12)
    assert run.steps == reference.steps
    assert run.b == pytest.approx(reference.b, rel=1e-12)
    assert run.a == pytest.approx(reference.a, rel=1e-12)
    assert run.q_max <= 2 / 9 and run.rho_max > 0


def test_start_step_is_the_smaller_lemma_step():
    a_star = float(calibration.a_star(6.0, PRIOR))
    on_valley = descent_lemma.step_bound(a_star, 6.0, PRIOR) / 3
    assert starts.start_step((a_star, 6.0), PRIOR) == pytest.approx(on_valley)
    below = descent_lemma.step_bound(a_star - 3, 6.0, PRIOR) / 3
    assert starts.start_step((a_star - 3, 6.0), PRIOR) == pytest.approx(
        min(below, on_valley)
    )
    assert starts.start_step((a_star + 3, 6.0), PRIOR) <= on_valley * (1 + 1e-12)
    assert starts.start_step((a_star, 6.0), PRIOR, 1.0) == pytest.approx(3 * on_valley)


@pytest.mark.parametrize(
    "theta0, fraction, match",
    [((1.0, 0.0), 1 / 3, "b_0 > 0"), ((1.0, -2.0), 1 / 3, "b_0 > 0"),
     ((1.0, 2.0), 1.5, "fraction")],
)  # fmt: skip
def test_start_step_rejects(theta0, fraction, match):
    with pytest.raises(ValueError, match=match):
        starts.start_step(theta0, PRIOR, fraction)


def test_freeze_from_is_the_rule_from_that_start():
    """The freeze is train_until_noisy's at the start's step; b_cert bounds it."""
    corpus = starts.rule_corpus(60, 60, PRIOR, 7)
    theta0 = (float(calibration.a_star(3.0, PRIOR)) - 2.0, 3.0)
    run = starts.freeze_from(corpus, PRIOR, theta0)
    eta = starts.start_step(theta0, PRIOR)
    plain = pretraining.train_until_noisy(corpus, theta0, eta)
    assert (run.a, run.b, run.steps) == (plain.a, plain.b, plain.steps)
    assert run.b_cert <= run.b and np.isfinite(run.rho_max)
