"""Training past the corpus rule's freeze: ladders, evaluation and summaries."""

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
def result():
    return past_freeze.train_past(
        [(6, 6)], PRIOR, 3, (5, 1), reach=0.5, max_steps=300, n_workers=1
    )


def test_freeze_is_the_corpus_rule(result):
    ladder = result.ladders[0]
    frozen = corpus_rule.pretrain_noisy([(6, 6)], PRIOR, 3, (5, 1), n_workers=1)[0]
    np.testing.assert_array_equal(ladder.b[:, 0], [h.b for h in frozen])
    np.testing.assert_array_equal(ladder.a[:, 0], [h.a for h in frozen])


def test_ladder_reaches_its_points_and_the_scale(result):
    ladder = result.ladders[0]
    assert ladder.factors[0] == 1 and np.all(np.diff(np.log(ladder.factors)) > 0)
    assert ladder.factors[-1] * ladder.b[:, 0].min() >= 0.5 * 6
    for r in range(3):
        j = ladder.reached[r]
        assert np.all(ladder.b[r, :j] >= ladder.factors[:j] * ladder.b[r, 0])
        assert np.all(np.isnan(ladder.b[r, j:]))


def test_errors_offsets_and_summaries(result):
    ladder, s = result.ladders[0], result.thresholds
    ok = ~np.isnan(ladder.b)
    expected = np.abs(
        population.residual(ladder.a[ok][:, None], ladder.b[ok][:, None], s)[0]
    )
    np.testing.assert_allclose(ladder.error[ok], expected)
    np.testing.assert_allclose(
        ladder.offset[ok], calibration.offset(ladder.a[ok], ladder.b[ok], PRIOR)
    )
    change = ladder.error[:, 1:] / ladder.error[:, :1]
    margin = past_freeze.MARGIN
    np.testing.assert_array_equal(ladder.helps, np.sum(change < 1 / margin, axis=0))
    np.testing.assert_array_equal(ladder.hurts, np.sum(change > margin, axis=0))
    assert np.all(ladder.helps + ladder.hurts <= np.sum(ok[:, 1:], axis=0)[:, None])
    np.testing.assert_array_equal(ladder.worst_ratio, np.nanmax(change, axis=0))
    assert result.b_over_k == pytest.approx(np.nanmax(ladder.b) / 6)


def test_share_lowered_counts_pairs_below_the_freeze(result):
    ladder = result.ladders[0]
    ratio = ladder.error[:, 1, :2] / ladder.error[:, 0, :2]
    ratio = ratio[~np.isnan(ratio)]
    share, pairs = past_freeze.share_lowered(result)
    assert pairs == ratio.size and share == pytest.approx(np.mean(ratio < 1))
    share, pairs = past_freeze.share_lowered(result, 1, (0.85,))
    assert pairs == np.sum(~np.isnan(ladder.error[:, 1, 3]))


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(rung=0), "rung"),
        (dict(rung=99), "rung"),
        (dict(thresholds=(0.4,)), "thresholds"),
        (dict(thresholds=()), "thresholds"),
    ],
)
def test_share_lowered_bad_arguments(result, kwargs, match):
    with pytest.raises(ValueError, match=match):
        past_freeze.share_lowered(result, **kwargs)
    with pytest.raises(TypeError, match="past"):
        past_freeze.share_lowered(result.ladders)


def test_a_leg_out_of_steps_stops_its_corpus():
    corpora = [Corpus.sample(6, 6, PRIOR, rng=(5, 2, r)) for r in range(2)]
    theta = [(float(calibration.a_star(3.0, PRIOR)), 3.0)] * 2
    rows = pretraining.train_side_by_side(
        corpora, theta, [1e6], PRIOR, 5, stop_late=True
    )
    assert [len(row) for row in rows] == [1, 1] and all(
        row[0].steps == 5 for row in rows
    )
    with pytest.raises(RuntimeError, match="not reached"):
        pretraining.train_side_by_side(corpora, theta, [1e6], PRIOR, 5)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(ratio=1.0), "ratio"),
        (dict(thresholds=[]), "thresholds"),
        (dict(reach=0), "reach"),
    ],
)
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        past_freeze.train_past([(6, 6)], PRIOR, 1, 0, n_workers=1, **kwargs)
